/* core/stats.c: see stats.h. */
#include "core/stats.h"

#include <stddef.h>
#include <string.h>

#if STATS
_Thread_local Counters stats_tls;
#endif

#define COUNTER_NAME(name) #name,
const char *const counter_names[COUNTER_COUNT] = {COUNTER_FIELDS(COUNTER_NAME)};
#undef COUNTER_NAME

#define COUNTER_ONE(name) +1
_Static_assert(0 COUNTER_FIELDS(COUNTER_ONE) == COUNTER_COUNT, "COUNTER_COUNT is out of date");
#undef COUNTER_ONE

void stats_thread_reset(void) {
#if STATS
    memset(&stats_tls, 0, sizeof stats_tls);
#endif
}

void counters_add(Counters *sum, const Counters *add) {
#define COUNTER_SUM(name) sum->name += add->name;
    COUNTER_FIELDS(COUNTER_SUM)
#undef COUNTER_SUM
}

void stats_thread_collect(Counters *sum) {
#if STATS
    counters_add(sum, &stats_tls);
    stats_thread_reset();
#else
    (void)sum;
#endif
}

#define COUNTER_OFFSET(name) offsetof(Counters, name),
static const size_t counter_offsets[COUNTER_COUNT] = {COUNTER_FIELDS(COUNTER_OFFSET)};
#undef COUNTER_OFFSET

uint64_t counters_get(const Counters *c, int i) {
    if (i < 0 || i >= COUNTER_COUNT) {
        return 0;
    }
    uint64_t v;
    memcpy(&v, (const char *)c + counter_offsets[i], sizeof v);
    return v;
}

void counters_set(Counters *c, int i, uint64_t value) {
    if (i >= 0 && i < COUNTER_COUNT) {
        memcpy((char *)c + counter_offsets[i], &value, sizeof value);
    }
}
