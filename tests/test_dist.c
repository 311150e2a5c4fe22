/* tests/test_dist.c: core/dist.h in a build without MPI (one rank of one,
 * every call a no-op), and the tier solver's database checksum (the
 * figure tests/mpi.sh compares across rank counts): its definition, checked
 * against the database itself, and its independence of threads, chunks and
 * memory mode. The multi-rank behaviour is tested end to end by
 * tests/mpi.sh with bin/solve-mpi. */
#include "tests/testutil.h"

#include <string.h>

#include "core/dbfile.h"
#include "core/dist.h"

static void dist_single_rank(void **state) {
    (void)state;
    assert_false(dist_compiled());
    assert_int_equal(dist_rank(), 0);
    assert_int_equal(dist_size(), 1);
    Error err = {0};
    assert_int_equal(dist_agree(ERR_OK, &err), ERR_OK);
    error_set(&err, ERR_MEMORY, "refused");
    assert_int_equal(dist_agree(ERR_MEMORY, &err), ERR_MEMORY);
    assert_string_equal(err.msg, "refused"); /* no rank prefix with one rank */
    assert_false(dist_error_is_shared(&err));
    uint64_t words[3] = {1, 2, 0x8000000000000000u};
    dist_or_words(words, 3);
    assert_true(words[0] == 1 && words[1] == 2 && words[2] == 0x8000000000000000u);
    unsigned char bytes[5] = {1, 2, 3, 4, 5};
    uint64_t bounds[2] = {0, 5};
    dist_share_ranges(bytes, bounds, 5);
    assert_memory_equal(bytes, ((unsigned char[]){1, 2, 3, 4, 5}), 5);
    assert_true(dist_sum_u64(7) == 7 && dist_max_u64(9) == 9 && dist_max_double(1.5) == 1.5);
    uint64_t sums[3] = {1, 2, 3};
    dist_sum_words(sums, 3);
    assert_true(sums[0] == 1 && sums[1] == 2 && sums[2] == 3);
    DistStats d = dist_stats_total();
    assert_true(d.sent == 0 && d.received == 0 && d.mpi_seconds == 0);
}

/* dist_chain on one rank is the step applied once. */
static void add_one(void *state, void *ctx) {
    (void)ctx;
    *(uint64_t *)state += 1;
}

static void dist_chain_single_rank(void **state) {
    (void)state;
    uint64_t x = 41;
    dist_chain(&x, sizeof x, add_one, NULL);
    assert_true(x == 42);
}

/* The checksum in pieces (how the ranks' slices are checksummed without
 * moving them, solvers/tier/): pieces of 32-byte multiples, then any last
 * piece, give dbfile_checksum of the whole, for every cut and seed; a
 * different byte gives another checksum. */
static void checksum_in_pieces(void **state) {
    (void)state;
    unsigned char buf[300];
    for (int i = 0; i < (int)sizeof buf; i++) {
        buf[i] = (unsigned char)(i * 131 + 7);
    }
    for (uint64_t n = 0; n <= sizeof buf; n += 37) {
        for (uint64_t seed = 0; seed < 3; seed++) {
            uint64_t want = dbfile_checksum(seed, buf, n);
            for (uint64_t a = 0; a <= n; a += 32) {
                for (uint64_t b = a; b <= n; b += 32) {
                    DbfileSum st;
                    dbfile_sum_init(&st, seed);
                    dbfile_sum_blocks(&st, buf, a);
                    dbfile_sum_blocks(&st, buf + a, b - a);
                    assert_true(dbfile_sum_final(&st, buf + b, n - b) == want);
                }
            }
        }
    }
    uint64_t whole = dbfile_checksum(0, buf, sizeof buf);
    buf[77] ^= 1;
    assert_true(dbfile_checksum(0, buf, sizeof buf) != whole);
}

static void solve_tier(const Game *g, const char *spec, int threads, SolveResult *res) {
    const SolverModule *s = NULL;
    SolveConfig cfg = {.threads = threads};
    Error err = {0};
    assert_int_equal(solver_lookup(spec, &s, &cfg, &err), ERR_OK);
    if (solver_run(s, g, &cfg, res, &err) != ERR_OK) {
        fail_msg("%s: %s", spec, err.msg);
    }
    assert_true(res->has_checksum);
}

/* The checksum is core/dbfile.h's checksum of each tier's records, chained
 * over the tiers in tier order: recomputed here from the whole database
 * (Connect Four is tier-major: tier t is the slots [first(t), +size(t))). */
static void tier_checksum_definition(void **state) {
    (void)state;
    Game *g = test_game("connect4:w=4,h=4");
    SolveResult res;
    solve_tier(g, "tier", 1, &res);
    assert_true(res.has_db && res.db.r8 != NULL && res.db.winby == NULL);
    uint64_t want = 0;
    for (int t = 0; t < g->tiers->count(g); t++) {
        uint64_t first = g->tiers->first(g, t), size = g->tiers->size(g, t);
        uint64_t h = dbfile_checksum(0, res.db.r8 + first, size);
        want = dbfile_checksum(want, &h, sizeof h);
    }
    assert_true(res.checksum == want);
    solve_result_free(&res);
    game_destroy(g);
}

/* The same checksum for every thread count, chunk size and memory mode;
 * a different one for another variant. */
static void tier_checksum_everywhere(void **state) {
    (void)state;
    Game *g = test_game("connect4:w=4,h=4");
    SolveResult a, b, c, e;
    solve_tier(g, "tier", 1, &a);
    solve_tier(g, "tier:chunk=64,parallel_min=0", 2, &b);
    solve_tier(g, "tier:window", 2, &c);
    solve_tier(g, "tier:sliced", 2, &e); /* on one rank, its slice is the whole tier */
    assert_true(a.checksum == b.checksum && a.checksum == c.checksum && a.checksum == e.checksum);
    /* 161,029: John Tromp's count of 4x4 positions (tests/cli.sh) */
    assert_true(e.has_summary && e.summary.positions == 161029);
    solve_result_free(&a);
    solve_result_free(&b);
    solve_result_free(&e);
    solve_result_free(&c);
    Game *h = test_game("connect4:w=4,h=4,misere");
    SolveResult d;
    solve_tier(h, "tier", 1, &d);
    assert_true(d.checksum != c.checksum);
    solve_result_free(&d);
    game_destroy(h);
    game_destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dist_single_rank),         cmocka_unit_test(dist_chain_single_rank),
        cmocka_unit_test(checksum_in_pieces),       cmocka_unit_test(tier_checksum_definition),
        cmocka_unit_test(tier_checksum_everywhere),
    };
    return cmocka_run_group_tests_name("dist", tests, NULL, NULL);
}
