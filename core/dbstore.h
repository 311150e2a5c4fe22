/* core/dbstore.h: the on-disk database: a directory of compressed,
 * checksummed record files with random access, and its manifest.
 *
 * A database directory DIR holds
 *   manifest            text, one `key value` line each (format, game
 *                       variant, solver, layout, counts, root value, build,
 *                       one `file` line per record file with its size and
 *                       header checksum), `complete 1` (or `complete 0`
 *                       and `partial 1`: some tiers only, no counts and no
 *                       root value), and last a line
 *                       `checksum HEX` over every byte before it. Written
 *                       last, atomically: a directory without a valid
 *                       complete manifest holds no database (a solve in
 *                       progress or an interrupted one).
 *   NAME.gmdb           record files (tier-NNNN.gmdb: one tier's records by
 *                       local index; slots-NNNN.gmdb: a fixed range of hash
 *                       slots; reach.gmdb: the tier solver's reachability
 *                       bitmaps, while a solve is in progress);
 *   lock                the writers' lock (flock), holding the writer's PID.
 *   rank-R-of-N/NAME    an N-rank tier solve's slices (docs/mpi.md): the
 *                       manifest may name a file in such a subdirectory.
 *
 * A record file:
 *
 *     offset  field
 *          0  magic "GMDBSTOR"
 *          8  u32 format version (2)      12  u32 kind (DbStoreKind)
 *         16  i32 index (tier, file no.)  20  i32 count (tiers or files)
 *         24  u32 width (bytes a record)  28  u32 winby (1: int16 scores)
 *         32  u64 records                 40  u64 first (first hash slot)
 *         48  u32 block records B         52  i32 zstd level
 *         56  u64 blocks                  64  u64 index offset
 *         72  u64 data bytes              80  u64 index checksum
 *         88  char spec[256], NUL-padded (the game variant)
 *        344  u32 dictionary bytes D      348  u32 dictionary checksum
 *        504  u64 header checksum (of bytes 0..503)
 *        512  the zstd dictionary of the blocks (D bytes; D = 0: none)
 *    512 + D  blocks: zstd frames, one after the other
 *             the block index: per block u32 compressed bytes (0: every
 *             record of the block is 0, unreached, and no bytes are
 *             stored) and u32 checksum (low half of dbfile_checksum of
 *             the compressed bytes)
 *
 * little-endian. Block k holds records [kB, min((k+1)B, records)): their
 * record bytes, then (winby) their int16 scores, compressed independently,
 * so one record is read by decompressing one block. The file is exactly
 * 512 + D + data bytes + 8 * blocks long. Checksums chain: the manifest
 * holds each file's header checksum, the header the index checksum and
 * the dictionary's (the low half of its dbfile_checksum), the index each
 * block's.
 *
 * The dictionary (format 2): a record file of DBSTORE_DICT_MIN_BLOCKS
 * blocks or more gets a zstd dictionary (ZDICT_finalizeDictionary: zstd's
 * entropy tables for the file's blocks and a little content, made from a
 * sample of its blocks, a function of the records alone), and every block
 * is compressed with it (frames without a dictionary ID). Blocks of 4 KiB
 * are too small to pay for their own Huffman and FSE tables; with the
 * file's tables Connect Four 6x5's blocks take 18% fewer instructions to
 * compress and 43% fewer to decompress, for 2.5% more bytes
 * (docs/database.md). Format 1 (no dictionary: bytes 344..351 unused, D =
 * 0) is still read.
 *
 * Writing (writer's side, under the lock): a file is written to a fresh
 * temporary name (created with O_CREAT|O_EXCL|O_NOFOLLOW in the directory,
 * so a planted file or link is never followed or reused), flushed (fsync),
 * renamed over NAME and the directory flushed. A failed write (a full disk)
 * removes its temporary file and leaves the previous NAME intact.
 * Reading opens with O_NOFOLLOW|O_NONBLOCK and accepts only regular files
 * (a FIFO or a device is refused, never waited on). Every error is ERR_IO
 * with one line naming the file, what is wrong and what to do.
 *
 * Readers take no lock: they read only the files the manifest lists, each
 * of which is replaced only by rename, and the checksum chain refuses a
 * mixture of two databases.
 *
 * Four units implement this header (core/dbstore_internal.h is what they
 * share): core/dbstore.c the directory, lock, clean-up and safe writes;
 * core/dbstore_codec.c the block codec, dictionary and writing;
 * core/dbstore_read.c the reader; core/dbstore_manifest.c the manifest.
 */
#ifndef CORE_DBSTORE_H
#define CORE_DBSTORE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"
#include "core/le.h"

#define DBSTORE_VERSION 2
/* The oldest format this build reads (1: no dictionary). */
#define DBSTORE_VERSION_MIN 1
#define DBSTORE_HEADER_BYTES 512
#define DBSTORE_SPEC_MAX 256
#define DBSTORE_NAME_MAX 64

/* Raw bytes of records per block (the records of a 1-byte database; a
 * 2-byte one gets half as many records per block). A block is the unit of
 * reading: docs/database.md has the measurements behind it. */
#ifndef DBSTORE_BLOCK_BYTES
#define DBSTORE_BLOCK_BYTES 4096
#endif
/* zstd level of new files: 1 is the fastest (docs/database.md: size against time). */
#ifndef DBSTORE_LEVEL
#define DBSTORE_LEVEL 1
#endif
/* zstd level of the tier solver's reach.gmdb (bitmap words, kept only
 * while a solve is in progress, for resuming it, then removed): a fast
 * level (negative: literals stored raw), since its instructions are spent
 * inside the solve and its bytes hardly matter. On Connect Four 6x4's
 * bitmaps 73% fewer instructions than level 1 (with DBSTORE_MIN_MATCH)
 * for 55% more bytes; at level 1 the bitmaps were 13% of the instructions
 * of writing a 6x4 database (docs/database.md, bench/db_recompress.c). */
#ifndef DBSTORE_REACH_LEVEL
#define DBSTORE_REACH_LEVEL -10
#endif
/* zstd's minimum match length (ZSTD_c_minMatch, 3..7; 0: the level's
 * default, 5 for 4 KiB blocks at level 1). 7 finds fewer, longer matches:
 * on Connect Four 6x5's records 9% fewer instructions and 5% fewer bytes
 * than the default (docs/database.md, scripts/measure/db-zstd-params.sh). Readers do
 * not depend on it (standard zstd frames). */
#ifndef DBSTORE_MIN_MATCH
#define DBSTORE_MIN_MATCH 7
#endif

/* The dictionary of a record file: at most DBSTORE_DICT_BYTES, made from
 * DBSTORE_DICT_SAMPLES blocks spread evenly over the file (all-zero ones
 * skipped), for files of at least DBSTORE_DICT_MIN_BLOCKS blocks
 * (docs/database.md has the measurements behind the sizes). */
#define DBSTORE_DICT_BYTES 4096
#define DBSTORE_DICT_SAMPLES 64
#define DBSTORE_DICT_MIN_BLOCKS 256

typedef enum DbStoreKind {
    DBSTORE_RECORDS = 1, /* database records (and WinBy scores) */
    DBSTORE_REACH = 2,   /* the tier solver's bitmaps: 8-byte words */
    DBSTORE_BDD = 3,     /* a ply's BDDs (solvers/symbolic_db.h): bytes */
} DbStoreKind;

/* What a record file holds (its header). */
typedef struct DbStoreInfo {
    DbStoreKind kind;
    char spec[DBSTORE_SPEC_MAX]; /* game variant */
    int32_t index;               /* tier or file number */
    int32_t count;               /* tiers or files of the database */
    uint32_t width;              /* bytes per record (8 for bitmap words) */
    bool winby;                  /* int16 scores follow each block's records */
    uint64_t records;
    uint64_t first; /* first hash slot (slots files), else 0 */
} DbStoreInfo;

/* An open database directory. */
typedef struct DbDir {
    char path[4096];
    int fd;      /* the directory */
    int lock_fd; /* -1 unless this process is the writer */
} DbDir;

/* Opens DIR (creating it when `create`). Refuses a path that is not a
 * directory and, for a writer (`create`), a directory that other users may
 * write without the sticky bit (they could replace files between runs). */
ErrCode dbstore_dir_open(const char *path, bool create, DbDir *d, Error *err);
void dbstore_dir_close(DbDir *d);

/* Becomes the directory's only writer: an exclusive flock on DIR/lock
 * (refused naming the holder's PID when another process has it). The lock
 * is held until dbstore_dir_close. Removes nothing: a writer calls
 * dbstore_clean_tmp once it has accepted the directory. */
ErrCode dbstore_lock(DbDir *d, Error *err);

/* The writer's clean-up, called once it holds the lock and has accepted
 * the directory (its manifest, when there is one, is of the writer's
 * variant): removes the temporary files interrupted writers left, the
 * names dbstore_tmp_name accepts, when they are this user's regular files
 * or links, and nothing else (a user's report.tmp or notes.tmp.bak stays).
 * Does nothing unless this process holds the lock. */
void dbstore_clean_tmp(const DbDir *d);

/* True when `name` is exactly a temporary name of dbstore_tmp_create for
 * a name the database writes: NAME.tmp.PID.K with NAME "manifest",
 * "manifest-of-N.txt" or a record file "X.gmdb" (X: a lower-case letter,
 * then lower-case letters, digits, '-'), PID and K decimal without
 * leading zeros (K may be 0). */
bool dbstore_tmp_name(const char *name);

/* True when DIR/name exists (as any kind of file). */
bool dbstore_exists(const DbDir *d, const char *name);

/* Removes DIR/name (ignores a missing file). */
void dbstore_remove(const DbDir *d, const char *name);

/* Safe writes, for any file of the directory (record files, manifests):
 * dbstore_tmp_create makes a fresh temporary file for `name` in DIR
 * (NAME.tmp.PID.K, created with O_CREAT|O_EXCL|O_NOFOLLOW, so a planted
 * file or link is never followed or reused) and returns its fd, its name
 * in tmp[n]; -1 with err set on failure. dbstore_tmp_commit consumes fd:
 * when rc is ERR_OK it flushes (fsync), closes, renames tmp over name and
 * flushes the directory; on any failure (or rc != ERR_OK) it removes tmp
 * and returns the error, leaving the previous `name` intact. */
int dbstore_tmp_create(const DbDir *d, const char *name, char *tmp, size_t n, Error *err);
ErrCode dbstore_tmp_commit(const DbDir *d, int fd, const char *tmp, const char *name, ErrCode rc,
                           Error *err);

/* The zstd level of new files of this kind (the header's level field). */
int dbstore_level(DbStoreKind kind);

/* Writes a record file: `records` (info->records * info->width bytes) and,
 * with info->winby, `winby` (info->records scores), compressed by blocks
 * on `threads` threads (OpenMP). *header_sum and *bytes (either may be
 * NULL) get the new file's header checksum and size. */
ErrCode dbstore_write(DbDir *d, const char *name, const DbStoreInfo *info, const void *records,
                      const int16_t *winby, int threads, uint64_t *header_sum, uint64_t *bytes,
                      Error *err);

/* Writing a record file in pieces, from several threads at once (the tier
 * solver's writer, core/dbwriter.h): the same bytes as dbstore_write.
 * A piece is a run of at most DBSTORE_PIECE_BLOCKS blocks; each is
 * compressed by any thread into its own buffer, then the pieces are put
 * into a sink in block order, and the sink is closed with the index. */
#define DBSTORE_PIECE_BLOCKS 16

/* Blocks of a file described by info. */
uint64_t dbstore_blocks(const DbStoreInfo *info);

/* A record file's dictionary (bytes 0: none). */
typedef struct DbStoreDict {
    uint32_t bytes;
    unsigned char data[DBSTORE_DICT_BYTES];
} DbStoreDict;

/* Makes the dictionary of the file that info, records and winby describe
 * (as dbstore_write does; none for other kinds than DBSTORE_RECORDS, for
 * files of fewer than DBSTORE_DICT_MIN_BLOCKS blocks, or when zstd cannot
 * make one from the sample). Deterministic: a function of the records.
 * O(DBSTORE_DICT_SAMPLES blocks): about 2 ms. */
ErrCode dbstore_dict_make(const DbStoreInfo *info, const void *records, const int16_t *winby,
                          DbStoreDict *dict, Error *err);

/* A compressor: a zstd context with the parameters of new files, and its
 * scratch (about 200 KiB). One per thread. NULL: out of memory. */
typedef struct DbStoreZ DbStoreZ;
DbStoreZ *dbstore_z_new(void);
void dbstore_z_free(DbStoreZ *z);

/* Compresses blocks [k0, k1) (k1 - k0 <= DBSTORE_PIECE_BLOCKS) of the file
 * whose records (and scores) and dictionary (dbstore_dict_make) are given,
 * sets their index entries (8 bytes a block at index + 8 * k) and returns
 * their frames, back to back, in a new malloc'ed *out (NULL when every
 * block is all zero) of *bytes bytes. Records of width 1, 2 or 8 only (a
 * block's raw bytes fit the scratch). Thread-safe for disjoint ranges,
 * each thread with its own z (which loads the dictionary when it changes). */
ErrCode dbstore_compress_piece(DbStoreZ *z, const DbStoreInfo *info, const DbStoreDict *dict,
                               const void *records, const int16_t *winby, uint64_t k0, uint64_t k1,
                               unsigned char *index, void **out, size_t *bytes, Error *err);

/* A file being written: a fresh temporary file (created as dbstore_write
 * does), its header reserved. */
typedef struct DbStoreSink {
    int fd; /* -1: not open */
    char name[DBSTORE_NAME_MAX];
    char tmp[DBSTORE_NAME_MAX + 64];
    char path[4200];
    uint64_t data_bytes;
    uint32_t dict_bytes, dict_sum;
} DbStoreSink;

/* Opens the sink and writes the dictionary after the reserved header. */
ErrCode dbstore_sink_open(const DbDir *d, const char *name, const DbStoreDict *dict, DbStoreSink *s,
                          Error *err);
/* Appends the frames of the next piece. */
ErrCode dbstore_sink_put(DbStoreSink *s, const void *data, size_t n, Error *err);
/* Writes the index (dbstore_blocks(info) entries) and the header, flushes
 * and renames the file over its name (atomic, as dbstore_write); with rc
 * != ERR_OK (a failure before), or on a failure here, removes the
 * temporary file instead and returns the error. Closes s either way. */
ErrCode dbstore_sink_close(const DbDir *d, DbStoreSink *s, const DbStoreInfo *info,
                           const unsigned char *index, ErrCode rc, uint64_t *header_sum,
                           uint64_t *bytes, Error *err);

/* Reads a whole record file into `records` (and `winby`), checking that its
 * header matches *expect and every checksum. *found is false (and ERR_OK
 * returned) when the file does not exist. */
ErrCode dbstore_read(const DbDir *d, const char *name, const DbStoreInfo *expect, void *records,
                     int16_t *winby, int threads, bool *found, uint64_t *header_sum,
                     uint64_t *bytes, Error *err);

/* A record file open for random access: its header and block index. */
typedef struct DbStoreFile {
    int fd;
    DbStoreInfo info;
    uint32_t block_records;
    uint64_t blocks;
    /* The block index as stored, 8 bytes a block (its frame's bytes, 0
     * when every record is zero, then their checksum; little-endian): in
     * the mapping when the file was opened mapped, else in `own`; NULL
     * when opened lean. Read through dbstore_block_csize, _csum and
     * _offset (not for a lean file). */
    const unsigned char *index;
    unsigned char *own; /* the index read by pread, or NULL */
    uint64_t *group;    /* per DBSTORE_INDEX_GROUP blocks: where the first one's frame starts */
    void *ddict;        /* the file's zstd dictionary (ZSTD_DDict), or NULL (none, or lean) */
    uint64_t header_sum;
    uint64_t file_bytes;
    uint64_t index_off;            /* where the index starts in the file */
    uint32_t dict_bytes, dict_sum; /* the dictionary (0 bytes: none) and its checksum */
    bool lean;                     /* opened by dbstore_file_open_lean */
    const unsigned char *map;      /* the whole file mapped (dbstore_file_map), or NULL */
    /* Last, so that opening writes only its first bytes (a reader of
     * thousands of files touches one page of each one's DbStoreFile). */
    char path[4200];
} DbStoreFile;

/* Blocks a DbStoreFile.group entry covers: a block's offset is its
 * group's plus the frames before it in the group (at most 31 sizes added;
 * 8 bytes a group, 1/4 byte a block). */
#define DBSTORE_INDEX_GROUP 32

/* Opens a record file and reads its index (checked against the header
 * checksum and *expect) into memory (8 bytes a block). */
ErrCode dbstore_file_open(const DbDir *d, const char *name, const DbStoreInfo *expect,
                          DbStoreFile *f, Error *err);
/* The same, the file mapped first (as dbstore_file_map) and its index read
 * in place: no copy of it, and no pread a block after. Falls back to
 * dbstore_file_open's reading when the mapping fails or
 * GAMESMAN_DBSTORE_NO_MAP is set. For the readers that keep many files
 * open and read a few blocks of each (queries, tier:blocks' child parts,
 * --verify by parts): opening a 6x6 part file read 64 KiB of index by
 * pread into 128 KiB of fresh memory (docs/connect-four.md). */
ErrCode dbstore_file_open_mapped(const DbDir *d, const char *name, const DbStoreInfo *expect,
                                 DbStoreFile *f, Error *err);
/* The same checks, for a reader of a few blocks of each of thousands of
 * files (queries): the index read by pread into a buffer freed before
 * returning, nothing kept of it but where each group of
 * DBSTORE_INDEX_GROUP blocks starts (1/4 byte a block), and no zstd
 * dictionary made (dbstore_file_ddict makes it when the caller wants it).
 * A block read then preads the index entries of its group, then its
 * frame: two system calls, no page of the file mapped, no memory that
 * grows with the file. On this project's host a page touched for the
 * first time costs ten times a pread or more
 * (scripts/measure/page-costs.sh; docs/connect-four.md, queries).
 * dbstore_block_csize, _csum and _offset are not for a lean file. */
ErrCode dbstore_file_open_lean(const DbDir *d, const char *name, const DbStoreInfo *expect,
                               DbStoreFile *f, Error *err);
/* The zstd dictionary of an open file made anew (a ZSTD_DDict, some 30 KB
 * in memory): read again and checked against the header's checksum. NULL
 * with *err set on failure; *ddict is NULL (ERR_OK) for a file without
 * one. Free with dbstore_ddict_free. */
ErrCode dbstore_file_ddict(const DbStoreFile *f, void **ddict, Error *err);
void dbstore_ddict_free(void *ddict);

/* The dictionaries of lean files, a direct-mapped cache of `slots` by the
 * caller's key for each file (the store's file number): a file whose slot
 * holds another's gets its own made again (a pread, a checksum and
 * ZSTD_createDDict). For a few reads of each of thousands of files this
 * is cheaper than one kept for each: the 30 KB of a new one cost some 20
 * times more here than one made in memory just freed, its pages touched
 * for the first time (scripts/measure/page-costs.sh). Zeroed = empty but
 * for `slots`; allocated on first use. */
typedef struct DbStoreDicts {
    int slots;
    void **ddict;
    int64_t *key;  /* whose each slot holds (-1: none) */
    uint64_t made; /* dictionaries made, for the tests */
} DbStoreDicts;
/* The dictionary to read f's blocks with (dbstore_block_read_dict): its
 * own when it holds one (not lean), NULL when it has none, else the one in
 * key's slot, made first if the slot holds another key's. */
ErrCode dbstore_dicts_get(DbStoreDicts *c, const DbStoreFile *f, int64_t key, const void **ddict,
                          Error *err);
/* Forgets key's dictionary (its file closed). */
void dbstore_dicts_drop(DbStoreDicts *c, int64_t key);
void dbstore_dicts_free(DbStoreDicts *c);

/* Block k's frame: its compressed bytes (0: every record zero, no frame),
 * their checksum, and where it starts in the file. */
static inline uint32_t dbstore_block_csize(const DbStoreFile *f, uint64_t k) {
    return le_get32(f->index + 8 * k);
}
static inline uint32_t dbstore_block_csum(const DbStoreFile *f, uint64_t k) {
    return le_get32(f->index + 8 * k + 4);
}
uint64_t dbstore_block_offset(const DbStoreFile *f, uint64_t k);
void dbstore_file_close(DbStoreFile *f);

/* Maps an open file read-only (mmap, the whole file), so that
 * dbstore_block_read takes a block's frame from the page cache in place of
 * a pread: one system call less a block, 0.4 of 7.4 us on this project's
 * machine (docs/connect-four.md; tier:blocks' child parts, read millions
 * of times). False, the file read by pread as before, when the mapping
 * fails or GAMESMAN_DBSTORE_NO_MAP is set (the tests run both ways). The
 * pages read count in the process's resident set while mapped (the page
 * cache holds them either way); a file truncated under the mapping would
 * fault (SIGBUS), so map only files no one else writes: a database
 * directory's files are replaced only by rename. Unmapped by
 * dbstore_file_close. */
bool dbstore_file_map(DbStoreFile *f);

/* Closes an open file's descriptor only, keeping its index and dictionary
 * (a reader with more files than descriptors: solvers/store.c); resume
 * opens it again by its name in d, refusing a file whose size changed.
 * dbstore_block_read needs the descriptor (unless the file is mapped):
 * resume first. */
/* Raises the soft limit of open files toward `want` (as far as the hard
 * limit allows) and returns the soft limit then (UINT64_MAX: none; 0: not
 * known). The one place the suite raises it: the store's descriptor budget
 * (solvers/store.c) and tier:blocks' open parts (solvers/tier/block_cache.c). */
uint64_t dbstore_files_limit(uint64_t want);

void dbstore_file_suspend(DbStoreFile *f);
ErrCode dbstore_file_resume(const DbDir *d, const char *name, DbStoreFile *f, Error *err);

/* Raw bytes of block k (records, then scores). */
uint64_t dbstore_block_bytes(const DbStoreFile *f, uint64_t k);

/* Reads and decompresses block k into out (dbstore_block_bytes(f, k)
 * bytes), checking its checksum and size. `ctx` is a decompression context
 * from dbstore_dctx_new (one per thread). */
ErrCode dbstore_block_read(const DbStoreFile *f, uint64_t k, void *ctx, void *out, Error *err);
/* The same with the file's dictionary given (from dbstore_file_ddict; NULL:
 * f->ddict): how a lean file with a dictionary is read. */
ErrCode dbstore_block_read_dict(const DbStoreFile *f, uint64_t k, void *ctx, const void *ddict,
                                void *out, Error *err);
void *dbstore_dctx_new(void);
void dbstore_dctx_free(void *ctx);

/* ----------------------------------------------------------- manifest */

#define DBSTORE_MAX_FILES 100000

typedef struct DbManifestFile {
    char name[DBSTORE_NAME_MAX];
    int32_t index;
    uint64_t records;
    uint64_t first;
    uint64_t bytes;
    uint64_t header_sum;
} DbManifestFile;

typedef struct DbManifest {
    int version;
    char spec[DBSTORE_SPEC_MAX];
    char solver[64];
    char layout[16]; /* "tiers" or "slots" */
    uint64_t hash_space;
    uint32_t width;
    bool winby;
    bool loopy;
    uint64_t positions;
    uint64_t count[5]; /* by Value: [1] wins, [2] losses, [3] ties, [4] draws */
    uint32_t max_remoteness;
    char root_value[16];
    uint32_t root_remoteness;
    int32_t root_winby;
    char build[128];
    bool complete;
    bool partial; /* some tiers only (tier:sector), not complete: solvers/store.h */
    int nfiles;
    DbManifestFile *files;
} DbManifest;

/* Writes DIR/manifest atomically (as dbstore_write). */
ErrCode dbstore_manifest_write(DbDir *d, const DbManifest *m, Error *err);

/* Reads DIR/manifest. *found is false (ERR_OK) when there is none; a
 * malformed or corrupt one is ERR_IO. Free with dbstore_manifest_free. */
ErrCode dbstore_manifest_read(const DbDir *d, DbManifest *m, bool *found, Error *err);
void dbstore_manifest_free(DbManifest *m);

/* The build that writes files ("gamesman-perf COMMIT, gcc VERSION"). */
const char *dbstore_build(void);

#endif /* CORE_DBSTORE_H */
