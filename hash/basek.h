/* hash/basek.h: base-k positional hashing, counted.
 *
 * A board of n cells, each holding a digit 0..k-1, is the number
 *   sum_i cells[i] * k^i,
 * so positions are in [0, k^n). This is GamesmanClassic's scheme for
 * tic-tac-toe (g3Array). Every call that produces a position counts one
 * `hash`, every call that decodes one counts one `unhash` (core/stats.h), so
 * the counts are comparable across games and solvers.
 *
 * Cost: hash and unhash are O(n); basek_replace is O(1) but still counts a
 * hash, since it produces the position of a new board.
 */
#ifndef HASH_BASEK_H
#define HASH_BASEK_H

#include <stdint.h>

#include "core/error.h"
#include "core/stats.h"
#include "core/types.h"

#define BASEK_MAX_CELLS 64

typedef struct BaseK {
    int k;                         /* digits per cell, 2..255 */
    int n;                         /* cells, 1..BASEK_MAX_CELLS */
    uint64_t size;                 /* k^n */
    uint64_t pow[BASEK_MAX_CELLS]; /* pow[i] = k^i */
} BaseK;

/* Prepares a scheme of n cells with k digits; refuses when k^n >= 2^63. */
ErrCode basek_init(BaseK *h, int k, int n, Error *err);

/* Position of cells[0..n-1]. Counts one hash. */
Position basek_hash(const BaseK *h, const uint8_t *cells);

/* Decodes p into cells[0..n-1]. Counts one unhash. */
void basek_unhash(const BaseK *h, Position p, uint8_t *cells);

/* Boards with a side to move, for games whose turn does not follow from the
 * board (sliding games): the position is 2 * hash(cells) + turn, in
 * [0, 2 k^n). basek_init keeps k^n below 2^62, so this fits. Counts one
 * hash. */
Position basek_hash_turn(const BaseK *h, const uint8_t *cells, int turn);

/* Decodes a position of basek_hash_turn into cells[0..n-1] and returns the
 * turn (0 or 1). Counts one unhash. */
int basek_unhash_turn(const BaseK *h, Position p, uint8_t *cells);

/* Position after cell `cell` changes from digit `from` to digit `to`, without
 * decoding. Counts one hash. */
static inline Position basek_replace(const BaseK *h, Position p, int cell, int from, int to) {
    STAT_INC(hash);
    return p + (uint64_t)(to - from) * h->pow[cell];
}

#endif /* HASH_BASEK_H */
