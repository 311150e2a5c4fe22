/* hash/combi.h: combinatorial ranks, counted: combinations and bounded
 * compositions.
 *
 * Two bijections between small combinatorial objects and integers, the
 * building blocks of compact hashes (hash/colhash.h composes them):
 *
 *   Combinations (colex). An n-element 0/1 sequence with exactly k ones,
 *   held as the low n bits of a uint64_t (bit i = element i), is ranked
 *       rank = sum_{j=1..k} C(s_j, j)   for its ones at s_1 < ... < s_k,
 *   a bijection onto [0, C(n, k)) (the combinatorial number system). The
 *   rank does not depend on n, so a sequence keeps its rank when zeros are
 *   appended. Used for the colour sequence of the pieces of a gravity game
 *   (bit = the piece is the first player's).
 *
 *   Bounded compositions (lex). A vector v[0..p-1] of p parts, each in
 *   0..m, with sum s, is ranked in lexicographic order (v[0] most
 *   significant) among the vectors of the same sum:
 *       rank = sum_i #{vectors with v[0..i-1] equal and a smaller v[i]}
 *            = sum_i (B[p-1-i][r_i + 1] - B[p-1-i][r_i - v[i] + 1]),
 *   where r_i = s - v[0] - ... - v[i-1] is the sum left for parts i.., and
 *   B[q][t] counts the q-part vectors of sum below t. Used for the column
 *   heights of a gravity game.
 *
 * Counting (core/stats.h): every full rank counts one `hash`, every unrank
 * one `unhash`, like the other schemes of hash/. The *_core functions do
 * the same work uncounted; they exist only so that a composite scheme in
 * hash/ (one position = several ranks) counts one hash per position. Game
 * modules call the counted functions.
 *
 * Cost: combination rank O(k), unrank O(n); composition rank O(p), unrank
 * O(p m). Tables: 35 KiB of binomials, 18 KiB of composition counts; no
 * allocation.
 */
#ifndef HASH_COMBI_H
#define HASH_COMBI_H

#include <stdint.h>

#include "core/error.h"
#include "core/stats.h"

#define COMBI_MAX_N 64      /* elements of a combination */
#define COMPOS_MAX_PARTS 16 /* parts of a composition */
#define COMPOS_MAX_SUM 64   /* parts * max part */

/* by_k[b][a] = C(a, b) for 0 <= a <= 64 and 0 <= b <= 65 (0 when b > a).
 * C(64, 32) < 2^61, so every entry fits. Rows by b: the rank loops step
 * the lower index by one per element, so they walk a row pointer by a
 * constant stride instead of multiplying. */
typedef struct Binomials {
    uint64_t by_k[COMBI_MAX_N + 2][COMBI_MAX_N + 1];
} Binomials;

/* C(a, b). */
static inline uint64_t binomial(const Binomials *b, int a, int k) { return b->by_k[k][a]; }

void binomials_init(Binomials *b);

/* Ones in x. The default build (-march=x86-64) has no popcount
 * instruction, and gcc's builtin then calls libgcc: a SWAR count of a
 * dozen instructions is faster. A build with -mpopcnt (e.g. -march=native)
 * uses the instruction. */
static inline int combi_popcount(uint64_t x) {
#ifdef __POPCNT__
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (int)((x * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

/* Colex rank of the ones of `set`; in [0, C(n, k)) for a set of k ones
 * below bit n. Uncounted core, for composite schemes in hash/. */
static inline uint64_t combi_rank_core(const Binomials *b, uint64_t set) {
    uint64_t rank = 0;
    for (const uint64_t *row = b->by_k[1]; set != 0; row += COMBI_MAX_N + 1, set &= set - 1) {
        rank += row[__builtin_ctzll(set)];
    }
    return rank;
}

/* The n-bit sequence with k ones of colex rank `rank` (< C(n, k)).
 * Uncounted core. */
uint64_t combi_unrank_core(const Binomials *b, uint64_t rank, int n, int k);

/* Colex rank of `set`. Counts one hash. */
uint64_t combi_rank(const Binomials *b, uint64_t set);

/* The n-bit sequence with k ones of colex rank `rank`. Counts one unhash. */
uint64_t combi_unrank(const Binomials *b, uint64_t rank, int n, int k);

/* Inserting an element at index q of the sequence `set` (colex rank
 * `rank`, with `below` ones at indices below q): elements q.. move up one
 * place and the new element, a one when `bit`, takes index q. Returns the
 * new sequence and stores its rank in *rank. (A caller that does not track
 * `below` passes combi_popcount(set & ((1 << q) - 1)).)
 *
 * Only the ones at or above q change their terms. By Pascal's rule a one
 * at s with index j becomes a one at s + 1 with index j + bit, and
 *     C(s + 1, j + 1) - C(s, j) = C(s, j + 1),  C(s + 1, j) - C(s, j) = C(s, j - 1),
 * so the new rank is the old one plus one table entry per one at or above
 * q, plus C(q, below + 1) for an inserted one. The walk goes up, clearing
 * the lowest one: a 2-cycle dependency per one. Cost: O(ones at or above
 * q), no division. Uncounted core: the caller counts the position it
 * produces. */
static inline uint64_t combi_insert_core(const Binomials *b, uint64_t set, int below,
                                         uint64_t *rank, int q, int bit) {
    uint64_t low = set & ((UINT64_C(1) << q) - 1);
    uint64_t high = set ^ low;
    uint64_t r = *rank;
    /* The one of index j (from below + 1 up) gains C(s, j + 1) (bit 1) or
     * C(s, j - 1) (bit 0): one row of the table per one. */
    const uint64_t *row = b->by_k[below + 1 + (bit ? 1 : -1)];
    if (bit) {
        r += b->by_k[below + 1][q];
    }
    for (; high != 0; row += COMBI_MAX_N + 1, high &= high - 1) {
        r += row[__builtin_ctzll(high)];
    }
    *rank = r;
    return low | ((uint64_t)bit << q) | ((set ^ low) << 1);
}

/* The same, counted as one hash (a new sequence is encoded). */
static inline uint64_t combi_insert(const Binomials *b, uint64_t set, int below, uint64_t *rank,
                                    int q, int bit) {
    STAT_INC(hash);
    return combi_insert_core(b, set, below, rank, q, bit);
}

/* Vectors of `parts` parts, each 0..max_part, ranked among those of equal
 * sum. count[q][s]: vectors of q parts with sum s; below[q][t]: those with
 * sum < t. */
typedef struct Compositions {
    int parts;    /* 1..COMPOS_MAX_PARTS */
    int max_part; /* 1..COMPOS_MAX_SUM */
    int max_sum;  /* parts * max_part <= COMPOS_MAX_SUM */
    uint64_t count[COMPOS_MAX_PARTS + 1][COMPOS_MAX_SUM + 1];
    uint64_t below[COMPOS_MAX_PARTS + 1][COMPOS_MAX_SUM + 2];
} Compositions;

/* Refuses parts or sizes out of the table bounds. */
ErrCode compositions_init(Compositions *c, int parts, int max_part, Error *err);

/* Number of vectors of sum s (0 when s is out of 0..max_sum). */
static inline uint64_t compositions_count(const Compositions *c, int s) {
    return s < 0 || s > c->max_sum ? 0 : c->count[c->parts][s];
}

/* Rank of v[0..parts-1] (sum s) among the vectors of sum s. Uncounted core. */
static inline uint64_t compositions_rank_core(const Compositions *c, const uint8_t *v, int s) {
    uint64_t rank = 0;
    for (int i = 0, q = c->parts - 1; q >= 0; i++, q--) {
        rank += c->below[q][s + 1] - c->below[q][s - v[i] + 1];
        s -= v[i];
    }
    return rank;
}

/* The vector of sum s of rank `rank` into v[0..parts-1]. Uncounted core. */
void compositions_unrank_core(const Compositions *c, uint64_t rank, int s, uint8_t *v);

/* Counted forms: one hash, one unhash. */
uint64_t compositions_rank(const Compositions *c, const uint8_t *v, int s);
void compositions_unrank(const Compositions *c, uint64_t rank, int s, uint8_t *v);

#endif /* HASH_COMBI_H */
