/* core/dist.h: the distributed (MPI) layer of the tier solver.
 *
 * Built with -DUSE_MPI (bin/solve-mpi, compiled by mpicc) every call goes to
 * Open MPI; built without it (bin/solve, the tests) the program is one rank
 * of one, and every function is a trivial no-op: the single-process solver
 * is the same code with these calls doing nothing.
 *
 * Threads: MPI is initialized with MPI_THREAD_FUNNELED; only the thread that
 * called dist_init (OpenMP's thread 0 outside parallel regions) may call the
 * collectives below.
 *
 * Collectives: every rank must make the same sequence of calls. Errors are
 * made collective with dist_agree at each step boundary: a rank that failed
 * (a refused allocation, a file error) reaches the next dist_agree instead
 * of the next exchange, and there every rank learns the failure, with the
 * failing rank's message, so no rank waits for one that has given up. A
 * rank that dies (a signal, exit without MPI_Finalize) is noticed by mpirun,
 * which ends the job and names the rank. An MPI call that fails aborts the
 * job (MPI_ERRORS_ARE_FATAL, the default handler).
 *
 * Accounting: dist keeps, for the step in progress and in total, the payload
 * bytes each collective sends and receives on this rank (the logical volume
 * of ring algorithms: an allreduce of n bytes on N ranks sends and receives
 * 2n(N-1)/N, an allgather sends its own part to N-1 ranks and receives the
 * rest) and the seconds spent inside MPI calls (waiting for slower ranks and
 * moving data); everything else is computing.
 */
#ifndef CORE_DIST_H
#define CORE_DIST_H

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"

/* Starts MPI (without USE_MPI, one rank of one). Call first thing in main.
 * Reads GAMESMAN_DIST_MAX_MSG (core/dist.c); a malformed or out-of-range
 * value is ERR_USAGE on every rank (agreed as dist_agree does: rank 0
 * reports it), after which the caller calls dist_finalize and exits. */
ErrCode dist_init(int *argc, char ***argv, Error *err);

/* Ends MPI; call once before exiting normally. */
void dist_finalize(void);

/* This process's rank (0..size-1) and the number of ranks (1 without MPI). */
int dist_rank(void);
int dist_size(void);

/* True in an MPI build (bin/solve-mpi), whatever the number of ranks. */
bool dist_compiled(void);

/* Collective: combines the step's outcome of every rank. Returns ERR_OK when
 * every rank passed rc == ERR_OK; otherwise every rank returns the code of
 * the lowest failing rank, and err gets its message prefixed with
 * "rank R of N: " (when N > 1). */
ErrCode dist_agree(ErrCode rc, Error *err);

/* True when err holds an error that dist_agree made collective and this is
 * not rank 0: rank 0 prints it, the others keep quiet. */
bool dist_error_is_shared(const Error *err);

/* Collective: words[0..n) becomes the bitwise OR over the ranks. */
void dist_or_words(uint64_t *words, uint64_t n);

/* Collective: base holds `total` bytes of which rank r owns
 * [bounds[r], bounds[r+1]) (bounds has size+1 entries, nondecreasing,
 * bounds[0] = 0, bounds[size] = total); each rank has filled its own range,
 * and on return every rank holds all of them. */
void dist_share_ranges(void *base, const uint64_t *bounds, uint64_t total);

/* Collective: the sum and the maximum of x over the ranks. */
uint64_t dist_sum_u64(uint64_t x);
uint64_t dist_max_u64(uint64_t x);
double dist_max_double(double x);

/* Collective: the element-wise sum of x[0..n) over the ranks, in place. */
void dist_sum_words(uint64_t *x, uint64_t n);

/* Collective: passes `bytes` of state along the ranks in order. Rank 0
 * calls step(state, ctx) on its own state and sends the result to rank 1,
 * which calls step on it and sends it on, and so on; the last rank's result
 * then goes to every rank (in `state`). For a computation over data laid
 * out in rank order, such as a checksum over the ranks' slices of a tier
 * (core/dbfile.h's DbfileSum). N - 1 messages plus a broadcast. */
void dist_chain(void *state, uint64_t bytes, void (*step)(void *state, void *ctx), void *ctx);

/* How dist_fetch moves the elements. */
typedef enum DistFetchMode {
    DIST_FETCH_ALLTOALL, /* requests and answers by MPI_Alltoallv (both sides work) */
    DIST_FETCH_RMA,      /* one MPI_Get per owner from an MPI window (only the reader works) */
} DistFetchMode;

/* Collective: a batched look-up of elements other ranks hold.
 *
 * A table of `size` elements of `elem` bytes is split among the ranks by
 * 64-element words: rank q holds the elements [64 words[q], min(64
 * words[q+1], size)) (words has N+1 nondecreasing entries, words[N] =
 * ceil(size / 64)), this rank's in `mine` (its first element at mine[0]).
 * `need` is a bitmap over the whole table (words[N] words) of the elements
 * this rank wants, none of them its own. On return `out` holds them, packed
 * in increasing index order (popcount(need) elements).
 *
 * DIST_FETCH_ALLTOALL: each rank sends each owner the words of `need` over
 * the owner's range (an MPI_Alltoallv of bitmap words, the requests), and
 * each owner answers with the elements of the set bits (a second
 * MPI_Alltoallv): sends and receives need/8 bytes of requests per owner
 * range plus the elements. DIST_FETCH_RMA: each owner exposes `mine` in an
 * MPI window (MPI_Win_create; passive target, MPI_Win_lock_all) and each
 * rank reads what it wants with MPI_Get, the wanted offsets in an hindexed
 * target datatype, in pieces of at most 2^22 elements: no request bitmap,
 * but the datatype's offsets (8 bytes per element) travel inside MPI.
 * Accounted as received: the elements (and the request bitmaps for
 * ALLTOALL); sent: what this rank sends. Allocation failures abort the job
 * with a message naming the rank (like the collectives' own failures). */
void dist_fetch(DistFetchMode how, const uint64_t *words, uint64_t size, uint64_t elem,
                const void *mine, const uint64_t *need, void *out);

/* Payload bytes and seconds inside MPI since the last dist_stats_take
 * (which resets them) and since dist_init. */
typedef struct DistStats {
    uint64_t sent;
    uint64_t received;
    double mpi_seconds;
} DistStats;
DistStats dist_stats_take(void);
DistStats dist_stats_total(void);

#endif /* CORE_DIST_H */
