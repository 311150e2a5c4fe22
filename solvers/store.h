/* solvers/store.h: a game's strong database on disk (core/dbstore.h): saved
 * by any solver that keeps one, queried, analyzed and verified without
 * solving.
 *
 * Layouts (the manifest's `layout`):
 *   tiers  one file per tier (tier-NNNN.gmdb), records by local index: what
 *          the tier solver writes as it goes (solvers/tier/), so an
 *          interrupted solve resumes from the tiers on disk; or, written by
 *          N MPI ranks, each tier in N slices (rank-R-of-N/tier-NNNN.gmdb,
 *          header `first` and `records`: a range of local indexes), read
 *          the same way (docs/mpi.md);
 *   slots  files of STORE_SLOTS_PER_FILE hash slots each (slots-NNNN.gmdb),
 *          records by position: what store_save writes for the others;
 *   bdd    one file of BDDs per ply (ply-NNNN.gmdb), written by the symbolic
 *          solver and read through solvers/symbolic_db.h (store_verify then
 *          checks the checksums, the dumps' structure and the counts).
 *
 * Reading a record (store_get) touches the manifest, the header and block
 * index of its file (read and checked once, on first use, the file opened
 * lean: where each group of 32 blocks starts is all that is kept) and one
 * block, decompressed into a direct-mapped cache of STORE_CACHE_BLOCKS
 * blocks (with its file's zstd dictionary, one of STORE_DDICTS): memory
 * is 1/4 byte a block of the files read plus the caches, whatever the
 * database's size. The other readers (verify, compare, analyze) open files
 * mapped, index and all (a file store_get opened lean is opened again
 * so). A database of more
 * files than the process may hold open (tier:blocks' parts: 20,568 for
 * Connect Four 6x6) keeps every opened file's index but at most Store.fd_cap
 * descriptors, closing the one a clock hand comes to (round the files) and
 * opening it again on use; store_analyze opens each file for its own
 * read only, so it holds at most one a thread.
 *
 * A partial database (manifest `partial 1`, written by tier:sector with
 * store_manifest_partial): the tiers on disk only, Gasser's sectors solved
 * so far. store_get refuses a position of a tier not there; store_analyze
 * streams the tiers there; store_verify checks every tier whose child
 * tiers are all there (Store.unchecked counts the others); there is no
 * initial position's value and no counts in the manifest.
 *
 * store_verify checks every checksum and then, position by position, that
 * each stored record is what the fold of its children's stored records
 * gives (core/value.h, the rule every solver uses), in parallel. For
 * tiers it checks each tier whole, with its child tiers in memory, when
 * that fits the memory budget, else by parts (store_verify_parts.c: the
 * tier's files piece by piece, the child records through per-thread
 * caches of child file blocks; a tier-major game with the tier fast path,
 * no WinBy), else refuses (ERR_MEMORY) with both estimates; for slots it
 * holds the whole database. With a journal (store_verify_journal,
 * solvers/store_journal.c) each tier that passed is recorded at once, and a
 * verification stopped at any point resumes, losing the tier in hand only.
 */
#ifndef SOLVERS_STORE_H
#define SOLVERS_STORE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/db.h"
#include "core/dbstore.h"
#include "core/error.h"
#include "games/game.h"
#include "solvers/solver.h"

#define STORE_SLOTS_PER_FILE (UINT64_C(1) << 30)
#ifndef STORE_CACHE_BLOCKS
#define STORE_CACHE_BLOCKS 8192 /* 32 MiB of 4 KiB blocks */
#endif
/* zstd dictionaries of store_get's files (opened lean) held at once, some
 * 30 KB each: core/dbstore.h's DbStoreDicts, by file number. */
#ifndef STORE_DDICTS
#define STORE_DDICTS 1024
#endif

/* "tier-0007.gmdb" */
void store_tier_name(int tier, char *buf, size_t n);

/* A manifest for g's database as solved by `solver` (without files). */
void store_manifest_fill(DbManifest *m, const Game *g, const char *solver, const char *layout,
                         const DbSummary *sum, Outcome root, bool has_winby, WinBy root_winby);

/* Writes m (complete) as DIR's manifest, then removes the files an older
 * manifest listed that m does not. */
ErrCode store_manifest_commit(DbDir *d, DbManifest *m, Error *err);

/* tier:sector: writes DIR's manifest for the tier files the directory
 * holds (each opened: header and block index checked against g's
 * layout), marked partial (complete 0, partial 1; no counts, no root
 * value). Under the directory's lock. O(tiers + blocks of the files). */
ErrCode store_manifest_partial(DbDir *d, const Game *g, const char *solver, Error *err);

/* Saves a solve's in-memory database (res->has_db) to `dir` (slots
 * layout) under the directory's lock: record files first, the manifest
 * last. sum: db_summarize of res->db. */
ErrCode store_save(const Game *g, const char *solver, const SolveResult *res, const DbSummary *sum,
                   const char *dir, int threads, Error *err);

typedef struct StoreCacheEntry {
    int file; /* -1: empty */
    uint64_t block;
    unsigned char *data;
} StoreCacheEntry;

/* One caller's state for reading records (store_read): a direct-mapped
 * cache of STORE_CACHE_BLOCKS decompressed blocks, a zstd context and the
 * dictionaries of the files opened lean. The store holds one, store_get's;
 * each further thread brings its own (store_reader_init, after
 * store_share). */
typedef struct StoreReader {
    void *dctx;
    DbStoreDicts dicts;
    StoreCacheEntry *cache;
    unsigned char *cache_mem; /* STORE_CACHE_BLOCKS entries of cache_entry bytes */
    uint64_t cache_entry;
    uint64_t reads, misses;
} StoreReader;

typedef struct Store {
    const Game *g;
    DbDir dir;
    DbManifest m;
    bool tiers;   /* layout tiers (else slots) */
    Database fmt; /* record format (no arrays): for db_raw_* */
    int nfiles;
    DbStoreFile *files; /* opened on first use */
    bool *opened;
    /* Descriptors: at most fd_cap files keep theirs at once (below the
     * limit of open files, raised at store_open toward one a file); the
     * others are suspended (index kept, descriptor closed), chosen by a
     * clock hand, and resumed on use. */
    int fds, fd_cap, fd_hand;
    StoreReader rd; /* store_get's */
    /* store_share: the files' table behind `lock`, and how many readers
     * are in each file (a file being read keeps its descriptor) */
    bool shared;
    pthread_mutex_t lock;
    int *busy;
    struct SymDb *bdd; /* layout "bdd": the symbolic solver's plies
                          (solvers/symbolic_db.h), else NULL */
    /* layout tiers: tier t's files are [tier_file[t], tier_file[t + 1]),
     * one, or its slices in order when N ranks wrote it (docs/mpi.md) */
    int ntiers;
    int *tier_file;
    uint64_t *tier_size;
    int tiers_present; /* tiers with records (all of them unless m.partial) */
    int unchecked;     /* store_verify, partial: tiers with a child tier not there */
    Counters counters; /* store_verify's game calls, every thread, counted as a solve's */
    /* store_verify, layout tiers: the tiers checked whole and by parts, the
     * largest estimate of the memory a tier's check needed (the way
     * chosen), and by parts the pieces read and the child blocks read */
    int verify_whole, verify_parts;
    uint64_t verify_peak, verify_pieces, verify_child_blocks;
    /* store_verify_journal: the tiers taken from the journal (counted in
     * every figure above as if checked in this run) and the CPU and wall
     * seconds their checks took when they were journaled */
    int verify_journal_tiers;
    double verify_journal_cpu, verify_journal_wall;
} Store;

/* Opens DIR's complete (or partial) database of g's variant: refuses
 * (ERR_IO) a directory without one, of another variant, or not matching g. */
ErrCode store_open(const Game *g, const char *dir, Store *st, Error *err);
void store_close(Store *st);

/* False when the database holds no remoteness (a symbolic:remoteness=0
 * solve's BDDs): the remoteness of every record is then meaningless. */
bool store_has_remoteness(const Store *st);

/* The record (raw, core/db.h) and score of position pos (canonical). */
ErrCode store_get(Store *st, Position pos, uint32_t *raw, WinBy *winby, Error *err);
/* store_get with the caller's reader (r: &st->rd is store_get). Several
 * threads may read at once, each with its own reader, once store_share
 * returned true. */
ErrCode store_read(Store *st, StoreReader *r, Position pos, uint32_t *raw, WinBy *winby,
                   Error *err);
/* Lets store_read be called by several threads at once (each with a
 * reader of its own): opening a file and choosing whose descriptor to
 * close go behind a lock, and a file being read keeps its descriptor.
 * False, nothing changed, for layout bdd (one reader at a time) or when
 * the lock cannot be made. */
bool store_share(Store *st);
ErrCode store_reader_init(StoreReader *r, Error *err);
void store_reader_free(StoreReader *r);

/* Layout tiers: true when the database holds tier t (a partial database
 * holds only some); layout slots: true (such a database is complete). */
bool store_tier_held(const Store *st, int t);

/* Tier t's records read whole into *v (db_create'd; free with db_destroy),
 * from its file or its slices, checksums checked; the caller checks the
 * memory first (tier size times the record width). Layout tiers only. */
ErrCode store_tier_load(Store *st, int t, int threads, Database *v, Error *err);

/* The counts, the by-remoteness histogram and (layout tiers) the counts by
 * tier, streamed from the files on `threads` threads (a file each at a
 * time); refuses a database whose counts differ from its manifest's, or
 * a record no solve writes (naming the first, in file order). Free with
 * db_summary_free. */
ErrCode store_analyze(Store *st, DbSummary *sum, int threads, Error *err);

/* Checks the database (see the top). ERR_IO names the first disagreement
 * (tiers from the last, the smallest index; or the smallest position) exactly. */
ErrCode store_verify(Store *st, int threads, bool progress, uint64_t *checked, Error *err);

/* store_verify, resumable (layout tiers; journal NULL: store_verify): each
 * tier that passes is appended to the journal file (created when missing;
 * solvers/store_journal.c gives its format), and a tier whose line names
 * its files as the manifest lists them now, and whose child tiers were all
 * taken too, is taken from its line instead of checked again. The counts,
 * *checked and the Store's figures cover every tier, those taken and those
 * checked, as one uninterrupted verification's would; the journal's seconds
 * in verify_journal_*. Refuses (one line) a journal of another database, a
 * malformed one (a last line cut short is dropped, with a note on standard
 * error) and a database without tiers. */
ErrCode store_verify_journal(Store *st, int threads, bool progress, const char *journal,
                             uint64_t *checked, Error *err);

/* store_compare (solvers/store_compare.c): two databases of one game
 * variant compared position by position. */
#define STORE_COMPARE_SHOWN 10 /* differences kept, the first in the walk's order */

typedef struct StoreDiff {
    Position pos;
    uint32_t raw[2]; /* the records of a and b (DB_UNREACHED: not stored) */
    WinBy winby[2];
} StoreDiff;

typedef struct StoreCompare {
    uint64_t compared;  /* positions stored (reached) in a or in b */
    uint64_t both;      /* ... in both */
    uint64_t only[2];   /* ... in a only, in b only (each a difference) */
    uint64_t beyond[2]; /* ... in a (b) only, a (b) partial and the other complete: every
                           legal position of a tier against the reachable ones, no difference */
    bool partial[2];    /* a, b: a partial (tier:sector) database */
    uint64_t differ;    /* positions whose records differ, those above included */
    bool values_only;   /* a database without remoteness: values compared alone */
    uint64_t unnamed;   /* ... at positions with no slot in a tiers layout (not named) */
    int shown;          /* differences in diff[], the first in the walk's order */
    StoreDiff diff[STORE_COMPARE_SHOWN];
    uint64_t blocks_read; /* blocks decompressed, both databases */
} StoreCompare;

/* Compares the record (value, remoteness, score) of every slot of the
 * hash space of a and b (store_open'ed for one game variant),
 * on `threads` threads, streaming both (the order and its cost: the top
 * of solvers/store_compare.c); progress on standard error. A slot stored
 * in neither is no position; one stored in one only is a difference. The
 * differences shown are the first by position, or, for a tiers database
 * of a hash that is not tier-major, by tier and index. A partial
 * database against a complete one: the positions both hold compared, those
 * the partial one alone holds counted in beyond[] (not differences), those
 * the complete one alone holds differences (the top of
 * solvers/store_compare.c). ERR_OK whatever the differences (out says);
 * ERR_IO for a record no solve writes, naming its file. */
ErrCode store_compare(Store *a, Store *b, int threads, bool progress, StoreCompare *out,
                      Error *err);

#endif /* SOLVERS_STORE_H */
