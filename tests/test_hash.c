/* tests/test_hash.c: the generic (combinatorial) hash and the mixed-radix
 * hash, checked exhaustively over small sizes.
 *
 * Generic hash: every one of the k^n boards of a configuration is
 * enumerated as an odometer (independently of the hash), kept when its
 * piece counts obey the bounds and the filter (checked here by counting,
 * not by the hash), and hashed with every turn. The hash must be a
 * bijection from those boards onto [0, size): in range, never repeated,
 * unhashed back to the same board and turn, and hitting as many positions
 * as there are boards. The documented layout is checked too: each board
 * lands in the block of its own count tuple (turn-major inside it), each
 * block is as large as its tuple's arrangements, and tuples are ordered by
 * their count vectors. The size of the Quarto hash space is compared with a
 * closed formula.
 */
#include "tests/testutil.h"

#include <stdlib.h>
#include <string.h>

#include "hash/generic.h"
#include "hash/mixed.h"

typedef struct Config {
    const char *name;
    int n, k, players;
    int min[8], max[8];
    int max_pieces; /* filter: at most this many non-zero symbols (0: no filter) */
} Config;

static bool at_most_pieces(const int *counts, void *ctx) {
    const Config *c = ctx;
    int pieces = 0;
    for (int s = 1; s < c->k; s++) {
        pieces += counts[s];
    }
    return pieces <= c->max_pieces;
}

/* The test's own verdict on a board: bounds and filter, by counting. */
static bool board_allowed(const Config *c, const uint8_t *cells) {
    int counts[8] = {0};
    for (int i = 0; i < c->n; i++) {
        counts[cells[i]]++;
    }
    for (int s = 0; s < c->k; s++) {
        if (counts[s] < c->min[s] || counts[s] > c->max[s]) {
            return false;
        }
    }
    return c->max_pieces == 0 || at_most_pieces(counts, (void *)c);
}

static void check_config(const Config *c) {
    GenericHash h;
    Error err = {0};
    if (generic_init(&h, c->n, c->k, c->min, c->max, c->players,
                     c->max_pieces ? at_most_pieces : NULL, (void *)c, &err) != ERR_OK) {
        fail_msg("%s: %s", c->name, err.msg);
    }
    uint8_t *seen = calloc(h.size, 1);
    uint64_t *tuple_hits = calloc(h.ntuples, sizeof *tuple_hits);
    assert_non_null(seen);
    assert_non_null(tuple_hits);
    uint64_t boards = 1;
    for (int i = 0; i < c->n; i++) {
        boards *= (uint64_t)c->k;
    }
    uint8_t cells[GENERIC_MAX_CELLS] = {0}, back[GENERIC_MAX_CELLS];
    uint64_t allowed = 0;
    for (uint64_t b = 0; b < boards; b++) {
        bool ok = board_allowed(c, cells);
        assert_int_equal(generic_fits(&h, cells), ok);
        if (ok) {
            allowed++;
            for (int turn = 0; turn < c->players; turn++) {
                Position p = generic_hash(&h, cells, turn);
                assert_true(p < h.size);
                if (seen[p]) {
                    fail_msg("%s: two boards hash to %llu", c->name, (unsigned long long)p);
                }
                seen[p] = 1;
                assert_int_equal(generic_unhash(&h, p, back), turn);
                assert_memory_equal(cells, back, (size_t)c->n);
                /* The layout: the block of the board's own count tuple,
                 * turn-major inside it. */
                uint32_t t = 0;
                while (h.offset[t + 1] <= p) {
                    t++;
                }
                int counts[8] = {0};
                for (int i = 0; i < c->n; i++) {
                    counts[cells[i]]++;
                }
                for (int s = 0; s < c->k; s++) {
                    assert_int_equal(h.counts[t * (uint32_t)c->k + (uint32_t)s], counts[s]);
                }
                uint64_t local = p - h.offset[t];
                assert_int_equal(local / h.multi[t], turn);
                tuple_hits[t]++;
            }
        }
        /* Odometer with cell n-1 fastest: lexicographic order, cell 0 first. */
        for (int i = c->n - 1; i >= 0; i--) {
            if (++cells[i] < c->k) {
                break;
            }
            cells[i] = 0;
        }
    }
    assert_int_equal(allowed * (uint64_t)c->players, h.size);
    /* Each block holds exactly its tuple's arrangements, and the tuples come
     * in increasing order of their count vectors (symbol 1 least
     * significant, as documented). */
    for (uint32_t t = 0; t < h.ntuples; t++) {
        assert_int_equal(tuple_hits[t], h.multi[t] * (uint64_t)c->players);
        assert_int_equal(h.offset[t + 1] - h.offset[t], tuple_hits[t]);
        if (t > 0) {
            const uint8_t *a = &h.counts[(t - 1) * (uint32_t)c->k],
                          *b = &h.counts[t * (uint32_t)c->k];
            int s = c->k - 1;
            while (s > 1 && a[s] == b[s]) {
                s--;
            }
            assert_true(a[s] < b[s]);
        }
    }
    free(seen);
    free(tuple_hits);
    generic_destroy(&h);
}

static void generic_round_trip_exhaustive(void **state) {
    (void)state;
    static const Config configs[] = {
        /* Hexapawn 3x2-like: blank, white, black, each colour 0..2, turn. */
        {"pawns", 6, 3, 2, {0, 0, 0}, {6, 2, 2}, 0},
        /* Quarto-like: 4 distinct pieces over 6 cells, at most 3 in play. */
        {"distinct", 6, 5, 1, {0, 0, 0, 0, 0}, {6, 1, 1, 1, 1}, 3},
        /* Fixed counts: 4 of symbol 1 among 10 cells, C(10, 4) boards. */
        {"fixed", 10, 2, 1, {6, 4}, {6, 4}, 0},
        /* No constraint at all: every one of 4^7 boards. */
        {"free", 7, 4, 1, {0, 0, 0, 0}, {7, 7, 7, 7}, 0},
        /* Lower bounds and a blank minimum, with the turn. */
        {"ranges", 8, 3, 2, {2, 1, 2}, {8, 3, 2}, 0},
        /* Wide alphabet: 7 symbols over 6 cells. */
        {"alphabet", 6, 7, 1, {0, 0, 0, 0, 0, 0, 0}, {6, 2, 1, 3, 1, 2, 6}, 0},
    };
    for (size_t i = 0; i < sizeof configs / sizeof configs[0]; i++) {
        check_config(&configs[i]);
    }
}

/* The Quarto hash space (16 distinct pieces, 16 squares and the hand as a
 * 17th cell): sum over m pieces in play of C(16, m) * 17! / (17 - m)!, the
 * ways to choose the pieces times the ways to seat them in distinct cells. */
static void generic_quarto_size(void **state) {
    (void)state;
    int min[17] = {0}, max[17];
    max[0] = 17;
    for (int s = 1; s < 17; s++) {
        max[s] = 1;
    }
    GenericHash h;
    Error err = {0};
    assert_int_equal(generic_init(&h, 17, 17, min, max, 1, NULL, NULL, &err), ERR_OK);
    unsigned __int128 expect = 0;
    for (int m = 0; m <= 16; m++) {
        unsigned __int128 choose = 1, seat = 1;
        for (int j = 0; j < m; j++) {
            choose = choose * (unsigned __int128)(16 - j) / (unsigned __int128)(j + 1);
            seat *= (unsigned __int128)(17 - j);
        }
        expect += choose * seat;
    }
    assert_true(h.size == (uint64_t)expect);
    assert_int_equal(h.ntuples, 1u << 16);
    /* Round trips of scattered positions across the whole space. */
    uint8_t cells[17], again[17];
    for (uint64_t p = 0; p < h.size; p += h.size / 9973 + 1) {
        generic_unhash(&h, p, cells);
        assert_int_equal(generic_hash(&h, cells, 0), p);
        generic_unhash(&h, p, again);
        assert_memory_equal(cells, again, sizeof cells);
    }
    generic_destroy(&h);
}

static void generic_counts_calls(void **state) {
    (void)state;
    int min[3] = {0, 0, 0}, max[3] = {9, 3, 3};
    GenericHash h;
    Error err = {0};
    assert_int_equal(generic_init(&h, 9, 3, min, max, 2, NULL, NULL, &err), ERR_OK);
    uint8_t cells[9] = {1, 0, 2, 0, 0, 0, 2, 0, 1};
    stats_thread_reset();
    Position p = generic_hash(&h, cells, 1);
    assert_int_equal(generic_unhash(&h, p, cells), 1);
    assert_int_equal(generic_unhash(&h, p, cells), 1);
    assert_true(generic_fits(&h, cells));
    Counters c = {0};
    stats_thread_collect(&c);
#if STATS
    assert_int_equal(c.hash, 1);
    assert_int_equal(c.unhash, 2);
#endif
    generic_destroy(&h);
}

static bool never(const int *counts, void *ctx) {
    (void)counts;
    (void)ctx;
    return false;
}

static void generic_refusals(void **state) {
    (void)state;
    GenericHash h;
    Error err = {0};
    int min[32] = {0}, max[32];
    for (int s = 0; s < 32; s++) {
        max[s] = 64;
    }
    /* 3^64 boards: beyond 2^63. */
    assert_int_equal(generic_init(&h, 64, 3, min, max, 1, NULL, NULL, &err), ERR_USAGE);
    assert_non_null(strstr(err.msg, "2^63"));
    assert_int_equal(generic_init(&h, 5, 1, min, max, 1, NULL, NULL, &err), ERR_USAGE);
    assert_int_equal(generic_init(&h, 0, 2, min, max, 1, NULL, NULL, &err), ERR_USAGE);
    assert_int_equal(generic_init(&h, 5, 2, min, max, 3, NULL, NULL, &err), ERR_USAGE);
    /* 31 symbols with counts 0..64 each: too many count vectors to list. */
    assert_int_equal(generic_init(&h, 10, 31, min, max, 1, NULL, NULL, &err), ERR_USAGE);
    int lo[2] = {3, 0}, hi[2] = {2, 5};
    assert_int_equal(generic_init(&h, 5, 2, lo, hi, 1, NULL, NULL, &err), ERR_USAGE);
    /* Counts that cannot sum to n. */
    int a[2] = {0, 0}, b[2] = {1, 1};
    assert_int_equal(generic_init(&h, 5, 2, a, b, 1, NULL, NULL, &err), ERR_USAGE);
    assert_int_equal(generic_init(&h, 5, 2, min, max, 1, never, NULL, &err), ERR_USAGE);
    /* A board outside the bounds does not fit. */
    int c0[2] = {0, 0}, c1[2] = {5, 2};
    assert_int_equal(generic_init(&h, 5, 2, c0, c1, 1, NULL, NULL, &err), ERR_OK);
    uint8_t many[5] = {1, 1, 1, 0, 0}, few[5] = {1, 0, 1, 0, 0}, bad[5] = {2, 0, 0, 0, 0};
    assert_false(generic_fits(&h, many));
    assert_true(generic_fits(&h, few));
    assert_false(generic_fits(&h, bad));
    generic_destroy(&h);
}

/* ------------------------------------------------------------ mixed radix */

static void mixed_round_trip_exhaustive(void **state) {
    (void)state;
    static const uint64_t radices[][5] = {{3, 1, 4, 2, 5}, {11, 1, 1, 1, 1}, {2, 2, 2, 2, 2}};
    for (size_t c = 0; c < sizeof radices / sizeof radices[0]; c++) {
        MixedRadix h;
        Error err = {0};
        assert_int_equal(mixed_init(&h, 5, radices[c], &err), ERR_OK);
        uint64_t expect = 1;
        for (int i = 0; i < 5; i++) {
            expect *= radices[c][i];
        }
        assert_int_equal(h.size, expect);
        uint8_t *seen = calloc(h.size, 1);
        assert_non_null(seen);
        uint32_t digits[5] = {0}, back[5];
        for (uint64_t count = 0; count < h.size; count++) {
            Position p = mixed_hash(&h, digits);
            assert_true(p < h.size);
            assert_int_equal(seen[p], 0);
            seen[p] = 1;
            mixed_unhash(&h, p, back);
            assert_memory_equal(digits, back, sizeof digits);
            /* Changing any digit by replace agrees with a fresh hash. */
            for (int i = 0; i < 5; i++) {
                for (uint32_t v = 0; v < radices[c][i]; v++) {
                    uint32_t other[5];
                    memcpy(other, digits, sizeof other);
                    other[i] = v;
                    assert_int_equal(mixed_replace(&h, p, i, digits[i], v), mixed_hash(&h, other));
                }
            }
            for (int i = 0; i < 5; i++) {
                if (++digits[i] < radices[c][i]) {
                    break;
                }
                digits[i] = 0;
            }
        }
        free(seen);
    }
}

static void mixed_counts_and_refusals(void **state) {
    (void)state;
    MixedRadix h;
    Error err = {0};
    uint64_t big[3] = {UINT64_C(1) << 32, UINT64_C(1) << 31, 2};
    assert_int_equal(mixed_init(&h, 3, big, &err), ERR_USAGE); /* 2^64 */
    uint64_t zero[1] = {0};
    assert_int_equal(mixed_init(&h, 1, zero, &err), ERR_USAGE);
    uint64_t huge[1] = {(UINT64_C(1) << 32) + 1};
    assert_int_equal(mixed_init(&h, 1, huge, &err), ERR_USAGE);
    assert_int_equal(mixed_init(&h, 0, zero, &err), ERR_USAGE);
    uint64_t ok[2] = {100001, 7};
    assert_int_equal(mixed_init(&h, 2, ok, &err), ERR_OK);
    uint32_t d[2] = {100000, 6};
    stats_thread_reset();
    Position p = mixed_hash(&h, d);
    mixed_unhash(&h, p, d);
    (void)mixed_replace(&h, p, 0, 100000, 3);
    Counters c = {0};
    stats_thread_collect(&c);
    assert_int_equal(p, h.size - 1);
#if STATS
    assert_int_equal(c.hash, 2);
    assert_int_equal(c.unhash, 1);
#endif
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(generic_round_trip_exhaustive),
        cmocka_unit_test(generic_quarto_size),
        cmocka_unit_test(generic_counts_calls),
        cmocka_unit_test(generic_refusals),
        cmocka_unit_test(mixed_round_trip_exhaustive),
        cmocka_unit_test(mixed_counts_and_refusals),
    };
    return cmocka_run_group_tests_name("hashing", tests, NULL, NULL);
}
