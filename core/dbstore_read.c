/* core/dbstore_read.c: the reader of record files (core/dbstore.h has
 * the layout). Opening checks the header (magic, version, its checksum,
 * the variant and what the name says against the caller's expectation,
 * then every size against overflow, this build's block size and the
 * file's length, before any arithmetic or allocation it sizes), the
 * dictionary (its checksum) and the block index (its checksum; each frame
 * within zstd's bound, the frames filling the data exactly). A block is
 * then read at random: one pread (or, for a file mapped by
 * dbstore_file_map, its frame where the mapping holds it; for a file
 * opened lean, a pread of its group's index entries first), its checksum,
 * one decompression (into exactly its raw bytes). dbstore_read reads a
 * whole file, blocks in parallel (OpenMP). Memory: the index, 8 bytes a
 * block as stored (read in place for a file opened mapped,
 * dbstore_file_open_mapped; none kept for one opened lean; else in memory,
 * on huge pages from 1 MiB), 8 bytes a group of DBSTORE_INDEX_GROUP blocks
 * for the frames' offsets, and one block of scratch per thread; the
 * dictionaries of lean files in the caller's DbStoreDicts. No lock: the
 * files a reader opens are replaced only by rename.
 */
#define _DEFAULT_SOURCE /* pread, mmap */
#include "core/dbstore.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <inttypes.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zstd.h>

#include "core/dbfile.h"
#include "core/dbstore_internal.h"
#include "core/le.h"
#include "core/mem.h"

/* ------------------------------------------------------ reading a file */

ErrCode dbstore_read_at(int fd, void *data, uint64_t n, uint64_t off, const char *path,
                        Error *err) {
    unsigned char *p = data;
    while (n > 0) {
        size_t chunk = n > (UINT64_C(1) << 30) ? (size_t)1 << 30 : (size_t)n;
        ssize_t r = pread(fd, p, chunk, (off_t)off);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            return error_set(err, ERR_IO, "cannot read %s: %s; " REMEDY_READ, path,
                             r < 0 ? strerror(errno) : "unexpected end of file");
        }
        p += r;
        n -= (uint64_t)r;
        off += (uint64_t)r;
    }
    return ERR_OK;
}

static ErrCode check_header(DbStoreFile *f, const unsigned char *b, const DbStoreInfo *e,
                            uint64_t *index_off, uint64_t *index_sum, uint32_t *dict_bytes,
                            uint32_t *dict_sum, Error *err) {
    const char *path = f->path;
    if (memcmp(b, DBSTORE_MAGIC, 8) != 0) {
        return error_set(err, ERR_IO, "%s is not a database file of this suite; " REMEDY_READ,
                         path);
    }
    uint32_t version = le_get32(b + 8);
    if (version < DBSTORE_VERSION_MIN || version > DBSTORE_VERSION) {
        return error_set(err, ERR_IO,
                         "%s has format version %" PRIu32
                         ", this build reads %d to %d; " REMEDY_READ,
                         path, version, DBSTORE_VERSION_MIN, DBSTORE_VERSION);
    }
    if (le_get64(b + 504) != dbfile_checksum(0, b, 504)) {
        return error_set(err, ERR_IO, "%s is corrupt (header checksum mismatch); " REMEDY_READ,
                         path);
    }
    DbStoreInfo *h = &f->info;
    memset(h, 0, sizeof *h);
    h->kind = (DbStoreKind)le_get32(b + 12);
    h->index = (int32_t)le_get32(b + 16);
    h->count = (int32_t)le_get32(b + 20);
    h->width = le_get32(b + 24);
    h->winby = le_get32(b + 28) != 0;
    h->records = le_get64(b + 32);
    h->first = le_get64(b + 40);
    memcpy(h->spec, b + 88, DBSTORE_SPEC_MAX);
    h->spec[DBSTORE_SPEC_MAX - 1] = '\0';
    f->block_records = le_get32(b + 48);
    f->blocks = le_get64(b + 56);
    *index_off = le_get64(b + 64);
    uint64_t data_bytes = le_get64(b + 72);
    *index_sum = le_get64(b + 80);
    *dict_bytes = version >= 2 ? le_get32(b + 344) : 0;
    *dict_sum = version >= 2 ? le_get32(b + 348) : 0;
    f->header_sum = le_get64(b + 504);
    if (strcmp(h->spec, e->spec) != 0 || h->count != e->count) {
        return error_set(err, ERR_IO,
                         "%s belongs to another game variant (%s, count %" PRId32
                         "), not %s (count %" PRId32 "); " REMEDY_READ,
                         path, h->spec, h->count, e->spec, e->count);
    }
    if (h->kind != e->kind || h->index != e->index || h->width != e->width ||
        h->winby != e->winby || h->records != e->records || h->first != e->first) {
        return error_set(err, ERR_IO,
                         "%s does not hold what its name says (kind %d, number %" PRId32
                         ", %" PRIu64 " records of %" PRIu32
                         " bytes; expected kind %d, number %" PRId32 ", %" PRIu64
                         " records of %" PRIu32 " bytes); " REMEDY_READ,
                         path, (int)h->kind, h->index, h->records, h->width, (int)e->kind, e->index,
                         e->records, e->width);
    }
    /* Every size against this build's layout and the file's length before
     * any arithmetic with it (a crafted header has a valid checksum):
     * blocks of exactly the records this build writes (one rule for every
     * reader: the query cache holds blocks of that size), records that fit
     * the address space, and the dictionary, the frames and the index
     * inside the file, in that order, ending at its end. */
    uint64_t len = f->file_bytes;
    if (h->width == 0 || h->width > DBSTORE_BLOCK_BYTES ||
        h->records > UINT64_MAX / (h->width + 2u)) {
        return error_set(err, ERR_IO, "%s has an impossible record layout; " REMEDY_READ, path);
    }
    if (f->block_records != dbstore_block_records(h->width)) {
        return error_set(err, ERR_IO,
                         "%s has blocks of %" PRIu32 " records; this build reads blocks of %" PRIu32
                         " records of %" PRIu32 " bytes (written with another "
                         "DBSTORE_BLOCK_BYTES?); " REMEDY_READ,
                         path, f->block_records, dbstore_block_records(h->width), h->width);
    }
    if (f->blocks != dbstore_blocks_of(h->records, f->block_records) ||
        *dict_bytes > DBSTORE_DICT_BYTES) {
        return error_set(err, ERR_IO, "%s has an impossible block layout; " REMEDY_READ, path);
    }
    uint64_t body = DBSTORE_HEADER_BYTES + (uint64_t)*dict_bytes; /* <= len: checked below */
    if (f->blocks > len / 8 || body > len - f->blocks * 8 ||
        data_bytes > len - f->blocks * 8 - body) {
        return error_set(err, ERR_IO,
                         "%s is truncated: %" PRIu64 " bytes, shorter than its header says "
                         "(%" PRIu64 " blocks, %" PRIu64 " bytes of data); " REMEDY_READ,
                         path, len, f->blocks, data_bytes);
    }
    if (*index_off != body + data_bytes) {
        return error_set(err, ERR_IO, "%s has an impossible block layout; " REMEDY_READ, path);
    }
    if (len != *index_off + f->blocks * 8) {
        return error_set(err, ERR_IO,
                         "%s is too long: %" PRIu64 " bytes, its header says %" PRIu64
                         "; " REMEDY_READ,
                         path, len, *index_off + f->blocks * 8);
    }
    return ERR_OK;
}

/* Maps f whole (read-only); false when it cannot be (or
 * GAMESMAN_DBSTORE_NO_MAP is set). */
static bool map_whole(DbStoreFile *f) {
    if (f->fd < 0 || f->file_bytes == 0 || getenv("GAMESMAN_DBSTORE_NO_MAP") != NULL) {
        return false;
    }
    void *m = mmap(NULL, (size_t)f->file_bytes, PROT_READ, MAP_SHARED, f->fd, 0);
    if (m == MAP_FAILED) {
        return false; /* read by pread, as before */
    }
    f->map = m;
    return true;
}

/* Reads the dictionary of f (dict_bytes > 0) into a fresh ZSTD_DDict,
 * checking it against the header's checksum. */
static ErrCode load_ddict(const DbStoreFile *f, void **ddict, Error *err) {
    unsigned char dict[DBSTORE_DICT_BYTES];
    *ddict = NULL;
    ErrCode rc = dbstore_read_at(f->fd, dict, f->dict_bytes, DBSTORE_HEADER_BYTES, f->path, err);
    if (rc == ERR_OK && (uint32_t)dbfile_checksum(0, dict, f->dict_bytes) != f->dict_sum) {
        rc = error_set(err, ERR_IO, "%s is corrupt (dictionary checksum mismatch); " REMEDY_READ,
                       f->path);
    }
    if (rc == ERR_OK && (*ddict = ZSTD_createDDict(dict, f->dict_bytes)) == NULL) {
        rc = error_set(err, ERR_IO, "%s is corrupt (its dictionary is not zstd's); " REMEDY_READ,
                       f->path);
    }
    return rc;
}

ErrCode dbstore_file_ddict(const DbStoreFile *f, void **ddict, Error *err) {
    *ddict = NULL;
    return f->dict_bytes > 0 ? load_ddict(f, ddict, err) : ERR_OK;
}

void dbstore_ddict_free(void *ddict) { ZSTD_freeDDict(ddict); }

ErrCode dbstore_dicts_get(DbStoreDicts *c, const DbStoreFile *f, int64_t key, const void **ddict,
                          Error *err) {
    *ddict = f->ddict;
    if (!f->lean || f->dict_bytes == 0) {
        return ERR_OK;
    }
    if (c->ddict == NULL) {
        c->slots = c->slots > 0 ? c->slots : 1;
        c->ddict = calloc((size_t)c->slots, sizeof *c->ddict);
        c->key = malloc((size_t)c->slots * sizeof *c->key);
        if (c->ddict == NULL || c->key == NULL) {
            free(c->ddict);
            free(c->key);
            c->ddict = NULL;
            c->key = NULL;
            return error_set(err, ERR_MEMORY, "cannot allocate the dictionary cache");
        }
        for (int i = 0; i < c->slots; i++) {
            c->key[i] = -1;
        }
    }
    int slot = (int)((uint64_t)key % (uint64_t)c->slots);
    if (c->key[slot] != key) {
        ZSTD_freeDDict(c->ddict[slot]);
        c->ddict[slot] = NULL;
        c->key[slot] = -1;
        ErrCode rc = load_ddict(f, &c->ddict[slot], err);
        if (rc != ERR_OK) {
            return rc;
        }
        c->key[slot] = key;
        c->made++;
    }
    *ddict = c->ddict[slot];
    return ERR_OK;
}

void dbstore_dicts_drop(DbStoreDicts *c, int64_t key) {
    int slot = c->ddict != NULL ? (int)((uint64_t)key % (uint64_t)c->slots) : 0;
    if (c->ddict != NULL && c->key[slot] == key) {
        ZSTD_freeDDict(c->ddict[slot]);
        c->ddict[slot] = NULL;
        c->key[slot] = -1;
    }
}

void dbstore_dicts_free(DbStoreDicts *c) {
    for (int i = 0; c->ddict != NULL && i < c->slots; i++) {
        ZSTD_freeDDict(c->ddict[i]);
    }
    free(c->ddict);
    free(c->key);
    c->ddict = NULL;
    c->key = NULL;
}

/* How file_open keeps the index: read into `own`, in place in the file's
 * mapping, or not at all (lean). */
typedef enum { OPEN_READ, OPEN_MAPPED, OPEN_LEAN } OpenMode;

/* Opens; *found false (ERR_OK) when missing and found != NULL. */
static ErrCode file_open(const DbDir *d, const char *name, const DbStoreInfo *expect,
                         DbStoreFile *f, bool *found, OpenMode mode, Error *err) {
    /* the fields before the path, and the path's own bytes (not the
     * rest of its 4 KiB: see DbStoreFile) */
    memset(f, 0, offsetof(DbStoreFile, path));
    f->fd = -1;
    f->lean = mode == OPEN_LEAN;
    snprintf(f->path, sizeof f->path, "%s/%s", d->path, name);
    bool missing = false;
    f->fd = dbstore_open_regular(d, name, O_RDONLY, found != NULL ? &missing : NULL, &f->file_bytes,
                                 err);
    if (found != NULL) {
        *found = !missing;
    }
    if (f->fd < 0) {
        return missing ? ERR_OK : ERR_IO;
    }
    unsigned char b[DBSTORE_HEADER_BYTES];
    uint64_t index_off = 0, index_sum = 0;
    uint32_t dict_bytes = 0, dict_sum = 0;
    ErrCode rc = ERR_OK;
    if (f->file_bytes < DBSTORE_HEADER_BYTES) {
        rc = error_set(err, ERR_IO,
                       "%s is truncated: %" PRIu64 " bytes, shorter than its header; " REMEDY_READ,
                       f->path, f->file_bytes);
    }
    if (rc == ERR_OK) {
        rc = dbstore_read_at(f->fd, b, sizeof b, 0, f->path, err);
    }
    if (rc == ERR_OK) {
        rc = check_header(f, b, expect, &index_off, &index_sum, &dict_bytes, &dict_sum, err);
    }
    f->index_off = index_off;
    f->dict_bytes = dict_bytes;
    f->dict_sum = dict_sum;
    if (rc == ERR_OK && dict_bytes > 0) {
        /* checked whatever the mode; a lean file's is made on demand */
        rc = load_ddict(f, &f->ddict, err);
        if (mode == OPEN_LEAN) {
            ZSTD_freeDDict(f->ddict);
            f->ddict = NULL;
        }
    }
    /* The index: in place in the mapping, or read into `own` (8 bytes a
     * block, as stored; for a lean file freed at the end). Then one pass
     * over it: each frame within zstd's bound (so a block read allocates
     * no more), the frames filling [body, index_off) exactly, and where
     * each group of DBSTORE_INDEX_GROUP blocks starts. */
    uint64_t groups = (f->blocks + DBSTORE_INDEX_GROUP - 1) / DBSTORE_INDEX_GROUP;
    if (rc == ERR_OK) {
        f->group = malloc((size_t)groups * sizeof *f->group + 8);
        if (mode == OPEN_MAPPED && map_whole(f)) {
            f->index = f->map + index_off;
        } else {
            /* on huge pages from 1 MiB (6x5's file of 2.4 million blocks
             * would otherwise fault 4,700 small pages) */
            size_t bytes = (size_t)f->blocks * 8 + 8;
            f->own = mem_alloc_big(bytes, (size_t)1 << 20);
            f->index = f->own;
        }
        if (f->group == NULL || f->index == NULL) {
            rc = error_set(err, ERR_MEMORY, "cannot allocate the block index of %s", f->path);
        }
    }
    if (rc == ERR_OK && f->own != NULL) {
        rc = dbstore_read_at(f->fd, f->own, f->blocks * 8, index_off, f->path, err);
    }
    if (rc == ERR_OK && dbfile_checksum(0, f->index, f->blocks * 8) != index_sum) {
        rc = error_set(err, ERR_IO, "%s is corrupt (block index checksum mismatch); " REMEDY_READ,
                       f->path);
    }
    uint64_t off = DBSTORE_HEADER_BYTES + dict_bytes;
    uint64_t bound = ZSTD_compressBound((size_t)dbstore_block_bytes(f, 0));
    bool too_big = false;
    for (uint64_t k = 0; k < f->blocks && rc == ERR_OK; k++) {
        if (k % DBSTORE_INDEX_GROUP == 0) {
            f->group[k / DBSTORE_INDEX_GROUP] = off;
        }
        uint32_t c = dbstore_block_csize(f, k);
        off += c;
        too_big = too_big || c > bound;
    }
    if (mode == OPEN_LEAN) {
        free(f->own);
        f->own = NULL;
        f->index = NULL;
    }
    if (rc == ERR_OK && too_big) {
        rc = error_set(err, ERR_IO, "%s is corrupt (a block larger than zstd makes); " REMEDY_READ,
                       f->path);
    }
    if (rc == ERR_OK && off != index_off) {
        rc = error_set(err, ERR_IO, "%s is corrupt (the block sizes do not add up); " REMEDY_READ,
                       f->path);
    }
    if (rc != ERR_OK) {
        dbstore_file_close(f);
    }
    return rc;
}

ErrCode dbstore_file_open(const DbDir *d, const char *name, const DbStoreInfo *expect,
                          DbStoreFile *f, Error *err) {
    return file_open(d, name, expect, f, NULL, OPEN_READ, err);
}

ErrCode dbstore_file_open_mapped(const DbDir *d, const char *name, const DbStoreInfo *expect,
                                 DbStoreFile *f, Error *err) {
    return file_open(d, name, expect, f, NULL, OPEN_MAPPED, err);
}

ErrCode dbstore_file_open_lean(const DbDir *d, const char *name, const DbStoreInfo *expect,
                               DbStoreFile *f, Error *err) {
    return file_open(d, name, expect, f, NULL, OPEN_LEAN, err);
}

bool dbstore_file_map(DbStoreFile *f) { return f->map != NULL || map_whole(f); }

/* Where block k's frame starts: its group's offset plus the frames before
 * it in the group, whose index entries start at `entries` (the held index
 * or, for a lean file, the group's entries just read). */
static uint64_t offset_in_group(const DbStoreFile *f, const unsigned char *entries, uint64_t k) {
    uint64_t off = f->group[k / DBSTORE_INDEX_GROUP];
    for (uint64_t j = 0; j < k % DBSTORE_INDEX_GROUP; j++) {
        off += le_get32(entries + 8 * j);
    }
    return off;
}

uint64_t dbstore_block_offset(const DbStoreFile *f, uint64_t k) {
    return offset_in_group(f, f->index + 8 * (k - k % DBSTORE_INDEX_GROUP), k);
}

void dbstore_file_close(DbStoreFile *f) {
    if (f->map != NULL) {
        munmap((void *)f->map, (size_t)f->file_bytes);
        f->map = NULL;
    }
    if (f->fd >= 0) {
        close(f->fd);
    }
    free(f->own);
    free(f->group);
    ZSTD_freeDDict(f->ddict);
    f->own = NULL;
    f->index = NULL;
    f->group = NULL;
    f->ddict = NULL;
    f->fd = -1;
}

void dbstore_file_suspend(DbStoreFile *f) {
    if (f->fd >= 0) {
        close(f->fd);
        f->fd = -1;
    }
}

ErrCode dbstore_file_resume(const DbDir *d, const char *name, DbStoreFile *f, Error *err) {
    if (f->fd >= 0) {
        return ERR_OK;
    }
    uint64_t bytes = 0;
    int fd = dbstore_open_regular(d, name, O_RDONLY, NULL, &bytes, err);
    if (fd < 0) {
        return ERR_IO;
    }
    if (bytes != f->file_bytes) {
        close(fd);
        return error_set(err, ERR_IO,
                         "%s changed while it was read (%" PRIu64 " bytes, then %" PRIu64
                         "); " REMEDY_READ,
                         f->path, f->file_bytes, bytes);
    }
    f->fd = fd;
    return ERR_OK;
}

uint64_t dbstore_block_bytes(const DbStoreFile *f, uint64_t k) {
    uint64_t r0 = k * f->block_records;
    uint64_t n = f->info.records - r0 < f->block_records ? f->info.records - r0 : f->block_records;
    return n * f->info.width + (f->info.winby ? n * 2 : 0);
}

void *dbstore_dctx_new(void) { return ZSTD_createDCtx(); }
void dbstore_dctx_free(void *ctx) { ZSTD_freeDCtx(ctx); }

/* A lean file's block k: its frame's bytes, checksum and offset, from
 * the index entries of its group read again (checked against the frames'
 * bounds: the file may have been replaced since its index was checked,
 * if only by rename). */
static ErrCode lean_entry(const DbStoreFile *f, uint64_t k, uint32_t *c, uint32_t *sum,
                          uint64_t *at, Error *err) {
    unsigned char ent[8 * DBSTORE_INDEX_GROUP];
    uint64_t g0 = k - k % DBSTORE_INDEX_GROUP;
    ErrCode rc = dbstore_read_at(f->fd, ent, 8 * (k - g0 + 1), f->index_off + 8 * g0, f->path, err);
    if (rc != ERR_OK) {
        return rc;
    }
    *at = offset_in_group(f, ent, k);
    *c = le_get32(ent + 8 * (k - g0));
    *sum = le_get32(ent + 8 * (k - g0) + 4);
    if (*c > ZSTD_compressBound((size_t)dbstore_block_bytes(f, 0)) || *at > f->index_off ||
        *c > f->index_off - *at) {
        return error_set(err, ERR_IO,
                         "%s changed while it was read (block %" PRIu64 "); " REMEDY_READ, f->path,
                         k);
    }
    return ERR_OK;
}

ErrCode dbstore_block_read(const DbStoreFile *f, uint64_t k, void *ctx, void *out, Error *err) {
    return dbstore_block_read_dict(f, k, ctx, NULL, out, err);
}

ErrCode dbstore_block_read_dict(const DbStoreFile *f, uint64_t k, void *ctx, const void *ddict,
                                void *out, Error *err) {
    uint64_t n = dbstore_block_bytes(f, k);
    uint32_t c = 0, sum = 0;
    uint64_t at = 0;
    if (f->lean) {
        ErrCode rc = lean_entry(f, k, &c, &sum, &at, err);
        if (rc != ERR_OK) {
            return rc;
        }
    } else {
        c = dbstore_block_csize(f, k);
        sum = dbstore_block_csum(f, k);
    }
    if (c == 0) {
        memset(out, 0, (size_t)n);
        return ERR_OK;
    }
    ddict = ddict != NULL ? ddict : f->ddict;
    if (f->dict_bytes > 0 && ddict == NULL) {
        return error_set(err, ERR_INTERNAL, "%s: block %" PRIu64 " read without its dictionary",
                         f->path, k);
    }
    unsigned char stackbuf[8192];
    /* mapped: the frame in place (file_open checked that the frames fill
     * the file's data, so it lies within the mapping) */
    at = f->lean ? at : dbstore_block_offset(f, k);
    const unsigned char *buf = f->map != NULL         ? f->map + at
                               : c <= sizeof stackbuf ? stackbuf
                                                      : malloc(c);
    if (buf == NULL) {
        return error_set(err, ERR_MEMORY, "cannot allocate a block buffer");
    }
    ErrCode rc =
        f->map != NULL ? ERR_OK : dbstore_read_at(f->fd, (unsigned char *)buf, c, at, f->path, err);
    if (rc == ERR_OK && (uint32_t)dbfile_checksum(0, buf, c) != sum) {
        rc = error_set(err, ERR_IO,
                       "%s is corrupt (checksum mismatch in block %" PRIu64 "); " REMEDY_READ,
                       f->path, k);
    }
    if (rc == ERR_OK) {
        size_t got = ddict != NULL ? ZSTD_decompress_usingDDict(ctx, out, (size_t)n, buf, c, ddict)
                                   : ZSTD_decompressDCtx(ctx, out, (size_t)n, buf, c);
        if (ZSTD_isError(got) || got != n) {
            rc = error_set(err, ERR_IO,
                           "%s is corrupt (block %" PRIu64 " does not decompress to "
                           "its %" PRIu64 " bytes); " REMEDY_READ,
                           f->path, k, n);
        }
    }
    if (f->map == NULL && buf != stackbuf) {
        free((void *)buf);
    }
    return rc;
}

ErrCode dbstore_read(const DbDir *d, const char *name, const DbStoreInfo *expect, void *records,
                     int16_t *winby, int threads, bool *found, uint64_t *header_sum,
                     uint64_t *bytes, Error *err) {
    DbStoreFile f;
    ErrCode rc = file_open(d, name, expect, &f, found, OPEN_READ, err);
    if (rc != ERR_OK || !*found) {
        return rc;
    }
    if (threads < 1) {
        threads = 1;
    }
    uint64_t raw_max =
        (uint64_t)f.block_records * f.info.width + (f.info.winby ? f.block_records * 2 : 0);
    unsigned char *scratch = malloc((size_t)threads * raw_max);
    if (scratch == NULL) {
        dbstore_file_close(&f);
        return error_set(err, ERR_MEMORY, "cannot allocate buffers to read %s", f.path);
    }
    volatile int failed = 0;
    Error first = {0};
    unsigned char *rec = records;
#pragma omp parallel num_threads(threads) if (f.blocks > 8 && threads > 1)
    {
        void *ctx = ZSTD_createDCtx();
        unsigned char *buf = scratch + (size_t)omp_get_thread_num() * raw_max;
#pragma omp for schedule(dynamic, 8)
        for (uint64_t k = 0; k < f.blocks; k++) {
            if (failed) {
                continue;
            }
            Error e = {0};
            uint64_t r0 = k * f.block_records;
            uint64_t n =
                f.info.records - r0 < f.block_records ? f.info.records - r0 : f.block_records;
            ErrCode brc = ctx != NULL ? dbstore_block_read(&f, k, ctx, buf, &e)
                                      : error_set(&e, ERR_MEMORY, "cannot create a zstd context");
            if (brc == ERR_OK) {
                memcpy(rec + r0 * f.info.width, buf, n * f.info.width);
                if (f.info.winby) {
                    memcpy(winby + r0, buf + n * f.info.width, n * 2);
                }
            } else {
#pragma omp critical(dbstore_read_err)
                if (!failed) {
                    first = e;
                    failed = 1;
                }
            }
        }
        ZSTD_freeDCtx(ctx);
    }
    free(scratch);
    if (failed) {
        rc = error_set(err, first.code, "%s", first.msg);
    }
    if (header_sum != NULL) {
        *header_sum = f.header_sum;
    }
    if (bytes != NULL) {
        *bytes = f.file_bytes;
    }
    dbstore_file_close(&f);
    return rc;
}
