/* core/dbstore_manifest.c: a database directory's manifest
 * (core/dbstore.h has its lines): written whole through the safe write
 * (core/dbstore.c), its last line the checksum of every byte before it;
 * read back strictly: at most MANIFEST_MAX bytes, the checksum first,
 * then each `key value` line (numbers decimal digits only, no sign, blank
 * or overflow; file lines exactly six fields, names inside DIR or one
 * rank directory), then the whole (required lines, widths, each record
 * file's range inside the hash space, a partial manifest without counts or
 * a root value). Unknown keys (a later build of the same format) are
 * ignored. O(bytes of the manifest).
 */
#include "core/dbstore.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/dbfile.h"
#include "core/dbstore_internal.h"
#include "core/mem.h"

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
        rc = dbstore_write_all(fd, buf, n, path, err);
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
#define MANIFEST_HUGE ((size_t)1 << 20) /* buffers from this size on huge pages */

/* A manifest's file name: NAME in DIR, or rank-R-of-N/NAME (an N-rank
 * tier solve's slices, docs/mpi.md), written exactly so; NAME neither
 * empty nor hidden, no other '/' (nothing outside DIR is named). */
static bool file_name_ok(const char *name) {
    int r = 0, n = 0, len = 0;
    char canon[DBSTORE_NAME_MAX];
    if (strncmp(name, "rank-", 5) == 0 && sscanf(name, "rank-%d-of-%d/%n", &r, &n, &len) == 2 &&
        len > 0 && r >= 0 && r < n &&
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
    /* a table, not comparisons: a checksum's digits and letters come in
     * no order a branch predictor could follow (the comparisons took 60% of
     * the parser's own time on a 6x6 manifest). One more than the digit's
     * value; 0: none. */
    static const uint8_t value[256] = {
        ['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,
        ['6'] = 7,  ['7'] = 8,  ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12,
        ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12,
        ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16};
    uint64_t x = 0;
    bool bad = false;
    int n = 0;
    for (; v[n] != '\0' && n <= 16; n++) {
        unsigned d = value[(unsigned char)v[n]];
        bad |= d == 0;
        x = x << 4 | ((d - 1) & 15);
    }
    *out = x;
    return n > 0 && n <= 16 && !bad;
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
    size_t len = n == 6 ? strlen(tok[0]) : 0;
    if (n != 6 || len >= DBSTORE_NAME_MAX || !file_name_ok(tok[0]) ||
        !parse_i64(tok[1], INT32_MIN, INT32_MAX, &index) ||
        !parse_u64(tok[2], UINT64_MAX, &f->records) || !parse_u64(tok[3], UINT64_MAX, &f->first) ||
        !parse_u64(tok[4], UINT64_MAX, &f->bytes) || !parse_hex64(tok[5], &f->header_sum) ||
        f->first > UINT64_MAX - f->records || f->bytes < DBSTORE_HEADER_BYTES) {
        return false;
    }
    f->index = (int32_t)index;
    memcpy(f->name, tok[0], len + 1);
    return true;
}

ErrCode dbstore_manifest_read(const DbDir *d, DbManifest *m, bool *found, Error *err) {
    memset(m, 0, sizeof *m);
    char path[4200];
    snprintf(path, sizeof path, "%s/manifest", d->path);
    bool missing = false;
    uint64_t size = 0;
    int fd = dbstore_open_regular(d, "manifest", O_RDONLY, &missing, &size, err);
    *found = !missing;
    if (fd < 0) {
        return missing ? ERR_OK : ERR_IO;
    }
    if (size > MANIFEST_MAX) {
        close(fd);
        return error_set(err, ERR_IO, "%s is too large to be a manifest; " REMEDY_READ, path);
    }
    /* a database of 20,568 files (6x6) has a 1.7 MB manifest: on huge
     * pages, a query's process faults one page for it, not 400 */
    char *buf = mem_alloc_big((size_t)size + 1, MANIFEST_HUGE);
    if (buf == NULL) {
        close(fd);
        return error_set(err, ERR_MEMORY, "cannot allocate the manifest");
    }
    ErrCode rc = dbstore_read_at(fd, buf, size, 0, path, err);
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
        if (strcmp(k, "file") == 0) { /* first: all but 20 lines */
            ok = m->files != NULL && files_seen < m->nfiles &&
                 parse_file(val, &m->files[files_seen++]);
        } else if (strcmp(k, "format") == 0) {
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
                size_t bytes = ((size_t)m->nfiles + 1) * sizeof *m->files;
                m->files = mem_alloc_big(bytes, MANIFEST_HUGE);
                ok = m->files != NULL;
                if (ok) {
                    memset(m->files, 0, bytes);
                }
            }
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
