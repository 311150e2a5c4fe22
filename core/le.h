/* core/le.h: little-endian fixed-width integers in byte buffers, the byte
 * order of every file the suite writes (core/dbstore.h, the symbolic
 * solver's node dumps), whatever the host's. O(1), no alignment needed. */
#ifndef CORE_LE_H
#define CORE_LE_H

#include <stdint.h>

static inline void le_put32(unsigned char *b, uint32_t v) {
    for (int i = 0; i < 4; i++) {
        b[i] = (unsigned char)(v >> (8 * i));
    }
}

static inline void le_put64(unsigned char *b, uint64_t v) {
    for (int i = 0; i < 8; i++) {
        b[i] = (unsigned char)(v >> (8 * i));
    }
}

static inline uint32_t le_get32(const unsigned char *b) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        v |= (uint32_t)b[i] << (8 * i);
    }
    return v;
}

static inline uint64_t le_get64(const unsigned char *b) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) {
        v |= (uint64_t)b[i] << (8 * i);
    }
    return v;
}

#endif /* CORE_LE_H */
