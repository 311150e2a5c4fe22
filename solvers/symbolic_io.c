/* solvers/symbolic_io.c: the symbolic solver's saving and resuming
 * (--db DIR): BuDDy BDDs to and from the node dumps of
 * solvers/symbolic_db.h (symio_dump, symio_load: see symbolic_io.h), and
 * the solve's side of the directory (solvers/symbolic_impl.h: sym_save_*,
 * sym_load_ply): the lock, the plies a previous run saved, one ply file
 * and a `complete 0` manifest after every classified ply, the final
 * manifest.
 *
 * The dump numbers nodes in depth-first post-order through an
 * open-addressing map from BuDDy's node index to the dump's id, sized from
 * bdd_anodecount: O(nodes) time, 28 bytes a node. A loaded ply is rebuilt
 * with one bdd_ite per node, and each set's count must be the one saved
 * (which symdb_ply_read has recounted from the nodes).
 */
#include "solvers/symbolic_io.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/store.h"
#include "solvers/symbolic_impl.h"

typedef struct Dump {
    int *key; /* BuDDy node, -1: empty */
    uint32_t *id;
    uint64_t mask;
    SymPly *sp;
    bool bad; /* a variable of the other copy in a set */
    int copy; /* the copy of the variables saved: 2v + copy is variable v */
} Dump;

static uint64_t slot_of(const Dump *d, int b) {
    uint64_t h = (uint64_t)(unsigned)b * UINT64_C(0x9E3779B97F4A7C15);
    return (h >> 20) & d->mask;
}

/* The id of b, its nodes dumped first. Recursion depth: the variables. */
static uint32_t visit(Dump *d, BDD b) {
    if (b == bddfalse || b == bddtrue) {
        return b == bddtrue ? 1 : 0;
    }
    uint64_t i = slot_of(d, b);
    while (d->key[i] != -1) {
        if (d->key[i] == b) {
            return d->id[i];
        }
        i = (i + 1) & d->mask;
    }
    uint32_t lo = visit(d, bdd_low(b)), hi = visit(d, bdd_high(b));
    int var = bdd_var(b);
    d->bad = d->bad || (var & 1) != d->copy;
    uint64_t k = d->sp->nnodes++;
    d->sp->nodes[3 * k] = (uint32_t)(var / 2);
    d->sp->nodes[3 * k + 1] = lo;
    d->sp->nodes[3 * k + 2] = hi;
    /* the children may have taken the free slot found above: probe again */
    i = slot_of(d, b);
    while (d->key[i] != -1) {
        i = (i + 1) & d->mask;
    }
    d->key[i] = b;
    d->id[i] = (uint32_t)(k + 2);
    return (uint32_t)(k + 2);
}

ErrCode symio_dump(const BDD *roots, int n, int copy, SymPly *sp, Error *err) {
    int total = bdd_anodecount((BDD *)roots, n);
    if (total < 0) {
        return error_set(err, ERR_INTERNAL, "symbolic: BuDDy cannot count the nodes to save");
    }
    uint64_t size = 16;
    while (size < 2 * (uint64_t)total + 16) {
        size *= 2;
    }
    Dump d = {.mask = size - 1, .sp = sp, .copy = copy};
    d.key = malloc((size_t)size * sizeof *d.key);
    d.id = malloc((size_t)size * sizeof *d.id);
    sp->nodes = malloc(((size_t)total * 3 + 1) * sizeof *sp->nodes);
    sp->roots = malloc((size_t)n * sizeof *sp->roots);
    if (d.key == NULL || d.id == NULL || sp->nodes == NULL || sp->roots == NULL) {
        free(d.key);
        free(d.id);
        return error_set(err, ERR_MEMORY, "symbolic: out of memory to save %d BDD nodes", total);
    }
    memset(d.key, 0xff, (size_t)size * sizeof *d.key);
    sp->nnodes = 0;
    for (int i = 0; i < n; i++) {
        sp->roots[i] = visit(&d, roots[i]);
    }
    free(d.key);
    free(d.id);
    if (d.bad || sp->nnodes != (uint64_t)total) {
        return error_set(err, ERR_INTERNAL,
                         "symbolic: the sets to save hold %" PRIu64 " nodes (BuDDy counts %d)%s",
                         sp->nnodes, total, d.bad ? " and a variable of the other copy" : "");
    }
    return ERR_OK;
}

ErrCode symio_load(const SymPly *sp, BDD *out, int copy, Error *err) {
    BDD *b = malloc(((size_t)sp->nnodes + 2) * sizeof *b);
    if (b == NULL) {
        return error_set(err, ERR_MEMORY, "symbolic: out of memory to load ply %u", sp->ply);
    }
    b[0] = bddfalse;
    b[1] = bddtrue;
    for (uint64_t k = 0; k < sp->nnodes; k++) {
        const uint32_t *nd = &sp->nodes[3 * k];
        b[k + 2] = bdd_addref(bdd_ite(bdd_ithvar(2 * (int)nd[0] + copy), b[nd[2]], b[nd[1]]));
    }
    uint64_t nroots = (uint64_t)SYMDB_CLASSES * sp->nlayers;
    for (uint64_t i = 0; i < nroots; i++) {
        out[i] = bdd_addref(b[sp->roots[i]]);
    }
    for (uint64_t k = 0; k < sp->nnodes; k++) {
        bdd_delref(b[k + 2]);
    }
    free(b);
    return ERR_OK;
}

/* ------------------------------------------- saving and resuming (--db) */

/* Opens DIR (--db) as its only writer, refuses another variant's database,
 * and notes the plies a previous symbolic solve of this variant saved
 * there. A database of another layout is removed (manifest first): this
 * solve replaces it. */
ErrCode sym_save_begin(Sym *s, const char *path) {
    const Game *g = s->g;
    s->entry = calloc((size_t)s->depth + 2, sizeof *s->entry);
    if (s->entry == NULL) {
        return error_set(s->err, ERR_MEMORY, "symbolic: out of memory");
    }
    ErrCode rc = dbstore_dir_open(path, true, &s->dir, s->err);
    if (rc != ERR_OK) {
        return rc;
    }
    s->saving = true;
    rc = dbstore_lock(&s->dir, s->err);
    DbManifest m;
    bool found = false;
    if (rc == ERR_OK) {
        rc = dbstore_manifest_read(&s->dir, &m, &found, s->err);
    }
    if (rc != ERR_OK || !found) {
        return rc;
    }
    char spec[DBSTORE_SPEC_MAX];
    game_spec(g, spec, sizeof spec);
    if (strcmp(m.spec, spec) != 0) {
        rc = error_set(s->err, ERR_IO,
                       "%s holds the database of another game variant (%s, not %s); use another "
                       "--db",
                       path, m.spec, spec);
    } else if (strcmp(m.layout, SYMDB_LAYOUT) == 0) {
        for (int k = 0; k < m.nfiles; k++) {
            char name[DBSTORE_NAME_MAX];
            int p = m.files[k].index;
            symdb_ply_name(p, name, sizeof name);
            if (p >= 0 && p <= s->depth && strcmp(name, m.files[k].name) == 0) {
                s->entry[p] = m.files[k];
            }
        }
    } else {
        dbstore_remove(&s->dir, "manifest");
        for (int k = 0; k < m.nfiles; k++) {
            dbstore_remove(&s->dir, m.files[k].name);
        }
    }
    dbstore_manifest_free(&m);
    return rc;
}

/* After the forward pass: the plies to load are the longest run of saved
 * plies ending at the last one (each file is checked when it is loaded). */
void sym_save_plan(Sym *s) {
    s->resume_from = s->last + 1;
    if (!s->saving) {
        return;
    }
    for (int p = s->last + 1; p <= s->depth; p++) {
        s->entry[p].name[0] = '\0';
    }
    while (s->resume_from > 0 && s->entry[s->resume_from - 1].name[0] != '\0' &&
           dbstore_exists(&s->dir, s->entry[s->resume_from - 1].name)) {
        s->resume_from--;
    }
    for (int p = 0; p < s->resume_from; p++) {
        s->entry[p].name[0] = '\0';
    }
    if (s->resume_from <= s->last) {
        fprintf(stderr, "symbolic: resuming from %s: plies %d to %d are loaded, not solved\n",
                s->dir.path, s->resume_from, s->last);
    }
}

/* Writes DIR's manifest listing the saved plies: complete (the solve is
 * over: sum and the root) or not (a solve in progress, for resuming). */
ErrCode sym_save_manifest(Sym *s, const DbSummary *sum, bool complete) {
    DbSummary none = {0};
    DbManifest m;
    store_manifest_fill(&m, s->g, "symbolic", SYMDB_LAYOUT, complete ? sum : &none,
                        complete ? s->res->root : (Outcome){VALUE_UNDECIDED, 0}, false, 0);
    m.files = calloc((size_t)s->last + 1, sizeof *m.files);
    if (m.files == NULL) {
        return error_set(s->err, ERR_MEMORY, "symbolic: out of memory");
    }
    for (int p = 0; p <= s->last; p++) {
        if (s->entry[p].name[0] != '\0') {
            m.files[m.nfiles++] = s->entry[p];
        }
    }
    ErrCode rc;
    if (complete) {
        m.max_remoteness = s->max_remoteness;
        rc = store_manifest_commit(&s->dir, &m, s->err);
    } else {
        m.complete = false;
        rc = dbstore_manifest_write(&s->dir, &m, s->err);
    }
    dbstore_manifest_free(&m);
    return rc;
}

/* Saves ply p's sets (exact: before their care-set simplification) and
 * the manifest of the plies saved so far. */
ErrCode sym_save_ply(Sym *s, int p) {
    const Ply *pl = &s->ply[p];
    int n = NCLS * pl->nlayers;
    BDD *roots = calloc((size_t)n, sizeof *roots);
    SymPly sp = {.ply = (uint32_t)p,
                 .nlayers = (uint32_t)pl->nlayers,
                 .remoteness = s->remoteness,
                 .nvars = (uint32_t)s->enc->nvars};
    sp.counts = calloc((size_t)n, sizeof *sp.counts);
    ErrCode rc = ERR_OK;
    if (roots == NULL || sp.counts == NULL) {
        rc = error_set(s->err, ERR_MEMORY, "symbolic: out of memory to save ply %d", p);
    }
    for (int c = 0; c < NCLS && rc == ERR_OK; c++) {
        for (int r = 0; r < pl->nlayers; r++) {
            roots[c * pl->nlayers + r] = pl->layer[c][r];
            sp.counts[c * pl->nlayers + r] = (uint64_t)llround(sym_count(s, pl->layer[c][r], p));
        }
    }
    if (rc == ERR_OK) {
        rc = symio_dump(roots, n, sym_ply_copy(s, p), &sp, s->err);
    }
    if (rc == ERR_OK) {
        rc = symdb_ply_write(&s->dir, s->g, &sp, &s->entry[p], s->err);
    }
    if (rc == ERR_OK) {
        s->saved_bytes += s->entry[p].bytes;
        rc = sym_save_manifest(s, NULL, false);
    }
    symdb_ply_free(&sp);
    free(roots);
    return rc;
}

/* Loads ply p's sets from DIR instead of classifying it; each set's count
 * must be the one saved. */
ErrCode sym_load_ply(Sym *s, int p) {
    Ply *pl = &s->ply[p];
    SymPly sp;
    ErrCode rc = symdb_ply_read(&s->dir, s->g, &s->entry[p], &sp, s->err);
    if (rc != ERR_OK) {
        return rc;
    }
    int want = s->remoteness ? s->depth - p + 1 : 1;
    if (sp.remoteness != s->remoteness || (int)sp.nlayers != want) {
        rc = error_set(s->err, ERR_IO,
                       "%s/%s holds ply %d solved with remoteness=%d; solve with the same "
                       "option, or use another --db",
                       s->dir.path, s->entry[p].name, p, sp.remoteness ? 1 : 0);
    }
    if (rc == ERR_OK) {
        rc = sym_alloc_layers(s, pl, want);
    }
    BDD *b = rc == ERR_OK ? calloc((size_t)NCLS * (size_t)want, sizeof *b) : NULL;
    if (rc == ERR_OK && b == NULL) {
        rc = error_set(s->err, ERR_MEMORY, "symbolic: out of memory to load ply %d", p);
    }
    if (rc == ERR_OK) {
        rc = symio_load(&sp, b, sym_ply_copy(s, p), s->err);
    }
    for (int i = 0; rc == ERR_OK && i < NCLS * want; i++) {
        BDD *dst = &pl->layer[i / want][i % want];
        bdd_delref(*dst);
        *dst = b[i];
    }
    if (rc == ERR_OK) {
        rc = sym_bdd_failed(s);
    }
    for (int i = 0; rc == ERR_OK && i < NCLS * want; i++) {
        if ((uint64_t)llround(sym_count(s, b[i], p)) != sp.counts[i]) {
            rc = error_set(s->err, ERR_IO,
                           "%s/%s: a set holds %.0f positions, %" PRIu64
                           " when saved; remove the directory and solve again",
                           s->dir.path, s->entry[p].name, sym_count(s, b[i], p), sp.counts[i]);
        }
    }
    free(b);
    symdb_ply_free(&sp);
    return rc;
}

void sym_save_end(Sym *s) {
    if (s->saving) {
        dbstore_dir_close(&s->dir);
    }
    free(s->entry);
    s->entry = NULL;
}
