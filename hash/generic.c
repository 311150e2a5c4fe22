/* hash/generic.c: see generic.h. */
#include "hash/generic.h"

#include <stdlib.h>
#include <string.h>

#include "core/stats.h"

#define GENERIC_LIMIT (UINT64_C(1) << 63) /* positions must stay below 2^63 */

static inline uint64_t binom(const GenericHash *h, int a, int b) {
    return h->binom[a * (h->n + 1) + b];
}

/* M(t) as the product of the radices C(n, c_1), C(n - c_1, c_2), ...;
 * false if it reaches 2^63. */
static bool arrangements(const GenericHash *h, const int *c, uint64_t *out) {
    uint64_t m = 1;
    int rem = h->n;
    for (int s = 1; s < h->k; s++) {
        if (__builtin_mul_overflow(m, binom(h, rem, c[s]), &m) || m >= GENERIC_LIMIT) {
            return false;
        }
        rem -= c[s];
    }
    *out = m;
    return true;
}

/* Set bits of x. Written out because without -mpopcnt gcc turns
 * __builtin_popcountll into a library call, which the hash pays per piece. */
static inline int popcount64(uint64_t x) {
    x -= (x >> 1) & UINT64_C(0x5555555555555555);
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (int)((x * UINT64_C(0x0101010101010101)) >> 56);
}

/* Mask of the cells 0..n-1. */
static inline uint64_t all_cells(int n) { return n == 64 ? UINT64_MAX : (UINT64_C(1) << n) - 1; }

ErrCode generic_init(GenericHash *h, int n, int k, const int *min, const int *max, int players,
                     GenericValidFn valid, void *ctx, Error *err) {
    memset(h, 0, sizeof *h);
    if (n < 1 || n > GENERIC_MAX_CELLS || k < 2 || k > GENERIC_MAX_SYMBOLS || players < 1 ||
        players > 2) {
        return error_set(err, ERR_USAGE,
                         "generic hash: %d cells, %d symbols and %d players must be in 1..%d, "
                         "2..%d and 1..2",
                         n, k, players, GENERIC_MAX_CELLS, GENERIC_MAX_SYMBOLS);
    }
    h->n = n;
    h->k = k;
    h->players = players;
    uint64_t radix = 1;
    for (int s = 0; s < k; s++) {
        if (min[s] < 0 || max[s] < min[s]) {
            return error_set(err, ERR_USAGE, "generic hash: symbol %d has counts %d..%d", s, min[s],
                             max[s]);
        }
        h->min[s] = min[s];
        h->max[s] = max[s] > n ? n : max[s];
        if (s > 0) {
            h->stride[s] = (uint32_t)radix;
            h->radix_base -= (int64_t)h->min[s] * (int64_t)radix;
            radix *= (uint64_t)(h->max[s] - h->min[s] + 1);
            if (radix > GENERIC_MAX_RADIX) {
                return error_set(err, ERR_USAGE,
                                 "generic hash: more than %u count vectors; too many symbols "
                                 "with wide count ranges",
                                 GENERIC_MAX_RADIX);
            }
        }
    }
    h->tuple_of = malloc(radix * sizeof *h->tuple_of);
    /* Per-tuple arrays sized for every count vector; the first ntuples are used. */
    h->counts = malloc(radix * (size_t)k);
    h->multi = malloc(radix * sizeof *h->multi);
    h->offset = malloc((radix + 1) * sizeof *h->offset);
    if (h->tuple_of == NULL || h->counts == NULL || h->multi == NULL || h->offset == NULL) {
        generic_destroy(h);
        return error_set(err, ERR_MEMORY, "generic hash: out of memory for %u count vectors",
                         (unsigned)radix);
    }
    /* Pascal's triangle: C(64, 32) < 2^61, so every entry fits. */
    int w = n + 1;
    h->binom = calloc((size_t)w * (size_t)w, sizeof *h->binom);
    if (h->binom == NULL) {
        generic_destroy(h);
        return error_set(err, ERR_MEMORY, "generic hash: out of memory");
    }
    for (int a = 0; a <= n; a++) {
        h->binom[a * w] = 1;
        for (int b = 1; b <= a; b++) {
            h->binom[a * w + b] = h->binom[(a - 1) * w + b - 1] + h->binom[(a - 1) * w + b];
        }
    }
    uint64_t total = 0;
    int c[GENERIC_MAX_SYMBOLS];
    for (uint32_t idx = 0; idx < radix; idx++) {
        h->tuple_of[idx] = -1;
        int rest = n;
        uint32_t v = idx;
        for (int s = 1; s < k; s++) {
            uint32_t range = (uint32_t)(h->max[s] - h->min[s] + 1);
            c[s] = h->min[s] + (int)(v % range);
            v /= range;
            rest -= c[s];
        }
        c[0] = rest;
        if (rest < h->min[0] || rest > h->max[0] || (valid != NULL && !valid(c, ctx))) {
            continue;
        }
        uint64_t m;
        if (!arrangements(h, c, &m) || m * (uint64_t)players >= GENERIC_LIMIT - total) {
            generic_destroy(h);
            return error_set(err, ERR_USAGE,
                             "generic hash: %d cells over %d symbols have 2^63 positions or "
                             "more; the board is too large to hash",
                             n, k);
        }
        uint32_t t = h->ntuples++;
        h->tuple_of[idx] = (int32_t)t;
        for (int s = 0; s < k; s++) {
            h->counts[(size_t)t * (size_t)k + (size_t)s] = (uint8_t)c[s];
        }
        h->multi[t] = m;
        h->offset[t] = total;
        total += m * (uint64_t)players;
    }
    if (h->ntuples == 0) {
        generic_destroy(h);
        return error_set(err, ERR_USAGE, "generic hash: no count vector satisfies the bounds");
    }
    h->offset[h->ntuples] = total;
    h->size = total;
    return ERR_OK;
}

void generic_destroy(GenericHash *h) {
    free(h->tuple_of);
    free(h->counts);
    free(h->multi);
    free(h->offset);
    free(h->binom);
    h->binom = NULL;
    h->tuple_of = NULL;
    h->counts = NULL;
    h->multi = NULL;
    h->offset = NULL;
}

int32_t generic_tuple(const GenericHash *h, const int *counts) {
    uint32_t idx = 0;
    for (int s = 0; s < h->k; s++) {
        if (counts[s] < h->min[s] || counts[s] > h->max[s]) {
            return -1;
        }
        if (s > 0) {
            idx += (uint32_t)(counts[s] - h->min[s]) * h->stride[s];
        }
    }
    return h->tuple_of[idx];
}

/* The tuple of a board, or -1 when its counts are not allowed. */
static int32_t tuple_of_board(const GenericHash *h, const uint8_t *cells, int *counts) {
    memset(counts, 0, (size_t)h->k * sizeof *counts);
    for (int i = 0; i < h->n; i++) {
        if (cells[i] >= h->k) {
            return -1;
        }
        counts[cells[i]]++;
    }
    return generic_tuple(h, counts);
}

bool generic_fits(const GenericHash *h, const uint8_t *cells) {
    int counts[GENERIC_MAX_SYMBOLS];
    return tuple_of_board(h, cells, counts) >= 0;
}

/* The arrangement's index of a board given by its masks (generic.h). */
static inline uint64_t rank_masks(const GenericHash *h, const uint64_t *mask) {
    uint64_t avail = all_cells(h->n), rank = 0, place = 1;
    int rem = h->n;
    for (int s = 1; s < h->k; s++) {
        uint64_t m = mask[s];
        if (m == 0) {
            continue; /* radix C(rem, 0) = 1: nothing to add */
        }
        uint64_t digit = 0;
        int j = 0;
        for (uint64_t b = m; b != 0; b &= b - 1) {
            uint64_t below = (UINT64_C(1) << __builtin_ctzll(b)) - 1;
            digit += binom(h, popcount64(avail & below), ++j);
        }
        rank += digit * place;
        place *= binom(h, rem, j);
        rem -= j;
        avail &= ~m;
    }
    return rank;
}

Position generic_hash(const GenericHash *h, const uint8_t *cells, int turn) {
    STAT_INC(hash);
    uint64_t mask[GENERIC_MAX_SYMBOLS];
    memset(mask, 0, (size_t)h->k * sizeof *mask);
    int64_t idx = h->radix_base;
    for (int i = 0; i < h->n; i++) {
        mask[cells[i]] |= UINT64_C(1) << i;
        idx += h->stride[cells[i]];
    }
    int32_t t = h->tuple_of[idx];
    return h->offset[t] + (uint64_t)turn * h->multi[t] + rank_masks(h, mask);
}

uint64_t generic_rank_masks(const GenericHash *h, const uint64_t *mask) {
    STAT_INC(hash);
    return rank_masks(h, mask);
}

/* The cell of the i-th (from 0) set bit of avail. */
static inline int select_bit(uint64_t avail, int i) {
    while (i-- > 0) {
        avail &= avail - 1;
    }
    return __builtin_ctzll(avail);
}

int generic_unhash(const GenericHash *h, Position p, uint8_t *cells) {
    STAT_INC(unhash);
    /* The tuple: the last offset <= p (binary search over ntuples + 1 bounds). */
    uint32_t lo = 0, hi = h->ntuples;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (h->offset[mid] <= p) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    uint32_t t = lo;
    uint64_t local = p - h->offset[t];
    int turn = (int)(local / h->multi[t]);
    uint64_t rank = local % h->multi[t];
    const uint8_t *c = &h->counts[(size_t)t * (size_t)h->k];
    memset(cells, 0, (size_t)h->n);
    uint64_t avail = all_cells(h->n);
    int rem = h->n;
    for (int s = 1; s < h->k; s++) {
        if (c[s] == 0) {
            continue;
        }
        uint64_t radix = binom(h, rem, c[s]);
        uint64_t digit = rank % radix, taken = 0;
        rank /= radix;
        /* Colex unranking: the largest index i with C(i, j) <= digit, j = c..1. */
        int i = rem;
        for (int j = c[s]; j >= 1; j--) {
            do {
                i--;
            } while (binom(h, i, j) > digit);
            digit -= binom(h, i, j);
            int cell = select_bit(avail, i);
            cells[cell] = (uint8_t)s;
            taken |= UINT64_C(1) << cell;
        }
        avail &= ~taken;
        rem -= c[s];
    }
    return turn;
}
