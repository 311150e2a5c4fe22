/* tests/test_known_quarto.c: Quarto figures counted by hand, and refusals.
 *
 * No published value exists for the reduced boards (full Quarto, 4x4 with
 * 16 pieces, is a tie with perfect play: Luc Goossens, 1998, far beyond one
 * machine's memory with a dense database). The figures below are worked out
 * by hand in the comments; the three DFS solvers are checked against each
 * other position by position on every test variant by test_solvers.
 *
 * On a 2x2 board every pair of cells is a line (2 rows, 2 columns, 2
 * diagonals), so the second piece placed completes a line with the first.
 */
#include "tests/testutil.h"

#include <string.h>

static void solve_all(const char *spec, Value value, uint32_t remoteness, uint64_t positions) {
    static const char *const solvers[] = {"dfs", "gps", "gps-cached"};
    Game *g = test_game(spec);
    for (int s = 0; s < 3; s++) {
        SolveResult res;
        test_solve(solvers[s], g, &res);
        assert_int_equal(res.root.value, value);
        assert_int_equal(res.root.remoteness, remoteness);
        if (positions != 0) {
            DbSummary sum;
            Error err = {0};
            assert_int_equal(db_summarize(&res.db, false, &sum, &err), ERR_OK);
            assert_int_equal(sum.positions, positions);
        }
        solve_result_free(&res);
    }
    game_destroy(g);
}

/* 2x2, one attribute: pieces 0 and 1, which share nothing, and only two of
 * them: the opening choice, two placements, and a tie (remoteness 3).
 * Positions: the start; 2 choices; 4 cells x the other piece in hand = 8;
 * both pieces on distinct cells, 4 x 3 = 12: 1 + 2 + 8 + 12 = 23. */
static void two_by_two_one_attribute(void **state) {
    (void)state;
    solve_all("quarto:n=2,attrs=1", VALUE_TIE, 3, 23);
}

/* 2x2, two attributes: pieces 00, 01, 10, 11. Player 1 hands p to player
 * 2, who places it and must hand over the complement of p (any other piece
 * shares an attribute with p and completes a line wherever it goes). Player
 * 1 places it and must hand over one of the two remaining pieces, each of
 * which shares an attribute with p or with its complement: player 2 wins
 * with the fourth move. So the first player loses in 4. */
static void two_by_two_two_attributes(void **state) {
    (void)state;
    solve_all("quarto:n=2,attrs=2", VALUE_LOSE, 4, 0);
}

/* A 3x3 board with two pieces of one attribute (0 and 1): a line of 3
 * needs 3 pieces, so nobody can win; the game is the opening and 2
 * placements, a tie in 3. */
static void three_by_three_one_attribute(void **state) {
    (void)state;
    solve_all("quarto:n=3,attrs=1", VALUE_TIE, 3, 0);
}

/* Hand-checked positions of the default 3x3 board with 8 pieces, read
 * through parse(): a completed row of 0, 1, 2 (all lack attribute 2) is a
 * loss for the player to move; with 8 pieces placed and no line, a tie. */
static void primitives_by_hand(void **state) {
    (void)state;
    Game *g = test_game("quarto");
    Position p;
    Error err = {0};
    assert_int_equal(g->ops->parse(g, "012/---/---:7", &p, &err), ERR_OK);
    assert_int_equal(g->ops->primitive(g, p), VALUE_LOSE);
    /* 0 1 6 / 3 2 4 / 5 7 -: every full line mixes both values of every
     * attribute (0 1 6 = 000 001 110; 3 2 4 = 011 010 100; columns 0 3 5,
     * 1 2 7; diagonal 6 2 5 = 110 010 101), and all 8 pieces are placed. */
    assert_int_equal(g->ops->parse(g, "016/324/57-:-", &p, &err), ERR_OK);
    assert_int_equal(g->ops->primitive(g, p), VALUE_TIE);
    /* One piece short, the game goes on with the last piece in hand. */
    assert_int_equal(g->ops->parse(g, "016/324/5--:7", &p, &err), ERR_OK);
    assert_int_equal(g->ops->primitive(g, p), VALUE_UNDECIDED);
    char name[32];
    Move moves[GAME_MAX_MOVES];
    int n = g->ops->generate_moves(g, p, moves);
    assert_int_equal(n, 2); /* the last piece: two cells, nothing handed over */
    game_move_name(g, p, moves[0], name, sizeof name);
    assert_int_equal(strlen(name), 2);
    game_destroy(g);
}

static void refusals(void **state) {
    (void)state;
    Game *g = NULL;
    Error err = {0};
    /* Full Quarto is refused at creation with its memory estimate. */
    assert_int_equal(game_create("quarto:n=4,attrs=4", &g, &err), ERR_MEMORY);
    assert_non_null(strstr(err.msg, "estimated"));
    assert_non_null(strstr(err.msg, "full Quarto"));
    assert_int_equal(game_create("quarto:n=5", &g, &err), ERR_USAGE);
    assert_int_equal(game_create("quarto:attrs=0", &g, &err), ERR_USAGE);
    g = test_game("quarto");
    static const char *const bad[] = {
        "---/---/---",   /* no hand */
        "---/---/---:8", /* piece 8 is not in a 3-attribute set */
        "0--/---/---:0", /* piece 0 twice */
        "---/---/---;-", /* separator */
        "0--/---/---:-", /* a placement always hands over the next piece */
        "012/---/456:7", /* two lines no single placement completed */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Position p;
        if (g->ops->parse(g, bad[i], &p, &err) != ERR_USAGE) {
            fail_msg("quarto accepted '%s'", bad[i]);
        }
    }
    game_destroy(g);
    /* 2x2 with 8 pieces: after the fourth placement nothing is handed over. */
    g = test_game("quarto:n=2,attrs=3");
    Position p;
    assert_int_equal(g->ops->parse(g, "01/7-:6", &p, &err), ERR_OK);
    assert_int_equal(g->ops->parse(g, "01/76:2", &p, &err), ERR_USAGE);
    assert_non_null(strstr(err.msg, "nothing is left in hand"));
    game_destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_by_two_one_attribute),
        cmocka_unit_test(two_by_two_two_attributes),
        cmocka_unit_test(three_by_three_one_attribute),
        cmocka_unit_test(primitives_by_hand),
        cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests_name("known figures: quarto", tests, NULL, NULL);
}
