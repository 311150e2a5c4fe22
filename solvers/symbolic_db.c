/* solvers/symbolic_db.c: the symbolic solver's ply files and their reader
 * (solvers/symbolic_db.h has the format). No BuDDy here: a position is
 * looked up by walking the dumped nodes, so a query costs O(nvars) per set
 * of its ply once the ply's file is in memory (the file's bytes, read and
 * checked once; SYMDB_CACHE plies are kept).
 *
 * Nothing read from a file is trusted before it is checked: a ply file's
 * size (the manifest's and its header's) is bounded before anything is
 * allocated or added (dump_max: by the game's hash space and the dump's
 * 32-bit ids, and by the file's length), every id and variable of the dump
 * is range-checked, and the stored counts are recounted from the nodes
 * (recount: O(nodes), 8 bytes a node of scratch) and refused when they
 * differ, so a crafted file with valid checksums gives a clear ERR_IO,
 * never a read past a buffer or a wrong count.
 */
#include "solvers/symbolic_db.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/le.h"
#include "core/value.h"

#define MAGIC "GMBDDPLY"
#define VERSION 1
#define HEADER 48
#define SYMDB_CACHE 4 /* plies kept in memory: a query reads a ply and the next */
#define REMEDY "remove the directory and solve again, or use another --db"
/* Node ids are u32 with 0 and 1 the terminals. */
#define NODES_MAX ((UINT64_C(1) << 32) - 3)
/* The most raw bytes a block of a record file can hold (core/dbstore.c's
 * reader refuses larger blocks): a file of L bytes has at most (L - 512) / 8
 * blocks, so it holds at most that many times this. */
#define BLOCK_RAW_MAX (UINT64_C(1) << 26)

static const Value cls_value[SYMDB_CLASSES] = {VALUE_WIN, VALUE_LOSE, VALUE_TIE};

void symdb_ply_free(SymPly *sp) {
    free(sp->roots);
    free(sp->counts);
    free(sp->nodes);
    memset(sp, 0, sizeof *sp);
}

void symdb_ply_name(int ply, char *buf, size_t n) { snprintf(buf, n, "ply-%04d.gmdb", ply); }

void symdb_reach_name(int ply, char *buf, size_t n) { snprintf(buf, n, "reach-%04d.gmdb", ply); }

void symdb_ply_info(const Game *g, int ply, uint64_t bytes, DbStoreInfo *info) {
    memset(info, 0, sizeof *info);
    info->kind = DBSTORE_BDD;
    game_spec(g, info->spec, sizeof info->spec);
    info->index = ply;
    info->count = (int32_t)g->max_depth + 1;
    info->width = 1;
    info->winby = false;
    info->records = bytes;
    info->first = 0;
}

static uint64_t dump_bytes(uint64_t nroots, uint64_t nnodes) {
    return HEADER + nroots * 12 + nnodes * 12;
}

/* The largest dump a ply of g can be (below 2^40 bytes: no arithmetic on it
 * overflows). Its roots: SYMDB_CLASSES a layer, at most max_depth + 1
 * layers. Its nodes: at most NODES_MAX (the ids), and at most nvars for
 * every position of the hash space: every node of a reduced BDD lies on a
 * path from a root to 1, each such path is at least one position of the
 * ply (the sets of a ply are disjoint sets of positions, one assignment
 * each) and holds at most nvars nodes. */
static uint64_t dump_max(const Game *g) {
    uint64_t nodes = NODES_MAX, by_space;
    if (!__builtin_mul_overflow(g->num_positions, (uint64_t)g->encoding->nvars, &by_space) &&
        by_space < nodes) {
        nodes = by_space;
    }
    return dump_bytes((uint64_t)SYMDB_CLASSES * ((uint64_t)g->max_depth + 1), nodes);
}

ErrCode symdb_ply_write(DbDir *d, const Game *g, const SymPly *sp, const char *name,
                        DbManifestFile *entry, Error *err) {
    uint64_t nroots = (uint64_t)SYMDB_CLASSES * sp->nlayers;
    uint64_t n = dump_bytes(nroots, sp->nnodes);
    unsigned char *b = malloc((size_t)n);
    if (b == NULL) {
        return error_set(err, ERR_MEMORY, "symbolic: cannot allocate %" PRIu64 " bytes for ply %u",
                         n, sp->ply);
    }
    memset(b, 0, HEADER);
    memcpy(b, MAGIC, 8);
    le_put32(b + 8, VERSION);
    le_put32(b + 12, sp->ply);
    le_put32(b + 16, sp->nlayers);
    le_put32(b + 20, sp->remoteness ? 1 : 0);
    le_put32(b + 24, sp->nvars);
    le_put32(b + 28, SYMDB_CLASSES);
    le_put64(b + 32, sp->nnodes);
    unsigned char *q = b + HEADER;
    for (uint64_t i = 0; i < nroots; i++, q += 4) {
        le_put32(q, sp->roots[i]);
    }
    for (uint64_t i = 0; i < nroots; i++, q += 8) {
        le_put64(q, sp->counts[i]);
    }
    for (uint64_t i = 0; i < 3 * sp->nnodes; i++, q += 4) {
        le_put32(q, sp->nodes[i]);
    }
    DbStoreInfo info;
    symdb_ply_info(g, (int)sp->ply, n, &info);
    memset(entry, 0, sizeof *entry);
    if (name != NULL) {
        snprintf(entry->name, sizeof entry->name, "%s", name);
    } else {
        symdb_ply_name((int)sp->ply, entry->name, sizeof entry->name);
    }
    entry->index = (int32_t)sp->ply;
    entry->records = n;
    ErrCode rc =
        dbstore_write(d, entry->name, &info, b, NULL, 1, &entry->header_sum, &entry->bytes, err);
    free(b);
    return rc;
}

/* Parses and checks a dump of `n` bytes read from `path`. */
static ErrCode parse(const unsigned char *b, uint64_t n, const char *path, const Game *g, int ply,
                     SymPly *sp, Error *err) {
    memset(sp, 0, sizeof *sp);
#define BAD(what) error_set(err, ERR_IO, "%s: %s (a corrupt BDD dump); " REMEDY, path, what)
    if (n < HEADER || memcmp(b, MAGIC, 8) != 0 || le_get32(b + 8) != VERSION) {
        return BAD("not a BDD ply dump of this version");
    }
    sp->ply = le_get32(b + 12);
    sp->nlayers = le_get32(b + 16);
    sp->remoteness = le_get32(b + 20) != 0;
    sp->nvars = le_get32(b + 24);
    sp->nnodes = le_get64(b + 32);
    if (sp->ply != (uint32_t)ply || le_get32(b + 28) != SYMDB_CLASSES ||
        sp->nvars != (uint32_t)g->encoding->nvars || sp->nlayers == 0 ||
        sp->nlayers > g->max_depth + 1 || le_get32(b + 20) > 1) {
        return BAD("its header does not match the game's encoding and ply");
    }
    uint64_t nroots = (uint64_t)SYMDB_CLASSES * sp->nlayers;
    if (sp->nnodes > (UINT64_C(1) << 32) - 3 || dump_bytes(nroots, sp->nnodes) != n) {
        return BAD("its size does not match its header");
    }
    sp->roots = malloc((size_t)nroots * sizeof *sp->roots);
    sp->counts = malloc((size_t)nroots * sizeof *sp->counts);
    sp->nodes = malloc((size_t)(3 * sp->nnodes + 1) * sizeof *sp->nodes);
    if (sp->roots == NULL || sp->counts == NULL || sp->nodes == NULL) {
        symdb_ply_free(sp);
        return error_set(err, ERR_MEMORY, "cannot allocate the BDDs of %s", path);
    }
    const unsigned char *q = b + HEADER;
    uint64_t top = sp->nnodes + 2;
    bool ok = true;
    for (uint64_t i = 0; i < nroots; i++, q += 4) {
        sp->roots[i] = le_get32(q);
        ok = ok && sp->roots[i] < top;
    }
    for (uint64_t i = 0; i < nroots; i++, q += 8) {
        sp->counts[i] = le_get64(q);
    }
    for (uint64_t k = 0; k < sp->nnodes && ok; k++, q += 12) {
        uint32_t var = le_get32(q), lo = le_get32(q + 4), hi = le_get32(q + 8);
        sp->nodes[3 * k] = var;
        sp->nodes[3 * k + 1] = lo;
        sp->nodes[3 * k + 2] = hi;
        /* children first and below in the order: every walk ends. */
        ok = var < sp->nvars && lo < k + 2 && hi < k + 2 && lo != hi &&
             (lo < 2 || sp->nodes[3 * (lo - 2)] > var) && (hi < 2 || sp->nodes[3 * (hi - 2)] > var);
    }
    if (!ok) {
        symdb_ply_free(sp);
        return BAD("a node or root out of range");
    }
#undef BAD
    return ERR_OK;
}

/* c << k, or UINT64_MAX when that does not fit (c > 0). */
static uint64_t sat_shl(uint64_t c, uint64_t k) {
    if (c == 0) {
        return 0;
    }
    return k >= 64 || c > (UINT64_MAX >> k) ? UINT64_MAX : c << k;
}

static uint64_t sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

/* Recounts every set of a parsed dump (its assignments of the nvars
 * variables: what the solver stored, bdd_satcount over one copy) and
 * refuses a stored count that differs, or a ply of more positions than the
 * game's hash space. c[id] counts the assignments of the variables from
 * the node's own down (children first, so one pass); counts saturate at
 * UINT64_MAX, which no count of a ply can be. O(nodes + roots). */
static ErrCode recount(const SymPly *sp, const char *path, const Game *g, Error *err) {
    uint64_t *c = malloc(((size_t)sp->nnodes + 2) * sizeof *c);
    if (c == NULL) {
        return error_set(err, ERR_MEMORY, "cannot allocate the recount of %s", path);
    }
#define VAR(id) ((id) < 2 ? (uint64_t)sp->nvars : (uint64_t)sp->nodes[3 * (uint64_t)((id)-2)])
    c[0] = 0;
    c[1] = 1;
    for (uint64_t k = 0; k < sp->nnodes; k++) {
        const uint32_t *n = &sp->nodes[3 * k];
        c[k + 2] =
            sat_add(sat_shl(c[n[1]], VAR(n[1]) - n[0] - 1), sat_shl(c[n[2]], VAR(n[2]) - n[0] - 1));
    }
    ErrCode rc = ERR_OK;
    uint64_t total = 0, nroots = (uint64_t)SYMDB_CLASSES * sp->nlayers;
    for (uint64_t i = 0; i < nroots && rc == ERR_OK; i++) {
        uint64_t n = sat_shl(c[sp->roots[i]], VAR(sp->roots[i]));
        total = sat_add(total, n);
        if (n != sp->counts[i] || n == UINT64_MAX) {
            rc = error_set(err, ERR_IO,
                           "%s: set %" PRIu64 " of ply %" PRIu32 " (%s, remoteness %" PRIu64
                           ") stores a count of %" PRIu64 " positions, its nodes recount "
                           "%s%" PRIu64 " (a corrupt BDD dump); " REMEDY,
                           path, i, sp->ply, value_name(cls_value[i / sp->nlayers]),
                           i % sp->nlayers, sp->counts[i], n == UINT64_MAX ? "at least " : "", n);
        }
    }
#undef VAR
    if (rc == ERR_OK && total > g->num_positions) {
        rc = error_set(err, ERR_IO,
                       "%s: ply %" PRIu32 " holds %" PRIu64 " positions, more than the game's "
                       "hash space of %" PRIu64 " (a corrupt BDD dump); " REMEDY,
                       path, sp->ply, total, g->num_positions);
    }
    free(c);
    return rc;
}

ErrCode symdb_ply_read(const DbDir *d, const Game *g, const DbManifestFile *entry, SymPly *sp,
                       Error *err) {
    memset(sp, 0, sizeof *sp);
    DbStoreInfo info;
    symdb_ply_info(g, entry->index, entry->records, &info);
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", d->path, entry->name);
    /* The size, before anything is allocated or computed from it: a dump
     * holds a header, it fits the game (dump_max) and the file's length
     * (the manifest's, which the read then checks against the file). */
    uint64_t max = dump_max(g);
    uint64_t blocks =
        entry->bytes < DBSTORE_HEADER_BYTES ? 0 : (entry->bytes - DBSTORE_HEADER_BYTES) / 8;
    uint64_t by_file = blocks > UINT64_MAX / BLOCK_RAW_MAX ? UINT64_MAX : blocks * BLOCK_RAW_MAX;
    if (entry->records < HEADER || entry->records > max || entry->records > by_file) {
        return error_set(err, ERR_IO,
                         "%s: a BDD dump of %" PRIu64 " bytes is impossible (this game's are %d "
                         "to %" PRIu64 " bytes, and a file of %" PRIu64
                         " bytes holds at most %" PRIu64
                         "; the manifest's `file` line or the file is corrupt); " REMEDY,
                         path, entry->records, HEADER, max, entry->bytes, by_file);
    }
    unsigned char *b = malloc((size_t)entry->records);
    if (b == NULL) {
        return error_set(err, ERR_MEMORY, "cannot allocate %" PRIu64 " bytes to read %s",
                         entry->records, path);
    }
    bool found = false;
    uint64_t sum = 0, bytes = 0;
    ErrCode rc = dbstore_read(d, entry->name, &info, b, NULL, 1, &found, &sum, &bytes, err);
    if (rc == ERR_OK && !found) {
        rc = error_set(err, ERR_IO, "%s is missing, though the manifest lists it; " REMEDY, path);
    } else if (rc == ERR_OK && (sum != entry->header_sum || bytes != entry->bytes)) {
        rc = error_set(err, ERR_IO,
                       "%s is not the file %s/manifest lists (another solve's? a mixture of two "
                       "databases); " REMEDY,
                       path, d->path);
    }
    if (rc == ERR_OK) {
        rc = parse(b, entry->records, path, g, entry->index, sp, err);
    }
    free(b); /* before the recount's scratch: the peak stays the file's and the nodes' */
    if (rc == ERR_OK) {
        rc = recount(sp, path, g, err);
        if (rc != ERR_OK) {
            symdb_ply_free(sp);
        }
    }
    return rc;
}

/* The id a walk from `id` along `values` ends at (0 or 1). */
static uint32_t walk(const SymPly *sp, uint32_t id, const uint8_t *values) {
    while (id >= 2) {
        const uint32_t *n = &sp->nodes[3 * (uint64_t)(id - 2)];
        id = values[n[0]] ? n[2] : n[1];
    }
    return id;
}

bool symdb_ply_lookup(const SymPly *sp, const uint8_t *values, int *cls, uint32_t *r) {
    for (int c = 0; c < SYMDB_CLASSES; c++) {
        for (uint32_t k = 0; k < sp->nlayers; k++) {
            if (walk(sp, sp->roots[(uint64_t)c * sp->nlayers + k], values) == 1) {
                *cls = c;
                *r = k;
                return true;
            }
        }
    }
    return false;
}

/* ------------------------------------------------------------- reader */

struct SymDb {
    const Game *g;
    const DbDir *d;
    const DbManifest *m;
    uint8_t *values;
    SymPly cache[SYMDB_CACHE];
    bool used[SYMDB_CACHE];
    int next; /* the slot replaced next (round robin) */
    bool noted;
    bool remoteness; /* the plies hold remoteness layers (not remoteness=0) */
};

static ErrCode ply_of(SymDb *db, int p, const SymPly **sp, Error *err);

ErrCode symdb_open(const Game *g, const DbDir *d, const DbManifest *m, SymDb **out, Error *err) {
    *out = NULL;
    if (g->encoding == NULL || g->encoding->values == NULL) {
        return error_set(err, ERR_UNSUPPORTED,
                         "%s holds BDDs of the symbolic solver, and game '%s' cannot map a "
                         "position to its Boolean variables (GameEncoding.values)",
                         d->path, g->module->name);
    }
    bool ok = m->nfiles >= 1 && (uint64_t)m->nfiles <= (uint64_t)g->max_depth + 1;
    for (int k = 0; ok && k < m->nfiles; k++) {
        char name[DBSTORE_NAME_MAX];
        symdb_ply_name(k, name, sizeof name);
        ok = m->files[k].index == k && strcmp(m->files[k].name, name) == 0;
    }
    if (!ok) {
        return error_set(err, ERR_IO,
                         "%s/manifest does not list the plies 0, 1, ... of a BDD database in "
                         "order; " REMEDY,
                         d->path);
    }
    SymDb *db = calloc(1, sizeof *db);
    uint8_t *values = calloc((size_t)g->encoding->nvars, 1);
    if (db == NULL || values == NULL) {
        free(db);
        free(values);
        return error_set(err, ERR_MEMORY, "cannot allocate the BDD database reader");
    }
    db->g = g;
    db->d = d;
    db->m = m;
    db->values = values;
    /* Ply 0 (one position) says whether the plies hold remoteness layers;
     * every ply of a solve is alike (symdb_ply_read checks their layers). */
    const SymPly *sp;
    ErrCode rc = ply_of(db, 0, &sp, err);
    if (rc != ERR_OK) {
        symdb_close(db);
        return rc;
    }
    db->remoteness = sp->remoteness;
    *out = db;
    return ERR_OK;
}

bool symdb_remoteness(const SymDb *db) { return db->remoteness; }

void symdb_close(SymDb *db) {
    if (db == NULL) {
        return;
    }
    for (int i = 0; i < SYMDB_CACHE; i++) {
        symdb_ply_free(&db->cache[i]);
    }
    free(db->values);
    free(db);
}

/* The dump of ply p, read on first use. */
static ErrCode ply_of(SymDb *db, int p, const SymPly **sp, Error *err) {
    for (int i = 0; i < SYMDB_CACHE; i++) {
        if (db->used[i] && db->cache[i].ply == (uint32_t)p) {
            *sp = &db->cache[i];
            return ERR_OK;
        }
    }
    int i = db->next;
    db->next = (db->next + 1) % SYMDB_CACHE;
    symdb_ply_free(&db->cache[i]);
    db->used[i] = false;
    ErrCode rc = symdb_ply_read(db->d, db->g, &db->m->files[p], &db->cache[i], err);
    if (rc != ERR_OK) {
        return rc;
    }
    db->used[i] = true;
    *sp = &db->cache[i];
    if (!db->cache[i].remoteness && !db->noted) {
        db->noted = true;
        fprintf(stderr,
                "symbolic: %s holds win/lose/tie only (solved with remoteness=0): no "
                "remoteness is printed\n",
                db->d->path);
    }
    return ERR_OK;
}

ErrCode symdb_get(SymDb *db, const Database *fmt, Position pos, uint32_t *raw, Error *err) {
    *raw = DB_UNREACHED;
    int p = db->g->encoding->values(db->g, pos, db->values);
    if (p < 0 || p >= db->m->nfiles) {
        return ERR_OK;
    }
    const SymPly *sp;
    ErrCode rc = ply_of(db, p, &sp, err);
    if (rc != ERR_OK) {
        return rc;
    }
    int c;
    uint32_t r;
    if (symdb_ply_lookup(sp, db->values, &c, &r) && !db_encode(fmt, cls_value[c], r, raw)) {
        return error_set(err, ERR_IO, "%s: a remoteness of %" PRIu32 " does not fit; " REMEDY,
                         db->d->path, r);
    }
    return ERR_OK;
}

ErrCode symdb_analyze(SymDb *db, DbSummary *sum, uint64_t *checked, Error *err) {
    const DbManifest *m = db->m;
    uint64_t count[VALUE_COUNT] = {0}, total = 0;
    uint32_t maxr = 0;
    uint64_t(*hist)[VALUE_COUNT] = calloc((size_t)db->g->max_depth + 1, sizeof *hist);
    if (hist == NULL) {
        return error_set(err, ERR_MEMORY, "cannot allocate the histogram");
    }
    ErrCode rc = ERR_OK;
    for (int p = 0; p < m->nfiles && rc == ERR_OK; p++) {
        SymPly sp;
        rc = symdb_ply_read(db->d, db->g, &m->files[p], &sp, err);
        for (int c = 0; rc == ERR_OK && c < SYMDB_CLASSES; c++) {
            for (uint32_t k = 0; k < sp.nlayers; k++) {
                /* each ply's counts (recounted) add up to at most the
                 * hash space: the sums saturate rather than wrap */
                uint64_t n = sp.counts[(uint64_t)c * sp.nlayers + k];
                count[cls_value[c]] = sat_add(count[cls_value[c]], n);
                hist[k][cls_value[c]] = sat_add(hist[k][cls_value[c]], n);
                total = sat_add(total, n);
                if (n > 0 && k > maxr) {
                    maxr = k;
                }
            }
        }
        if (rc == ERR_OK) {
            symdb_ply_free(&sp);
        }
    }
    bool same = total == m->positions && total <= db->g->num_positions;
    for (int v = 0; v < 5 && v < VALUE_COUNT; v++) {
        same = same && count[v] == m->count[v];
    }
    if (rc == ERR_OK && !same) {
        rc = error_set(err, ERR_IO,
                       "%s: the plies hold %" PRIu64 " positions (%" PRIu64 " win, %" PRIu64
                       " lose, %" PRIu64 " tie), the manifest says %" PRIu64 "; " REMEDY,
                       db->d->path, total, count[VALUE_WIN], count[VALUE_LOSE], count[VALUE_TIE],
                       m->positions);
    }
    if (rc == ERR_OK && sum != NULL) {
        memset(sum, 0, sizeof *sum);
        sum->positions = total;
        memcpy(sum->count, count, sizeof count);
        sum->max_remoteness = maxr;
        sum->by_remoteness = hist;
        hist = NULL;
    }
    if (checked != NULL) {
        *checked = rc == ERR_OK ? total : 0;
    }
    free(hist);
    return rc;
}
