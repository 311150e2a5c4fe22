/* tests/test_bench.c: bin/bench registers every supported pair by itself.
 *
 * Writes a matrix with one line per registered game (its first test
 * variant, so that only small games are created), runs
 * `bench --matrix FILE --benchmark_list_tests` and checks the list against
 * the registries: every registered solver appears with every game it
 * supports (solver_supports), as `solver/game:variant/manual_time`, or with
 * `/threads:N/` for a parallel solver, and nothing else appears; but an
 * instrumented variant of a solver (SolverModule.variant_of) appears only
 * on a line that names it (extra=), which the second test writes. Neither
 * this test nor the driver names a solver or a game, so a newly registered
 * one is covered without edits.
 *
 * The driver under test is BENCH (default build/timing/bin/bench, which
 * `make test` builds); its counted twin is not needed for a listing.
 */
#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NAMES_MAX 4096

typedef struct Listing {
    int n;
    char *name[NAMES_MAX];
    bool seen[NAMES_MAX];
} Listing;

static const char *bench_path(void) {
    const char *p = getenv("BENCH");
    return p != NULL ? p : "build/timing/bin/bench";
}

static void listing_read(const char *cmd, Listing *l) {
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    char line[1024];
    while (fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        assert_true(l->n < NAMES_MAX);
        l->name[l->n++] = test_strdupf("%s", line);
    }
    int status = pclose(f);
    if (status != 0) {
        fail_msg("%s exited with status %d", cmd, status);
    }
}

static void listing_free(Listing *l) {
    for (int i = 0; i < l->n; i++) {
        free(l->name[i]);
    }
}

/* Marks `name` seen; false if the listing does not have it. */
static bool listing_take(Listing *l, const char *name) {
    for (int i = 0; i < l->n; i++) {
        if (strcmp(l->name[i], name) == 0) {
            l->seen[i] = true;
            return true;
        }
    }
    return false;
}

/* The benchmarks bench lists for a matrix file written by write(ctx, f). */
static void list_matrix(const char *bench, void (*write)(FILE *f, const void *ctx), const void *ctx,
                        Listing *l) {
    char matrix[] = "/tmp/test_bench_matrix_XXXXXX";
    int fd = mkstemp(matrix);
    assert_true(fd >= 0);
    FILE *m = fdopen(fd, "w");
    assert_non_null(m);
    write(m, ctx);
    fclose(m);
    char *cmd = test_strdupf("'%s' --matrix '%s' --benchmark_list_tests", bench, matrix);
    listing_read(cmd, l);
    free(cmd);
    unlink(matrix);
}

/* A matrix line per registered game: its first test variant. */
static void every_game(FILE *m, const void *ctx) {
    (void)ctx;
    for (int i = 0; game_registry[i] != NULL; i++) {
        const GameModule *gm = game_registry[i];
        const char *opts = gm->test_variants[0].options;
        fprintf(m, "%s%s%s\n", gm->name, opts[0] ? ":" : "", opts);
    }
}

/* The line ctx (a string). */
static void one_line(FILE *m, const void *ctx) { fprintf(m, "%s\n", (const char *)ctx); }

static void every_supported_pair_is_listed(void **state) {
    (void)state;
    const char *bench = bench_path();
    if (access(bench, X_OK) != 0) {
        fail_msg("%s is missing (make test builds it; or set BENCH=path)", bench);
    }
    int ngames = 0;
    while (game_registry[ngames] != NULL) {
        ngames++;
    }
    Listing l = {0};
    list_matrix(bench, every_game, NULL, &l);

    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int expected = 0;
    for (int i = 0; game_registry[i] != NULL; i++) {
        const GameModule *gm = game_registry[i];
        const char *opts = gm->test_variants[0].options;
        char *spec = test_strdupf("%s%s%s", gm->name, opts[0] ? ":" : "", opts);
        Game *g = test_game(spec);
        char norm[GAME_VARIANT_MAX + 64];
        game_spec(g, norm, sizeof norm);
        for (int k = 0; solver_registry[k] != NULL; k++) {
            const SolverModule *s = solver_registry[k];
            char *name = s->parallel ? test_strdupf("%s/%s/threads:%ld/manual_time", s->name, norm,
                                                    cores > 0 ? cores : 1)
                                     : test_strdupf("%s/%s/manual_time", s->name, norm);
            bool listed = listing_take(&l, name);
            if (solver_supports(s, g, NULL, 0) && s->variant_of == NULL) {
                expected++;
                if (!listed) {
                    fail_msg("%s is not in bench --benchmark_list_tests", name);
                }
            } else if (listed) {
                fail_msg("%s is listed, but %s %s %s", name, s->name,
                         s->variant_of != NULL ? "is a variant, named on no line of"
                                               : "does not support",
                         norm);
            }
            free(name);
        }
        game_destroy(g);
        free(spec);
    }
    for (int i = 0; i < l.n; i++) {
        if (!l.seen[i]) {
            fail_msg("bench lists %s, which no registered pair explains", l.name[i]);
        }
    }
    assert_int_equal(l.n, expected);
    assert_true(ngames >= 1 && expected >= ngames);
    listing_free(&l);
}

/* Every variant, on a line of the first game variant it supports that
 * names it (extra=), is listed there, beside its base. */
static void a_variant_runs_where_named(void **state) {
    (void)state;
    const char *bench = bench_path();
    if (access(bench, X_OK) != 0) {
        fail_msg("%s is missing (make test builds it; or set BENCH=path)", bench);
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int nvariants = 0;
    for (int k = 0; solver_registry[k] != NULL; k++) {
        const SolverModule *s = solver_registry[k];
        if (s->variant_of == NULL) {
            continue;
        }
        nvariants++;
        const SolverModule *base = solver_find(s->variant_of);
        if (base == NULL) {
            fail_msg("%s: variant of '%s', which is not registered", s->name, s->variant_of);
        }
        for (int i = 0; game_registry[i] != NULL; i++) {
            const GameModule *gm = game_registry[i];
            const char *opts = gm->test_variants[0].options;
            char *spec = test_strdupf("%s%s%s", gm->name, opts[0] ? ":" : "", opts);
            Game *g = test_game(spec);
            bool fits = solver_supports(s, g, NULL, 0);
            char norm[GAME_VARIANT_MAX + 64];
            game_spec(g, norm, sizeof norm);
            game_destroy(g);
            if (!fits) {
                free(spec);
                continue;
            }
            char *line = test_strdupf("%s extra=%s", spec, s->name);
            Listing l = {0};
            list_matrix(bench, one_line, line, &l);
            free(line);
            const char *names[2] = {s->name, base->name};
            for (int b = 0; b < 2; b++) {
                const SolverModule *m2 = solver_find(names[b]);
                char *name = m2->parallel ? test_strdupf("%s/%s/threads:%ld/manual_time", names[b],
                                                         norm, cores > 0 ? cores : 1)
                                          : test_strdupf("%s/%s/manual_time", names[b], norm);
                if (!listing_take(&l, name)) {
                    fail_msg("%s is not listed on the line '%s extra=%s'", name, spec, s->name);
                }
                free(name);
            }
            listing_free(&l);
            free(spec);
            break;
        }
    }
    assert_true(nvariants >= 1); /* tier-probe */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_supported_pair_is_listed),
        cmocka_unit_test(a_variant_runs_where_named),
    };
    return cmocka_run_group_tests_name("bench registration", tests, NULL, NULL);
}
