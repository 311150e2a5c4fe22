/* tests/test_tier.c: the tier solver beyond the dfs cross-check.
 *
 * For every registered game variant that declares tiers:
 *   - --threads 1 and --threads 2 give byte-identical databases (records
 *     and WinBy) and the same counters, with chunks small enough that both
 *     threads share every tier, and equal to dfs's; for loopy games (loopy
 *     tiers, solvers/tier/loopy.c) also with back edges stored
 *     (tier:stored_edges) and for the game stripped of its un-moves (retro
 *     is the oracle there, in test_solvers);
 *   - keeping only the tiers in use (tier:window) gives the same root and
 *     the same totals, by value and by remoteness, as the whole database;
 *   - a game's fast path (TierOps.expand_run) gives the generic path's
 *     database and counters;
 *   - for a game with a branch chosen at run time by the processor's
 *     features (Connect Four's pdep, Morris's pext), the portable branch,
 *     forced by its environment variable, gives the default branch's
 *     database and counters, and its fast path the generic path's: both
 *     branches run on every host (on the game's first two variants with
 *     the branch; on every one with TEST_HEAVY=1).
 * On tic-tac-toe, the work directory:
 *   - a solve with --db (work_dir) writes every tier and the manifest (the
 *     reach file goes once the database is complete) and equals the solve
 *     without; a second run loads every tier and makes no game call;
 *     deleting the manifest and the files of the tiers solved last (an
 *     interrupted run) resumes with the rest loaded, to the same bytes; a
 *     stale .tmp is removed;
 *   - a flipped block byte, a flipped index byte, a flipped header byte, a
 *     truncated file, a file of another variant and another tier's file are
 *     each refused (ERR_IO); tests/test_store.c has the crafted files;
 * tier:blocks on Connect Four 4x4 and 5x4: the parts on disk equal dfs's
 * records position by position and tier:window's checksum and totals, on
 * 1 and 2 threads, fast and generic, and a rerun loads them all; refused
 * without --db or memory (tests/cli.sh kills and resumes it);
 * and the memory budget: a budget too small for the whole database falls
 * back to the tiers in use, one too small for those is refused
 * (ERR_MEMORY); tiers that form a cycle are refused (ERR_INTERNAL); and
 * WinBy, on a random layered graph with two child tiers per tier: tier (1
 * and 2 threads) and sweep match dfs record for record, scores included.
 */
#include "tests/testgraph.h"
#include "tests/testutil.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/mem.h"
#include "solvers/store.h"
#include "core/dbranks.h"
#include "core/dbstore.h"
#include "solvers/tier/graph.h"

static void solve_ok(const Game *g, const char *opts, int threads, const char *dir,
                     SolveResult *res) {
    Error err = {0};
    if (test_run_tier(g, opts, threads, dir, res, &err) != ERR_OK) {
        fail_msg("tier on %s:%s: %s", g->module->name, g->variant, err.msg);
    }
}

/* ------------------------------------------------- every tiered variant */

/* The search (solvers/search.c) down to a partial database of tier:sector:
 * for a loop-free game, the sector of a position two moves from the start
 * (its tiers and those below); for a loopy one, every loopy tier's sector.
 * The start's value must be the strong solve's (dfs, or retro), with some
 * leaves read from the database, on 1 and 2 threads, and with the children
 * by the stateless family (search:stateless) as well as by GPS. */
static void search_down_to_tiers(void **state) {
    Game *g = test_game(*state);
    SolveResult oracle, res;
    test_solve(solver_supports(solver_find("dfs"), g, NULL, 0) ? "dfs" : "retro", g, &oracle);
    char dir[] = "/tmp/gamesman-search-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char opts[64];
    int nt = g->tiers->count(g);
    for (int t = 0; t < nt; t++) {
        bool loopy = g->loopy && (g->tiers->loopy == NULL || g->tiers->loopy(g, t));
        if (loopy && g->tiers->size(g, t) > 0) {
            snprintf(opts, sizeof opts, "sector=%d", t);
            solve_ok(g, opts, 1, dir, &res);
            solve_result_free(&res);
        }
    }
    if (!g->loopy) {
        Move m[GAME_MAX_MOVES];
        Position p = g->initial;
        for (int d = 0; d < 2 && game_primitive(g, p) == VALUE_UNDECIDED; d++) {
            assert_true(game_generate_moves(g, p, m) > 0);
            p = game_do_move(g, p, m[0]);
        }
        snprintf(opts, sizeof opts, "sector=%d", g->tiers->tier_of(g, game_canonical(g, p)));
        solve_ok(g, opts, 1, dir, &res);
        solve_result_free(&res);
    }
    const SolverModule *s = solver_find("search");
    for (int run = 0; run < 3; run++) { /* the two questions in turn, at once; stateless */
        int threads = run == 1 ? 2 : 1;
        SolveConfig cfg = {.threads = threads, .work_dir = dir};
        Error err = {0};
        assert_int_equal(
            options_parse(s->options, run == 2 ? "stateless" : NULL, s->name, &cfg.options, &err),
            ERR_OK);
        if (solver_run(s, g, &cfg, &res, &err) != ERR_OK) {
            fail_msg("search on %s:%s down to %s: %s", g->module->name, g->variant, dir, err.msg);
        }
        assert_int_equal(res.root.value, oracle.root.value);
        assert_int_equal(res.threads, threads);
        assert_true(test_extra(&res, "db_leaves") > 0);
        solve_result_free(&res);
    }
    solve_result_free(&oracle);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    game_destroy(g);
}

/* Chunks of 64 positions and no minimum: two threads really share every
 * tier, even on tic-tac-toe. */
#define SMALL_CHUNKS "chunk=64,parallel_min=0"

static void threads_identical(void **state) {
    Game *g = test_game(*state);
    SolveResult one, two;
    solve_ok(g, SMALL_CHUNKS, 1, NULL, &one);
    solve_ok(g, SMALL_CHUNKS, 2, NULL, &two);
    assert_int_equal(one.threads, 1);
    assert_int_equal(two.threads, 2);
    assert_true(one.has_db && two.has_db);
    test_assert_same_db(&one.db, &two.db);
    assert_memory_equal(&one.counters, &two.counters, sizeof one.counters);
    /* Loopy tiers: back edges stored for the tier, asked for or because the
     * game has no un-moves, give the same bytes as generate_parents. */
    if (g->loopy) {
        SolveResult stored, no_unmoves;
        solve_ok(g, "stored_edges," SMALL_CHUNKS, 2, NULL, &stored);
        test_assert_same_db(&stored.db, &two.db);
        GameOps ops = *g->ops;
        ops.generate_parents = NULL;
        Game fake = *g;
        fake.ops = &ops;
        solve_ok(&fake, SMALL_CHUNKS, 2, NULL, &no_unmoves);
        test_assert_same_db(&no_unmoves.db, &two.db);
        solve_result_free(&stored);
        solve_result_free(&no_unmoves);
    }
    /* And the shared tiers are right: the records are dfs's, byte for byte. */
    if (solver_supports(solver_find("dfs"), g, NULL, 0)) {
        SolveResult oracle;
        test_solve("dfs", g, &oracle);
        test_assert_same_db(&oracle.db, &two.db);
        solve_result_free(&oracle);
    }
    solve_result_free(&one);
    solve_result_free(&two);
    game_destroy(g);
}

static void window_matches_whole(void **state) {
    Game *g = test_game(*state);
    SolveResult whole, window;
    solve_ok(g, SMALL_CHUNKS, 2, NULL, &whole);
    solve_ok(g, "window," SMALL_CHUNKS, 2, NULL, &window);
    assert_false(window.has_db);
    assert_true(window.has_summary);
    assert_int_equal(test_extra(&window, "whole_database"), 0);
    assert_int_equal(window.root.value, whole.root.value);
    assert_int_equal(window.root.remoteness, whole.root.remoteness);
    assert_int_equal(window.root_winby, whole.root_winby);
    DbSummary sum;
    Error err = {0};
    assert_int_equal(db_summarize(&whole.db, true, &sum, &err), ERR_OK);
    const DbSummary *w = &window.summary;
    assert_int_equal(w->positions, sum.positions);
    assert_memory_equal(w->count, sum.count, sizeof sum.count);
    assert_int_equal(w->max_remoteness, sum.max_remoteness);
    assert_memory_equal(w->by_remoteness, sum.by_remoteness,
                        (sum.max_remoteness + 1) * sizeof *sum.by_remoteness);
    db_summary_free(&sum);
    solve_result_free(&whole);
    solve_result_free(&window);
    game_destroy(g);
}

/* Solves each run (its game, options and threads) and checks that every
 * one gives the first one's database byte for byte and its counters;
 * res[i] gets run i's result (the caller frees them). The comparisons of
 * a fast path with the generic one and of a portable branch with the
 * default one are each a table of these runs. */
typedef struct TierRun {
    const Game *g;
    const char *opts;
    int threads;
} TierRun;

static void same_as_first(const TierRun *runs, int n, SolveResult *res) {
    for (int i = 0; i < n; i++) {
        solve_ok(runs[i].g, runs[i].opts, runs[i].threads, NULL, &res[i]);
        assert_int_equal(res[i].threads, runs[i].threads);
        if (i > 0) {
            test_assert_same_db(&res[0].db, &res[i].db);
            assert_memory_equal(&res[0].counters, &res[i].counters, sizeof res[0].counters);
        }
    }
}

/* A game's tier fast path (TierOps.expand_run) against the generic path
 * through its GPS family (`tier:generic`): the same database byte for byte
 * and the same counters (game.h: the fast path counts each step as the GPS
 * call it replaces), on 1 and 2 threads sharing tiers in small chunks (a
 * chunk starts mid-block of the game's layout). */
static void fast_path_matches_generic(void **state) {
    Game *g = test_game(*state);
    const TierRun runs[] = {
        {g, "generic," SMALL_CHUNKS, 1}, {g, SMALL_CHUNKS, 1}, {g, SMALL_CHUNKS, 2}};
    SolveResult res[3];
    same_as_first(runs, 3, res);
    assert_int_equal(test_extra(&res[0], "fast_path"), 0);
    assert_int_equal(test_extra(&res[1], "fast_path"), 1);
    for (int i = 0; i < 3; i++) {
        solve_result_free(&res[i]);
    }
    game_destroy(g);
}

/* ------------------------------------ branches chosen by the processor */

/* Games with a branch chosen at run time by the processor's features, and
 * the environment variable that forces the portable branch when the game
 * is created. Without it a host that has the feature never runs the
 * portable branch (a bug there would pass every test), and one without it
 * never runs the fast one; so the tier tests of these games run both, on
 * every host. The other dispatch on the processor, in tests/test_loopy.c,
 * morris_tables_match_references, runs both ways too. */
static const struct {
    const char *module, *env;
    bool fast_path_only; /* the branch is in TierOps.expand_run only */
} portable_branches[] = {
    {"connect4", "GAMESMAN_C4_NO_PDEP", true},    /* the x bitboard: pdep or a loop */
    {"morris", "GAMESMAN_MORRIS_NO_PEXT", false}, /* rank, unrank, canonical: pext or tables */
};

typedef struct PortableCase {
    const char *spec, *env;
} PortableCase;

/* The portable branch (the game created with env set) against the default
 * one (the processor's, when it has the feature): the same database byte
 * for byte and the same counters, on 1 and 2 threads sharing tiers; with
 * a fast path, the portable branch's generic path too (the fast path's
 * portable branch against the generic one). */
static void portable_matches_default(void **state) {
    const PortableCase *c = *state;
    Game *g = test_game(c->spec);
    assert_int_equal(setenv(c->env, "1", 1), 0);
    Game *p = test_game(c->spec);
    assert_int_equal(unsetenv(c->env), 0);
    const TierRun runs[] = {{g, SMALL_CHUNKS, 2},
                            {p, SMALL_CHUNKS, 1},
                            {p, SMALL_CHUNKS, 2},
                            {p, "generic," SMALL_CHUNKS, 1}};
    int n = p->tiers->expand_run != NULL ? 4 : 3;
    SolveResult res[4];
    same_as_first(runs, n, res);
    if (n == 4) {
        assert_int_equal(test_extra(&res[1], "fast_path"), 1);
        assert_int_equal(test_extra(&res[3], "fast_path"), 0);
    }
    for (int i = 0; i < n; i++) {
        solve_result_free(&res[i]);
    }
    game_destroy(g);
    game_destroy(p);
}

/* tier:estimate solves nothing, and on a game small enough that the
 * calibration walks every tier its reachable count is the solve's. */
static void estimate_small(void **state) {
    (void)state;
    Game *g = test_game("connect4:w=4,h=3");
    SolveResult est, full;
    solve_ok(g, "estimate", 1, NULL, &est);
    solve_ok(g, "", 1, NULL, &full);
    assert_false(est.has_db);
    assert_false(est.has_summary);
    assert_int_equal(test_extra(&est, "estimate_only"), 1);
    assert_int_equal(test_extra(&est, "est_slots"), g->num_positions);
    DbSummary sum;
    Error err = {0};
    assert_int_equal(db_summarize(&full.db, false, &sum, &err), ERR_OK);
    assert_int_equal(test_extra(&est, "est_reachable_exact"), sum.positions);
    assert_int_equal(test_extra(&est, "est_reachable_bound"), sum.positions);
    assert_true(test_extra(&est, "est_peak_bytes") > 0);
    db_summary_free(&sum);
    solve_result_free(&est);
    solve_result_free(&full);
    game_destroy(g);
}

/* tier:estimate on loopy games with tiers (Dodgem, three men's morris):
 * the calibration closes each loopy tier under its in-tier moves (until
 * 2026-11-23 it failed on the first in-tier move), and on games this small
 * it walks every tier the start reaches, so its exact reachable count is
 * the number of positions retro reaches from the start (a second solver,
 * over the whole game); a tier no walked tier reaches counts its slots in
 * the bound only. */
static void estimate_loopy(void **state) {
    (void)state;
    static const char *const specs[] = {"dodgem:n=3", "morris:n=3"};
    for (int k = 0; k < 2; k++) {
        Game *g = test_game(specs[k]);
        SolveResult est, retro;
        solve_ok(g, "estimate", 1, NULL, &est);
        test_solve("retro", g, &retro);
        DbSummary sum;
        Error err = {0};
        assert_int_equal(db_summarize(&retro.db, false, &sum, &err), ERR_OK);
        assert_int_equal(test_extra(&est, "est_reachable_exact"), sum.positions);
        assert_true(test_extra(&est, "est_reachable_bound") >= sum.positions);
        db_summary_free(&sum);
        solve_result_free(&est);
        solve_result_free(&retro);
        game_destroy(g);
    }
}

/* ------------------------------------------ a layered WinBy game */

/* A random layered DAG with scores (tests/testgraph.h): position = layer *
 * WIDTH + node, layer = tier (tier-major, first(t) = t * WIDTH), children
 * one or three layers down (two child tiers, turns still alternate), player
 * one to move on even layers; the last layers and some random nodes are
 * primitive with a random score from player one's perspective, whose sign
 * gives the value for the player to move. Both bottom-up solvers must match
 * dfs, WinBy included, and tier with --threads 1 and 2. */
enum { LAYERS = 12, WIDTH = 500, LAYER_DEG = 4 };

static int lay_tier_count(const Game *g) {
    (void)g;
    return LAYERS;
}

static uint64_t lay_tier_size(const Game *g, int t) {
    (void)g;
    (void)t;
    return WIDTH;
}

static int lay_tier_of(const Game *g, Position p) {
    (void)g;
    return (int)(p / WIDTH);
}

static int lay_children(const Game *g, int t, int *child) {
    (void)g;
    int n = 0;
    if (t + 1 < LAYERS) {
        child[n++] = t + 1;
    }
    if (t + 3 < LAYERS) {
        child[n++] = t + 3;
    }
    return n;
}

static Position lay_first(const Game *g, int t) {
    (void)g;
    return (Position)t * WIDTH;
}

static const TierOps lay_tiers = {
    .count = lay_tier_count,
    .size = lay_tier_size,
    .tier_of = lay_tier_of,
    .children = lay_children,
    .first = lay_first,
};

static void winby_layered_graph(void **state) {
    (void)state;
    enum { N = LAYERS * WIDTH };
    bool *prim = calloc(N, sizeof *prim);
    int16_t *score = calloc(N, sizeof *score);
    int *edges = malloc(2 * N * LAYER_DEG * sizeof *edges);
    assert_true(prim && score && edges);
    int ne = 0;
    uint64_t seed = 0x2545F4914F6CDD1Dull;
    for (int p = 0; p < N; p++) {
        int layer = p / WIDTH;
        if (layer == LAYERS - 1 || (p > 0 && test_rng(&seed) % 10 == 0)) {
            prim[p] = true;
            score[p] = (int16_t)((int)(test_rng(&seed) % 41) - 20);
            continue;
        }
        int deg = 2 + (int)(test_rng(&seed) % (LAYER_DEG - 1));
        for (int m = 0; m < deg; m++) {
            int down = layer + 3 < LAYERS && test_rng(&seed) % 4 == 0 ? 3 : 1;
            edges[2 * ne] = p;
            edges[2 * ne + 1] = (layer + down) * WIDTH + (int)(test_rng(&seed) % WIDTH);
            ne++;
        }
    }
    TestGraph *gr = test_graph_new(N, edges, ne);
    for (int p = 0; p < N; p++) {
        gr->turn[p] = (p / WIDTH) % 2;
        gr->score[p] = score[p];
        gr->prim[p] = !prim[p]                               ? VALUE_UNDECIDED
                      : score[p] == 0                        ? VALUE_TIE
                      : (score[p] > 0) == (gr->turn[p] == 0) ? VALUE_WIN
                                                             : VALUE_LOSE;
    }
    free(prim);
    free(score);
    free(edges);
    Game g = test_graph_game(gr, 0, false, true);
    g.tiers = &lay_tiers;
    g.max_depth = LAYERS;
    SolveResult oracle, one, two, sweep;
    test_solve("dfs", &g, &oracle);
    solve_ok(&g, SMALL_CHUNKS, 1, NULL, &one);
    solve_ok(&g, SMALL_CHUNKS, 2, NULL, &two);
    test_solve("sweep", &g, &sweep);
    assert_true(oracle.db.winby != NULL);
    test_assert_same_db(&oracle.db, &one.db);
    test_assert_same_db(&oracle.db, &two.db);
    test_assert_same_db(&oracle.db, &sweep.db);
    assert_true(two.has_winby && sweep.has_winby);
    assert_int_equal(two.root_winby, oracle.root_winby);
    assert_int_equal(sweep.root_winby, oracle.root_winby);
    DbSummary sum;
    Error err = {0};
    assert_int_equal(db_summarize(&oracle.db, false, &sum, &err), ERR_OK);
    /* Not a trivial graph: over a thousand reached positions, every value. */
    assert_true(sum.positions > 1000);
    assert_true(sum.count[VALUE_WIN] > 0 && sum.count[VALUE_LOSE] > 0 && sum.count[VALUE_TIE] > 0);
    solve_result_free(&oracle);
    solve_result_free(&one);
    solve_result_free(&two);
    solve_result_free(&sweep);
    test_graph_free(gr);
}

/* ------------------------------------------------------ work directory */

static char *make_dir(void) { return test_make_dir("test_tier"); }

static char *tier_file(const char *dir, int tier) {
    return tier < 0 ? test_strdupf("%s/reach.gmdb", dir)
                    : test_strdupf("%s/tier-%04d.gmdb", dir, tier);
}

static bool file_exists(const char *path) { return access(path, F_OK) == 0; }

/* Flips one byte of a file at `offset` (from the end when negative). */
static void flip_byte(const char *path, long offset) {
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, offset, offset < 0 ? SEEK_END : SEEK_SET), 0);
    int c = fgetc(f);
    assert_true(c != EOF);
    assert_int_equal(fseek(f, -1, SEEK_CUR), 0);
    fputc(c ^ 0x5A, f);
    fclose(f);
}

static void truncate_by(const char *path, long bytes) {
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long size = ftell(f);
    fclose(f);
    assert_int_equal(truncate(path, size - bytes), 0);
}

static void copy_file(const char *from, const char *to) {
    char *cmd = test_strdupf("cp '%s' '%s'", from, to);
    assert_int_equal(system(cmd), 0);
    free(cmd);
}

/* Expects the solve to be refused with ERR_IO naming `part`. */
static void refused(const Game *g, const char *dir, const char *part) {
    SolveResult res;
    Error err = {0};
    ErrCode rc = test_run_tier(g, NULL, 2, dir, &res, &err);
    if (rc != ERR_IO || strstr(err.msg, part) == NULL) {
        fail_msg("expected ERR_IO with '%s', got %d: %s", part, rc, err.msg);
    }
}

static void files_resume(void **state) {
    (void)state;
    Game *g = test_game("tictactoe");
    int ntiers = g->tiers->count(g);
    char *dir = make_dir();
    SolveResult plain, first, again;
    solve_ok(g, NULL, 2, NULL, &plain);
    solve_ok(g, NULL, 2, dir, &first);
    test_assert_same_db(&plain.db, &first.db);
    assert_int_equal(test_extra(&first, "tiers_solved"), ntiers);
    for (int t = 0; t < ntiers; t++) {
        char *p = tier_file(dir, t);
        assert_true(file_exists(p));
        free(p);
    }
    char *reach = tier_file(dir, -1), *manifest = test_strdupf("%s/manifest", dir);
    assert_false(file_exists(reach));
    assert_true(file_exists(manifest));
    /* Everything on disk: nothing to solve, no game call. */
    solve_ok(g, NULL, 2, dir, &again);
    test_assert_same_db(&plain.db, &again.db);
    assert_int_equal(test_extra(&again, "tiers_loaded"), ntiers);
    assert_int_equal(test_extra(&again, "tiers_solved"), 0);
    assert_int_equal(again.counters.primitive, 0);
    assert_int_equal(again.counters.do_move, 0);
    solve_result_free(&again);
    /* An interrupted run: no manifest yet, the tiers solved last (the
     * first ones) are missing, and a write was cut short. */
    assert_int_equal(unlink(manifest), 0);
    for (int t = 0; t < 4; t++) {
        char *p = tier_file(dir, t);
        assert_int_equal(unlink(p), 0);
        free(p);
    }
    char *tmp = test_strdupf("%s/tier-0002.gmdb.tmp.4242.0", dir);
    FILE *f = fopen(tmp, "wb");
    assert_non_null(f);
    fputs("half a file", f);
    fclose(f);
    solve_ok(g, NULL, 1, dir, &again);
    test_assert_same_db(&plain.db, &again.db);
    assert_int_equal(test_extra(&again, "tiers_loaded"), ntiers - 4);
    assert_int_equal(test_extra(&again, "tiers_solved"), 4);
    assert_true(again.counters.primitive > 0);
    assert_true(again.counters.primitive < first.counters.primitive);
    assert_false(file_exists(tmp));
    assert_true(file_exists(manifest));
    solve_result_free(&again);
    free(tmp);
    free(reach);
    free(manifest);
    solve_result_free(&first);
    solve_result_free(&plain);
    test_remove_dir(dir);
    game_destroy(g);
}

/* tier:blocks (solvers/tier/blocks.c) on a Connect Four board: the parts
 * written to --db, read back through the database reader, are dfs's
 * records and the whole tier solve's, tier by tier, byte for byte; the
 * checksum, root and totals are tier:window's (and the whole solve's);
 * the walks make the same game calls; 1 and 2 threads, the fast path and
 * the generic one, parts cut mid-block and parts of whole blocks all give
 * the same checksum; and a second run loads every part, making no game
 * call. */
typedef struct BlocksCase {
    const char *spec;
    const char *parts[2]; /* option strings: tiny parts, larger ones */
} BlocksCase;

static const BlocksCase blocks_cases[] = {
    {"connect4:w=4,h=4", {"blocks,part=1000," SMALL_CHUNKS, "blocks,part=8192"}},
    {"connect4:w=5,h=4", {"blocks,part=100000," SMALL_CHUNKS, "blocks,part=1000000"}},
};

static void blocks_same_totals(const SolveResult *a, const SolveResult *b) {
    assert_true(a->has_checksum && b->has_checksum);
    assert_int_equal(a->checksum, b->checksum);
    assert_int_equal(a->root.value, b->root.value);
    assert_int_equal(a->root.remoteness, b->root.remoteness);
    assert_true(a->has_summary && b->has_summary);
    assert_int_equal(a->summary.positions, b->summary.positions);
    assert_memory_equal(a->summary.count, b->summary.count, sizeof a->summary.count);
    assert_int_equal(a->summary.max_remoteness, b->summary.max_remoteness);
    assert_memory_equal(a->summary.by_remoteness, b->summary.by_remoteness,
                        (a->summary.max_remoteness + 1) * sizeof *a->summary.by_remoteness);
}

static void blocks_matches(void **state) {
    const BlocksCase *c = *state;
    Game *g = test_game(c->spec);
    SolveResult oracle, whole, window, blocks, other;
    test_solve("dfs", g, &oracle);
    solve_ok(g, NULL, 2, NULL, &whole);
    solve_ok(g, "window", 2, NULL, &window);
    assert_true(whole.has_db);
    test_assert_same_db(&oracle.db, &whole.db);
    assert_int_equal(whole.checksum, window.checksum);
    char *dir = make_dir();
    solve_ok(g, c->parts[0], 2, dir, &blocks);
    assert_false(blocks.has_db);
    assert_true(blocks.saved_db);
    assert_int_equal(test_extra(&blocks, "fast_path"), 1);
    assert_true(test_extra(&blocks, "blocks_parts") > g->tiers->count(g));
    assert_int_equal(test_extra(&blocks, "blocks_parts_solved"),
                     test_extra(&blocks, "blocks_parts"));
    blocks_same_totals(&window, &blocks);
    /* the same walks: every expansion and child, as tier:window's */
    assert_int_equal(blocks.counters.primitive, window.counters.primitive);
    assert_int_equal(blocks.counters.do_move, window.counters.do_move);
    assert_int_equal(blocks.counters.calls, window.counters.calls);
    assert_int_equal(blocks.counters.edges, window.counters.edges);
    /* position by position, from the files, through the reader */
    Store st;
    Error err = {0};
    if (store_open(g, dir, &st, &err) != ERR_OK) {
        fail_msg("store_open %s: %s", dir, err.msg);
    }
    for (int t = 0; t < g->tiers->count(g); t++) {
        Database v;
        assert_int_equal(store_tier_load(&st, t, 2, &v, &err), ERR_OK);
        Position first = g->tiers->first(g, t);
        assert_int_equal(v.size, g->tiers->size(g, t));
        assert_int_equal(v.width, oracle.db.width);
        for (uint64_t i = 0; i < v.size; i++) {
            if (db_peek(&v, i) != db_peek(&oracle.db, first + i)) {
                fail_msg("%s tier %d index %" PRIu64 ": %u on disk, %u by dfs", c->spec, t, i,
                         db_peek(&v, i), db_peek(&oracle.db, first + i));
            }
        }
        db_destroy(&v);
    }
    store_close(&st);
    /* a complete database: loaded, not solved */
    solve_ok(g, c->parts[0], 1, dir, &other);
    blocks_same_totals(&window, &other);
    assert_int_equal(test_extra(&other, "blocks_parts_loaded"), test_extra(&other, "blocks_parts"));
    assert_int_equal(test_extra(&other, "blocks_parts_solved"), 0);
    assert_int_equal(other.counters.primitive, 0);
    assert_int_equal(other.counters.do_move, 0);
    solve_result_free(&other);
    test_remove_dir(dir);
    /* one thread, the generic path, whole blocks in larger parts */
    const char *more[] = {c->parts[1], "generic,blocks"};
    for (int k = 0; k < 2; k++) {
        dir = make_dir();
        solve_ok(g, more[k], k + 1, dir, &other);
        assert_int_equal(test_extra(&other, "fast_path"), k == 0);
        blocks_same_totals(&window, &other);
        solve_result_free(&other);
        test_remove_dir(dir);
    }
    /* the cache of child file blocks (blocks.c child_raw) at its least,
     * one set of 4 (every look-up in the one set: the LRU order turned
     * and a block evicted at almost every step), and one of 64 sets, each
     * on 2 threads handed the chunks one at a time (dynamic) and in
     * guided runs: the same records; and on one thread, where the reads
     * do not depend on how the threads met the chunks (on two they did:
     * a fresh-clone CI run once read fewer with 4 blocks than with 256),
     * the small cache reads more blocks than the large one (it evicts) */
    const char *caches[] = {"cache=4",   "cache=5,dynamic", "cache=256,dynamic",
                            "cache=256", "cache=4",         "cache=256"};
    double reads[6];
    for (int k = 0; k < 6; k++) {
        char opt[128];
        snprintf(opt, sizeof opt, "%s,%s", c->parts[0], caches[k]);
        dir = make_dir();
        solve_ok(g, opt, k < 4 ? 2 : 1, dir, &other);
        blocks_same_totals(&window, &other);
        reads[k] = test_extra(&other, "blocks_child_blocks_read");
        assert_int_equal(test_extra(&other, "blocks_parts_solved"),
                         test_extra(&other, "blocks_parts"));
        solve_result_free(&other);
        test_remove_dir(dir);
    }
    if (!(reads[4] > reads[5] && reads[5] > 0)) {
        fail_msg("%s, one thread: %.0f child blocks read with a cache of 4, %.0f with 256", c->spec,
                 reads[4], reads[5]);
    }
    solve_result_free(&blocks);
    solve_result_free(&window);
    solve_result_free(&whole);
    solve_result_free(&oracle);
    game_destroy(g);
}

/* tier:blocks' bitmap slices (solvers/tier/blocks_reach.c): both passes
 * read a tier's bitmap one part's words at a time from its file, whose
 * blocks hold 512 words (32,768 bits). Connect Four 5x4 (tiers of up to
 * 900,900 slots, 28 file blocks) in parts that start and end inside a
 * word and inside a file block and span several file blocks, and 4x4 in
 * parts of at most 100 slots (neighbours share words): the checksum, root and totals are
 * tier:window's, and the walks make tier:window's game calls (a slice read one word or one block
 * off marks or solves other positions, or fails the count check). */
static void blocks_slices(void **state) {
    (void)state;
    const char *cases[][2] = {
        {"connect4:w=5,h=4", "blocks,part=33001"},
        {"connect4:w=5,h=4", "blocks,part=70000," SMALL_CHUNKS},
        {"connect4:w=4,h=4", "blocks,part=100"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        Game *g = test_game(cases[k][0]);
        SolveResult window, blocks;
        solve_ok(g, "window", 2, NULL, &window);
        char *dir = make_dir();
        solve_ok(g, cases[k][1], 2, dir, &blocks);
        blocks_same_totals(&window, &blocks);
        assert_int_equal(blocks.counters.calls, window.counters.calls);
        assert_int_equal(blocks.counters.edges, window.counters.edges);
        solve_result_free(&blocks);
        solve_result_free(&window);
        test_remove_dir(dir);
        game_destroy(g);
    }
}

/* tier:blocks' parts (graph.h tier_graph_part_end) on Connect Four 5x4,
 * whose blocks (one per vector of column heights) have C(n, ceil(n/2))
 * slots in tier n, for part sizes below, among and above the block sizes:
 * the parts tile each tier in order, none holds more than the target;
 * where a block fits the target, each part ends on a block boundary (or
 * the tier's end) and is maximal (one more block would not fit); where it
 * does not, each part is the target's size but the last of the block. */
static void blocks_parts(void **state) {
    (void)state;
    Game *g = test_game("connect4:w=5,h=4");
    TierGraph gr;
    Error err = {0};
    assert_int_equal(tier_graph_build(g, &gr, &err), ERR_OK);
    const uint64_t targets[] = {64, 1000, 100000, UINT64_C(1) << 26};
    for (size_t k = 0; k < sizeof targets / sizeof targets[0]; k++) {
        uint64_t target = targets[k];
        for (int t = 0; t < gr.ntiers; t++) {
            uint64_t size = gr.node[t].size, bs = 1;
            for (int i = 0; i < (t + 1) / 2; i++) { /* C(t, ceil(t/2)) */
                bs = bs * (uint64_t)(t - i) / (uint64_t)(i + 1);
            }
            assert_int_equal(size % bs, 0);
            uint64_t lo = 0;
            while (lo < size) {
                uint64_t hi = tier_graph_part_end(&gr, t, lo, target);
                assert_true(hi > lo && hi <= size && hi - lo <= target);
                if (hi < size && bs <= target) {
                    assert_int_equal(hi % bs, 0);
                    assert_true(hi + bs - lo > target);
                } else if (hi < size) {
                    assert_true(hi - lo == target || hi % bs == 0);
                }
                lo = hi;
            }
        }
    }
    TierBlocksMemory m;
    tier_graph_blocks_memory(&gr, 1, 1000, 2, 4096, &m);
    assert_true(m.largest_part <= 1000);
    assert_int_equal(m.parts, 3 * m.largest_part);
    /* the cache holds no more than the power of two at or above twice the
     * file blocks of the child tiers of a tier: with parts of 1000 records
     * 5x4's tier of 16 pieces, 70 height vectors of C(16, 8) = 12,870
     * colourings, is cut into 70 x 13 = 910 parts of one file block each,
     * the most of any tier (17 pieces: 35 x 25 = 875); twice that is 1,820,
     * so 2048 blocks a thread, each 4 KiB of records and 64 bytes of entry,
     * whatever cache=N above that */
    assert_int_equal(m.cache_blocks, 2048);
    assert_int_equal(m.caches, 2 * 2048 * (4096 + 64));
    /* the cache's size: rounded down to a power of two, at least 4 (ways) */
    TierBlocksMemory m2;
    tier_graph_blocks_memory(&gr, 1, 1000, 2, 6000, &m2);
    assert_int_equal(m2.caches, m.caches);
    assert_int_equal(m2.total, m.total);
    tier_graph_blocks_memory(&gr, 1, 1000, 2, 1, &m2);
    assert_int_equal(m2.caches, 2 * 4 * (4096 + 64));
    tier_graph_blocks_memory(&gr, 1, 1000, 2, 2047, &m2);
    assert_int_equal(m2.cache_blocks, 1024);
    tier_graph_blocks_memory(&gr, 1, 1000, 2, UINT64_C(1) << 30, &m2);
    assert_int_equal(m2.cache_blocks, 2048);
    assert_int_equal(tier_graph_cache_blocks(8191), 4096);
    assert_int_equal(tier_graph_cache_blocks(8192), 8192);
    assert_int_equal(tier_graph_cache_blocks(5), 4);
    /* the forward pass holds whole only tier n + 1's bitmap while tier n
     * is walked by slices (a chain; tier 0, without a parent, its own):
     * the largest tier's, and a slice of at most a part's words */
    uint64_t one = 0;
    for (int t = 0; t < gr.ntiers; t++) {
        uint64_t b = tier_words(gr.node[t].size) * 8;
        one = b > one ? b : one;
    }
    assert_int_equal(m.bitmaps, one);
    assert_true(m.slices >= (1000 / 64 + 2) * 8 && m.slices < (UINT64_C(1) << 20));
    assert_int_equal(m.total, m.bitmaps + m.slices + m.parts + m.caches + m.indexes + m.rest);
    tier_graph_free(&gr);
    game_destroy(g);
}

/* A part file found by tier:blocks (a resumed run) is checked record by
 * record against the tier's bitmap (blocks.c check_part, which passes a
 * word of the bitmap with no bit set in one test of its records). Connect
 * Four 4x4, parts of at most 1000 records: the first part of the deepest
 * tier that has both a word of 64 unreached positions and a reached one,
 * put in DIR before the run from dfs's records, is loaded, and the database
 * is tier:window's; the same part with one record planted where no
 * position is reached (alone in an all-zero word, at each place in the
 * word) or an undecided record where one is, is refused naming that
 * index. */
static void write_part(const Game *g, const char *dir, int t, const uint8_t *rec, uint64_t n) {
    DbDir d;
    Error err = {0};
    assert_int_equal(dbstore_dir_open(dir, true, &d, &err), ERR_OK);
    DbStoreInfo info = {
        .kind = DBSTORE_RECORDS, .index = t, .count = g->tiers->count(g), .width = 1, .records = n};
    game_spec(g, info.spec, sizeof info.spec);
    char name[DBSTORE_NAME_MAX];
    dbranks_part_name(t, 0, name, sizeof name);
    assert_int_equal(dbstore_write(&d, name, &info, rec, NULL, 1, NULL, NULL, &err), ERR_OK);
    dbstore_dir_close(&d);
}

static void blocks_part_checked(void **state) {
    (void)state;
    Game *g = test_game("connect4:w=4,h=4");
    SolveResult oracle, window, res;
    test_solve("dfs", g, &oracle);
    solve_ok(g, "window", 2, NULL, &window);
    assert_int_equal(oracle.db.width, 1);
    TierGraph gr;
    Error err = {0};
    assert_int_equal(tier_graph_build(g, &gr, &err), ERR_OK);
    /* the tier, its first part [0, n), a zero word w, a reached index */
    int t = gr.ntiers - 1;
    uint64_t n = 0, w = 0, reached = 0;
    uint8_t rec[1000];
    for (; t > 0; t--) {
        n = tier_graph_part_end(&gr, t, 0, 1000);
        Position first = g->tiers->first(g, t);
        for (uint64_t i = 0; i < n; i++) {
            rec[i] = (uint8_t)db_peek(&oracle.db, first + i);
        }
        for (w = 0; w < n / 64; w++) {
            uint8_t any = 0;
            for (int k = 0; k < 64; k++) {
                any |= rec[w * 64 + k];
            }
            if (any == 0) {
                break;
            }
        }
        for (reached = 0; reached < n && rec[reached] == 0; reached++) {
        }
        if (w < n / 64 && reached < n) {
            break;
        }
    }
    assert_true(t > 0);
    tier_graph_free(&gr);
    char *dir = make_dir();
    write_part(g, dir, t, rec, n);
    solve_ok(g, "blocks,part=1000", 2, dir, &res);
    blocks_same_totals(&window, &res);
    assert_int_equal(test_extra(&res, "blocks_parts_loaded"), 1);
    solve_result_free(&res);
    test_remove_dir(dir);
    const uint64_t at[] = {w * 64, w * 64 + 7, w * 64 + 8, w * 64 + 63, reached};
    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
        uint8_t bad[1000];
        memcpy(bad, rec, n);
        bool unreached = bad[at[k]] == 0;
        bad[at[k]] = unreached ? rec[reached] : (uint8_t)DB_VISITED;
        dir = make_dir();
        write_part(g, dir, t, bad, n);
        ErrCode rc = test_run_tier(g, "blocks,part=1000", 2, dir, &res, &err);
        char *want = test_strdupf("holds impossible records (index %" PRIu64 ": %s)", at[k],
                                  unreached ? "a record for a position that is not reachable"
                                            : "an undecided record");
        if (rc != ERR_IO || strstr(err.msg, want) == NULL) {
            fail_msg("tier %d, planted at %" PRIu64 ": expected '%s', got %d: %s", t, at[k], want,
                     rc, err.msg);
        }
        free(want);
        test_remove_dir(dir);
    }
    solve_result_free(&window);
    solve_result_free(&oracle);
    game_destroy(g);
}

/* tier:blocks' refusals: no --db, the memory budget (with the model's
 * figures). */
static void blocks_refused(void **state) {
    (void)state;
    Game *g = test_game("connect4:w=4,h=4");
    SolveResult res;
    Error err = {0};
    assert_int_equal(test_run_tier(g, "blocks", 1, NULL, &res, &err), ERR_USAGE);
    assert_non_null(strstr(err.msg, "needs --db"));
    char *dir = make_dir();
    mem_set_limit(4096);
    ErrCode rc = test_run_tier(g, "blocks", 1, dir, &res, &err);
    mem_set_limit(0);
    assert_int_equal(rc, ERR_MEMORY);
    assert_non_null(strstr(err.msg, "tier:blocks (bitmaps"));
    test_remove_dir(dir);
    game_destroy(g);
}

static void files_refused(void **state) {
    (void)state;
    Game *g = test_game("tictactoe");
    Game *other = test_game("tictactoe:misere");
    char *dir = make_dir(), *other_dir = make_dir();
    SolveResult res;
    solve_ok(g, NULL, 2, dir, &res);
    solve_result_free(&res);
    solve_ok(other, NULL, 2, other_dir, &res);
    solve_result_free(&res);
    char *p5 = tier_file(dir, 5), *p6 = tier_file(dir, 6);
    char *saved = test_strdupf("%s/saved", dir);
    /* A flipped byte in the first block, then in the block index: the
     * checksums (core/dbstore.h: blocks start at 512, the index ends the
     * file). */
    copy_file(p5, saved);
    flip_byte(p5, 515);
    refused(g, dir, "corrupt (checksum mismatch in block 0");
    copy_file(saved, p5);
    flip_byte(p5, -3);
    refused(g, dir, "corrupt (block index checksum");
    copy_file(saved, p5);
    /* A flipped header byte (in the tier count): the header checksum. */
    flip_byte(p5, 20);
    refused(g, dir, "corrupt (header checksum");
    copy_file(saved, p5);
    /* Truncated. */
    truncate_by(p5, 100);
    refused(g, dir, "truncated");
    copy_file(saved, p5);
    /* Another variant's tier 6 (same size, other values). */
    char *foreign = tier_file(other_dir, 6);
    copy_file(p6, saved);
    copy_file(foreign, p6);
    refused(g, dir, "another game variant (tictactoe:misere");
    copy_file(saved, p6);
    /* Another tier's file under this name. */
    copy_file(p5, p6);
    refused(g, dir, "does not hold what its name says");
    copy_file(saved, p6);
    /* Restored, the directory solves again. */
    solve_ok(g, NULL, 2, dir, &res);
    assert_int_equal(res.root.value, VALUE_TIE);
    solve_result_free(&res);
    free(p5);
    free(p6);
    free(saved);
    free(foreign);
    test_remove_dir(dir);
    test_remove_dir(other_dir);
    game_destroy(g);
    game_destroy(other);
}

/* ------------------------------------------------------ memory and tiers */

static void memory_budget(void **state) {
    (void)state;
    Game *g = test_game("tictactoe");
    SolveResult res;
    Error err = {0};
    /* The whole database is 19,683 bytes plus bitmaps; the largest pair of
     * adjacent tiers (6 and 7 pieces: 1,680 + 1,260 boards) is far less. */
    mem_set_limit(12000);
    solve_ok(g, NULL, 1, NULL, &res);
    assert_false(res.has_db);
    assert_true(res.has_summary);
    assert_int_equal(res.summary.positions, 5478);
    assert_int_equal(res.root.value, VALUE_TIE);
    solve_result_free(&res);
    mem_set_limit(2000);
    ErrCode rc = test_run_tier(g, NULL, 1, NULL, &res, &err);
    mem_set_limit(0);
    assert_int_equal(rc, ERR_MEMORY);
    assert_non_null(strstr(err.msg, "tiers in use"));
    game_destroy(g);
}

static int cyclic_children(const Game *g, int tier, int *child_tiers) {
    (void)g;
    child_tiers[0] = (tier + 1) % 10; /* tier 9 leads back to tier 0 */
    return 1;
}

static void cyclic_tiers_refused(void **state) {
    (void)state;
    Game *g = test_game("tictactoe");
    TierOps ops = *g->tiers;
    ops.children = cyclic_children;
    Game fake = *g;
    fake.tiers = &ops;
    SolveResult res;
    Error err = {0};
    assert_int_equal(test_run_tier(&fake, NULL, 1, NULL, &res, &err), ERR_INTERNAL);
    assert_non_null(strstr(err.msg, "cycle"));
    game_destroy(g);
}

int main(void) {
    size_t nspecs;
    char **specs = test_game_specs(&nspecs);
    struct CMUnitTest *tests = calloc(6 * nspecs + 16, sizeof *tests);
    PortableCase *cases = calloc(nspecs + 1, sizeof *cases);
    assert_non_null(tests);
    assert_non_null(cases);
    size_t n = 0, ncases = 0;
    /* The portable branches on each game's first PORTABLE_LIGHT variants
     * that have the branch (the smallest boards: Connect Four 3x3 and 4x3,
     * three men's morris without and with sym), on every one with
     * TEST_HEAVY=1: the branch is the same code on every board. */
    enum { PORTABLE_LIGHT = 2 };
    int nportable[sizeof portable_branches / sizeof portable_branches[0]] = {0};
    for (size_t i = 0; i < nspecs; i++) {
        Game *g = test_game(specs[i]);
        for (size_t b = 0; b < sizeof portable_branches / sizeof portable_branches[0]; b++) {
            if (g->tiers == NULL || strcmp(g->module->name, portable_branches[b].module) != 0 ||
                (portable_branches[b].fast_path_only && g->tiers->expand_run == NULL) ||
                (nportable[b]++ >= PORTABLE_LIGHT && !test_heavy_all())) {
                continue;
            }
            PortableCase *c = &cases[ncases++];
            *c = (PortableCase){specs[i], portable_branches[b].env};
            tests[n++] = (struct CMUnitTest){
                .name = test_strdupf("portable branch (%s) matches the default%s on %s", c->env,
                                     g->tiers->expand_run != NULL ? " and the generic path" : "",
                                     specs[i]),
                .test_func = portable_matches_default,
                .initial_state = c,
            };
        }
        if (g->tiers != NULL) {
            tests[n++] = (struct CMUnitTest){
                .name = test_strdupf("threads 1 and 2 identical on %s", specs[i]),
                .test_func = threads_identical,
                .initial_state = specs[i],
            };
            tests[n++] = (struct CMUnitTest){
                .name = test_strdupf("tiers in use match the whole database on %s", specs[i]),
                .test_func = window_matches_whole,
                .initial_state = specs[i],
            };
            if (!g->has_winby) {
                tests[n++] = (struct CMUnitTest){
                    .name = test_strdupf("search down to solved tiers on %s", specs[i]),
                    .test_func = search_down_to_tiers,
                    .initial_state = specs[i],
                };
            }
            if (g->tiers->expand_run != NULL) {
                tests[n++] = (struct CMUnitTest){
                    .name = test_strdupf("fast path matches the generic one on %s", specs[i]),
                    .test_func = fast_path_matches_generic,
                    .initial_state = specs[i],
                };
            }
        }
        game_destroy(g);
    }
    static const struct {
        const char *name;
        CMUnitTestFunction fn;
    } fixed[] = {
        {"work dir: write, reload, resume", files_resume},
        {"work dir: corrupt, truncated, foreign files refused", files_refused},
        {"memory budget: tiers in use, then refused", memory_budget},
        {"tier:blocks refused without --db or memory", blocks_refused},
        {"tier:blocks checks a part file it finds", blocks_part_checked},
        {"tier:blocks parts: whole blocks within the target", blocks_parts},
        {"tier:blocks bitmap slices across words and file blocks", blocks_slices},
        {"cyclic tiers refused", cyclic_tiers_refused},
        {"estimate: nothing solved, exact counts on a small game", estimate_small},
        {"estimate: loopy tiers closed, counts equal to retro's", estimate_loopy},
        {"WinBy layered graph: tier and sweep match dfs", winby_layered_graph},
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        tests[n++] = (struct CMUnitTest){.name = test_strdupf("%s", fixed[i].name),
                                         .test_func = fixed[i].fn};
    }
    for (size_t i = 0; i < sizeof blocks_cases / sizeof blocks_cases[0]; i++) {
        if (i > 0 && !test_heavy_enabled()) {
            break; /* 5x4: seconds under the sanitizers */
        }
        tests[n++] = (struct CMUnitTest){
            .name = test_strdupf("tier:blocks matches dfs, tier and tier:window on %s",
                                 blocks_cases[i].spec),
            .test_func = blocks_matches,
            .initial_state = (void *)&blocks_cases[i],
        };
    }
    int failed = test_run_group("tier", tests, n);
    free(tests);
    free(cases);
    test_free_specs(specs);
    return failed;
}
