/* tests/test_dbstore.c: the record-file reader and the manifest parser
 * (core/dbstore.h) against crafted input with valid checksums (issue 33):
 *
 *   - D4: a tier file whose header says 8192 records a block (blocks,
 *     index and frames all consistent with it) is refused at open by every
 *     reader (dbstore_file_open, dbstore_read, the tier database's
 *     store_verify and store_get), exit-5 class ERR_IO naming the block
 *     size, where store_verify passed it and store_get failed with
 *     ERR_INTERNAL ("a block larger than the cache's");
 *   - range checks: headers whose sizes would wrap (records near 2^64,
 *     blocks * 8 and the index allocation past 2^64, data bytes wrapping
 *     the index offset, a frame larger than zstd makes) are refused at
 *     open, before any allocation or read they size; manifests with a
 *     negative, signed, padded or overflowing number, or files outside the
 *     hash space, are refused;
 *   - a manifest's hexadecimal checksums read as strtoull reads them, and
 *     a manifest of 20,000 files (read into huge pages) entry for entry;
 *   - `partial 1` edited into a complete manifest (which would hide its
 *     missing tiers, counts and root value from --verify) is refused;
 *   - block checksums at every position (mutation testing found only
 *     block 0 of a one-block file corrupted): a byte of a middle block
 *     and of the last block of a many-block file, the last block's index
 *     entry (caught by the index checksum, and, with the index and header
 *     checksums made valid again, by the block's own checksum), each
 *     refused naming the block, by the whole-file read and the block read.
 *
 * The crafted files are made by an encoder of its own (craft_*), written
 * from the layout table of core/dbstore.h, not by the writer under test.
 */
#include "tests/testutil.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "core/dbfile.h"
#include "core/dbstore.h"
#include "core/le.h"
#include "solvers/store.h"

/* ---------------------------------------------------------- the encoder */

/* The header fields (core/dbstore.h's table), as they will be written. */
typedef struct Craft {
    uint32_t version, kind;
    int32_t index, count;
    uint32_t width, winby;
    uint64_t records, first;
    uint32_t br;
    uint64_t blocks, index_off, data_bytes, index_sum;
    const char *spec;
    uint32_t dict_bytes, dict_sum;
} Craft;

static void craft_header(unsigned char *h, const Craft *c) {
    memset(h, 0, DBSTORE_HEADER_BYTES);
    memcpy(h, "GMDBSTOR", 8);
    le_put32(h + 8, c->version);
    le_put32(h + 12, c->kind);
    le_put32(h + 16, (uint32_t)c->index);
    le_put32(h + 20, (uint32_t)c->count);
    le_put32(h + 24, c->width);
    le_put32(h + 28, c->winby);
    le_put64(h + 32, c->records);
    le_put64(h + 40, c->first);
    le_put32(h + 48, c->br);
    le_put32(h + 52, 1);
    le_put64(h + 56, c->blocks);
    le_put64(h + 64, c->index_off);
    le_put64(h + 72, c->data_bytes);
    le_put64(h + 80, c->index_sum);
    snprintf((char *)h + 88, 256, "%s", c->spec);
    le_put32(h + 344, c->dict_bytes);
    le_put32(h + 348, c->dict_sum);
    le_put64(h + 504, dbfile_checksum(0, h, 504));
}

/* Writes the header of c, then body (n bytes), to path. */
static void craft_write(const char *path, const Craft *c, const void *body, size_t n) {
    unsigned char h[DBSTORE_HEADER_BYTES];
    craft_header(h, c);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(h, 1, sizeof h, f), sizeof h);
    if (n > 0) {
        assert_int_equal(fwrite(body, 1, n, f), n);
    }
    assert_int_equal(fclose(f), 0);
}

/* A consistent file of 1-byte records rec[0, records) in blocks of br
 * records (no dictionary, no scores), each block a zstd frame at level 1:
 * its header fields in *c (kind, index, count, spec as given there),
 * written to path. Returns the file's length. */
static uint64_t craft_records(const char *path, Craft *c, const uint8_t *rec, uint64_t records,
                              uint32_t br) {
    uint64_t blocks = (records + br - 1) / br;
    size_t bound = ZSTD_compressBound(br);
    unsigned char *data = malloc((size_t)blocks * bound + 1);
    unsigned char *index = calloc((size_t)blocks + 1, 8);
    assert_true(data != NULL && index != NULL);
    uint64_t used = 0;
    for (uint64_t k = 0; k < blocks; k++) {
        uint64_t n = records - k * br < br ? records - k * br : br;
        size_t z = ZSTD_compress(data + used, bound, rec + k * br, (size_t)n, 1);
        assert_false(ZSTD_isError(z));
        le_put32(index + 8 * k, (uint32_t)z);
        le_put32(index + 8 * k + 4, (uint32_t)dbfile_checksum(0, data + used, z));
        used += z;
    }
    memcpy(data + used, index, (size_t)blocks * 8);
    c->version = DBSTORE_VERSION;
    c->width = 1;
    c->winby = 0;
    c->records = records;
    c->br = br;
    c->blocks = blocks;
    c->data_bytes = used;
    c->index_off = DBSTORE_HEADER_BYTES + used;
    c->index_sum = dbfile_checksum(0, index, blocks * 8);
    craft_write(path, c, data, (size_t)(used + blocks * 8));
    free(data);
    free(index);
    return DBSTORE_HEADER_BYTES + used + blocks * 8;
}

static DbStoreInfo test_info(uint64_t records) {
    DbStoreInfo info = {
        .kind = DBSTORE_RECORDS, .index = 0, .count = 1, .width = 1, .records = records};
    snprintf(info.spec, sizeof info.spec, "test");
    return info;
}

static Craft test_craft(void) {
    return (Craft){.version = DBSTORE_VERSION,
                   .kind = DBSTORE_RECORDS,
                   .index = 0,
                   .count = 1,
                   .width = 1,
                   .spec = "test"};
}

/* Opens DIR/x.gmdb one of three ways: 0 dbstore_file_open, 1 mapped
 * (the index read in the mapping), 2 lean (the index read, checked and
 * let go). */
static ErrCode open_way(const DbDir *d, const DbStoreInfo *expect, int way, DbStoreFile *f,
                        Error *err) {
    return way == 0   ? dbstore_file_open(d, "x.gmdb", expect, f, err)
           : way == 1 ? dbstore_file_open_mapped(d, "x.gmdb", expect, f, err)
                      : dbstore_file_open_lean(d, "x.gmdb", expect, f, err);
}

static const char *const way_name[3] = {"", " mapped", " lean"};

/* DIR/x.gmdb with expect is refused (ERR_IO) with a message holding
 * `part` by each way of opening it (open_way); so is dbstore_read when
 * `read` (its records buffer sized by the caller from expect: only for
 * small expectations). */
static void open_refused(const char *dir, const DbStoreInfo *expect, const char *part, bool read) {
    DbDir d;
    Error err = {0};
    assert_int_equal(dbstore_dir_open(dir, false, &d, &err), ERR_OK);
    for (int way = 0; way < 3; way++) {
        DbStoreFile f;
        err = (Error){0};
        ErrCode rc = open_way(&d, expect, way, &f, &err);
        if (rc == ERR_OK) {
            dbstore_file_close(&f);
        }
        if (rc != ERR_IO || strstr(err.msg, part) == NULL) {
            fail_msg("open%s: expected ERR_IO with '%s', got %d: %s", way_name[way], part, rc,
                     err.msg);
        }
    }
    if (read) {
        uint8_t *rec = malloc((size_t)expect->records + 1);
        assert_non_null(rec);
        bool found = false;
        err = (Error){0};
        ErrCode rc = dbstore_read(&d, "x.gmdb", expect, rec, NULL, 2, &found, NULL, NULL, &err);
        if (rc != ERR_IO || strstr(err.msg, part) == NULL) {
            fail_msg("read: expected ERR_IO with '%s', got %d: %s", part, rc, err.msg);
        }
        free(rec);
    }
    dbstore_dir_close(&d);
}

/* ------------------------------------------------------------------ D4 */

/* Blocks of 8192 one-byte records: consistent, but not this build's
 * layout: refused at open by the file reader and the whole-file read. */
static void d4_file_refused(void **state) {
    (void)state;
    char *dir = test_make_dir("test_dbstore");
    char *path = test_strdupf("%s/x.gmdb", dir);
    uint64_t records = 3 * 8192 + 100;
    uint8_t *rec = malloc(records);
    assert_non_null(rec);
    for (uint64_t i = 0; i < records; i++) {
        rec[i] = (uint8_t)(i % 13 == 0 ? 0 : 64 + i % 50);
    }
    Craft c = test_craft();
    craft_records(path, &c, rec, records, 8192);
    DbStoreInfo info = test_info(records);
    open_refused(dir, &info, "has blocks of 8192 records; this build reads blocks of 4096", true);
    /* The same records in this build's blocks: read back (the encoder is
     * right, so the refusal above is the block size's). */
    craft_records(path, &c, rec, records, 4096);
    DbDir d;
    Error err = {0};
    assert_int_equal(dbstore_dir_open(dir, false, &d, &err), ERR_OK);
    uint8_t *back = malloc(records);
    bool found = false;
    assert_non_null(back);
    if (dbstore_read(&d, "x.gmdb", &info, back, NULL, 2, &found, NULL, NULL, &err) != ERR_OK) {
        fail_msg("a crafted file of 4096-record blocks: %s", err.msg);
    }
    assert_memory_equal(back, rec, records);
    dbstore_dir_close(&d);
    free(back);
    free(rec);
    free(path);
    test_remove_dir(dir);
}

/* The case on a real database: a tier of Connect Four 4x4
 * rewritten in blocks of 8192 records (the manifest updated to match,
 * every checksum valid): --verify and --query both refuse it (ERR_IO),
 * where verify passed and the query failed with ERR_INTERNAL. */
static void d4_database_refused(void **state) {
    (void)state;
    Game *g = test_game("connect4:w=4,h=4");
    char *dir = test_make_dir("test_dbstore");
    SolveResult res;
    Error err = {0};
    if (test_run_tier(g, "", 2, dir, &res, &err) != ERR_OK) {
        fail_msg("tier --db: %s", err.msg);
    }
    solve_result_free(&res);
    int n = g->tiers->count(g), tier = 0;
    for (int t = 0; t < n; t++) {
        tier = g->tiers->size(g, t) > g->tiers->size(g, tier) ? t : tier;
    }
    uint64_t size = g->tiers->size(g, tier);
    assert_true(size > 8192); /* more than one block of either size */
    DbDir d;
    assert_int_equal(dbstore_dir_open(dir, false, &d, &err), ERR_OK);
    DbManifest m;
    bool found = false;
    assert_int_equal(dbstore_manifest_read(&d, &m, &found, &err), ERR_OK);
    assert_true(found);
    assert_int_equal(m.width, 1);
    DbStoreInfo info = {.kind = DBSTORE_RECORDS,
                        .index = tier,
                        .count = n,
                        .width = 1,
                        .winby = false,
                        .records = size};
    snprintf(info.spec, sizeof info.spec, "%s", m.spec);
    uint8_t *rec = malloc(size);
    assert_non_null(rec);
    assert_int_equal(
        dbstore_read(&d, m.files[tier].name, &info, rec, NULL, 1, &found, NULL, NULL, &err),
        ERR_OK);
    char *path = test_strdupf("%s/%s", dir, m.files[tier].name);
    Craft c = {.kind = DBSTORE_RECORDS, .index = tier, .count = n, .spec = m.spec};
    m.files[tier].bytes = craft_records(path, &c, rec, size, 8192);
    unsigned char h[DBSTORE_HEADER_BYTES];
    craft_header(h, &c);
    m.files[tier].header_sum = le_get64(h + 504);
    assert_int_equal(dbstore_manifest_write(&d, &m, &err), ERR_OK);
    dbstore_manifest_free(&m);
    dbstore_dir_close(&d);
    const char *want = "has blocks of 8192 records";
    Store st;
    assert_int_equal(store_open(g, dir, &st, &err), ERR_OK);
    uint64_t checked = 0;
    ErrCode rc = store_verify(&st, 2, false, &checked, &err);
    store_close(&st);
    if (rc != ERR_IO || strstr(err.msg, want) == NULL) {
        fail_msg("verify: expected ERR_IO with '%s', got %d: %s", want, rc, err.msg);
    }
    /* A position of that tier, queried: refused the same way. */
    Position p = game_canonical(g, g->tiers->first != NULL ? g->tiers->first(g, tier) + size - 1
                                                           : g->tiers->position_at(g, tier, 0));
    assert_int_equal(store_open(g, dir, &st, &err), ERR_OK);
    uint32_t raw;
    WinBy w;
    err = (Error){0};
    rc = ERR_OK;
    for (uint64_t i = 0; i < size && rc == ERR_OK; i++) {
        p = g->tiers->first != NULL ? g->tiers->first(g, tier) + i
                                    : g->tiers->position_at(g, tier, i);
        rc = store_get(&st, p, &raw, &w, &err);
    }
    store_close(&st);
    if (rc != ERR_IO || strstr(err.msg, want) == NULL) {
        fail_msg("query: expected ERR_IO with '%s', got %d: %s", want, rc, err.msg);
    }
    free(path);
    free(rec);
    test_remove_dir(dir);
    game_destroy(g);
}

/* -------------------------------------------------------- range checks */

/* Headers whose sizes wrap, each with a valid header checksum. */
static void wrapping_headers_refused(void **state) {
    (void)state;
    char *dir = test_make_dir("test_dbstore");
    char *path = test_strdupf("%s/x.gmdb", dir);
    unsigned char zeros[64] = {0};
    /* records 2^64 - 1: (records + 4095) / 4096 wraps to 0 blocks, so a
     * bare header was self-consistent. */
    Craft c = test_craft();
    c.records = UINT64_MAX;
    c.br = 4096;
    c.blocks = 0;
    c.index_off = DBSTORE_HEADER_BYTES;
    c.index_sum = dbfile_checksum(0, zeros, 0);
    craft_write(path, &c, NULL, 0);
    DbStoreInfo info = test_info(UINT64_MAX);
    open_refused(dir, &info, "impossible record layout", false);
    /* records 2^62: 2^50 blocks of index in a file of 520 bytes. */
    c.records = UINT64_C(1) << 62;
    c.blocks = c.records / 4096;
    craft_write(path, &c, zeros, 8);
    info = test_info(c.records);
    open_refused(dir, &info, "is truncated", false);
    /* One record a block (as a build with 1-byte blocks would write):
     * 2^61 + 1 blocks, whose index (blocks * 8) wraps to 8 bytes and whose
     * slab (blocks * 16 + 8) to 24: the heap overflow of an index loop of
     * 2^61 entries, before the block size was checked. */
    c.records = c.blocks = (UINT64_C(1) << 61) + 1;
    c.br = 1;
    c.index_sum = dbfile_checksum(0, zeros, 8);
    craft_write(path, &c, zeros, 8);
    info = test_info(c.records);
    open_refused(dir, &info, "has blocks of 1 records", false);
    /* Data bytes that wrap the index offset (512 + data = 511): one
     * block of 10 records, its index entry the file's last 8 bytes. */
    c = test_craft();
    c.records = 10;
    c.br = 4096;
    c.blocks = 1;
    c.data_bytes = UINT64_MAX;
    c.index_off = DBSTORE_HEADER_BYTES - 1;
    c.index_sum = dbfile_checksum(0, zeros, 8);
    craft_write(path, &c, zeros, 7);
    info = test_info(10);
    open_refused(dir, &info, "is truncated", true);
    /* A frame longer than zstd makes of a block (8000 bytes for 10
     * records), its checksum and the sizes right. */
    unsigned char *body = calloc(8000 + 8, 1);
    assert_non_null(body);
    le_put32(body + 8000, 8000);
    le_put32(body + 8004, (uint32_t)dbfile_checksum(0, body, 8000));
    c.data_bytes = 8000;
    c.index_off = DBSTORE_HEADER_BYTES + 8000;
    c.index_sum = dbfile_checksum(0, body + 8000, 8);
    craft_write(path, &c, body, 8008);
    open_refused(dir, &info, "a block larger than zstd makes", true);
    free(body);
    free(path);
    test_remove_dir(dir);
}

/* Writes text plus its checksum line as DIR/manifest. */
static void write_manifest(const char *dir, const char *text) {
    char *path = test_strdupf("%s/manifest", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fprintf(f, "%schecksum %016" PRIx64 "\n", text, dbfile_checksum(0, text, strlen(text)));
    assert_int_equal(fclose(f), 0);
    free(path);
}

/* Reads DIR/manifest; when it is read and `sum` is not NULL, its first
 * file's header_sum goes there. */
static ErrCode read_manifest_sum(const char *dir, uint64_t *sum, Error *err) {
    DbDir d;
    assert_int_equal(dbstore_dir_open(dir, false, &d, err), ERR_OK);
    DbManifest m;
    bool found = false;
    ErrCode rc = dbstore_manifest_read(&d, &m, &found, err);
    assert_true(found);
    if (rc == ERR_OK) {
        if (sum != NULL) {
            assert_true(m.nfiles >= 1);
            *sum = m.files[0].header_sum;
        }
        dbstore_manifest_free(&m);
    }
    dbstore_dir_close(&d);
    return rc;
}

static ErrCode read_manifest(const char *dir, Error *err) {
    return read_manifest_sum(dir, NULL, err);
}

/* Manifests with valid checksums and one bad number or range each. */
static void crafted_manifests_refused(void **state) {
    (void)state;
    char *dir = test_make_dir("test_dbstore");
    const char *head = "format 2\nspec test\nsolver dfs\nlayout slots\nhash_space 1000\n"
                       "width 1\nwinby 0\nloopy 0\npositions 5\n";
    const char *tail = "complete 1\n";
    const struct {
        const char *lines, *why;
    } cases[] = {
        {"files 1\nfile slots-0000.gmdb 0 1000 0 600 00000000000000ff\n", NULL},
        {"files 1\nfile slots-0000.gmdb 0 -1 0 600 00000000000000ff\n", "cannot be read"},
        {"files 1\nfile slots-0000.gmdb 0 +1000 0 600 00000000000000ff\n", "cannot be read"},
        {"files 1\nfile slots-0000.gmdb 0 18446744073709551616 0 600 00000000000000ff\n",
         "cannot be read"},
        {"files 1\nfile slots-0000.gmdb 0 18446744073709551615 1 600 00000000000000ff\n",
         "cannot be read"},
        {"files 1\nfile slots-0000.gmdb 0 1001 0 600 00000000000000ff\n", "outside the hash space"},
        {"files 1\nfile slots-0000.gmdb 0 1000 1 600 00000000000000ff\n", "outside the hash space"},
        {"files 1\nfile slots-0000.gmdb 0 1000 0 600 00000000000000ff junk\n", "cannot be read"},
        {"files 1\nfile slots-0000.gmdb 0  1000 0 600 00000000000000ff\n", "cannot be read"},
        {"files 1\nfile slots-0000.gmdb 2147483648 1000 0 600 00000000000000ff\n",
         "cannot be read"},
        {"files 1\nfile slots-0000.gmdb 0 1000 0 100 00000000000000ff\n", "cannot be read"},
        {"files 1\nfile slots-0000.gmdb 0 1000 0 600 1ff00000000000000ff\n", "cannot be read"},
        {"files 1\nfile slots-0000.gmdb 0 1000 0 600 00000000000000fg\n", "cannot be read"},
        {"files 1\nfile slots-0000.gmdb 0 1000 0 600 0x000000000000ff\n", "cannot be read"},
        {"files 1\nfile slots-0000.gmdb 0 1000 0 600 0123456789abcdef0\n", "cannot be read"},
        {"files 1\nfile slots-0000.gmdb 0 1000 0 600 -ff\n", "cannot be read"},
        {"files 1\nfile slots-0000.gmdb 0 1000 0 600 \n", "cannot be read"},
        {"files -1\n", "cannot be read"},
        {"files 4294967297\n", "cannot be read"},
        {"files 1\nfile slots-0000.gmdb 0 1000 0 600 00000000000000ff\nwinby 2\n",
         "cannot be read"},
        {"files 1\nfile slots-0000.gmdb 0 1000 0 600 00000000000000ff\nwidth 4294967297\n",
         "cannot be read"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = test_strdupf("%s%s%s", head, cases[i].lines, tail);
        write_manifest(dir, text);
        Error err = {0};
        ErrCode rc = read_manifest(dir, &err);
        if (cases[i].why == NULL ? rc != ERR_OK
                                 : rc != ERR_IO || strstr(err.msg, cases[i].why) == NULL) {
            fail_msg("manifest case %zu (%s): got %d: %s", i, cases[i].lines, rc, err.msg);
        }
        free(text);
    }
    /* A file's header checksum: 1 to 16 hexadecimal digits of either case,
     * read as the number strtoull(3) makes of them. */
    const char *sums[] = {
        "0", "f", "0123456789abcdef", "FEDCBA9876543210", "ffffffffffffffff", "aBcDeF0918273645",
        "7"};
    for (size_t i = 0; i < sizeof sums / sizeof sums[0]; i++) {
        char *text = test_strdupf("%sfiles 1\nfile slots-0000.gmdb 0 1000 0 600 %s\n%s", head,
                                  sums[i], tail);
        write_manifest(dir, text);
        Error err = {0};
        uint64_t got = 0;
        assert_int_equal(read_manifest_sum(dir, &got, &err), ERR_OK);
        assert_true(got == strtoull(sums[i], NULL, 16));
        free(text);
    }
    test_remove_dir(dir);
}

/* A manifest of 20,000 files (1.2 MB, 2.1 MB of entries: both read into
 * huge pages, mem_alloc_big) is read entry for entry as written here. */
static void large_manifest_read(void **state) {
    (void)state;
    char *dir = test_make_dir("test_dbstore");
    enum { N = 20000 };
    size_t cap = (size_t)N * 80 + 4096, n = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    n += (size_t)snprintf(text + n, cap - n,
                          "format 2\nspec test\nsolver dfs\nlayout slots\nhash_space %d\n"
                          "width 1\nwinby 0\nloopy 0\npositions 5\nfiles %d\n",
                          N * 1000, N);
    uint64_t x = 0x9e3779b97f4a7c15;
    for (int k = 0; k < N; k++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        n += (size_t)snprintf(text + n, cap - n,
                              "file slots-%05d.gmdb %d 1000 %d %d %016" PRIx64 "\n", k, k, k * 1000,
                              600 + k % 977, x);
    }
    n += (size_t)snprintf(text + n, cap - n, "complete 1\n");
    assert_true(n > ((size_t)1 << 20) && n < cap);
    write_manifest(dir, text);
    DbDir d;
    Error err = {0};
    assert_int_equal(dbstore_dir_open(dir, false, &d, &err), ERR_OK);
    DbManifest m;
    bool found = false;
    assert_int_equal(dbstore_manifest_read(&d, &m, &found, &err), ERR_OK);
    assert_int_equal(m.nfiles, N);
    x = 0x9e3779b97f4a7c15;
    for (int k = 0; k < N; k++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        const DbManifestFile *f = &m.files[k];
        char name[32];
        snprintf(name, sizeof name, "slots-%05d.gmdb", k);
        if (strcmp(f->name, name) != 0 || f->index != k || f->records != 1000 ||
            f->first != (uint64_t)k * 1000 || f->bytes != (uint64_t)(600 + k % 977) ||
            f->header_sum != x) {
            fail_msg("entry %d read as %s %d %" PRIu64 " %" PRIu64 " %" PRIu64 " %016" PRIx64, k,
                     f->name, f->index, f->records, f->first, f->bytes, f->header_sum);
        }
    }
    dbstore_manifest_free(&m);
    dbstore_dir_close(&d);
    free(text);
    test_remove_dir(dir);
}

/* `partial 1` edited into a complete manifest (checksum valid): refused,
 * whether `complete 1` stays or becomes 0 (the counts and root value
 * betray it); the partial manifest tier:sector writes is read. */
static void edited_partial_refused(void **state) {
    (void)state;
    char *dir = test_make_dir("test_dbstore");
    const char *head = "format 2\nspec test\nsolver tier\nlayout tiers\nhash_space 1000\n"
                       "width 1\nwinby 0\nloopy 0\n";
    const char *files = "files 1\nfile tier-0000.gmdb 0 1000 0 600 00000000000000ff\n";
    const char *counts = "positions 5\nwins 3\nlosses 2\nties 0\ndraws 0\nmax_remoteness 4\n"
                         "root_value win\nroot_remoteness 4\nroot_winby 0\n";
    const char *none = "positions 0\nwins 0\nlosses 0\nties 0\ndraws 0\nmax_remoteness 0\n"
                       "root_value undecided\nroot_remoteness 0\nroot_winby 0\n";
    const struct {
        const char *counts, *end, *why;
    } cases[] = {
        {NULL, "complete 1\n", NULL},
        {NULL, "partial 1\ncomplete 1\n", "inconsistent (partial"},
        {NULL, "partial 1\ncomplete 0\n", "inconsistent (partial"},
        {"", "partial 1\ncomplete 0\n", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = test_strdupf("%s%s%s%s", head, cases[i].counts == NULL ? counts : none, files,
                                  cases[i].end);
        write_manifest(dir, text);
        Error err = {0};
        ErrCode rc = read_manifest(dir, &err);
        if (cases[i].why == NULL ? rc != ERR_OK
                                 : rc != ERR_IO || strstr(err.msg, cases[i].why) == NULL) {
            fail_msg("partial case %zu (%s): got %d: %s", i, cases[i].end, rc, err.msg);
        }
        free(text);
    }
    test_remove_dir(dir);
}

/* ------------------------------------------------- corruption by block */

#define MANY_BLOCKS 10

/* A file of MANY_BLOCKS blocks of varied records, written by dbstore_write
 * in DIR/x.gmdb; its records in *rec. */
static void write_many(const char *dir, uint8_t **rec, DbStoreInfo *info) {
    uint64_t records = (uint64_t)MANY_BLOCKS * 4096 - 1000;
    *info = test_info(records);
    *rec = malloc(records);
    assert_non_null(*rec);
    uint64_t x = 12345;
    for (uint64_t i = 0; i < records; i++) {
        (*rec)[i] = (uint8_t)(test_rng(&x) % 5 == 0 ? 0 : 64 + test_rng(&x) % 30);
    }
    DbDir d;
    Error err = {0};
    assert_int_equal(dbstore_dir_open(dir, true, &d, &err), ERR_OK);
    assert_int_equal(dbstore_write(&d, "x.gmdb", info, *rec, NULL, 1, NULL, NULL, &err), ERR_OK);
    dbstore_dir_close(&d);
}

static void xor_byte(const char *path, uint64_t at, unsigned char mask) {
    int fd = open(path, O_RDWR);
    assert_true(fd >= 0);
    unsigned char b;
    assert_int_equal(pread(fd, &b, 1, (off_t)at), 1);
    b ^= mask;
    assert_int_equal(pwrite(fd, &b, 1, (off_t)at), 1);
    close(fd);
}

/* way 0: by pread; 1: mapped after opening (dbstore_file_map); 2: opened
 * mapped (dbstore_file_open_mapped: the index read in the mapping); 3:
 * opened lean (dbstore_file_open_lean: no index held, a pread of its
 * group's entries a block). */
static void block_refused_way(const char *dir, const DbStoreInfo *info, const uint8_t *rec,
                              uint64_t k, const char *part, int way) {
    DbDir d;
    Error err = {0};
    assert_int_equal(dbstore_dir_open(dir, false, &d, &err), ERR_OK);
    DbStoreFile f;
    if (way == 2) {
        assert_int_equal(dbstore_file_open_mapped(&d, "x.gmdb", info, &f, &err), ERR_OK);
        assert_non_null(f.map);
        assert_null(f.own);
    } else if (way == 3) {
        assert_int_equal(dbstore_file_open_lean(&d, "x.gmdb", info, &f, &err), ERR_OK);
        assert_true(f.lean);
        assert_null(f.map);
        assert_null(f.own);
        assert_null(f.index);
        assert_non_null(f.group);
    } else {
        assert_int_equal(dbstore_file_open(&d, "x.gmdb", info, &f, &err), ERR_OK);
        assert_null(f.map);
        assert_non_null(f.own);
    }
    assert_int_equal(f.blocks, MANY_BLOCKS);
    if (way == 1) { /* refused while GAMESMAN_DBSTORE_NO_MAP is set, then mapped */
        setenv("GAMESMAN_DBSTORE_NO_MAP", "1", 1);
        assert_false(dbstore_file_map(&f));
        assert_null(f.map);
        unsetenv("GAMESMAN_DBSTORE_NO_MAP");
        assert_true(dbstore_file_map(&f));
        assert_non_null(f.map);
    }
    void *ctx = dbstore_dctx_new();
    uint8_t buf[4096];
    for (uint64_t b = 0; b < f.blocks; b++) {
        err = (Error){0};
        ErrCode rc = dbstore_block_read(&f, b, ctx, buf, &err);
        if (b == k && (rc != ERR_IO || strstr(err.msg, part) == NULL)) {
            fail_msg("block %" PRIu64 ": expected ERR_IO with '%s', got %d: %s", b, part, rc,
                     err.msg);
        }
        if (b != k) {
            assert_int_equal(rc, ERR_OK);
            assert_memory_equal(buf, rec + b * 4096, dbstore_block_bytes(&f, b));
        }
    }
    dbstore_dctx_free(ctx);
    dbstore_file_close(&f);
    dbstore_dir_close(&d);
}

/* Block k read alone (dbstore_block_read) is refused with `part`, and
 * every other block reads back its records: by pread, then from the file
 * mapped after opening (dbstore_file_map), then opened mapped
 * (dbstore_file_open_mapped: tier:blocks' child parts, --verify by
 * parts), then opened lean (dbstore_file_open_lean: queries). */
static void block_refused(const char *dir, const DbStoreInfo *info, const uint8_t *rec, uint64_t k,
                          const char *part) {
    for (int way = 0; way < 4; way++) {
        block_refused_way(dir, info, rec, k, part, way);
    }
}

/* dbstore_read of DIR/x.gmdb (a whole-file read: what a resume and a
 * verification do) is refused with `part`. */
static void read_refused(const char *dir, const DbStoreInfo *info, const char *part) {
    DbDir d;
    Error err = {0};
    assert_int_equal(dbstore_dir_open(dir, false, &d, &err), ERR_OK);
    uint8_t *back = malloc((size_t)info->records);
    assert_non_null(back);
    bool found = false;
    ErrCode rc = dbstore_read(&d, "x.gmdb", info, back, NULL, 2, &found, NULL, NULL, &err);
    if (rc != ERR_IO || strstr(err.msg, part) == NULL) {
        fail_msg("read: expected ERR_IO with '%s', got %d: %s", part, rc, err.msg);
    }
    free(back);
    dbstore_dir_close(&d);
}

/* A byte of block k's frame changed: refused naming block k, by the
 * block read and the whole-file read. */
static void corrupt_block(uint64_t k) {
    char *dir = test_make_dir("test_dbstore");
    char *path = test_strdupf("%s/x.gmdb", dir);
    uint8_t *rec;
    DbStoreInfo info;
    write_many(dir, &rec, &info);
    DbDir d;
    Error err = {0};
    assert_int_equal(dbstore_dir_open(dir, false, &d, &err), ERR_OK);
    DbStoreFile f;
    assert_int_equal(dbstore_file_open(&d, "x.gmdb", &info, &f, &err), ERR_OK);
    assert_true(dbstore_block_csize(&f, k) > 4);
    uint64_t at = dbstore_block_offset(&f, k) + dbstore_block_csize(&f, k) / 2;
    dbstore_file_close(&f);
    dbstore_dir_close(&d);
    xor_byte(path, at, 0x20);
    char *want = test_strdupf("checksum mismatch in block %" PRIu64 ")", k);
    block_refused(dir, &info, rec, k, want);
    read_refused(dir, &info, want);
    free(want);
    free(rec);
    free(path);
    test_remove_dir(dir);
}

static void corrupt_middle_block(void **state) {
    (void)state;
    corrupt_block(MANY_BLOCKS / 2);
}

static void corrupt_last_block(void **state) {
    (void)state;
    corrupt_block(MANY_BLOCKS - 1);
}

/* The last block's index entry: its checksum field changed is caught by
 * the index checksum at open; with the index checksum (and so the
 * header's) made valid again, by the block's own checksum, naming it. */
static void corrupt_last_index_entry(void **state) {
    (void)state;
    char *dir = test_make_dir("test_dbstore");
    char *path = test_strdupf("%s/x.gmdb", dir);
    uint8_t *rec;
    DbStoreInfo info;
    write_many(dir, &rec, &info);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    uint64_t entry = (uint64_t)st.st_size - 8; /* the last block's: size, checksum */
    xor_byte(path, entry + 5, 0x01);
    open_refused(dir, &info, "block index checksum mismatch", true);
    /* The index checksum and the header checksum recomputed. */
    int fd = open(path, O_RDWR);
    assert_true(fd >= 0);
    unsigned char h[DBSTORE_HEADER_BYTES], index[8 * MANY_BLOCKS];
    assert_int_equal(pread(fd, h, sizeof h, 0), (ssize_t)sizeof h);
    assert_int_equal(le_get64(h + 56), MANY_BLOCKS);
    assert_int_equal(pread(fd, index, sizeof index, (off_t)le_get64(h + 64)),
                     (ssize_t)sizeof index);
    le_put64(h + 80, dbfile_checksum(0, index, sizeof index));
    le_put64(h + 504, dbfile_checksum(0, h, 504));
    assert_int_equal(pwrite(fd, h, sizeof h, 0), (ssize_t)sizeof h);
    close(fd);
    char *want = test_strdupf("checksum mismatch in block %d)", MANY_BLOCKS - 1);
    block_refused(dir, &info, rec, MANY_BLOCKS - 1, want);
    read_refused(dir, &info, want);
    free(want);
    free(rec);
    free(path);
    test_remove_dir(dir);
}

/* ------------------------------------------------------- lean files */

#define LEAN_FILES 3

/* Files opened lean, with dictionaries (DBSTORE_DICT_MIN_BLOCKS blocks
 * each), read through a dictionary cache of one slot, blocks of the
 * files in turn: every block reads back its records, each file's
 * dictionary made again each time it comes round (a cache that handed
 * out another file's would fail the checksum or the records); a read
 * without the dictionary is refused; a damaged dictionary is refused
 * when made again (the file already open), an index entry changed on disk
 * since opening refused at the block's read. */
static void lean_files(void **state) {
    (void)state;
    char *dir = test_make_dir("test_dbstore");
    DbDir d;
    Error err = {0};
    assert_int_equal(dbstore_dir_open(dir, true, &d, &err), ERR_OK);
    uint64_t records = (uint64_t)DBSTORE_DICT_MIN_BLOCKS * 4096 - 77;
    uint8_t *rec[LEAN_FILES];
    DbStoreFile f[LEAN_FILES];
    uint64_t x = 777;
    DbStoreInfo info = test_info(records);
    for (int i = 0; i < LEAN_FILES; i++) {
        rec[i] = malloc(records);
        assert_non_null(rec[i]);
        for (uint64_t j = 0; j < records; j++) {
            rec[i][j] = (uint8_t)(test_rng(&x) % 4 == 0 ? 0 : 64 + i + test_rng(&x) % (10 + i));
        }
        char name[32];
        snprintf(name, sizeof name, "l%d.gmdb", i);
        info.index = i;
        assert_int_equal(dbstore_write(&d, name, &info, rec[i], NULL, 1, NULL, NULL, &err), ERR_OK);
        assert_int_equal(dbstore_file_open_lean(&d, name, &info, &f[i], &err), ERR_OK);
        assert_true(f[i].dict_bytes > 0);
        assert_null(f[i].ddict);
        assert_null(f[i].index);
    }
    DbStoreDicts cache = {.slots = 1};
    void *ctx = dbstore_dctx_new();
    uint8_t buf[4096];
    err = (Error){0};
    assert_int_equal(dbstore_block_read(&f[0], 1, ctx, buf, &err), ERR_INTERNAL);
    assert_non_null(strstr(err.msg, "without its dictionary"));
    uint64_t reads = 0;
    for (uint64_t b = 0; b < f[0].blocks; b += 7) {
        for (int i = 0; i < LEAN_FILES; i++) {
            const void *dd = NULL;
            assert_int_equal(dbstore_dicts_get(&cache, &f[i], i, &dd, &err), ERR_OK);
            assert_non_null(dd);
            if (dbstore_block_read_dict(&f[i], b, ctx, dd, buf, &err) != ERR_OK) {
                fail_msg("file %d block %" PRIu64 ": %s", i, b, err.msg);
            }
            assert_memory_equal(buf, rec[i] + b * 4096, dbstore_block_bytes(&f[i], b));
            reads++;
        }
    }
    assert_int_equal(cache.made, reads);
    /* the same file again: its dictionary is still in the slot */
    const void *dd = NULL;
    assert_int_equal(dbstore_dicts_get(&cache, &f[LEAN_FILES - 1], LEAN_FILES - 1, &dd, &err),
                     ERR_OK);
    assert_int_equal(cache.made, reads);
    dbstore_dicts_drop(&cache, LEAN_FILES - 1);
    /* file 0's dictionary damaged under it */
    char *path = test_strdupf("%s/l0.gmdb", dir);
    xor_byte(path, DBSTORE_HEADER_BYTES + 100, 0x10);
    err = (Error){0};
    assert_int_equal(dbstore_dicts_get(&cache, &f[0], 0, &dd, &err), ERR_IO);
    assert_non_null(strstr(err.msg, "l0.gmdb is corrupt (dictionary checksum mismatch)"));
    /* file 1's entry for block 40 (group 1) given a size past the data */
    free(path);
    path = test_strdupf("%s/l1.gmdb", dir);
    xor_byte(path, f[1].index_off + 8 * 40 + 3, 0x40);
    assert_int_equal(dbstore_dicts_get(&cache, &f[1], 1, &dd, &err), ERR_OK);
    err = (Error){0};
    assert_int_equal(dbstore_block_read_dict(&f[1], 40, ctx, dd, buf, &err), ERR_IO);
    assert_non_null(strstr(err.msg, "l1.gmdb changed while it was read (block 40)"));
    /* and block 41, after it in the group, then lies elsewhere */
    err = (Error){0};
    assert_int_equal(dbstore_block_read_dict(&f[1], 41, ctx, dd, buf, &err), ERR_IO);
    free(path);
    dbstore_dicts_free(&cache);
    dbstore_dctx_free(ctx);
    for (int i = 0; i < LEAN_FILES; i++) {
        dbstore_file_close(&f[i]);
        free(rec[i]);
    }
    dbstore_dir_close(&d);
    test_remove_dir(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(d4_file_refused),          cmocka_unit_test(d4_database_refused),
        cmocka_unit_test(wrapping_headers_refused), cmocka_unit_test(crafted_manifests_refused),
        cmocka_unit_test(large_manifest_read),      cmocka_unit_test(corrupt_middle_block),
        cmocka_unit_test(corrupt_last_block),       cmocka_unit_test(corrupt_last_index_entry),
        cmocka_unit_test(edited_partial_refused),   cmocka_unit_test(lean_files),
    };
    return cmocka_run_group_tests_name("dbstore", tests, NULL, NULL);
}
