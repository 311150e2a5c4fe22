/* solvers/tier.c: Evan's stage (tier) solver, parallel with OpenMP.
 *
 * The game declares tiers (games/game.h TierOps): a partition of its
 * positions such that a move from tier t leads only to t's child tiers, the
 * tiers forming a DAG (placement games: the number of pieces on the board,
 * one child t + 1). Positions of a tier have local indices 0..size(t)-1.
 *
 * 1. Forward pass (reachability), tiers in topological order from the
 *    initial position's tier: one bit per position (a bitmap per tier); each
 *    marked, non-primitive position sets the bits of its children. Positions
 *    of a tier are independent, so OpenMP threads share a tier's positions
 *    (atomic OR into the child bitmaps). `positions` then counts exactly the
 *    positions reachable from the initial position.
 * 2. Backward pass, children before parents (the last tier first): every
 *    marked position of the tier is solved from its children's records,
 *    which are final since their tiers are solved (fold_*, core/value.h;
 *    WinBy as in dfs.c). Positions are independent again: threads take
 *    chunks of the tier (dynamic schedule); each writes only its own
 *    records, so the result is the same byte for byte for every thread count.
 *    A tier's record array is freed as soon as no unsolved tier needs it, so
 *    at most a tier and its children are in memory, plus the bitmaps (one
 *    bit per position of the game, one block: the reach file).
 *
 * Loopy tiers (TierOps.loopy: moves may stay inside the tier, as in a
 * Morris sector or a Dodgem tier): solvers/tier_loopy.c replaces both
 * walks for such a tier, closing its reachable set under its own moves and
 * solving it by retro's frontier algorithm within the tier, its child
 * tiers' records entering at their remoteness. So loopy games that declare
 * tiers are solved here; loopy games without tiers are refused (NEEDS_TIERS).
 *
 * Memory modes, chosen from the estimates before anything is allocated:
 *   - whole database: when the full database (one record per hash slot,
 *     core/db.h) and the bitmaps fit the budget, res->db gets every record,
 *     so --query works and the tests compare position by position. For a
 *     tier-major hash (TierOps.first) a tier's records are a slice of res->db
 *     (no copy); otherwise tier arrays are copied in via position_at().
 *   - tiers in use only: otherwise (or with `tier:window`), the records of
 *     a tier live only while it or a parent is being solved; the result has
 *     the root value and the totals (res->summary) but no database, and a
 *     note on stderr says so.
 *   - refused: when not even that fits, ERR_MEMORY with the estimate.
 *
 * --db DIR (alias --work-dir): every solved tier is written to
 * DIR/tier-NNNN.gmdb, and the reachability bitmaps to DIR/reach.gmdb,
 * compressed in blocks with checksums, atomically (core/dbstore.h,
 * solvers/store.h); the manifest last. A later run of the same variant loads them
 * instead of recomputing, so an interrupted solve resumes from the tiers
 * already solved; a corrupt, truncated or foreign file is refused with
 * ERR_IO and a message saying what to do.
 *
 * Game calls: the GPS-cached family when the game has it, else GPS, else
 * the stateless family (`tier:stateless` forces it, to measure the
 * difference); one state per thread, loaded once per position (one unhash),
 * children by do!/undo!. A game with the fast path TierOps.expand_run
 * (games/game.h; Connect Four) expands a chunk of a tier in index order
 * itself, in both passes, giving the same children and counting the same
 * calls; `tier:generic` ignores it. Counters and jemalloc peaks are per
 * thread and summed as solvers/solver.h describes.
 *
 * `tier:sector=T` (whole-sector mode, plan_sector): tier T and the tiers
 * below it are solved over all their positions (TierOps.legal ones, the
 * canonical ones with `sym`) instead of those reachable from the start, and
 * tiers already in --db are loaded (and the tiers below them left out): a
 * game too big to solve at once (Nine Men's Morris) is solved sector by
 * sector, each run holding a sector and its children, as Gasser did. The
 * run ends with a partial manifest (store_manifest_partial: the directory
 * need not hold the whole game), and the result's value is "undecided"
 * unless the initial position lies in the solved tiers.
 *
 * `tier:estimate` solves nothing: it prints what the solve would need
 * (slots and reachable bound per tier, memory mode and peak, disk, time
 * from a short calibration of the forward pass) on stderr; see estimate().
 *
 * Distributed (bin/solve-mpi, core/dist.h): with N MPI ranks, each tier's
 * reachable positions are split among the ranks into contiguous ranges of
 * bitmap words holding about equal numbers of reachable positions (split_tier:
 * deterministic, from the complete bitmap). Forward: a tier's bitmap is
 * OR-combined over the ranks (every parent tier has been walked) before it
 * is split and walked; each rank marks children in its own bitmaps. Backward:
 * each rank solves its range, then the ranges are shared (an allgather), so
 * every rank holds every record of the tier, byte for byte what one process
 * computes (a loopy tier, solvers/tier_loopy.c, is solved whole by every
 * rank). Step outcomes are agreed (dist_agree) before each exchange, so a
 * rank that fails ends the job with its message on every rank, never a hang.
 * Per tier, the bytes exchanged and the seconds inside MPI go to stderr with
 * --progress; the totals to solver_stats. With --db DIR and N > 1, rank R
 * keeps its own directory DIR/rank-R-of-N (its own lock; its own disk in
 * production) holding its range of every tier (header `first`, `records`)
 * and its reach file, and rank 0 writes DIR/manifest-of-N.txt listing every
 * tier's ranges with their checksums; a rerun with the same N resumes from
 * them (slices of another rank count are refused: check_rank_layout). When
 * the solve is complete rank 0 also writes DIR/manifest (core/dbstore.h),
 * listing every slice: one process reads the database through it
 * (solvers/store.h).
 * Without MPI, dist is one rank of one and this is the single-process
 * solver.
 *
 * tier:sliced (N ranks, no loopy tiers): each rank keeps only its range of
 * every tier (TierInfo slo, shi; window mode). After the forward pass every
 * tier is split once and the other ranks' bitmap words are dropped
 * (trim_bitmaps). Before a tier is solved, each rank walks its range to
 * mark the child records it needs from other ranks (mark_needed) and
 * fetches them in one batch per child tier (children_fetch, dist_fetch:
 * MPI_Alltoallv, or MPI_Get with tier:sliced,rma); the solve walk finds a
 * child's record in its own slice or among the fetched (child_record). No
 * share: the tier checksum passes along the ranks (sliced_checksum) and the
 * totals are summed at the end (sliced_summary), so the JSON, the files
 * and the database checksum are those of the other modes.
 *
 * Progress (tier, positions done, rate, time left) goes to stderr when it is
 * a terminal or with --progress.
 *
 * Time: O(R * b) game calls for R reachable positions of b moves, twice
 * (forward and backward), divided among the threads. Memory: bits/8 bytes
 * for the bitmaps plus, per resident tier, size * (width + 2 with WinBy)
 * bytes; with the whole database, num_positions * (width + 2 with WinBy).
 */
#define _DEFAULT_SOURCE /* madvise */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/dbfile.h"
#include "core/dbstore.h"
#include "core/dbwriter.h"
#include "core/dist.h"
#include "core/mem.h"
#include "solvers/solver.h"
#include "solvers/tier_loopy.h"
#include "solvers/store.h"

/* Tuning knobs (solver options, so the tests can force tiny chunks):
 *   chunk         positions handed to a thread at a time (a multiple of 64,
 *                 default 16384): large enough that scheduling costs
 *                 nothing, small enough that the threads finish a tier
 *                 together;
 *   parallel_min  a tier with fewer reachable positions is done by one
 *                 thread (default 65536): starting a team costs more than
 *                 the work (all of tic-tac-toe's tiers). */
#define TIER_CHUNK_DEFAULT 16384
#define TIER_PARALLEL_MIN_DEFAULT 65536

typedef struct TierInfo {
    uint64_t size;
    Position first; /* tier-major games only */
    int nchildren;
    int children[GAME_MAX_CHILD_TIERS];
    int parents_left; /* parents not yet solved: the records are needed until 0 */
    uint64_t *reach;  /* bitmap of reachable positions, (size + 63) / 64 words */
    uint64_t reached;
    uint64_t lo, hi;    /* this rank's range of bitmap words (0, nwords with one rank) */
    uint64_t checksum;  /* of the records (then WinBy scores), once solved */
    Database vals;      /* the tier's records [slo, shi): record i at vals index i - slo */
    uint64_t slo, shi;  /* the records this rank holds: all of them, or its slice (sliced) */
    const uint64_t *rb; /* the tier's split (split_tier): word bounds of the ranks, N + 1 */
    /* sliced, while a parent is solved: the child records the parent's range
     * needs from other ranks (a bitmap over the tier, set bits before each
     * word, and the fetched records in bit order) */
    uint64_t *need, *need_rank;
    Database got;
    bool resident;
    bool owned; /* vals allocated here (not a slice of res->db) */
    bool solved;
    bool loopy;                    /* moves may stay in the tier: solvers/tier_loopy.c solves it */
    bool outside;                  /* tier:sector: not the sector or a descendant (size 0) */
    bool held;                     /* tier:sector: its file is in --db (loaded, not solved) */
    uint64_t file_sum, file_bytes; /* its file in the database directory */
    bool written;                  /* this run wrote the file (not loaded) */
} TierInfo;

typedef struct TierSolve {
    const Game *g;
    const GpsOps *fam; /* NULL: stateless family */
    SolveResult *res;
    Error *err;
    int ntiers;
    TierInfo *t;
    int *order;            /* solve order: every tier after its children */
    uint64_t *reach_block; /* the bitmaps of all tiers, one block (one file part) */
    bool tier_major;
    bool whole; /* res->db holds the whole database */
    unsigned width;
    bool winby;
    int threads;
    uint64_t chunk_words; /* bitmap words per work unit */
    uint64_t parallel_min;
    GpsState **states; /* one per thread */
    bool fast;         /* expand through TierOps.expand_run */
    uint64_t *worker_peak;
    const char *work_dir;
    bool need_db;        /* SolveConfig.need_db: refuse the window mode */
    bool sliced;         /* N ranks: each keeps only its slices of the tiers (tier:sliced) */
    DistFetchMode fetch; /* sliced: how child records are looked up (tier:rma) */
    uint64_t *rbounds;   /* every tier's split: ntiers * (N + 1) word bounds */
    bool presplit;       /* sliced: every tier split, the other ranks' bitmap words dropped */
    DbDir dir;           /* work_dir, open and locked (dir.fd >= 0) */
    /* The files are written in the background (core/dbwriter.h): each
     * tier is compressed between the parallel loops that follow it and
     * written meanwhile; writing_tier is the tier whose compression may
     * still be unfinished (-1: none), which tier_free waits for. */
    DbWriter *writer;
    int writing_tier;
    char spec[DBSTORE_SPEC_MAX];
    int root_tier;
    uint64_t root_index;
    /* errors raised inside parallel regions */
    volatile int failed;
    /* progress */
    bool progress;
    bool tty;
    double t0, last_report;
    uint64_t total_reached, done_before; /* for the time-left estimate */
    uint64_t tiers_solved, tiers_loaded;
    bool stored_edges;                  /* loopy tiers: back edges even with generate_parents */
    bool wide_index;                    /* loopy tiers: 64-bit indices in every tier (tests) */
    int sector;                         /* tier:sector: the tier solved whole, or -1 */
    uint64_t sector_count[VALUE_COUNT]; /* tier:sector: the sector's own positions by value */
    uint64_t loopy_stats[4];            /* loopy tiers: frontier (win/lose, tie), draws, events */
    double loopy_stop_at;               /* tier:estimate: TierLoopyJob.stop_at (0: never) */
    bool loopy_stopped;                 /* the last loopy reach pass stopped early */
    uint64_t loopy_expanded;            /* the positions it expanded */
    /* database files: the CPU seconds spent compressing and writing them
     * (every thread), the solve's wall time inside the writer's submit and
     * wait (helping compress, or waiting), the bytes written */
    double write_seconds, write_wait_seconds, bytes_written;
    /* distribution (core/dist.h): word bounds of the ranks' ranges of the
     * tier being walked (size + 1 entries, then scratch), per-tier MPI
     * figures; N > 1 ranks with a work directory: this rank's directory in
     * it, DIR/rank-R-of-N, and DIR itself (rank 0's manifest) */
    uint64_t *bounds;
    FILE *manifest;
    DbManifestFile *slices; /* rank 0: every tier's slices for DIR/manifest, tier-major */
    double compute_seconds, compute_reported;
    char rank_dir[4096];
    const char *top_dir;
} TierSolve;

/* ------------------------------------------------------------- helpers */

static uint64_t words_of(uint64_t size) { return (size + 63) / 64; }

static uint64_t record_bytes(const TierSolve *s, uint64_t size) {
    return db_bytes(size, s->width, s->winby);
}

static Position position_of(const TierSolve *s, int tier, uint64_t i) {
    return s->tier_major ? s->t[tier].first + i : s->g->tiers->position_at(s->g, tier, i);
}

/* Asks for transparent huge pages on the whole 2 MiB pages inside
 * [p, p + bytes), before they are first touched: the child look-ups and the
 * bitmap ORs of a large tier land on many pages (6x5: 1.3 GB tiers), and
 * with 4 KiB pages nearly every one is a TLB miss. A hint: ignored where
 * the kernel has no THP or disables it. */
static void huge_pages(void *p, uint64_t bytes) {
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1), e = ((uintptr_t)p + bytes) & ~(huge - 1);
    if (bytes >= huge && e > a) {
        (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
    }
#else
    (void)p;
    (void)bytes;
#endif
}

/* Records an error from inside a parallel region (the first one wins). */
static void fail_parallel(TierSolve *s, ErrCode code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void fail_parallel(TierSolve *s, ErrCode code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    error_once_vset(s->err, &s->failed, code, fmt, ap);
    va_end(ap);
}

static bool has_failed(const TierSolve *s) { return error_once_failed(&s->failed); }

/* Finds the child tier and local index of child position c of a position
 * in tier `tier`. Tier-major: a range test over the child tiers (no game
 * call); otherwise tier_of and index_of (counted hash/unhash). */
static inline __attribute__((always_inline)) bool locate(const TierSolve *s, int tier, Position c,
                                                         int *ct, uint64_t *ci) {
    const TierInfo *ti = &s->t[tier];
    if (s->tier_major) {
        for (int k = 0; k < ti->nchildren; k++) {
            const TierInfo *child = &s->t[ti->children[k]];
            if (c - child->first < child->size) {
                *ct = ti->children[k];
                *ci = c - child->first;
                return true;
            }
        }
        return false;
    }
    int t = s->g->tiers->tier_of(s->g, c);
    for (int k = 0; k < ti->nchildren; k++) {
        if (ti->children[k] == t) {
            *ct = t;
            *ci = s->g->tiers->index_of(s->g, c);
            return *ci < s->t[t].size;
        }
    }
    return false;
}

/* locate() for child c of position p in tier `tier`; a child outside the
 * child tiers (a game whose TierOps break their contract) fails the solve. */
static inline __attribute__((always_inline)) bool locate_child(TierSolve *s, int tier, Position p,
                                                               Position c, int *ct, uint64_t *ci) {
    if (locate(s, tier, c, ct, ci)) {
        return true;
    }
    fail_parallel(s, ERR_INTERNAL,
                  "game '%s': a move from position %" PRIu64 " (tier %d) reaches position %" PRIu64
                  ", which is in none of the tier's child tiers",
                  s->g->module->name, p, tier, c);
    return false;
}

/* A position's primitive value, or its children (games/game.h). */
typedef TierExpansion Expansion;

static void expand(const TierSolve *s, GpsState *st, Position p, Expansion *e) {
    const Game *g = s->g;
    const GpsOps *f = s->fam;
    Move moves[GAME_MAX_MOVES];
    e->n = 0;
    if (f != NULL) {
        f->set(st, p);
        e->primitive = gps_primitive(f, st);
        if (e->primitive != VALUE_UNDECIDED) {
            e->winby = s->winby ? f->winby(st) : 0;
            return;
        }
        e->turn = s->winby ? f->turn(st) : 0;
        int n = gps_generate_moves(f, st, moves);
        for (int i = 0; i < n; i++) {
            e->child[i] = gps_child(g, f, st, moves[i]);
        }
        e->n = n;
        return;
    }
    e->primitive = game_primitive(g, p);
    if (e->primitive != VALUE_UNDECIDED) {
        e->winby = s->winby ? g->ops->winby(g, p) : 0;
        return;
    }
    e->turn = s->winby ? g->ops->turn(g, p) : 0;
    int n = game_generate_moves(g, p, moves);
    for (int i = 0; i < n; i++) {
        e->child[i] = game_canonical(g, game_do_move(g, p, moves[i]));
    }
    e->n = n;
}

/* ------------------------------------------------------------ progress */

static void progress_line(TierSolve *s, const char *phase, int tier, uint64_t done, uint64_t total,
                          bool final) {
    double now = clock_seconds();
    if (!s->progress || (!final && now - s->last_report < 1.0)) {
        return;
    }
    s->last_report = now;
    double elapsed = now - s->t0;
    uint64_t all_done = s->done_before + done;
    double rate = elapsed > 0 ? (double)all_done / elapsed : 0;
    /* Each reachable position is expanded twice: forward and backward. */
    uint64_t todo = 2 * s->total_reached > all_done ? 2 * s->total_reached - all_done : 0;
    double left = rate > 0 ? (double)todo / rate : 0;
    fprintf(stderr,
            "%stier: %s tier %d: %" PRIu64 "/%" PRIu64 " positions, %.2f M/s, %.0f s elapsed",
            s->tty ? "\r" : "", phase, tier, done, total, rate / 1e6, elapsed);
    if (s->total_reached != 0) { /* known once the forward pass is over */
        fprintf(stderr, ", about %.0f s left", left);
    }
    fprintf(stderr, s->tty ? "   " : "\n");
    if (s->tty && final) {
        fprintf(stderr, "\n");
    }
}

/* ------------------------------------------------------ parallel regions */

/* Worker bookkeeping (solvers/solver.h) at the start and end of a region. */
static void worker_begin(void) { solver_worker_begin(); }
static void worker_end(TierSolve *s) { solver_worker_end(s->res, s->worker_peak); }

/* --------------------------------------------------------- tier walk */

/* The work on one reachable position p, of local index i in tier `tier`,
 * expanded into e. Runs on any thread of the walk: it may write only what
 * belongs to p (its own record, atomic ORs into bitmaps), and reports
 * errors with fail_parallel. */
typedef void (*TierVisit)(TierSolve *s, int tier, uint64_t i, Position p, const Expansion *e);

/* What the fast path's callback needs: the visit, and a count. */
typedef struct FastVisit {
    TierSolve *s;
    int tier;
    TierVisit visit;
    uint64_t count;
} FastVisit;

static void fast_visit(void *ctx, uint64_t i, Position p, const TierExpansion *e) {
    FastVisit *f = ctx;
    STAT_INC(calls);
    f->count++;
    f->visit(f->s, f->tier, i, p, e);
}

/* Expands every reachable position of tier `tier` in this rank's range of
 * bitmap words [lo, hi) (the whole tier with one rank) and hands it to `visit`.
 * A tier with at least parallel_min reachable positions gets a team of
 * threads, which take chunks of chunk_words bitmap words (dynamic
 * schedule), each with its own GPS state; once a position has failed, the
 * chunks not yet started are skipped. Thread 0 reports progress for `phase`
 * between chunks. O(size / 64) bitmap words plus the visited positions.
 *
 * `visit` stays an indirect call (gcc outlines the OpenMP region before it
 * inlines), one per position beside a whole expansion: on connect4:w=5,h=4
 * and w=4,h=5 (`build/timing/bin/solve connect4:w=5,h=4 --solver tier
 * --threads 2 --json`, best of 5) the times matched the two copied loops
 * this replaced within noise. */
static void walk_tier(TierSolve *s, int tier, const char *phase, TierVisit visit) {
    TierInfo *ti = &s->t[tier];
    uint64_t lo = ti->lo, hi = ti->hi;
    uint64_t done = 0;
    double t0 = clock_seconds();
    /* A team takes every core: the writer's compressors wait meanwhile
     * (core/dbwriter.h); beside one thread they may go on. */
    bool team = ti->reached >= s->parallel_min && s->threads > 1;
    if (team) {
        dbwriter_pause(s->writer);
    }
#pragma omp parallel num_threads(s->threads) if (team)
    {
        worker_begin();
        GpsState *st = s->states[omp_get_thread_num()];
        Expansion e;
#pragma omp for schedule(dynamic, 1)
        for (uint64_t w0 = lo; w0 < hi; w0 += s->chunk_words) {
            if (has_failed(s)) {
                continue;
            }
            uint64_t w1 = w0 + s->chunk_words < hi ? w0 + s->chunk_words : hi;
            uint64_t count = 0;
            if (s->fast) { /* the game walks the chunk; the loop below is skipped */
                FastVisit f = {s, tier, visit, 0};
                uint64_t end = w1 * 64 < ti->size ? w1 * 64 : ti->size;
                s->g->tiers->expand_run(s->g, tier, ti->reach, w0 * 64, end, fast_visit, &f);
                count = f.count;
                w1 = w0;
            }
            for (uint64_t w = w0; w < w1; w++) {
                for (uint64_t bits = ti->reach[w]; bits != 0; bits &= bits - 1) {
                    uint64_t i = w * 64 + (uint64_t)__builtin_ctzll(bits);
                    Position p = position_of(s, tier, i);
                    STAT_INC(calls);
                    expand(s, st, p, &e);
                    count++;
                    visit(s, tier, i, p, &e);
                }
            }
            uint64_t now_done = __atomic_add_fetch(&done, count, __ATOMIC_RELAXED);
            if (omp_get_thread_num() == 0) {
                progress_line(s, phase, tier, now_done, ti->reached, false);
            }
        }
        worker_end(s);
    }
    if (team) {
        dbwriter_resume(s->writer);
    }
    s->compute_seconds += clock_seconds() - t0;
}

/* ----------------------------------------------------------- forward */

/* Forward pass: marks the children of reachable position p. */
static void mark_children(TierSolve *s, int tier, uint64_t i, Position p, const Expansion *e) {
    (void)i;
    if (e->primitive == VALUE_UNDECIDED && e->n <= 0) {
        Error e2;
        solver_no_moves_error(s->g, p, &e2);
        fail_parallel(s, e2.code, "%s", e2.msg);
    }
    for (int k = 0; k < e->n; k++) {
        STAT_INC(edges);
        int ct;
        uint64_t ci;
        if (locate_child(s, tier, p, e->child[k], &ct, &ci)) {
            /* Most children have several parents: a plain load first
             * skips the locked OR (the dearest step here) for a bit
             * already set. */
            uint64_t *word = &s->t[ct].reach[ci / 64], bit = UINT64_C(1) << (ci % 64);
            if ((__atomic_load_n(word, __ATOMIC_RELAXED) & bit) == 0) {
                __atomic_fetch_or(word, bit, __ATOMIC_RELAXED);
            }
        }
    }
}

static uint64_t popcount_bitmap(const uint64_t *bits, uint64_t nwords) {
    uint64_t n = 0;
    for (uint64_t w = 0; w < nwords; w++) {
        n += (uint64_t)__builtin_popcountll(bits[w]);
    }
    return n;
}

/* ---------------------------------------------------------- backward */

/* Where record ci of child tier ct is: in the tier's records this rank
 * holds, or (sliced) among those fetched from other ranks for the tier
 * being solved, at its bit's rank in `need`. False when it is in neither
 * (a broken invariant). */
static inline bool child_record(const TierSolve *s, int ct, uint64_t ci, const Database **db,
                                uint64_t *at) {
    const TierInfo *c = &s->t[ct];
    if (ci - c->slo < c->shi - c->slo) {
        *db = &c->vals;
        *at = ci - c->slo;
        return true;
    }
    uint64_t w = ci / 64, bit = UINT64_C(1) << (ci % 64);
    if (c->need == NULL || (c->need[w] & bit) == 0) {
        return false;
    }
    *db = &c->got;
    *at = c->need_rank[w] + (uint64_t)__builtin_popcountll(c->need[w] & (bit - 1));
    return true;
}

/* Sliced, before the backward pass walks tier `tier`: marks the child
 * records position p needs that other ranks hold. */
static void mark_needed(TierSolve *s, int tier, uint64_t i, Position p, const Expansion *e) {
    (void)i;
    for (int k = 0; k < e->n; k++) {
        int ct;
        uint64_t ci;
        if (locate_child(s, tier, p, e->child[k], &ct, &ci)) {
            TierInfo *c = &s->t[ct];
            if (ci - c->slo >= c->shi - c->slo) {
                uint64_t *word = &c->need[ci / 64], bit = UINT64_C(1) << (ci % 64);
                if ((__atomic_load_n(word, __ATOMIC_RELAXED) & bit) == 0) {
                    __atomic_fetch_or(word, bit, __ATOMIC_RELAXED);
                }
            }
        }
    }
}

/* Backward pass: solves reachable position p into record i of its tier
 * from its children's records (their tiers are solved). */
static void solve_position(TierSolve *s, int tier, uint64_t i, Position p, const Expansion *e) {
    const Game *g = s->g;
    Outcome out = {e->primitive, 0};
    WinBy best = e->winby;
    if (e->primitive == VALUE_UNDECIDED) {
        ChildFold fold;
        fold_init(&fold);
        best = winby_worst(e->turn);
        /* Every child's record located and prefetched first, then read:
         * the records of a big child tier are cache misses, which overlap
         * with the next children's index arithmetic this way. */
        const Database *cvs[GAME_MAX_MOVES];
        uint64_t ats[GAME_MAX_MOVES];
        int ct[GAME_MAX_MOVES];
        for (int k = 0; k < e->n; k++) {
            STAT_INC(edges);
            uint64_t ci;
            if (!locate_child(s, tier, p, e->child[k], &ct[k], &ci)) {
                return;
            }
            if (!child_record(s, ct[k], ci, &cvs[k], &ats[k])) {
                fail_parallel(s, ERR_INTERNAL,
                              "tier %d: child %" PRIu64 " of position %" PRIu64
                              " was not fetched from its rank",
                              ct[k], e->child[k], p);
                return;
            }
            const Database *cv = cvs[k];
            __builtin_prefetch(cv->r8 != NULL ? (const void *)(cv->r8 + ats[k])
                                              : (const void *)(cv->r16 + ats[k]));
        }
        for (int k = 0; k < e->n; k++) {
            const Database *cv = cvs[k];
            uint64_t at = ats[k];
            uint32_t raw = db_get(cv, at);
            if (!db_raw_solved(cv, raw)) {
                fail_parallel(s, ERR_INTERNAL,
                              "tier %d: child %" PRIu64 " of position %" PRIu64 " has no value",
                              ct[k], e->child[k], p);
                break;
            }
            fold_add(&fold, db_raw_value(cv, raw), db_raw_remoteness(cv, raw));
            if (s->winby) {
                best = winby_better(e->turn, best, cv->winby[at]);
            }
        }
        out = fold_result(&fold);
        if (out.value == VALUE_UNDECIDED) {
            Error e2;
            solver_no_moves_error(g, p, &e2);
            fail_parallel(s, e2.code, "%s", e2.msg);
            return;
        }
    }
    Error store_err;
    if (solver_store(g, &s->t[tier].vals, i - s->t[tier].slo, out, best, &store_err) != ERR_OK) {
        fail_parallel(s, store_err.code, "tier %d, index %" PRIu64 " (position %" PRIu64 "): %s",
                      tier, i, p, store_err.msg);
    }
}

/* ------------------------------------------------------- tier records */

static uint64_t range_record(const TierSolve *s, int tier, int r);

/* Makes room for tier `tier`'s records: a slice of res->db for a
 * tier-major whole database, otherwise an array of its own. */
static ErrCode tier_alloc(TierSolve *s, int tier) {
    TierInfo *ti = &s->t[tier];
    if (s->whole && s->tier_major) {
        Database *db = &s->res->db;
        ti->vals = *db;
        ti->vals.size = ti->size;
        if (db->r8 != NULL) {
            ti->vals.r8 = db->r8 + ti->first;
        } else {
            ti->vals.r16 = db->r16 + ti->first;
        }
        if (db->winby != NULL) {
            ti->vals.winby = db->winby + ti->first;
        }
        ti->owned = false;
    } else {
        /* sliced: this rank's range of the tier (split_tier) */
        ti->slo = s->sliced ? range_record(s, tier, dist_rank()) : 0;
        ti->shi = s->sliced ? range_record(s, tier, dist_rank() + 1) : ti->size;
        ErrCode rc = db_create(&ti->vals, ti->shi - ti->slo, s->width, s->winby, s->err);
        if (rc != ERR_OK) {
            return rc;
        }
        huge_pages(ti->vals.r8 != NULL ? (void *)ti->vals.r8 : (void *)ti->vals.r16,
                   (ti->shi - ti->slo) * s->width);
        ti->owned = true;
    }
    ti->resident = true;
    return ERR_OK;
}

static void tier_free(TierSolve *s, int tier) {
    TierInfo *ti = &s->t[tier];
    if (tier == s->writing_tier && ti->resident) {
        (void)dbwriter_wait(s->writer, NULL); /* its error comes back at the next wait */
        s->writing_tier = -1;
    }
    free(ti->need);
    free(ti->need_rank);
    ti->need = ti->need_rank = NULL;
    db_destroy(&ti->got);
    if (ti->resident && ti->owned) {
        db_destroy(&ti->vals);
    }
    ti->resident = false;
}

static uint64_t reach_words(const TierSolve *s) {
    uint64_t n = 0;
    for (int t = 0; t < s->ntiers; t++) {
        n += words_of(s->t[t].size);
    }
    return n;
}

/* The header a file of the database directory has (core/dbstore.h). */
static void file_info(const TierSolve *s, DbStoreKind kind, int tier, DbStoreInfo *info) {
    memset(info, 0, sizeof *info);
    info->kind = kind;
    snprintf(info->spec, sizeof info->spec, "%s", s->spec);
    info->count = s->ntiers;
    info->index = tier;
    if (kind == DBSTORE_RECORDS) {
        info->width = s->width;
        info->winby = s->winby;
        info->records = s->t[tier].size;
    } else {
        info->width = 8;
        info->records = reach_words(s);
    }
}

/* A loaded tier file is trusted only as far as it can be checked (issue 10,
 * items 2 and 3): a record exactly where the bitmaps say a position is
 * reached, every such record a final value the game can have (no
 * undecided record, no draw in a game without cycles, no remoteness longer
 * than the game), and no score for an unreached position. O(size).
 * tier:sector, a tier loaded from --db (`held`): its bitmap (zero until
 * now, sector_reach skips it) is set here from where its records are.
 * Testing its every slot for legal and canonical, as for a tier to solve,
 * took a third of a nine men's placement tier's run (its two child
 * sectors have about three times its slots); the file's checksums are
 * checked all the same, and so is every record's value. */
static ErrCode check_tier(TierSolve *s, int tier, const char *name, uint64_t lo, uint64_t hi) {
    TierInfo *ti = &s->t[tier];
    const Database *v = &ti->vals;
    for (uint64_t i = lo; i < hi; i++) {
        uint32_t raw = db_peek(v, i - ti->slo);
        if (ti->held) {
            ti->reach[i / 64] |= (uint64_t)db_raw_reached(raw) << (i % 64);
        }
        bool reached = (ti->reach[i / 64] >> (i % 64)) & 1;
        const char *why = NULL;
        if (!reached) {
            if (raw != DB_UNREACHED || (v->winby != NULL && v->winby[i - ti->slo] != 0)) {
                why = "a record for a position that is not reachable";
            }
        } else if (raw == DB_UNREACHED) {
            why = "no record for a reachable position";
        } else if (!db_raw_solved(v, raw)) {
            why = "an undecided record";
        } else if (raw == DB_DRAW && !s->g->loopy) {
            why = "a draw, in a game that cannot draw";
        } else if (s->g->max_depth != 0 && db_raw_remoteness(v, raw) > s->g->max_depth) {
            why = "a remoteness longer than the game";
        }
        if (why != NULL) {
            return error_set(s->err, ERR_IO,
                             "%s/%s holds impossible records (index %" PRIu64
                             ": %s); remove it (it will be solved again) or use another --db",
                             s->work_dir, name, i, why);
        }
    }
    if (ti->held) {
        ti->reached = popcount_bitmap(ti->reach, words_of(ti->size));
        s->total_reached += ti->reached;
    }
    return ERR_OK;
}

/* The loaded bitmaps, likewise: no bit past the end of a tier (they would
 * index past its arrays) and the initial position reached. */
static ErrCode check_reach(TierSolve *s) {
    for (int t = 0; t < s->ntiers; t++) {
        const TierInfo *ti = &s->t[t];
        if (ti->size % 64 != 0 && (ti->reach[ti->size / 64] >> (ti->size % 64)) != 0) {
            return error_set(s->err, ERR_IO,
                             "%s/reach.gmdb holds impossible bitmaps (bits past the end of tier "
                             "%d); remove it (it will be computed again) or use another --db",
                             s->work_dir, t);
        }
    }
    if (!((s->t[s->root_tier].reach[s->root_index / 64] >> (s->root_index % 64)) & 1)) {
        return error_set(s->err, ERR_IO,
                         "%s/reach.gmdb holds impossible bitmaps (the initial position is not "
                         "reached); remove it (it will be computed again) or use another --db",
                         s->work_dir);
    }
    return ERR_OK;
}

/* Copies a solved tier into res->db for a whole database that is not
 * tier-major (position_at: a counted unhash and hash per position). */
static void scatter(TierSolve *s, int tier) {
    TierInfo *ti = &s->t[tier];
    Database *db = &s->res->db;
    for (uint64_t i = 0; i < ti->size; i++) {
        uint32_t raw = db_peek(&ti->vals, i);
        if (raw == DB_UNREACHED) {
            continue;
        }
        Position p = s->g->tiers->position_at(s->g, tier, i);
        db_poke(db, p, raw);
        if (db->winby != NULL) {
            db->winby[p] = ti->vals.winby[i];
        }
    }
}

/* Adds a solved tier's records this rank holds to the totals. */
static ErrCode tally(TierSolve *s, int tier, DbSummary *sum) {
    const Database *v = &s->t[tier].vals;
    for (uint64_t i = 0; i < v->size; i++) {
        uint32_t raw = db_peek(v, i);
        if (raw == DB_UNREACHED) {
            continue;
        }
        if (!db_raw_solved(v, raw)) {
            return error_set(s->err, ERR_INTERNAL, "tier %d: position %" PRIu64 " left unsolved",
                             tier, i);
        }
        Value val = db_raw_value(v, raw);
        uint32_t r = db_raw_remoteness(v, raw);
        sum->positions++;
        sum->count[val]++;
        if (r > sum->max_remoteness) {
            sum->max_remoteness = r;
        }
        sum->by_remoteness[r][val]++;
    }
    return ERR_OK;
}

/* ------------------------------------------------------------- planning */

/* Tiers, sizes, children, the solve order (children first, by depth-first
 * postorder over children()), and checks of what the game declared. */
static ErrCode plan(TierSolve *s) {
    const Game *g = s->g;
    const TierOps *to = g->tiers;
    s->ntiers = to->count(g);
    if (s->ntiers < 1 || s->ntiers > 1000000) {
        return error_set(s->err, ERR_INTERNAL, "game '%s' declares %d tiers", g->module->name,
                         s->ntiers);
    }
    s->t = mem_calloc((size_t)s->ntiers, sizeof *s->t, "the tier table", s->err);
    s->order = mem_calloc((size_t)s->ntiers, sizeof *s->order, "the tier order", s->err);
    if (s->t == NULL || s->order == NULL) {
        return ERR_MEMORY;
    }
    for (int t = 0; t < s->ntiers; t++) {
        TierInfo *ti = &s->t[t];
        ti->size = to->size(g, t);
        ti->hi = words_of(ti->size); /* the whole tier, until split_tier */
        ti->shi = ti->size;
        ti->loopy = to->loopy != NULL ? to->loopy(g, t) : g->loopy;
        ti->nchildren = to->children(g, t, ti->children);
        if (ti->nchildren < 0 || ti->nchildren > GAME_MAX_CHILD_TIERS) {
            return error_set(s->err, ERR_INTERNAL, "game '%s': tier %d has %d child tiers",
                             g->module->name, t, ti->nchildren);
        }
        for (int k = 0; k < ti->nchildren; k++) {
            if (ti->children[k] < 0 || ti->children[k] >= s->ntiers || ti->children[k] == t) {
                return error_set(s->err, ERR_INTERNAL,
                                 "game '%s': tier %d lists child tier %d (the tier solver needs "
                                 "child tiers that are other tiers of the game)",
                                 g->module->name, t, ti->children[k]);
            }
        }
        if (s->tier_major) {
            ti->first = to->first(g, t);
            if (ti->first > g->num_positions || ti->size > g->num_positions - ti->first) {
                return error_set(s->err, ERR_INTERNAL,
                                 "game '%s': tier %d [%" PRIu64 ", +%" PRIu64
                                 ") is outside the hash space",
                                 g->module->name, t, ti->first, ti->size);
            }
        }
    }
    for (int t = 0; t < s->ntiers; t++) {
        for (int k = 0; k < s->t[t].nchildren; k++) {
            s->t[s->t[t].children[k]].parents_left++;
        }
    }
    /* Postorder DFS over children: a tier comes after all its children.
     * state 0 new, 1 on the stack, 2 done; a child on the stack is a cycle. */
    uint8_t *state = mem_calloc((size_t)s->ntiers, 1, "the tier order", s->err);
    int *stack = mem_calloc((size_t)s->ntiers, sizeof *stack, "the tier order", s->err);
    int *next = mem_calloc((size_t)s->ntiers, sizeof *next, "the tier order", s->err);
    ErrCode rc = (state && stack && next) ? ERR_OK : ERR_MEMORY;
    int norder = 0;
    for (int r = 0; r < s->ntiers && rc == ERR_OK; r++) {
        if (state[r] != 0) {
            continue;
        }
        int top = 0;
        stack[top++] = r;
        state[r] = 1;
        while (top > 0 && rc == ERR_OK) {
            int t = stack[top - 1];
            if (next[t] < s->t[t].nchildren) {
                int c = s->t[t].children[next[t]++];
                if (state[c] == 1) {
                    rc = error_set(s->err, ERR_INTERNAL,
                                   "game '%s': its tiers form a cycle through tier %d (the tier "
                                   "solver needs tiers that never lead back)",
                                   g->module->name, c);
                } else if (state[c] == 0) {
                    state[c] = 1;
                    stack[top++] = c;
                }
            } else {
                state[t] = 2;
                s->order[norder++] = t;
                top--;
            }
        }
    }
    free(state);
    free(stack);
    free(next);
    if (rc != ERR_OK) {
        return rc;
    }
    Position root = game_canonical(g, g->initial);
    s->root_tier = to->tier_of(g, root);
    if (s->root_tier < 0 || s->root_tier >= s->ntiers) {
        return error_set(s->err, ERR_INTERNAL, "game '%s': the initial position is in tier %d",
                         g->module->name, s->root_tier);
    }
    s->root_index = s->tier_major ? root - s->t[s->root_tier].first : to->index_of(g, root);
    if (s->root_index >= s->t[s->root_tier].size) {
        return error_set(s->err, ERR_INTERNAL,
                         "game '%s': the initial position is outside its tier", g->module->name);
    }
    return ERR_OK;
}

/* Peak bytes of tier records when only the tiers in use are kept: replays
 * the solve order with the eviction rule of the backward pass. */
static uint64_t window_peak(const TierSolve *s) {
    int *left = malloc((size_t)s->ntiers * sizeof *left);
    if (left == NULL) {
        return UINT64_MAX;
    }
    for (int t = 0; t < s->ntiers; t++) {
        left[t] = s->t[t].parents_left;
    }
    uint64_t resident = 0, peak = 0;
    for (int k = 0; k < s->ntiers; k++) {
        int t = s->order[k];
        if (s->t[t].outside) {
            continue; /* tier:sector: never solved, so it frees no child */
        }
        resident += record_bytes(s, s->t[t].size);
        peak = resident > peak ? resident : peak;
        for (int c = 0; c < s->t[t].nchildren; c++) {
            int ct = s->t[t].children[c];
            if (--left[ct] == 0) {
                resident -= record_bytes(s, s->t[ct].size);
            }
        }
        if (left[t] == 0) {
            resident -= record_bytes(s, s->t[t].size);
        }
    }
    free(left);
    return peak;
}

/* Opens and locks the database directory, refuses one holding another
 * variant's database, and checks the free space for what remains to be
 * written: the raw size of the tiers not yet on disk (and of the bitmaps
 * when they are not), an upper bound (compression makes it several times
 * smaller, docs/database.md). */
static ErrCode open_dir(TierSolve *s) {
    ErrCode rc = dbstore_dir_open(s->work_dir, true, &s->dir, s->err);
    if (rc == ERR_OK) {
        rc = dbstore_lock(&s->dir, s->err);
    }
    if (rc != ERR_OK) {
        return rc;
    }
    DbManifest m;
    bool found = false;
    rc = dbstore_manifest_read(&s->dir, &m, &found, s->err);
    if (rc != ERR_OK) {
        return rc;
    }
    if (found && strcmp(m.spec, s->spec) != 0) {
        rc = error_set(s->err, ERR_IO,
                       "%s holds the database of another game variant (%s, not %s); use another "
                       "--db",
                       s->work_dir, m.spec, s->spec);
    }
    dbstore_manifest_free(&m);
    if (rc != ERR_OK) {
        return rc;
    }
    uint64_t left = 0;
    bool all_tiers = true;
    for (int t = 0; t < s->ntiers; t++) {
        char name[DBSTORE_NAME_MAX];
        store_tier_name(t, name, sizeof name);
        if (!dbstore_exists(&s->dir, name)) {
            left += record_bytes(s, s->t[t].size) + DBSTORE_HEADER_BYTES;
            all_tiers = false;
        }
    }
    if (!all_tiers && !dbstore_exists(&s->dir, "reach.gmdb")) {
        left += reach_words(s) * 8 + DBSTORE_HEADER_BYTES;
    }
    struct statvfs vfs;
    if (fstatvfs(s->dir.fd, &vfs) != 0) {
        return error_set(s->err, ERR_IO, "cannot use the database directory %s: %s", s->work_dir,
                         strerror(errno));
    }
    uint64_t free_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
    if (left > free_bytes) {
        char a[32], b[32];
        return error_set(s->err, ERR_IO,
                         "the tiers still to write need up to %s in %s, which has %s free; free "
                         "some space or use another --db",
                         mem_format(left, a, sizeof a), s->work_dir,
                         mem_format(free_bytes, b, sizeof b));
    }
    return ERR_OK;
}

/* Chooses the memory mode (see the top of the file) or refuses. */
static ErrCode choose_mode(TierSolve *s, bool window_only, bool *whole) {
    uint64_t bitmaps = reach_words(s) * 8;
    uint64_t window = window_peak(s);
    if (s->sliced) {
        /* 1/N of the tiers in use, and the look-up bitmaps of the largest
         * tier (16 bytes per 64 slots); the fetched records are checked
         * when they are allocated */
        uint64_t most = 0;
        for (int t = 0; t < s->ntiers; t++) {
            most = s->t[t].size > most ? s->t[t].size : most;
        }
        window = window / (uint64_t)dist_size() + words_of(most) * 16;
    }
    uint64_t full =
        db_bytes(s->g->num_positions, s->width, s->winby) + bitmaps + (s->tier_major ? 0 : window);
    uint64_t budget = mem_budget();
    char a[32], b[32], c[32];
    *whole = !window_only && full <= budget;
    if (!*whole && s->need_db) {
        return error_set(s->err, ERR_MEMORY,
                         "--query needs the whole database (%s), which does not fit the memory "
                         "budget (%s); the tier solver would keep only the tiers in use",
                         mem_format(full, a, sizeof a), mem_format(budget, b, sizeof b));
    }
    if (!*whole) {
        ErrCode rc =
            mem_check(bitmaps + window, "the tiers in use and the reachability bitmaps", s->err);
        if (rc != ERR_OK) {
            error_prefix(s->err, "tier solver: even keeping only the tiers in use: ");
            return rc;
        }
        /* tier:sector keeps its records on disk (--db) by design: no note */
        if (!window_only && s->sector < 0 && dist_rank() == 0) {
            fprintf(stderr,
                    "tier: the whole database (%s) does not fit the memory budget (%s); keeping "
                    "only the tiers in use (peak %s): the root value and the counts are "
                    "reported, --query is not available%s\n",
                    mem_format(full, a, sizeof a), mem_format(budget, b, sizeof b),
                    mem_format(bitmaps + window, c, sizeof c),
                    s->work_dir ? "" : "; give --db DIR to keep the solved tiers on disk");
        }
    }
    if (s->work_dir != NULL) {
        return open_dir(s);
    }
    return ERR_OK;
}

/* ------------------------------------------------------- distribution */

/* Splits tier `tier` among the ranks (core/dist.h): rank r gets the bitmap
 * words [bounds[r], bounds[r+1]), cut where the running count of reachable
 * positions first reaches r * reached / N, so the ranks get about equal
 * numbers of positions to expand (not of slots). Every rank computes the
 * same cuts from the same complete bitmap. Sets the tier's lo and hi.
 * O(words of the tier). */
static void split_tier(TierSolve *s, int tier) {
    TierInfo *ti = &s->t[tier];
    uint64_t nwords = words_of(ti->size);
    int n = dist_size();
    if (s->presplit) { /* cut once, before the bitmaps were trimmed */
        memcpy(s->bounds, ti->rb, (size_t)(n + 1) * sizeof *s->bounds);
        ti->lo = s->bounds[dist_rank()];
        ti->hi = s->bounds[dist_rank() + 1];
        return;
    }
    uint64_t seen = 0, w = 0;
    s->bounds[0] = 0;
    for (int r = 1; r < n; r++) {
        uint64_t target = (uint64_t)((unsigned __int128)ti->reached * (unsigned)r / (unsigned)n);
        while (w < nwords && seen < target) {
            seen += (uint64_t)__builtin_popcountll(ti->reach[w++]);
        }
        s->bounds[r] = w;
    }
    s->bounds[n] = nwords;
    ti->lo = s->bounds[dist_rank()];
    ti->hi = s->bounds[dist_rank() + 1];
    if (s->rbounds != NULL) {
        uint64_t *rb = s->rbounds + (size_t)tier * (size_t)(n + 1);
        memcpy(rb, s->bounds, (size_t)(n + 1) * sizeof *rb);
        ti->rb = rb;
    }
}

/* The first record of rank r's range of the tier last split (r = N: the
 * tier's size). */
static uint64_t range_record(const TierSolve *s, int tier, int r) {
    uint64_t i = s->bounds[r] * 64;
    return i < s->t[tier].size ? i : s->t[tier].size;
}

/* With N > 1 ranks, narrows a tier file's header to this rank's range of
 * the tier last split, [*lo, *hi): the header's `first` is the range's
 * first record and `records` its length, so a file of another range is
 * refused. With one rank, the whole tier. */
static void slice_info(const TierSolve *s, int tier, DbStoreInfo *info, uint64_t *lo,
                       uint64_t *hi) {
    *lo = 0;
    *hi = s->t[tier].size;
    if (dist_size() > 1) {
        *lo = range_record(s, tier, dist_rank());
        *hi = range_record(s, tier, dist_rank() + 1);
        info->first = *lo;
        info->records = *hi - *lo;
    }
}

/* The records of a tier from record i on (i in [slo, shi]). */
static void *tier_records_at(const TierInfo *ti, uint64_t i) {
    i -= ti->slo;
    return ti->vals.r8 != NULL ? (void *)(ti->vals.r8 + i) : (void *)(ti->vals.r16 + i);
}

/* Its WinBy scores from record i on, or NULL. */
static int16_t *tier_winby_at(const TierInfo *ti, uint64_t i) {
    return ti->vals.winby != NULL ? ti->vals.winby + (i - ti->slo) : NULL;
}

/* Gives every rank the records (and WinBy scores) the other ranks solved
 * in their ranges of the tier last split. */
static void share_tier(TierSolve *s, int tier) {
    int n = dist_size();
    if (n == 1) {
        return;
    }
    Database *v = &s->t[tier].vals;
    uint64_t *b = s->bounds + n + 1;
    for (int r = 0; r <= n; r++) {
        b[r] = range_record(s, tier, r) * v->width;
    }
    dist_share_ranges(v->r8 != NULL ? (void *)v->r8 : (void *)v->r16, b, b[n]);
    if (v->winby != NULL) {
        for (int r = 0; r <= n; r++) {
            b[r] = range_record(s, tier, r) * sizeof(int16_t);
        }
        dist_share_ranges(v->winby, b, b[n]);
    }
}

/* core/dbfile.h's checksum of the records, then (chained) the WinBy scores, of records [a, b) of
 * a solved tier (a range this rank holds). */
static uint64_t range_checksum(const TierInfo *ti, uint64_t a, uint64_t b) {
    const Database *v = &ti->vals;
    uint64_t h = dbfile_checksum(0, tier_records_at(ti, a), (b - a) * v->width);
    if (v->winby != NULL) {
        h = dbfile_checksum(h, tier_winby_at(ti, a), (b - a) * sizeof(int16_t));
    }
    return h;
}

/* Sliced: range_checksum(ti, 0, size) of a tier whose records are spread
 * over the ranks, without moving them: the checksum's state passes along
 * the ranks (dist_chain), each adding its slice, first over the records,
 * then, from that checksum, over the WinBy scores. A slice that does not
 * end the tier is a whole number of bitmap words, 64 records, so a multiple
 * of 32 bytes (core/dbfile.h's pieces); the rank whose slice ends the tier
 * finishes the checksum, and the empty slices after it change nothing.
 * Collective. */
typedef struct ChainSum {
    DbfileSum st;
    uint64_t h;
    uint64_t done;
} ChainSum;

typedef struct ChainPart {
    const void *data;
    uint64_t bytes;
    bool ends; /* the slice ends the tier */
} ChainPart;

static void chain_step(void *state, void *ctx) {
    ChainSum *c = state;
    const ChainPart *p = ctx;
    if (c->done) {
        return;
    }
    if (p->ends) {
        c->h = dbfile_sum_final(&c->st, p->data, p->bytes);
        c->done = 1;
    } else {
        dbfile_sum_blocks(&c->st, p->data, p->bytes);
    }
}

static uint64_t sliced_checksum(const TierInfo *ti) {
    const Database *v = &ti->vals;
    uint64_t n = ti->shi - ti->slo;
    ChainSum c = {0};
    ChainPart part = {tier_records_at(ti, ti->slo), n * v->width, ti->shi == ti->size};
    dbfile_sum_init(&c.st, 0);
    dist_chain(&c, sizeof c, chain_step, &part);
    if (v->winby != NULL) {
        part.data = v->winby;
        part.bytes = n * sizeof(int16_t);
        dbfile_sum_init(&c.st, c.h);
        c.done = 0;
        dist_chain(&c, sizeof c, chain_step, &part);
    }
    return c.h;
}

/* With --progress, rank 0 reports a step: its range of the tier, its
 * seconds computing (walking the range) and inside MPI (waiting for the
 * slowest rank and moving data), the bytes it sent and received, and the
 * bytes its process has allocated (jemalloc). */
static void step_report(TierSolve *s, const char *phase, int tier) {
    DistStats d = dist_stats_take();
    double computing = s->compute_seconds - s->compute_reported;
    s->compute_reported = s->compute_seconds;
    if (s->progress && dist_size() > 1 && dist_rank() == 0) {
        char mem[32];
        fprintf(stderr,
                "tier: %s tier %d on rank 0 of %d: slots [%" PRIu64 ", %" PRIu64 ") of %" PRIu64
                ", computing %.3f s, in MPI %.3f s, sent %" PRIu64 " B, received %" PRIu64
                " B, allocated %s\n",
                phase, tier, dist_size(), range_record(s, tier, 0), range_record(s, tier, 1),
                s->t[tier].size, computing, d.mpi_seconds, d.sent, d.received,
                mem_format(mem_allocated(), mem, sizeof mem));
    }
}

/* ---------------------------------------------------------------- solve */

/* A loopy tier's reach (solve false) or solve pass, by solvers/tier_loopy.c;
 * a failure is recorded as in the parallel regions. */
static void loopy_pass(TierSolve *s, int t, bool solve) {
    TierInfo *ti = &s->t[t];
    TierLoopyJob job = {
        .g = s->g,
        .fam = s->fam,
        .states = s->states,
        .threads = s->threads,
        .par_min = s->parallel_min,
        .chunk = s->chunk_words * 64,
        .tier_major = s->tier_major,
        .stored_edges = s->stored_edges,
        .wide_index = s->wide_index,
        .tier = t,
        .size = ti->size,
        .first = ti->first,
        .reach = ti->reach,
        .vals = &ti->vals,
        .nchildren = ti->nchildren,
        .res = s->res,
        .worker_peak = s->worker_peak,
        .progress = s->progress,
        .t0 = s->t0,
        .stop_at = s->loopy_stop_at,
    };
    for (int k = 0; k < ti->nchildren; k++) {
        TierInfo *c = &s->t[ti->children[k]];
        job.child[k] = (TierLoopyChild){
            .tier = ti->children[k], .size = c->size, .first = c->first, .reach = c->reach};
        job.child[k].vals = &c->vals;
    }
    Error e;
    dbwriter_pause(s->writer); /* its parallel loops take every core */
    ErrCode rc = solve ? tier_loopy_solve(&job, &e) : tier_loopy_reach(&job, &e);
    dbwriter_resume(s->writer);
    if (rc != ERR_OK) {
        fail_parallel(s, rc, "%s", e.msg);
    }
    for (int k = 0; k < 4; k++) {
        s->loopy_stats[k] += job.stats[k];
    }
    s->loopy_stopped = job.stopped;
    s->loopy_expanded = job.expanded;
}

/* The bitmaps of a complete database, whose reach file is gone (the records
 * say which positions are reached): from every tier file, when the
 * directory's manifest says the database is complete; *found stays false
 * otherwise. Each tier is read again by the backward pass (and checked
 * then). */
static ErrCode reach_from_tiers(TierSolve *s, bool *found) {
    DbManifest m;
    bool have = false;
    ErrCode rc = dbstore_manifest_read(&s->dir, &m, &have, s->err);
    if (rc != ERR_OK || !have) {
        return rc;
    }
    bool complete = m.complete && strcmp(m.layout, "tiers") == 0;
    dbstore_manifest_free(&m);
    if (!complete) {
        return ERR_OK;
    }
    for (int t = 0; t < s->ntiers && rc == ERR_OK; t++) {
        TierInfo *ti = &s->t[t];
        Database v;
        rc = db_create(&v, ti->size, s->width, s->winby, s->err);
        if (rc != ERR_OK) {
            break;
        }
        DbStoreInfo info;
        char name[DBSTORE_NAME_MAX];
        bool here = false;
        file_info(s, DBSTORE_RECORDS, t, &info);
        store_tier_name(t, name, sizeof name);
        rc = dbstore_read(&s->dir, name, &info, v.r8 != NULL ? (void *)v.r8 : (void *)v.r16,
                          v.winby, s->threads, &here, NULL, NULL, s->err);
        if (rc == ERR_OK && !here) {
            rc = error_set(s->err, ERR_IO,
                           "%s/%s is missing, though the manifest lists it; remove the "
                           "manifest (the tier will be solved again) or use another --db",
                           s->work_dir, name);
        }
        for (uint64_t i = 0; i < ti->size && rc == ERR_OK; i++) {
            if (db_peek(&v, i) != DB_UNREACHED) {
                ti->reach[i / 64] |= UINT64_C(1) << (i % 64);
            }
        }
        db_destroy(&v);
    }
    *found = rc == ERR_OK;
    return rc;
}

/* Sliced, once the bitmaps are complete (and saved): every tier is split
 * now, and the pages of bitmap words in other ranks' ranges go back to the
 * system (madvise MADV_DONTNEED: they read as zeros from then on, and
 * nothing reads them: the backward pass walks and checks only this rank's
 * ranges, and split_tier reuses these cuts). The bitmaps then take about
 * 1/N of their size during the backward pass. */
static void trim_bitmaps(TierSolve *s) {
    for (int t = 0; t < s->ntiers; t++) {
        split_tier(s, t);
    }
    s->presplit = true;
#ifdef MADV_DONTNEED
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t keep_end = (uintptr_t)s->reach_block; /* the end of the last range kept */
    for (int t = 0; t <= s->ntiers; t++) {
        uintptr_t start = t < s->ntiers ? (uintptr_t)(s->t[t].reach + s->t[t].lo)
                                        : (uintptr_t)(s->reach_block + reach_words(s));
        uintptr_t a = (keep_end + page - 1) & ~(page - 1), e = start & ~(page - 1);
        if (e > a) {
            (void)madvise((void *)a, e - a, MADV_DONTNEED);
        }
        if (t < s->ntiers) {
            keep_end = (uintptr_t)(s->t[t].reach + s->t[t].hi);
        }
    }
#endif
}

/* tier:sector: refuses, before any tier is solved, a sector whose peak
 * would exceed the memory budget (ERR_MEMORY). The peak counted: the
 * records the window holds at its fullest (window_peak), the reachability
 * bitmaps, and the largest loopy pass's working set (tier_loopy_bytes, an
 * upper bound), the sum an upper bound since the window's fullest moment
 * and the largest loopy pass need not coincide. Before the bitmaps exist
 * (`reached` false) the loopy pass's 14 or 22 bytes a reachable position
 * are not known and not counted: what is counted is then certain to be
 * needed; once they exist (sector_reach) they are counted. A tier of more
 * than 2^32 slots is no longer refused (until 2026-11-23 the loopy pass's
 * 32-bit indices stopped at 2^31 slots: ERR_LIMIT); its loopy pass keeps
 * 64-bit indices (TIER_LOOPY_WIDE_FROM). O(tiers^2) for window_peak. */
static ErrCode sector_fits(TierSolve *s, bool reached) {
    bool edges = s->stored_edges || s->g->ops->generate_parents == NULL;
    uint64_t loopy = 0;
    for (int t = 0; t < s->ntiers; t++) {
        const TierInfo *ti = &s->t[t];
        if (ti->outside || ti->held || !ti->loopy) {
            continue;
        }
        uint64_t b = tier_loopy_bytes(ti->size, reached ? ti->reached : 0, edges);
        loopy = b > loopy ? b : loopy;
    }
    uint64_t records = window_peak(s), bitmaps = reach_words(s) * 8;
    char what[256], a[32], b[32], c[32];
    snprintf(what, sizeof what,
             "tier:sector=%d (records %s, bitmaps %s, loopy pass %s%s; docs/loopy.md)", s->sector,
             mem_format(records, a, sizeof a), mem_format(bitmaps, b, sizeof b),
             mem_format(loopy, c, sizeof c), reached ? "" : " before its positions are counted");
    return mem_check(records + bitmaps + loopy, what, s->err);
}

/* Whether the --db directory has tier t's file (it may still prove
 * corrupt or another variant's: the load refuses it then). */
static bool tier_on_disk(const TierSolve *s, int t) {
    if (s->work_dir == NULL) {
        return false;
    }
    char name[DBSTORE_NAME_MAX], path[4096 + DBSTORE_NAME_MAX];
    store_tier_name(t, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", s->work_dir, name);
    struct stat st;
    return stat(path, &st) == 0;
}

/* tier:sector=T (whole-sector mode): solves tier T and every tier below it
 * over ALL their positions, as Gasser solved the Nine Men's Morris sectors,
 * not only those reachable from the initial position; the tiers already in
 * the --db directory (child sectors solved by earlier runs) are loaded, not
 * solved again. So a game too large to solve from the start is solved
 * sector by sector, each run holding a sector and its children.
 *
 * plan_sector: the tiers outside the sector's descendants get size 0 (no
 * bitmap, no records, skipped by the backward pass), and the initial
 * position is the root only when its tier is in the sector's closure (else
 * the result's value is "undecided": a sector has no value of its own).
 * The walk stops at a tier whose file --db holds (`held`): it is loaded,
 * so its own descendants are not needed, and a run whose children are all
 * on disk (a placement tier of nine men's morris above the 28 sectors)
 * loads those children only, not every sector below them. O(tiers +
 * edges) and one stat a tier. */
static ErrCode plan_sector(TierSolve *s) {
    if (s->sector >= s->ntiers) {
        return error_set(s->err, ERR_USAGE, "tier:sector=%d: game '%s' has tiers 0..%d", s->sector,
                         s->g->module->name, s->ntiers - 1);
    }
    if (dist_size() > 1) {
        return error_set(s->err, ERR_USAGE, "tier:sector runs in one process (not under MPI)");
    }
    for (int t = 0; t < s->ntiers; t++) {
        s->t[t].outside = true;
    }
    int *stack = mem_calloc((size_t)s->ntiers, sizeof *stack, "the tier order", s->err);
    if (stack == NULL) {
        return ERR_MEMORY;
    }
    int top = 0;
    stack[top++] = s->sector;
    s->t[s->sector].outside = false;
    while (top > 0) {
        TierInfo *ti = &s->t[stack[--top]];
        ti->held = tier_on_disk(s, (int)(ti - s->t));
        for (int k = 0; k < ti->nchildren && !ti->held; k++) {
            if (s->t[ti->children[k]].outside) {
                s->t[ti->children[k]].outside = false;
                stack[top++] = ti->children[k];
            }
        }
    }
    free(stack);
    for (int t = 0; t < s->ntiers; t++) {
        s->t[t].parents_left = 0;
    }
    for (int t = 0; t < s->ntiers; t++) {
        TierInfo *ti = &s->t[t];
        if (ti->outside) {
            ti->size = 0;
            ti->hi = 0;
            continue;
        }
        for (int k = 0; k < ti->nchildren; k++) {
            s->t[ti->children[k]].parents_left++;
        }
    }
    if (s->t[s->root_tier].outside) {
        s->root_tier = -1;
    }
    return sector_fits(s, false);
}

/* The bitmaps of tier:sector: every position of the tiers in the sector's
 * closure (TierOps.legal, when the game has it; with `sym`, every canonical
 * one: the records of the others would never be read), in parallel; no
 * forward pass and no reach file. O(slots) legal/canonical calls. */
static ErrCode sector_reach(TierSolve *s) {
    uint64_t total_words = reach_words(s);
    uint64_t *block =
        mem_calloc((size_t)total_words + 1, sizeof *block, "the reachability bitmaps", s->err);
    if (block == NULL) {
        return ERR_MEMORY;
    }
    s->reach_block = block;
    uint64_t off = 0;
    s->total_reached = 0;
    for (int t = 0; t < s->ntiers; t++) {
        TierInfo *ti = &s->t[t];
        ti->reach = block + off;
        uint64_t nwords = words_of(ti->size);
        off += nwords;
        if (ti->outside || ti->held) {
            continue; /* held: from its records once loaded (check_tier) */
        }
        const Game *g = s->g;
        bool (*legal)(const Game *, int, Position) = g->tiers->legal;
        int tier = t;
#pragma omp parallel for num_threads(s->threads)                                                   \
    schedule(dynamic, 1) if (ti->size >= s->parallel_min)
        for (uint64_t w = 0; w < nwords; w++) {
            uint64_t bits = 0;
            for (uint64_t i = w * 64; i < ti->size && i < w * 64 + 64; i++) {
                Position p = position_of(s, tier, i);
                if ((legal == NULL || legal(g, tier, p)) &&
                    (!g->symmetric || game_canonical(g, p) == p)) {
                    bits |= UINT64_C(1) << (i % 64);
                }
            }
            ti->reach[w] = bits;
        }
        ti->reached = popcount_bitmap(ti->reach, nwords);
        s->total_reached += ti->reached;
    }
    return sector_fits(s, true);
}

/* Loads the bitmaps from the database directory, or runs the forward pass
 * (and saves them there). */
static ErrCode reachability(TierSolve *s) {
    if (s->sector >= 0) {
        return sector_reach(s);
    }
    uint64_t total_words = 0;
    for (int t = 0; t < s->ntiers; t++) {
        total_words += words_of(s->t[t].size);
    }
    /* One block for all bitmaps, so that the reach file is one part. */
    uint64_t *block =
        mem_calloc((size_t)total_words, sizeof *block, "the reachability bitmaps", s->err);
    if (block == NULL) {
        return ERR_MEMORY;
    }
    s->reach_block = block;
    huge_pages(block, total_words * 8);
    uint64_t off = 0;
    for (int t = 0; t < s->ntiers; t++) {
        s->t[t].reach = block + off;
        off += words_of(s->t[t].size);
    }
    DbStoreInfo info;
    bool found = false;
    ErrCode rc = ERR_OK;
    if (s->work_dir != NULL) {
        file_info(s, DBSTORE_REACH, -1, &info);
        rc = dbstore_read(&s->dir, "reach.gmdb", &info, block, NULL, s->threads, &found, NULL, NULL,
                          s->err);
        if (rc == ERR_OK && !found) {
            rc = reach_from_tiers(s, &found);
        }
        if (rc == ERR_OK && found) {
            rc = check_reach(s);
        }
        if (rc != ERR_OK) {
            return rc;
        }
    }
    /* Every rank loads its copy of the bitmaps, or every rank recomputes. */
    rc = dist_agree(rc, s->err);
    if (rc != ERR_OK) {
        return rc;
    }
    found = dist_sum_u64(found) == (uint64_t)dist_size();
    if (!found) {
        memset(block, 0, total_words * 8);
        s->t[s->root_tier].reach[s->root_index / 64] |= UINT64_C(1) << (s->root_index % 64);
        for (int k = s->ntiers - 1; k >= 0 && rc == ERR_OK; k--) {
            int t = s->order[k];
            /* Every parent tier is walked: combine the ranks' marks. */
            dist_or_words(s->t[t].reach, words_of(s->t[t].size));
            s->t[t].reached = popcount_bitmap(s->t[t].reach, words_of(s->t[t].size));
            split_tier(s, t);
            if (s->t[t].loopy) { /* solved whole by every rank: not split */
                loopy_pass(s, t, false);
            } else {
                walk_tier(s, t, "reach", mark_children);
            }
            rc = dist_agree(has_failed(s) ? s->err->code : ERR_OK, s->err);
            step_report(s, "reach", t);
            progress_line(s, "reach", t, s->t[t].reached, s->t[t].reached, true);
            s->done_before += s->t[t].reached;
        }
        if (rc != ERR_OK) {
            return rc;
        }
        if (s->work_dir != NULL) { /* in the background: block lives to the end */
            rc = dbwriter_submit(s->writer, "reach.gmdb", &info, block, NULL, NULL, NULL, s->err);
        }
        rc = dist_agree(rc, s->err);
    }
    s->total_reached = 0;
    for (int t = 0; t < s->ntiers; t++) {
        s->t[t].reached = popcount_bitmap(s->t[t].reach, words_of(s->t[t].size));
        s->total_reached += s->t[t].reached;
    }
    if (found) {
        s->done_before = s->total_reached; /* the forward half is done */
    }
    if (rc == ERR_OK && s->sliced && dist_size() > 1) {
        trim_bitmaps(s);
    }
    return rc;
}

/* With --work-dir and N > 1 ranks: the ranks' file header checksums and
 * record checksums of their ranges of tier t go to every rank (a tiny
 * allgather), and rank 0 lists the tier's slices in its manifest. */
static void manifest_tier(TierSolve *s, int t) {
    int n = dist_size(), me = dist_rank();
    uint64_t *b = s->bounds + n + 1, *sums = s->bounds + 2 * (n + 1); /* 3n <= 3(n + 1) */
    for (int r = 0; r <= n; r++) {
        b[r] = (uint64_t)r * 3 * sizeof *sums;
    }
    sums[3 * me] = s->t[t].file_sum;
    sums[3 * me + 1] = range_checksum(&s->t[t], range_record(s, t, me), range_record(s, t, me + 1));
    sums[3 * me + 2] = s->t[t].file_bytes;
    dist_share_ranges(sums, b, (uint64_t)n * 3 * sizeof *sums);
    for (int r = 0; r < n && s->manifest != NULL; r++) {
        uint64_t a = range_record(s, t, r), e = range_record(s, t, r + 1);
        fprintf(s->manifest,
                "tier %d rank %d records %" PRIu64 " %" PRIu64 " checksum %016" PRIx64
                " file rank-%d-of-%d/tier-%04d.gmdb header %016" PRIx64 "\n",
                t, r, a, e, sums[3 * r + 1], r, n, t, sums[3 * r]);
        DbManifestFile *f = &s->slices[(size_t)t * (size_t)n + (size_t)r];
        *f = (DbManifestFile){.index = t,
                              .records = e - a,
                              .first = a,
                              .bytes = sums[3 * r + 2],
                              .header_sum = sums[3 * r]};
        snprintf(f->name, sizeof f->name, "rank-%d-of-%d/tier-%04d.gmdb", r, n, t);
    }
}

/* Sliced: each rank tallied its own slices; the totals are their sums
 * (collective). */
static void sliced_summary(DbSummary *sum) {
    sum->max_remoteness = (uint32_t)dist_max_u64(sum->max_remoteness);
    uint64_t head[2 + VALUE_COUNT] = {sum->positions, sum->undecided};
    memcpy(head + 2, sum->count, sizeof sum->count);
    dist_sum_words(head, 2 + VALUE_COUNT);
    sum->positions = head[0];
    sum->undecided = head[1];
    memcpy(sum->count, head + 2, sizeof sum->count);
    dist_sum_words(&sum->by_remoteness[0][0],
                   ((uint64_t)sum->max_remoteness + 1) * (uint64_t)VALUE_COUNT);
}

/* Sliced: frees what tier `tier`'s children fetched for it. */
static void children_release(TierSolve *s, int tier) {
    for (int k = 0; k < s->t[tier].nchildren; k++) {
        TierInfo *c = &s->t[s->t[tier].children[k]];
        free(c->need);
        free(c->need_rank);
        c->need = c->need_rank = NULL;
        db_destroy(&c->got);
    }
}

/* Sliced, before tier `tier` is solved (collective: every rank calls it,
 * also one with nothing to solve, which then asks for nothing): each rank
 * walks its range once to mark the child records it needs that other ranks
 * hold (mark_needed), then fetches them, one batch per child tier
 * (dist_fetch: the records, then the WinBy scores). The walk is a second
 * expansion of the range (the solve walk expands it again): the price of
 * not storing the children. Memory per child tier: 16 bytes per 64 slots
 * (need, and need_rank's count per word) plus the fetched records. */
static ErrCode children_fetch(TierSolve *s, int tier, bool walk) {
    TierInfo *ti = &s->t[tier];
    ErrCode rc = ERR_OK;
    for (int k = 0; k < ti->nchildren && rc == ERR_OK; k++) {
        TierInfo *c = &s->t[ti->children[k]];
        uint64_t nw = words_of(c->size);
        c->need = mem_calloc((size_t)nw, 8, "the child records to fetch", s->err);
        c->need_rank = mem_calloc((size_t)nw, 8, "the child records to fetch", s->err);
        rc = c->need != NULL && c->need_rank != NULL ? ERR_OK : ERR_MEMORY;
    }
    if (rc == ERR_OK && walk) {
        walk_tier(s, tier, "fetch", mark_needed);
        rc = has_failed(s) ? s->err->code : ERR_OK;
    }
    for (int k = 0; k < ti->nchildren && rc == ERR_OK; k++) {
        TierInfo *c = &s->t[ti->children[k]];
        uint64_t count = 0;
        for (uint64_t w = 0; w < words_of(c->size); w++) {
            c->need_rank[w] = count;
            count += (uint64_t)__builtin_popcountll(c->need[w]);
        }
        if (count > 0) {
            rc = db_create(&c->got, count, s->width, s->winby, s->err);
        }
    }
    rc = dist_agree(rc, s->err);
    for (int k = 0; k < ti->nchildren && rc == ERR_OK; k++) {
        TierInfo *c = &s->t[ti->children[k]];
        const Database *v = &c->vals, *g = &c->got;
        dist_fetch(s->fetch, c->rb, c->size, v->width,
                   v->r8 != NULL ? (const void *)v->r8 : (const void *)v->r16, c->need,
                   g->r8 != NULL ? (void *)g->r8 : (void *)g->r16);
        if (v->winby != NULL) {
            dist_fetch(s->fetch, c->rb, c->size, sizeof(int16_t), v->winby, c->need, g->winby);
        }
    }
    return rc;
}

static ErrCode backward(TierSolve *s, DbSummary *sum) {
    ErrCode rc = ERR_OK;
    for (int k = 0; k < s->ntiers && rc == ERR_OK; k++) {
        int t = s->order[k];
        TierInfo *ti = &s->t[t];
        if (ti->outside) {
            continue; /* tier:sector: not below the sector */
        }
        split_tier(s, t);
        rc = tier_alloc(s, t);
        DbStoreInfo info;
        char name[DBSTORE_NAME_MAX];
        bool found = false;
        uint64_t lo = 0, hi = ti->size; /* this rank's records (its file) */
        if (rc == ERR_OK && s->work_dir != NULL) {
            file_info(s, DBSTORE_RECORDS, t, &info);
            slice_info(s, t, &info, &lo, &hi);
            store_tier_name(t, name, sizeof name);
            rc = dbstore_read(&s->dir, name, &info, tier_records_at(ti, lo), tier_winby_at(ti, lo),
                              s->threads, &found, &ti->file_sum, &ti->file_bytes, s->err);
            if (rc == ERR_OK && ti->held && !found) {
                rc = error_set(s->err, ERR_IO,
                               "%s/%s was there when the run began and is gone; run again",
                               s->work_dir, name);
            }
            if (rc == ERR_OK && found) {
                rc = check_tier(s, t, name, lo, hi);
            }
        }
        if (s->sliced && dist_size() > 1 && !ti->loopy && ti->reached > 0) {
            /* Every rank takes part in the look-ups when any rank solves. */
            rc = dist_agree(rc, s->err);
            if (rc == ERR_OK && dist_max_u64(!found) != 0) {
                rc = children_fetch(s, t, !found);
            }
        }
        if (rc == ERR_OK && found) {
            s->tiers_loaded++;
        } else if (rc == ERR_OK) {
            if (ti->reached > 0) {
                if (ti->loopy) { /* solved whole by every rank: not split */
                    loopy_pass(s, t, true);
                } else {
                    walk_tier(s, t, "solve", solve_position);
                }
                rc = has_failed(s) ? s->err->code : ERR_OK;
                if (rc == ERR_OK) {
                    s->tiers_solved++;
                }
            }
            if (rc == ERR_OK && s->work_dir != NULL) {
                /* Written while the next tier is solved (tier_free waits
                 * for it); N ranks need its checksum now (manifest_tier). */
                rc = dbwriter_submit(s->writer, name, &info, tier_records_at(ti, lo),
                                     tier_winby_at(ti, lo), &ti->file_sum, &ti->file_bytes, s->err);
                s->writing_tier = t;
                ti->written = true;
                if (rc == ERR_OK && dist_size() > 1) {
                    rc = dbwriter_wait(s->writer, s->err);
                }
            }
        }
        /* Every rank has its range (or the failure is known to all). */
        rc = dist_agree(rc, s->err);
        if (rc != ERR_OK) {
            break;
        }
        if (s->sliced) {
            children_release(s, t);
            ti->checksum = sliced_checksum(ti);
        } else {
            share_tier(s, t);
            ti->checksum = range_checksum(ti, 0, ti->size);
        }
        step_report(s, "solve", t);
        if (s->work_dir != NULL && dist_size() > 1) {
            manifest_tier(s, t);
        }
        progress_line(s, "solve", t, ti->reached, ti->reached, true);
        s->done_before += ti->reached;
        ti->solved = true;
        if (rc == ERR_OK) {
            rc = tally(s, t, sum);
        }
        for (uint64_t i = 0; rc == ERR_OK && t == s->sector && i < ti->size; i++) {
            uint32_t raw = db_peek(&ti->vals, i);
            if (raw != DB_UNREACHED) {
                s->sector_count[db_raw_value(&ti->vals, raw)]++;
            }
        }
        if (rc != ERR_OK) {
            break;
        }
        if (t == s->root_tier) {
            /* the rank that holds the root's record tells the others */
            uint64_t r = s->root_index, raw = 0, wb = 0;
            if (r - ti->slo < ti->shi - ti->slo) {
                raw = db_peek(&ti->vals, r - ti->slo) + 1;
                wb = s->winby ? (uint64_t)(ti->vals.winby[r - ti->slo] + 32768) : 0;
            }
            if (s->sliced) {
                raw = dist_max_u64(raw);
                wb = dist_max_u64(wb);
            }
            s->res->root = (Outcome){db_raw_value(&ti->vals, (uint32_t)(raw - 1)),
                                     db_raw_remoteness(&ti->vals, (uint32_t)(raw - 1))};
            s->res->root_winby = s->winby ? (WinBy)((int64_t)wb - 32768) : 0;
        }
        if (s->whole && !s->tier_major) {
            scatter(s, t);
        }
        for (int c = 0; c < ti->nchildren; c++) {
            int ct = ti->children[c];
            if (--s->t[ct].parents_left == 0) {
                tier_free(s, ct);
            }
        }
        if (ti->parents_left == 0) {
            tier_free(s, t);
        }
    }
    return rc;
}

/* With --work-dir and N > 1 ranks, rank 0 writes DIR/manifest-of-N.txt: the
 * variant, then per tier and rank the records of the rank's range, the
 * payload checksum of its file and the file's name (written as .tmp while
 * solving, renamed when every tier is solved); and, when every tier is
 * solved, DIR/manifest (core/dbstore.h: the counts, the root's value and
 * every slice file, rank-R-of-N/tier-NNNN.gmdb, with its range, size and
 * header checksum), which solvers/store.h reads: a single process answers
 * --query, --analyze and --verify from DIR once the rank directories are
 * gathered in it. A previous run's DIR/manifest is removed first (the
 * database is not complete while this solve runs). */
static ErrCode manifest_open(TierSolve *s, ErrCode rc) {
    if (rc != ERR_OK || s->work_dir == NULL || dist_size() == 1 || dist_rank() != 0) {
        return rc;
    }
    s->slices = mem_calloc((size_t)s->ntiers * (size_t)dist_size(), sizeof *s->slices,
                           "the manifest", s->err);
    if (s->slices == NULL) {
        return ERR_MEMORY;
    }
    DbDir top;
    rc = dbstore_dir_open(s->top_dir, false, &top, s->err);
    if (rc != ERR_OK) {
        return rc;
    }
    dbstore_remove(&top, "manifest");
    dbstore_dir_close(&top);
    char path[4096];
    snprintf(path, sizeof path, "%s/manifest-of-%d.txt.tmp", s->top_dir, dist_size());
    s->manifest = fopen(path, "w");
    if (s->manifest == NULL) {
        return error_set(s->err, ERR_IO, "cannot write %s: %s", path, strerror(errno));
    }
    fprintf(s->manifest, "gamesman tier database in %d ranks\nvariant %s\ntiers %d\n", dist_size(),
            s->spec, s->ntiers);
    return ERR_OK;
}

static ErrCode manifest_close(TierSolve *s, const DbSummary *sum) {
    ErrCode rc = ERR_OK;
    if (s->manifest != NULL) {
        char tmp[4096 + 8], path[4096];
        snprintf(path, sizeof path, "%s/manifest-of-%d.txt", s->top_dir, dist_size());
        snprintf(tmp, sizeof tmp, "%s.tmp", path);
        bool bad = fflush(s->manifest) != 0 || ferror(s->manifest) != 0;
        bad = fclose(s->manifest) != 0 || bad;
        s->manifest = NULL;
        if (bad || rename(tmp, path) != 0) {
            rc = error_set(s->err, ERR_IO, "cannot write %s: %s", path, strerror(errno));
        }
        DbDir top;
        if (rc == ERR_OK) {
            rc = dbstore_dir_open(s->top_dir, false, &top, s->err);
        }
        if (rc == ERR_OK) {
            DbManifest m;
            store_manifest_fill(&m, s->g, "tier", "tiers", sum, s->res->root, s->winby,
                                s->res->root_winby);
            m.nfiles = s->ntiers * dist_size();
            m.files = s->slices;
            rc = dbstore_manifest_write(&top, &m, s->err);
            dbstore_dir_close(&top);
        }
    }
    return dist_agree(rc, s->err);
}

/* ------------------------------------------------------------- estimate */

/* tier:estimate: what a solve of this variant would need, printed on
 * stderr without solving (the figures also go to solver_stats, est_*):
 * per tier the hash slots and a bound on its reachable positions, the
 * memory mode the solve would choose and its peak, the disk the tier files
 * take (--work-dir), and the time from a calibration run.
 *
 * Calibration: the forward pass over the first tiers in solve order from
 * the initial position's (one thread), each tier's bitmap allocated when a
 * parent first needs it, until the bitmaps would pass
 * ESTIMATE_BITMAP_BYTES or ESTIMATE_SECONDS have passed. A walked tier's
 * reachable count is exact (all its parents came before it); the others
 * are bounded by their slots. The time is 2 expansions (forward and
 * backward) per reachable position at the calibrated rate per thread,
 * times the threads: an upper bound with every unwalked slot reachable,
 * and an extrapolation at the reachable fraction of the last walked tier.
 * Small tiers fit the caches, so the rate is optimistic for tiers of
 * gigabytes (docs/connect-four.md: estimate against the measured 6x5 solve).
 * A loopy tier is closed under its in-tier moves by tier_loopy_reach, as
 * the reach pass does, stopped after the round that passes
 * ESTIMATE_SECONDS (then it is not walked, only its rate counts, and the
 * calibration ends); its solve pass (one expansion a position, then
 * un-moves from the frontier) is timed as 2 expansions too, an
 * underestimate; the largest loopy pass's working set (tier_loopy_bytes,
 * on the reachable count or its bound) is added to the peak. */
#define ESTIMATE_BITMAP_BYTES (UINT64_C(64) << 20)
#define ESTIMATE_SECONDS 3.0

static ErrCode estimate(TierSolve *s, bool window_only) {
    const Game *g = s->g;
    char a[32], b[32], c[32], d[32];
    uint64_t bitmaps = 0, files = DBSTORE_HEADER_BYTES, slots = 0;
    for (int t = 0; t < s->ntiers; t++) {
        bitmaps += words_of(s->t[t].size) * 8;
        files += record_bytes(s, s->t[t].size) + DBSTORE_HEADER_BYTES;
        slots += s->t[t].size;
    }
    files += bitmaps;
    uint64_t window = window_peak(s);
    uint64_t full =
        db_bytes(g->num_positions, s->width, s->winby) + bitmaps + (s->tier_major ? 0 : window);
    uint64_t budget = mem_budget();
    bool whole = !window_only && full <= budget;
    uint64_t peak = whole ? full : bitmaps + window;

    /* Calibration, on one thread. */
    bool *walked = mem_calloc((size_t)s->ntiers, sizeof *walked, "the estimate", s->err);
    if (walked == NULL) {
        return ERR_MEMORY;
    }
    uint64_t saved_min = s->parallel_min, used = 0, expanded = 0;
    s->parallel_min = UINT64_MAX;
    int last = -1, partial = -1; /* the last tier walked; a loopy tier stopped early */
    ErrCode rc = ERR_OK;
    double t0 = clock_seconds();
    TierInfo *root = &s->t[s->root_tier];
    root->reach = mem_calloc((size_t)words_of(root->size), 8, "the estimate", s->err);
    used += words_of(root->size) * 8;
    if (root->reach == NULL) {
        rc = ERR_MEMORY;
    } else {
        root->reach[s->root_index / 64] |= UINT64_C(1) << (s->root_index % 64);
    }
    for (int k = s->ntiers - 1; k >= 0 && rc == ERR_OK && !has_failed(s); k--) {
        TierInfo *ti = &s->t[s->order[k]];
        if (ti->reach == NULL) {
            continue; /* no walked tier reaches it */
        }
        uint64_t need = 0;
        for (int j = 0; j < ti->nchildren; j++) {
            const TierInfo *ch = &s->t[ti->children[j]];
            need += ch->reach == NULL ? words_of(ch->size) * 8 : 0;
        }
        /* Stop before a tier that would take the calibration past its
         * time at the rate so far. */
        double spent = clock_seconds() - t0;
        uint64_t next = popcount_bitmap(ti->reach, words_of(ti->size));
        double ahead = expanded > 0 ? spent * (double)next / (double)expanded : 0;
        if (used + need > ESTIMATE_BITMAP_BYTES || spent + ahead > ESTIMATE_SECONDS) {
            break;
        }
        for (int j = 0; j < ti->nchildren && rc == ERR_OK; j++) {
            TierInfo *ch = &s->t[ti->children[j]];
            if (ch->reach == NULL) {
                ch->reach = mem_calloc((size_t)words_of(ch->size), 8, "the estimate", s->err);
                used += words_of(ch->size) * 8;
                rc = ch->reach != NULL ? ERR_OK : ERR_MEMORY;
            }
        }
        if (rc == ERR_OK) {
            ti->reached = popcount_bitmap(ti->reach, words_of(ti->size));
            if (ti->loopy) { /* its moves may stay in it: closed as the reach pass does */
                s->loopy_stop_at = t0 + ESTIMATE_SECONDS;
                loopy_pass(s, s->order[k], false);
                s->loopy_stop_at = 0;
                expanded += s->loopy_expanded;
                if (s->loopy_stopped) {
                    partial = s->order[k];
                    break; /* out of time: it and its children are not counted */
                }
                ti->reached = popcount_bitmap(ti->reach, words_of(ti->size));
            } else {
                walk_tier(s, s->order[k], "estimate", mark_children);
                expanded += ti->reached;
            }
            walked[s->order[k]] = true;
            last = s->order[k];
        }
    }
    double elapsed = clock_seconds() - t0;
    s->parallel_min = saved_min;
    for (int t = 0; t < s->ntiers; t++) {
        free(s->t[t].reach);
        s->t[t].reach = NULL;
    }
    if (rc == ERR_OK && has_failed(s)) {
        rc = s->err->code;
    }
    if (rc != ERR_OK) {
        free(walked);
        return rc;
    }

    /* The table and the totals. */
    double fraction = last >= 0 && s->t[last].size > 0
                          ? (double)s->t[last].reached / (double)s->t[last].size
                          : 1.0;
    uint64_t exact = 0, bound = 0;
    double guess = 0;
    fprintf(stderr, "tier estimate for %s (%d tiers, %" PRIu64 " slots), nothing solved:\n",
            s->spec, s->ntiers, slots);
    fprintf(stderr, "%6s %18s %18s %12s\n", "tier", "slots", "reachable", "records");
    for (int k = s->ntiers - 1; k >= 0; k--) {
        int t = s->order[k];
        const TierInfo *ti = &s->t[t];
        uint64_t r = walked[t] ? ti->reached : ti->size;
        bound += r;
        exact += walked[t] ? r : 0;
        guess += walked[t] ? (double)r : fraction * (double)ti->size;
        char rb[32];
        snprintf(rb, sizeof rb, "%s%" PRIu64, walked[t] ? "" : "<= ", r);
        fprintf(stderr, "%6d %18" PRIu64 " %18s %12s\n", t, ti->size, rb,
                mem_format(record_bytes(s, ti->size), a, sizeof a));
    }
    /* The largest loopy pass, on the reachable counts above (a bound for
     * the unwalked tiers), on top of the records. */
    uint64_t loopy = 0;
    bool edges = s->stored_edges || g->ops->generate_parents == NULL;
    for (int t = 0; t < s->ntiers; t++) {
        if (s->t[t].loopy) {
            uint64_t r = walked[t] ? s->t[t].reached : s->t[t].size;
            uint64_t lb = tier_loopy_bytes(s->t[t].size, r, edges);
            loopy = lb > loopy ? lb : loopy;
        }
    }
    free(walked);
    uint64_t records = peak - bitmaps;
    peak += loopy;
    char e[32], lp[64] = "";
    if (loopy > 0) {
        snprintf(lp, sizeof lp, ", loopy pass %s", mem_format(loopy, e, sizeof e));
    }
    fprintf(stderr, "memory: %s, peak %s (bitmaps %s, tier records %s%s); budget %s: %s\n",
            whole ? "the whole database" : "the tiers in use only", mem_format(peak, a, sizeof a),
            mem_format(bitmaps, b, sizeof b), mem_format(records, c, sizeof c), lp,
            mem_format(budget, d, sizeof d), peak <= budget ? "fits" : "does NOT fit");
    fprintf(stderr,
            "disk (--db): at most %s of tier files (uncompressed; zstd makes them far smaller)",
            mem_format(files, a, sizeof a));
    if (s->work_dir != NULL) {
        struct statvfs vfs;
        if (statvfs(s->work_dir, &vfs) == 0) {
            uint64_t free_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
            fprintf(stderr, "; %s free in %s: %s", mem_format(free_bytes, b, sizeof b), s->work_dir,
                    files <= free_bytes ? "fits" : "does NOT fit");
        }
    }
    fprintf(stderr, "\n");
    double rate = elapsed > 0 ? (double)expanded / elapsed : 0;
    double upper = 0, about = 0;
    if (expanded < 1000 || rate <= 0) {
        fprintf(stderr, "time: too few positions in the first tiers to calibrate (%" PRIu64 ")\n",
                expanded);
    } else if (last < 0) {
        upper = about = 2.0 * (double)bound / (rate * s->threads);
        fprintf(stderr,
                "time: calibrated on part of loopy tier %d's closure (%" PRIu64
                " positions in %.2f s, %.3g positions/s on one thread); on %d threads, at most "
                "%.3g s with every slot reachable\n",
                partial, expanded, elapsed, rate, s->threads, upper);
    } else {
        upper = 2.0 * (double)bound / (rate * s->threads);
        about = 2.0 * guess / (rate * s->threads);
        fprintf(stderr,
                "time: calibrated on tiers up to %d (%" PRIu64 " positions in %.2f s, %.3g "
                "positions/s on one thread); on %d threads, at most %.3g s with every "
                "unwalked slot reachable, about %.3g s at tier %d's reachable fraction (%.3g), "
                "%.3g positions\n",
                last, expanded, elapsed, rate, s->threads, upper, about, last, fraction, guess);
    }
    solve_result_extra(s->res, "estimate_only", 1);
    solve_result_extra(s->res, "est_slots", (double)slots);
    solve_result_extra(s->res, "est_reachable_bound", (double)bound);
    solve_result_extra(s->res, "est_reachable_exact", (double)exact);
    solve_result_extra(s->res, "est_reachable_guess", guess);
    solve_result_extra(s->res, "est_whole_database", whole);
    solve_result_extra(s->res, "est_peak_bytes", (double)peak);
    solve_result_extra(s->res, "est_budget_bytes", (double)budget);
    solve_result_extra(s->res, "est_disk_bytes", (double)files);
    solve_result_extra(s->res, "est_rate_per_thread", rate);
    solve_result_extra(s->res, "est_seconds_bound", upper);
    solve_result_extra(s->res, "est_seconds_guess", about);
    return ERR_OK;
}

/* A finished solve: the manifest (the database is complete), then the
 * reach file goes (the records say which positions are reached). */
static ErrCode finish_dir(TierSolve *s, const DbSummary *sum) {
    DbManifest m;
    store_manifest_fill(&m, s->g, "tier", "tiers", sum, s->res->root, s->winby, s->res->root_winby);
    m.nfiles = s->ntiers;
    m.files = mem_calloc((size_t)s->ntiers, sizeof *m.files, "the manifest", s->err);
    if (m.files == NULL) {
        return ERR_MEMORY;
    }
    for (int t = 0; t < s->ntiers; t++) {
        DbManifestFile *f = &m.files[t];
        store_tier_name(t, f->name, sizeof f->name);
        f->index = t;
        f->records = s->t[t].size;
        f->bytes = s->t[t].file_bytes;
        f->header_sum = s->t[t].file_sum;
    }
    ErrCode rc = store_manifest_commit(&s->dir, &m, s->err);
    dbstore_manifest_free(&m);
    if (rc == ERR_OK) {
        dbstore_remove(&s->dir, "reach.gmdb");
        s->res->saved_db = true;
    }
    return rc;
}

/* A database directory written by a solve on another number of ranks (its
 * rank-R-of-M directories or manifest-of-M.txt, M != N; one process: any
 * such entry) cannot be resumed or read with N ranks: the slices are cut
 * for M. Refused (ERR_IO) rather than solved again beside them. Each rank
 * looks in its own DIR (no shared file system is assumed). */
static ErrCode check_rank_layout(const char *dir, Error *err) {
    DIR *d = opendir(dir);
    if (d == NULL) {
        return ERR_OK; /* not there yet: created later, or refused by open_dir */
    }
    int n = dist_size(), r = 0, m = 0;
    ErrCode rc = ERR_OK;
    for (struct dirent *e = readdir(d); e != NULL && rc == ERR_OK; e = readdir(d)) {
        char tail = 0;
        bool slices = sscanf(e->d_name, "rank-%d-of-%d%c", &r, &m, &tail) == 2;
        bool manifest =
            !slices && sscanf(e->d_name, "manifest-of-%d.tx%c", &m, &tail) == 2 && tail == 't' &&
            strlen(e->d_name) == strlen("manifest-of-.txt") + (size_t)snprintf(NULL, 0, "%d", m);
        if ((slices || manifest) && m != n && !(n == 1 && m == 1)) {
            rc = error_set(err, ERR_IO,
                           "%s holds the database of a solve on %d ranks (%s), not %d; run on %d "
                           "ranks to resume it, read it by one process without --solver "
                           "(docs/mpi.md), or use another --db",
                           dir, m, e->d_name, n, m);
        }
    }
    closedir(d);
    return rc;
}

static ErrCode tier_solve(const Game *g, const SolveConfig *cfg, SolveResult *res, Error *err) {
    TierSolve s = {
        .g = g,
        .res = res,
        .err = err,
        .tier_major = g->tiers->first != NULL,
        .width = db_width_for(g->max_depth),
        .winby = g->has_winby,
        .work_dir = cfg->work_dir,
        .need_db = cfg->need_db,
        .dir = {.fd = -1, .lock_fd = -1},
        .writing_tier = -1,
        .progress = dist_rank() == 0 && (cfg->progress || isatty(STDERR_FILENO)),
        .tty = isatty(STDERR_FILENO),
        .t0 = clock_seconds(),
    };
    s.last_report = s.t0;
    s.chunk_words = (uint64_t)opt_int(&cfg->options, "chunk") / 64;
    s.parallel_min = (uint64_t)opt_int(&cfg->options, "parallel_min");
    s.stored_edges = opt_bool(&cfg->options, "stored_edges");
    s.wide_index = opt_bool(&cfg->options, "wide_index");
    s.sector = (int)opt_int(&cfg->options, "sector");
    if (!opt_bool(&cfg->options, "stateless")) {
        s.fam = g->gps_cached != NULL ? g->gps_cached : g->gps;
    }
    s.fast = g->tiers->expand_run != NULL && !opt_bool(&cfg->options, "generic") &&
             !opt_bool(&cfg->options, "stateless");
    game_spec(g, s.spec, sizeof s.spec);
    s.threads = cfg->threads > 0 ? cfg->threads : omp_get_num_procs();
    res->threads = s.threads;
    DbSummary sum = {0};
    ErrCode rc = plan(&s);
    if (rc == ERR_OK && s.work_dir != NULL) {
        rc = check_rank_layout(s.work_dir, err); /* agreed with the next step's outcome */
    }
    if (rc == ERR_OK && s.sector >= 0) {
        rc = plan_sector(&s);
    }
    if (rc == ERR_OK && s.work_dir != NULL && dist_size() > 1) {
        /* N ranks: each its own directory in DIR (its own lock), which may
         * be on its own machine's disk; rank 0's manifest in DIR. */
        if (mkdir(s.work_dir, 0755) != 0 && errno != EEXIST) {
            rc = error_set(err, ERR_IO, "cannot create %s: %s", s.work_dir, strerror(errno));
        }
        s.top_dir = s.work_dir;
        snprintf(s.rank_dir, sizeof s.rank_dir, "%.4000s/rank-%d-of-%d", s.work_dir, dist_rank(),
                 dist_size());
        s.work_dir = s.rank_dir;
    }
    bool estimating = opt_bool(&cfg->options, "estimate");
    if (rc == ERR_OK && estimating && s.sector >= 0) {
        rc = error_set(err, ERR_USAGE, "tier:estimate and tier:sector do not go together");
    }
    s.sliced = opt_bool(&cfg->options, "sliced") && !estimating;
    s.fetch = opt_bool(&cfg->options, "rma") ? DIST_FETCH_RMA : DIST_FETCH_ALLTOALL;
    for (int t = 0; rc == ERR_OK && s.sliced && t < s.ntiers; t++) {
        if (s.t[t].loopy) {
            rc = error_set(err, ERR_UNSUPPORTED,
                           "tier:sliced: game '%s' has loopy tiers, which every rank solves "
                           "whole (docs/mpi.md); use --solver tier",
                           g->module->name);
        }
    }
    if (rc == ERR_OK && !estimating) {
        rc = choose_mode(&s, opt_bool(&cfg->options, "window") || s.sliced, &s.whole);
    }
    if (rc == ERR_OK && s.whole) {
        rc = solver_db_create(g, &res->db, err);
        res->has_db = rc == ERR_OK;
        if (rc == ERR_OK) {
            huge_pages(res->db.r8 != NULL ? (void *)res->db.r8 : (void *)res->db.r16,
                       res->db.size * res->db.width);
        }
    }
    if (rc == ERR_OK) {
        s.states = mem_calloc((size_t)s.threads, sizeof *s.states, "the GPS states", err);
        s.worker_peak = mem_calloc((size_t)s.threads, sizeof *s.worker_peak, "peaks", err);
        sum.by_remoteness =
            mem_calloc((size_t)(s.width == 1 ? DB_MAX_REMOTENESS_8 : DB_MAX_REMOTENESS_16) + 1,
                       sizeof *sum.by_remoteness, "the remoteness histogram", err);
        rc = s.states && s.worker_peak && sum.by_remoteness ? ERR_OK : ERR_MEMORY;
    }
    for (int i = 0; i < s.threads && rc == ERR_OK && s.fam != NULL; i++) {
        s.states[i] = s.fam->create(g, err);
        rc = s.states[i] != NULL ? ERR_OK : ERR_MEMORY;
    }
    if (rc == ERR_OK && estimating) {
        rc = estimate(&s, opt_bool(&cfg->options, "window"));
        for (int i = 1; i < s.threads && s.worker_peak != NULL; i++) {
            res->worker_peak_bytes += s.worker_peak[i];
        }
        goto done;
    }
    if (rc == ERR_OK) {
        s.bounds =
            mem_calloc(5 * ((size_t)dist_size() + 1), sizeof *s.bounds, "the tier ranges", err);
        s.rbounds = mem_calloc((size_t)s.ntiers * ((size_t)dist_size() + 1), sizeof *s.rbounds,
                               "the tier ranges", err);
        rc = s.bounds != NULL && s.rbounds != NULL ? ERR_OK : ERR_MEMORY;
    }
    rc = manifest_open(&s, rc);
    /* A rank refused (memory, files) ends every rank here, not in a wait. */
    rc = dist_agree(rc, err);
    if (rc == ERR_OK && s.dir.fd >= 0) {
        /* the writer compresses only between the solve's parallel loops
         * (walk_tier pauses it) and when the solve waits for it
         * (docs/database.md) */
        rc = dbwriter_start(&s.dir, s.threads, &s.writer, err);
    }
    if (rc == ERR_OK) {
        rc = reachability(&s);
    }
    if (rc == ERR_OK) {
        rc = backward(&s, &sum);
    }
    if (rc == ERR_OK && s.writer != NULL) {
        rc = dbwriter_wait(s.writer, err);
        s.writing_tier = -1;
        s.write_seconds = dbwriter_busy_seconds(s.writer);
        s.write_wait_seconds = dbwriter_wait_seconds(s.writer);
        for (int t = 0; t < s.ntiers; t++) {
            s.bytes_written += s.t[t].written ? (double)s.t[t].file_bytes : 0;
        }
    }
    if (rc == ERR_OK && s.sliced) {
        sliced_summary(&sum);
    }
    if (rc == ERR_OK && s.work_dir != NULL && dist_size() == 1) {
        if (s.sector < 0) {
            rc = finish_dir(&s, &sum);
        } else {
            /* tier:sector: the tier files are the saved database; the
             * manifest lists every tier on disk and calls it partial. */
            rc = store_manifest_partial(&s.dir, g, "tier", err);
            res->saved_db = rc == ERR_OK;
        }
    }
    if (rc == ERR_OK) {
        rc = manifest_close(&s, &sum);
        /* N ranks: the slices and the manifest are the saved database */
        if (dist_size() > 1) {
            res->saved_db = rc == ERR_OK && s.work_dir != NULL;
        }
    }
    if (s.manifest != NULL) {
        fclose(s.manifest);
    }
    free(s.slices);
    if (rc == ERR_OK) {
        res->has_winby = g->has_winby;
        res->has_checksum = true;
        res->checksum = 0;
        for (int t = 0; t < s.ntiers; t++) {
            res->checksum =
                dbfile_checksum(res->checksum, &s.t[t].checksum, sizeof s.t[t].checksum);
        }
        if (!s.whole) {
            res->summary = sum;
            res->has_summary = true;
            sum.by_remoteness = NULL;
        }
        solve_result_extra(res, "tiers", s.ntiers);
        solve_result_extra(res, "tiers_solved", (double)s.tiers_solved);
        solve_result_extra(res, "tiers_loaded", (double)s.tiers_loaded);
        solve_result_extra(res, "whole_database", s.whole);
        solve_result_extra(res, "family_gps", s.fam != NULL);
        solve_result_extra(res, "fast_path", s.fast);
        if (s.sector >= 0) {
            /* The sector itself; the totals also hold the tiers below it. */
            solve_result_extra(res, "sector", s.sector);
            solve_result_extra(res, "sector_positions", (double)s.t[s.sector].reached);
            solve_result_extra(res, "sector_wins", (double)s.sector_count[VALUE_WIN]);
            solve_result_extra(res, "sector_losses", (double)s.sector_count[VALUE_LOSE]);
            solve_result_extra(res, "sector_ties", (double)s.sector_count[VALUE_TIE]);
            solve_result_extra(res, "sector_draws", (double)s.sector_count[VALUE_DRAW]);
        }
        if (g->loopy) {
            solve_result_extra(res, "frontier_win_lose", (double)s.loopy_stats[0]);
            solve_result_extra(res, "frontier_tie", (double)s.loopy_stats[1]);
            solve_result_extra(res, "loopy_draws", (double)s.loopy_stats[2]);
            solve_result_extra(res, "loopy_events", (double)s.loopy_stats[3]);
        }
        if (s.work_dir != NULL) {
            solve_result_extra(res, "db_write_seconds", s.write_seconds);
            solve_result_extra(res, "db_write_wait_seconds", s.write_wait_seconds);
            solve_result_extra(res, "db_tier_bytes", s.bytes_written);
        }
        if (dist_compiled()) {
            DistStats d = dist_stats_total();
            solve_result_extra(res, "mpi_ranks", dist_size());
            solve_result_extra(res, "mpi_bytes_sent_max", (double)dist_max_u64(d.sent));
            solve_result_extra(res, "mpi_bytes_received_max", (double)dist_max_u64(d.received));
            solve_result_extra(res, "mpi_bytes_total", (double)dist_sum_u64(d.sent));
            solve_result_extra(res, "mpi_seconds_max", dist_max_double(d.mpi_seconds));
            solve_result_extra(res, "compute_seconds_max", dist_max_double(s.compute_seconds));
            solve_result_extra(res, "rank_peak_rss_max", (double)dist_max_u64(mem_rss_peak()));
        }
    }
    for (int i = 1; i < s.threads && s.worker_peak != NULL; i++) {
        res->worker_peak_bytes += s.worker_peak[i];
    }
done:
    dbwriter_stop(s.writer); /* before the buffers it may be reading go */
    s.writer = NULL;
    s.writing_tier = -1;
    for (int i = 0; i < s.threads && s.states != NULL; i++) {
        if (s.states[i] != NULL) {
            s.fam->destroy(s.states[i]);
        }
    }
    for (int t = 0; t < s.ntiers && s.t != NULL; t++) {
        tier_free(&s, t);
    }
    free(s.reach_block);
    free(s.bounds);
    free(s.rbounds);
    dbstore_dir_close(&s.dir);
    db_summary_free(&sum);
    free(s.states);
    free(s.worker_peak);
    free(s.t);
    free(s.order);
    return rc;
}

static const OptionSpec tier_options[] = {
    {.name = "window",
     .type = OPT_BOOL,
     .help = "keep only the tiers in use, even when the whole database would fit"},
    {.name = "stateless",
     .type = OPT_BOOL,
     .help = "call the stateless family even when the game has a GPS family"},
    {.name = "estimate",
     .type = OPT_BOOL,
     .help = "print what the solve would need (slots and reachable bound per tier, memory, disk, "
             "time from a short calibration) on stderr, without solving"},
    {.name = "generic",
     .type = OPT_BOOL,
     .help = "expand position by position through the GPS family even when the game has a "
             "tier fast path (TierOps.expand_run)"},
    {.name = "sliced",
     .type = OPT_BOOL,
     .help = "on N MPI ranks, each keeps only its slice of every tier and fetches the child "
             "records it needs from their owners (implies window)"},
    {.name = "rma",
     .type = OPT_BOOL,
     .help = "with sliced: fetch child records by MPI one-sided reads (MPI_Get) instead of "
             "MPI_Alltoallv"},
    {.name = "stored_edges",
     .type = OPT_BOOL,
     .help = "loopy tiers: store back edges even when the game has un-moves"},
    {.name = "wide_index",
     .type = OPT_BOOL,
     .help = "loopy tiers: 64-bit slot indices in every tier, not only in those of more than "
             "2^32 slots (for the tests of that code)"},
    {.name = "sector",
     .type = OPT_INT,
     .min = -1,
     .max = 1000000,
     .def = -1,
     .help = "solve this tier and the tiers below it over all their positions (canonical ones "
             "with sym), loading those already in --db: Gasser's sector by sector (-1: off)"},
    {.name = "chunk",
     .type = OPT_INT,
     .min = 64,
     .max = INT64_C(1) << 30,
     .def = TIER_CHUNK_DEFAULT,
     .help = "positions handed to a thread at a time (rounded down to a multiple of 64)"},
    {.name = "parallel_min",
     .type = OPT_INT,
     .min = 0,
     .max = INT64_MAX,
     .def = TIER_PARALLEL_MIN_DEFAULT,
     .help = "tiers with fewer reachable positions run on one thread"},
    {0},
};

const SolverModule tier_solver = {
    .name = "tier",
    .description = "Evan's stage solver: tiers last to first, each in parallel (OpenMP)",
    .needs = NEEDS_TIERS,
    .loopy_ok = true, /* loopy games that declare tiers: solvers/tier_loopy.c */
    .parallel = true,
    .distributed = true,
    .window_option = "window",
    .options = tier_options,
    .solve = tier_solve,
};
