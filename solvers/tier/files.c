/* solvers/tier/files.c: the tier solver's database directory (--db DIR,
 * alias --work-dir), through the storage calls only (core/dbstore.h,
 * core/dbwriter.h, solvers/store.h).
 *
 * Every solved tier is written to DIR/tier-NNNN.gmdb, and the
 * reachability bitmaps to DIR/reach.gmdb, compressed in blocks with
 * checksums, atomically, in the background (core/dbwriter.h); the manifest
 * last, when the solve is complete (then reach.gmdb goes: the records say
 * which positions are reached). A later run of the same variant loads them
 * instead of recomputing, so an interrupted solve resumes from the tiers
 * already solved; a corrupt, truncated or foreign file is refused with
 * ERR_IO and a message saying what to do; a loaded tier is checked record
 * by record (check_tier).
 *
 * With N > 1 MPI ranks, rank R keeps its own directory DIR/rank-R-of-N
 * (its own lock; its own disk in production) holding its range of every
 * tier (header `first`, `records`) and its reach file, and rank 0 writes
 * DIR/manifest-of-N.txt listing every tier's ranges with their checksums;
 * a rerun with the same N resumes from them (slices of another rank count
 * are refused: check_rank_layout). When the solve is complete rank 0 also
 * writes DIR/manifest (core/dbstore.h), listing every slice: one process
 * reads the database through it (solvers/store.h).
 *
 * Time: O(records) to check a loaded tier; the writing overlaps the solve.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "core/mem.h"
#include "core/options.h"
#include "solvers/store.h"
#include "solvers/tier/internal.h"

/* The header a file of the database directory has (core/dbstore.h). */
static void file_info(const TierSolve *s, DbStoreKind kind, int tier, DbStoreInfo *info) {
    memset(info, 0, sizeof *info);
    info->kind = kind;
    snprintf(info->spec, sizeof info->spec, "%s", s->spec);
    info->count = s->gr.ntiers;
    info->index = tier;
    if (kind == DBSTORE_RECORDS) {
        info->width = s->width;
        info->winby = s->winby;
        info->records = s->gr.node[tier].size;
    } else {
        info->width = 8;
        info->records = tier_graph_words(&s->gr);
    }
}

ErrCode tier_files_start(TierSolve *s, const char *dir) {
    TierFiles *f = mem_calloc(1, sizeof *f, "the database directory", s->err);
    if (f == NULL) {
        return ERR_MEMORY;
    }
    f->dir = (DbDir){.fd = -1, .lock_fd = -1};
    f->writing_tier = -1;
    f->work_dir = dir;
    s->files = f;
    /* a database of another rank count is refused (agreed with the next
     * step's outcome) */
    return dbranks_check_layout(dir, dist_size(), s->err);
}

/* N ranks: each its own directory in DIR (its own lock), which may be on
 * its own machine's disk; rank 0's manifest in DIR. */
ErrCode tier_files_ranks(TierSolve *s) {
    TierFiles *f = s->files;
    if (f == NULL || dist_size() == 1) {
        return ERR_OK;
    }
    int n = dist_size();
    f->top_dir = f->work_dir;
    dbranks_rank_dir(f->top_dir, dist_rank(), n, f->rank_dir, sizeof f->rank_dir);
    f->work_dir = f->rank_dir;
    f->first = mem_calloc((size_t)n + 1, sizeof *f->first, "the manifest", s->err);
    f->sums = mem_calloc(3 * (size_t)n, sizeof *f->sums, "the manifest", s->err);
    f->sum_bounds = mem_calloc((size_t)n + 1, sizeof *f->sum_bounds, "the manifest", s->err);
    return f->first != NULL && f->sums != NULL && f->sum_bounds != NULL ? ERR_OK : ERR_MEMORY;
}

/* Opens and locks the database directory, refuses one holding another
 * variant's database, and checks the free space for what remains to be
 * written: the raw size of the tiers not yet on disk (and of the bitmaps
 * when they are not), an upper bound (compression makes it several times
 * smaller, docs/database.md); tier:blocks checks its bitmaps and the fixed
 * part of its files here, and its projected records after the forward
 * pass (blocks.c tier_blocks_disk_check). */
ErrCode tier_files_open(TierSolve *s) {
    TierFiles *f = s->files;
    if (f == NULL) {
        return ERR_OK;
    }
    /* N ranks: DIR/rank-R-of-N, never through a link (core/dbranks.h) */
    ErrCode rc = f->top_dir != NULL
                     ? dbranks_open_rank(f->top_dir, dist_rank(), dist_size(), &f->dir, s->err)
                     : dbstore_dir_open(f->work_dir, true, &f->dir, s->err);
    if (rc == ERR_OK) {
        rc = dbstore_lock(&f->dir, s->err);
    }
    if (rc != ERR_OK) {
        return rc;
    }
    DbManifest m;
    bool found = false;
    rc = dbstore_manifest_read(&f->dir, &m, &found, s->err);
    if (rc != ERR_OK) {
        return rc;
    }
    if (found && strcmp(m.spec, s->spec) != 0) {
        rc = error_set(s->err, ERR_IO,
                       "%s holds the database of another game variant (%s, not %s); use another "
                       "--db",
                       f->work_dir, m.spec, s->spec);
    }
    dbstore_manifest_free(&m);
    if (rc != ERR_OK) {
        return rc;
    }
    dbstore_clean_tmp(&f->dir); /* the directory accepted: interrupted writers' temporary files */
    uint64_t left = 0;
    bool all_tiers = true;
    for (int t = 0; t < s->gr.ntiers && s->blocks == NULL; t++) {
        char name[DBSTORE_NAME_MAX];
        store_tier_name(t, name, sizeof name);
        if (!dbstore_exists(&f->dir, name)) {
            left += db_bytes(s->gr.node[t].size, s->width, s->winby) + DBSTORE_HEADER_BYTES;
            all_tiers = false;
        }
    }
    if (s->blocks != NULL) { /* tier:blocks: its bitmaps and its parts' headers (blocks.c) */
        return tier_files_fit(s, tier_blocks_disk_left(s, false),
                              "the forward pass's bitmaps and the part files' headers and "
                              "block indexes");
    }
    if (!all_tiers && !dbstore_exists(&f->dir, "reach.gmdb")) {
        left += tier_graph_words(&s->gr) * 8 + DBSTORE_HEADER_BYTES;
    }
    return tier_files_fit(s, left, "the tiers still to write");
}

ErrCode tier_files_fit(TierSolve *s, uint64_t need, const char *what) {
    TierFiles *f = s->files;
    struct statvfs vfs;
    if (fstatvfs(f->dir.fd, &vfs) != 0) {
        return error_set(s->err, ERR_IO, "cannot use the database directory %s: %s", f->work_dir,
                         strerror(errno));
    }
    uint64_t free_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
    /* Tests: GAMESMAN_TIER_FREE_DISK=BYTES stands for the free space, so the
     * refusal is tested without filling a disk (tests/cli.sh). */
    int64_t fake = -1;
    ErrCode rc =
        env_int64("GAMESMAN_TIER_FREE_DISK", 0, INT64_MAX, "a number of bytes", &fake, s->err);
    if (rc != ERR_OK) {
        return rc;
    }
    if (fake >= 0) {
        free_bytes = (uint64_t)fake;
    }
    if (need > free_bytes) {
        char a[32], b[32];
        return error_set(s->err, ERR_IO,
                         "%s need up to %s in %s, which has %s free; free some space or use "
                         "another --db",
                         what, mem_format(need, a, sizeof a), f->work_dir,
                         mem_format(free_bytes, b, sizeof b));
    }
    return ERR_OK;
}

/* The writer compresses only between the solve's parallel loops
 * (tier_walk pauses it) and when the solve waits for it
 * (docs/database.md). */
ErrCode tier_files_writer(TierSolve *s) {
    TierFiles *f = s->files;
    if (f == NULL || f->dir.fd < 0) {
        return ERR_OK;
    }
    return dbwriter_start(&f->dir, s->threads, &f->writer, s->err);
}

void tier_files_stop(TierSolve *s) {
    TierFiles *f = s->files;
    if (f != NULL) {
        dbwriter_stop(f->writer); /* before the buffers it may be reading go */
        f->writer = NULL;
        f->writing_tier = -1;
    }
}

void tier_files_close(TierSolve *s) {
    TierFiles *f = s->files;
    if (f == NULL) {
        return;
    }
    if (f->ranks != NULL) {
        dbranks_free(f->ranks);
        free(f->ranks);
    }
    free(f->first);
    free(f->sums);
    free(f->sum_bounds);
    dbstore_dir_close(&f->dir);
    free(f);
    s->files = NULL;
}

/* Before tier t's records go: the writer may still compress them. */
void tier_files_release(TierSolve *s, int t) {
    TierFiles *f = s->files;
    if (f != NULL && t == f->writing_tier) {
        (void)dbwriter_wait(f->writer, NULL); /* its error comes back at the next wait */
        f->writing_tier = -1;
    }
}

bool tier_files_has(const TierSolve *s, int t) {
    if (s->files == NULL) {
        return false;
    }
    char name[DBSTORE_NAME_MAX], path[4096 + DBSTORE_NAME_MAX];
    store_tier_name(t, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", s->files->work_dir, name);
    struct stat st;
    return stat(path, &st) == 0;
}

/* Why record j of v, a slot of a solved tier file whose position is
 * `reached` or not, cannot be there, or NULL when it can: a record exactly
 * where a position is reached, each a final value the game can have
 * (check_tier below, and tier:blocks' parts, blocks.c). */
const char *tier_record_fault(const TierSolve *s, const Database *v, uint64_t j, bool reached) {
    uint32_t raw = db_peek(v, j);
    if (!reached) {
        bool any = raw != DB_UNREACHED || (v->winby != NULL && v->winby[j] != 0);
        return any ? "a record for a position that is not reachable" : NULL;
    }
    if (raw == DB_UNREACHED) {
        return "no record for a reachable position";
    }
    if (!db_raw_solved(v, raw)) {
        return "an undecided record";
    }
    if (raw == DB_DRAW && !s->g->loopy) {
        return "a draw, in a game that cannot draw";
    }
    if (s->g->max_depth != 0 && db_raw_remoteness(v, raw) > s->g->max_depth) {
        return "a remoteness longer than the game";
    }
    return NULL;
}

/* The refusal of file `name` for record `i` (a tier's local index). */
ErrCode tier_record_refuse(TierSolve *s, const char *name, uint64_t i, const char *why) {
    return error_set(s->err, ERR_IO,
                     "%s/%s holds impossible records (index %" PRIu64
                     ": %s); remove it (it will be solved again) or use another --db",
                     s->files->work_dir, name, i, why);
}

/* A loaded tier file is trusted only as far as it can be checked (issue 10,
 * items 2 and 3): a record exactly where the bitmaps say a position is
 * reached, every such record a final value the game can have (no
 * undecided record, no draw in a game without cycles, no remoteness longer
 * than the game), and no score for an unreached position. O(size).
 * tier:sector, a tier loaded from --db (`held`): its bitmap (zero until
 * now, tier_sector_reach skips it) is set here from where its records are.
 * Testing its every slot for legal and canonical, as for a tier to solve,
 * took a third of a nine men's placement tier's run (its two child
 * sectors have about three times its slots); the file's checksums are
 * checked all the same, and so is every record's value. */
static ErrCode check_tier(TierSolve *s, int tier, const char *name, uint64_t lo, uint64_t hi) {
    TierInfo *ti = &s->t[tier];
    const Database *v = &ti->vals;
    for (uint64_t i = lo; i < hi; i++) {
        uint32_t raw = db_peek(v, i - ti->slo);
        if (ti->held) {
            ti->reach[i / 64] |= (uint64_t)db_raw_reached(raw) << (i % 64);
        }
        bool reached = (ti->reach[i / 64] >> (i % 64)) & 1;
        const char *why = tier_record_fault(s, v, i - ti->slo, reached);
        if (why != NULL) {
            return tier_record_refuse(s, name, i, why);
        }
    }
    if (ti->held) {
        ti->reached = tier_popcount(ti->reach, tier_words(s->gr.node[tier].size));
        s->total_reached += ti->reached;
    }
    return ERR_OK;
}

/* The loaded bitmaps, likewise: no bit past the end of a tier (they would
 * index past its arrays) and the initial position reached. */
static ErrCode check_reach(TierSolve *s) {
    for (int t = 0; t < s->gr.ntiers; t++) {
        uint64_t size = s->gr.node[t].size;
        if (size % 64 != 0 && (s->t[t].reach[size / 64] >> (size % 64)) != 0) {
            return error_set(s->err, ERR_IO,
                             "%s/reach.gmdb holds impossible bitmaps (bits past the end of tier "
                             "%d); remove it (it will be computed again) or use another --db",
                             s->files->work_dir, t);
        }
    }
    uint64_t r = s->gr.root_index;
    if (!((s->t[s->gr.root_tier].reach[r / 64] >> (r % 64)) & 1)) {
        return error_set(s->err, ERR_IO,
                         "%s/reach.gmdb holds impossible bitmaps (the initial position is not "
                         "reached); remove it (it will be computed again) or use another --db",
                         s->files->work_dir);
    }
    return ERR_OK;
}

/* The bitmaps of a complete database, whose reach file is gone (the records
 * say which positions are reached): from every record file the directory's
 * manifest lists (a file per tier, or, as tier:blocks writes them, a tier
 * in parts: header `first` and `records`), when it says the database is
 * complete; *found stays false otherwise. Each tier is read again by the
 * backward pass (and checked then). */
static ErrCode reach_from_tiers(TierSolve *s, bool *found) {
    TierFiles *f = s->files;
    DbManifest m;
    bool have = false;
    ErrCode rc = dbstore_manifest_read(&f->dir, &m, &have, s->err);
    if (rc != ERR_OK || !have) {
        return rc;
    }
    bool complete = m.complete && strcmp(m.layout, "tiers") == 0;
    /* the records each tier's files cover: the whole tier, in the end */
    uint64_t *covered = mem_calloc((size_t)s->gr.ntiers, sizeof *covered, "the bitmaps", s->err);
    if (covered == NULL) {
        dbstore_manifest_free(&m);
        return ERR_MEMORY;
    }
    for (int k = 0; k < m.nfiles && complete && rc == ERR_OK; k++) {
        const DbManifestFile *mf = &m.files[k];
        int t = mf->index;
        if (t < 0 || t >= s->gr.ntiers || mf->first > s->gr.node[t].size ||
            mf->records > s->gr.node[t].size - mf->first) {
            rc = error_set(s->err, ERR_IO,
                           "%s/manifest lists %s outside the tiers of %s; remove the manifest "
                           "(the tiers will be solved again) or use another --db",
                           f->work_dir, mf->name, s->spec);
            break;
        }
        TierInfo *ti = &s->t[t];
        covered[t] += mf->records;
        Database v;
        rc = db_create(&v, mf->records, s->width, s->winby, s->err);
        if (rc != ERR_OK) {
            break;
        }
        DbStoreInfo info;
        bool here = false;
        file_info(s, DBSTORE_RECORDS, t, &info);
        info.records = mf->records;
        info.first = mf->first;
        rc = dbstore_read(&f->dir, mf->name, &info, v.r8 != NULL ? (void *)v.r8 : (void *)v.r16,
                          v.winby, s->threads, &here, NULL, NULL, s->err);
        if (rc == ERR_OK && !here) {
            rc = error_set(s->err, ERR_IO,
                           "%s/%s is missing, though the manifest lists it; remove the "
                           "manifest (the tier will be solved again) or use another --db",
                           f->work_dir, mf->name);
        }
        for (uint64_t i = 0; i < mf->records && rc == ERR_OK; i++) {
            if (db_peek(&v, i) != DB_UNREACHED) {
                uint64_t j = mf->first + i;
                ti->reach[j / 64] |= UINT64_C(1) << (j % 64);
            }
        }
        db_destroy(&v);
    }
    for (int t = 0; t < s->gr.ntiers && complete && rc == ERR_OK; t++) {
        if (covered[t] != s->gr.node[t].size) {
            rc = error_set(s->err, ERR_IO,
                           "%s/manifest lists files that do not cover tier %d; remove the "
                           "manifest (the tiers will be solved again) or use another --db",
                           f->work_dir, t);
        }
    }
    free(covered);
    dbstore_manifest_free(&m);
    *found = complete && rc == ERR_OK;
    return rc;
}

ErrCode tier_files_load_reach(TierSolve *s, bool *found) {
    *found = false;
    if (s->files == NULL) {
        return ERR_OK;
    }
    DbStoreInfo info;
    file_info(s, DBSTORE_REACH, -1, &info);
    ErrCode rc = dbstore_read(&s->files->dir, "reach.gmdb", &info, s->reach_block, NULL, s->threads,
                              found, NULL, NULL, s->err);
    if (rc == ERR_OK && !*found) {
        rc = reach_from_tiers(s, found);
    }
    if (rc == ERR_OK && *found) {
        rc = check_reach(s);
    }
    return rc;
}

/* In the background: the block lives to the end of the solve. */
ErrCode tier_files_save_reach(TierSolve *s) {
    if (s->files == NULL) {
        return ERR_OK;
    }
    DbStoreInfo info;
    file_info(s, DBSTORE_REACH, -1, &info);
    return dbwriter_submit(s->files->writer, "reach.gmdb", &info, s->reach_block, NULL, NULL, NULL,
                           s->err);
}

/* This rank's file of tier t: its name, its header and its records
 * [*lo, *hi). With N > 1 ranks the header is narrowed to the rank's range
 * of the tier: its `first` is the range's first record and `records` its
 * length, so a file of another range is refused. With one rank, the whole
 * tier. */
typedef struct TierFile {
    char name[DBSTORE_NAME_MAX];
    DbStoreInfo info;
    uint64_t lo, hi;
} TierFile;

static void tier_file(const TierSolve *s, int t, TierFile *f) {
    file_info(s, DBSTORE_RECORDS, t, &f->info);
    store_tier_name(t, f->name, sizeof f->name);
    f->lo = tier_dist_record(s, t, dist_rank());
    f->hi = tier_dist_record(s, t, dist_rank() + 1);
    if (dist_size() > 1) {
        f->info.first = f->lo;
        f->info.records = f->hi - f->lo;
    }
}

ErrCode tier_files_load(TierSolve *s, int t, bool *found) {
    *found = false;
    if (s->files == NULL) {
        return ERR_OK;
    }
    TierInfo *ti = &s->t[t];
    TierFile f;
    tier_file(s, t, &f);
    ErrCode rc = dbstore_read(&s->files->dir, f.name, &f.info, tier_records_at(ti, f.lo),
                              tier_winby_at(ti, f.lo), s->threads, found, &ti->file_sum,
                              &ti->file_bytes, s->err);
    if (rc == ERR_OK && ti->held && !*found) {
        rc = error_set(s->err, ERR_IO, "%s/%s was there when the run began and is gone; run again",
                       s->files->work_dir, f.name);
    }
    if (rc == ERR_OK && *found) {
        rc = check_tier(s, t, f.name, f.lo, f.hi);
    }
    return rc;
}

/* Written while the next tier is solved (tier_files_release waits for it);
 * N ranks need its checksum now (tier_files_ranks_tier). */
ErrCode tier_files_submit(TierSolve *s, int t) {
    TierFiles *fs = s->files;
    if (fs == NULL) {
        return ERR_OK;
    }
    TierInfo *ti = &s->t[t];
    TierFile f;
    tier_file(s, t, &f);
    ErrCode rc = dbwriter_submit(fs->writer, f.name, &f.info, tier_records_at(ti, f.lo),
                                 tier_winby_at(ti, f.lo), &ti->file_sum, &ti->file_bytes, s->err);
    fs->writing_tier = t;
    ti->written = true;
    if (rc == ERR_OK && dist_size() > 1) {
        rc = dbwriter_wait(fs->writer, s->err);
    }
    return rc;
}

/* With --work-dir and N > 1 ranks, rank 0 writes DIR/manifest-of-N.txt: the
 * variant, then per tier and rank the records of the rank's range, the
 * payload checksum of its file and the file's name (kept in memory while
 * solving, written when every tier is solved); and, when every tier is
 * solved, DIR/manifest (core/dbstore.h: the counts, the root's value and
 * every slice file, rank-R-of-N/tier-NNNN.gmdb, with its range, size and
 * header checksum), which solvers/store.h reads: a single process answers
 * --query, --analyze and --verify from DIR once the rank directories are
 * gathered in it. A previous run's DIR/manifest is removed first (the
 * database is not complete while this solve runs). Both through
 * core/dbranks.h. */
ErrCode tier_files_ranks_open(TierSolve *s) {
    TierFiles *f = s->files;
    if (f == NULL || dist_size() == 1 || dist_rank() != 0) {
        return ERR_OK;
    }
    f->ranks = mem_calloc(1, sizeof *f->ranks, "the manifest", s->err);
    if (f->ranks == NULL) {
        return ERR_MEMORY;
    }
    return dbranks_begin(f->ranks, f->top_dir, dist_size(), s->spec, s->gr.ntiers, s->err);
}

/* With --work-dir and N > 1 ranks: the ranks' file header checksums and
 * record checksums of their ranges of tier t go to every rank (a tiny
 * allgather), and rank 0 lists the tier's slices in its manifest. */
ErrCode tier_files_ranks_tier(TierSolve *s, int t) {
    TierFiles *f = s->files;
    if (f == NULL || s->dist == NULL) {
        return ERR_OK;
    }
    int n = dist_size(), me = dist_rank();
    uint64_t *sums = f->sums;
    for (int r = 0; r <= n; r++) {
        f->sum_bounds[r] = (uint64_t)r * 3 * sizeof *sums;
        f->first[r] = tier_dist_record(s, t, r);
    }
    sums[3 * me] = s->t[t].file_sum;
    sums[3 * me + 1] = tier_range_checksum(&s->t[t], f->first[me], f->first[me + 1]);
    sums[3 * me + 2] = s->t[t].file_bytes;
    dist_share_ranges(sums, f->sum_bounds, (uint64_t)n * 3 * sizeof *sums);
    ErrCode rc = f->ranks != NULL ? dbranks_tier(f->ranks, t, f->first, sums, s->err) : ERR_OK;
    return dist_agree(rc, s->err); /* rank 0 out of memory ends every rank */
}

/* The N-rank manifest and DIR/manifest (rank 0), then, the database
 * complete, every rank's reach.gmdb goes, as in one process (the records
 * say which positions are reached; a rerun walks the forward pass again). */
static ErrCode ranks_close(TierSolve *s, const DbSummary *sum) {
    TierFiles *f = s->files;
    ErrCode rc = ERR_OK;
    if (f->ranks != NULL) {
        DbManifest m;
        store_manifest_fill(&m, s->g, "tier", "tiers", sum, s->res->root, s->winby,
                            s->res->root_winby);
        rc = dbranks_commit(f->ranks, &m, s->err);
    }
    rc = dist_agree(rc, s->err);
    if (rc == ERR_OK) {
        dbstore_remove(&f->dir, "reach.gmdb");
    }
    return rc;
}

/* A finished solve: the manifest (the database is complete), then the
 * reach file goes (the records say which positions are reached). */
static ErrCode finish_dir(TierSolve *s, const DbSummary *sum) {
    DbManifest m;
    store_manifest_fill(&m, s->g, "tier", "tiers", sum, s->res->root, s->winby, s->res->root_winby);
    m.nfiles = s->gr.ntiers;
    m.files = mem_calloc((size_t)s->gr.ntiers, sizeof *m.files, "the manifest", s->err);
    if (m.files == NULL) {
        return ERR_MEMORY;
    }
    for (int t = 0; t < s->gr.ntiers; t++) {
        DbManifestFile *f = &m.files[t];
        store_tier_name(t, f->name, sizeof f->name);
        f->index = t;
        f->records = s->gr.node[t].size;
        f->bytes = s->t[t].file_bytes;
        f->header_sum = s->t[t].file_sum;
    }
    ErrCode rc = store_manifest_commit(&s->files->dir, &m, s->err);
    dbstore_manifest_free(&m);
    if (rc == ERR_OK) {
        dbstore_remove(&s->files->dir, "reach.gmdb");
        s->res->saved_db = true;
    }
    return rc;
}

ErrCode tier_files_drain(TierSolve *s) {
    TierFiles *f = s->files;
    if (f == NULL || f->writer == NULL) {
        return ERR_OK;
    }
    ErrCode rc = dbwriter_wait(f->writer, s->err);
    f->writing_tier = -1;
    f->write_seconds = dbwriter_busy_seconds(f->writer);
    f->write_wait_seconds = dbwriter_wait_seconds(f->writer);
    for (int t = 0; t < s->gr.ntiers; t++) {
        f->bytes_written += s->t[t].written ? (double)s->t[t].file_bytes : 0;
    }
    return rc;
}

ErrCode tier_files_finish(TierSolve *s, const DbSummary *sum) {
    ErrCode rc = ERR_OK;
    if (s->files != NULL && dist_size() == 1) {
        if (s->blocks != NULL) {
            rc = tier_blocks_finish_dir(s, sum); /* the parts of every tier */
        } else if (s->sector == NULL) {
            rc = finish_dir(s, sum);
        } else {
            /* tier:sector: the tier files are the saved database; the
             * manifest lists every tier on disk and calls it partial. */
            rc = store_manifest_partial(&s->files->dir, s->g, "tier", s->err);
            s->res->saved_db = rc == ERR_OK;
        }
    }
    if (rc == ERR_OK && dist_size() > 1) {
        rc = s->files != NULL ? ranks_close(s, sum) : dist_agree(rc, s->err);
        /* N ranks: the slices and the manifest are the saved database */
        s->res->saved_db = rc == ERR_OK && s->files != NULL;
    } else if (rc == ERR_OK) {
        rc = dist_agree(rc, s->err);
    }
    return rc;
}

void tier_files_report(const TierSolve *s) {
    if (s->files != NULL) {
        solve_result_extra(s->res, "db_write_seconds", s->files->write_seconds);
        solve_result_extra(s->res, "db_write_wait_seconds", s->files->write_wait_seconds);
        solve_result_extra(s->res, "db_tier_bytes", s->files->bytes_written);
    }
}
