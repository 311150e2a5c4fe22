/* hash/multinomial.c: see multinomial.h.
 *
 * Both directions walk the cells once, keeping `total`, the number of
 * boards that complete the cells so far with the remaining counts rem[]
 * over m remaining cells. The boards whose next cell holds digit v number
 * total * rem[v] / m (exact), which is how rank skips the smaller digits and
 * unrank picks the digit whose block holds the index.
 */
#include "hash/multinomial.h"

#include "core/stats.h"

ErrCode multinomial_init(Multinomial *m, int k, int n, Error *err) {
    if (k < 2 || k > MULTINOMIAL_MAX_KINDS || n < 1 || n > MULTINOMIAL_MAX_CELLS) {
        return error_set(err, ERR_USAGE,
                         "multinomial hash: k=%d and n=%d must be in 2..%d and 1..%d", k, n,
                         MULTINOMIAL_MAX_KINDS, MULTINOMIAL_MAX_CELLS);
    }
    uint64_t p = 1;
    for (int i = 0; i < n; i++) {
        if (p > (UINT64_C(1) << 62) / (uint64_t)k) {
            return error_set(err, ERR_USAGE,
                             "multinomial hash: %d cells of %d digits need more than 63 bits", n,
                             k);
        }
        p *= (uint64_t)k;
    }
    m->k = k;
    m->n = n;
    return ERR_OK;
}

/* total * a / b, exact; the 128-bit division (a library call) only when
 * the product does not fit in 64 bits. */
static inline uint64_t muldiv(uint64_t total, uint64_t a, uint64_t b) {
    uint64_t prod;
    if (!__builtin_mul_overflow(total, a, &prod)) {
        return prod / b;
    }
    return (uint64_t)((unsigned __int128)total * a / b);
}

uint64_t multinomial_count(const Multinomial *m, const uint8_t *counts) {
    /* n! / prod counts[v]! as a product of binomials, each step exact:
     * C(s + c, c) built factor by factor. Bounded by k^n < 2^63. */
    uint64_t total = 1;
    int placed = 0;
    for (int v = 0; v < m->k; v++) {
        for (int j = 1; j <= counts[v]; j++) {
            placed++;
            total = muldiv(total, (uint64_t)placed, (uint64_t)j);
        }
    }
    return total;
}

uint64_t multinomial_rank(const Multinomial *m, const uint8_t *cells) {
    STAT_INC(hash);
    uint8_t rem[MULTINOMIAL_MAX_KINDS] = {0};
    for (int i = 0; i < m->n; i++) {
        rem[cells[i]]++;
    }
    uint64_t total = multinomial_count(m, rem);
    uint64_t rank = 0;
    for (int i = 0; i < m->n; i++) {
        uint64_t left = (uint64_t)(m->n - i);
        int d = cells[i];
        for (int v = 0; v < d; v++) {
            rank += muldiv(total, rem[v], left);
        }
        total = muldiv(total, rem[d], left);
        rem[d]--;
    }
    return rank;
}

void multinomial_unrank(const Multinomial *m, const uint8_t *counts, uint64_t rank,
                        uint8_t *cells) {
    STAT_INC(unhash);
    uint8_t rem[MULTINOMIAL_MAX_KINDS];
    for (int v = 0; v < m->k; v++) {
        rem[v] = counts[v];
    }
    uint64_t total = multinomial_count(m, rem);
    for (int i = 0; i < m->n; i++) {
        uint64_t left = (uint64_t)(m->n - i);
        for (int v = 0; v < m->k; v++) {
            uint64_t block = muldiv(total, rem[v], left);
            if (rank < block) {
                cells[i] = (uint8_t)v;
                total = block;
                rem[v]--;
                break;
            }
            rank -= block;
        }
    }
}
