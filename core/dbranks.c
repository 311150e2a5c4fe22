/* core/dbranks.c: the N-rank tier database's directories and manifests,
 * and tier file names (core/dbranks.h). O(entries of DIR) to check a
 * layout; the manifest is kept in memory (about 120 bytes a slice) and
 * written once, atomically, at the end. */
#define _DEFAULT_SOURCE /* S_ISVTX */
#include "core/dbranks.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/mem.h"

void dbranks_tier_name(int tier, char *buf, size_t n) { snprintf(buf, n, "tier-%04d.gmdb", tier); }

void dbranks_reach_name(int tier, char *buf, size_t n) {
    snprintf(buf, n, "reach-%04d.gmdb", tier);
}

void dbranks_part_name(int tier, uint64_t first, char *buf, size_t n) {
    snprintf(buf, n, "tier-%04d-%012" PRIu64 ".gmdb", tier, first);
}

/* DIR/rank-R-of-N's name. */
static void rank_name(int rank, int ranks, char *buf, size_t n) {
    snprintf(buf, n, "rank-%d-of-%d", rank, ranks);
}

void dbranks_rank_dir(const char *dir, int rank, int ranks, char *buf, size_t n) {
    char name[32];
    rank_name(rank, ranks, name, sizeof name);
    snprintf(buf, n, "%s/%s", dir, name);
}

ErrCode dbranks_check_layout(const char *dir, int ranks, Error *err) {
    DIR *d = opendir(dir);
    if (d == NULL) {
        return ERR_OK; /* not there yet: created later, or refused when opened */
    }
    int r = 0, m = 0;
    ErrCode rc = ERR_OK;
    for (struct dirent *e = readdir(d); e != NULL && rc == ERR_OK; e = readdir(d)) {
        char tail = 0;
        bool slices = sscanf(e->d_name, "rank-%d-of-%d%c", &r, &m, &tail) == 2;
        bool manifest =
            !slices && sscanf(e->d_name, "manifest-of-%d.tx%c", &m, &tail) == 2 && tail == 't' &&
            strlen(e->d_name) == strlen("manifest-of-.txt") + (size_t)snprintf(NULL, 0, "%d", m);
        if ((slices || manifest) && m != ranks && !(ranks == 1 && m == 1)) {
            rc = error_set(err, ERR_IO,
                           "%s holds the database of a solve on %d ranks (%s), not %d; run on %d "
                           "ranks to resume it, read it by one process without --solver "
                           "(docs/mpi.md), or use another --db",
                           dir, m, e->d_name, ranks, m);
        }
    }
    closedir(d);
    return rc;
}

ErrCode dbranks_open_rank(const char *dir, int rank, int ranks, DbDir *d, Error *err) {
    DbDir top;
    memset(d, 0, sizeof *d);
    d->fd = d->lock_fd = -1;
    ErrCode rc = dbstore_dir_open(dir, true, &top, err);
    if (rc != ERR_OK) {
        return rc;
    }
    char name[64];
    rank_name(rank, ranks, name, sizeof name);
    snprintf(d->path, sizeof d->path, "%.4000s/%.63s", top.path, name);
    if (mkdirat(top.fd, name, 0755) != 0 && errno != EEXIST) {
        rc = error_set(err, ERR_IO, "cannot create %s: %s", d->path, strerror(errno));
    }
    if (rc == ERR_OK) {
        d->fd = openat(top.fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (d->fd < 0) {
            int e = errno;
            rc = error_set(err, ERR_IO, "cannot use %s: %s; use another --db", d->path,
                           e == ELOOP || e == ENOTDIR
                               ? "it is a symbolic link or not a directory (refused, not followed)"
                               : strerror(e));
        }
    }
    struct stat st;
    if (rc == ERR_OK && fstat(d->fd, &st) != 0) {
        rc = error_set(err, ERR_IO, "cannot stat %s: %s", d->path, strerror(errno));
    }
    if (rc == ERR_OK && (st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX)) {
        rc = error_set(err, ERR_IO,
                       "the database directory %s can be written by every user and has no "
                       "sticky bit, so another user could replace its files; use a directory "
                       "of your own (chmod o-w %s)",
                       d->path, d->path);
    }
    dbstore_dir_close(&top);
    if (rc != ERR_OK) {
        dbstore_dir_close(d);
    }
    return rc;
}

/* Appends a formatted line to the manifest's text. */
static ErrCode put(DbRanks *r, Error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static ErrCode put(DbRanks *r, Error *err, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (r->len + (size_t)n + 1 > r->cap) {
        size_t cap = (r->cap + (size_t)n + 1) * 2;
        char *t = realloc(r->text, cap);
        if (t == NULL) {
            return error_set(err, ERR_MEMORY, "out of memory for the N-rank manifest");
        }
        r->text = t;
        r->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(r->text + r->len, r->cap - r->len, fmt, ap);
    va_end(ap);
    r->len += (size_t)n;
    return ERR_OK;
}

ErrCode dbranks_begin(DbRanks *r, const char *dir, int ranks, const char *spec, int ntiers,
                      Error *err) {
    memset(r, 0, sizeof *r);
    r->top.fd = r->top.lock_fd = -1;
    r->ranks = ranks;
    r->ntiers = ntiers;
    r->slices = mem_calloc((size_t)ntiers * (size_t)ranks, sizeof *r->slices, "the manifest", err);
    if (r->slices == NULL) {
        return ERR_MEMORY;
    }
    ErrCode rc = dbstore_dir_open(dir, true, &r->top, err);
    if (rc != ERR_OK) {
        return rc;
    }
    dbstore_remove(&r->top, "manifest");
    return put(r, err, "gamesman tier database in %d ranks\nvariant %s\ntiers %d\n", ranks, spec,
               ntiers);
}

ErrCode dbranks_tier(DbRanks *r, int t, const uint64_t *first, const uint64_t *sums, Error *err) {
    ErrCode rc = ERR_OK;
    for (int q = 0; q < r->ranks && rc == ERR_OK; q++) {
        DbManifestFile *f = &r->slices[(size_t)t * (size_t)r->ranks + (size_t)q];
        *f = (DbManifestFile){.index = t,
                              .records = first[q + 1] - first[q],
                              .first = first[q],
                              .bytes = sums[3 * q + 2],
                              .header_sum = sums[3 * q]};
        char tier[24], rank[32];
        dbranks_tier_name(t, tier, sizeof tier);
        rank_name(q, r->ranks, rank, sizeof rank);
        snprintf(f->name, sizeof f->name, "%.31s/%.23s", rank, tier);
        rc = put(r, err,
                 "tier %d rank %d records %" PRIu64 " %" PRIu64 " checksum %016" PRIx64
                 " file %s header %016" PRIx64 "\n",
                 t, q, first[q], first[q + 1], sums[3 * q + 1], f->name, sums[3 * q]);
    }
    return rc;
}

ErrCode dbranks_commit(DbRanks *r, DbManifest *m, Error *err) {
    char name[64], tmp[DBSTORE_NAME_MAX + 64];
    snprintf(name, sizeof name, "manifest-of-%d.txt", r->ranks);
    int fd = dbstore_tmp_create(&r->top, name, tmp, sizeof tmp, err);
    if (fd < 0) {
        return err->code;
    }
    ErrCode rc = ERR_OK;
    for (size_t done = 0; done < r->len && rc == ERR_OK;) {
        ssize_t n = write(fd, r->text + done, r->len - done);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            rc = error_set(err, ERR_IO, "cannot write %s/%s: %s", r->top.path, tmp,
                           n < 0 ? strerror(errno) : "nothing written");
        } else {
            done += (size_t)n;
        }
    }
    rc = dbstore_tmp_commit(&r->top, fd, tmp, name, rc, err);
    if (rc == ERR_OK) {
        m->nfiles = r->ntiers * r->ranks;
        m->files = r->slices;
        rc = dbstore_manifest_write(&r->top, m, err);
        m->files = NULL;
        m->nfiles = 0;
    }
    return rc;
}

void dbranks_free(DbRanks *r) {
    free(r->text);
    free(r->slices);
    dbstore_dir_close(&r->top);
    memset(r, 0, sizeof *r);
    r->top.fd = r->top.lock_fd = -1;
}
