/* solvers/tier/observer.h: the tier solver's public visit hook, so that an
 * instrumented variant of the tier solver is one file (solvers/tier_probe.c
 * is the model; docs/adding-a-solver.md walks through it).
 *
 * A variant calls tier_solve_observed with a TierObserver: the solve is
 * tier's own (same options, records, db_checksum, files, MPI ranks), and
 * the observer is shown what the solver expands:
 *   - start: once, before the first pass, with the thread count and the
 *     tier graph (solvers/tier/graph.h: sizes, child tiers, loopy tiers);
 *   - tier_begin / tier_end: around each pass over one tier;
 *   - position: every position a pass expands, with its tier, local index,
 *     expansion (primitive, or children in generate_moves order) and where
 *     each child lies (its tier, which of the tier's child tiers, its local
 *     index).
 * The passes (TierPass; TierObserver.passes picks them): the forward pass
 * (reach), tier:sliced's marking of the child records other ranks hold
 * (need), and the backward pass (solve). Both kinds of tier are observed:
 * the walk of a tier without in-tier moves (solvers/tier/walk.c) and a
 * loopy tier's reach pass and its solve pass's one expansion a position
 * (solvers/tier/loopy.c; the second expansion that fills stored back
 * edges, tier:stored_edges, is not shown). Each reachable position (with
 * tier:sector, each position the sector solves) is shown once a pass,
 * summed over MPI ranks: ranks walk disjoint ranges of a tier, and a loopy
 * tier, which every rank solves whole, is shown on rank 0 only. Not shown:
 * tiers loaded from --db (no expansion), the forward pass when --db holds
 * the reach file, and tier:estimate (the observer is not started).
 *
 * Threads: start, tier_begin and tier_end run on the calling thread,
 * outside the parallel loops. position runs on the worker threads at once,
 * on disjoint positions, each call on the thread given in
 * TierObserved.thread (0 .. threads-1, the OpenMP thread number): keep
 * per-thread state indexed by it (or use atomics), and sum it after
 * tier_solve_observed returns. An observer must not call the game through
 * the counted wrappers (games/game.h) if the counters are to stay tier's.
 *
 * Cost: without an observer (tier itself), tier_walk checks for one once a
 * pass over a tier and the loopy passes once a position; the hot loops
 * are otherwise tier's. With one, each shown position costs an indirect
 * call and a second location of its children (a range test per child
 * tier, or the game's tier_of/index_of when the hash is not tier-major),
 * which is not counted: a variant's counters (core/stats.h) are tier's.
 */
#ifndef SOLVERS_TIER_OBSERVER_H
#define SOLVERS_TIER_OBSERVER_H

#include <stdint.h>

#include "core/error.h"
#include "core/options.h"
#include "games/game.h"
#include "solvers/solver.h"
#include "solvers/tier/graph.h"

/* The pass that expands a position. */
typedef enum TierPass {
    TIER_PASS_REACH, /* forward: the children's bits are set */
    TIER_PASS_NEED,  /* tier:sliced on N > 1 ranks: the child records to fetch */
    TIER_PASS_SOLVE, /* backward: the position's record from its children's */
} TierPass;

/* Where one child of an observed position lies. */
typedef struct TierChildAt {
    int tier;       /* its tier */
    int slot;       /* k when tier is child tier k of the position's tier
                       (TierNode.children[k], TierOps.children's order); -1
                       when it is the position's own tier (a loopy tier) */
    uint64_t index; /* its local index in that tier */
} TierChildAt;

/* One expanded position, as the observer sees it (valid during the call). */
typedef struct TierObserved {
    TierPass pass;
    int thread; /* 0 .. threads-1: the worker thread making the call */
    int tier;
    uint64_t index; /* local index in the tier */
    Position position;
    bool loopy;               /* its tier is loopy (solvers/tier/loopy.c) */
    const TierExpansion *e;   /* e->primitive != VALUE_UNDECIDED: a primitive (e->n 0) */
    const TierChildAt *child; /* [e->n]: where e->child[k] lies */
} TierObserved;

/* What start is told. */
typedef struct TierObserverStart {
    int threads;            /* TierObserved.thread is below this */
    const TierGraph *graph; /* the tiers (valid until tier_solve_observed returns) */
} TierObserverStart;

typedef struct TierObserver {
    void *ctx; /* passed back to every call */
    /* OPTIONAL: the passes shown, bits 1u << TierPass (0: every pass); a
     * pass not shown costs nothing a position. */
    unsigned passes;
    /* OPTIONAL: once before the first pass; an error ends the solve. */
    ErrCode (*start)(void *ctx, const TierObserverStart *info, Error *err);
    /* OPTIONAL: before and after each pass over one tier that shows its
     * positions (reached: its reachable positions known so far). */
    void (*tier_begin)(void *ctx, TierPass pass, int tier, uint64_t reached);
    void (*tier_end)(void *ctx, TierPass pass, int tier);
    /* REQUIRED: every expanded position, from the worker threads. */
    void (*position)(void *ctx, const TierObserved *v);
} TierObserver;

/* The tier solver's solve (tier_solver.solve) with observer obs (NULL: tier
 * itself). Same arguments, result and errors as any SolverModule.solve. */
ErrCode tier_solve_observed(const Game *g, const SolveConfig *cfg, SolveResult *res, Error *err,
                            const TierObserver *obs);

/* The tier solver's options, for a variant's SolverModule.options: the
 * variant then takes every tier option (tier-probe:window...). */
extern const OptionSpec tier_solver_options[];

#endif /* SOLVERS_TIER_OBSERVER_H */
