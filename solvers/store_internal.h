/* solvers/store_internal.h: what solvers/store.c (saving, opening,
 * reading, analyzing) shares with solvers/store_verify.c (the
 * verification) and solvers/store_verify_parts.c (its data by parts), and
 * nothing else uses; the interface is solvers/store.h.
 */
#ifndef SOLVERS_STORE_INTERNAL_H
#define SOLVERS_STORE_INTERNAL_H

#include <stdint.h>

#include "core/db.h"
#include "core/error.h"
#include "core/stats.h"
#include "solvers/store.h"

#define REMEDY "remove the directory and solve again, or use another --db"

/* Opens file k of the manifest (header, index) on first use; checks it is
 * the file the manifest lists. Mapped, with its index (a file opened lean
 * is opened again so); store_get opens lean (core/dbstore.h). */
ErrCode store_open_file(Store *st, int k, Error *err);

/* Closes file k if open (store_open_file opens it again). */
void store_close_file(Store *st, int k);

/* Reads file k whole into a new database of its records (db_create'd). */
ErrCode store_load_file(Store *st, int k, int threads, Database *v, Error *err);

/* Tier t's records, read whole from its file or assembled from its
 * slices (layout tiers). */
ErrCode store_load_tier(Store *st, int t, int threads, Database *v, Error *err);

/* A record the game can hold: NULL if fine, else why not. */
const char *store_record_problem(const Store *st, uint32_t raw);

/* The summary of the records streamed: allocated empty, a record added n
 * times, and the totals checked against the manifest's (ERR_IO naming
 * both). */
ErrCode store_summary_alloc(const Store *st, DbSummary *sum, Error *err);
void store_summary_add_n(const Store *st, DbSummary *sum, uint32_t raw, uint64_t n);
ErrCode store_check_counts(const Store *st, const DbSummary *sum, Error *err);

/* --verify by parts (store_verify_parts.c, which says how): the pieces of
 * a tier's files read one at a time, the child records through per-thread
 * caches of child file blocks. */
struct BlockCache;
typedef struct StoreParts {
    Store *st;
    int threads;
    uint64_t target;          /* records a piece at most (whole file blocks) */
    struct BlockCache *cache; /* [threads] */
    Database buf;             /* the piece read last: records [lo, lo + buf.size) of its tier */
    bool made;                /* buf allocated */
    uint64_t pieces, misses;  /* pieces read; child blocks read (at store_parts_free) */
} StoreParts;

/* True when the database can be verified by parts: layout tiers, a
 * tier-major game with the tier fast path, no WinBy scores. */
bool store_parts_can(const Store *st);
/* Records a piece at most: `target` rounded down to whole file blocks (at
 * least one). */
uint64_t store_parts_target(uint64_t target, const Store *st);
/* File blocks a thread's child cache holds: tier:blocks' default cache
 * (TIER_BLOCKS_CACHE_DEFAULT), at most the power of two at or above twice
 * the file blocks of the child tiers of any one tier. */
uint64_t store_parts_cache_blocks(const Store *st);
/* The memory model of checking tier t by parts with tiers[0..ntiers) (t
 * and its child tiers) open, on `threads` threads, in bytes. */
uint64_t store_parts_memory(const Store *st, int t, const int *tiers, int ntiers, int threads,
                            uint64_t target);
/* The caches and the piece buffer (the limit of open files raised for a
 * tier and its child tiers). Free with store_parts_free (also on failure),
 * which closes every file it opened. */
ErrCode store_parts_create(Store *st, int threads, uint64_t target, StoreParts *sp, Error *err);
void store_parts_free(StoreParts *sp);
/* Opens the files of tiers[0..ntiers) (header and block index), closes
 * every other tier's. */
ErrCode store_parts_open(StoreParts *sp, const int *tiers, int ntiers, Error *err);
/* The end of tier t's piece that starts at local index lo (0 or the end of
 * the piece before): the end of lo's file, at most target records on. */
uint64_t store_parts_end(const StoreParts *sp, int t, uint64_t lo);
/* Reads tier t's records [lo, hi) (a piece) into sp->buf, on the threads,
 * each block's checksum checked; ERR_IO naming the file and the first
 * block that fails. */
ErrCode store_parts_read(StoreParts *sp, int t, uint64_t lo, uint64_t hi, Error *err);
/* The record of local index ci of tier t (open), through the calling
 * thread's cache; false (in *err) when its file cannot be read. */
bool store_parts_child(StoreParts *sp, int t, uint64_t ci, uint32_t *raw, Error *err);
/* The child blocks read so far (every thread's cache). */
uint64_t store_parts_misses(const StoreParts *sp);
/* Empties the caches, so that a tier's check reads the same child blocks
 * whatever tier was checked before it (a resumed run starts cold). */
void store_parts_forget(StoreParts *sp);

/* --verify's journal (store_journal.c, which gives the format): the tiers
 * verified so far, each with its files and what its check found, so that
 * a stopped verification resumes. */
typedef struct JournalTier {
    bool have;   /* a line for the tier was read */
    bool parts;  /* checked by parts (else whole) */
    int threads; /* of the run that checked it */
    char *files; /* its files as the manifest listed them (store_journal_files) */
    uint64_t checked, pieces, blocks, est; /* positions checked; by parts the pieces and child
                                              blocks read; the memory estimate of the way */
    Counters counters;                     /* the game calls of its check */
    double cpu, wall;                      /* seconds: the process's CPU, wall */
    int nhist;                             /* its reached records: nhist distinct ones, */
    uint32_t *raw;                         /* raw[i] held by */
    uint64_t *n;                           /* n[i] positions */
} JournalTier;

typedef struct VerifyJournal {
    int fd; /* -1: none */
    char path[4096];
    int ntiers;
    JournalTier *tier; /* [ntiers]: the last line of each tier */
    int lines;         /* tier lines read */
    bool dropped;      /* a last line cut short was dropped */
} VerifyJournal;

/* Opens (or creates) the journal at path for st's database (layout tiers),
 * locked, and reads its lines; refuses another database's, a malformed
 * one, a file that is not regular or is locked. Close with
 * store_journal_close (also on failure). */
ErrCode store_journal_open(const Store *st, const char *path, VerifyJournal *j, Error *err);
void store_journal_close(VerifyJournal *j);
/* Tier t's files as the manifest lists them, as the journal writes them
 * (malloc'ed; NULL: out of memory). */
char *store_journal_files(const Store *st, int t);
/* True when the journal has a line for tier t naming its files as they
 * are now (the caller checks its child tiers). */
bool store_journal_matches(const Store *st, const VerifyJournal *j, int t);
/* Appends tier t's line (e: its files and findings), flushed to disk. */
ErrCode store_journal_append(const Store *st, VerifyJournal *j, int t, const JournalTier *e,
                             Error *err);

#endif /* SOLVERS_STORE_INTERNAL_H */
