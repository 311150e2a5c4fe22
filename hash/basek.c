/* hash/basek.c: see basek.h. */
#include "hash/basek.h"

#include "core/stats.h"

ErrCode basek_init(BaseK *h, int k, int n, Error *err) {
    if (k < 2 || k > 255 || n < 1 || n > BASEK_MAX_CELLS) {
        return error_set(err, ERR_USAGE, "base-k hash: k=%d and n=%d must be in 2..255 and 1..%d",
                         k, n, BASEK_MAX_CELLS);
    }
    h->k = k;
    h->n = n;
    uint64_t p = 1;
    for (int i = 0; i < n; i++) {
        h->pow[i] = p;
        if (p > (UINT64_C(1) << 62) / (uint64_t)k) {
            return error_set(err, ERR_USAGE,
                             "base-k hash: %d cells of %d digits need more than 63 bits", n, k);
        }
        p *= (uint64_t)k;
    }
    h->size = p;
    return ERR_OK;
}

Position basek_hash(const BaseK *h, const uint8_t *cells) {
    STAT_INC(hash);
    Position p = 0;
    for (int i = h->n - 1; i >= 0; i--) {
        p = p * (uint64_t)h->k + cells[i];
    }
    return p;
}

void basek_unhash(const BaseK *h, Position p, uint8_t *cells) {
    STAT_INC(unhash);
    if (h->k == 3) { /* the common case: a constant divisor compiles to a multiply */
        for (int i = 0; i < h->n; i++) {
            cells[i] = (uint8_t)(p % 3);
            p /= 3;
        }
        return;
    }
    for (int i = 0; i < h->n; i++) {
        cells[i] = (uint8_t)(p % (uint64_t)h->k);
        p /= (uint64_t)h->k;
    }
}

Position basek_hash_turn(const BaseK *h, const uint8_t *cells, int turn) {
    return 2 * basek_hash(h, cells) + (Position)(turn & 1);
}

int basek_unhash_turn(const BaseK *h, Position p, uint8_t *cells) {
    basek_unhash(h, p >> 1, cells);
    return (int)(p & 1);
}
