/* solvers/symbolic_io.c: the symbolic solver's saving and resuming
 * (--db DIR): BuDDy BDDs to and from the node dumps of
 * solvers/symbolic_db.h (symio_dump, symio_load: see symbolic_io.h), and
 * the solve's side of the directory (solvers/symbolic_impl.h: sym_save_*,
 * sym_load_ply, the reachable sets' sym_*_reach): the lock,
 * the plies and reachable sets a previous run saved, one reach file per
 * ply during the forward pass and a `complete 0` manifest listing them at
 * its end, one ply file and a `complete 0` manifest after every classified
 * ply, the final manifest (whose commit removes the reach files the last
 * one listed).
 *
 * A resume reads the reachable sets' counts from their files instead of
 * walking forward, builds the lowest saved ply (the next one's target) and
 * only counts the saved plies above it from their files (each checked and
 * recounted by symdb_ply_read either way). GAMESMAN_SYMBOLIC_STOP=K (tests)
 * ends the process with _exit(86) once K reach and ply files are written,
 * as a kill would.
 *
 * The dump numbers nodes in depth-first post-order through an
 * open-addressing map from BuDDy's node index to the dump's id, sized from
 * bdd_anodecount: O(nodes) time, 28 bytes a node. A loaded ply is rebuilt
 * with one bdd_ite per node, and each set's count must be the one saved
 * (which symdb_ply_read has recounted from the nodes).
 */
#include "solvers/symbolic_io.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/options.h"
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
    s->reach_entry = calloc((size_t)s->depth + 2, sizeof *s->reach_entry);
    if (s->entry == NULL || s->reach_entry == NULL) {
        return error_set(s->err, ERR_MEMORY, "symbolic: out of memory");
    }
    int64_t stop = 0;
    ErrCode src = env_int64("GAMESMAN_SYMBOLIC_STOP", 1, LONG_MAX, "a number of files, at least 1",
                            &stop, s->err);
    if (src != ERR_OK) {
        return src;
    }
    s->stop_after = (long)stop;
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
    s->reach_to_disk = rc == ERR_OK;
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
        s->reach_to_disk = !m.complete;
        for (int k = 0; k < m.nfiles; k++) {
            char name[DBSTORE_NAME_MAX], reach[DBSTORE_NAME_MAX];
            int p = m.files[k].index;
            symdb_ply_name(p, name, sizeof name);
            symdb_reach_name(p, reach, sizeof reach);
            if (p >= 0 && p <= s->depth && strcmp(name, m.files[k].name) == 0) {
                s->entry[p] = m.files[k];
            } else if (p >= 0 && p <= s->depth && strcmp(reach, m.files[k].name) == 0) {
                s->reach_entry[p] = m.files[k];
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
    m.files = calloc(2 * ((size_t)s->last + 1), sizeof *m.files);
    if (m.files == NULL) {
        return error_set(s->err, ERR_MEMORY, "symbolic: out of memory");
    }
    for (int p = 0; p <= s->last; p++) {
        if (s->entry[p].name[0] != '\0') {
            m.files[m.nfiles++] = s->entry[p];
        }
    }
    /* the reachable sets, while the solve is in progress */
    for (int p = 0; p <= s->last && !complete; p++) {
        if (s->reach_entry[p].name[0] != '\0') {
            m.files[m.nfiles++] = s->reach_entry[p];
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

/* GAMESMAN_SYMBOLIC_STOP: a kill after so many files. */
static void stop_point(Sym *s) {
    if (s->stop_after > 0 && ++s->written == s->stop_after) {
        fprintf(stderr, "symbolic: stopped after %ld files (GAMESMAN_SYMBOLIC_STOP)\n",
                s->stop_after);
        _exit(86);
    }
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
        rc = symdb_ply_write(&s->dir, s->g, &sp, NULL, &s->entry[p], s->err);
    }
    if (rc == ERR_OK) {
        s->saved_bytes += s->entry[p].bytes;
        rc = sym_save_manifest(s, NULL, false);
    }
    symdb_ply_free(&sp);
    free(roots);
    if (rc == ERR_OK) {
        stop_point(s);
    }
    return rc;
}

/* Reads ply p's file and checks it was solved with this solve's
 * remoteness option: nlayers layers. */
static ErrCode read_ply(Sym *s, int p, SymPly *sp, int *nlayers) {
    ErrCode rc = symdb_ply_read(&s->dir, s->g, &s->entry[p], sp, s->err);
    if (rc != ERR_OK) {
        return rc;
    }
    int want = s->remoteness ? s->depth - p + 1 : 1;
    if (sp->remoteness != s->remoteness || (int)sp->nlayers != want) {
        rc = error_set(s->err, ERR_IO,
                       "%s/%s holds ply %d solved with remoteness=%d; solve with the same "
                       "option, or use another --db",
                       s->dir.path, s->entry[p].name, p, sp->remoteness ? 1 : 0);
        symdb_ply_free(sp);
    }
    *nlayers = want;
    return rc;
}

/* Loads ply p from DIR instead of classifying it: builds its sets (each
 * count must be the one saved) or only counts them from the file. */
ErrCode sym_load_ply(Sym *s, int p, bool build) {
    Ply *pl = &s->ply[p];
    SymPly sp;
    int want = 0;
    ErrCode rc = read_ply(s, p, &sp, &want);
    if (rc != ERR_OK) {
        return rc;
    }
    rc = sym_alloc_layers(s, pl, want);
    if (rc == ERR_OK && !build) {
        pl->counted = calloc((size_t)NCLS * (size_t)want, sizeof *pl->counted);
        if (pl->counted == NULL) {
            rc = error_set(s->err, ERR_MEMORY, "symbolic: out of memory to count ply %d", p);
        }
        for (int i = 0; rc == ERR_OK && i < NCLS * want; i++) {
            pl->counted[i] = (double)sp.counts[i];
        }
        pl->counted_nodes = sp.nnodes;
        symdb_ply_free(&sp);
        return rc;
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

/* A reachable set's file: one layer, the set as its win root, false and
 * false; `remoteness` 0. */
static ErrCode read_reach(Sym *s, int p, SymPly *sp) {
    ErrCode rc = symdb_ply_read(&s->dir, s->g, &s->reach_entry[p], sp, s->err);
    if (rc == ERR_OK && (sp->nlayers != 1 || sp->remoteness || sp->roots[1] != 0 ||
                         sp->roots[2] != 0 || sp->counts[1] != 0 || sp->counts[2] != 0)) {
        rc = error_set(s->err, ERR_IO,
                       "%s/%s is not a reachable set (it holds %u layers of three sets); "
                       "remove the directory and solve again",
                       s->dir.path, s->reach_entry[p].name, sp->nlayers);
        symdb_ply_free(sp);
    }
    return rc;
}

ErrCode sym_save_reach(Sym *s, int p) {
    const Ply *pl = &s->ply[p];
    BDD roots[NCLS] = {pl->reach, bddfalse, bddfalse};
    uint64_t counts[NCLS] = {(uint64_t)llround(pl->reach_count), 0, 0};
    SymPly sp = {.ply = (uint32_t)p, .nlayers = 1, .nvars = (uint32_t)s->enc->nvars};
    sp.counts = counts;
    ErrCode rc = symio_dump(roots, NCLS, sym_ply_copy(s, p), &sp, s->err);
    char name[DBSTORE_NAME_MAX];
    symdb_reach_name(p, name, sizeof name);
    if (rc == ERR_OK) {
        rc = symdb_ply_write(&s->dir, s->g, &sp, name, &s->reach_entry[p], s->err);
    }
    sp.counts = NULL;
    symdb_ply_free(&sp);
    if (rc == ERR_OK) {
        stop_point(s);
    }
    return rc;
}

ErrCode sym_load_reach(Sym *s, int p) {
    Ply *pl = &s->ply[p];
    SymPly sp;
    ErrCode rc = read_reach(s, p, &sp);
    if (rc != ERR_OK) {
        return rc;
    }
    BDD b[NCLS] = {bddfalse, bddfalse, bddfalse};
    rc = symio_load(&sp, b, sym_ply_copy(s, p), s->err);
    if (rc == ERR_OK) {
        rc = sym_bdd_failed(s);
    }
    if (rc == ERR_OK) {
        sym_assign(&pl->reach, b[0]);
        if (sym_count(s, pl->reach, p) != pl->reach_count) {
            rc = error_set(s->err, ERR_IO,
                           "%s/%s holds %.0f positions, the forward pass %.0f; remove the "
                           "directory and solve again",
                           s->dir.path, s->reach_entry[p].name, sym_count(s, pl->reach, p),
                           pl->reach_count);
        }
    }
    for (int c = 0; c < NCLS; c++) {
        bdd_delref(b[c]);
    }
    symdb_ply_free(&sp);
    return rc;
}

ErrCode sym_read_forward(Sym *s) {
    if (!s->saving) {
        return ERR_OK;
    }
    int last = -1;
    for (int p = 0; p <= s->depth; p++) {
        if (s->reach_entry[p].name[0] != '\0') {
            last = p;
        }
    }
    bool whole = last >= 0;
    for (int p = 0; p <= last && whole; p++) {
        whole =
            s->reach_entry[p].name[0] != '\0' && dbstore_exists(&s->dir, s->reach_entry[p].name);
    }
    if (!whole) {
        memset(s->reach_entry, 0, ((size_t)s->depth + 2) * sizeof *s->reach_entry);
        return ERR_OK;
    }
    fprintf(stderr,
            "symbolic: resuming from %s: the reachable sets of plies 0 to %d are read, not "
            "computed\n",
            s->dir.path, last);
    ErrCode rc = ERR_OK;
    for (int p = 0; p <= last && rc == ERR_OK; p++) {
        Ply *pl = &s->ply[p];
        SymPly sp;
        rc = read_reach(s, p, &sp);
        if (rc != ERR_OK) {
            break;
        }
        pl->reach_count = (double)sp.counts[0];
        pl->reach_nodes = (int)sp.nnodes;
        symdb_ply_free(&sp);
        if (s->progress) {
            fprintf(stderr, "symbolic: forward ply %d (read): %.0f positions, %d nodes\n", p,
                    pl->reach_count, pl->reach_nodes);
        }
    }
    s->last = last;
    s->forward_read = rc == ERR_OK;
    return rc;
}

void sym_save_end(Sym *s) {
    if (s->saving) {
        dbstore_dir_close(&s->dir);
    }
    free(s->entry);
    free(s->reach_entry);
    s->entry = NULL;
    s->reach_entry = NULL;
}
