/* bench/counted.c: the counted-twin protocol of bin/bench (contract and
 * line format in bench/counted.h).
 *
 * Both sides of the protocol are here, so that they cannot drift apart:
 * the pair's setup and solve that both builds run (counted_setup,
 * counted_solve), the twin's side (counted_child_main: solve, repeat for
 * MIN_SECONDS, print `name value` lines) and the timing side (counted_run:
 * fork and exec the twin in its own process group, read its output within
 * the deadline with poll, kill the group on timeout, parse the lines and
 * classify the exit). The twin's output is read whole (at most 64 KiB kept)
 * before it is parsed; one counted_run at a time (a static buffer).
 */
#include "bench/counted.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/db.h"
#include "core/options.h"

_Static_assert(sizeof(Counters) == COUNTER_COUNT * sizeof(uint64_t),
               "counted_run fills Counters field by field");

/* ------------------------------------------- one solve (both builds) */

ErrCode counted_setup(const char *solver, const char *game, int threads, CountedSetup *su,
                      Error *err) {
    memset(su, 0, sizeof *su);
    ErrCode rc = game_create(game, &su->g, err);
    if (rc == ERR_OK) {
        rc = solver_lookup(solver, &su->s, &su->cfg, err);
    }
    if (rc != ERR_OK) {
        game_destroy(su->g);
        su->g = NULL;
        return rc;
    }
    su->cfg.threads = threads;
    su->cfg.skip_export = true; /* only the root and the figures are needed */
    return ERR_OK;
}

void counted_setup_free(CountedSetup *su) {
    game_destroy(su->g);
    su->g = NULL;
}

ErrCode counted_solve(const CountedSetup *su, SolveResult *res, Error *err) {
    return solver_run(su->s, su->g, &su->cfg, res, err);
}

/* Positions held by a result: the database's, the totals of a solver without
 * one, or a partial solver's count. */
static bool result_positions(const SolveResult *res, uint64_t *n, Error *err) {
    if (res->has_db) {
        DbSummary sum;
        if (db_summarize(&res->db, false, &sum, err) != ERR_OK) {
            return false;
        }
        *n = sum.positions;
        return true;
    }
    if (res->has_summary) { /* the totals of a solver that kept no database */
        *n = res->summary.positions;
        return true;
    }
    for (int i = 0; i < res->nextra; i++) {
        if (strcmp(res->extra[i].name, SOLVE_EXTRA_STORED) == 0) {
            *n = (uint64_t)res->extra[i].value;
            return true;
        }
    }
    return false;
}

/* ----------------------------------------------------- the twin's side */

int counted_child_main(const char *solver, const char *game, const char *threads_text,
                       const char *min_text) {
    Error err = {0};
    int64_t threads;
    double min_seconds = strtod(min_text, NULL);
    if (!parse_int64(threads_text, 0, 1024, &threads)) {
        char text[64];
        printf("error bad thread count '%s'\n", text_escape(threads_text, text, sizeof text));
        return ERR_USAGE;
    }
    CountedSetup su;
    ErrCode rc = counted_setup(solver, game, (int)threads, &su, &err);
    SolveResult res;
    double total = 0, fastest = 0;
    int runs = 0;
    while (rc == ERR_OK) {
        rc = counted_solve(&su, &res, &err);
        if (rc != ERR_OK) {
            break;
        }
        total += res.wall_seconds;
        fastest = runs == 0 || res.wall_seconds < fastest ? res.wall_seconds : fastest;
        if (runs++ == 0) {
            for (int i = 0; i < COUNTER_COUNT; i++) {
                printf("%s %" PRIu64 "\n", counter_names[i], counters_get(&res.counters, i));
            }
            uint64_t n;
            if (result_positions(&res, &n, &err)) {
                printf("positions %" PRIu64 "\n", n);
            }
            printf("value %d\nremoteness %" PRIu32 "\n", (int)res.root.value, res.root.remoteness);
        }
        solve_result_free(&res);
        if (total >= min_seconds || runs >= 1000) {
            break;
        }
    }
    if (rc != ERR_OK) {
        printf("error %s\n", err.msg);
        if (su.g != NULL) {
            counted_setup_free(&su);
        }
        return (int)rc;
    }
    printf("seconds %.9g\nmin_seconds %.9g\nruns %d\n", total / runs, fastest, runs);
    counted_setup_free(&su);
    return 0;
}

/* ------------------------------------------------- the timing side */

/* Reads everything the child writes on fd until it closes it, at most
 * timeout seconds; false on timeout. The text is NUL-terminated and cut at
 * n - 1 bytes (the rest is read and dropped). */
static bool read_with_deadline(int fd, double timeout, char *buf, size_t n) {
    double deadline = clock_seconds() + timeout;
    size_t used = 0;
    for (;;) {
        double left = deadline - clock_seconds();
        if (left <= 0) {
            buf[used] = '\0';
            return false;
        }
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int r = poll(&pfd, 1, left > 1e6 ? 1000000000 : (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r == 0) {
            continue; /* the deadline check above ends it */
        }
        char chunk[4096];
        ssize_t got = r < 0 ? -1 : read(fd, chunk, sizeof chunk);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            break;
        }
        size_t keep = (size_t)got < n - 1 - used ? (size_t)got : n - 1 - used;
        memcpy(buf + used, chunk, keep);
        used += keep;
    }
    buf[used] = '\0';
    return true;
}

/* Reads the twin's `name value` lines into out; true when `seconds` was
 * among them. An `error` line sets out->error. */
static bool parse_figures(char *text, CountedFigures *out) {
    bool have_seconds = false;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line != NULL;
         line = strtok_r(NULL, "\n", &save)) {
        char *val = strchr(line, ' ');
        if (val == NULL) {
            continue;
        }
        *val++ = '\0';
        if (strcmp(line, "error") == 0) {
            snprintf(out->error, sizeof out->error, "counted build: %s", val);
        } else if (strcmp(line, "positions") == 0) {
            out->has_positions = true;
            out->positions = strtoull(val, NULL, 10);
        } else if (strcmp(line, "min_seconds") == 0) {
            out->min_seconds = strtod(val, NULL);
        } else if (strcmp(line, "seconds") == 0) {
            out->seconds = strtod(val, NULL);
            have_seconds = true;
        } else if (strcmp(line, "value") == 0) {
            out->root.value = (Value)atoi(val);
        } else if (strcmp(line, "remoteness") == 0) {
            out->root.remoteness = (uint32_t)strtoul(val, NULL, 10);
        } else {
            for (int i = 0; i < COUNTER_COUNT; i++) {
                if (strcmp(line, counter_names[i]) == 0) {
                    counters_set(&out->counters, i, strtoull(val, NULL, 10));
                }
            }
        }
    }
    return have_seconds;
}

void counted_run(const CountedTwin *twin, const char *solver, const char *game, int threads,
                 CountedFigures *out) {
    memset(out, 0, sizeof *out);
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(out->error, sizeof out->error, "pipe: %s", strerror(errno));
        out->code = ERR_IO;
        return;
    }
    char threads_text[16], min[32];
    snprintf(threads_text, sizeof threads_text, "%d", threads);
    snprintf(min, sizeof min, "%g", twin->min_time);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0); /* its own group: a timeout kills whatever it started too */
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        execl(twin->path, twin->path, "--count-one", solver, game, threads_text, min, (char *)NULL);
        dprintf(STDOUT_FILENO, "error cannot run the counted build %s: %s (make bench builds it)\n",
                twin->path, strerror(errno));
        _exit(ERR_IO);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        snprintf(out->error, sizeof out->error, "fork: %s", strerror(errno));
        out->code = ERR_IO;
        return;
    }
    setpgid(pid, pid); /* also here: no race with the child's own call */
    static char text[1 << 16];
    bool in_time = read_with_deadline(fds[0], twin->timeout, text, sizeof text);
    close(fds[0]);
    if (!in_time) {
        kill(-pid, SIGKILL);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!in_time) {
        snprintf(out->error, sizeof out->error,
                 "the counted build %s did not finish within %g s (--count-timeout); killed",
                 twin->path, twin->timeout);
        out->code = ERR_LIMIT;
        return;
    }
    bool have_seconds = parse_figures(text, out);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
    out->code = code >= ERR_USAGE && code <= ERR_LIMIT ? (ErrCode)code : ERR_INTERNAL;
    if (out->error[0] == '\0' && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
        if (WIFSIGNALED(status)) {
            snprintf(out->error, sizeof out->error, "the counted build %s was killed by signal %d",
                     twin->path, WTERMSIG(status));
        } else {
            snprintf(out->error, sizeof out->error, "the counted build %s failed (exit %d)",
                     twin->path, code);
        }
    } else if (out->error[0] == '\0' && !have_seconds) {
        snprintf(out->error, sizeof out->error, "the counted build %s printed no result",
                 twin->path);
    }
}
