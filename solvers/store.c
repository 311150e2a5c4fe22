/* solvers/store.c: see store.h. */
#include "solvers/store.h"

#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/dbranks.h"
#include "core/mem.h"
#include "solvers/expand.h"
#include "solvers/symbolic_db.h"

#define REMEDY "remove the directory and solve again, or use another --db"

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
        if (found && rc == ERR_OK) {
            dbstore_manifest_free(&old);
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
static ErrCode load_file(Store *st, int k, int threads, Database *v, Error *err);
static ErrCode load_tier(Store *st, int t, int threads, Database *v, Error *err) {
    int k0 = st->tier_file[t], k1 = st->tier_file[t + 1];
    if (k1 - k0 == 1) {
        return load_file(st, k0, threads, v, err);
    }
    ErrCode rc = db_create(v, st->tier_size[t], st->m.width, st->m.winby, err);
    bool made = rc == ERR_OK;
    for (int k = k0; k < k1 && rc == ERR_OK; k++) {
        Database part;
        rc = load_file(st, k, threads, &part, err);
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
        st->cache = calloc(STORE_CACHE_BLOCKS, sizeof *st->cache);
        st->dctx = dbstore_dctx_new();
        if (!st->files || !st->opened || !st->cache || !st->dctx) {
            rc = error_set(err, ERR_MEMORY, "cannot allocate the database reader");
        }
        for (int i = 0; st->cache != NULL && i < STORE_CACHE_BLOCKS; i++) {
            st->cache[i].file = -1;
        }
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
    free(st->cache_mem);
    if (st->dctx != NULL) {
        dbstore_dctx_free(st->dctx);
    }
    free(st->files);
    free(st->opened);
    free(st->tier_file);
    free(st->tier_size);
    free(st->cache);
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

static const char *record_problem(const Store *st, uint32_t raw);

/* Opens file k (header, index) on first use; checks it is the file the
 * manifest lists. */
static ErrCode open_file(Store *st, int k, Error *err) {
    if (st->opened[k]) {
        return ERR_OK;
    }
    DbStoreInfo info;
    expect_info(st, k, &info);
    ErrCode rc = dbstore_file_open(&st->dir, st->m.files[k].name, &info, &st->files[k], err);
    if (rc == ERR_OK && (st->files[k].header_sum != st->m.files[k].header_sum ||
                         st->files[k].file_bytes != st->m.files[k].bytes)) {
        rc = error_set(err, ERR_IO,
                       "%s is not the file %s/manifest lists (another solve's? a mixture of two "
                       "databases); " REMEDY,
                       st->files[k].path, st->dir.path);
        dbstore_file_close(&st->files[k]);
    }
    st->opened[k] = rc == ERR_OK;
    return rc;
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
        char text[256];
        g->ops->format(g, pos, text, sizeof text);
        return error_set(err, ERR_IO,
                         "'%s' is in tier %d, which %s does not hold (a partial database: only "
                         "the tiers solved so far; solve that tier with --solver tier:sector=%d "
                         "--db %s)",
                         text, t, st->dir.path, t, st->dir.path);
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

ErrCode store_get(Store *st, Position pos, uint32_t *raw, WinBy *winby, Error *err) {
    if (st->bdd != NULL) {
        *winby = 0;
        st->reads++;
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
    if (rc == ERR_OK) {
        rc = open_file(st, k, err);
    }
    if (rc != ERR_OK) {
        return rc;
    }
    const DbStoreFile *f = &st->files[k];
    uint64_t b = i / f->block_records, j = i % f->block_records;
    uint64_t slot = ((uint64_t)k * UINT64_C(0x9E3779B97F4A7C15) + b) % STORE_CACHE_BLOCKS;
    StoreCacheEntry *e = &st->cache[slot];
    st->reads++;
    if (e->file != k || e->block != b) {
        st->misses++;
        if (st->cache_mem == NULL) {
            /* One slab on huge pages, on the first miss (a single query
             * touches a few of its pages). */
            uint64_t br = DBSTORE_BLOCK_BYTES / st->m.width;
            st->cache_entry = br * (st->m.width + (st->m.winby ? 2 : 0));
            st->cache_mem = dbstore_alloc_huge((size_t)(st->cache_entry * STORE_CACHE_BLOCKS));
            if (st->cache_mem == NULL) {
                return error_set(err, ERR_MEMORY, "cannot allocate the block cache");
            }
        }
        if (dbstore_block_bytes(f, b) > st->cache_entry) {
            return error_set(err, ERR_INTERNAL, "%s: a block larger than the cache's", f->path);
        }
        e->data = st->cache_mem + slot * st->cache_entry;
        e->file = -1;
        rc = dbstore_block_read(f, b, st->dctx, e->data, err);
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
        uint16_t r;
        memcpy(&r, e->data + 2 * j, 2);
        *raw = r;
    }
    *winby = 0;
    if (f->info.winby) {
        int16_t w;
        memcpy(&w, e->data + n * f->info.width + 2 * j, 2);
        *winby = w;
    }
    const char *why = *raw != DB_UNREACHED ? record_problem(st, *raw) : NULL;
    if (why != NULL) {
        return error_set(err, ERR_IO, "%s holds %s (record %" PRIu64 "); " REMEDY, f->path, why, i);
    }
    return ERR_OK;
}

/* ------------------------------------------------------- whole files */

/* Reads file k whole into a new database of its records. */
static ErrCode load_file(Store *st, int k, int threads, Database *v, Error *err) {
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
    return load_tier(st, t, threads, v, err);
}

/* A record the game can hold; NULL if fine, else why not. */
static const char *record_problem(const Store *st, uint32_t raw) {
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

static ErrCode summary_alloc(const Store *st, DbSummary *sum, Error *err) {
    memset(sum, 0, sizeof *sum);
    sum->by_remoteness = mem_calloc((size_t)st->fmt.max_remoteness + 1, sizeof *sum->by_remoteness,
                                    "the remoteness histogram", err);
    return sum->by_remoteness != NULL ? ERR_OK : ERR_MEMORY;
}

/* Adds n positions holding record raw. */
static void summary_add_n(const Store *st, DbSummary *sum, uint32_t raw, uint64_t n) {
    Value v = db_raw_value(&st->fmt, raw);
    uint32_t r = db_raw_remoteness(&st->fmt, raw);
    sum->positions += n;
    sum->count[v] += n;
    if (r > sum->max_remoteness) {
        sum->max_remoteness = r;
    }
    sum->by_remoteness[r][v] += n;
}

static void summary_add(const Store *st, DbSummary *sum, uint32_t raw) {
    summary_add_n(st, sum, raw, 1);
}

static ErrCode check_counts(const Store *st, const DbSummary *sum, Error *err) {
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

ErrCode store_analyze(Store *st, DbSummary *sum, Error *err) {
    if (st->bdd != NULL) {
        return symdb_analyze(st->bdd, sum, NULL, err);
    }
    ErrCode rc = summary_alloc(st, sum, err);
    unsigned char *buf = NULL;
    for (int k = 0; k < st->nfiles && rc == ERR_OK; k++) {
        rc = open_file(st, k, err);
        if (rc != ERR_OK) {
            break;
        }
        const DbStoreFile *f = &st->files[k];
        free(buf);
        buf = malloc((size_t)f->block_records * (f->info.width + 2) + 1);
        if (buf == NULL) {
            rc = error_set(err, ERR_MEMORY, "cannot allocate a block buffer");
            break;
        }
        for (uint64_t b = 0; b < f->blocks && rc == ERR_OK; b++) {
            if (f->csize[b] == 0) {
                continue; /* all unreached */
            }
            rc = dbstore_block_read(f, b, st->dctx, buf, err);
            uint64_t n = dbstore_block_bytes(f, b) / (f->info.width + (f->info.winby ? 2 : 0));
            for (uint64_t j = 0; j < n && rc == ERR_OK; j++) {
                uint32_t raw =
                    f->info.width == 1 ? buf[j] : (uint32_t)(buf[2 * j] | buf[2 * j + 1] << 8);
                if (raw == DB_UNREACHED) {
                    continue;
                }
                const char *why = record_problem(st, raw);
                if (why != NULL) {
                    rc = error_set(err, ERR_IO, "%s holds %s (record %" PRIu64 "); " REMEDY,
                                   f->path, why, b * f->block_records + j);
                    break;
                }
                summary_add(st, sum, raw);
            }
        }
    }
    free(buf);
    if (rc == ERR_OK && !st->m.partial) {
        rc = check_counts(st, sum, err);
    }
    if (rc != ERR_OK) {
        db_summary_free(sum);
    }
    return rc;
}

/* -------------------------------------------------------------- verify */

/* A position's expansion: what the GPS families (solvers/expand.h, counted
 * as in a solve) or the tier fast path (TierOps.expand_run) give, the same
 * by the game's contract. */
typedef TierExpansion Kids;

/* The records in memory during a verification: for tiers, loaded[t] holds
 * tier t's records when resident; for slots, loaded[0] the whole space. */
typedef struct Verify {
    Store *st;
    Database *loaded;
    bool *resident;
    Position *first;                    /* tier-major: first position of each tier */
    int kids[GAME_MAX_CHILD_TIERS + 1]; /* the tier being checked and its children */
    int nkids;
} Verify;

/* The record of child c (canonical): false if its tier is not resident
 * (a game breaking its tier contract). */
static bool child_record(const Verify *v, Position c, uint32_t *raw, WinBy *winby) {
    const Store *st = v->st;
    const Game *g = st->g;
    const Database *db;
    uint64_t i;
    if (!st->tiers) {
        db = &v->loaded[0];
        i = c;
    } else if (g->tiers->first != NULL) {
        /* Tier-major: a range test over the resident tiers (no game call),
         * as the tier solver's locate does. */
        for (int k = 0; k < v->nkids; k++) {
            int u = v->kids[k];
            if (c - v->first[u] < v->loaded[u].size && c >= v->first[u]) {
                *raw = db_peek(&v->loaded[u], c - v->first[u]);
                *winby = v->loaded[u].winby != NULL ? v->loaded[u].winby[c - v->first[u]] : 0;
                return true;
            }
        }
        return false;
    } else {
        int t = g->tiers->tier_of(g, c);
        if (t < 0 || t >= st->ntiers || !v->resident[t]) {
            return false;
        }
        db = &v->loaded[t];
        i = g->tiers->first != NULL ? c - v->first[t] : g->tiers->index_of(g, c);
        if (i >= db->size) {
            return false;
        }
    }
    *raw = db_peek(db, i);
    *winby = db->winby != NULL ? db->winby[i] : 0;
    return true;
}

/* Checks record i of db (position p, expanded as *given, or through fam
 * when given is NULL); NULL if it agrees, else a description of the
 * disagreement in buf. */
static const char *check_one(const Verify *v, const GpsOps *fam, GpsState *gs, const Database *db,
                             uint64_t i, Position p, const Kids *given, char *buf, size_t n) {
    const Store *st = v->st;
    const Game *g = st->g;
    uint32_t raw = db_peek(db, i);
    WinBy stored_w = db->winby != NULL ? db->winby[i] : 0;
    if (raw == DB_UNREACHED) {
        if (stored_w != 0) {
            snprintf(buf, n, "an unreached position with a score (%d)", (int)stored_w);
            return buf;
        }
        return NULL;
    }
    const char *why = record_problem(st, raw);
    if (why != NULL) {
        snprintf(buf, n, "%s", why);
        return buf;
    }
    Kids own;
    const Kids *e = given;
    if (e == NULL) {
        solver_expand(g, fam, gs, p, &own);
        e = &own;
    }
    Outcome want = {e->primitive, 0};
    WinBy want_w = e->winby;
    if (e->primitive == VALUE_UNDECIDED) {
        ChildFold fold;
        fold_init(&fold);
        want_w = winby_worst(e->turn);
        for (int k = 0; k < e->n; k++) {
            uint32_t craw;
            WinBy cw;
            if (!child_record(v, e->child[k], &craw, &cw)) {
                snprintf(buf, n, "child %" PRIu64 " is outside the child tiers", e->child[k]);
                return buf;
            }
            if (!db_raw_solved(&st->fmt, craw)) {
                snprintf(buf, n, "child %" PRIu64 " has no record", e->child[k]);
                return buf;
            }
            fold_add(&fold, db_raw_value(&st->fmt, craw), db_raw_remoteness(&st->fmt, craw));
            want_w = winby_better(e->turn, want_w, cw);
        }
        want = fold_result(&fold);
        if (want.value == VALUE_UNDECIDED) {
            snprintf(buf, n, "not primitive, but no moves");
            return buf;
        }
    }
    Outcome got = {db_raw_value(&st->fmt, raw), db_raw_remoteness(&st->fmt, raw)};
    if (got.value != want.value || got.remoteness != want.remoteness ||
        (g->has_winby && stored_w != want_w)) {
        snprintf(buf, n,
                 "stored %s in %" PRIu32 " (winby %d), its children give %s in %" PRIu32
                 " (winby %d)",
                 value_name(got.value), got.remoteness, (int)stored_w, value_name(want.value),
                 want.remoteness, (int)(g->has_winby ? want_w : 0));
        return buf;
    }
    return NULL;
}

/* The fast path's visitor state (one per thread and chunk). */
typedef struct FastCheck {
    const Verify *v;
    const Database *db;
    uint64_t bad;  /* the first index that disagrees, UINT64_MAX if none */
    uint64_t seen; /* positions checked */
    char buf[256];
} FastCheck;

static void fast_check(void *ctx, uint64_t i, Position p, const TierExpansion *e) {
    FastCheck *f = ctx;
    if (f->bad != UINT64_MAX) {
        return; /* this chunk already has its first disagreement */
    }
    f->seen++;
    if (check_one(f->v, NULL, NULL, f->db, i, p, e, f->buf, sizeof f->buf) != NULL) {
        f->bad = i;
    }
}

/* Bit i of reach: record i of db is reached (not DB_UNREACHED); what the
 * fast path walks. (size + 63) / 64 words, filled in parallel. */
static uint64_t *reach_of(const Database *db, int threads, Error *err) {
    uint64_t words = (db->size + 63) / 64;
    uint64_t *reach = mem_calloc((size_t)words + 1, sizeof *reach, "the verify bitmap", err);
    if (reach == NULL) {
        return NULL;
    }
#pragma omp parallel for num_threads(threads) schedule(static) if (words > 4096)
    for (uint64_t w = 0; w < words; w++) {
        uint64_t i0 = w * 64, i1 = i0 + 64 < db->size ? i0 + 64 : db->size, bits = 0;
        for (uint64_t i = i0; i < i1; i++) {
            bits |= (uint64_t)(db_peek(db, i) != DB_UNREACHED) << (i - i0);
        }
        reach[w] = bits;
    }
    return reach;
}

/* Checks records [0, db->size) of one unit (a tier, or the whole slots
 * database) in parallel over chunks of 2^16 records, and adds the unit's
 * records to *sum; *bad gets the smallest index that disagrees
 * (UINT64_MAX if none). A game with the tier fast path (TierOps.expand_run)
 * has each chunk's reached positions expanded by it, in index order, as
 * the tier solver does; others expand each position through the GPS
 * family. O(records + positions x moves); memory: a bitmap of the unit
 * (fast path) and a histogram of record values per thread. */
static ErrCode check_unit(Verify *v, int tier, const Database *db, int threads, bool progress,
                          uint64_t *bad, uint64_t *checked, DbSummary *sum, Error *err) {
    const Game *g = v->st->g;
    const GpsOps *fam = g->gps_cached != NULL ? g->gps_cached : g->gps;
    bool fast = v->st->tiers && g->tiers->expand_run != NULL;
    uint64_t *reach = NULL;
    if (fast) {
        reach = reach_of(db, threads, err);
        if (reach == NULL) {
            return ERR_MEMORY;
        }
    }
    uint64_t size = db->size;
    uint64_t chunk = 1 << 16;
    uint64_t nchunks = (size + chunk - 1) / chunk;
    uint64_t best = UINT64_MAX, done = 0;
    size_t nraw = db->width == 1 ? 256 : 65536;
    uint64_t *hist = calloc(nraw, sizeof *hist);
    volatile int failed = hist == NULL;
    double last = clock_seconds();
#pragma omp parallel num_threads(threads) if (size >= 4 * chunk)
    {
        if (omp_get_thread_num() != 0) {
            stats_thread_reset(); /* counted from here, collected below */
        }
        GpsState *gs = fam != NULL && !fast ? fam->create(g, NULL) : NULL;
        const GpsOps *f = gs != NULL ? fam : NULL;
        uint64_t *mine_hist = calloc(nraw, sizeof *mine_hist);
        if ((fam != NULL && !fast && gs == NULL) || mine_hist == NULL) {
            failed = 1;
        }
        FastCheck *fc = fast ? malloc(sizeof *fc) : NULL;
        if (fast && fc == NULL) {
            failed = 1;
        }
        char buf[256];
        uint64_t mine = 0;
#pragma omp for schedule(dynamic, 1)
        for (uint64_t c = 0; c < nchunks; c++) {
            uint64_t i0 = c * chunk, i1 = i0 + chunk < size ? i0 + chunk : size;
            if (failed || i0 > __atomic_load_n(&best, __ATOMIC_RELAXED)) {
                continue;
            }
            uint64_t first_bad = UINT64_MAX;
            for (uint64_t i = i0; i < i1; i++) {
                mine_hist[db_peek(db, i)]++;
            }
            if (fast) {
                *fc = (FastCheck){.v = v, .db = db, .bad = UINT64_MAX};
                g->tiers->expand_run(g, tier, reach, i0, i1, fast_check, fc);
                mine += fc->seen;
                first_bad = fc->bad;
                /* An unreached record with a score: not visited above. */
                for (uint64_t i = i0; i < i1 && db->winby != NULL && i < first_bad; i++) {
                    if (db->winby[i] != 0 && db_peek(db, i) == DB_UNREACHED) {
                        first_bad = i;
                    }
                }
            } else {
                for (uint64_t i = i0; i < i1; i++) {
                    if (db_peek(db, i) == DB_UNREACHED &&
                        (db->winby == NULL || db->winby[i] == 0)) {
                        continue;
                    }
                    Position p = !v->st->tiers             ? i
                                 : g->tiers->first != NULL ? v->first[tier] + i
                                                           : g->tiers->position_at(g, tier, i);
                    mine++;
                    if (check_one(v, f, gs, db, i, p, NULL, buf, sizeof buf) != NULL) {
                        first_bad = i;
                        break;
                    }
                }
            }
            if (first_bad != UINT64_MAX) {
#pragma omp critical(store_verify_bad)
                if (first_bad < best) {
                    best = first_bad;
                }
            }
            uint64_t d = __atomic_add_fetch(&done, i1 - i0, __ATOMIC_RELAXED);
            if (progress && omp_get_thread_num() == 0 && clock_seconds() - last >= 1.0) {
                last = clock_seconds();
                fprintf(stderr, "verify: %s %d: %" PRIu64 "/%" PRIu64 " slots\n",
                        v->st->tiers ? "tier" : "file", tier, d, size);
            }
        }
        if (gs != NULL) {
            fam->destroy(gs);
        }
        free(fc);
#pragma omp critical(store_verify_hist)
        {
            stats_thread_collect(&v->st->counters);
            *checked += mine;
            for (size_t r = 0; r < nraw && mine_hist != NULL && hist != NULL; r++) {
                hist[r] += mine_hist[r];
            }
        }
        free(mine_hist);
    }
    free(reach);
    if (failed) {
        free(hist);
        return error_set(err, ERR_MEMORY, "cannot allocate the verification's per-thread state");
    }
    for (size_t r = 0; r < nraw; r++) {
        if (hist[r] != 0 && r != DB_UNREACHED) {
            summary_add_n(v->st, sum, (uint32_t)r, hist[r]);
        }
    }
    free(hist);
    *bad = best;
    return ERR_OK;
}

/* The message for the disagreement at index i of unit `tier`. */
static ErrCode report_bad(Verify *v, int tier, const Database *db, uint64_t i, Error *err) {
    const Game *g = v->st->g;
    const GpsOps *fam = g->gps_cached != NULL ? g->gps_cached : g->gps;
    GpsState *gs = fam != NULL ? fam->create(g, NULL) : NULL;
    Position p = !v->st->tiers             ? i
                 : g->tiers->first != NULL ? v->first[tier] + i
                                           : g->tiers->position_at(g, tier, i);
    char buf[256], text[256] = "";
    const char *why = check_one(v, gs != NULL ? fam : NULL, gs, db, i, p, NULL, buf, sizeof buf);
    if (gs != NULL) {
        fam->destroy(gs);
    }
    if (db_peek(db, i) != DB_UNREACHED) {
        g->ops->format(g, p, text, sizeof text);
    }
    char where[128];
    if (v->st->tiers) {
        snprintf(where, sizeof where, "tier-%04d.gmdb index %" PRIu64, tier, i);
    } else {
        snprintf(where, sizeof where, "slot %" PRIu64, i);
    }
    return error_set(err, ERR_IO,
                     "%s: verification failed at %s (position %" PRIu64 " '%s'): %s; " REMEDY,
                     v->st->dir.path, where, p, text, why != NULL ? why : "(not reproducible)");
}

ErrCode store_verify(Store *st, int threads, bool progress, uint64_t *checked, Error *err) {
    const Game *g = st->g;
    *checked = 0;
    st->unchecked = 0;
    if (st->bdd != NULL) {
        /* BDDs: every file's checksums and structure, and the counts. */
        return symdb_analyze(st->bdd, NULL, checked, err);
    }
    if (threads < 1) {
        threads = omp_get_num_procs();
    }
    int n = st->tiers ? st->ntiers : 1;
    Verify v = {.st = st};
    v.loaded = calloc((size_t)n, sizeof *v.loaded);
    v.resident = calloc((size_t)n, sizeof *v.resident);
    v.first = calloc((size_t)n, sizeof *v.first);
    DbSummary sum;
    ErrCode rc = v.loaded && v.resident && v.first ? summary_alloc(st, &sum, err)
                                                   : error_set(err, ERR_MEMORY, "out of memory");
    if (rc != ERR_OK) {
        free(v.loaded);
        free(v.resident);
        free(v.first);
        return rc;
    }
    /* Every checksum first: each file read whole once (block checksums). */
    for (int k = 0; k < st->nfiles && rc == ERR_OK; k++) {
        rc = open_file(st, k, err);
    }
    if (!st->tiers && rc == ERR_OK) {
        /* The slots of every file in one database. */
        rc = db_create(&v.loaded[0], g->num_positions, st->m.width, st->m.winby, err);
        for (int k = 0; k < st->nfiles && rc == ERR_OK; k++) {
            Database part;
            rc = load_file(st, k, threads, &part, err);
            if (rc == ERR_OK) {
                uint64_t first = st->m.files[k].first;
                memcpy(st->m.width == 1 ? (void *)(v.loaded[0].r8 + first)
                                        : (void *)(v.loaded[0].r16 + first),
                       part.width == 1 ? (void *)part.r8 : (void *)part.r16,
                       part.size * part.width);
                if (part.winby != NULL) {
                    memcpy(v.loaded[0].winby + first, part.winby, part.size * 2);
                }
                db_destroy(&part);
            }
        }
        v.resident[0] = rc == ERR_OK;
    }
    /* Tiers from the last: children (of a larger number in the suite's
     * games) before parents, so the first disagreement found is the
     * deepest, where a damaged record is, not its parents. */
    for (int t = n - 1; t >= 0 && rc == ERR_OK; t--) {
        int kids[GAME_MAX_CHILD_TIERS + 1];
        int nk = 0;
        if (st->tiers) {
            nk = g->tiers->children(g, t, kids);
            kids[nk++] = t;
            memcpy(v.kids, kids, sizeof kids);
            v.nkids = nk;
            bool all_there = true;
            for (int k = 0; k < nk; k++) {
                if (kids[k] < 0 || kids[k] >= n) {
                    rc = error_set(err, ERR_INTERNAL, "game '%s': tier %d lists child tier %d",
                                   g->module->name, t, kids[k]);
                } else {
                    all_there = all_there && st->tier_file[kids[k]] < st->tier_file[kids[k] + 1];
                }
            }
            if (rc == ERR_OK && !all_there) {
                /* partial: tier t or a child tier not there */
                st->unchecked += st->tier_file[t] < st->tier_file[t + 1];
                continue;
            }
            /* Keep what tier t needs, free the rest, load what is missing. */
            for (int u = 0; u < n && rc == ERR_OK; u++) {
                bool need = false;
                for (int k = 0; k < nk; k++) {
                    need = need || kids[k] == u;
                }
                if (v.resident[u] && !need) {
                    db_destroy(&v.loaded[u]);
                    v.resident[u] = false;
                } else if (!v.resident[u] && need) {
                    rc = load_tier(st, u, threads, &v.loaded[u], err);
                    v.resident[u] = rc == ERR_OK;
                    v.first[u] = g->tiers->first != NULL ? g->tiers->first(g, u) : 0;
                }
            }
        }
        if (rc != ERR_OK) {
            break;
        }
        const Database *db = &v.loaded[t];
        uint64_t bad = UINT64_MAX;
        rc = check_unit(&v, t, db, threads, progress, &bad, checked, &sum, err);
        if (rc == ERR_OK && bad != UINT64_MAX) {
            rc = report_bad(&v, t, db, bad, err);
        }
        if (progress && rc == ERR_OK) {
            fprintf(stderr, "verify: %s %d of %d checked\n", st->tiers ? "tier" : "file", t, n);
        }
    }
    /* The initial position is reached, and the counts are the manifest's
     * (a partial database has neither). */
    if (rc == ERR_OK && !st->m.partial) {
        uint32_t raw;
        WinBy w;
        Position root = game_canonical(g, g->initial);
        if (!st->tiers) {
            raw = db_peek(&v.loaded[0], root);
        } else {
            for (int u = 0; u < n; u++) {
                if (v.resident[u]) {
                    db_destroy(&v.loaded[u]);
                    v.resident[u] = false;
                }
            }
            rc = store_get(st, root, &raw, &w, err);
        }
        if (rc == ERR_OK && raw == DB_UNREACHED) {
            rc = error_set(err, ERR_IO, "%s: the initial position has no record; " REMEDY,
                           st->dir.path);
        }
        if (rc == ERR_OK &&
            (strcmp(value_name(db_raw_value(&st->fmt, raw)), st->m.root_value) != 0 ||
             db_raw_remoteness(&st->fmt, raw) != st->m.root_remoteness)) {
            rc = error_set(err, ERR_IO,
                           "%s: the initial position's record differs from the manifest's "
                           "root value; " REMEDY,
                           st->dir.path);
        }
    }
    if (rc == ERR_OK && !st->m.partial) {
        rc = check_counts(st, &sum, err);
    }
    for (int u = 0; u < n; u++) {
        if (v.resident[u]) {
            db_destroy(&v.loaded[u]);
        }
    }
    db_summary_free(&sum);
    free(v.loaded);
    free(v.resident);
    free(v.first);
    return rc;
}
