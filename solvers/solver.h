/* solvers/solver.h: the solver interface, the registry and the harness.
 *
 * A solver (one file in solvers/) exports a const SolverModule: its name,
 * the interface families it needs, its options and a solve function. The
 * harness (solver_run) checks that the game offers what the solver needs,
 * then times the solve on the monotonic clock, resets and collects the
 * counters (core/stats.h) and the jemalloc peak (core/mem.h) around it.
 *
 * A solve fills a SolveResult: the outcome of the initial position (with
 * WinBy when the game has scores) and, unless the solver is root-only
 * (minimax), a Database holding every position it reached. Solvers own all
 * of their state; the only thread-local data are the counters.
 *
 * A solver that runs worker threads (OpenMP) must, in each worker other
 * than the calling thread (OpenMP's thread 0 is the caller), call
 * stats_thread_reset() and mem_thread_peak_reset() at the start, and at the
 * end add its counters into res->counters (stats_thread_collect, in a
 * critical section) and its mem_thread_peak() into res->worker_peak_bytes.
 * The harness adds the calling thread's own figures (resetting them in a
 * worker would lose the work the caller did before the parallel region).
 */
#ifndef SOLVERS_SOLVER_H
#define SOLVERS_SOLVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/db.h"
#include "core/error.h"
#include "core/options.h"
#include "core/stats.h"
#include "games/game.h"

/* What a solver needs from a game beyond the stateless family. */
enum {
    NEEDS_GPS = 1u << 0,        /* game->gps */
    NEEDS_GPS_CACHED = 1u << 1, /* game->gps_cached */
    NEEDS_PARENTS = 1u << 2,    /* game->ops->generate_parents */
    NEEDS_TIERS = 1u << 3,      /* game->tiers */
    NEEDS_ENCODING = 1u << 4,   /* game->encoding (symbolic solvers) */
};

typedef struct SolveConfig {
    OptionValues options; /* the solver's own options, parsed against its spec */
    int threads;          /* worker threads for parallel solvers; 0: all cores */
    bool progress;        /* report progress on standard error */
    const char *work_dir; /* where solvers that spill to disk keep files; NULL: none */
    /* OPTIONAL (default false): the caller needs only the root's outcome and
     * the counters (benchmarks). A partial_db solver whose database is only an
     * export of its own memo may then skip the export (has_db stays false), so
     * that its measured memory is the memo's. Other solvers ignore it. */
    bool skip_export;
    /* OPTIONAL (default false): the caller needs the whole database (a
     * query). A solver that would keep only part of it (tier, when the whole
     * database does not fit the budget) refuses before solving. */
    bool need_db;
    /* OPTIONAL (default NULL), for a reads_db solver (search): the position
     * to solve instead of the initial one (bin/solve --query P); its value
     * is then res->root. Other solvers never see it set. */
    const Position *root;
} SolveConfig;

/* Room for a solver's figures and a variant's (tier: up to 26 with
 * tier:sector, loopy tiers, --db and MPI; tier-probe adds 12). */
#define SOLVE_EXTRA_MAX 48

/* The extra figure in which a partial_db solver reports how many positions
 * it stored (whether or not it exported them). */
#define SOLVE_EXTRA_STORED "stored_positions"

typedef struct SolveExtra {
    char name[48];
    double value;
} SolveExtra;

typedef struct SolveResult {
    Outcome root; /* value and remoteness of the initial position */
    /* The solve (or the database read) computed no remoteness
     * (symbolic:remoteness=0): root.remoteness and every remoteness a query
     * finds are meaningless, and are neither printed nor used to pick. */
    bool no_remoteness;
    bool has_winby;
    WinBy root_winby; /* when has_winby */
    bool has_db;      /* db holds every reached position */
    Database db;
    /* OPTIONAL, for solvers that solve every reached position but cannot
     * keep the whole database (tier, when it does not fit in memory): the
     * totals of db_summarize, with by_remoteness filled (freed by
     * solve_result_free). Ignored when has_db. */
    bool has_summary;
    DbSummary summary;
    Counters counters;
    double wall_seconds;
    uint64_t peak_bytes;        /* jemalloc peak of the calling thread + worker peaks */
    uint64_t worker_peak_bytes; /* sum of the worker threads' peaks (filled by the solver) */
    uint64_t peak_rss_bytes;    /* process peak resident set during the solve */
    int threads;                /* threads the solve used */
    int nextra;
    SolveExtra extra[SOLVE_EXTRA_MAX]; /* solver-specific figures (sweeps, frontier sizes...) */
    /* OPTIONAL: a 64-bit checksum of every record the solve computed, the
     * same for every thread and rank count (tier: core/dbfile.h's checksum
     * of each tier's records then WinBy scores, chained in tier order). */
    bool has_checksum;
    uint64_t checksum;
    /* OPTIONAL (default false): the solver wrote its database to
     * cfg->work_dir itself, manifest included (tier; solvers/store.h). */
    bool saved_db;
    /* OPTIONAL (default false): the solver solved nothing (tier:estimate);
     * --db DIR is then only where it looked at the free disk, and nothing
     * is saved there. */
    bool estimate_only;
} SolveResult;

typedef struct SolverModule {
    const char *name;        /* REQUIRED: "gps-cached" */
    const char *description; /* REQUIRED: one line for --list */
    unsigned needs;          /* NEEDS_* bits */
    bool loopy_ok;           /* solves loopy games (depth-first solvers do not) */
    bool root_only;          /* solves only the initial position: no database */
    bool parallel;           /* uses --threads */
    /* OPTIONAL (default false): the database holds only some of the reached
     * positions (a limited memo, e.g. dfs-depth). Each value it holds must
     * still match dfs; the cross-check compares those and the root, --query
     * refuses it, and it is never a game's default solver. */
    bool partial_db;
    /* OPTIONAL (default false), for a root-only solver: it computes the
     * initial position's value only, no remoteness (SolveResult.no_remoteness)
     * and no WinBy score (games with scores are not supported). */
    bool values_only;
    /* OPTIONAL (default false), for a root-only solver: --db DIR (cfg->work_dir)
     * is its input, a database of solved tiers, complete or partial, whose
     * positions end its search (search). With one, it accepts a loopy game
     * too: the positions it searches above the database must not repeat, and
     * it refuses a position of a loopy tier the database does not hold. */
    bool reads_db;
    /* OPTIONAL (default false): it runs on several MPI ranks sharing the work
     * (bin/solve-mpi, core/dist.h), every rank calling solve with the same
     * arguments and rank 0 reporting (tier). bin/solve-mpi started on more
     * than one rank refuses every solver without it. */
    bool distributed;
    /* OPTIONAL (default NULL): the name of the solver's boolean option that,
     * when on, keeps only the part of the database in use in memory (tier's
     * "window": the tiers in use), so that the solve ends with no whole
     * database (has_db false). bin/solve then refuses, before solving, a
     * --query that has no --db DIR to read the database back from. */
    const char *window_option;
    /* OPTIONAL (default NULL): the solver this one is an instrumented
     * variant of (tier-probe: "tier"), computing the same records with the
     * same options and flags. It is never a game's default solver, and
     * bin/bench runs it only on the matrix lines that name it (solvers= or
     * extra=), beside its base, not on every game it supports. */
    const char *variant_of;
    /* OPTIONAL (default false): its memory is bounded by its own options
     * (search's memo), not by the game's hash space, so it runs a variant
     * that every other solver refuses for memory (Game.table_refusal). */
    bool bounded_memory;
    const OptionSpec *options; /* OPTIONAL: solver options, ending {0} */
    /* REQUIRED. Solves g; the harness has checked solver_supports(). */
    ErrCode (*solve)(const Game *g, const SolveConfig *cfg, SolveResult *res, Error *err);
} SolverModule;

/* Registry (solvers/registry.c), fastest first: the default solver for a
 * game is the first one that supports it. NULL-terminated. */
extern const SolverModule *const solver_registry[];
const SolverModule *solver_find(const char *name);

/* Parses "name" or "name:opt=val,..." into the module and cfg->options. */
ErrCode solver_lookup(const char *spec, const SolverModule **out, SolveConfig *cfg, Error *err);

/* True when s can solve g; otherwise why (if not NULL) says what is missing. */
bool solver_supports(const SolverModule *s, const Game *g, char *why, size_t n);

/* solver_supports, given the solve's configuration: a reads_db solver with
 * a database (cfg->work_dir) accepts a loopy game with tiers. */
bool solver_supports_cfg(const SolverModule *s, const Game *g, const SolveConfig *cfg, char *why,
                         size_t n);

/* ERR_MEMORY with the game's refusal when g has a table_refusal and s is
 * not bounded_memory; ERR_OK otherwise. solver_run checks it before
 * solving, bin/solve --check-args too. */
ErrCode solver_check_table(const SolverModule *s, const Game *g, Error *err);

/* The first registered solver that supports g (NULL if none), leaving
 * out root-only, partial_db and variant solvers. */
const SolverModule *solver_default(const Game *g);

/* Runs s on g with instrumentation. On success res is filled (free with
 * solve_result_free); on failure nothing needs freeing. */
ErrCode solver_run(const SolverModule *s, const Game *g, const SolveConfig *cfg, SolveResult *res,
                   Error *err);
void solve_result_free(SolveResult *res);

/* The worker bookkeeping of the contract at the top of this file, for one
 * OpenMP parallel region: solver_worker_begin at its start resets the
 * counters and jemalloc peak of every thread but the caller (thread 0);
 * solver_worker_end at its end adds them into res->counters and raises
 * worker_peak[thread] to the thread's peak (the solver sums worker_peak
 * into res->worker_peak_bytes once, after all its regions). */
void solver_worker_begin(void);
void solver_worker_end(SolveResult *res, uint64_t *worker_peak);

/* Records a solver-specific figure for reports (ignored past SOLVE_EXTRA_MAX). */
void solve_result_extra(SolveResult *res, const char *name, double value);

/* The database a full solve of g needs: width from g->max_depth, WinBy
 * array when the game has scores; checks the memory budget first. */
ErrCode solver_db_create(const Game *g, Database *db, Error *err);

/* Stack per ply of a depth-first visit that keeps a move buffer on the
 * stack (dfs, gps, minimax): the buffer and a few locals. */
#define SOLVER_FRAME_BYTES (GAME_MAX_MOVES * sizeof(Move) + 256)

/* Runs fn(arg), a recursion at most g->max_depth plies deep using about
 * frame_bytes of stack per ply, on a thread whose stack is large enough
 * (the default 8 MiB would overflow on deep games). The thread's counters
 * and jemalloc peak are added to res. The stack the recursion touches is
 * counted with the database already in res against the memory budget
 * (ERR_MEMORY when they do not fit), and reserved (mem_reserve) while fn
 * runs, so allocations checked inside fn count it too. */
ErrCode solver_run_deep(const Game *g, size_t frame_bytes, void (*fn)(void *arg), void *arg,
                        SolveResult *res, Error *err);

/* Stores a solved position's outcome (and its WinBy score when the game has
 * scores). Refuses a remoteness the record cannot hold and a score outside
 * int16 with ERR_LIMIT. */
ErrCode solver_store(const Game *g, Database *db, Position pos, Outcome out, WinBy winby,
                     Error *err);

/* Messages for a game module that breaks its promises, shared by solvers:
 * a recursion deeper than g->max_depth (ERR_LIMIT), and a non-primitive
 * position without moves (ERR_INTERNAL). */
ErrCode solver_depth_error(const Game *g, Error *err);
ErrCode solver_no_moves_error(const Game *g, Position pos, Error *err);

#endif /* SOLVERS_SOLVER_H */
