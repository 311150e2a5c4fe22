/* games/grid.h: helpers for games on a grid of cells numbered row by row
 * (cell (r, c) of a w-column grid is r * w + c): the symmetries of a square
 * grid (tic-tac-toe, achi), the lines of the 3x3 grid (tic-tac-toe, achi),
 * and a picture of the board for people (dodgem, hexapawn). Pieces are
 * small integers, 0 for an empty cell.
 */
#ifndef GAMES_GRID_H
#define GAMES_GRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Fills the 8 symmetries of a side x side grid: map[s * stride + i] is
 * where symmetry s sends cell i (stride >= side * side). Symmetry s
 * reflects (r, c) -> (r, side - 1 - c) when s >= 4, then rotates
 * (r, c) -> (c, side - 1 - r) s % 4 times; symmetry 0 is the identity. */
enum { GRID_SQUARE_SYMS = 8 };
void grid_square_syms(int side, uint8_t *map, size_t stride);

/* Draws a w x h grid for people, top row first: each row its number
 * counted from the bottom (1..h) and its cells' symbols (symbols[piece]),
 * then a line of column letters a, b, ... under the cells, every line
 * after `indent`. Row 0 of cells is the top row when `row0_top`, else the
 * bottom row. Writes at most n bytes and returns, as snprintf does, the
 * length of the text: n or more when it was truncated, otherwise where the
 * caller may append its status line. */
size_t grid_print(const uint8_t *cells, int w, int h, bool row0_top, const char *symbols,
                  const char *indent, char *buf, size_t n);

/* The 8 lines of three of the 3x3 grid (rows, columns, diagonals). Static
 * in the header so that a game's hot loops over it see constant indices. */
enum { GRID3_CELLS = 9, GRID3_LINES = 8 };

static const uint8_t grid3_lines[GRID3_LINES][3] = {
    {0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6},
};

/* True when `piece` fills one of the 8 lines of the 3x3 grid. */
static inline bool grid3_has_line(const uint8_t *cells, uint8_t piece) {
    for (int l = 0; l < GRID3_LINES; l++) {
        if (cells[grid3_lines[l][0]] == piece && cells[grid3_lines[l][1]] == piece &&
            cells[grid3_lines[l][2]] == piece) {
            return true;
        }
    }
    return false;
}

#endif /* GAMES_GRID_H */
