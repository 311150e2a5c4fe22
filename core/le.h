/* core/le.h: little-endian fixed-width integers in byte buffers, the byte
 * order of every file the suite writes (core/dbstore.h, the symbolic
 * solver's node dumps), whatever the host's. O(1), no alignment needed. */
#ifndef CORE_LE_H
#define CORE_LE_H

#include <stdint.h>

/* Written out byte by byte, not as loops: gcc merges these into one load
 * or store (and a byte swap on a big-endian host), which it did not do for
 * the loops at -O2 (a file's block index, 8 bytes a block, was parsed at
 * some 6 ns a block). */
static inline void le_put32(unsigned char *b, uint32_t v) {
    b[0] = (unsigned char)v;
    b[1] = (unsigned char)(v >> 8);
    b[2] = (unsigned char)(v >> 16);
    b[3] = (unsigned char)(v >> 24);
}

static inline void le_put64(unsigned char *b, uint64_t v) {
    le_put32(b, (uint32_t)v);
    le_put32(b + 4, (uint32_t)(v >> 32));
}

static inline uint32_t le_get32(const unsigned char *b) {
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static inline uint64_t le_get64(const unsigned char *b) {
    return (uint64_t)le_get32(b) | (uint64_t)le_get32(b + 4) << 32;
}

#endif /* CORE_LE_H */
