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
 * the whole game tree and computes every position's exact score (player
 * one maximizes, player two minimizes). Every registered solver that
 * supports the game (solver_supports: today dfs, gps, gps-cached,
 * dfs-depth, retro, sweep and minimax; tier needs tiers, which Othello does
 * not declare, retro-unmove un-moves, symbolic a Boolean encoding, and
 * search keeps no WinBy) is checked against it on the smaller boards (one
 * with sym), and on 4x4 with and without sym (heavy: TEST_HEAVY=1; dfs
 * alone on 4x4 otherwise): its root value and WinBy, and for a
 * solver with a database every reached position's record, through the
 * game's text interface (parse of the engine's board, canonical under
 * sym): the same reachable positions, the same WinBy score, and a value
 * that agrees with the sign of the score for the player to move (a
 * partial database, dfs-depth's, in the positions it holds).
 */
#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------- reference engine */

/* A reached position: the engine's text of it ("<cells>:<x|o>") and its
 * exact score. */
typedef struct RefPos {
    char text[24];
    int score;
} RefPos;

typedef struct Ref {
    int w, h;
    const Game *g;  /* the plain game (no sym), for parse() only */
    uint8_t *seen;  /* per position of g: reached by the walk */
    RefPos *list;   /* the distinct reached positions, in the walk's order */
    uint64_t count; /* their number */
    uint64_t games; /* leaves of the game tree */
    int root;       /* the start's score */
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

/* Records (b, me) and its score, once per position. */
static void ref_record(Ref *e, const char *b, char me, int score) {
    char text[24];
    int cells = e->w * e->h;
    assert_true(cells + 3 <= (int)sizeof text);
    memcpy(text, b, (size_t)cells);
    text[cells] = ':';
    text[cells + 1] = me;
    text[cells + 2] = '\0';
    Position p;
    Error err = {0};
    if (e->g->ops->parse(e->g, text, &p, &err) != ERR_OK) {
        fail_msg("a position of the reference walk was refused: %s", err.msg);
    }
    if (e->seen[p]) {
        return;
    }
    e->seen[p] = 1;
    if ((e->count & (e->count + 1)) == 0) { /* 0, 1, 3, 7, ...: grow */
        e->list = realloc(e->list, 2 * (e->count + 1) * sizeof *e->list);
        assert_non_null(e->list);
    }
    RefPos *r = &e->list[e->count++];
    memcpy(r->text, text, sizeof text);
    r->score = score;
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
    ref_record(e, b, me, score);
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

/* Walks the reference tree of a w x h board (spec: the plain game). */
static void reference_walk(const char *spec, int w, int h, Ref *e) {
    Game *g = test_game(spec);
    *e = (Ref){.w = w, .h = h, .g = g};
    e->seen = calloc(g->num_positions, 1);
    assert_non_null(e->seen);
    char b[64];
    ref_start(w, h, b);
    e->root = ref_walk(e, b, 'x');
    free(e->seen);
    e->seen = NULL;
    game_destroy(g);
    e->g = NULL;
}

/* Solves spec with solver s and checks it against the reference: the root
 * value and WinBy, and with a database, each reached position's record
 * (at its canonical position; a partial database where it holds one), and
 * no other position reached. */
static void check_solver(const Ref *e, const char *spec, const SolverModule *s) {
    Game *g = test_game(spec);
    SolveResult res;
    test_solve(s->name, g, &res);
    Value root = e->root > 0 ? VALUE_WIN : e->root < 0 ? VALUE_LOSE : VALUE_TIE;
    if (res.root.value != root || !res.has_winby || res.root_winby != e->root) {
        fail_msg("%s by %s: the start is %s with WinBy %d, the reference says %s with %d", spec,
                 s->name, value_name(res.root.value), res.root_winby, value_name(root), e->root);
    }
    if (res.has_db) {
        const Database *db = &res.db;
        assert_non_null(db->winby);
        uint8_t *canon = calloc(g->num_positions, 1);
        assert_non_null(canon);
        uint64_t mismatches = 0, held = 0, classes = 0;
        for (uint64_t i = 0; i < e->count; i++) {
            const RefPos *r = &e->list[i];
            Position p;
            Error err = {0};
            if (g->ops->parse(g, r->text, &p, &err) != ERR_OK) {
                fail_msg("%s refused the reference's '%s': %s", spec, r->text, err.msg);
            }
            p = game_canonical(g, p);
            classes += !canon[p];
            canon[p] = 1;
            uint32_t raw = db_peek(db, p);
            if (!db_raw_solved(db, raw) && s->partial_db) {
                continue;
            }
            held++;
            int mine = r->text[e->w * e->h + 1] == 'x' ? r->score : -r->score;
            Value want = mine > 0 ? VALUE_WIN : mine < 0 ? VALUE_LOSE : VALUE_TIE;
            if (!db_raw_solved(db, raw) || db_raw_value(db, raw) != want ||
                db->winby[p] != r->score) {
                if (mismatches++ < 5) {
                    print_error("%s by %s, %s: reference score %d, database %s winby %d\n", spec,
                                s->name, r->text, r->score,
                                db_raw_solved(db, raw) ? value_name(db_raw_value(db, raw))
                                                       : "unsolved",
                                db->winby[p]);
                }
            }
        }
        if (mismatches > 0) {
            fail_msg("%s by %s: the database disagrees with the reference engine at %llu positions",
                     spec, s->name, (unsigned long long)mismatches);
        }
        assert_true(held > 0);
        if (!s->partial_db) {
            DbSummary sum;
            Error err = {0};
            assert_int_equal(db_summarize(db, false, &sum, &err), ERR_OK);
            assert_int_equal(sum.positions, classes); /* nothing reached that play cannot reach */
        }
        free(canon);
    }
    solve_result_free(&res);
    game_destroy(g);
}

/* Every registered solver that supports spec, against the reference;
 * returns how many, and sets covered[i] for solver_registry[i]. */
static int check_every_solver(const Ref *e, const char *spec, bool *covered) {
    Game *g = test_game(spec);
    int n = 0;
    for (int i = 0; solver_registry[i] != NULL; i++) {
        assert_true(i < 64);
        if (solver_supports(solver_registry[i], g, NULL, 0)) {
            check_solver(e, spec, solver_registry[i]);
            covered[i] = true;
            n++;
        }
    }
    game_destroy(g);
    return n;
}

/* ------------------------------------------------------------------ tests */

/* The solvers that run Othello today must all be among those covered (a
 * solver that stops supporting it fails here); and tier with them should
 * Othello ever declare tiers. */
static void expect_every_solver(const bool *covered) {
    static const char *const expected[] = {"dfs",   "gps",   "gps-cached", "dfs-depth",
                                           "retro", "sweep", "minimax"};
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        bool found = false;
        for (int r = 0; solver_registry[r] != NULL; r++) {
            found |= covered[r] && strcmp(solver_registry[r]->name, expected[i]) == 0;
        }
        if (!found) {
            fail_msg("%s no longer solves othello", expected[i]);
        }
    }
    Game *g = test_game("othello");
    if (g->tiers != NULL) {
        const SolverModule *t = solver_find("tier");
        assert_true(t == NULL || solver_supports(t, g, NULL, 0));
    }
    game_destroy(g);
}

/* The published result and game count, then dfs position by position;
 * heavy (TEST_HEAVY=1: the smaller boards run every solver), every solver,
 * without sym and with it (sweep's sym solve alone takes about a second). */
static void four_by_four_second_player_wins(void **state) {
    (void)state;
    Ref e;
    reference_walk("othello", 4, 4, &e);
    assert_int_equal(e.games, 4 * 15015); /* the published game count */
    assert_true(e.root < 0);              /* the published result: white wins */
    if (test_heavy_all()) {
        bool covered[64] = {false}; /* per solver of the registry */
        static const char *const specs[] = {"othello", "othello:sym"};
        for (int k = 0; k < 2; k++) {
            assert_true(check_every_solver(&e, specs[k], covered) > 0);
        }
        expect_every_solver(covered);
    } else {
        check_solver(&e, "othello", solver_find("dfs"));
    }
    free(e.list);
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

/* The smaller boards, rectangles included (one with sym): every solver
 * against the reference engine (the walk on the board without sym), and
 * every solver that runs Othello among them. */
static void small_boards_match_the_reference(void **state) {
    (void)state;
    static const struct {
        const char *spec;
        int w, h;
    } boards[] = {{"othello:w=4,h=2", 4, 2}, {"othello:w=2,h=4", 2, 4},
                  {"othello:w=6,h=2", 6, 2}, {"othello:w=6,h=2,sym", 6, 2},
                  {"othello:w=2,h=6", 2, 6}, {"othello:w=2,h=8", 2, 8}};
    bool covered[64] = {false}; /* per solver of the registry */
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        char plain[32];
        snprintf(plain, sizeof plain, "othello:w=%d,h=%d", boards[i].w, boards[i].h);
        Ref e;
        reference_walk(plain, boards[i].w, boards[i].h, &e);
        assert_true(check_every_solver(&e, boards[i].spec, covered) > 0);
        free(e.list);
    }
    expect_every_solver(covered);
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
