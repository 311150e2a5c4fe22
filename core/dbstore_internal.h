/* core/dbstore_internal.h: what the four units of the on-disk database
 * share and nothing outside them uses (the public interface is
 * core/dbstore.h):
 *   core/dbstore.c           the directory, its lock, the writer's clean-up
 *                            and the safe (temporary, fsync, rename) write;
 *   core/dbstore_codec.c     the block codec and its dictionary: a record
 *                            file's header and blocks, written whole or in
 *                            pieces;
 *   core/dbstore_read.c      the reader: header and index checked, blocks
 *                            read and decompressed at random;
 *   core/dbstore_manifest.c  the manifest, written and parsed.
 */
#ifndef CORE_DBSTORE_INTERNAL_H
#define CORE_DBSTORE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/dbstore.h"
#include "core/error.h"

/* The first 8 bytes of a record file. */
#define DBSTORE_MAGIC "GMDBSTOR"

/* The remedy every reader's refusal names. */
#define REMEDY_READ "remove the directory and solve again, or use another --db"

/* Records a block of records of `width` bytes: the one block size of this
 * build (DBSTORE_BLOCK_BYTES of records), what the writer uses and every
 * reader requires. width >= 1. */
static inline uint32_t dbstore_block_records(uint32_t width) {
    return width >= DBSTORE_BLOCK_BYTES ? 1 : DBSTORE_BLOCK_BYTES / width;
}

/* Blocks of `records` records, br a block (no overflow near 2^64). */
static inline uint64_t dbstore_blocks_of(uint64_t records, uint32_t br) {
    return records / br + (records % br != 0);
}

/* Opens DIR/name for reading: a regular file only, never following a link
 * and never blocking (a FIFO). Returns the fd, or -1 with err set; *missing
 * (when not NULL) says the file does not exist (err not set then); *size
 * (when not NULL) gets its length. (core/dbstore.c) */
int dbstore_open_regular(const DbDir *d, const char *name, int flags, bool *missing, uint64_t *size,
                         Error *err);

/* Writes n bytes to fd (ERR_IO naming path: a full disk says so).
 * (core/dbstore.c) */
ErrCode dbstore_write_all(int fd, const void *data, uint64_t n, const char *path, Error *err);

/* Reads n bytes at off from fd (ERR_IO naming path at an early end of
 * file). (core/dbstore_read.c) */
ErrCode dbstore_read_at(int fd, void *data, uint64_t n, uint64_t off, const char *path, Error *err);

#endif /* CORE_DBSTORE_INTERNAL_H */
