/* core/dist.c: the MPI layer (core/dist.h); one rank of one without USE_MPI.
 *
 * Large exchanges: MPI counts are ints, so a range sharing whose total fits
 * in DIST_MAX_MSG bytes is one MPI_Allgatherv (MPI_IN_PLACE); a larger one
 * is a broadcast from each owner in pieces of at most DIST_MAX_MSG bytes,
 * which moves the same bytes. The environment variable GAMESMAN_DIST_MAX_MSG
 * (bytes, 64 to 2^30) lowers the limit so that the tests exercise the
 * second path on small games; any other value is refused (dist_init).
 */
#include "core/dist.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/options.h"

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

/* GAMESMAN_DIST_MAX_MSG into max_msg, on every build (so that a bad value
 * is refused with MPI or without): unset, the default stays. */
static ErrCode read_max_msg(Error *err) {
    int64_t v = (int64_t)max_msg;
    ErrCode rc = env_int64("GAMESMAN_DIST_MAX_MSG", 64, (int64_t)DIST_MAX_MSG_DEFAULT,
                           "a number of bytes from 64 to 1073741824", &v, err);
    max_msg = (uint64_t)v;
    return rc;
}

#ifdef USE_MPI

ErrCode dist_init(int *argc, char ***argv, Error *err) {
    int provided = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_id);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    return dist_agree(read_max_msg(err), err);
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

/* An in-place all-reduce of n words in pieces of at most max_msg bytes,
 * accounted as a ring all-reduce: 2 (N - 1) / N of the bytes each way. */
static void allreduce_words(uint64_t *words, uint64_t n, MPI_Op op) {
    if (nranks == 1 || n == 0) {
        return;
    }
    double t0 = clock_seconds();
    uint64_t piece = max_msg / 8;
    for (uint64_t off = 0; off < n; off += piece) {
        uint64_t k = n - off < piece ? n - off : piece;
        MPI_Allreduce(MPI_IN_PLACE, words + off, (int)k, MPI_UINT64_T, op, MPI_COMM_WORLD);
    }
    uint64_t ring = n * 8 * 2 * (uint64_t)(nranks - 1) / (uint64_t)nranks;
    account(ring, ring, clock_seconds() - t0);
}

void dist_or_words(uint64_t *words, uint64_t n) { allreduce_words(words, n, MPI_BOR); }

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

void dist_sum_words(uint64_t *x, uint64_t n) { allreduce_words(x, n, MPI_SUM); }

void dist_chain(void *state, uint64_t bytes, void (*step)(void *state, void *ctx), void *ctx) {
    if (nranks == 1) {
        step(state, ctx);
        return;
    }
    double t0 = clock_seconds();
    if (rank_id > 0) {
        MPI_Recv(state, (int)bytes, MPI_BYTE, rank_id - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    double t1 = clock_seconds();
    step(state, ctx);
    double t2 = clock_seconds();
    if (rank_id + 1 < nranks) {
        MPI_Send(state, (int)bytes, MPI_BYTE, rank_id + 1, 0, MPI_COMM_WORLD);
    }
    MPI_Bcast(state, (int)bytes, MPI_BYTE, nranks - 1, MPI_COMM_WORLD);
    account(rank_id + 1 < nranks ? bytes : 0, rank_id > 0 ? bytes : 0,
            (t1 - t0) + (clock_seconds() - t2));
}

static void *fetch_alloc(uint64_t bytes) {
    void *p = calloc(1, bytes > 0 ? (size_t)bytes : 1);
    if (p == NULL) {
        fprintf(stderr, "solve: rank %d of %d: out of memory for a look-up of child records\n",
                rank_id, nranks);
        MPI_Abort(MPI_COMM_WORLD, ERR_MEMORY);
    }
    return p;
}

/* Every rank sends scount[r] bytes from send + sdispl[r] to rank r and
 * receives rcount[r] bytes from rank r at recv + rdispl[r]: one
 * MPI_Alltoallv when every rank's totals fit an int and max_msg, else
 * pairwise nonblocking sends and receives in pieces of at most max_msg
 * (the same bytes). */
static void exchange(const unsigned char *send, const uint64_t *scount, const uint64_t *sdispl,
                     unsigned char *recv, const uint64_t *rcount, const uint64_t *rdispl) {
    uint64_t most = 0;
    for (int r = 0; r < nranks; r++) {
        most = sdispl[r] + scount[r] > most ? sdispl[r] + scount[r] : most;
        most = rdispl[r] + rcount[r] > most ? rdispl[r] + rcount[r] : most;
    }
    MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    if (most <= max_msg && most <= INT_MAX) {
        int *c = fetch_alloc(4 * (uint64_t)nranks * sizeof *c);
        for (int r = 0; r < nranks; r++) {
            c[r] = (int)scount[r];
            c[nranks + r] = (int)sdispl[r];
            c[2 * nranks + r] = (int)rcount[r];
            c[3 * nranks + r] = (int)rdispl[r];
        }
        MPI_Alltoallv(send, c, c + nranks, MPI_BYTE, recv, c + 2 * nranks, c + 3 * nranks, MPI_BYTE,
                      MPI_COMM_WORLD);
        free(c);
        return;
    }
    for (int d = 1; d < nranks; d++) {
        int to = (rank_id + d) % nranks, from = (rank_id - d + nranks) % nranks;
        uint64_t sent = 0, got = 0;
        /* the pieces of each direction in order; the two directions may
         * have different numbers of pieces */
        while (sent < scount[to] || got < rcount[from]) {
            MPI_Request q[2];
            int nq = 0;
            uint64_t ks = scount[to] - sent < max_msg ? scount[to] - sent : max_msg;
            uint64_t kr = rcount[from] - got < max_msg ? rcount[from] - got : max_msg;
            if (kr > 0) {
                MPI_Irecv(recv + rdispl[from] + got, (int)kr, MPI_BYTE, from, 1, MPI_COMM_WORLD,
                          &q[nq++]);
            }
            if (ks > 0) {
                MPI_Isend(send + sdispl[to] + sent, (int)ks, MPI_BYTE, to, 1, MPI_COMM_WORLD,
                          &q[nq++]);
            }
            MPI_Waitall(nq, q, MPI_STATUSES_IGNORE);
            sent += ks;
            got += kr;
        }
    }
}

static uint64_t popcount_words(const uint64_t *w, uint64_t n) {
    uint64_t c = 0;
    for (uint64_t i = 0; i < n; i++) {
        c += (uint64_t)__builtin_popcountll(w[i]);
    }
    return c;
}

static void fetch_alltoall(const uint64_t *words, uint64_t elem, const unsigned char *mine,
                           const uint64_t *need, unsigned char *out) {
    int n = nranks, me = rank_id;
    uint64_t own = words[me + 1] - words[me];
    uint64_t *v = fetch_alloc(6 * (uint64_t)n * sizeof *v);
    uint64_t *sc = v, *sd = v + n, *rc = v + 2 * n, *rd = v + 3 * n, *ac = v + 4 * n,
             *ad = v + 5 * n;
    /* Requests: the need words over each owner's range, to that owner. */
    for (int r = 0; r < n; r++) {
        sc[r] = r == me ? 0 : (words[r + 1] - words[r]) * 8;
        sd[r] = words[r] * 8;
        rc[r] = r == me ? 0 : own * 8;
        rd[r] = (uint64_t)r * own * 8;
    }
    uint64_t *req = fetch_alloc((uint64_t)n * own * 8);
    exchange((const unsigned char *)need, sc, sd, (unsigned char *)req, rc, rd);
    /* Answers: the elements of each requester's set bits, packed in order. */
    uint64_t total = 0;
    for (int r = 0; r < n; r++) {
        ac[r] = r == me ? 0 : popcount_words(req + (uint64_t)r * own, own) * elem;
        ad[r] = total;
        total += ac[r];
    }
    unsigned char *ans = fetch_alloc(total);
    for (int r = 0; r < n; r++) {
        if (r == me) {
            continue;
        }
        unsigned char *o = ans + ad[r];
        const uint64_t *q = req + (uint64_t)r * own;
        for (uint64_t w = 0; w < own; w++) {
            for (uint64_t bits = q[w]; bits != 0; bits &= bits - 1) {
                uint64_t i = w * 64 + (uint64_t)__builtin_ctzll(bits);
                memcpy(o, mine + i * elem, elem);
                o += elem;
            }
        }
    }
    free(req);
    uint64_t got = 0;
    for (int r = 0; r < n; r++) {
        rc[r] = r == me ? 0 : popcount_words(need + words[r], words[r + 1] - words[r]) * elem;
        rd[r] = got;
        got += rc[r];
    }
    exchange(ans, ac, ad, out, rc, rd);
    free(ans);
    uint64_t req_sent = 0;
    for (int r = 0; r < n; r++) {
        req_sent += sc[r];
    }
    account(req_sent + total, own * 8 * (uint64_t)(n - 1) + got, 0);
    free(v);
}

#define FETCH_RMA_PIECE (UINT64_C(1) << 22)

/* One MPI_Get of k elements at byte offsets disp[0..k) of rank r's window. */
static void rma_get(MPI_Win win, int r, const MPI_Aint *disp, uint64_t k, uint64_t elem,
                    unsigned char *out) {
    MPI_Datatype t;
    MPI_Type_create_hindexed_block((int)k, (int)elem, disp, MPI_BYTE, &t);
    MPI_Type_commit(&t);
    MPI_Get(out, (int)(k * elem), MPI_BYTE, r, 0, 1, t, win);
    MPI_Win_flush(r, win);
    MPI_Type_free(&t);
}

static void fetch_rma(const uint64_t *words, uint64_t size, uint64_t elem,
                      const unsigned char *mine, const uint64_t *need, unsigned char *out) {
    int n = nranks, me = rank_id;
    uint64_t lo = words[me] * 64, hi = words[me + 1] * 64 < size ? words[me + 1] * 64 : size;
    MPI_Win win;
    MPI_Win_create((void *)mine, (MPI_Aint)((hi > lo ? hi - lo : 0) * elem), 1, MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    MPI_Aint *disp = fetch_alloc(FETCH_RMA_PIECE * sizeof *disp);
    uint64_t got = 0;
    for (int r = 0; r < n; r++) {
        uint64_t k = 0;
        for (uint64_t w = words[r]; w < words[r + 1] && r != me; w++) {
            for (uint64_t bits = need[w]; bits != 0; bits &= bits - 1) {
                uint64_t i = (w - words[r]) * 64 + (uint64_t)__builtin_ctzll(bits);
                disp[k++] = (MPI_Aint)(i * elem);
                if (k == FETCH_RMA_PIECE) {
                    rma_get(win, r, disp, k, elem, out + got);
                    got += k * elem;
                    k = 0;
                }
            }
        }
        if (k > 0) {
            rma_get(win, r, disp, k, elem, out + got);
            got += k * elem;
        }
    }
    free(disp);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    account(got / elem * 8, got, 0);
}

void dist_fetch(DistFetchMode how, const uint64_t *words, uint64_t size, uint64_t elem,
                const void *mine, const uint64_t *need, void *out) {
    if (nranks == 1) {
        return;
    }
    double t0 = clock_seconds();
    if (how == DIST_FETCH_RMA) {
        fetch_rma(words, size, elem, mine, need, out);
    } else {
        fetch_alltoall(words, elem, mine, need, out);
    }
    account(0, 0, clock_seconds() - t0);
}

#else /* one rank of one */

ErrCode dist_init(int *argc, char ***argv, Error *err) {
    (void)argc;
    (void)argv;
    return read_max_msg(err);
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

void dist_sum_words(uint64_t *x, uint64_t n) {
    (void)x;
    (void)n;
}

void dist_chain(void *state, uint64_t bytes, void (*step)(void *state, void *ctx), void *ctx) {
    (void)bytes;
    step(state, ctx);
}

void dist_fetch(DistFetchMode how, const uint64_t *words, uint64_t size, uint64_t elem,
                const void *mine, const uint64_t *need, void *out) {
    (void)how;
    (void)words;
    (void)size;
    (void)elem;
    (void)mine;
    (void)need;
    (void)out;
}

#endif
