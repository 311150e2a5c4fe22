/* core/dbfile.c: see dbfile.h. */
#include "core/dbfile.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char dbfile_magic[8] = {'G', 'M', 'D', 'B', 'F', 'I', 'L', 'E'};
enum { DBFILE_VERSION = 1 };

/* xxHash64's primes and round. */
#define P1 UINT64_C(0x9E3779B185EBCA87)
#define P2 UINT64_C(0xC2B2AE3D27D4EB4F)
#define P3 UINT64_C(0x165667B19E3779F9)

static inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static inline uint64_t round64(uint64_t acc, uint64_t word) {
    acc += word * P2;
    return rotl(acc, 31) * P1;
}

static inline uint64_t load64(const unsigned char *p) {
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

uint64_t dbfile_checksum(uint64_t seed, const void *data, uint64_t n) {
    const unsigned char *p = data;
    uint64_t lane[4] = {seed + P1 + P2, seed + P2, seed, seed - P1};
    uint64_t i = 0;
    for (; i + 32 <= n; i += 32) {
        for (int k = 0; k < 4; k++) {
            lane[k] = round64(lane[k], load64(p + i + 8 * (uint64_t)k));
        }
    }
    uint64_t h = rotl(lane[0], 1) + rotl(lane[1], 7) + rotl(lane[2], 12) + rotl(lane[3], 18);
    for (int k = 0; k < 4; k++) {
        h = (h ^ round64(0, lane[k])) * P1 + P3;
    }
    h += n;
    for (; i + 8 <= n; i += 8) {
        h = rotl(h ^ round64(0, load64(p + i)), 27) * P1 + P3;
    }
    for (; i < n; i++) {
        h = rotl(h ^ (p[i] * P2), 11) * P1;
    }
    h ^= h >> 33;
    h *= P2;
    h ^= h >> 29;
    h *= P3;
    return h ^ (h >> 32);
}

/* ----------------------------------------------------------- the header */

static void put32(unsigned char *b, uint32_t v) {
    for (int i = 0; i < 4; i++) {
        b[i] = (unsigned char)(v >> (8 * i));
    }
}

static void put64(unsigned char *b, uint64_t v) {
    for (int i = 0; i < 8; i++) {
        b[i] = (unsigned char)(v >> (8 * i));
    }
}

static uint32_t get32(const unsigned char *b) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        v |= (uint32_t)b[i] << (8 * i);
    }
    return v;
}

static uint64_t get64(const unsigned char *b) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) {
        v |= (uint64_t)b[i] << (8 * i);
    }
    return v;
}

static uint64_t payload_bytes(const DbFileParts *parts) {
    uint64_t n = 0;
    for (int i = 0; i < parts->n; i++) {
        n += parts->bytes[i];
    }
    return n;
}

/* The payload checksum chains the parts in order. */
static uint64_t payload_checksum(const DbFileParts *parts) {
    uint64_t h = 0;
    for (int i = 0; i < parts->n; i++) {
        h = dbfile_checksum(h, parts->data[i], parts->bytes[i]);
    }
    return h;
}

static void encode_header(unsigned char *b, const DbFileInfo *info, uint64_t bytes,
                          uint64_t checksum) {
    memset(b, 0, DBFILE_HEADER_BYTES);
    memcpy(b, dbfile_magic, sizeof dbfile_magic);
    put32(b + 8, DBFILE_VERSION);
    put32(b + 12, (uint32_t)info->kind);
    put32(b + 16, (uint32_t)info->index);
    put32(b + 20, (uint32_t)info->count);
    put32(b + 24, info->width);
    put64(b + 32, info->records);
    put64(b + 40, bytes);
    put64(b + 48, checksum);
    snprintf((char *)b + 56, DBFILE_SPEC_MAX, "%s", info->spec);
    put64(b + 504, dbfile_checksum(0, b, 504));
}

/* ------------------------------------------------------------ writing */

static ErrCode write_all(int fd, const void *data, uint64_t n, const char *path, Error *err) {
    const unsigned char *p = data;
    while (n > 0) {
        size_t chunk = n > (UINT64_C(1) << 30) ? (size_t)1 << 30 : (size_t)n;
        ssize_t w = write(fd, p, chunk);
        if (w < 0) {
            if (errno == EINTR) {
                continue;
            }
            return error_set(err, ERR_IO, "cannot write %s: %s", path, strerror(errno));
        }
        p += w;
        n -= (uint64_t)w;
    }
    return ERR_OK;
}

ErrCode dbfile_write(const char *path, const DbFileInfo *info, const DbFileParts *parts,
                     Error *err) {
    char tmp[4096];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp) {
        return error_set(err, ERR_IO, "file name too long: %s", path);
    }
    unsigned char header[DBFILE_HEADER_BYTES];
    encode_header(header, info, payload_bytes(parts), payload_checksum(parts));
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        return error_set(err, ERR_IO, "cannot create %s: %s", tmp, strerror(errno));
    }
    ErrCode rc = write_all(fd, header, sizeof header, tmp, err);
    for (int i = 0; i < parts->n && rc == ERR_OK; i++) {
        rc = write_all(fd, parts->data[i], parts->bytes[i], tmp, err);
    }
    if (rc == ERR_OK && fsync(fd) != 0) {
        rc = error_set(err, ERR_IO, "cannot flush %s to disk: %s", tmp, strerror(errno));
    }
    if (close(fd) != 0 && rc == ERR_OK) {
        rc = error_set(err, ERR_IO, "cannot close %s: %s", tmp, strerror(errno));
    }
    if (rc == ERR_OK && rename(tmp, path) != 0) {
        rc = error_set(err, ERR_IO, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
    }
    if (rc != ERR_OK) {
        unlink(tmp);
    }
    return rc;
}

/* ------------------------------------------------------------ reading */

static ErrCode read_all(int fd, void *data, uint64_t n, const char *path, Error *err) {
    unsigned char *p = data;
    while (n > 0) {
        size_t chunk = n > (UINT64_C(1) << 30) ? (size_t)1 << 30 : (size_t)n;
        ssize_t r = read(fd, p, chunk);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            return error_set(err, ERR_IO, "cannot read %s: %s", path,
                             r < 0 ? strerror(errno) : "unexpected end of file");
        }
        p += r;
        n -= (uint64_t)r;
    }
    return ERR_OK;
}

#define REMEDY "remove it (it will be solved again) or use another --work-dir"

static ErrCode check_header(const unsigned char *b, const DbFileInfo *e, uint64_t bytes,
                            uint64_t file_size, const char *path, uint64_t *checksum, Error *err) {
    if (memcmp(b, dbfile_magic, sizeof dbfile_magic) != 0) {
        return error_set(err, ERR_IO, "%s is not a database file of this suite; " REMEDY, path);
    }
    if (get32(b + 8) != DBFILE_VERSION) {
        return error_set(err, ERR_IO, "%s has format version %" PRIu32 ", not %d; " REMEDY, path,
                         get32(b + 8), DBFILE_VERSION);
    }
    if (get64(b + 504) != dbfile_checksum(0, b, 504)) {
        return error_set(err, ERR_IO, "%s is corrupt (header checksum mismatch); " REMEDY, path);
    }
    char spec[DBFILE_SPEC_MAX];
    memcpy(spec, b + 56, sizeof spec);
    spec[sizeof spec - 1] = '\0';
    int32_t index = (int32_t)get32(b + 16), count = (int32_t)get32(b + 20);
    if (strcmp(spec, e->spec) != 0 || count != e->count) {
        return error_set(err, ERR_IO,
                         "%s belongs to another game variant (%s, %" PRId32
                         " tiers), not %s (%" PRId32 " tiers); " REMEDY,
                         path, spec, count, e->spec, e->count);
    }
    if (get32(b + 12) != (uint32_t)e->kind || index != e->index || get32(b + 24) != e->width ||
        get64(b + 32) != e->records || get64(b + 40) != bytes) {
        return error_set(err, ERR_IO,
                         "%s does not hold what its name says (kind %" PRIu32 ", tier %" PRId32
                         ", %" PRIu64 " records of %" PRIu32
                         " bytes; expected kind %d, tier %" PRId32 ", %" PRIu64
                         " records of %" PRIu32 " bytes); " REMEDY,
                         path, get32(b + 12), index, get64(b + 32), get32(b + 24), (int)e->kind,
                         e->index, e->records, e->width);
    }
    if (file_size != DBFILE_HEADER_BYTES + bytes) {
        return error_set(err, ERR_IO,
                         "%s is %s: %" PRIu64 " bytes, the header says %" PRIu64 "; " REMEDY, path,
                         file_size < DBFILE_HEADER_BYTES + bytes ? "truncated" : "too long",
                         file_size, DBFILE_HEADER_BYTES + bytes);
    }
    *checksum = get64(b + 48);
    return ERR_OK;
}

ErrCode dbfile_read(const char *path, const DbFileInfo *expect, const DbFileParts *parts,
                    bool *found, Error *err) {
    *found = false;
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        if (errno == ENOENT) {
            return ERR_OK;
        }
        return error_set(err, ERR_IO, "cannot open %s: %s", path, strerror(errno));
    }
    *found = true;
    struct stat st;
    unsigned char header[DBFILE_HEADER_BYTES];
    uint64_t checksum = 0;
    ErrCode rc = ERR_OK;
    if (fstat(fd, &st) != 0) {
        rc = error_set(err, ERR_IO, "cannot stat %s: %s", path, strerror(errno));
    } else if ((uint64_t)st.st_size < DBFILE_HEADER_BYTES) {
        rc = error_set(err, ERR_IO,
                       "%s is truncated: %" PRIu64 " bytes, shorter than its header; " REMEDY, path,
                       (uint64_t)st.st_size);
    } else {
        rc = read_all(fd, header, sizeof header, path, err);
        if (rc == ERR_OK) {
            rc = check_header(header, expect, payload_bytes(parts), (uint64_t)st.st_size, path,
                              &checksum, err);
        }
    }
    for (int i = 0; i < parts->n && rc == ERR_OK; i++) {
        rc = read_all(fd, parts->data[i], parts->bytes[i], path, err);
    }
    close(fd);
    if (rc == ERR_OK && payload_checksum(parts) != checksum) {
        rc = error_set(err, ERR_IO, "%s is corrupt (payload checksum mismatch); " REMEDY, path);
    }
    return rc;
}
