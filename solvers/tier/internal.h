/* solvers/tier/internal.h: the tier solver's private state and the calls
 * between its units (solvers/tier/: one role a file; the algorithm, modes
 * and bounds are at the top of solve.c).
 *
 * TierSolve holds what every mode uses (the game, the tier graph, one
 * TierInfo a tier, the threads, progress); each mode's own state is a
 * struct of its own, NULL when the mode is off: files (--db), dist (N > 1
 * MPI ranks), sliced (tier:sliced on N > 1 ranks), sector (tier:sector),
 * blocks (tier:blocks).
 * The per-tier loop (solve.c) calls the phases of every unit in a fixed
 * order; a phase whose mode is off returns at once.
 */
#ifndef SOLVERS_TIER_INTERNAL_H
#define SOLVERS_TIER_INTERNAL_H

#include <omp.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/db.h"
#include "core/dbranks.h"
#include "core/dbstore.h"
#include "core/dbwriter.h"
#include "core/dist.h"
#include "solvers/solver.h"
#include "solvers/tier/graph.h"
#include "solvers/tier/observer.h"

/* Tuning knobs (solver options: the scheduling, which a machine of other
 * core counts may want tuned; the tests force tiny chunks with them):
 *   chunk         positions handed to a thread at a time (a multiple of 64,
 *                 default 16384): large enough that scheduling costs
 *                 nothing, small enough that the threads finish a tier
 *                 together;
 *   parallel_min  a tier with fewer reachable positions is done by one
 *                 thread (default 65536): starting a team costs more than
 *                 the work (all of tic-tac-toe's tiers). */
#define TIER_CHUNK_DEFAULT 16384
#define TIER_PARALLEL_MIN_DEFAULT 65536

/* A tier while it is solved (its shape is in TierGraph.node). */
typedef struct TierInfo {
    uint64_t *reach;   /* bitmap of reachable positions, (size + 63) / 64 words */
    uint64_t reach_w0; /* reach holds words reach_w0 on: 0, or a slice (tier:blocks) */
    uint64_t reached;
    uint64_t lo, hi;   /* this rank's range of bitmap words (0, nwords with one rank) */
    uint64_t checksum; /* of the records (then WinBy scores), once solved */
    Database vals;     /* the tier's records [slo, shi): record i at vals index i - slo */
    uint64_t slo, shi; /* the records this rank holds: all of them, or its slice (sliced) */
    int parents_left;  /* parents not yet solved: the records are needed until 0 */
    bool resident;
    bool owned;                    /* vals allocated here (not a slice of res->db) */
    bool held;                     /* tier:sector: its file is in --db (loaded, not solved) */
    uint64_t file_sum, file_bytes; /* its file in the database directory */
    bool written;                  /* this run wrote the file (not loaded) */
} TierInfo;

/* --db DIR: the directory and its background writer (files.c). The files
 * are written in the background (core/dbwriter.h): each tier is
 * compressed between the parallel loops that follow it and written
 * meanwhile; writing_tier is the tier whose compression may still be
 * unfinished (-1: none), which tier_records_free waits for. */
typedef struct TierFiles {
    const char *work_dir; /* this process's directory: DIR, or DIR/rank-R-of-N */
    DbDir dir;            /* work_dir, open and locked */
    DbWriter *writer;
    int writing_tier;
    /* the CPU seconds spent compressing and writing (every thread), the
     * solve's wall time inside the writer's submit and wait, the bytes */
    double write_seconds, write_wait_seconds, bytes_written;
    /* N > 1 ranks: DIR itself, this rank's DIR/rank-R-of-N, rank 0's
     * N-rank manifest (core/dbranks.h), and every tier's slices as the
     * ranks share them: each rank's first record (N + 1), its file's
     * checksums and bytes (3 N) and their byte bounds (N + 1) */
    const char *top_dir;
    char rank_dir[4096];
    DbRanks *ranks;
    uint64_t *first, *sums, *sum_bounds;
} TierFiles;

/* N > 1 MPI ranks (dist.c): each tier's split among the ranks. */
typedef struct TierDist {
    uint64_t *cut;   /* every tier's last split: ntiers * (N + 1) word bounds */
    uint64_t *bytes; /* share: the ranks' byte bounds, N + 1 */
    double compute_reported;
} TierDist;

/* tier:sliced on N > 1 ranks (dist.c): each rank keeps only its range of
 * every tier; per tier, while a parent is solved, the child records the
 * parent's range needs from other ranks (a bitmap over the tier, set bits
 * before each word, and the fetched records in bit order). */
typedef struct TierSliceNeed {
    uint64_t *need, *need_rank;
    Database got;
} TierSliceNeed;

typedef struct TierSliced {
    DistFetchMode fetch; /* how child records are looked up (tier:rma) */
    bool presplit;       /* every tier split, the other ranks' bitmap words dropped */
    TierSliceNeed *tier; /* [ntiers] */
} TierSliced;

/* tier:sector=T (sector.c). */
typedef struct TierSector {
    int tier;                    /* the tier solved whole */
    uint64_t count[VALUE_COUNT]; /* its own positions by value */
} TierSector;

/* tier:blocks (blocks.c): its state is private to blocks.c. */
typedef struct TierBlocks TierBlocks;

typedef struct TierSolve {
    const Game *g;
    const GpsOps *fam; /* NULL: stateless family */
    SolveResult *res;
    Error *err;
    TierGraph gr;
    TierInfo *t;           /* [gr.ntiers] */
    uint64_t *reach_block; /* the bitmaps of all tiers, one block (one file part) */
    bool whole;            /* res->db holds the whole database */
    unsigned width;
    bool winby;
    int threads;
    uint64_t chunk_words; /* bitmap words per work unit */
    /* tier_walk_span hands the chunks out guided (the first ones large,
     * halving toward the end), not one at a time: each thread walks long
     * runs of consecutive positions, so that its cache of child file
     * blocks (tier:blocks' backward pass) keeps the blocks its streams
     * use next, instead of the other thread's chunk reading them again */
    bool guided;
    uint64_t parallel_min;
    GpsState **states; /* one per thread */
    bool fast;         /* expand through TierOps.expand_run */
    uint64_t *worker_peak;
    bool need_db; /* SolveConfig.need_db: refuse the window mode */
    char spec[DBSTORE_SPEC_MAX];
    volatile int failed; /* errors raised inside parallel regions */
    /* progress */
    bool progress;
    bool tty;
    double t0, last_report;
    uint64_t total_reached, done_before; /* for the time-left estimate */
    uint64_t tiers_solved, tiers_loaded;
    /* loopy tiers */
    bool stored_edges;        /* back edges even with generate_parents */
    uint64_t known_positions; /* tier:estimate,positions=N (0: guessed) */
    uint64_t loopy_stats[4];  /* frontier (win/lose, tie), draws, events */
    double compute_seconds;   /* inside the walks */
    /* the observer of a variant (observer.h), NULL for tier itself; while a
     * walk shows its positions, the visit it wraps and the pass (walk.c) */
    const TierObserver *observer;
    void (*observed_visit)(struct TierSolve *s, int tier, uint64_t i, Position p,
                           const TierExpansion *e);
    TierPass observed_pass;
    /* the modes, NULL when off */
    TierFiles *files;
    TierDist *dist;
    TierSliced *sliced;
    TierSector *sector;
    TierBlocks *blocks;
} TierSolve;

/* Whether observer o (NULL: none) shows pass `pass`. */
static inline bool tier_observer_shows(const TierObserver *o, TierPass pass) {
    return o != NULL && (o->passes == 0 || (o->passes >> pass & 1u) != 0);
}

/* Shows position i (p, of tier `tier`, expanded into e, its children at
 * `at`) to observer o, from the calling worker thread. */
static inline void tier_observer_show(const TierObserver *o, TierPass pass, int tier, uint64_t i,
                                      Position p, bool loopy, const TierExpansion *e,
                                      const TierChildAt *at) {
    TierObserved v = {
        .pass = pass,
        .thread = omp_get_thread_num(),
        .tier = tier,
        .index = i,
        .position = p,
        .loopy = loopy,
        .e = e,
        .child = at,
    };
    o->position(o->ctx, &v);
}

/* The observer's second location of a position's children (walk.c,
 * loopy.c) is not the solve's work: tier_counters_restore takes back the
 * counted game calls it made (tier_of, index_of), so that a variant's
 * counters are tier's. */
static inline void tier_counters_save(Counters *c) {
#if STATS
    *c = stats_tls;
#else
    (void)c;
#endif
}
static inline void tier_counters_restore(const Counters *c) {
#if STATS
    stats_tls = *c;
#else
    (void)c;
#endif
}

/* ------------------------------------------------------------ walk.c */

/* The work on one reachable position p, of local index i in tier `tier`,
 * expanded into e. Runs on any thread of the walk: it may write only what
 * belongs to p (its own record, atomic ORs into bitmaps), and reports
 * errors with tier_fail. */
typedef void (*TierVisit)(TierSolve *s, int tier, uint64_t i, Position p, const TierExpansion *e);

void tier_fail(TierSolve *s, ErrCode code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
bool tier_failed(const TierSolve *s);
static inline Position tier_position(const TierSolve *s, int tier, uint64_t i) {
    return tier_graph_position(&s->gr, tier, i);
}
void tier_progress(TierSolve *s, const char *phase, int tier, uint64_t done, uint64_t total,
                   bool final);
/* Expands every reachable position of the tier in this rank's range and
 * hands it to visit; a team of threads when it has parallel_min reachable
 * positions or more (UINT64_MAX: one thread). */
void tier_walk(TierSolve *s, int tier, const char *phase, TierVisit visit, uint64_t parallel_min);
/* The walk itself, over the reachable positions of local indices [a, z)
 * (tier_walk: the whole range; tier:blocks: one part), a team of threads
 * when `team`, progress counted from done_base; no observer. Returns the
 * positions visited. */
uint64_t tier_walk_span(TierSolve *s, int tier, const char *phase, TierVisit visit, bool team,
                        uint64_t a, uint64_t z, uint64_t done_base);
/* tier_walk's observer for a walk in spans (tier:blocks' forward pass):
 * tier_walk_observe returns the visit to walk tier `tier` with (visit, or
 * its wrapper that shows each position to the observer, after tier_begin
 * with `reached`); tier_walk_unobserve, given what it returned, ends the
 * observed pass (tier_end). */
TierVisit tier_walk_observe(TierSolve *s, int tier, TierVisit visit, uint64_t reached);
void tier_walk_unobserve(TierSolve *s, int tier, TierVisit used);
/* The visits of the forward pass, the backward pass and the sliced mark. */
void tier_mark_children(TierSolve *s, int tier, uint64_t i, Position p, const TierExpansion *e);
void tier_solve_position(TierSolve *s, int tier, uint64_t i, Position p, const TierExpansion *e);
void tier_mark_needed(TierSolve *s, int tier, uint64_t i, Position p, const TierExpansion *e);
/* A loopy tier's reach (solve false) or solve pass (loopy.c); a failure is
 * recorded as in the walks. parallel_min as for tier_walk; stop_at: the
 * reach pass may stop after a round past that clock_seconds() (0: never);
 * *stopped, *expanded (when not NULL): what it did. */
void tier_loopy_pass(TierSolve *s, int t, bool solve, uint64_t parallel_min, double stop_at,
                     bool *stopped, uint64_t *expanded);

/* ------------------------------------------------------------ files.c */

/* The writer, or NULL without --db. */
static inline DbWriter *tier_writer(const TierSolve *s) {
    return s->files != NULL ? s->files->writer : NULL;
}
/* The mode's life: started with DIR (refusing another rank count's
 * layout), DIR/rank-R-of-N with N > 1 ranks, opened and locked (choose_mode),
 * the writer started, drained at the end, stopped, closed. */
ErrCode tier_files_start(TierSolve *s, const char *dir);
ErrCode tier_files_ranks(TierSolve *s);
ErrCode tier_files_open(TierSolve *s);
/* ERR_IO with the figures when `need` bytes (of `what`) are more than the
 * free space of DIR's disk (or GAMESMAN_TIER_FREE_DISK, for tests). */
ErrCode tier_files_fit(TierSolve *s, uint64_t need, const char *what);
ErrCode tier_files_writer(TierSolve *s);
ErrCode tier_files_drain(TierSolve *s);
const char *tier_record_fault(const TierSolve *s, const Database *v, uint64_t j, bool reached);
ErrCode tier_record_refuse(TierSolve *s, const char *name, uint64_t i, const char *why);
void tier_files_stop(TierSolve *s);
void tier_files_close(TierSolve *s);
/* Before tier t's records are freed: the writer may still compress them. */
void tier_files_release(TierSolve *s, int t);
/* The writer's figures (db_write_*) into the result. */
void tier_files_report(const TierSolve *s);
/* Whether the directory has tier t's file (stat; false without --db). */
bool tier_files_has(const TierSolve *s, int t);
/* The bitmaps from reach.gmdb or the tier files of a complete database;
 * *found false when neither. */
ErrCode tier_files_load_reach(TierSolve *s, bool *found);
ErrCode tier_files_save_reach(TierSolve *s);
/* Phase load: this rank's records of tier t from its file (checked), if
 * there; *found. Phase submit: the solved records to the writer. */
ErrCode tier_files_load(TierSolve *s, int t, bool *found);
ErrCode tier_files_submit(TierSolve *s, int t);
/* At the end: the writer's figures, the manifest (complete, partial or N
 * ranks). */
ErrCode tier_files_finish(TierSolve *s, const DbSummary *sum);
/* N > 1 ranks: rank 0's N-rank manifest, opened before the first tier and
 * given every tier's slices after it is solved. */
ErrCode tier_files_ranks_open(TierSolve *s);
ErrCode tier_files_ranks_tier(TierSolve *s, int t);

/* ------------------------------------------------------------- dist.c */

ErrCode tier_dist_start(TierSolve *s, bool sliced, DistFetchMode fetch);
void tier_dist_stop(TierSolve *s);
void tier_dist_split(TierSolve *s, int tier);
uint64_t tier_dist_record(const TierSolve *s, int tier, int r);
void tier_dist_trim(TierSolve *s);
ErrCode tier_dist_fetch(TierSolve *s, int tier, bool found, ErrCode rc);
void tier_dist_collect(TierSolve *s, int tier);
void tier_dist_step_report(TierSolve *s, const char *phase, int tier);
void tier_dist_summary(TierSolve *s, DbSummary *sum);
uint64_t tier_range_checksum(const TierInfo *ti, uint64_t a, uint64_t b);
void *tier_records_at(const TierInfo *ti, uint64_t i);
int16_t *tier_winby_at(const TierInfo *ti, uint64_t i);
/* sliced: where record ci of child tier ct is (walk.c's hot path) */
static inline bool tier_child_record(const TierSolve *s, int ct, uint64_t ci, const Database **db,
                                     uint64_t *at) {
    const TierInfo *c = &s->t[ct];
    if (ci - c->slo < c->shi - c->slo) {
        *db = &c->vals;
        *at = ci - c->slo;
        return true;
    }
    const TierSliceNeed *n = s->sliced != NULL ? &s->sliced->tier[ct] : NULL;
    uint64_t w = ci / 64, bit = UINT64_C(1) << (ci % 64);
    if (n == NULL || n->need == NULL || (n->need[w] & bit) == 0) {
        return false;
    }
    *db = &n->got;
    *at = n->need_rank[w] + (uint64_t)__builtin_popcountll(n->need[w] & (bit - 1));
    return true;
}

/* ----------------------------------------------------------- sector.c */

ErrCode tier_sector_plan(TierSolve *s, int sector);
ErrCode tier_sector_reach(TierSolve *s);
void tier_sector_count(TierSolve *s, int t);
void tier_sector_report(const TierSolve *s);

/* ----------------------------------------------------------- blocks.c */

/* tier:blocks: the parts of every tier planned and the mode's
 * combinations checked (on: the option; part: records a part at most;
 * estimating: tier:estimate, which needs no --db); off: nothing. */
ErrCode tier_blocks_plan(TierSolve *s, bool on, uint64_t part, uint64_t cache, bool guided,
                         bool estimating);
/* The memory model against the budget (choose_mode): ERR_MEMORY with the
 * estimate when it does not fit. */
ErrCode tier_blocks_fits(TierSolve *s);
/* The projected size of a part file's records on disk, bytes a reachable
 * position: about twice the rate measured on Connect Four 5x5 and 6x5
 * (0.45 and 0.46 bytes a position, header and index included,
 * docs/connect-four.md); a projection, not a bound (zstd's worst case is
 * above the raw size): a disk that fills anyway stops the run with its
 * files kept, and a rerun resumes. */
#define TIER_BLOCKS_DISK_RATE 1
/* Bytes the directory still needs: before the forward pass (projected
 * false), the bitmaps not on disk (raw, an upper bound) and, for the part
 * files not there, their header, largest dictionary and block index;
 * after it (projected), in the backward pass's order, those fixed bytes
 * plus the records at TIER_BLOCKS_DISK_RATE bytes a reachable position of
 * their tiers, less each solved tier's bitmap file as it is removed: the
 * largest running sum. */
uint64_t tier_blocks_disk_left(const TierSolve *s, bool projected);
/* After the forward pass, before any record is written: the projection
 * against the free space (tier_files_fit), refused with its figures; the
 * bitmaps stay, so a rerun with more space resumes after them. */
ErrCode tier_blocks_disk_check(TierSolve *s);
/* The forward pass with the bitmaps on disk (blocks_reach.c): a tier
 * walked by slices, its children's bitmaps whole in memory (replaces
 * solve.c's reachability). */
ErrCode tier_blocks_reach(TierSolve *s);
/* The backward pass, part by part (replaces solve.c's per-tier phases). */
ErrCode tier_blocks_backward(TierSolve *s, DbSummary *sum);
/* The manifest listing every part (files.c's tier_files_finish). */
ErrCode tier_blocks_finish_dir(TierSolve *s, const DbSummary *sum);
/* The result's figures, the end. */
/* The memory line and the disk line (bitmaps, part headers and indexes,
 * the records projected for `reachable` positions); returns that disk
 * total, or 0 for a game the mode cannot solve. */
uint64_t tier_blocks_estimate(const TierSolve *s, uint64_t budget, double reachable);
void tier_blocks_report(const TierSolve *s);
void tier_blocks_free(TierSolve *s);

/* --------------------------------------------------------- estimate.c */

ErrCode tier_estimate(TierSolve *s, bool window_only);

#endif /* SOLVERS_TIER_INTERNAL_H */
