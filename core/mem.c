/* core/mem.c: see mem.h. */
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE */
#include "core/mem.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#ifdef HAVE_JEMALLOC
#include <jemalloc/jemalloc.h>
#endif

static uint64_t mem_limit; /* 0: no explicit limit */

/* A transparent huge page on x86-64: what mem_alloc_huge rounds to and
 * mem_advise_huge advises. */
#define HUGE_PAGE ((size_t)2 << 20)

const char *mem_allocator(void) {
#ifdef HAVE_JEMALLOC
    static char name[96];
    if (name[0] == '\0') {
        const char *version = NULL;
        size_t sz = sizeof version;
        if (mallctl("version", &version, &sz, NULL, 0) == 0 && version != NULL) {
            snprintf(name, sizeof name, "jemalloc %s", version);
        } else {
            snprintf(name, sizeof name, "jemalloc (version unknown)");
        }
    }
    return name;
#else
    return "system malloc (jemalloc not linked in this build)";
#endif
}

bool mem_have_jemalloc(void) {
#ifdef HAVE_JEMALLOC
    return true;
#else
    return false;
#endif
}

void mem_thread_peak_reset(void) {
#ifdef HAVE_JEMALLOC
    mallctl("thread.peak.reset", NULL, NULL, NULL, 0);
#endif
}

uint64_t mem_thread_peak(void) {
#ifdef HAVE_JEMALLOC
    uint64_t peak = 0;
    size_t sz = sizeof peak;
    if (mallctl("thread.peak.read", &peak, &sz, NULL, 0) == 0) {
        return peak;
    }
#endif
    return 0;
}

uint64_t mem_allocated(void) {
#ifdef HAVE_JEMALLOC
    uint64_t epoch = 1;
    size_t sz = sizeof epoch;
    mallctl("epoch", &epoch, &sz, &epoch, sz);
    size_t allocated = 0;
    sz = sizeof allocated;
    if (mallctl("stats.allocated", &allocated, &sz, NULL, 0) == 0) {
        return allocated;
    }
#endif
    return 0;
}

void mem_rss_peak_reset(void) {
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f != NULL) {
        fputs("5", f);
        fclose(f);
    }
}

/* Reads a whole small file into buf (NUL-terminated, truncated to n - 1
 * bytes); NULL if it cannot be read. */
static const char *read_small(const char *path, char *buf, size_t n) {
    FILE *f = path != NULL ? fopen(path, "r") : NULL;
    if (f == NULL) {
        return NULL;
    }
    size_t got = fread(buf, 1, n - 1, f);
    bool bad = ferror(f) != 0;
    fclose(f);
    buf[got] = '\0';
    return bad ? NULL : buf;
}

/* "Key:   123 kB" from the text of a /proc file, in bytes; 0 if absent. */
static uint64_t text_kb(const char *text, const char *key) {
    size_t klen = strlen(key);
    for (const char *line = text; line != NULL && *line != '\0';) {
        if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
            uint64_t kb = strtoull(line + klen + 1, NULL, 10);
            return kb > UINT64_MAX / 1024 ? UINT64_MAX : kb * 1024;
        }
        line = strchr(line, '\n');
        line = line != NULL ? line + 1 : NULL;
    }
    return 0;
}

static uint64_t proc_kb(const char *path, const char *key) {
    char buf[8192];
    return text_kb(read_small(path, buf, sizeof buf), key);
}

uint64_t mem_rss_peak(void) { return proc_kb("/proc/self/status", "VmHWM"); }

static const MemSources system_sources = {
    .meminfo = "/proc/meminfo",
    .cgroup_v2 = "/sys/fs/cgroup/memory.max",
    .cgroup_v1 = "/sys/fs/cgroup/memory/memory.limit_in_bytes",
};
static MemSources sources = {
    .meminfo = "/proc/meminfo",
    .cgroup_v2 = "/sys/fs/cgroup/memory.max",
    .cgroup_v1 = "/sys/fs/cgroup/memory/memory.limit_in_bytes",
};

void mem_set_sources(const MemSources *src) { sources = src != NULL ? *src : system_sources; }

uint64_t mem_available(void) { return proc_kb(sources.meminfo, "MemAvailable"); }

/* A cgroup limit in bytes from the file's text; 0 when there is none ("max",
 * v1's "no limit" of about 2^63, malformed text, or no file). */
static uint64_t cgroup_limit(const char *text) {
    if (text == NULL || text[0] < '0' || text[0] > '9') {
        return 0;
    }
    errno = 0;
    char *end = NULL;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno != 0 || (*end != '\0' && *end != '\n') || v >= (UINT64_C(1) << 60)) {
        return 0;
    }
    return (uint64_t)v;
}

uint64_t mem_budget_from(const char *meminfo, const char *cgroup_v2, const char *cgroup_v1,
                         char *source, size_t n) {
    uint64_t best = 0;
    const char *why = NULL;
    uint64_t avail = text_kb(meminfo, "MemAvailable");
    uint64_t total = text_kb(meminfo, "MemTotal");
    const uint64_t known[] = {avail, avail == 0 ? total : 0, cgroup_limit(cgroup_v2),
                              cgroup_limit(cgroup_v1)};
    const char *const names[] = {"90% of MemAvailable",
                                 "90% of MemTotal (MemAvailable is missing or 0)",
                                 "90% of the cgroup v2 limit", "90% of the cgroup v1 limit"};
    for (int i = 0; i < 4; i++) {
        if (known[i] != 0 && (best == 0 || known[i] < best)) {
            best = known[i];
            why = names[i];
        }
    }
    if (source != NULL && n > 0) {
        snprintf(source, n, "%s", why != NULL ? why : "unknown");
    }
    return best / 10 * 9;
}

void mem_set_limit(uint64_t bytes) { mem_limit = bytes; }

/* The budget and a description of where it came from. */
static uint64_t budget_and_source(char *source, size_t n) {
    if (mem_limit != 0) {
        snprintf(source, n, "set by --max-memory");
        return mem_limit;
    }
    char m[8192], v2[64], v1[64]; /* /proc/meminfo is about 1.5 KiB */
    return mem_budget_from(read_small(sources.meminfo, m, sizeof m),
                           read_small(sources.cgroup_v2, v2, sizeof v2),
                           read_small(sources.cgroup_v1, v1, sizeof v1), source, n);
}

uint64_t mem_budget(void) {
    char source[96];
    return budget_and_source(source, sizeof source);
}

static uint64_t mem_reserved; /* mem_reserve: bytes held outside the checked allocations */

void mem_reserve(uint64_t bytes) { mem_reserved = bytes; }

ErrCode mem_check(uint64_t bytes, const char *what, Error *err) {
    char source[96];
    uint64_t budget = budget_and_source(source, sizeof source);
    if (budget == 0) {
        return error_set(err, ERR_MEMORY,
                         "cannot tell how much memory %s may use: /proc/meminfo gives neither "
                         "MemAvailable nor MemTotal and no cgroup memory limit is set; give "
                         "--max-memory SIZE (e.g. --max-memory 2G)",
                         what);
    }
    uint64_t total = bytes > UINT64_MAX - mem_reserved ? UINT64_MAX : bytes + mem_reserved;
    if (total <= budget) {
        return ERR_OK;
    }
    char need[32], have[32], held[32], also[80] = "";
    if (mem_reserved != 0) {
        snprintf(also, sizeof also, " (plus %s of stack already reserved)",
                 mem_format(mem_reserved, held, sizeof held));
    }
    return error_set(err, ERR_MEMORY,
                     "%s needs an estimated %s%s, more than the memory budget of %s "
                     "(%s); choose a smaller variant or a solver that needs less memory",
                     what, mem_format(bytes, need, sizeof need), also,
                     mem_format(budget, have, sizeof have), source);
}

const char *mem_format(uint64_t bytes, char *buf, size_t n) {
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024.0 && u < 6) {
        v /= 1024.0;
        u++;
    }
    if (u == 0) {
        snprintf(buf, n, "%" PRIu64 " B", bytes);
    } else {
        snprintf(buf, n, "%.1f %s", v, units[u]);
    }
    return buf;
}

ErrCode mem_parse(const char *text, uint64_t *bytes, Error *err) {
    errno = 0;
    char *end = NULL;
    double v = strtod(text, &end);
    if (end == text || errno != 0 || !(v > 0) || isinf(v) || isnan(v)) {
        return error_set(err, ERR_USAGE,
                         "'%s' is not a memory size (examples: 512M, 2G, 1.5GiB, 1000000)", text);
    }
    double mult = 1;
    char unit = (char)toupper((unsigned char)*end);
    if (unit != '\0') {
        switch (unit) {
        case 'K':
            mult = 1024.0;
            break;
        case 'M':
            mult = 1024.0 * 1024;
            break;
        case 'G':
            mult = 1024.0 * 1024 * 1024;
            break;
        case 'T':
            mult = 1024.0 * 1024 * 1024 * 1024;
            break;
        default:
            return error_set(err, ERR_USAGE, "'%s': unknown memory unit (use K, M, G or T)", text);
        }
        end++;
        if (strcmp(end, "") != 0 && strcmp(end, "B") != 0 && strcmp(end, "iB") != 0 &&
            strcmp(end, "b") != 0 && strcmp(end, "ib") != 0) {
            return error_set(err, ERR_USAGE, "'%s': unknown memory unit (use K, M, G or T)", text);
        }
    }
    double total = v * mult;
    if (total < 1) {
        return error_set(err, ERR_USAGE,
                         "'%s' is less than one byte; give a memory size of at least 1 byte", text);
    }
    if (total >= 1.8e19) {
        return error_set(err, ERR_USAGE, "'%s' is too large a memory size", text);
    }
    *bytes = (uint64_t)total;
    return ERR_OK;
}

void *mem_alloc(size_t bytes, const char *what, Error *err) {
    void *p = malloc(bytes == 0 ? 1 : bytes);
    if (p == NULL) {
        char buf[32];
        error_set(err, ERR_MEMORY, "out of memory allocating %s for %s",
                  mem_format(bytes, buf, sizeof buf), what);
    }
    return p;
}

void *mem_calloc(size_t count, size_t size, const char *what, Error *err) {
    if (size != 0 && count > SIZE_MAX / size) {
        error_set(err, ERR_MEMORY, "%s: size overflow (%zu x %zu bytes)", what, count, size);
        return NULL;
    }
    void *p = calloc(count == 0 ? 1 : count, size == 0 ? 1 : size);
    if (p == NULL) {
        char buf[32];
        error_set(err, ERR_MEMORY, "out of memory allocating %s for %s",
                  mem_format((uint64_t)count * size, buf, sizeof buf), what);
    }
    return p;
}

void *mem_alloc_huge(size_t bytes) {
    size_t n = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    void *p = aligned_alloc(HUGE_PAGE, n > 0 ? n : HUGE_PAGE);
    if (p != NULL) {
        mem_advise_huge(p, n);
    }
    return p;
}

void *mem_alloc_big(size_t bytes, size_t at_least) {
    return bytes >= at_least ? mem_alloc_huge(bytes) : malloc(bytes);
}

#ifdef HAVE_JEMALLOC
/* The huge-page arena: jemalloc's default extent hooks, with an alloc that
 * advises each fresh mapping. Without the default hooks an arena does not
 * grow a retained range; it maps each extent it needs through alloc. */
static extent_hooks_t *default_hooks;
static extent_hooks_t huge_hooks;
static unsigned huge_arena;
static bool huge_arena_ok;
static pthread_once_t huge_once = PTHREAD_ONCE_INIT;

static void *huge_extent_alloc(extent_hooks_t *hooks, void *addr, size_t size, size_t align,
                               bool *zero, bool *commit, unsigned arena) {
    (void)hooks;
    if (addr == NULL && size >= HUGE_PAGE && align < HUGE_PAGE) {
        align = HUGE_PAGE; /* whole huge pages from the start of the extent */
    }
    void *p = default_hooks->alloc(default_hooks, addr, size, align, zero, commit, arena);
    if (p != NULL) {
        mem_advise_huge(p, size);
    }
    return p;
}

static void huge_arena_make(void) {
    size_t sz = sizeof default_hooks;
    if (mallctl("arena.0.extent_hooks", &default_hooks, &sz, NULL, 0) != 0 ||
        default_hooks == NULL) {
        return;
    }
    huge_hooks = *default_hooks;
    huge_hooks.alloc = huge_extent_alloc;
    extent_hooks_t *hooks = &huge_hooks;
    sz = sizeof huge_arena;
    huge_arena_ok = mallctl("arenas.create", &huge_arena, &sz, &hooks, sizeof hooks) == 0;
}
#endif

bool mem_huge_arena_begin(unsigned *prev) {
#ifdef HAVE_JEMALLOC
    pthread_once(&huge_once, huge_arena_make);
    size_t sz = sizeof *prev;
    unsigned arena = huge_arena;
    return huge_arena_ok && mallctl("thread.arena", prev, &sz, &arena, sizeof arena) == 0;
#else
    (void)prev;
    return false;
#endif
}

void mem_huge_arena_end(unsigned prev) {
#ifdef HAVE_JEMALLOC
    mallctl("thread.arena", NULL, NULL, &prev, sizeof prev);
#else
    (void)prev;
#endif
}

void mem_advise_huge(void *p, uint64_t bytes) {
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = HUGE_PAGE;
    uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1), e = ((uintptr_t)p + bytes) & ~(huge - 1);
    if (bytes >= huge && e > a) {
        (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
    }
#else
    (void)p;
    (void)bytes;
#endif
}
