/* games/hole.h: the engine of the one-hole blocking games (games/ponghauki.c,
 * games/mutorere.c).
 *
 * Rules the engine plays: n points joined by the lines of an undirected
 * graph; every point but one (the hole) holds a piece of one of the two
 * players. A move slides one of the mover's pieces from a point joined to the
 * hole into the hole; a game may forbid some of these slides with a legality
 * predicate (Mu Torere's centre rule). A player without a move loses. Positions
 * repeat, so the game is loopy (max_depth 0).
 *
 * Positions are games/board.h's: base 3 over the points with the player to
 * move (2 * 3^n slots, every hash and unhash counted in hash/basek.c), text
 * "<points>:<mover>" with '-' empty, 'x' first player, 'o' second. A move is
 * the point whose piece moves (its destination is the hole), named "a-b" with
 * points numbered from 1. Un-moves: a piece of the player who moved last, on
 * a point joined to the hole, goes back into the hole, when the predicate
 * allowed the move it undoes. With the option `sym`, positions are
 * canonicalized under the game's symmetry group (board_canonical).
 *
 * A game module describes its board in a const HoleRules and calls
 * hole_create() from its constructor; the engine's GameOps do the rest.
 * Costs per call: one unhash (O(n)); moves and parents O(degree of the hole)
 * plus, for parents, one hash per parent (one per symmetry with `sym`).
 */
#ifndef GAMES_HOLE_H
#define GAMES_HOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/board.h"
#include "games/game.h"

#define HOLE_MAX_DEGREE 8 /* lines at one point */

typedef struct HoleRules {
    /* REQUIRED. Number of points, at most BOARD_MAX_CELLS. */
    int points;
    /* REQUIRED. adjacent[i]: the points joined to point i by a line, ending
     * with -1; j is listed at i exactly when i is listed at j. Moves and
     * parents come in this order. */
    const int8_t (*adjacent)[HOLE_MAX_DEGREE + 1];
    /* OPTIONAL. Whether the player whose pieces are `piece` may slide the
     * piece on `from` into the hole `to` of `cells` (the board before the
     * move). NULL: every slide along a line is legal. */
    bool (*legal)(const uint8_t *cells, int from, int to, uint8_t piece);
    /* REQUIRED. The start board (x moves first). Every position the text
     * parser accepts has as many x and o as this board. */
    const uint8_t *start;
    /* REQUIRED. Fills *syms (zeroed on entry) with the symmetry group used
     * with the option `sym`. */
    void (*symmetries)(BoardSyms *syms);
    /* REQUIRED. Bounds for the Game: moves and parents of one position. */
    int max_moves, max_parents;
    /* REQUIRED, for the parser's messages: what the points are, in text
     * order ("5 points (top-left, ...)"), and the number of pieces each
     * player has, in words ("two"). */
    const char *shape;
    const char *pieces;
    /* REQUIRED. The picture of print(): c[i] is the symbol on point i,
     * status one line ("x to move", "blocked: game over"). */
    void (*draw)(const char *c, const char *status, char *buf, size_t n);
} HoleRules;

/* Fills g (whose options include the switch `sym`) for the game `rules`,
 * which must outlive it. ERR_MEMORY when allocation fails. */
ErrCode hole_create(Game *g, const HoleRules *rules, Error *err);

#endif /* GAMES_HOLE_H */
