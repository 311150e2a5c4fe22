/* solvers/store.c: a game's database on disk (solvers/store.h), all but
 * its verification (solvers/store_verify.c): saving a solve's in-memory
 * database (slots layout) and the manifests every layout gets; opening a
 * database (its manifest against the game, a tier's files or N-rank
 * slices grouped by tier); reading a record (one block through a
 * direct-mapped cache of STORE_CACHE_BLOCKS blocks); a tier or a file read
 * whole; the counts streamed block by block (store_analyze). Memory: the
 * manifest, the opened files' block indexes and the cache.
 */
#include "solvers/store.h"

#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/dbranks.h"
#include "core/mem.h"
#include "solvers/store_internal.h"
#include "solvers/symbolic_db.h"

void store_tier_name(int tier, char *buf, size_t n) { dbranks_tier_name(tier, buf, n); }

static void slots_name(int k, char *buf, size_t n) { snprintf(buf, n, "slots-%04d.gmdb", k); }

void store_manifest_fill(DbManifest *m, const Game *g, const char *solver, const char *layout,
                         const DbSummary *sum, Outcome root, bool has_winby, WinBy root_winby) {
    memset(m, 0, sizeof *m);
    m->version = DBSTORE_VERSION;
    game_spec(g, m->spec, sizeof m->spec);
    snprintf(m->solver, sizeof m->solver, "%s", solver);
    snprintf(m->layout, sizeof m->layout, "%s", layout);
    m->hash_space = g->num_positions;
    m->width = db_width_for(g->max_depth);
    m->winby = g->has_winby;
    m->loopy = g->loopy;
    m->positions = sum->positions;
    for (int v = 0; v < 5; v++) {
        m->count[v] = sum->count[v];
    }
    m->max_remoteness = sum->max_remoteness;
    snprintf(m->root_value, sizeof m->root_value, "%s", value_name(root.value));
    m->root_remoteness = root.remoteness;
    m->root_winby = has_winby ? root_winby : 0;
    snprintf(m->build, sizeof m->build, "%s", dbstore_build());
    m->complete = true;
}

ErrCode store_manifest_commit(DbDir *d, DbManifest *m, Error *err) {
    DbManifest old;
    bool found = false;
    Error ignored;
    if (dbstore_manifest_read(d, &old, &found, &ignored) != ERR_OK) {
        found = false;
    }
    m->complete = true;
    ErrCode rc = dbstore_manifest_write(d, m, err);
    for (int i = 0; rc == ERR_OK && found && i < old.nfiles; i++) {
        bool kept = false;
        for (int k = 0; k < m->nfiles && !kept; k++) {
            kept = strcmp(old.files[i].name, m->files[k].name) == 0;
        }
        if (!kept) {
            dbstore_remove(d, old.files[i].name);
        }
    }
    if (found) {
        dbstore_manifest_free(&old);
    }
    return rc;
}

ErrCode store_manifest_partial(DbDir *d, const Game *g, const char *solver, Error *err) {
    int n = g->tiers->count(g);
    DbManifest m;
    DbSummary none = {0};
    store_manifest_fill(&m, g, solver, "tiers", &none, (Outcome){VALUE_UNDECIDED, 0}, false, 0);
    m.complete = false;
    m.partial = true;
    m.files = calloc((size_t)n + 1, sizeof *m.files);
    if (m.files == NULL) {
        return error_set(err, ERR_MEMORY, "cannot allocate the manifest");
    }
    ErrCode rc = ERR_OK;
    for (int t = 0; t < n && rc == ERR_OK; t++) {
        DbManifestFile *f = &m.files[m.nfiles];
        store_tier_name(t, f->name, sizeof f->name);
        if (!dbstore_exists(d, f->name)) {
            continue;
        }
        DbStoreInfo info = {.kind = DBSTORE_RECORDS,
                            .index = t,
                            .count = n,
                            .width = m.width,
                            .winby = m.winby,
                            .records = g->tiers->size(g, t)};
        snprintf(info.spec, sizeof info.spec, "%s", m.spec);
        DbStoreFile file;
        rc = dbstore_file_open(d, f->name, &info, &file, err);
        if (rc == ERR_OK) {
            f->index = t;
            f->records = info.records;
            f->bytes = file.file_bytes;
            f->header_sum = file.header_sum;
            m.nfiles++;
            dbstore_file_close(&file);
        }
    }
    if (rc == ERR_OK) {
        rc = dbstore_manifest_write(d, &m, err);
    }
    dbstore_manifest_free(&m);
    return rc;
}

static uint64_t slot_files(uint64_t hash_space) {
    return (hash_space + STORE_SLOTS_PER_FILE - 1) / STORE_SLOTS_PER_FILE;
}

ErrCode store_save(const Game *g, const char *solver, const SolveResult *res, const DbSummary *sum,
                   const char *dir, int threads, Error *err) {
    DbDir d;
    ErrCode rc = dbstore_dir_open(dir, true, &d, err);
    if (rc == ERR_OK) {
        rc = dbstore_lock(&d, err);
    }
    DbManifest m;
    store_manifest_fill(&m, g, solver, "slots", sum, res->root, res->has_winby, res->root_winby);
    if (rc == ERR_OK) {
        DbManifest old;
        bool found = false;
        rc = dbstore_manifest_read(&d, &old, &found, err);
        if (rc == ERR_OK && found && strcmp(old.spec, m.spec) != 0) {
            rc = error_set(err, ERR_IO,
                           "%s holds the database of another game variant (%s, not %s); use "
                           "another --db",
                           dir, old.spec, m.spec);
        }
        if (found) {
            dbstore_manifest_free(&old); /* refused too (a failed read freed it already) */
        }
        if (rc == ERR_OK) {
            dbstore_clean_tmp(&d); /* the directory accepted */
        }
    }
    uint64_t nfiles = slot_files(g->num_positions);
    if (rc == ERR_OK) {
        m.nfiles = (int)nfiles;
        m.files = mem_calloc((size_t)nfiles, sizeof *m.files, "the manifest", err);
        rc = m.files != NULL ? ERR_OK : ERR_MEMORY;
    }
    const Database *db = &res->db;
    for (uint64_t k = 0; k < nfiles && rc == ERR_OK; k++) {
        DbManifestFile *f = &m.files[k];
        uint64_t first = k * STORE_SLOTS_PER_FILE;
        uint64_t n = g->num_positions - first < STORE_SLOTS_PER_FILE ? g->num_positions - first
                                                                     : STORE_SLOTS_PER_FILE;
        DbStoreInfo info = {.kind = DBSTORE_RECORDS,
                            .index = (int32_t)k,
                            .count = (int32_t)nfiles,
                            .width = db->width,
                            .winby = db->winby != NULL,
                            .records = n,
                            .first = first};
        snprintf(info.spec, sizeof info.spec, "%s", m.spec);
        slots_name((int)k, f->name, sizeof f->name);
        f->index = (int32_t)k;
        f->records = n;
        f->first = first;
        const void *rec =
            db->width == 1 ? (const void *)(db->r8 + first) : (const void *)(db->r16 + first);
        rc = dbstore_write(&d, f->name, &info, rec, db->winby ? db->winby + first : NULL, threads,
                           &f->header_sum, &f->bytes, err);
    }
    if (rc == ERR_OK) {
        rc = store_manifest_commit(&d, &m, err);
    }
    dbstore_manifest_free(&m);
    dbstore_dir_close(&d);
    return rc;
}

/* ------------------------------------------------------------- reading */

/* Tiers layout: the manifest's files grouped by tier (st->tier_file: tier
 * t's files are [tier_file[t], tier_file[t + 1])). Either one file per tier
 * holding all its records (a single-process solve), or, as an N-rank solve
 * writes them (docs/mpi.md), each tier's slices in order of `first`, each
 * starting where the previous ended, together exactly the tier (a slice
 * may be empty). A partial database may have tiers without files (not
 * there). Anything else is ERR_IO (the caller's message). O(files). */
static ErrCode tier_slices(Store *st, Error *err) {
    const Game *g = st->g;
    const DbManifest *m = &st->m;
    int n = g->tiers->count(g);
    st->ntiers = n;
    st->tier_file = calloc((size_t)n + 1, sizeof *st->tier_file);
    st->tier_size = calloc((size_t)n + 1, sizeof *st->tier_size);
    if (st->tier_file == NULL || st->tier_size == NULL) {
        return error_set(err, ERR_MEMORY, "cannot allocate the database reader");
    }
    int k = 0;
    for (int t = 0; t < n; t++) {
        st->tier_size[t] = g->tiers->size(g, t);
        st->tier_file[t] = k;
        uint64_t next = 0;
        int start = k;
        while (k < m->nfiles && m->files[k].index == t && m->files[k].first == next &&
               m->files[k].records <= st->tier_size[t] - next) {
            next += m->files[k++].records;
        }
        if ((k == start && !m->partial) || (k > start && next != st->tier_size[t])) {
            return ERR_IO;
        }
        st->tiers_present += k > start;
    }
    st->tier_file[n] = k;
    return k == m->nfiles ? ERR_OK : ERR_IO;
}

/* Tier t's records, read whole from its file or assembled from its slices. */
ErrCode store_load_tier(Store *st, int t, int threads, Database *v, Error *err) {
    int k0 = st->tier_file[t], k1 = st->tier_file[t + 1];
    if (k1 - k0 == 1) {
        return store_load_file(st, k0, threads, v, err);
    }
    ErrCode rc = db_create(v, st->tier_size[t], st->m.width, st->m.winby, err);
    bool made = rc == ERR_OK;
    for (int k = k0; k < k1 && rc == ERR_OK; k++) {
        Database part;
        rc = store_load_file(st, k, threads, &part, err);
        if (rc == ERR_OK) {
            uint64_t first = st->m.files[k].first;
            memcpy(v->width == 1 ? (void *)(v->r8 + first) : (void *)(v->r16 + first),
                   part.width == 1 ? (void *)part.r8 : (void *)part.r16, part.size * part.width);
            if (part.winby != NULL) {
                memcpy(v->winby + first, part.winby, part.size * 2);
            }
            db_destroy(&part);
        }
    }
    if (rc != ERR_OK && made) {
        db_destroy(v);
    }
    return rc;
}

/* Descriptors the store may keep open: the soft limit of open files is
 * raised toward one a file and STORE_FD_SPARE more (as far as the hard
 * limit allows); the spare ones are left to the rest of the process (the
 * standard streams, the directory and its lock, a solver's own files). */
#define STORE_FD_SPARE 64
static int fd_cap(int nfiles) {
    uint64_t want = (uint64_t)nfiles + STORE_FD_SPARE;
    uint64_t lim = dbstore_files_limit(want);
    if (lim == 0) {
        return 16;
    }
    if (lim >= want) {
        return nfiles > 0 ? nfiles : 1;
    }
    uint64_t cap = lim > 2 * STORE_FD_SPARE ? lim - STORE_FD_SPARE : lim / 2;
    return cap > 0 ? (int)cap : 1;
}

ErrCode store_open(const Game *g, const char *dir, Store *st, Error *err) {
    memset(st, 0, sizeof *st);
    st->g = g;
    st->dir.fd = st->dir.lock_fd = -1;
    ErrCode rc = dbstore_dir_open(dir, false, &st->dir, err);
    bool found = false;
    if (rc == ERR_OK) {
        rc = dbstore_manifest_read(&st->dir, &st->m, &found, err);
    }
    char spec[DBSTORE_SPEC_MAX];
    game_spec(g, spec, sizeof spec);
    const DbManifest *m = &st->m;
    if (rc == ERR_OK && !found) {
        rc = error_set(err, ERR_IO,
                       "%s holds no complete database (no manifest: a solve not finished or "
                       "not started); solve with --solver S --db %s first",
                       dir, dir);
    } else if (rc == ERR_OK && !m->complete && !(m->partial && strcmp(m->layout, "tiers") == 0)) {
        rc = error_set(err, ERR_IO, "%s/manifest says the database is not complete; solve again",
                       dir);
    } else if (rc == ERR_OK && strcmp(m->spec, spec) != 0) {
        rc = error_set(err, ERR_IO,
                       "%s holds the database of %s, not %s; give that variant or another --db",
                       dir, m->spec, spec);
    }
    /* The symbolic solver's BDDs (solvers/symbolic_db.h): their own reader. */
    bool bdd = rc == ERR_OK && strcmp(m->layout, SYMDB_LAYOUT) == 0;
    if (bdd) {
        rc = symdb_open(g, &st->dir, m, &st->bdd, err);
    }
    if (rc == ERR_OK) {
        st->tiers = strcmp(m->layout, "tiers") == 0;
        bool layout_ok =
            bdd || (st->tiers ? g->tiers != NULL && (m->partial ? m->nfiles <= g->tiers->count(g)
                                                                : m->nfiles == g->tiers->count(g))
                              : strcmp(m->layout, "slots") == 0 &&
                                    (uint64_t)m->nfiles == slot_files(g->num_positions));
        if (!bdd && st->tiers && g->tiers != NULL) {
            /* one file per tier, or a tier in slices (an N-rank solve) */
            ErrCode lr = tier_slices(st, err);
            layout_ok = lr == ERR_OK;
            rc = lr == ERR_MEMORY ? lr : rc;
        }
        for (int k = 0; !bdd && !st->tiers && k < m->nfiles && layout_ok; k++) {
            const DbManifestFile *f = &m->files[k];
            uint64_t want =
                st->tiers
                    ? g->tiers->size(g, k)
                    : (g->num_positions - (uint64_t)k * STORE_SLOTS_PER_FILE < STORE_SLOTS_PER_FILE
                           ? g->num_positions - (uint64_t)k * STORE_SLOTS_PER_FILE
                           : STORE_SLOTS_PER_FILE);
            layout_ok = f->index == k && f->records == want &&
                        f->first == (st->tiers ? 0 : (uint64_t)k * STORE_SLOTS_PER_FILE);
        }
        if (rc == ERR_OK && (!layout_ok || m->hash_space != g->num_positions ||
                             m->width != db_width_for(g->max_depth) || m->winby != g->has_winby)) {
            rc = error_set(err, ERR_IO,
                           "%s/manifest does not describe a database of %s as this build lays "
                           "it out (another version of the game module?); " REMEDY,
                           dir, spec);
        }
    }
    if (rc == ERR_OK) {
        Database *f = &st->fmt;
        f->size = g->num_positions;
        f->width = m->width;
        f->shift = m->width == 1 ? 6 : 14;
        f->max_remoteness = m->width == 1 ? DB_MAX_REMOTENESS_8 : DB_MAX_REMOTENESS_16;
        st->nfiles = m->nfiles;
        st->files = calloc((size_t)st->nfiles + 1, sizeof *st->files);
        st->opened = calloc((size_t)st->nfiles + 1, sizeof *st->opened);
        if (!st->files || !st->opened) {
            rc = error_set(err, ERR_MEMORY, "cannot allocate the database reader");
        }
        if (rc == ERR_OK) {
            rc = store_reader_init(&st->rd, err);
        }
        st->fd_cap = fd_cap(st->nfiles);
    }
    if (rc != ERR_OK) {
        store_close(st);
    }
    return rc;
}

void store_close(Store *st) {
    symdb_close(st->bdd);
    for (int k = 0; k < st->nfiles && st->opened != NULL; k++) {
        if (st->opened[k]) {
            dbstore_file_close(&st->files[k]);
        }
    }
    store_reader_free(&st->rd);
    if (st->shared) {
        pthread_mutex_destroy(&st->lock);
    }
    free(st->busy);
    free(st->files);
    free(st->opened);
    free(st->tier_file);
    free(st->tier_size);
    dbstore_manifest_free(&st->m);
    dbstore_dir_close(&st->dir);
    memset(st, 0, sizeof *st);
    st->dir.fd = st->dir.lock_fd = -1;
}

static void expect_info(const Store *st, int k, DbStoreInfo *info) {
    const DbManifestFile *f = &st->m.files[k];
    memset(info, 0, sizeof *info);
    info->kind = DBSTORE_RECORDS;
    snprintf(info->spec, sizeof info->spec, "%s", st->m.spec);
    info->index = f->index; /* k, but for a tier in slices */
    info->count = st->tiers ? st->ntiers : st->nfiles;
    info->width = st->m.width;
    info->winby = st->m.winby;
    info->records = f->records;
    info->first = f->first;
}

/* Opens file k of the manifest into f (header, index; lean: see
 * dbstore_file_open_lean); checks it is the file the manifest lists. */
static ErrCode file_open_listed(const Store *st, int k, bool lean, DbStoreFile *f, Error *err) {
    DbStoreInfo info;
    expect_info(st, k, &info);
    ErrCode rc = lean ? dbstore_file_open_lean(&st->dir, st->m.files[k].name, &info, f, err)
                      : dbstore_file_open_mapped(&st->dir, st->m.files[k].name, &info, f, err);
    if (rc == ERR_OK &&
        (f->header_sum != st->m.files[k].header_sum || f->file_bytes != st->m.files[k].bytes)) {
        rc = error_set(err, ERR_IO,
                       "%s is not the file %s/manifest lists (another solve's? a mixture of two "
                       "databases); " REMEDY,
                       f->path, st->dir.path);
        dbstore_file_close(f);
    }
    return rc;
}

/* Opens file k (header, index; lean, or not) on first use, or its
 * descriptor again when it was suspended; first, at fd_cap descriptors,
 * suspends the next file after the clock hand that holds one. A file open
 * lean and wanted whole is closed and opened again. Not thread-safe (one
 * caller at a time: the queries, search's leaves, verify's checksum
 * pass). */
static ErrCode open_file(Store *st, int k, bool lean, Error *err) {
    if (st->opened[k] && st->files[k].lean && !lean) {
        store_close_file(st, k);
    }
    if (st->opened[k] && st->files[k].fd >= 0) {
        return ERR_OK;
    }
    /* at most one turn of the hand: fds counts the descriptors held (every
     * close goes through store_close_file or here), so a turn finds one */
    for (int turn = 0; st->fds >= st->fd_cap && st->fds > 0 && turn < st->nfiles; turn++) {
        st->fd_hand = (st->fd_hand + 1) % st->nfiles;
        if (st->opened[st->fd_hand] && st->files[st->fd_hand].fd >= 0 &&
            (st->busy == NULL || st->busy[st->fd_hand] == 0)) {
            dbstore_file_suspend(&st->files[st->fd_hand]);
            st->fds--;
        }
    }
    ErrCode rc = st->opened[k]
                     ? dbstore_file_resume(&st->dir, st->m.files[k].name, &st->files[k], err)
                     : file_open_listed(st, k, lean, &st->files[k], err);
    st->opened[k] = st->opened[k] || rc == ERR_OK;
    st->fds += rc == ERR_OK;
    return rc;
}

ErrCode store_open_file(Store *st, int k, Error *err) { return open_file(st, k, false, err); }

void store_close_file(Store *st, int k) {
    dbstore_dicts_drop(&st->rd.dicts, k);
    if (st->opened[k]) {
        st->fds -= st->files[k].fd >= 0;
        dbstore_file_close(&st->files[k]);
        st->opened[k] = false;
    }
}

/* The file and local index of position pos; *in is false for a position
 * in no tier (never reached: its record reads as unreached). */
static ErrCode locate_pos(const Store *st, Position pos, int *k, uint64_t *i, bool *in,
                          Error *err) {
    const Game *g = st->g;
    *in = true;
    if (pos >= g->num_positions) {
        return error_set(err, ERR_INTERNAL, "position %" PRIu64 " outside the hash space", pos);
    }
    if (!st->tiers) {
        *k = (int)(pos / STORE_SLOTS_PER_FILE);
        *i = pos % STORE_SLOTS_PER_FILE;
        return ERR_OK;
    }
    int t = g->tiers->tier_of(g, pos);
    if (t < 0 || t >= st->ntiers) {
        *in = false;
        return ERR_OK;
    }
    uint64_t size = st->tier_size[t];
    if (g->tiers->first != NULL) {
        *i = pos - g->tiers->first(g, t);
        *in = *i < size;
    } else {
        /* A hash slot outside the tiers' layout (e.g. illegal piece
         * counts) has no local index: the round trip says so. */
        *i = g->tiers->index_of(g, pos);
        *in = *i < size && g->tiers->position_at(g, t, *i) == pos;
    }
    int lo = st->tier_file[t], hi = st->tier_file[t + 1] - 1;
    if (*in && lo > hi) {
        char text[256], label[GAME_TIER_LABEL_MAX];
        g->ops->format(g, pos, text, sizeof text);
        return error_set(err, ERR_IO,
                         "'%s' is in tier %s, which %s does not hold (a partial database: only "
                         "the tiers solved so far; solve that tier with --solver tier:sector=%d "
                         "--db %s)",
                         text, game_tier_label(g, t, label, sizeof label), st->dir.path, t,
                         st->dir.path);
    }
    /* the tier's file, or its slice holding local index *i (binary search) */
    while (*in && lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (st->m.files[mid].first <= *i) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    *k = lo;
    *i -= *in ? st->m.files[lo].first : 0;
    return ERR_OK;
}

bool store_has_remoteness(const Store *st) { return st->bdd == NULL || symdb_remoteness(st->bdd); }

ErrCode store_reader_init(StoreReader *r, Error *err) {
    memset(r, 0, sizeof *r);
    r->cache = calloc(STORE_CACHE_BLOCKS, sizeof *r->cache);
    r->dctx = dbstore_dctx_new();
    r->dicts.slots = STORE_DDICTS;
    if (r->cache == NULL || r->dctx == NULL) {
        store_reader_free(r);
        return error_set(err, ERR_MEMORY, "cannot allocate the database reader");
    }
    for (int i = 0; i < STORE_CACHE_BLOCKS; i++) {
        r->cache[i].file = -1;
    }
    return ERR_OK;
}

void store_reader_free(StoreReader *r) {
    dbstore_dicts_free(&r->dicts);
    free(r->cache_mem);
    if (r->dctx != NULL) {
        dbstore_dctx_free(r->dctx);
    }
    free(r->cache);
    memset(r, 0, sizeof *r);
}

bool store_share(Store *st) {
    if (st->shared) {
        return true;
    }
    if (st->bdd != NULL || st->nfiles == 0) {
        return false;
    }
    st->busy = calloc((size_t)st->nfiles, sizeof *st->busy);
    if (st->busy == NULL || pthread_mutex_init(&st->lock, NULL) != 0) {
        free(st->busy);
        st->busy = NULL;
        return false;
    }
    st->shared = true;
    return true;
}

ErrCode store_get(Store *st, Position pos, uint32_t *raw, WinBy *winby, Error *err) {
    return store_read(st, &st->rd, pos, raw, winby, err);
}

/* Record i of open file k, through r's cache. */
static ErrCode read_record(Store *st, StoreReader *r, int k, uint64_t i, uint32_t *raw,
                           WinBy *winby, Error *err) {
    const DbStoreFile *f = &st->files[k];
    uint64_t b = i / f->block_records, j = i % f->block_records;
    uint64_t slot = ((uint64_t)k * UINT64_C(0x9E3779B97F4A7C15) + b) % STORE_CACHE_BLOCKS;
    StoreCacheEntry *e = &r->cache[slot];
    r->reads++;
    if (e->file != k || e->block != b) {
        r->misses++;
        if (r->cache_mem == NULL) {
            /* One slab on huge pages, on the first miss (a single query
             * touches a few of its pages). */
            uint64_t br = DBSTORE_BLOCK_BYTES / st->m.width;
            r->cache_entry = br * (st->m.width + (st->m.winby ? 2 : 0));
            r->cache_mem = mem_alloc_huge((size_t)(r->cache_entry * STORE_CACHE_BLOCKS));
            if (r->cache_mem == NULL) {
                return error_set(err, ERR_MEMORY, "cannot allocate the block cache");
            }
        }
        if (dbstore_block_bytes(f, b) > r->cache_entry) {
            return error_set(err, ERR_INTERNAL, "%s: a block larger than the cache's", f->path);
        }
        e->data = r->cache_mem + slot * r->cache_entry;
        e->file = -1;
        const void *ddict = NULL;
        ErrCode rc = dbstore_dicts_get(&r->dicts, f, k, &ddict, err);
        if (rc == ERR_OK) {
            rc = dbstore_block_read_dict(f, b, r->dctx, ddict, e->data, err);
        }
        if (rc != ERR_OK) {
            return rc;
        }
        e->file = k;
        e->block = b;
    }
    uint64_t n = dbstore_block_bytes(f, b) / (f->info.width + (f->info.winby ? 2 : 0));
    if (f->info.width == 1) {
        *raw = e->data[j];
    } else {
        uint16_t r16;
        memcpy(&r16, e->data + 2 * j, 2);
        *raw = r16;
    }
    *winby = 0;
    if (f->info.winby) {
        int16_t w;
        memcpy(&w, e->data + n * f->info.width + 2 * j, 2);
        *winby = w;
    }
    const char *why = *raw != DB_UNREACHED ? store_record_problem(st, *raw) : NULL;
    if (why != NULL) {
        return error_set(err, ERR_IO, "%s holds %s (record %" PRIu64 "); " REMEDY, f->path, why, i);
    }
    return ERR_OK;
}

ErrCode store_read(Store *st, StoreReader *r, Position pos, uint32_t *raw, WinBy *winby,
                   Error *err) {
    if (st->bdd != NULL) {
        *winby = 0;
        r->reads++;
        return symdb_get(st->bdd, &st->fmt, pos, raw, err);
    }
    int k = 0;
    uint64_t i = 0;
    bool in = true;
    ErrCode rc = locate_pos(st, pos, &k, &i, &in, err);
    if (rc == ERR_OK && !in) {
        *raw = DB_UNREACHED;
        *winby = 0;
        return ERR_OK;
    }
    if (rc != ERR_OK) {
        return rc;
    }
    if (st->shared) {
        pthread_mutex_lock(&st->lock);
    }
    rc = open_file(st, k, true, err);
    if (st->shared) {
        st->busy[k] += rc == ERR_OK;
        pthread_mutex_unlock(&st->lock);
    }
    if (rc != ERR_OK) {
        return rc;
    }
    rc = read_record(st, r, k, i, raw, winby, err);
    if (st->shared) {
        pthread_mutex_lock(&st->lock);
        st->busy[k]--;
        pthread_mutex_unlock(&st->lock);
    }
    return rc;
}

/* ------------------------------------------------------- whole files */

/* Reads file k whole into a new database of its records. */
ErrCode store_load_file(Store *st, int k, int threads, Database *v, Error *err) {
    const DbManifestFile *f = &st->m.files[k];
    ErrCode rc = db_create(v, f->records, st->m.width, st->m.winby, err);
    if (rc != ERR_OK) {
        return rc;
    }
    DbStoreInfo info;
    expect_info(st, k, &info);
    bool found = false;
    uint64_t sum = 0, bytes = 0;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", st->dir.path, f->name);
    rc = dbstore_read(&st->dir, f->name, &info, v->width == 1 ? (void *)v->r8 : (void *)v->r16,
                      v->winby, threads, &found, &sum, &bytes, err);
    if (rc == ERR_OK && !found) {
        rc = error_set(err, ERR_IO, "%s is missing, though the manifest lists it; " REMEDY, path);
    } else if (rc == ERR_OK && (sum != f->header_sum || bytes != f->bytes)) {
        rc = error_set(
            err, ERR_IO,
            "%s is not the file the manifest lists (a mixture of two databases); " REMEDY, path);
    }
    if (rc != ERR_OK) {
        db_destroy(v);
    }
    return rc;
}

bool store_tier_held(const Store *st, int t) {
    return !st->tiers || (t >= 0 && t < st->ntiers && st->tier_file[t] < st->tier_file[t + 1]);
}

ErrCode store_tier_load(Store *st, int t, int threads, Database *v, Error *err) {
    if (!st->tiers || !store_tier_held(st, t)) {
        return error_set(err, ERR_INTERNAL, "%s does not hold tier %d as a tier file", st->dir.path,
                         t);
    }
    return store_load_tier(st, t, threads, v, err);
}

/* A record the game can hold; NULL if fine, else why not. */
const char *store_record_problem(const Store *st, uint32_t raw) {
    const Database *f = &st->fmt;
    if (!db_raw_solved(f, raw)) {
        return "an undecided record";
    }
    if (raw == DB_DRAW && !st->g->loopy) {
        return "a draw, in a game that cannot draw";
    }
    if (st->g->max_depth != 0 && db_raw_remoteness(f, raw) > st->g->max_depth) {
        return "a remoteness longer than the game";
    }
    return NULL;
}

ErrCode store_summary_alloc(const Store *st, DbSummary *sum, Error *err) {
    memset(sum, 0, sizeof *sum);
    sum->by_remoteness = mem_calloc((size_t)st->fmt.max_remoteness + 1, sizeof *sum->by_remoteness,
                                    "the remoteness histogram", err);
    return sum->by_remoteness != NULL ? ERR_OK : ERR_MEMORY;
}

/* Adds n positions holding record raw. */
void store_summary_add_n(const Store *st, DbSummary *sum, uint32_t raw, uint64_t n) {
    Value v = db_raw_value(&st->fmt, raw);
    uint32_t r = db_raw_remoteness(&st->fmt, raw);
    sum->positions += n;
    sum->count[v] += n;
    if (r > sum->max_remoteness) {
        sum->max_remoteness = r;
    }
    sum->by_remoteness[r][v] += n;
}

ErrCode store_check_counts(const Store *st, const DbSummary *sum, Error *err) {
    const DbManifest *m = &st->m;
    if (sum->positions != m->positions || memcmp(sum->count + 1, m->count + 1, 4 * 8) != 0 ||
        sum->max_remoteness != m->max_remoteness) {
        return error_set(err, ERR_IO,
                         "%s: the records count %" PRIu64 " positions (%" PRIu64 " win, %" PRIu64
                         " lose, %" PRIu64 " tie, %" PRIu64 " draw), the manifest %" PRIu64
                         "; " REMEDY,
                         st->dir.path, sum->positions, sum->count[1], sum->count[2], sum->count[3],
                         sum->count[4], m->positions);
    }
    return ERR_OK;
}

/* One thread's share of store_analyze: its decompression context and
 * block buffer, the counts of each record value it has seen (1 << 16: a
 * record of one or two bytes), and the counts by tier. */
typedef struct AnalyzeShare {
    void *dctx;
    unsigned char *buf;
    size_t buf_bytes;
    uint64_t *hist;
    uint64_t (*by_tier)[VALUE_COUNT];
} AnalyzeShare;

/* An open file streamed into share a: every record's value counted, and its
 * tier's counts; ERR_IO naming the first record no solve writes. With one
 * byte a record, 8 records at a time (most are zero: unreached). */
static ErrCode analyze_records(Store *st, int tier, AnalyzeShare *a, const DbStoreFile *f,
                               Error *err) {
    ErrCode rc = ERR_OK;
    size_t need = (size_t)f->block_records * (f->info.width + 2) + 8;
    if (need > a->buf_bytes) {
        free(a->buf);
        a->buf = malloc(need);
        a->buf_bytes = a->buf != NULL ? need : 0;
        if (a->buf == NULL) {
            return error_set(err, ERR_MEMORY, "cannot allocate a block buffer");
        }
    }
    uint64_t fh[256];
    memset(fh, 0, sizeof fh);
    for (uint64_t b = 0; b < f->blocks && rc == ERR_OK; b++) {
        if (dbstore_block_csize(f, b) == 0) {
            continue; /* all unreached */
        }
        rc = dbstore_block_read(f, b, a->dctx, a->buf, err);
        uint64_t n = dbstore_block_bytes(f, b) / (f->info.width + (f->info.winby ? 2 : 0));
        if (rc == ERR_OK && f->info.width == 1) {
            db_count_bytes(a->buf, n, fh);
            continue;
        }
        for (uint64_t j = 0; j < n && rc == ERR_OK; j++) {
            uint32_t raw = (uint32_t)(a->buf[2 * j] | a->buf[2 * j + 1] << 8);
            if (raw == DB_UNREACHED) {
                continue;
            }
            const char *why = store_record_problem(st, raw);
            if (why != NULL) {
                return error_set(err, ERR_IO, "%s holds %s (record %" PRIu64 "); " REMEDY, f->path,
                                 why, b * f->block_records + j);
            }
            a->hist[raw]++;
            if (a->by_tier != NULL) {
                a->by_tier[tier][db_raw_value(&st->fmt, raw)]++;
            }
        }
    }
    for (uint32_t raw = 1; raw < 256 && rc == ERR_OK; raw++) {
        if (fh[raw] == 0) {
            continue;
        }
        const char *why = store_record_problem(st, raw);
        if (why != NULL) { /* the first such record, for the message */
            uint64_t b = 0, j = 0;
            for (bool found = false; b < f->blocks && !found && rc == ERR_OK; b++) {
                if (dbstore_block_csize(f, b) != 0 &&
                    (rc = dbstore_block_read(f, b, a->dctx, a->buf, err)) == ERR_OK) {
                    uint64_t n = dbstore_block_bytes(f, b);
                    for (j = 0; j < n && a->buf[j] != raw; j++) {
                    }
                    found = j < n;
                }
            }
            return rc != ERR_OK
                       ? rc
                       : error_set(err, ERR_IO, "%s holds %s (record %" PRIu64 "); " REMEDY,
                                   f->path, why, (b - 1) * f->block_records + j);
        }
        a->hist[raw] += fh[raw];
        if (a->by_tier != NULL) {
            a->by_tier[tier][db_raw_value(&st->fmt, raw)] += fh[raw];
        }
    }
    return rc;
}

/* File k opened for this read only (so that the threads hold one file
 * each, whatever the database's number of files), streamed, closed. */
static ErrCode analyze_file(Store *st, int k, int tier, AnalyzeShare *a, Error *err) {
    DbStoreFile f;
    ErrCode rc = file_open_listed(st, k, false, &f, err);
    if (rc != ERR_OK) {
        return rc;
    }
    rc = analyze_records(st, tier, a, &f, err);
    dbstore_file_close(&f);
    return rc;
}

ErrCode store_analyze(Store *st, DbSummary *sum, int threads, Error *err) {
    if (st->bdd != NULL) {
        return symdb_analyze(st->bdd, sum, NULL, err);
    }
    ErrCode rc = store_summary_alloc(st, sum, err);
    if (rc == ERR_OK && st->tiers && st->ntiers > 0) { /* and the counts by tier */
        sum->by_tier =
            mem_calloc((size_t)st->ntiers, sizeof *sum->by_tier, "the counts by tier", err);
        rc = sum->by_tier != NULL ? ERR_OK : ERR_MEMORY;
        sum->ntiers = st->ntiers;
    }
    /* layout tiers: file k's tier, the last t with tier_file[t] <= k */
    int *tier_of =
        rc == ERR_OK ? mem_calloc((size_t)st->nfiles + 1, sizeof *tier_of, "the files' tiers", err)
                     : NULL;
    rc = rc == ERR_OK && tier_of == NULL ? ERR_MEMORY : rc;
    for (int k = 0, tier = 0; rc == ERR_OK && k < st->nfiles; k++) {
        while (sum->by_tier != NULL && tier + 1 < st->ntiers && st->tier_file[tier + 1] <= k) {
            tier++;
        }
        tier_of[k] = tier;
    }
    /* The files on the threads, each file by one; the first file (in
     * order) that fails is the one reported, as one thread would. */
    threads = threads < 1 ? 1 : threads;
    int bad = st->nfiles;
    Error bad_err = {0};
    ErrCode bad_rc = ERR_OK;
    AnalyzeShare *share =
        rc == ERR_OK ? mem_calloc((size_t)threads, sizeof *share, "the analysis' shares", err)
                     : NULL;
    rc = rc == ERR_OK && share == NULL ? ERR_MEMORY : rc;
    for (int t = 0; rc == ERR_OK && t < threads; t++) {
        share[t].dctx = dbstore_dctx_new();
        share[t].hist = mem_calloc(1u << 16, sizeof *share[t].hist, "a record histogram", err);
        if (sum->by_tier != NULL) {
            share[t].by_tier =
                mem_calloc((size_t)st->ntiers, sizeof *share[t].by_tier, "the counts by tier", err);
        }
        if (share[t].dctx == NULL || share[t].hist == NULL ||
            (sum->by_tier != NULL && share[t].by_tier == NULL)) {
            rc = error_set(err, ERR_MEMORY, "cannot allocate the analysis' buffers");
        }
    }
    if (rc == ERR_OK) {
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) if (threads > 1)
        for (int k = 0; k < st->nfiles; k++) {
            int done_before;
#pragma omp atomic read
            done_before = bad;
            if (k > done_before) {
                continue; /* an earlier file failed */
            }
            Error e = {0};
            AnalyzeShare *a = &share[threads > 1 ? omp_get_thread_num() : 0];
            ErrCode r = analyze_file(st, k, tier_of[k], a, &e);
            if (r != ERR_OK) {
#pragma omp critical(store_analyze)
                if (k < bad) {
                    bad = k;
                    bad_err = e;
                    bad_rc = r;
                }
            }
        }
        if (bad < st->nfiles) {
            *err = bad_err;
            rc = bad_rc;
        }
    }
    for (int t = 0; share != NULL && t < threads; t++) {
        for (uint32_t raw = 1; rc == ERR_OK && raw < (1u << 16); raw++) {
            if (share[t].hist[raw] != 0) {
                store_summary_add_n(st, sum, raw, share[t].hist[raw]);
            }
        }
        for (int tier = 0; rc == ERR_OK && share[t].by_tier != NULL && tier < st->ntiers; tier++) {
            for (int v = 0; v < VALUE_COUNT; v++) {
                sum->by_tier[tier][v] += share[t].by_tier[tier][v];
            }
        }
        dbstore_dctx_free(share[t].dctx);
        free(share[t].buf);
        free(share[t].hist);
        free(share[t].by_tier);
    }
    free(share);
    free(tier_of);
    if (rc == ERR_OK && !st->m.partial) {
        rc = store_check_counts(st, sum, err);
    }
    if (rc != ERR_OK) {
        db_summary_free(sum);
    }
    return rc;
}
