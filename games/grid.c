/* games/grid.c: see grid.h. */
#include "games/grid.h"

#include <stdio.h>

void grid_square_syms(int side, uint8_t *map, size_t stride) {
    for (int s = 0; s < GRID_SQUARE_SYMS; s++) {
        for (int i = 0; i < side * side; i++) {
            int r = i / side, c = i % side;
            if (s >= 4) {
                c = side - 1 - c;
            }
            for (int k = 0; k < s % 4; k++) {
                int nr = c, nc = side - 1 - r;
                r = nr;
                c = nc;
            }
            map[(size_t)s * stride + (size_t)i] = (uint8_t)(r * side + c);
        }
    }
}

size_t grid_print(const uint8_t *cells, int w, int h, bool row0_top, const char *symbols,
                  const char *indent, char *buf, size_t n) {
    size_t used = 0;
    for (int top = 0; top < h && used < n; top++) {
        int r = row0_top ? top : h - 1 - top;
        used += (size_t)snprintf(buf + used, n - used, "%s%d ", indent, h - top);
        for (int c = 0; c < w && used < n; c++) {
            used += (size_t)snprintf(buf + used, n - used, " %c", symbols[cells[r * w + c]]);
        }
        if (used < n) {
            used += (size_t)snprintf(buf + used, n - used, "\n");
        }
    }
    if (used < n) {
        used += (size_t)snprintf(buf + used, n - used, "%s  ", indent);
    }
    for (int c = 0; c < w && used < n; c++) {
        used += (size_t)snprintf(buf + used, n - used, " %c", 'a' + c);
    }
    return used;
}
