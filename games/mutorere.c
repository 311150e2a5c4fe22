/* games/mutorere.c: Mu Torere, the Maori blocking game on an eight-pointed star.
 *
 * Rules (Wikipedia, "Mu torere"; R. C. Bell, Board and Table Games from Many
 * Civilizations, vol. 2; the "Adjacent Enemy" ruleset of the Ludii portal):
 * eight points (kewai) around a centre (putahi):
 *
 *         1  2  3        the kewai 1..8 form a ring (each is joined to the
 *          \ | /         two next to it) and each is joined to the centre 9
 *       8 -- 9 -- 4
 *          / | \         x (first player) starts on 1, 2, 3, 4 and o on
 *         7  6  5        5, 6, 7, 8; the centre is empty; x moves first
 *
 * A move slides one of your pieces to the empty point (there is always
 * exactly one): from a kewai to a neighbouring kewai, from the centre to any
 * kewai, or from a kewai to the centre, this last one only when the piece
 * stands next to (on the ring) at least one opponent piece. A player who
 * cannot move loses. The centre rule is the usual one (Bell, Wikipedia), and
 * it is also the opening rule used here, applied from the first move on: it
 * stops the first player from walking a middle piece (2 or 3) into the
 * centre, which would block the second player at once. Some sources restrict
 * the centre only during the first two turns or only for the first move
 * (Ludii's "First Two Turns" and "First Move" rulesets); they are not
 * implemented. With perfect play the game is a draw (Wikipedia, citing the
 * GamesCrafters analysis: 1180 reachable positions, 208 wins, 128 losses,
 * 844 draws).
 *
 * The engine is games/hole.c (moves, un-moves, hash, text), with the centre
 * rule as its legality predicate: base 3 over the nine points with the player
 * to move, 2 * 3^9 = 39,366 positions. A move is the point (0..8) whose piece
 * moves. Un-moves: a piece of the last player next to the empty point goes
 * back to it (into the centre only if the centre rule allowed the move it
 * undoes). Option `sym` stores one position per class of the 16 symmetries of
 * the star (rotations and reflections; Scientific Gems counts 86 classes in
 * play).
 */
#include <stdio.h>

#include "games/board.h"
#include "games/game.h"
#include "games/hole.h"

enum { MT_KEWAI = 8, MT_CENTRE = 8, MT_POINTS = 9 };

/* adjacent[i]: for kewai i, the kewai before and after it on the ring, then
 * the centre; for the centre, every kewai. */
static const int8_t mt_adjacent[MT_POINTS][HOLE_MAX_DEGREE + 1] = {
    {7, 1, 8, -1}, {0, 2, 8, -1}, {1, 3, 8, -1},
    {2, 4, 8, -1}, {3, 5, 8, -1}, {4, 6, 8, -1},
    {5, 7, 8, -1}, {6, 0, 8, -1}, {0, 1, 2, 3, 4, 5, 6, 7, -1},
};

static const uint8_t mt_start[MT_POINTS] = {
    BOARD_FIRST,  BOARD_FIRST,  BOARD_FIRST,  BOARD_FIRST, BOARD_SECOND,
    BOARD_SECOND, BOARD_SECOND, BOARD_SECOND, BOARD_EMPTY,
};

static int mt_next(int k) { return (k + 1) % MT_KEWAI; }
static int mt_prev(int k) { return (k + MT_KEWAI - 1) % MT_KEWAI; }

/* True when the piece on kewai k has an opponent of `piece` next to it. */
static bool mt_near_opponent(const uint8_t *cells, int k, uint8_t piece) {
    uint8_t a = cells[mt_prev(k)], b = cells[mt_next(k)];
    return (a != BOARD_EMPTY && a != piece) || (b != BOARD_EMPTY && b != piece);
}

/* The centre rule: a piece enters the centre only from a kewai next to an
 * opponent piece; every other slide along a line is legal. */
static bool mt_legal(const uint8_t *cells, int from, int to, uint8_t piece) {
    return to != MT_CENTRE || mt_near_opponent(cells, from, piece);
}

/* The dihedral group of the ring: kewai k goes to r + k (rotation by r) or
 * r - k (reflection, then rotation); the centre stays. */
static void mt_symmetries(BoardSyms *syms) {
    syms->count = 16;
    for (int s = 0; s < 16; s++) {
        int r = s % MT_KEWAI;
        for (int k = 0; k < MT_KEWAI; k++) {
            int image = s < MT_KEWAI ? r + k : r - k + MT_KEWAI;
            syms->map[s][k] = (uint8_t)(image % MT_KEWAI);
        }
        syms->map[s][MT_CENTRE] = MT_CENTRE;
    }
}

static void mt_draw(const char *c, const char *status, char *buf, size_t n) {
    snprintf(buf, n,
             " %c %c %c     1 2 3\n"
             " %c %c %c     8 9 4    %s\n"
             " %c %c %c     7 6 5\n",
             c[0], c[1], c[2], c[7], c[8], c[3], status, c[6], c[5], c[4]);
}

/* Four pieces each: at most four moves and four parents (the last mover's
 * pieces). */
static const HoleRules mt_rules = {
    .points = MT_POINTS,
    .adjacent = mt_adjacent,
    .legal = mt_legal,
    .start = mt_start,
    .symmetries = mt_symmetries,
    .max_moves = 4,
    .max_parents = 4,
    .shape = "9 points (the kewai 1..8 around the star, then the centre)",
    .pieces = "four",
    .draw = mt_draw,
};

static ErrCode mt_create(Game *g, Error *err) { return hole_create(g, &mt_rules, err); }

static const OptionSpec mt_options[] = {
    {.name = "sym", .type = OPT_BOOL, .help = "canonicalize under the 16 symmetries of the star"},
    {0},
};

static const GameTestVariant mt_tests[] = {{.options = ""}, {.options = "sym"}, {NULL}};

const GameModule mutorere_module = {
    .name = "mutorere",
    .title = "Mu Torere",
    .description = "Maori eight-pointed star, four pieces each (loopy; a draw)",
    .options = mt_options,
    .test_variants = mt_tests,
    .create = mt_create,
};
