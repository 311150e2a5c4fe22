/* tests/test_known_morris.c: the mills of three, six and nine men's morris,
 * listed from the boards' geometry, each checked through the game's
 * interface.
 *
 * The boards, as published (independent of games/morris.c's tables):
 *   - nine men's morris: three concentric squares whose side midpoints are
 *     joined by four lines from the outer square to the inner one; the 24
 *     intersections are the points, and a mill is three stones in a row
 *     along a line of the board (Wikipedia, "Nine men's morris"; J. A.
 *     Storer's rules at cs.brandeis.edu: "a row of three chips (horizontal
 *     or vertical, but not diagonal)"; R. Gasser, "Solving Nine Men's
 *     Morris", 1996, whose rules games/morris.c follows);
 *   - six men's morris: two concentric squares, midpoints joined; the
 *     joining lines hold two points only, so "the European version allows
 *     mills only on a row of three connected points" (bead.game, "Six
 *     Men's Morris"; Wikipedia, "Six men's morris");
 *   - three men's morris: a 3x3 grid, its rows and columns (Wikipedia,
 *     "Three men's morris"; the boards drawn with diagonals are the game
 *     games/morris.c leaves to Achi, games/achi.c, as its header says).
 * The test places the points at coordinates (a square of half-side s per
 * ring, s = rings - ring, centred on the origin, in games/morris.c's
 * documented numbering: ring r holds points 8r + k, k clockwise from the
 * top-left corner; three men's points row by row), draws the lines as
 * segments, and lists as a mill every three points on one segment: 16
 * for nine (three squares of four sides, four joining lines of three
 * points), 8 for six (the joining lines have two), 6 for three (three
 * rows, three columns).
 *
 * Through the interface (parse and generate_moves, the move code
 * (from (P + 1) + to) (P + 1) + removed of games/morris.c's header):
 *   - for every two points a, b of white's and every empty point c, with a
 *     black stone elsewhere and white to place, the placements on c remove
 *     a black stone exactly when {a, b, c} is a mill: each mill closes,
 *     and no other three points do;
 *   - six and nine: for every mill M of black's and a loose black stone e,
 *     the white placement that closes a mill may remove e only (stones in
 *     a mill are safe); with a stone of M taken away the mill is broken and
 *     each black stone may go; with black's stones all in M, any may.
 */
#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_POINTS 24
#define MAX_MILLS 32

typedef struct Board {
    int n, points;
    int x[MAX_POINTS], y[MAX_POINTS];
    int nmills;
    int mill[MAX_MILLS][3];
} Board;

/* ---------------------------------------------------- the geometry alone */

/* Point coordinates: three men's on the 3x3 grid; six and nine, ring r a
 * square of half-side rings - r, k = 0 top-left clockwise (y grows up). */
static void place_points(Board *b) {
    if (b->n == 3) {
        b->points = 9;
        for (int p = 0; p < 9; p++) {
            b->x[p] = p % 3;
            b->y[p] = 2 - p / 3;
        }
        return;
    }
    int rings = b->n == 6 ? 2 : 3;
    b->points = 8 * rings;
    static const int kx[8] = {-1, 0, 1, 1, 1, 0, -1, -1}, ky[8] = {1, 1, 1, 0, -1, -1, -1, 0};
    for (int r = 0; r < rings; r++) {
        int s = rings - r;
        for (int k = 0; k < 8; k++) {
            b->x[8 * r + k] = kx[k] * s;
            b->y[8 * r + k] = ky[k] * s;
        }
    }
}

/* The points on the segment (x0, y0)-(x1, y1), ends included. */
static int points_on(const Board *b, int x0, int y0, int x1, int y1, int *out) {
    int found = 0;
    for (int p = 0; p < b->points; p++) {
        int cross = (x1 - x0) * (b->y[p] - y0) - (y1 - y0) * (b->x[p] - x0);
        int lox = x0 < x1 ? x0 : x1, hix = x0 < x1 ? x1 : x0;
        int loy = y0 < y1 ? y0 : y1, hiy = y0 < y1 ? y1 : y0;
        if (cross == 0 && b->x[p] >= lox && b->x[p] <= hix && b->y[p] >= loy && b->y[p] <= hiy) {
            out[found++] = p;
        }
    }
    return found;
}

static void add_line(Board *b, int x0, int y0, int x1, int y1) {
    int on[MAX_POINTS];
    int k = points_on(b, x0, y0, x1, y1, on);
    if (k > 3) {
        fail_msg("a line of the board holds %d points", k);
    }
    if (k == 3) {
        assert_true(b->nmills < MAX_MILLS);
        memcpy(b->mill[b->nmills++], on, sizeof on[0] * 3);
    }
}

/* The lines drawn on the board, as segments, and the mills they hold. */
static void board_of(int n, Board *b) {
    memset(b, 0, sizeof *b);
    b->n = n;
    place_points(b);
    if (n == 3) {
        for (int i = 0; i < 3; i++) {
            add_line(b, 0, i, 2, i); /* a row */
            add_line(b, i, 0, i, 2); /* a column */
        }
        return;
    }
    int rings = n == 6 ? 2 : 3;
    for (int s = 1; s <= rings; s++) { /* the squares' sides */
        add_line(b, -s, s, s, s);
        add_line(b, s, s, s, -s);
        add_line(b, s, -s, -s, -s);
        add_line(b, -s, -s, -s, s);
    }
    add_line(b, 0, 1, 0, rings); /* the lines joining the midpoints */
    add_line(b, 0, -1, 0, -rings);
    add_line(b, 1, 0, rings, 0);
    add_line(b, -1, 0, -rings, 0);
}

static bool is_mill(const Board *b, int p, int q, int r) {
    uint32_t set = UINT32_C(1) << p | UINT32_C(1) << q | UINT32_C(1) << r;
    for (int i = 0; i < b->nmills; i++) {
        uint32_t m = UINT32_C(1) << b->mill[i][0] | UINT32_C(1) << b->mill[i][1] |
                     UINT32_C(1) << b->mill[i][2];
        if (m == set) {
            return true;
        }
    }
    return false;
}

/* ------------------------------------------------- through the interface */

/* The position with white's stones `white` and black's `black` (point
 * masks), both hands `hand`, white to place. */
static Position position_of(const Game *g, const Board *b, uint32_t white, uint32_t black, int hand,
                            char *text, size_t size) {
    int at = 0;
    for (int p = 0; p < b->points; p++) {
        text[at++] = white >> p & 1 ? 'w' : black >> p & 1 ? 'b' : '-';
    }
    snprintf(text + at, size - (size_t)at, ":%d:%d:w", hand, hand);
    Position pos;
    Error err = {0};
    if (g->ops->parse(g, text, &pos, &err) != ERR_OK) {
        fail_msg("morris:n=%d refused '%s': %s", b->n, text, err.msg);
    }
    return pos;
}

/* The black stones that white's placements on `to` may remove (a mask),
 * and whether white may place there at all. */
static uint32_t removals(const Game *g, const Board *b, Position pos, int to, bool *placed) {
    Move moves[GAME_MAX_MOVES];
    int k = g->ops->generate_moves(g, pos, moves), P = b->points;
    uint32_t out = 0;
    *placed = false;
    for (int i = 0; i < k; i++) {
        int removed = (int)(moves[i] % (P + 1)), dest = (int)(moves[i] / (P + 1) % (P + 1));
        int from = (int)(moves[i] / (P + 1) / (P + 1));
        assert_int_equal(from, P); /* placements only: white has stones in hand */
        if (dest == to) {
            *placed = true;
            out |= removed < P ? UINT32_C(1) << removed : 0;
        }
    }
    return out;
}

static void mill_count(void **state) {
    (void)state;
    static const int n[3] = {3, 6, 9}, want[3] = {6, 8, 16};
    for (int i = 0; i < 3; i++) {
        Board b;
        board_of(n[i], &b);
        assert_int_equal(b.nmills, want[i]);
    }
}

/* Every two white stones a, a2 and every empty c: placing on c captures
 * exactly when {a, a2, c} is a mill. One black stone on the board (on the
 * first point off {a, a2}, and on the second to try c on the first), and
 * hands of n - 2: white has placed 2 (or more, some lost), black 2. */
static void each_mill_closes(void **state) {
    int n = (int)(intptr_t)*state;
    char spec[32];
    snprintf(spec, sizeof spec, "morris:n=%d", n);
    Game *g = test_game(spec);
    Board b;
    board_of(n, &b);
    int closed = 0;
    for (int a = 0; a < b.points; a++) {
        for (int a2 = a + 1; a2 < b.points; a2++) {
            int d[2] = {-1, -1}; /* the first two points off {a, a2} */
            for (int p = 0, k = 0; p < b.points && k < 2; p++) {
                if (p != a && p != a2) {
                    d[k++] = p;
                }
            }
            for (int pick = 0; pick < 2; pick++) {
                char text[64];
                uint32_t white = UINT32_C(1) << a | UINT32_C(1) << a2, black = UINT32_C(1)
                                                                               << d[pick];
                Position pos = position_of(g, &b, white, black, n - 2, text, sizeof text);
                for (int c = 0; c < b.points; c++) {
                    /* black on d[0]: every empty c; black on d[1]: c = d[0] */
                    if (c == a || c == a2 || c == d[pick] || (pick == 1 && c != d[0])) {
                        continue;
                    }
                    bool placed, mill = is_mill(&b, a, a2, c);
                    uint32_t r = removals(g, &b, pos, c, &placed);
                    assert_true(placed);
                    if (r != (mill ? black : 0)) {
                        fail_msg("%s, %s: white on %d %s (the board's lines say %s)", spec, text, c,
                                 r != 0 ? "removes a stone" : "removes nothing",
                                 mill ? "a mill" : "no mill");
                    }
                    closed += mill;
                }
            }
        }
    }
    assert_int_equal(closed, 3 * b.nmills); /* each mill closed on each of its points */
    game_destroy(g);
}

/* Six and nine: black's stones in a mill are safe while black has a loose
 * one. For each mill M, a loose black stone e and a mill W of white's
 * apart from both (two stones on it, white to place the third; hands
 * n - 4: black has placed 4): white may remove e only; with one stone of
 * M taken away (the mill broken), any black stone; with black's stones
 * all in M (no loose one), any. */
static void mills_protect(void **state) {
    int n = (int)(intptr_t)*state;
    char spec[32];
    snprintf(spec, sizeof spec, "morris:n=%d", n);
    Game *g = test_game(spec);
    Board b;
    board_of(n, &b);
    for (int i = 0; i < b.nmills; i++) {
        uint32_t m = 0;
        for (int j = 0; j < 3; j++) {
            m |= UINT32_C(1) << b.mill[i][j];
        }
        /* W: the first mill apart from M; e: the first point off both. */
        int w = -1, e = -1;
        for (int k = 0; k < b.nmills && w < 0; k++) {
            bool apart = true;
            for (int j = 0; j < 3; j++) {
                apart &= !(m >> b.mill[k][j] & 1);
            }
            w = apart ? k : -1;
        }
        assert_true(w >= 0);
        uint32_t white = UINT32_C(1) << b.mill[w][0] | UINT32_C(1) << b.mill[w][1];
        int to = b.mill[w][2];
        for (int p = 0; p < b.points && e < 0; p++) {
            e = (m | white | UINT32_C(1) << to) >> p & 1 ? -1 : p;
        }
        uint32_t loose = UINT32_C(1) << e;
        struct {
            uint32_t black, want;
            const char *what;
        } cases[5] = {{m | loose, loose, "a mill and a loose stone"}, {m, m, "only a mill"}};
        for (int j = 0; j < 3; j++) { /* M broken by taking away one stone */
            uint32_t broken = (m & ~(UINT32_C(1) << b.mill[i][j])) | loose;
            cases[2 + j].black = broken;
            cases[2 + j].want = broken;
            cases[2 + j].what = "a broken mill and a loose stone";
        }
        for (int k = 0; k < 5; k++) {
            char text[64];
            Position pos = position_of(g, &b, white, cases[k].black, n - 4, text, sizeof text);
            bool placed;
            uint32_t r = removals(g, &b, pos, to, &placed);
            if (!placed || r != cases[k].want) {
                fail_msg("%s, %s (black: %s): white closing a mill on %d may remove the stones "
                         "%#x, not %#x",
                         spec, text, cases[k].what, to, r, cases[k].want);
            }
        }
    }
    game_destroy(g);
}

int main(void) {
    static const struct CMUnitTest tests[] = {
        {.name = "16, 8 and 6 mills", .test_func = mill_count},
        {.name = "three men's: each mill closes, no other line",
         .test_func = each_mill_closes,
         .initial_state = (void *)(intptr_t)3},
        {.name = "six men's: each mill closes, no other line",
         .test_func = each_mill_closes,
         .initial_state = (void *)(intptr_t)6},
        {.name = "nine men's: each mill closes, no other line",
         .test_func = each_mill_closes,
         .initial_state = (void *)(intptr_t)9},
        {.name = "six men's: each mill protects its stones",
         .test_func = mills_protect,
         .initial_state = (void *)(intptr_t)6},
        {.name = "nine men's: each mill protects its stones",
         .test_func = mills_protect,
         .initial_state = (void *)(intptr_t)9},
    };
    return cmocka_run_group_tests_name("known figures: the mills of morris", tests, NULL, NULL);
}
