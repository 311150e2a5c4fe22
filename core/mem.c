/* core/mem.c: see mem.h. */
#include "core/mem.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_JEMALLOC
#include <jemalloc/jemalloc.h>
#endif

static uint64_t mem_limit; /* 0: no explicit limit */

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

/* Reads "Key:   123 kB" from a /proc file; returns bytes or 0. */
static uint64_t proc_kb(const char *path, const char *key) {
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return 0;
    }
    char line[256];
    size_t klen = strlen(key);
    uint64_t kb = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
            kb = strtoull(line + klen + 1, NULL, 10);
            break;
        }
    }
    fclose(f);
    return kb * 1024;
}

uint64_t mem_rss_peak(void) { return proc_kb("/proc/self/status", "VmHWM"); }

uint64_t mem_available(void) { return proc_kb("/proc/meminfo", "MemAvailable"); }

void mem_set_limit(uint64_t bytes) { mem_limit = bytes; }

uint64_t mem_budget(void) {
    if (mem_limit != 0) {
        return mem_limit;
    }
    uint64_t avail = mem_available();
    return avail == 0 ? UINT64_MAX : avail / 10 * 9;
}

ErrCode mem_check(uint64_t bytes, const char *what, Error *err) {
    uint64_t budget = mem_budget();
    if (bytes <= budget) {
        return ERR_OK;
    }
    char need[32], have[32];
    return error_set(err, ERR_MEMORY,
                     "%s needs an estimated %s, more than the memory budget of %s "
                     "(%s); choose a smaller variant or a solver that needs less memory",
                     what, mem_format(bytes, need, sizeof need),
                     mem_format(budget, have, sizeof have),
                     mem_limit != 0 ? "set by --max-memory" : "90% of MemAvailable");
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
