/* solvers/symbolic_io.c: see symbolic_io.h. The dump numbers nodes in
 * depth-first post-order through an open-addressing map from BuDDy's node
 * index to the dump's id, sized from bdd_anodecount. */
#include "solvers/symbolic_io.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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
