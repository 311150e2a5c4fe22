/* tests/test_known_othello.c: Othello against published figures, hand
 * analysis, and an independent reference implementation of the rules.
 *
 * Published figures (independent of this suite):
 *   - 4x4 Othello is a win for the second player with perfect play:
 *     Wikipedia, "Reversi" ("On 4x4 and 6x6 boards under perfect play, the
 *     second player wins"); reversi-nxn.blogspot.com, "Perfect Play"
 *     (2008-07-03: "on 3x3 and 4x4 boards player 2 wins under perfect
 *     play").
 *   - 4x4 has 15,015 distinct games once black's first move is fixed:
 *     reversi-nxn.blogspot.com, "Number of distinct NxN Reversi games"
 *     (2008-03-29). The same blog ("Counting the number of distinct NxN
 *     Reversi games", 2008-03) notes that black's four first moves are
 *     equivalent under the half turn and the diagonal reflections, so the
 *     game tree from the start has 4 x 15,015 = 60,060 complete games.
 * We found no published perfect-play margin for 4x4; the WinBy score is
 * checked against the reference engine below instead, position by
 * position.
 *
 * The reference engine is a second, deliberately plain implementation of
 * the rules: a char array per board, legality and flips by walking the 8
 * directions square by square, no bitboards, no hash, no memo. It walks
 * the whole game tree, computes every position's exact score (player one
 * maximizes, player two minimizes) and checks the dfs database at each
 * node, reached through the game's text interface (parse of the engine's
 * board): the same reachable positions, the same WinBy score, and a value
 * that agrees with the sign of the score for the player to move.
 */
#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------- reference engine */

typedef struct Ref {
    int w, h;
    const Game *g;       /* the game under test, for parse() only */
    const Database *db;  /* dfs's database */
    uint8_t *seen;       /* per position of g: visited by the walk */
    uint64_t distinct;   /* positions seen */
    uint64_t games;      /* leaves of the game tree */
    uint64_t mismatches; /* positions where db disagrees */
} Ref;

static const int ref_dr[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
static const int ref_dc[8] = {-1, 0, 1, -1, 1, -1, 0, 1};

/* Discs of the opponent of `me` that placing at (r, c) flips, by walking
 * each direction; writes them to flips[] and returns how many. */
static int ref_flips(const Ref *e, const char *b, int r, int c, char me, int *flips) {
    char opp = me == 'x' ? 'o' : 'x';
    int n = 0;
    if (b[r * e->w + c] != '-') {
        return 0;
    }
    for (int d = 0; d < 8; d++) {
        int rr = r + ref_dr[d], cc = c + ref_dc[d], run = 0;
        while (rr >= 0 && rr < e->h && cc >= 0 && cc < e->w && b[rr * e->w + cc] == opp) {
            rr += ref_dr[d];
            cc += ref_dc[d];
            run++;
        }
        if (run > 0 && rr >= 0 && rr < e->h && cc >= 0 && cc < e->w && b[rr * e->w + cc] == me) {
            for (int k = 1; k <= run; k++) {
                flips[n++] = (r + k * ref_dr[d]) * e->w + (c + k * ref_dc[d]);
            }
        }
    }
    return n;
}

static bool ref_can_move(const Ref *e, const char *b, char me) {
    int flips[64];
    for (int sq = 0; sq < e->w * e->h; sq++) {
        if (ref_flips(e, b, sq / e->w, sq % e->w, me, flips) > 0) {
            return true;
        }
    }
    return false;
}

/* Checks the database entry of (b, me) against the engine's score. */
static void ref_check(Ref *e, const char *b, char me, int score) {
    char text[80];
    int cells = e->w * e->h;
    memcpy(text, b, (size_t)cells);
    text[cells] = ':';
    text[cells + 1] = me;
    text[cells + 2] = '\0';
    Position p;
    Error err = {0};
    if (e->g->ops->parse(e->g, text, &p, &err) != ERR_OK) {
        fail_msg("a position of the reference walk was refused: %s", err.msg);
    }
    if (!e->seen[p]) {
        e->seen[p] = 1;
        e->distinct++;
    }
    uint32_t raw = db_peek(e->db, p);
    int mine = me == 'x' ? score : -score;
    Value want = mine > 0 ? VALUE_WIN : mine < 0 ? VALUE_LOSE : VALUE_TIE;
    if (!db_raw_solved(e->db, raw) || db_raw_value(e->db, raw) != want ||
        e->db->winby[p] != score) {
        if (e->mismatches++ < 5) {
            print_error("%s: reference score %d, database %s winby %d\n", text, score,
                        value_name(db_raw_value(e->db, raw)), e->db->winby[p]);
        }
    }
}

/* The exact score (x discs minus o discs under perfect play) of board b
 * with `me` to move; walks every game from it. */
static int ref_walk(Ref *e, const char *b, char me) {
    char opp = me == 'x' ? 'o' : 'x';
    int cells = e->w * e->h, score;
    if (!ref_can_move(e, b, me)) {
        if (!ref_can_move(e, b, opp)) {
            score = 0;
            for (int sq = 0; sq < cells; sq++) {
                score += b[sq] == 'x' ? 1 : b[sq] == 'o' ? -1 : 0;
            }
            e->games++;
        } else {
            score = ref_walk(e, b, opp); /* pass */
        }
    } else {
        score = me == 'x' ? -1000 : 1000;
        for (int sq = 0; sq < cells; sq++) {
            int flips[64];
            int n = ref_flips(e, b, sq / e->w, sq % e->w, me, flips);
            if (n == 0) {
                continue;
            }
            char child[64];
            memcpy(child, b, (size_t)cells);
            child[sq] = me;
            for (int k = 0; k < n; k++) {
                child[flips[k]] = me;
            }
            int s = ref_walk(e, child, opp);
            score = me == 'x' ? (s > score ? s : score) : (s < score ? s : score);
        }
    }
    ref_check(e, b, me, score);
    return score;
}

/* The standard start: white on the top-left and bottom-right centre
 * squares, black on the other two. */
static void ref_start(int w, int h, char *b) {
    memset(b, '-', (size_t)(w * h));
    int r = h / 2 - 1, c = w / 2 - 1;
    b[r * w + c] = 'o';
    b[(r + 1) * w + c + 1] = 'o';
    b[r * w + c + 1] = 'x';
    b[(r + 1) * w + c] = 'x';
}

/* Walks the reference tree of a w x h board against dfs; returns the root
 * score and fills the walk's counts. */
static int reference_check(const char *spec, int w, int h, Ref *e, SolveResult *res) {
    Game *g = test_game(spec);
    test_solve("dfs", g, res);
    *e = (Ref){.w = w, .h = h, .g = g, .db = &res->db};
    e->seen = calloc(g->num_positions, 1);
    assert_non_null(e->seen);
    char b[64];
    ref_start(w, h, b);
    int score = ref_walk(e, b, 'x');
    if (e->mismatches > 0) {
        fail_msg("%s: the database disagrees with the reference engine at %llu positions", spec,
                 (unsigned long long)e->mismatches);
    }
    DbSummary s;
    Error err = {0};
    assert_int_equal(db_summarize(&res->db, false, &s, &err), ERR_OK);
    assert_int_equal(s.positions, e->distinct); /* nothing reached that play cannot reach */
    free(e->seen);
    game_destroy(g);
    return score;
}

/* ------------------------------------------------------------------ tests */

static void four_by_four_second_player_wins(void **state) {
    (void)state;
    Ref e;
    SolveResult res;
    int score = reference_check("othello", 4, 4, &e, &res);
    assert_int_equal(e.games, 4 * 15015); /* the published game count */
    assert_true(score < 0);               /* the published result: white wins */
    assert_int_equal(res.root.value, VALUE_LOSE);
    assert_int_equal(res.root_winby, score);
    solve_result_free(&res);
    /* Every other solver agrees at the root, with and without symmetry. */
    static const char *const solvers[] = {"gps", "gps-cached", "minimax"};
    static const char *const specs[] = {"othello", "othello:sym"};
    for (int k = 0; k < 2; k++) {
        Game *g = test_game(specs[k]);
        for (int i = 0; i < 3; i++) {
            SolveResult r;
            test_solve(solvers[i], g, &r);
            assert_int_equal(r.root.value, VALUE_LOSE);
            assert_int_equal(r.root_winby, score);
            solve_result_free(&r);
        }
        game_destroy(g);
    }
}

/* minimax walks the whole tree: its leaves (calls that did not generate
 * moves) are the games. */
static void minimax_counts_the_published_games(void **state) {
    (void)state;
#if STATS
    Game *g = test_game("othello");
    SolveResult res;
    test_solve("minimax", g, &res);
    assert_int_equal(res.counters.calls - res.counters.generate_moves, 4 * 15015);
    solve_result_free(&res);
    game_destroy(g);
#else
    skip();
#endif
}

/* The smaller boards, rectangles included, against the reference engine. */
static void small_boards_match_the_reference(void **state) {
    (void)state;
    static const struct {
        const char *spec;
        int w, h;
    } boards[] = {{"othello:w=4,h=2", 4, 2},
                  {"othello:w=2,h=4", 2, 4},
                  {"othello:w=6,h=2", 6, 2},
                  {"othello:w=2,h=6", 2, 6},
                  {"othello:w=2,h=8", 2, 8}};
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        Ref e;
        SolveResult res;
        int score = reference_check(boards[i].spec, boards[i].w, boards[i].h, &e, &res);
        assert_int_equal(res.root_winby, score);
        solve_result_free(&res);
    }
}

/* Hand analysis of 4x2 (rows "-ox-" and "-xo-", x to move). x can play a1
 * (flipping b1 through c1) or d2 (flipping c2 through b2); they are
 * mirror images under the half turn. After a1 (rows "xxx-", "-xo-"), o's
 * only move is a2, flipping b2 through c2: rows "xxx-", "ooo-". Now d1 and
 * d2 flip nothing for either player (the rows end at the edge, the
 * diagonals leave the board), so the game ends 3-3: a tie in 2, WinBy 0.
 * 2x4 is the same game transposed (the start maps onto itself). */
static void four_by_two_by_hand(void **state) {
    (void)state;
    static const char *const specs[] = {"othello:w=4,h=2", "othello:w=2,h=4"};
    for (int k = 0; k < 2; k++) {
        Game *g = test_game(specs[k]);
        SolveResult res;
        test_solve("dfs", g, &res);
        assert_int_equal(res.root.value, VALUE_TIE);
        assert_int_equal(res.root.remoteness, 2);
        assert_int_equal(res.root_winby, 0);
        solve_result_free(&res);
        game_destroy(g);
    }
    Game *g = test_game("othello:w=4,h=2");
    Position p, q;
    Error err = {0};
    assert_int_equal(g->ops->parse(g, "-ox--xo-:x", &p, &err), ERR_OK);
    assert_int_equal(p, g->initial);
    Move moves[GAME_MAX_MOVES];
    assert_int_equal(g->ops->generate_moves(g, p, moves), 2);
    p = g->ops->do_move(g, p, 0); /* a1 */
    assert_int_equal(g->ops->parse(g, "xxx--xo-:o", &q, &err), ERR_OK);
    assert_int_equal(p, q);
    assert_int_equal(g->ops->generate_moves(g, p, moves), 1);
    assert_int_equal(moves[0], 4); /* a2 */
    p = g->ops->do_move(g, p, 4);
    assert_int_equal(g->ops->parse(g, "xxx-ooo-:x", &q, &err), ERR_OK);
    assert_int_equal(p, q);
    assert_int_equal(g->ops->primitive(g, p), VALUE_TIE);
    assert_int_equal(g->ops->winby(g, p), 0);
    game_destroy(g);
}

/* 2x2: the start fills the board, so the game is over before it begins:
 * two discs each, a tie at remoteness 0. */
static void two_by_two_is_over_at_the_start(void **state) {
    (void)state;
    Game *g = test_game("othello:n=2");
    SolveResult res;
    test_solve("dfs", g, &res);
    assert_int_equal(res.root.value, VALUE_TIE);
    assert_int_equal(res.root.remoteness, 0);
    assert_int_equal(res.root_winby, 0);
    solve_result_free(&res);
    game_destroy(g);
}

/* Black's four first moves are one move up to the symmetries that fix the
 * start (the blog's observation above), so with sym the start has exactly
 * one distinct child; without sym, four. */
static void first_moves_are_symmetric(void **state) {
    (void)state;
    for (int sym = 0; sym <= 1; sym++) {
        Game *g = test_game(sym ? "othello:sym" : "othello");
        Move moves[GAME_MAX_MOVES];
        Position root = game_canonical(g, g->initial), children[GAME_MAX_MOVES];
        int n = g->ops->generate_moves(g, root, moves), distinct = 0;
        assert_int_equal(n, 4);
        for (int i = 0; i < n; i++) {
            Position c = game_canonical(g, g->ops->do_move(g, root, moves[i]));
            bool fresh = true;
            for (int k = 0; k < distinct; k++) {
                fresh &= children[k] != c;
            }
            if (fresh) {
                children[distinct++] = c;
            }
        }
        assert_int_equal(distinct, sym ? 1 : 4);
        game_destroy(g);
    }
}

/* Malformed and impossible positions are refused with a message. */
static void parse_refuses_impossible_positions(void **state) {
    (void)state;
    Game *g = test_game("othello");
    static const char *const bad[] = {
        "-----ox--xo-----",    /* no player to move */
        "-----ox--xo-----:z",  /* bad player */
        "-----ox--xo-----;x",  /* bad separator */
        "-----ox--xo----:x",   /* a square short */
        "-----oq--xo-----:x",  /* bad square */
        "-----o---xo-----:x",  /* an empty centre square */
        "-----ox--xo------:x", /* a square too many */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Position p;
        Error err = {0};
        if (g->ops->parse(g, bad[i], &p, &err) != ERR_USAGE) {
            fail_msg("othello accepted '%s'", bad[i]);
        }
        assert_true(strlen(err.msg) > 0);
    }
    Position p;
    Error err = {0};
    assert_int_equal(g->ops->parse(g, "-----OX--XO----- X", &p, &err), ERR_OK);
    assert_int_equal(p, g->initial);
    game_destroy(g);
    /* On 4x4 every square touches the centre; on 2x8 a1 does not. */
    g = test_game("othello:w=2,h=8");
    assert_int_equal(g->ops->parse(g, "------oxxo------:x", &p, &err), ERR_OK);
    assert_int_equal(p, g->initial);
    assert_int_equal(g->ops->parse(g, "x-----oxxo------:o", &p, &err), ERR_USAGE);
    assert_non_null(strstr(err.msg, "connected"));
    game_destroy(g);
}

/* Sizes: odd sides, mixed n with w/h and boards too large to hash are
 * refused; 6x6 hashes but its database is refused with the estimate. */
static void variants_are_checked(void **state) {
    (void)state;
    static const char *const bad[] = {"othello:n=5", "othello:w=3,h=4", "othello:n=4,w=4",
                                      "othello:n=8", "othello:w=6,h=8", "othello:n=10"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Game *g = NULL;
        Error err = {0};
        ErrCode rc = game_create(bad[i], &g, &err);
        if (rc != ERR_USAGE) { /* a bad option, too large to hash included (exit 2) */
            fail_msg("%s: code %d, not ERR_USAGE (%s)", bad[i], (int)rc, err.msg);
        }
        assert_true(strlen(err.msg) > 0);
    }
    Game *g = test_game("othello:n=6");
    Database db;
    Error err = {0};
    assert_int_equal(solver_db_create(g, &db, &err), ERR_MEMORY);
    assert_non_null(strstr(err.msg, "needs an estimated"));
    game_destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(four_by_four_second_player_wins),
        cmocka_unit_test(minimax_counts_the_published_games),
        cmocka_unit_test(small_boards_match_the_reference),
        cmocka_unit_test(four_by_two_by_hand),
        cmocka_unit_test(two_by_two_is_over_at_the_start),
        cmocka_unit_test(first_moves_are_symmetric),
        cmocka_unit_test(parse_refuses_impossible_positions),
        cmocka_unit_test(variants_are_checked),
    };
    return cmocka_run_group_tests_name("known figures: othello", tests, NULL, NULL);
}
