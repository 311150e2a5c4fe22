/* games/board.c: see board.h. */
#include "games/board.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

Position board_canonical(const BaseK *h, const BoardSyms *syms, const uint8_t *cells, int turn) {
    static const uint8_t swapped[3] = {BOARD_EMPTY, BOARD_SECOND, BOARD_FIRST};
    Position best = UINT64_MAX;
    for (int s = 0; s < syms->count; s++) {
        uint8_t image[BOARD_MAX_CELLS];
        for (int i = 0; i < h->n; i++) {
            image[syms->map[s][i]] = syms->swap[s] ? swapped[cells[i]] : cells[i];
        }
        Position p = basek_hash_turn(h, image, syms->swap[s] ? 1 - turn : turn);
        if (p < best) {
            best = p;
        }
    }
    return best;
}

Position board_key(const BaseK *h, const BoardSyms *syms, bool canonical, const uint8_t *cells,
                   int turn) {
    return canonical ? board_canonical(h, syms, cells, turn) : basek_hash_turn(h, cells, turn);
}

int board_add_unique(Position *list, int n, Position p) {
    for (int i = 0; i < n; i++) {
        if (list[i] == p) {
            return n;
        }
    }
    list[n] = p;
    return n + 1;
}

int board_count(const uint8_t *cells, int n, uint8_t piece) {
    int c = 0;
    for (int i = 0; i < n; i++) {
        c += cells[i] == piece;
    }
    return c;
}

void board_format(const uint8_t *cells, int n, int turn, const char *symbols, char *buf,
                  size_t size) {
    char text[BOARD_MAX_CELLS + 3];
    for (int i = 0; i < n; i++) {
        text[i] = symbols[cells[i]];
    }
    text[n] = ':';
    text[n + 1] = symbols[board_piece(turn)];
    text[n + 2] = '\0';
    snprintf(buf, size, "%s", text);
}

/* The cell value of character c, or -1. */
static int cell_of(const char *symbols, char c) {
    if (c == '.') {
        return BOARD_EMPTY;
    }
    for (int v = 0; v < 3; v++) {
        if (tolower((unsigned char)c) == symbols[v]) {
            return v;
        }
    }
    return -1;
}

ErrCode board_parse(const char *text, int n, const char *symbols, const char *shape, uint8_t *cells,
                    int *turn, Error *err) {
    size_t len = strlen(text);
    if (len != (size_t)n + 2 || text[n] != ':') {
        return error_set(err, ERR_USAGE,
                         "a position is %s from %c, %c and %c (empty), then ':' and the player "
                         "to move (%c or %c); '%s' is not",
                         shape, symbols[1], symbols[2], symbols[0], symbols[1], symbols[2], text);
    }
    for (int i = 0; i < n; i++) {
        int v = cell_of(symbols, text[i]);
        if (v < 0) {
            return error_set(err, ERR_USAGE, "'%c' at cell %d of '%s' is not %c, %c or %c (empty)",
                             text[i], i + 1, text, symbols[1], symbols[2], symbols[0]);
        }
        cells[i] = (uint8_t)v;
    }
    int mover = cell_of(symbols, text[n + 1]);
    if (mover != BOARD_FIRST && mover != BOARD_SECOND) {
        return error_set(err, ERR_USAGE, "the player to move in '%s' must be %c or %c, not '%c'",
                         text, symbols[1], symbols[2], text[n + 1]);
    }
    *turn = mover == BOARD_FIRST ? 0 : 1;
    return ERR_OK;
}
