/* bench/driver.c: bin/bench, the benchmark driver (Google Benchmark via bench/shim.h).
 *
 *   bench [--matrix FILE] [--full] [--solvers LIST] [--games LIST]
 *         [--context KEY=VALUE]... [--counted PATH] [--count-min-time SECONDS]
 *         [--benchmark_* flags of Google Benchmark]
 *
 * Reads the benchmark matrix (bench/matrix.txt: one game variant a line, see
 * the file's header) and registers one benchmark per compatible (solver x
 * game variant) pair, named `solver/game:variant` (a parallel solver adds
 * `/threads:N`; Google Benchmark appends `/manual_time`). Every registered
 * solver that supports a line's game is in it unless the line says
 * otherwise, so a new solver or game needs no edit here; an instrumented
 * variant of a solver (SolverModule.variant_of) runs only where a line
 * names it. --solvers and
 * --games narrow or extend the matrix; an unknown name anywhere is an error
 * (exit 2) before anything runs.
 *
 * One benchmark times whole solves: the game is created and the options
 * parsed before the timing loop (SolveConfig.skip_export is set: only the
 * root and the figures are needed); each iteration's time is the harness's
 * monotonic wall time of solver_run (solvers/solver.h), reported as manual
 * time. This binary is built from the timing variant (STATS=0), so no
 * counter is paid for in the times. The counters come from the same code
 * built with STATS=1 (bin/bench-counted, the "counted twin"), which this
 * program runs once per pair (`--count-one`: the protocol is bench/counted.h,
 * both of its sides are bench/counted.c) before timing it; the
 * twin repeats the solve for at least --count-min-time seconds (default
 * 0.1), so its time against ours is the overhead of the counting:
 * count_overhead = the fastest counted solve / the fastest timed solve
 * (minima, which a busy machine disturbs less than means).
 *
 * User counters of each benchmark:
 *   positions            positions in the solver's database (dfs-depth: the
 *                        positions it stored); absent for root-only solvers
 *   hash ... sweeps      the counters of core/stats.h, from the counted twin
 *   peak_bytes           jemalloc peak of the solve (max over iterations)
 *   peak_rss_bytes       the process's peak resident set during the solve
 *   positions_per_second positions / time, as a Google Benchmark rate
 *   counted_seconds      mean time of one solve in the counted build
 *   count_overhead       fastest counted solve / fastest timed solve
 *   threads              threads the solve used
 * The label gives the root's value and the line's series tag.
 *
 * Internal mode (the counted twin): `bench --count-one SOLVER GAME THREADS
 * MIN_SECONDS` runs one pair through the same setup and solve functions and
 * prints `name value` lines (or `error MESSAGE` and a non-zero exit):
 * counted_child_main of bench/counted.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <regex.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bench/counted.h"
#include "bench/matrix.h"
#include "bench/shim.h"
#include "core/mem.h"
#include "games/game.h"
#include "solvers/solver.h"

#ifndef BENCH_CFLAGS
#define BENCH_CFLAGS "unknown"
#endif
#define BUILD_NAME (STATS_ENABLED ? "release (STATS=1, counters on)" : "timing (STATS=0)")

/* The matrix parser (bench/matrix.h), in the names this file uses. */
#define SPEC_MAX MATRIX_SPEC_MAX
#define LIST_MAX MATRIX_LIST_MAX

/* --------------------------------------------------------------- pairs */

/* One benchmark: a solver spec on a game spec with a thread count. */
typedef struct Pair {
    char name[3 * SPEC_MAX];
    char solver[SPEC_MAX]; /* as given: "dfs-depth:k=3" */
    char game[SPEC_MAX];   /* normalized: "tictactoe:misere" */
    char series[64];
    int threads;    /* 0: not a parallel solver */
    ErrCode failed; /* ERR_OK, or the code of the pair's failure */
    bool counted;   /* the counted twin has run (once per pair) */
    CountedFigures count;
} Pair;

/* The pairs, and a hash set of their names (open addressing, linear
 * probing; slot = index + 1, 0 empty; at most half full) so that a
 * duplicate is found in O(1) expected per pair, not by a scan. */
typedef struct Pairs {
    int n, cap;
    Pair *p;
    uint32_t *slots;
    size_t nslots; /* a power of two */
} Pairs;

static uint64_t name_hash(const char *s) {
    uint64_t h = UINT64_C(14695981039346656037); /* FNV-1a */
    for (; *s != '\0'; s++) {
        h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
    }
    return h;
}

/* The slot holding name, or the empty slot where it would go. */
static size_t pairs_slot(const Pairs *ps, const char *name) {
    size_t i = (size_t)name_hash(name) & (ps->nslots - 1);
    while (ps->slots[i] != 0 && strcmp(ps->p[ps->slots[i] - 1].name, name) != 0) {
        i = (i + 1) & (ps->nslots - 1);
    }
    return i;
}

/* Makes room for one more name in the set (doubling and rehashing). */
static ErrCode pairs_grow_set(Pairs *ps, Error *err) {
    if ((size_t)(ps->n + 1) * 2 <= ps->nslots) {
        return ERR_OK;
    }
    size_t n = ps->nslots ? ps->nslots * 2 : 256;
    uint32_t *slots = calloc(n, sizeof *slots);
    if (slots == NULL) {
        return error_set(err, ERR_MEMORY, "out of memory registering benchmarks");
    }
    free(ps->slots);
    ps->slots = slots;
    ps->nslots = n;
    for (int k = 0; k < ps->n; k++) {
        ps->slots[pairs_slot(ps, ps->p[k].name)] = (uint32_t)k + 1;
    }
    return ERR_OK;
}

static void pairs_free(Pairs *ps) {
    free(ps->p);
    free(ps->slots);
    *ps = (Pairs){0};
}

static ErrCode pairs_add(Pairs *ps, const char *solver, const char *game, int threads,
                         const char *series, Error *err) {
    char name[sizeof ps->p->name];
    if (threads > 0) {
        snprintf(name, sizeof name, "%s/%s/threads:%d", solver, game, threads);
    } else {
        snprintf(name, sizeof name, "%s/%s", solver, game);
    }
    if (pairs_grow_set(ps, err) != ERR_OK) {
        return ERR_MEMORY;
    }
    size_t slot = pairs_slot(ps, name);
    if (ps->slots[slot] != 0) {
        return error_set(err, ERR_USAGE,
                         "benchmark %s is in the matrix twice (check --games and the matrix)",
                         name);
    }
    if (ps->n == ps->cap) {
        ps->cap = ps->cap ? ps->cap * 2 : 64;
        ps->p = realloc(ps->p, (size_t)ps->cap * sizeof *ps->p);
        if (ps->p == NULL) {
            return error_set(err, ERR_MEMORY, "out of memory registering benchmarks");
        }
    }
    Pair *p = &ps->p[ps->n++];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    snprintf(p->solver, sizeof p->solver, "%s", solver);
    snprintf(p->game, sizeof p->game, "%s", game);
    snprintf(p->series, sizeof p->series, "%s", series);
    p->threads = threads;
    ps->slots[slot] = (uint32_t)ps->n;
    return ERR_OK;
}

static bool list_has_name(const MatrixSpecs *l, const char *name) {
    for (int i = 0; i < l->n; i++) {
        char n[64];
        matrix_spec_name(l->item[i], n, sizeof n);
        if (strcmp(n, name) == 0) {
            return true;
        }
    }
    return false;
}

static bool list_has(const MatrixSpecs *l, const char *spec) {
    for (int i = 0; i < l->n; i++) {
        if (strcmp(l->item[i], spec) == 0) {
            return true;
        }
    }
    return false;
}

static void list_push(MatrixSpecs *l, const char *spec) {
    if (l->n < LIST_MAX && !list_has(l, spec)) {
        snprintf(l->item[l->n++], SPEC_MAX, "%s", spec);
    }
}

/* The solver specs a line runs: its solvers= list, or every registered
 * solver that supports the game less skip= (and less the variants,
 * SolverModule.variant_of), plus extra=; then narrowed by
 * --solvers (an entry without options keeps the line's specs of that solver
 * or adds the solver; an entry with options adds exactly that spec). An
 * explicitly named solver that cannot run the game is an error; a default
 * one is left out. */
static ErrCode line_solvers(const MatrixLine *l, const Game *g, const MatrixSpecs *only,
                            MatrixSpecs *out, Error *err) {
    static MatrixSpecs solvers, extra, skip, base; /* 20 KiB each: not on the stack */
    solvers = extra = skip = base = (MatrixSpecs){0};
    ErrCode rc = ERR_OK;
    if (l->solvers != NULL) {
        rc = matrix_specs_split(l->solvers, matrix_is_solver_name, "solver", &solvers, err);
    }
    if (rc == ERR_OK && l->extra != NULL) {
        rc = matrix_specs_split(l->extra, matrix_is_solver_name, "solver", &extra, err);
    }
    if (rc == ERR_OK && l->skip != NULL) {
        rc = matrix_specs_split(l->skip, matrix_is_solver_name, "solver", &skip, err);
    }
    if (rc != ERR_OK) {
        return rc;
    }
    if (l->has_solvers) {
        base = solvers;
    } else {
        for (int i = 0; solver_registry[i] != NULL; i++) {
            const SolverModule *s = solver_registry[i];
            if (solver_supports(s, g, NULL, 0) && s->variant_of == NULL &&
                !list_has_name(&skip, s->name)) {
                list_push(&base, s->name);
            }
        }
    }
    for (int i = 0; i < extra.n; i++) {
        list_push(&base, extra.item[i]);
    }
    static MatrixSpecs chosen;
    chosen = (MatrixSpecs){0};
    if (only->n == 0) {
        chosen = base;
    } else {
        for (int i = 0; i < only->n; i++) {
            const char *want = only->item[i];
            if (strchr(want, ':') != NULL) {
                list_push(&chosen, want);
                continue;
            }
            bool found = false;
            for (int k = 0; k < base.n; k++) {
                char n[64];
                matrix_spec_name(base.item[k], n, sizeof n);
                if (strcmp(n, want) == 0) {
                    list_push(&chosen, base.item[k]);
                    found = true;
                }
            }
            if (!found) {
                list_push(&chosen, want);
            }
        }
    }
    for (int i = 0; i < chosen.n; i++) {
        const SolverModule *s = NULL;
        ErrCode rc = matrix_solver_check(chosen.item[i], &s, err);
        if (rc != ERR_OK) {
            error_prefix(err, "%s: ", l->where);
            return rc;
        }
        char why[512];
        if (!solver_supports(s, g, why, sizeof why)) {
            if (list_has(&solvers, chosen.item[i]) || list_has(&extra, chosen.item[i])) {
                return error_set(err, ERR_UNSUPPORTED, "%s: %s", l->where, why);
            }
            continue; /* --solvers applies to every line; keep the ones it fits */
        }
        list_push(out, chosen.item[i]);
    }
    return ERR_OK;
}

/* Registers the pairs of one line whose game is g. */
static ErrCode line_pairs(const MatrixLine *l, const Game *g, const MatrixSpecs *only, Pairs *ps,
                          Error *err) {
    MatrixSpecs solvers = {0};
    ErrCode rc = line_solvers(l, g, only, &solvers, err);
    char game[GAME_VARIANT_MAX + 64];
    game_spec(g, game, sizeof game);
    for (int i = 0; rc == ERR_OK && i < solvers.n; i++) {
        const SolverModule *s = NULL;
        matrix_solver_check(solvers.item[i], &s, err);
        if (!s->parallel) {
            rc = pairs_add(ps, solvers.item[i], game, 0, l->series, err);
            continue;
        }
        int all = (int)sysconf(_SC_NPROCESSORS_ONLN);
        int n = l->nthreads > 0 ? l->nthreads : 1;
        for (int t = 0; rc == ERR_OK && t < n; t++) {
            int threads = l->nthreads > 0 ? l->threads[t] : (all > 0 ? all : 1);
            rc = pairs_add(ps, solvers.item[i], game, threads, l->series, err);
        }
    }
    if (rc != ERR_OK && strncmp(err->msg, l->where, strlen(l->where)) != 0) {
        error_prefix(err, "%s: ", l->where);
    }
    return rc;
}

/* Normalized spec of a game spec, or an error naming where it came from. */
static ErrCode normalize_game(const char *spec, const char *where, char *out, size_t n, Game **keep,
                              Error *err) {
    Game *g = NULL;
    ErrCode rc = game_create(spec, &g, err);
    if (rc != ERR_OK) {
        error_prefix(err, "%s: ", where);
        return rc;
    }
    game_spec(g, out, n);
    if (keep != NULL) {
        *keep = g;
    } else {
        game_destroy(g);
    }
    return ERR_OK;
}

typedef struct Options {
    const char *matrix;
    bool full;
    const char *solvers;
    const char *games;
    const char *counted;
    double count_min_time;
    double count_timeout;
    int ncontext;
    const char *context[32];
} Options;

/* The lines to run: the matrix's (default ones, and full ones with --full),
 * or with --games the lines each entry names (an entry with options names
 * one variant, matched after normalization, on any line; an entry without
 * names the game's lines; either gets a line of its own when the matrix has
 * none). */
static ErrCode select_lines(const Matrix *m, const Options *o, Matrix *out, Error *err) {
    if (o->games == NULL) {
        for (int i = 0; i < m->n; i++) {
            if (!m->lines[i].full || o->full) {
                *matrix_add(out) = m->lines[i];
            }
        }
        return ERR_OK;
    }
    MatrixSpecs games = {0};
    ErrCode rc = matrix_specs_split(o->games, matrix_is_game_name, "game", &games, err);
    if (rc != ERR_OK) {
        error_prefix(err, "--games: ");
    }
    if (rc == ERR_OK && games.n == 0) {
        rc = error_set(err, ERR_USAGE, "--games is empty");
    }
    for (int i = 0; rc == ERR_OK && i < games.n; i++) {
        const char *want = games.item[i];
        char norm[SPEC_MAX], name[64];
        rc = normalize_game(want, "--games", norm, sizeof norm, NULL, err);
        matrix_spec_name(want, name, sizeof name);
        bool with_options = strchr(want, ':') != NULL;
        bool found = false;
        for (int k = 0; rc == ERR_OK && k < m->n; k++) {
            const MatrixLine *l = &m->lines[k];
            char lname[64], lnorm[SPEC_MAX];
            matrix_spec_name(l->game, lname, sizeof lname);
            if (strcmp(lname, name) != 0) {
                continue;
            }
            bool match;
            if (with_options) {
                rc = normalize_game(l->game, l->where, lnorm, sizeof lnorm, NULL, err);
                match = rc == ERR_OK && strcmp(lnorm, norm) == 0;
            } else {
                match = !l->full || o->full;
            }
            if (match) {
                *matrix_add(out) = *l;
                found = true;
            }
        }
        if (rc == ERR_OK && !found) {
            MatrixLine *l = matrix_add(out);
            snprintf(l->where, sizeof l->where, "--games %s", want);
            snprintf(l->game, sizeof l->game, "%s", want);
        }
    }
    return rc;
}

static ErrCode build_pairs(const Options *o, Pairs *ps, Error *err) {
    Matrix all = {0}, lines = {0};
    MatrixSpecs only = {0};
    ErrCode rc = matrix_read(o->matrix, &all, err);
    if (rc == ERR_OK && o->solvers != NULL) {
        rc = matrix_specs_split(o->solvers, matrix_is_solver_name, "solver", &only, err);
        if (rc != ERR_OK) {
            error_prefix(err, "--solvers: ");
        }
        for (int i = 0; rc == ERR_OK && i < only.n; i++) {
            const SolverModule *s;
            rc = matrix_solver_check(only.item[i], &s, err);
            if (rc != ERR_OK) {
                error_prefix(err, "--solvers: ");
            }
        }
        if (rc == ERR_OK && only.n == 0) {
            rc = error_set(err, ERR_USAGE, "--solvers is empty");
        }
    }
    if (rc == ERR_OK) {
        rc = select_lines(&all, o, &lines, err);
    }
    for (int i = 0; rc == ERR_OK && i < lines.n; i++) {
        Game *g = NULL;
        char norm[SPEC_MAX];
        rc = normalize_game(lines.lines[i].game, lines.lines[i].where, norm, sizeof norm, &g, err);
        if (rc == ERR_OK) {
            rc = line_pairs(&lines.lines[i], g, &only, ps, err);
            game_destroy(g);
        }
    }
    /* Every --solvers entry must run somewhere. */
    for (int i = 0; rc == ERR_OK && i < only.n; i++) {
        bool used = false;
        for (int k = 0; k < ps->n && !used; k++) {
            char a[64], b[64];
            matrix_spec_name(ps->p[k].solver, a, sizeof a);
            matrix_spec_name(only.item[i], b, sizeof b);
            used = strchr(only.item[i], ':') ? strcmp(ps->p[k].solver, only.item[i]) == 0
                                             : strcmp(a, b) == 0;
        }
        if (!used) {
            rc = error_set(err, ERR_UNSUPPORTED,
                           "--solvers: '%s' supports none of the selected games", only.item[i]);
        }
    }
    matrix_free(&all);
    free(lines.lines);
    return rc;
}

/* --------------------------------------------- the timing side */

static CountedTwin twin = {.min_time = 0.1, .timeout = 1800}; /* bench/counted.h */
static int failures;          /* pairs that failed (run_pair), for the exit code */
static ErrCode first_failure; /* the code of the first failure */

/* Records p's failure once (run_pair may run a pair several times). */
static void pair_failed(Pair *p, ErrCode code) {
    if (p->failed == ERR_OK) {
        p->failed = code != ERR_OK ? code : ERR_INTERNAL;
        if (failures++ == 0) {
            first_failure = p->failed;
        }
    }
}

static void fail_bench(BenchState *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail_bench(BenchState *st, const char *fmt, ...) {
    char msg[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    bench_skip_with_error(st, msg);
}

static void run_pair(BenchState *st, void *arg) {
    Pair *p = arg;
    Error err = {0};
    if (!p->counted) {
        counted_run(&twin, p->solver, p->game, p->threads, &p->count);
        p->counted = true;
    }
    const CountedFigures *c = &p->count;
    if (c->error[0] != '\0') {
        pair_failed(p, c->code);
        fail_bench(st, "%s", c->error);
        return;
    }
    CountedSetup su;
    if (counted_setup(p->solver, p->game, p->threads, &su, &err) != ERR_OK) {
        pair_failed(p, err.code);
        fail_bench(st, "%s", err.msg);
        return;
    }
    uint64_t peak = 0, rss = 0;
    double fastest = 0;
    int threads = 1;
    bool failed = false;
    while (bench_keep_running(st)) {
        SolveResult res;
        if (counted_solve(&su, &res, &err) != ERR_OK) {
            pair_failed(p, err.code);
            fail_bench(st, "%s", err.msg);
            failed = true;
            break;
        }
        bench_set_iteration_time(st, res.wall_seconds);
        fastest = fastest == 0 || res.wall_seconds < fastest ? res.wall_seconds : fastest;
        peak = res.peak_bytes > peak ? res.peak_bytes : peak;
        rss = res.peak_rss_bytes > rss ? res.peak_rss_bytes : rss;
        threads = res.threads;
        bool agree = res.root.value == c->root.value && res.root.remoteness == c->root.remoteness;
        solve_result_free(&res);
        if (!agree) {
            pair_failed(p, ERR_INTERNAL);
            fail_bench(st, "the timed and the counted builds disagree on the root");
            failed = true;
            break;
        }
    }
    counted_setup_free(&su);
    if (failed) {
        return;
    }
    for (int i = 0; i < COUNTER_COUNT; i++) {
        bench_set_counter(st, counter_names[i], (double)counters_get(&c->counters, i),
                          BENCH_COUNTER_PLAIN);
    }
    if (c->has_positions) {
        bench_set_counter(st, "positions", (double)c->positions, BENCH_COUNTER_PLAIN);
        bench_set_counter(st, "positions_per_second", (double)c->positions, BENCH_COUNTER_RATE);
    }
    bench_set_counter(st, "peak_bytes", (double)peak, BENCH_COUNTER_BYTES_1024);
    bench_set_counter(st, "peak_rss_bytes", (double)rss, BENCH_COUNTER_BYTES_1024);
    bench_set_counter(st, "threads", threads, BENCH_COUNTER_PLAIN);
    bench_set_counter(st, "counted_seconds", c->seconds, BENCH_COUNTER_PLAIN);
    if (fastest > 0 && c->min_seconds > 0) {
        bench_set_counter(st, "count_overhead", c->min_seconds / fastest, BENCH_COUNTER_PLAIN);
    }
    char label[256];
    if (c->root.value == VALUE_DRAW) {
        snprintf(label, sizeof label, "draw");
    } else {
        snprintf(label, sizeof label, "%s in %" PRIu32, value_name(c->root.value),
                 c->root.remoteness);
    }
    if (p->series[0] != '\0') {
        size_t len = strlen(label);
        snprintf(label + len, sizeof label - len, "; series=%s", p->series);
    }
    bench_set_label(st, label);
}

/* ------------------------------------------------------------- context */

static void add_machine_context(void) {
    char cpu[256] = "unknown";
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "model name", 10) == 0) {
            const char *colon = strchr(line, ':');
            if (colon != NULL) {
                snprintf(cpu, sizeof cpu, "%s", colon + 2);
                cpu[strcspn(cpu, "\n")] = '\0';
            }
            break;
        }
    }
    if (f != NULL) {
        fclose(f);
    }
    struct utsname u;
    char os[400] = "unknown";
    if (uname(&u) == 0) {
        snprintf(os, sizeof os, "%s %s %s", u.sysname, u.release, u.machine);
    }
    char mem[32], machine[800];
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t pages = (uint64_t)sysconf(_SC_PHYS_PAGES), page = (uint64_t)sysconf(_SC_PAGESIZE);
    snprintf(machine, sizeof machine, "%s, %ld cores, %s RAM, %s", cpu, cores,
             mem_format(pages * page, mem, sizeof mem), os);
    bench_add_context("machine", machine);
    bench_add_context("compiler", "gcc " __VERSION__);
    bench_add_context("cflags", BENCH_CFLAGS);
    bench_add_context("allocator", mem_allocator());
    bench_add_context("timing_build", BUILD_NAME);
    bench_add_context("counted_build", twin.path);
}

/* ------------------------------------------------------------------ main */

static const char usage_text[] =
    "usage: bench [--matrix FILE] [--full] [--solvers LIST] [--games LIST]\n"
    "             [--context KEY=VALUE]... [--counted PATH] [--count-min-time SECONDS]\n"
    "             [--count-timeout SECONDS]\n"
    "             [--benchmark_filter=REGEX] [--benchmark_format=console|json|csv]\n"
    "             [--benchmark_out=FILE] [--benchmark_repetitions=N] [--benchmark_list_tests]\n"
    "             [other --benchmark_* flags of Google Benchmark]\n"
    "\n"
    "Times every compatible (solver x game variant) pair of the benchmark matrix\n"
    "(names: solver/game:variant) and reports counters, peak memory and rates.\n"
    "\n"
    "  --matrix FILE     the matrix (default: bench/matrix.txt beside the binary's bin/)\n"
    "  --full            also the lines marked `full` (large sizes)\n"
    "  --solvers LIST    only these solvers, e.g. gps,gps-cached or dfs-depth:k=3\n"
    "  --games LIST      only these variants, e.g. 'connect4:w=5,h=4 tictactoe'\n"
    "  --context K=V     add K=V to the report's context (e.g. commit=abc123)\n"
    "  --counted PATH    the counted build of this program (default: bench-counted\n"
    "                    beside this binary)\n"
    "  --count-min-time S  repeat the counted solve for at least S seconds (0.1)\n"
    "  --count-timeout S   kill the counted build of a pair after S seconds and\n"
    "                    report the pair as failed (default 1800)\n"
    "\n"
    "Exit status: 0 when every benchmark ran; otherwise the code of the first\n"
    "failure (2 bad input, 3 unsupported, 4 memory, 5 file, 6 internal, such as\n"
    "builds that disagree on the root, 7 a limit, such as --count-timeout).\n"
    "--benchmark_repetitions, --benchmark_format, --benchmark_out_format and\n"
    "--benchmark_filter are checked first (a filter must match a benchmark).\n";

/* The default matrix: ../bench/matrix.txt from the binary's directory, or
 * bench/matrix.txt from the current one. */
static void default_paths(char *matrix, size_t mn, char *counted, size_t cn) {
    char exe[PATH_MAX / 2]; /* leaves room in matrix and counted for the suffixes */
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    snprintf(matrix, mn, "bench/matrix.txt");
    snprintf(counted, cn, "bench-counted");
    if (len <= 0) {
        return;
    }
    exe[len] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash == NULL) {
        return;
    }
    *slash = '\0';
    snprintf(counted, cn, "%s/bench-counted", exe);
    char candidate[PATH_MAX];
    snprintf(candidate, sizeof candidate, "%s/../bench/matrix.txt", exe);
    if (access(candidate, R_OK) == 0 && access("bench/matrix.txt", R_OK) != 0) {
        snprintf(matrix, mn, "%s", candidate);
    }
}

/* Google Benchmark's flags that it would abort on or accept silently,
 * checked before it sees them (it parses only the --flag=value form). The
 * filter is kept for filter_check. */
static ErrCode check_benchmark_flags(int argc, char **argv, const char **filter, Error *err) {
    *filter = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (strncmp(a, "--benchmark_repetitions=", 24) == 0) {
            int64_t n;
            if (!parse_int64(a + 24, 1, INT32_MAX, &n)) {
                return error_set(err, ERR_USAGE,
                                 "--benchmark_repetitions needs a whole number from 1 to %d, "
                                 "not '%s'",
                                 INT32_MAX, a + 24);
            }
        } else if (strncmp(a, "--benchmark_format=", 19) == 0 ||
                   strncmp(a, "--benchmark_out_format=", 23) == 0) {
            v = strchr(a, '=') + 1;
            if (strcmp(v, "console") != 0 && strcmp(v, "json") != 0 && strcmp(v, "csv") != 0) {
                return error_set(err, ERR_USAGE, "%.*s takes console, json or csv, not '%s'",
                                 (int)(v - a - 1), a, v);
            }
        } else if (strncmp(a, "--benchmark_filter=", 19) == 0) {
            *filter = a + 19;
        }
    }
    return ERR_OK;
}

/* Google Benchmark's filter rule: "" or "all" selects everything, a
 * leading '-' negates, otherwise a POSIX extended regular expression
 * searched in the name (its own Regex class). Refuses a filter that does
 * not compile or selects no benchmark, which Google Benchmark would accept
 * silently with exit 0. */
static ErrCode filter_check(const char *filter, const Pairs *ps, Error *err) {
    if (filter == NULL || filter[0] == '\0' || strcmp(filter, "all") == 0) {
        return ERR_OK;
    }
    bool negative = filter[0] == '-';
    regex_t re;
    int rc = regcomp(&re, filter + negative, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char why[256];
        regerror(rc, &re, why, sizeof why);
        return error_set(err, ERR_USAGE, "--benchmark_filter '%s' is not a regular expression: %s",
                         filter, why);
    }
    int matched = 0;
    for (int i = 0; i < ps->n && matched == 0; i++) {
        char name[sizeof ps->p->name + 16];
        snprintf(name, sizeof name, "%s/manual_time", ps->p[i].name);
        matched += (regexec(&re, name, 0, NULL, 0) == 0) != negative;
    }
    regfree(&re);
    if (matched == 0) {
        return error_set(err, ERR_USAGE,
                         "--benchmark_filter '%s' matches none of the %d benchmarks "
                         "(--benchmark_list_tests lists them)",
                         filter, ps->n);
    }
    return ERR_OK;
}

static int fail(const Error *err) {
    fprintf(stderr, "bench: %s\n", err->msg);
    return err->code != ERR_OK ? (int)err->code : 1;
}

int main(int argc, char **argv) {
    if (argc == 6 && strcmp(argv[1], "--count-one") == 0) {
        return counted_child_main(argv[2], argv[3], argv[4], argv[5]);
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            /* Ours, then Google Benchmark's own (bench_init prints it and exits). */
            fputs(usage_text, stdout);
            printf("\nGoogle Benchmark's flags:\n");
            fflush(stdout);
            argv[i] = (char *)"--help";
        }
    }
    Error err = {0};
    const char *filter = NULL;
    if (check_benchmark_flags(argc, argv, &filter, &err) != ERR_OK) {
        return fail(&err);
    }
    bench_init(&argc, argv);
    static char matrix[PATH_MAX], counted[PATH_MAX];
    default_paths(matrix, sizeof matrix, counted, sizeof counted);
    Options o = {
        .matrix = matrix, .counted = counted, .count_min_time = 0.1, .count_timeout = 1800};
    int rest = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_next = i + 1 < argc;
        if (strcmp(a, "--full") == 0) {
            o.full = true;
        } else if (strcmp(a, "--matrix") == 0 || strcmp(a, "--solvers") == 0 ||
                   strcmp(a, "--games") == 0 || strcmp(a, "--context") == 0 ||
                   strcmp(a, "--counted") == 0 || strcmp(a, "--count-min-time") == 0 ||
                   strcmp(a, "--count-timeout") == 0) {
            if (!has_next) {
                error_set(&err, ERR_USAGE, "%s needs a value (bench --help)", a);
                return fail(&err);
            }
            const char *v = argv[++i];
            if (strcmp(a, "--matrix") == 0) {
                o.matrix = v;
            } else if (strcmp(a, "--solvers") == 0) {
                o.solvers = v;
            } else if (strcmp(a, "--games") == 0) {
                o.games = v;
            } else if (strcmp(a, "--counted") == 0) {
                o.counted = v;
            } else if (strcmp(a, "--count-timeout") == 0) {
                char *end;
                o.count_timeout = strtod(v, &end);
                if (*v == '\0' || *end != '\0' || !(o.count_timeout > 0) ||
                    o.count_timeout > 7 * 86400) {
                    error_set(&err, ERR_USAGE,
                              "--count-timeout needs seconds above 0, at most 604800, not '%s'", v);
                    return fail(&err);
                }
            } else if (strcmp(a, "--count-min-time") == 0) {
                char *end;
                o.count_min_time = strtod(v, &end);
                if (*v == '\0' || *end != '\0' || !(o.count_min_time >= 0) ||
                    o.count_min_time > 3600) {
                    error_set(&err, ERR_USAGE,
                              "--count-min-time needs seconds from 0 to 3600, not '%s'", v);
                    return fail(&err);
                }
            } else {
                if (strchr(v, '=') == NULL || v[0] == '=' || o.ncontext == 32) {
                    error_set(&err, ERR_USAGE, "--context needs KEY=VALUE (at most 32), not '%s'",
                              v);
                    return fail(&err);
                }
                o.context[o.ncontext++] = v;
            }
        } else {
            argv[rest++] = argv[i]; /* left for Google Benchmark's complaint */
        }
    }
    argv[rest] = NULL;
    if (rest > 1) { /* neither ours nor Google Benchmark's */
        error_set(&err, ERR_USAGE, "unknown option '%s' (bench --help)", argv[1]);
        return fail(&err);
    }
    twin.path = o.counted;
    twin.min_time = o.count_min_time;
    twin.timeout = o.count_timeout;
    Pairs pairs = {0};
    if (build_pairs(&o, &pairs, &err) != ERR_OK) {
        return fail(&err);
    }
    if (pairs.n == 0) {
        error_set(&err, ERR_USAGE, "the selection holds no benchmark (check --games/--solvers)");
        return fail(&err);
    }
    if (filter_check(filter, &pairs, &err) != ERR_OK) {
        pairs_free(&pairs);
        return fail(&err);
    }
    for (int i = 0; i < pairs.n; i++) {
        bench_register(pairs.p[i].name, run_pair, &pairs.p[i], "ms");
    }
    add_machine_context();
    bench_add_context("matrix", o.full ? "full" : "default");
    for (int i = 0; i < o.ncontext; i++) {
        char key[128];
        const char *eq = strchr(o.context[i], '=');
        snprintf(key, sizeof key, "%.*s", (int)(eq - o.context[i]), o.context[i]);
        bench_add_context(key, eq + 1);
    }
    bench_run();
    bench_shutdown();
    int total = pairs.n;
    pairs_free(&pairs);
    if (failures > 0) {
        fprintf(stderr,
                "bench: %d of %d benchmarks failed (their rows say ERROR OCCURRED and why); "
                "exit %d\n",
                failures, total, (int)first_failure);
        return (int)first_failure;
    }
    return 0;
}
