/* tests/test_known_quarto.c: Quarto figures counted by hand, and refusals.
 *
 * No published value exists for the reduced boards (full Quarto, 4x4 with
 * 16 pieces, is a tie with perfect play: Luc Goossens, 1998, far beyond one
 * machine's memory with a dense database). The figures below are worked out
 * by hand in the comments; the three DFS solvers are checked against each
 * other position by position on every test variant by test_solvers.
 *
 * On a 2x2 board every pair of cells is a line (2 rows, 2 columns, 2
 * diagonals), so the second piece placed completes a line with the first.
 *
 * Symmetry (`sym`): the group is rebuilt here without the module's code:
 * every permutation of the cells that maps lines to lines, found by a
 * backtracking search (24 for n = 2, 8 for n = 3, 32 for n = 4: Kerner
 * 2001), times every attribute permutation and complement. The canonical
 * position must be the same for every image of a position under it and be
 * one of them; the orbit of a position with 12,288 / |stabiliser| images
 * for full Quarto; the sym databases hold one record per orbit (the orbits
 * counted here) with the plain databases' values. Full Quarto is refused by
 * every solver but search.
 */
#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void solve_all(const char *spec, Value value, uint32_t remoteness, uint64_t positions) {
    static const char *const solvers[] = {"dfs", "gps", "gps-cached"};
    Game *g = test_game(spec);
    for (int s = 0; s < 3; s++) {
        SolveResult res;
        test_solve(solvers[s], g, &res);
        assert_int_equal(res.root.value, value);
        assert_int_equal(res.root.remoteness, remoteness);
        if (positions != 0) {
            DbSummary sum;
            Error err = {0};
            assert_int_equal(db_summarize(&res.db, false, &sum, &err), ERR_OK);
            assert_int_equal(sum.positions, positions);
        }
        solve_result_free(&res);
    }
    game_destroy(g);
}

/* 2x2, one attribute: pieces 0 and 1, which share nothing, and only two of
 * them: the opening choice, two placements, and a tie (remoteness 3).
 * Positions: the start; 2 choices; 4 cells x the other piece in hand = 8;
 * both pieces on distinct cells, 4 x 3 = 12: 1 + 2 + 8 + 12 = 23. */
static void two_by_two_one_attribute(void **state) {
    (void)state;
    solve_all("quarto:n=2,attrs=1", VALUE_TIE, 3, 23);
}

/* 2x2, two attributes: pieces 00, 01, 10, 11. Player 1 hands p to player
 * 2, who places it and must hand over the complement of p (any other piece
 * shares an attribute with p and completes a line wherever it goes). Player
 * 1 places it and must hand over one of the two remaining pieces, each of
 * which shares an attribute with p or with its complement: player 2 wins
 * with the fourth move. So the first player loses in 4. */
static void two_by_two_two_attributes(void **state) {
    (void)state;
    solve_all("quarto:n=2,attrs=2", VALUE_LOSE, 4, 0);
}

/* A 3x3 board with two pieces of one attribute (0 and 1): a line of 3
 * needs 3 pieces, so nobody can win; the game is the opening and 2
 * placements, a tie in 3. */
static void three_by_three_one_attribute(void **state) {
    (void)state;
    solve_all("quarto:n=3,attrs=1", VALUE_TIE, 3, 0);
}

/* Hand-checked positions of the default 3x3 board with 8 pieces, read
 * through parse(): a completed row of 0, 1, 2 (all lack attribute 2) is a
 * loss for the player to move; with 8 pieces placed and no line, a tie. */
static void primitives_by_hand(void **state) {
    (void)state;
    Game *g = test_game("quarto");
    Position p;
    Error err = {0};
    assert_int_equal(g->ops->parse(g, "012/---/---:7", &p, &err), ERR_OK);
    assert_int_equal(g->ops->primitive(g, p), VALUE_LOSE);
    /* 0 1 6 / 3 2 4 / 5 7 -: every full line mixes both values of every
     * attribute (0 1 6 = 000 001 110; 3 2 4 = 011 010 100; columns 0 3 5,
     * 1 2 7; diagonal 6 2 5 = 110 010 101), and all 8 pieces are placed. */
    assert_int_equal(g->ops->parse(g, "016/324/57-:-", &p, &err), ERR_OK);
    assert_int_equal(g->ops->primitive(g, p), VALUE_TIE);
    /* One piece short, the game goes on with the last piece in hand. */
    assert_int_equal(g->ops->parse(g, "016/324/5--:7", &p, &err), ERR_OK);
    assert_int_equal(g->ops->primitive(g, p), VALUE_UNDECIDED);
    char name[32];
    Move moves[GAME_MAX_MOVES];
    int n = g->ops->generate_moves(g, p, moves);
    assert_int_equal(n, 2); /* the last piece: two cells, nothing handed over */
    game_move_name(g, p, moves[0], name, sizeof name);
    assert_int_equal(strlen(name), 2);
    game_destroy(g);
}

static void refusals(void **state) {
    (void)state;
    Game *g = NULL;
    Error err = {0};
    assert_int_equal(game_create("quarto:n=5", &g, &err), ERR_USAGE);
    assert_int_equal(game_create("quarto:attrs=0", &g, &err), ERR_USAGE);
    g = test_game("quarto");
    static const char *const bad[] = {
        "---/---/---",   /* no hand */
        "---/---/---:8", /* piece 8 is not in a 3-attribute set */
        "0--/---/---:0", /* piece 0 twice */
        "---/---/---;-", /* separator */
        "0--/---/---:-", /* a placement always hands over the next piece */
        "012/---/456:7", /* two lines no single placement completed */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Position p;
        if (g->ops->parse(g, bad[i], &p, &err) != ERR_USAGE) {
            fail_msg("quarto accepted '%s'", bad[i]);
        }
    }
    game_destroy(g);
    /* 2x2 with 8 pieces: after the fourth placement nothing is handed over. */
    g = test_game("quarto:n=2,attrs=3");
    Position p;
    assert_int_equal(g->ops->parse(g, "01/7-:6", &p, &err), ERR_OK);
    assert_int_equal(g->ops->parse(g, "01/76:2", &p, &err), ERR_USAGE);
    assert_non_null(strstr(err.msg, "nothing is left in hand"));
    game_destroy(g);
}

/* ------------------------------------------------------------ symmetry */

#define QT_CELLS 16

static int cmp_position(const void *a, const void *b) {
    Position x = *(const Position *)a, y = *(const Position *)b;
    return (x > y) - (x < y);
}
#define QT_MAX_PERMS 64

/* A Quarto position as cells (0 empty, 1 + piece) and the hand, from its text. */
typedef struct QtPos {
    uint8_t cell[QT_CELLS + 1]; /* [n * n] is the hand */
} QtPos;

static int piece_of(char ch) {
    return ch == '-' ? 0 : 1 + (int)(strchr("0123456789abcdef", ch) - "0123456789abcdef");
}

static QtPos qt_read(const Game *g, Position p, int n) {
    char text[64];
    g->ops->format(g, p, text, sizeof text);
    QtPos q = {{0}};
    int k = 0;
    for (const char *c = text; *c != '\0'; c++) {
        if (*c != '/' && *c != ':') {
            q.cell[k++] = (uint8_t)piece_of(*c);
        }
    }
    assert_int_equal(k, n * n + 1);
    return q;
}

static Position qt_write(const Game *g, const QtPos *q, int n) {
    char text[64];
    int k = 0;
    for (int i = 0; i < n * n; i++) {
        text[k++] = q->cell[i] ? "0123456789abcdef"[q->cell[i] - 1] : '-';
        if (i % n == n - 1) {
            text[k++] = i + 1 < n * n ? '/' : ':';
        }
    }
    text[k++] = q->cell[n * n] ? "0123456789abcdef"[q->cell[n * n] - 1] : '-';
    text[k] = '\0';
    return test_parse_ok(g, text);
}

/* The lines of the n x n board as cell masks: rows, columns, diagonals. */
static int board_lines(int n, unsigned *line) {
    int nl = 0;
    for (int r = 0; r < n; r++) {
        unsigned row = 0, col = 0;
        for (int k = 0; k < n; k++) {
            row |= 1u << (r * n + k);
            col |= 1u << (k * n + r);
        }
        line[nl++] = row;
        line[nl++] = col;
    }
    unsigned d = 0, a = 0;
    for (int k = 0; k < n; k++) {
        d |= 1u << (k * n + k);
        a |= 1u << (k * n + n - 1 - k);
    }
    line[nl++] = d;
    line[nl++] = a;
    return nl;
}

typedef struct Perms {
    int n, cells, nlines, count;
    unsigned line[10];
    uint8_t perm[QT_MAX_PERMS][QT_CELLS]; /* perm[k][i]: where cell i goes */
} Perms;

/* True when the images of the assigned cells of every line through cell i
 * lie in one line. */
static bool lines_ok(const Perms *ps, const uint8_t *to, unsigned assigned, int i) {
    for (int l = 0; l < ps->nlines; l++) {
        if (!(ps->line[l] & (1u << i))) {
            continue;
        }
        unsigned image = 0;
        for (int c = 0; c < ps->cells; c++) {
            if ((ps->line[l] & assigned & (1u << c)) != 0) {
                image |= 1u << to[c];
            }
        }
        bool inside = false;
        for (int m = 0; m < ps->nlines && !inside; m++) {
            inside = (image & ~ps->line[m]) == 0;
        }
        if (!inside) {
            return false;
        }
    }
    return true;
}

static void perms_search(Perms *ps, uint8_t *to, unsigned assigned, unsigned used, int i) {
    if (i == ps->cells) {
        assert_true(ps->count < QT_MAX_PERMS);
        memcpy(ps->perm[ps->count++], to, QT_CELLS);
        return;
    }
    for (int c = 0; c < ps->cells; c++) {
        if (!(used & (1u << c))) {
            to[i] = (uint8_t)c;
            if (lines_ok(ps, to, assigned | 1u << i, i)) {
                perms_search(ps, to, assigned | 1u << i, used | 1u << c, i + 1);
            }
        }
    }
}

/* Every permutation of the cells that sends lines to lines (a bijection of
 * the cells that keeps every line inside a line keeps the set of lines,
 * all lines having n cells). */
static void line_perms(int n, Perms *ps) {
    memset(ps, 0, sizeof *ps);
    ps->n = n;
    ps->cells = n * n;
    ps->nlines = board_lines(n, ps->line);
    uint8_t to[QT_CELLS] = {0};
    perms_search(ps, to, 0, 0, 0);
}

static void line_perms_form_the_group(void **state) {
    (void)state;
    static const int expect[5] = {0, 0, 24, 8, 32};
    for (int n = 2; n <= 4; n++) {
        Perms ps;
        line_perms(n, &ps);
        assert_int_equal(ps.count, expect[n]);
        /* Each sends every line onto a line; closed under composition. */
        for (int a = 0; a < ps.count; a++) {
            for (int l = 0; l < ps.nlines; l++) {
                unsigned image = 0;
                for (int c = 0; c < ps.cells; c++) {
                    image |= (ps.line[l] >> c & 1u) << ps.perm[a][c];
                }
                bool is_line = false;
                for (int m = 0; m < ps.nlines; m++) {
                    is_line |= image == ps.line[m];
                }
                assert_true(is_line);
            }
            for (int b = 0; b < ps.count; b++) {
                uint8_t ab[QT_CELLS];
                for (int c = 0; c < ps.cells; c++) {
                    ab[c] = ps.perm[a][ps.perm[b][c]];
                }
                bool found = false;
                for (int k = 0; k < ps.count && !found; k++) {
                    found = memcmp(ps.perm[k], ab, (size_t)ps.cells) == 0;
                }
                assert_true(found);
            }
        }
    }
}

/* The image of q under board map perm, attribute permutation pi (bit a
 * goes to bit pi[a]) and complement x. */
static QtPos qt_image(const QtPos *q, int n, int attrs, const uint8_t *perm, const int *pi,
                      unsigned x) {
    QtPos r = {{0}};
    for (int i = 0; i <= n * n; i++) {
        uint8_t v = q->cell[i];
        if (v != 0) {
            unsigned p = v - 1u, img = 0;
            for (int a = 0; a < attrs; a++) {
                img |= (p >> a & 1u) << pi[a];
            }
            v = (uint8_t)(1 + (img ^ x));
        }
        r.cell[i < n * n ? perm[i] : i] = v;
    }
    return r;
}

/* Every permutation of the first attrs attributes (the others fixed) into
 * pis[*count..]: the orders of 0..attrs-1 built position by position. */
static void attr_perms_from(int attrs, int *cur, int at, unsigned used, int pis[24][4],
                            int *count) {
    if (at == attrs) {
        memcpy(pis[(*count)++], cur, 4 * sizeof *cur);
        return;
    }
    for (int a = 0; a < attrs; a++) {
        if (!(used & (1u << a))) {
            cur[at] = a;
            attr_perms_from(attrs, cur, at + 1, used | 1u << a, pis, count);
        }
    }
}

static int attr_perms(int attrs, int pis[24][4]) {
    int cur[4] = {0, 1, 2, 3}, count = 0;
    attr_perms_from(attrs, cur, 0, 0, pis, &count);
    return count;
}

/* The orbit of p (sorted, distinct) into orbit; returns its size, and the
 * stabiliser's order in *stab. */
static int qt_orbit(const Game *g, int n, int attrs, const Perms *ps, Position p, Position *orbit,
                    int *stab) {
    int pis[24][4];
    int npi = attr_perms(attrs, pis), m = 0;
    QtPos q = qt_read(g, p, n);
    *stab = 0;
    for (int b = 0; b < ps->count; b++) {
        for (int k = 0; k < npi; k++) {
            for (unsigned x = 0; x < 1u << attrs; x++) {
                QtPos r = qt_image(&q, n, attrs, ps->perm[b], pis[k], x);
                Position img = qt_write(g, &r, n);
                *stab += img == p;
                orbit[m++] = img;
            }
        }
    }
    qsort(orbit, (size_t)m, sizeof *orbit, cmp_position);
    int d = 0;
    for (int i = 0; i < m; i++) {
        if (d == 0 || orbit[d - 1] != orbit[i]) {
            orbit[d++] = orbit[i];
        }
    }
    return d;
}

/* Random positions of spec (random play from the start, a random number of
 * moves), and every image of each under the group: the same canonical
 * position, which is one of the images; |orbit| x |stabiliser| = |group|.
 * Returns the largest orbit seen. */
static int invariance(const char *spec, int n, int attrs, int samples) {
    Game *g = test_game(spec);
    assert_true(g->symmetric);
    Perms ps;
    line_perms(n, &ps);
    int order = ps.count * (attrs == 4 ? 24 : attrs == 3 ? 6 : attrs == 2 ? 2 : 1) << attrs;
    Position *orbit = malloc((size_t)order * sizeof *orbit);
    assert_non_null(orbit);
    uint64_t rng = 12345;
    int largest = 0;
    for (int s = 0; s < samples; s++) {
        Position p = g->initial;
        int depth = (int)(test_rng(&rng) % (uint64_t)(g->max_depth + 1));
        for (int d = 0; d < depth && g->ops->primitive(g, p) == VALUE_UNDECIDED; d++) {
            Move moves[GAME_MAX_MOVES];
            int m = g->ops->generate_moves(g, p, moves);
            p = g->ops->do_move(g, p, moves[test_rng(&rng) % (uint64_t)m]);
        }
        int stab = 0, size = qt_orbit(g, n, attrs, &ps, p, orbit, &stab);
        assert_int_equal(size * stab, order);
        largest = size > largest ? size : largest;
        Position canon = g->ops->canonical(g, p);
        assert_non_null(bsearch(&canon, orbit, (size_t)size, sizeof *orbit, cmp_position));
        for (int i = 0; i < size; i++) {
            if (g->ops->canonical(g, orbit[i]) != canon) {
                char a[64], b[64];
                g->ops->format(g, p, a, sizeof a);
                g->ops->format(g, orbit[i], b, sizeof b);
                fail_msg("%s: canonical(%s) != canonical(%s), its image", spec, a, b);
            }
        }
    }
    free(orbit);
    game_destroy(g);
    return largest;
}

static void canonical_is_invariant(void **state) {
    (void)state;
    invariance("quarto:n=2,attrs=3,sym", 2, 3, 40);
    invariance("quarto:n=3,attrs=3,sym", 3, 3, 60);
    invariance("quarto:n=4,attrs=2,sym", 4, 2, 40);
    /* Full Quarto: some position has an orbit of all 12,288 images, so the
     * group acts as 12,288 distinct maps. */
    assert_int_equal(invariance("quarto:n=4,attrs=4,sym", 4, 4, 12), 12288);
}

/* The sym databases of dfs, gps and gps-cached against the plain dfs
 * database: every position the plain solve reached has, at its canonical
 * position, the same value and remoteness; the sym database holds exactly
 * one record per orbit of the plain reached positions (orbits found with
 * the group rebuilt above, not the module's), with the orbits' values. */
static void sym_values_equal_plain_one(const char *plain_spec, int n, int attrs) {
    Game *g = test_game(plain_spec);
    char sym_spec[64];
    snprintf(sym_spec, sizeof sym_spec, "%s,sym", plain_spec);
    Game *gs = test_game(sym_spec);
    SolveResult plain;
    test_solve("dfs", g, &plain);
    Perms ps;
    line_perms(n, &ps);
    Position *orbit = malloc(12288 * sizeof *orbit);
    uint8_t *seen = calloc((size_t)g->num_positions, 1);
    assert_non_null(orbit);
    assert_non_null(seen);
    uint64_t orbits = 0, by_value[VALUE_COUNT] = {0};
    for (Position p = 0; p < plain.db.size; p++) {
        uint32_t raw = db_peek(&plain.db, p);
        if (!db_raw_solved(&plain.db, raw) || seen[p]) {
            continue;
        }
        int stab = 0, size = qt_orbit(g, n, attrs, &ps, p, orbit, &stab);
        for (int i = 0; i < size; i++) {
            seen[orbit[i]] = 1;
        }
        orbits++;
        by_value[db_raw_value(&plain.db, raw)]++;
    }
    static const char *const solvers[] = {"dfs", "gps", "gps-cached"};
    for (int k = 0; k < 3; k++) {
        SolveResult sym;
        test_solve(solvers[k], gs, &sym);
        assert_int_equal(sym.root.value, plain.root.value);
        assert_int_equal(sym.root.remoteness, plain.root.remoteness);
        for (Position p = 0; p < plain.db.size; p++) {
            uint32_t raw = db_peek(&plain.db, p);
            if (!db_raw_solved(&plain.db, raw)) {
                continue;
            }
            uint32_t rs = db_peek(&sym.db, gs->ops->canonical(gs, p));
            assert_true(db_raw_solved(&sym.db, rs));
            assert_int_equal(db_raw_value(&sym.db, rs), db_raw_value(&plain.db, raw));
            assert_int_equal(db_raw_remoteness(&sym.db, rs), db_raw_remoteness(&plain.db, raw));
        }
        DbSummary sum;
        Error err = {0};
        assert_int_equal(db_summarize(&sym.db, false, &sum, &err), ERR_OK);
        assert_int_equal(sum.positions, orbits);
        for (int v = 0; v < VALUE_COUNT; v++) {
            assert_int_equal(sum.count[v], by_value[v]);
        }
        solve_result_free(&sym);
    }
    free(seen);
    free(orbit);
    solve_result_free(&plain);
    game_destroy(gs);
    game_destroy(g);
}

static void sym_values_equal_plain(void **state) {
    (void)state;
    sym_values_equal_plain_one("quarto:n=2,attrs=3", 2, 3);
    sym_values_equal_plain_one("quarto:n=3,attrs=2", 3, 2);
    sym_values_equal_plain_one("quarto:n=4,attrs=2", 4, 2);
}

/* The value of p by a plain negamax over the stateless family (no memo):
 * LOSE < TIE < WIN for the player to move. */
static Value negamax(const Game *g, Position p) {
    Value v = g->ops->primitive(g, p);
    if (v != VALUE_UNDECIDED) {
        return v;
    }
    Move moves[GAME_MAX_MOVES];
    int n = g->ops->generate_moves(g, p, moves);
    Value best = VALUE_LOSE;
    for (int k = 0; k < n && best != VALUE_WIN; k++) {
        Value c = negamax(g, g->ops->do_move(g, p, moves[k]));
        Value mine = c == VALUE_LOSE ? VALUE_WIN : c == VALUE_WIN ? VALUE_LOSE : VALUE_TIE;
        if (mine == VALUE_WIN || (mine == VALUE_TIE && best == VALUE_LOSE)) {
            best = mine;
        }
    }
    return best;
}

/* Full Quarto: every solver that keeps a table of the hash space refuses it
 * before solving, with the estimate; search solves late positions, with
 * and without sym, as a plain negamax values them. */
static void full_quarto(void **state) {
    (void)state;
    static const char *const specs[] = {"quarto:n=4,attrs=4", "quarto:n=4,attrs=4,sym"};
    /* Positions of bin/solve's --sample, not primitive: 11 and 12 pieces placed. */
    static const char *const late[] = {"-d-a/c-f6/92-4/-3b5:0", "-38e/25fd/ca--/0--7:9",
                                       "-05-/4dca/9e36/f-8-:2"};
    for (int s = 0; s < 2; s++) {
        Game *g = test_game(specs[s]);
        assert_non_null(g->table_refusal);
        assert_non_null(strstr(g->table_refusal, "full Quarto"));
        assert_non_null(strstr(g->table_refusal, "estimated"));
        for (int i = 0; solver_registry[i] != NULL; i++) {
            const SolverModule *sv = solver_registry[i];
            if (sv->bounded_memory || !solver_supports(sv, g, NULL, 0)) {
                continue;
            }
            SolveConfig cfg = {0};
            SolveResult res;
            Error err = {0};
            assert_int_equal(solver_lookup(sv->name, &sv, &cfg, &err), ERR_OK);
            if (solver_run(sv, g, &cfg, &res, &err) != ERR_MEMORY ||
                strstr(err.msg, "full Quarto, needs an estimated") == NULL) {
                fail_msg("solver %s on %s: not refused for memory (%s)", sv->name, specs[s],
                         err.msg);
            }
        }
        for (size_t k = 0; k < sizeof late / sizeof late[0]; k++) {
            Position root = test_parse_ok(g, late[k]);
            const SolverModule *sv = NULL;
            SolveConfig cfg = {0};
            SolveResult res;
            Error err = {0};
            assert_int_equal(solver_lookup("search:memo=16", &sv, &cfg, &err), ERR_OK);
            cfg.root = &root;
            cfg.threads = 1;
            if (solver_run(sv, g, &cfg, &res, &err) != ERR_OK) {
                fail_msg("search on %s from %s: %s", specs[s], late[k], err.msg);
            }
            assert_int_equal(res.root.value, negamax(g, root));
            solve_result_free(&res);
        }
        game_destroy(g);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_by_two_one_attribute),
        cmocka_unit_test(two_by_two_two_attributes),
        cmocka_unit_test(three_by_three_one_attribute),
        cmocka_unit_test(primitives_by_hand),
        cmocka_unit_test(refusals),
        cmocka_unit_test(line_perms_form_the_group),
        cmocka_unit_test(canonical_is_invariant),
        cmocka_unit_test(sym_values_equal_plain),
        cmocka_unit_test(full_quarto),
    };
    return cmocka_run_group_tests_name("known figures: quarto", tests, NULL, NULL);
}
