/* games/ponghauki.c: Pong Hau K'i, the Chinese five-point blocking game.
 *
 * Rules (Wikipedia, "Pong Hau K'i"; GamesCrafters' Pong Hau K'i page; R. C.
 * Bell, Board and Table Games from Many Civilizations): the board is a square
 * with both diagonals and one side missing, five points joined by seven lines:
 *
 *     1       2       points 1 top-left, 2 top-right, 3 centre,
 *       \   /         4 bottom-left, 5 bottom-right; no line joins 1 and 2
 *         3
 *       /   \         lines: 1-3, 2-3, 4-3, 5-3 (the diagonals),
 *     4 ----- 5              1-4, 2-5, 4-5 (three sides of the square)
 *
 * Each player has two pieces: the first player (x) on 1 and 2, the second
 * (o) on 4 and 5, the centre empty; x moves first. A move slides one of your
 * pieces along a line to the adjacent empty point (there is always exactly
 * one empty point). A player who cannot move loses. With this start (x on the
 * two ends of the missing side) the first three moves are forced, as
 * Wikipedia describes; with perfect play the game never ends (a draw).
 *
 * The engine is games/hole.c (moves, un-moves, hash, text): base 3 over the
 * five points with the player to move, 2 * 3^5 = 486 positions; 60 boards
 * have two pieces of each side. A move is the point (0..4) whose piece moves;
 * the destination is the empty point. Un-moves: a piece of the player who
 * moved last, next to the empty point, goes back to it. Option `sym` stores
 * one position per class of the left-right mirror and the exchange of colours
 * (with the player to move): 4 symmetries.
 */
#include <stdio.h>

#include "games/board.h"
#include "games/game.h"
#include "games/hole.h"

enum { PHK_POINTS = 5 };

/* adjacent[i]: the points joined to point i by a line, ending with -1. */
static const int8_t phk_adjacent[PHK_POINTS][HOLE_MAX_DEGREE + 1] = {
    {2, 3, -1}, {2, 4, -1}, {0, 1, 3, 4, -1}, {0, 2, 4, -1}, {1, 2, 3, -1},
};

static const uint8_t phk_start[PHK_POINTS] = {BOARD_FIRST, BOARD_FIRST, BOARD_EMPTY, BOARD_SECOND,
                                              BOARD_SECOND};

/* Identity, left-right mirror (1<->2, 4<->5), and both with the colours
 * exchanged. */
static void phk_symmetries(BoardSyms *syms) {
    static const uint8_t mirror[PHK_POINTS] = {1, 0, 2, 4, 3};
    syms->count = 4;
    for (int s = 0; s < 4; s++) {
        for (int i = 0; i < PHK_POINTS; i++) {
            syms->map[s][i] = (s & 1) ? mirror[i] : (uint8_t)i;
        }
        syms->swap[s] = s >= 2;
    }
}

static void phk_draw(const char *c, const char *status, char *buf, size_t n) {
    snprintf(buf, n,
             " %c   %c      1   2\n"
             "  \\ /        \\ /\n"
             "   %c          3     %s\n"
             "  / \\        / \\\n"
             " %c---%c      4---5\n",
             c[0], c[1], c[2], status, c[3], c[4]);
}

/* Two pieces each: at most two moves; at most 4 parents (the centre has four
 * neighbours). */
static const HoleRules phk_rules = {
    .points = PHK_POINTS,
    .adjacent = phk_adjacent,
    .start = phk_start,
    .symmetries = phk_symmetries,
    .max_moves = 2,
    .max_parents = 4,
    .shape = "5 points (top-left, top-right, centre, bottom-left, bottom-right)",
    .pieces = "two",
    .draw = phk_draw,
};

static ErrCode phk_create(Game *g, Error *err) { return hole_create(g, &phk_rules, err); }

static const OptionSpec phk_options[] = {
    {.name = "sym", .type = OPT_BOOL, .help = "canonicalize under the mirror and the colour swap"},
    {0},
};

static const GameTestVariant phk_tests[] = {{.options = ""}, {.options = "sym"}, {NULL}};

const GameModule ponghauki_module = {
    .name = "ponghauki",
    .title = "Pong Hau K'i",
    .description = "five-point blocking game, two pieces each (loopy; a draw)",
    .options = phk_options,
    .test_variants = phk_tests,
    .create = phk_create,
};
