/* tests/test_solvers.c: every solver against the dfs oracle.
 *
 * For every registered game variant (test_variants) and every registered
 * solver that supports it, the solver's database must match the stateless
 * DFS position by position: the same reached positions, values, remoteness
 * and WinBy scores, and the same outcome at the root. Root-only solvers
 * (minimax) must match the root; a tree too large for them within the call
 * limit is skipped and reported as skipped. Loopy games, which dfs refuses,
 * use `retro` as the oracle instead (draws included), so every solver for
 * loopy games (retro-unmove, sweep, ...) agrees with it and with each other.
 *
 * The counters must tell the GPS story: GPS solvers unhash at most once
 * (the initial set), dfs unhashes in every primitive, generate_moves and
 * do_move call. DFS-family solvers make one call per edge plus the root.
 */
#include "tests/testutil.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Case {
    const char *spec;
    const SolverModule *solver;
    const char *oracle; /* dfs, or retro for loopy games */
} Case;

/* With `partial`, b may leave reached positions unsolved: only the positions
 * b solved are compared. */
static void compare_databases(const Game *g, const SolveResult *oracle, const SolveResult *res,
                              const char *name, const char *oracle_name, bool partial) {
    const Database *a = &oracle->db, *b = &res->db;
    assert_int_equal(a->size, b->size);
    uint64_t mismatches = 0;
    for (Position p = 0; p < a->size; p++) {
        uint32_t ra = db_peek(a, p), rb = db_peek(b, p);
        bool sa = db_raw_solved(a, ra), sb = db_raw_solved(b, rb);
        bool same = sa == sb || (partial && !sb);
        if (same && sb) {
            same = db_raw_value(a, ra) == db_raw_value(b, rb) &&
                   db_raw_remoteness(a, ra) == db_raw_remoteness(b, rb);
            if (same && g->has_winby) {
                same = a->winby[p] == b->winby[p];
            }
        }
        if (!same && mismatches++ < 5) {
            char text[256];
            g->ops->format(g, p, text, sizeof text);
            print_error("%s vs %s at %" PRIu64 " (%s): %s %s %u winby %d vs %s %s %u winby %d\n",
                        name, oracle_name, p, text, sa ? "solved" : "unsolved",
                        value_name(db_raw_value(a, ra)), db_raw_remoteness(a, ra),
                        a->winby ? a->winby[p] : 0, sb ? "solved" : "unsolved",
                        value_name(db_raw_value(b, rb)), db_raw_remoteness(b, rb),
                        b->winby ? b->winby[p] : 0);
        }
    }
    if (mismatches > 0) {
        fail_msg("%s disagrees with %s at %" PRIu64 " positions", name, oracle_name, mismatches);
    }
}

static void agrees_with_oracle(void **state) {
    const Case *c = *state;
    Game *g = test_game(c->spec);
    SolveResult oracle, res;
    test_solve(c->oracle, g, &oracle);
    SolveConfig cfg = {0};
    Error err = {0};
    assert_int_equal(options_parse(c->solver->options, NULL, c->solver->name, &cfg.options, &err),
                     ERR_OK);
    if (strcmp(c->solver->name, "minimax") == 0) {
        /* A bounded tree for the sanitizer build too. */
        assert_int_equal(
            options_parse(c->solver->options, "limit=2000000", "minimax", &cfg.options, &err),
            ERR_OK);
    }
    ErrCode rc = solver_run(c->solver, g, &cfg, &res, &err);
    if (rc == ERR_LIMIT && c->solver->root_only) {
        solve_result_free(&oracle);
        game_destroy(g);
        skip();
    }
    if (rc != ERR_OK) {
        fail_msg("%s on %s: %s", c->solver->name, c->spec, err.msg);
    }
    assert_int_equal(res.root.value, oracle.root.value);
    assert_int_equal(res.no_remoteness, c->solver->values_only); /* values only: no remoteness */
    if (!res.no_remoteness) {
        assert_int_equal(res.root.remoteness, oracle.root.remoteness);
    }
    assert_int_equal(res.has_winby, oracle.has_winby);
    if (g->has_winby) {
        assert_int_equal(res.root_winby, oracle.root_winby);
    }
    assert_int_equal(res.has_db, !c->solver->root_only);
    if (res.has_db) {
        compare_databases(g, &oracle, &res, c->solver->name, c->oracle, c->solver->partial_db);
        Position root = game_canonical(g, g->initial);
        assert_true(db_raw_solved(&res.db, db_peek(&res.db, root)));
    }
    solve_result_free(&res);
    solve_result_free(&oracle);
    game_destroy(g);
}

/* Positions solved by a database (reached and given a value). */
static uint64_t solved_positions(const Database *db) {
    uint64_t n = 0;
    for (Position p = 0; p < db->size; p++) {
        n += db_raw_solved(db, db_peek(db, p));
    }
    return n;
}

static void counters_tell_the_gps_story(void **state) {
#if STATS
    const char *spec = *state;
    Game *g = test_game(spec);
    SolveResult dfs;
    test_solve("dfs", g, &dfs);
    const Counters *d = &dfs.counters;
    uint64_t positions = solved_positions(&dfs.db);
    /* One primitive per solved position, one call per edge plus the root. */
    assert_int_equal(d->primitive, positions);
    assert_int_equal(d->calls, d->edges + 1);
    assert_int_equal(d->do_move, d->edges);
    /* Every stateless call decodes its position. */
    assert_true(d->unhash >= d->primitive + d->generate_moves + d->do_move);
    assert_true(d->unhash >= 2 * positions);
    static const char *const gps_solvers[] = {"gps", "gps-cached"};
    for (int i = 0; i < 2; i++) {
        const SolverModule *s = solver_find(gps_solvers[i]);
        if (s == NULL || !solver_supports(s, g, NULL, 0)) {
            continue;
        }
        SolveResult res;
        test_solve(gps_solvers[i], g, &res);
        const Counters *c = &res.counters;
        assert_true(c->unhash <= 1);
        assert_int_equal(c->primitive, positions);
        assert_int_equal(c->calls, d->calls);
        assert_int_equal(c->edges, d->edges);
        assert_int_equal(c->undo_move, c->do_move);
        assert_true(d->unhash > 2 * c->unhash);
        solve_result_free(&res);
    }
    solve_result_free(&dfs);
    game_destroy(g);
#else
    (void)state;
    skip();
#endif
}

/* The SolverModule flags bin/solve reads instead of solver names: a
 * window_option names a boolean option of its solver (else bin/solve would
 * never see it on); tier is distributed (bin/solve-mpi runs it on N ranks)
 * with "window", and a solver that keeps no database or only some of it is
 * not distributed (bin/solve-mpi's ranks share a database). */
static void solver_flags(void **state) {
    (void)state;
    for (int i = 0; solver_registry[i] != NULL; i++) {
        const SolverModule *s = solver_registry[i];
        if (s->window_option != NULL) {
            const OptionSpec *o = s->options;
            while (o != NULL && o->name != NULL && strcmp(o->name, s->window_option) != 0) {
                o++;
            }
            if (o == NULL || o->name == NULL || o->type != OPT_BOOL) {
                fail_msg("%s: window_option '%s' is not one of its boolean options", s->name,
                         s->window_option);
            }
        }
        if (s->distributed && (s->root_only || s->partial_db)) {
            fail_msg("%s: distributed, but keeps no whole database", s->name);
        }
    }
    const SolverModule *tier = solver_find("tier");
    assert_non_null(tier);
    assert_true(tier->distributed);
    assert_string_equal(tier->window_option, "window");
    assert_false(solver_find("dfs")->distributed);
}

int main(void) {
    size_t nspecs, nsolvers = 0;
    char **specs = test_game_specs(&nspecs);
    while (solver_registry[nsolvers] != NULL) {
        nsolvers++;
    }
    struct CMUnitTest *tests = calloc(nspecs * (nsolvers + 1) + 1, sizeof *tests);
    Case *cases = calloc(nspecs * nsolvers, sizeof *cases);
    assert_non_null(tests);
    assert_non_null(cases);
    size_t n = 0, nc = 0;
    tests[n++] =
        (struct CMUnitTest){.name = test_strdupf("solver flags"), .test_func = solver_flags};
    for (size_t i = 0; i < nspecs; i++) {
        Game *g = test_game(specs[i]);
        bool dfs_ok = solver_supports(solver_find("dfs"), g, NULL, 0);
        const char *oracle = dfs_ok ? "dfs" : g->loopy ? "retro" : NULL;
        for (size_t k = 0; k < nsolvers && oracle != NULL; k++) {
            const SolverModule *s = solver_registry[k];
            if (strcmp(s->name, oracle) == 0 || !solver_supports(s, g, NULL, 0)) {
                continue;
            }
            cases[nc] = (Case){.spec = specs[i], .solver = s, .oracle = oracle};
            tests[n++] = (struct CMUnitTest){
                .name = test_strdupf("%s agrees with %s on %s", s->name, oracle, specs[i]),
                .test_func = agrees_with_oracle,
                .initial_state = &cases[nc++],
            };
        }
        if (dfs_ok) {
            tests[n++] = (struct CMUnitTest){
                .name = test_strdupf("counters %s", specs[i]),
                .test_func = counters_tell_the_gps_story,
                .initial_state = specs[i],
            };
        }
        game_destroy(g);
    }
    int failed = test_run_group("solvers", tests, n);
    free(tests);
    free(cases);
    test_free_specs(specs);
    return failed;
}
