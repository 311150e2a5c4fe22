/* tests/test_known_topitop.c: the rules of Topitop, move by move, and
 * values derived by hand.
 *
 * Every expected move list below was read off the board by hand from the
 * rules in games/topitop.c's comment (those of GamesmanClassic's
 * src/mtopitop.c): cells 1..9 row by row, each touching its 8 neighbours;
 * B/R lone buckets, S small pile, L large pile, X/O a blue/red bucket on a
 * small pile, C castle, P/Q a blue/red bucket on a castle. Move names: "S5"
 * a placement, "2-3" a slide or stacking, "pass".
 *
 * Values, from positions set up as the start of the game (the solvers
 * explore from g->initial), on 3x3 with one bucket, small and large pile
 * each and one castle to win (hand analysis):
 *   - "X---L----:B:-": blue stacks its bucket-on-small onto the large pile
 *     (1-5), a win in 1.
 *   - "X---L----:R:-": every red move but a slide of the large pile to a
 *     cell not next to 1 loses at once; after such a slide blue takes the
 *     centre (1-5), which touches every cell, so whatever red does blue
 *     stacks next: a loss in 4 for red.
 *   - "XL---R---:R:2-3": red may not slide the pile back to 3; its other
 *     pile slides (4, 5) stay next to the bucket on 1 and its bucket's
 *     slides leave the pile there: a loss in 2. Without the mark
 *     ("XL---R---:R:-") red escapes to 3 and loses in 4 as above.
 *   - Draw: with two buckets, two small and two large piles and two castles
 *     to win, once each player's bucket sits on a small pile ("X-------O")
 *     no small pile is left for a second castle (stacks never split), so
 *     nobody can ever win, and the game, where a player without a move
 *     passes, goes on forever: every position from there is a draw.
 */
#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/db.h"

static void placements(void **state) {
    (void)state;
    Game *g = test_game("topitop");
    char buf[GAME_TEXT_MAX];
    g->ops->format(g, g->initial, buf, sizeof buf);
    assert_string_equal(buf, "---------:B:-");
    char spec[GAME_VARIANT_MAX + 16];
    game_spec(g, spec, sizeof spec);
    assert_string_equal(spec, "topitop:buckets=2,small=4,large=4,castles=2");
    /* the start: a blue bucket, a small or a large pile on any cell */
    test_assert_moves(
        g, "---------:B:-",
        "B1 B2 B3 B4 B5 B6 B7 B8 B9 S1 S2 S3 S4 S5 S6 S7 S8 S9 L1 L2 L3 L4 L5 L6 L7 L8 "
        "L9");
    test_assert_after(g, "---------:B:-", "B5", "----B----:R:-");
    /* red places its own bucket; it may not move blue's */
    test_assert_moves(g, "----B----:R:-",
                      "R1 R2 R3 R4 R6 R7 R8 R9 S1 S2 S3 S4 S6 S7 S8 S9 L1 L2 L3 L4 L6 L7 L8 L9");
    /* no placement once the reserve is out: both blue buckets are placed */
    test_assert_moves(
        g, "B---B----:B:-",
        "S2 S3 S4 S6 S7 S8 S9 L2 L3 L4 L6 L7 L8 L9 1-2 1-4 5-2 5-3 5-4 5-6 5-7 5-8 5-9");
    game_destroy(g);
}

static void slides_and_stacks(void **state) {
    (void)state;
    Game *g = test_game("topitop");
    /* Blue: its bucket (1) slides to 4, 5 or onto the small pile (2); the
     * small pile slides to 4, 5, 6 or onto the large pile (3); the large
     * pile slides to 5, 6; red's bucket (9) is not blue's to move. */
    const char *a = "BSL-----R:B:-";
    test_assert_moves(
        g, a,
        "B4 B5 B6 B7 B8 S4 S5 S6 S7 S8 L4 L5 L6 L7 L8 1-4 1-5 2-4 2-5 2-6 3-5 3-6 1-2 "
        "2-3");
    test_assert_after(g, a, "1-2", "-XL-----R:R:-");
    test_assert_after(g, a, "2-3", "B-C-----R:R:-");
    test_assert_after(g, a, "1-4", "-SLB----R:R:-");
    test_assert_after(g, a, "S4", "BSLS----R:R:-");
    /* a neutral pile slid to an empty cell: the opponent may not slide it
     * straight back */
    test_assert_after(g, a, "2-5", "B-L-S---R:R:5-2");
    test_assert_after(g, a, "3-6", "BS---L--R:R:6-3");
    /* Blue's bucket onto a castle (1-2: P), its bucket-on-small onto a
     * large pile (4-5: P); the castle and the bucket-on-small slide to
     * empty cells; no bucket goes onto a lone large pile. */
    const char *b = "BC-XL----:B:-";
    test_assert_moves(g, b,
                      "S3 S6 S7 S8 S9 L3 L6 L7 L8 L9 1-2 2-3 2-6 4-5 4-7 4-8 5-3 5-6 5-7 5-8 5-9");
    test_assert_after(g, b, "1-2", "-P-XL----:R:-");
    test_assert_after(g, b, "4-5", "BC--P----:R:-");
    test_assert_after(g, b, "2-6", "B--XLC---:R:6-2");
    test_assert_after(g, b, "4-7", "BC--L-X--:R:-");
    /* Red: bucket onto the small pile (1-2: O), bucket-on-small onto the
     * large pile (4-5: Q), the small pile onto the large one (2-5: C). */
    const char *c = "RS-OL----:R:-";
    test_assert_moves(
        g, c, "S3 S6 S7 S8 S9 L3 L6 L7 L8 L9 1-2 2-3 2-5 2-6 4-5 4-7 4-8 5-3 5-6 5-7 5-8 5-9");
    test_assert_after(g, c, "1-2", "-O-OL----:B:-");
    test_assert_after(g, c, "4-5", "RS--Q----:B:-");
    test_assert_after(g, c, "2-5", "R--OC----:B:-");
    /* a bucket on a castle slides as one piece */
    test_assert_after(g, "----P----:B:-", "5-1", "P--------:R:-");
    game_destroy(g);
}

static void no_undo(void **state) {
    (void)state;
    Game *g = test_game("topitop");
    /* Red after blue slid the small pile 2-5: everything but 5-2. */
    const char *marked = "B-L-S---R:R:5-2", *plain = "B-L-S---R:R:-";
    const char *common = "R2 R4 R6 R7 R8 S2 S4 S6 S7 S8 L2 L4 L6 L7 L8 9-5 9-6 9-8 5-3 5-4 5-6 "
                         "5-7 5-8 3-2 3-6";
    test_assert_moves(g, marked, common);
    char with[1024];
    snprintf(with, sizeof with, "%s 5-2", common);
    test_assert_moves(g, plain, with);
    /* the mark is part of the position: the two hash apart */
    assert_true(test_parse_ok(g, marked) != test_parse_ok(g, plain));
    /* it lasts one move: red's reply clears it (or sets its own) */
    test_assert_after(g, marked, "R2", "BRL-S---R:B:-");
    test_assert_after(g, marked, "3-2", "BL--S---R:B:2-3");
    /* a bucket's slide sets no mark: only the owner could move it back */
    test_assert_after(g, marked, "9-6", "B-L-SR---:B:-");
    game_destroy(g);
}

static void pass(void **state) {
    (void)state;
    /* A full board where red cannot stack: its lone bucket (1) touches no
     * small pile or castle, its bucket-on-small (9) no large pile, the
     * small pile (3) no large pile. Red passes; blue can stack its buckets
     * onto the small pile or the castles. */
    const char *full = "RBSLBCLCO:R:-";
    Game *g = test_game("topitop");
    test_assert_moves(g, full, "pass");
    test_assert_after(g, full, "pass", "RBSLBCLCO:B:-");
    test_assert_moves(g, "RBSLBCLCO:B:-", "2-3 2-6 5-3 5-6 5-8");
    assert_int_equal(g->ops->primitive(g, test_parse_ok(g, full)), VALUE_UNDECIDED);
    game_destroy(g);
    /* nopass (the module's variant): a player without a move loses */
    g = test_game("topitop:nopass");
    assert_int_equal(g->ops->primitive(g, test_parse_ok(g, full)), VALUE_LOSE);
    assert_int_equal(g->ops->primitive(g, test_parse_ok(g, "RBSLBCLCO:B:-")), VALUE_UNDECIDED);
    game_destroy(g);
}

static void wins(void **state) {
    (void)state;
    Game *g = test_game("topitop");
    /* blue's second castle: its bucket-on-small (3) onto the large pile (6) */
    assert_int_equal(g->ops->primitive(g, test_parse_ok(g, "P-X--L---:B:-")), VALUE_UNDECIDED);
    test_assert_after(g, "P-X--L---:B:-", "3-6", "P----P---:R:-");
    assert_int_equal(g->ops->primitive(g, test_parse_ok(g, "P----P---:R:-")), VALUE_LOSE);
    /* one castle is not enough by default */
    assert_int_equal(g->ops->primitive(g, test_parse_ok(g, "P-------Q:B:-")), VALUE_UNDECIDED);
    game_destroy(g);
    g = test_game("topitop:misere");
    assert_int_equal(g->ops->primitive(g, test_parse_ok(g, "P----P---:R:-")), VALUE_WIN);
    game_destroy(g);
    g = test_game("topitop:castles=1");
    assert_int_equal(g->ops->primitive(g, test_parse_ok(g, "P-------R:R:-")), VALUE_LOSE);
    assert_int_equal(g->ops->primitive(g, test_parse_ok(g, "Q-------B:B:-")), VALUE_LOSE);
    game_destroy(g);
}

/* The value and remoteness of `text` with `text` as the start, by `solver`. */
static void assert_solved(const char *spec, const char *solver, const char *text, Value value,
                          unsigned remoteness) {
    Game *g = test_game(spec);
    g->initial = test_parse_ok(g, text);
    SolveResult res;
    test_solve(solver, g, &res);
    if (res.root.value != value || (value != VALUE_DRAW && res.root.remoteness != remoteness)) {
        fail_msg("%s %s from %s: %s in %u, expected %s in %u", spec, solver, text,
                 value_name(res.root.value), res.root.remoteness, value_name(value), remoteness);
    }
    solve_result_free(&res);
    game_destroy(g);
}

static void values(void **state) {
    (void)state;
    static const char *const specs[] = {"topitop:buckets=1,small=1,large=1",
                                        "topitop:buckets=1,small=1,large=1,sym"};
    static const char *const solvers[] = {"retro", "retro-unmove", "tier"};
    for (int v = 0; v < 2; v++) {
        for (int s = 0; s < 3; s++) {
            assert_solved(specs[v], solvers[s], "X---L----:B:-", VALUE_WIN, 1);
            assert_solved(specs[v], solvers[s], "X---L----:R:-", VALUE_LOSE, 4);
            assert_solved(specs[v], solvers[s], "XL---R---:R:2-3", VALUE_LOSE, 2);
            assert_solved(specs[v], solvers[s], "XL---R---:R:-", VALUE_LOSE, 4);
        }
    }
}

static void draw(void **state) {
    (void)state;
    static const char *const solvers[] = {"retro", "retro-unmove", "tier"};
    for (int s = 0; s < 3; s++) {
        Game *g = test_game("topitop:buckets=2,small=2,large=2,sym");
        g->initial = test_parse_ok(g, "X-------O:B:-");
        SolveResult res;
        test_solve(solvers[s], g, &res);
        assert_int_equal(res.root.value, VALUE_DRAW);
        uint64_t solved = 0;
        for (Position p = 0; p < res.db.size; p++) {
            uint32_t raw = db_peek(&res.db, p);
            if (db_raw_solved(&res.db, raw)) {
                solved++;
                assert_int_equal(db_raw_value(&res.db, raw), VALUE_DRAW);
            }
        }
        /* more than the start and its pass: the pieces move about */
        assert_true(solved > 100);
        solve_result_free(&res);
        game_destroy(g);
    }
}

static void symmetries(void **state) {
    (void)state;
    Game *g = test_game("topitop:sym");
    /* the left-right mirror takes 1-2 to 3-2, the transpose 1-2 to 1-4 */
    Position a = g->ops->canonical(g, test_parse_ok(g, "S--------:R:1-2"));
    assert_true(a == g->ops->canonical(g, test_parse_ok(g, "--S------:R:3-2")));
    assert_true(a == g->ops->canonical(g, test_parse_ok(g, "S--------:R:1-4")));
    assert_true(a != g->ops->canonical(g, test_parse_ok(g, "S--------:R:1-5")));
    assert_true(a != g->ops->canonical(g, test_parse_ok(g, "S--------:R:-")));
    assert_true(a != g->ops->canonical(g, test_parse_ok(g, "S--------:B:1-2")));
    game_destroy(g);
}

/* Tier names, by hand from the contents on the board (games/topitop.c
 * tt_tier_name): the kinds in the text's order, absent ones left out. */
static void tier_names(void **state) {
    (void)state;
    Game *g = test_game("topitop");
    static const struct {
        const char *pos, *name;
    } cases[] = {
        {"---------:B:-", "empty"},    {"B--------:R:-", "B1"},
        {"S---C---B:R:-", "B1S1C1"},   {"SSL-R---B:B:-", "B1R1S2L1"},
        {"P-X--L--O:R:-", "L1X1O1P1"}, {"Q-P-C-L-S:B:-", "S1L1C1P1Q1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char name[GAME_TIER_NAME_MAX];
        int t = g->tiers->tier_of(g, test_parse_ok(g, cases[i].pos));
        assert_string_equal(game_tier_name(g, t, name, sizeof name), cases[i].name);
    }
    game_destroy(g);
}

static void refusals(void **state) {
    (void)state;
    Game *g = NULL;
    Error err = {0};
    assert_int_equal(game_create("topitop:buckets=1,castles=2", &g, &err), ERR_USAGE);
    assert_int_equal(game_create("topitop:small=1,castles=2", &g, &err), ERR_USAGE);
    assert_int_equal(game_create("topitop:buckets=3", &g, &err), ERR_USAGE);
    assert_int_equal(game_create("topitop:large=5", &g, &err), ERR_USAGE);
    g = test_game("topitop");
    static const char *const bad[] = {
        "---------",       /* no player, no mark */
        "---------:B",     /* no mark */
        "--------:B:-",    /* short board */
        "----------:B:-",  /* long board */
        "----Z----:B:-",   /* bad content */
        "---------:G:-",   /* bad player */
        "---------:B:x",   /* bad mark */
        "S--------:B:1-",  /* half a mark */
        "S--------:B:0-1", /* cell 0 */
        "S--------:B:1-9", /* not adjacent */
        "B--------:B:1-2", /* a bucket is no neutral pile */
        "SL-------:B:1-2", /* the cell it came from is taken */
        "BBB------:B:-",   /* three blue buckets */
        "SSSSS----:B:-",   /* five small piles */
        "CCCCL----:B:-",   /* five large piles */
        "P----P---:B:-",   /* blue to move after its winning castle */
        "P-P-Q-Q--:R:-",   /* both players have their castles */
        "---------:B:-:",  /* trailing field */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Position p;
        if (g->ops->parse(g, bad[i], &p, &err) != ERR_USAGE) {
            fail_msg("topitop accepted '%s'", bad[i]);
        }
    }
    game_destroy(g);
    /* one castle wins: a second one never comes */
    g = test_game("topitop:castles=1");
    Position p;
    assert_int_equal(g->ops->parse(g, "P-P------:R:-", &p, &err), ERR_USAGE);
    game_destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(placements), cmocka_unit_test(slides_and_stacks),
        cmocka_unit_test(no_undo),    cmocka_unit_test(pass),
        cmocka_unit_test(wins),       cmocka_unit_test(values),
        cmocka_unit_test(draw),       cmocka_unit_test(symmetries),
        cmocka_unit_test(tier_names), cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests_name("known figures: topitop", tests, NULL, NULL);
}
