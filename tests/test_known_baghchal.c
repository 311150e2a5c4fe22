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
 *
 * The speed work of 2026-11-26 (games/baghchal.c: the decoding cache, the
 * canonical board found image by image, the jump table) is checked against
 * code that shares none of it: the canonical board against the image
 * chosen here (least tiger set, then least goat set, as masks; until
 * 2026-11-27 the least text) from the transforms of the square written
 * out by (row, column) and the parity rule of the diagonals; the
 * cache against the module with the cache off (baghchal_test_nocache),
 * position by position, on random games of 5x5 and by whole databases on
 * the small boards, with two variants interleaved so that one's cached
 * slots could answer for the other's.
 *
 * The tier fast path (TierOps.expand_run, 2026-11-27) against the
 * stateless family, slot by slot on every tier (sliding ones too) over
 * random spans and marks: the same slots visited, the same expansions,
 * the same counters; tests/test_tier.c compares whole solves with
 * `tier:generic`.
 *
 * The sliding phase alone (tier:sector of the tier (0, 0)): every position
 * retro reaches from the start and the sector holds has retro's record, and
 * each sliding tier holds exactly the slots whose text parse() accepts and
 * (with `sym`) whose board is its canonical image (least_image).
 *
 * The index by classes (`sym`, 2026-11-27): each tier's size against
 * Burnside's count of the tiger sets (computed here from the geometry, as
 * scripts/baghchal/burnside.awk does), every slot's round trip, the
 * canonical slots against Burnside's count of the boards, every canonical
 * position's slot; and the sym databases' records against the plain ones'
 * position by position, by retro, tier and tier:sector.
 */
#include "tests/testutil.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "games/baghchal.h"
#include "solvers/expand.h"

static void placement(void **state) {
    (void)state;
    Game *g = test_game("baghchal:n=3");
    char buf[GAME_TEXT_MAX];
    g->ops->format(g, g->initial, buf, sizeof buf);
    assert_string_equal(buf, "T-T---T-T:G:4:0");
    test_assert_moves(g, "T-T---T-T:G:4:0", "b3 a2 b2 c2 b1");
    /* a goat on the board cannot slide while goats are in hand */
    test_assert_moves(g, "TGT---T-T:G:3:0", "a2 b2 c2 b1");
    test_assert_after(g, "TGT---T-T:G:3:0", "b2", "TGT-G-T-T:T:2:0");
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
    test_assert_moves(g, a,
                      "c3xc5 c3-c2 c3-d3 c3-b4 c3xe5 c3-b2 "
                      "d2-d3 d2-d1 d2-c2 d2-e2 d2-e3 d2-c1 d2-e1");
    test_assert_after(g, a, "c3xe5", "----T--G--GG------T------:G:16:1");
    test_assert_after(g, a, "c3xc5", "--T-----G-GG------T------:G:16:1");
    test_assert_after(g, a, "c3-b4", "------TGG-GG------T------:G:16:0");
    game_destroy(g);

    g = test_game("baghchal:tigers=1");
    /* b4 (even) by the edge: no jump off the board over a5, b5 or a4 */
    test_assert_moves(g, "GG---GT------------------:T:17:0", "b4-c5 b4-c4 b4-b3 b4-a3 b4-c3");
    /* b3 is an odd point: no diagonal, so no diagonal jump over c4 either */
    test_assert_moves(g, "-------G---T-------------:T:19:0", "b3-b4 b3-a3 b3-c3 b3-b2");
    /* c3 in the open: 8 slides */
    test_assert_moves(g, "G-----------T------------:T:19:0",
                      "c3-b4 c3-c4 c3-d4 c3-b3 c3-d3 c3-b2 c3-c2 c3-d2");
    game_destroy(g);

    g = test_game("baghchal:tigers=1,diag=0");
    test_assert_moves(g, "G-----------T------------:T:19:0", "c3-c4 c3-b3 c3-d3 c3-c2");
    test_assert_moves(g, "-------G----T------------:T:19:0", "c3xc5 c3-b3 c3-d3 c3-c2");
    game_destroy(g);
}

static void goat_slides(void **state) {
    (void)state;
    /* 3x3, all four goats placed on the edge points, the centre empty: the
     * goats slide to it orthogonally (edge points are odd); the tigers on
     * the corners (even) slide to it diagonally, and cannot jump (the points
     * beyond their goat neighbours are tigers). */
    Game *g = test_game("baghchal:n=3");
    test_assert_moves(g, "TGTG-GTGT:G:0:0", "b3-b2 a2-b2 c2-b2 b1-b2");
    test_assert_moves(g, "TGTG-GTGT:T:0:0", "a3-b2 c3-b2 a1-b2 c1-b2");
    test_assert_after(g, "TGTG-GTGT:G:0:0", "b3-b2", "T-TGGGTGT:T:0:0");
    /* the empty edge point b3 (odd) has no diagonal: only b2 reaches it */
    test_assert_moves(g, "T-TGGGTGT:G:0:0", "b2-b3");
    game_destroy(g);
    /* three tigers (a3, c1, c3): the goat on the centre (even) slides
     * diagonally to the empty corner a1 as well as down to b1; a2 (odd)
     * only down; b3 and c2 are shut in */
    g = test_game("baghchal:n=3,tigers=3");
    test_assert_moves(g, "TGTGGG--T:G:0:0", "a2-a1 b2-a1 b2-b1");
    game_destroy(g);
}

static void wins(void **state) {
    (void)state;
    /* The fifth capture wins (5x5 default): the goats to move have lost. */
    Game *g = test_game("baghchal:tigers=1");
    Position p = test_parse_ok(g, "-------G----T------------:T:15:4");
    assert_int_equal(g->ops->primitive(g, p), VALUE_UNDECIDED);
    test_assert_after(g, "-------G----T------------:T:15:4", "c3xc5",
                      "--T----------------------:G:15:5");
    assert_int_equal(g->ops->primitive(g, test_parse_ok(g, "--T----------------------:G:15:5")),
                     VALUE_LOSE);
    game_destroy(g);

    /* Tigers immobilized: without diagonals, the corner tigers of 3x3 are
     * shut in by the four edge goats (the jumps land on tigers); with them,
     * each has the centre. */
    g = test_game("baghchal:n=3,diag=0");
    assert_int_equal(g->ops->primitive(g, test_parse_ok(g, "TGTG-GTGT:T:0:0")), VALUE_LOSE);
    game_destroy(g);
    g = test_game("baghchal:n=3");
    assert_int_equal(g->ops->primitive(g, test_parse_ok(g, "TGTG-GTGT:T:0:0")), VALUE_UNDECIDED);
    game_destroy(g);
    /* 4x4: twelve goats placed without a capture fill the board. */
    g = test_game("baghchal:n=4");
    assert_int_equal(g->ops->primitive(g, test_parse_ok(g, "TGGTGGGGGGGGTGGT:T:0:0")), VALUE_LOSE);
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
            assert_int_equal(outcome_at(g, &res, test_parse_ok(g, "T---G----:T:0:0")).value,
                             VALUE_DRAW);
            Outcome o = outcome_at(g, &res, test_parse_ok(g, "TG-------:T:0:0"));
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
    assert_true(g->ops->canonical(g, test_parse_ok(g, "-T--------------:G:3:0")) ==
                g->ops->canonical(g, test_parse_ok(g, "-------T--------:G:3:0")));
    game_destroy(g);
    g = test_game("baghchal:n=4,tigers=1,goats=3,diag=1,sym");
    assert_true(g->ops->canonical(g, test_parse_ok(g, "-T--------------:G:3:0")) !=
                g->ops->canonical(g, test_parse_ok(g, "-------T--------:G:3:0")));
    assert_true(g->ops->canonical(g, test_parse_ok(g, "-T--------------:G:3:0")) ==
                g->ops->canonical(g, test_parse_ok(g, "--------------T-:G:3:0")));
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

/* ------------------------------------------- speed work against plain code */

/* The option `name`'s value in g's variant string ("n=4,tigers=4,..."). */
static int variant_int(const Game *g, const char *name) {
    char key[32];
    snprintf(key, sizeof key, "%s=", name);
    const char *at = strstr(g->variant, key);
    assert_non_null(at);
    return atoi(at + strlen(key));
}

/* The set of the points of text[0..np) that hold `piece`, as a mask (bit
 * i: point i). */
static uint32_t text_mask(const char *text, int np, char piece) {
    uint32_t m = 0;
    for (int i = 0; i < np; i++) {
        m |= (uint32_t)(text[i] == piece) << i;
    }
    return m;
}

/* The canonical image of the board text[0..n*n) under the square's 8
 * transforms, written out by (row, column); with diagonals only those that
 * keep the parity of row + column at every point: of the images, the one
 * whose tiger set, as a mask (bit i: point i), is least, and of those the
 * one whose goat set is least (games/baghchal.c's canonical board, which
 * the index by classes needs: the tigers their class's representative).
 * Writes the n * n points to out (no terminator). */
static void least_image(const Game *g, const char *text, char *out) {
    int n = variant_int(g, "n"), m = n - 1;
    bool diag = variant_int(g, "diag") != 0;
    int np = n * n;
    char board[32];
    memcpy(board, text, (size_t)np);
    memcpy(out, board, (size_t)np);
    for (int t = 1; t < 8; t++) {
        char img[32];
        bool keeps = true;
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                /* t: the quarter turn, half turn, three quarters, the
                 * left-right and top-bottom mirrors, the two diagonals */
                const int to_r[8] = {r, c, m - r, m - c, r, m - r, c, m - c};
                const int to_c[8] = {c, m - r, m - c, r, m - c, c, r, m - r};
                int r2 = to_r[t], c2 = to_c[t];
                keeps = keeps && (!diag || (r + c) % 2 == (r2 + c2) % 2);
                img[r2 * n + c2] = board[r * n + c];
            }
        }
        uint32_t it = text_mask(img, np, 'T'), ot = text_mask(out, np, 'T');
        if (keeps && (it < ot || (it == ot && text_mask(img, np, 'G') < text_mask(out, np, 'G')))) {
            memcpy(out, img, (size_t)np);
        }
    }
}

/* The position of p's board replaced by its canonical image (same player
 * and counts), by text. */
static Position text_canonical(const Game *g, Position p) {
    char text[GAME_TEXT_MAX];
    g->ops->format(g, p, text, sizeof text);
    least_image(g, text, text);
    return test_parse_ok(g, text);
}

/* What the stateless family says of p: the primitive value, the moves and
 * each move's canonical child, as one comparable record. */
typedef struct Said {
    Value v;
    int n, turn;
    Move moves[GAME_MAX_MOVES];
    Position kids[GAME_MAX_MOVES], canon;
} Said;

static void say(const Game *g, Position p, Said *s) {
    memset(s, 0, sizeof *s);
    s->v = g->ops->primitive(g, p);
    s->turn = g->ops->turn(g, p);
    s->canon = game_canonical(g, p);
    s->n = s->v == VALUE_UNDECIDED ? g->ops->generate_moves(g, p, s->moves) : 0;
    for (int i = 0; i < s->n; i++) {
        s->kids[i] = game_canonical(g, g->ops->do_move(g, p, s->moves[i]));
    }
}

static void assert_said_same(const Game *g, Position p, const Said *a, const Said *b) {
    if (a->v != b->v || a->n != b->n || a->turn != b->turn || a->canon != b->canon ||
        memcmp(a->moves, b->moves, (size_t)a->n * sizeof a->moves[0]) != 0 ||
        memcmp(a->kids, b->kids, (size_t)a->n * sizeof a->kids[0]) != 0) {
        char text[GAME_TEXT_MAX];
        g->ops->format(g, p, text, sizeof text);
        fail_msg("%s %s: the cache changes what the module says (value %d/%d, moves %d/%d)",
                 g->variant, text, a->v, b->v, a->n, b->n);
    }
}

/* Random games (placement, then sliding) on sym variants, 5x5 among them:
 * at every position the canonical board is least_image's,
 * and the module says the same with its cache off. */
static void canonical_and_cache_on_random_games(void **state) {
    (void)state;
    static const char *const specs[] = {"baghchal:sym", "baghchal:n=4,sym",
                                        "baghchal:n=4,diag=1,sym", "baghchal:n=3,sym",
                                        "baghchal:n=5,tigers=2,goats=12,captures=4,sym"};
    uint64_t rng = 0x9e3779b97f4a7c15u;
    for (size_t v = 0; v < sizeof specs / sizeof specs[0]; v++) {
        Game *g = test_game(specs[v]);
        for (int game = 0; game < 40; game++) {
            Position p = g->initial;
            for (int ply = 0; ply < 120; ply++) {
                Said on, off;
                say(g, p, &on);
                baghchal_test_nocache = true;
                say(g, p, &off);
                baghchal_test_nocache = false;
                assert_said_same(g, p, &on, &off);
                if (on.canon != text_canonical(g, p)) {
                    char text[GAME_TEXT_MAX];
                    g->ops->format(g, p, text, sizeof text);
                    fail_msg("%s %s: canonical is not the reference's image", g->variant, text);
                }
                if (on.n == 0) {
                    break;
                }
                p = g->ops->do_move(g, p, on.moves[test_rng(&rng) % (uint64_t)on.n]);
            }
        }
        game_destroy(g);
    }
}

/* Two variants whose position numbers mean different boards, asked in
 * turn about the same numbers: each must answer as it does alone with the
 * cache off (a slot is the variant's, not the number's). */
static void cache_keeps_variants_apart(void **state) {
    (void)state;
    Game *a = test_game("baghchal:n=3");
    Game *b = test_game("baghchal:n=3,tigers=2,goats=5,captures=2");
    uint64_t top = a->num_positions < b->num_positions ? a->num_positions : b->num_positions;
    for (Position p = 0; p < top; p++) {
        Said sa, sb, ra, rb;
        say(a, p, &sa);
        say(b, p, &sb);
        baghchal_test_nocache = true;
        say(a, p, &ra);
        say(b, p, &rb);
        baghchal_test_nocache = false;
        assert_said_same(a, p, &sa, &ra);
        assert_said_same(b, p, &sb, &rb);
    }
    game_destroy(a);
    game_destroy(b);
}

/* Whole databases: retro and tier with the cache equal retro without it,
 * record for record, and retro's counters equal. */
static void cache_keeps_databases(void **state) {
    (void)state;
    static const char *const specs[] = {"baghchal:n=3", "baghchal:n=3,sym",
                                        "baghchal:n=4,goats=2,captures=1",
                                        "baghchal:n=4,tigers=2,goats=4,captures=2,sym"};
    for (size_t v = 0; v < sizeof specs / sizeof specs[0]; v++) {
        Game *g = test_game(specs[v]);
        SolveResult plain, retro, tier;
        baghchal_test_nocache = true;
        test_solve("retro", g, &plain);
        baghchal_test_nocache = false;
        test_solve("retro", g, &retro);
        test_solve("tier", g, &tier);
        test_assert_same_db(&plain.db, &retro.db);
        test_assert_same_db(&plain.db, &tier.db);
        /* A hit counts the unhash it saves: the counters are the same with
         * and without the cache (and so on any number of threads). */
        assert_memory_equal(&plain.counters, &retro.counters, sizeof plain.counters);
        solve_result_free(&plain);
        solve_result_free(&retro);
        solve_result_free(&tier);
        game_destroy(g);
    }
}

/* The sliding phase alone: tier:sector of the tier (0, 0), the first of
 * the last captures + 1 tiers (games/baghchal.c's layout). Every position
 * that retro reaches from the start and the sector holds has retro's
 * record; each sliding tier holds exactly the slots whose text parse()
 * accepts and, with sym, whose board is its canonical image
 * (text_canonical);
 * the sector's own counts add up. */
static void sliding_phase_sector(void **state) {
    (void)state;
    static const char *const specs[] = {"baghchal:n=3", "baghchal:n=3,sym",
                                        "baghchal:n=4,goats=2,captures=1",
                                        "baghchal:n=4,tigers=2,goats=4,captures=2,sym",
                                        "baghchal:n=4,tigers=3,goats=4,captures=2,diag=1,sym"};
    for (size_t v = 0; v < sizeof specs / sizeof specs[0]; v++) {
        Game *g = test_game(specs[v]);
        int slide = g->tiers->count(g) - (variant_int(g, "captures") + 1);
        SolveResult retro, sector;
        test_solve("retro", g, &retro);
        char opts[32];
        snprintf(opts, sizeof opts, "sector=%d", slide);
        Error err = {0};
        if (test_run_tier(g, opts, 2, NULL, &sector, &err) != ERR_OK) {
            fail_msg("%s tier:%s: %s", g->variant, opts, err.msg);
        }
        assert_true(sector.has_db);
        uint64_t shared = 0, held = 0, own = 0, expected = 0, expected_own = 0;
        for (Position p = 0; p < g->num_positions; p++) {
            uint32_t r = db_peek(&retro.db, p), w = db_peek(&sector.db, p);
            if (g->tiers->tier_of(g, p) < slide) {
                assert_int_equal(w, DB_UNREACHED); /* no placement tier */
                continue;
            }
            char text[GAME_TEXT_MAX];
            Position q;
            g->ops->format(g, p, text, sizeof text);
            bool counted = g->ops->parse(g, text, &q, &err) == ERR_OK &&
                           (!g->symmetric || text_canonical(g, p) == p);
            bool mine = g->tiers->tier_of(g, p) == slide;
            expected += counted;
            expected_own += counted && mine;
            if (counted != (w != DB_UNREACHED)) {
                fail_msg("%s %s: tier:sector %s it", g->variant, text,
                         counted ? "left out" : "holds");
            }
            held += w != DB_UNREACHED;
            own += w != DB_UNREACHED && mine;
            if (r != DB_UNREACHED) {
                if (r != w) {
                    fail_msg("%s %s: retro %u, tier:sector %u", g->variant, text, r, w);
                }
                shared++;
            }
        }
        assert_true(shared > 0 && held > shared); /* the sector holds unreachable positions */
        assert_int_equal(held, expected);
        assert_int_equal(own, expected_own);
        assert_int_equal(test_extra(&sector, "sector_positions"), expected_own);
        assert_int_equal(test_extra(&sector, "sector_wins") + test_extra(&sector, "sector_losses") +
                             test_extra(&sector, "sector_ties") +
                             test_extra(&sector, "sector_draws"),
                         expected_own);
        solve_result_free(&retro);
        solve_result_free(&sector);
        game_destroy(g);
    }
}

/* What the fast path's walk of one span saw, checked as it goes. */
typedef struct FastSeen {
    const Game *g;
    int tier;
    const uint64_t *marks; /* the tier's whole bitmap */
    bool all;              /* instead: every slot of the span marked */
    uint64_t next, hi;     /* the first slot not yet passed; the span's end */
    uint64_t visited;
    Counters fast, generic; /* what each path counted */
} FastSeen;

static void fast_seen(void *ctx, uint64_t i, Position pos, const TierExpansion *e) {
    FastSeen *f = ctx;
    const Game *g = f->g;
    stats_thread_collect(&f->fast); /* the fast path's counts up to here */
    uint64_t want = f->next;
    while (!f->all && want < f->hi && (f->marks[want / 64] >> (want % 64) & 1) == 0) {
        want++;
    }
    if (i != want) {
        fail_msg("%s tier %d: the fast path visits slot %" PRIu64 ", not %" PRIu64, g->variant,
                 f->tier, i, want);
    }
    f->next = i + 1;
    f->visited++;
    /* with `sym` the index by classes: its slot's board */
    Position slot = g->tiers->first != NULL ? g->tiers->first(g, f->tier) + i
                                            : g->tiers->position_at(g, f->tier, i);
    if (pos != slot) {
        fail_msg("%s tier %d: the fast path gives slot %" PRIu64 " position %" PRIu64
                 ", not %" PRIu64,
                 g->variant, f->tier, i, pos, slot);
    }
    /* The fast path's memo (with `sym`): each child's tier and index as
     * bc_tier_of and bc_index_of answer now, before the stateless family
     * below fills the memo its own way, against the same calls with the
     * memo off (the binary search over the tiers, the index from the
     * unranked hash) and against position_at. */
    for (int k = 0; g->symmetric && k < e->n; k++) {
        int tier = g->tiers->tier_of(g, e->child[k]);
        uint64_t index = g->tiers->index_of(g, e->child[k]);
        baghchal_test_nocache = true;
        int tier_ref = g->tiers->tier_of(g, e->child[k]);
        uint64_t index_ref = g->tiers->index_of(g, e->child[k]);
        baghchal_test_nocache = false;
        if (tier != tier_ref || index != index_ref ||
            g->tiers->position_at(g, tier_ref, index_ref) != e->child[k]) {
            fail_msg("%s tier %d slot %" PRIu64 " child %d: the memo gives tier %d index %" PRIu64
                     ", not tier %d index %" PRIu64,
                     g->variant, f->tier, i, k, tier, index, tier_ref, index_ref);
        }
    }
    TierExpansion ref;
    solver_expand(g, NULL, NULL, pos, &ref);
    stats_thread_collect(&f->generic);
    if (e->primitive != ref.primitive || e->n != ref.n || e->turn != ref.turn ||
        e->winby != ref.winby ||
        memcmp(e->child, ref.child, (size_t)ref.n * sizeof ref.child[0]) != 0) {
        char text[GAME_TEXT_MAX];
        g->ops->format(g, pos, text, sizeof text);
        int k = 0;
        while (k < e->n && k < ref.n && e->child[k] == ref.child[k]) {
            k++;
        }
        fail_msg("%s %s: fast path value %d, %d children; stateless %d, %d (first difference at "
                 "child %d)",
                 g->variant, text, e->primitive, e->n, ref.primitive, ref.n, k);
    }
}

/* The tier fast path (TierOps.expand_run, games/baghchal.c) against the
 * stateless family (solvers/expand.h without a GPS state: what
 * `tier:generic` runs), on every tier, the sliding ones too (store_verify
 * walks those with it), over every slot, reachable or not: on each tier
 * the whole of it and random spans, the slots marked at random word by
 * word (every slot, none, one in 16, one in 2, so that the walk both steps
 * and unranks, and crosses the two players' halves of a sliding tier);
 * the walk must visit exactly the marked slots of the span in increasing
 * order, each with the family's expansion (value, canonical children in
 * order), and count what the family counts; with `sym`, each child's tier
 * and index as the memo gives them must be those computed without it.
 * Boards of 9, 16 and 25 points (every byte of the image tables), 4 and 8
 * symmetries, captures; and spans of the 5x5 game's large tiers. */
static void fast_path_matches_stateless(void **state) {
    (void)state;
    static const char *const specs[] = {
        "baghchal:n=3",
        "baghchal:n=3,sym",
        "baghchal:n=3,tigers=2,goats=5,captures=2",
        "baghchal:n=4,tigers=2,goats=3,captures=2,diag=1,sym",
        "baghchal:n=4,goats=2,captures=1,sym",
        "baghchal:n=4,tigers=3,goats=3,captures=2",
        "baghchal:n=5,tigers=2,goats=2,captures=1,sym",
        "baghchal:n=5,tigers=1,goats=3,captures=2",
    };
    uint64_t rng = 0x243f6a8885a308d3u;
    for (size_t v = 0; v < sizeof specs / sizeof specs[0]; v++) {
        Game *g = test_game(specs[v]);
        assert_non_null(g->tiers->expand_run);
        for (int t = 0; t < g->tiers->count(g); t++) {
            uint64_t size = g->tiers->size(g, t), words = (size + 63) / 64;
            uint64_t *marks = calloc(words, sizeof *marks);
            assert_non_null(marks);
            for (uint64_t w = 0; w < words; w++) {
                uint64_t r = test_rng(&rng), kind = test_rng(&rng) % 4;
                marks[w] = kind == 0   ? ~UINT64_C(0)
                           : kind == 1 ? 0
                           : kind == 2 ? r & test_rng(&rng) & test_rng(&rng) & test_rng(&rng)
                                       : r;
            }
            for (int span = 0; span < 3; span++) {
                uint64_t lo = span == 0 ? 0 : test_rng(&rng) % size;
                uint64_t hi = span == 0 ? size : lo + 1 + test_rng(&rng) % (size - lo);
                FastSeen f = {.g = g, .tier = t, .marks = marks, .next = lo, .hi = hi};
                stats_thread_reset();
                g->tiers->expand_run(g, t, marks + lo / 64, lo, hi, fast_seen, &f);
                stats_thread_collect(&f.fast);
                uint64_t left = f.next;
                while (left < hi && (marks[left / 64] >> (left % 64) & 1) == 0) {
                    left++;
                }
                if (left < hi) {
                    fail_msg("%s tier %d: the fast path leaves out slot %" PRIu64 " of [%" PRIu64
                             ", %" PRIu64 ")",
                             g->variant, t, left, lo, hi);
                }
                assert_memory_equal(&f.fast, &f.generic, sizeof f.fast);
            }
            free(marks);
        }
        game_destroy(g);
    }
    /* The 5x5 game's large tiers (up to 19 goats on the board: every
     * count of goats below each fifth of the board in bc_colex5's tables,
     * tigers moving and capturing, placements, goats sliding), spans of
     * 1,500 slots, every one marked: at the start (the classes of the
     * lowest tiger sets, the corners' with symmetries of their own among
     * them), at random, at the end. */
    Game *g = test_game("baghchal:sym");
    static const char *const big[] = {"hand12-cap0-G", "hand10-cap0-T", "hand6-cap0-T",
                                      "hand1-cap0-T",  "hand1-cap2-G",  "hand2-cap3-T",
                                      "hand1-cap4-T",  "slide-cap1",    "slide-cap4"};
    for (size_t k = 0; k < sizeof big / sizeof big[0]; k++) {
        int t = game_tier_find(g, big[k]);
        assert_true(t >= 0);
        uint64_t size = g->tiers->size(g, t), span = 1500;
        for (int part = 0; part < 3; part++) {
            uint64_t lo = part == 0 ? 0 : part == 2 ? size - span : test_rng(&rng) % (size - span);
            FastSeen f = {.g = g, .tier = t, .all = true, .next = lo, .hi = lo + span};
            uint64_t word = ~UINT64_C(0), words[(1500 + 127) / 64];
            for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
                words[w] = word;
            }
            stats_thread_reset();
            g->tiers->expand_run(g, t, words, lo, lo + span, fast_seen, &f);
            stats_thread_collect(&f.fast);
            assert_int_equal(f.visited, span);
            assert_memory_equal(&f.fast, &f.generic, sizeof f.fast);
        }
    }
    game_destroy(g);
}

/* ------------------------------------------------- the index by classes */

/* Burnside's count of the boards of `tigers` tigers and `goats` goats on
 * the n x n board up to the symmetries that keep its lines, from the
 * geometry alone, as scripts/baghchal/burnside.awk counts them (none of
 * games/baghchal.c's tables): the square's 8 transforms by (row, column) as
 * least_image writes them, with diagonals only those that keep the parity
 * of row + column; a transform fixes a board iff each of its cycles of
 * points is all empty, all tigers or all goats; classes = the mean over the
 * symmetries of the boards each fixes. goats = 0: the classes of tiger
 * sets. */
static uint64_t burnside(int n, bool diag, int tigers, int goats) {
    int m = n - 1, np = n * n, nsyms = 0;
    uint64_t total = 0;
    for (int t = 0; t < 8; t++) {
        int perm[25];
        bool keeps = true;
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                const int to_r[8] = {r, c, m - r, m - c, r, m - r, c, m - c};
                const int to_c[8] = {c, m - r, m - c, r, m - c, c, r, m - r};
                perm[r * n + c] = to_r[t] * n + to_c[t];
                keeps = keeps && (!diag || (r + c) % 2 == (to_r[t] + to_c[t]) % 2);
            }
        }
        if (!keeps) {
            continue;
        }
        nsyms++;
        /* fix[i][j]: fillings of the cycles so far with i tigers, j goats */
        uint64_t fix[5][26] = {{0}};
        fix[0][0] = 1;
        bool seen[25] = {false};
        for (int p = 0; p < np; p++) {
            int len = 0;
            for (int q = p; !seen[q]; q = perm[q]) {
                seen[q] = true;
                len++;
            }
            for (int i = tigers; i >= 0 && len > 0; i--) {
                for (int j = goats; j >= 0; j--) {
                    fix[i][j] +=
                        (i >= len ? fix[i - len][j] : 0) + (j >= len ? fix[i][j - len] : 0);
                }
            }
        }
        total += fix[tigers][goats];
    }
    assert_int_equal(total % (uint64_t)nsyms, 0);
    return total / (uint64_t)nsyms;
}

static uint64_t binom(int a, int k) {
    uint64_t r = 1;
    for (int i = 1; i <= k; i++) {
        r = r * (uint64_t)(a - k + i) / (uint64_t)i;
    }
    return r;
}

/* A tier's counts from its name (TierOps.name: "hand12-cap0-G",
 * "slide-cap2"): goats in hand, captured, the player to move (-1: the
 * sliding phase, both). */
static void tier_counts(const Game *g, int t, int *hand, int *cap, int *turn) {
    char name[GAME_TIER_NAME_MAX], who = 0;
    game_tier_name(g, t, name, sizeof name);
    if (sscanf(name, "slide-cap%d", cap) == 1) {
        *hand = 0;
        *turn = -1;
        return;
    }
    assert_int_equal(sscanf(name, "hand%d-cap%d-%c", hand, cap, &who), 3);
    *turn = who == 'T';
}

/* With `sym` the tier solver indexes a tier by classes (games/baghchal.c,
 * bc_index_of): classes(T) x C(N - T, b) slots a player, classes(T) being
 * Burnside's count of the tiger sets alone; every slot's position lies in
 * the tier and indexes back to the slot; the slots that tier:sector solves
 * (legal and canonical) are one board per class and player: Burnside's
 * count of the boards, once a player who can be to move (not the tigers
 * before the first goat or after the last capture); and every canonical
 * position of the tier's hash slots (from the twin variant without `sym`,
 * whose hash is the same) has a slot that leads back to it. Every tier of
 * 3x3 and 4x4 (8 symmetries, and 4 with diagonals), all slots of the
 * small ones; 5x5's tiers' sizes, and its tiers of no capture and up
 * to one goat on the board (two when heavy tests run) slot by slot. The Burnside count is tied to
 * scripts/baghchal/burnside.awk's by figures it printed (docs/games.md). */
static void sym_index_by_burnside(void **state) {
    (void)state;
    assert_int_equal(2 * burnside(5, true, 4, 20), 66962);
    assert_int_equal(2 * burnside(5, true, 4, 16), 64376340);
    assert_int_equal(2 * burnside(4, false, 4, 12), 504);
    static const char *const specs[] = {"baghchal:n=3",
                                        "baghchal:n=4,goats=3,captures=2",
                                        "baghchal:n=4,goats=3,captures=2,diag=1",
                                        "baghchal:n=4,tigers=3,goats=3,captures=2,diag=1",
                                        "baghchal:n=4,tigers=2,goats=3,captures=2",
                                        "baghchal"};
    for (size_t v = 0; v < sizeof specs / sizeof specs[0]; v++) {
        char symspec[96];
        snprintf(symspec, sizeof symspec, "%s%s", specs[v],
                 strchr(specs[v], ':') ? ",sym" : ":sym");
        Game *g = test_game(specs[v]), *gs = test_game(symspec);
        int n = variant_int(g, "n"), tigers = variant_int(g, "tigers");
        int goats = variant_int(g, "goats"), captures = variant_int(g, "captures");
        bool diag = variant_int(g, "diag") != 0;
        assert_null(gs->tiers->first);
        assert_int_equal(gs->tiers->count(gs), g->tiers->count(g));
        uint64_t classes = burnside(n, diag, tigers, 0);
        for (int t = 0; t < gs->tiers->count(gs); t++) {
            int hand, cap, turn;
            tier_counts(gs, t, &hand, &cap, &turn);
            int b = goats - hand - cap, players = turn < 0 ? 2 : 1;
            uint64_t size = gs->tiers->size(gs, t);
            assert_int_equal(size, (uint64_t)players * classes * binom(n * n - tigers, b));
            bool five_small = n == 5 && cap == 0 && (b <= 1 || (b == 2 && test_heavy_enabled()));
            if (n == 5 && !five_small) {
                continue;
            }
            uint64_t canonical = 0;
            for (uint64_t i = 0; i < size; i++) {
                Position p = gs->tiers->position_at(gs, t, i);
                assert_int_equal(gs->tiers->tier_of(gs, p), t);
                if (gs->tiers->index_of(gs, p) != i) {
                    fail_msg("%s tier %d: slot %" PRIu64 " indexes back to %" PRIu64, symspec, t, i,
                             gs->tiers->index_of(gs, p));
                }
                canonical += gs->tiers->legal(gs, t, p) && game_canonical(gs, p) == p;
            }
            int legal_players = turn < 0 ? 2 - (cap == captures) : turn == 0 || hand < goats;
            legal_players = turn == 1 && cap == captures ? 0 : legal_players;
            uint64_t want = (uint64_t)legal_players * burnside(n, diag, tigers, b);
            if (canonical != want) {
                fail_msg("%s tier %d: %" PRIu64 " canonical slots, Burnside %" PRIu64, symspec, t,
                         canonical, want);
            }
            /* every canonical position of the hash's slots has its slot */
            Position first = g->tiers->first(g, t);
            uint64_t found = 0;
            for (Position p = first; p < first + g->tiers->size(g, t); p++) {
                if (!g->tiers->legal(g, t, p) || game_canonical(gs, p) != p) {
                    continue;
                }
                uint64_t i = gs->tiers->index_of(gs, p);
                assert_true(i < size);
                assert_true(gs->tiers->position_at(gs, t, i) == p);
                found++;
            }
            assert_int_equal(found, want);
        }
        game_destroy(g);
        game_destroy(gs);
    }
}

/* The record of every position a plain database holds is the record of
 * its canonical position in the sym database, and the sym database holds
 * canonical positions only: `sym` changes the index, not the values. By
 * retro and tier over the whole game, and by tier:sector over the sliding
 * tiers, on 3x3, 4x4 (8 and 4 symmetries) and 5x5 with two tigers. */
static void sym_values_equal_plain(void **state) {
    (void)state;
    static const char *const specs[] = {"baghchal:n=3", "baghchal:n=4,tigers=2,goats=4,captures=2",
                                        "baghchal:n=4,tigers=3,goats=3,captures=2,diag=1",
                                        "baghchal:n=5,tigers=2,goats=2,captures=1"};
    for (size_t v = 0; v < sizeof specs / sizeof specs[0]; v++) {
        char symspec[96];
        snprintf(symspec, sizeof symspec, "%s,sym", specs[v]);
        Game *g = test_game(specs[v]), *gs = test_game(symspec);
        int slide = g->tiers->count(g) - (variant_int(g, "captures") + 1);
        for (int run = 0; run < 3; run++) {
            SolveResult a, s;
            Error err = {0};
            if (run == 0) {
                test_solve("retro", g, &a);
                test_solve("retro", gs, &s);
            } else if (run == 1) {
                test_solve("tier", g, &a);
                test_solve("tier", gs, &s);
            } else {
                char opts[32];
                snprintf(opts, sizeof opts, "sector=%d", slide);
                if (test_run_tier(g, opts, 2, NULL, &a, &err) != ERR_OK ||
                    test_run_tier(gs, opts, 2, NULL, &s, &err) != ERR_OK) {
                    fail_msg("%s tier:%s: %s", symspec, opts, err.msg);
                }
            }
            assert_true(a.has_db && s.has_db);
            uint64_t held = 0, held_sym = 0;
            for (Position p = 0; p < g->num_positions; p++) {
                uint32_t r = db_peek(&a.db, p), rs = db_peek(&s.db, p);
                if (rs != DB_UNREACHED) {
                    held_sym++;
                    assert_true(game_canonical(gs, p) == p);
                }
                if (r == DB_UNREACHED) {
                    continue;
                }
                held++;
                uint32_t want = db_peek(&s.db, game_canonical(gs, p));
                if (want != r) {
                    char text[GAME_TEXT_MAX];
                    g->ops->format(g, p, text, sizeof text);
                    fail_msg("%s run %d: %s has %u, its canonical position %u", symspec, run, text,
                             r, want);
                }
            }
            assert_true(held > 0 && held_sym > 0 && held_sym < held);
            if (run == 2) {
                assert_int_equal(test_extra(&s, "sector_wins") + test_extra(&s, "sector_losses") +
                                     test_extra(&s, "sector_draws"),
                                 test_extra(&s, "sector_positions"));
            }
            solve_result_free(&a);
            solve_result_free(&s);
        }
        game_destroy(g);
        game_destroy(gs);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(placement),
        cmocka_unit_test(tiger_moves),
        cmocka_unit_test(goat_slides),
        cmocka_unit_test(wins),
        cmocka_unit_test(forced_draw),
        cmocka_unit_test(symmetries),
        cmocka_unit_test(refusals),
        cmocka_unit_test(canonical_and_cache_on_random_games),
        cmocka_unit_test(cache_keeps_variants_apart),
        cmocka_unit_test(cache_keeps_databases),
        cmocka_unit_test(sliding_phase_sector),
        cmocka_unit_test(fast_path_matches_stateless),
        cmocka_unit_test(sym_index_by_burnside),
        cmocka_unit_test(sym_values_equal_plain),
    };
    return cmocka_run_group_tests_name("known figures: bagh chal", tests, NULL, NULL);
}
