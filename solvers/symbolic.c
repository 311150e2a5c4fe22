/* solvers/symbolic.c: symbolic search over BDDs (Edelkamp and Kissmann's
 * method; BuDDy, Debian's libbdd-dev).
 *
 * The game declares a Boolean encoding (games/game.h GameEncoding): a
 * position is an assignment of nvars variables, a move a guarded assignment
 * (pre, set), and primitive positions are given as disjunctions of terms.
 * Sets of positions are BDDs over those variables, one per ply (the
 * encoding promises that a position is only ever reached after the same
 * number of moves). Per move (relprod=0) no "next state" copies of the
 * variables are needed:
 *
 *   image of S under move m      (exists vars(set_m). S and pre_m) and set_m
 *                                (bdd_appex, then one and with a cube)
 *   preimage of S' under move m  pre_m and S'|set_m  (the cofactor of S' by
 *                                the cube set_m: bdd_restrict)
 *
 * Option relprod chooses how the images and preimages of a ply are formed:
 * 0, the two lines above, one per move and a union; 1, one relational
 * product per group of moves (a Connect Four column) over primed copies of
 * the group's variables; 2 (the default), one relational product with the
 * whole transition relation T(X, X') (Edelkamp and Kissmann's, as Böck's
 * solver uses it): preimage(S') = exists X'. T(X, X') and S'(X'), no union
 * of parts. The plies alternate between the two copies X and X' (ply p on
 * copy p % 2, as in Böck's solver), so nothing is renamed either. On
 * Connect Four 6x4 (`tromp`, remoteness=0) 2 makes 27 to 29 million BDD
 * nodes where 1 made 73 million (docs/symbolic.md).
 *
 * 1. Forward: R_0 = {initial}; R_{p+1} = union over moves of the image of
 *    R_p minus its primitive positions (which have no successors: a line
 *    of the player who just moved, or a full board).
 * 2. Backward, ply by ply from the last: the primitive positions of R_p
 *    take their values (remoteness 0); of the others N_p,
 *      win  = N_p and pre(lose_{p+1})
 *      tie  = N_p minus win, and pre(tie_{p+1})
 *      lose = the rest (every child wins)
 *    With remoteness (the default), the sets are split into layers of
 *    exactly r plies, following core/value.h: win in r = N_p and
 *    pre(lose_{p+1} in r-1), minus the wins already found for smaller r;
 *    tie in r likewise from the ties in r-1; lose in r = lose and
 *    pre(win_{p+1} in r-1), minus the losses found for larger r (r counted
 *    down: 1 + max over the children). That is O(D) preimages per ply for D
 *    plies left instead of 2, the cost `remoteness=0` saves.
 * 3. Counts: bdd_satcount of each set (every variable is determined in a
 *    reachable set, so assignments are positions). When the database fits
 *    (remoteness on, at most export_max positions, within the memory
 *    budget), every layer is enumerated (bdd_allsat) into an ordinary
 *    Database through the encoding's position() (the game's hash,
 *    canonicalized with `sym`), so --query and the cross-check tests work;
 *    otherwise the result carries the totals only (res->summary).
 *
 * BuDDy is single-threaded and global: one solve at a time per process,
 * --threads above 1 is refused. Its node table (20 bytes a node) grows
 * from `nodes` up to a bound taken from the memory budget (or `max_nodes`);
 * the operator caches hold nodes/cache_ratio entries. Running out of nodes
 * stops the solve with ERR_MEMORY. Garbage collections, node counts and
 * BDD operations are reported as solver figures (solve_result_extra).
 *
 * Time: per ply, one image or preimage per move and per layer; each is
 * O(|S| * |pre|) in BDD nodes. Memory: the BDDs of every reachable ply
 * (kept from the forward pass until the backward pass reaches them) and the
 * layers of two plies; with a database, one record per hash slot as well.
 */
#include <bdd.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/mem.h"
#include "solvers/solver.h"
#include "solvers/store.h"
#include "solvers/symbolic.h"
#include "solvers/symbolic_db.h"
#include "solvers/symbolic_io.h"

/* BuDDy's node (refcount/level, low, high, hash, next: five ints) and its
 * operator caches (six caches of 24-byte entries: apply, ite, quant,
 * appex, replace, misc), for the budget. */
#define NODE_BYTES 20
#define CACHE_BYTES_PER_ENTRY (6 * 24)

enum { CLS_WIN, CLS_LOSE, CLS_TIE, NCLS };
static const Value cls_value[NCLS] = {VALUE_WIN, VALUE_LOSE, VALUE_TIE};

/* The sets of one ply: layer[c][r] holds the positions of class c at
 * remoteness r (remoteness on) or layer[c][0] the whole class (off). */
typedef struct Ply {
    BDD reach;
    int nlayers; /* remoteness 0..nlayers-1 */
    BDD *layer[NCLS];
    double count[NCLS];
    double reach_count;
    int reach_nodes;
} Ply;

typedef struct Sym {
    const Game *g;
    const GameEncoding *enc;
    SolveResult *res;
    Error *err;
    bool remoteness;
    bool simplify; /* shrink finished layers with the reachable set as care set */
    int depth;     /* plies: 0..depth */
    Ply *ply;
    int last; /* last non-empty ply */
    /* the encoding as BDDs (referenced) */
    BDD *pre, *cube, *vars;
    BDD *parts; /* scratch: one BDD per move */
    BDD *np;    /* per move: the ply's non-primitive positions where it is legal */
    /* relprod: moves grouped by the variables they touch (Connect Four: a
     * column), one transition relation per group over primed copies */
    bool relprod;
    int ngroups;
    int *group_of; /* per move */
    struct Group {
        BDD rel;        /* T_g(X, X'_g): some move of g, X'_g its effect */
        BDD pre;        /* some move of g is legal */
        BDD np;         /* this ply's non-primitive positions and pre */
        BDD plain_vars; /* V_g, the variables the moves of g set */
        BDD primed_vars;
        bddPair *to_primed, *to_plain;
    } * grp;
    /* mono: one transition relation over all moves, T(X, X') = OR over m
     * of pre_m(X) and set_m(X') and x'_v = x_v for the variables m does
     * not set (Edelkamp and Kissmann's, as Böck uses it): a preimage is
     * one relational product, no union of parts */
    bool mono;
    BDD trans;
    BDD primed_set;
    bddPair *all_to_primed, *all_to_plain;
    /* With mono the plies alternate between the two copies of the
     * variables (Böck's solver does the same): ply p lives on copy p % 2
     * (BDD variables 2v + p % 2), so neither an image nor a preimage
     * renames anything. cp_* are the copies' versions of the sets above
     * (both copy 0 without mono); step[k] is T from copy k to the other. */
    BDD cp_set[2];
    BDD cp_prim_any[2];
    BDD cp_prim[2][NCLS];
    BDD cp_has_move[2];
    BDD step[2];
    int cur; /* the copy of the ply being classified */
    BDD prim_any;
    BDD prim[NCLS]; /* primitive positions by class */
    BDD has_move;
    BDD initial;
    /* export */
    bool export_db;
    double exported;
    /* --db DIR (solvers/symbolic_db.h): every classified ply is saved, and
     * the plies a previous run saved (resume_from..last) are loaded instead
     * of classified */
    bool saving;
    DbDir dir;
    DbManifestFile *entry; /* per ply: its file (entry[p].name[0] == 0: none) */
    int resume_from;       /* lowest ply loaded from DIR; last + 1: none */
    uint64_t saved_bytes;
    double t_save;
    /* figures */
    uint64_t images, preimages;
    double t0, t_forward, t_backward, t_export;
    bool progress;
    /* The time-left estimate of the backward pass: a ply's cost is taken
     * as its reachable BDD's nodes times the plies after it (the value sets
     * grow more complex than the reachable sets as the pass goes back; on
     * connect4 6x4 they reach 10 times the reachable set's nodes in the
     * middle plies). Rough: printed as "about". */
    double weight_total, weight_done;
    double reach_nodes_sum;
    uint32_t max_remoteness; /* the largest remoteness of a non-empty layer */
} Sym;

/* BuDDy reports through hooks without a context pointer: the solve's
 * figures live here (one solve at a time: BuDDy itself is global). */
static struct {
    int error; /* first BuDDy error code, 0 if none */
    int gcs;
    long gc_clocks;
    double peak_live;  /* nodes in use after a collection, the largest */
    double table_peak; /* node table size, the largest */
    int max_nodes;     /* the bound set on the table */
} hooks;

static void on_error(int code) {
    if (hooks.error == 0) {
        hooks.error = code;
    }
}

static void on_gc(int pre, bddGbcStat *st) {
    if (pre) {
        return;
    }
    hooks.gcs = st->num;
    hooks.gc_clocks = st->sumtime;
    double live = (double)st->nodes - (double)st->freenodes;
    if (live > hooks.peak_live) {
        hooks.peak_live = live;
    }
}

static void on_resize(int old, int now) {
    (void)old;
    if ((double)now > hooks.table_peak) {
        hooks.table_peak = now;
    }
}

/* The error to return once BuDDy has failed (ERR_OK if it has not). */
static ErrCode bdd_failed(Sym *s) {
    if (hooks.error == 0) {
        return ERR_OK;
    }
    char a[32], b[32];
    if (hooks.error == BDD_NODENUM || hooks.error == BDD_MEMORY) {
        return error_set(s->err, ERR_MEMORY,
                         "symbolic: the BDD node table is full (%d nodes of 20 bytes, %s, beside "
                         "the operator caches; memory budget %s): give a larger --max-memory "
                         "(or max_nodes), or solve a smaller board",
                         hooks.max_nodes,
                         mem_format((uint64_t)hooks.table_peak * NODE_BYTES, a, sizeof a),
                         mem_format(mem_budget(), b, sizeof b));
    }
    return error_set(s->err, ERR_INTERNAL, "symbolic: BuDDy failed: %s",
                     bdd_errstring(hooks.error));
}

static BDD keep(BDD b) { return bdd_addref(b); }

/* Encoding variable v is BDD variable 2v; 2v + 1 is its primed copy (the
 * value after a move), used only by the grouped relational products
 * (option relprod), right below it in the order so that renaming keeps the
 * order. */
static int bv(int v) { return 2 * v; }

/* The unprimed variables (referenced; set when BuDDy starts): positions are
 * counted over them, as the primed copies are free in every set. */
static BDD unprimed_set;

/* Replaces *dst (referenced) with b (unreferenced), referencing b. */
static void assign(BDD *dst, BDD b) {
    BDD old = *dst;
    *dst = bdd_addref(b);
    bdd_delref(old);
}

static BDD term_bdd(const GameEncTerm *t) {
    BDD acc = keep(bddtrue);
    for (int i = 0; i < t->n; i++) {
        const GameEncLit *l = &t->lits[i];
        assign(&acc, bdd_and(acc, l->value ? bdd_ithvar(bv(l->var)) : bdd_nithvar(bv(l->var))));
    }
    return acc; /* referenced */
}

/* The positions of a set of ply p (on copy `copy`). */
static double count_in(BDD b, BDD copy_set) {
    return b == bddfalse ? 0 : bdd_satcountset(b, copy_set);
}
#define count_of(s, b, p) count_in((b), (s)->cp_set[ply_copy((s), (p))])

/* ------------------------------------------------------------ encoding */

static ErrCode build_groups(Sym *s);
static ErrCode build_trans(Sym *s);

/* The copy of the variables ply p lives on. */
static int ply_copy(const Sym *s, int p) { return s->mono ? p & 1 : 0; }

static ErrCode build_encoding(Sym *s) {
    const GameEncoding *e = s->enc;
    s->pre = calloc((size_t)e->nmoves, sizeof *s->pre);
    s->cube = calloc((size_t)e->nmoves, sizeof *s->cube);
    s->vars = calloc((size_t)e->nmoves, sizeof *s->vars);
    s->parts = calloc((size_t)e->nmoves, sizeof *s->parts);
    s->np = calloc((size_t)e->nmoves, sizeof *s->np); /* bddfalse is 0 */
    if (s->pre == NULL || s->cube == NULL || s->vars == NULL || s->parts == NULL || s->np == NULL) {
        return error_set(s->err, ERR_MEMORY, "symbolic: out of memory for the moves");
    }
    s->has_move = keep(bddfalse);
    for (int m = 0; m < e->nmoves; m++) {
        s->pre[m] = term_bdd(&e->moves[m].pre);
        s->cube[m] = term_bdd(&e->moves[m].set);
        int vs[GAME_MAX_MOVES];
        int n = e->moves[m].set.n < GAME_MAX_MOVES ? e->moves[m].set.n : GAME_MAX_MOVES;
        for (int i = 0; i < n; i++) {
            vs[i] = bv(e->moves[m].set.lits[i].var);
        }
        s->vars[m] = keep(bdd_makeset(vs, n));
        assign(&s->has_move, bdd_or(s->has_move, s->pre[m]));
    }
    /* Primitive sets: the first entry that matches decides. */
    s->prim_any = keep(bddfalse);
    for (int c = 0; c < NCLS; c++) {
        s->prim[c] = keep(bddfalse);
    }
    for (int i = 0; i < e->nprimitive; i++) {
        const GameEncPrimitive *pe = &e->primitive[i];
        int c = pe->value == VALUE_WIN ? CLS_WIN : pe->value == VALUE_LOSE ? CLS_LOSE : CLS_TIE;
        if (pe->value != VALUE_WIN && pe->value != VALUE_LOSE && pe->value != VALUE_TIE) {
            return error_set(s->err, ERR_INTERNAL,
                             "game '%s': its encoding gives primitive value %s (the symbolic "
                             "solver knows win, lose and tie)",
                             s->g->module->name, value_name(pe->value));
        }
        BDD any = keep(bddfalse);
        for (int k = 0; k < pe->nterms; k++) {
            BDD t = term_bdd(&pe->terms[k]);
            assign(&any, bdd_or(any, t));
            bdd_delref(t);
        }
        BDD fresh = keep(bdd_apply(any, s->prim_any, bddop_diff));
        assign(&s->prim[c], bdd_or(s->prim[c], fresh));
        bdd_delref(fresh);
        assign(&s->prim_any, bdd_or(s->prim_any, any));
        bdd_delref(any);
    }
    if (s->relprod) {
        ErrCode rc = build_groups(s);
        if (rc != ERR_OK) {
            return rc;
        }
    }
    if (s->mono) {
        ErrCode rc = build_trans(s);
        if (rc != ERR_OK) {
            return rc;
        }
    }
    s->initial = keep(bddtrue);
    for (int v = 0; v < e->nvars; v++) {
        assign(&s->initial,
               bdd_and(s->initial, e->initial[v] ? bdd_ithvar(bv(v)) : bdd_nithvar(bv(v))));
    }
    s->cp_set[0] = keep(unprimed_set);
    s->cp_prim_any[0] = keep(s->prim_any);
    s->cp_has_move[0] = keep(s->has_move);
    for (int c = 0; c < NCLS; c++) {
        s->cp_prim[0][c] = keep(s->prim[c]);
    }
    if (!s->mono) {
        s->cp_set[1] = keep(unprimed_set);
        s->cp_prim_any[1] = keep(s->prim_any);
        s->cp_has_move[1] = keep(s->has_move);
        for (int c = 0; c < NCLS; c++) {
            s->cp_prim[1][c] = keep(s->prim[c]);
        }
        return bdd_failed(s);
    }
    s->cp_set[1] = keep(s->primed_set);
    s->cp_prim_any[1] = keep(bdd_replace(s->prim_any, s->all_to_primed));
    s->cp_has_move[1] = keep(bdd_replace(s->has_move, s->all_to_primed));
    for (int c = 0; c < NCLS; c++) {
        s->cp_prim[1][c] = keep(bdd_replace(s->prim[c], s->all_to_primed));
    }
    /* T from copy 1 to copy 0: T with the copies swapped */
    bddPair *swap = bdd_newpair();
    if (swap == NULL) {
        return error_set(s->err, ERR_MEMORY, "symbolic: out of memory for the transition relation");
    }
    for (int v = 0; v < e->nvars; v++) {
        bdd_setpair(swap, bv(v), bv(v) + 1);
        bdd_setpair(swap, bv(v) + 1, bv(v));
    }
    s->step[0] = keep(s->trans);
    s->step[1] = keep(bdd_replace(s->trans, swap));
    bdd_freepair(swap);
    return bdd_failed(s);
}

/* Groups of moves for the relational products: moves are joined when they
 * touch (pre or set) a common variable, leaving out the variables every
 * move sets (the turn), so that Connect Four's groups are its columns and
 * tic-tac-toe's its cells. Group g's relation is the union over its moves
 * of pre_m(X) and set_m(X') and v' = v for the other variables of V_g (the
 * variables the group's moves set); variables outside V_g are left alone,
 * since the preimage renames only V_g. */
static int find(int *parent, int m) {
    while (parent[m] != m) {
        parent[m] = parent[parent[m]];
        m = parent[m];
    }
    return m;
}

static ErrCode build_groups(Sym *s) {
    const GameEncoding *e = s->enc;
    int nm = e->nmoves, nv = e->nvars;
    int *parent = calloc((size_t)nm, sizeof *parent);
    int *first = calloc((size_t)nv, sizeof *first); /* a move touching v, or -1 */
    int *setby = calloc((size_t)nv, sizeof *setby); /* moves setting v */
    uint8_t *in = calloc((size_t)nv, 1);
    int *vs = calloc((size_t)nv, sizeof *vs);
    s->group_of = calloc((size_t)nm, sizeof *s->group_of);
    s->grp = calloc((size_t)nm, sizeof *s->grp);
    ErrCode rc = ERR_OK;
    if (parent == NULL || first == NULL || setby == NULL || in == NULL || vs == NULL ||
        s->group_of == NULL || s->grp == NULL) {
        rc = error_set(s->err, ERR_MEMORY, "symbolic: out of memory for the move groups");
    }
    for (int m = 0; rc == ERR_OK && m < nm; m++) {
        parent[m] = m;
        for (int i = 0; i < e->moves[m].set.n; i++) {
            setby[e->moves[m].set.lits[i].var]++;
        }
    }
    for (int v = 0; rc == ERR_OK && v < nv; v++) {
        first[v] = -1;
    }
    for (int m = 0; rc == ERR_OK && m < nm; m++) {
        const GameEncTerm *ts[2] = {&e->moves[m].pre, &e->moves[m].set};
        for (int k = 0; k < 2; k++) {
            for (int i = 0; i < ts[k]->n; i++) {
                int v = ts[k]->lits[i].var;
                if (setby[v] == nm) {
                    continue; /* set by every move: joins nothing */
                }
                if (first[v] < 0) {
                    first[v] = m;
                } else {
                    parent[find(parent, m)] = find(parent, first[v]);
                }
            }
        }
    }
    for (int m = 0; rc == ERR_OK && m < nm; m++) {
        int r = find(parent, m);
        if (r == m) {
            s->group_of[m] = s->ngroups++;
        }
    }
    for (int m = 0; rc == ERR_OK && m < nm; m++) {
        s->group_of[m] = s->group_of[find(parent, m)];
    }
    for (int g = 0; rc == ERR_OK && g < s->ngroups; g++) {
        struct Group *gr = &s->grp[g];
        memset(in, 0, (size_t)nv);
        for (int m = 0; m < nm; m++) {
            for (int i = 0; s->group_of[m] == g && i < e->moves[m].set.n; i++) {
                in[e->moves[m].set.lits[i].var] = 1;
            }
        }
        int n = 0;
        gr->to_primed = bdd_newpair();
        gr->to_plain = bdd_newpair();
        if (gr->to_primed == NULL || gr->to_plain == NULL) {
            rc = error_set(s->err, ERR_MEMORY, "symbolic: out of memory for the move groups");
            break;
        }
        for (int v = 0; v < nv; v++) {
            if (in[v]) {
                vs[n++] = bv(v);
                bdd_setpair(gr->to_primed, bv(v), bv(v) + 1);
                bdd_setpair(gr->to_plain, bv(v) + 1, bv(v));
            }
        }
        gr->plain_vars = keep(bdd_makeset(vs, n));
        for (int i = 0; i < n; i++) {
            vs[i]++;
        }
        gr->primed_vars = keep(bdd_makeset(vs, n));
        gr->rel = keep(bddfalse);
        gr->pre = keep(bddfalse);
        gr->np = keep(bddfalse);
        for (int m = 0; m < nm; m++) {
            if (s->group_of[m] != g) {
                continue;
            }
            const GameEncTerm *set = &e->moves[m].set;
            BDD t = keep(s->pre[m]);
            uint8_t *mine = calloc((size_t)nv, 1);
            if (mine == NULL) {
                bdd_delref(t);
                rc = error_set(s->err, ERR_MEMORY, "symbolic: out of memory");
                break;
            }
            for (int i = 0; i < set->n; i++) {
                int v = set->lits[i].var;
                mine[v] = 1;
                assign(&t, bdd_and(t, set->lits[i].value ? bdd_ithvar(bv(v) + 1)
                                                         : bdd_nithvar(bv(v) + 1)));
            }
            for (int v = 0; v < nv; v++) {
                if (in[v] && !mine[v]) {
                    BDD same = keep(bdd_biimp(bdd_ithvar(bv(v)), bdd_ithvar(bv(v) + 1)));
                    assign(&t, bdd_and(t, same));
                    bdd_delref(same);
                }
            }
            free(mine);
            assign(&gr->rel, bdd_or(gr->rel, t));
            assign(&gr->pre, bdd_or(gr->pre, s->pre[m]));
            bdd_delref(t);
        }
    }
    free(parent);
    free(first);
    free(setby);
    free(in);
    free(vs);
    return rc != ERR_OK ? rc : bdd_failed(s);
}

/* The monolithic transition relation (option mono) and the renamings of
 * every variable to its primed copy and back. Each move's term is built
 * bottom up (the identities of the variables it leaves alone, then its
 * assignment and its precondition), so that every and adds one level. */
static ErrCode build_trans(Sym *s) {
    const GameEncoding *e = s->enc;
    int nv = e->nvars;
    uint8_t *mine = calloc((size_t)nv, 1);
    int *vs = calloc((size_t)nv, sizeof *vs);
    s->all_to_primed = bdd_newpair();
    s->all_to_plain = bdd_newpair();
    if (mine == NULL || vs == NULL || s->all_to_primed == NULL || s->all_to_plain == NULL) {
        free(mine);
        free(vs);
        return error_set(s->err, ERR_MEMORY, "symbolic: out of memory for the transition relation");
    }
    for (int v = 0; v < nv; v++) {
        bdd_setpair(s->all_to_primed, bv(v), bv(v) + 1);
        bdd_setpair(s->all_to_plain, bv(v) + 1, bv(v));
        vs[v] = bv(v) + 1;
    }
    s->primed_set = keep(bdd_makeset(vs, nv));
    s->trans = keep(bddfalse);
    for (int m = 0; m < e->nmoves && hooks.error == 0; m++) {
        const GameEncTerm *set = &e->moves[m].set;
        memset(mine, 0, (size_t)nv);
        BDD t = keep(s->pre[m]);
        for (int i = 0; i < set->n; i++) {
            int v = set->lits[i].var;
            mine[v] = 1;
            assign(&t,
                   bdd_and(t, set->lits[i].value ? bdd_ithvar(bv(v) + 1) : bdd_nithvar(bv(v) + 1)));
        }
        for (int v = nv - 1; v >= 0; v--) {
            if (!mine[v]) {
                BDD same = keep(bdd_biimp(bdd_ithvar(bv(v)), bdd_ithvar(bv(v) + 1)));
                assign(&t, bdd_and(t, same));
                bdd_delref(same);
            }
        }
        assign(&s->trans, bdd_or(s->trans, t));
        bdd_delref(t);
    }
    free(mine);
    free(vs);
    return bdd_failed(s);
}

/* ------------------------------------------------------------ progress */

static void progress(Sym *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void progress(Sym *s, const char *fmt, ...) {
    if (!s->progress) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "symbolic: ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, ", %d live nodes (table %d), %.1f s elapsed", bdd_getnodenum(),
            bdd_getallocnum(), clock_seconds() - s->t0);
    if (s->weight_total > 0 && s->weight_done > 0) {
        double spent = clock_seconds() - s->t_forward;
        fprintf(stderr, ", about %.0f s left",
                spent / s->weight_done * (s->weight_total - s->weight_done));
    }
    fprintf(stderr, "\n");
}

/* ------------------------------------------------------------- forward */

/* The union of parts[0..n) (each referenced; the references are consumed),
 * as a balanced tree of ors: each level costs about the total size of the
 * parts, where or-ing into one growing accumulator would cost n times the
 * result. */
static BDD union_all(BDD *parts, int n) {
    if (n == 0) {
        return keep(bddfalse);
    }
    for (int step = 1; step < n; step *= 2) {
        for (int i = 0; i + step < n; i += 2 * step) {
            assign(&parts[i], bdd_or(parts[i], parts[i + step]));
            bdd_delref(parts[i + step]);
        }
    }
    return parts[0]; /* referenced */
}

/* The successors of the non-primitive set n (a set of one ply). */
static BDD image(Sym *s, BDD n, int k0) {
    int k = 0;
    if (s->mono) {
        s->images++;
        return keep(bdd_appex(n, s->step[k0], bddop_and, s->cp_set[k0]));
    }
    if (s->relprod) {
        for (int g = 0; g < s->ngroups && hooks.error == 0; g++) {
            struct Group *gr = &s->grp[g];
            BDD q = keep(bdd_appex(n, gr->rel, bddop_and, gr->plain_vars));
            s->images++;
            if (q != bddfalse) {
                s->parts[k++] = keep(bdd_replace(q, gr->to_plain));
            }
            bdd_delref(q);
        }
        return union_all(s->parts, k); /* referenced */
    }
    for (int m = 0; m < s->enc->nmoves && hooks.error == 0; m++) {
        BDD q = keep(bdd_appex(n, s->pre[m], bddop_and, s->vars[m]));
        s->images++;
        if (q != bddfalse) {
            s->parts[k++] = keep(bdd_and(q, s->cube[m]));
        }
        bdd_delref(q);
    }
    return union_all(s->parts, k); /* referenced */
}

static ErrCode forward(Sym *s) {
    const Game *g = s->g;
    s->ply[0].reach = keep(s->initial);
    s->last = 0;
    for (int p = 0; p <= s->depth; p++) {
        Ply *pl = &s->ply[p];
        pl->reach_count = count_of(s, pl->reach, p);
        pl->reach_nodes = bdd_nodecount(pl->reach);
        int k = ply_copy(s, p);
        BDD n = keep(bdd_apply(pl->reach, s->cp_prim_any[k], bddop_diff));
        BDD stuck = keep(bdd_apply(n, s->cp_has_move[k], bddop_diff));
        ErrCode rc = bdd_failed(s);
        if (rc == ERR_OK && stuck != bddfalse) {
            rc = error_set(s->err, ERR_INTERNAL,
                           "game '%s': its encoding has %.0f positions at ply %d that are not "
                           "primitive but have no move",
                           g->module->name, count_of(s, stuck, p), p);
        }
        bdd_delref(stuck);
        if (rc == ERR_OK && p == s->depth && n != bddfalse) {
            rc = solver_depth_error(g, s->err);
        }
        if (rc != ERR_OK || n == bddfalse) {
            bdd_delref(n);
            if (rc == ERR_OK) {
                progress(s, "forward ply %d: %.0f positions, %d nodes", p, pl->reach_count,
                         pl->reach_nodes);
            }
            return rc;
        }
        s->ply[p + 1].reach = image(s, n, ply_copy(s, p));
        bdd_delref(n);
        rc = bdd_failed(s);
        if (rc != ERR_OK) {
            return rc;
        }
        progress(s, "forward ply %d: %.0f positions, %d nodes", p, pl->reach_count,
                 pl->reach_nodes);
        if (s->ply[p + 1].reach == bddfalse) {
            return ERR_OK;
        }
        s->last = p + 1;
    }
    return ERR_OK;
}

/* ------------------------------------------------------------ backward */

/* The non-primitive positions of the ply being classified (s->np[m]: those
 * where move m is legal, computed once per ply) with a move into the set t
 * of the next ply, intersected with `within` (bddtrue: all of them). */
static BDD preimage(Sym *s, BDD within, BDD t) {
    if (t == bddfalse || within == bddfalse) {
        return keep(bddfalse);
    }
    int k = 0;
    if (s->mono) {
        /* t lives on the other copy than the ply being classified */
        BDD q = keep(bdd_appex(s->step[s->cur], t, bddop_and, s->cp_set[1 - s->cur]));
        s->preimages++;
        assign(&q, bdd_and(q, within));
        return q;
    }
    for (int g = 0; s->relprod && g < s->ngroups && hooks.error == 0; g++) {
        struct Group *gr = &s->grp[g];
        if (gr->np == bddfalse) {
            continue;
        }
        BDD t2 = keep(bdd_replace(t, gr->to_primed));
        BDD q = keep(bdd_appex(gr->rel, t2, bddop_and, gr->primed_vars));
        s->preimages++;
        if (q != bddfalse) {
            s->parts[k++] = keep(bdd_and(gr->np, q));
        }
        bdd_delref(q);
        bdd_delref(t2);
    }
    for (int m = 0; !s->relprod && m < s->enc->nmoves && hooks.error == 0; m++) {
        if (s->np[m] == bddfalse) {
            continue;
        }
        BDD q = keep(bdd_restrict(t, s->cube[m]));
        s->preimages++;
        if (q != bddfalse) {
            s->parts[k++] = keep(bdd_and(s->np[m], q));
        }
        bdd_delref(q);
    }
    BDD acc = union_all(s->parts, k);
    if (within != bddtrue) {
        assign(&acc, bdd_and(acc, within));
    }
    return acc; /* referenced */
}

/* s->np[m] = n and pre_m for every move (bddfalse when n is). */
static void set_np(Sym *s, BDD n) {
    if (s->mono) {
        return;
    }
    for (int g = 0; s->relprod && g < s->ngroups; g++) {
        assign(&s->grp[g].np, n == bddfalse ? bddfalse : bdd_and(n, s->grp[g].pre));
    }
    for (int m = 0; !s->relprod && m < s->enc->nmoves; m++) {
        assign(&s->np[m], n == bddfalse ? bddfalse : bdd_and(n, s->pre[m]));
    }
}

static ErrCode alloc_layers(Sym *s, Ply *pl, int nlayers) {
    pl->nlayers = nlayers;
    for (int c = 0; c < NCLS; c++) {
        pl->layer[c] = calloc((size_t)nlayers, sizeof(BDD));
        if (pl->layer[c] == NULL) {
            return error_set(s->err, ERR_MEMORY, "symbolic: out of memory for the layers");
        }
        for (int r = 0; r < nlayers; r++) {
            pl->layer[c][r] = keep(bddfalse);
        }
    }
    return ERR_OK;
}

static void free_layers(Ply *pl) {
    for (int c = 0; c < NCLS; c++) {
        if (pl->layer[c] != NULL) {
            for (int r = 0; r < pl->nlayers; r++) {
                bdd_delref(pl->layer[c][r]);
            }
            free(pl->layer[c]);
            pl->layer[c] = NULL;
        }
    }
    pl->nlayers = 0;
}

/* The union of a class's layers (referenced). */
static BDD class_set(const Ply *pl, int c) {
    BDD acc = keep(bddfalse);
    for (int r = 0; r < pl->nlayers; r++) {
        assign(&acc, bdd_or(acc, pl->layer[c][r]));
    }
    return acc;
}

/* Classifies ply p from ply p + 1 (empty past the last ply). */
static ErrCode classify(Sym *s, int p) {
    Ply *pl = &s->ply[p];
    const Ply *next = p + 1 <= s->last ? &s->ply[p + 1] : NULL;
    int left = s->depth - p; /* plies left: remoteness at most that */
    ErrCode rc = alloc_layers(s, pl, s->remoteness ? left + 1 : 1);
    if (rc != ERR_OK) {
        return rc;
    }
    s->cur = ply_copy(s, p);
    for (int c = 0; c < NCLS; c++) {
        assign(&pl->layer[c][0], bdd_and(pl->reach, s->cp_prim[s->cur][c]));
    }
    BDD n = keep(bdd_apply(pl->reach, s->cp_prim_any[s->cur], bddop_diff));
    if (n == bddfalse || next == NULL) {
        bdd_delref(n);
        return bdd_failed(s);
    }
    set_np(s, n);
    if (!s->remoteness) {
        BDD nl = class_set(next, CLS_LOSE), nt = class_set(next, CLS_TIE);
        BDD win = preimage(s, n, nl);
        BDD rest = keep(bdd_apply(n, win, bddop_diff));
        BDD tie = preimage(s, rest, nt);
        assign(&pl->layer[CLS_WIN][0], bdd_or(pl->layer[CLS_WIN][0], win));
        assign(&pl->layer[CLS_TIE][0], bdd_or(pl->layer[CLS_TIE][0], tie));
        BDD lose = keep(bdd_apply(rest, tie, bddop_diff));
        assign(&pl->layer[CLS_LOSE][0], bdd_or(pl->layer[CLS_LOSE][0], lose));
        bdd_delref(lose);
        bdd_delref(nl);
        bdd_delref(nt);
        bdd_delref(win);
        bdd_delref(rest);
        bdd_delref(tie);
        bdd_delref(n);
        set_np(s, bddfalse);
        return bdd_failed(s);
    }
    /* Wins: the smallest r whose lose layer of the next ply is reachable. */
    BDD open = keep(n);
    for (int r = 1; r <= left && r - 1 < next->nlayers && hooks.error == 0; r++) {
        BDD w = preimage(s, open, next->layer[CLS_LOSE][r - 1]);
        assign(&pl->layer[CLS_WIN][r], w);
        assign(&open, bdd_apply(open, w, bddop_diff));
        bdd_delref(w);
    }
    /* Ties among the rest: the smallest r of a tie child. */
    BDD lose = keep(open);
    for (int r = 1; r <= left && r - 1 < next->nlayers && hooks.error == 0; r++) {
        BDD t = preimage(s, lose, next->layer[CLS_TIE][r - 1]);
        assign(&pl->layer[CLS_TIE][r], t);
        assign(&lose, bdd_apply(lose, t, bddop_diff));
        bdd_delref(t);
    }
    /* Losses: every child wins; remoteness 1 + the largest child's. */
    for (int r = left; r >= 1 && hooks.error == 0; r--) {
        if (r - 1 >= next->nlayers) {
            continue;
        }
        BDD l = preimage(s, lose, next->layer[CLS_WIN][r - 1]);
        assign(&pl->layer[CLS_LOSE][r], l);
        assign(&lose, bdd_apply(lose, l, bddop_diff));
        bdd_delref(l);
    }
    rc = bdd_failed(s);
    if (rc == ERR_OK && lose != bddfalse) {
        rc = error_set(s->err, ERR_INTERNAL,
                       "symbolic: %.0f positions at ply %d have no value (a child outside the "
                       "next ply?)",
                       count_of(s, lose, p), p);
    }
    bdd_delref(lose);
    bdd_delref(open);
    bdd_delref(n);
    set_np(s, bddfalse);
    return rc;
}

/* ------------------------------------------------------------- export */

/* bdd_allsat has no context argument: the export in progress. */
static struct {
    Sym *s;
    Value value;
    uint32_t r;
    int copy; /* the copy of the variables of the ply exported */
    uint8_t *values;
    int *free_vars;
    ErrCode rc;
} ex;

static void export_one(void) {
    Sym *s = ex.s;
    const Game *g = s->g;
    Position pos = game_canonical(g, s->enc->position(g, ex.values));
    if (pos >= g->num_positions) {
        ex.rc = error_set(s->err, ERR_INTERNAL,
                          "game '%s': its encoding maps a position to hash %" PRIu64
                          ", outside the hash space",
                          g->module->name, pos);
        return;
    }
    ErrCode rc = solver_store(g, &s->res->db, pos, (Outcome){ex.value, ex.r}, 0, s->err);
    if (rc != ERR_OK) {
        ex.rc = rc;
    }
    s->exported++;
}

static void on_sat(char *profile, int size) {
    if (ex.rc != ERR_OK) {
        return;
    }
    int nfree = 0;
    for (int v = 0; bv(v) + ex.copy < size; v++) {
        if (profile[bv(v) + ex.copy] < 0) {
            ex.free_vars[nfree++] = v;
            ex.values[v] = 0;
        } else {
            ex.values[v] = (uint8_t)profile[bv(v) + ex.copy];
        }
    }
    if (nfree > 20) {
        ex.rc = error_set(ex.s->err, ERR_INTERNAL,
                          "game '%s': its encoding leaves %d variables free in a set of "
                          "positions (one assignment per position is its contract)",
                          ex.s->g->module->name, nfree);
        return;
    }
    for (uint32_t bits = 0; bits < (UINT32_C(1) << nfree) && ex.rc == ERR_OK; bits++) {
        for (int i = 0; i < nfree; i++) {
            ex.values[ex.free_vars[i]] = (uint8_t)((bits >> i) & 1);
        }
        export_one();
    }
}

static ErrCode export_ply(Sym *s, const Ply *pl, int p) {
    ex.s = s;
    ex.copy = ply_copy(s, p);
    ex.rc = ERR_OK;
    for (int c = 0; c < NCLS && ex.rc == ERR_OK; c++) {
        for (int r = 0; r < pl->nlayers && ex.rc == ERR_OK; r++) {
            if (pl->layer[c][r] == bddfalse) {
                continue;
            }
            ex.value = cls_value[c];
            ex.r = (uint32_t)r;
            bdd_allsat(pl->layer[c][r], on_sat);
        }
    }
    return ex.rc;
}

/* ------------------------------------------------------------- saving */

/* Opens DIR (--db) as its only writer, refuses another variant's database,
 * and notes the plies a previous symbolic solve of this variant saved
 * there. A database of another layout is removed (manifest first): this
 * solve replaces it. */
static ErrCode save_begin(Sym *s, const char *path) {
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
static void save_plan(Sym *s) {
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
static ErrCode save_manifest(Sym *s, const DbSummary *sum, bool complete) {
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
static ErrCode save_ply(Sym *s, int p) {
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
            sp.counts[c * pl->nlayers + r] = (uint64_t)llround(count_of(s, pl->layer[c][r], p));
        }
    }
    if (rc == ERR_OK) {
        rc = symio_dump(roots, n, ply_copy(s, p), &sp, s->err);
    }
    if (rc == ERR_OK) {
        rc = symdb_ply_write(&s->dir, s->g, &sp, &s->entry[p], s->err);
    }
    if (rc == ERR_OK) {
        s->saved_bytes += s->entry[p].bytes;
        rc = save_manifest(s, NULL, false);
    }
    symdb_ply_free(&sp);
    free(roots);
    return rc;
}

/* Loads ply p's sets from DIR instead of classifying it; each set's count
 * must be the one saved. */
static ErrCode load_ply(Sym *s, int p) {
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
        rc = alloc_layers(s, pl, want);
    }
    BDD *b = rc == ERR_OK ? calloc((size_t)NCLS * (size_t)want, sizeof *b) : NULL;
    if (rc == ERR_OK && b == NULL) {
        rc = error_set(s->err, ERR_MEMORY, "symbolic: out of memory to load ply %d", p);
    }
    if (rc == ERR_OK) {
        rc = symio_load(&sp, b, ply_copy(s, p), s->err);
    }
    for (int i = 0; rc == ERR_OK && i < NCLS * want; i++) {
        BDD *dst = &pl->layer[i / want][i % want];
        bdd_delref(*dst);
        *dst = b[i];
    }
    if (rc == ERR_OK) {
        rc = bdd_failed(s);
    }
    for (int i = 0; rc == ERR_OK && i < NCLS * want; i++) {
        if ((uint64_t)llround(count_of(s, b[i], p)) != sp.counts[i]) {
            rc = error_set(s->err, ERR_IO,
                           "%s/%s: a set holds %.0f positions, %" PRIu64
                           " when saved; remove the directory and solve again",
                           s->dir.path, s->entry[p].name, count_of(s, b[i], p), sp.counts[i]);
        }
    }
    free(b);
    symdb_ply_free(&sp);
    return rc;
}

/* --------------------------------------------------------------- solve */

static ErrCode backward(Sym *s, DbSummary *sum) {
    ErrCode rc = ERR_OK;
    for (int p = s->last; p >= 0 && rc == ERR_OK; p--) {
        Ply *pl = &s->ply[p];
        rc = p >= s->resume_from ? load_ply(s, p) : classify(s, p);
        double total = 0;
        for (int c = 0; c < NCLS && rc == ERR_OK; c++) {
            pl->count[c] = 0;
            for (int r = 0; r < pl->nlayers; r++) {
                double k = count_of(s, pl->layer[c][r], p);
                pl->count[c] += k;
                if (k > 0 && (uint32_t)r > s->max_remoteness) {
                    s->max_remoteness = (uint32_t)r;
                }
                if (sum->by_remoteness != NULL) {
                    sum->by_remoteness[r][cls_value[c]] += (uint64_t)llround(k);
                    if (k > 0 && (uint32_t)r > sum->max_remoteness) {
                        sum->max_remoteness = (uint32_t)r;
                    }
                }
            }
            sum->count[cls_value[c]] += (uint64_t)llround(pl->count[c]);
            total += pl->count[c];
        }
        if (rc == ERR_OK && total != pl->reach_count) {
            rc = error_set(s->err, ERR_INTERNAL,
                           "symbolic: ply %d has %.0f positions but %.0f classified", p,
                           pl->reach_count, total);
        }
        if (rc == ERR_OK && s->export_db) {
            double t = clock_seconds();
            rc = export_ply(s, pl, p);
            s->t_export += clock_seconds() - t;
        }
        if (rc == ERR_OK && s->saving && p < s->resume_from) {
            double t = clock_seconds();
            rc = save_ply(s, p);
            s->t_save += clock_seconds() - t;
        }
        if (rc == ERR_OK && p == 0) {
            for (int c = 0; c < NCLS; c++) {
                for (int r = 0; r < pl->nlayers; r++) {
                    if (bdd_and(pl->layer[c][r], s->initial) != bddfalse) {
                        s->res->root = (Outcome){cls_value[c], (uint32_t)r};
                    }
                }
            }
        }
        s->weight_done += (double)pl->reach_nodes * (s->last - p + 1);
        if (s->progress) {
            int nodes[NCLS];
            for (int c = 0; c < NCLS; c++) {
                nodes[c] = 0;
                for (int r = 0; r < pl->nlayers; r++) {
                    nodes[c] += bdd_nodecount(pl->layer[c][r]);
                }
            }
            progress(s,
                     "backward ply %d%s: %.0f win, %.0f lose, %.0f tie (%d, %d, %d nodes; reach "
                     "%d)",
                     p, p >= s->resume_from ? " (loaded)" : "", pl->count[CLS_WIN],
                     pl->count[CLS_LOSE], pl->count[CLS_TIE], nodes[CLS_WIN], nodes[CLS_LOSE],
                     nodes[CLS_TIE], pl->reach_nodes);
        }
        /* Ply p + 1 and the reachable set of ply p are no longer needed. The
         * layers of ply p only serve as targets of preimages from ply p - 1,
         * whose moves lead into the reachable set: any function that agrees
         * with a layer there will do, and bdd_simplify (Coudert and Madre's
         * restrict, with the reachable set as the care set) finds a smaller
         * one. */
        if (p + 1 <= s->last) {
            free_layers(&s->ply[p + 1]);
        }
        for (int c = 0; c < NCLS && s->simplify; c++) {
            for (int r = 0; r < pl->nlayers; r++) {
                if (pl->layer[c][r] != bddfalse) {
                    assign(&pl->layer[c][r], bdd_simplify(pl->layer[c][r], pl->reach));
                }
            }
        }
        bdd_delref(pl->reach);
        pl->reach = bddfalse;
    }
    return rc;
}

/* Chooses between a database and the totals only, once the counts are
 * known. */
static ErrCode choose_export(Sym *s, const SolveConfig *cfg, double positions) {
    const Game *g = s->g;
    double max = (double)opt_int(&cfg->options, "export_max");
    if (cfg->skip_export) {
        return ERR_OK;
    }
    if (!s->remoteness) {
        fprintf(stderr,
                "symbolic: remoteness=0: win/lose/tie only, so no database in memory%s "
                "and no remoteness is computed or printed\n",
                s->saving ? " (--query reads the values from --db DIR's BDDs)"
                          : " (--query is not available)");
        return ERR_OK;
    }
    char a[32], b[32], c[32];
    uint64_t need = db_bytes(g->num_positions, db_width_for(g->max_depth), g->has_winby);
    uint64_t have = mem_allocated();
    if (positions > max || need + have > mem_budget()) {
        fprintf(stderr,
                "symbolic: no database (%.0f positions, export_max %.0f; %s of records beside "
                "%s in use, budget %s): the root value and the counts are reported, --query is "
                "not available\n",
                positions, max, mem_format(need, a, sizeof a), mem_format(have, b, sizeof b),
                mem_format(mem_budget(), c, sizeof c));
        return ERR_OK;
    }
    ex.values = calloc((size_t)s->enc->nvars, 1);
    ex.free_vars = calloc((size_t)s->enc->nvars, sizeof *ex.free_vars);
    if (ex.values == NULL || ex.free_vars == NULL) {
        return error_set(s->err, ERR_MEMORY, "symbolic: out of memory");
    }
    ErrCode rc = solver_db_create(g, &s->res->db, s->err);
    if (rc != ERR_OK) {
        return rc;
    }
    s->res->has_db = true;
    s->export_db = true;
    return ERR_OK;
}

/* Node table bounds from the options and the memory budget. */
static ErrCode start_buddy(Sym *s, const SolveConfig *cfg) {
    int64_t nodes = opt_int(&cfg->options, "nodes");
    int64_t ratio = opt_int(&cfg->options, "cache_ratio");
    int64_t max_nodes = opt_int(&cfg->options, "max_nodes");
    if (max_nodes == 0) {
        /* BuDDy grows the table with realloc, which may hold the old
         * table beside the new one: up to half again (doubling) while it
         * copies. On connect4 6x5 with --max-memory 7G and 20 bytes a node
         * counted, the peak RSS reached 7.3 GiB at a 134-million-node table. */
        double per_node = 1.5 * NODE_BYTES + (double)CACHE_BYTES_PER_ENTRY / (double)ratio;
        double room = (double)mem_budget() - (double)mem_allocated() - 64.0 * 1024 * 1024;
        /* --db: a ply's dump, its file's buffers and BuDDy's freed
         * tables must fit beside the table too (6x5 with --max-memory 7G
         * peaked at 7.29 GiB RSS without this reserve). */
        if (cfg->work_dir != NULL) {
            room *= 0.85;
        }
        max_nodes = room > 0 ? (int64_t)(room / per_node) : 0;
        if (max_nodes > INT32_MAX - 1) {
            max_nodes = INT32_MAX - 1;
        }
    }
    if (nodes > max_nodes) {
        nodes = max_nodes;
    }
    if (max_nodes < 1000) {
        char a[32];
        return error_set(s->err, ERR_MEMORY,
                         "symbolic: the memory budget (%s) leaves no room for a BDD node table",
                         mem_format(mem_budget(), a, sizeof a));
    }
    memset(&hooks, 0, sizeof hooks);
    hooks.max_nodes = (int)max_nodes;
    int cache = (int)(nodes / ratio) > 1000 ? (int)(nodes / ratio) : 1000;
    if (bdd_init((int)nodes, cache) < 0) {
        return error_set(s->err, ERR_MEMORY, "symbolic: BuDDy cannot start with %" PRId64 " nodes",
                         nodes);
    }
    bdd_error_hook(on_error);
    bdd_gbc_hook(on_gc);
    bdd_resize_hook(on_resize);
    hooks.table_peak = bdd_getallocnum();
    bdd_setmaxnodenum((int)max_nodes);
    bdd_setmaxincrease((int)opt_int(&cfg->options, "max_increase"));
    bdd_setcacheratio((int)ratio);
    if (bdd_setvarnum(2 * s->enc->nvars) < 0) {
        return bdd_failed(s) != ERR_OK
                   ? s->err->code
                   : error_set(s->err, ERR_INTERNAL, "symbolic: BuDDy refuses %d variables",
                               s->enc->nvars);
    }
    int *vs = calloc((size_t)s->enc->nvars, sizeof *vs);
    if (vs == NULL) {
        return error_set(s->err, ERR_MEMORY, "symbolic: out of memory");
    }
    for (int v = 0; v < s->enc->nvars; v++) {
        vs[v] = bv(v);
    }
    unprimed_set = keep(bdd_makeset(vs, s->enc->nvars));
    free(vs);
    return bdd_failed(s);
}

static void stop_buddy(Sym *s) {
    if (s->ply != NULL) {
        for (int p = 0; p <= s->depth + 1; p++) {
            free_layers(&s->ply[p]);
        }
        free(s->ply);
    }
    free(s->pre);
    free(s->cube);
    free(s->vars);
    free(s->parts);
    free(s->np);
    for (int g = 0; g < s->ngroups; g++) {
        if (s->grp[g].to_primed != NULL) {
            bdd_freepair(s->grp[g].to_primed);
        }
        if (s->grp[g].to_plain != NULL) {
            bdd_freepair(s->grp[g].to_plain);
        }
    }
    free(s->grp);
    free(s->group_of);
    if (s->all_to_primed != NULL) {
        bdd_freepair(s->all_to_primed);
    }
    if (s->all_to_plain != NULL) {
        bdd_freepair(s->all_to_plain);
    }
    unprimed_set = bddfalse;
    free(ex.values);
    free(ex.free_vars);
    ex.values = NULL;
    ex.free_vars = NULL;
    bdd_done();
    if (s->saving) {
        dbstore_dir_close(&s->dir);
    }
    free(s->entry);
}

static ErrCode symbolic_solve(const Game *g, const SolveConfig *cfg, SolveResult *res, Error *err) {
    if (cfg->threads > 1) {
        return error_set(err, ERR_USAGE,
                         "solver 'symbolic' runs on one thread (BuDDy is single-threaded); "
                         "--threads %d is not available",
                         cfg->threads);
    }
    if (g->max_depth == 0) {
        return error_set(err, ERR_UNSUPPORTED,
                         "solver 'symbolic' needs a bound on the length of game '%s' "
                         "(max_depth)",
                         g->module->name);
    }
    Sym s = {
        .g = g,
        .enc = g->encoding,
        .res = res,
        .err = err,
        .remoteness = opt_bool(&cfg->options, "remoteness"),
        .simplify = opt_bool(&cfg->options, "simplify"),
        .relprod = opt_int(&cfg->options, "relprod") == 1,
        .mono = opt_int(&cfg->options, "relprod") == 2,
        .depth = (int)g->max_depth,
        .progress = cfg->progress,
        .t0 = clock_seconds(),
    };
    res->threads = 1;
    res->no_remoteness = !s.remoteness;
    DbSummary sum = {0};
    ErrCode rc = start_buddy(&s, cfg);
    if (rc == ERR_OK) {
        s.ply = calloc((size_t)s.depth + 2, sizeof *s.ply);
        rc = s.ply != NULL ? ERR_OK : error_set(err, ERR_MEMORY, "symbolic: out of memory");
    }
    if (rc == ERR_OK) {
        rc = build_encoding(&s);
    }
    /* With `sym` the BDDs hold every position while the suite's databases
     * (and their counts) hold one per symmetry class: the exported
     * database is saved the ordinary way (store_save) instead. */
    if (rc == ERR_OK && cfg->work_dir != NULL && !g->symmetric) {
        rc = save_begin(&s, cfg->work_dir);
        if (rc == ERR_OK) {
            dbstore_clean_tmp(&s.dir); /* the directory accepted */
        }
    } else if (rc == ERR_OK && cfg->work_dir != NULL) {
        fprintf(stderr, "symbolic: with sym the BDDs are not saved (they hold every position, "
                        "the database one per symmetry class): the exported database is saved "
                        "instead (layout slots)\n");
    }
    if (rc == ERR_OK) {
        rc = forward(&s);
    }
    save_plan(&s);
    s.t_forward = clock_seconds();
    double positions = 0;
    double reach_nodes_max = 0;
    for (int p = 0; rc == ERR_OK && p <= s.last; p++) {
        positions += s.ply[p].reach_count;
        s.weight_total += (double)s.ply[p].reach_nodes * (s.last - p + 1);
        s.reach_nodes_sum += s.ply[p].reach_nodes;
        if (s.ply[p].reach_nodes > reach_nodes_max) {
            reach_nodes_max = s.ply[p].reach_nodes;
        }
    }
    if (rc == ERR_OK) {
        rc = choose_export(&s, cfg, positions);
    }
    if (rc == ERR_OK && s.remoteness && !s.export_db) {
        sum.by_remoteness = calloc((size_t)s.depth + 1, sizeof *sum.by_remoteness);
        if (sum.by_remoteness == NULL) {
            rc = error_set(err, ERR_MEMORY, "symbolic: out of memory");
        }
    }
    if (rc == ERR_OK) {
        rc = backward(&s, &sum);
    }
    s.t_backward = clock_seconds();
    if (rc == ERR_OK && s.export_db && !g->symmetric && s.exported != positions) {
        rc = error_set(err, ERR_INTERNAL, "symbolic: %.0f positions counted but %.0f exported",
                       positions, s.exported);
    }
    if (rc == ERR_OK) {
        bddStat st;
        bdd_stats(&st);
        sum.positions = (uint64_t)llround(positions);
        if (!res->has_db) {
            if (g->symmetric && !cfg->skip_export) {
                fprintf(stderr, "symbolic: the counts are of positions, not of symmetry classes "
                                "(sym)\n");
            }
            res->summary = sum;
            res->has_summary = true;
            sum.by_remoteness = NULL;
        }
        double live = bdd_getnodenum();
        solve_result_extra(res, "remoteness", s.remoteness);
        solve_result_extra(res, "plies", s.last + 1);
        solve_result_extra(res, "bdd_vars", s.enc->nvars);
        solve_result_extra(res, "positions_counted", positions);
        solve_result_extra(res, "image_ops", (double)s.images);
        solve_result_extra(res, "preimage_ops", (double)s.preimages);
        solve_result_extra(res, "nodes_produced", (double)st.produced);
        solve_result_extra(res, "peak_live_nodes", live > hooks.peak_live ? live : hooks.peak_live);
        solve_result_extra(res, "node_table_peak", hooks.table_peak);
        solve_result_extra(res, "node_table_max", hooks.max_nodes);
        solve_result_extra(res, "gc_count", hooks.gcs);
        solve_result_extra(res, "gc_seconds", (double)hooks.gc_clocks / CLOCKS_PER_SEC);
        solve_result_extra(res, "reach_nodes_max", reach_nodes_max);
        solve_result_extra(res, "reach_nodes_sum", s.reach_nodes_sum);
        solve_result_extra(res, "forward_seconds", s.t_forward - s.t0);
        solve_result_extra(res, "backward_seconds",
                           s.t_backward - s.t_forward - s.t_export - s.t_save);
        solve_result_extra(res, "export_seconds", s.t_export);
        solve_result_extra(res, "whole_database", res->has_db);
        if (s.saving) {
            solve_result_extra(res, "save_seconds", s.t_save);
            solve_result_extra(res, "saved_bytes", (double)s.saved_bytes);
            solve_result_extra(res, "resumed_plies", s.last + 1 - s.resume_from);
        }
    }
    if (rc == ERR_OK && s.saving) {
        rc = save_manifest(&s, &sum, true);
        res->saved_db = rc == ERR_OK;
    }
    free(sum.by_remoteness);
    stop_buddy(&s);
    return rc;
}

static const OptionSpec symbolic_options[] = {
    {.name = "remoteness",
     .type = OPT_BOOL,
     .def = 1,
     .help = "split values into remoteness layers (0: win/lose/tie only, faster)"},
    {.name = "simplify",
     .type = OPT_BOOL,
     .def = 0,
     .help = "shrink each finished ply's sets with its reachable positions as care set"},
    {.name = "relprod",
     .type = OPT_INT,
     .min = 0,
     .max = 2,
     .def = 2,
     .help = "preimages: 0 one cofactor per move, 1 one relational product per group of moves "
             "(a column), 2 one relational product over all moves"},
    {.name = "nodes",
     .type = OPT_INT,
     .min = 1000,
     .max = INT32_MAX - 1,
     .def = 1 << 18,
     .help = "initial BDD node table (20 bytes a node; grows as needed)"},
    {.name = "max_nodes",
     .type = OPT_INT,
     .min = 0,
     .max = INT32_MAX - 1,
     .def = 0,
     .help = "largest node table (0: what the memory budget allows)"},
    {.name = "max_increase",
     .type = OPT_INT,
     .min = 1000,
     .max = INT32_MAX - 1,
     .def = 1 << 24,
     .help = "most nodes added to the table at a time"},
    {.name = "cache_ratio",
     .type = OPT_INT,
     .min = 1,
     .max = 1 << 20,
     .def = 8,
     .help = "nodes per entry of BuDDy's operator caches"},
    {.name = "export_max",
     .type = OPT_INT,
     .min = 0,
     .max = INT64_MAX,
     .def = 100000000,
     .help = "largest position count exported into a database (more: the counts only)"},
    {0},
};

const SolverModule symbolic_solver = {
    .name = "symbolic",
    .description = "BDD images ply by ply, then backward classification (BuDDy; Edelkamp and "
                   "Kissmann)",
    .needs = NEEDS_ENCODING,
    .options = symbolic_options,
    .solve = symbolic_solve,
};

ErrCode symbolic_ply_counts(const Game *g, uint64_t *counts, int n, int *plies, Error *err) {
    if (g->encoding == NULL || g->max_depth == 0) {
        return error_set(err, ERR_UNSUPPORTED, "game '%s' has no Boolean encoding",
                         g->module->name);
    }
    SolveConfig cfg = {0};
    ErrCode rc = options_parse(symbolic_options, NULL, "symbolic", &cfg.options, err);
    if (rc != ERR_OK) {
        return rc;
    }
    SolveResult res = {0};
    Sym s = {.g = g, .enc = g->encoding, .res = &res, .err = err, .depth = (int)g->max_depth};
    rc = start_buddy(&s, &cfg);
    if (rc == ERR_OK) {
        s.ply = calloc((size_t)s.depth + 2, sizeof *s.ply);
        rc = s.ply != NULL ? ERR_OK : error_set(err, ERR_MEMORY, "symbolic: out of memory");
    }
    if (rc == ERR_OK) {
        rc = build_encoding(&s);
    }
    if (rc == ERR_OK) {
        rc = forward(&s);
    }
    if (rc == ERR_OK) {
        *plies = s.last + 1;
        for (int p = 0; p <= s.last && p < n; p++) {
            counts[p] = (uint64_t)llround(s.ply[p].reach_count);
        }
    }
    stop_buddy(&s);
    return rc;
}
