/* solvers/symbolic.h: what the symbolic (BDD) solver offers beyond its
 * SolverModule (solvers/symbolic.c), for tests and reports. */
#ifndef SOLVERS_SYMBOLIC_H
#define SOLVERS_SYMBOLIC_H

#include <stdint.h>

#include "core/error.h"
#include "games/game.h"

/* The forward pass alone: counts[p] gets the number of positions reachable
 * after exactly p moves (bdd_satcount of the ply's BDD), for p < *plies
 * (the plies up to the last non-empty one; at most n are written). The
 * game must have an encoding. Uses BuDDy, so not while a symbolic solve
 * runs on another thread. */
ErrCode symbolic_ply_counts(const Game *g, uint64_t *counts, int n, int *plies, Error *err);

#endif /* SOLVERS_SYMBOLIC_H */
