/* core/dbfile.h: the checksum of the database files.
 *
 * dbfile_checksum is a four-lane multiply-rotate hash over 8-byte words,
 * xxHash64's round function: several GB/s, and any change of one word
 * changes it. The on-disk database (core/dbstore.h) chains it from the
 * manifest to each file header, block index and block.
 */
#ifndef CORE_DBFILE_H
#define CORE_DBFILE_H

#include <stdint.h>

/* 64-bit checksum of n bytes, chained from `seed`. */
uint64_t dbfile_checksum(uint64_t seed, const void *data, uint64_t n);

/* The same checksum over data that arrives in pieces (the ranks' slices of
 * a tier, solvers/tier/): init, then dbfile_sum_blocks on each piece but
 * the last, every such piece a multiple of 32 bytes, then dbfile_sum_final
 * on the last piece (any length). The result is dbfile_checksum of the
 * pieces laid end to end. The state is plain data: it may be sent to
 * another process between pieces. */
typedef struct DbfileSum {
    uint64_t lane[4];
    uint64_t n; /* bytes taken so far */
} DbfileSum;
void dbfile_sum_init(DbfileSum *st, uint64_t seed);
void dbfile_sum_blocks(DbfileSum *st, const void *data, uint64_t n);
uint64_t dbfile_sum_final(DbfileSum *st, const void *data, uint64_t n);

#endif /* CORE_DBFILE_H */
