/* tests/test_hash_colhash.c: the combinatorial ranks (hash/combi.h) and the
 * column hash of gravity games (hash/colhash.h), exhaustively on small
 * sizes and against independent brute-force counts.
 *
 *   - combinations: every n-bit set (n <= 14) ranks into [0, C(n, k)), no
 *     two sets of the same n, k share a rank, and unrank inverts rank; the
 *     incremental insert agrees with a fresh rank for every set (n <= 11),
 *     insertion point and bit;
 *   - compositions: enumerated in lex order, the vectors of each sum get
 *     ranks 0, 1, 2, ... in turn, and unrank inverts rank;
 *   - column hash: every slot of several small boards decodes to a board
 *     with the right piece counts, in the right tier, and encodes back; the
 *     tier sizes equal a brute-force count of height vectors times
 *     binomials computed here; a cursor's drops and lifts agree with fresh
 *     hashes along random games; a cursor set at (or loaded with) every
 *     position of small boards and random ones of larger boards (6x5, 7x6,
 *     half of them with the last column full) holds every part as
 *     recomputed here from the board, and a drop into each open column
 *     and its lift agree with the reference rank;
 *   - the sizes quoted for larger boards (issue 3: 4x4 2.02e5, 5x4 5.62e6,
 *     6x4 1.6e8 with largest tier 2.33e7, 5x5 1.72e8, 6x5 9.92e9 with
 *     largest tier 1.31e9, 7x6 7.07e13), recounted by brute force here;
 *   - refusals of boards whose space reaches 2^63, and the hash/unhash
 *     counts of every call.
 */
#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash/colhash.h"
#include "hash/combi.h"

/* C(n, k) by the multiplicative formula, independently of the tables. */
static uint64_t binom(int n, int k) {
    if (k < 0 || k > n) {
        return 0;
    }
    unsigned __int128 c = 1;
    for (int i = 1; i <= k; i++) {
        c = c * (unsigned)(n - k + i) / (unsigned)i;
    }
    return (uint64_t)c;
}

static int ones(uint64_t x) { return __builtin_popcountll(x); }

/* -------------------------------------------------------- combinations */

static void binomials_table(void **state) {
    (void)state;
    Binomials b;
    binomials_init(&b);
    for (int n = 0; n <= COMBI_MAX_N; n++) {
        for (int k = 0; k <= COMBI_MAX_N + 1; k++) {
            assert_int_equal(binomial(&b, n, k), binom(n, k));
        }
    }
    /* C(64, 32), the largest entry: 1,832,624,140,942,590,534. */
    assert_int_equal(binomial(&b, 64, 32), UINT64_C(1832624140942590534));
}

static void combinations_exhaustive(void **state) {
    (void)state;
    Binomials b;
    binomials_init(&b);
    for (int n = 0; n <= 14; n++) {
        /* seen[k][rank] per k: ranks must be distinct within (n, k). */
        uint8_t *seen = calloc((size_t)(n + 1) << n, 1);
        assert_non_null(seen);
        for (uint64_t set = 0; set < (UINT64_C(1) << n); set++) {
            int k = ones(set);
            uint64_t r = combi_rank(&b, set);
            assert_true(r < binom(n, k));
            uint8_t *mark = &seen[((size_t)k << n) + r];
            assert_int_equal(*mark, 0);
            *mark = 1;
            assert_int_equal(combi_unrank(&b, r, n, k), set);
        }
        free(seen);
    }
}

/* Inserting bit at index q of set, by hand. */
static uint64_t insert_bit(uint64_t set, int q, int bit) {
    uint64_t low = set & ((UINT64_C(1) << q) - 1);
    return low | ((uint64_t)bit << q) | ((set >> q) << (q + 1));
}

static void combination_insert_agrees(void **state) {
    (void)state;
    Binomials b;
    binomials_init(&b);
    for (int n = 0; n <= 11; n++) {
        for (uint64_t set = 0; set < (UINT64_C(1) << n); set++) {
            uint64_t r0 = combi_rank(&b, set);
            for (int q = 0; q <= n; q++) {
                for (int bit = 0; bit <= 1; bit++) {
                    uint64_t r = r0;
                    int below = ones(set & ((UINT64_C(1) << q) - 1));
                    uint64_t next = combi_insert(&b, set, below, &r, q, bit);
                    assert_int_equal(next, insert_bit(set, q, bit));
                    assert_int_equal(r, combi_rank(&b, next));
                }
            }
        }
    }
    /* Near the top of the 64 elements. */
    uint64_t set = UINT64_C(0x5555555555555555) >> 1; /* 63 elements, 31 ones */
    uint64_t r = combi_rank(&b, set);
    uint64_t next = combi_insert(&b, set, 20, &r, 40, 1); /* 20 ones below bit 40 */
    assert_int_equal(next, insert_bit(set, 40, 1));
    assert_int_equal(r, combi_rank(&b, next));
}

/* -------------------------------------------------------- compositions */

static void compositions_exhaustive(void **state) {
    (void)state;
    for (int parts = 1; parts <= 5; parts++) {
        for (int m = 1; m <= 4; m++) {
            Compositions c;
            Error err = {0};
            assert_int_equal(compositions_init(&c, parts, m, &err), ERR_OK);
            uint64_t next_rank[COMPOS_MAX_SUM + 1] = {0};
            /* Odometer with v[parts-1] fastest: lexicographic order. */
            uint8_t v[COMPOS_MAX_PARTS] = {0}, back[COMPOS_MAX_PARTS];
            for (;;) {
                int s = 0;
                for (int i = 0; i < parts; i++) {
                    s += v[i];
                }
                assert_int_equal(compositions_rank(&c, v, s), next_rank[s]);
                compositions_unrank(&c, next_rank[s], s, back);
                assert_memory_equal(v, back, (size_t)parts);
                next_rank[s]++;
                int i = parts - 1;
                while (i >= 0 && v[i] == m) {
                    v[i--] = 0;
                }
                if (i < 0) {
                    break;
                }
                v[i]++;
            }
            for (int s = 0; s <= parts * m; s++) {
                assert_int_equal(compositions_count(&c, s), next_rank[s]);
            }
        }
    }
    Compositions c;
    Error err = {0};
    assert_int_equal(compositions_init(&c, 17, 1, &err), ERR_USAGE);
    assert_int_equal(compositions_init(&c, 5, 13, &err), ERR_USAGE);
}

/* ---------------------------------------------------------- column hash */

/* Tier sizes by brute force: every height vector (odometer over (h+1)^w),
 * times C(n, ceil(n/2)). Returns the total; tier[n] gets each size and
 * *largest the largest one. */
static uint64_t brute_sizes(int w, int h, uint64_t *tier, uint64_t *largest) {
    uint64_t vectors[COLHASH_MAX_CELLS + 1] = {0};
    uint8_t v[COLHASH_MAX_COLS] = {0};
    for (;;) {
        int s = 0;
        for (int i = 0; i < w; i++) {
            s += v[i];
        }
        vectors[s]++;
        int i = 0;
        while (i < w && v[i] == h) {
            v[i++] = 0;
        }
        if (i == w) {
            break;
        }
        v[i]++;
    }
    uint64_t total = 0;
    *largest = 0;
    for (int n = 0; n <= w * h; n++) {
        tier[n] = vectors[n] * binom(n, (n + 1) / 2);
        total += tier[n];
        if (tier[n] > *largest) {
            *largest = tier[n];
        }
    }
    return total;
}

/* Every slot of small boards decodes into a legal board of its tier and
 * encodes back; the tier sizes match the brute-force count. */
static void colhash_every_slot(void **state) {
    (void)state;
    static const int boards[][2] = {{1, 1}, {1, 6}, {2, 3}, {3, 3}, {4, 3},
                                    {3, 4}, {5, 2}, {2, 5}, {4, 4}, {7, 1}};
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        int w = boards[i][0], h = boards[i][1];
        ColHash ch;
        Error err = {0};
        assert_int_equal(colhash_init(&ch, w, h, &err), ERR_OK);
        uint64_t tier[COLHASH_MAX_CELLS + 1], largest;
        assert_int_equal(ch.size, brute_sizes(w, h, tier, &largest));
        for (int n = 0; n <= w * h; n++) {
            assert_int_equal(colhash_tier_size(&ch, n), tier[n]);
        }
        for (Position p = 0; p < ch.size; p++) {
            uint8_t heights[COLHASH_MAX_COLS];
            uint64_t colours;
            int n = colhash_unhash(&ch, p, heights, &colours);
            int sum = 0;
            for (int c = 0; c < w; c++) {
                assert_in_range(heights[c], 0, h);
                sum += heights[c];
            }
            assert_int_equal(sum, n);
            assert_int_equal(colhash_tier(&ch, p), n);
            assert_true(p >= ch.first[n] && p < ch.first[n + 1]);
            assert_true(n == 64 || colours >> n == 0);
            assert_int_equal(ones(colours), (n + 1) / 2);
            assert_int_equal(colhash_hash(&ch, heights, n, colours), p);
            ColHashCursor cur;
            colhash_cursor_set(&ch, &cur, p);
            assert_int_equal(cur.pos, p);
            assert_int_equal(cur.n, n);
            assert_memory_equal(cur.heights, heights, (size_t)w);
        }
        colhash_destroy(&ch);
    }
}

/* Random games on a cursor: each drop gives the position a fresh hash of
 * the board gives; lifting back retraces the positions. Boards with and
 * without the table of height bases. */
static void colhash_cursor_walks(void **state) {
    (void)state;
    static const int boards[][2] = {{7, 6}, {5, 4}, {16, 3}, {1, 12}, {6, 10}};
    uint64_t seed = 0x2545F4914F6CDD1Dull;
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        int w = boards[i][0], h = boards[i][1];
        ColHash ch;
        Error err = {0};
        assert_int_equal(colhash_init(&ch, w, h, &err), ERR_OK);
        assert_true((ch.base == NULL) == (w == 16 || w == 6));
        for (int game = 0; game < 200; game++) {
            ColHashCursor cur;
            colhash_cursor_set(&ch, &cur, 0);
            uint8_t heights[COLHASH_MAX_COLS] = {0};
            uint8_t cols[COLHASH_MAX_CELLS];
            ColHashUndo undo[COLHASH_MAX_CELLS];
            Position path[COLHASH_MAX_CELLS + 1] = {0};
            /* The colour sequence, kept here by explicit insertion. */
            uint64_t colours = 0;
            int n = 0, plies = (int)(test_rng(&seed) % (uint64_t)(w * h + 1));
            for (; n < plies; n++) {
                int c;
                do {
                    c = (int)(test_rng(&seed) % (uint64_t)w);
                } while (heights[c] == h);
                int q = 0;
                for (int j = 0; j <= c; j++) {
                    q += heights[j];
                }
                colours = insert_bit(colours, q, !(n & 1));
                heights[c]++;
                cols[n] = (uint8_t)c;
                Position p = colhash_cursor_drop(&ch, &cur, c, &undo[n]);
                assert_int_equal(p, colhash_hash(&ch, heights, n + 1, colours));
                assert_true(p < ch.size);
                path[n + 1] = p;
            }
            while (n > 0) {
                n--;
                colhash_cursor_lift(&ch, &cur, cols[n], &undo[n]);
                assert_int_equal(cur.pos, path[n]);
            }
            assert_int_equal(cur.n, 0);
            assert_int_equal(cur.code, 0);
            assert_int_equal(cur.occupied, 0);
            for (int c = 0; c < COLHASH_MAX_COLS; c++) {
                assert_true(cur.pieces_upto[c] == 0 && cur.firsts_upto[c] == 0);
            }
        }
        colhash_destroy(&ch);
    }
}

/* The board with heights[0..w-1] and colour sequence `colours` at
 * position pos, as a cursor must hold it: every part recomputed here from
 * the board alone (the height code as sum heights[c] (h + 1)^c, which
 * only the table of height bases reads and is checked with it, the
 * occupied cells bit by bit, the prefix counts by counting), the colour
 * rank by combi_rank (checked against an enumeration above). `what` names
 * the step in the message. */
static void check_cursor(const ColHash *ch, const Binomials *b, const ColHashCursor *cur,
                         const uint8_t *heights, uint64_t colours, Position pos, const char *what) {
    int w = ch->cols, h = ch->rows, n = 0;
    uint64_t code = 0, radix = 1, occupied = 0;
    uint8_t pieces_upto[COLHASH_MAX_COLS] = {0}, firsts_upto[COLHASH_MAX_COLS] = {0};
    for (int c = 0; c < w; c++) {
        code += heights[c] * radix;
        radix *= (uint64_t)h + 1;
        for (int r = 0; r < heights[c]; r++) {
            occupied |= UINT64_C(1) << (c * h + r);
        }
        n += heights[c];
        pieces_upto[c] = (uint8_t)n;
        firsts_upto[c] = (uint8_t)ones(n == 64 ? colours : colours & ((UINT64_C(1) << n) - 1));
    }
    const char *bad =
        cur->n != n                                                      ? "n"
        : memcmp(cur->heights, heights, (size_t)w) != 0                  ? "heights"
        : ch->base != NULL && cur->code != code                          ? "code"
        : cur->occupied != occupied                                      ? "occupied"
        : cur->colours != colours                                        ? "colours"
        : cur->colour_rank != combi_rank(b, colours)                     ? "colour_rank"
        : memcmp(cur->pieces_upto, pieces_upto, sizeof pieces_upto) != 0 ? "pieces_upto"
        : memcmp(cur->firsts_upto, firsts_upto, sizeof firsts_upto) != 0 ? "firsts_upto"
        : cur->pos != pos                                                ? "pos"
                                                                         : NULL;
    if (bad != NULL) {
        char hs[4 * COLHASH_MAX_COLS + 1] = "";
        for (int c = 0, used = 0; c < w; c++) {
            used += snprintf(hs + used, sizeof hs - (size_t)used, "%d ", heights[c] % 100);
        }
        fail_msg("%dx%d %s, position %llu (heights %scolours %#llx): the cursor's %s is wrong", w,
                 h, what, (unsigned long long)pos, hs, (unsigned long long)colours, bad);
    }
}

/* A cursor loaded at the board with heights and colours (at position
 * pos, by the reference rank colhash_hash), by colhash_cursor_set (the
 * position) and by colhash_cursor_load (the parts), is checked part by
 * part; then from each, a piece dropped into every open column gives the
 * board one more piece (inserted into the colour sequence by hand) and
 * its reference rank, and lifting it back restores the cursor. */
static void cursor_from(const ColHash *ch, const Binomials *b, const uint8_t *heights,
                        uint64_t colours) {
    int w = ch->cols, n = 0;
    for (int c = 0; c < w; c++) {
        n += heights[c];
    }
    Position pos = colhash_hash(ch, heights, n, colours);
    ColHashCursor set, load;
    colhash_cursor_set(ch, &set, pos);
    check_cursor(ch, b, &set, heights, colours, pos, "cursor_set");
    colhash_cursor_load(ch, &load, heights, colours);
    check_cursor(ch, b, &load, heights, colours, pos, "cursor_load");
    for (int from = 0; from < 2; from++) {
        for (int c = 0, q = 0; c < w; c++) {
            q += heights[c]; /* the piece enters the colour sequence here */
            if (heights[c] == ch->rows) {
                continue;
            }
            ColHashCursor cur = from ? load : set;
            ColHashUndo undo;
            uint8_t up[COLHASH_MAX_COLS];
            memcpy(up, heights, (size_t)w);
            up[c]++;
            uint64_t more = insert_bit(colours, q, !(n & 1));
            Position child = colhash_cursor_drop(ch, &cur, c, &undo);
            assert_int_equal(child, colhash_hash(ch, up, n + 1, more));
            check_cursor(ch, b, &cur, up, more, child, from ? "load, drop" : "set, drop");
            colhash_cursor_lift(ch, &cur, c, &undo);
            check_cursor(ch, b, &cur, heights, colours, pos, from ? "load, lift" : "set, lift");
        }
    }
}

/* The cursor started from every position of small boards (not only from
 * the empty board, where every column is empty and a wrong part of a
 * full or a last column cannot show), and from random boards of larger
 * ones, half of them with the last column full; boards with and without
 * the table of height bases (16x3, 6x10). */
static void colhash_cursor_from_any_position(void **state) {
    (void)state;
    Binomials b;
    binomials_init(&b);
    static const int every[][2] = {{1, 6}, {2, 5}, {3, 4}, {4, 3}, {5, 2}, {7, 1}, {4, 4}};
    for (size_t i = 0; i < sizeof every / sizeof every[0]; i++) {
        ColHash ch;
        Error err = {0};
        assert_int_equal(colhash_init(&ch, every[i][0], every[i][1], &err), ERR_OK);
        for (Position p = 0; p < ch.size; p++) {
            uint8_t heights[COLHASH_MAX_COLS] = {0};
            uint64_t colours;
            (void)colhash_unhash(&ch, p, heights, &colours); /* the reference unrank */
            cursor_from(&ch, &b, heights, colours);
        }
        colhash_destroy(&ch);
    }
    static const int random[][2] = {{6, 5}, {7, 6}, {5, 4}, {16, 3}, {6, 10}};
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < sizeof random / sizeof random[0]; i++) {
        int w = random[i][0], h = random[i][1];
        ColHash ch;
        Error err = {0};
        assert_int_equal(colhash_init(&ch, w, h, &err), ERR_OK);
        for (int k = 0; k < 4000; k++) {
            uint8_t heights[COLHASH_MAX_COLS] = {0};
            int n = 0;
            for (int c = 0; c < w; c++) {
                heights[c] = (uint8_t)(test_rng(&seed) % (uint64_t)(h + 1));
            }
            if (k % 2 == 0 && w > 0) {
                heights[w - 1] = (uint8_t)h;
            }
            for (int c = 0; c < w; c++) {
                n += heights[c];
            }
            /* ceil(n/2) ones among n bits, each bit chosen at random among
             * those still free (a random subset of that size). */
            uint64_t colours = 0;
            for (int placed = 0; placed < (n + 1) / 2; placed++) {
                int at = (int)(test_rng(&seed) % (uint64_t)(n - placed)), bit = 0;
                for (;; bit++) {
                    if (!(colours >> bit & 1) && at-- == 0) {
                        break;
                    }
                }
                colours |= UINT64_C(1) << bit;
            }
            cursor_from(&ch, &b, heights, colours);
        }
        colhash_destroy(&ch);
    }
}

/* The figures of issue 3, to three significant digits, against the hash's
 * layout and a brute-force recount. */
static void colhash_sizes(void **state) {
    (void)state;
    static const struct {
        int w, h;
        double total, largest; /* 0: not quoted */
    } cases[] = {
        {4, 4, 2.02e5, 0}, {5, 4, 5.62e6, 0},      {6, 4, 1.60e8, 2.33e7},
        {5, 5, 1.72e8, 0}, {6, 5, 9.92e9, 1.31e9}, {7, 6, 7.07e13, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ColHash ch;
        Error err = {0};
        assert_int_equal(colhash_init(&ch, cases[i].w, cases[i].h, &err), ERR_OK);
        uint64_t tier[COLHASH_MAX_CELLS + 1], largest;
        uint64_t total = brute_sizes(cases[i].w, cases[i].h, tier, &largest);
        assert_int_equal(ch.size, total);
        uint64_t first = 0;
        for (int n = 0; n <= cases[i].w * cases[i].h; n++) {
            assert_int_equal(ch.first[n], first);
            first += tier[n];
        }
        double rel = (double)total / cases[i].total;
        assert_true(rel > 0.995 && rel < 1.005);
        if (cases[i].largest > 0) {
            rel = (double)largest / cases[i].largest;
            assert_true(rel > 0.995 && rel < 1.005);
        }
        assert_true(ch.size < (UINT64_C(1) << 63));
        assert_true(colhash_space(cases[i].w, cases[i].h) / (double)ch.size > 0.999999);
        colhash_destroy(&ch);
    }
}

static void colhash_refuses(void **state) {
    (void)state;
    ColHash ch;
    Error err = {0};
    /* 8x8 needs about 3.1e20 slots: more than 2^63. */
    assert_int_equal(colhash_init(&ch, 8, 8, &err), ERR_USAGE);
    assert_non_null(strstr(err.msg, "2^63"));
    assert_true(colhash_space(8, 8) > 0x1p63);
    assert_int_equal(colhash_init(&ch, 17, 1, &err), ERR_USAGE);
    assert_int_equal(colhash_init(&ch, 0, 4, &err), ERR_USAGE);
    assert_int_equal(colhash_init(&ch, 4, 0, &err), ERR_USAGE);
    /* The largest width of height 3 that fits, and one more row. */
    assert_int_equal(colhash_init(&ch, 16, 3, &err), ERR_OK);
    colhash_destroy(&ch);
    assert_int_equal(colhash_init(&ch, 16, 4, &err), ERR_USAGE);
}

static void counts_one_per_call(void **state) {
    (void)state;
    Binomials b;
    binomials_init(&b);
    Compositions c;
    ColHash ch;
    Error err = {0};
    assert_int_equal(compositions_init(&c, 3, 2, &err), ERR_OK);
    assert_int_equal(colhash_init(&ch, 4, 4, &err), ERR_OK);
    uint8_t v[3] = {1, 0, 2}, heights[COLHASH_MAX_COLS] = {0};
    uint64_t colours, r = 0;
    ColHashCursor cur;
    ColHashUndo undo;
    stats_thread_reset();
    (void)combi_rank(&b, 5);                         /* hash 1 */
    (void)combi_unrank(&b, 3, 4, 2);                 /* unhash 1 */
    (void)combi_insert(&b, 5, 1, &r, 1, 1);          /* hash 2 */
    (void)compositions_rank(&c, v, 3);               /* hash 3 */
    compositions_unrank(&c, 0, 3, v);                /* unhash 2 */
    Position p = colhash_hash(&ch, heights, 0, 0);   /* hash 4 */
    (void)colhash_unhash(&ch, p, heights, &colours); /* unhash 3 */
    colhash_cursor_set(&ch, &cur, p);                /* unhash 4 */
    (void)colhash_cursor_drop(&ch, &cur, 2, &undo);  /* hash 5 */
    colhash_cursor_lift(&ch, &cur, 2, &undo);        /* nothing */
    colhash_cursor_load(&ch, &cur, heights, 0);      /* hash 6 */
    (void)colhash_tier(&ch, p);                      /* nothing */
    Counters got = {0};
    stats_thread_collect(&got);
#if STATS
    assert_int_equal(got.hash, 6);
    assert_int_equal(got.unhash, 4);
#endif
    colhash_destroy(&ch);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(binomials_table),
        cmocka_unit_test(combinations_exhaustive),
        cmocka_unit_test(combination_insert_agrees),
        cmocka_unit_test(compositions_exhaustive),
        cmocka_unit_test(colhash_every_slot),
        cmocka_unit_test(colhash_cursor_walks),
        cmocka_unit_test(colhash_cursor_from_any_position),
        cmocka_unit_test(colhash_sizes),
        cmocka_unit_test(colhash_refuses),
        cmocka_unit_test(counts_one_per_call),
    };
    return cmocka_run_group_tests_name("hash: combinations and column hash", tests, NULL, NULL);
}
