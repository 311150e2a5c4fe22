/* bench/db_recompress.c: what other zstd parameters would make of a
 * database's blocks (docs/database.md, scripts/measure/db-zstd-params.sh).
 *
 *     db_recompress [--huf-literals|--raw-literals] [--dict BYTES]
 *                   [--packed|--packed-bmi2] LEVEL MIN_MATCH STRIDE FILE.gmdb...
 *
 * Streams every STRIDE-th block of each record file (core/dbstore.h's
 * format 1 or 2, 1-byte records without scores; a file's own dictionary
 * is used to read its blocks), decompresses it and compresses it again as
 * dbstore_write does (one context, parameters set once, ZSTD_compress2,
 * no dictionary ID in the frames) with zstd level LEVEL and
 * ZSTD_c_minMatch MIN_MATCH (0: the level's default). Prints one line:
 * blocks (all-zero ones are stored as nothing and skipped, as the writer
 * does; constant non-zero ones are counted), raw bytes, the bytes the file
 * holds for those blocks, the bytes of the new compression and the CPU
 * seconds spent in it, and the dictionaries' bytes (the files' own, and
 * the new ones). Instruction counts come from running it under callgrind
 * with --toggle-collect=compress_block (the script does).
 *
 * --dict BYTES: every file of 256 blocks or more gets its own dictionary
 * of at most BYTES, made as the writer makes it (make_dict), and its
 * blocks are compressed with it (the time to make it is printed apart).
 * --huf-literals / --raw-literals: ZSTD_c_literalCompressionMode on / off
 * (negative levels store literals raw by default).
 *
 * --packed: each block is first packed as a bitmap of its non-zero
 * (reached) records, one bit a record, followed by only those records,
 * and the packed bytes are compressed; compress_block then counts the
 * packing too. Every recompressed block is decompressed again (and, with
 * --packed, unpacked) by decompress_block and compared with the original
 * records: callgrind --toggle-collect=decompress_block counts a reader's
 * instructions.
 *
 * Cost: one file in memory at a time (its compressed size), 4 KiB a block
 * otherwise. Not part of the solver: a measurement tool, built by the
 * script with the system's libzstd.
 */
#define _POSIX_C_SOURCE 200809L
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_c_literalCompressionMode (--raw-literals) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#define ZDICT_STATIC_LINKING_ONLY /* ZDICT_trainFromBuffer_fastCover (--dict) */
#include <zdict.h>
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

/* Packs n records (n <= 65536): a bitmap of the non-zero ones (bit i%8 of
 * byte i/8), then the non-zero records in order. Returns the packed
 * bytes. O(n / 8 + non-zero records). */
static size_t pack(const unsigned char *src, size_t n, unsigned char *dst) {
    size_t mb = (n + 7) / 8;
    unsigned char *p = dst + mb;
    for (size_t i = 0; i < n; i += 8) {
        uint64_t w = 0;
        memcpy(&w, src + i, n - i < 8 ? n - i : 8);
        w |= w >> 4;
        w |= w >> 2;
        w |= w >> 1;
        w &= UINT64_C(0x0101010101010101);
        unsigned m = (unsigned)((w * UINT64_C(0x0102040810204080)) >> 56);
        dst[i / 8] = (unsigned char)m;
        while (m != 0) {
            *p++ = src[i + (unsigned)__builtin_ctz(m)];
            m &= m - 1;
        }
    }
    return (size_t)(p - dst);
}

/* The inverse of pack: n records from `len` packed bytes, or 0 when they
 * are not a packing of n records. */
static size_t unpack(const unsigned char *src, size_t len, size_t n, unsigned char *dst) {
    size_t mb = (n + 7) / 8;
    if (len < mb) {
        return 0;
    }
    const unsigned char *p = src + mb, *end = src + len;
    memset(dst, 0, n);
    for (size_t i = 0; i < mb; i++) {
        unsigned m = src[i];
        if ((size_t)__builtin_popcount(m) > (size_t)(end - p) ||
            (i * 8 + 8 > n && (m >> (n - i * 8)) != 0)) {
            return 0;
        }
        while (m != 0) {
            dst[i * 8 + (unsigned)__builtin_ctz(m)] = *p++;
            m &= m - 1;
        }
    }
    return p == end ? n : 0;
}

#if defined(__x86_64__)
#include <immintrin.h>
/* pack and unpack with BMI2's pext/pdep: 8 records a step, no loop over
 * the non-zero ones. O(n / 8). */
__attribute__((target("bmi2,popcnt"))) static size_t pack_bmi2(const unsigned char *src, size_t n,
                                                               unsigned char *dst) {
    size_t mb = (n + 7) / 8;
    unsigned char *p = dst + mb;
    const uint64_t lo = UINT64_C(0x0101010101010101);
    for (size_t i = 0; i < n; i += 8) {
        uint64_t w = 0;
        if (i + 8 <= n) {
            memcpy(&w, src + i, 8);
        } else {
            memcpy(&w, src + i, n - i);
        }
        uint64_t t = w | w >> 4;
        t |= t >> 2;
        t |= t >> 1;
        t &= lo;
        dst[i / 8] = (unsigned char)_pext_u64(t, lo);
        uint64_t v = _pext_u64(w, t * 0xff);
        memcpy(p, &v, 8); /* dst has 8 bytes of slack */
        p += _mm_popcnt_u64(t);
    }
    return (size_t)(p - dst);
}

__attribute__((target("bmi2,popcnt"))) static size_t
unpack_bmi2(const unsigned char *src, size_t len, size_t n, unsigned char *dst) {
    size_t mb = (n + 7) / 8;
    if (len < mb || (n % 8 != 0 && (src[mb - 1] >> (n % 8)) != 0)) {
        return 0;
    }
    const uint64_t lo = UINT64_C(0x0101010101010101);
    size_t at = mb;
    for (size_t i = 0; i < n; i += 8) {
        uint64_t t = _pdep_u64(src[i / 8], lo);
        unsigned k = (unsigned)_mm_popcnt_u64(t);
        if (at + k > len) {
            return 0;
        }
        uint64_t v;
        memcpy(&v, src + at, 8); /* src has 8 bytes of slack; the bytes past k are masked */
        v = _pdep_u64(v, t * 0xff);
        if (i + 8 <= n) {
            memcpy(dst + i, &v, 8);
        } else {
            memcpy(dst + i, &v, n - i);
        }
        at += k;
    }
    return at == len ? n : 0;
}
#endif

static int packed, bmi2;

/* Not inlined: callgrind counts the instructions under this name. */
__attribute__((noinline)) size_t compress_block(ZSTD_CCtx *c, void *out, size_t cap,
                                                const void *src, size_t n) {
    if (packed) {
        static unsigned char buf[65536 + 8192 + 8];
#if defined(__x86_64__)
        if (bmi2) {
            return ZSTD_compress2(c, out, cap, buf, pack_bmi2(src, n, buf));
        }
#endif
        return ZSTD_compress2(c, out, cap, buf, pack(src, n, buf));
    }
    return ZSTD_compress2(c, out, cap, src, n);
}

/* Decompresses (and unpacks) one recompressed block: n records, or 0. */
__attribute__((noinline)) size_t decompress_block(ZSTD_DCtx *d, void *out, size_t n,
                                                  const void *src, size_t len) {
    if (packed) {
        static unsigned char buf[65536 + 8192];
        size_t got = ZSTD_decompressDCtx(d, buf, sizeof buf, src, len);
#if defined(__x86_64__)
        if (bmi2) {
            return ZSTD_isError(got) ? 0 : unpack_bmi2(buf, got, n, out);
        }
#endif
        return ZSTD_isError(got) ? 0 : unpack(buf, got, n, out);
    }
    size_t got = ZSTD_decompressDCtx(d, out, n, src, len);
    return ZSTD_isError(got) ? 0 : got;
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

/* Frame k of a file in b: its compressed bytes at *at (first block at
 * 512 + the dictionary's bytes, core/dbstore.h), 0 for an all-zero one. */
static uint32_t frame_of(const unsigned char *b, uint64_t k, uint64_t *at) {
    uint64_t index = get64(b + 64);
    uint32_t cs = get32(b + index + 8 * k);
    *at = *at + cs;
    return cs;
}

/* --dict BYTES: the file's own dictionary of at most BYTES, made as
 * core/dbstore.c's dbstore_dict_make does (DBSTORE_DICT_SAMPLES = 64
 * blocks spread evenly over the file, all-zero ones skipped; the last
 * BYTES / 2 bytes of the sample as content; ZDICT_finalizeDictionary at
 * `level`), or with $DICT_METHOD=train (ZDICT_trainFromBuffer's defaults)
 * or fastcover (ZDICT_trainFromBuffer_fastCover, k 64, d 8, f 18,
 * accel 4) from the same sample; loaded into c and d2 (the recompressed
 * blocks' decompressor). d decompresses the file's own blocks. */
static int make_dict(const unsigned char *b, uint64_t data0, size_t dict_bytes, int level,
                     ZSTD_CCtx *c, ZSTD_DCtx *d, ZSTD_DCtx *d2, size_t *dict_size,
                     double *seconds) {
    uint64_t records = get64(b + 32), blocks = get64(b + 56);
    uint32_t br = get32(b + 48);
    static unsigned char samples[64 * 65536];
    size_t sizes[64], used = 0;
    unsigned n = 0;
    uint64_t at = data0, k = 0;
    for (unsigned i = 0; i < 64; i++) {
        uint64_t want = i * blocks / 64, from = 0;
        for (; k <= want; k++) {
            from = at;
            frame_of(b, k, &at);
        }
        uint32_t cs = (uint32_t)(at - from);
        uint64_t len = records - want * br < br ? records - want * br : br;
        if (cs == 0) {
            continue;
        }
        if (ZSTD_decompressDCtx(d, samples + used, len, b + from, cs) != len) {
            return 5;
        }
        sizes[n++] = len;
        used += len;
    }
    void *dict = malloc(dict_bytes);
    if (dict == NULL || n < 8) {
        free(dict);
        return 5;
    }
    double t0 = cpu_seconds();
    const char *method = getenv("DICT_METHOD");
    size_t got;
    if (method != NULL && strcmp(method, "fastcover") == 0) {
        ZDICT_fastCover_params_t p;
        memset(&p, 0, sizeof p);
        p.k = 64;
        p.d = 8;
        p.f = 18;
        p.steps = 1;
        p.splitPoint = 1.0;
        p.accel = 4;
        p.zParams.compressionLevel = level;
        got = ZDICT_trainFromBuffer_fastCover(dict, dict_bytes, samples, sizes, n, p);
    } else if (method != NULL && strcmp(method, "train") == 0) {
        got = ZDICT_trainFromBuffer(dict, dict_bytes, samples, sizes, n);
    } else {
        ZDICT_params_t p;
        memset(&p, 0, sizeof p);
        p.compressionLevel = level;
        size_t content = used < dict_bytes / 2 ? used : dict_bytes / 2;
        got = ZDICT_finalizeDictionary(dict, dict_bytes, samples + used - content, content, samples,
                                       sizes, n, p);
    }
    *seconds += cpu_seconds() - t0;
    if (ZDICT_isError(got) || ZSTD_isError(ZSTD_CCtx_loadDictionary(c, dict, got)) ||
        ZSTD_isError(ZSTD_DCtx_loadDictionary(d2, dict, got))) {
        fprintf(stderr, "db_recompress: dictionary: %s (%u samples, %zu bytes)\n",
                ZDICT_isError(got) ? ZDICT_getErrorName(got) : "cannot load", n, used);
        free(dict);
        return 5;
    }
    *dict_size += got;
    free(dict);
    return 0;
}

int main(int argc, char **argv) {
    int raw_literals = 0, huf_literals = 0;
    if (argc > 1 && strcmp(argv[1], "--huf-literals") == 0) {
        huf_literals = 1;
        argv++;
        argc--;
    }
    if (argc > 1 && strcmp(argv[1], "--raw-literals") == 0) {
        raw_literals = 1;
        argv++;
        argc--;
    }
    size_t dict_bytes = 0;
    if (argc > 2 && strcmp(argv[1], "--dict") == 0) {
        dict_bytes = (size_t)atol(argv[2]);
        argv += 2;
        argc -= 2;
    }
    if (argc > 1 && strcmp(argv[1], "--packed") == 0) {
        packed = 1;
        argv++;
        argc--;
    } else if (argc > 1 && strcmp(argv[1], "--packed-bmi2") == 0) {
#if defined(__x86_64__)
        __builtin_cpu_init();
        packed = bmi2 = __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
#endif
        if (!bmi2) {
            fprintf(stderr, "db_recompress: --packed-bmi2 needs an x86-64 with BMI2\n");
            return 2;
        }
        argv++;
        argc--;
    }
    if (argc < 5) {
        fprintf(stderr, "usage: db_recompress [--huf-literals] [--raw-literals] [--dict BYTES] "
                        "[--packed|--packed-bmi2] LEVEL MIN_MATCH STRIDE FILE.gmdb...\n");
        return 2;
    }
    int level = atoi(argv[1]), min_match = atoi(argv[2]);
    long stride = atol(argv[3]);
    ZSTD_CCtx *c = ZSTD_createCCtx();
    ZSTD_DCtx *d = ZSTD_createDCtx(), *d2 = ZSTD_createDCtx();
    if (c == NULL || d == NULL || d2 == NULL || stride < 1 ||
        ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_dictIDFlag, 0)) ||

        ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_minMatch, min_match)) ||
        (huf_literals &&
         ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_literalCompressionMode, ZSTD_ps_enable))) ||
        (raw_literals &&
         ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_literalCompressionMode, ZSTD_ps_disable)))) {
        fprintf(stderr, "db_recompress: bad parameters (level %d, min match %d, stride %ld)\n",
                level, min_match, stride);
        return 2;
    }
    static unsigned char raw[65536], back[65536], out[65536 + 8192 + 1024];
    double train_seconds = 0;
    size_t dict_size = 0, file_dicts = 0;
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
        uint32_t own_dict = get32(b + 8) >= 2 ? get32(b + 344) : 0;
        if ((width != 1 && (width != 8 || packed)) || get32(b + 28) != 0 || br == 0 ||
            (uint64_t)br * width > sizeof raw || index + blocks * 8 != size || own_dict > 65536 ||
            ZSTD_isError(ZSTD_DCtx_loadDictionary(d, b + 512, own_dict))) {
            fprintf(stderr,
                    "db_recompress: %s: only 1-byte records (or, not packed, the 8-byte words of "
                    "reach.gmdb) without scores\n",
                    argv[a]);
            return 5;
        }
        file_dicts += own_dict;
        if (dict_bytes > 0 && width == 1 && blocks >= 256 &&
            make_dict(b, 512 + own_dict, dict_bytes, level, c, d, d2, &dict_size, &train_seconds) !=
                0) {
            fprintf(stderr, "db_recompress: %s: no dictionary\n", argv[a]);
            return 5;
        } else if (dict_bytes == 0 || width != 1 || blocks < 256) {
            ZSTD_CCtx_loadDictionary(c, NULL, 0);
            ZSTD_DCtx_loadDictionary(d2, NULL, 0);
        }
        uint64_t off = 512 + own_dict;
        for (uint64_t k = 0; k < blocks; k++) {
            uint32_t cs = get32(b + index + 8 * k);
            uint64_t n = (records - k * br < br ? records - k * br : br) * width; /* bytes */
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
            if (decompress_block(d2, back, (size_t)n, out, r) != n || memcmp(back, raw, n) != 0) {
                fprintf(stderr, "db_recompress: %s: block %llu does not round-trip\n", argv[a],
                        (unsigned long long)k);
                return 6;
            }
            compressed++;
            new_bytes += r;
        }
        free(b);
    }
    printf(
        "%s%s%slevel %d min_match %d: blocks %llu zero, %llu constant non-zero, %llu compressed; "
        "raw %llu bytes, stored %llu, recompressed %llu (%+.1f%%); %.3f CPU s; dictionaries: "
        "the files' %zu bytes, new %zu bytes (%.3f CPU s to make)\n",
        raw_literals   ? "raw literals, "
        : huf_literals ? "huffman literals, "
                       : "",
        packed ? "packed " : "", bmi2 ? "(bmi2) " : "", level, min_match, (unsigned long long)zero,
        (unsigned long long)constant, (unsigned long long)compressed, (unsigned long long)raw_bytes,
        (unsigned long long)old_bytes, (unsigned long long)new_bytes,
        old_bytes ? 100.0 * ((double)new_bytes - (double)old_bytes) / (double)old_bytes : 0.0,
        seconds, file_dicts, dict_size, train_seconds);
    ZSTD_freeCCtx(c);
    ZSTD_freeDCtx(d);
    ZSTD_freeDCtx(d2);
    return 0;
}
