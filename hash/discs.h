/* hash/discs.h: two-colour disc boards held as bitboards, mixed-radix hash, counted.
 *
 * A board of n <= 64 cells is a pair of bitboards (first player's discs,
 * second player's discs; bit i is cell i, never both set). Most cells are
 * empty, first or second (3 states), but some cells are never empty in a
 * game (Othello's 4 centre squares are filled before the first move and
 * discs are never removed): those `fixed` cells have 2 states. With f fixed
 * cells and t turns (1, or 2 when the player to move is not implied by the
 * board, as in games with passes) the positions are
 *
 *     [0, 2^f * 3^(n-f) * t),    position = board * t + turn,
 *
 * where board = sum over cells of digit(cell) * (product of the radices of
 * the cells before it); digit: open cell empty 0, first 1, second 2; fixed
 * cell first 0, second 1. Othello 4x4: 2^4 * 3^12 * 2 = 17,006,112.
 *
 * Speed: cells are taken 4 at a time (a nibble of each bitboard). Hashing
 * adds one precomputed table entry per nibble (16 lookups for 64 cells, 4
 * for 16), with no multiplication or branch per cell; unhashing divides once
 * per nibble and looks the nibble pair up. Tables: 2 KiB per nibble.
 *
 * Every discs_hash counts one `hash`, every discs_unhash one `unhash`
 * (core/stats.h), like hash/basek.h.
 */
#ifndef HASH_DISCS_H
#define HASH_DISCS_H

#include <stdint.h>

#include "core/error.h"
#include "core/stats.h"
#include "core/types.h"

#define DISCS_MAX_CELLS 64
#define DISCS_MAX_NIBBLES (DISCS_MAX_CELLS / 4)

typedef struct DiscHash {
    int cells;                         /* n, 1..64 */
    int turns;                         /* 1 or 2 */
    uint64_t fixed;                    /* cells that are never empty (2 states) */
    uint64_t boards;                   /* 2^f * 3^(n-f) */
    uint64_t size;                     /* boards * turns: the position space */
    int nibbles;                       /* ceil(n / 4) */
    uint32_t radix[DISCS_MAX_NIBBLES]; /* states of the nibble's cells together, <= 81 */
    /* enc[k][first << 4 | second]: the nibble's contribution to the board
     * number (its digit value times its place); 0 for invalid pairs. */
    uint64_t enc[DISCS_MAX_NIBBLES][256];
    /* dec[k][v]: the nibble pair (first | second << 4) of digit value v. */
    uint8_t dec[DISCS_MAX_NIBBLES][81];
} DiscHash;

/* Prepares the hash of `cells` cells of which the set bits of `fixed` are
 * never empty, with `turns` (1 or 2) players to move. Refuses, with the
 * size it would need, when the position space does not fit in 63 bits. */
ErrCode discs_init(DiscHash *h, int cells, uint64_t fixed, int turns, Error *err);

/* The number of positions of a board of `cells` cells, `fixed` of them
 * never empty, with `turns` turns, as a double (it may exceed 2^64): for
 * messages about boards too large to hash. */
double discs_space(int cells, int nfixed, int turns);

/* Position of the board (first, second) with `turn` to move. Precondition:
 * first & second == 0, every fixed cell is set in one of them, no bit at or
 * beyond `cells`, 0 <= turn < turns. O(n/4). Counts one hash. */
static inline Position discs_hash(const DiscHash *h, uint64_t first, uint64_t second, int turn) {
    STAT_INC(hash);
    uint64_t board = 0;
    for (int k = 0; k < h->nibbles; k++) {
        board += h->enc[k][((first >> (4 * k)) & 15) << 4 | ((second >> (4 * k)) & 15)];
    }
    return board * (uint64_t)h->turns + (uint64_t)turn;
}

/* The turn of position p: its lowest digit. Decodes no board, so it is
 * not counted as an unhash (the turn is the game's to read cheaply). */
static inline int discs_turn(const DiscHash *h, Position p) {
    return h->turns == 2 ? (int)(p & 1) : 0;
}

/* Decodes p (< h->size) into the two bitboards and the turn. O(n/4)
 * divisions. Counts one unhash. */
static inline void discs_unhash(const DiscHash *h, Position p, uint64_t *first, uint64_t *second,
                                int *turn) {
    STAT_INC(unhash);
    uint64_t board = p;
    if (h->turns == 2) {
        *turn = (int)(board & 1);
        board >>= 1;
    } else {
        *turn = 0;
    }
    uint64_t a = 0, b = 0;
    for (int k = 0; k < h->nibbles; k++) {
        uint32_t r = h->radix[k];
        uint8_t pair = h->dec[k][board % r];
        board /= r;
        a |= (uint64_t)(pair & 15) << (4 * k);
        b |= (uint64_t)(pair >> 4) << (4 * k);
    }
    *first = a;
    *second = b;
}

#endif /* HASH_DISCS_H */
