/* core/stats.h: per-solve instrumentation counters.
 *
 * Every counter is a plain increment on a thread-local block, so counting
 * needs no locks and no argument threading through game calls. A solve
 * resets the block of each thread it runs on and sums the blocks when the
 * phase ends (stats_thread_collect). Build with STATS=0 for timing: the
 * increments then compile to nothing, so a time is never paid for by the
 * counting. The default (STATS=1) counts.
 *
 * Counters (what one increment means):
 *   hash            a board was encoded into a position (hash/ functions)
 *   unhash          a position was decoded into a board (hash/ functions)
 *   primitive       a primitive() call, stateless or GPS
 *   generate_moves  a generate_moves() call
 *   do_move         a do_move() call
 *   undo_move       a GPS undo_move() call
 *   parents         a generate_parents() call
 *   calls           a recursive solver call (DFS family), or one position
 *                   processed by an iterative solver
 *   edges           a (position, move) pair examined
 *   db_reads        a value-database read by the solver
 *   db_writes       a value-database write by the solver
 *   sweeps          a pass over the whole position array (sweep solver)
 */
#ifndef CORE_STATS_H
#define CORE_STATS_H

#include <stdint.h>

/* The list of counters, in report order. X(name) per counter. */
#define COUNTER_FIELDS(X)                                                                          \
    X(hash)                                                                                        \
    X(unhash)                                                                                      \
    X(primitive)                                                                                   \
    X(generate_moves)                                                                              \
    X(do_move)                                                                                     \
    X(undo_move)                                                                                   \
    X(parents)                                                                                     \
    X(calls)                                                                                       \
    X(edges)                                                                                       \
    X(db_reads)                                                                                    \
    X(db_writes)                                                                                   \
    X(sweeps)

typedef struct Counters {
#define COUNTER_DECLARE(name) uint64_t name;
    COUNTER_FIELDS(COUNTER_DECLARE)
#undef COUNTER_DECLARE
} Counters;

#ifndef STATS
#define STATS 1
#endif

/* True when this build counts (STATS=1). */
#define STATS_ENABLED (STATS != 0)

#if STATS
extern _Thread_local Counters stats_tls;
#define STAT_INC(field) ((void)(stats_tls.field++))
#define STAT_ADD(field, n) ((void)(stats_tls.field += (uint64_t)(n)))
#else
#define STAT_INC(field) ((void)0)
#define STAT_ADD(field, n) ((void)0)
#endif

/* Zeroes the calling thread's counters. */
void stats_thread_reset(void);

/* Adds the calling thread's counters into *sum and zeroes them. The caller
 * serializes calls that share one sum (e.g. an OpenMP critical section). */
void stats_thread_collect(Counters *sum);

/* *sum += *add, field by field. */
void counters_add(Counters *sum, const Counters *add);

/* Number of counters and their names, in report order. */
#define COUNTER_COUNT 12
extern const char *const counter_names[COUNTER_COUNT];

/* The value of counter i (0 <= i < COUNTER_COUNT) in c, and setting it. */
uint64_t counters_get(const Counters *c, int i);
void counters_set(Counters *c, int i, uint64_t value);

#endif /* CORE_STATS_H */
