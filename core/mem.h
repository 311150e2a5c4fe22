/* core/mem.h: memory accounting and the memory budget.
 *
 * jemalloc is the allocator (the release and timing builds link it, so
 * malloc is jemalloc's). A solve's peak comes from its statistics:
 * thread.peak.read gives the peak of (allocated - deallocated) bytes on a
 * thread since thread.peak.reset. A multi-threaded solve adds the peaks of
 * its threads (an upper bound on the true joint peak). The peak resident set
 * (VmHWM, reset through /proc/self/clear_refs) is reported beside it, as a
 * check that counts everything the process touched.
 *
 * The sanitizer build cannot use jemalloc (ASan replaces malloc); there the
 * jemalloc figures read 0 and mem_allocator() says so.
 *
 * Large solves call mem_check() with their estimate before allocating, and
 * refuse with a clear message when it will not fit.
 */
#ifndef CORE_MEM_H
#define CORE_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

/* "jemalloc 5.3.0-..." or a note that jemalloc is not linked. */
const char *mem_allocator(void);

/* True when jemalloc's statistics are available in this build. */
bool mem_have_jemalloc(void);

/* Resets the calling thread's jemalloc peak. */
void mem_thread_peak_reset(void);

/* The calling thread's jemalloc peak since the last reset (0 without jemalloc). */
uint64_t mem_thread_peak(void);

/* Bytes currently allocated by the whole process according to jemalloc
 * (stats.allocated after an epoch refresh; 0 without jemalloc). */
uint64_t mem_allocated(void);

/* Resets the process peak resident set size (best effort). */
void mem_rss_peak_reset(void);

/* Peak resident set size of the process in bytes since the last reset. */
uint64_t mem_rss_peak(void);

/* Where the default budget is read from; tests point these at files of
 * their own (mem_set_sources(NULL) restores the system's). */
typedef struct MemSources {
    const char *meminfo;   /* /proc/meminfo */
    const char *cgroup_v2; /* /sys/fs/cgroup/memory.max */
    const char *cgroup_v1; /* /sys/fs/cgroup/memory/memory.limit_in_bytes */
} MemSources;
void mem_set_sources(const MemSources *src);

/* MemAvailable from /proc/meminfo in bytes (0 if unknown). */
uint64_t mem_available(void);

/* The default budget from the texts of those files (NULL: unreadable): 90%
 * of the smallest known of MemAvailable (MemTotal when MemAvailable is
 * missing or 0: containers, old kernels), the cgroup v2 limit and the
 * cgroup v1 limit ("max" and v1's ~2^63 mean no limit). Writes where it
 * came from into source ("90% of MemAvailable", "unknown"). Returns 0 when
 * nothing is known: the caller must not guess. */
uint64_t mem_budget_from(const char *meminfo, const char *cgroup_v2, const char *cgroup_v1,
                         char *source, size_t n);

/* The memory budget of a solve: the limit set by mem_set_limit (from
 * --max-memory), otherwise mem_budget_from() over the system's files; 0
 * when unknown, which mem_check refuses with a message asking for
 * --max-memory. */
uint64_t mem_budget(void);
void mem_set_limit(uint64_t bytes);

/* Bytes held outside the allocations mem_check sees (a solver thread's
 * stack while it runs); mem_check adds them to every estimate. Set, not
 * added: mem_reserve(0) releases. */
void mem_reserve(uint64_t bytes);

/* Returns ERR_OK when `bytes` (plus what mem_reserve holds) fit the budget;
 * otherwise ERR_MEMORY with a message naming `what`, the estimate, the
 * budget and where the budget came from (--max-memory, MemAvailable...). */
ErrCode mem_check(uint64_t bytes, const char *what, Error *err);

/* Formats bytes as "12.3 MiB" into buf. Returns buf. */
const char *mem_format(uint64_t bytes, char *buf, size_t n);

/* Parses "512M", "2G", "1.5GiB", "1000000" into bytes; refuses sizes
 * under one byte (0.5 would round to 0, which means no limit). */
ErrCode mem_parse(const char *text, uint64_t *bytes, Error *err);

/* malloc, rounded up to whole 2 MiB pages, 2 MiB-aligned and advised to
 * use transparent huge pages (MADV_HUGEPAGE), so that touching it costs one
 * page fault per 2 MiB, not per 4 KiB (each huge page touched is resident
 * whole). A fresh 4 KiB page costs about 15 us on a virtual machine
 * (docs/connect-four.md, scripts/measure/page-costs.sh): for a buffer of a
 * megabyte or more filled at once, this is the cheaper way. Free with free(). */
void *mem_alloc_huge(size_t bytes);

/* mem_alloc_huge from `at_least` bytes on, malloc below (a small buffer
 * would hold a whole huge page resident). Free with free(). */
void *mem_alloc_big(size_t bytes, size_t at_least);

/* Advises huge pages on the whole 2 MiB pages inside [p, p + bytes), before
 * they are first touched. A hint: ignored where the kernel has no THP or
 * disables it. */
void mem_advise_huge(void *p, uint64_t bytes);

/* Routes the calling thread's allocations, until mem_huge_arena_end, to a
 * jemalloc arena of its own whose fresh mappings are advised MADV_HUGEPAGE
 * (mem_advise_huge) before anything touches them. For memory that a library
 * allocates through malloc and then reaches at random, where a TLB miss a
 * probe is the cost: BuDDy's node table and operator caches (the symbolic
 * solver's `thp` option; docs/symbolic.md gives the times). Memory
 * allocated meanwhile may be freed at any time after. Returns false, and
 * changes nothing, where jemalloc is not linked or the arena cannot be
 * made; else *prev is the arena to give back. */
bool mem_huge_arena_begin(unsigned *prev);

/* Gives the calling thread back the arena mem_huge_arena_begin saved. */
void mem_huge_arena_end(unsigned prev);

/* malloc/calloc that report failure through err with a clear message. */
void *mem_alloc(size_t bytes, const char *what, Error *err);
void *mem_calloc(size_t count, size_t size, const char *what, Error *err);

#endif /* CORE_MEM_H */
