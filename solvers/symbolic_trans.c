/* solvers/symbolic_trans.c: the symbolic solver's three ways of forming
 * images and preimages (option relprod), each behind SymTransOps
 * (solvers/symbolic_impl.h), chosen once per solve by sym_trans_for.
 *
 *   0 "moves": per move, no primed variables:
 *       image of S under m      (exists vars(set_m). S and pre_m) and set_m
 *                               (bdd_appex, then one and with the cube)
 *       preimage of S' under m  pre_m and S'|set_m (the cofactor of S' by
 *                               the cube set_m: bdd_restrict)
 *     and the union of the parts (a balanced tree of ors).
 *   1 "groups": one relational product per group of moves (moves sharing
 *     a variable, the turn left out: a Connect Four column, a tic-tac-toe
 *     cell) over primed copies of the group's variables, renamed back and
 *     forth (bdd_replace), and the union of the parts.
 *   2 "whole" (the default): one relational product with the whole
 *     transition relation T(X, X') = OR over m of pre_m(X) and set_m(X')
 *     and x'_v = x_v for the variables m does not set (Edelkamp and
 *     Kissmann's, as Böck's solver uses it): preimage(S') = exists X'.
 *     T(X, X') and S'(X'), no union of parts. The plies alternate between
 *     the two copies X and X' (ply p on copy p % 2, as in Böck's solver),
 *     so nothing is renamed either; T from copy 1 to copy 0 is T with the
 *     copies swapped.
 *
 * On Connect Four 6x4 (`tromp`, remoteness=0) 2 makes 27 to 29 million BDD
 * nodes where 1 made 73 million (docs/symbolic.md). Time: per ply, one
 * image or preimage per move (0), per group (1) or one (2); each is
 * O(|S| * |relation|) in BDD nodes. Memory: the relations, built once
 * (one BDD per move, per group, or one).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/symbolic_impl.h"

/* The union of parts[0..n) (each referenced; the references are consumed),
 * as a balanced tree of ors: each level costs about the total size of the
 * parts, where or-ing into one growing accumulator would cost n times the
 * result. */
static BDD union_all(BDD *parts, int n) {
    if (n == 0) {
        return sym_keep(bddfalse);
    }
    for (int step = 1; step < n; step *= 2) {
        for (int i = 0; i + step < n; i += 2 * step) {
            sym_assign(&parts[i], bdd_or(parts[i], parts[i + step]));
            bdd_delref(parts[i + step]);
        }
    }
    return parts[0]; /* referenced */
}

/* -------------------------------------------------- 0: a cofactor a move */

typedef struct Moves {
    BDD *np; /* per move: the ply's non-primitive positions where it is legal */
} Moves;

static ErrCode moves_build(Sym *s) {
    Moves *mv = calloc(1, sizeof *mv);
    s->tr_state = mv;
    if (mv != NULL) {
        mv->np = calloc((size_t)s->enc->nmoves, sizeof *mv->np); /* bddfalse is 0 */
    }
    if (mv == NULL || mv->np == NULL) {
        return error_set(s->err, ERR_MEMORY, "symbolic: out of memory for the moves");
    }
    return ERR_OK;
}

static BDD moves_image(Sym *s, BDD n, int k0) {
    (void)k0;
    int k = 0;
    for (int m = 0; m < s->enc->nmoves && sym_bdd_error() == 0; m++) {
        BDD q = sym_keep(bdd_appex(n, s->pre[m], bddop_and, s->vars[m]));
        s->images++;
        if (q != bddfalse) {
            s->parts[k++] = sym_keep(bdd_and(q, s->cube[m]));
        }
        bdd_delref(q);
    }
    return union_all(s->parts, k); /* referenced */
}

static void moves_prepare(Sym *s, BDD n) {
    Moves *mv = s->tr_state;
    for (int m = 0; m < s->enc->nmoves; m++) {
        sym_assign(&mv->np[m], n == bddfalse ? bddfalse : bdd_and(n, s->pre[m]));
    }
}

static BDD moves_preimage(Sym *s, BDD within, BDD t) {
    Moves *mv = s->tr_state;
    int k = 0;
    for (int m = 0; m < s->enc->nmoves && sym_bdd_error() == 0; m++) {
        if (mv->np[m] == bddfalse) {
            continue;
        }
        BDD q = sym_keep(bdd_restrict(t, s->cube[m]));
        s->preimages++;
        if (q != bddfalse) {
            s->parts[k++] = sym_keep(bdd_and(mv->np[m], q));
        }
        bdd_delref(q);
    }
    BDD acc = union_all(s->parts, k);
    if (within != bddtrue) {
        sym_assign(&acc, bdd_and(acc, within));
    }
    return acc; /* referenced */
}

static void moves_free(Sym *s) {
    Moves *mv = s->tr_state;
    if (mv != NULL) {
        free(mv->np);
        free(mv);
    }
    s->tr_state = NULL;
}

/* --------------------------------------------- 1: a product a move group */

/* Group g's relation is the union over its moves of pre_m(X) and
 * set_m(X') and v' = v for the other variables of V_g (the variables the
 * group's moves set); variables outside V_g are left alone, since the
 * preimage renames only V_g. */
typedef struct Group {
    BDD rel;        /* T_g(X, X'_g): some move of g, X'_g its effect */
    BDD pre;        /* some move of g is legal */
    BDD np;         /* this ply's non-primitive positions and pre */
    BDD plain_vars; /* V_g, the variables the moves of g set */
    BDD primed_vars;
    bddPair *to_primed, *to_plain;
} Group;

typedef struct Groups {
    int ngroups;
    int *group_of; /* per move */
    Group *grp;
} Groups;

static int find(int *parent, int m) {
    while (parent[m] != m) {
        parent[m] = parent[parent[m]];
        m = parent[m];
    }
    return m;
}

/* Moves are joined when they touch (pre or set) a common variable, leaving
 * out the variables every move sets (the turn), so that Connect Four's
 * groups are its columns and tic-tac-toe's its cells. */
static ErrCode groups_build(Sym *s) {
    const GameEncoding *e = s->enc;
    int nm = e->nmoves, nv = e->nvars;
    Groups *gs = calloc(1, sizeof *gs);
    s->tr_state = gs;
    if (gs == NULL) {
        return error_set(s->err, ERR_MEMORY, "symbolic: out of memory for the move groups");
    }
    int *parent = calloc((size_t)nm, sizeof *parent);
    int *first = calloc((size_t)nv, sizeof *first); /* a move touching v, or -1 */
    int *setby = calloc((size_t)nv, sizeof *setby); /* moves setting v */
    uint8_t *in = calloc((size_t)nv, 1);
    int *vs = calloc((size_t)nv, sizeof *vs);
    gs->group_of = calloc((size_t)nm, sizeof *gs->group_of);
    gs->grp = calloc((size_t)nm, sizeof *gs->grp);
    ErrCode rc = ERR_OK;
    if (parent == NULL || first == NULL || setby == NULL || in == NULL || vs == NULL ||
        gs->group_of == NULL || gs->grp == NULL) {
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
            gs->group_of[m] = gs->ngroups++;
        }
    }
    for (int m = 0; rc == ERR_OK && m < nm; m++) {
        gs->group_of[m] = gs->group_of[find(parent, m)];
    }
    for (int g = 0; rc == ERR_OK && g < gs->ngroups; g++) {
        Group *gr = &gs->grp[g];
        memset(in, 0, (size_t)nv);
        for (int m = 0; m < nm; m++) {
            for (int i = 0; gs->group_of[m] == g && i < e->moves[m].set.n; i++) {
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
                vs[n++] = sym_bv(v);
                bdd_setpair(gr->to_primed, sym_bv(v), sym_bv(v) + 1);
                bdd_setpair(gr->to_plain, sym_bv(v) + 1, sym_bv(v));
            }
        }
        gr->plain_vars = sym_keep(bdd_makeset(vs, n));
        for (int i = 0; i < n; i++) {
            vs[i]++;
        }
        gr->primed_vars = sym_keep(bdd_makeset(vs, n));
        gr->rel = sym_keep(bddfalse);
        gr->pre = sym_keep(bddfalse);
        gr->np = sym_keep(bddfalse);
        for (int m = 0; m < nm; m++) {
            if (gs->group_of[m] != g) {
                continue;
            }
            const GameEncTerm *set = &e->moves[m].set;
            BDD t = sym_keep(s->pre[m]);
            uint8_t *mine = calloc((size_t)nv, 1);
            if (mine == NULL) {
                bdd_delref(t);
                rc = error_set(s->err, ERR_MEMORY, "symbolic: out of memory");
                break;
            }
            for (int i = 0; i < set->n; i++) {
                int v = set->lits[i].var;
                mine[v] = 1;
                sym_assign(&t, bdd_and(t, set->lits[i].value ? bdd_ithvar(sym_bv(v) + 1)
                                                             : bdd_nithvar(sym_bv(v) + 1)));
            }
            for (int v = 0; v < nv; v++) {
                if (in[v] && !mine[v]) {
                    BDD same =
                        sym_keep(bdd_biimp(bdd_ithvar(sym_bv(v)), bdd_ithvar(sym_bv(v) + 1)));
                    sym_assign(&t, bdd_and(t, same));
                    bdd_delref(same);
                }
            }
            free(mine);
            sym_assign(&gr->rel, bdd_or(gr->rel, t));
            sym_assign(&gr->pre, bdd_or(gr->pre, s->pre[m]));
            bdd_delref(t);
        }
    }
    free(parent);
    free(first);
    free(setby);
    free(in);
    free(vs);
    return rc != ERR_OK ? rc : sym_bdd_failed(s);
}

static BDD groups_image(Sym *s, BDD n, int k0) {
    (void)k0;
    Groups *gs = s->tr_state;
    int k = 0;
    for (int g = 0; g < gs->ngroups && sym_bdd_error() == 0; g++) {
        Group *gr = &gs->grp[g];
        BDD q = sym_keep(bdd_appex(n, gr->rel, bddop_and, gr->plain_vars));
        s->images++;
        if (q != bddfalse) {
            s->parts[k++] = sym_keep(bdd_replace(q, gr->to_plain));
        }
        bdd_delref(q);
    }
    return union_all(s->parts, k); /* referenced */
}

static void groups_prepare(Sym *s, BDD n) {
    Groups *gs = s->tr_state;
    for (int g = 0; g < gs->ngroups; g++) {
        sym_assign(&gs->grp[g].np, n == bddfalse ? bddfalse : bdd_and(n, gs->grp[g].pre));
    }
}

static BDD groups_preimage(Sym *s, BDD within, BDD t) {
    Groups *gs = s->tr_state;
    int k = 0;
    for (int g = 0; g < gs->ngroups && sym_bdd_error() == 0; g++) {
        Group *gr = &gs->grp[g];
        if (gr->np == bddfalse) {
            continue;
        }
        BDD t2 = sym_keep(bdd_replace(t, gr->to_primed));
        BDD q = sym_keep(bdd_appex(gr->rel, t2, bddop_and, gr->primed_vars));
        s->preimages++;
        if (q != bddfalse) {
            s->parts[k++] = sym_keep(bdd_and(gr->np, q));
        }
        bdd_delref(q);
        bdd_delref(t2);
    }
    BDD acc = union_all(s->parts, k);
    if (within != bddtrue) {
        sym_assign(&acc, bdd_and(acc, within));
    }
    return acc; /* referenced */
}

static void groups_free(Sym *s) {
    Groups *gs = s->tr_state;
    if (gs == NULL) {
        return;
    }
    for (int g = 0; g < gs->ngroups; g++) {
        if (gs->grp[g].to_primed != NULL) {
            bdd_freepair(gs->grp[g].to_primed);
        }
        if (gs->grp[g].to_plain != NULL) {
            bdd_freepair(gs->grp[g].to_plain);
        }
    }
    free(gs->grp);
    free(gs->group_of);
    free(gs);
    s->tr_state = NULL;
}

/* ------------------------------------------ 2: the whole relation, once */

typedef struct Whole {
    BDD trans; /* T(X, X') */
    BDD primed_set;
    bddPair *all_to_primed, *all_to_plain;
    BDD step[2]; /* T from copy k to the other */
} Whole;

/* The relation and the renamings of every variable to its primed copy and
 * back. Each move's term is built bottom up (the identities of the
 * variables it leaves alone, then its assignment and its precondition), so
 * that every and adds one level. */
static ErrCode whole_build(Sym *s) {
    const GameEncoding *e = s->enc;
    int nv = e->nvars;
    Whole *w = calloc(1, sizeof *w);
    s->tr_state = w;
    uint8_t *mine = calloc((size_t)nv, 1);
    int *vs = calloc((size_t)nv, sizeof *vs);
    if (w != NULL) {
        w->all_to_primed = bdd_newpair();
        w->all_to_plain = bdd_newpair();
    }
    if (w == NULL || mine == NULL || vs == NULL || w->all_to_primed == NULL ||
        w->all_to_plain == NULL) {
        free(mine);
        free(vs);
        return error_set(s->err, ERR_MEMORY, "symbolic: out of memory for the transition relation");
    }
    for (int v = 0; v < nv; v++) {
        bdd_setpair(w->all_to_primed, sym_bv(v), sym_bv(v) + 1);
        bdd_setpair(w->all_to_plain, sym_bv(v) + 1, sym_bv(v));
        vs[v] = sym_bv(v) + 1;
    }
    w->primed_set = sym_keep(bdd_makeset(vs, nv));
    w->trans = sym_keep(bddfalse);
    for (int m = 0; m < e->nmoves && sym_bdd_error() == 0; m++) {
        const GameEncTerm *set = &e->moves[m].set;
        memset(mine, 0, (size_t)nv);
        BDD t = sym_keep(s->pre[m]);
        for (int i = 0; i < set->n; i++) {
            int v = set->lits[i].var;
            mine[v] = 1;
            sym_assign(&t, bdd_and(t, set->lits[i].value ? bdd_ithvar(sym_bv(v) + 1)
                                                         : bdd_nithvar(sym_bv(v) + 1)));
        }
        for (int v = nv - 1; v >= 0; v--) {
            if (!mine[v]) {
                BDD same = sym_keep(bdd_biimp(bdd_ithvar(sym_bv(v)), bdd_ithvar(sym_bv(v) + 1)));
                sym_assign(&t, bdd_and(t, same));
                bdd_delref(same);
            }
        }
        sym_assign(&w->trans, bdd_or(w->trans, t));
        bdd_delref(t);
    }
    free(mine);
    free(vs);
    return sym_bdd_failed(s);
}

/* The sets of copy 0 renamed to copy 1, and T both ways. */
static ErrCode whole_second_copy(Sym *s) {
    Whole *w = s->tr_state;
    s->cp_set[1] = sym_keep(w->primed_set);
    s->cp_prim_any[1] = sym_keep(bdd_replace(s->prim_any, w->all_to_primed));
    s->cp_has_move[1] = sym_keep(bdd_replace(s->has_move, w->all_to_primed));
    for (int c = 0; c < NCLS; c++) {
        s->cp_prim[1][c] = sym_keep(bdd_replace(s->prim[c], w->all_to_primed));
    }
    bddPair *swap = bdd_newpair();
    if (swap == NULL) {
        return error_set(s->err, ERR_MEMORY, "symbolic: out of memory for the transition relation");
    }
    for (int v = 0; v < s->enc->nvars; v++) {
        bdd_setpair(swap, sym_bv(v), sym_bv(v) + 1);
        bdd_setpair(swap, sym_bv(v) + 1, sym_bv(v));
    }
    w->step[0] = sym_keep(w->trans);
    w->step[1] = sym_keep(bdd_replace(w->trans, swap));
    bdd_freepair(swap);
    return sym_bdd_failed(s);
}

static BDD whole_image(Sym *s, BDD n, int k0) {
    Whole *w = s->tr_state;
    s->images++;
    return sym_keep(bdd_appex(n, w->step[k0], bddop_and, s->cp_set[k0]));
}

static BDD whole_preimage(Sym *s, BDD within, BDD t) {
    Whole *w = s->tr_state;
    /* t lives on the other copy than the ply being classified */
    BDD q = sym_keep(bdd_appex(w->step[s->cur], t, bddop_and, s->cp_set[1 - s->cur]));
    s->preimages++;
    sym_assign(&q, bdd_and(q, within));
    return q;
}

static void whole_free(Sym *s) {
    Whole *w = s->tr_state;
    if (w == NULL) {
        return;
    }
    if (w->all_to_primed != NULL) {
        bdd_freepair(w->all_to_primed);
    }
    if (w->all_to_plain != NULL) {
        bdd_freepair(w->all_to_plain);
    }
    free(w);
    s->tr_state = NULL;
}

/* ---------------------------------------------------------------- table */

static const SymTransOps trans_ops[] = {
    {.name = "moves",
     .build = moves_build,
     .image = moves_image,
     .prepare = moves_prepare,
     .preimage = moves_preimage,
     .free = moves_free},
    {.name = "groups",
     .build = groups_build,
     .image = groups_image,
     .prepare = groups_prepare,
     .preimage = groups_preimage,
     .free = groups_free},
    {.name = "whole",
     .build = whole_build,
     .second_copy = whole_second_copy,
     .image = whole_image,
     .preimage = whole_preimage,
     .free = whole_free},
};

const SymTransOps *sym_trans_for(int relprod) {
    return relprod >= 0 && relprod <= 2 ? &trans_ops[relprod] : &trans_ops[2];
}
