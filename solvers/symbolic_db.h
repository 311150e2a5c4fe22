/* solvers/symbolic_db.h: the symbolic solver's database on disk: the
 * won/lost/tied sets (by remoteness) of every ply as node dumps of their
 * BDDs, in the suite's database directory format (core/dbstore.h:
 * checksummed record files written atomically, a manifest written last),
 * and the reader that answers single positions from them without BuDDy and
 * without solving (what solvers/store.c serves for the layout "bdd").
 *
 * A directory of layout "bdd" holds one record file per ply,
 * ply-NNNN.gmdb (kind DBSTORE_BDD, index the ply, count max_depth + 1,
 * records of 1 byte: the ply's dump below), and the manifest lists them by
 * ply, 0 to the last non-empty ply; `solver symbolic`. A solve in progress
 * writes its manifest with `complete 0` after every ply, so an interrupted
 * solve resumes from the plies it lists (solvers/symbolic.c).
 *
 * A ply's dump (little-endian):
 *
 *     offset  field
 *          0  magic "GMBDDPLY"
 *          8  u32 version (1)         12  u32 ply
 *         16  u32 layers L            20  u32 remoteness (1: layers by
 *                                         remoteness, 0: one set a class)
 *         24  u32 nvars               28  u32 classes (3: win, lose, tie)
 *         32  u64 nodes N             40  u64 0 (reserved)
 *         48  u32 root[3L]            class by class (win, lose, tie),
 *                                     remoteness 0..L-1 within a class
 *             u64 count[3L]           positions in each set
 *             u32 node[N][3]          var, low, high
 *
 * Node ids: 0 is false, 1 true, k + 2 the k-th node; a node's children
 * come before it (low, high < its id), its var is an encoding variable
 * (games/game.h GameEncoding), below its children's in the variable order.
 * The sets of a ply share their nodes (one dump per ply). A position is in
 * a set when the path from the set's root along its values (high when the
 * node's variable is 1) ends at 1: O(nvars) per set, 3L sets per ply.
 * The sets are exactly the ply's positions of each value (not shrunk by a
 * care set), so a position in none of them is not reachable.
 */
#ifndef SOLVERS_SYMBOLIC_DB_H
#define SOLVERS_SYMBOLIC_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/db.h"
#include "core/dbstore.h"
#include "core/error.h"
#include "games/game.h"

#define SYMDB_LAYOUT "bdd"
#define SYMDB_CLASSES 3 /* win, lose, tie: the order of the roots */

/* A ply's sets as a node dump (see the top). */
typedef struct SymPly {
    uint32_t ply;
    uint32_t nlayers;
    bool remoteness;
    uint32_t nvars;
    uint64_t nnodes;
    uint32_t *roots;  /* SYMDB_CLASSES * nlayers ids */
    uint64_t *counts; /* per root */
    uint32_t *nodes;  /* 3 per node */
} SymPly;

void symdb_ply_free(SymPly *sp);

/* "ply-0007.gmdb" */
void symdb_ply_name(int ply, char *buf, size_t n);

/* "reach-0007.gmdb": a solve in progress keeps ply 7's reachable set there
 * (a dump of one layer: the set as its win root, false and false;
 * solvers/symbolic_io.c), so that a resumed solve need not walk forward
 * again. Not part of a complete database. */
void symdb_reach_name(int ply, char *buf, size_t n);

/* The DbStoreInfo of ply file `ply` of g's database, `bytes` long. */
void symdb_ply_info(const Game *g, int ply, uint64_t bytes, DbStoreInfo *info);

/* Writes sp as DIR/NAME (NULL: ply-NNNN.gmdb; d locked by the caller);
 * *entry gets its manifest line. */
ErrCode symdb_ply_write(DbDir *d, const Game *g, const SymPly *sp, const char *name,
                        DbManifestFile *entry, Error *err);

/* Reads and checks the ply file the manifest line `entry` names: every
 * checksum, the header against entry, and the dump's structure (ids in
 * range, children first, variables below nvars). ERR_IO names the file. */
ErrCode symdb_ply_read(const DbDir *d, const Game *g, const DbManifestFile *entry, SymPly *sp,
                       Error *err);

/* The class (0 win, 1 lose, 2 tie) and remoteness of the position with
 * encoding values `values` in sp; false when it is in no set. */
bool symdb_ply_lookup(const SymPly *sp, const uint8_t *values, int *cls, uint32_t *r);

/* ------------------------------------------------------------- reader */

typedef struct SymDb SymDb;

/* Opens the "bdd" database whose manifest m was read from d (d and m stay
 * the caller's and must outlive the reader). Refuses (ERR_UNSUPPORTED) a
 * game whose encoding cannot map a position back to its values, and
 * (ERR_IO) a manifest that does not list plies 0..n-1. */
ErrCode symdb_open(const Game *g, const DbDir *d, const DbManifest *m, SymDb **out, Error *err);
void symdb_close(SymDb *db);
/* Whether the database holds remoteness (false: solved with remoteness=0,
 * win/lose/tie only; the remoteness symdb_get returns is then 0). */
bool symdb_remoteness(const SymDb *db);

/* The raw record (core/db.h, in fmt's width) of position pos: DB_UNREACHED
 * when it is in no set of its ply. Loads its ply's file on first use (a few
 * plies are kept). */
ErrCode symdb_get(SymDb *db, const Database *fmt, Position pos, uint32_t *raw, Error *err);

/* Counts by value and remoteness from every ply's dump (each file read and
 * checked); refuses counts that differ from the manifest's. *checked gets
 * the positions counted. sum may be NULL (a check only). */
ErrCode symdb_analyze(SymDb *db, DbSummary *sum, uint64_t *checked, Error *err);

#endif /* SOLVERS_SYMBOLIC_DB_H */
