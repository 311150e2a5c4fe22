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

#endif /* CORE_DBFILE_H */
