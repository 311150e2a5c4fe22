/* core/dist.c: the MPI layer (core/dist.h); one rank of one without USE_MPI.
 *
 * Large exchanges: MPI counts are ints, so a range sharing whose total fits
 * in DIST_MAX_MSG bytes is one MPI_Allgatherv (MPI_IN_PLACE); a larger one
 * is a broadcast from each owner in pieces of at most DIST_MAX_MSG bytes,
 * which moves the same bytes. The environment variable GAMESMAN_DIST_MAX_MSG
 * (bytes, at least 64) lowers the limit so that the tests exercise the
 * second path on small games.
 */
#include "core/dist.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"

#ifdef USE_MPI
#include <mpi.h>
#endif

static int rank_id = 0;
static int nranks = 1;
static bool failure_shared = false;
static DistStats step, total;

#define DIST_MAX_MSG_DEFAULT (UINT64_C(1) << 30)
static uint64_t max_msg = DIST_MAX_MSG_DEFAULT;

bool dist_compiled(void) {
#ifdef USE_MPI
    return true;
#else
    return false;
#endif
}

int dist_rank(void) { return rank_id; }
int dist_size(void) { return nranks; }

bool dist_error_is_shared(const Error *err) {
    return failure_shared && rank_id != 0 && err != NULL && err->code != ERR_OK;
}

static void account(uint64_t sent, uint64_t received, double seconds) {
    step.sent += sent;
    step.received += received;
    step.mpi_seconds += seconds;
    total.sent += sent;
    total.received += received;
    total.mpi_seconds += seconds;
}

DistStats dist_stats_take(void) {
    DistStats s = step;
    memset(&step, 0, sizeof step);
    return s;
}

DistStats dist_stats_total(void) { return total; }

#ifdef USE_MPI

void dist_init(int *argc, char ***argv) {
    int provided = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_id);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    const char *env = getenv("GAMESMAN_DIST_MAX_MSG");
    if (env != NULL) {
        unsigned long long v = strtoull(env, NULL, 10);
        if (v >= 64 && v <= DIST_MAX_MSG_DEFAULT) {
            max_msg = v;
        }
    }
}

void dist_finalize(void) { MPI_Finalize(); }

ErrCode dist_agree(ErrCode rc, Error *err) {
    if (nranks == 1) {
        return rc;
    }
    double t0 = clock_seconds();
    int mine = rc != ERR_OK ? rank_id : nranks, first = nranks;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == nranks) {
        account(0, 0, clock_seconds() - t0);
        return ERR_OK;
    }
    struct {
        int code;
        char msg[sizeof err->msg];
    } m = {0};
    if (rank_id == first) {
        m.code = (int)rc;
        snprintf(m.msg, sizeof m.msg, "%s", err->msg);
    }
    MPI_Bcast(&m, (int)sizeof m, MPI_BYTE, first, MPI_COMM_WORLD);
    account(0, 0, clock_seconds() - t0);
    error_set(err, (ErrCode)m.code, "%s", m.msg);
    error_prefix(err, "rank %d of %d: ", first, nranks);
    failure_shared = true;
    return (ErrCode)m.code;
}

void dist_or_words(uint64_t *words, uint64_t n) {
    if (nranks == 1 || n == 0) {
        return;
    }
    double t0 = clock_seconds();
    uint64_t piece = max_msg / 8;
    for (uint64_t off = 0; off < n; off += piece) {
        uint64_t k = n - off < piece ? n - off : piece;
        MPI_Allreduce(MPI_IN_PLACE, words + off, (int)k, MPI_UINT64_T, MPI_BOR, MPI_COMM_WORLD);
    }
    uint64_t ring = n * 8 * 2 * (uint64_t)(nranks - 1) / (uint64_t)nranks;
    account(ring, ring, clock_seconds() - t0);
}

void dist_share_ranges(void *base, const uint64_t *bounds, uint64_t total_bytes) {
    if (nranks == 1 || total_bytes == 0) {
        return;
    }
    double t0 = clock_seconds();
    uint64_t own = bounds[rank_id + 1] - bounds[rank_id];
    unsigned char *b = base;
    if (total_bytes <= max_msg && total_bytes <= INT_MAX) {
        int *counts = malloc((size_t)nranks * sizeof *counts);
        int *displs = malloc((size_t)nranks * sizeof *displs);
        if (counts == NULL || displs == NULL) {
            fprintf(stderr, "solve: rank %d: out of memory for an exchange\n", rank_id);
            MPI_Abort(MPI_COMM_WORLD, ERR_MEMORY);
        }
        for (int r = 0; r < nranks; r++) {
            counts[r] = (int)(bounds[r + 1] - bounds[r]);
            displs[r] = (int)bounds[r];
        }
        MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, b, counts, displs, MPI_BYTE,
                       MPI_COMM_WORLD);
        free(counts);
        free(displs);
    } else {
        for (int r = 0; r < nranks; r++) {
            for (uint64_t off = bounds[r]; off < bounds[r + 1]; off += max_msg) {
                uint64_t k = bounds[r + 1] - off < max_msg ? bounds[r + 1] - off : max_msg;
                MPI_Bcast(b + off, (int)k, MPI_BYTE, r, MPI_COMM_WORLD);
            }
        }
    }
    account(own * (uint64_t)(nranks - 1), total_bytes - own, clock_seconds() - t0);
}

uint64_t dist_sum_u64(uint64_t x) {
    uint64_t y = x;
    if (nranks > 1) {
        MPI_Allreduce(&x, &y, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    }
    return y;
}

uint64_t dist_max_u64(uint64_t x) {
    uint64_t y = x;
    if (nranks > 1) {
        MPI_Allreduce(&x, &y, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    }
    return y;
}

double dist_max_double(double x) {
    double y = x;
    if (nranks > 1) {
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    return y;
}

#else /* one rank of one */

void dist_init(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    (void)max_msg;
}

void dist_finalize(void) {}

ErrCode dist_agree(ErrCode rc, Error *err) {
    (void)err;
    return rc;
}

void dist_or_words(uint64_t *words, uint64_t n) {
    (void)words;
    (void)n;
}

void dist_share_ranges(void *base, const uint64_t *bounds, uint64_t total_bytes) {
    (void)base;
    (void)bounds;
    (void)total_bytes;
    (void)account;
}

uint64_t dist_sum_u64(uint64_t x) { return x; }
uint64_t dist_max_u64(uint64_t x) { return x; }
double dist_max_double(double x) { return x; }

#endif
