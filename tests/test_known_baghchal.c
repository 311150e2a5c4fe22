/* tests/test_known_baghchal.c: the rules of Bagh Chal, move by move, and
 * values derived by hand.
 *
 * Every expected move list below was read off the board by hand from the
 * traditional rules (games/baghchal.c's comment): orthogonal lines
 * everywhere, diagonals only through points (r, c) with r + c even; a tiger
 * slides or jumps one goat onto the empty point beyond, along a line. Move
 * names: column letter, row number counted from the bottom; '-' a slide,
 * 'x' a capture, a lone point a placement. The 4x4 defaults (12 goats, 3
 * captures, no diagonals, "T--T--------T--T" to start) are GamesmanClassic's
 * (src/mbaghchal.c, setOption and initialBaghchalInteractString4).
 *
 * The forced draw (hand analysis): on 3x3 without diagonals, one tiger
 * against one goat, one capture wins. Every move changes the parity of the
 * mover's r + c. The tiger starts on a corner (even); if the goat is placed
 * on an even point, then at every tiger turn both pieces stand on points of
 * the same parity, so they are never adjacent and the tiger never captures.
 * One goat cannot block a tiger (it has two or more neighbours) and a tiger
 * cannot block a goat, so nobody ever wins: the start is a draw, and so is
 * the position after the goat is placed on the centre. A goat placed next to
 * the tiger with a point beyond it is captured at once (a win in 1 for the
 * tigers to move).
 */
#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static Position parse_ok(const Game *g, const char *text) {
    Position p;
    Error err = {0};
    if (g->ops->parse(g, text, &p, &err) != ERR_OK) {
        fail_msg("parse '%s': %s", text, err.msg);
    }
    return p;
}

/* The position's moves by name, sorted, against `expected` (space-separated,
 * any order). */
static void assert_moves(const Game *g, const char *text, const char *expected) {
    Position p = parse_ok(g, text);
    Move moves[GAME_MAX_MOVES];
    int n = g->ops->primitive(g, p) == VALUE_UNDECIDED ? g->ops->generate_moves(g, p, moves) : 0;
    char names[GAME_MAX_MOVES][16];
    const char *got[GAME_MAX_MOVES];
    for (int i = 0; i < n; i++) {
        game_move_name(g, p, moves[i], names[i], sizeof names[i]);
        got[i] = names[i];
    }
    qsort(got, (size_t)n, sizeof got[0], cmp_str);
    char exp_buf[1024];
    snprintf(exp_buf, sizeof exp_buf, "%s", expected);
    const char *want[GAME_MAX_MOVES];
    int m = 0;
    for (char *t = strtok(exp_buf, " "); t != NULL; t = strtok(NULL, " ")) {
        want[m++] = t;
    }
    qsort(want, (size_t)m, sizeof want[0], cmp_str);
    char got_line[1024] = "", want_line[1024] = "";
    for (int i = 0; i < n; i++) {
        strcat(strcat(got_line, got[i]), " ");
    }
    for (int i = 0; i < m; i++) {
        strcat(strcat(want_line, want[i]), " ");
    }
    if (strcmp(got_line, want_line) != 0) {
        fail_msg("%s %s: moves [%s], expected [%s]", g->variant, text, got_line, want_line);
    }
}

/* The text after playing the move named `name` from `text`. */
static void assert_after(const Game *g, const char *text, const char *name, const char *after) {
    Position p = parse_ok(g, text);
    Move moves[GAME_MAX_MOVES];
    int n = g->ops->generate_moves(g, p, moves);
    for (int i = 0; i < n; i++) {
        char buf[16], out[GAME_TEXT_MAX];
        game_move_name(g, p, moves[i], buf, sizeof buf);
        if (strcmp(buf, name) == 0) {
            g->ops->format(g, g->ops->do_move(g, p, moves[i]), out, sizeof out);
            assert_string_equal(out, after);
            return;
        }
    }
    fail_msg("%s: no move %s", text, name);
}

static void placement(void **state) {
    (void)state;
    Game *g = test_game("baghchal:n=3");
    char buf[GAME_TEXT_MAX];
    g->ops->format(g, g->initial, buf, sizeof buf);
    assert_string_equal(buf, "T-T---T-T:G:4:0");
    assert_moves(g, "T-T---T-T:G:4:0", "b3 a2 b2 c2 b1");
    /* a goat on the board cannot slide while goats are in hand */
    assert_moves(g, "TGT---T-T:G:3:0", "a2 b2 c2 b1");
    assert_after(g, "TGT---T-T:G:3:0", "b2", "TGT-G-T-T:T:2:0");
    game_destroy(g);

    g = test_game("baghchal:n=4");
    g->ops->format(g, g->initial, buf, sizeof buf);
    assert_string_equal(buf, "T--T--------T--T:G:12:0");
    char spec[GAME_VARIANT_MAX + 16];
    game_spec(g, spec, sizeof spec);
    assert_string_equal(spec, "baghchal:n=4,tigers=4,goats=12,captures=3,diag=0");
    game_destroy(g);
}

static void tiger_moves(void **state) {
    (void)state;
    /* Tigers on c3 and d2 (both even points); goats on c4, d4 (capturable:
     * c5 and e5 are empty), b3 (not: a3 beyond is a goat) and a3. No jump
     * over the tiger d2 from c3, nor from d2 over c3. */
    Game *g = test_game("baghchal:tigers=2");
    const char *a = "-------GG-GGT-----T------:T:16:0";
    assert_moves(g, a,
                 "c3xc5 c3-c2 c3-d3 c3-b4 c3xe5 c3-b2 "
                 "d2-d3 d2-d1 d2-c2 d2-e2 d2-e3 d2-c1 d2-e1");
    assert_after(g, a, "c3xe5", "----T--G--GG------T------:G:16:1");
    assert_after(g, a, "c3xc5", "--T-----G-GG------T------:G:16:1");
    assert_after(g, a, "c3-b4", "------TGG-GG------T------:G:16:0");
    game_destroy(g);

    g = test_game("baghchal:tigers=1");
    /* b4 (even) by the edge: no jump off the board over a5, b5 or a4 */
    assert_moves(g, "GG---GT------------------:T:17:0", "b4-c5 b4-c4 b4-b3 b4-a3 b4-c3");
    /* b3 is an odd point: no diagonal, so no diagonal jump over c4 either */
    assert_moves(g, "-------G---T-------------:T:19:0", "b3-b4 b3-a3 b3-c3 b3-b2");
    /* c3 in the open: 8 slides */
    assert_moves(g, "G-----------T------------:T:19:0",
                 "c3-b4 c3-c4 c3-d4 c3-b3 c3-d3 c3-b2 c3-c2 c3-d2");
    game_destroy(g);

    g = test_game("baghchal:tigers=1,diag=0");
    assert_moves(g, "G-----------T------------:T:19:0", "c3-c4 c3-b3 c3-d3 c3-c2");
    assert_moves(g, "-------G----T------------:T:19:0", "c3xc5 c3-b3 c3-d3 c3-c2");
    game_destroy(g);
}

static void goat_slides(void **state) {
    (void)state;
    /* 3x3, all four goats placed on the edge points, the centre empty: the
     * goats slide to it orthogonally (edge points are odd); the tigers on
     * the corners (even) slide to it diagonally, and cannot jump (the points
     * beyond their goat neighbours are tigers). */
    Game *g = test_game("baghchal:n=3");
    assert_moves(g, "TGTG-GTGT:G:0:0", "b3-b2 a2-b2 c2-b2 b1-b2");
    assert_moves(g, "TGTG-GTGT:T:0:0", "a3-b2 c3-b2 a1-b2 c1-b2");
    assert_after(g, "TGTG-GTGT:G:0:0", "b3-b2", "T-TGGGTGT:T:0:0");
    /* the empty edge point b3 (odd) has no diagonal: only b2 reaches it */
    assert_moves(g, "T-TGGGTGT:G:0:0", "b2-b3");
    game_destroy(g);
    /* three tigers (a3, c1, c3): the goat on the centre (even) slides
     * diagonally to the empty corner a1 as well as down to b1; a2 (odd)
     * only down; b3 and c2 are shut in */
    g = test_game("baghchal:n=3,tigers=3");
    assert_moves(g, "TGTGGG--T:G:0:0", "a2-a1 b2-a1 b2-b1");
    game_destroy(g);
}

static void wins(void **state) {
    (void)state;
    /* The fifth capture wins (5x5 default): the goats to move have lost. */
    Game *g = test_game("baghchal:tigers=1");
    Position p = parse_ok(g, "-------G----T------------:T:15:4");
    assert_int_equal(g->ops->primitive(g, p), VALUE_UNDECIDED);
    assert_after(g, "-------G----T------------:T:15:4", "c3xc5",
                 "--T----------------------:G:15:5");
    assert_int_equal(g->ops->primitive(g, parse_ok(g, "--T----------------------:G:15:5")),
                     VALUE_LOSE);
    game_destroy(g);

    /* Tigers immobilized: without diagonals, the corner tigers of 3x3 are
     * shut in by the four edge goats (the jumps land on tigers); with them,
     * each has the centre. */
    g = test_game("baghchal:n=3,diag=0");
    assert_int_equal(g->ops->primitive(g, parse_ok(g, "TGTG-GTGT:T:0:0")), VALUE_LOSE);
    game_destroy(g);
    g = test_game("baghchal:n=3");
    assert_int_equal(g->ops->primitive(g, parse_ok(g, "TGTG-GTGT:T:0:0")), VALUE_UNDECIDED);
    game_destroy(g);
    /* 4x4: twelve goats placed without a capture fill the board. */
    g = test_game("baghchal:n=4");
    assert_int_equal(g->ops->primitive(g, parse_ok(g, "TGGTGGGGGGGGTGGT:T:0:0")), VALUE_LOSE);
    game_destroy(g);
}

static Outcome outcome_at(const Game *g, const SolveResult *res, Position p) {
    p = game_canonical(g, p);
    uint32_t raw = db_peek(&res->db, p);
    assert_true(db_raw_solved(&res->db, raw));
    return (Outcome){db_raw_value(&res->db, raw), db_raw_remoteness(&res->db, raw)};
}

static void forced_draw(void **state) {
    (void)state;
    static const char *const specs[] = {"baghchal:n=3,tigers=1,goats=1,captures=1,diag=0",
                                        "baghchal:n=3,tigers=1,goats=1,captures=1,diag=0,sym"};
    static const char *const solvers[] = {"retro", "retro-unmove", "tier"};
    for (int v = 0; v < 2; v++) {
        Game *g = test_game(specs[v]);
        for (int s = 0; s < 3; s++) {
            SolveResult res;
            test_solve(solvers[s], g, &res);
            assert_int_equal(res.root.value, VALUE_DRAW);
            assert_int_equal(outcome_at(g, &res, parse_ok(g, "T---G----:T:0:0")).value, VALUE_DRAW);
            Outcome o = outcome_at(g, &res, parse_ok(g, "TG-------:T:0:0"));
            assert_int_equal(o.value, VALUE_WIN);
            assert_int_equal(o.remoteness, 1);
            solve_result_free(&res);
        }
        game_destroy(g);
    }
}

static void symmetries(void **state) {
    (void)state;
    /* A quarter turn maps b4 (odd) to d3 (even): a symmetry without
     * diagonals, none with them on 4x4. The half turn keeps parity. */
    Game *g = test_game("baghchal:n=4,tigers=1,goats=3,diag=0,sym");
    assert_true(g->ops->canonical(g, parse_ok(g, "-T--------------:G:3:0")) ==
                g->ops->canonical(g, parse_ok(g, "-------T--------:G:3:0")));
    game_destroy(g);
    g = test_game("baghchal:n=4,tigers=1,goats=3,diag=1,sym");
    assert_true(g->ops->canonical(g, parse_ok(g, "-T--------------:G:3:0")) !=
                g->ops->canonical(g, parse_ok(g, "-------T--------:G:3:0")));
    assert_true(g->ops->canonical(g, parse_ok(g, "-T--------------:G:3:0")) ==
                g->ops->canonical(g, parse_ok(g, "--------------T-:G:3:0")));
    game_destroy(g);
}

static void refusals(void **state) {
    (void)state;
    Game *g = NULL;
    Error err = {0};
    assert_int_equal(game_create("baghchal:n=4,goats=13", &g, &err), ERR_USAGE);
    assert_int_equal(game_create("baghchal:n=4,captures=13", &g, &err), ERR_USAGE);
    assert_int_equal(game_create("baghchal:n=6", &g, &err), ERR_USAGE);
    assert_int_equal(game_create("baghchal:tigers=5", &g, &err), ERR_USAGE);
    g = test_game("baghchal:n=3");
    static const char *const bad[] = {
        "T-T---T-T",         /* no player, counts */
        "T-T---T-T:G:4",     /* no captured count */
        "T-T---T-:G:4:0",    /* short board */
        "T-T---T-TT:G:4:0",  /* long board */
        "T-T-x-T-T:G:4:0",   /* bad point */
        "T-T---T-T:X:4:0",   /* bad player */
        "T-T---T-T:G:4:x",   /* bad count */
        "T-T---T-T:G:5:0",   /* more goats than the variant's 4 */
        "T-T---T-T:G:3:0",   /* the goats do not add up */
        "TTT---T-T:G:4:0",   /* five tigers */
        "T-T---T-T:T:4:0",   /* tigers to move before any goat was placed */
        "TGT---T-T:T:2:1",   /* tigers to move after their winning capture */
        "T-T---T-T:G:4:0:0", /* trailing field */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Position p;
        if (g->ops->parse(g, bad[i], &p, &err) != ERR_USAGE) {
            fail_msg("baghchal accepted '%s'", bad[i]);
        }
    }
    game_destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(placement), cmocka_unit_test(tiger_moves), cmocka_unit_test(goat_slides),
        cmocka_unit_test(wins),      cmocka_unit_test(forced_draw), cmocka_unit_test(symmetries),
        cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests_name("known figures: bagh chal", tests, NULL, NULL);
}
