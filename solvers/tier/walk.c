/* solvers/tier/walk.c: the tier walk and the visits of the tier solver.
 *
 * tier_walk expands every reachable position of a tier in this rank's
 * range of bitmap words, through the game's tier fast path
 * (TierOps.expand_run, which walks a chunk in index order itself) or
 * position by position (solvers/expand.h, the generic path), and hands
 * each to a visit: tier_mark_children (forward pass: the children's bits),
 * tier_solve_position (backward pass: the record from the children's),
 * tier_mark_needed (tier:sliced: the child records other ranks hold).
 * Threads share a tier in chunks (dynamic schedule); every visit writes
 * only what belongs to its position, so the records are the same byte for
 * byte for every thread count. O(size / 64) bitmap words plus the visited
 * positions' expansions and child look-ups. With an observer (a variant of
 * the solver, observer.h), tier_walk wraps the visit for the pass so that
 * each position is shown to it too; without one nothing a position changes.
 */
#include <inttypes.h>
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>

#include "core/clock.h"
#include "solvers/expand.h"
#include "solvers/tier/internal.h"

/* Records an error from inside a parallel region (the first one wins). */
void tier_fail(TierSolve *s, ErrCode code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    error_once_vset(s->err, &s->failed, code, fmt, ap);
    va_end(ap);
}

bool tier_failed(const TierSolve *s) { return error_once_failed(&s->failed); }

/* Finds the child tier and local index of child position c of a position
 * in tier `tier`, and returns which of the tier's child tiers it is (k of
 * TierNode.children), or -1 when c is in none. Tier-major: a range test over
 * the child tiers (no game call); otherwise tier_of and index_of (counted
 * hash/unhash). */
static inline __attribute__((always_inline)) int locate(const TierSolve *s, int tier, Position c,
                                                        int *ct, uint64_t *ci) {
    const TierNode *ti = &s->gr.node[tier];
    if (s->gr.tier_major) {
        for (int k = 0; k < ti->nchildren; k++) {
            const TierNode *child = &s->gr.node[ti->children[k]];
            if (c - child->first < child->size) {
                *ct = ti->children[k];
                *ci = c - child->first;
                return k;
            }
        }
        return -1;
    }
    int t = s->g->tiers->tier_of(s->g, c);
    for (int k = 0; k < ti->nchildren; k++) {
        if (ti->children[k] == t) {
            *ct = t;
            *ci = s->g->tiers->index_of(s->g, c);
            return *ci < s->gr.node[t].size ? k : -1;
        }
    }
    return -1;
}

/* locate() for child c of position p in tier `tier`; a child outside the
 * child tiers (a game whose TierOps break their contract) fails the solve. */
static inline __attribute__((always_inline)) bool locate_child(TierSolve *s, int tier, Position p,
                                                               Position c, int *ct, uint64_t *ci) {
    if (locate(s, tier, c, ct, ci) >= 0) {
        return true;
    }
    tier_fail(s, ERR_INTERNAL,
              "game '%s': a move from position %" PRIu64 " (tier %d) reaches position %" PRIu64
              ", which is in none of the tier's child tiers",
              s->g->module->name, p, tier, c);
    return false;
}

/* ------------------------------------------------------------ progress */

void tier_progress(TierSolve *s, const char *phase, int tier, uint64_t done, uint64_t total,
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
    char label[GAME_TIER_LABEL_MAX];
    fprintf(stderr,
            "%stier: %s tier %s: %" PRIu64 "/%" PRIu64 " positions, %.2f M/s, %.0f s elapsed",
            s->tty ? "\r" : "", phase, game_tier_label(s->g, tier, label, sizeof label), done,
            total, rate / 1e6, elapsed);
    if (s->total_reached != 0) { /* known once the forward pass is over */
        fprintf(stderr, ", about %.0f s left", left);
    }
    fprintf(stderr, s->tty ? "   " : "\n");
    if (s->tty && final) {
        fprintf(stderr, "\n");
    }
}

/* --------------------------------------------------------- tier walk */

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

/* ------------------------------------------------------------ observer */

/* The visit of a walk with an observer (tier_walk puts it in place of the
 * walk's own, so that tier itself pays nothing a position): the walk's
 * visit, then the observer, with the children located again (uncounted).
 * A child in none of the child tiers has failed the solve in the visit: not
 * shown. */
static void observed_visit(TierSolve *s, int tier, uint64_t i, Position p, const TierExpansion *e) {
    s->observed_visit(s, tier, i, p, e);
    TierChildAt at[GAME_MAX_MOVES];
    Counters counted;
    tier_counters_save(&counted);
    int k = 0;
    while (k < e->n &&
           (at[k].slot = locate(s, tier, e->child[k], &at[k].tier, &at[k].index)) >= 0) {
        k++;
    }
    tier_counters_restore(&counted);
    if (k < e->n) {
        return;
    }
    tier_observer_show(s->observer, s->observed_pass, tier, i, p, false, e, at);
}

/* Threads take chunks of chunk_words * 64 positions, aligned in the tier
 * (so a chunk starts mid-chunk only at `a`), a dynamic schedule one chunk
 * at a time (s->guided: OpenMP's guided schedule, runs of chunks that
 * start at half of those left and shrink to one), each with
 * its own GPS state; once a position has failed, the chunks not yet
 * started are skipped. Thread 0 reports progress for `phase` between
 * chunks, counting from done_base. A team takes every core: the writer's
 * compressors wait meanwhile (core/dbwriter.h); beside one thread they may
 * go on.
 *
 * `visit` stays an indirect call (gcc outlines the OpenMP region before it
 * inlines), one per position beside a whole expansion: on connect4:w=5,h=4
 * and w=4,h=5 (`build/timing/bin/solve connect4:w=5,h=4 --solver tier
 * --threads 2 --json`, best of 5) the times matched the two copied loops
 * this replaced within noise. */
uint64_t tier_walk_span(TierSolve *s, int tier, const char *phase, TierVisit visit, bool team,
                        uint64_t a, uint64_t z, uint64_t done_base) {
    const TierInfo *ti = &s->t[tier];
    /* the bitmap held: words reach_w0 on (a slice with tier:blocks) */
    const uint64_t *reach = ti->reach, w0 = ti->reach_w0;
    uint64_t chunk = s->chunk_words * 64, start = a - a % chunk;
    uint64_t nchunks = z > a ? (z - start + chunk - 1) / chunk : 0, done = 0;
    double t0 = clock_seconds();
    if (team) {
        dbwriter_pause(tier_writer(s));
    }
    omp_set_schedule(s->guided ? omp_sched_guided : omp_sched_dynamic, 1);
#pragma omp parallel num_threads(s->threads) if (team)
    {
        solver_worker_begin();
        GpsState *st = s->states[omp_get_thread_num()];
        TierExpansion e;
#pragma omp for schedule(runtime)
        for (uint64_t k = 0; k < nchunks; k++) {
            if (tier_failed(s)) {
                continue;
            }
            uint64_t lo = start + k * chunk, hi = lo + chunk;
            lo = lo < a ? a : lo;
            hi = hi < z ? hi : z;
            FastVisit f = {s, tier, visit, 0};
            if (s->fast) { /* the game walks the chunk */
                s->g->tiers->expand_run(s->g, tier, reach + (lo / 64 - w0), lo, hi, fast_visit, &f);
            } else {
                for (uint64_t w = lo / 64; w * 64 < hi; w++) {
                    uint64_t bits = game_bits_in(reach[w - w0], w, lo, hi);
                    for (; bits != 0; bits &= bits - 1) {
                        uint64_t i = w * 64 + (uint64_t)__builtin_ctzll(bits);
                        Position p = tier_position(s, tier, i);
                        solver_expand(s->g, s->fam, st, p, &e);
                        fast_visit(&f, i, p, &e);
                    }
                }
            }
            uint64_t now_done = __atomic_add_fetch(&done, f.count, __ATOMIC_RELAXED);
            if (omp_get_thread_num() == 0) {
                tier_progress(s, phase, tier, done_base + now_done, ti->reached, false);
            }
        }
        solver_worker_end(s->res, s->worker_peak);
    }
    if (team) {
        dbwriter_resume(tier_writer(s));
    }
    s->compute_seconds += clock_seconds() - t0;
    return done;
}

TierVisit tier_walk_observe(TierSolve *s, int tier, TierVisit visit, uint64_t reached) {
    const TierObserver *obs = s->observer;
    if (obs == NULL) { /* once a pass over a tier: the walk itself is tier's */
        return visit;
    }
    TierPass pass = visit == tier_solve_position  ? TIER_PASS_SOLVE
                    : visit == tier_mark_children ? TIER_PASS_REACH
                                                  : TIER_PASS_NEED;
    if (!tier_observer_shows(obs, pass)) {
        return visit;
    }
    s->observed_visit = visit;
    s->observed_pass = pass;
    if (obs->tier_begin != NULL) {
        obs->tier_begin(obs->ctx, pass, tier, reached);
    }
    return observed_visit;
}

void tier_walk_unobserve(TierSolve *s, int tier, TierVisit used) {
    if (used == observed_visit && s->observer->tier_end != NULL) {
        s->observer->tier_end(s->observer->ctx, s->observed_pass, tier);
    }
}

/* The whole of the tier in this rank's range (tier_walk_span), shown to
 * the observer when there is one. */
void tier_walk(TierSolve *s, int tier, const char *phase, TierVisit visit, uint64_t parallel_min) {
    TierInfo *ti = &s->t[tier];
    uint64_t size = s->gr.node[tier].size;
    uint64_t lo = ti->lo, hi = ti->hi;
    bool team = ti->reached >= parallel_min && s->threads > 1;
    visit = tier_walk_observe(s, tier, visit, ti->reached);
    uint64_t end = hi * 64 < size ? hi * 64 : size;
    tier_walk_span(s, tier, phase, visit, team, lo * 64, end, 0);
    tier_walk_unobserve(s, tier, visit);
}

/* ------------------------------------------------------------- visits */

/* Forward pass: marks the children of reachable position p. */
void tier_mark_children(TierSolve *s, int tier, uint64_t i, Position p, const TierExpansion *e) {
    (void)i;
    if (e->primitive == VALUE_UNDECIDED && e->n <= 0) {
        Error e2;
        solver_no_moves_error(s->g, p, &e2);
        tier_fail(s, e2.code, "%s", e2.msg);
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

/* Sliced, before the backward pass walks tier `tier`: marks the child
 * records position p needs that other ranks hold. */
void tier_mark_needed(TierSolve *s, int tier, uint64_t i, Position p, const TierExpansion *e) {
    (void)i;
    for (int k = 0; k < e->n; k++) {
        int ct;
        uint64_t ci;
        if (locate_child(s, tier, p, e->child[k], &ct, &ci)) {
            TierInfo *c = &s->t[ct];
            if (ci - c->slo >= c->shi - c->slo) {
                uint64_t *word = &s->sliced->tier[ct].need[ci / 64];
                uint64_t bit = UINT64_C(1) << (ci % 64);
                if ((__atomic_load_n(word, __ATOMIC_RELAXED) & bit) == 0) {
                    __atomic_fetch_or(word, bit, __ATOMIC_RELAXED);
                }
            }
        }
    }
}

/* Backward pass: solves reachable position p into record i of its tier
 * from its children's records (their tiers are solved). */
void tier_solve_position(TierSolve *s, int tier, uint64_t i, Position p, const TierExpansion *e) {
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
            if (!tier_child_record(s, ct[k], ci, &cvs[k], &ats[k])) {
                tier_fail(s, ERR_INTERNAL,
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
                tier_fail(s, ERR_INTERNAL,
                          "tier %d: child %" PRIu64 " of position %" PRIu64 " has no value", ct[k],
                          e->child[k], p);
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
            tier_fail(s, e2.code, "%s", e2.msg);
            return;
        }
    }
    Error store_err;
    if (solver_store(g, &s->t[tier].vals, i - s->t[tier].slo, out, best, &store_err) != ERR_OK) {
        tier_fail(s, store_err.code, "tier %d, index %" PRIu64 " (position %" PRIu64 "): %s", tier,
                  i, p, store_err.msg);
    }
}
