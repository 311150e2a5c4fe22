/* core/dbstore.c: see dbstore.h. */
#define _DEFAULT_SOURCE /* flock, S_ISVTX, O_NOFOLLOW with openat */
#include "core/dbstore.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zdict.h>
#include <zstd.h>

#include "core/dbfile.h"
#include "core/le.h"

static const char store_magic[8] = {'G', 'M', 'D', 'B', 'S', 'T', 'O', 'R'};

#ifndef GAMESMAN_COMMIT
#define GAMESMAN_COMMIT "unknown"
#endif

const char *dbstore_build(void) { return "gamesman-perf " GAMESMAN_COMMIT ", gcc " __VERSION__; }

/* ------------------------------------------------------------ directory */

#define REMEDY_READ "remove the directory and solve again, or use another --db"

ErrCode dbstore_dir_open(const char *path, bool create, DbDir *d, Error *err) {
    memset(d, 0, sizeof *d);
    d->fd = -1;
    d->lock_fd = -1;
    if (strlen(path) >= sizeof d->path - DBSTORE_NAME_MAX - 32) {
        return error_set(err, ERR_IO, "database directory name too long: %.100s...", path);
    }
    snprintf(d->path, sizeof d->path, "%s", path);
    if (create && mkdir(path, 0755) != 0 && errno != EEXIST) {
        return error_set(err, ERR_IO, "cannot create the database directory %s: %s", path,
                         strerror(errno));
    }
    d->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (d->fd < 0) {
        int e = errno;
        if (e == ENOTDIR) {
            return error_set(err, ERR_IO, "the database directory %s is not a directory", path);
        }
        return error_set(err, ERR_IO, "cannot open the database directory %s: %s%s", path,
                         strerror(e), e == ENOENT ? " (solve with --solver S --db DIR first)" : "");
    }
    struct stat st;
    if (fstat(d->fd, &st) != 0) {
        ErrCode rc = error_set(err, ERR_IO, "cannot stat %s: %s", path, strerror(errno));
        dbstore_dir_close(d);
        return rc;
    }
    if (create && (st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX)) {
        dbstore_dir_close(d);
        return error_set(err, ERR_IO,
                         "the database directory %s can be written by every user and has no "
                         "sticky bit, so another user could replace its files; use a directory "
                         "of your own (chmod o-w %s)",
                         path, path);
    }
    return ERR_OK;
}

void dbstore_dir_close(DbDir *d) {
    if (d->lock_fd >= 0) {
        close(d->lock_fd); /* releases the flock */
    }
    if (d->fd >= 0) {
        close(d->fd);
    }
    d->fd = d->lock_fd = -1;
}

/* Opens DIR/name for reading: a regular file only, never following a link
 * and never blocking (a FIFO). Returns the fd, or -1 with err set; *missing
 * (when not NULL) says the file does not exist (err not set then). */
static int open_regular(const DbDir *d, const char *name, int flags, bool *missing, uint64_t *size,
                        Error *err) {
    if (missing != NULL) {
        *missing = false;
    }
    int fd = openat(d->fd, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
    if (fd < 0) {
        int e = errno;
        if (e == ENOENT && missing != NULL) {
            *missing = true;
            return -1;
        }
        if (e == ELOOP) {
            error_set(err, ERR_IO,
                      "%s/%s is a symbolic link, which a database never holds; "
                      "remove it",
                      d->path, name);
        } else {
            error_set(err, ERR_IO, "cannot open %s/%s: %s", d->path, name, strerror(e));
        }
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        error_set(err, ERR_IO,
                  "%s/%s is not a regular file (a FIFO, device or directory); "
                  "remove it",
                  d->path, name);
        close(fd);
        return -1;
    }
    /* Back to blocking reads: O_NONBLOCK only kept open() from waiting. */
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) {
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    }
    if (size != NULL) {
        *size = (uint64_t)st.st_size;
    }
    return fd;
}

ErrCode dbstore_lock(DbDir *d, Error *err) {
    int fd = open_regular(d, "lock", O_RDWR | O_CREAT, NULL, NULL, err);
    if (fd < 0) {
        return ERR_IO;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        char buf[32] = {0};
        ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
        long pid = n > 0 ? strtol(buf, NULL, 10) : 0;
        close(fd);
        if (e == EWOULDBLOCK) {
            return error_set(err, ERR_IO,
                             "the database directory %s is in use by another solve (process %ld "
                             "holds %s/lock); wait for it to finish or use another --db",
                             d->path, pid, d->path);
        }
        return error_set(err, ERR_IO, "cannot lock %s/lock: %s", d->path, strerror(e));
    }
    char pid[32];
    int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
        ErrCode rc = error_set(err, ERR_IO, "cannot write %s/lock: %s", d->path, strerror(errno));
        close(fd);
        return rc;
    }
    d->lock_fd = fd;
    return ERR_OK;
}

/* Digits [p, end) are a decimal number of 1 to `most` digits, with no
 * leading zero unless `zero_ok` and the number is 0; returns the end of
 * the digits, or NULL. */
static const char *decimal(const char *p, size_t most, bool zero_ok) {
    size_t n = strspn(p, "0123456789");
    if (n == 0 || n > most || (p[0] == '0' && (n > 1 || !zero_ok))) {
        return NULL;
    }
    return p + n;
}

/* A name the database writes (core/dbstore.h): "manifest",
 * "manifest-of-N.txt", or a record file "X.gmdb" (X a lower-case letter,
 * then lower-case letters, digits and '-'). [name, end). */
static bool db_name(const char *name, const char *end) {
    size_t len = (size_t)(end - name);
    if (len == 8 && memcmp(name, "manifest", 8) == 0) {
        return true;
    }
    if (len > 16 && memcmp(name, "manifest-of-", 12) == 0) {
        const char *n = decimal(name + 12, 6, false);
        return n != NULL && n + 4 == end && memcmp(n, ".txt", 4) == 0;
    }
    if (len < 6 || len >= DBSTORE_NAME_MAX || memcmp(end - 5, ".gmdb", 5) != 0 || name[0] < 'a' ||
        name[0] > 'z') {
        return false;
    }
    for (const char *p = name; p < end - 5; p++) {
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-')) {
            return false;
        }
    }
    return true;
}

bool dbstore_tmp_name(const char *tmp) {
    /* NAME.tmp.PID.K, exactly as dbstore_tmp_create writes it */
    const char *t = strstr(tmp, ".tmp.");
    if (t == NULL || !db_name(tmp, t)) {
        return false;
    }
    const char *pid = decimal(t + 5, 10, false);
    if (pid == NULL || *pid != '.') {
        return false;
    }
    const char *k = decimal(pid + 1, 10, true);
    return k != NULL && *k == '\0';
}

void dbstore_clean_tmp(const DbDir *d) {
    if (d->lock_fd < 0) {
        return; /* not the writer: another process may be writing them */
    }
    int dfd = dup(d->fd);
    DIR *dir = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (dir == NULL) {
        if (dfd >= 0) {
            close(dfd);
        }
        return;
    }
    uid_t me = geteuid();
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        struct stat st;
        /* unlinkat never follows a link; only this user's files and links
         * (root in a shared sticky directory leaves other users' alone) */
        if (dbstore_tmp_name(e->d_name) &&
            fstatat(d->fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) && st.st_uid == me) {
            unlinkat(d->fd, e->d_name, 0);
        }
    }
    closedir(dir);
}

bool dbstore_exists(const DbDir *d, const char *name) {
    struct stat st;
    return fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

void dbstore_remove(const DbDir *d, const char *name) { unlinkat(d->fd, name, 0); }

/* ------------------------------------------------------------- memory */

void *dbstore_alloc_huge(size_t bytes) {
    const size_t huge = (size_t)2 << 20;
    size_t n = (bytes + huge - 1) & ~(huge - 1);
    void *p = aligned_alloc(huge, n);
#ifdef MADV_HUGEPAGE
    if (p != NULL) {
        (void)madvise(p, n, MADV_HUGEPAGE);
    }
#endif
    return p;
}

/* --------------------------------------------------------- safe writes */

static ErrCode write_all(int fd, const void *data, uint64_t n, const char *path, Error *err) {
    const unsigned char *p = data;
    while (n > 0) {
        size_t chunk = n > (UINT64_C(1) << 30) ? (size_t)1 << 30 : (size_t)n;
        ssize_t w = write(fd, p, chunk);
        if (w < 0) {
            if (errno == EINTR) {
                continue;
            }
            return error_set(err, ERR_IO, "cannot write %s: %s%s", path, strerror(errno),
                             errno == ENOSPC ? " (free some space and run again: the files "
                                               "already written are kept)"
                                             : "");
        }
        p += w;
        n -= (uint64_t)w;
    }
    return ERR_OK;
}

int dbstore_tmp_create(const DbDir *d, const char *name, char *tmp, size_t n, Error *err) {
    static unsigned counter;
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned k = __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
        snprintf(tmp, n, "%s.tmp.%ld.%u", name, (long)getpid(), k);
        int fd = openat(d->fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd >= 0) {
            return fd;
        }
        if (errno != EEXIST) {
            error_set(err, ERR_IO, "cannot create %s/%s: %s", d->path, tmp, strerror(errno));
            return -1;
        }
    }
    error_set(err, ERR_IO, "cannot create a temporary file for %s/%s: every name is taken", d->path,
              name);
    return -1;
}

ErrCode dbstore_tmp_commit(const DbDir *d, int fd, const char *tmp, const char *name, ErrCode rc,
                           Error *err) {
    if (rc == ERR_OK && fsync(fd) != 0) {
        rc =
            error_set(err, ERR_IO, "cannot flush %s/%s to disk: %s", d->path, tmp, strerror(errno));
    }
    if (close(fd) != 0 && rc == ERR_OK) {
        rc = error_set(err, ERR_IO, "cannot close %s/%s: %s", d->path, tmp, strerror(errno));
    }
    if (rc == ERR_OK && renameat(d->fd, tmp, d->fd, name) != 0) {
        rc = error_set(err, ERR_IO, "cannot rename %s/%s to %s: %s", d->path, tmp, name,
                       strerror(errno));
    }
    if (rc != ERR_OK) {
        unlinkat(d->fd, tmp, 0);
        return rc;
    }
    fsync(d->fd);
    return ERR_OK;
}

/* --------------------------------------------------------- record files */

static uint32_t block_records_for(uint32_t width) {
    return width >= DBSTORE_BLOCK_BYTES ? 1 : DBSTORE_BLOCK_BYTES / width;
}

/* Blocks of `records` records, br a block (no overflow near 2^64). */
static uint64_t blocks_of(uint64_t records, uint32_t br) {
    return records / br + (records % br != 0);
}

static void encode_header(unsigned char *b, const DbStoreInfo *info, uint32_t br, uint64_t blocks,
                          uint64_t index_off, uint64_t data_bytes, uint64_t index_sum,
                          uint32_t dict_bytes, uint32_t dict_sum) {
    memset(b, 0, DBSTORE_HEADER_BYTES);
    memcpy(b, store_magic, sizeof store_magic);
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
    return info->width == 0 ? 0 : blocks_of(info->records, block_records_for(info->width));
}

ErrCode dbstore_dict_make(const DbStoreInfo *info, const void *records, const int16_t *winby,
                          DbStoreDict *dict, Error *err) {
    dict->bytes = 0;
    uint64_t blocks = dbstore_blocks(info);
    if (info->kind != DBSTORE_RECORDS || blocks < DBSTORE_DICT_MIN_BLOCKS) {
        return ERR_OK;
    }
    uint32_t br = block_records_for(info->width);
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
    uint32_t br = block_records_for(info->width);
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
    ErrCode rc = write_all(s->fd, header, sizeof header, s->path, err);
    if (rc == ERR_OK && dict->bytes > 0) {
        rc = write_all(s->fd, dict->data, dict->bytes, s->path, err);
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
    return write_all(s->fd, data, n, s->path, err);
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
        rc = write_all(s->fd, index, blocks * 8, s->path, err);
    }
    if (rc == ERR_OK) {
        encode_header(header, info, block_records_for(info->width), blocks, index_off,
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
    uint32_t br = block_records_for(info->width);
    uint64_t blocks = blocks_of(info->records, br);
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

/* ------------------------------------------------------ reading a file */

static ErrCode read_at(int fd, void *data, uint64_t n, uint64_t off, const char *path, Error *err) {
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
    if (memcmp(b, store_magic, sizeof store_magic) != 0) {
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
    if (f->block_records != block_records_for(h->width)) {
        return error_set(err, ERR_IO,
                         "%s has blocks of %" PRIu32 " records; this build reads blocks of %" PRIu32
                         " records of %" PRIu32 " bytes (written with another "
                         "DBSTORE_BLOCK_BYTES?); " REMEDY_READ,
                         path, f->block_records, block_records_for(h->width), h->width);
    }
    if (f->blocks != blocks_of(h->records, f->block_records) || *dict_bytes > DBSTORE_DICT_BYTES) {
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

/* Opens; *found false (ERR_OK) when missing and found != NULL. */
static ErrCode file_open(const DbDir *d, const char *name, const DbStoreInfo *expect,
                         DbStoreFile *f, bool *found, Error *err) {
    memset(f, 0, sizeof *f);
    f->fd = -1;
    snprintf(f->path, sizeof f->path, "%s/%s", d->path, name);
    bool missing = false;
    f->fd = open_regular(d, name, O_RDONLY, found != NULL ? &missing : NULL, &f->file_bytes, err);
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
        rc = read_at(f->fd, b, sizeof b, 0, f->path, err);
    }
    if (rc == ERR_OK) {
        rc = check_header(f, b, expect, &index_off, &index_sum, &dict_bytes, &dict_sum, err);
    }
    if (rc == ERR_OK && dict_bytes > 0) {
        unsigned char dict[DBSTORE_DICT_BYTES];
        rc = read_at(f->fd, dict, dict_bytes, DBSTORE_HEADER_BYTES, f->path, err);
        if (rc == ERR_OK && (uint32_t)dbfile_checksum(0, dict, dict_bytes) != dict_sum) {
            rc = error_set(err, ERR_IO,
                           "%s is corrupt (dictionary checksum mismatch); " REMEDY_READ, f->path);
        }
        if (rc == ERR_OK && (f->ddict = ZSTD_createDDict(dict, dict_bytes)) == NULL) {
            rc = error_set(err, ERR_IO,
                           "%s is corrupt (its dictionary is not zstd's); " REMEDY_READ, f->path);
        }
    }
    /* One slab per file, offsets then sizes then checksums (16 bytes a
     * block), on huge pages from 1 MiB (6x5's 2.4 million blocks would
     * otherwise fault 9,000 small pages per batch of queries; the rounding
     * costs at most 1 MiB a file). The index is read into the offsets'
     * part (8 bytes a block, as the index), each entry parsed before its
     * offset overwrites it. */
    if (rc == ERR_OK) {
        size_t bytes = (size_t)f->blocks * 16 + 8;
        f->offset = bytes >= ((size_t)1 << 20) ? dbstore_alloc_huge(bytes) : malloc(bytes);
        if (f->offset == NULL) {
            rc = error_set(err, ERR_MEMORY, "cannot allocate the block index of %s", f->path);
        } else {
            f->csize = (uint32_t *)(f->offset + f->blocks);
            f->csum = f->csize + f->blocks;
        }
    }
    unsigned char *index = (unsigned char *)f->offset;
    if (rc == ERR_OK) {
        rc = read_at(f->fd, index, f->blocks * 8, index_off, f->path, err);
    }
    if (rc == ERR_OK && dbfile_checksum(0, index, f->blocks * 8) != index_sum) {
        rc = error_set(err, ERR_IO, "%s is corrupt (block index checksum mismatch); " REMEDY_READ,
                       f->path);
    }
    /* A frame is at most zstd's bound of its block's raw bytes (so a block
     * read allocates no more), and the frames fill [body, index_off). */
    uint64_t off = DBSTORE_HEADER_BYTES + dict_bytes;
    uint64_t bound = ZSTD_compressBound((size_t)dbstore_block_bytes(f, 0));
    bool too_big = false;
    for (uint64_t k = 0; k < f->blocks && rc == ERR_OK; k++) {
        f->csize[k] = le_get32(index + 8 * k);
        f->csum[k] = le_get32(index + 8 * k + 4);
        f->offset[k] = off;
        off += f->csize[k];
        too_big = too_big || f->csize[k] > bound;
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
    return file_open(d, name, expect, f, NULL, err);
}

void dbstore_file_close(DbStoreFile *f) {
    if (f->fd >= 0) {
        close(f->fd);
    }
    free(f->offset);
    ZSTD_freeDDict(f->ddict);
    f->offset = NULL;
    f->ddict = NULL;
    f->csize = f->csum = NULL;
    f->fd = -1;
}

uint64_t dbstore_block_bytes(const DbStoreFile *f, uint64_t k) {
    uint64_t r0 = k * f->block_records;
    uint64_t n = f->info.records - r0 < f->block_records ? f->info.records - r0 : f->block_records;
    return n * f->info.width + (f->info.winby ? n * 2 : 0);
}

void *dbstore_dctx_new(void) { return ZSTD_createDCtx(); }
void dbstore_dctx_free(void *ctx) { ZSTD_freeDCtx(ctx); }

ErrCode dbstore_block_read(const DbStoreFile *f, uint64_t k, void *ctx, void *out, Error *err) {
    uint64_t n = dbstore_block_bytes(f, k);
    uint32_t c = f->csize[k];
    if (c == 0) {
        memset(out, 0, (size_t)n);
        return ERR_OK;
    }
    unsigned char stackbuf[8192];
    unsigned char *buf = c <= sizeof stackbuf ? stackbuf : malloc(c);
    if (buf == NULL) {
        return error_set(err, ERR_MEMORY, "cannot allocate a block buffer");
    }
    ErrCode rc = read_at(f->fd, buf, c, f->offset[k], f->path, err);
    if (rc == ERR_OK && (uint32_t)dbfile_checksum(0, buf, c) != f->csum[k]) {
        rc = error_set(err, ERR_IO,
                       "%s is corrupt (checksum mismatch in block %" PRIu64 "); " REMEDY_READ,
                       f->path, k);
    }
    if (rc == ERR_OK) {
        size_t got = f->ddict != NULL
                         ? ZSTD_decompress_usingDDict(ctx, out, (size_t)n, buf, c, f->ddict)
                         : ZSTD_decompressDCtx(ctx, out, (size_t)n, buf, c);
        if (ZSTD_isError(got) || got != n) {
            rc = error_set(err, ERR_IO,
                           "%s is corrupt (block %" PRIu64 " does not decompress to "
                           "its %" PRIu64 " bytes); " REMEDY_READ,
                           f->path, k, n);
        }
    }
    if (buf != stackbuf) {
        free(buf);
    }
    return rc;
}

ErrCode dbstore_read(const DbDir *d, const char *name, const DbStoreInfo *expect, void *records,
                     int16_t *winby, int threads, bool *found, uint64_t *header_sum,
                     uint64_t *bytes, Error *err) {
    DbStoreFile f;
    ErrCode rc = file_open(d, name, expect, &f, found, err);
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

/* ------------------------------------------------------------ manifest */

ErrCode dbstore_manifest_write(DbDir *d, const DbManifest *m, Error *err) {
    size_t cap = 4096 + (size_t)m->nfiles * 160;
    char *buf = malloc(cap);
    if (buf == NULL) {
        return error_set(err, ERR_MEMORY, "cannot allocate the manifest");
    }
    size_t n = 0;
#define EMIT(...) n += (size_t)snprintf(buf + n, cap - n, __VA_ARGS__)
    EMIT("format %d\n", DBSTORE_VERSION);
    EMIT("spec %s\n", m->spec);
    EMIT("solver %s\n", m->solver);
    EMIT("layout %s\n", m->layout);
    EMIT("hash_space %" PRIu64 "\n", m->hash_space);
    EMIT("width %" PRIu32 "\n", m->width);
    EMIT("winby %d\n", m->winby ? 1 : 0);
    EMIT("loopy %d\n", m->loopy ? 1 : 0);
    EMIT("positions %" PRIu64 "\n", m->positions);
    EMIT("wins %" PRIu64 "\nlosses %" PRIu64 "\nties %" PRIu64 "\ndraws %" PRIu64 "\n", m->count[1],
         m->count[2], m->count[3], m->count[4]);
    EMIT("max_remoteness %" PRIu32 "\n", m->max_remoteness);
    EMIT("root_value %s\n", m->root_value);
    EMIT("root_remoteness %" PRIu32 "\n", m->root_remoteness);
    EMIT("root_winby %" PRId32 "\n", m->root_winby);
    EMIT("build %s\n", m->build);
    EMIT("files %d\n", m->nfiles);
    for (int i = 0; i < m->nfiles; i++) {
        const DbManifestFile *f = &m->files[i];
        EMIT("file %s %" PRId32 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %016" PRIx64 "\n", f->name,
             f->index, f->records, f->first, f->bytes, f->header_sum);
    }
    if (m->partial) {
        EMIT("partial 1\n");
    }
    EMIT("complete %d\n", m->complete ? 1 : 0);
    EMIT("checksum %016" PRIx64 "\n", dbfile_checksum(0, buf, n));
#undef EMIT
    char tmp[DBSTORE_NAME_MAX + 64];
    int fd = dbstore_tmp_create(d, "manifest", tmp, sizeof tmp, err);
    ErrCode rc = fd >= 0 ? ERR_OK : ERR_IO;
    if (rc == ERR_OK) {
        char path[4200];
        snprintf(path, sizeof path, "%s/manifest", d->path);
        rc = write_all(fd, buf, n, path, err);
        rc = dbstore_tmp_commit(d, fd, tmp, "manifest", rc, err);
    }
    free(buf);
    return rc;
}

void dbstore_manifest_free(DbManifest *m) {
    free(m->files);
    m->files = NULL;
}

#define MANIFEST_MAX (DBSTORE_MAX_FILES * 200 + 8192)

/* A manifest's file name: NAME in DIR, or rank-R-of-N/NAME (an N-rank
 * tier solve's slices, docs/mpi.md), written exactly so; NAME neither
 * empty nor hidden, no other '/' (nothing outside DIR is named). */
static bool file_name_ok(const char *name) {
    int r = 0, n = 0, len = 0;
    char canon[DBSTORE_NAME_MAX];
    if (sscanf(name, "rank-%d-of-%d/%n", &r, &n, &len) == 2 && len > 0 && r >= 0 && r < n &&
        snprintf(canon, sizeof canon, "rank-%d-of-%d/", r, n) == len &&
        strncmp(canon, name, (size_t)len) == 0) {
        name += len;
    }
    return name[0] != '.' && name[0] != '\0' && strchr(name, '/') == NULL;
}

/* Strict numbers of a manifest (sscanf would take "-1" for 2^64 - 1,
 * leading blanks and trailing text, and overflow silently): decimal
 * digits only (a '-' first when min < 0), no overflow, within [min, max];
 * hexadecimal: 1 to 16 digits. */
static bool parse_u64(const char *v, uint64_t max, uint64_t *out) {
    uint64_t x = 0;
    if (*v == '\0') {
        return false;
    }
    for (; *v != '\0'; v++) {
        if (*v < '0' || *v > '9' || x > (UINT64_MAX - (uint64_t)(*v - '0')) / 10) {
            return false;
        }
        x = x * 10 + (uint64_t)(*v - '0');
    }
    *out = x;
    return x <= max;
}

static bool parse_i64(const char *v, int64_t min, int64_t max, int64_t *out) {
    bool neg = *v == '-';
    uint64_t x = 0;
    if (!parse_u64(v + neg, neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, &x)) {
        return false;
    }
    *out = neg ? (x == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)x) : (int64_t)x;
    return *out >= min && *out <= max;
}

static bool parse_hex64(const char *v, uint64_t *out) {
    size_t n = strspn(v, "0123456789abcdefABCDEF");
    if (n == 0 || n > 16 || v[n] != '\0') {
        return false;
    }
    *out = strtoull(v, NULL, 16);
    return true;
}

static bool parse_u32(const char *v, uint32_t *out) {
    uint64_t x = 0;
    bool ok = parse_u64(v, UINT32_MAX, &x);
    *out = (uint32_t)x;
    return ok;
}

static bool parse_int(const char *v, int min, int max, int *out) {
    int64_t x = 0;
    bool ok = parse_i64(v, min, max, &x);
    *out = (int)x;
    return ok;
}

/* A `file` line's value: NAME INDEX RECORDS FIRST BYTES SUM, one space
 * apart. */
static bool parse_file(char *val, DbManifestFile *f) {
    char *tok[7];
    int n = 0;
    for (char *p = val; p != NULL && n < 7;) {
        tok[n++] = p;
        p = strchr(p, ' ');
        if (p != NULL) {
            *p++ = '\0';
        }
    }
    int64_t index;
    if (n != 6 || strlen(tok[0]) >= DBSTORE_NAME_MAX || !file_name_ok(tok[0]) ||
        !parse_i64(tok[1], INT32_MIN, INT32_MAX, &index) ||
        !parse_u64(tok[2], UINT64_MAX, &f->records) || !parse_u64(tok[3], UINT64_MAX, &f->first) ||
        !parse_u64(tok[4], UINT64_MAX, &f->bytes) || !parse_hex64(tok[5], &f->header_sum) ||
        f->first > UINT64_MAX - f->records || f->bytes < DBSTORE_HEADER_BYTES) {
        return false;
    }
    f->index = (int32_t)index;
    memcpy(f->name, tok[0], strlen(tok[0]) + 1);
    return true;
}

ErrCode dbstore_manifest_read(const DbDir *d, DbManifest *m, bool *found, Error *err) {
    memset(m, 0, sizeof *m);
    char path[4200];
    snprintf(path, sizeof path, "%s/manifest", d->path);
    bool missing = false;
    uint64_t size = 0;
    int fd = open_regular(d, "manifest", O_RDONLY, &missing, &size, err);
    *found = !missing;
    if (fd < 0) {
        return missing ? ERR_OK : ERR_IO;
    }
    if (size > MANIFEST_MAX) {
        close(fd);
        return error_set(err, ERR_IO, "%s is too large to be a manifest; " REMEDY_READ, path);
    }
    char *buf = malloc((size_t)size + 1);
    if (buf == NULL) {
        close(fd);
        return error_set(err, ERR_MEMORY, "cannot allocate the manifest");
    }
    ErrCode rc = read_at(fd, buf, size, 0, path, err);
    close(fd);
    buf[size] = '\0';
#define BAD(what) error_set(err, ERR_IO, "%s is %s; " REMEDY_READ, path, what)
    /* The last line is the checksum of everything before it. */
    char *last = NULL;
    if (rc == ERR_OK) {
        if (size < 2 || buf[size - 1] != '\n' || strlen(buf) != size) {
            rc = BAD("not a manifest of this suite (or truncated)");
        } else {
            buf[size - 1] = '\0';
            last = strrchr(buf, '\n');
            last = last != NULL ? last + 1 : buf;
            uint64_t sum;
            if (sscanf(last, "checksum %" SCNx64, &sum) != 1) {
                rc = BAD("not complete (no checksum line: an interrupted write?)");
            } else if (sum != dbfile_checksum(0, buf, (uint64_t)(last - buf))) {
                rc = BAD("corrupt (manifest checksum mismatch)");
            }
            last[0] = '\0';
        }
    }
    int files_seen = 0;
    bool have_format = false;
    for (char *line = buf, *next; rc == ERR_OK && line != NULL && *line != '\0'; line = next) {
        next = strchr(line, '\n');
        if (next != NULL) {
            *next++ = '\0';
        }
        char *val = strchr(line, ' ');
        if (val == NULL) {
            rc = BAD("malformed (a line without a value)");
            break;
        }
        *val++ = '\0';
        const char *k = line;
        int ok = 1;
        if (strcmp(k, "format") == 0) {
            ok = parse_int(val, INT32_MIN, INT32_MAX, &m->version);
            have_format = true;
            if (ok == 1 && (m->version < DBSTORE_VERSION_MIN || m->version > DBSTORE_VERSION)) {
                rc = error_set(err, ERR_IO,
                               "%s has format version %d, this build reads %d to %d; " REMEDY_READ,
                               path, m->version, DBSTORE_VERSION_MIN, DBSTORE_VERSION);
            }
        } else if (strcmp(k, "spec") == 0) {
            snprintf(m->spec, sizeof m->spec, "%s", val);
        } else if (strcmp(k, "solver") == 0) {
            snprintf(m->solver, sizeof m->solver, "%s", val);
        } else if (strcmp(k, "layout") == 0) {
            snprintf(m->layout, sizeof m->layout, "%s", val);
        } else if (strcmp(k, "hash_space") == 0) {
            ok = parse_u64(val, UINT64_MAX, &m->hash_space);
        } else if (strcmp(k, "width") == 0) {
            ok = parse_u32(val, &m->width);
        } else if (strcmp(k, "winby") == 0 || strcmp(k, "loopy") == 0 ||
                   strcmp(k, "complete") == 0 || strcmp(k, "partial") == 0) {
            int v = 0;
            ok = parse_int(val, 0, 1, &v);
            *(strcmp(k, "winby") == 0     ? &m->winby
              : strcmp(k, "loopy") == 0   ? &m->loopy
              : strcmp(k, "partial") == 0 ? &m->partial
                                          : &m->complete) = v;
        } else if (strcmp(k, "positions") == 0) {
            ok = parse_u64(val, UINT64_MAX, &m->positions);
        } else if (strcmp(k, "wins") == 0) {
            ok = parse_u64(val, UINT64_MAX, &m->count[1]);
        } else if (strcmp(k, "losses") == 0) {
            ok = parse_u64(val, UINT64_MAX, &m->count[2]);
        } else if (strcmp(k, "ties") == 0) {
            ok = parse_u64(val, UINT64_MAX, &m->count[3]);
        } else if (strcmp(k, "draws") == 0) {
            ok = parse_u64(val, UINT64_MAX, &m->count[4]);
        } else if (strcmp(k, "max_remoteness") == 0) {
            ok = parse_u32(val, &m->max_remoteness);
        } else if (strcmp(k, "root_value") == 0) {
            snprintf(m->root_value, sizeof m->root_value, "%s", val);
        } else if (strcmp(k, "root_remoteness") == 0) {
            ok = parse_u32(val, &m->root_remoteness);
        } else if (strcmp(k, "root_winby") == 0) {
            int v = 0;
            ok = parse_int(val, INT32_MIN, INT32_MAX, &v);
            m->root_winby = v;
        } else if (strcmp(k, "build") == 0) {
            snprintf(m->build, sizeof m->build, "%s", val);
        } else if (strcmp(k, "files") == 0) {
            ok = parse_int(val, 0, DBSTORE_MAX_FILES, &m->nfiles) && m->files == NULL;
            if (ok) {
                m->files = calloc((size_t)m->nfiles + 1, sizeof *m->files);
                ok = m->files != NULL;
            }
        } else if (strcmp(k, "file") == 0) {
            ok = m->files != NULL && files_seen < m->nfiles &&
                 parse_file(val, &m->files[files_seen++]);
        } /* unknown keys: written by a later build of the same format; ignored */
        if (rc == ERR_OK && ok != 1) {
            rc = BAD("malformed (a line cannot be read)");
        }
    }
    if (rc == ERR_OK && (!have_format || m->spec[0] == '\0' || files_seen != m->nfiles ||
                         (m->width != 1 && m->width != 2))) {
        rc = BAD("incomplete (a required line is missing)");
    }
    /* A partial manifest (tier:sector, solvers/store.h) is never complete
     * and carries no counts and no root value: one that does was a
     * complete manifest edited, which would hide its missing tiers, its
     * counts and its root from --verify. */
    if (rc == ERR_OK && m->partial &&
        (m->complete || m->positions != 0 || m->count[1] != 0 || m->count[2] != 0 ||
         m->count[3] != 0 || m->count[4] != 0 || m->max_remoteness != 0 ||
         m->root_remoteness != 0 || m->root_winby != 0 ||
         strcmp(m->root_value, "undecided") != 0)) {
        rc = BAD("inconsistent (partial, but with what only a complete database has: "
                 "`complete 1`, counts or a root value)");
    }
    /* Record files hold hash slots: a file's range inside the hash space
     * (the BDD layout's files hold bytes; their reader checks them). */
    bool slots = strcmp(m->layout, "tiers") == 0 || strcmp(m->layout, "slots") == 0;
    for (int i = 0; rc == ERR_OK && slots && i < m->nfiles; i++) {
        if (m->files[i].first + m->files[i].records > m->hash_space) {
            rc = BAD("malformed (a file's records lie outside the hash space)");
        }
    }
#undef BAD
    free(buf);
    if (rc != ERR_OK) {
        dbstore_manifest_free(m);
    }
    return rc;
}
