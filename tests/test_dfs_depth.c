/* tests/test_dfs_depth.c: the depth-limited memo (dfs-depth:k=K).
 *
 * What it stores is checked against an independent breadth-first search
 * (test_reach's order, with plies counted here): a position solved at depth
 * d has a path of d moves from the root, so every stored position lies
 * within K plies of the root; in a layered game (every path to a position
 * has the same length, which the BFS checks edge by edge) every position
 * within K plies is stored. Each stored value matches dfs (the position-by-
 * position cross-check for the default k is in test_solvers.c; here for
 * several k).
 *
 * Tic-tac-toe figures: with k = 0 only the root is stored, so the search
 * walks the whole game tree: 549,946 calls (Weiss, Data Structures and
 * Problem Solving Using Java, p. 336, the same figure as minimax); with
 * k = 9 (every ply) it makes exactly dfs's calls; in between the calls never
 * grow as k grows.
 */
#include "tests/testutil.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Plies from the root of every reachable position (UINT32_MAX: unreached),
 * and whether the game is layered. Breadth-first over the stateless family. */
typedef struct Plies {
    uint32_t *ply;
    bool layered;
} Plies;

static void plies_compute(const Game *g, Plies *pl) {
    Reach r;
    test_reach(g, &r);
    pl->ply = malloc(g->num_positions * sizeof *pl->ply);
    assert_non_null(pl->ply);
    for (uint64_t p = 0; p < g->num_positions; p++) {
        pl->ply[p] = UINT32_MAX;
    }
    pl->layered = true;
    pl->ply[r.list[0]] = 0;
    Position children[GAME_MAX_MOVES];
    /* BFS order: a position's ply is final before its children are seen. */
    for (uint64_t i = 0; i < r.count; i++) {
        Position p = r.list[i];
        int n = test_children(g, p, children);
        for (int m = 0; m < n; m++) {
            Position c = children[m];
            if (pl->ply[c] == UINT32_MAX) {
                pl->ply[c] = pl->ply[p] + 1;
            } else if (pl->ply[c] != pl->ply[p] + 1) {
                pl->layered = false;
            }
        }
    }
    test_reach_free(&r);
}

static SolveResult solve_k(const Game *g, uint32_t k) {
    char spec[64];
    snprintf(spec, sizeof spec, "dfs-depth:k=%" PRIu32, k);
    SolveResult res;
    test_solve(spec, g, &res);
    return res;
}

/* The stored set and values of dfs-depth:k=K against the plies and dfs. */
static void check_stored(const Game *g, const Plies *pl, const SolveResult *oracle, uint32_t k) {
    SolveResult res = solve_k(g, k);
    assert_true(res.has_db);
    assert_int_equal(res.root.value, oracle->root.value);
    assert_int_equal(res.root.remoteness, oracle->root.remoteness);
    uint64_t stored = 0;
    for (Position p = 0; p < g->num_positions; p++) {
        uint32_t raw = db_peek(&res.db, p);
        bool within = pl->ply[p] <= k;
        if (db_raw_solved(&res.db, raw)) {
            stored++;
            if (!within) {
                fail_msg("k=%" PRIu32 ": position %" PRIu64 " stored but %" PRIu32 " plies deep", k,
                         p, pl->ply[p]);
            }
            uint32_t want = db_peek(&oracle->db, p);
            assert_int_equal(db_raw_value(&res.db, raw), db_raw_value(&oracle->db, want));
            assert_int_equal(db_raw_remoteness(&res.db, raw), db_raw_remoteness(&oracle->db, want));
            if (g->has_winby) {
                assert_int_equal(res.db.winby[p], oracle->db.winby[p]);
            }
        } else if (within && pl->layered) {
            fail_msg("k=%" PRIu32 ": position %" PRIu64 " at ply %" PRIu32 " was not stored", k, p,
                     pl->ply[p]);
        }
    }
    for (int i = 0; i < res.nextra; i++) {
        if (strcmp(res.extra[i].name, SOLVE_EXTRA_STORED) == 0) {
            assert_int_equal((uint64_t)res.extra[i].value, stored);
        }
    }
    solve_result_free(&res);
}

/* Every test variant dfs solves, at the two deepest limits below the game's
 * depth and at the full depth (a shallow k on a large game would walk a
 * huge tree). */
static void stored_set_follows_the_plies(void **state) {
    const char *spec = *state;
    Game *g = test_game(spec);
    if (g->max_depth == 0 || g->loopy) {
        game_destroy(g);
        skip();
    }
    Plies pl;
    plies_compute(g, &pl);
    SolveResult oracle;
    test_solve("dfs", g, &oracle);
    uint32_t d = g->max_depth;
    uint32_t ks[] = {d > 3 ? d - 3 : 0, d > 1 ? d - 1 : 0, d};
    for (int i = 0; i < 3; i++) {
        check_stored(g, &pl, &oracle, ks[i]);
    }
    solve_result_free(&oracle);
    free(pl.ply);
    game_destroy(g);
}

static void tictactoe_every_k(void **state) {
    (void)state;
    Game *g = test_game("tictactoe");
    Plies pl;
    plies_compute(g, &pl);
    assert_true(pl.layered); /* a ply places one piece */
    SolveResult oracle;
    test_solve("dfs", g, &oracle);
    uint64_t previous_calls = UINT64_MAX;
    for (uint32_t k = 0; k <= 9; k++) {
        check_stored(g, &pl, &oracle, k);
#if STATS
        SolveResult res = solve_k(g, k);
        if (k == 0) {
            assert_int_equal(res.counters.calls, 549946);
        }
        if (k == 9) {
            assert_int_equal(res.counters.calls, oracle.counters.calls);
        }
        assert_true(res.counters.calls <= previous_calls);
        previous_calls = res.counters.calls;
        solve_result_free(&res);
#endif
    }
    solve_result_free(&oracle);
    free(pl.ply);
    game_destroy(g);
}

/* skip_export (benchmarks) leaves no database but the same root and count. */
static void skip_export_keeps_root_and_count(void **state) {
    (void)state;
    Game *g = test_game("tictactoe");
    const SolverModule *s = NULL;
    SolveConfig cfg = {0};
    Error err = {0};
    assert_int_equal(solver_lookup("dfs-depth:k=4", &s, &cfg, &err), ERR_OK);
    SolveResult full, bare;
    assert_int_equal(solver_run(s, g, &cfg, &full, &err), ERR_OK);
    cfg.skip_export = true;
    assert_int_equal(solver_run(s, g, &cfg, &bare, &err), ERR_OK);
    assert_true(full.has_db);
    assert_false(bare.has_db);
    assert_int_equal(bare.root.value, full.root.value);
    assert_int_equal(bare.root.remoteness, full.root.remoteness);
    /* Plies 0..4 of tic-tac-toe: 1 + 9 + 72 + 252 + 756 boards (the BFS
     * above checks the same sets; these are the OEIS A008907 terms). */
    assert_string_equal(bare.extra[0].name, SOLVE_EXTRA_STORED);
    assert_int_equal((uint64_t)bare.extra[0].value, 1 + 9 + 72 + 252 + 756);
    solve_result_free(&full);
    solve_result_free(&bare);
    game_destroy(g);
}

int main(void) {
    size_t nspecs;
    char **specs = test_game_specs(&nspecs);
    struct CMUnitTest *tests = calloc(nspecs + 2, sizeof *tests);
    assert_non_null(tests);
    size_t n = 0;
    for (size_t i = 0; i < nspecs; i++) {
        Game *g = test_game(specs[i]);
        if (solver_supports(solver_find("dfs-depth"), g, NULL, 0)) {
            tests[n++] = (struct CMUnitTest){
                .name = test_strdupf("dfs-depth stores what it should on %s", specs[i]),
                .test_func = stored_set_follows_the_plies,
                .initial_state = specs[i],
            };
        }
        game_destroy(g);
    }
    tests[n++] = (struct CMUnitTest){.name = test_strdupf("dfs-depth tictactoe k=0..9"),
                                     .test_func = tictactoe_every_k};
    tests[n++] = (struct CMUnitTest){.name = test_strdupf("dfs-depth skip_export"),
                                     .test_func = skip_export_keeps_root_and_count};
    int failed = test_run_group("dfs-depth", tests, n);
    free(tests);
    test_free_specs(specs);
    return failed;
}
