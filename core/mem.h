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

/* MemAvailable from /proc/meminfo in bytes (0 if unknown). */
uint64_t mem_available(void);

/* The memory budget of a solve: the limit set by mem_set_limit (from
 * --max-memory), otherwise 90% of MemAvailable. */
uint64_t mem_budget(void);
void mem_set_limit(uint64_t bytes);

/* Returns ERR_OK when `bytes` fit the budget; otherwise ERR_MEMORY with a
 * message naming `what`, the estimate and the budget. */
ErrCode mem_check(uint64_t bytes, const char *what, Error *err);

/* Formats bytes as "12.3 MiB" into buf. Returns buf. */
const char *mem_format(uint64_t bytes, char *buf, size_t n);

/* Parses "512M", "2G", "1.5GiB", "1000000" into bytes. */
ErrCode mem_parse(const char *text, uint64_t *bytes, Error *err);

/* malloc/calloc that report failure through err with a clear message. */
void *mem_alloc(size_t bytes, const char *what, Error *err);
void *mem_calloc(size_t count, size_t size, const char *what, Error *err);

#endif /* CORE_MEM_H */
