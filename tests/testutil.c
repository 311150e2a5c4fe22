/* tests/testutil.c: see testutil.h. */
#include "tests/testutil.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool test_heavy_enabled(void) {
    const char *v = getenv("TEST_HEAVY");
    return v == NULL || strcmp(v, "0") != 0;
}

bool test_heavy_all(void) {
    const char *v = getenv("TEST_HEAVY");
    return v != NULL && strcmp(v, "1") == 0;
}

char *test_strdupf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

char *test_make_dir(const char *name) {
    char *dir = test_strdupf("/tmp/%s.XXXXXX", name);
    assert_non_null(mkdtemp(dir));
    return dir;
}

void test_remove_dir(char *dir) {
    char *cmd = test_strdupf("rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    free(dir);
}

ErrCode test_run_tier(const Game *g, const char *opts, int threads, const char *dir,
                      SolveResult *res, Error *err) {
    const SolverModule *s = solver_find("tier");
    assert_non_null(s);
    SolveConfig cfg = {.threads = threads, .work_dir = dir};
    assert_int_equal(options_parse(s->options, opts, "tier", &cfg.options, err), ERR_OK);
    return solver_run(s, g, &cfg, res, err);
}

char **test_game_specs(size_t *count) {
    size_t cap = 16, n = 0;
    char **specs = malloc(cap * sizeof *specs);
    assert_non_null(specs);
    for (int i = 0; game_registry[i] != NULL; i++) {
        const GameModule *m = game_registry[i];
        for (const GameTestVariant *v = m->test_variants; v->options != NULL; v++) {
            if (v->heavy && !test_heavy_enabled()) {
                continue;
            }
            if (n + 2 > cap) {
                cap *= 2;
                specs = realloc(specs, cap * sizeof *specs);
                assert_non_null(specs);
            }
            specs[n++] = v->options[0] ? test_strdupf("%s:%s", m->name, v->options)
                                       : test_strdupf("%s", m->name);
        }
    }
    specs[n] = NULL;
    if (count != NULL) {
        *count = n;
    }
    return specs;
}

void test_free_specs(char **specs) {
    for (size_t i = 0; specs[i] != NULL; i++) {
        free(specs[i]);
    }
    free(specs);
}

Game *test_game(const char *spec) {
    Game *g = NULL;
    Error err = {0};
    if (game_create(spec, &g, &err) != ERR_OK) {
        fail_msg("game_create(%s): %s", spec, err.msg);
    }
    return g;
}

int test_children(const Game *g, Position p, Position *children) {
    if (g->ops->primitive(g, p) != VALUE_UNDECIDED) {
        return 0;
    }
    Move moves[GAME_MAX_MOVES];
    int n = g->ops->generate_moves(g, p, moves);
    for (int i = 0; i < n; i++) {
        children[i] = game_canonical(g, g->ops->do_move(g, p, moves[i]));
    }
    return n;
}

void test_reach(const Game *g, Reach *r) {
    r->seen = calloc(g->num_positions, 1);
    assert_non_null(r->seen);
    size_t cap = 1024;
    r->list = malloc(cap * sizeof *r->list);
    assert_non_null(r->list);
    Position root = game_canonical(g, g->initial);
    r->list[0] = root;
    r->count = 1;
    r->seen[root] = 1;
    Position children[GAME_MAX_MOVES];
    for (uint64_t head = 0; head < r->count; head++) {
        int n = test_children(g, r->list[head], children);
        for (int i = 0; i < n; i++) {
            Position c = children[i];
            assert_true(c < g->num_positions);
            if (!r->seen[c]) {
                r->seen[c] = 1;
                if (r->count == cap) {
                    cap *= 2;
                    r->list = realloc(r->list, cap * sizeof *r->list);
                    assert_non_null(r->list);
                }
                r->list[r->count++] = c;
            }
        }
    }
}

void test_reach_free(Reach *r) {
    free(r->list);
    free(r->seen);
    r->list = NULL;
    r->seen = NULL;
}

void test_solve(const char *solver, const Game *g, SolveResult *res) {
    const SolverModule *s = NULL;
    SolveConfig cfg = {0};
    Error err = {0};
    if (solver_lookup(solver, &s, &cfg, &err) != ERR_OK ||
        solver_run(s, g, &cfg, res, &err) != ERR_OK) {
        fail_msg("solver %s on %s:%s: %s", solver, g->module->name, g->variant, err.msg);
    }
}

double test_extra(const SolveResult *res, const char *name) {
    for (int i = 0; i < res->nextra; i++) {
        if (strcmp(res->extra[i].name, name) == 0) {
            return res->extra[i].value;
        }
    }
    fail_msg("solver_stats has no %s", name);
    return 0;
}

void test_assert_same_db(const Database *a, const Database *b) {
    assert_int_equal(a->size, b->size);
    assert_int_equal(a->width, b->width);
    const void *ra = a->r8 ? (const void *)a->r8 : (const void *)a->r16;
    const void *rb = b->r8 ? (const void *)b->r8 : (const void *)b->r16;
    assert_memory_equal(ra, rb, a->size * a->width);
    assert_true((a->winby == NULL) == (b->winby == NULL));
    if (a->winby != NULL) {
        assert_memory_equal(a->winby, b->winby, a->size * sizeof *a->winby);
    }
}

uint64_t test_rng(uint64_t *state) {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

int test_run_group(const char *name, struct CMUnitTest *tests, size_t n) {
    int failed = _cmocka_run_group_tests(name, tests, n, NULL, NULL);
    for (size_t i = 0; i < n; i++) {
        free((char *)tests[i].name);
    }
    return failed;
}

/* ------------------------------------------- positions and moves by text */

static int test_cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

Position test_parse_ok(const Game *g, const char *text) {
    Position p;
    Error err = {0};
    if (g->ops->parse(g, text, &p, &err) != ERR_OK) {
        fail_msg("parse '%s': %s", text, err.msg);
    }
    return p;
}

void test_assert_moves(const Game *g, const char *text, const char *expected) {
    Position p = test_parse_ok(g, text);
    Move moves[GAME_MAX_MOVES];
    int n = g->ops->primitive(g, p) == VALUE_UNDECIDED ? g->ops->generate_moves(g, p, moves) : 0;
    assert_in_range(n, 0, g->max_moves);
    char names[GAME_MAX_MOVES][16];
    const char *got[GAME_MAX_MOVES];
    for (int i = 0; i < n; i++) {
        game_move_name(g, p, moves[i], names[i], sizeof names[i]);
        got[i] = names[i];
    }
    qsort(got, (size_t)n, sizeof got[0], test_cmp_str);
    char exp_buf[1024];
    snprintf(exp_buf, sizeof exp_buf, "%s", expected);
    const char *want[GAME_MAX_MOVES];
    int m = 0;
    for (char *t = strtok(exp_buf, " "); t != NULL; t = strtok(NULL, " ")) {
        want[m++] = t;
    }
    qsort(want, (size_t)m, sizeof want[0], test_cmp_str);
    char got_line[2048] = "", want_line[2048] = "";
    for (int i = 0; i < n; i++) {
        strcat(strcat(got_line, got[i]), " ");
    }
    for (int i = 0; i < m; i++) {
        strcat(strcat(want_line, want[i]), " ");
    }
    if (strcmp(got_line, want_line) != 0) {
        fail_msg("%s %s: moves [%s], expected [%s]", g->variant, text, got_line, want_line);
    }
}

void test_assert_after(const Game *g, const char *text, const char *name, const char *after) {
    Position p = test_parse_ok(g, text);
    Move moves[GAME_MAX_MOVES];
    int n = g->ops->generate_moves(g, p, moves);
    for (int i = 0; i < n; i++) {
        char buf[16], out[GAME_TEXT_MAX];
        game_move_name(g, p, moves[i], buf, sizeof buf);
        if (strcmp(buf, name) == 0) {
            g->ops->format(g, g->ops->do_move(g, p, moves[i]), out, sizeof out);
            assert_string_equal(out, after);
            return;
        }
    }
    fail_msg("%s: no move %s", text, name);
}

int test_advised_huge(const void *p) {
    FILE *thp = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (thp == NULL) {
        return -1;
    }
    fclose(thp);
    FILE *f = fopen("/proc/self/smaps", "r");
    if (f == NULL) {
        return -1;
    }
    char line[512];
    bool inside = false;
    int found = -1;
    while (found < 0 && fgets(line, sizeof line, f) != NULL) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {
            inside = (uintptr_t)p >= lo && (uintptr_t)p < hi;
        } else if (inside && strncmp(line, "VmFlags:", 8) == 0) {
            found = strstr(line, " hg") != NULL;
        }
    }
    fclose(f);
    return found;
}
