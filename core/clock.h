/* core/clock.h: the monotonic wall clock used around every solve, and the
 * process's CPU clock. */
#ifndef CORE_CLOCK_H
#define CORE_CLOCK_H

#include <time.h>

/* Seconds on CLOCK_MONOTONIC (arbitrary origin; differences are wall time). */
static inline double clock_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The CPU seconds of the whole process, every thread (CLOCK_PROCESS_CPUTIME_ID). */
static inline double clock_cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif /* CORE_CLOCK_H */
