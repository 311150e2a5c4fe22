/* bench/counted.h: the counted-twin protocol of bin/bench (bench/counted.c).
 *
 * bin/bench is built from the timing variant (STATS=0), so its times pay
 * for no counter. The counters come from the same driver built with
 * STATS=1, bin/bench-counted, "the counted twin": for each (solver, game,
 * threads) pair the timing side runs
 *
 *     bench-counted --count-one SOLVER GAME THREADS MIN_SECONDS
 *
 * once, before timing the pair. The twin sets the pair up and solves it
 * with the same functions as the timing side (counted_setup,
 * counted_solve), repeats the solve until MIN_SECONDS have passed (at most
 * 1000 solves), and prints one `name value` line per figure:
 *
 *     <counter> N       each counter of core/stats.h, from the first solve
 *     positions N       the positions held (absent for root-only solvers)
 *     value V           the root's Value (an int) and its remoteness
 *     remoteness R
 *     seconds S         mean wall time of one counted solve
 *     min_seconds S     the fastest counted solve
 *     runs N
 *
 * or `error MESSAGE` and a non-zero exit (an ErrCode). The timing side
 * (counted_run) reads these lines within a deadline, kills the twin's
 * process group when it is exceeded, and turns every failure (cannot run,
 * killed, bad exit, no result) into one message and one ErrCode.
 */
#ifndef BENCH_COUNTED_H
#define BENCH_COUNTED_H

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"
#include "core/stats.h"
#include "games/game.h"
#include "solvers/solver.h"

/* Everything before the timed region of one pair: the game, the solver and
 * its options (threads set, the export skipped: only the root and the
 * figures are needed). Both builds set a pair up with this. */
typedef struct CountedSetup {
    Game *g;
    const SolverModule *s;
    SolveConfig cfg;
} CountedSetup;

/* Creates the game and looks the solver up; on failure nothing is held. */
ErrCode counted_setup(const char *solver, const char *game, int threads, CountedSetup *su,
                      Error *err);
void counted_setup_free(CountedSetup *su);

/* One whole solve under the harness; the timed region is res->wall_seconds. */
ErrCode counted_solve(const CountedSetup *su, SolveResult *res, Error *err);

/* The twin's side: `--count-one SOLVER GAME THREADS MIN_SECONDS`. Prints
 * the figures on standard output; returns the exit code (0 or an ErrCode). */
int counted_child_main(const char *solver, const char *game, const char *threads_text,
                       const char *min_text);

/* How the timing side runs the twin. */
typedef struct CountedTwin {
    const char *path; /* bin/bench-counted */
    double min_time;  /* MIN_SECONDS passed to the twin */
    double timeout;   /* seconds before the twin's process group is killed */
} CountedTwin;

/* What the twin reported for one pair. error is "" when it succeeded. */
typedef struct CountedFigures {
    char error[512];
    ErrCode code; /* the error's code when error is set */
    Counters counters;
    bool has_positions;
    uint64_t positions;
    double seconds;     /* mean counted solve */
    double min_seconds; /* fastest counted solve */
    Outcome root;
} CountedFigures;

/* The timing side: runs the twin on one pair and reads its figures into out
 * (zeroed first). Never fails by itself: a failure is out->error. */
void counted_run(const CountedTwin *twin, const char *solver, const char *game, int threads,
                 CountedFigures *out);

#endif
