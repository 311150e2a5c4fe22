/* hash/colhash.h: the column hash of two-player gravity games, tier-major,
 * counted.
 *
 * A board of w columns of height h, filled from the bottom, by two players
 * who alternate, the first player moving first (Connect Four). A board
 * with n pieces is determined by
 *   - its height vector heights[0..w-1] (each 0..h, sum n), and
 *   - its colour sequence: the n pieces read column by column (column 0
 *     first), each column bottom to top, bit i set when the i-th piece is
 *     the first player's. The first player has ceil(n/2) pieces.
 * Gravity is built in: no slot of the space holds a floating piece or a
 * wrong piece count.
 *
 * Layout, tier-major: tier n (the number of pieces, 0..w*h) occupies
 *     [first[n], first[n] + size(n)),   size(n) = H(n) * C(n, ceil(n/2)),
 * where H(n) counts the height vectors of sum n, and
 *     position = first[n] + heights_rank * C(n, ceil(n/2)) + colour_rank
 * with heights_rank the lex rank of the height vector and colour_rank the
 * colex rank of the colour sequence (hash/combi.h). A move goes from tier n
 * to tier n + 1 only, so the tier (stage) solver, the sweep and the DFS
 * solvers share this one layout.
 *
 * Sizes: 4x4 201,755 slots; 5x4 5,621,939; 6x4 159,643,961 (largest tier
 * 23,279,256); 5x5 171,976,899; 6x5 9,918,556,649 (largest tier
 * 1,310,475,600); 7x6 70,728,639,995,483 (tests/test_hash_colhash.c checks
 * them against a brute-force count).
 *
 * Counting: colhash_hash, colhash_cursor_load and colhash_cursor_drop count
 * one `hash`; colhash_unhash and colhash_cursor_set one `unhash`;
 * colhash_tier reads the layout only (no decoding) and is not counted.
 *
 * Cost: hash O(w + n/2); unhash O(w h + n) with one division; a drop (the
 * position after one more piece, from a cursor holding the previous one's
 * parts) is one table lookup for the heights plus O(first player's pieces
 * after the insertion point) for the colours, no division.
 */
#ifndef HASH_COLHASH_H
#define HASH_COLHASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/error.h"
#include "core/stats.h"
#include "core/types.h"
#include "hash/combi.h"

#define COLHASH_MAX_COLS COMPOS_MAX_PARTS /* 16 */
#define COLHASH_MAX_CELLS 64
/* Largest table of height-vector bases, (rows + 1)^cols entries of 8 bytes
 * (8 MiB). Bigger boards rank their heights in O(w) instead of one lookup;
 * a board that big is far beyond a full solve anyway. */
#define COLHASH_MAX_TABLE (UINT64_C(1) << 20)

typedef struct ColHash {
    int cols;  /* w */
    int rows;  /* h */
    int cells; /* w * h */
    uint64_t size;
    uint64_t first[COLHASH_MAX_CELLS + 2];      /* first[n]; first[cells + 1] = size */
    uint64_t colourings[COLHASH_MAX_CELLS + 1]; /* C(n, ceil(n/2)) */
    uint64_t radix[COLHASH_MAX_COLS];           /* (rows + 1)^c: places of the height code */
    /* upto[c]: a one in the byte lanes c..cols-1 (see ColHashCursor). */
    uint8_t upto[COLHASH_MAX_COLS][COLHASH_MAX_COLS];
    /* base[code] = first[n] + heights_rank * C(n, ceil(n/2)) for the height
     * vector of mixed-radix code sum_c heights[c] * radix[c]; NULL when the
     * table would exceed COLHASH_MAX_TABLE entries. */
    uint64_t *base;
    Binomials binom;
    Compositions heights;
} ColHash;

/* The number of slots of a w x h board, as a double (it may exceed 2^64):
 * for messages about boards too large to hash. 0 when w is out of
 * 1..COLHASH_MAX_COLS or h out of 1..64. */
double colhash_space(int cols, int rows);

/* Prepares the hash of a cols x rows board. Refuses sizes out of range
 * (1..16 columns, at most 64 cells) and a space of 2^63 slots or more, with
 * the size it would need. Free with colhash_destroy. */
ErrCode colhash_init(ColHash *h, int cols, int rows, Error *err);
void colhash_destroy(ColHash *h);

/* Number of slots of tier n. */
static inline uint64_t colhash_tier_size(const ColHash *h, int n) {
    return h->first[n + 1] - h->first[n];
}

/* The tier (number of pieces) of p < size: a binary search of first[]. */
int colhash_tier(const ColHash *h, Position p);

/* Position of the board with heights[0..w-1] (sum n) and colour sequence
 * `colours` (n bits, ceil(n/2) of them set). Counts one hash. */
Position colhash_hash(const ColHash *h, const uint8_t *heights, int n, uint64_t colours);

/* Decodes p < size into heights[0..w-1] and *colours; returns n. Counts
 * one unhash. */
int colhash_unhash(const ColHash *h, Position p, uint8_t *heights, uint64_t *colours);

/* ------------------------------------------------- incremental (GPS) use */

/* A board held as its hash parts, so that a drop updates the position
 * without decoding or re-ranking the whole board. Byte lane c of
 * pieces_upto (firsts_upto) counts the pieces (the first player's pieces)
 * in columns 0..c: a piece dropped in column c enters the colour sequence
 * at index pieces_upto[c] with firsts_upto[c] ones below it (two byte
 * loads, no popcount), and a drop adds one to lanes c.. with two 64-bit
 * adds (counts stay below 256, so lanes never carry). */
typedef struct ColHashCursor {
    uint8_t pieces_upto[COLHASH_MAX_COLS];
    uint8_t firsts_upto[COLHASH_MAX_COLS];
    int n;                             /* pieces */
    uint8_t heights[COLHASH_MAX_COLS]; /* column heights */
    uint64_t code;                     /* sum_c heights[c] * radix[c] */
    uint64_t occupied;                 /* bit c * rows + r: cell (c, r) is filled */
    uint64_t colours;                  /* the colour sequence */
    uint64_t colour_rank;              /* its colex rank */
    Position pos;                      /* the position */
} ColHashCursor;

/* What a lift needs to restore (the parts a drop cannot invert cheaply). */
typedef struct ColHashUndo {
    Position pos;
    uint64_t colours, colour_rank;
} ColHashUndo;

/* Loads position p into a cursor. Counts one unhash. */
void colhash_cursor_set(const ColHash *h, ColHashCursor *cur, Position p);

/* Loads the board with heights[0..w-1] and colour sequence `colours` into a
 * cursor. Counts one hash. */
void colhash_cursor_load(const ColHash *h, ColHashCursor *cur, const uint8_t *heights,
                         uint64_t colours);

/* lanes += inc & mask, 16 byte lanes as two words (mask: 0 or all ones).
 * memcpy keeps it free of aliasing and byte-order assumptions and compiles
 * to plain loads and stores. */
static inline void colhash_lanes_add(uint8_t *lanes, const uint8_t *inc, uint64_t mask) {
    uint64_t w[2], d[2];
    memcpy(w, lanes, sizeof w);
    memcpy(d, inc, sizeof d);
    w[0] += d[0] & mask;
    w[1] += d[1] & mask;
    memcpy(lanes, w, sizeof w);
}

static inline void colhash_lanes_sub(uint8_t *lanes, const uint8_t *inc, uint64_t mask) {
    uint64_t w[2], d[2];
    memcpy(w, lanes, sizeof w);
    memcpy(d, inc, sizeof d);
    w[0] -= d[0] & mask;
    w[1] -= d[1] & mask;
    memcpy(lanes, w, sizeof w);
}

/* first[n] + heights_rank * C(n, ceil(n/2)) of the cursor's heights: one
 * table lookup, or O(w) without the table. */
static inline uint64_t colhash_heights_base(const ColHash *h, const ColHashCursor *cur) {
    if (h->base != NULL) {
        return h->base[cur->code];
    }
    return h->first[cur->n] +
           compositions_rank_core(&h->heights, cur->heights, cur->n) * h->colourings[cur->n];
}

/* Drops a piece into column c (not full): the first player's when the
 * cursor holds an even number of pieces (the players alternate). Saves what
 * colhash_cursor_lift needs in *undo (NULL when the caller keeps a copy of
 * the whole cursor instead) and returns the new position. Counts one hash.
 *
 * The piece enters the colour sequence at index q = the pieces in columns
 * 0..c, with the first player's pieces of those columns below it (two
 * lane reads); only the first player's pieces above q change their colex
 * terms (combi_insert_core), and the height part is one lookup of the new
 * code. Cost: O(1) + O(first player's pieces after q), no division. */
static inline __attribute__((always_inline)) Position
colhash_cursor_drop(const ColHash *h, ColHashCursor *cur, int c, ColHashUndo *undo) {
    STAT_INC(hash);
    if (undo != NULL) {
        *undo = (ColHashUndo){cur->pos, cur->colours, cur->colour_rank};
    }
    int first = !(cur->n & 1);
    int q = cur->pieces_upto[c], below = cur->firsts_upto[c];
    colhash_lanes_add(cur->pieces_upto, h->upto[c], ~UINT64_C(0));
    colhash_lanes_add(cur->firsts_upto, h->upto[c], -(uint64_t)first);
    cur->occupied |= UINT64_C(1) << (c * h->rows + cur->heights[c]);
    cur->heights[c]++;
    cur->code += h->radix[c];
    cur->colours = combi_insert_core(&h->binom, cur->colours, below, &cur->colour_rank, q, first);
    cur->n++;
    cur->pos = colhash_heights_base(h, cur) + cur->colour_rank;
    return cur->pos;
}

/* Takes back the last piece dropped into column c, restoring the parts
 * saved by its drop. Not counted: nothing is encoded or decoded. */
static inline __attribute__((always_inline)) void
colhash_cursor_lift(const ColHash *h, ColHashCursor *cur, int c, const ColHashUndo *undo) {
    cur->n--;
    int first = !(cur->n & 1);
    colhash_lanes_sub(cur->pieces_upto, h->upto[c], ~UINT64_C(0));
    colhash_lanes_sub(cur->firsts_upto, h->upto[c], -(uint64_t)first);
    cur->heights[c]--;
    cur->occupied &= ~(UINT64_C(1) << (c * h->rows + cur->heights[c]));
    cur->code -= h->radix[c];
    cur->pos = undo->pos;
    cur->colours = undo->colours;
    cur->colour_rank = undo->colour_rank;
}

#endif /* HASH_COLHASH_H */
