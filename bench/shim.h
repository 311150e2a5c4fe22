/* bench/shim.h: a plain C API over Google Benchmark (bench/shim.cc).
 *
 * Google Benchmark is C++; the driver and everything it links are C17. The
 * shim exposes the few calls a C program needs: initialize with the usual
 * --benchmark_* flags, register a benchmark under a name with a C callback,
 * run the timing loop with manually measured iteration times, set user
 * counters (plain values or rates), labels and run-wide context, and run
 * what --benchmark_filter selects. Output, JSON files (--benchmark_out),
 * repetitions, --benchmark_list_tests and the other flags behave exactly as
 * in any Google Benchmark program.
 *
 * Usage:
 *     bench_init(&argc, argv);             // consumes --benchmark_* flags
 *     bench_register("dfs/tictactoe", fn, arg);
 *     bench_run();
 *     bench_shutdown();
 * and in fn(BenchState *st, void *arg):
 *     setup...;                            // not timed
 *     while (bench_keep_running(st)) {
 *         double t = the measured seconds of one iteration;
 *         bench_set_iteration_time(st, t); // only these seconds are timed
 *     }
 *     bench_set_counter(st, "positions", n, BENCH_COUNTER_PLAIN);
 */
#ifndef BENCH_SHIM_H
#define BENCH_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct BenchState BenchState; /* a benchmark::State */
typedef void (*BenchFn)(BenchState *st, void *arg);

/* How Google Benchmark reports a user counter. */
typedef enum BenchCounterKind {
    BENCH_COUNTER_PLAIN,     /* the value as given (e.g. positions of one solve) */
    BENCH_COUNTER_RATE,      /* per second: the value per iteration divided by the
                                iteration's (manual) time, kIsIterationInvariantRate */
    BENCH_COUNTER_BYTES_1024 /* the value as given, shown with 1024-based prefixes */
} BenchCounterKind;

/* Parses and removes the --benchmark_* flags from argv (benchmark::Initialize). */
void bench_init(int *argc, char **argv);

/* Registers fn(st, arg) under `name` (copied). The benchmark uses manual
 * time (bench_set_iteration_time) and reports in `unit`: "ns", "us", "ms"
 * or "s". */
void bench_register(const char *name, BenchFn fn, void *arg, const char *unit);

/* Adds a key/value pair to the context of every report (JSON "context"). */
void bench_add_context(const char *key, const char *value);

/* Runs the benchmarks selected by --benchmark_filter (or lists them with
 * --benchmark_list_tests). Returns how many ran or were listed. */
size_t bench_run(void);

void bench_shutdown(void);

/* The timing loop: true while Google Benchmark wants another iteration. */
bool bench_keep_running(BenchState *st);

/* The time of the iteration that just ran (manual time), in seconds. */
void bench_set_iteration_time(BenchState *st, double seconds);

/* Iterations run so far (after the loop: all of them). */
int64_t bench_iterations(const BenchState *st);

void bench_set_counter(BenchState *st, const char *name, double value, BenchCounterKind kind);

/* A label shown beside the result (JSON "label"). */
void bench_set_label(BenchState *st, const char *label);

/* Marks the benchmark as failed with a message; call before or instead of the
 * timing loop, and return without looping after it. */
void bench_skip_with_error(BenchState *st, const char *message);

#ifdef __cplusplus
}
#endif

#endif /* BENCH_SHIM_H */
