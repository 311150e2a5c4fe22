/* tests/test_sweep.c: the sweep solver beyond the default cross-check.
 *
 *   - every option combination (down, recheck) matches dfs record for record
 *     on every game variant dfs solves (the records must be byte-identical:
 *     same reached set, values, remoteness, WinBy);
 *   - the statistics add up: the `sweeps` counter equals the sweeps in
 *     solver_stats, the primitive checks equal the `primitive` counter, and
 *     on tic-tac-toe, whose moves only ever raise the base-3 hash (a move
 *     adds a digit), one marking sweep reaches everything, asking primitive
 *     of each of the 5,478 positions once; one downward value sweep then
 *     solves everything (children before parents); upward, a position is
 *     solved at the earliest one sweep after its last deciding child, so
 *     the root (a tie in 9, which needs every child) takes at least 9;
 *   - loopy games: random graphs with cycles, win/lose/tie primitives,
 *     against an independent retrograde oracle written here (parent lists
 *     and child counters, a FIFO by remoteness, then ties, then draws).
 */
#include "tests/testgraph.h"
#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ErrCode run_sweep(const Game *g, const char *opts, SolveResult *res, Error *err) {
    const SolverModule *s = solver_find("sweep");
    assert_non_null(s);
    SolveConfig cfg = {0};
    assert_int_equal(options_parse(s->options, opts, "sweep", &cfg.options, err), ERR_OK);
    return solver_run(s, g, &cfg, res, err);
}

static void sweep_ok(const Game *g, const char *opts, SolveResult *res) {
    Error err = {0};
    if (run_sweep(g, opts, res, &err) != ERR_OK) {
        fail_msg("sweep:%s on %s:%s: %s", opts, g->module->name, g->variant, err.msg);
    }
}

static const char *const option_sets[] = {"down", "recheck", "down,recheck"};

static void options_match_dfs(void **state) {
    Game *g = test_game(*state);
    SolveResult oracle;
    test_solve("dfs", g, &oracle);
    const Database *a = &oracle.db;
    for (size_t i = 0; i < sizeof option_sets / sizeof option_sets[0]; i++) {
        SolveResult res;
        sweep_ok(g, option_sets[i], &res);
        test_assert_same_db(a, &res.db);
        assert_int_equal(res.root.value, oracle.root.value);
        assert_int_equal(res.root.remoteness, oracle.root.remoteness);
        /* The statistics add up. */
        double sweeps = test_extra(&res, "sweeps");
        assert_true(sweeps >= 1);
        assert_int_equal(sweeps, test_extra(&res, "marking_sweeps") +
                                     test_extra(&res, "value_sweeps") +
                                     test_extra(&res, "tie_sweeps"));
#if STATS
        assert_int_equal(res.counters.sweeps, sweeps);
        assert_int_equal(res.counters.primitive, test_extra(&res, "primitive_checks"));
#endif
        solve_result_free(&res);
    }
    solve_result_free(&oracle);
    game_destroy(g);
}

static void tictactoe_sweep_counts(void **state) {
    (void)state;
    Game *g = test_game("tictactoe");
    SolveResult up, down, recheck;
    sweep_ok(g, NULL, &up);
    sweep_ok(g, "down", &down);
    sweep_ok(g, "recheck", &recheck);
    /* 5,478 reachable positions (test_known cites the sources). */
    for (int i = 0; i < 2; i++) {
        const SolveResult *r = i == 0 ? &up : &down;
        assert_int_equal(test_extra(r, "marking_sweeps"), 1);
        assert_int_equal(test_extra(r, "primitive_checks"), 5478);
        assert_int_equal(test_extra(r, "sweep1_primitive_checks"), 5478);
        assert_int_equal(test_extra(r, "sweep2_primitive_checks"), 0);
    }
    assert_int_equal(test_extra(&down, "value_sweeps"), 1);
    assert_true(test_extra(&up, "value_sweeps") >= 9);
    /* The minutes' loop: the marking sweep stores nothing, so the first
     * value sweep asks all 5,478 positions again, and later sweeps ask the
     * ones still unsolved. */
    assert_int_equal(test_extra(&recheck, "sweep1_primitive_checks"), 5478);
    assert_int_equal(test_extra(&recheck, "sweep2_primitive_checks"), 5478);
    assert_true(test_extra(&recheck, "primitive_checks") > 2 * 5478);
    solve_result_free(&up);
    solve_result_free(&down);
    solve_result_free(&recheck);
    game_destroy(g);
}

/* ------------------------------------------------ random loopy graphs */

/* Random directed graphs (tests/testgraph.h): node v is primitive with
 * value prim[v], or has 1..GRAPH_MAX_DEG moves. Cycles are frequent;
 * several moves may reach the same child. */
enum { GRAPH_MAX_DEG = 4 };

/* Each node: primitive with probability prim_pct% (win, lose or tie, the
 * tie with probability tie_pct% of those), else 1..4 random children, most
 * of them near the node (long cycles and short ones). */
static TestGraph *make_graph(int n, uint64_t seed, int prim_pct, int tie_pct) {
    Value *prim = calloc((size_t)n, sizeof *prim);
    int *edges = malloc((size_t)n * GRAPH_MAX_DEG * 2 * sizeof *edges);
    assert_true(prim && edges);
    int ne = 0;
    for (int v = 0; v < n; v++) {
        if (v > 0 && (int)(test_rng(&seed) % 100) < prim_pct) {
            int kind = (int)(test_rng(&seed) % 100);
            prim[v] = kind < tie_pct ? VALUE_TIE : kind % 2 ? VALUE_WIN : VALUE_LOSE;
            continue;
        }
        prim[v] = VALUE_UNDECIDED;
        int deg = 1 + (int)(test_rng(&seed) % GRAPH_MAX_DEG);
        for (int m = 0; m < deg; m++) {
            int64_t c = test_rng(&seed) % 3 == 0 ? (int64_t)(test_rng(&seed) % (uint64_t)n)
                                                 : v + (int64_t)(test_rng(&seed) % 21) - 10;
            edges[2 * ne] = v;
            edges[2 * ne + 1] = (int)((c % n + n) % n);
            ne++;
        }
    }
    TestGraph *gr = test_graph_new(n, edges, ne);
    for (int v = 0; v < n; v++) {
        gr->prim[v] = prim[v];
    }
    free(prim);
    free(edges);
    return gr;
}

/* The oracle: retrograde analysis by parent lists. Returns outcomes for
 * every node; unreached nodes get VALUE_UNDECIDED. */
static Outcome *retrograde(const TestGraph *gr) {
    int n = gr->n;
    Outcome *out = calloc((size_t)n, sizeof *out);
    bool *reached = calloc((size_t)n, 1);
    int *queue = malloc((size_t)n * sizeof *queue);
    int *left = calloc((size_t)n, sizeof *left);
    int *np = calloc((size_t)n, sizeof *np);
    int(*parents)[GRAPH_MAX_DEG * 64] = calloc((size_t)n, sizeof *parents);
    assert_true(out && reached && queue && left && np && parents);
    /* Reachable nodes (BFS) and their edges reversed, with multiplicity. */
    int head = 0, tail = 0;
    queue[tail++] = 0;
    reached[0] = true;
    while (head < tail) {
        int v = queue[head++];
        for (int k = gr->first[v]; k < gr->first[v + 1]; k++) {
            int c = gr->kids[k];
            assert_true(np[c] < GRAPH_MAX_DEG * 64);
            parents[c][np[c]++] = v;
            left[v]++;
            if (!reached[c]) {
                reached[c] = true;
                queue[tail++] = c;
            }
        }
    }
    /* Wins and losses, a FIFO in nondecreasing remoteness. */
    head = tail = 0;
    for (int v = 0; v < n; v++) {
        if (reached[v] && (gr->prim[v] == VALUE_WIN || gr->prim[v] == VALUE_LOSE)) {
            out[v] = (Outcome){gr->prim[v], 0};
            queue[tail++] = v;
        }
    }
    while (head < tail) {
        int c = queue[head++];
        for (int k = 0; k < np[c]; k++) {
            int p = parents[c][k];
            if (out[p].value != VALUE_UNDECIDED || gr->prim[p] != VALUE_UNDECIDED) {
                continue;
            }
            if (out[c].value == VALUE_LOSE) {
                out[p] = (Outcome){VALUE_WIN, out[c].remoteness + 1};
                queue[tail++] = p;
            } else if (--left[p] == 0) {
                out[p] = (Outcome){VALUE_LOSE, out[c].remoteness + 1};
                queue[tail++] = p;
            }
        }
    }
    /* Ties from the tie primitives, then draws. */
    head = tail = 0;
    for (int v = 0; v < n; v++) {
        if (reached[v] && gr->prim[v] == VALUE_TIE) {
            out[v] = (Outcome){VALUE_TIE, 0};
            queue[tail++] = v;
        }
    }
    while (head < tail) {
        int c = queue[head++];
        for (int k = 0; k < np[c]; k++) {
            int p = parents[c][k];
            if (out[p].value == VALUE_UNDECIDED && gr->prim[p] == VALUE_UNDECIDED) {
                out[p] = (Outcome){VALUE_TIE, out[c].remoteness + 1};
                queue[tail++] = p;
            }
        }
    }
    for (int v = 0; v < n; v++) {
        if (reached[v] && out[v].value == VALUE_UNDECIDED) {
            out[v] = (Outcome){VALUE_DRAW, 0};
        }
    }
    free(reached);
    free(queue);
    free(left);
    free(np);
    free(parents);
    return out;
}

static void loopy_graphs_match_retrograde(void **state) {
    (void)state;
    static const struct {
        int n, prim_pct, tie_pct;
    } shapes[] = {{300, 10, 0}, {2000, 8, 30}, {2000, 3, 50}, {5000, 15, 10}};
    static const char *const opts[] = {"", "down", "recheck", "down,recheck"};
    uint64_t counts[VALUE_COUNT] = {0};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        for (uint64_t seed = 1; seed <= 6; seed++) {
            TestGraph *gr = make_graph(shapes[s].n, seed * 0x9E3779B97F4A7C15ull + s,
                                       shapes[s].prim_pct, shapes[s].tie_pct);
            Game g = test_graph_game(gr, 0, true, false);
            Outcome *want = retrograde(gr);
            for (size_t o = 0; o < sizeof opts / sizeof opts[0]; o++) {
                SolveResult res;
                sweep_ok(&g, opts[o], &res);
                for (int v = 0; v < gr->n; v++) {
                    uint32_t raw = db_peek(&res.db, (Position)v);
                    Value got = db_raw_value(&res.db, raw);
                    uint32_t r = db_raw_remoteness(&res.db, raw);
                    if (got != want[v].value || r != want[v].remoteness) {
                        fail_msg("graph %zu seed %llu sweep:%s node %d: %s %u, oracle %s %u", s,
                                 (unsigned long long)seed, opts[o], v, value_name(got), r,
                                 value_name(want[v].value), want[v].remoteness);
                    }
                    if (o == 0) {
                        counts[want[v].value]++;
                    }
                }
                solve_result_free(&res);
            }
            free(want);
            test_graph_free(gr);
        }
    }
    /* The graphs exercise every value, draws and ties included. */
    for (int v = VALUE_WIN; v <= VALUE_DRAW; v++) {
        assert_true(counts[v] > 100);
    }
}

int main(void) {
    size_t nspecs;
    char **specs = test_game_specs(&nspecs);
    struct CMUnitTest *tests = calloc(nspecs + 4, sizeof *tests);
    assert_non_null(tests);
    size_t n = 0;
    for (size_t i = 0; i < nspecs; i++) {
        Game *g = test_game(specs[i]);
        if (solver_supports(solver_find("dfs"), g, NULL, 0)) {
            tests[n++] = (struct CMUnitTest){
                .name = test_strdupf("sweep options match dfs on %s", specs[i]),
                .test_func = options_match_dfs,
                .initial_state = specs[i],
            };
        }
        game_destroy(g);
    }
    tests[n++] = (struct CMUnitTest){.name = test_strdupf("tic-tac-toe sweep counts"),
                                     .test_func = tictactoe_sweep_counts};
    tests[n++] = (struct CMUnitTest){.name = test_strdupf("loopy graphs match retrograde"),
                                     .test_func = loopy_graphs_match_retrograde};
    int failed = test_run_group("sweep", tests, n);
    free(tests);
    test_free_specs(specs);
    return failed;
}
