/* solvers/tier/loopy.c: loopy tiers for the tier solver, by retrograde
 * analysis restricted to one tier.
 *
 * A loopy tier (games/game.h, TierOps.loopy) has moves that stay inside it
 * (so its positions can repeat) as well as moves to its child tiers, which
 * the tier solver has already solved (Gasser's Nine Men's Morris sectors: a
 * slide keeps the sector, a capture leads to a child sector). The solver
 * (solve.c) calls the two passes of this file for such a tier in place of
 * its walks; positions are expanded by solvers/expand.h as in the walks.
 *
 * Reach pass (tier_loopy_reach). The tier's bitmap holds the positions its
 * parent tiers reach; a breadth-first closure under the in-tier moves adds
 * the rest: each round expands the positions new in the previous round (a
 * second bitmap), ORs in-tier children into the tier's bitmap (those whose
 * bit was clear go to the next round) and child-tier children into the
 * child's. Each reachable position is expanded once; each round also scans
 * the round bitmap, size/64 words.
 *
 * Solve pass (tier_loopy_solve), the frontier algorithm of solvers/retro.c
 * over the tier's positions:
 *   1. Every reachable position is expanded once. A primitive gets its value
 *      at remoteness 0. Otherwise its distinct in-tier children are counted,
 *      and its children in (solved) child tiers are folded into one virtual
 *      child: a losing one at the smallest losing remoteness if any child
 *      there loses, else a winning one at the largest remoteness if every
 *      child there wins, else one that never decides (a tie or a draw). The
 *      counter is the in-tier children plus one for the virtual child; the
 *      virtual child's value and remoteness are an "event" at that level.
 *   2. Wins and losses, level by level: level r takes the positions decided
 *      at remoteness r (the frontier; level 0: the win/lose primitives) and
 *      the events at level r, and passes each to its undecided in-tier
 *      parents: the parent of a loss wins at r + 1; the parent whose counter
 *      reaches 0 (every child a win) loses at r + 1. This is retro's FIFO cut
 *      at remoteness boundaries, with the child tiers' positions entering at
 *      their own remoteness, so each position gets exactly the value and
 *      remoteness retro gives it over the whole game (win: 1 + the smallest
 *      losing child; lose: 1 + the largest child).
 *   3. Ties, the same way from the tie primitives and the tie events (the
 *      smallest tie remoteness among a position's child-tier children):
 *      an undecided parent of a tie at r is a tie at r + 1.
 *   4. The positions still undecided are draws.
 * Parents inside the tier come from the game's generate_parents when it has
 * them (filtered to reachable positions of this tier), otherwise from back
 * edges stored for this tier only (CSR: each position expanded a second
 * time to fill them).
 *
 * Parallel (OpenMP): the expansions of step 1 and each level of steps 2-3
 * are shared among the threads. Within a level every decision is the same
 * whichever thread makes it (a compare-and-swap from "undecided" for wins
 * and ties; the counter's atomic decrement to 0 for a loss, which excludes a
 * win since a position with a losing child never counts that child), so the
 * records are byte-identical for every thread count; only the order of the
 * frontier differs.
 *
 * A variant's observer (observer.h) is shown every expansion of the reach
 * pass and of step 1 (not the second expansion that fills stored edges);
 * without one, each of those expansions tests a NULL pointer.
 *
 * Time: O(R b) game calls for R reachable positions of the tier with b
 * moves (twice with stored edges), plus one generate_parents call per
 * position taken from a frontier; O(size/64) words per BFS round and per
 * level. Memory beyond the records: per reachable position 2 bytes of
 * counter, 2 of event (indexed by the position's rank among the
 * reachable ones, so a tier whose bitmap is sparse, one reached from the
 * start only in part, pays for its positions, not its slots) and I of
 * frontier; per slot 1/8 for the ranks (a prefix count
 * per bitmap word) and 1/4 for the reach rounds' bitmaps; I per event; with
 * stored edges 8 per slot and I per in-tier edge; I = 4 bytes, or 8 in a
 * tier of more than 2^32 slots (below). The frontier, the events
 * and the edges hold slot indices, 4 bytes each in a tier of at most
 * 2^32 slots and 8 above (TIER_LOOPY_WIDE_FROM: the width is chosen
 * per tier, so the tiers that fit 32 bits pay nothing for the larger ones;
 * every access goes through ix_get/ix_put, one predictable branch).
 * WinBy scores in loopy tiers are not supported (refused).
 */
#include "solvers/tier/loopy.h"

#include <inttypes.h>
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/mem.h"
#include "core/sort.h"
#include "solvers/expand.h"
#include "solvers/tier/internal.h"

#define LOOPY_LEVELS (DB_MAX_REMOTENESS_16 + 2) /* event levels 0..16383, +1 */

/* A position's event, the virtual child that stands for its children in
 * child tiers: the top two bits its kind, the low 14 its level (the child's
 * remoteness, at most DB_MAX_REMOTENESS_16). One array serves both passes:
 * a position whose virtual child loses never needs its tie event (it is a
 * win), and one whose child-tier children all win has none; so a position
 * has at most one event that matters, 2 bytes, not 2 per pass. */
enum {
    EV_NONE = 0,
    EV_LOSE = 0x4000u, /* a child-tier child loses: the position wins */
    EV_WIN = 0x8000u,  /* every child-tier child wins: one more losing child */
    EV_TIE = 0xc000u,  /* no losing child-tier child, the nearest tie at this level */
    EV_KIND = 0xc000u,
    EV_LEVEL = 0x3fffu,
};
_Static_assert(DB_MAX_REMOTENESS_16 <= EV_LEVEL, "an event level fits 14 bits");

/* 1 + the level of event e when its kind belongs to the pass, else 0. */
static inline uint32_t event_slot(uint16_t e, bool tie_pass) {
    uint32_t kind = e & EV_KIND;
    bool mine = tie_pass ? kind == EV_TIE : kind == EV_LOSE || kind == EV_WIN;
    return mine ? (e & EV_LEVEL) + 1u : 0;
}

typedef struct Loopy {
    TierLoopyJob *j;
    Error *err;
    volatile int failed;
    /* left and ev are indexed by rank (slot_rank): the number of
     * reachable positions before the slot, so they take 2 bytes a
     * reachable position, not a slot (with `sym`, 1/16 of the slots). */
    uint64_t *rank0; /* [words] reachable positions before each bitmap word */
    uint16_t *left;  /* [reached] children not yet known to be wins for the opponent */
    uint16_t *ev;    /* [reached] the virtual child's event: EV_* | its level (below) */
    /* The arrays of slot indices below hold uint32_t, or uint64_t when
     * wide (ix_get, ix_put). */
    bool wide;        /* 8-byte slot indices (tier_loopy_index_bytes) */
    void *queue;      /* [reached] the frontier */
    uint64_t tail;    /* queue entries, appended atomically */
    uint64_t *pfirst; /* stored edges: parents of i at pars[pfirst[i] .. pfirst[i + 1]) */
    void *pars;       /* stored edges */
    Position **pbuf;  /* [threads] generate_parents buffers */
    void **ibuf;      /* [threads] the same, as indices */
    bool use_parents; /* generate_parents, not stored edges */
} Loopy;

bool tier_loopy_test_wide = false;

unsigned tier_loopy_index_bytes(uint64_t size, bool wide) {
    return wide || size > TIER_LOOPY_WIDE_FROM ? 8 : 4;
}

/* Entry k of an array of slot indices, and its store. */
static inline uint64_t ix_get(const Loopy *L, const void *a, uint64_t k) {
    return L->wide ? ((const uint64_t *)a)[k] : ((const uint32_t *)a)[k];
}

static inline void ix_put(const Loopy *L, void *a, uint64_t k, uint64_t v) {
    if (L->wide) {
        ((uint64_t *)a)[k] = v;
    } else {
        ((uint32_t *)a)[k] = (uint32_t)v;
    }
}

static bool is_reached(const TierLoopyJob *j, uint64_t i) {
    return (j->reach[i / 64] >> (i % 64)) & 1u;
}

static void fail(Loopy *L, ErrCode code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void fail(Loopy *L, ErrCode code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    error_once_vset(L->err, &L->failed, code, fmt, ap);
    va_end(ap);
}

static bool failed(const Loopy *L) { return error_once_failed(&L->failed); }

/* The rank of reachable slot i: how many reachable slots come before it.
 * O(1): a prefix count per bitmap word and a popcount. */
static uint64_t slot_rank(const Loopy *L, uint64_t i) {
    uint64_t below = L->j->reach[i / 64] & ((UINT64_C(1) << (i % 64)) - 1);
    return L->rank0[i / 64] + (uint64_t)__builtin_popcountll(below);
}

/* With --progress: one line per reach round and per solve phase. */
static void note(const TierLoopyJob *j, const char *what, uint64_t count) {
    if (j->progress) {
        char label[GAME_TIER_LABEL_MAX];
        fprintf(stderr, "tier: loopy tier %s, %" PRIu64 " positions: %s: %" PRIu64 ", %.1f s\n",
                game_tier_label(j->g, j->tier, label, sizeof label), j->size, what, count,
                clock_seconds() - j->t0);
    }
}

/* Where position c lies: -1 in this tier (index *ci), k >= 0 in child tier
 * child[k] (index *ci), -2 elsewhere. */
static int locate(const TierLoopyJob *j, Position c, uint64_t *ci) {
    if (j->tier_major) {
        if (c - j->first < j->size) {
            *ci = c - j->first;
            return -1;
        }
        for (int k = 0; k < j->nchildren; k++) {
            if (c - j->child[k].first < j->child[k].size) {
                *ci = c - j->child[k].first;
                return k;
            }
        }
        return -2;
    }
    int t = j->g->tiers->tier_of(j->g, c);
    if (t == j->tier) {
        *ci = j->g->tiers->index_of(j->g, c);
        return *ci < j->size ? -1 : -2;
    }
    for (int k = 0; k < j->nchildren; k++) {
        if (j->child[k].tier == t) {
            *ci = j->g->tiers->index_of(j->g, c);
            return *ci < j->child[k].size ? k : -2;
        }
    }
    return -2;
}

static bool locate_or_fail(Loopy *L, Position p, Position c, uint64_t *ci, int *k) {
    *k = locate(L->j, c, ci);
    if (*k >= -1) {
        return true;
    }
    fail(L, ERR_INTERNAL,
         "game '%s': a move from position %" PRIu64 " (loopy tier %d) reaches position %" PRIu64
         ", which is in neither the tier nor its child tiers",
         L->j->g->module->name, p, L->j->tier, c);
    return false;
}

/* Shows position i (p, expanded into e) to the job's observer, its
 * children located again (uncounted, internal.h). A child outside the tier and its child tiers
 * fails the pass (locate_or_fail): not shown. */
static void observe(const TierLoopyJob *j, TierPass pass, uint64_t i, Position p,
                    const TierExpansion *e) {
    TierChildAt at[GAME_MAX_MOVES];
    Counters counted;
    tier_counters_save(&counted);
    int k = 0;
    for (; k < e->n; k++) {
        int where = locate(j, e->child[k], &at[k].index);
        if (where < -1) {
            break;
        }
        at[k].slot = where;
        at[k].tier = where < 0 ? j->tier : j->child[where].tier;
    }
    tier_counters_restore(&counted);
    if (k < e->n) {
        return;
    }
    tier_observer_show(j->observer, pass, j->tier, i, p, true, e, at);
}

static void no_moves(Loopy *L, Position p) {
    Error e2;
    solver_no_moves_error(L->j->g, p, &e2);
    fail(L, e2.code, "%s", e2.msg);
}

static GpsState *state_of(const TierLoopyJob *j) {
    return j->fam != NULL ? j->states[omp_get_thread_num()] : NULL;
}

/* ------------------------------------------------------------- reach pass */

ErrCode tier_loopy_reach(TierLoopyJob *j, Error *err) {
    Loopy L = {.j = j, .err = err};
    uint64_t nwords = tier_words(j->size);
    uint64_t cw = j->chunk / 64;
    ErrCode rc = mem_check(2 * nwords * 8, "the loopy tier's reach rounds", err);
    if (rc != ERR_OK) {
        return rc;
    }
    uint64_t *cur = mem_alloc((size_t)nwords * 8, "the loopy tier's reach rounds", err);
    uint64_t *next = mem_calloc((size_t)nwords, 8, "the loopy tier's reach rounds", err);
    if (cur == NULL || next == NULL) {
        free(cur);
        free(next);
        return ERR_MEMORY;
    }
    memcpy(cur, j->reach, (size_t)nwords * 8);
    for (uint64_t count = tier_popcount(cur, nwords); count > 0 && !failed(&L);) {
#pragma omp parallel num_threads(j->threads) if (count >= j->par_min)
        {
            solver_worker_begin();
            GpsState *st = state_of(j);
            TierExpansion e;
#pragma omp for schedule(dynamic, 1)
            for (uint64_t w0 = 0; w0 < nwords; w0 += cw) {
                uint64_t w1 = w0 + cw < nwords ? w0 + cw : nwords;
                for (uint64_t w = w0; w < w1 && !failed(&L); w++) {
                    for (uint64_t bits = cur[w]; bits != 0; bits &= bits - 1) {
                        uint64_t i = w * 64 + (uint64_t)__builtin_ctzll(bits);
                        Position p = tier_graph_position(j->gr, j->tier, i);
                        STAT_INC(calls);
                        solver_expand(j->g, j->fam, st, p, &e);
                        if (j->observer != NULL) {
                            observe(j, TIER_PASS_REACH, i, p, &e);
                        }
                        if (e.primitive == VALUE_UNDECIDED && e.n <= 0) {
                            no_moves(&L, p);
                        }
                        for (int k = 0; k < e.n; k++) {
                            STAT_INC(edges);
                            uint64_t ci;
                            int where;
                            if (!locate_or_fail(&L, p, e.child[k], &ci, &where)) {
                                break;
                            }
                            uint64_t bit = UINT64_C(1) << (ci % 64);
                            if (where < 0) {
                                uint64_t old =
                                    __atomic_fetch_or(&j->reach[ci / 64], bit, __ATOMIC_RELAXED);
                                if (!(old & bit)) {
                                    __atomic_fetch_or(&next[ci / 64], bit, __ATOMIC_RELAXED);
                                }
                            } else {
                                __atomic_fetch_or(&j->child[where].reach[ci / 64], bit,
                                                  __ATOMIC_RELAXED);
                            }
                        }
                    }
                }
            }
            solver_worker_end(j->res, j->worker_peak);
        }
        uint64_t *t = cur;
        cur = next;
        next = t;
        j->expanded += tier_popcount(next, nwords); /* the round just expanded */
        memset(next, 0, (size_t)nwords * 8);
        count = tier_popcount(cur, nwords);
        note(j, "reach round, new positions", count);
        if (count > 0 && j->stop_at > 0 && clock_seconds() >= j->stop_at) {
            j->stopped = true;
            break;
        }
    }
    free(cur);
    free(next);
    return failed(&L) ? err->code : ERR_OK;
}

/* ------------------------------------------------------------- solve pass */

static uint32_t rec_load(const Database *db, uint64_t i) {
    return db->width == 1 ? __atomic_load_n(&db->r8[i], __ATOMIC_RELAXED)
                          : __atomic_load_n(&db->r16[i], __ATOMIC_RELAXED);
}

/* Counts a db write only when it happens, so that the counters too are the
 * same for every thread count. */
static bool rec_cas(Database *db, uint64_t i, uint32_t from, uint32_t to) {
    bool done;
    if (db->width == 1) {
        uint8_t e = (uint8_t)from;
        done = __atomic_compare_exchange_n(&db->r8[i], &e, (uint8_t)to, false, __ATOMIC_RELAXED,
                                           __ATOMIC_RELAXED);
    } else {
        uint16_t e = (uint16_t)from;
        done = __atomic_compare_exchange_n(&db->r16[i], &e, (uint16_t)to, false, __ATOMIC_RELAXED,
                                           __ATOMIC_RELAXED);
    }
    if (done) {
        STAT_INC(db_writes);
    }
    return done;
}

static void push(Loopy *L, uint64_t q) {
    uint64_t at = __atomic_fetch_add(&L->tail, 1, __ATOMIC_RELAXED);
    ix_put(L, L->queue, at, q);
}

/* Decides undecided position q as v at remoteness r and queues it. */
static void decide(Loopy *L, uint64_t q, Value v, uint32_t r) {
    Database *db = L->j->vals;
    uint32_t raw;
    if (!db_encode(db, v, r, &raw)) {
        fail(L, ERR_LIMIT,
             "loopy tier %d of game '%s': a position has remoteness %" PRIu32
             ", more than the %u-bit record holds (%" PRIu32 ")",
             L->j->tier, L->j->g->module->name, r, db->width * 8, db->max_remoteness);
        return;
    }
    if (rec_cas(db, q, DB_VISITED, raw)) {
        push(L, q);
    }
}

/* A child of in-tier position q, of value v at remoteness r, is known. */
static void apply(Loopy *L, uint64_t q, Value v, uint32_t r, bool tie_pass) {
    STAT_INC(edges);
    if (rec_load(L->j->vals, q) != DB_VISITED) {
        return; /* decided already */
    }
    if (tie_pass) {
        decide(L, q, VALUE_TIE, r + 1);
    } else if (v == VALUE_LOSE) {
        decide(L, q, VALUE_WIN, r + 1);
    } else if (v == VALUE_WIN &&
               __atomic_sub_fetch(&L->left[slot_rank(L, q)], 1, __ATOMIC_RELAXED) == 0) {
        decide(L, q, VALUE_LOSE, r + 1);
    }
}

/* The reachable in-tier parents of index i, as indices: ix_get(L, *list,
 * 0 .. n - 1) for the n returned. */
static int64_t parents_of(Loopy *L, uint64_t i, const void **list) {
    const TierLoopyJob *j = L->j;
    if (!L->use_parents) {
        *list = (const char *)L->pars + L->pfirst[i] * (L->wide ? 8 : 4);
        return (int64_t)(L->pfirst[i + 1] - L->pfirst[i]);
    }
    int id = omp_get_thread_num();
    Position *buf = L->pbuf[id];
    void *out = L->ibuf[id];
    Position p = tier_graph_position(j->gr, j->tier, i);
    int n = game_tier_parents(j->g, j->tier, p, buf);
    if (n < 0 || n > j->g->max_parents) {
        fail(L, ERR_INTERNAL,
             "game '%s': generate_parents returned %d parents (max_parents %d) for position "
             "%" PRIu64,
             j->g->module->name, n, j->g->max_parents, p);
        return -1;
    }
    int m = 0;
    for (int k = 0; k < n; k++) {
        Position q = buf[k];
        uint64_t qi;
        if (j->tier_major) {
            if (q - j->first >= j->size) {
                continue;
            }
            qi = q - j->first;
        } else {
            if (q >= j->g->num_positions || j->g->tiers->tier_of(j->g, q) != j->tier) {
                continue;
            }
            qi = j->g->tiers->index_of(j->g, q);
        }
        if (qi < j->size && is_reached(j, qi)) {
            ix_put(L, out, (uint64_t)m++, qi);
        }
    }
    *list = out;
    return m;
}

/* Step 1 for position i (and, with stored edges, the in-degree counts; with
 * fill, the back edges instead). */
static void init_position(Loopy *L, GpsState *st, uint64_t i, TierExpansion *e, bool fill) {
    TierLoopyJob *j = L->j;
    Position p = tier_graph_position(j->gr, j->tier, i);
    STAT_INC(calls);
    solver_expand(j->g, j->fam, st, p, e);
    if (!fill && j->observer != NULL) {
        observe(j, TIER_PASS_SOLVE, i, p, e);
    }
    if (e->primitive != VALUE_UNDECIDED) {
        if (!fill) {
            db_put(j->vals, i, e->primitive, 0);
        }
        return;
    }
    uint64_t kids[GAME_MAX_MOVES];
    int nin = 0;
    bool has_out = false, all_win = true;
    uint32_t lose_min = UINT32_MAX, win_max = 0, tie_min = UINT32_MAX;
    for (int k = 0; k < e->n; k++) {
        uint64_t ci;
        int where;
        if (!fill) {
            STAT_INC(edges);
        }
        if (!locate_or_fail(L, p, e->child[k], &ci, &where)) {
            return;
        }
        if (where < 0) {
            kids[nin++] = ci;
            continue;
        }
        if (fill) {
            continue;
        }
        const Database *cv = j->child[where].vals;
        uint32_t raw = db_get(cv, ci);
        if (!db_raw_solved(cv, raw)) {
            fail(L, ERR_INTERNAL, "tier %d: child %" PRIu64 " of position %" PRIu64 " has no value",
                 j->child[where].tier, e->child[k], p);
            return;
        }
        Value v = db_raw_value(cv, raw);
        uint32_t r = db_raw_remoteness(cv, raw);
        has_out = true;
        all_win = all_win && v == VALUE_WIN;
        if (v == VALUE_LOSE && r < lose_min) {
            lose_min = r;
        } else if (v == VALUE_WIN && r > win_max) {
            win_max = r;
        } else if (v == VALUE_TIE && r < tie_min) {
            tie_min = r;
        }
    }
    sort_u64(kids, nin);
    int m = 0;
    for (int k = 0; k < nin; k++) {
        if (m == 0 || kids[k] != kids[m - 1]) {
            kids[m++] = kids[k];
        }
    }
    if (fill) {
        for (int k = 0; k < m; k++) {
            uint64_t at = __atomic_fetch_add(&L->pfirst[kids[k]], 1, __ATOMIC_RELAXED);
            ix_put(L, L->pars, at, i);
        }
        return;
    }
    if (m + has_out == 0) {
        no_moves(L, p);
        return;
    }
    uint64_t ri = slot_rank(L, i);
    L->left[ri] = (uint16_t)(m + has_out);
    db_put(j->vals, i, VALUE_UNDECIDED, 0);
    if (lose_min != UINT32_MAX) {
        L->ev[ri] = (uint16_t)(EV_LOSE | lose_min);
    } else if (has_out && all_win) {
        L->ev[ri] = (uint16_t)(EV_WIN | win_max);
    } else if (tie_min != UINT32_MAX) {
        L->ev[ri] = (uint16_t)(EV_TIE | tie_min);
    }
    if (!L->use_parents) {
        for (int k = 0; k < m; k++) {
            __atomic_fetch_add(&L->pfirst[kids[k] + 1], 1, __ATOMIC_RELAXED);
        }
    }
}

/* Runs init_position over every reachable position of the tier. */
static void init_scan(Loopy *L, uint64_t reached, bool fill) {
    TierLoopyJob *j = L->j;
    uint64_t nwords = tier_words(j->size), cw = j->chunk / 64;
#pragma omp parallel num_threads(j->threads) if (reached >= j->par_min)
    {
        solver_worker_begin();
        GpsState *st = state_of(j);
        TierExpansion e;
#pragma omp for schedule(dynamic, 1)
        for (uint64_t w0 = 0; w0 < nwords; w0 += cw) {
            uint64_t w1 = w0 + cw < nwords ? w0 + cw : nwords;
            for (uint64_t w = w0; w < w1 && !failed(L); w++) {
                for (uint64_t bits = j->reach[w]; bits != 0; bits &= bits - 1) {
                    init_position(L, st, w * 64 + (uint64_t)__builtin_ctzll(bits), &e, fill);
                }
            }
        }
        solver_worker_end(j->res, j->worker_peak);
    }
}

/* Builds the stored back edges (CSR) from the in-degrees counted by the
 * first scan: prefix sums, a second scan to fill, then the cursors shifted
 * back into offsets. */
static ErrCode build_edges(Loopy *L, uint64_t reached) {
    TierLoopyJob *j = L->j;
    for (uint64_t i = 0; i < j->size; i++) {
        L->pfirst[i + 1] += L->pfirst[i];
    }
    uint64_t edges = L->pfirst[j->size], ib = L->wide ? 8 : 4;
    ErrCode rc = mem_check(edges * ib, "the loopy tier's back edges", L->err);
    if (rc != ERR_OK) {
        return rc;
    }
    L->pars =
        mem_alloc((size_t)(edges > 0 ? edges : 1) * ib, "the loopy tier's back edges", L->err);
    if (L->pars == NULL) {
        return ERR_MEMORY;
    }
    init_scan(L, reached, true);
    if (failed(L)) {
        return L->err->code;
    }
    memmove(L->pfirst + 1, L->pfirst, j->size * sizeof *L->pfirst);
    L->pfirst[0] = 0;
    return ERR_OK;
}

/* The events of a pass, sorted by level (counting sort): ix_get(L, ev,
 * off[r] .. off[r + 1] - 1) are the indices whose event is of the pass's
 * kinds (event_slot) and at level r, for r < *nlevels. O(size/64 +
 * reached + levels). */
static ErrCode sort_events(Loopy *L, bool tie_pass, void **ev, uint64_t **off, uint32_t *nlevels) {
    TierLoopyJob *j = L->j;
    const char *what = "the loopy tier's events";
    uint64_t *start = mem_calloc(LOOPY_LEVELS + 1, sizeof *start, what, L->err);
    if (start == NULL) {
        return ERR_MEMORY;
    }
    uint32_t top = 0;
    uint64_t total = 0;
    uint64_t nwords = tier_words(j->size), k = 0;
    for (uint64_t w = 0; w < nwords; w++) {
        for (uint64_t bits = j->reach[w]; bits != 0; bits &= bits - 1) {
            uint32_t l = event_slot(L->ev[k++], tie_pass); /* k: the rank, in index order */
            if (l == 0) {
                continue;
            }
            start[l]++; /* level l - 1, counted one place up for the prefix sum */
            top = l > top ? l : top;
            total++;
        }
    }
    for (uint32_t r = 1; r <= top; r++) {
        start[r] += start[r - 1]; /* start[r]: events below level r */
    }
    uint64_t ib = L->wide ? 8 : 4;
    ErrCode rc = mem_check(total * ib, what, L->err);
    void *e = rc == ERR_OK ? mem_alloc((size_t)(total > 0 ? total : 1) * ib, what, L->err) : NULL;
    uint64_t *cursor = mem_alloc((size_t)(top + 1) * sizeof *cursor, what, L->err);
    if (e == NULL || cursor == NULL) {
        free(start);
        free(e);
        free(cursor);
        return rc != ERR_OK ? rc : ERR_MEMORY;
    }
    memcpy(cursor, start, (size_t)(top + 1) * sizeof *cursor);
    k = 0;
    for (uint64_t w = 0; w < nwords; w++) {
        for (uint64_t bits = j->reach[w]; bits != 0; bits &= bits - 1) {
            uint32_t l = event_slot(L->ev[k++], tie_pass);
            if (l != 0) {
                ix_put(L, e, cursor[l - 1]++, w * 64 + (uint64_t)__builtin_ctzll(bits));
            }
        }
    }
    free(cursor);
    j->stats[3] += total;
    *ev = e;
    *off = start;
    *nlevels = top;
    return ERR_OK;
}

/* Steps 2 (tie_pass false) and 3: the frontier starts with the primitives
 * of the pass's values, then level by level. */
static ErrCode propagate(Loopy *L, bool tie_pass, uint64_t *taken) {
    TierLoopyJob *j = L->j;
    Database *db = j->vals;
    void *ev;
    uint64_t *off;
    uint32_t nlevels;
    ErrCode rc = sort_events(L, tie_pass, &ev, &off, &nlevels);
    if (rc != ERR_OK) {
        return rc;
    }
    L->tail = 0;
    for (uint64_t i = 0; i < j->size; i++) {
        uint32_t raw = db_peek(db, i);
        if (db_raw_solved(db, raw) && db_raw_remoteness(db, raw) == 0) {
            Value v = db_raw_value(db, raw);
            if (tie_pass ? v == VALUE_TIE : (v == VALUE_WIN || v == VALUE_LOSE)) {
                ix_put(L, L->queue, L->tail++, i);
            }
        }
    }
    uint64_t head = 0;
    for (uint32_t r = 0; !failed(L); r++) {
        uint64_t end = L->tail;
        uint64_t e0 = r < nlevels ? off[r] : 0, e1 = r < nlevels ? off[r + 1] : 0;
        if (head == end && e0 == e1) {
            if (r >= nlevels) {
                break;
            }
            continue; /* no frontier at this level, events later */
        }
        uint64_t nf = end - head, m = nf + (e1 - e0);
        *taken += nf;
#pragma omp parallel num_threads(j->threads) if (m >= j->par_min)
        {
            solver_worker_begin();
#pragma omp for schedule(dynamic, 1024)
            for (uint64_t k = 0; k < m; k++) {
                if (failed(L)) {
                    continue;
                }
                if (k < nf) {
                    STAT_INC(calls);
                    uint64_t i = ix_get(L, L->queue, head + k);
                    Value v = db_raw_value(db, rec_load(db, i));
                    const void *list;
                    int64_t n = parents_of(L, i, &list);
                    for (int64_t x = 0; x < n; x++) {
                        apply(L, ix_get(L, list, (uint64_t)x), v, r, tie_pass);
                    }
                } else {
                    uint64_t q = ix_get(L, ev, e0 + (k - nf));
                    Value v = tie_pass                                        ? VALUE_TIE
                              : (L->ev[slot_rank(L, q)] & EV_KIND) == EV_LOSE ? VALUE_LOSE
                                                                              : VALUE_WIN;
                    apply(L, q, v, r, tie_pass);
                }
            }
            solver_worker_end(j->res, j->worker_peak);
        }
        head = end;
    }
    free(ev);
    free(off);
    return failed(L) ? L->err->code : ERR_OK;
}

uint64_t tier_loopy_bytes(uint64_t size, uint64_t reached, bool stored_edges) {
    uint64_t ib = tier_loopy_index_bytes(size, false);
    return tier_words(size) * 8 + reached * (4 + 2 * ib) + (LOOPY_LEVELS + 1) * 8 +
           (stored_edges ? (size + 1) * 8 : 0);
}

static void release(Loopy *L) {
    free(L->rank0);
    free(L->left);
    free(L->ev);
    free(L->queue);
    free(L->pfirst);
    free(L->pars);
    for (int t = 0; t < L->j->threads && L->pbuf != NULL; t++) {
        free(L->pbuf[t]);
        free(L->ibuf[t]);
    }
    free(L->pbuf);
    free(L->ibuf);
}

ErrCode tier_loopy_solve(TierLoopyJob *j, Error *err) {
    const Game *g = j->g;
    if (g->has_winby) {
        return error_set(err, ERR_UNSUPPORTED,
                         "game '%s': the tier solver does not keep WinBy scores in loopy tiers",
                         g->module->name);
    }
    Loopy L = {.j = j, .err = err, .wide = tier_loopy_index_bytes(j->size, j->wide_index) == 8};
    uint64_t ib = L.wide ? 8 : 4;
    L.use_parents = g->ops->generate_parents != NULL && !j->stored_edges;
    uint64_t reached = tier_popcount(j->reach, tier_words(j->size));
    uint64_t need = tier_loopy_bytes(j->size, reached, !L.use_parents) +
                    (L.wide && j->size <= TIER_LOOPY_WIDE_FROM ? reached * 8 : 0);
    ErrCode rc = mem_check(need, "the loopy tier's counters, events and frontier", err);
    if (rc != ERR_OK) {
        return rc;
    }
    const char *what = "the loopy tier's counters, events and frontier";
    uint64_t nwords = tier_words(j->size);
    L.rank0 = mem_alloc((size_t)nwords * 8 + 8, what, err);
    L.left = mem_alloc((size_t)reached * 2 + 2, what, err);
    L.ev = mem_calloc((size_t)reached + 1, 2, what, err);
    for (uint64_t w = 0, before = 0; L.rank0 != NULL && w < nwords; w++) {
        L.rank0[w] = before;
        before += (uint64_t)__builtin_popcountll(j->reach[w]);
    }
    L.queue = mem_alloc((size_t)(reached + 1) * ib, what, err);
    if (!L.use_parents) {
        L.pfirst = mem_calloc((size_t)j->size + 1, sizeof *L.pfirst, what, err);
    } else {
        L.pbuf = mem_calloc((size_t)j->threads, sizeof *L.pbuf, what, err);
        L.ibuf = mem_calloc((size_t)j->threads, sizeof *L.ibuf, what, err);
        for (int t = 0; t < j->threads && L.pbuf != NULL && L.ibuf != NULL; t++) {
            L.pbuf[t] = mem_alloc((size_t)g->max_parents * sizeof(Position) + 8, what, err);
            L.ibuf[t] = mem_alloc((size_t)(g->max_parents + 1) * ib, what, err);
            if (L.pbuf[t] == NULL || L.ibuf[t] == NULL) {
                rc = ERR_MEMORY;
            }
        }
    }
    if (L.rank0 == NULL || L.left == NULL || L.ev == NULL || L.queue == NULL ||
        (L.use_parents ? (L.pbuf == NULL || L.ibuf == NULL) : L.pfirst == NULL)) {
        rc = ERR_MEMORY;
    }
    if (rc == ERR_OK) {
        init_scan(&L, reached, false);
        rc = failed(&L) ? err->code : ERR_OK;
        note(j, "expanded", reached);
    }
    if (rc == ERR_OK && !L.use_parents) {
        rc = build_edges(&L, reached);
    }
    if (rc == ERR_OK) {
        rc = propagate(&L, false, &j->stats[0]);
        note(j, "wins and losses, frontier", j->stats[0]);
    }
    if (rc == ERR_OK) {
        rc = propagate(&L, true, &j->stats[1]);
        note(j, "ties, frontier", j->stats[1]);
    }
    if (rc == ERR_OK) {
        for (uint64_t i = 0; i < j->size; i++) {
            if (db_peek(j->vals, i) == DB_VISITED) {
                db_poke(j->vals, i, DB_DRAW);
                j->stats[2]++;
            }
        }
    }
    release(&L);
    return rc;
}

/* ----------------------------------------------- the tier solver's call */

void tier_loopy_pass(TierSolve *s, int t, bool solve, uint64_t parallel_min, double stop_at,
                     bool *stopped, uint64_t *expanded) {
    TierInfo *ti = &s->t[t];
    const TierNode *n = &s->gr.node[t];
    TierLoopyJob job = {
        .g = s->g,
        .gr = &s->gr,
        .fam = s->fam,
        .states = s->states,
        .threads = s->threads,
        .par_min = parallel_min,
        .chunk = s->chunk_words * 64,
        .tier_major = s->gr.tier_major,
        .stored_edges = s->stored_edges,
        .wide_index = tier_loopy_test_wide,
        .tier = t,
        .size = n->size,
        .first = n->first,
        .reach = ti->reach,
        .vals = &ti->vals,
        .nchildren = n->nchildren,
        .res = s->res,
        .worker_peak = s->worker_peak,
        .progress = s->progress,
        .t0 = s->t0,
        .stop_at = stop_at,
    };
    for (int k = 0; k < n->nchildren; k++) {
        int ct = n->children[k];
        const TierNode *c = &s->gr.node[ct];
        job.child[k] = (TierLoopyChild){
            .tier = ct, .size = c->size, .first = c->first, .reach = s->t[ct].reach};
        job.child[k].vals = &s->t[ct].vals;
    }
    /* Every rank solves a loopy tier whole: rank 0 shows it, so that each
     * position is shown once over the ranks (observer.h). */
    TierPass pass = solve ? TIER_PASS_SOLVE : TIER_PASS_REACH;
    const TierObserver *obs =
        dist_rank() == 0 && tier_observer_shows(s->observer, pass) ? s->observer : NULL;
    job.observer = obs;
    if (obs != NULL && obs->tier_begin != NULL) {
        obs->tier_begin(obs->ctx, pass, t, ti->reached);
    }
    Error e;
    dbwriter_pause(tier_writer(s)); /* its parallel loops take every core */
    ErrCode rc = solve ? tier_loopy_solve(&job, &e) : tier_loopy_reach(&job, &e);
    dbwriter_resume(tier_writer(s));
    if (obs != NULL && obs->tier_end != NULL) {
        obs->tier_end(obs->ctx, pass, t);
    }
    if (rc != ERR_OK) {
        tier_fail(s, rc, "%s", e.msg);
    }
    for (int k = 0; k < 4; k++) {
        s->loopy_stats[k] += job.stats[k];
    }
    if (stopped != NULL) {
        *stopped = job.stopped;
        *expanded = job.expanded;
    }
}
