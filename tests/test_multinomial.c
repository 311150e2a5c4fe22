/* tests/test_multinomial.c: the multinomial rank/unrank of hash/.
 *
 * Exhaustive over every board of several (k, n): for each piece-count
 * vector, the ranks of its boards are exactly 0..M-1 in lexicographic order
 * (so rank is a bijection onto [0, M) and agrees with the order the header
 * promises), unrank inverts rank, and M equals n!/prod(c!) computed here by
 * a separate route (factorials in floating point, exact at these sizes).
 * Counters: one hash per rank, one unhash per unrank.
 */
#include "tests/testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hash/multinomial.h"

/* n!/prod c_v! by lgamma: an independent formula for the block size. */
static uint64_t multinomial_by_gamma(int k, int n, const uint8_t *counts) {
    double l = lgamma(n + 1.0);
    for (int v = 0; v < k; v++) {
        l -= lgamma(counts[v] + 1.0);
    }
    return (uint64_t)llround(exp(l));
}

static void exhaustive(void **state) {
    (void)state;
    static const int sizes[][2] = {{2, 1}, {2, 7}, {3, 1}, {3, 6}, {3, 9}, {4, 5}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int k = sizes[s][0], n = sizes[s][1];
        Multinomial m;
        Error err = {0};
        assert_int_equal(multinomial_init(&m, k, n, &err), ERR_OK);
        /* Boards in lexicographic order (cell 0 most significant): each
         * counts vector's boards appear in increasing rank order, so the
         * next expected rank of a counts vector is how many came before. */
        uint64_t total = 1;
        for (int i = 0; i < n; i++) {
            total *= (uint64_t)k;
        }
        uint64_t *next = calloc(1u << (4 * k), sizeof *next); /* counts packed 4 bits each */
        assert_non_null(next);
        uint8_t cells[16] = {0};
        for (uint64_t b = 0; b < total; b++) {
            uint64_t x = b;
            for (int i = n - 1; i >= 0; i--) { /* cell 0 is the most significant digit */
                cells[i] = (uint8_t)(x % (uint64_t)k);
                x /= (uint64_t)k;
            }
            uint8_t counts[MULTINOMIAL_MAX_KINDS] = {0};
            unsigned key = 0;
            for (int i = 0; i < n; i++) {
                counts[cells[i]]++;
            }
            for (int v = 0; v < k; v++) {
                key |= (unsigned)counts[v] << (4 * v);
            }
            uint64_t r = multinomial_rank(&m, cells);
            assert_int_equal(r, next[key]);
            next[key]++;
            uint8_t back[16];
            multinomial_unrank(&m, counts, r, back);
            assert_memory_equal(back, cells, (size_t)n);
        }
        /* Every counts vector got exactly M ranks. */
        uint64_t seen = 0;
        for (unsigned key = 0; key < (1u << (4 * k)); key++) {
            if (next[key] == 0) {
                continue;
            }
            uint8_t counts[MULTINOMIAL_MAX_KINDS];
            for (int v = 0; v < k; v++) {
                counts[v] = (uint8_t)((key >> (4 * v)) & 15);
            }
            assert_int_equal(multinomial_count(&m, counts), next[key]);
            assert_int_equal(multinomial_by_gamma(k, n, counts), next[key]);
            seen += next[key];
        }
        assert_int_equal(seen, total);
        free(next);
    }
}

static void counted_and_bounded(void **state) {
    (void)state;
    Multinomial m;
    Error err = {0};
    assert_int_equal(multinomial_init(&m, 3, 9, &err), ERR_OK);
    /* 9!/(3!3!3!) = 1680 (tic-tac-toe boards with three of each). */
    uint8_t counts[3] = {3, 3, 3};
    assert_int_equal(multinomial_count(&m, counts), 1680);
#if STATS
    stats_thread_reset();
    uint8_t cells[9];
    multinomial_unrank(&m, counts, 1679, cells);
    assert_int_equal(multinomial_rank(&m, cells), 1679);
    Counters c = {0};
    stats_thread_collect(&c);
    assert_int_equal(c.hash, 1);
    assert_int_equal(c.unhash, 1);
#endif
    /* The largest scheme that fits and the first that does not. */
    assert_int_equal(multinomial_init(&m, 2, 62, &err), ERR_OK);
    uint8_t half[2] = {31, 31};
    assert_int_equal(multinomial_count(&m, half), 465428353255261088ull); /* C(62,31) */
    assert_int_equal(multinomial_init(&m, 2, 63, &err), ERR_USAGE);
    assert_int_equal(multinomial_init(&m, 1, 5, &err), ERR_USAGE);
    assert_int_equal(multinomial_init(&m, 3, 0, &err), ERR_USAGE);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exhaustive),
        cmocka_unit_test(counted_and_bounded),
    };
    return cmocka_run_group_tests_name("multinomial", tests, NULL, NULL);
}
