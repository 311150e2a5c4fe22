/* tests/test_known.c: published figures for tic-tac-toe.
 *
 * Sources (independent of this suite):
 *   - 5,478 legal positions reachable from the empty board, 765 up to the 8
 *     board symmetries (e.g. Schaefer, "Tic-tac-toe" position counts; OEIS
 *     A008907 sums to 5,478 over plies 0..9).
 *   - The game is a draw (a tie in our values) with perfect play, and the
 *     draw takes all 9 moves (the board fills up).
 *   - Weiss, Data Structures and Problem Solving Using Java, p. 336: the
 *     plain backtracking search from the empty board makes 549,946
 *     recursive calls (the nodes of the full game tree).
 */
#include "tests/testutil.h"

#include <string.h>

static void reachable_counts_by_bfs(void **state) {
    (void)state;
    Game *g = test_game("tictactoe");
    Reach r;
    test_reach(g, &r);
    assert_int_equal(r.count, 5478);
    test_reach_free(&r);
    game_destroy(g);
    g = test_game("tictactoe:sym");
    test_reach(g, &r);
    assert_int_equal(r.count, 765);
    test_reach_free(&r);
    game_destroy(g);
}

/* The 5,478 figure counts legal boards, so parse() (which refuses illegal
 * piece counts and double wins) must accept exactly that many of the 3^9
 * boards: an independent check of both the parser and the move rules. */
static void parse_accepts_the_legal_boards(void **state) {
    (void)state;
    Game *g = test_game("tictactoe");
    char text[10] = {0};
    int digits[9] = {0};
    int accepted = 0;
    for (int b = 0; b < 19683; b++) {
        for (int i = 0; i < 9; i++) {
            text[i] = "-ox"[digits[i]];
        }
        Position p;
        Error err = {0};
        accepted += g->ops->parse(g, text, &p, &err) == ERR_OK;
        for (int i = 0; i < 9 && ++digits[i] == 3; i++) {
            digits[i] = 0;
        }
    }
    assert_int_equal(accepted, 5478);
    game_destroy(g);
}

static void solvers_match_published_figures(void **state) {
    (void)state;
    static const char *const solvers[] = {"dfs", "gps", "gps-cached"};
    for (int sym = 0; sym <= 1; sym++) {
        Game *g = test_game(sym ? "tictactoe:sym" : "tictactoe");
        for (int i = 0; i < 3; i++) {
            SolveResult res;
            test_solve(solvers[i], g, &res);
            assert_int_equal(res.root.value, VALUE_TIE);
            assert_int_equal(res.root.remoteness, 9);
            DbSummary s;
            Error err = {0};
            assert_int_equal(db_summarize(&res.db, false, &s, &err), ERR_OK);
            assert_int_equal(s.positions, sym ? 765 : 5478);
            assert_int_equal(s.undecided, 0);
            solve_result_free(&res);
        }
        game_destroy(g);
    }
}

static void minimax_walks_the_whole_tree(void **state) {
    (void)state;
    Game *g = test_game("tictactoe");
    SolveResult res;
    test_solve("minimax", g, &res);
    assert_int_equal(res.root.value, VALUE_TIE);
    assert_int_equal(res.root.remoteness, 9);
    assert_false(res.has_db);
#if STATS
    assert_int_equal(res.counters.calls, 549946);
#endif
    solve_result_free(&res);
    game_destroy(g);
}

/* Hand-checked positions.
 *  - x to move on xx-oo---- wins at once at cell 3: win in 1.
 *  - o to move on xx-o-----: a move other than cell 3 (say cell 9) lets x
 *    complete the top row: x wins in 1. Blocking (xxoo-----) does not save
 *    o: x takes the centre, threatening 1-5-9 and 2-5-8, o can stop one,
 *    x completes the other: win in 3 for x; x has no immediate win there,
 *    so not less than 3. */
static void hand_checked_positions(void **state) {
    (void)state;
    Game *g = test_game("tictactoe");
    SolveResult res;
    test_solve("dfs", g, &res);
    Position p;
    Error err = {0};
    assert_int_equal(g->ops->parse(g, "xx-oo----", &p, &err), ERR_OK);
    uint32_t raw = db_peek(&res.db, p);
    assert_int_equal(db_raw_value(&res.db, raw), VALUE_WIN);
    assert_int_equal(db_raw_remoteness(&res.db, raw), 1);
    assert_int_equal(g->ops->parse(g, "xx-o-----", &p, &err), ERR_OK);
    Position blocked = g->ops->do_move(g, p, 2), careless = g->ops->do_move(g, p, 8);
    assert_int_equal(db_raw_value(&res.db, db_peek(&res.db, careless)), VALUE_WIN);
    assert_int_equal(db_raw_remoteness(&res.db, db_peek(&res.db, careless)), 1);
    assert_int_equal(db_raw_value(&res.db, db_peek(&res.db, blocked)), VALUE_WIN);
    assert_int_equal(db_raw_remoteness(&res.db, db_peek(&res.db, blocked)), 3);
    raw = db_peek(&res.db, p);
    assert_int_equal(db_raw_value(&res.db, raw), VALUE_LOSE);
    assert_int_equal(db_raw_remoteness(&res.db, raw), 4);
    /* A full board with no line is a tie at remoteness 0. */
    assert_int_equal(g->ops->parse(g, "xoxxoooxx", &p, &err), ERR_OK);
    raw = db_peek(&res.db, p);
    assert_int_equal(db_raw_value(&res.db, raw), VALUE_TIE);
    assert_int_equal(db_raw_remoteness(&res.db, raw), 0);
    solve_result_free(&res);
    game_destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reachable_counts_by_bfs),
        cmocka_unit_test(parse_accepts_the_legal_boards),
        cmocka_unit_test(solvers_match_published_figures),
        cmocka_unit_test(minimax_walks_the_whole_tree),
        cmocka_unit_test(hand_checked_positions),
    };
    return cmocka_run_group_tests_name("known figures", tests, NULL, NULL);
}
