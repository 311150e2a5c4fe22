/* cli/solve.c: bin/solve, the command-line solver.
 *
 *   solve GAME[:OPT=VAL,...] [--solver NAME[:OPT=VAL,...]] [--analyze] [--json]
 *         [--query POSITION [--pick RULE]] [--threads N] [--max-memory SIZE]
 *         [--progress] [--db DIR] [--verify [--journal FILE]]
 *   solve GAME --db DIR --compare DIR2 [--threads N] [--progress] [--json]
 *   solve --list
 *
 * Solves one game variant with one solver under the harness and prints the
 * value of the initial position, the counts over reached positions, the
 * counters, the wall time and the peak memory, as text or as one JSON
 * object. Every error prints one line on standard error and exits with a
 * non-zero code (core/error.h).
 *
 * This unit holds the command line: the options, the choice between a
 * solve and a database on disk, --list and --sample. The queries (--query,
 * the move --pick names) are cli/query.c's, the report cli/report.c's
 * (cli/cli.h). What a solver can serve comes from its SolverModule flags
 * (solvers/solver.h: root_only, partial_db, reads_db, distributed,
 * window_option), never from its name.
 *
 * Built with -DUSE_MPI this is bin/solve-mpi (core/dist.h): every rank runs
 * the same command, a distributed solver (tier) shares the work, rank 0
 * prints the result, and an error every rank agreed on is printed once, by
 * rank 0.
 *
 * With --db DIR, the solve's database is saved to DIR (solvers/store.h;
 * the tier solver writes it as it goes and resumes from it). Without
 * --solver, --query, --analyze and --verify answer from DIR's complete
 * database instead of solving (and refuse when there is none); `--query -`
 * answers one position per line of standard input, one JSON object per
 * line. --work-dir is the old name of --db. --compare DIR2 compares DIR's
 * database with DIR2's position by position (solvers/store.h,
 * store_compare) and exits 0 when they are equal, CLI_EXIT_DIFFER when not
 * (a partial database against a complete one: equal on the positions both
 * hold and holding every position the complete one holds).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/clock.h"
#include "core/db.h"
#include "core/dist.h"
#include "core/mem.h"
#include "games/game.h"
#include "solvers/solver.h"
#include "solvers/store.h"

/* The exit code of --compare when the databases differ: 1, as cmp(1) and
 * diff(1) exit, apart from every error's code (core/error.h: 2 to 7). */
#define CLI_EXIT_DIFFER 1

typedef struct Args {
    const char *game;
    const char *compare; /* --compare DIR2 */
    const char *solver;
    const char *query;
    const char *pick_text; /* --pick as given, NULL if absent */
    PickRule pick;
    const char *db; /* --db (or --work-dir) */
    int64_t sample; /* --sample N: print N random reachable positions; 0: off */
    uint64_t seed;
    bool verify;
    const char *journal; /* --journal FILE: --verify resumable */
    bool json;
    bool analyze;
    bool list;
    bool help;
    bool check_args; /* --check-args: parse and resolve everything, then exit 0 */
    SolveConfig cfg;
} Args;

static const char usage_text[] =
    "usage: solve GAME[:OPT=VAL,...] [options]\n"
    "       solve --list\n"
    "\n"
    "Strongly solves a game variant and reports its value, position counts,\n"
    "counters (hash, unhash, ...), wall time and peak memory.\n"
    "\n"
    "options:\n"
    "  --solver NAME[:OPT=VAL,...]  solver to use (default: the fastest that supports the game)\n"
    "  --json                       print one JSON object\n"
    "  --analyze                    add counts by remoteness\n"
    "  --query POSITION             value of a position and of each move from it\n"
    "  --pick RULE                  the move --query picks: remoteness (default), winby\n"
    "                               (best margin) or false-hope (win by the least)\n"
    "  --threads N                  threads for parallel solvers, --analyze, --verify and\n"
    "                               --query - (default: all cores)\n"
    "  --max-memory SIZE            memory budget, e.g. 4G (default: 90% of available)\n"
    "  --progress                   report progress of long solves on standard error\n"
    "  --db DIR                     save the database to DIR (compressed); without --solver,\n"
    "                               --query/--analyze/--verify read it instead of solving\n"
    "  --work-dir DIR               the old name of --db\n"
    "  --query -                    positions from standard input, one JSON line each\n"
    "                               (answered by --threads workers, in order)\n"
    "  --sample N                   print N random reachable positions (random play from\n"
    "                               the initial position, no solve); --seed S varies them\n"
    "  --compare DIR2               with --db DIR: compare DIR's database with DIR2's, position\n"
    "                               by position (exit 0 equal, 1 different)\n"
    "  --verify                     check DIR's database: checksums, then every record\n"
    "                               against its children's\n"
    "  --journal FILE               with --verify: record each tier verified in FILE, and\n"
    "                               take the tiers FILE has (a stopped --verify resumes)\n"
    "  --check-args                 check the command (game, position, solver, options)\n"
    "                               and exit 0 without solving\n"
    "  --list                       list games, their options, and solvers\n"
    "  --help                       this text\n"
    "\n"
    "examples:\n"
    "  solve tictactoe\n"
    "  solve tictactoe:misere,sym --solver dfs --json\n"
    "  solve tictactoe --query x-o------\n"
    "  solve othello --query -----ox--xo-----:x --pick false-hope\n";

/* The options that take a value; each may be given once (as game and
 * solver options may), so that a repeated one is not silently overridden. */
static const char *const value_options[] = {"--solver",   "--query",  "--threads", "--max-memory",
                                            "--work-dir", "--pick",   "--sample",  "--seed",
                                            "--compare",  "--journal"};
#define NVALUE_OPTIONS (int)(sizeof value_options / sizeof value_options[0])

static int value_option(const char *arg) {
    if (strcmp(arg, "--db") == 0) {
        arg = "--work-dir"; /* one option under two names */
    }
    for (int k = 0; k < NVALUE_OPTIONS; k++) {
        if (strcmp(arg, value_options[k]) == 0) {
            return k;
        }
    }
    return -1;
}

static ErrCode parse_args(int argc, char **argv, Args *a, Error *err) {
    memset(a, 0, sizeof *a);
    const char *seen[NVALUE_OPTIONS] = {0};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        bool has_next = i + 1 < argc;
        if (strcmp(arg, "--json") == 0) {
            a->json = true;
        } else if (strcmp(arg, "--analyze") == 0) {
            a->analyze = true;
        } else if (strcmp(arg, "--list") == 0) {
            a->list = true;
        } else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            a->help = true;
        } else if (strcmp(arg, "--verify") == 0) {
            a->verify = true;
        } else if (strcmp(arg, "--progress") == 0) {
            a->cfg.progress = true;
        } else if (strcmp(arg, "--check-args") == 0) {
            a->check_args = true;
        } else if (value_option(arg) >= 0) {
            if (!has_next) {
                return error_set(err, ERR_USAGE, "%s needs a value (solve --help)", arg);
            }
            const char *val = argv[++i];
            int k = value_option(arg);
            if (seen[k] != NULL) {
                return error_set(err, ERR_USAGE, "%s given twice ('%s' and '%s'); give it once",
                                 arg, seen[k], val);
            }
            seen[k] = val;
            if (strcmp(arg, "--solver") == 0) {
                a->solver = val;
            } else if (strcmp(arg, "--query") == 0) {
                a->query = val;
            } else if (strcmp(arg, "--sample") == 0 || strcmp(arg, "--seed") == 0) {
                int64_t n;
                if (!parse_int64(val, strcmp(arg, "--seed") == 0 ? 0 : 1, INT64_MAX, &n)) {
                    return error_set(err, ERR_USAGE, "%s needs a whole number, not '%s'", arg, val);
                }
                *(strcmp(arg, "--sample") == 0 ? &a->sample : (int64_t *)&a->seed) = n;
            } else if (strcmp(arg, "--work-dir") == 0 || strcmp(arg, "--db") == 0) {
                if (val[0] == '\0') {
                    return error_set(err, ERR_USAGE,
                                     "%s needs a directory, not an empty name (--db . is the "
                                     "current directory)",
                                     arg);
                }
                a->cfg.work_dir = val;
                a->db = val;
            } else if (strcmp(arg, "--compare") == 0) {
                if (val[0] == '\0') {
                    return error_set(err, ERR_USAGE,
                                     "--compare needs a directory, not an empty "
                                     "name");
                }
                a->compare = val;
            } else if (strcmp(arg, "--journal") == 0) {
                if (val[0] == '\0') {
                    return error_set(err, ERR_USAGE,
                                     "--journal needs a file name, not an empty one");
                }
                a->journal = val;
            } else if (strcmp(arg, "--pick") == 0) {
                ErrCode rc = query_parse_pick(val, &a->pick, err);
                if (rc != ERR_OK) {
                    return rc;
                }
                a->pick_text = val;
            } else if (strcmp(arg, "--threads") == 0) {
                int64_t n;
                if (!parse_int64(val, 1, 1024, &n)) {
                    return error_set(err, ERR_USAGE,
                                     "--threads needs a whole number from 1 to 1024, not '%s'",
                                     val);
                }
                a->cfg.threads = (int)n;
            } else {
                uint64_t bytes;
                ErrCode rc = mem_parse(val, &bytes, err);
                if (rc != ERR_OK) {
                    return rc;
                }
                mem_set_limit(bytes);
            }
        } else if (arg[0] == '-') {
            return error_set(err, ERR_USAGE, "unknown option '%s' (solve --help)", arg);
        } else if (a->game == NULL) {
            a->game = arg;
        } else {
            return error_set(err, ERR_USAGE, "one game at a time: '%s' and '%s' (solve --help)",
                             a->game, arg);
        }
    }
    if (a->list && !a->help && a->game != NULL) {
        return error_set(err, ERR_USAGE, "--list takes no game, not '%s' (solve --help)", a->game);
    }
    if (!a->list && !a->help && a->game == NULL) {
        return error_set(err, ERR_USAGE, "no game given (solve --list shows the games)");
    }
    if (a->verify && a->db == NULL) {
        return error_set(err, ERR_USAGE, "--verify checks a database on disk; give --db DIR too");
    }
    if (a->journal != NULL && (!a->verify || a->solver != NULL)) {
        return error_set(err, ERR_USAGE,
                         "--journal records a --verify of a database on disk; give it with --db "
                         "DIR --verify and no --solver");
    }
    if (a->compare != NULL && a->db == NULL) {
        return error_set(err, ERR_USAGE,
                         "--compare DIR2 compares a database with another; give --db DIR too");
    }
    if (a->compare != NULL &&
        (a->solver != NULL || a->query != NULL || a->analyze || a->verify || a->sample > 0)) {
        return error_set(err, ERR_USAGE,
                         "--compare reads two databases and does nothing else; give it with --db "
                         "alone (not with --solver, --query, --analyze, --verify or --sample)");
    }
    if (a->pick_text != NULL && a->query == NULL) {
        return error_set(err, ERR_USAGE,
                         "--pick chooses among the moves of a queried position; give --query "
                         "POSITION too");
    }
    return ERR_OK;
}

static void list_all(void) {
    printf("games (GAME[:OPT=VAL,...]):\n");
    for (int i = 0; game_registry[i] != NULL; i++) {
        const GameModule *m = game_registry[i];
        printf("  %-12s %s: %s\n", m->name, m->title, m->description);
        for (int k = 0; m->options != NULL && m->options[k].name != NULL; k++) {
            char line[256];
            options_describe(&m->options[k], line, sizeof line);
            printf("      %s\n", line);
        }
    }
    printf("\nsolvers (--solver NAME[:OPT=VAL,...]), fastest first:\n");
    for (int i = 0; solver_registry[i] != NULL; i++) {
        const SolverModule *s = solver_registry[i];
        char needs[128] = "stateless";
        if (s->needs & NEEDS_GPS) {
            strcat(needs, ", gps");
        }
        if (s->needs & NEEDS_GPS_CACHED) {
            strcat(needs, ", gps-cached");
        }
        if (s->needs & NEEDS_PARENTS) {
            strcat(needs, ", parents");
        }
        if (s->needs & NEEDS_TIERS) {
            strcat(needs, ", tiers");
        }
        printf("  %-12s %s\n      needs: %s%s%s%s\n", s->name, s->description, needs,
               s->loopy_ok ? "; solves loopy games" : "; non-loopy games only",
               s->root_only ? "; initial position only" : "",
               s->partial_db ? "; stores only some positions" : "");
        for (int k = 0; s->options != NULL && s->options[k].name != NULL; k++) {
            char line[256];
            options_describe(&s->options[k], line, sizeof line);
            printf("      %s\n", line);
        }
    }
}

static int fail(const Error *err) {
    if (dist_error_is_shared(err)) {
        /* rank 0 prints it */
    } else if (dist_rank() != 0) {
        fprintf(stderr, "solve: rank %d of %d: %s\n", dist_rank(), dist_size(), err->msg);
    } else {
        fprintf(stderr, "solve: %s\n", err->msg);
    }
    return err->code != ERR_OK ? (int)err->code : 1;
}

/* --sample N: N positions, each the end of a random playout from the
 * initial position stopped at a random depth in [0, max_depth] (or at the
 * end of the game), so every printed position is reachable. xorshift64
 * (Marsaglia 2003) seeded with --seed: the same list for the same seed. */
static void print_samples(const Game *g, int64_t n, uint64_t seed) {
    uint64_t x = seed * UINT64_C(0x9E3779B97F4A7C15) + 0x2545F4914F6CDD1D;
    uint32_t depth_max = g->max_depth != 0 ? g->max_depth : 100;
    char text[GAME_TEXT_MAX];
    for (int64_t k = 0; k < n; k++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint32_t depth = (uint32_t)(x % (depth_max + 1));
        Position p = g->initial;
        for (uint32_t d = 0; d < depth && g->ops->primitive(g, p) == VALUE_UNDECIDED; d++) {
            Move moves[GAME_MAX_MOVES];
            int m = g->ops->generate_moves(g, p, moves);
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            p = g->ops->do_move(g, p, moves[x % (uint64_t)m]);
        }
        g->ops->format(g, p, text, sizeof text);
        printf("%s\n", text);
    }
}

/* How --verify checked a tiers database (solvers/store.h): the tiers
 * checked whole and by parts, the largest estimate of a tier's check, and
 * by parts the pieces and child blocks read; with --journal, the tiers
 * taken from it, their seconds then, and this run's CPU seconds (a run
 * without --journal has none of these). */
static void verify_extras(const Store *st, SolveResult *res, bool journal, double run_cpu) {
    if (!st->tiers || st->bdd != NULL) {
        return;
    }
    if (journal) {
        solve_result_extra(res, "journal_tiers", st->verify_journal_tiers);
        solve_result_extra(res, "journal_cpu_seconds", st->verify_journal_cpu);
        solve_result_extra(res, "journal_wall_seconds", st->verify_journal_wall);
        solve_result_extra(res, "run_cpu_seconds", run_cpu);
    }
    solve_result_extra(res, "verify_tiers_whole", st->verify_whole);
    solve_result_extra(res, "verify_tiers_by_parts", st->verify_parts);
    solve_result_extra(res, "verify_est_peak_bytes", (double)st->verify_peak);
    if (st->verify_parts > 0) {
        solve_result_extra(res, "verify_pieces", (double)st->verify_pieces);
        solve_result_extra(res, "verify_child_blocks_read", (double)st->verify_child_blocks);
    }
}

/* Answers from DIR's database without solving: --query, --analyze,
 * --verify (with no --solver). */
static int from_disk(const Game *g, Args *a) {
    Error err = {0};
    Store st;
    if (a->journal != NULL && dist_size() > 1) {
        /* every rank would verify and journal the same tiers */
        error_set(&err, ERR_USAGE,
                  "--journal is for one process; run bin/solve, not %d MPI ranks of bin/solve-mpi",
                  dist_size());
        return fail(&err);
    }
    double t0 = clock_seconds(), cpu0 = clock_cpu_seconds();
    mem_rss_peak_reset();
    ErrCode rc = store_open(g, a->db, &st, &err);
    if (rc != ERR_OK) {
        return fail(&err);
    }
    SolveResult res;
    memset(&res, 0, sizeof res);
    res.threads = a->cfg.threads > 0 ? a->cfg.threads : 1;
    res.has_winby = g->has_winby;
    uint64_t checked = 0;
    if (a->verify) {
        res.threads = a->cfg.threads > 0 ? a->cfg.threads : omp_get_num_procs();
        rc = store_verify_journal(&st, res.threads, a->cfg.progress || isatty(STDERR_FILENO),
                                  a->journal, &checked, &err);
        res.counters = st.counters; /* the verification's game calls, as a solve's */
    }
    /* The initial position, from its record (checked, never "undecided");
     * a partial database (tier:sector) has it when it holds its tier (a
     * series that reached the initial tier), else no value of its own. */
    Source src = {.res = &res, .store = &st};
    Position root = game_canonical(g, g->initial);
    bool root_held =
        !st.m.partial || (g->tiers != NULL && store_tier_held(&st, g->tiers->tier_of(g, root)));
    if (rc == ERR_OK && !root_held) {
        res.root = (Outcome){VALUE_UNDECIDED, 0};
    } else if (rc == ERR_OK) {
        uint32_t raw = 0;
        WinBy w = 0;
        rc = store_get(&st, root, &raw, &w, &err);
        if (rc == ERR_OK && !db_raw_solved(&st.fmt, raw)) {
            rc = error_set(&err, ERR_IO,
                           "%s: the initial position has no record; remove the directory and "
                           "solve again, or use another --db",
                           a->db);
        }
        res.root = (Outcome){db_raw_value(&st.fmt, raw), db_raw_remoteness(&st.fmt, raw)};
        res.root_winby = w;
        res.no_remoteness = !store_has_remoteness(&st);
    }
    DbSummary sum = {0};
    if (rc == ERR_OK && a->analyze) {
        res.threads = a->cfg.threads > 0 ? a->cfg.threads : omp_get_num_procs();
        rc = store_analyze(&st, &sum, res.threads, &err);
    } else if (rc == ERR_OK) {
        sum.positions = st.m.positions;
        memcpy(sum.count, st.m.count, sizeof sum.count);
        sum.max_remoteness = st.m.max_remoteness;
    }
    static Query q;
    bool stream = a->query != NULL && strcmp(a->query, "-") == 0;
    if (rc == ERR_OK && stream) {
        rc = query_stream(g, &src, a->pick, "disk",
                          a->cfg.threads > 0 ? a->cfg.threads : omp_get_num_procs());
    } else if (rc == ERR_OK && a->query != NULL) {
        rc = query_run(g, &src, a->query, a->pick, &q, &err);
    }
    res.wall_seconds = clock_seconds() - t0;
    res.peak_rss_bytes = mem_rss_peak();
    if (rc == ERR_OK && !stream) {
        if (a->verify) {
            solve_result_extra(&res, "verified_positions", (double)checked);
            verify_extras(&st, &res, a->journal != NULL, clock_cpu_seconds() - cpu0);
        }
        if (st.m.partial) {
            solve_result_extra(&res, "partial_tiers", st.tiers_present);
            solve_result_extra(&res, "tiers", st.ntiers);
            if (a->verify) {
                solve_result_extra(&res, "unverified_tiers", st.unchecked);
            }
        }
        solve_result_extra(&res, "blocks_read", (double)st.rd.misses);
        const Query *pq = a->query != NULL ? &q : NULL;
        /* a partial database's manifest has no counts: --analyze has them */
        const DbSummary *ps = st.m.partial && !a->analyze ? NULL : &sum;
        if (a->json) {
            report_json(g, st.m.solver, "disk", &res, ps, pq);
        } else {
            report_text(g, st.m.solver, &res, ps, pq);
            printf("source      %s (no solve)%s\n", a->db,
                   !a->verify       ? ""
                   : st.bdd != NULL ? "; verified: every checksum, the BDD dumps and the counts"
                                    : "; verified: every record agrees with its children");
            if (st.m.partial) {
                printf("partial     %d of %d tiers (tier:sector); the initial position's value "
                       "%s%s\n",
                       st.tiers_present, st.ntiers,
                       root_held ? "is its tier's record" : "is not known",
                       a->verify ? "; tiers with a child tier not there are not verified" : "");
                if (a->verify) {
                    printf("unverified  %d tiers\n", st.unchecked);
                }
            }
        }
    }
    db_summary_free(&sum);
    store_close(&st);
    if (rc != ERR_OK && err.code == ERR_OK) {
        return (int)rc; /* --query -: each failed line is already reported */
    }
    return rc == ERR_OK ? 0 : fail(&err);
}

/* --compare: DIR's database (a) against DIR2's (b), position by position. */
static int compare_disk(const Game *g, const Args *a) {
    Error err = {0};
    Store st[2];
    double t0 = clock_seconds();
    mem_rss_peak_reset();
    ErrCode rc = store_open(g, a->db, &st[0], &err);
    if (rc != ERR_OK) {
        return fail(&err);
    }
    rc = store_open(g, a->compare, &st[1], &err);
    if (rc != ERR_OK) {
        store_close(&st[0]);
        return fail(&err);
    }
    StoreCompare cmp;
    int threads = a->cfg.threads > 0 ? a->cfg.threads : omp_get_num_procs();
    rc = store_compare(&st[0], &st[1], threads, a->cfg.progress, &cmp, &err);
    if (rc == ERR_OK) {
        CompareReport r = {.st = {&st[0], &st[1]},
                           .cmp = &cmp,
                           .threads = threads,
                           .wall_seconds = clock_seconds() - t0,
                           .peak_rss_bytes = mem_rss_peak()};
        if (a->json) {
            report_compare_json(g, &r);
        } else {
            report_compare_text(g, &r);
        }
    }
    store_close(&st[0]);
    store_close(&st[1]);
    if (rc != ERR_OK) {
        return fail(&err);
    }
    return cmp.differ == 0 ? 0 : CLI_EXIT_DIFFER;
}

/* The solver's option s->window_option is on: it keeps only the part of the
 * database in use (false when it has no such option). */
static bool window_on(const SolverModule *s, const SolveConfig *cfg) {
    for (int k = 0; s->window_option != NULL && s->options != NULL && s->options[k].name != NULL;
         k++) {
        if (strcmp(s->options[k].name, s->window_option) == 0 && s->options[k].type == OPT_BOOL) {
            return opt_bool(&cfg->options, s->window_option);
        }
    }
    return false;
}

/* The distributed solvers ("tier", or "tier or NAME ..."), for a message. */
static void distributed_names(char *buf, size_t n) {
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; solver_registry[i] != NULL && used < n; i++) {
        if (solver_registry[i]->distributed) {
            int k = snprintf(buf + used, n - used, "%s%s", used > 0 ? " or " : "",
                             solver_registry[i]->name);
            used += k > 0 ? (size_t)k : 0;
        }
    }
}

static int run(int argc, char **argv) {
    Error err = {0};
    Args a;
    if (parse_args(argc, argv, &a, &err) != ERR_OK) {
        return fail(&err);
    }
    if (a.help) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (a.list) {
        list_all();
        return 0;
    }
    Game *g = NULL;
    if (game_create(a.game, &g, &err) != ERR_OK) {
        return fail(&err);
    }
    if (a.query != NULL && strcmp(a.query, "-") != 0) {
        Position pos;
        if (g->ops->parse(g, a.query, &pos, &err) != ERR_OK) {
            game_destroy(g);
            return fail(&err);
        }
    }
    if (a.pick != PICK_REMOTENESS && !g->has_winby) {
        error_set(&err, ERR_USAGE,
                  "--pick %s needs WinBy scores, which game '%s' does not have (e.g. othello "
                  "has them)",
                  query_pick_names[a.pick], g->module->name);
        game_destroy(g);
        return fail(&err);
    }
    /* --check-args: sampling and answers from disk need no solver; stop here. */
    if (a.check_args &&
        (a.sample > 0 || a.compare != NULL ||
         (a.db != NULL && a.solver == NULL && (a.query != NULL || a.analyze || a.verify)))) {
        game_destroy(g);
        return 0;
    }
    if (a.sample > 0) {
        print_samples(g, a.sample, a.seed);
        game_destroy(g);
        return 0;
    }
    if (a.compare != NULL) {
        int code = compare_disk(g, &a);
        game_destroy(g);
        return code;
    }
    /* No solver named: answer from the database on disk. */
    if (a.db != NULL && a.solver == NULL && (a.query != NULL || a.analyze || a.verify)) {
        int code = from_disk(g, &a);
        game_destroy(g);
        return code;
    }
    const SolverModule *s = NULL;
    ErrCode rc = ERR_OK;
    if (a.solver != NULL) {
        rc = solver_lookup(a.solver, &s, &a.cfg, &err);
    } else {
        s = solver_default(g);
        if (s == NULL) {
            rc = error_set(&err, ERR_UNSUPPORTED, "no registered solver supports game '%s'",
                           g->module->name);
        } else {
            rc = options_parse(s->options, NULL, s->name, &a.cfg.options, &err);
        }
    }
    if (rc == ERR_OK && dist_size() > 1 && !s->distributed) {
        char names[128];
        distributed_names(names, sizeof names);
        rc = error_set(&err, ERR_UNSUPPORTED,
                       "solver '%s' runs in one process; with %d MPI ranks give --solver %s",
                       s->name, dist_size(), names);
    }
    if (rc != ERR_OK) {
        game_destroy(g);
        return fail(&err);
    }
    Position query_root = 0; /* search --query P: P */
    /* Refused before a long solve: a query or a save the solver cannot serve. */
    if (a.query != NULL || a.db != NULL) {
        const char *what = a.query != NULL ? "--query" : "--db";
        if (s->reads_db) { /* --db DIR is its input: --query P is searched from P */
            if (a.query != NULL && strcmp(a.query, "-") == 0) {
                rc = error_set(&err, ERR_USAGE,
                               "--query - needs a database, and '%s' searches one position "
                               "(its --db is its input); give --query POSITION, or query that "
                               "database without --solver",
                               s->name);
            } else if (a.query != NULL) {
                rc = g->ops->parse(g, a.query, &query_root, &err);
                a.cfg.root = &query_root;
            }
        } else if (s->root_only) {
            rc = error_set(&err, ERR_USAGE,
                           "%s needs a solver that keeps a database; '%s' solves the initial "
                           "position only",
                           what, s->name);
        } else if (s->partial_db) {
            rc = error_set(&err, ERR_USAGE,
                           "%s needs a solver that keeps every reached position; '%s' stores "
                           "only some (use dfs)",
                           what, s->name);
        }
        if (rc == ERR_OK && a.query != NULL && a.db == NULL && window_on(s, &a.cfg)) {
            rc = error_set(&err, ERR_USAGE,
                           "--query needs the whole database, and '%s:%s' keeps only the "
                           "tiers in use; drop '%s', or save it with --db DIR",
                           s->name, s->window_option, s->window_option);
        }
        if (rc != ERR_OK) {
            game_destroy(g);
            return fail(&err);
        }
    }
    if (a.check_args) { /* everything parsed and resolved; no solve */
        char why[512];
        if (!solver_supports_cfg(s, g, &a.cfg, why, sizeof why)) {
            error_set(&err, ERR_UNSUPPORTED, "%s", why);
        } else {
            solver_check_table(s, g, &err);
        }
        game_destroy(g);
        return err.code == ERR_OK ? 0 : fail(&err);
    }
    a.cfg.need_db = a.query != NULL && a.db == NULL;
    SolveResult res;
    rc = solver_run(s, g, &a.cfg, &res, &err);
    if (rc != ERR_OK) {
        game_destroy(g);
        return fail(&err);
    }
    DbSummary sum = {0};
    static Query q;
    if (res.has_db) {
        rc = db_summarize(&res.db, a.analyze, &sum, &err);
        if (rc == ERR_OK && sum.undecided > 0) {
            rc = error_set(&err, ERR_INTERNAL,
                           "solver '%s' left %" PRIu64 " reached positions without a value",
                           s->name, sum.undecided);
        }
    }
    /* An estimate solved nothing: --db DIR only told it where to look at
     * the free disk, so nothing is saved (or read back) there. */
    if (rc == ERR_OK && a.db != NULL && !res.saved_db && !s->reads_db && !res.estimate_only) {
        if (res.has_db) {
            rc = store_save(g, s->name, &res, &sum, a.db, res.threads, &err);
        } else {
            rc = error_set(&err, ERR_USAGE,
                           "solver '%s' kept no database to save in %s (too large for the "
                           "memory budget?)",
                           s->name, a.db);
        }
    }
    Source src = {.res = &res};
    bool stream = a.query != NULL && strcmp(a.query, "-") == 0;
    /* A database saved but not kept in memory (tier:window) is read back. */
    Store st;
    bool opened = false;
    if (rc == ERR_OK && a.db != NULL && (a.verify || (a.query != NULL && !res.has_db))) {
        rc = store_open(g, a.db, &st, &err);
        opened = rc == ERR_OK;
        if (opened && !res.has_db) {
            src.store = &st;
        }
    }
    if (rc == ERR_OK && a.verify) {
        uint64_t checked = 0;
        rc = store_verify(&st, res.threads, a.cfg.progress, &checked, &err);
        if (rc == ERR_OK) {
            solve_result_extra(&res, "verified_positions", (double)checked);
            verify_extras(&st, &res, false, 0);
        }
    }
    if (rc == ERR_OK && stream) {
        rc = query_stream(g, &src, a.pick, "solve",
                          a.cfg.threads > 0 ? a.cfg.threads : omp_get_num_procs());
    } else if (rc == ERR_OK && a.cfg.root != NULL) { /* search: the value of P, from P */
        g->ops->format(g, query_root, q.text, sizeof q.text);
        q.outcome = res.root;
        q.rule = a.pick;
        q.pick = -1;
        q.no_remoteness = true;
        q.value_only = true;
    } else if (rc == ERR_OK && a.query != NULL) {
        rc = query_run(g, &src, a.query, a.pick, &q, &err);
    }
    if (rc == ERR_OK && !stream) {
        /* A solver without a database may still report its totals. */
        DbSummary kept = res.summary;
        if (!a.analyze) {
            kept.by_remoteness = NULL;
        }
        const DbSummary *ps = res.has_db ? &sum : res.has_summary ? &kept : NULL;
        const Query *pq = a.query != NULL ? &q : NULL;
        if (a.json) {
            report_json(g, s->name, "solve", &res, ps, pq);
        } else {
            report_text(g, s->name, &res, ps, pq);
        }
    }
    if (opened) {
        store_close(&st);
    }
    db_summary_free(&sum);
    solve_result_free(&res);
    game_destroy(g);
    if (rc != ERR_OK && err.code == ERR_OK) {
        return (int)rc;
    }
    return rc == ERR_OK ? 0 : fail(&err);
}

/* Makes sure descriptors 0 and 2 are open (on /dev/null if they were
 * closed), so that no file the solve opens lands on them and receives
 * messages. Returns false when standard output is closed. */
static bool std_fds_open(void) {
    bool out_open = fcntl(STDOUT_FILENO, F_GETFD) != -1;
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) == -1) {
            int nul = open("/dev/null", O_RDWR);
            if (nul >= 0 && nul != fd) {
                close(nul); /* a lower descriptor was free: leave it */
            }
        }
    }
    return out_open;
}

int main(int argc, char **argv) {
    if (!std_fds_open()) {
        fprintf(stderr, "solve: standard output is closed; there is nowhere to write the result\n");
        return ERR_IO;
    }
    Error err;
    if (dist_init(&argc, &argv, &err) != ERR_OK) {
        int rc = fail(&err);
        dist_finalize();
        return rc;
    }
    if (dist_rank() != 0 && freopen("/dev/null", "w", stdout) == NULL) {
        fprintf(stderr, "solve: rank %d: cannot silence standard output\n", dist_rank());
    }
    int rc = error_finish_stdout(run(argc, argv), "solve", "the result");
    dist_finalize();
    return rc;
}
