/* tests/test_known_connect4.c: published figures for Connect Four.
 *
 * Source: John Tromp's table of Connect Four results and position counts
 * ("John's Connect Four Playground", tromp.github.io/c4/c4.html: the game
 * values by width and height, and the numbers of positions of small
 * boards):
 *   - positions reachable in play (the game stopping at the first four in
 *     a row): 4x4 161,029; 5x4 3,945,711; 4x5 1,706,255 (width x height);
 *   - values with perfect play: 4x4, 5x4 and 4x5 are draws (a tie in our
 *     values: the board fills up without a winner).
 * The counts are checked twice, independently: by this suite's BFS over
 * the stateless family (tests/testutil.h test_reach), and by the solvers'
 * databases; the value by every DFS solver and by tier (on both branches
 * of its Connect Four fast path). 5x4 and 4x5 are heavy.
 *
 * Hand-checked positions (the reasoning is in the comments below) cover a
 * win in 1, a loss in 2 against a double threat, and misere play.
 */
#include "tests/testutil.h"

#include <stdlib.h>
#include <string.h>

static void expect_reachable(const char *spec, uint64_t expect) {
    Game *g = test_game(spec);
    Reach r;
    test_reach(g, &r);
    assert_int_equal(r.count, expect);
    test_reach_free(&r);
    game_destroy(g);
}

static void reachable_4x4_by_bfs(void **state) {
    (void)state;
    expect_reachable("connect4:w=4,h=4", 161029);
}

static void reachable_5x4_4x5_by_bfs(void **state) {
    (void)state;
    if (!test_heavy_enabled()) {
        skip();
    }
    expect_reachable("connect4:w=5,h=4", 3945711);
    expect_reachable("connect4:w=4,h=5", 1706255);
}

/* parse() refuses boards that cannot arise in play, so of the 201,755
 * slots of the 4x4 hash (every board with gravity and alternating piece
 * counts) it must accept exactly the 161,029 legal positions: the reached
 * ones, an independent check of the parser's legality test. */
static void parse_accepts_the_legal_boards(void **state) {
    (void)state;
    Game *g = test_game("connect4:w=4,h=4");
    Reach r;
    test_reach(g, &r);
    uint64_t accepted = 0;
    char text[256];
    for (Position p = 0; p < g->num_positions; p++) {
        g->ops->format(g, p, text, sizeof text);
        Position q;
        Error err = {0};
        bool ok = g->ops->parse(g, text, &q, &err) == ERR_OK;
        if (ok != (r.seen[p] != 0)) {
            fail_msg("parse %s '%s' (%s)",
                     ok ? "accepted the unreachable" : "refused the reachable", text, err.msg);
        }
        if (ok) {
            assert_int_equal(q, p);
            accepted++;
        }
    }
    assert_int_equal(accepted, 161029);
    test_reach_free(&r);
    game_destroy(g);
}

/* Solves spec with each solver: a tie, `positions` positions, and the same
 * database from every solver. env (NULL: none) is set while the game is
 * created: GAMESMAN_C4_NO_PDEP forces the tier fast path's portable branch
 * (games/connect4.c). */
static void expect_tie(const char *spec, const char *env, uint64_t positions,
                       const char *const *solvers, int n) {
    if (env != NULL) {
        assert_int_equal(setenv(env, "1", 1), 0);
    }
    Game *g = test_game(spec);
    if (env != NULL) {
        assert_int_equal(unsetenv(env), 0);
    }
    SolveResult first = {0};
    for (int i = 0; i < n; i++) {
        SolveResult res;
        test_solve(solvers[i], g, &res);
        if (res.root.value != VALUE_TIE || res.root.remoteness != g->max_depth) {
            fail_msg("%s by %s%s%s: %s in %d, not a tie in %d (the board fills)", spec, solvers[i],
                     env != NULL ? " with " : "", env != NULL ? env : "",
                     value_name(res.root.value), res.root.remoteness, g->max_depth);
        }
        DbSummary s;
        Error err = {0};
        assert_int_equal(db_summarize(&res.db, false, &s, &err), ERR_OK);
        assert_int_equal(s.positions, positions);
        assert_int_equal(s.undecided, 0);
        if (i == 0) {
            first = res;
            continue;
        }
        test_assert_same_db(&first.db, &res.db);
        solve_result_free(&res);
    }
    solve_result_free(&first);
    game_destroy(g);
}

/* tier on both branches of its fast path (pdep, where the processor has
 * it, and the portable loop), on every host. */
static void tie_4x4_every_solver(void **state) {
    (void)state;
    static const char *const solvers[] = {"dfs", "gps", "gps-cached", "tier"};
    expect_tie("connect4:w=4,h=4", NULL, 161029, solvers, 4);
    expect_tie("connect4:w=4,h=4", "GAMESMAN_C4_NO_PDEP", 161029, solvers + 2, 2);
}

static void tie_5x4_4x5(void **state) {
    (void)state;
    if (!test_heavy_enabled()) {
        skip();
    }
    static const char *const solvers[] = {"gps-cached"};
    expect_tie("connect4:w=5,h=4", NULL, 3945711, solvers, 1);
    expect_tie("connect4:w=4,h=5", NULL, 1706255, solvers, 1);
}

static Outcome outcome_of(const char *spec, const char *text) {
    Game *g = test_game(spec);
    SolveResult res;
    test_solve("dfs", g, &res);
    Position p;
    Error err = {0};
    if (g->ops->parse(g, text, &p, &err) != ERR_OK) {
        fail_msg("%s: %s", spec, err.msg);
    }
    uint32_t raw = db_peek(&res.db, game_canonical(g, p));
    Outcome o = {db_raw_value(&res.db, raw), db_raw_remoteness(&res.db, raw)};
    solve_result_free(&res);
    game_destroy(g);
    return o;
}

/* Hand-checked positions (text: rows from the top, '/' between rows).
 *  - 4x4, x to move with three x stacked in column 1: dropping the fourth
 *    wins at once: win in 1.
 *  - 5x2, k=4, o to move on -oo--/-xxx-: x threatens both ends of the
 *    bottom row (columns 1 and 5); o can block one, x completes the other:
 *    o loses in 2 (o has two pieces, no line of its own).
 *  - 3x1, k=2 (a row of three cells, two adjacent of one colour make a
 *    line): x in the middle wins in 3 (o takes an end, x the other end,
 *    next to the middle); an end move only ties (o answers in the middle).
 *    Misere (making the line loses): x in the middle must later fill a
 *    cell next to it and lose; x at an end is answered at the other end,
 *    and x must fill the middle: x loses in 3 either way. */
static void hand_checked_positions(void **state) {
    (void)state;
    Outcome o = outcome_of("connect4:w=4,h=4", "----/x---/xo--/xoo-");
    assert_int_equal(o.value, VALUE_WIN);
    assert_int_equal(o.remoteness, 1);
    o = outcome_of("connect4:w=4,h=4,sym", "----/---x/--ox/-oox");
    assert_int_equal(o.value, VALUE_WIN);
    assert_int_equal(o.remoteness, 1);
    o = outcome_of("connect4:w=5,h=2,k=4", "-oo--/-xxx-");
    assert_int_equal(o.value, VALUE_LOSE);
    assert_int_equal(o.remoteness, 2);
    o = outcome_of("connect4:w=3,h=1,k=2", "---");
    assert_int_equal(o.value, VALUE_WIN);
    assert_int_equal(o.remoteness, 3);
    o = outcome_of("connect4:w=3,h=1,k=2", "x--");
    assert_int_equal(o.value, VALUE_TIE); /* o to move after x's end move */
    o = outcome_of("connect4:w=3,h=1,k=2,misere", "---");
    assert_int_equal(o.value, VALUE_LOSE);
    assert_int_equal(o.remoteness, 3);
}

/* Malformed and illegal texts, each refused with its reason. */
static void parse_refuses_illegal_boards(void **state) {
    (void)state;
    Game *g = test_game("connect4:w=4,h=4");
    static const struct {
        const char *text, *reason;
    } cases[] = {
        {"----/----/----", "4 rows of 4 cells"},
        {"----/----/----/-----", "4 rows of 4 cells"},
        {"----|----|----|----", "separate its rows"},
        {"----/----/----/-z--", "is not x, o or -"},
        {"----/----/x---/----", "floats"},
        {"----/----/----/xx--", "x must have as many as o"},
        {"----/----/----/o---", "x must have as many as o"},
        {"----/----/----/xxxx", "x must have as many as o"},
        {"o---/o---/ox--/oxxxx", "4 rows of 4 cells"},
        {"ox--/ox--/ox--/ox--", "both players"},
        {"o---/ox--/ox--/oxxx", "o has 4 in a row but x moved last"},
        /* x's line lies under other pieces: no last drop can have made it. */
        {"----/o---/ooxo/xxxx", "cannot arise in play"},
        /* A single column can only alternate from x at the bottom. */
        {"----/----/o---/x---", NULL},
        {"----/----/x---/o---", "cannot arise in play"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Position p;
        Error err = {0};
        ErrCode rc = g->ops->parse(g, cases[i].text, &p, &err);
        if (cases[i].reason == NULL) {
            assert_int_equal(rc, ERR_OK);
            continue;
        }
        if (rc != ERR_USAGE || strstr(err.msg, cases[i].reason) == NULL) {
            fail_msg("'%s': expected a refusal with '%s', got %d '%s'", cases[i].text,
                     cases[i].reason, rc, err.msg);
        }
    }
    game_destroy(g);
}

static void variant_refusals(void **state) {
    (void)state;
    static const struct {
        const char *spec, *reason;
    } cases[] = {
        {"connect4:w=0", "w"},
        {"connect4:w=17", "w"},
        {"connect4:h=17", "h"},
        {"connect4:k=0", "k"},
        {"connect4:w=3,h=3,k=4", "larger than both"},
        {"connect4:w=8,h=8", "2^63"},
        {"connect4:w=16,h=4", "2^63"},
        {"connect4:bogus", "unknown option"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Game *g = NULL;
        Error err = {0};
        ErrCode rc = game_create(cases[i].spec, &g, &err);
        if (rc != ERR_USAGE || strstr(err.msg, cases[i].reason) == NULL) {
            fail_msg("%s: expected a refusal with '%s', got %d '%s'", cases[i].spec,
                     cases[i].reason, rc, err.msg);
        }
    }
    /* The largest boards that fit, and the default. */
    game_destroy(test_game("connect4:w=16,h=3"));
    game_destroy(test_game("connect4:w=9,h=6"));
    game_destroy(test_game("connect4"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reachable_4x4_by_bfs),
        cmocka_unit_test(reachable_5x4_4x5_by_bfs),
        cmocka_unit_test(parse_accepts_the_legal_boards),
        cmocka_unit_test(tie_4x4_every_solver),
        cmocka_unit_test(tie_5x4_4x5),
        cmocka_unit_test(hand_checked_positions),
        cmocka_unit_test(parse_refuses_illegal_boards),
        cmocka_unit_test(variant_refusals),
    };
    return cmocka_run_group_tests_name("known figures: connect four", tests, NULL, NULL);
}
