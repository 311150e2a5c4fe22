/* hash/mixed.h: mixed-radix positional hashing, counted.
 *
 * A state of n digits, digit i in [0, radix[i]), is the number
 *   sum_i digits[i] * place[i],   place[i] = radix[0] * ... * radix[i-1],
 * so positions are in [0, prod radix). Base-k hashing (hash/basek.h) is the
 * case of equal radices over small cells; this scheme takes a radix per
 * digit and digits up to 2^32, for states such as the heap sizes of Nim
 * (heaps=3-4-5: radices 4, 5, 6) or the one pile of a subtraction game
 * (radix n + 1). Every call that produces a position counts one `hash`,
 * every call that decodes one counts one `unhash` (core/stats.h).
 *
 * Cost: hash and unhash O(n); mixed_replace O(1) (still one hash: it
 * produces the position of a new state).
 */
#ifndef HASH_MIXED_H
#define HASH_MIXED_H

#include <stdint.h>

#include "core/error.h"
#include "core/stats.h"
#include "core/types.h"

#define MIXED_MAX_DIGITS 64

typedef struct MixedRadix {
    int n;                            /* digits, 1..MIXED_MAX_DIGITS */
    uint64_t radix[MIXED_MAX_DIGITS]; /* radix[i] >= 1 */
    uint64_t place[MIXED_MAX_DIGITS]; /* place[i] = prod_{j<i} radix[j] */
    uint64_t size;                    /* prod radix */
} MixedRadix;

/* Prepares a scheme of n digits with the given radices (each 1..2^32);
 * refuses a product of 2^63 or more. */
ErrCode mixed_init(MixedRadix *h, int n, const uint64_t *radix, Error *err);

/* Position of digits[0..n-1] (digits[i] < radix[i]). Counts one hash. */
Position mixed_hash(const MixedRadix *h, const uint32_t *digits);

/* Decodes p < size into digits[0..n-1]. Counts one unhash. */
void mixed_unhash(const MixedRadix *h, Position p, uint32_t *digits);

/* Position after digit i changes from `from` to `to`, without decoding.
 * Counts one hash. */
static inline Position mixed_replace(const MixedRadix *h, Position p, int i, uint32_t from,
                                     uint32_t to) {
    STAT_INC(hash);
    return p - (uint64_t)from * h->place[i] + (uint64_t)to * h->place[i];
}

#endif /* HASH_MIXED_H */
