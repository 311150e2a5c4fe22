/* games/board.h: helpers shared by the two-player board games whose turn is
 * part of the position (the sliding games: dodgem, achi, and ponghauki and
 * mutorere through games/hole.h). Grids of cells numbered row by row have
 * more helpers in games/grid.h.
 *
 * A board is n cells, each BOARD_EMPTY, BOARD_FIRST (a piece of the player
 * who moves first) or BOARD_SECOND; a position is the board and the player
 * to move (0 first, 1 second), hashed by basek_hash_turn (hash/basek.h), so
 * every hash and unhash is counted there. The text of a position is its
 * cells, a colon and the symbol of the player to move ("xx-oo:x").
 */
#ifndef GAMES_BOARD_H
#define GAMES_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/types.h"
#include "hash/basek.h"

enum { BOARD_EMPTY = 0, BOARD_FIRST = 1, BOARD_SECOND = 2 };

#define BOARD_MAX_CELLS 36
#define BOARD_MAX_SYMS 16

/* The piece of player `turn` (0 or 1). */
static inline uint8_t board_piece(int turn) { return turn == 0 ? BOARD_FIRST : BOARD_SECOND; }

/* A symmetry group of a board: symmetry s sends the piece on cell i to cell
 * map[s][i]; with swap[s] it also exchanges the players' pieces and the
 * player to move (the value for the player to move is unchanged). */
typedef struct BoardSyms {
    int count; /* 1..BOARD_MAX_SYMS; symmetry 0 is the identity */
    uint8_t map[BOARD_MAX_SYMS][BOARD_MAX_CELLS];
    bool swap[BOARD_MAX_SYMS];
} BoardSyms;

/* The smallest position over the images of (cells, turn): one hash per
 * symmetry. O(count * n). */
Position board_canonical(const BaseK *h, const BoardSyms *syms, const uint8_t *cells, int turn);

/* The position of (cells, turn), canonical when `canonical` is set. */
Position board_key(const BaseK *h, const BoardSyms *syms, bool canonical, const uint8_t *cells,
                   int turn);

/* Appends p to list[0..n) unless it is there already; returns the new n.
 * O(n): lists of parents are short. */
int board_add_unique(Position *list, int n, Position p);

/* Number of cells holding `piece`. */
int board_count(const uint8_t *cells, int n, uint8_t piece);

/* Writes "<cells>:<mover>" with symbols[0..2] for empty, first, second. */
void board_format(const uint8_t *cells, int n, int turn, const char *symbols, char *buf,
                  size_t size);

/* Reads board_format's text ('.' is also read as empty; letters in either
 * case). `shape` tells the user what the cells are, for messages. Only the
 * syntax is checked; the game checks piece counts and legality. */
ErrCode board_parse(const char *text, int n, const char *symbols, const char *shape, uint8_t *cells,
                    int *turn, Error *err);

#endif /* GAMES_BOARD_H */
