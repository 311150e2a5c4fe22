/* hash/generic.h: the combinatorial "generic hash" of GamesmanClassic, counted.
 *
 * A board of n cells, each holding a symbol 0..k-1 (blank, a kind of piece,
 * or one particular piece), where symbol s occurs between min[s] and max[s]
 * times, and the counts (c_0, ..., c_{k-1}) sum to n and pass an optional
 * filter. Such a count vector is a "tuple"; each tuple owns a contiguous
 * block of positions:
 *
 *     position = offset[t] + turn * M(t) + rank,    0 <= rank < M(t),
 *
 * where M(t) = n! / (c_0! c_1! ... c_{k-1}!) is the number of arrangements of
 * the tuple's pieces (a multinomial), rank is the arrangement's index
 * (below) and turn is the player to move when the hash folds it in
 * (players = 2; 0 otherwise). Tuples are numbered in increasing order of
 * the mixed-radix number sum_{s>=1} (c_s - min[s]) * prod_{u<s} (max[u] -
 * min[u] + 1); symbol 0's count is implied by the others. The space is
 * exactly the boards that obey the counts: no slot is wasted on a board with
 * the wrong number of pieces, which is what makes the scheme compact for
 * games with few pieces on a large board (GamesmanClassic's
 * generic_hash_init(boardsize, pieces_array, vcfg, player)).
 *
 * Ranking, as nested combinations: symbol 1's cells are a c_1-subset of the
 * n cells, symbol 2's a c_2-subset of the n - c_1 cells left, and so on;
 * symbol 0 takes the cells that remain. Each subset is ranked in colex order
 * (sum_j C(i_j, j + 1) over its cells' indices i_0 < i_1 < ... among the
 * cells still free), and the ranks are digits of a mixed-radix number with
 * radices C(n, c_1), C(n - c_1, c_2), ..., whose product is M(t). Hashing
 * needs no division: one pass over the cells, then a popcount and a table
 * lookup per piece. Unhashing divides once per symbol present and selects
 * cells from a bit mask.
 *
 * Cost: hash O(n + k), unhash O(n k + log T) for T tuples; no allocation.
 * Every generic_hash counts one `hash`, every generic_unhash one `unhash`
 * (core/stats.h). Set-up takes O(R k) for R = prod_{s>=1} (max[s] - min[s]
 * + 1) count vectors, and R * 4 bytes of lookup table.
 */
#ifndef HASH_GENERIC_H
#define HASH_GENERIC_H

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"
#include "core/types.h"

#define GENERIC_MAX_CELLS 64
#define GENERIC_MAX_SYMBOLS 32
#define GENERIC_MAX_RADIX (1u << 22) /* count vectors enumerated at set-up */

/* Optional filter on count vectors (counts[0..k-1]); ctx is passed through. */
typedef bool (*GenericValidFn)(const int *counts, void *ctx);

typedef struct GenericHash {
    int n;                                /* cells, 1..GENERIC_MAX_CELLS */
    int k;                                /* symbols, 2..GENERIC_MAX_SYMBOLS */
    int players;                          /* 1, or 2 when the turn is part of the position */
    int min[GENERIC_MAX_SYMBOLS];         /* bounds on each symbol's count */
    int max[GENERIC_MAX_SYMBOLS];         /* (symbol 0's is implied by the others) */
    uint32_t stride[GENERIC_MAX_SYMBOLS]; /* mixed-radix place of symbols 1..k-1 */
    int64_t radix_base;                   /* -sum_{s>=1} min[s] * stride[s] */
    int32_t *tuple_of;                    /* count vector -> tuple, -1 if not allowed */
    uint32_t ntuples;
    uint8_t *counts;  /* counts[t * k + s]: count of symbol s in tuple t */
    uint64_t *multi;  /* multi[t] = M(t), arrangements of tuple t */
    uint64_t *offset; /* offset[t]: first position of tuple t; offset[ntuples] = size */
    uint64_t size;    /* positions: sum of M(t) * players */
    uint64_t *binom;  /* binom[a * (n + 1) + b] = C(a, b) for a, b <= n */
} GenericHash;

/* Prepares a scheme of n cells over k symbols with counts in min[s]..max[s]
 * (symbol 0 too), optionally filtered by valid(counts, ctx). players is 1,
 * or 2 to fold the turn into the position. Refuses bad parameters, a space
 * of 2^63 positions or more, and more than GENERIC_MAX_RADIX count vectors.
 * Free with generic_destroy. */
ErrCode generic_init(GenericHash *h, int n, int k, const int *min, const int *max, int players,
                     GenericValidFn valid, void *ctx, Error *err);
void generic_destroy(GenericHash *h);

/* The tuple (block of positions offset[t] .. offset[t+1]-1) of the count
 * vector counts[0..k-1], or -1 when those counts are not allowed. Tiers
 * that fix the piece counts use it: tier index = position - offset[t]. */
int32_t generic_tuple(const GenericHash *h, const int *counts);

/* True when cells[0..n-1] (symbols < k) obey the counts and the filter, so
 * generic_hash accepts them. Not counted: it encodes nothing. */
bool generic_fits(const GenericHash *h, const uint8_t *cells);

/* Position of cells[0..n-1] with `turn` to move (0 when players == 1). The
 * board must fit (generic_fits). Counts one hash. */
Position generic_hash(const GenericHash *h, const uint8_t *cells, int turn);

/* The rank of a board given as bit masks, without the tuple's offset:
 * mask[s] (s = 1..k-1) has bit i set where cell i holds symbol s, and the
 * board has tuple t (generic_tuple of its counts). generic_hash(cells,
 * turn) = offset[t] + turn * multi[t] + generic_rank_masks(mask, ...).
 * For a game that ranks many images of one board (its symmetries) whose
 * masks it permutes itself: O(pieces), no pass over the cells. Counts one
 * hash. */
uint64_t generic_rank_masks(const GenericHash *h, const uint64_t *mask);

/* Decodes p < h->size into cells[0..n-1] and returns the turn. Counts one
 * unhash. */
int generic_unhash(const GenericHash *h, Position p, uint8_t *cells);

#endif /* HASH_GENERIC_H */
