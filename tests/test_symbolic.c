/* tests/test_symbolic.c: the symbolic (BDD) solver beyond the dfs
 * cross-check of tests/test_solvers.c (which already compares its database
 * with dfs, value and remoteness, on every test variant of tic-tac-toe and
 * Connect Four).
 *
 *   - Positions per ply of the forward pass equal published counts:
 *     tic-tac-toe 1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78 (5,478 in
 *     all; OEIS A008907, "number of positions in tic-tac-toe after n
 *     moves"), Connect Four 4x4 161,029 and 5x4 3,945,711 in all (John
 *     Tromp's table of Connect Four positions by board size, cited in
 *     docs/connect-four.md; in both encodings, the cells' and `tromp`), and per ply equal
 *     the tier solver's reachable positions of
 *     each tier (its positions by remoteness summed per tier are not
 *     exposed, so per ply it is the dfs reach set, counted by pieces).
 *   - Connect Four 5x4 (heavy): every position's value and remoteness equal
 *     the tier solver's.
 *   - Win/lose/tie only (remoteness=0): the totals and the root value equal
 *     the tier solver's; no database is kept (it would lack remoteness).
 *   - Without a database (export_max=0), the totals and the histogram by
 *     remoteness equal the tier solver's, with each preimage formulation
 *     (relprod=0: a cofactor per move, 1: a product per group of moves,
 *     2: one product over the whole relation, the default), with and
 *     without the care-set simplification (simplify).
 *   - Refusals: a game without an encoding (ERR_UNSUPPORTED, naming it),
 *     --threads 2 (ERR_USAGE), a node table too small (ERR_MEMORY, no crash).
 *   - The database on disk (--db, solvers/symbolic_db.h): on tic-tac-toe
 *     (and misere) and Connect Four 4x4, the record read from the saved BDDs
 *     of every slot of the hash space (reachable or not) equals the dfs
 *     solver's; --verify's check passes; a solve resumed from some saved
 *     plies (the others removed) gives the same database and says how many
 *     it loaded, and without a database to export (the saved plies above
 *     the lowest only counted from their files) the tier solver's totals
 *     and histogram; no reachable set's file is left behind; a flipped byte in a ply file, another
 * variant and another remoteness option are refused with ERR_IO.
 *   - Crafted ply files (written by hand or by the suite's writers, every
 *     checksum valid): an impossible size (issue 33, D2) is refused, and so
 *     are stored counts that are not the sets' (two sets of a class trading
 *     one position, every total still adding up), which --verify passed.
 */
#include "tests/testutil.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "core/dbfile.h"
#include "core/dbstore.h"
#include "core/le.h"
#include "core/mem.h"
#include "solvers/store.h"
#include "solvers/symbolic.h"
#include "solvers/symbolic_db.h"

static ErrCode run_symbolic(const Game *g, const char *opts, int threads, SolveResult *res,
                            Error *err) {
    const SolverModule *s = solver_find("symbolic");
    assert_non_null(s);
    SolveConfig cfg = {.threads = threads};
    assert_int_equal(options_parse(s->options, opts, "symbolic", &cfg.options, err), ERR_OK);
    return solver_run(s, g, &cfg, res, err);
}

static void symbolic_ok(const Game *g, const char *opts, SolveResult *res) {
    Error err = {0};
    if (run_symbolic(g, opts, 1, res, &err) != ERR_OK) {
        fail_msg("symbolic:%s on %s:%s: %s", opts ? opts : "", g->module->name, g->variant,
                 err.msg);
    }
}

/* Reachable positions of g by number of moves (dfs reach set, BFS). */
static void reach_by_ply(const Game *g, uint64_t *per_ply, int n) {
    Reach r;
    test_reach(g, &r);
    memset(per_ply, 0, (size_t)n * sizeof *per_ply);
    for (uint64_t i = 0; i < r.count; i++) {
        int t = g->tiers->tier_of(g, r.list[i]); /* pieces on the board */
        assert_true(t >= 0 && t < n);
        per_ply[t]++;
    }
    test_reach_free(&r);
}

static void plies_of(const char *spec, const uint64_t *expect, int nexpect, uint64_t total) {
    Game *g = test_game(spec);
    uint64_t counts[65] = {0}, reach[65];
    int plies = 0;
    Error err = {0};
    assert_int_equal(symbolic_ply_counts(g, counts, 65, &plies, &err), ERR_OK);
    uint64_t sum = 0;
    for (int p = 0; p < plies; p++) {
        sum += counts[p];
    }
    assert_int_equal(sum, total);
    for (int p = 0; p < nexpect; p++) {
        assert_int_equal(counts[p], expect[p]);
    }
    if (test_heavy_enabled() || total < 200000) {
        reach_by_ply(g, reach, 65);
        for (int p = 0; p < 65; p++) {
            assert_int_equal(p < plies ? counts[p] : 0, reach[p]);
        }
    }
    game_destroy(g);
}

static void tictactoe_plies(void **state) {
    (void)state;
    /* OEIS A008907. */
    static const uint64_t a008907[] = {1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78};
    plies_of("tictactoe", a008907, 10, 5478);
}

static void connect4_4x4_plies(void **state) {
    (void)state;
    plies_of("connect4:w=4,h=4", NULL, 0, 161029); /* Tromp */
}

static void connect4_5x4_plies(void **state) {
    (void)state;
    plies_of("connect4:w=5,h=4", NULL, 0, 3945711); /* Tromp */
}

/* The same board in the compact encoding (option tromp). */
static void connect4_5x4_tromp_plies(void **state) {
    (void)state;
    plies_of("connect4:w=5,h=4,tromp", NULL, 0, 3945711); /* Tromp */
}

/* Every position of connect4 5x4: symbolic (with remoteness) equals tier. */
static void connect4_5x4_equals_tier(void **state) {
    (void)state;
    if (!test_heavy_enabled()) {
        skip();
    }
    Game *g = test_game("connect4:w=5,h=4");
    SolveResult sym, tier;
    symbolic_ok(g, NULL, &sym);
    test_solve("tier", g, &tier);
    assert_true(sym.has_db && tier.has_db);
    assert_int_equal(test_extra(&sym, "positions_counted"), 3945711);
    test_assert_same_db(&sym.db, &tier.db);
    assert_int_equal(sym.root.value, tier.root.value);
    assert_int_equal(sym.root.remoteness, tier.root.remoteness);
    solve_result_free(&sym);
    solve_result_free(&tier);
    game_destroy(g);
}

/* Totals of a tier solve (with the histogram by remoteness). */
static void tier_totals(const Game *g, SolveResult *tier, DbSummary *sum) {
    test_solve("tier", g, tier);
    Error err = {0};
    assert_int_equal(db_summarize(&tier->db, true, sum, &err), ERR_OK);
}

static void wdl_only_matches_tier(void **state) {
    const char *spec = *state;
    Game *g = test_game(spec);
    SolveResult sym, tier;
    DbSummary ts;
    symbolic_ok(g, "remoteness=0", &sym);
    tier_totals(g, &tier, &ts);
    assert_false(sym.has_db);
    assert_true(sym.has_summary);
    assert_int_equal(sym.root.value, tier.root.value);
    assert_int_equal(sym.summary.positions, ts.positions);
    for (int v = 0; v < VALUE_COUNT; v++) {
        assert_int_equal(sym.summary.count[v], ts.count[v]);
    }
    assert_int_equal(test_extra(&sym, "remoteness"), 0);
    db_summary_free(&ts);
    solve_result_free(&sym);
    solve_result_free(&tier);
    game_destroy(g);
}

/* A symbolic solve without a database: its root, totals and histogram by
 * remoteness are the tier solve's. */
static void assert_summary_is_tier(const SolveResult *sym, const SolveResult *tier,
                                   const DbSummary *ts) {
    assert_false(sym->has_db);
    assert_true(sym->has_summary);
    assert_non_null(sym->summary.by_remoteness);
    assert_int_equal(sym->root.value, tier->root.value);
    assert_int_equal(sym->root.remoteness, tier->root.remoteness);
    assert_int_equal(sym->summary.positions, ts->positions);
    assert_int_equal(sym->summary.max_remoteness, ts->max_remoteness);
    for (uint32_t r = 0; r <= ts->max_remoteness; r++) {
        for (int v = 0; v < VALUE_COUNT; v++) {
            assert_int_equal(sym->summary.by_remoteness[r][v], ts->by_remoteness[r][v]);
        }
    }
}

static void summary_matches_tier_with(const char *spec, const char *opts) {
    Game *g = test_game(spec);
    SolveResult sym, tier;
    DbSummary ts;
    symbolic_ok(g, opts, &sym);
    tier_totals(g, &tier, &ts);
    assert_summary_is_tier(&sym, &tier, &ts);
    db_summary_free(&ts);
    solve_result_free(&sym);
    solve_result_free(&tier);
    game_destroy(g);
}

static void summary_matches_tier(void **state) {
    summary_matches_tier_with(*state, "export_max=0");
}

/* The other preimage formulations (one cofactor per move, one relational
 * product per group of moves; the default is one product over the whole
 * transition relation), with and without the care-set simplification,
 * give the same sets. */
static void relprod_matches_tier(void **state) {
    static const char *const opts[] = {
        "export_max=0,relprod=0", "export_max=0,relprod=1", "export_max=0,relprod=0,simplify=1",
        "export_max=0,relprod=1,simplify=1", "export_max=0,relprod=2,simplify=1"};
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++) {
        summary_matches_tier_with(*state, opts[i]);
    }
}

/* BuDDy's tables on huge pages (thp=1, the default) or not: the same sets;
 * the solve reports whether the arena was used (jemalloc builds only) and
 * gives the thread its own arena back (a block malloc'd after the solve is
 * not advised). */
static void huge_pages_either_way(void **state) {
    (void)state;
    static const char *const opts[] = {"export_max=0", "export_max=0,thp=0", "export_max=0,thp=1"};
    static const bool want[] = {true, false, true};
    Game *g = test_game("connect4:w=4,h=4");
    SolveResult tier;
    DbSummary ts;
    tier_totals(g, &tier, &ts);
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++) {
        SolveResult sym;
        symbolic_ok(g, opts[i], &sym);
        assert_summary_is_tier(&sym, &tier, &ts);
        assert_int_equal(test_extra(&sym, "huge_arena"), want[i] && mem_have_jemalloc());
        solve_result_free(&sym);
        const size_t n = (size_t)64 << 20;
        char *after = malloc(n);
        assert_non_null(after);
        assert_true(test_advised_huge(after + n / 2) <= 0);
        free(after);
    }
    db_summary_free(&ts);
    solve_result_free(&tier);
    game_destroy(g);
}

/* ---------------------------------------------------------- on disk */

static char *make_dir(void) { return test_make_dir("test_symbolic"); }

static ErrCode run_saving(const Game *g, const char *opts, const char *dir, SolveResult *res,
                          Error *err) {
    const SolverModule *s = solver_find("symbolic");
    SolveConfig cfg = {.threads = 1, .work_dir = dir};
    assert_int_equal(options_parse(s->options, opts, "symbolic", &cfg.options, err), ERR_OK);
    return solver_run(s, g, &cfg, res, err);
}

/* The node table made whole at the start (prealloc=1): its size is the
 * bound's (the first prime from it on), it is never resized, and the sets
 * are the same. Under a budget the bound counts 38 bytes a node instead of
 * the growing table's 48 (20 + 18 against 30 + 18; caches at cache_ratio 8):
 * 48/38 = 1.263 times the nodes. A table started at its bound (nodes =
 * max_nodes) solves too (BuDDy refuses a bound set below its table). */
static void node_table_whole(void **state) {
    (void)state;
    Game *g = test_game("connect4:w=4,h=4");
    SolveResult tier;
    DbSummary ts;
    tier_totals(g, &tier, &ts);
    static const char *const opts[] = {"export_max=0,prealloc=1,max_nodes=3000000",
                                       "export_max=0,nodes=3000000,max_nodes=3000000"};
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++) {
        SolveResult sym;
        symbolic_ok(g, opts[i], &sym);
        assert_summary_is_tier(&sym, &tier, &ts);
        double table = test_extra(&sym, "node_table_peak");
        assert_true(table >= 3000000 && table < 3000100);
        solve_result_free(&sym);
    }
    mem_set_limit((uint64_t)512 << 20);
    SolveResult grow, whole, saving;
    symbolic_ok(g, "export_max=0", &grow);
    symbolic_ok(g, "export_max=0,prealloc=1", &whole);
    /* With --db a whole table leaves a quarter of the room to a ply's dump. */
    char *dir = make_dir();
    Error err = {0};
    assert_int_equal(run_saving(g, "prealloc=1", dir, &saving, &err), ERR_OK);
    mem_set_limit(0);
    double ratio = test_extra(&whole, "node_table_max") / test_extra(&grow, "node_table_max");
    assert_true(ratio > 1.25 && ratio < 1.28);
    ratio = test_extra(&saving, "node_table_max") / test_extra(&whole, "node_table_max");
    assert_true(ratio > 0.73 && ratio < 0.77);
    solve_result_free(&saving);
    test_remove_dir(dir);
    assert_true(test_extra(&whole, "node_table_peak") >= test_extra(&whole, "node_table_max"));
    assert_true(test_extra(&grow, "node_table_peak") < test_extra(&grow, "node_table_max"));
    assert_summary_is_tier(&whole, &tier, &ts);
    solve_result_free(&grow);
    solve_result_free(&whole);
    db_summary_free(&ts);
    solve_result_free(&tier);
    game_destroy(g);
}

/* Every slot of g's hash space read from dir equals ref's record. */
static void assert_disk_equals(const Game *g, const char *dir, const Database *ref) {
    Store st;
    Error err = {0};
    if (store_open(g, dir, &st, &err) != ERR_OK) {
        fail_msg("store_open %s: %s", dir, err.msg);
    }
    assert_non_null(st.bdd);
    for (Position p = 0; p < g->num_positions; p++) {
        uint32_t raw = 0;
        WinBy w = 1;
        if (store_get(&st, p, &raw, &w, &err) != ERR_OK) {
            fail_msg("store_get %" PRIu64 ": %s", p, err.msg);
        }
        uint32_t want = db_peek(ref, game_canonical(g, p));
        if (raw != want) {
            fail_msg("%s position %" PRIu64 ": %u from the BDDs, %u from dfs", g->variant, p, raw,
                     want);
        }
        assert_int_equal(w, 0);
    }
    uint64_t checked = 0;
    assert_int_equal(store_verify(&st, 1, false, &checked, &err), ERR_OK);
    assert_int_equal(checked, st.m.positions);
    store_close(&st);
}

static void disk_answers_every_position(void **state) {
    const char *spec = *state;
    Game *g = test_game(spec);
    char *dir = make_dir();
    SolveResult sym, dfs;
    Error err = {0};
    if (run_saving(g, NULL, dir, &sym, &err) != ERR_OK) {
        fail_msg("symbolic --db on %s: %s", spec, err.msg);
    }
    assert_true(sym.saved_db);
    assert_int_equal(test_extra(&sym, "resumed_plies"), 0);
    test_solve("dfs", g, &dfs);
    assert_disk_equals(g, dir, &dfs.db);

    /* Resume: the first plies' files removed, the rest loaded. */
    for (int p = 0; p < 4; p++) {
        char *path = test_strdupf("%s/ply-%04d.gmdb", dir, p);
        assert_int_equal(unlink(path), 0);
        free(path);
    }
    SolveResult again;
    if (run_saving(g, NULL, dir, &again, &err) != ERR_OK) {
        fail_msg("symbolic --db resumed on %s: %s", spec, err.msg);
    }
    assert_int_equal(test_extra(&again, "resumed_plies"), test_extra(&sym, "plies") - 4);
    assert_true(again.has_db);
    test_assert_same_db(&again.db, &dfs.db);
    assert_int_equal(again.root.value, dfs.root.value);
    assert_int_equal(again.root.remoteness, dfs.root.remoteness);
    assert_disk_equals(g, dir, &dfs.db);

    /* Without a database to export, a resume builds the lowest saved ply
     * only and counts the others from their files: the totals and the
     * histogram by remoteness are still the tier solver's (with and
     * without the care-set simplification, which needs the lowest saved
     * ply's reachable set read back). */
    SolveResult tier;
    DbSummary ts;
    tier_totals(g, &tier, &ts);
    static const char *const opts[] = {"export_max=0", "export_max=0,simplify=1"};
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++) {
        for (int p = 0; p < 4; p++) {
            char *path = test_strdupf("%s/ply-%04d.gmdb", dir, p);
            assert_int_equal(unlink(path), 0);
            free(path);
        }
        SolveResult counted;
        if (run_saving(g, opts[i], dir, &counted, &err) != ERR_OK) {
            fail_msg("symbolic:%s --db resumed on %s: %s", opts[i], spec, err.msg);
        }
        assert_int_equal(test_extra(&counted, "resumed_plies"), test_extra(&sym, "plies") - 4);
        assert_summary_is_tier(&counted, &tier, &ts);
        solve_result_free(&counted);
        assert_disk_equals(g, dir, &dfs.db);
    }
    /* A complete solve leaves no reachable set behind. */
    char *reach = test_strdupf("%s/reach-0000.gmdb", dir);
    assert_int_not_equal(access(reach, F_OK), 0);
    free(reach);
    db_summary_free(&ts);
    solve_result_free(&tier);
    solve_result_free(&again);
    solve_result_free(&sym);
    solve_result_free(&dfs);
    test_remove_dir(dir);
    game_destroy(g);
}

static void disk_refusals(void **state) {
    (void)state;
    Game *g = test_game("tictactoe");
    char *dir = make_dir();
    SolveResult res;
    Error err = {0};
    assert_int_equal(run_saving(g, NULL, dir, &res, &err), ERR_OK);
    solve_result_free(&res);
    /* Another variant: refused by the reader and by a solve. */
    Game *mis = test_game("tictactoe:misere");
    Store st;
    assert_int_equal(store_open(mis, dir, &st, &err), ERR_IO);
    assert_int_equal(run_saving(mis, NULL, dir, &res, &err), ERR_IO);
    assert_non_null(strstr(err.msg, "another game variant"));
    game_destroy(mis);
    /* Another remoteness option: the saved plies are refused. */
    assert_int_equal(run_saving(g, "remoteness=0", dir, &res, &err), ERR_IO);
    assert_non_null(strstr(err.msg, "remoteness=1"));
    /* One byte flipped in the middle of ply 5's file (a zstd block). */
    char *path = test_strdupf("%s/ply-0005.gmdb", dir);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, 520, SEEK_SET), 0);
    int c = fgetc(f);
    assert_int_equal(fseek(f, 520, SEEK_SET), 0);
    fputc(c ^ 0x10, f);
    assert_int_equal(fclose(f), 0);
    free(path);
    assert_int_equal(store_open(g, dir, &st, &err), ERR_OK);
    uint64_t checked = 0;
    assert_int_equal(store_verify(&st, 1, false, &checked, &err), ERR_IO);
    assert_non_null(strstr(err.msg, "ply-0005.gmdb"));
    Position pos;
    assert_int_equal(g->ops->parse(g, "xoxox----", &pos, &err), ERR_OK); /* 5 marks */
    uint32_t raw;
    WinBy w;
    assert_int_equal(store_get(&st, pos, &raw, &w, &err), ERR_IO);
    store_close(&st);
    /* A solve on it refuses the damaged ply rather than resuming from it. */
    assert_int_equal(run_saving(g, NULL, dir, &res, &err), ERR_IO);
    test_remove_dir(dir);
    game_destroy(g);
}

/* ------------------------------------------------- crafted databases */

/* Replaces the manifest line of entry e->index of dir's manifest with *e;
 * the manifest is written again by the suite's writer (a valid checksum). */
static void manifest_set(const char *dir, const DbManifestFile *e) {
    DbDir d;
    DbManifest m;
    bool found = false;
    Error err = {0};
    assert_int_equal(dbstore_dir_open(dir, false, &d, &err), ERR_OK);
    assert_int_equal(dbstore_manifest_read(&d, &m, &found, &err), ERR_OK);
    assert_true(found);
    assert_true(e->index >= 0 && e->index < m.nfiles);
    m.files[e->index] = *e;
    assert_int_equal(dbstore_manifest_write(&d, &m, &err), ERR_OK);
    dbstore_manifest_free(&m);
    dbstore_dir_close(&d);
}

/* Writes DIR/ply-NNNN.gmdb as a record file of `records` bytes by hand,
 * following core/dbstore.h's format with every checksum valid: a header,
 * the block count computed as a 64-bit writer would ((records + B - 1) / B,
 * wrapping), and that many all-zero blocks (index entries 0: no bytes
 * stored). The manifest's line is made to match (records, bytes, header
 * checksum). */
static void craft_ply(const Game *g, const char *dir, int ply, uint64_t records) {
    const uint32_t br = 4096;
    uint64_t blocks = (records + br - 1) / br; /* wraps for records near 2^64 */
    assert_true(blocks <= 16);
    unsigned char b[DBSTORE_HEADER_BYTES + 16 * 8];
    memset(b, 0, sizeof b);
    memcpy(b, "GMDBSTOR", 8);
    le_put32(b + 8, DBSTORE_VERSION);
    le_put32(b + 12, DBSTORE_BDD);
    le_put32(b + 16, (uint32_t)ply);
    le_put32(b + 20, g->max_depth + 1);
    le_put32(b + 24, 1); /* width */
    le_put64(b + 32, records);
    le_put32(b + 48, br);
    le_put32(b + 52, 1); /* zstd level */
    le_put64(b + 56, blocks);
    le_put64(b + 64, DBSTORE_HEADER_BYTES); /* index offset: no data bytes */
    le_put64(b + 80, dbfile_checksum(0, b + DBSTORE_HEADER_BYTES, blocks * 8));
    game_spec(g, (char *)b + 88, DBSTORE_SPEC_MAX);
    le_put64(b + 504, dbfile_checksum(0, b, 504));
    DbManifestFile e = {.index = ply, .records = records};
    symdb_ply_name(ply, e.name, sizeof e.name);
    e.bytes = DBSTORE_HEADER_BYTES + blocks * 8;
    e.header_sum = le_get64(b + 504);
    char *path = test_strdupf("%s/%s", dir, e.name);
    assert_int_equal(unlink(path), 0);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, (size_t)e.bytes, f), e.bytes);
    assert_int_equal(fclose(f), 0);
    free(path);
    manifest_set(dir, &e);
}

/* Issue 33, D2: a manifest line and a ply file header that both claim
 * 2^64 - 1 bytes (so that a reader's records + 1 and its block count wrap
 * to 0, and a 512-byte file passes the record file's checks), or other
 * sizes no dump of this game can have, with every checksum valid, are
 * refused by the size check (exit code 5 from the CLI), not read past a
 * buffer (ASan: heap-buffer-overflow in parse). */
static void disk_impossible_sizes(void **state) {
    (void)state;
    static const uint64_t claims[] = {UINT64_MAX, UINT64_MAX - 4000, 47};
    Game *g = test_game("tictactoe");
    for (size_t i = 0; i < sizeof claims / sizeof *claims; i++) {
        char *dir = make_dir();
        SolveResult res;
        Error err = {0};
        assert_int_equal(run_saving(g, NULL, dir, &res, &err), ERR_OK);
        solve_result_free(&res);
        craft_ply(g, dir, 0, claims[i]);
        Store st;
        memset(&err, 0, sizeof err);
        if (store_open(g, dir, &st, &err) == ERR_OK) {
            store_close(&st);
            fail_msg("a dump claiming %" PRIu64 " bytes was opened", claims[i]);
        }
        assert_int_equal(err.code, ERR_IO);
        if (strstr(err.msg, "ply-0000.gmdb") == NULL || strstr(err.msg, "impossible") == NULL) {
            fail_msg("a dump claiming %" PRIu64 " bytes: %s", claims[i], err.msg);
        }
        /* A solve resuming from it refuses it too. */
        memset(&err, 0, sizeof err);
        assert_int_equal(run_saving(g, NULL, dir, &res, &err), ERR_IO);
        assert_non_null(strstr(err.msg, "impossible"));
        test_remove_dir(dir);
    }
    game_destroy(g);
}

/* Rewrites ply p of dir with its first two non-empty sets of one class
 * trading one position of their stored counts (a valid file: written by
 * the suite's writer, the manifest's line updated), so that every total
 * (the ply's, each class's, the manifest's) still adds up. */
static void shift_count(const Game *g, const char *dir, int p) {
    DbDir d;
    DbManifest m;
    bool found = false;
    Error err = {0};
    assert_int_equal(dbstore_dir_open(dir, true, &d, &err), ERR_OK);
    assert_int_equal(dbstore_lock(&d, &err), ERR_OK);
    assert_int_equal(dbstore_manifest_read(&d, &m, &found, &err), ERR_OK);
    SymPly sp;
    assert_int_equal(symdb_ply_read(&d, g, &m.files[p], &sp, &err), ERR_OK);
    int a = -1, b = -1;
    for (uint32_t c = 0; c < SYMDB_CLASSES && b < 0; c++) {
        a = -1;
        for (uint32_t k = 0; k < sp.nlayers && b < 0; k++) {
            uint32_t i = c * sp.nlayers + k;
            if (sp.counts[i] > 0) {
                if (a < 0) {
                    a = (int)i;
                } else {
                    b = (int)i;
                }
            }
        }
    }
    assert_true(a >= 0 && b >= 0);
    sp.counts[a]--;
    sp.counts[b]++;
    DbManifestFile e;
    assert_int_equal(symdb_ply_write(&d, g, &sp, NULL, &e, &err), ERR_OK);
    symdb_ply_free(&sp);
    dbstore_manifest_free(&m);
    dbstore_dir_close(&d);
    manifest_set(dir, &e);
}

/* A ply whose stored counts are not its sets' (recounted on load) is
 * refused by --verify (which sums the stored counts), by a query of a
 * position of that ply and by a solve resuming from it. */
static void disk_counts_recounted(void **state) {
    (void)state;
    Game *g = test_game("tictactoe");
    char *dir = make_dir();
    SolveResult res;
    Error err = {0};
    assert_int_equal(run_saving(g, NULL, dir, &res, &err), ERR_OK);
    solve_result_free(&res);
    shift_count(g, dir, 5);
    Store st;
    assert_int_equal(store_open(g, dir, &st, &err), ERR_OK);
    uint64_t checked = 0;
    memset(&err, 0, sizeof err);
    assert_int_equal(store_verify(&st, 1, false, &checked, &err), ERR_IO);
    if (strstr(err.msg, "ply-0005.gmdb") == NULL || strstr(err.msg, "recount") == NULL) {
        fail_msg("verify: %s", err.msg);
    }
    Position pos;
    assert_int_equal(g->ops->parse(g, "xoxox----", &pos, &err), ERR_OK); /* 5 marks */
    uint32_t raw;
    WinBy w;
    assert_int_equal(store_get(&st, pos, &raw, &w, &err), ERR_IO);
    store_close(&st);
    assert_int_equal(run_saving(g, NULL, dir, &res, &err), ERR_IO);
    test_remove_dir(dir);
    game_destroy(g);
}

static void refusals(void **state) {
    (void)state;
    const SolverModule *s = solver_find("symbolic");
    assert_non_null(s);
    /* nim declares no Boolean encoding. */
    Game *nim = test_game("nim");
    char why[512];
    assert_false(solver_supports(s, nim, why, sizeof why));
    assert_non_null(strstr(why, "Boolean encoding"));
    SolveResult res;
    Error err = {0};
    assert_int_equal(run_symbolic(nim, NULL, 1, &res, &err), ERR_UNSUPPORTED);
    game_destroy(nim);

    Game *g = test_game("connect4:w=4,h=4");
    assert_int_equal(run_symbolic(g, NULL, 2, &res, &err), ERR_USAGE);
    assert_non_null(strstr(err.msg, "one thread"));
    /* 0 threads means "all cores": the solver takes one. */
    assert_int_equal(run_symbolic(g, "remoteness=0", 0, &res, &err), ERR_OK);
    assert_int_equal(res.threads, 1);
    solve_result_free(&res);
    /* A node table far too small for 4x4: a clean ERR_MEMORY. */
    assert_int_equal(run_symbolic(g, "nodes=1000,max_nodes=3000", 1, &res, &err), ERR_MEMORY);
    assert_non_null(strstr(err.msg, "node table"));
    /* The solver starts again cleanly after a failure. */
    symbolic_ok(g, "remoteness=0", &res);
    assert_int_equal(res.root.value, VALUE_TIE); /* 4x4 is a tie (the tier solver agrees) */
    solve_result_free(&res);
    game_destroy(g);
}

int main(void) {
    static const char *const small[] = {"tictactoe", "tictactoe:misere", "connect4:w=4,h=4",
                                        "connect4:w=4,h=3,misere", "connect4:w=4,h=4,tromp"};
    struct CMUnitTest tests[32];
    size_t n = 0;
    tests[n++] = (struct CMUnitTest){.name = test_strdupf("plies of tictactoe (A008907)"),
                                     .test_func = tictactoe_plies};
    tests[n++] = (struct CMUnitTest){.name = test_strdupf("plies of connect4 4x4 (Tromp)"),
                                     .test_func = connect4_4x4_plies};
    tests[n++] = (struct CMUnitTest){.name = test_strdupf("plies of connect4 5x4 (Tromp)"),
                                     .test_func = connect4_5x4_plies};
    tests[n++] = (struct CMUnitTest){.name = test_strdupf("plies of connect4 5x4, tromp (Tromp)"),
                                     .test_func = connect4_5x4_tromp_plies};
    tests[n++] = (struct CMUnitTest){.name = test_strdupf("connect4 5x4 equals tier"),
                                     .test_func = connect4_5x4_equals_tier};
    for (size_t i = 0; i < sizeof small / sizeof *small; i++) {
        tests[n++] = (struct CMUnitTest){
            .name = test_strdupf("win/lose/tie only matches tier on %s", small[i]),
            .test_func = wdl_only_matches_tier,
            .initial_state = (void *)small[i],
        };
        tests[n++] = (struct CMUnitTest){
            .name = test_strdupf("totals without a database match tier on %s", small[i]),
            .test_func = summary_matches_tier,
            .initial_state = (void *)small[i],
        };
        tests[n++] = (struct CMUnitTest){
            .name = test_strdupf("relprod 0/1/2 and simplify totals match tier on %s", small[i]),
            .test_func = relprod_matches_tier,
            .initial_state = (void *)small[i],
        };
    }
    tests[n++] = (struct CMUnitTest){.name = test_strdupf("node table made whole"),
                                     .test_func = node_table_whole};
    tests[n++] = (struct CMUnitTest){.name = test_strdupf("huge pages on and off"),
                                     .test_func = huge_pages_either_way};
    static const char *const disk[] = {"tictactoe", "tictactoe:misere", "connect4:w=4,h=4",
                                       "connect4:w=4,h=4,tromp"};
    for (size_t i = 0; i < sizeof disk / sizeof *disk; i++) {
        tests[n++] = (struct CMUnitTest){
            .name = test_strdupf("every position from the saved BDDs equals dfs on %s", disk[i]),
            .test_func = disk_answers_every_position,
            .initial_state = (void *)disk[i],
        };
    }
    tests[n++] = (struct CMUnitTest){.name = test_strdupf("saved BDDs: refusals"),
                                     .test_func = disk_refusals};
    tests[n++] = (struct CMUnitTest){.name = test_strdupf("saved BDDs: impossible sizes (D2)"),
                                     .test_func = disk_impossible_sizes};
    tests[n++] = (struct CMUnitTest){.name = test_strdupf("saved BDDs: counts recounted"),
                                     .test_func = disk_counts_recounted};
    tests[n++] = (struct CMUnitTest){.name = test_strdupf("refusals"), .test_func = refusals};
    return test_run_group("symbolic", tests, n);
}
