/* core/dbfile.h: database slices on disk, with a header and a checksum,
 * written atomically.
 *
 * A file holds one slice of a solve (a tier's records, or the reachability
 * bitmaps of a tiered solve) behind a 512-byte header:
 *
 *     offset  field
 *          0  magic "GMDBFILE"
 *          8  u32 format version (1)       12  u32 kind (DbFileKind)
 *         16  i32 index (tier, or -1)      20  i32 count (tiers of the game)
 *         24  u32 width (bytes per record) 28  u32 reserved (0)
 *         32  u64 records                  40  u64 payload bytes
 *         48  u64 payload checksum         56  char spec[256], NUL-padded
 *        504  u64 header checksum (of bytes 0..503)
 *
 * little-endian, followed by the payload. The spec is the game variant
 * ("connect4:w=6,h=4"), so a file of another variant is refused by name.
 * The checksum (dbfile_checksum) is a four-lane multiply-rotate hash over
 * 8-byte words, xxHash64's round function: several GB/s, and any change of
 * one word changes it.
 *
 * Writing goes to PATH.tmp, is flushed to disk (fsync) and renamed over
 * PATH, so PATH is either absent, or a whole file: an interrupted solve
 * leaves at most a stale .tmp, which the next write replaces. Reading
 * checks the header, the size and the checksum, and refuses a truncated,
 * corrupt or mismatched file with ERR_IO and a message naming the file, what
 * is wrong, and what to do.
 */
#ifndef CORE_DBFILE_H
#define CORE_DBFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"

#define DBFILE_HEADER_BYTES 512
#define DBFILE_SPEC_MAX 256
#define DBFILE_MAX_PARTS 4

typedef enum DbFileKind {
    DBFILE_TIER = 1,  /* the records of one tier (then its WinBy scores) */
    DBFILE_REACH = 2, /* reachability bitmaps of every tier, in tier order */
} DbFileKind;

/* What a file holds (written in its header, compared when read). */
typedef struct DbFileInfo {
    DbFileKind kind;
    char spec[DBFILE_SPEC_MAX]; /* game variant */
    int32_t index;              /* tier number, or -1 */
    int32_t count;              /* tiers of the game */
    uint32_t width;             /* bytes per record; 0 for bitmaps */
    uint64_t records;           /* records (or bits) in the payload */
} DbFileInfo;

/* The payload, in up to DBFILE_MAX_PARTS memory blocks written one after the
 * other (records, then WinBy scores). */
typedef struct DbFileParts {
    int n;
    void *data[DBFILE_MAX_PARTS];
    uint64_t bytes[DBFILE_MAX_PARTS];
} DbFileParts;

/* 64-bit checksum of n bytes, chained from `seed`. */
uint64_t dbfile_checksum(uint64_t seed, const void *data, uint64_t n);

/* Writes header + parts to path atomically (path.tmp, fsync, rename). */
ErrCode dbfile_write(const char *path, const DbFileInfo *info, const DbFileParts *parts,
                     Error *err);

/* Reads path into parts (whose sizes say how much payload to expect),
 * checking that its header matches *expect. *found is false (and ERR_OK is
 * returned) when the file does not exist. */
ErrCode dbfile_read(const char *path, const DbFileInfo *expect, const DbFileParts *parts,
                    bool *found, Error *err);

#endif /* CORE_DBFILE_H */
