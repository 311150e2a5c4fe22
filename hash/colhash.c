/* hash/colhash.c: see colhash.h. */
#include "hash/colhash.h"

#include <stdlib.h>
#include <string.h>

#include "core/mem.h"

#define COLHASH_SPACE_MAX_ROWS 64

double colhash_space(int cols, int rows) {
    if (cols < 1 || cols > COLHASH_MAX_COLS || rows < 1 || rows > COLHASH_SPACE_MAX_ROWS) {
        return 0;
    }
    enum { MAX = COLHASH_MAX_COLS * COLHASH_SPACE_MAX_ROWS };
    /* vectors[s]: height vectors of the columns so far with sum s. */
    double vectors[MAX + 1] = {1}, next[MAX + 1];
    int cells = cols * rows;
    for (int q = 1; q <= cols; q++) {
        for (int s = 0; s <= cells; s++) {
            next[s] = 0;
            for (int x = 0; x <= rows && x <= s; x++) {
                next[s] += vectors[s - x];
            }
        }
        memcpy(vectors, next, sizeof next);
    }
    double total = 0;
    for (int n = 0; n <= cells; n++) {
        double c = 1; /* C(n, ceil(n/2)) */
        for (int i = 1; i <= n / 2; i++) {
            c = c * (n - n / 2 + i) / i;
        }
        total += vectors[n] * c;
    }
    return total;
}

/* base[] for the codes whose columns i+1.. hold the heights that made
 * `code`, `sum` discs and `rank` so far. compositions_rank_core's term of
 * column i, below[q][S_i + 1] - below[q][S_{i+1} + 1] (q = cols - 1 - i),
 * depends only on the sums S of columns i.. and i+1..: adding the columns
 * from the last (the code's most significant digit) down fills the table in
 * O(1) an entry, in the order of the codes. */
static void fill_base(ColHash *h, int i, uint64_t code, int sum, uint64_t rank) {
    const uint64_t *below = h->heights.below[h->cols - 1 - i];
    for (int x = 0; x <= h->rows; x++) {
        uint64_t r = rank + below[sum + x + 1] - below[sum + 1];
        if (i == 0) {
            h->base[code + (uint64_t)x] = h->first[sum + x] + r * h->colourings[sum + x];
        } else {
            fill_base(h, i - 1, code + (uint64_t)x * h->radix[i], sum + x, r);
        }
    }
}

ErrCode colhash_init(ColHash *h, int cols, int rows, Error *err) {
    if (cols < 1 || cols > COLHASH_MAX_COLS || rows < 1 || rows > COLHASH_SPACE_MAX_ROWS) {
        return error_set(err, ERR_USAGE,
                         "column hash: %d columns of height %d: need 1..%d columns "
                         "of height 1..%d",
                         cols, rows, COLHASH_MAX_COLS, COLHASH_SPACE_MAX_ROWS);
    }
    double space = colhash_space(cols, rows);
    if (space >= 0x1p63) {
        return error_set(err, ERR_USAGE,
                         "a %dx%d board has %.3g positions in its hash space, more than 2^63 "
                         "(9.2e18): choose a smaller board",
                         cols, rows, space);
    }
    if (cols * rows > COLHASH_MAX_CELLS) {
        return error_set(err, ERR_USAGE, "column hash: a %dx%d board has more than %d cells", cols,
                         rows, COLHASH_MAX_CELLS);
    }
    memset(h, 0, sizeof *h);
    h->cols = cols;
    h->rows = rows;
    h->cells = cols * rows;
    binomials_init(&h->binom);
    ErrCode rc = compositions_init(&h->heights, cols, rows, err);
    if (rc != ERR_OK) {
        return rc;
    }
    unsigned __int128 total = 0;
    for (int n = 0; n <= h->cells; n++) {
        h->colourings[n] = binomial(&h->binom, n, (n + 1) / 2);
        h->first[n] = (uint64_t)total;
        total += (unsigned __int128)compositions_count(&h->heights, n) * h->colourings[n];
        if (total >= (unsigned __int128)1 << 63) {
            /* The double estimate above was just under 2^63 but rounded. */
            return error_set(err, ERR_USAGE,
                             "a %dx%d board has more than 2^63 positions in its hash space: "
                             "choose a smaller board",
                             cols, rows);
        }
    }
    h->size = (uint64_t)total;
    h->first[h->cells + 1] = h->size;
    /* The height code's places, and the table of bases when it is small. */
    uint64_t codes = 1;
    for (int c = 0; c < cols; c++) {
        for (int i = c; i < cols; i++) {
            h->upto[c][i] = 1;
        }
        h->radix[c] = codes;
        codes = codes > COLHASH_MAX_TABLE ? codes : codes * (uint64_t)(rows + 1);
    }
    if (codes <= COLHASH_MAX_TABLE) {
        /* 6x6: 941 KB filled at once, on one huge page instead of 230
         * small ones (each first touch costs a page fault) */
        h->base = mem_alloc_big(codes * sizeof *h->base, (size_t)512 << 10);
        if (h->base == NULL) {
            return error_set(err, ERR_MEMORY, "out of memory for a %dx%d column hash", cols, rows);
        }
        fill_base(h, cols - 1, 0, 0, 0);
    }
    return ERR_OK;
}

void colhash_destroy(ColHash *h) {
    free(h->base);
    h->base = NULL;
}

int colhash_tier(const ColHash *h, Position p) {
    int lo = 0, hi = h->cells; /* first[lo] <= p < first[hi + 1] */
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (h->first[mid] <= p) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

Position colhash_hash(const ColHash *h, const uint8_t *heights, int n, uint64_t colours) {
    STAT_INC(hash);
    return h->first[n] + compositions_rank_core(&h->heights, heights, n) * h->colourings[n] +
           combi_rank_core(&h->binom, colours);
}

/* Tier by binary search, then one division splits the tier-local index
 * into the two ranks. */
static int unhash_core(const ColHash *h, Position p, uint8_t *heights, uint64_t *colours,
                       uint64_t *colour_rank) {
    int n = colhash_tier(h, p);
    uint64_t local = p - h->first[n];
    uint64_t hr = local / h->colourings[n], cr = local % h->colourings[n];
    compositions_unrank_core(&h->heights, hr, n, heights);
    *colours = combi_unrank_core(&h->binom, cr, n, (n + 1) / 2);
    *colour_rank = cr;
    return n;
}

int colhash_unhash(const ColHash *h, Position p, uint8_t *heights, uint64_t *colours) {
    STAT_INC(unhash);
    uint64_t rank;
    return unhash_core(h, p, heights, colours, &rank);
}

/* The parts of a cursor that follow from its heights and colours. */
static void cursor_fill(const ColHash *h, ColHashCursor *cur) {
    cur->code = 0;
    cur->occupied = 0;
    memset(cur->pieces_upto, 0, sizeof cur->pieces_upto);
    memset(cur->firsts_upto, 0, sizeof cur->firsts_upto);
    uint64_t seq = cur->colours;
    int pieces = 0, firsts = 0;
    for (int c = 0; c < h->cols; c++) {
        uint64_t column = (UINT64_C(1) << cur->heights[c]) - 1;
        cur->code += cur->heights[c] * h->radix[c];
        cur->occupied |= column << (c * h->rows);
        pieces += cur->heights[c];
        firsts += combi_popcount(seq & column);
        cur->pieces_upto[c] = (uint8_t)pieces;
        cur->firsts_upto[c] = (uint8_t)firsts;
        seq >>= cur->heights[c];
    }
}

void colhash_cursor_set(const ColHash *h, ColHashCursor *cur, Position p) {
    STAT_INC(unhash);
    memset(cur->heights, 0, sizeof cur->heights);
    cur->n = unhash_core(h, p, cur->heights, &cur->colours, &cur->colour_rank);
    cur->pos = p;
    cursor_fill(h, cur);
}

void colhash_cursor_load(const ColHash *h, ColHashCursor *cur, const uint8_t *heights,
                         uint64_t colours) {
    STAT_INC(hash);
    memset(cur->heights, 0, sizeof cur->heights);
    cur->n = 0;
    for (int c = 0; c < h->cols; c++) {
        cur->heights[c] = heights[c];
        cur->n += heights[c];
    }
    cur->colours = colours;
    cursor_fill(h, cur);
    cur->colour_rank = combi_rank_core(&h->binom, colours);
    cur->pos = colhash_heights_base(h, cur) + cur->colour_rank;
}
