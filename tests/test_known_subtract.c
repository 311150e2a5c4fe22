/* tests/test_known_subtract.c: published figures for subtraction games.
 *
 * Sources (independent of this suite):
 *   - T. S. Ferguson, Game Theory, Part I (Impartial Combinatorial Games),
 *     sections 1.1 and 1.4; Berlekamp, Conway and Guy, Winning Ways, ch. 4:
 *     in the subtraction game with moves {1, ..., k} (normal play), the
 *     losing positions (P-positions) are exactly the multiples of k + 1.
 *     For k = 2 and a pile of 10 this is GamesCrafters' "1,2,...,10": the
 *     first player wins (by taking 1, leaving 9, a multiple of 3).
 *   - The same sources, misere play (the player who cannot move, i.e. who
 *     faces an empty pile after the opponent took the last counter, wins):
 *     the losing positions are those congruent to 1 modulo k + 1.
 *   - Ferguson, section 1.4, example: the subtraction set {1, 3, 4} has
 *     P-positions exactly the numbers congruent to 0 or 2 modulo 7.
 * Every position of each game is checked against the database of dfs and
 * of gps, reading positions through parse() (not the hash layout).
 */
#include "tests/testutil.h"

#include <stdio.h>
#include <string.h>

typedef bool (*Losing)(int64_t pile, int k);

static bool multiple_of_k1(int64_t pile, int k) { return pile % (k + 1) == 0; }
static bool one_mod_k1(int64_t pile, int k) { return pile % (k + 1) == 1; }
static bool zero_or_two_mod_7(int64_t pile, int k) {
    (void)k;
    return pile % 7 == 0 || pile % 7 == 2;
}

/* Solves spec with dfs and gps and checks every pile 0..n against losing(). */
static void check_game(const char *spec, int64_t n, int k, Losing losing) {
    static const char *const solvers[] = {"dfs", "gps"};
    Game *g = test_game(spec);
    for (int s = 0; s < 2; s++) {
        SolveResult res;
        test_solve(solvers[s], g, &res);
        for (int64_t pile = 0; pile <= n; pile++) {
            char text[32];
            snprintf(text, sizeof text, "%lld", (long long)pile);
            Position p;
            Error err = {0};
            assert_int_equal(g->ops->parse(g, text, &p, &err), ERR_OK);
            uint32_t raw = db_peek(&res.db, p);
            assert_true(db_raw_solved(&res.db, raw));
            Value want = losing(pile, k) ? VALUE_LOSE : VALUE_WIN;
            if (db_raw_value(&res.db, raw) != want) {
                fail_msg("%s with %s: pile %lld is %s, expected %s", spec, solvers[s],
                         (long long)pile, value_name(db_raw_value(&res.db, raw)), value_name(want));
            }
        }
        solve_result_free(&res);
    }
    game_destroy(g);
}

static void one_two_ten(void **state) {
    (void)state;
    Game *g = test_game("subtract:n=10");
    static const char *const solvers[] = {"dfs", "gps", "minimax"};
    for (int s = 0; s < 3; s++) {
        SolveResult res;
        test_solve(solvers[s], g, &res);
        /* Hand count of the remoteness: from 3j the loser removes 1 or 2 and
         * the winner restores a multiple of 3, two moves per 3 counters, so
         * 9 loses in 6 and 10 wins in 7. */
        assert_int_equal(res.root.value, VALUE_WIN);
        assert_int_equal(res.root.remoteness, 7);
        solve_result_free(&res);
    }
    game_destroy(g);
    check_game("subtract:n=10", 10, 2, multiple_of_k1);
}

static void take_one_to_k(void **state) {
    (void)state;
    char spec[128];
    for (int k = 1; k <= 6; k++) {
        char moves[64] = "1";
        for (int m = 2; m <= k; m++) {
            size_t len = strlen(moves);
            snprintf(moves + len, sizeof moves - len, "-%d", m);
        }
        snprintf(spec, sizeof spec, "subtract:n=%d,moves=%s", 20 * (k + 1) + k, moves);
        check_game(spec, 20 * (k + 1) + k, k, multiple_of_k1);
        snprintf(spec, sizeof spec, "subtract:n=%d,moves=%s,misere", 20 * (k + 1) + k, moves);
        check_game(spec, 20 * (k + 1) + k, k, one_mod_k1);
    }
    /* The order of the moves option does not matter. */
    check_game("subtract:n=50,moves=3-1-2", 50, 3, multiple_of_k1);
}

static void ferguson_1_3_4(void **state) {
    (void)state;
    check_game("subtract:n=100,moves=1-3-4", 100, 0, zero_or_two_mod_7);
}

/* A long game: depth 16383 is the most the database's remoteness holds;
 * the recursion runs on the harness's deep-stack thread. The pattern holds
 * all the way. A pile past the bound is refused at creation. */
static void deep_and_refused(void **state) {
    (void)state;
    check_game("subtract:n=16383,moves=1-2", 16383, 2, multiple_of_k1);
    Game *g = NULL;
    Error err = {0};
    assert_int_equal(game_create("subtract:n=100000", &g, &err), ERR_USAGE);
    assert_non_null(strstr(err.msg, "16383"));
    assert_int_equal(game_create("subtract:n=100000,moves=7-9", &g, &err), ERR_OK);
    game_destroy(g);
    assert_int_equal(game_create("subtract:moves=1-2-1", &g, &err), ERR_USAGE);
    assert_non_null(strstr(err.msg, "twice"));
    assert_int_equal(game_create("subtract:moves=0-1", &g, &err), ERR_USAGE);
    assert_int_equal(game_create("subtract:moves=", &g, &err), ERR_USAGE);
    assert_int_equal(game_create("subtract:n=-1", &g, &err), ERR_USAGE);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_two_ten),
        cmocka_unit_test(take_one_to_k),
        cmocka_unit_test(ferguson_1_3_4),
        cmocka_unit_test(deep_and_refused),
    };
    return cmocka_run_group_tests_name("known figures: subtraction games", tests, NULL, NULL);
}
