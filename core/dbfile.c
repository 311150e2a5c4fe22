/* core/dbfile.c: see dbfile.h. */
#include "core/dbfile.h"

#include <string.h>

/* xxHash64's primes and round. */
#define P1 UINT64_C(0x9E3779B185EBCA87)
#define P2 UINT64_C(0xC2B2AE3D27D4EB4F)
#define P3 UINT64_C(0x165667B19E3779F9)

static inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static inline uint64_t round64(uint64_t acc, uint64_t word) {
    acc += word * P2;
    return rotl(acc, 31) * P1;
}

static inline uint64_t load64(const unsigned char *p) {
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

void dbfile_sum_init(DbfileSum *st, uint64_t seed) {
    st->lane[0] = seed + P1 + P2;
    st->lane[1] = seed + P2;
    st->lane[2] = seed;
    st->lane[3] = seed - P1;
    st->n = 0;
}

void dbfile_sum_blocks(DbfileSum *st, const void *data, uint64_t n) {
    const unsigned char *p = data;
    for (uint64_t i = 0; i + 32 <= n; i += 32) {
        for (int k = 0; k < 4; k++) {
            st->lane[k] = round64(st->lane[k], load64(p + i + 8 * (uint64_t)k));
        }
    }
    st->n += n - n % 32;
}

uint64_t dbfile_sum_final(DbfileSum *st, const void *data, uint64_t n) {
    const unsigned char *p = data;
    dbfile_sum_blocks(st, p, n);
    uint64_t i = n - n % 32;
    uint64_t h =
        rotl(st->lane[0], 1) + rotl(st->lane[1], 7) + rotl(st->lane[2], 12) + rotl(st->lane[3], 18);
    for (int k = 0; k < 4; k++) {
        h = (h ^ round64(0, st->lane[k])) * P1 + P3;
    }
    h += st->n + (n - i);
    for (; i + 8 <= n; i += 8) {
        h = rotl(h ^ round64(0, load64(p + i)), 27) * P1 + P3;
    }
    for (; i < n; i++) {
        h = rotl(h ^ (p[i] * P2), 11) * P1;
    }
    h ^= h >> 33;
    h *= P2;
    h ^= h >> 29;
    h *= P3;
    return h ^ (h >> 32);
}

uint64_t dbfile_checksum(uint64_t seed, const void *data, uint64_t n) {
    DbfileSum st;
    dbfile_sum_init(&st, seed);
    return dbfile_sum_final(&st, data, n);
}
