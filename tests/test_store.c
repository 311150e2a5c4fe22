/* tests/test_store.c: the database on disk (core/dbstore.h, solvers/store.h).
 *
 *   - round trip: for every test variant of every game and every solver
 *     that keeps a database, solve, save (tier: as it solves), open, and
 *     every reached position reads back the in-memory record and score;
 *     the streamed counts equal db_summarize's; the verification passes;
 *   - verify: a record flipped from win to lose, rewritten with valid
 *     checksums (so only the consistency check can see it), is reported at
 *     its exact file and index, through the GPS family (tic-tac-toe) and
 *     through the tier fast path (Connect Four);
 *   - verify by parts (solvers/store_verify_parts.c): good Connect Four
 *     4x4 and 5x4 databases of tier:blocks and tier:window pass whole, by
 *     parts and by memory on 1 and 2 threads, every position checked; a
 *     planted loss and a reached child made unreached are named by the
 *     same message both ways; a corrupt block, a missing part and a budget
 *     that fits neither way are refused;
 *   - compare (store_compare): the same variant solved by retro (slots)
 *     and by tier (tiers), or by symbolic (bdd), compares equal, every
 *     reached position counted; a record changed with valid checksums
 *     (remoteness, value, erased) is found and named with both records;
 *     twelve erased ones all counted, the ten at the smallest positions
 *     kept on 1 and 2 threads; an undecided record is refused; through
 *     tiers not tier-major (three men's morris with sym), a flipped value is
 *     named, a record at a non-canonical position counted; a partial
 *     database of every tier (tier:sector, Bagh Chal 3x3) against retro's
 *     and tier's: equal, its unreachable positions counted beyond theirs,
 *     a flipped value named, an erased reachable record a difference;
 *   - the tier solver's files (written by its background writer) are the
 *     same bytes for 1, 2 and 3 threads;
 *   - the background writer (core/dbwriter.h: pieces compressed by any
 *     thread, streamed by its I/O thread) writes the same bytes as a direct
 *     dbstore_write, the reference, for 1-, 2- and 8-byte records, with and
 *     without scores, with all-zero blocks, several files queued, and its
 *     compressors paused (the caller compresses every piece); files large
 *     enough get a dictionary (and no others), and read back;
 *   - format 1 files (no dictionary) are read; a damaged dictionary is
 *     refused by its checksum;
 *   - a sector database (tier:sector) is partial: its tiers read back
 *     retro's records, others are refused, analyzed and verified from disk;
 * and the file-safety cases of issue 10 (items 1-3, 8, 9), each against
 * the tier solver's resume (run_tier) or the reader:
 *   - a symbolic link planted as the temporary name is not followed (the
 *     issue's reproduction, then every temporary name this process could
 *     use taken by a link: refused, the victim intact);
 *   - a directory every user can write without the sticky bit is refused;
 *     with the sticky bit it is accepted;
 *   - a FIFO as a tier file, the manifest or the lock is refused without
 *     waiting;
 *   - a second writer is refused naming the holder's PID;
 *   - issue 33 D1: a writer removes only its own stale temporary files
 *     (NAME.tmp.PID.K), and only after accepting the directory: a user's
 *     report.tmp, notes.tmp.bak, draft.tmp and near-miss names survive a
 *     solve and a refused one, another user's file of the pattern too;
 *   - crafted reach files (bits in the padding of a tier's last word: the
 *     heap overflow of item 2; all zero) and crafted tier files (all 0xFF,
 *     a draw, an undecided record) with valid checksums are refused;
 *   - a record file of another format version, a missing, half-written
 *     (no manifest) or foreign directory are refused by the reader.
 */
#include "tests/testutil.h"

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/dbfile.h"
#include "core/dbstore.h"
#include "core/dbwriter.h"
#include "core/mem.h"
#include "core/sort.h"
#include "solvers/store.h"

static char *make_dir(void) { return test_make_dir("test_store"); }

static ErrCode run_tier(const Game *g, const char *dir, SolveResult *res, Error *err) {
    const SolverModule *s = solver_find("tier");
    SolveConfig cfg = {.threads = 2, .work_dir = dir};
    assert_int_equal(options_parse(s->options, NULL, "tier", &cfg.options, err), ERR_OK);
    return solver_run(s, g, &cfg, res, err);
}

static void tier_ok(const Game *g, const char *dir) {
    SolveResult res;
    Error err = {0};
    if (run_tier(g, dir, &res, &err) != ERR_OK) {
        fail_msg("tier --db %s: %s", dir, err.msg);
    }
    assert_true(res.saved_db);
    solve_result_free(&res);
}

/* Expects the tier solve on dir to be refused with ERR_IO naming `part`. */
static void tier_refused(const Game *g, const char *dir, const char *part) {
    SolveResult res;
    Error err = {0};
    ErrCode rc = run_tier(g, dir, &res, &err);
    if (rc == ERR_OK) {
        solve_result_free(&res);
    }
    if (rc != ERR_IO || strstr(err.msg, part) == NULL) {
        fail_msg("expected ERR_IO with '%s', got %d: %s", part, rc, err.msg);
    }
}

static void store_refused(const Game *g, const char *dir, const char *part) {
    Store st;
    Error err = {0};
    ErrCode rc = store_open(g, dir, &st, &err);
    if (rc == ERR_OK) {
        store_close(&st);
    }
    if (rc != ERR_IO || strstr(err.msg, part) == NULL) {
        fail_msg("expected ERR_IO with '%s', got %d: %s", part, rc, err.msg);
    }
}

#define TMP_NAMES_PLANTED 50000

/* ------------------------------------------------------------ round trip */

/* Hash spaces above this get only the game's default solver in the
 * sanitizer build (othello's 17 million slots, five solvers: a minute). */
#define ROUND_TRIP_ALL_SOLVERS_MAX 1000000

static void round_trip(void **state) {
    Game *g = test_game(*state);
    bool all = test_heavy_enabled() || g->num_positions <= ROUND_TRIP_ALL_SOLVERS_MAX;
    for (int i = 0; solver_registry[i] != NULL; i++) {
        const SolverModule *s = solver_registry[i];
        if (s->root_only || s->partial_db || !solver_supports(s, g, NULL, 0) ||
            (!all && s != solver_default(g))) {
            continue;
        }
        char *dir = make_dir();
        SolveConfig cfg = {.threads = s->parallel ? 2 : 1, .work_dir = dir};
        Error err = {0};
        assert_int_equal(options_parse(s->options, NULL, s->name, &cfg.options, &err), ERR_OK);
        SolveResult res;
        if (solver_run(s, g, &cfg, &res, &err) != ERR_OK) {
            fail_msg("%s on %s: %s", s->name, g->variant, err.msg);
        }
        assert_true(res.has_db);
        DbSummary sum;
        assert_int_equal(db_summarize(&res.db, true, &sum, &err), ERR_OK);
        if (!res.saved_db) {
            if (store_save(g, s->name, &res, &sum, dir, 2, &err) != ERR_OK) {
                fail_msg("save %s on %s: %s", s->name, g->variant, err.msg);
            }
        }
        Store st;
        if (store_open(g, dir, &st, &err) != ERR_OK) {
            fail_msg("open %s on %s: %s", s->name, g->variant, err.msg);
        }
        for (Position p = 0; p < g->num_positions; p++) {
            uint32_t want = db_peek(&res.db, p);
            if (want == DB_UNREACHED) {
                continue;
            }
            uint32_t raw;
            WinBy w;
            assert_int_equal(store_get(&st, p, &raw, &w, &err), ERR_OK);
            if (raw != want || (res.db.winby != NULL && w != res.db.winby[p])) {
                fail_msg("%s on %s: position %llu reads %u (winby %d), solved %u", s->name,
                         g->variant, (unsigned long long)p, raw, (int)w, want);
            }
        }
        DbSummary disk;
        assert_int_equal(store_analyze(&st, &disk, 1, &err), ERR_OK);
        assert_int_equal(disk.positions, sum.positions);
        assert_memory_equal(disk.count, sum.count, sizeof sum.count);
        assert_int_equal(disk.max_remoteness, sum.max_remoteness);
        assert_memory_equal(disk.by_remoteness, sum.by_remoteness,
                            (sum.max_remoteness + 1) * sizeof *sum.by_remoteness);
        /* the counts by tier (layout tiers only) against the solved
         * records grouped by the game's tier_of */
        assert_int_equal(disk.by_tier != NULL, st.tiers);
        if (disk.by_tier != NULL) {
            assert_int_equal(disk.ntiers, g->tiers->count(g));
            uint64_t(*want)[VALUE_COUNT] = calloc((size_t)disk.ntiers, sizeof *want);
            assert_non_null(want);
            for (Position p = 0; p < g->num_positions; p++) {
                uint32_t raw = db_peek(&res.db, p);
                if (raw != DB_UNREACHED) {
                    want[g->tiers->tier_of(g, p)][db_raw_value(&res.db, raw)]++;
                }
            }
            for (int t = 0; t < disk.ntiers; t++) {
                if (memcmp(want[t], disk.by_tier[t], sizeof want[t]) != 0) {
                    fail_msg("%s on %s: tier %d counts %llu/%llu/%llu on disk, %llu/%llu/%llu "
                             "solved (win/lose/tie)",
                             s->name, g->variant, t, (unsigned long long)disk.by_tier[t][VALUE_WIN],
                             (unsigned long long)disk.by_tier[t][VALUE_LOSE],
                             (unsigned long long)disk.by_tier[t][VALUE_TIE],
                             (unsigned long long)want[t][VALUE_WIN],
                             (unsigned long long)want[t][VALUE_LOSE],
                             (unsigned long long)want[t][VALUE_TIE]);
                }
            }
            free(want);
        }
        uint64_t checked = 0;
        if (store_verify(&st, 2, false, &checked, &err) != ERR_OK) {
            fail_msg("verify %s on %s: %s", s->name, g->variant, err.msg);
        }
        assert_int_equal(checked, sum.positions);
        db_summary_free(&disk);
        store_close(&st);
        db_summary_free(&sum);
        solve_result_free(&res);
        test_remove_dir(dir);
    }
    game_destroy(g);
}

static char *path_in(const char *dir, const char *name);

/* ------------------------------------------------------------ verify */

/* The manifest's file of tier `tier` holding its local index `index`
 * (the tier's one file, or its tier:blocks part). */
static int file_holding(const DbManifest *m, int tier, uint64_t index) {
    for (int k = 0; k < m->nfiles; k++) {
        if (m->files[k].index == tier && index - m->files[k].first < m->files[k].records) {
            return k;
        }
    }
    fail_msg("no file of tier %d holds index %llu", tier, (unsigned long long)index);
    return -1;
}

/* Rewrites record `index` of tier `tier` (in its file, or its part; or
 * of slots file `tier`: position `index` of a slots database smaller than
 * a file) to `raw` with valid checksums, and the manifest to match: only
 * the consistency check can tell. Records of 1 or 2 bytes, no scores.
 * Returns the record it replaced. */
static uint32_t rewrite_record(const Game *g, const char *dir, int tier, uint64_t index,
                               uint32_t raw) {
    DbDir d;
    Error err = {0};
    assert_int_equal(dbstore_dir_open(dir, true, &d, &err), ERR_OK);
    DbManifest m;
    bool found;
    assert_int_equal(dbstore_manifest_read(&d, &m, &found, &err), ERR_OK);
    assert_true(found);
    int k = file_holding(&m, tier, index);
    DbStoreInfo info = {.kind = DBSTORE_RECORDS,
                        .index = tier,
                        .count = strcmp(m.layout, "tiers") == 0 ? g->tiers->count(g) : m.nfiles,
                        .width = m.width,
                        .winby = m.winby,
                        .records = m.files[k].records,
                        .first = m.files[k].first};
    game_spec(g, info.spec, sizeof info.spec);
    assert_true(m.width == 1 || m.width == 2);
    assert_false(m.winby);
    uint8_t *rec = calloc(info.records, m.width);
    assert_non_null(rec);
    assert_int_equal(
        dbstore_read(&d, m.files[k].name, &info, rec, NULL, 1, &found, NULL, NULL, &err), ERR_OK);
    index -= m.files[k].first;
    uint16_t *rec16 = (uint16_t *)(void *)rec;
    uint32_t old = m.width == 1 ? rec[index] : rec16[index];
    if (m.width == 1) {
        rec[index] = (uint8_t)raw;
    } else {
        rec16[index] = (uint16_t)raw;
    }
    assert_int_equal(dbstore_write(&d, m.files[k].name, &info, rec, NULL, 1, &m.files[k].header_sum,
                                   &m.files[k].bytes, &err),
                     ERR_OK);
    assert_int_equal(dbstore_manifest_write(&d, &m, &err), ERR_OK);
    free(rec);
    dbstore_manifest_free(&m);
    dbstore_dir_close(&d);
    return old;
}

/* The first win of tier `tier` of `spec` becomes a loss of the same
 * remoteness: the counts change too, but the position check comes first
 * and names the place. */
static void flip_caught(const char *spec, int tier) {
    Game *g = test_game(spec);
    char *dir = make_dir();
    tier_ok(g, dir);
    Store st;
    Error err = {0};
    assert_int_equal(store_open(g, dir, &st, &err), ERR_OK);
    uint64_t size = g->tiers->size(g, tier), index = size;
    for (uint64_t i = 0; i < size && index == size; i++) {
        Position p = g->tiers->first != NULL ? g->tiers->first(g, tier) + i
                                             : g->tiers->position_at(g, tier, i);
        uint32_t raw;
        WinBy w;
        assert_int_equal(store_get(&st, p, &raw, &w, &err), ERR_OK);
        if (raw != DB_UNREACHED && db_raw_value(&st.fmt, raw) == VALUE_WIN) {
            index = i;
        }
    }
    store_close(&st);
    assert_true(index < size);
    uint32_t old = rewrite_record(g, dir, tier, index, 0);
    uint32_t flipped = ((uint32_t)VALUE_LOSE << 6) | (old & 63);
    rewrite_record(g, dir, tier, index, flipped);
    /* Every checksum holds. */
    assert_int_equal(store_open(g, dir, &st, &err), ERR_OK);
    uint64_t checked = 0;
    ErrCode rc = store_verify(&st, 2, false, &checked, &err);
    store_close(&st);
    char *want = test_strdupf("verification failed at tier-%04d.gmdb index %llu ", tier,
                              (unsigned long long)index);
    if (rc != ERR_IO || strstr(err.msg, want) == NULL || strstr(err.msg, "stored lose") == NULL) {
        fail_msg("%s: expected '%s', got %d: %s", spec, want, rc, err.msg);
    }
    free(want);
    test_remove_dir(dir);
    game_destroy(g);
}

/* ------------------------------------------------------ verify by parts */

/* store_verify on dir with GAMESMAN_VERIFY_PATH=path (NULL: by memory) and
 * GAMESMAN_VERIFY_PART=part (NULL: the default), on `threads` threads;
 * the Store's account of the ways it took in *ways: tiers whole, tiers by
 * parts, pieces. */
static ErrCode verify_with(const Game *g, const char *dir, const char *path, const char *part,
                           int threads, uint64_t *checked, int ways[3], Error *err) {
    if (path != NULL) {
        setenv("GAMESMAN_VERIFY_PATH", path, 1);
    }
    if (part != NULL) {
        setenv("GAMESMAN_VERIFY_PART", part, 1);
    }
    Store st;
    assert_int_equal(store_open(g, dir, &st, err), ERR_OK);
    ErrCode rc = store_verify(&st, threads, false, checked, err);
    ways[0] = st.verify_whole;
    ways[1] = st.verify_parts;
    ways[2] = (int)st.verify_pieces;
    store_close(&st);
    unsetenv("GAMESMAN_VERIFY_PATH");
    unsetenv("GAMESMAN_VERIFY_PART");
    return rc;
}

/* The ways --verify reads a tier (store_verify_parts.c), on Connect Four
 * 4x4 and 5x4 databases of tier:blocks (parts of 1000 and 100000 records:
 * many files a tier) and of tier:window (a file a tier, cut into pieces
 * of 4096 records or read as one), on 1 and 2 threads: every reached
 * position checked (the manifest's count, itself checked against the
 * records) each way, every tier the way asked, more pieces than tiers
 * where the tiers are cut. */
typedef struct PartsCase {
    const char *spec, *solver, *part; /* part: GAMESMAN_VERIFY_PART */
    bool cut;                         /* more pieces than tiers */
} PartsCase;

static const PartsCase parts_cases[] = {
    {"connect4:w=4,h=4", "blocks,part=1000", NULL, true},
    {"connect4:w=4,h=4", "window", NULL, false},
    {"connect4:w=4,h=4", "window", "4096", true},
    {"connect4:w=5,h=4", "blocks,part=100000", NULL, true},
    {"connect4:w=5,h=4", "window", "65536", true},
};

static void verify_parts_good(void **state) {
    (void)state;
    for (size_t c = 0; c < sizeof parts_cases / sizeof parts_cases[0]; c++) {
        const PartsCase *pc = &parts_cases[c];
        Game *g = test_game(pc->spec);
        char *dir = make_dir();
        SolveResult res;
        Error err = {0};
        if (test_run_tier(g, pc->solver, 2, dir, &res, &err) != ERR_OK) {
            fail_msg("tier:%s on %s: %s", pc->solver, pc->spec, err.msg);
        }
        assert_true(res.saved_db);
        uint64_t positions = res.summary.positions;
        solve_result_free(&res);
        int n = g->tiers->count(g);
        const char *paths[] = {"whole", "parts", NULL};
        for (int p = 0; p < 3; p++) {
            for (int threads = 1; threads <= 2; threads++) {
                uint64_t checked = 0;
                int ways[3];
                ErrCode rc = verify_with(g, dir, paths[p], pc->part, threads, &checked, ways, &err);
                if (rc != ERR_OK || checked != positions) {
                    fail_msg("%s %s, %s on %d threads: %d, %llu of %llu checked: %s", pc->spec,
                             pc->solver, paths[p] != NULL ? paths[p] : "by memory", threads, rc,
                             (unsigned long long)checked, (unsigned long long)positions, err.msg);
                }
                /* by memory: these small tiers fit whole */
                assert_int_equal(ways[0], p == 1 ? 0 : n);
                assert_int_equal(ways[1], p == 1 ? n : 0);
                if (p == 1) {
                    assert_true(pc->cut ? ways[2] > n : ways[2] == n);
                }
            }
        }
        test_remove_dir(dir);
        game_destroy(g);
    }
}

/* A win planted as a loss (flip_caught's rewrite, valid checksums) in a
 * tier of a Connect Four 4x4 database of tier:blocks (parts of 1000
 * records) and of tier:window: named by the same message, the same file
 * and index, whole and by parts (and by pieces of 4096 records), on 1 and
 * 2 threads. The tier is 9, a middle one, and the record the first win
 * after the tier's middle index, so its part is not the tier's first.
 * Then a reached child made unreached (below). */
static void verify_parts_flip(void **state) {
    (void)state;
    const char *solvers[] = {"blocks,part=1000", "window"};
    const int tier = 9;
    for (int s = 0; s < 2; s++) {
        Game *g = test_game("connect4:w=4,h=4");
        char *dir = make_dir();
        SolveResult res;
        Error err = {0};
        assert_int_equal(test_run_tier(g, solvers[s], 2, dir, &res, &err), ERR_OK);
        solve_result_free(&res);
        Store st;
        assert_int_equal(store_open(g, dir, &st, &err), ERR_OK);
        uint64_t size = g->tiers->size(g, tier), index = size;
        for (uint64_t i = size / 2; i < size && index == size; i++) {
            uint32_t raw;
            WinBy w;
            assert_int_equal(store_get(&st, g->tiers->first(g, tier) + i, &raw, &w, &err), ERR_OK);
            if (raw != DB_UNREACHED && db_raw_value(&st.fmt, raw) == VALUE_WIN) {
                index = i;
            }
        }
        store_close(&st);
        assert_true(index < size);
        uint32_t old = rewrite_record(g, dir, tier, index, 0);
        rewrite_record(g, dir, tier, index, ((uint32_t)VALUE_LOSE << 6) | (old & 63));
        char *want = test_strdupf("verification failed at tier-%04d.gmdb index %llu ", tier,
                                  (unsigned long long)index);
        char first[sizeof err.msg] = "";
        const char *paths[] = {"whole", "parts", "parts"};
        const char *parts[] = {NULL, NULL, "4096"};
        for (int p = 0; p < 3; p++) {
            for (int threads = 1; threads <= 2; threads++) {
                uint64_t checked;
                int ways[3];
                ErrCode rc = verify_with(g, dir, paths[p], parts[p], threads, &checked, ways, &err);
                if (rc != ERR_IO || strstr(err.msg, want) == NULL ||
                    strstr(err.msg, "stored lose") == NULL ||
                    (first[0] != '\0' && strcmp(first, err.msg) != 0)) {
                    fail_msg("tier:%s, %s on %d threads: expected '%s' (as '%s'), got %d: %s",
                             solvers[s], paths[p], threads, want, first, rc, err.msg);
                }
                snprintf(first, sizeof first, "%s", err.msg);
            }
        }
        free(want);
        /* The loss back, then a reached record of tier 10 made unreached:
         * no check of tier 10 sees it (its record reads as never reached),
         * but its reached parents in tier 9 (every reached position but
         * the root has one) have a child with no record, named both ways. */
        rewrite_record(g, dir, tier, index, old);
        assert_int_equal(store_open(g, dir, &st, &err), ERR_OK);
        uint64_t size10 = g->tiers->size(g, tier + 1), zeroed = size10;
        for (uint64_t i = size10 / 2; i < size10 && zeroed == size10; i++) {
            uint32_t raw;
            WinBy w;
            Position p = g->tiers->first(g, tier + 1) + i;
            assert_int_equal(store_get(&st, p, &raw, &w, &err), ERR_OK);
            zeroed = raw != DB_UNREACHED ? i : zeroed;
        }
        store_close(&st);
        assert_true(zeroed < size10);
        rewrite_record(g, dir, tier + 1, zeroed, DB_UNREACHED);
        want = test_strdupf("child %llu has no record",
                            (unsigned long long)(g->tiers->first(g, tier + 1) + zeroed));
        first[0] = '\0';
        for (int p = 0; p < 2; p++) {
            for (int threads = 1; threads <= 2; threads++) {
                uint64_t checked;
                int ways[3];
                ErrCode rc = verify_with(g, dir, paths[p], NULL, threads, &checked, ways, &err);
                if (rc != ERR_IO || strstr(err.msg, want) == NULL ||
                    strstr(err.msg, "verification failed at tier-0009.gmdb index ") == NULL ||
                    (first[0] != '\0' && strcmp(first, err.msg) != 0)) {
                    fail_msg("tier:%s, %s on %d threads: expected '%s' in tier 9 (as '%s'), got "
                             "%d: %s",
                             solvers[s], paths[p], threads, want, first, rc, err.msg);
                }
                snprintf(first, sizeof first, "%s", err.msg);
            }
        }
        free(want);
        test_remove_dir(dir);
        game_destroy(g);
    }
}

/* By parts, a part file missing and a block corrupted (a byte of its
 * compressed frame flipped: the header's and index's checksums hold, the
 * block's does not) are refused with ERR_IO naming the file, and (the
 * block) its number; a memory budget that fits neither way is refused
 * with ERR_MEMORY giving both estimates. Connect Four 4x4, tier:blocks
 * parts of 1000 records. */
static void verify_parts_refusals(void **state) {
    (void)state;
    Game *g = test_game("connect4:w=4,h=4");
    char *dir = make_dir();
    SolveResult res;
    Error err = {0};
    assert_int_equal(test_run_tier(g, "blocks,part=1000", 2, dir, &res, &err), ERR_OK);
    solve_result_free(&res);
    uint64_t checked;
    int ways[3];
    /* the budget */
    mem_set_limit(UINT64_C(1) << 20);
    ErrCode rc = verify_with(g, dir, NULL, NULL, 2, &checked, ways, &err);
    mem_set_limit(0);
    if (rc != ERR_MEMORY || strstr(err.msg, "--verify of tier") == NULL ||
        strstr(err.msg, "by parts: ") == NULL) {
        fail_msg("1 MiB: expected ERR_MEMORY with both estimates, got %d: %s", rc, err.msg);
    }
    /* a corrupt block: the largest compressed block of the largest part
     * of tier 9 */
    DbDir d;
    assert_int_equal(dbstore_dir_open(dir, true, &d, &err), ERR_OK);
    DbManifest m;
    bool found;
    assert_int_equal(dbstore_manifest_read(&d, &m, &found, &err), ERR_OK);
    int k = file_holding(&m, 9, 0);
    for (int j = k; j < m.nfiles && m.files[j].index == 9; j++) {
        k = m.files[j].bytes > m.files[k].bytes ? j : k;
    }
    DbStoreInfo info = {.kind = DBSTORE_RECORDS,
                        .index = 9,
                        .count = g->tiers->count(g),
                        .width = 1,
                        .records = m.files[k].records,
                        .first = m.files[k].first};
    game_spec(g, info.spec, sizeof info.spec);
    DbStoreFile f;
    assert_int_equal(dbstore_file_open(&d, m.files[k].name, &info, &f, &err), ERR_OK);
    uint64_t b = 0;
    for (uint64_t j = 0; j < f.blocks; j++) {
        b = dbstore_block_csize(&f, j) > dbstore_block_csize(&f, b) ? j : b;
    }
    assert_true(dbstore_block_csize(&f, b) > 0);
    unsigned char byte;
    off_t at = (off_t)(dbstore_block_offset(&f, b) + dbstore_block_csize(&f, b) / 2);
    assert_int_equal(pread(f.fd, &byte, 1, at), 1);
    byte ^= 0x40;
    int fd = open(f.path, O_WRONLY);
    assert_true(fd >= 0);
    assert_int_equal(pwrite(fd, &byte, 1, at), 1);
    close(fd);
    char *path = test_strdupf("%s", f.path);
    dbstore_file_close(&f);
    for (int threads = 1; threads <= 2; threads++) {
        rc = verify_with(g, dir, "parts", NULL, threads, &checked, ways, &err);
        char *want = test_strdupf("%s is corrupt (checksum mismatch in block %llu)",
                                  m.files[k].name, (unsigned long long)b);
        if (rc != ERR_IO || strstr(err.msg, want) == NULL) {
            fail_msg("%d threads: expected '%s', got %d: %s", threads, want, rc, err.msg);
        }
        free(want);
    }
    /* a part file missing */
    assert_int_equal(unlink(path), 0);
    rc = verify_with(g, dir, "parts", NULL, 2, &checked, ways, &err);
    if (rc != ERR_IO || strstr(err.msg, m.files[k].name) == NULL) {
        fail_msg("missing %s: expected ERR_IO naming it, got %d: %s", path, rc, err.msg);
    }
    free(path);
    dbstore_manifest_free(&m);
    dbstore_dir_close(&d);
    test_remove_dir(dir);
    game_destroy(g);
}

/* --analyze (store_analyze) refuses a record no solve writes, naming its
 * file and index, on 1 and 2 threads: an undecided record planted in
 * tic-tac-toe's tier 6 at the index of its last reached position, and
 * then a remoteness longer than the game in tier 3 as well, which is
 * named since its file comes first (the threads take the files in any
 * order). */
static void analyze_refuses_bad_record(void **state) {
    (void)state;
    Game *g = test_game("tictactoe");
    char *dir = make_dir();
    tier_ok(g, dir);
    const int tiers[] = {6, 3};
    const uint32_t raws[] = {DB_VISITED, ((uint32_t)VALUE_WIN << 6) | 63};
    const char *whys[] = {"an undecided record", "a remoteness longer than the game"};
    for (int k = 0; k < 2; k++) {
        Store st;
        Error err = {0};
        assert_int_equal(store_open(g, dir, &st, &err), ERR_OK);
        uint64_t size = g->tiers->size(g, tiers[k]), index = size;
        for (uint64_t i = 0; i < size; i++) {
            uint32_t raw;
            WinBy w;
            Position p = g->tiers->first != NULL ? g->tiers->first(g, tiers[k]) + i
                                                 : g->tiers->position_at(g, tiers[k], i);
            assert_int_equal(store_get(&st, p, &raw, &w, &err), ERR_OK);
            index = raw != DB_UNREACHED ? i : index;
        }
        store_close(&st);
        assert_true(index < size);
        rewrite_record(g, dir, tiers[k], index, raws[k]);
        for (int threads = 1; threads <= 2; threads++) {
            DbSummary sum;
            assert_int_equal(store_open(g, dir, &st, &err), ERR_OK);
            ErrCode rc = store_analyze(&st, &sum, threads, &err);
            store_close(&st);
            char *want = test_strdupf("tier-%04d.gmdb holds %s (record %llu)", tiers[k], whys[k],
                                      (unsigned long long)index);
            if (rc != ERR_IO || strstr(err.msg, want) == NULL) {
                fail_msg("%d threads: expected '%s', got %d: %s", threads, want, rc, err.msg);
            }
            free(want);
        }
    }
    test_remove_dir(dir);
    game_destroy(g);
}

/* Tic-tac-toe: positions expanded through the GPS family. */
static void verify_catches_flip(void **state) {
    (void)state;
    flip_caught("tictactoe", 5);
}

/* Connect Four: through the tier fast path (TierOps.expand_run). */
static void verify_catches_flip_fast(void **state) {
    (void)state;
    Game *g = test_game("connect4:w=4,h=4");
    assert_non_null(g->tiers->expand_run);
    game_destroy(g);
    flip_caught("connect4:w=4,h=4", 9);
}

/* ------------------------------------------------------ verify journal */

static void write_text(const char *path, const char *text);
static bool holds_text(const char *path, const char *text);

/* What a verification reported: its code and message, the positions
 * checked, and every figure of the Store it leaves (the ways, pieces,
 * child blocks, the memory estimate, the game calls, the tiers taken from
 * the journal). */
typedef struct Verified {
    ErrCode rc;
    char msg[sizeof(((Error *)0)->msg)];
    uint64_t checked, pieces, blocks, peak;
    int whole, parts, taken;
    Counters counters;
} Verified;

static Verified verify_journaled(const Game *g, const char *dir, const char *path,
                                 const char *journal) {
    Verified v = {0};
    Error err = {0};
    Store st;
    setenv("GAMESMAN_VERIFY_PATH", path, 1);
    assert_int_equal(store_open(g, dir, &st, &err), ERR_OK);
    v.rc = store_verify_journal(&st, 2, false, journal, &v.checked, &err);
    snprintf(v.msg, sizeof v.msg, "%s", err.msg);
    v.pieces = st.verify_pieces;
    v.blocks = st.verify_child_blocks;
    v.peak = st.verify_peak;
    v.whole = st.verify_whole;
    v.parts = st.verify_parts;
    v.taken = st.verify_journal_tiers;
    v.counters = st.counters;
    store_close(&st);
    unsetenv("GAMESMAN_VERIFY_PATH");
    return v;
}

/* a and b the same verification, the tiers taken from a journal aside */
static void assert_same_verify(const Verified *a, const Verified *b, const char *what) {
    if (a->rc != b->rc || strcmp(a->msg, b->msg) != 0 || a->checked != b->checked ||
        a->pieces != b->pieces || a->blocks != b->blocks || a->peak != b->peak ||
        a->whole != b->whole || a->parts != b->parts ||
        memcmp(&a->counters, &b->counters, sizeof a->counters) != 0) {
        fail_msg("%s: rc %d/%d, checked %llu/%llu, pieces %llu/%llu, blocks %llu/%llu, peak "
                 "%llu/%llu, whole %d/%d, parts %d/%d, unhash %llu/%llu, '%s' / '%s'",
                 what, a->rc, b->rc, (unsigned long long)a->checked, (unsigned long long)b->checked,
                 (unsigned long long)a->pieces, (unsigned long long)b->pieces,
                 (unsigned long long)a->blocks, (unsigned long long)b->blocks,
                 (unsigned long long)a->peak, (unsigned long long)b->peak, a->whole, b->whole,
                 a->parts, b->parts, (unsigned long long)a->counters.unhash,
                 (unsigned long long)b->counters.unhash, a->msg, b->msg);
    }
}

/* A whole file as a string (malloc'ed). */
static char *slurp_text(const char *path) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = calloc((size_t)n + 1, 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return s;
}

static int count_lines(const char *s, const char *prefix) {
    int n = 0;
    for (const char *at = s; at != NULL && *at != '\0';
         at = strchr(at, '\n'), at = at ? at + 1 : 0) {
        n += strncmp(at, prefix, strlen(prefix)) == 0;
    }
    return n;
}

/* A verify journal's tier lines: each tier's memory estimate (est=) into
 * est[t] and whether it was checked by parts into parts[t]; returns how
 * many lines. */
static int journal_tiers(const char *journal, uint64_t *est, bool *parts, int max) {
    char *all = slurp_text(journal);
    int n = 0;
    for (char *at = all; at != NULL && *at != '\0'; at = strchr(at, '\n'), at = at ? at + 1 : 0) {
        int t;
        char way[8];
        const char *e = strstr(at, " est=");
        const char *eol = strchr(at, '\n');
        if (sscanf(at, "tier=%d path=%7s", &t, way) == 2 && e != NULL && (eol == NULL || e < eol)) {
            assert_true(t >= 0 && t < max);
            est[t] = strtoull(e + 5, NULL, 10);
            parts[t] = strcmp(way, "parts") == 0;
            n++;
        }
    }
    free(all);
    return n;
}

/* The size past which a tier that can be checked by parts is no longer
 * checked whole (VERIFY_WHOLE_MAX, GAMESMAN_VERIFY_WHOLE_MAX), by memory
 * (no GAMESMAN_VERIFY_PATH), on a Connect Four 5x4 database of tier:blocks
 * (parts of 100000 records): unset, every tier whole (these tiers are
 * small), each one's estimate whole in its journal line; set to the
 * median of those estimates, exactly the tiers above it by parts (named
 * by their journal lines) and every position checked; 0, every tier by
 * parts; a size that is not a number refused. Tic-tac-toe (no fast path
 * of tiers: never by parts) stays whole at 0. */
static void verify_whole_max(void **state) {
    (void)state;
    Game *g = test_game("connect4:w=5,h=4");
    char *dir = make_dir();
    SolveResult res;
    Error err = {0};
    assert_int_equal(test_run_tier(g, "blocks,part=100000", 2, dir, &res, &err), ERR_OK);
    uint64_t positions = res.summary.positions;
    solve_result_free(&res);
    const int n = g->tiers->count(g);
    uint64_t est[64] = {0}, est2[64] = {0}, sorted[64];
    bool parts[64], parts2[64];
    assert_true(n <= 64);
    char *journal = test_strdupf("%s.journal", dir);
    Verified v = verify_journaled(g, dir, "", journal);
    if (v.rc != ERR_OK || v.checked != positions || v.whole != n || v.parts != 0) {
        fail_msg("unset: %d, %llu of %llu checked, %d whole, %d by parts: %s", v.rc,
                 (unsigned long long)v.checked, (unsigned long long)positions, v.whole, v.parts,
                 v.msg);
    }
    assert_int_equal(journal_tiers(journal, est, parts, n), n);
    memcpy(sorted, est, sizeof(uint64_t) * (size_t)n);
    sort_u64(sorted, n);
    uint64_t median = sorted[n / 2];
    int above = 0;
    for (int t = 0; t < n; t++) {
        assert_false(parts[t]);
        above += est[t] > median;
    }
    assert_true(above > 0 && above < n);
    char num[32];
    snprintf(num, sizeof num, "%llu", (unsigned long long)median);
    setenv("GAMESMAN_VERIFY_WHOLE_MAX", num, 1);
    unlink(journal);
    v = verify_journaled(g, dir, "", journal);
    if (v.rc != ERR_OK || v.checked != positions || v.parts != above || v.whole != n - above) {
        fail_msg("at %s bytes: %d, %llu of %llu checked, %d whole, %d by parts (want %d): %s", num,
                 v.rc, (unsigned long long)v.checked, (unsigned long long)positions, v.whole,
                 v.parts, above, v.msg);
    }
    assert_int_equal(journal_tiers(journal, est2, parts2, n), n);
    for (int t = 0; t < n; t++) {
        if (parts2[t] != (est[t] > median)) {
            fail_msg("at %s bytes: tier %d (%llu bytes whole) checked %s", num, t,
                     (unsigned long long)est[t], parts2[t] ? "by parts" : "whole");
        }
    }
    setenv("GAMESMAN_VERIFY_WHOLE_MAX", "0", 1);
    unlink(journal);
    v = verify_journaled(g, dir, "", journal);
    assert_int_equal(v.rc, ERR_OK);
    assert_int_equal(v.parts, n);
    assert_int_equal(v.whole, 0);
    setenv("GAMESMAN_VERIFY_WHOLE_MAX", "1G", 1);
    unlink(journal);
    v = verify_journaled(g, dir, "", journal);
    if (v.rc != ERR_USAGE || strstr(v.msg, "GAMESMAN_VERIFY_WHOLE_MAX is '1G'") == NULL) {
        fail_msg("1G: expected ERR_USAGE naming it, got %d: %s", v.rc, v.msg);
    }
    unlink(journal);
    test_remove_dir(dir);
    game_destroy(g);
    /* never by parts: whole whatever the size */
    g = test_game("tictactoe");
    dir = make_dir();
    tier_ok(g, dir);
    setenv("GAMESMAN_VERIFY_WHOLE_MAX", "0", 1);
    uint64_t checked = 0;
    int ways[3];
    assert_int_equal(verify_with(g, dir, NULL, NULL, 2, &checked, ways, &err), ERR_OK);
    assert_int_equal(ways[1], 0);
    assert_true(ways[0] > 0);
    unsetenv("GAMESMAN_VERIFY_WHOLE_MAX");
    free(journal);
    test_remove_dir(dir);
    game_destroy(g);
}

/* Connect Four 4x4 and 5x4 databases of tier:blocks, whole and by parts: a
 * verification with a journal is the one without; then a journal cut after
 * its first k tier lines, each k from 0 (the first line only) to every
 * tier (4x4; 5x4 some k), with the next line cut short after it (a stop
 * while writing it): k tiers taken, the others checked and appended, and
 * every figure that of the verification without a journal (the counts are
 * checked against the manifest's too: a tier counted twice or missed
 * fails). */
static void verify_journal_resume(void **state) {
    (void)state;
    const struct {
        const char *spec, *solver;
        int step;
    } cases[] = {{"connect4:w=4,h=4", "blocks,part=1000", 1},
                 {"connect4:w=5,h=4", "blocks,part=100000", 7}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        Game *g = test_game(cases[c].spec);
        char *dir = make_dir();
        SolveResult res;
        Error err = {0};
        assert_int_equal(test_run_tier(g, cases[c].solver, 2, dir, &res, &err), ERR_OK);
        solve_result_free(&res);
        int n = g->tiers->count(g);
        char *journal = path_in(dir, "journal");
        for (int p = 0; p < 2; p++) {
            const char *path = p == 0 ? "whole" : "parts";
            Verified ref = verify_journaled(g, dir, path, NULL);
            assert_int_equal(ref.rc, ERR_OK);
            unlink(journal);
            Verified full = verify_journaled(g, dir, path, journal);
            assert_same_verify(&ref, &full, "with a journal");
            assert_int_equal(full.taken, 0);
            char *all = slurp_text(journal);
            assert_int_equal(count_lines(all, "tier="), n);
            for (int k = 0; k <= n; k += k + cases[c].step > n && k < n ? n - k : cases[c].step) {
                /* the header and k tier lines, then half of the next */
                const char *cut = all;
                for (int i = 0; i <= k; i++) {
                    cut = strchr(cut, '\n') + 1;
                }
                const char *next = strchr(cut, '\n');
                size_t keep = (size_t)(cut - all) + (next != NULL ? (size_t)(next - cut) / 2 : 0);
                FILE *f = fopen(journal, "wb");
                assert_non_null(f);
                assert_int_equal(fwrite(all, 1, keep, f), keep);
                fclose(f);
                Verified v = verify_journaled(g, dir, path, journal);
                char *what = test_strdupf("%s %s, %d tier lines kept", cases[c].spec, path, k);
                assert_same_verify(&ref, &v, what);
                if (v.taken != k) {
                    fail_msg("%s: %d tiers taken", what, v.taken);
                }
                char *now = slurp_text(journal);
                assert_int_equal(count_lines(now, "tier="), n);
                assert_int_equal(strncmp(now, all, (size_t)(cut - all)), 0);
                assert_true(strlen(now) > 4 && strcmp(now + strlen(now) - 4, "end\n") == 0);
                free(now);
                free(what);
            }
            free(all);
        }
        free(journal);
        test_remove_dir(dir);
        game_destroy(g);
    }
}

/* Connect Four 4x4 (tier:blocks, parts of 1000 records): a tier whose
 * files differ from its journal line (tier 12's first header checksum
 * changed in the line) is checked again, and so is every tier above it
 * (their child tier was checked again): 4 tiers taken, 13 checked and
 * appended, the figures of a verification without a journal. Then a
 * record planted in tier 9 (its file rewritten with valid checksums, the
 * manifest too): the journal's tier 9 no longer matches, and the resumed
 * verification fails with the message of a fresh one, tiers 16 to 10
 * taken, nothing appended. A journal of the 5x4 database is refused (and
 * left as it was), as is a malformed line. */
static void verify_journal_changed(void **state) {
    (void)state;
    Game *g = test_game("connect4:w=4,h=4");
    char *dir = make_dir();
    SolveResult res;
    Error err = {0};
    assert_int_equal(test_run_tier(g, "blocks,part=1000", 2, dir, &res, &err), ERR_OK);
    solve_result_free(&res);
    char *journal = path_in(dir, "journal");
    Verified ref = verify_journaled(g, dir, "whole", NULL);
    assert_int_equal(ref.rc, ERR_OK);
    Verified v = verify_journaled(g, dir, "whole", journal);
    assert_same_verify(&ref, &v, "with a journal");
    char *all = slurp_text(journal);
    char *line = strstr(all, "\ntier=12 ");
    assert_non_null(line);
    char *sum = strstr(line, ".gmdb:") + strlen(".gmdb:");
    *sum = *sum == '0' ? '1' : '0';
    write_text(journal, all);
    v = verify_journaled(g, dir, "whole", journal);
    assert_same_verify(&ref, &v, "tier 12 changed");
    assert_int_equal(v.taken, 4);
    free(all);
    all = slurp_text(journal);
    assert_int_equal(count_lines(all, "tier="), 17 + 13);
    /* a planted loss in tier 9, with valid checksums */
    Store st;
    assert_int_equal(store_open(g, dir, &st, &err), ERR_OK);
    uint64_t index = 0;
    uint32_t raw = DB_UNREACHED;
    for (; raw == DB_UNREACHED || db_raw_value(&st.fmt, raw) != VALUE_WIN; index++) {
        WinBy w;
        assert_int_equal(store_get(&st, g->tiers->first(g, 9) + index, &raw, &w, &err), ERR_OK);
    }
    index--;
    store_close(&st);
    uint32_t old = rewrite_record(g, dir, 9, index, 0);
    rewrite_record(g, dir, 9, index, ((uint32_t)VALUE_LOSE << 6) | (old & 63));
    Verified fresh = verify_journaled(g, dir, "whole", NULL);
    assert_int_equal(fresh.rc, ERR_IO);
    assert_non_null(strstr(fresh.msg, "verification failed at tier-0009.gmdb index"));
    v = verify_journaled(g, dir, "whole", journal);
    assert_int_equal(v.rc, ERR_IO);
    assert_string_equal(v.msg, fresh.msg);
    assert_int_equal(v.taken, 7);
    char *now = slurp_text(journal);
    assert_string_equal(now, all);
    free(now);
    /* another database's journal, a malformed line */
    char *foreign = path_in(dir, "foreign");
    write_text(foreign, "gamesman-verify-journal 1 spec=connect4:w=5,h=4,k=4 solver=tier "
                        "layout=tiers tiers=21 width=1\n");
    v = verify_journaled(g, dir, "whole", foreign);
    assert_int_equal(v.rc, ERR_USAGE);
    assert_non_null(strstr(v.msg, "is of another database (spec=connect4:w=5,h=4,k=4"));
    assert_true(holds_text(foreign, "gamesman-verify-journal 1 spec=connect4:w=5,h=4,k=4 "
                                    "solver=tier layout=tiers tiers=21 width=1\n"));
    line = strstr(all, "\ntier=");
    char *hist = strstr(line, " hist=") + strlen(" hist=");
    *hist = 'x';
    write_text(journal, all);
    v = verify_journaled(g, dir, "whole", journal);
    assert_int_equal(v.rc, ERR_IO);
    assert_non_null(strstr(v.msg, "line 2 is malformed (a hist entry"));
    free(foreign);
    free(all);
    free(journal);
    test_remove_dir(dir);
    game_destroy(g);
}

/* ------------------------------------------------------------ compare */

/* Solves g by `solver` and saves the database to dir (layout slots), as
 * bin/solve --solver S --db DIR does; returns the positions reached (the
 * solve's own count). */
static uint64_t save_solve(const Game *g, const char *solver, const char *dir) {
    const SolverModule *s = NULL;
    SolveConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    Error err = {0};
    assert_int_equal(solver_lookup(solver, &s, &cfg, &err), ERR_OK);
    cfg.threads = 1; /* retro and symbolic run on one */
    SolveResult res;
    if (solver_run(s, g, &cfg, &res, &err) != ERR_OK) {
        fail_msg("%s: %s", solver, err.msg);
    }
    assert_true(res.has_db);
    DbSummary sum;
    assert_int_equal(db_summarize(&res.db, false, &sum, &err), ERR_OK);
    assert_int_equal(store_save(g, solver, &res, &sum, dir, 2, &err), ERR_OK);
    uint64_t n = sum.positions;
    db_summary_free(&sum);
    solve_result_free(&res);
    return n;
}

/* store_compare of the databases in a and b; the ErrCode (err's message). */
static ErrCode compare_dirs(const Game *g, const char *a, const char *b, int threads,
                            StoreCompare *c, Error *err) {
    Store sa, sb;
    assert_int_equal(store_open(g, a, &sa, err), ERR_OK);
    assert_int_equal(store_open(g, b, &sb, err), ERR_OK);
    ErrCode rc = store_compare(&sa, &sb, threads, false, c, err);
    store_close(&sa);
    store_close(&sb);
    return rc;
}

static void compare_equal_one(const Game *g, const char *a, const char *b, uint64_t positions) {
    for (int threads = 1; threads <= 2; threads++) {
        for (int swap = 0; swap < 2; swap++) {
            StoreCompare c;
            Error err = {0};
            if (compare_dirs(g, swap ? b : a, swap ? a : b, threads, &c, &err) != ERR_OK) {
                fail_msg("compare: %s", err.msg);
            }
            if (c.differ != 0 || c.shown != 0 || c.compared != positions || c.both != positions ||
                c.only[0] != 0 || c.only[1] != 0) {
                fail_msg("%s %s, %d threads: %llu compared, %llu in both, %llu differ; the solve "
                         "reached %llu",
                         g->module->name, g->variant, threads, (unsigned long long)c.compared,
                         (unsigned long long)c.both, (unsigned long long)c.differ,
                         (unsigned long long)positions);
            }
        }
    }
}

/* The same variant solved by retro (layout slots) and by tier (layout
 * tiers) compares equal, every position reached by the solve compared,
 * both ways round, on 1 and 2 threads: a tier-major hash (Topitop,
 * Dodgem, Connect Four, with and without sym: walk P), tiers by index
 * (tic-tac-toe with sym: walk T), and the symbolic solver's BDDs
 * (layout bdd). */
static void compare_equal(void **state) {
    (void)state;
    static const char *const specs[] = {
        "topitop:buckets=1,small=1,large=1",
        "topitop:buckets=1,small=1,large=1,sym",
        "dodgem",
        "connect4:w=4,h=3",
        "connect4:w=4,h=4,sym",
        "tictactoe:sym",
    };
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        Game *g = test_game(specs[k]);
        char *r = make_dir(), *t = make_dir();
        uint64_t n = save_solve(g, "retro", r);
        tier_ok(g, t);
        compare_equal_one(g, r, t, n);
        if (strcmp(specs[k], "connect4:w=4,h=3") == 0) {
            char *s = make_dir();
            save_solve(g, "symbolic", s);
            compare_equal_one(g, s, t, n);
            test_remove_dir(s);
        }
        test_remove_dir(r);
        test_remove_dir(t);
        game_destroy(g);
    }
}

/* The local index in tier t and the position of the first reached record
 * of value v in the tiers database dir (independent of store_compare:
 * store_get). */
static uint64_t first_of_value(const Game *g, const char *dir, int t, Value v, Position *pos,
                               uint32_t *raw) {
    Store st;
    Error err = {0};
    assert_int_equal(store_open(g, dir, &st, &err), ERR_OK);
    uint64_t size = g->tiers->size(g, t);
    for (uint64_t i = 0; i < size; i++) {
        WinBy w;
        *pos = g->tiers->first(g, t) + i;
        assert_int_equal(store_get(&st, *pos, raw, &w, &err), ERR_OK);
        if (*raw != DB_UNREACHED && db_raw_value(&st.fmt, *raw) == v) {
            store_close(&st);
            return i;
        }
    }
    store_close(&st);
    return size;
}

/* The first tier of the tiers database dir holding a win, its position,
 * record and local index (first_of_value's, the tiers in order). */
static int first_win(const Game *g, const char *dir, Position *pos, uint32_t *raw,
                     uint64_t *index) {
    int tier = 0;
    for (; tier < g->tiers->count(g); tier++) {
        *index = first_of_value(g, dir, tier, VALUE_WIN, pos, raw);
        if (*index < g->tiers->size(g, tier)) {
            break;
        }
    }
    assert_true(tier < g->tiers->count(g));
    return tier;
}

/* Expects exactly one difference, at pos, with records ra and rb. */
static void one_difference(const Game *g, const char *a, const char *b, Position pos, uint32_t ra,
                           uint32_t rb, uint64_t positions) {
    for (int threads = 1; threads <= 2; threads++) {
        StoreCompare c;
        Error err = {0};
        if (compare_dirs(g, a, b, threads, &c, &err) != ERR_OK) {
            fail_msg("compare: %s", err.msg);
        }
        if (c.differ != 1 || c.shown != 1 || c.diff[0].pos != pos || c.diff[0].raw[0] != ra ||
            c.diff[0].raw[1] != rb || c.compared != positions) {
            fail_msg("%d threads: %llu differ (want 1), first at %llu (want %llu), records %u "
                     "and %u (want %u and %u), %llu compared (want %llu)",
                     threads, (unsigned long long)c.differ,
                     (unsigned long long)(c.shown > 0 ? c.diff[0].pos : 0), (unsigned long long)pos,
                     c.shown > 0 ? c.diff[0].raw[0] : 0, c.shown > 0 ? c.diff[0].raw[1] : 0, ra, rb,
                     (unsigned long long)c.compared, (unsigned long long)positions);
        }
        assert_int_equal(c.only[0], ra != DB_UNREACHED && rb == DB_UNREACHED);
        assert_int_equal(c.only[1], ra == DB_UNREACHED && rb != DB_UNREACHED);
    }
}

/* One record of the tier database changed with valid checksums (as the
 * verify tests plant them) is found and named by position, with both
 * records: its remoteness alone (win in r + 2), its value (a loss in r),
 * the record erased (a position of b only); then twelve records of the
 * retro database spread over the hash space (erased): all twelve
 * counted, the ten at the smallest positions kept, on 1 and 2 threads;
 * and an undecided record is refused naming its file. */
static void compare_finds_planted(void **state) {
    (void)state;
    Game *g = test_game("topitop:buckets=1,small=1,large=1,sym");
    char *r = make_dir(), *t = make_dir();
    uint64_t n = save_solve(g, "retro", r);
    tier_ok(g, t);
    Position pos = 0;
    uint32_t raw = 0;
    uint64_t index = 0;
    int tier = first_win(g, t, &pos, &raw, &index);
    Store st;
    Error err = {0};
    assert_int_equal(store_open(g, t, &st, &err), ERR_OK);
    uint32_t r2 = 0, lose = 0;
    assert_true(db_encode(&st.fmt, VALUE_WIN, db_raw_remoteness(&st.fmt, raw) + 2, &r2));
    assert_true(db_encode(&st.fmt, VALUE_LOSE, db_raw_remoteness(&st.fmt, raw), &lose));
    store_close(&st);
    const uint32_t planted[] = {r2, lose, DB_UNREACHED};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(rewrite_record(g, t, tier, index, planted[k]),
                         k == 0 ? raw : planted[k - 1]);
        one_difference(g, t, r, pos, planted[k], raw, n);
    }
    rewrite_record(g, t, tier, index, raw);
    compare_equal_one(g, t, r, n);

    /* Twelve reached positions of the retro database, the first at or
     * after each twelfth of the hash space (which spans several chunks),
     * erased. */
    uint64_t space = g->num_positions;
    Position erased[12] = {0};
    int ne = 0;
    assert_int_equal(store_open(g, r, &st, &err), ERR_OK);
    for (Position p = 0; p < space && ne < 12; p++) {
        WinBy w;
        uint32_t x;
        assert_int_equal(store_get(&st, p, &x, &w, &err), ERR_OK);
        if (x != DB_UNREACHED && p >= (uint64_t)ne * (space / 12)) {
            erased[ne++] = p;
        }
    }
    store_close(&st);
    assert_int_equal(ne, 12);
    assert_true(erased[11] >= (UINT64_C(1) << 16)); /* two chunks at least */
    for (int k = 0; k < ne; k++) {
        rewrite_record(g, r, 0, erased[k], DB_UNREACHED);
    }
    for (int threads = 1; threads <= 2; threads++) {
        StoreCompare c;
        assert_int_equal(compare_dirs(g, t, r, threads, &c, &err), ERR_OK);
        assert_int_equal(c.differ, 12);
        assert_int_equal(c.only[0], 12);
        assert_int_equal(c.only[1], 0);
        assert_int_equal(c.compared, n);
        assert_int_equal(c.shown, STORE_COMPARE_SHOWN);
        for (int k = 0; k < STORE_COMPARE_SHOWN; k++) {
            assert_int_equal(c.diff[k].pos, erased[k]);
            assert_int_equal(c.diff[k].raw[1], DB_UNREACHED);
        }
    }

    /* A record no solve writes: refused, naming the file and record. */
    rewrite_record(g, t, tier, index, DB_VISITED);
    StoreCompare c;
    ErrCode rc = compare_dirs(g, r, t, 2, &c, &err);
    char *want = test_strdupf("tier-%04d.gmdb holds an undecided record (record %llu)", tier,
                              (unsigned long long)index);
    if (rc != ERR_IO || strstr(err.msg, want) == NULL) {
        fail_msg("expected '%s', got %d: %s", want, rc, err.msg);
    }
    free(want);
    test_remove_dir(r);
    test_remove_dir(t);
    game_destroy(g);
}

/* Walk T (tiers of a hash that is not tier-major: three men's morris,
 * whose tiers with sym hold one slot per symmetry class) against retro's
 * slots: a value flipped in the slots is named; a record planted at a
 * position that is not canonical (the mirror image of a reached one,
 * which has no slot in the tiers' layout, checked by the game's own
 * index) is counted as a position of the slots only, not named. */
static void compare_unslotted(void **state) {
    (void)state;
    Game *g = test_game("morris:n=3,sym");
    assert_null(g->tiers->first);
    char *r = make_dir(), *t = make_dir();
    uint64_t n = save_solve(g, "retro", r);
    tier_ok(g, t);
    Store st;
    Error err = {0};
    assert_int_equal(store_open(g, r, &st, &err), ERR_OK);
    Position p = 0, q = 0;
    uint32_t raw = 0;
    bool found = false;
    for (int tier = 0; tier < g->tiers->count(g) && !found; tier++) {
        for (uint64_t i = 0; i < g->tiers->size(g, tier) && !found; i++) {
            p = g->tiers->position_at(g, tier, i);
            WinBy w;
            assert_int_equal(store_get(&st, p, &raw, &w, &err), ERR_OK);
            if (raw == DB_UNREACHED) {
                continue;
            }
            char text[GAME_TEXT_MAX];
            g->ops->format(g, p, text, sizeof text);
            for (int row = 0; row < 3; row++) { /* the 3x3 board's outer columns swapped */
                char c = text[3 * row];
                text[3 * row] = text[3 * row + 2];
                text[3 * row + 2] = c;
            }
            q = test_parse_ok(g, text);
            if (q == p || g->ops->canonical(g, q) != p) {
                continue;
            }
            int tq = g->tiers->tier_of(g, q);
            uint64_t iq = g->tiers->index_of(g, q);
            found = iq >= g->tiers->size(g, tq) || g->tiers->position_at(g, tq, iq) != q;
        }
    }
    assert_true(found);
    uint32_t flip = 0; /* a win or a tie becomes a loss, a loss a win */
    Value v = db_raw_value(&st.fmt, raw) == VALUE_LOSE ? VALUE_WIN : VALUE_LOSE;
    assert_true(db_encode(&st.fmt, v, db_raw_remoteness(&st.fmt, raw), &flip));
    store_close(&st);
    assert_int_not_equal(flip, raw);
    rewrite_record(g, r, 0, p, flip);
    one_difference(g, r, t, p, flip, raw, n);
    rewrite_record(g, r, 0, p, raw);
    compare_equal_one(g, r, t, n);
    assert_int_equal(rewrite_record(g, r, 0, q, raw), DB_UNREACHED);
    for (int threads = 1; threads <= 2; threads++) {
        StoreCompare c;
        assert_int_equal(compare_dirs(g, t, r, threads, &c, &err), ERR_OK);
        assert_int_equal(c.differ, 1);
        assert_int_equal(c.only[1], 1);
        assert_int_equal(c.unnamed, 1);
        assert_int_equal(c.shown, 0);
        assert_int_equal(c.compared, n + 1);
    }
    test_remove_dir(r);
    test_remove_dir(t);
    game_destroy(g);
}

/* Compares the partial database s with the complete one c both ways
 * round on 1 and 2 threads: none differs, the n positions of c in both,
 * the all - n others of s counted beyond c's, none in one only. */
static void compare_partial_equal(const Game *g, const char *s, const char *c, uint64_t all,
                                  uint64_t n) {
    for (int threads = 1; threads <= 2; threads++) {
        for (int swap = 0; swap < 2; swap++) {
            StoreCompare x;
            Error err = {0};
            if (compare_dirs(g, swap ? c : s, swap ? s : c, threads, &x, &err) != ERR_OK) {
                fail_msg("compare: %s", err.msg);
            }
            if (x.differ != 0 || x.both != n || x.compared != all || x.beyond[swap] != all - n ||
                x.beyond[!swap] != 0 || x.only[0] != 0 || x.only[1] != 0 || !x.partial[swap] ||
                x.partial[!swap]) {
                fail_msg("%s %s, %d threads, swap %d: %llu differ, %llu in both (want %llu), "
                         "%llu compared (want %llu), beyond %llu and %llu",
                         g->module->name, g->variant, threads, swap, (unsigned long long)x.differ,
                         (unsigned long long)x.both, (unsigned long long)n,
                         (unsigned long long)x.compared, (unsigned long long)all,
                         (unsigned long long)x.beyond[0], (unsigned long long)x.beyond[1]);
            }
        }
    }
}

/* A partial database holding every tier (tier:sector from the initial
 * position's tier into an empty directory: every legal position of every
 * tier, reachable or not) against retro's and tier's (the reachable
 * positions only), Bagh Chal 3x3 with and without sym (walk T and walk
 * P): equal, every reachable position in both, the unreachable ones
 * counted beyond (so more than none), not differences. On the plain
 * variant a value flipped in the partial database is named with both
 * records, and a reachable record erased there is a difference (the
 * complete side not covered). */
static void compare_partial(void **state) {
    (void)state;
    static const char *const specs[] = {"baghchal:n=3", "baghchal:n=3,sym"};
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        Game *g = test_game(specs[k]);
        char *r = make_dir(), *t = make_dir(), *s = make_dir();
        uint64_t n = save_solve(g, "retro", r);
        tier_ok(g, t);
        char opts[64];
        snprintf(opts, sizeof opts, "sector=%d", g->tiers->tier_of(g, g->initial));
        SolveResult res;
        Error err = {0};
        assert_int_equal(test_run_tier(g, opts, 2, s, &res, &err), ERR_OK);
        solve_result_free(&res);
        Store st;
        assert_int_equal(store_open(g, s, &st, &err), ERR_OK);
        assert_true(st.m.partial && st.tiers_present > 1);
        DbSummary sum; /* the positions it holds, streamed from its files */
        assert_int_equal(store_analyze(&st, &sum, 2, &err), ERR_OK);
        uint64_t all = sum.positions;
        db_summary_free(&sum);
        store_close(&st);
        assert_true(all > n);
        compare_partial_equal(g, s, r, all, n);
        compare_partial_equal(g, s, t, all, n);
        if (g->tiers->first != NULL) {
            Position pos = 0;
            uint32_t raw = 0, lose = 0;
            uint64_t index = 0;
            int tier = first_win(g, t, &pos, &raw, &index);
            assert_int_equal(store_open(g, s, &st, &err), ERR_OK);
            assert_true(db_encode(&st.fmt, VALUE_LOSE, db_raw_remoteness(&st.fmt, raw), &lose));
            store_close(&st);
            assert_int_equal(rewrite_record(g, s, tier, index, lose), raw);
            one_difference(g, s, t, pos, lose, raw, all);
            rewrite_record(g, s, tier, index, DB_UNREACHED);
            one_difference(g, s, r, pos, DB_UNREACHED, raw, all);
            rewrite_record(g, s, tier, index, raw);
            compare_partial_equal(g, s, t, all, n);
        }
        test_remove_dir(r);
        test_remove_dir(t);
        test_remove_dir(s);
        game_destroy(g);
    }
}

/* ------------------------------------------------------ byte identity */

static unsigned char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long len = ftell(f);
    assert_true(len >= 0);
    rewind(f);
    unsigned char *b = malloc((size_t)len + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    *n = (size_t)len;
    return b;
}

/* The tier solver's files (written in the background while it solves)
 * are the same bytes, manifest included, for 1, 2 and 3 threads: the
 * database does not depend on how it was computed. */
static void files_identical_across_threads(void **state) {
    (void)state;
    const char *specs[] = {"connect4:w=4,h=4", "tictactoe"};
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        Game *g = test_game(specs[s]);
        char *dirs[3];
        for (int t = 0; t < 3; t++) {
            dirs[t] = make_dir();
            const SolverModule *m = solver_find("tier");
            SolveConfig cfg = {.threads = t + 1, .work_dir = dirs[t]};
            Error err = {0};
            assert_int_equal(options_parse(m->options, NULL, "tier", &cfg.options, &err), ERR_OK);
            SolveResult res;
            if (solver_run(m, g, &cfg, &res, &err) != ERR_OK) {
                fail_msg("%s, %d threads: %s", specs[s], t + 1, err.msg);
            }
            assert_true(res.saved_db);
            solve_result_free(&res);
        }
        int ntiers = g->tiers->count(g);
        for (int k = -1; k < ntiers; k++) {
            char name[DBSTORE_NAME_MAX];
            if (k < 0) {
                snprintf(name, sizeof name, "manifest");
            } else {
                store_tier_name(k, name, sizeof name);
            }
            size_t n0;
            char *p0 = path_in(dirs[0], name);
            unsigned char *b0 = slurp(p0, &n0);
            for (int t = 1; t < 3; t++) {
                size_t n;
                char *p = path_in(dirs[t], name);
                unsigned char *b = slurp(p, &n);
                if (n != n0 || memcmp(b, b0, n) != 0) {
                    fail_msg("%s: %s differs between 1 and %d threads", specs[s], name, t + 1);
                }
                free(b);
                free(p);
            }
            free(b0);
            free(p0);
        }
        for (int t = 0; t < 3; t++) {
            test_remove_dir(dirs[t]);
        }
        game_destroy(g);
    }
}

/* The header description of test file `index` of `count` (spec "test"). */
static DbStoreInfo file_info(DbStoreKind kind, int index, int count, uint32_t width, bool winby,
                             uint64_t records) {
    DbStoreInfo info = {.kind = kind,
                        .index = index,
                        .count = count,
                        .width = width,
                        .winby = winby,
                        .records = records};
    snprintf(info.spec, sizeof info.spec, "test");
    return info;
}

/* A new directory, open for writing and locked in *d. */
static char *locked_dir(DbDir *d) {
    char *dir = make_dir();
    Error err = {0};
    assert_int_equal(dbstore_dir_open(dir, true, d, &err), ERR_OK);
    assert_int_equal(dbstore_lock(d, &err), ERR_OK);
    return dir;
}

/* The background writer against dbstore_write: the same files, byte for
 * byte. Records: a pseudo-random pattern with runs of zeros, so that some
 * blocks are all zero (stored as nothing) and the others compress; sizes
 * that end in a partial block and span several pieces. */
static void writer_matches_direct(void **state) {
    (void)state;
    DbDir d;
    Error err = {0};
    char *dir = locked_dir(&d);
    const struct {
        uint32_t width;
        bool winby;
        DbStoreKind kind;
        uint64_t records;
    } files[] = {
        {1, false, DBSTORE_RECORDS, 40 * 4096 + 17},
        {1, true, DBSTORE_RECORDS, 20 * 4096 + 5},
        {2, false, DBSTORE_RECORDS, 30 * 2048 + 1},
        {2, true, DBSTORE_RECORDS, 3},
        {8, false, DBSTORE_REACH, 50 * 512 + 100},
        {1, false, DBSTORE_RECORDS, 0},
        /* large enough for a dictionary (DBSTORE_DICT_MIN_BLOCKS) */
        {1, false, DBSTORE_RECORDS, DBSTORE_DICT_MIN_BLOCKS * 4096 + 9},
        {1, true, DBSTORE_RECORDS, DBSTORE_DICT_MIN_BLOCKS * 4096},
        {2, false, DBSTORE_RECORDS, (DBSTORE_DICT_MIN_BLOCKS + 3) * 2048},
        {8, false, DBSTORE_REACH, DBSTORE_DICT_MIN_BLOCKS * 512 * 2},
    };
    enum { NFILES = sizeof files / sizeof files[0] };
    unsigned char *rec[NFILES];
    int16_t *wb[NFILES];
    uint64_t sum[NFILES], bytes[NFILES];
    uint64_t x = 88172645463325252u; /* xorshift64 */
    for (int f = 0; f < NFILES; f++) {
        uint64_t n = files[f].records * files[f].width;
        rec[f] = calloc(n + 1, 1);
        wb[f] = files[f].winby ? calloc(files[f].records + 1, sizeof(int16_t)) : NULL;
        assert_non_null(rec[f]);
        for (uint64_t i = 0; i < n; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            /* blocks 3, 4 and 9 of every file stay zero */
            uint64_t blk = i / 4096;
            rec[f][i] = blk == 3 || blk == 4 || blk == 9 || x % 3 == 0 ? 0 : (unsigned char)(x % 5);
            if (wb[f] != NULL && i < files[f].records && rec[f][i] != 0) {
                wb[f][i] = (int16_t)(x % 7) - 3;
            }
        }
    }
    /* the writer, its compressors paused for the first three files (the
     * caller compresses them), then free */
    for (int threads = 1; threads <= 3; threads += 2) {
        DbWriter *w = NULL;
        assert_int_equal(dbwriter_start(&d, threads, &w, &err), ERR_OK);
        dbwriter_pause(w);
        for (int f = 0; f < NFILES; f++) {
            if (f == 3) {
                dbwriter_resume(w);
            }
            DbStoreInfo info = file_info(files[f].kind, f, NFILES, files[f].width, files[f].winby,
                                         files[f].records);
            char name[32];
            snprintf(name, sizeof name, "w%d.gmdb", f);
            assert_int_equal(
                dbwriter_submit(w, name, &info, rec[f], wb[f], &sum[f], &bytes[f], &err), ERR_OK);
        }
        assert_int_equal(dbwriter_wait(w, &err), ERR_OK);
        assert_true(dbwriter_busy_seconds(w) > 0);
        dbwriter_stop(w);
        for (int f = 0; f < NFILES; f++) {
            DbStoreInfo info = file_info(files[f].kind, f, NFILES, files[f].width, files[f].winby,
                                         files[f].records);
            char name[32];
            snprintf(name, sizeof name, "d%d.gmdb", f);
            uint64_t dsum = 0, dbytes = 0;
            assert_int_equal(
                dbstore_write(&d, name, &info, rec[f], wb[f], threads, &dsum, &dbytes, &err),
                ERR_OK);
            assert_true(dsum == sum[f] && dbytes == bytes[f]);
            char *pw = test_strdupf("%s/w%d.gmdb", dir, f);
            char *pd = test_strdupf("%s/d%d.gmdb", dir, f);
            size_t nw, nd;
            unsigned char *bw = slurp(pw, &nw), *bd = slurp(pd, &nd);
            if (nw != nd || memcmp(bw, bd, nd) != 0 || nd != dbytes) {
                fail_msg("file %d (%u-byte records%s), %d threads: the writer's bytes differ "
                         "from dbstore_write's",
                         f, files[f].width, files[f].winby ? ", scores" : "", threads);
            }
            /* A dictionary exactly where the format gives one, and the
             * records read back through it. */
            uint32_t dict_bytes = (uint32_t)bd[344] | (uint32_t)bd[345] << 8 |
                                  (uint32_t)bd[346] << 16 | (uint32_t)bd[347] << 24;
            bool want_dict = files[f].kind == DBSTORE_RECORDS &&
                             dbstore_blocks(&info) >= DBSTORE_DICT_MIN_BLOCKS;
            if ((dict_bytes > 0) != want_dict || dict_bytes > DBSTORE_DICT_BYTES) {
                fail_msg("file %d (%llu blocks): dictionary of %u bytes", f,
                         (unsigned long long)dbstore_blocks(&info), dict_bytes);
            }
            uint64_t n = files[f].records * files[f].width;
            unsigned char *back = malloc(n + 1);
            int16_t *wback = files[f].winby ? malloc(files[f].records * 2 + 2) : NULL;
            bool found = false;
            assert_int_equal(
                dbstore_read(&d, name, &info, back, wback, threads, &found, NULL, NULL, &err),
                ERR_OK);
            assert_true(found);
            assert_memory_equal(back, rec[f], n);
            if (wback != NULL) {
                assert_memory_equal(wback, wb[f], files[f].records * 2);
            }
            free(back);
            free(wback);
            free(bw);
            free(bd);
            free(pw);
            free(pd);
        }
    }
    for (int f = 0; f < NFILES; f++) {
        free(rec[f]);
        free(wb[f]);
    }
    dbstore_dir_close(&d);
    test_remove_dir(dir);
}

/* Rewrites the header of the file at path with a valid checksum after
 * setting byte `at` to `value`. */
static void set_header_byte(const char *path, int at, unsigned char value) {
    int fd = open(path, O_RDWR);
    assert_true(fd >= 0);
    unsigned char h[DBSTORE_HEADER_BYTES];
    assert_int_equal(pread(fd, h, sizeof h, 0), (ssize_t)sizeof h);
    h[at] = value;
    uint64_t sum = dbfile_checksum(0, h, 504);
    for (int i = 0; i < 8; i++) {
        h[504 + i] = (unsigned char)(sum >> (8 * i));
    }
    assert_int_equal(pwrite(fd, h, sizeof h, 0), (ssize_t)sizeof h);
    close(fd);
}

/* Format 1 (no dictionary) is still read; a file whose dictionary is
 * damaged is refused by its own checksum, naming it. */
static void dictionary_versions(void **state) {
    (void)state;
    DbDir d;
    Error err = {0};
    char *dir = locked_dir(&d);
    uint64_t sizes[2] = {10 * 4096, DBSTORE_DICT_MIN_BLOCKS * 4096};
    for (int f = 0; f < 2; f++) {
        DbStoreInfo info = file_info(DBSTORE_RECORDS, f, 2, 1, false, sizes[f]);
        unsigned char *rec = malloc(sizes[f]), *back = malloc(sizes[f]);
        assert_true(rec != NULL && back != NULL);
        for (uint64_t i = 0; i < sizes[f]; i++) {
            rec[i] = (unsigned char)(i % 7 == 0 ? 0 : (i * 2654435761u) >> 29);
        }
        char name[32];
        snprintf(name, sizeof name, "v%d.gmdb", f);
        assert_int_equal(dbstore_write(&d, name, &info, rec, NULL, 1, NULL, NULL, &err), ERR_OK);
        char *path = test_strdupf("%s/%s", dir, name);
        bool found = false;
        if (f == 0) {
            /* no dictionary: the same bytes are a format 1 file */
            set_header_byte(path, 8, 1);
            assert_int_equal(dbstore_read(&d, name, &info, back, NULL, 1, &found, NULL, NULL, &err),
                             ERR_OK);
            assert_memory_equal(back, rec, sizes[f]);
        } else {
            int fd = open(path, O_RDWR);
            assert_true(fd >= 0);
            unsigned char b;
            assert_int_equal(pread(fd, &b, 1, DBSTORE_HEADER_BYTES + 100), 1);
            b ^= 0x10;
            assert_int_equal(pwrite(fd, &b, 1, DBSTORE_HEADER_BYTES + 100), 1);
            close(fd);
            assert_int_equal(dbstore_read(&d, name, &info, back, NULL, 1, &found, NULL, NULL, &err),
                             ERR_IO);
            if (strstr(err.msg, "v1.gmdb is corrupt (dictionary checksum mismatch)") == NULL) {
                fail_msg("a damaged dictionary: %s", err.msg);
            }
        }
        free(path);
        free(rec);
        free(back);
    }
    dbstore_dir_close(&d);
    test_remove_dir(dir);
}

/* A sector database (tier:sector, Gasser's method): a child sector of
 * three men's morris solved alone into DIR is a partial database: every
 * record of the tiers there reads back what retro solved for the
 * positions it reaches, a position of a tier not there is refused naming
 * it, analyze counts the tiers there (the solve's own summary), verify
 * checks every tier whose child tiers are there; then the start's sector
 * solved into the same directory lists more tiers, and reads the start's
 * value from disk as retro has it. */
static void sector_database(void **state) {
    (void)state;
    Game *g = test_game("morris:n=3");
    SolveResult retro;
    test_solve("retro", g, &retro);
    Position child;
    Error err = {0};
    assert_int_equal(g->ops->parse(g, "www---bbb:0:0:w", &child, &err), ERR_OK);
    int sub = g->tiers->tier_of(g, child);
    int root = g->tiers->tier_of(g, g->initial);
    assert_true(sub != root);
    char *dir = make_dir();
    char opts[64];
    SolveResult res;
    snprintf(opts, sizeof opts, "sector=%d,window", sub);
    assert_int_equal(test_run_tier(g, opts, 2, dir, &res, &err), ERR_OK);
    assert_true(res.saved_db && res.has_summary);
    Store st;
    if (store_open(g, dir, &st, &err) != ERR_OK) {
        fail_msg("open the sector database: %s", err.msg);
    }
    assert_true(st.m.partial && !st.m.complete);
    assert_true(st.tiers_present >= 1 && st.tiers_present < st.ntiers);
    uint64_t compared = 0;
    for (Position p = 0; p < g->num_positions; p++) {
        int t = g->tiers->tier_of(g, p);
        uint32_t want = db_peek(&retro.db, p), raw;
        WinBy w;
        if (t < 0 || want == DB_UNREACHED) {
            continue;
        }
        bool there = st.tier_file[t] < st.tier_file[t + 1];
        ErrCode rc = store_get(&st, p, &raw, &w, &err);
        if (there) {
            assert_int_equal(rc, ERR_OK);
            assert_int_equal(raw, want);
            compared++;
        } else if (rc != ERR_IO || strstr(err.msg, "a partial database") == NULL) {
            fail_msg("position %" PRIu64 " of tier %d (not there): %d %s", p, t, rc, err.msg);
        }
    }
    assert_true(compared > 0);
    DbSummary sum;
    assert_int_equal(store_analyze(&st, &sum, 2, &err), ERR_OK);
    assert_int_equal(sum.positions, res.summary.positions);
    assert_memory_equal(sum.count, res.summary.count, sizeof sum.count);
    db_summary_free(&sum);
    uint64_t checked = 0;
    if (store_verify(&st, 2, false, &checked, &err) != ERR_OK) {
        fail_msg("verify the sector database: %s", err.msg);
    }
    assert_true(checked > 0 && checked <= res.summary.positions);
    int present = st.tiers_present;
    store_close(&st);
    solve_result_free(&res);
    /* The start's sector, its children from disk: more tiers, the start. */
    snprintf(opts, sizeof opts, "sector=%d,window", root);
    assert_int_equal(test_run_tier(g, opts, 2, dir, &res, &err), ERR_OK);
    assert_int_equal(store_open(g, dir, &st, &err), ERR_OK);
    assert_true(st.m.partial && st.tiers_present > present);
    uint32_t raw;
    WinBy w;
    Position start = game_canonical(g, g->initial);
    assert_int_equal(store_get(&st, start, &raw, &w, &err), ERR_OK);
    assert_int_equal(raw, db_peek(&retro.db, start));
    store_close(&st);
    solve_result_free(&res);
    solve_result_free(&retro);
    test_remove_dir(dir);
    game_destroy(g);
}

/* ----------------------------------------------------- issue 10 items */

static char *path_in(const char *dir, const char *name) { return test_strdupf("%s/%s", dir, name); }

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static bool holds_text(const char *path, const char *text) {
    char buf[256] = {0};
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    return n == strlen(text) && memcmp(buf, text, n) == 0;
}

static void symlink_not_followed(void **state) {
    (void)state;
    Game *g = test_game("tictactoe");
    char *dir = make_dir(), *other = make_dir();
    char *victim = path_in(other, "victim");
    write_text(victim, "precious");
    tier_ok(g, dir);
    /* The reproduction: the tier file gone, a link planted as its
     * old temporary name. */
    char *tier = path_in(dir, "tier-0005.gmdb"), *tmp = path_in(dir, "tier-0005.gmdb.tmp");
    char *manifest = path_in(dir, "manifest");
    assert_int_equal(unlink(tier), 0);
    assert_int_equal(unlink(manifest), 0);
    assert_int_equal(symlink(victim, tmp), 0);
    tier_ok(g, dir);
    assert_true(holds_text(victim, "precious"));
    struct stat st;
    assert_int_equal(lstat(tier, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    /* Every temporary name this process could use taken by a link (the
     * writer below skips the lock's clean-up): refused, nothing followed. */
    DbDir d;
    Error err = {0};
    assert_int_equal(dbstore_dir_open(dir, true, &d, &err), ERR_OK);
    /* The writer numbers its temporary names with a process-wide counter
     * that the round trips above have advanced (a few thousand files):
     * plant far more than it can have reached. */
    for (int k = 0; k < TMP_NAMES_PLANTED; k++) {
        char *link = test_strdupf("%s/x.gmdb.tmp.%ld.%d", dir, (long)getpid(), k);
        assert_int_equal(symlink(victim, link), 0);
        free(link);
    }
    uint8_t rec[100] = {0};
    DbStoreInfo info = {
        .kind = DBSTORE_RECORDS, .index = 0, .count = 1, .width = 1, .records = 100};
    ErrCode rc = dbstore_write(&d, "x.gmdb", &info, rec, NULL, 1, NULL, NULL, &err);
    assert_int_equal(rc, ERR_IO);
    assert_non_null(strstr(err.msg, "every name is taken"));
    assert_true(holds_text(victim, "precious"));
    dbstore_dir_close(&d);
    free(tier);
    free(tmp);
    free(manifest);
    free(victim);
    test_remove_dir(other);
    test_remove_dir(dir);
    game_destroy(g);
}

static bool exists_in(const char *dir, const char *name) {
    char *p = path_in(dir, name);
    struct stat st;
    bool there = lstat(p, &st) == 0;
    free(p);
    return there;
}

/* Issue 33 D1: a writer removes only the temporary names it creates
 * itself (NAME.tmp.PID.K of a name the database writes), and only once it
 * has accepted the directory: the reproduction (report.tmp and
 * notes.tmp.bak survive a solve; draft.tmp survives a refused solve of
 * another variant), names close to the pattern survive, and a stale
 * temporary file of the pattern is still removed on resume. */
static const char *const user_files[] = {
    "report.tmp",      "notes.tmp.bak",           "draft.tmp",          "tier-0003.gmdb.tmp",
    "manifest.tmp.12", "manifest.tmp.12.3.bak",   "manifest.tmp.012.3", "Tier-0001.gmdb.tmp.5.1",
    "x.tmp.5.1",       "tier-0001.gmdb.tmp.-5.1",
};
#define USER_FILES (sizeof user_files / sizeof user_files[0])

static void only_own_tmp_removed(void **state) {
    (void)state;
    Game *g = test_game("tictactoe"), *other = test_game("tictactoe:misere");
    char *dir = make_dir();
    for (size_t i = 0; i < USER_FILES; i++) {
        char *p = path_in(dir, user_files[i]);
        write_text(p, "keep");
        free(p);
        assert_false(dbstore_tmp_name(user_files[i]));
    }
    tier_ok(g, dir);
    for (size_t i = 0; i < USER_FILES; i++) {
        if (!exists_in(dir, user_files[i])) {
            fail_msg("a solve removed the user's %s", user_files[i]);
        }
    }
    /* Stale temporary files of the pattern, of interrupted writers. */
    const char *stale[] = {"tier-0002.gmdb.tmp.4242.7", "manifest.tmp.1.0", "reach.gmdb.tmp.99.12",
                           "manifest-of-3.txt.tmp.77.0"};
    for (size_t i = 0; i < sizeof stale / sizeof stale[0]; i++) {
        char *p = path_in(dir, stale[i]);
        write_text(p, "half a file");
        free(p);
        assert_true(dbstore_tmp_name(stale[i]));
    }
    /* Refused (another variant): nothing removed, not even stale ones. */
    tier_refused(other, dir, "another game variant");
    for (size_t i = 0; i < USER_FILES; i++) {
        if (!exists_in(dir, user_files[i])) {
            fail_msg("a refused solve removed the user's %s", user_files[i]);
        }
    }
    for (size_t i = 0; i < sizeof stale / sizeof stale[0]; i++) {
        if (!exists_in(dir, stale[i])) {
            fail_msg("a refused solve removed %s", stale[i]);
        }
    }
    /* Accepted (a resume): the stale ones go, the user's stay. */
    tier_ok(g, dir);
    for (size_t i = 0; i < sizeof stale / sizeof stale[0]; i++) {
        if (exists_in(dir, stale[i])) {
            fail_msg("the resume left the stale %s", stale[i]);
        }
    }
    for (size_t i = 0; i < USER_FILES; i++) {
        if (!exists_in(dir, user_files[i])) {
            fail_msg("the resume removed the user's %s", user_files[i]);
        }
    }
    /* Another user's file of the pattern (a shared sticky directory; only
     * root can make one here) stays. */
    if (geteuid() == 0) {
        char *p = path_in(dir, "tier-0004.gmdb.tmp.31337.0");
        write_text(p, "another user's");
        assert_int_equal(chown(p, 12345, 12345), 0);
        tier_ok(g, dir);
        assert_true(exists_in(dir, "tier-0004.gmdb.tmp.31337.0"));
        free(p);
    }
    test_remove_dir(dir);
    game_destroy(g);
    game_destroy(other);
}

static void world_writable_refused(void **state) {
    (void)state;
    Game *g = test_game("tictactoe");
    char *dir = make_dir();
    assert_int_equal(chmod(dir, 0777), 0);
    tier_refused(g, dir, "can be written by every user and has no sticky bit");
    assert_int_equal(chmod(dir, 01777), 0);
    tier_ok(g, dir);
    assert_int_equal(chmod(dir, 0700), 0);
    test_remove_dir(dir);
    game_destroy(g);
}

static void fifo_refused(void **state) {
    (void)state;
    Game *g = test_game("tictactoe");
    static const char *const names[] = {"tier-0003.gmdb", "reach.gmdb", "lock"};
    for (int i = 0; i < 3; i++) {
        char *dir = make_dir();
        char *fifo = path_in(dir, names[i]);
        assert_int_equal(mkfifo(fifo, 0644), 0);
        tier_refused(g, dir, "not a regular file");
        free(fifo);
        test_remove_dir(dir);
    }
    /* The manifest, to the reader. */
    char *dir = make_dir();
    char *fifo = path_in(dir, "manifest");
    assert_int_equal(mkfifo(fifo, 0644), 0);
    store_refused(g, dir, "not a regular file");
    free(fifo);
    test_remove_dir(dir);
    game_destroy(g);
}

static void second_writer_refused(void **state) {
    (void)state;
    Game *g = test_game("tictactoe");
    char *dir = make_dir();
    DbDir d;
    Error err = {0};
    assert_int_equal(dbstore_dir_open(dir, true, &d, &err), ERR_OK);
    assert_int_equal(dbstore_lock(&d, &err), ERR_OK);
    /* flock locks belong to an open file: the solve's own open conflicts. */
    char *pid = test_strdupf("process %ld holds", (long)getpid());
    tier_refused(g, dir, pid);
    dbstore_dir_close(&d);
    tier_ok(g, dir);
    free(pid);
    test_remove_dir(dir);
    game_destroy(g);
}

/* The reach file of tic-tac-toe's tiers, crafted: words of each tier, in
 * tier order (core/dbstore.h kind 2), with bits given per tier. */
static void write_reach(const Game *g, const char *dir, uint64_t tier0_word0) {
    int n = g->tiers->count(g);
    uint64_t words = 0;
    for (int t = 0; t < n; t++) {
        words += (g->tiers->size(g, t) + 63) / 64;
    }
    uint64_t *bits = calloc(words, 8);
    assert_non_null(bits);
    bits[0] = tier0_word0;
    DbDir d;
    Error err = {0};
    assert_int_equal(dbstore_dir_open(dir, true, &d, &err), ERR_OK);
    DbStoreInfo info = {
        .kind = DBSTORE_REACH, .index = -1, .count = n, .width = 8, .records = words};
    game_spec(g, info.spec, sizeof info.spec);
    assert_int_equal(dbstore_write(&d, "reach.gmdb", &info, bits, NULL, 1, NULL, NULL, &err),
                     ERR_OK);
    dbstore_dir_close(&d);
    free(bits);
}

/* A tier file of `tier` with every record `fill`, except record `at` set
 * to `raw` (when at < size). */
static void write_tier(const Game *g, const char *dir, int tier, uint8_t fill, uint64_t at,
                       uint8_t raw) {
    uint64_t size = g->tiers->size(g, tier);
    uint8_t *rec = malloc(size);
    assert_non_null(rec);
    memset(rec, fill, size);
    if (at < size) {
        rec[at] = raw;
    }
    DbDir d;
    Error err = {0};
    assert_int_equal(dbstore_dir_open(dir, true, &d, &err), ERR_OK);
    DbStoreInfo info = {.kind = DBSTORE_RECORDS,
                        .index = tier,
                        .count = g->tiers->count(g),
                        .width = 1,
                        .records = size};
    game_spec(g, info.spec, sizeof info.spec);
    char name[DBSTORE_NAME_MAX];
    store_tier_name(tier, name, sizeof name);
    assert_int_equal(dbstore_write(&d, name, &info, rec, NULL, 1, NULL, NULL, &err), ERR_OK);
    dbstore_dir_close(&d);
    free(rec);
}

static void crafted_files_refused(void **state) {
    (void)state;
    Game *g = test_game("tictactoe");
    /* Tier 0 is the empty board alone: one position, so bits 1..63 of its
     * word are padding. Bit 5 there is the heap overflow of item 2; the
     * ASan build proves it is refused before anything is written. */
    char *dir = make_dir();
    write_reach(g, dir, 1 | UINT64_C(1) << 5);
    tier_refused(g, dir, "bits past the end of tier 0");
    write_reach(g, dir, 0);
    tier_refused(g, dir, "the initial position is not reached");
    test_remove_dir(dir);
    /* Tier files against the bitmaps of a real forward pass. */
    dir = make_dir();
    write_tier(g, dir, 5, 0xFF, UINT64_MAX, 0);
    tier_refused(g, dir, "tier-0005.gmdb holds impossible records");
    test_remove_dir(dir);
    dir = make_dir();
    write_tier(g, dir, 0, 0, 0, DB_DRAW);
    tier_refused(g, dir, "a draw, in a game that cannot draw");
    write_tier(g, dir, 0, 0, 0, DB_VISITED);
    tier_refused(g, dir, "an undecided record");
    write_tier(g, dir, 0, 0, 0, 0);
    tier_refused(g, dir, "no record for a reachable position");
    test_remove_dir(dir);
    game_destroy(g);
}

static void bad_dirs_refused(void **state) {
    (void)state;
    Game *g = test_game("tictactoe"), *other = test_game("tictactoe:misere");
    store_refused(g, "/nonexistent/test_store", "cannot open the database directory");
    char *dir = make_dir();
    tier_ok(g, dir);
    store_refused(other, dir, "holds the database of tictactoe, not tictactoe:misere");
    /* Another format version, with a valid header checksum. */
    char *tier = path_in(dir, "tier-0004.gmdb");
    set_header_byte(tier, 8, DBSTORE_VERSION + 1);
    tier_refused(g, dir, "has format version 3, this build reads 1 to 2");
    /* Half-written: no manifest. */
    char *manifest = path_in(dir, "manifest");
    assert_int_equal(unlink(manifest), 0);
    store_refused(g, dir, "holds no complete database");
    /* A manifest cut short. */
    write_text(manifest, "format 1\nspec tictactoe\n");
    store_refused(g, dir, "not complete (no checksum line");
    free(manifest);
    free(tier);
    test_remove_dir(dir);
    game_destroy(g);
    game_destroy(other);
}

/* A shared store (store_share: several readers at once) keeps the
 * descriptor of a file being read: with room for one descriptor, the
 * clock that closes one to open another passes over a file a reader is in
 * (busy), and closes it once none is. The reads by a second reader equal
 * the first's. Connect Four 4x4 by tier:blocks (parts of 1000 records). */
static void shared_store_keeps_busy_files(void **state) {
    (void)state;
    Game *g = test_game("connect4:w=4,h=4");
    char *dir = make_dir();
    SolveResult res;
    Error err = {0};
    if (test_run_tier(g, "blocks,part=1000", 2, dir, &res, &err) != ERR_OK) {
        fail_msg("tier:blocks: %s", err.msg);
    }
    solve_result_free(&res);
    Store st;
    assert_int_equal(store_open(g, dir, &st, &err), ERR_OK);
    assert_true(st.nfiles > 3);
    assert_true(store_share(&st));
    st.fd_cap = 1;
    StoreReader r2;
    assert_int_equal(store_reader_init(&r2, &err), ERR_OK);
    /* a reached position of each of three files, read by r2 */
    int file[3];
    Position at[3];
    int found = 0;
    for (int k = 0; k < st.nfiles && found < 3; k++) {
        int t = st.m.files[k].index;
        for (uint64_t i = 0; i < st.m.files[k].records; i++) {
            Position p = g->tiers->first(g, t) + st.m.files[k].first + i;
            uint32_t raw;
            WinBy w;
            assert_int_equal(store_read(&st, &r2, p, &raw, &w, &err), ERR_OK);
            if (raw != DB_UNREACHED) {
                file[found] = k;
                at[found++] = p;
                break;
            }
        }
    }
    assert_int_equal(found, 3);
    uint32_t raw, raw2;
    WinBy w;
    assert_int_equal(store_get(&st, at[0], &raw, &w, &err), ERR_OK);
    assert_int_equal(store_read(&st, &r2, at[0], &raw2, &w, &err), ERR_OK);
    assert_int_equal(raw, raw2);
    assert_true(st.files[file[0]].fd >= 0);
    st.busy[file[0]] = 1; /* a reader in file 0 */
    assert_int_equal(store_get(&st, at[1], &raw, &w, &err), ERR_OK);
    assert_true(st.files[file[0]].fd >= 0); /* kept, over the budget */
    assert_true(st.files[file[1]].fd >= 0);
    st.busy[file[0]] = 0;
    assert_int_equal(store_get(&st, at[2], &raw, &w, &err), ERR_OK);
    assert_true(st.files[file[2]].fd >= 0);
    assert_true(st.files[file[0]].fd < 0 || st.files[file[1]].fd < 0);
    assert_int_equal(st.busy[file[0]] + st.busy[file[1]] + st.busy[file[2]], 0);
    store_reader_free(&r2);
    store_close(&st);
    test_remove_dir(dir);
    game_destroy(g);
}

int main(void) {
    size_t n;
    char **specs = test_game_specs(&n);
    const struct {
        const char *name;
        void (*fn)(void **);
    } fixed[] = {
        {"verify catches a flipped record", verify_catches_flip},
        {"verify catches a flipped record (tier fast path)", verify_catches_flip_fast},
        {"verify by parts: good databases of tier:blocks and tier:window", verify_parts_good},
        {"a shared store keeps the descriptor of a file being read", shared_store_keeps_busy_files},
        {"verify: past VERIFY_WHOLE_MAX by parts, below it whole", verify_whole_max},
        {"verify by parts: a flipped record named as whole", verify_parts_flip},
        {"verify by parts: a missing part, a corrupt block, the budget", verify_parts_refusals},
        {"verify journal: stopped anywhere, resumed to the same figures", verify_journal_resume},
        {"verify journal: a changed tier checked again, a foreign journal refused",
         verify_journal_changed},
        {"analyze refuses a record no solve writes, the first file named",
         analyze_refuses_bad_record},
        {"compare: retro and tier databases equal (every layout and walk)", compare_equal},
        {"compare: planted differences found and named", compare_finds_planted},
        {"compare: tiers by index against slots, an unslotted record counted", compare_unslotted},
        {"compare: a partial database against complete ones", compare_partial},
        {"tier files byte-identical for 1, 2, 3 threads", files_identical_across_threads},
        {"background writer: the bytes of dbstore_write", writer_matches_direct},
        {"format 1 read, a damaged dictionary refused", dictionary_versions},
        {"a sector database (tier:sector): partial, read and verified", sector_database},
        {"item 1: a planted symlink is not followed", symlink_not_followed},
        {"D1: only the writer's own temporary files removed, after acceptance",
         only_own_tmp_removed},
        {"item 1: a world-writable directory without sticky bit is refused",
         world_writable_refused},
        {"item 9: FIFOs refused without waiting", fifo_refused},
        {"item 8: a second writer is refused naming the PID", second_writer_refused},
        {"items 2, 3: crafted bitmaps and records refused", crafted_files_refused},
        {"bad directories refused", bad_dirs_refused},
    };
    struct CMUnitTest *tests = calloc(n + sizeof fixed / sizeof fixed[0], sizeof *tests);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        tests[k++] =
            (struct CMUnitTest){.name = test_strdupf("round trip through the disk on %s", specs[i]),
                                .test_func = round_trip,
                                .initial_state = specs[i]};
    }
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        tests[k++] = (struct CMUnitTest){.name = test_strdupf("%s", fixed[i].name),
                                         .test_func = fixed[i].fn};
    }
    int rc = test_run_group("store", tests, k);
    free(tests);
    test_free_specs(specs);
    return rc;
}
