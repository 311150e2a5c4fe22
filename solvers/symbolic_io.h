/* solvers/symbolic_io.h: BuDDy BDDs to and from the node dumps of
 * solvers/symbolic_db.h, for the symbolic solver's saving and resuming.
 * BDD variables 2v and 2v + 1 are the two copies of encoding variable v
 * (solvers/symbolic_impl.h); the sets of a ply use one copy only, `copy`.
 * The solve's side of --db (sym_save_*, sym_load_ply) is declared in
 * solvers/symbolic_impl.h and defined in symbolic_io.c beside these.
 */
#ifndef SOLVERS_SYMBOLIC_IO_H
#define SOLVERS_SYMBOLIC_IO_H

#include <bdd.h>

#include "core/error.h"
#include "solvers/symbolic_db.h"

/* Fills sp->nnodes, sp->nodes and sp->roots (allocated here) from the n
 * BDDs roots[0..n), their nodes shared: children before parents, one entry
 * per distinct node. O(nodes) time, 28 bytes a node of scratch and output.
 * The caller sets the other fields (ply, layers, counts). */
ErrCode symio_dump(const BDD *roots, int n, int copy, SymPly *sp, Error *err);

/* Builds sp's sets: out[i] (referenced) for root i, i < 3 * sp->nlayers.
 * One bdd_ite per node; BuDDy's errors are left to the caller's hook. */
ErrCode symio_load(const SymPly *sp, BDD *out, int copy, Error *err);

#endif /* SOLVERS_SYMBOLIC_IO_H */
