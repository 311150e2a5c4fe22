/* hash/discs.c: see discs.h. */
#include "hash/discs.h"

#include <stdbool.h>
#include <string.h>

double discs_space(int cells, int nfixed, int turns) {
    double s = turns;
    for (int i = 0; i < cells; i++) {
        s *= i < nfixed ? 2.0 : 3.0;
    }
    return s;
}

/* Digit of one cell: open cells empty 0, first 1, second 2; fixed cells
 * first 0, second 1. -1 for a state the cell cannot hold. */
static int cell_digit(bool fixed, bool first, bool second) {
    if (first && second) {
        return -1;
    }
    if (fixed) {
        return first ? 0 : second ? 1 : -1;
    }
    return first ? 1 : second ? 2 : 0;
}

ErrCode discs_init(DiscHash *h, int cells, uint64_t fixed, int turns, Error *err) {
    memset(h, 0, sizeof *h);
    if (cells < 1 || cells > DISCS_MAX_CELLS || turns < 1 || turns > 2) {
        return error_set(err, ERR_USAGE,
                         "disc hash: %d cells and %d turns must be in 1..%d and 1..2", cells, turns,
                         DISCS_MAX_CELLS);
    }
    uint64_t board_bits = cells == 64 ? UINT64_MAX : (UINT64_C(1) << cells) - 1;
    if ((fixed & ~board_bits) != 0) {
        return error_set(err, ERR_USAGE, "disc hash: a fixed cell lies outside the %d cells",
                         cells);
    }
    int nfixed = __builtin_popcountll(fixed);
    /* The space must stay below 2^63 (Position arithmetic stays signed-safe). */
    uint64_t size = (uint64_t)turns;
    for (int i = 0; i < cells; i++) {
        uint64_t r = (fixed >> i) & 1 ? 2 : 3;
        if (size > (UINT64_C(1) << 63) / r) {
            return error_set(err, ERR_USAGE,
                             "disc hash: %d cells (%d never empty) x %d turns make %.3g "
                             "positions, more than 63 bits hold",
                             cells, nfixed, turns, discs_space(cells, nfixed, turns));
        }
        size *= r;
    }
    h->cells = cells;
    h->turns = turns;
    h->fixed = fixed;
    h->size = size;
    h->boards = size / (uint64_t)turns;
    h->nibbles = (cells + 3) / 4;
    uint64_t place = 1;
    for (int k = 0; k < h->nibbles; k++) {
        int lo = 4 * k, n = cells - lo < 4 ? cells - lo : 4;
        uint32_t radix = 1;
        for (int j = 0; j < n; j++) {
            radix *= (fixed >> (lo + j)) & 1 ? 2 : 3;
        }
        h->radix[k] = radix;
        for (int pair = 0; pair < 256; pair++) {
            int a = pair >> 4, b = pair & 15; /* enc is indexed first << 4 | second */
            if ((a | b) >> n) {
                continue; /* bits beyond the board */
            }
            uint32_t v = 0, mult = 1;
            bool valid = true;
            for (int j = 0; j < n && valid; j++) {
                bool fx = (fixed >> (lo + j)) & 1;
                int d = cell_digit(fx, (a >> j) & 1, (b >> j) & 1);
                valid = d >= 0;
                v += (uint32_t)(d > 0 ? d : 0) * mult;
                mult *= fx ? 2 : 3;
            }
            if (!valid) {
                continue;
            }
            h->enc[k][pair] = (uint64_t)v * place;
            h->dec[k][v] = (uint8_t)(a | b << 4);
        }
        place *= radix;
    }
    return ERR_OK;
}
