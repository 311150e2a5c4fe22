/* core/dbranks.h: the storage of a tier database written by N MPI ranks
 * (docs/mpi.md), and the names of tier files: the one place that builds
 * or parses them, so no solver writes a file name or a manifest line.
 *
 * DIR holds, with N > 1 ranks:
 *   rank-R-of-N/          rank R's own directory (its lock, its slices
 *                         tier-NNNN.gmdb and its reach.gmdb), on its own
 *                         disk in production;
 *   manifest-of-N.txt     rank 0's list of every tier's slices: a line
 *                         `gamesman tier database in N ranks`, `variant
 *                         SPEC`, `tiers T`, then per tier and rank `tier t
 *                         rank r records A B checksum HEX file
 *                         rank-r-of-N/tier-NNNN.gmdb header HEX`;
 *   manifest              once complete, the core/dbstore.h manifest
 *                         listing every slice, read by one process.
 *
 * Every file is written as core/dbstore.h writes (dbstore_tmp_create and
 * dbstore_tmp_commit: a fresh O_EXCL|O_NOFOLLOW temporary file in a
 * directory opened and checked, renamed over the name), so a planted link
 * is never followed: one code path with the single-process solve. DIR is
 * refused when every user may write it and it has no sticky bit, as
 * bin/solve refuses it; a rank-R-of-N that is a symbolic link (or not a
 * directory) is refused, never followed.
 */
#ifndef CORE_DBRANKS_H
#define CORE_DBRANKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/dbstore.h"
#include "core/error.h"

/* "tier-0007.gmdb": the file of tier 7 in a database directory. By number,
 * never by the game's tier name (TierOps.name), so that directories
 * written before names existed stay readable and a name's characters never
 * reach a path (docs/database.md). */
void dbranks_tier_name(int tier, char *buf, size_t n);
/* "tier-0007-000000065536.gmdb": the part of tier 7 whose first record is
 * local index 65536 (tier:blocks, solvers/tier/blocks.c). */
void dbranks_part_name(int tier, uint64_t first, char *buf, size_t n);
/* "reach-0007.gmdb": tier 7's reachability bitmap while tier:blocks runs. */
void dbranks_reach_name(int tier, char *buf, size_t n);

/* A directory written by a solve on another number of ranks (its
 * rank-R-of-M directories or manifest-of-M.txt, M != ranks; one process:
 * any such entry) cannot be resumed or read with `ranks` ranks: ERR_IO
 * saying what to do. A missing DIR is no error. */
ErrCode dbranks_check_layout(const char *dir, int ranks, Error *err);

/* DIR/rank-R-of-N's path. */
void dbranks_rank_dir(const char *dir, int rank, int ranks, char *buf, size_t n);

/* Opens (creating it and DIR when missing) DIR/rank-R-of-N as d: DIR is
 * opened and checked as bin/solve checks a database directory, the rank's
 * directory is opened without following a link and checked likewise. */
ErrCode dbranks_open_rank(const char *dir, int rank, int ranks, DbDir *d, Error *err);

/* Rank 0's N-rank manifest while the solve runs: begun (the previous
 * DIR/manifest removed: the database is not complete meanwhile), a tier's
 * slices added as each is solved, committed at the end with DIR/manifest
 * (the complete one, whose fields m gives but for its files). */
typedef struct DbRanks {
    DbDir top; /* DIR */
    int ranks, ntiers;
    char *text; /* manifest-of-N.txt so far */
    size_t len, cap;
    DbManifestFile *slices; /* [ntiers * ranks], tier-major */
} DbRanks;

ErrCode dbranks_begin(DbRanks *r, const char *dir, int ranks, const char *spec, int ntiers,
                      Error *err);
/* Tier t's slices: rank q holds records [first[q], first[q + 1]), its file
 * has header checksum sums[3q], records checksum sums[3q + 1] and sums[3q + 2]
 * bytes. */
ErrCode dbranks_tier(DbRanks *r, int t, const uint64_t *first, const uint64_t *sums, Error *err);
ErrCode dbranks_commit(DbRanks *r, DbManifest *m, Error *err);
void dbranks_free(DbRanks *r);

#endif /* CORE_DBRANKS_H */
