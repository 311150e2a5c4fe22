/* hash/mixed.c: see mixed.h. */
#include "hash/mixed.h"

ErrCode mixed_init(MixedRadix *h, int n, const uint64_t *radix, Error *err) {
    if (n < 1 || n > MIXED_MAX_DIGITS) {
        return error_set(err, ERR_USAGE, "mixed-radix hash: %d digits must be in 1..%d", n,
                         MIXED_MAX_DIGITS);
    }
    h->n = n;
    uint64_t p = 1;
    for (int i = 0; i < n; i++) {
        if (radix[i] < 1 || radix[i] > (UINT64_C(1) << 32)) {
            return error_set(err, ERR_USAGE,
                             "mixed-radix hash: radix %llu of digit %d is not in "
                             "1..2^32",
                             (unsigned long long)radix[i], i);
        }
        h->radix[i] = radix[i];
        h->place[i] = p;
        if (p > ((UINT64_C(1) << 63) - 1) / radix[i]) {
            return error_set(err, ERR_USAGE,
                             "mixed-radix hash: the product of the radices reaches 2^63; the "
                             "state is too large to hash");
        }
        p *= radix[i];
    }
    h->size = p;
    return ERR_OK;
}

Position mixed_hash(const MixedRadix *h, const uint32_t *digits) {
    STAT_INC(hash);
    Position p = 0;
    for (int i = h->n - 1; i >= 0; i--) {
        p = p * h->radix[i] + digits[i];
    }
    return p;
}

void mixed_unhash(const MixedRadix *h, Position p, uint32_t *digits) {
    STAT_INC(unhash);
    for (int i = 0; i < h->n; i++) {
        digits[i] = (uint32_t)(p % h->radix[i]);
        p /= h->radix[i];
    }
}
