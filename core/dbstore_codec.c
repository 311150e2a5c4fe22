/* core/dbstore_codec.c: the block codec of record files (core/dbstore.h
 * has the layout): records (and scores) cut into blocks of
 * DBSTORE_BLOCK_BYTES of records, each compressed on its own with zstd at
 * the level of its kind (DBSTORE_LEVEL, DBSTORE_REACH_LEVEL) with
 * DBSTORE_MIN_MATCH and no dictionary ID, an all-zero block stored as
 * nothing; the file's dictionary (ZDICT_finalizeDictionary over
 * DBSTORE_DICT_SAMPLES blocks spread over the file, for files of
 * DBSTORE_DICT_MIN_BLOCKS blocks or more); the header and the index. A
 * file is written whole (dbstore_write, OpenMP over batches of blocks) or
 * in pieces compressed by any thread into a sink (core/dbwriter.h): the
 * same bytes either way, whatever the threads, since every block's frame
 * is a function of its records and the dictionary alone. O(records) time;
 * memory: a batch of compressed blocks and a scratch block per thread.
 */
#include "core/dbstore.h"

#include <errno.h>
#include <inttypes.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zdict.h>
#include <zstd.h>

#include "core/dbfile.h"
#include "core/dbstore_internal.h"
#include "core/le.h"

/* --------------------------------------------------------- record files */

static void encode_header(unsigned char *b, const DbStoreInfo *info, uint32_t br, uint64_t blocks,
                          uint64_t index_off, uint64_t data_bytes, uint64_t index_sum,
                          uint32_t dict_bytes, uint32_t dict_sum) {
    memset(b, 0, DBSTORE_HEADER_BYTES);
    memcpy(b, DBSTORE_MAGIC, 8);
    le_put32(b + 8, DBSTORE_VERSION);
    le_put32(b + 12, (uint32_t)info->kind);
    le_put32(b + 16, (uint32_t)info->index);
    le_put32(b + 20, (uint32_t)info->count);
    le_put32(b + 24, info->width);
    le_put32(b + 28, info->winby ? 1 : 0);
    le_put64(b + 32, info->records);
    le_put64(b + 40, info->first);
    le_put32(b + 48, br);
    le_put32(b + 52, (uint32_t)dbstore_level(info->kind));
    le_put64(b + 56, blocks);
    le_put64(b + 64, index_off);
    le_put64(b + 72, data_bytes);
    le_put64(b + 80, index_sum);
    snprintf((char *)b + 88, DBSTORE_SPEC_MAX, "%s", info->spec);
    le_put32(b + 344, dict_bytes);
    le_put32(b + 348, dict_sum);
    le_put64(b + 504, dbfile_checksum(0, b, 504));
}

static bool all_zero(const unsigned char *p, uint64_t n) {
    uint64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        if (w != 0) {
            return false;
        }
    }
    for (; i < n; i++) {
        if (p[i] != 0) {
            return false;
        }
    }
    return true;
}

int dbstore_level(DbStoreKind kind) {
    return kind == DBSTORE_REACH ? DBSTORE_REACH_LEVEL : DBSTORE_LEVEL;
}

/* A compression context with the parameters of new files set once
 * (DBSTORE_LEVEL, DBSTORE_MIN_MATCH, no dictionary ID in the frames;
 * ZSTD_compress2 keeps them from block to block), or NULL. */
static ZSTD_CCtx *new_cctx(int level) {
    ZSTD_CCtx *c = ZSTD_createCCtx();
    if (c == NULL) {
        return NULL;
    }
    if (ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_minMatch, DBSTORE_MIN_MATCH)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_dictIDFlag, 0))) {
        ZSTD_freeCCtx(c);
        return NULL;
    }
    return c;
}

/* Raw bytes of a block at most (records, then scores): the scratch of a
 * compressor. */
static uint64_t raw_max_of(const DbStoreInfo *info, uint32_t br) {
    return (uint64_t)br * info->width + (info->winby ? (uint64_t)br * 2 : 0);
}

/* The raw bytes of block k (its records, then with info->winby its
 * scores: copied into raw, raw_max_of bytes) in *src, *len; true when
 * every one is 0. */
static bool block_raw(const DbStoreInfo *info, uint32_t br, const unsigned char *rec,
                      const int16_t *winby, uint64_t k, unsigned char *raw,
                      const unsigned char **src, uint64_t *len) {
    uint64_t r0 = k * br, n = info->records - r0 < br ? info->records - r0 : br;
    *src = rec + r0 * info->width;
    *len = n * info->width;
    bool zero = all_zero(*src, *len);
    if (info->winby) {
        zero = zero && all_zero((const unsigned char *)(winby + r0), n * 2);
        memcpy(raw, *src, *len);
        memcpy(raw + *len, winby + r0, n * 2);
        *src = raw;
        *len += n * 2;
    }
    return zero;
}

/* Compresses block k of a file (its records, then with info->winby its
 * scores) with c into out (cap bytes) and sets its index entry (size,
 * checksum). raw: scratch of raw_max_of bytes (scores only). Returns the
 * compressed bytes (0: every record and score is 0, nothing stored), or
 * SIZE_MAX on a zstd error. Deterministic: the same bytes whatever the
 * context's history (parameters set once, ZSTD_compress2), so the thread
 * that compresses a block does not change the file. */
static size_t compress_block(ZSTD_CCtx *c, const DbStoreInfo *info, uint32_t br,
                             const unsigned char *rec, const int16_t *winby, uint64_t k,
                             unsigned char *raw, unsigned char *out, size_t cap,
                             unsigned char *index) {
    const unsigned char *src;
    uint64_t len;
    bool zero = block_raw(info, br, rec, winby, k, raw, &src, &len);
    size_t z = 0;
    if (!zero) {
        z = ZSTD_compress2(c, out, cap, src, (size_t)len);
        if (ZSTD_isError(z)) {
            return SIZE_MAX;
        }
    }
    le_put32(index + 8 * k, (uint32_t)z);
    le_put32(index + 8 * k + 4, (uint32_t)dbfile_checksum(0, out, z));
    return z;
}

uint64_t dbstore_blocks(const DbStoreInfo *info) {
    return info->width == 0 ? 0
                            : dbstore_blocks_of(info->records, dbstore_block_records(info->width));
}

ErrCode dbstore_dict_make(const DbStoreInfo *info, const void *records, const int16_t *winby,
                          DbStoreDict *dict, Error *err) {
    dict->bytes = 0;
    uint64_t blocks = dbstore_blocks(info);
    if (info->kind != DBSTORE_RECORDS || blocks < DBSTORE_DICT_MIN_BLOCKS) {
        return ERR_OK;
    }
    uint32_t br = dbstore_block_records(info->width);
    uint64_t raw_max = raw_max_of(info, br);
    unsigned char *samples = malloc((size_t)(DBSTORE_DICT_SAMPLES + 1) * raw_max);
    if (samples == NULL) {
        return error_set(err, ERR_MEMORY, "cannot allocate the sample of a dictionary");
    }
    size_t sizes[DBSTORE_DICT_SAMPLES], used = 0;
    unsigned n = 0;
    unsigned char *scratch = samples + (size_t)DBSTORE_DICT_SAMPLES * raw_max;
    for (uint64_t i = 0; i < DBSTORE_DICT_SAMPLES; i++) {
        const unsigned char *src;
        uint64_t len;
        if (!block_raw(info, br, records, winby, i * blocks / DBSTORE_DICT_SAMPLES, scratch, &src,
                       &len)) {
            memcpy(samples + used, src, (size_t)len);
            sizes[n++] = (size_t)len;
            used += (size_t)len;
        }
    }
    /* The content: the end of the sample (half the dictionary); the rest
     * is the entropy tables, from compressing every sample at the level of
     * new files. A sample too small or too uniform for zstd: no
     * dictionary. */
    size_t content = used < DBSTORE_DICT_BYTES / 2 ? used : DBSTORE_DICT_BYTES / 2;
    ZDICT_params_t zp;
    memset(&zp, 0, sizeof zp);
    zp.compressionLevel = DBSTORE_LEVEL;
    if (n >= 8) {
        size_t got =
            ZDICT_finalizeDictionary(dict->data, sizeof dict->data, samples + used - content,
                                     content, samples, sizes, n, zp);
        dict->bytes = ZDICT_isError(got) ? 0 : (uint32_t)got;
    }
    free(samples);
    return ERR_OK;
}

/* Loads dict (0 bytes: none) into c for the frames that follow. */
static bool load_dict(ZSTD_CCtx *c, const DbStoreDict *dict) {
    return !ZSTD_isError(ZSTD_CCtx_loadDictionary(c, dict->data, dict->bytes));
}

/* Scratch of a compressor: raw bytes of one block at most (records of 1
 * byte with their 2-byte scores), and the bound of a piece's output. */
#define Z_RAW_MAX (DBSTORE_BLOCK_BYTES * 3)

struct DbStoreZ {
    ZSTD_CCtx *cctx, *reach_cctx; /* DBSTORE_LEVEL, DBSTORE_REACH_LEVEL */
    DbStoreDict dict;             /* loaded in cctx */
    size_t bound;                 /* ZSTD_compressBound(Z_RAW_MAX) */
    unsigned char raw[Z_RAW_MAX];
    unsigned char *out; /* DBSTORE_PIECE_BLOCKS * bound */
};

DbStoreZ *dbstore_z_new(void) {
    DbStoreZ *z = calloc(1, sizeof *z);
    if (z == NULL) {
        return NULL;
    }
    z->bound = ZSTD_compressBound(Z_RAW_MAX);
    z->cctx = new_cctx(DBSTORE_LEVEL);
    z->reach_cctx = new_cctx(DBSTORE_REACH_LEVEL);
    z->out = malloc(DBSTORE_PIECE_BLOCKS * z->bound);
    if (z->cctx == NULL || z->reach_cctx == NULL || z->out == NULL) {
        dbstore_z_free(z);
        return NULL;
    }
    return z;
}

void dbstore_z_free(DbStoreZ *z) {
    if (z != NULL) {
        ZSTD_freeCCtx(z->cctx);
        ZSTD_freeCCtx(z->reach_cctx);
        free(z->out);
        free(z);
    }
}

ErrCode dbstore_compress_piece(DbStoreZ *z, const DbStoreInfo *info, const DbStoreDict *dict,
                               const void *records, const int16_t *winby, uint64_t k0, uint64_t k1,
                               unsigned char *index, void **out, size_t *bytes, Error *err) {
    *out = NULL;
    *bytes = 0;
    uint32_t br = dbstore_block_records(info->width);
    if (k1 < k0 || k1 - k0 > DBSTORE_PIECE_BLOCKS || k1 > dbstore_blocks(info) ||
        raw_max_of(info, br) > Z_RAW_MAX) {
        return error_set(err, ERR_INTERNAL, "dbstore: bad piece [%" PRIu64 ", %" PRIu64 ")", k0,
                         k1);
    }
    ZSTD_CCtx *cctx = info->kind == DBSTORE_REACH ? z->reach_cctx : z->cctx;
    if (cctx == z->cctx &&
        (dict->bytes != z->dict.bytes || memcmp(dict->data, z->dict.data, dict->bytes) != 0)) {
        /* another file's dictionary (4 KiB compared a piece of 16 blocks) */
        if (!load_dict(cctx, dict)) {
            z->dict.bytes = UINT32_MAX; /* unknown: loaded again next time */
            return error_set(err, ERR_MEMORY, "zstd could not load a dictionary");
        }
        z->dict.bytes = dict->bytes;
        memcpy(z->dict.data, dict->data, dict->bytes);
    }
    size_t n = 0;
    for (uint64_t k = k0; k < k1; k++) {
        size_t c =
            compress_block(cctx, info, br, records, winby, k, z->raw, z->out + n, z->bound, index);
        if (c == SIZE_MAX) {
            return error_set(err, ERR_INTERNAL, "zstd could not compress block %" PRIu64, k);
        }
        n += c;
    }
    if (n > 0) {
        *out = malloc(n);
        if (*out == NULL) {
            return error_set(err, ERR_MEMORY, "cannot allocate %zu bytes of compressed blocks", n);
        }
        memcpy(*out, z->out, n);
    }
    *bytes = n;
    return ERR_OK;
}

ErrCode dbstore_sink_open(const DbDir *d, const char *name, const DbStoreDict *dict, DbStoreSink *s,
                          Error *err) {
    memset(s, 0, sizeof *s);
    s->dict_bytes = dict->bytes;
    s->dict_sum = (uint32_t)dbfile_checksum(0, dict->data, dict->bytes);
    snprintf(s->name, sizeof s->name, "%s", name);
    snprintf(s->path, sizeof s->path, "%s/%s", d->path, name);
    s->fd = dbstore_tmp_create(d, name, s->tmp, sizeof s->tmp, err);
    if (s->fd < 0) {
        return ERR_IO;
    }
    unsigned char header[DBSTORE_HEADER_BYTES] = {0}; /* filled in last */
    ErrCode rc = dbstore_write_all(s->fd, header, sizeof header, s->path, err);
    if (rc == ERR_OK && dict->bytes > 0) {
        rc = dbstore_write_all(s->fd, dict->data, dict->bytes, s->path, err);
    }
    if (rc != ERR_OK) {
        close(s->fd);
        unlinkat(d->fd, s->tmp, 0);
        s->fd = -1;
    }
    return rc;
}

ErrCode dbstore_sink_put(DbStoreSink *s, const void *data, size_t n, Error *err) {
    s->data_bytes += n;
    return dbstore_write_all(s->fd, data, n, s->path, err);
}

ErrCode dbstore_sink_close(const DbDir *d, DbStoreSink *s, const DbStoreInfo *info,
                           const unsigned char *index, ErrCode rc, uint64_t *header_sum,
                           uint64_t *bytes, Error *err) {
    if (s->fd < 0) {
        return rc != ERR_OK ? rc : error_set(err, ERR_INTERNAL, "dbstore: %s not open", s->name);
    }
    uint64_t blocks = dbstore_blocks(info);
    uint64_t index_off = DBSTORE_HEADER_BYTES + s->dict_bytes + s->data_bytes;
    unsigned char header[DBSTORE_HEADER_BYTES];
    if (rc == ERR_OK) {
        rc = dbstore_write_all(s->fd, index, blocks * 8, s->path, err);
    }
    if (rc == ERR_OK) {
        encode_header(header, info, dbstore_block_records(info->width), blocks, index_off,
                      s->data_bytes, dbfile_checksum(0, index, blocks * 8), s->dict_bytes,
                      s->dict_sum);
        if (pwrite(s->fd, header, sizeof header, 0) != (ssize_t)sizeof header) {
            rc = error_set(err, ERR_IO, "cannot write %s: %s", s->path, strerror(errno));
        }
    }
    rc = dbstore_tmp_commit(d, s->fd, s->tmp, s->name, rc, err);
    s->fd = -1;
    if (rc == ERR_OK && header_sum != NULL) {
        *header_sum = le_get64(header + 504);
    }
    if (rc == ERR_OK && bytes != NULL) {
        *bytes = index_off + blocks * 8;
    }
    return rc;
}

/* Blocks compressed per batch: bounds the memory of a write. */
#define BATCH_BLOCKS 512

ErrCode dbstore_write(DbDir *d, const char *name, const DbStoreInfo *info, const void *records,
                      const int16_t *winby, int threads, uint64_t *header_sum, uint64_t *bytes,
                      Error *err) {
    if (info->width == 0 || info->records > (UINT64_C(1) << 48)) {
        return error_set(err, ERR_INTERNAL, "dbstore: bad file description for %s", name);
    }
    if (threads < 1) {
        threads = 1;
    }
    uint32_t br = dbstore_block_records(info->width);
    uint64_t blocks = dbstore_blocks_of(info->records, br);
    uint64_t raw_max = raw_max_of(info, br);
    size_t bound = ZSTD_compressBound((size_t)raw_max);
    uint64_t batch = blocks < BATCH_BLOCKS ? (blocks ? blocks : 1) : BATCH_BLOCKS;
    unsigned char *out = malloc((size_t)batch * bound);
    unsigned char *raw = info->winby ? malloc((size_t)threads * raw_max) : NULL;
    size_t *osize = calloc((size_t)batch, sizeof *osize);
    unsigned char *index = calloc((size_t)blocks + 1, 8);
    ZSTD_CCtx **cctx = calloc((size_t)threads, sizeof *cctx);
    DbStoreDict *dict = malloc(sizeof *dict);
    ErrCode rc = ERR_OK;
    if (out == NULL || osize == NULL || index == NULL || cctx == NULL || dict == NULL ||
        (info->winby && raw == NULL)) {
        rc =
            error_set(err, ERR_MEMORY, "cannot allocate the buffers to write %s/%s", d->path, name);
    }
    if (rc == ERR_OK) {
        rc = dbstore_dict_make(info, records, winby, dict, err);
    }
    for (int t = 0; t < threads && rc == ERR_OK; t++) {
        cctx[t] = new_cctx(dbstore_level(info->kind));
        if (cctx[t] == NULL || !load_dict(cctx[t], dict)) {
            rc = error_set(err, ERR_MEMORY, "cannot create a zstd context");
        }
    }
    DbStoreSink sink = {.fd = -1};
    if (rc == ERR_OK) {
        rc = dbstore_sink_open(d, name, dict, &sink, err);
    }
    for (uint64_t b0 = 0; b0 < blocks && rc == ERR_OK; b0 += batch) {
        uint64_t b1 = b0 + batch < blocks ? b0 + batch : blocks;
        volatile int zerr = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 4) if (b1 - b0 > 8 && threads > 1)
        for (uint64_t k = b0; k < b1; k++) {
            int tid = omp_get_thread_num();
            size_t c = compress_block(cctx[tid], info, br, records, winby, k,
                                      raw == NULL ? NULL : raw + (size_t)tid * raw_max,
                                      out + (k - b0) * bound, bound, index);
            if (c == SIZE_MAX) {
                zerr = 1;
                c = 0;
            }
            osize[k - b0] = c;
        }
        if (zerr) {
            rc = error_set(err, ERR_INTERNAL, "zstd could not compress a block of %s", sink.path);
        }
        for (uint64_t k = b0; k < b1 && rc == ERR_OK; k++) {
            rc = dbstore_sink_put(&sink, out + (k - b0) * bound, osize[k - b0], err);
        }
    }
    if (sink.fd >= 0) {
        rc = dbstore_sink_close(d, &sink, info, index, rc, header_sum, bytes, err);
    }
    for (int t = 0; t < threads && cctx != NULL; t++) {
        ZSTD_freeCCtx(cctx[t]);
    }
    free(cctx);
    free(dict);
    free(out);
    free(raw);
    free(osize);
    free(index);
    return rc;
}
