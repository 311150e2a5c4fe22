/* solvers/tier_probe.c: tier-probe, the tier solver with a probe: how the
 * backward pass looks its children up. The model of an instrumented
 * variant of the tier solver (docs/adding-a-solver.md): one file over the
 * public hook solvers/tier/observer.h.
 *
 * The solve is tier's (tier_solve_observed): the same options, records,
 * db_checksum, counters, files (--db; the manifest names the solver
 * "tier", whose layout it is) and MPI ranks. An observer counts, over the
 * positions the backward pass expands (TIER_PASS_SOLVE: every reachable
 * position once, in the walks and in the loopy tiers' first scan, summed
 * over MPI ranks; not those of tiers loaded from --db), and adds to the
 * solver's figures (bin/solve --json: solver_stats):
 *   probe_positions      positions expanded by the backward pass
 *   probe_primitive      of them, primitive
 *   probe_children_1     non-primitive positions with 1 child,
 *   probe_children_2_3   2 or 3, 4 to 7, 8 to 15, 16 or more: the
 *   probe_children_4_7   branching factor's histogram in powers of two
 *   probe_children_8_15  (a child reached by two moves counts twice, as
 *   probe_children_16_up the moves are counted)
 *   probe_children_max   the most children of one position
 *   probe_lookups_same_tier    child records looked up in the position's
 *                              own tier (moves inside a loopy tier),
 *   probe_lookups_child_0      in the first of its child tiers (TierOps
 *   probe_lookups_child_1      children's order), in the second, in a
 *   probe_lookups_child_2_up   later one: how far a tier's solve reaches
 * The look-ups add up to the backward pass's edges; which child tiers they
 * hit is what decides the records a tier needs resident (tier:window) or
 * fetched from other ranks (tier:sliced).
 *
 * Threads: the observer is called from the worker threads, so each thread
 * counts into its own cache-line-aligned block (TierObserved.thread),
 * summed at the end and then over the MPI ranks (one dist_sum_words).
 * Cost over tier: an indirect call and a second location of the children
 * per position of the backward pass (the only pass it asks to be shown).
 * Memory: 128 bytes a thread.
 */
#include <stdlib.h>
#include <string.h>

#include "core/dist.h"
#include "solvers/tier/observer.h"

enum {
    PROBE_POSITIONS,
    PROBE_PRIMITIVE,
    PROBE_CHILDREN,                     /* 5 bins: 1, 2-3, 4-7, 8-15, 16 and up */
    PROBE_LOOKUPS = PROBE_CHILDREN + 5, /* 4: same tier, child 0, child 1, child 2 and up */
    PROBE_MAX = PROBE_LOOKUPS + 4,      /* the most children (a maximum, not a sum) */
    PROBE_FIGURES,
};

static const char *const probe_names[PROBE_FIGURES] = {
    "probe_positions",       "probe_primitive",          "probe_children_1",
    "probe_children_2_3",    "probe_children_4_7",       "probe_children_8_15",
    "probe_children_16_up",  "probe_lookups_same_tier",  "probe_lookups_child_0",
    "probe_lookups_child_1", "probe_lookups_child_2_up", "probe_children_max",
};

/* One thread's counts, a cache line pair of its own. */
typedef struct ProbeCounts {
    _Alignas(64) uint64_t n[PROBE_FIGURES];
} ProbeCounts;

typedef struct Probe {
    int threads;
    ProbeCounts *per_thread; /* [threads] */
} Probe;

static ErrCode probe_start(void *ctx, const TierObserverStart *info, Error *err) {
    Probe *pr = ctx;
    size_t bytes = (size_t)info->threads * sizeof *pr->per_thread;
    pr->per_thread = aligned_alloc(_Alignof(ProbeCounts), bytes);
    if (pr->per_thread == NULL) {
        return error_set(err, ERR_MEMORY, "tier-probe: no memory for %d threads' counts",
                         info->threads);
    }
    memset(pr->per_thread, 0, bytes);
    pr->threads = info->threads;
    return ERR_OK;
}

/* The histogram bin of a non-primitive position with n >= 1 children. */
static int children_bin(int n) {
    int b = 0;
    while (b < 4 && n >= 2 << b) {
        b++;
    }
    return b;
}

static void probe_position(void *ctx, const TierObserved *v) {
    Probe *pr = ctx; /* v->pass is TIER_PASS_SOLVE: the only pass asked for */
    uint64_t *c = pr->per_thread[v->thread].n;
    c[PROBE_POSITIONS]++;
    const TierExpansion *e = v->e;
    if (e->primitive != VALUE_UNDECIDED) {
        c[PROBE_PRIMITIVE]++;
        return;
    }
    c[PROBE_CHILDREN + children_bin(e->n)]++;
    if ((uint64_t)e->n > c[PROBE_MAX]) {
        c[PROBE_MAX] = (uint64_t)e->n;
    }
    for (int k = 0; k < e->n; k++) {
        int slot = v->child[k].slot; /* -1: the position's own tier */
        c[PROBE_LOOKUPS + (slot < 2 ? slot + 1 : 3)]++;
    }
}

/* The threads' counts summed (the maximum maxed), then over the ranks. */
static void probe_report(const Probe *pr, SolveResult *res) {
    uint64_t total[PROBE_FIGURES] = {0};
    for (int t = 0; t < pr->threads; t++) {
        const uint64_t *c = pr->per_thread[t].n;
        for (int k = 0; k < PROBE_MAX; k++) {
            total[k] += c[k];
        }
        total[PROBE_MAX] = c[PROBE_MAX] > total[PROBE_MAX] ? c[PROBE_MAX] : total[PROBE_MAX];
    }
    uint64_t max = dist_max_u64(total[PROBE_MAX]);
    dist_sum_words(total, PROBE_MAX);
    total[PROBE_MAX] = max;
    for (int k = 0; k < PROBE_FIGURES; k++) {
        solve_result_extra(res, probe_names[k], (double)total[k]);
    }
}

static ErrCode probe_solve(const Game *g, const SolveConfig *cfg, SolveResult *res, Error *err) {
    Probe pr = {0};
    TierObserver obs = {.ctx = &pr,
                        .passes = 1u << TIER_PASS_SOLVE,
                        .start = probe_start,
                        .position = probe_position};
    ErrCode rc = tier_solve_observed(g, cfg, res, err, &obs);
    /* Every rank ends with the same code (the solve agrees on it), so all
     * or none of them take part in the sums. tier:estimate solves nothing. */
    if (rc == ERR_OK && pr.per_thread != NULL) {
        probe_report(&pr, res);
    }
    free(pr.per_thread);
    return rc;
}

const SolverModule tier_probe_solver = {
    .name = "tier-probe",
    .description = "tier with a probe: children per position and the child tiers its look-ups "
                   "hit, in the figures (probe_*)",
    .needs = NEEDS_TIERS,
    .loopy_ok = true,
    .parallel = true,
    .distributed = true,
    .window_option = "window",
    .variant_of = "tier",
    .options = tier_solver_options,
    .solve = probe_solve,
};
