/* tests/test_known_nim.c: Bouton's theorem, on every position.
 *
 * Source: C. L. Bouton, "Nim, a game with a complete mathematical theory",
 * Annals of Mathematics 3 (1901-02), 35-39: in normal-play Nim a position
 * is lost for the player to move exactly when the XOR (nim-sum) of the heap
 * sizes is zero.
 *
 * Every state of the heaps (each heap at any size up to its start; all are
 * reachable, since heaps shrink independently) is read through parse() and
 * looked up, canonicalized under `sym`, in the databases of dfs and gps.
 * Counts by hand: without `sym` a solve reaches prod (H_i + 1) positions;
 * with `sym` one per multiset of sizes, counted here by brute force over
 * sorted tuples.
 */
#include "tests/testutil.h"

#include <stdio.h>
#include <string.h>

typedef struct HeapSet {
    const char *options;
    int n;
    int start[4];
} HeapSet;

/* Multisets {h_0..h_{n-1}} with each h_i <= start_i after sorting both in
 * the same order: the states a symmetric solve keeps. */
static uint64_t multisets(const HeapSet *hs) {
    int sorted[4];
    memcpy(sorted, hs->start, sizeof sorted);
    for (int i = 0; i < hs->n; i++) {
        for (int j = i + 1; j < hs->n; j++) {
            if (sorted[j] < sorted[i]) {
                int t = sorted[i];
                sorted[i] = sorted[j];
                sorted[j] = t;
            }
        }
    }
    uint64_t count = 0;
    int h[4] = {0, 0, 0, 0};
    for (;;) {
        bool ascending = true, fits = true;
        for (int i = 0; i < hs->n; i++) {
            ascending &= i == 0 || h[i - 1] <= h[i];
            fits &= h[i] <= sorted[i];
        }
        count += ascending && fits;
        int i = 0;
        while (i < hs->n && ++h[i] > sorted[hs->n - 1]) {
            h[i++] = 0;
        }
        if (i == hs->n) {
            return count;
        }
    }
}

static void check_set(const HeapSet *hs, bool sym) {
    char spec[128];
    snprintf(spec, sizeof spec, "nim:%s%s", hs->options, sym ? ",sym" : "");
    Game *g = test_game(spec);
    static const char *const solvers[] = {"dfs", "gps"};
    for (int s = 0; s < 2; s++) {
        SolveResult res;
        test_solve(solvers[s], g, &res);
        DbSummary sum;
        Error err = {0};
        assert_int_equal(db_summarize(&res.db, false, &sum, &err), ERR_OK);
        uint64_t all = 1;
        for (int i = 0; i < hs->n; i++) {
            all *= (uint64_t)(hs->start[i] + 1);
        }
        assert_int_equal(sum.positions, sym ? multisets(hs) : all);
        int h[4] = {0, 0, 0, 0};
        for (uint64_t k = 0; k < all; k++) {
            /* With sym the variant keeps its heaps largest first, so the
             * state is written in that order (its value is that of the same
             * sizes in any order). */
            int shown[4];
            memcpy(shown, h, sizeof shown);
            for (int i = 0; sym && i < hs->n; i++) {
                for (int j = i + 1; j < hs->n; j++) {
                    if (shown[j] > shown[i]) {
                        int t = shown[i];
                        shown[i] = shown[j];
                        shown[j] = t;
                    }
                }
            }
            char text[64] = "";
            int x = 0;
            for (int i = 0; i < hs->n; i++) {
                size_t len = strlen(text);
                snprintf(text + len, sizeof text - len, "%s%d", i ? "-" : "", shown[i]);
                x ^= h[i];
            }
            Position p;
            assert_int_equal(g->ops->parse(g, text, &p, &err), ERR_OK);
            p = game_canonical(g, p);
            uint32_t raw = db_peek(&res.db, p);
            assert_true(db_raw_solved(&res.db, raw));
            Value want = x == 0 ? VALUE_LOSE : VALUE_WIN;
            if (db_raw_value(&res.db, raw) != want) {
                fail_msg("%s with %s: %s has nim-sum %d but is %s", spec, solvers[s], text, x,
                         value_name(db_raw_value(&res.db, raw)));
            }
            for (int i = 0; i < hs->n && ++h[i] > hs->start[i]; i++) {
                h[i] = 0;
            }
        }
        solve_result_free(&res);
    }
    game_destroy(g);
}

static void bouton(void **state) {
    (void)state;
    static const HeapSet sets[] = {
        {"heaps=3-4-5", 3, {3, 4, 5}}, {"heaps=1-2-3-4", 4, {1, 2, 3, 4}}, {"heaps=2-2", 2, {2, 2}},
        {"heaps=7", 1, {7}},           {"heaps=6-1-6", 3, {6, 1, 6}},
    };
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        check_set(&sets[i], false);
        check_set(&sets[i], true);
    }
}

static void refusals(void **state) {
    (void)state;
    Game *g = NULL;
    Error err = {0};
    assert_int_equal(game_create("nim:heaps=200-100", &g, &err), ERR_USAGE);
    assert_non_null(strstr(err.msg, "256"));
    assert_int_equal(game_create("nim:heaps=0-3", &g, &err), ERR_USAGE);
    assert_int_equal(game_create("nim:heaps=", &g, &err), ERR_USAGE);
    g = test_game("nim");
    static const char *const bad[] = {"3-4", "3-4-5-1", "4-4-5", "3--4-5", "3-4-x", "-3-4-5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Position p;
        if (g->ops->parse(g, bad[i], &p, &err) != ERR_USAGE) {
            fail_msg("nim accepted '%s'", bad[i]);
        }
    }
    game_destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bouton),
        cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests_name("known figures: nim", tests, NULL, NULL);
}
