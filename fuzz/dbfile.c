/* fuzz/dbfile.c: fuzz target of the record-file reader (core/dbstore.h:
 * header, block index, dictionary, blocks).
 *
 * Input: one mode byte, then the bytes of a record file. Bit 0 of the mode
 * repairs the file's checksums first (fuzz_fix_record_file), so that the
 * checks behind them are reached as by a crafted file with valid ones.
 * Bits 1 and 2 pick the way the blocks are read: 0 by pread
 * (dbstore_file_open), 1 mapped (dbstore_file_open_mapped: the index and
 * the frames read in the mapping), 2 or 3 lean (dbstore_file_open_lean:
 * no index held, the dictionary made through a one-slot DbStoreDicts);
 * every way must accept or refuse the file alike.
 * The bytes are written as f.gmdb in a scratch directory (tmpfs) and read
 * as a caller with a matching manifest would: the expected DbStoreInfo is
 * taken from the header itself (kind, spec, index, count, winby, records,
 * first; the width when it is 1, 2 or 8, the widths callers expect), so
 * every header such a caller accepts is reached. Then
 *   dbstore_file_open, every block by dbstore_block_read (into a buffer of
 *   exactly dbstore_block_bytes; over 256 MiB of records, the first, the
 *   middle and the last block only, as a query would), and, for files of
 *   at most 16 MiB of records, dbstore_read of the whole file, whose
 *   records must equal the blocks read one by one.
 * Findings: a sanitizer report, the ways of opening disagreeing, or
 * the whole-file read (by pread) disagreeing with the blocks. Bounds: the reader is trusted to
 * refuse a block layout larger than its file; a block buffer is at most 64 MiB (the reader's own
 * limit on a block's raw bytes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dbstore.h"
#include "core/le.h"
#include "fuzz/fuzz.h"

#define WHOLE_MAX (UINT64_C(16) << 20)
#define SPARSE_OVER (UINT64_C(256) << 20)

static void expect_from(const unsigned char *b, size_t n, DbStoreInfo *e) {
    memset(e, 0, sizeof *e);
    if (n < DBSTORE_HEADER_BYTES) {
        return;
    }
    e->kind = (DbStoreKind)le_get32(b + 12);
    e->index = (int32_t)le_get32(b + 16);
    e->count = (int32_t)le_get32(b + 20);
    /* Callers expect records of 1 or 2 bytes, or bitmap words of 8 (the
     * manifest's width, the reach file's): another width in the header is
     * refused as a mismatch, as they would refuse it, not read (a width of
     * thousands would make every block megabytes of zeros to fill). */
    uint32_t width = le_get32(b + 24);
    e->width = width == 1 || width == 2 || width == 8 ? width : 1;
    e->winby = le_get32(b + 28) != 0;
    e->records = le_get64(b + 32);
    e->first = le_get64(b + 40);
    memcpy(e->spec, b + 88, DBSTORE_SPEC_MAX);
    e->spec[DBSTORE_SPEC_MAX - 1] = '\0';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) {
        return 0;
    }
    const char *dir = fuzz_scratch();
    size_t n = size - 1;
    unsigned char *b = malloc(n + 1);
    FUZZ_CHECK(b != NULL, "out of memory");
    memcpy(b, data + 1, n);
    if (data[0] & 1) {
        fuzz_fix_record_file(b, n);
    }
    fuzz_write(dir, "f.gmdb", b, n);
    DbStoreInfo expect;
    expect_from(b, n, &expect);
    free(b);

    DbDir d;
    Error err = {0};
    FUZZ_CHECK(dbstore_dir_open(dir, false, &d, &err) == ERR_OK, "%s", err.msg);
    static const char *const names[3] = {"by pread", "mapped", "lean"};
    int way = (data[0] >> 1 & 3) > 2 ? 2 : data[0] >> 1 & 3;
    DbStoreFile f;
    ErrCode rc = ERR_OK;
    for (int w = 0; w < 3; w++) {
        DbStoreFile g;
        Error e = {0};
        ErrCode wrc = w == 0   ? dbstore_file_open(&d, "f.gmdb", &expect, &g, &e)
                      : w == 1 ? dbstore_file_open_mapped(&d, "f.gmdb", &expect, &g, &e)
                               : dbstore_file_open_lean(&d, "f.gmdb", &expect, &g, &e);
        if (w > 0) {
            FUZZ_CHECK(wrc == rc, "opened %s: %d (%s); by pread: %d (%s)", names[w], (int)wrc,
                       e.msg, (int)rc, err.msg);
        }
        if (w == 0) {
            rc = wrc;
            err = e;
        }
        if (w == way && wrc == ERR_OK) {
            f = g;
        } else if (wrc == ERR_OK) {
            dbstore_file_close(&g);
        }
    }
    if (rc != ERR_OK) {
        dbstore_dir_close(&d);
        return 0;
    }
    void *ctx = dbstore_dctx_new();
    FUZZ_CHECK(ctx != NULL, "out of memory");
    DbStoreDicts dicts = {.slots = 1};
    uint64_t total = 0;
    bool all_ok = true;
    for (uint64_t k = 0; k < f.blocks; k++) {
        total += dbstore_block_bytes(&f, k);
    }
    unsigned char *blocks = total <= WHOLE_MAX ? malloc((size_t)total + 1) : NULL;
    uint64_t at = 0;
    for (uint64_t k = 0; k < f.blocks; k++) {
        uint64_t bytes = dbstore_block_bytes(&f, k);
        if (total > SPARSE_OVER && k != 0 && k != f.blocks / 2 && k != f.blocks - 1) {
            continue; /* a large file: its first, middle and last blocks */
        }
        FUZZ_CHECK(bytes <= (UINT64_C(1) << 26), "block %llu of %llu bytes", (unsigned long long)k,
                   (unsigned long long)bytes);
        unsigned char *out = blocks != NULL ? blocks + at : malloc((size_t)bytes + 1);
        FUZZ_CHECK(out != NULL, "out of memory");
        const void *dd = NULL;
        all_ok = dbstore_dicts_get(&dicts, &f, 0, &dd, &err) == ERR_OK &&
                 dbstore_block_read_dict(&f, k, ctx, dd, out, &err) == ERR_OK && all_ok;
        if (blocks == NULL) {
            free(out);
        }
        at += bytes;
    }
    dbstore_dicts_free(&dicts);
    dbstore_dctx_free(ctx);
    DbStoreInfo info = f.info;
    dbstore_file_close(&f);

    /* The whole-file read: the same records as the blocks, record bytes
     * first, then the scores (each block holds its records, then its
     * scores). */
    uint64_t rec_bytes = info.records * (uint64_t)info.width;
    if (blocks != NULL && all_ok && info.width > 0 && info.records <= WHOLE_MAX &&
        rec_bytes <= WHOLE_MAX) {
        unsigned char *records = malloc((size_t)rec_bytes + 1);
        int16_t *winby = info.winby ? malloc((size_t)info.records * 2 + 1) : NULL;
        FUZZ_CHECK(records != NULL && (!info.winby || winby != NULL), "out of memory");
        bool found = false;
        ErrCode rc =
            dbstore_read(&d, "f.gmdb", &expect, records, winby, 1, &found, NULL, NULL, &err);
        FUZZ_CHECK(rc == ERR_OK && found, "dbstore_read refuses a file whose blocks all read: %s",
                   err.msg);
        uint64_t per = 0, r0 = 0;
        at = 0;
        DbStoreFile g;
        FUZZ_CHECK(dbstore_file_open(&d, "f.gmdb", &expect, &g, &err) == ERR_OK, "%s", err.msg);
        per = g.block_records;
        for (uint64_t k = 0; k < g.blocks; k++, r0 += per) {
            uint64_t m = info.records - r0 < per ? info.records - r0 : per;
            FUZZ_CHECK(
                memcmp(records + r0 * info.width, blocks + at, (size_t)(m * info.width)) == 0,
                "block %llu: dbstore_read and dbstore_block_read differ", (unsigned long long)k);
            if (info.winby) {
                FUZZ_CHECK(memcmp((unsigned char *)winby + r0 * 2, blocks + at + m * info.width,
                                  (size_t)m * 2) == 0,
                           "block %llu: the scores differ", (unsigned long long)k);
            }
            at += dbstore_block_bytes(&g, k);
        }
        dbstore_file_close(&g);
        free(records);
        free(winby);
    }
    free(blocks);
    dbstore_dir_close(&d);
    return 0;
}
