/* solvers/registry.c: the list of solvers, fastest first.
 *
 * The default solver for a game is the first one here that supports it
 * (root-only, partial and variant solvers never are), so keep the order by
 * measured speed (make bench).
 *
 * To add a solver (docs/adding-a-solver.md walks through it):
 *   1. Write solvers/<name>.c exporting `const SolverModule <name>_solver`.
 *   2. Declare it below with `extern const SolverModule <name>_solver;`.
 *   3. Add `&<name>_solver,` to solver_registry where its speed ranks it.
 * The Makefile picks up every .c file in solvers/; the tests cross-check every
 * registered solver against dfs on every game it supports, and the
 * benchmark driver registers it for every game in the matrix. An
 * instrumented variant of a solver (SolverModule.variant_of: tier-probe of
 * tier) goes right after its base: it is never a default, and the benchmark
 * runs it only on the matrix lines that name it.
 */
#include "solvers/solver.h"

// clang-format off
extern const SolverModule gps_cached_solver;
extern const SolverModule gps_solver;
extern const SolverModule dfs_solver;
extern const SolverModule retro_solver;
extern const SolverModule retro_unmove_solver;
extern const SolverModule sweep_solver;
extern const SolverModule dfs_depth_solver;
extern const SolverModule tier_solver;
extern const SolverModule tier_probe_solver;
extern const SolverModule symbolic_solver;
extern const SolverModule minimax_solver;
extern const SolverModule search_solver;

const SolverModule *const solver_registry[] = {
    &gps_cached_solver,
    &gps_solver,
    &dfs_solver,
    &retro_solver,
    &retro_unmove_solver,
    &sweep_solver,
    &dfs_depth_solver,
    &tier_solver,
    &tier_probe_solver,
    &symbolic_solver,
    &minimax_solver,
    &search_solver,
    NULL,
};
// clang-format on
