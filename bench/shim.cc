// bench/shim.cc: the C API of bench/shim.h over Google Benchmark (C++).
//
// Each C call forwards to the library; BenchState is a benchmark::State
// seen through an opaque pointer. Nothing here keeps state of its own.
#include "bench/shim.h"

#include <benchmark/benchmark.h>

#include <cstring>
#include <string>

namespace {

benchmark::State &state_of(BenchState *st) { return *reinterpret_cast<benchmark::State *>(st); }

const benchmark::State &state_of(const BenchState *st) {
    return *reinterpret_cast<const benchmark::State *>(st);
}

benchmark::TimeUnit unit_of(const char *unit) {
    if (std::strcmp(unit, "ns") == 0) {
        return benchmark::kNanosecond;
    }
    if (std::strcmp(unit, "us") == 0) {
        return benchmark::kMicrosecond;
    }
    if (std::strcmp(unit, "s") == 0) {
        return benchmark::kSecond;
    }
    return benchmark::kMillisecond;
}

} // namespace

extern "C" {

void bench_init(int *argc, char **argv) { benchmark::Initialize(argc, argv); }

void bench_register(const char *name, BenchFn fn, void *arg, const char *unit) {
    benchmark::RegisterBenchmark(
        name, [fn, arg](benchmark::State &st) { fn(reinterpret_cast<BenchState *>(&st), arg); })
        ->UseManualTime()
        ->Unit(unit_of(unit));
}

void bench_add_context(const char *key, const char *value) {
    benchmark::AddCustomContext(key, value);
}

size_t bench_run(void) { return benchmark::RunSpecifiedBenchmarks(); }

void bench_shutdown(void) { benchmark::Shutdown(); }

bool bench_keep_running(BenchState *st) { return state_of(st).KeepRunning(); }

void bench_set_iteration_time(BenchState *st, double seconds) {
    state_of(st).SetIterationTime(seconds);
}

int64_t bench_iterations(const BenchState *st) {
    return static_cast<int64_t>(state_of(st).iterations());
}

void bench_set_counter(BenchState *st, const char *name, double value, BenchCounterKind kind) {
    benchmark::Counter c;
    switch (kind) {
    case BENCH_COUNTER_RATE:
        c = benchmark::Counter(value, benchmark::Counter::kIsIterationInvariantRate);
        break;
    case BENCH_COUNTER_BYTES_1024:
        c = benchmark::Counter(value, benchmark::Counter::kDefaults,
                               benchmark::Counter::OneK::kIs1024);
        break;
    case BENCH_COUNTER_PLAIN:
        c = benchmark::Counter(value);
        break;
    }
    state_of(st).counters[name] = c;
}

void bench_set_label(BenchState *st, const char *label) { state_of(st).SetLabel(label); }

void bench_skip_with_error(BenchState *st, const char *message) {
    state_of(st).SkipWithError(message);
}

} // extern "C"
