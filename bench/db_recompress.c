/* bench/db_recompress.c: what other zstd parameters would make of a
 * database's blocks (docs/database.md, scripts/db-zstd-params.sh).
 *
 *     db_recompress LEVEL MIN_MATCH STRIDE FILE.gmdb...
 *
 * Streams every STRIDE-th block of each record file (core/dbstore.h's
 * format, 1-byte records without scores), decompresses it and compresses
 * it again as dbstore_write does (one context, parameters set once,
 * ZSTD_compress2) with zstd level LEVEL and ZSTD_c_minMatch MIN_MATCH (0:
 * the level's default). Prints one line: blocks (all-zero ones are stored
 * as nothing and skipped, as the writer does; constant non-zero ones are
 * counted), raw bytes, the bytes the file holds for those blocks, the bytes
 * of the new compression and the CPU seconds spent in it. Instruction
 * counts come from running it under callgrind with
 * --toggle-collect=compress_block (the script does).
 *
 * Cost: one file in memory at a time (its compressed size), 4 KiB a block
 * otherwise. Not part of the solver: a measurement tool, built by the
 * script with the system's libzstd.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zstd.h>

static uint32_t get32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const unsigned char *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Not inlined: callgrind counts the instructions under this name. */
__attribute__((noinline)) size_t compress_block(ZSTD_CCtx *c, void *out, size_t cap,
                                                const void *src, size_t n) {
    return ZSTD_compress2(c, out, cap, src, n);
}

static unsigned char *slurp(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    unsigned char *b = NULL;
    long n = -1;
    if (f != NULL && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 512 &&
        fseek(f, 0, SEEK_SET) == 0 && (b = malloc((size_t)n)) != NULL &&
        fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    if (f != NULL) {
        fclose(f);
    }
    *size = (size_t)n;
    return b;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: db_recompress LEVEL MIN_MATCH STRIDE FILE.gmdb...\n");
        return 2;
    }
    int level = atoi(argv[1]), min_match = atoi(argv[2]);
    long stride = atol(argv[3]);
    ZSTD_CCtx *c = ZSTD_createCCtx();
    ZSTD_DCtx *d = ZSTD_createDCtx();
    if (c == NULL || d == NULL || stride < 1 ||
        ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_minMatch, min_match))) {
        fprintf(stderr, "db_recompress: bad parameters (level %d, min match %d, stride %ld)\n",
                level, min_match, stride);
        return 2;
    }
    static unsigned char raw[65536], out[65536 + 1024];
    uint64_t zero = 0, constant = 0, compressed = 0, raw_bytes = 0, old_bytes = 0, new_bytes = 0;
    double seconds = 0;
    for (int a = 4; a < argc; a++) {
        size_t size;
        unsigned char *b = slurp(argv[a], &size);
        if (b == NULL || memcmp(b, "GMDBSTOR", 8) != 0) {
            fprintf(stderr, "db_recompress: cannot read %s as a database record file\n", argv[a]);
            return 5;
        }
        uint64_t records = get64(b + 32), blocks = get64(b + 56), index = get64(b + 64);
        uint32_t width = get32(b + 24), br = get32(b + 48);
        if (width != 1 || get32(b + 28) != 0 || br == 0 || br > sizeof raw ||
            index + blocks * 8 != size) {
            fprintf(stderr, "db_recompress: %s: only 1-byte records without scores\n", argv[a]);
            return 5;
        }
        uint64_t off = 512;
        for (uint64_t k = 0; k < blocks; k++) {
            uint32_t cs = get32(b + index + 8 * k);
            uint64_t n = records - k * br < br ? records - k * br : br;
            uint64_t at = off;
            off += cs;
            if (k % (uint64_t)stride != 0) {
                continue;
            }
            raw_bytes += n;
            old_bytes += cs;
            if (cs == 0) {
                zero++;
                continue;
            }
            if (at + cs > index || ZSTD_decompressDCtx(d, raw, sizeof raw, b + at, cs) != n) {
                fprintf(stderr, "db_recompress: %s: block %llu is corrupt\n", argv[a],
                        (unsigned long long)k);
                return 5;
            }
            uint64_t i = 1;
            while (i < n && raw[i] == raw[0]) {
                i++;
            }
            constant += i == n;
            double t0 = cpu_seconds();
            size_t r = compress_block(c, out, sizeof out, raw, (size_t)n);
            seconds += cpu_seconds() - t0;
            if (ZSTD_isError(r)) {
                fprintf(stderr, "db_recompress: zstd: %s\n", ZSTD_getErrorName(r));
                return 6;
            }
            compressed++;
            new_bytes += r;
        }
        free(b);
    }
    printf("level %d min_match %d: blocks %llu zero, %llu constant non-zero, %llu compressed; "
           "raw %llu bytes, stored %llu, recompressed %llu (%+.1f%%); %.3f CPU s\n",
           level, min_match, (unsigned long long)zero, (unsigned long long)constant,
           (unsigned long long)compressed, (unsigned long long)raw_bytes,
           (unsigned long long)old_bytes, (unsigned long long)new_bytes,
           old_bytes ? 100.0 * ((double)new_bytes - (double)old_bytes) / (double)old_bytes : 0.0,
           seconds);
    ZSTD_freeCCtx(c);
    ZSTD_freeDCtx(d);
    return 0;
}
