/* tests/test_tier_probe.c: the tier solver's visit hook
 * (solvers/tier/observer.h) and tier-probe, its model variant
 * (solvers/tier_probe.c). test_solvers cross-checks tier-probe against dfs
 * (or retro) like every solver; here, for every registered game variant
 * that declares tiers:
 *   - every variant of tier (SolverModule.variant_of) has tier's flags and
 *     options, and gives tier's database byte for byte, its db_checksum,
 *     root and counters, on 2 threads sharing every tier in 64-position
 *     chunks;
 *   - an observer of the test's own (tier_solve_observed) is shown every
 *     reachable position exactly once in the forward pass and once in the
 *     backward pass, and no other position: the reachable positions from a
 *     breadth-first search of the stateless family (test_reach, no solver
 *     code); each shown position with its tier and local index as the
 *     game's TierOps give them, its children as the stateless family gives
 *     them (test_children), each child's tier, index and slot (its place in
 *     TierOps.children of the position's tier, -1 for the same tier) from
 *     TierOps; on a thread below the start's count, between tier_begin and
 *     tier_end of its own tier and pass;
 *   - tier-probe's figures are the counts made over that search: positions,
 *     primitives, the children histogram and maximum, and the look-ups by
 *     the slot of the child's tier.
 * On tic-tac-toe, tier-probe's figures are also the hand counts below, and
 * with --db they are unchanged; the rerun that loads every tier shows none.
 */
#include "tests/testutil.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/tier/observer.h"

#define SMALL_CHUNKS "chunk=64,parallel_min=0"

/* Runs solver `name` with option string opts on `threads` threads, its
 * files in dir (NULL: none), or fails the test. */
static void run(const char *name, const Game *g, const char *opts, int threads, const char *dir,
                SolveResult *res) {
    const SolverModule *s = solver_find(name);
    assert_non_null(s);
    SolveConfig cfg = {.threads = threads, .work_dir = dir};
    Error err = {0};
    if (options_parse(s->options, opts, name, &cfg.options, &err) != ERR_OK ||
        solver_run(s, g, &cfg, res, &err) != ERR_OK) {
        fail_msg("%s:%s on %s:%s: %s", name, opts, g->module->name, g->variant, err.msg);
    }
}

/* Where position p lies by the game's TierOps: its tier and local index. */
static int tier_and_index(const Game *g, Position p, uint64_t *index) {
    int t = g->tiers->tier_of(g, p);
    *index = g->tiers->first != NULL ? p - g->tiers->first(g, t) : g->tiers->index_of(g, p);
    return t;
}

/* The slot of tier ct among tier t's child tiers (TierOps.children), -1 for
 * t itself, -2 for neither. */
static int slot_of(const Game *g, int t, int ct) {
    if (ct == t) {
        return -1;
    }
    int kids[GAME_MAX_CHILD_TIERS];
    int n = g->tiers->children(g, t, kids);
    for (int k = 0; k < n; k++) {
        if (kids[k] == ct) {
            return k;
        }
    }
    return -2;
}

/* --------------------------------------------------- variants are tier */

static void variants_are_tier(void **state) {
    Game *g = test_game(*state);
    const SolverModule *tier = solver_find("tier");
    SolveResult a;
    run("tier", g, SMALL_CHUNKS, 2, NULL, &a);
    int nvariants = 0;
    for (int i = 0; solver_registry[i] != NULL; i++) {
        const SolverModule *v = solver_registry[i];
        if (v->variant_of == NULL || strcmp(v->variant_of, "tier") != 0) {
            continue;
        }
        nvariants++;
        assert_true(v->needs == tier->needs && v->loopy_ok == tier->loopy_ok &&
                    v->parallel == tier->parallel && v->distributed == tier->distributed &&
                    v->options == tier->options);
        assert_string_equal(v->window_option, tier->window_option);
        SolveResult b;
        run(v->name, g, SMALL_CHUNKS, 2, NULL, &b);
        assert_true(a.has_db && b.has_db && a.has_checksum && b.has_checksum);
        test_assert_same_db(&a.db, &b.db);
        assert_int_equal(a.checksum, b.checksum);
        assert_int_equal(a.root.value, b.root.value);
        assert_int_equal(a.root.remoteness, b.root.remoteness);
        assert_memory_equal(&a.counters, &b.counters, sizeof a.counters);
        solve_result_free(&b);
    }
    assert_true(nvariants >= 1);
    solve_result_free(&a);
    game_destroy(g);
}

/* ------------------------------------------------- the observer's view */

typedef struct Seen {
    const Game *g;
    int threads;
    int ntiers;
    uint8_t **count[2]; /* [reach, solve][tier][index]: times shown */
    uint64_t *size;     /* [tier] */
    /* the pass over a tier in progress (set between tier_begin and tier_end) */
    int open_tier;
    TierPass open_pass;
    uint64_t begins, ends;
    uint64_t wrong; /* facts found wrong (atomic) */
    int said;       /* the first wrong fact's message is written (atomic) */
    char first[512];
} Seen;

static void wrong(Seen *s, const TierObserved *v, const char *what) {
    __atomic_fetch_add(&s->wrong, 1, __ATOMIC_RELAXED);
    if (__atomic_exchange_n(&s->said, 1, __ATOMIC_ACQ_REL) == 0) {
        snprintf(s->first, sizeof s->first,
                 "pass %d tier %d index %" PRIu64 " position %" PRIu64 ": %s", (int)v->pass,
                 v->tier, v->index, v->position, what);
    }
}

static ErrCode seen_start(void *ctx, const TierObserverStart *info, Error *err) {
    (void)err;
    Seen *s = ctx;
    s->threads = info->threads;
    s->ntiers = info->graph->ntiers;
    assert_int_equal(s->ntiers, s->g->tiers->count(s->g));
    s->size = calloc((size_t)s->ntiers, sizeof *s->size);
    assert_non_null(s->size);
    for (int p = 0; p < 2; p++) {
        s->count[p] = calloc((size_t)s->ntiers, sizeof *s->count[p]);
        assert_non_null(s->count[p]);
        for (int t = 0; t < s->ntiers; t++) {
            s->size[t] = info->graph->node[t].size;
            s->count[p][t] = calloc((size_t)s->size[t] + 1, 1);
            assert_non_null(s->count[p][t]);
        }
    }
    s->open_tier = -1;
    return ERR_OK;
}

static void seen_begin(void *ctx, TierPass pass, int tier, uint64_t reached) {
    (void)reached;
    Seen *s = ctx;
    assert_int_equal(s->open_tier, -1);
    s->open_tier = tier;
    s->open_pass = pass;
    s->begins++;
}

static void seen_end(void *ctx, TierPass pass, int tier) {
    Seen *s = ctx;
    assert_int_equal(s->open_tier, tier);
    assert_int_equal((int)s->open_pass, (int)pass);
    s->open_tier = -1;
    s->ends++;
}

static void seen_position(void *ctx, const TierObserved *v) {
    Seen *s = ctx;
    const Game *g = s->g;
    if (v->thread < 0 || v->thread >= s->threads) {
        wrong(s, v, "thread out of range");
    }
    if (v->tier != s->open_tier || v->pass != s->open_pass) {
        wrong(s, v, "shown outside tier_begin/tier_end of its tier and pass");
        return;
    }
    if (v->pass == TIER_PASS_NEED || v->tier < 0 || v->tier >= s->ntiers ||
        v->index >= s->size[v->tier]) {
        wrong(s, v, "no such pass, tier or index");
        return;
    }
    uint64_t index;
    if (tier_and_index(g, v->position, &index) != v->tier || index != v->index) {
        wrong(s, v, "the position is not at its tier and index");
    }
    Position kids[GAME_MAX_MOVES];
    int n = test_children(g, v->position, kids);
    if (n != v->e->n || (n == 0) != (v->e->primitive != VALUE_UNDECIDED)) {
        wrong(s, v, "not the stateless family's expansion");
        n = 0;
    }
    for (int k = 0; k < n; k++) {
        int ct = tier_and_index(g, kids[k], &index);
        if (v->e->child[k] != kids[k] || v->child[k].tier != ct || v->child[k].index != index ||
            v->child[k].slot != slot_of(g, v->tier, ct)) {
            wrong(s, v, "a child is not where TierOps put it");
        }
    }
    __atomic_fetch_add(&s->count[v->pass == TIER_PASS_SOLVE][v->tier][v->index], 1,
                       __ATOMIC_RELAXED);
}

static void seen_free(Seen *s) {
    for (int p = 0; p < 2; p++) {
        for (int t = 0; t < s->ntiers && s->count[p] != NULL; t++) {
            free(s->count[p][t]);
        }
        free(s->count[p]);
    }
    free(s->size);
}

static void observer_sees_each_position_once(void **state) {
    Game *g = test_game(*state);
    Seen seen = {.g = g};
    TierObserver obs = {.ctx = &seen,
                        .start = seen_start,
                        .tier_begin = seen_begin,
                        .tier_end = seen_end,
                        .position = seen_position};
    const SolverModule *tier = solver_find("tier");
    SolveConfig cfg = {.threads = 2};
    Error err = {0};
    assert_int_equal(options_parse(tier->options, SMALL_CHUNKS, "tier", &cfg.options, &err),
                     ERR_OK);
    SolveResult res = {0};
    ErrCode rc = tier_solve_observed(g, &cfg, &res, &err, &obs);
    if (rc != ERR_OK) {
        fail_msg("tier_solve_observed on %s: %s", (const char *)*state, err.msg);
    }
    if (seen.wrong > 0) {
        fail_msg("%" PRIu64 " wrong facts; the first: %s", seen.wrong, seen.first);
    }
    assert_true(seen.begins > 0);
    assert_int_equal(seen.begins, seen.ends);
    Reach r;
    test_reach(g, &r);
    for (uint64_t k = 0; k < r.count; k++) {
        uint64_t i;
        int t = tier_and_index(g, r.list[k], &i);
        for (int p = 0; p < 2; p++) {
            if (seen.count[p][t][i] != 1) {
                fail_msg("reachable position %" PRIu64 " (tier %d, index %" PRIu64
                         ") shown %d times in the %s pass",
                         r.list[k], t, i, seen.count[p][t][i], p ? "backward" : "forward");
            }
            seen.count[p][t][i] = 0;
        }
    }
    for (int p = 0; p < 2; p++) {
        for (int t = 0; t < seen.ntiers; t++) {
            for (uint64_t i = 0; i < seen.size[t]; i++) {
                if (seen.count[p][t][i] != 0) {
                    fail_msg("tier %d index %" PRIu64 " shown, but not reachable", t, i);
                }
            }
        }
    }
    test_reach_free(&r);
    seen_free(&seen);
    solve_result_free(&res);
    game_destroy(g);
}

/* ------------------------------------------------- tier-probe's figures */

enum { F_POS, F_PRIM, F_C1, F_C2, F_C4, F_C8, F_C16, F_SAME, F_K0, F_K1, F_K2, F_MAX, F_N };
static const char *const figure[F_N] = {
    "probe_positions",       "probe_primitive",          "probe_children_1",
    "probe_children_2_3",    "probe_children_4_7",       "probe_children_8_15",
    "probe_children_16_up",  "probe_lookups_same_tier",  "probe_lookups_child_0",
    "probe_lookups_child_1", "probe_lookups_child_2_up", "probe_children_max",
};

static void assert_figures(const SolveResult *res, const uint64_t *want, const char *where) {
    for (int f = 0; f < F_N; f++) {
        double got = test_extra(res, figure[f]);
        if (got != (double)want[f]) {
            fail_msg("%s: %s is %.0f, the count is %" PRIu64, where, figure[f], got, want[f]);
        }
    }
}

static void probe_counts_a_search(void **state) {
    Game *g = test_game(*state);
    Reach r;
    test_reach(g, &r);
    uint64_t want[F_N] = {0};
    Position kids[GAME_MAX_MOVES];
    for (uint64_t k = 0; k < r.count; k++) {
        uint64_t i;
        int t = tier_and_index(g, r.list[k], &i);
        int n = test_children(g, r.list[k], kids);
        want[F_POS]++;
        if (n == 0) {
            want[F_PRIM]++;
            continue;
        }
        want[n == 1 ? F_C1 : n < 4 ? F_C2 : n < 8 ? F_C4 : n < 16 ? F_C8 : F_C16]++;
        want[F_MAX] = (uint64_t)n > want[F_MAX] ? (uint64_t)n : want[F_MAX];
        for (int c = 0; c < n; c++) {
            int slot = slot_of(g, t, tier_and_index(g, kids[c], &i));
            assert_true(slot >= -1);
            want[slot == -1 ? F_SAME : slot == 0 ? F_K0 : slot == 1 ? F_K1 : F_K2]++;
        }
    }
    SolveResult res;
    run("tier-probe", g, SMALL_CHUNKS, 2, NULL, &res);
    assert_figures(&res, want, *state);
    solve_result_free(&res);
    test_reach_free(&r);
    game_destroy(g);
}

/* Tic-tac-toe by hand. The legal positions by ply (pieces placed) are 1,
 * 9, 72, 252, 756, 1260, 1520, 1140, 390, 78 (5,478 in all, the published
 * count), of which 120, 148, 444, 168 and 78 (plies 5 to 9) end the game:
 * 958 terminal positions, the published count (91 + 44 + 3 = 138 up to
 * symmetry). A position of ply k that goes on has 9 - k children, all in
 * tier k + 1, the one child tier of tier k: so 222 (ply 8) have 1 child,
 * 696 + 1372 (plies 7, 6) have 2 or 3, 1140 + 756 + 252 + 72 (plies 5 to
 * 2) have 4 to 7, 9 + 1 (plies 1, 0) have 8 or 9; the look-ups are
 * 9 + 72 + 504 + 1512 + 3780 + 4560 + 4116 + 1392 + 222 = 16,167, dfs's
 * 16,168 calls less the root's (docs/adding-a-solver.md). */
static void tictactoe_by_hand(void **state) {
    (void)state;
    Game *g = test_game("tictactoe");
    const uint64_t want[F_N] = {[F_POS] = 5478, [F_PRIM] = 958, [F_C1] = 222,   [F_C2] = 2068,
                                [F_C4] = 2220,  [F_C8] = 10,    [F_K0] = 16167, [F_MAX] = 9};
    SolveResult res;
    run("tier-probe", g, "", 1, NULL, &res);
    assert_figures(&res, want, "tictactoe");
    uint64_t checksum = res.checksum;
    solve_result_free(&res);
    /* --db: the same figures; the rerun loads every tier and shows none. */
    char *dir = test_make_dir("gamesman-probe");
    run("tier-probe", g, "", 2, dir, &res);
    assert_figures(&res, want, "tictactoe --db");
    assert_int_equal(res.checksum, checksum);
    solve_result_free(&res);
    run("tier-probe", g, "", 2, dir, &res);
    assert_int_equal(res.checksum, checksum);
    assert_true(test_extra(&res, "tiers_loaded") == test_extra(&res, "tiers"));
    const uint64_t none[F_N] = {0};
    assert_figures(&res, none, "tictactoe, every tier loaded");
    solve_result_free(&res);
    test_remove_dir(dir);
    game_destroy(g);
}

int main(void) {
    size_t nspecs;
    char **specs = test_game_specs(&nspecs);
    struct CMUnitTest *tests = calloc(3 * nspecs + 2, sizeof *tests);
    assert_non_null(tests);
    size_t n = 0;
    tests[n++] = (struct CMUnitTest){.name = test_strdupf("tier-probe: tic-tac-toe by hand"),
                                     .test_func = tictactoe_by_hand};
    /* Each game's first two variants with tiers; every one with
     * TEST_HEAVY=1 (docs/testing.md: the hook is the same code for every
     * game, and test_tier checks each variant's tier database). */
    const char *module = "";
    size_t module_len = 0;
    int of_module = 0;
    for (size_t i = 0; i < nspecs; i++) {
        Game *g = test_game(specs[i]);
        bool tiers = g->tiers != NULL;
        game_destroy(g);
        if (!tiers) {
            continue;
        }
        size_t len = strcspn(specs[i], ":");
        if (len != module_len || strncmp(specs[i], module, len) != 0) {
            module = specs[i];
            module_len = len;
            of_module = 0;
        }
        if (++of_module > 2 && !test_heavy_all()) {
            continue;
        }
        tests[n++] = (struct CMUnitTest){.name = test_strdupf("variants are tier: %s", specs[i]),
                                         .test_func = variants_are_tier,
                                         .initial_state = specs[i]};
        tests[n++] = (struct CMUnitTest){.name = test_strdupf("observer: %s", specs[i]),
                                         .test_func = observer_sees_each_position_once,
                                         .initial_state = specs[i]};
        tests[n++] = (struct CMUnitTest){.name = test_strdupf("tier-probe counts: %s", specs[i]),
                                         .test_func = probe_counts_a_search,
                                         .initial_state = specs[i]};
    }
    int failed = test_run_group("tier-probe", tests, n);
    free(tests);
    test_free_specs(specs);
    return failed;
}
