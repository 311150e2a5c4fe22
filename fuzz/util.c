/* fuzz/util.c: the fuzz targets' shared helpers (fuzz/fuzz.h): scratch
 * directory, file writes, reference databases, checksum repair. Bounds:
 * every offset the repair takes from the bytes is checked against their
 * length before it is used (this code must not be the crash).
 */
#include "fuzz/fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/dbfile.h"
#include "core/dbstore.h"
#include "core/le.h"

void fuzz_fail(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "fuzz: %s:%d: ", file, line);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    abort();
}

static char scratch[PATH_MAX];

/* Removes dir and what it holds (two levels: the rank-R-of-N/ copies). */
static void remove_tree(const char *dir, int depth) {
    DIR *d = opendir(dir);
    if (d == NULL) {
        return;
    }
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) {
            continue;
        }
        char path[PATH_MAX + 256];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && depth < 3) {
            remove_tree(path, depth + 1);
        } else {
            unlink(path);
        }
    }
    closedir(d);
    rmdir(dir);
}

static void remove_scratch(void) {
    if (scratch[0] != '\0') {
        remove_tree(scratch, 0);
    }
}

const char *fuzz_scratch(void) {
    if (scratch[0] != '\0') {
        return scratch;
    }
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");
    snprintf(scratch, sizeof scratch, "%s/gamesman-fuzz.XXXXXX", base != NULL ? base : "/tmp");
    if (mkdtemp(scratch) == NULL) {
        fuzz_fail(__FILE__, __LINE__, "cannot make a scratch directory: %s", strerror(errno));
    }
    atexit(remove_scratch);
    return scratch;
}

void fuzz_write(const char *dir, const char *name, const void *data, size_t n) {
    char path[PATH_MAX + 256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    unlink(path);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    FUZZ_CHECK(fd >= 0, "cannot write %s: %s", path, strerror(errno));
    const unsigned char *p = data;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        FUZZ_CHECK(w > 0, "cannot write %s: %s", path, strerror(errno));
        p += w;
        n -= (size_t)w;
    }
    close(fd);
}

unsigned char *fuzz_read(const char *dir, const char *name, size_t *n) {
    char path[PATH_MAX + 256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    size_t cap = 4096, len = 0;
    unsigned char *b = malloc(cap);
    size_t r;
    while (b != NULL && (r = fread(b + len, 1, cap - len, f)) > 0) {
        len += r;
        if (len == cap) {
            unsigned char *nb = realloc(b, cap * 2);
            if (nb == NULL) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
    }
    fclose(f);
    *n = len;
    return b;
}

static void copy_level(const char *from, const char *to, int depth) {
    FUZZ_CHECK(mkdir(to, 0700) == 0 || errno == EEXIST, "cannot make %s: %s", to, strerror(errno));
    DIR *d = opendir(from);
    FUZZ_CHECK(d != NULL, "cannot read %s: %s", from, strerror(errno));
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "lock") == 0) {
            continue;
        }
        char src[PATH_MAX + 256], dst[PATH_MAX + 256];
        snprintf(src, sizeof src, "%s/%s", from, e->d_name);
        snprintf(dst, sizeof dst, "%s/%s", to, e->d_name);
        struct stat st;
        if (lstat(src, &st) != 0) {
            continue;
        }
        if (S_ISDIR(st.st_mode) && depth == 0) {
            copy_level(src, dst, 1);
        } else if (S_ISREG(st.st_mode)) {
            size_t n = 0;
            unsigned char *b = fuzz_read(from, e->d_name, &n);
            FUZZ_CHECK(b != NULL, "cannot read %s", src);
            fuzz_write(to, e->d_name, b, n);
            free(b);
        }
    }
    closedir(d);
}

void fuzz_copy_dir(const char *from, const char *to) { copy_level(from, to, 0); }

const char *fuzz_reference_db(const char *name) {
    const char *root = getenv("GAMESMAN_FUZZ_DBS");
    if (root == NULL || root[0] == '\0') {
        return NULL;
    }
    static char paths[16][PATH_MAX];
    static int used;
    FUZZ_CHECK(used < 16, "too many reference databases");
    char *p = paths[used];
    snprintf(p, PATH_MAX, "%s/%s", root, name);
    char manifest[PATH_MAX + 16];
    snprintf(manifest, sizeof manifest, "%s/manifest", p);
    if (access(manifest, R_OK) != 0) {
        return NULL;
    }
    used++;
    return p;
}

void fuzz_fix_record_file(unsigned char *b, size_t n) {
    if (n < DBSTORE_HEADER_BYTES) {
        return;
    }
    uint32_t version = le_get32(b + 8);
    uint64_t blocks = le_get64(b + 56);
    uint64_t index_off = le_get64(b + 64);
    uint32_t dict_bytes = version >= 2 ? le_get32(b + 344) : 0;
    /* The dictionary's checksum (format 2). */
    if (version >= 2 && dict_bytes <= n - DBSTORE_HEADER_BYTES) {
        le_put32(b + 348, (uint32_t)dbfile_checksum(0, b + DBSTORE_HEADER_BYTES, dict_bytes));
    }
    /* Each block's checksum, then the index's, over the bytes the reader
     * takes for the index: blocks * 8, computed as it computes it (modulo
     * 2^64), when they are inside the file. */
    uint64_t index_bytes = blocks * 8;
    if (index_off <= n && index_bytes <= n - index_off) {
        unsigned char *index = b + index_off;
        uint64_t off = (uint64_t)DBSTORE_HEADER_BYTES + dict_bytes;
        for (uint64_t k = 0; k < index_bytes / 8; k++) {
            uint32_t c = le_get32(index + 8 * k);
            if (off > n || c > n - off) {
                break;
            }
            le_put32(index + 8 * k + 4, (uint32_t)dbfile_checksum(0, b + off, c));
            off += c;
        }
        le_put64(b + 80, dbfile_checksum(0, index, index_bytes));
    }
    le_put64(b + 504, dbfile_checksum(0, b, 504));
}

size_t fuzz_fix_manifest(char *b, size_t n) {
    /* Drop a last line that is a checksum line (with or without its '\n'). */
    size_t end = n;
    if (end > 0 && b[end - 1] == '\n') {
        end--;
    }
    size_t start = end;
    while (start > 0 && b[start - 1] != '\n') {
        start--;
    }
    if (end - start >= 9 && memcmp(b + start, "checksum ", 9) == 0) {
        n = start;
    }
    if (n > 0 && b[n - 1] != '\n') {
        b[n++] = '\n';
    }
    uint64_t sum = dbfile_checksum(0, b, n);
    n += (size_t)snprintf(b + n, 40, "checksum %016" PRIx64 "\n", sum);
    return n;
}
