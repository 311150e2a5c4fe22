/* tests/test_known_hexapawn.c: published figures for Hexapawn.
 *
 * Sources (independent of this suite):
 *   - Martin Gardner, "Mathematical Games", Scientific American, March 1962
 *     (reprinted in The Unexpected Hanging): 3x3 Hexapawn is a win for the
 *     second player (Black).
 *   - Wikipedia, "Hexapawn": with perfect play White loses in 3 moves,
 *     1.b2 axb2 2.cxb2 c2 3.a2 c1#, i.e. 6 plies; the 4x4 game
 *     ("octopawn", 4 pawns a side) is a forced win for White.
 *   - chessvariants.com, "Hexapawn" (spoiler section): if White opens with a
 *     side pawn, Black captures and will promote unless White recaptures,
 *     so a side opening loses too.
 */
#include "tests/testutil.h"

#include <string.h>

static Outcome outcome_at(const SolveResult *res, Position p) {
    uint32_t raw = db_peek(&res->db, p);
    assert_true(db_raw_solved(&res->db, raw));
    return (Outcome){db_raw_value(&res->db, raw), db_raw_remoteness(&res->db, raw)};
}

static void second_player_wins_3x3(void **state) {
    (void)state;
    static const char *const solvers[] = {"dfs", "gps", "minimax"};
    static const char *const specs[] = {"hexapawn", "hexapawn:sym"};
    for (int v = 0; v < 2; v++) {
        Game *g = test_game(specs[v]);
        for (int i = 0; i < 3; i++) {
            SolveResult res;
            test_solve(solvers[i], g, &res);
            assert_int_equal(res.root.value, VALUE_LOSE);
            assert_int_equal(res.root.remoteness, 6);
            solve_result_free(&res);
        }
        game_destroy(g);
    }
}

/* The line 1.b2 axb2 2.cxb2 c2 3.a2 c1# in this module's move names, with
 * the value of each position for the player to move along it: White loses
 * in 6, Black wins in 5, ..., and Black's pawn on c1 ends the game. */
static void wikipedia_line(void **state) {
    (void)state;
    static const char *const line[] = {"b1-b2", "a3xb2", "c1xb2", "c3-c2", "a1-a2", "c2-c1"};
    Game *g = test_game("hexapawn");
    SolveResult res;
    test_solve("dfs", g, &res);
    Position p = g->initial;
    for (int ply = 0; ply <= 6; ply++) {
        Outcome o = outcome_at(&res, p);
        assert_int_equal(o.value, ply % 2 == 0 ? VALUE_LOSE : VALUE_WIN);
        assert_int_equal(o.remoteness, 6 - ply);
        if (ply == 6) {
            break;
        }
        Move moves[GAME_MAX_MOVES];
        int n = g->ops->generate_moves(g, p, moves);
        int found = -1;
        for (int k = 0; k < n; k++) {
            char name[32];
            game_move_name(g, p, moves[k], name, sizeof name);
            if (strcmp(name, line[ply]) == 0) {
                found = k;
            }
        }
        if (found < 0) {
            fail_msg("move %s is not legal at ply %d", line[ply], ply);
        }
        p = g->ops->do_move(g, p, moves[found]);
    }
    assert_int_equal(g->ops->primitive(g, p), VALUE_LOSE);
    char text[64];
    g->ops->format(g, p, text, sizeof text);
    assert_string_equal(text, "-b-/ww-/--b:w");
    /* Every opening loses for White (the side openings too). */
    Move moves[GAME_MAX_MOVES];
    int n = g->ops->generate_moves(g, g->initial, moves);
    assert_int_equal(n, 3);
    for (int k = 0; k < n; k++) {
        assert_int_equal(outcome_at(&res, g->ops->do_move(g, g->initial, moves[k])).value,
                         VALUE_WIN);
    }
    solve_result_free(&res);
    game_destroy(g);
}

static void octopawn_first_player_wins(void **state) {
    (void)state;
    static const char *const specs[] = {"hexapawn:w=4,h=4", "hexapawn:w=4,h=4,sym"};
    for (int v = 0; v < 2; v++) {
        Game *g = test_game(specs[v]);
        SolveResult res;
        test_solve("gps", g, &res);
        assert_int_equal(res.root.value, VALUE_WIN);
        solve_result_free(&res);
        game_destroy(g);
    }
}

/* Hand-checked: on 1 x h boards the two pawns meet head-on. White moves up
 * until blocked; with h = 3 White's first move (to row 2) leaves Black's
 * pawn (row 3) blocked: Black cannot move and loses at once (win in 1).
 * With h = 4 White must move to row 2, Black to row 3 (facing), and White
 * is blocked: White loses in 2. */
static void single_file_by_hand(void **state) {
    (void)state;
    Game *g = test_game("hexapawn:w=1,h=3");
    SolveResult res;
    test_solve("dfs", g, &res);
    assert_int_equal(res.root.value, VALUE_WIN);
    assert_int_equal(res.root.remoteness, 1);
    solve_result_free(&res);
    game_destroy(g);
    g = test_game("hexapawn:w=1,h=4");
    test_solve("dfs", g, &res);
    assert_int_equal(res.root.value, VALUE_LOSE);
    assert_int_equal(res.root.remoteness, 2);
    solve_result_free(&res);
    game_destroy(g);
}

static void refusals(void **state) {
    (void)state;
    Game *g = NULL;
    Error err = {0};
    /* 8x8: 3^64-ish boards, beyond a 63-bit hash. */
    assert_int_equal(game_create("hexapawn:w=8,h=8", &g, &err), ERR_USAGE);
    assert_non_null(strstr(err.msg, "2^63"));
    g = test_game("hexapawn");
    static const char *const bad[] = {
        "bbb/---/www",    /* no turn */
        "bbb/---/www:x",  /* bad turn */
        "bbbb/---/www:w", /* long row */
        "bbb/-q-/www:w",  /* bad cell */
        "bbb|---|www:w",  /* bad separator */
        "bbb/bw-/www:w",  /* four black pawns */
        "w--/---/--b:w",  /* both reached the far row */
        "w--/---/---:w",  /* white to move after reaching the far row */
        "---/---/b--:b",  /* black to move after reaching the far row */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Position p;
        if (g->ops->parse(g, bad[i], &p, &err) != ERR_USAGE) {
            fail_msg("hexapawn accepted '%s'", bad[i]);
        }
    }
    game_destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(second_player_wins_3x3),
        cmocka_unit_test(wikipedia_line),
        cmocka_unit_test(octopawn_first_player_wins),
        cmocka_unit_test(single_file_by_hand),
        cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests_name("known figures: hexapawn", tests, NULL, NULL);
}
