/* hash/multinomial.h: rank and unrank of a board with fixed piece counts,
 * counted.
 *
 * The boards of n cells holding digits 0..k-1 with exactly counts[v] cells
 * of digit v are numbered 0 .. M-1 in lexicographic order (cell 0 most
 * significant), where M = n! / (counts[0]! ... counts[k-1]!) is the
 * multinomial coefficient. This is the tier-local index of placement games
 * whose tier fixes the piece counts (tic-tac-toe: the tier is the number of
 * pieces, which fixes how many x and o), the classic combinatorial
 * "rearranger" hash of GamesmanClassic in its simplest form.
 *
 * Every rank counts one `hash` and every unrank one `unhash`
 * (core/stats.h), like the other schemes of hash/.
 *
 * Cost: rank and unrank are O(n k) with one 128-bit multiply-divide per
 * step; no tables beyond the scheme's sizes. init refuses k^n >= 2^63 so
 * that every count fits in 63 bits.
 */
#ifndef HASH_MULTINOMIAL_H
#define HASH_MULTINOMIAL_H

#include <stdint.h>

#include "core/error.h"
#include "core/types.h"

#define MULTINOMIAL_MAX_CELLS 64
#define MULTINOMIAL_MAX_KINDS 16

typedef struct Multinomial {
    int k; /* digits per cell, 2..MULTINOMIAL_MAX_KINDS */
    int n; /* cells, 1..MULTINOMIAL_MAX_CELLS */
} Multinomial;

/* Prepares a scheme of n cells with k digits; refuses k^n >= 2^63. */
ErrCode multinomial_init(Multinomial *m, int k, int n, Error *err);

/* Number of boards with counts[0..k-1] (which must sum to n). */
uint64_t multinomial_count(const Multinomial *m, const uint8_t *counts);

/* Index of cells[0..n-1] among the boards with its own piece counts, in
 * [0, multinomial_count(counts)). Counts one hash. */
uint64_t multinomial_rank(const Multinomial *m, const uint8_t *cells);

/* The board of index `rank` among those with counts[0..k-1] (rank must be
 * below their count) into cells[0..n-1]. Counts one unhash. */
void multinomial_unrank(const Multinomial *m, const uint8_t *counts, uint64_t rank, uint8_t *cells);

#endif /* HASH_MULTINOMIAL_H */
