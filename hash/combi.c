/* hash/combi.c: see combi.h. */
#include "hash/combi.h"

#include <string.h>

void binomials_init(Binomials *b) {
    memset(b, 0, sizeof *b);
    for (int a = 0; a <= COMBI_MAX_N; a++) {
        b->by_k[0][a] = 1;
        for (int k = 1; k <= a; k++) {
            b->by_k[k][a] = b->by_k[k - 1][a - 1] + (k < a ? b->by_k[k][a - 1] : 0);
        }
    }
}

/* Greedy decoding of the combinatorial number system: from the top element
 * down, element s is a one when C(s, j) <= rank for the j ones still to
 * place (the largest such s is the highest one). */
uint64_t combi_unrank_core(const Binomials *b, uint64_t rank, int n, int k) {
    uint64_t set = 0;
    for (int s = n - 1, j = k; j > 0; s--) {
        uint64_t c = b->by_k[j][s];
        if (c <= rank) {
            rank -= c;
            set |= UINT64_C(1) << s;
            j--;
        }
    }
    return set;
}

uint64_t combi_rank(const Binomials *b, uint64_t set) {
    STAT_INC(hash);
    return combi_rank_core(b, set);
}

uint64_t combi_unrank(const Binomials *b, uint64_t rank, int n, int k) {
    STAT_INC(unhash);
    return combi_unrank_core(b, rank, n, k);
}

ErrCode compositions_init(Compositions *c, int parts, int max_part, Error *err) {
    if (parts < 1 || parts > COMPOS_MAX_PARTS || max_part < 1 ||
        parts * max_part > COMPOS_MAX_SUM) {
        return error_set(err, ERR_USAGE,
                         "compositions: %d parts of at most %d need 1..%d parts and a sum "
                         "of at most %d",
                         parts, max_part, COMPOS_MAX_PARTS, COMPOS_MAX_SUM);
    }
    memset(c, 0, sizeof *c);
    c->parts = parts;
    c->max_part = max_part;
    c->max_sum = parts * max_part;
    c->count[0][0] = 1;
    for (int q = 1; q <= parts; q++) {
        for (int s = 0; s <= c->max_sum; s++) {
            for (int x = 0; x <= max_part && x <= s; x++) {
                c->count[q][s] += c->count[q - 1][s - x];
            }
        }
    }
    for (int q = 0; q <= parts; q++) {
        for (int t = 1; t <= c->max_sum + 1; t++) {
            c->below[q][t] = c->below[q][t - 1] + c->count[q][t - 1];
        }
    }
    return ERR_OK;
}

/* Part by part: skip the blocks of vectors whose part i is smaller. */
void compositions_unrank_core(const Compositions *c, uint64_t rank, int s, uint8_t *v) {
    for (int i = 0, q = c->parts - 1; q >= 0; i++, q--) {
        int x = 0;
        for (;; x++) {
            uint64_t block = c->count[q][s - x];
            if (rank < block) {
                break;
            }
            rank -= block;
        }
        v[i] = (uint8_t)x;
        s -= x;
    }
}

uint64_t compositions_rank(const Compositions *c, const uint8_t *v, int s) {
    STAT_INC(hash);
    return compositions_rank_core(c, v, s);
}

void compositions_unrank(const Compositions *c, uint64_t rank, int s, uint8_t *v) {
    STAT_INC(unhash);
    compositions_unrank_core(c, rank, s, v);
}
