/* solvers/symbolic.c: symbolic search over BDDs (Edelkamp and Kissmann's
 * method; BuDDy, Debian's libbdd-dev).
 *
 * The game declares a Boolean encoding (games/game.h GameEncoding): a
 * position is an assignment of nvars variables, a move a guarded assignment
 * (pre, set), and primitive positions are given as disjunctions of terms.
 * Sets of positions are BDDs over those variables, one per ply (the
 * encoding promises that a position is only ever reached after the same
 * number of moves). The images and preimages of a ply are formed by one
 * of three methods (option relprod: a cofactor per move, a relational
 * product per group of moves, or by default one over the whole transition
 * relation), behind one interface chosen once (solvers/symbolic_trans.c).
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
 *    canonicalized with `sym`; solvers/symbolic_export.c), so --query and
 *    the cross-check tests work; otherwise the result carries the totals
 *    only (res->summary).
 * 4. With --db DIR every classified ply is saved as it is done, and a
 *    solve resumes from the plies a previous run saved
 *    (solvers/symbolic_io.c; the files: solvers/symbolic_db.h). The
 *    reachable sets go to disk too, each as soon as the next ply's is
 *    formed, and come back when the backward pass reaches their ply; a
 *    resume reads them instead of walking forward again.
 *
 * BuDDy is single-threaded and global: one solve at a time per process,
 * --threads above 1 is refused. Its node table (20 bytes a node) grows
 * from `nodes` up to a bound taken from the memory budget (or `max_nodes`);
 * the operator caches hold nodes/cache_ratio entries. Running out of nodes
 * stops the solve with ERR_MEMORY. Garbage collections, node counts and
 * BDD operations are reported as solver figures (solve_result_extra).
 *
 * Time: per ply, one image (forward) or one preimage per layer (backward),
 * each formed by the transition method (symbolic_trans.c has its cost).
 * Memory: the BDDs of every reachable ply (kept from the forward pass until
 * the backward pass reaches them; with --db, one at a time) and the layers
 * of two plies; with a database, one record per hash slot as well.
 */
#include <bdd.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/mem.h"
#include "solvers/solver.h"
#include "solvers/symbolic.h"
#include "solvers/symbolic_impl.h"

/* BuDDy's node (refcount/level, low, high, hash, next: five ints) and its
 * operator caches (six caches of 24-byte entries: apply, ite, quant,
 * appex, replace, misc), for the budget. */
#define NODE_BYTES 20
#define CACHE_BYTES_PER_ENTRY (6 * 24)

const Value sym_cls_value[NCLS] = {VALUE_WIN, VALUE_LOSE, VALUE_TIE};

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

int sym_bdd_error(void) { return hooks.error; }

ErrCode sym_bdd_failed(Sym *s) {
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

/* The unprimed variables (referenced; set when BuDDy starts): positions are
 * counted over them, as the primed copies are free in every set. */
static BDD unprimed_set;

static BDD term_bdd(const GameEncTerm *t) {
    BDD acc = sym_keep(bddtrue);
    for (int i = 0; i < t->n; i++) {
        const GameEncLit *l = &t->lits[i];
        sym_assign(&acc, bdd_and(acc, l->value ? bdd_ithvar(sym_bv(l->var))
                                               : bdd_nithvar(sym_bv(l->var))));
    }
    return acc; /* referenced */
}

/* ------------------------------------------------------------ encoding */

static ErrCode build_encoding(Sym *s) {
    const GameEncoding *e = s->enc;
    s->pre = calloc((size_t)e->nmoves, sizeof *s->pre);
    s->cube = calloc((size_t)e->nmoves, sizeof *s->cube);
    s->vars = calloc((size_t)e->nmoves, sizeof *s->vars);
    s->parts = calloc((size_t)e->nmoves, sizeof *s->parts);
    if (s->pre == NULL || s->cube == NULL || s->vars == NULL || s->parts == NULL) {
        return error_set(s->err, ERR_MEMORY, "symbolic: out of memory for the moves");
    }
    s->has_move = sym_keep(bddfalse);
    for (int m = 0; m < e->nmoves; m++) {
        s->pre[m] = term_bdd(&e->moves[m].pre);
        s->cube[m] = term_bdd(&e->moves[m].set);
        int vs[GAME_MAX_MOVES];
        int n = e->moves[m].set.n < GAME_MAX_MOVES ? e->moves[m].set.n : GAME_MAX_MOVES;
        for (int i = 0; i < n; i++) {
            vs[i] = sym_bv(e->moves[m].set.lits[i].var);
        }
        s->vars[m] = sym_keep(bdd_makeset(vs, n));
        sym_assign(&s->has_move, bdd_or(s->has_move, s->pre[m]));
    }
    /* Primitive sets: the first entry that matches decides. */
    s->prim_any = sym_keep(bddfalse);
    for (int c = 0; c < NCLS; c++) {
        s->prim[c] = sym_keep(bddfalse);
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
        BDD any = sym_keep(bddfalse);
        for (int k = 0; k < pe->nterms; k++) {
            BDD t = term_bdd(&pe->terms[k]);
            sym_assign(&any, bdd_or(any, t));
            bdd_delref(t);
        }
        BDD fresh = sym_keep(bdd_apply(any, s->prim_any, bddop_diff));
        sym_assign(&s->prim[c], bdd_or(s->prim[c], fresh));
        bdd_delref(fresh);
        sym_assign(&s->prim_any, bdd_or(s->prim_any, any));
        bdd_delref(any);
    }
    ErrCode rc = s->tr->build(s);
    if (rc != ERR_OK) {
        return rc;
    }
    s->initial = sym_keep(bddtrue);
    for (int v = 0; v < e->nvars; v++) {
        sym_assign(&s->initial, bdd_and(s->initial, e->initial[v] ? bdd_ithvar(sym_bv(v))
                                                                  : bdd_nithvar(sym_bv(v))));
    }
    s->cp_set[0] = sym_keep(unprimed_set);
    s->cp_prim_any[0] = sym_keep(s->prim_any);
    s->cp_has_move[0] = sym_keep(s->has_move);
    for (int c = 0; c < NCLS; c++) {
        s->cp_prim[0][c] = sym_keep(s->prim[c]);
    }
    if (s->tr->second_copy != NULL) {
        return s->tr->second_copy(s);
    }
    s->cp_set[1] = sym_keep(unprimed_set);
    s->cp_prim_any[1] = sym_keep(s->prim_any);
    s->cp_has_move[1] = sym_keep(s->has_move);
    for (int c = 0; c < NCLS; c++) {
        s->cp_prim[1][c] = sym_keep(s->prim[c]);
    }
    return sym_bdd_failed(s);
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

static ErrCode forward(Sym *s) {
    const Game *g = s->g;
    s->ply[0].reach = sym_keep(s->initial);
    s->last = 0;
    for (int p = 0; p <= s->depth; p++) {
        Ply *pl = &s->ply[p];
        pl->reach_count = sym_count(s, pl->reach, p);
        pl->reach_nodes = bdd_nodecount(pl->reach);
        int k = sym_ply_copy(s, p);
        BDD n = sym_keep(bdd_apply(pl->reach, s->cp_prim_any[k], bddop_diff));
        BDD stuck = sym_keep(bdd_apply(n, s->cp_has_move[k], bddop_diff));
        ErrCode rc = sym_bdd_failed(s);
        if (rc == ERR_OK && stuck != bddfalse) {
            rc = error_set(s->err, ERR_INTERNAL,
                           "game '%s': its encoding has %.0f positions at ply %d that are not "
                           "primitive but have no move",
                           g->module->name, sym_count(s, stuck, p), p);
        }
        bdd_delref(stuck);
        if (rc == ERR_OK && p == s->depth && n != bddfalse) {
            rc = solver_depth_error(g, s->err);
        }
        if (rc != ERR_OK || n == bddfalse) {
            bdd_delref(n);
            if (rc == ERR_OK && s->reach_to_disk) {
                rc = sym_save_reach(s, p);
            }
            if (rc == ERR_OK) {
                progress(s, "forward ply %d: %.0f positions, %d nodes", p, pl->reach_count,
                         pl->reach_nodes);
            }
            return rc;
        }
        s->ply[p + 1].reach = s->tr->image(s, n, sym_ply_copy(s, p));
        bdd_delref(n);
        rc = sym_bdd_failed(s);
        /* With --db, each set goes to disk and out of the table once the
         * next is formed (the last stays: the backward pass starts there),
         * and the backward pass reads it back at its ply: on 6x6 the sets
         * of plies 0 to 29 held 75 million nodes while ply 30 was being
         * classified. */
        if (rc == ERR_OK && s->reach_to_disk) {
            rc = sym_save_reach(s, p);
            if (s->ply[p + 1].reach != bddfalse) {
                sym_assign(&pl->reach, bddfalse);
            }
        }
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

/* The non-primitive positions of the ply being classified with a move into
 * the set t of the next ply, intersected with `within` (bddtrue: all of
 * them). */
static BDD preimage(Sym *s, BDD within, BDD t) {
    if (t == bddfalse || within == bddfalse) {
        return sym_keep(bddfalse);
    }
    return s->tr->preimage(s, within, t);
}

/* Tells the transition method the non-primitive positions n of the ply
 * being classified (bddfalse: it is done). */
static void set_np(Sym *s, BDD n) {
    if (s->tr->prepare != NULL) {
        s->tr->prepare(s, n);
    }
}

ErrCode sym_alloc_layers(Sym *s, Ply *pl, int nlayers) {
    pl->nlayers = nlayers;
    for (int c = 0; c < NCLS; c++) {
        pl->layer[c] = calloc((size_t)nlayers, sizeof(BDD));
        if (pl->layer[c] == NULL) {
            return error_set(s->err, ERR_MEMORY, "symbolic: out of memory for the layers");
        }
        for (int r = 0; r < nlayers; r++) {
            pl->layer[c][r] = sym_keep(bddfalse);
        }
    }
    return ERR_OK;
}

void sym_free_layers(Ply *pl) {
    free(pl->counted);
    pl->counted = NULL;
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
    BDD acc = sym_keep(bddfalse);
    for (int r = 0; r < pl->nlayers; r++) {
        sym_assign(&acc, bdd_or(acc, pl->layer[c][r]));
    }
    return acc;
}

/* Classifies ply p from ply p + 1 (empty past the last ply). */
static ErrCode classify(Sym *s, int p) {
    Ply *pl = &s->ply[p];
    const Ply *next = p + 1 <= s->last ? &s->ply[p + 1] : NULL;
    int left = s->depth - p; /* plies left: remoteness at most that */
    ErrCode rc = sym_alloc_layers(s, pl, s->remoteness ? left + 1 : 1);
    if (rc != ERR_OK) {
        return rc;
    }
    s->cur = sym_ply_copy(s, p);
    for (int c = 0; c < NCLS; c++) {
        sym_assign(&pl->layer[c][0], bdd_and(pl->reach, s->cp_prim[s->cur][c]));
    }
    BDD n = sym_keep(bdd_apply(pl->reach, s->cp_prim_any[s->cur], bddop_diff));
    if (n == bddfalse || next == NULL) {
        bdd_delref(n);
        return sym_bdd_failed(s);
    }
    set_np(s, n);
    if (!s->remoteness) {
        BDD nl = class_set(next, CLS_LOSE), nt = class_set(next, CLS_TIE);
        BDD win = preimage(s, n, nl);
        BDD rest = sym_keep(bdd_apply(n, win, bddop_diff));
        BDD tie = preimage(s, rest, nt);
        sym_assign(&pl->layer[CLS_WIN][0], bdd_or(pl->layer[CLS_WIN][0], win));
        sym_assign(&pl->layer[CLS_TIE][0], bdd_or(pl->layer[CLS_TIE][0], tie));
        BDD lose = sym_keep(bdd_apply(rest, tie, bddop_diff));
        sym_assign(&pl->layer[CLS_LOSE][0], bdd_or(pl->layer[CLS_LOSE][0], lose));
        bdd_delref(lose);
        bdd_delref(nl);
        bdd_delref(nt);
        bdd_delref(win);
        bdd_delref(rest);
        bdd_delref(tie);
        bdd_delref(n);
        set_np(s, bddfalse);
        return sym_bdd_failed(s);
    }
    /* Wins: the smallest r whose lose layer of the next ply is reachable. */
    BDD open = sym_keep(n);
    for (int r = 1; r <= left && r - 1 < next->nlayers && hooks.error == 0; r++) {
        BDD w = preimage(s, open, next->layer[CLS_LOSE][r - 1]);
        sym_assign(&pl->layer[CLS_WIN][r], w);
        sym_assign(&open, bdd_apply(open, w, bddop_diff));
        bdd_delref(w);
    }
    /* Ties among the rest: the smallest r of a tie child. */
    BDD lose = sym_keep(open);
    for (int r = 1; r <= left && r - 1 < next->nlayers && hooks.error == 0; r++) {
        BDD t = preimage(s, lose, next->layer[CLS_TIE][r - 1]);
        sym_assign(&pl->layer[CLS_TIE][r], t);
        sym_assign(&lose, bdd_apply(lose, t, bddop_diff));
        bdd_delref(t);
    }
    /* Losses: every child wins; remoteness 1 + the largest child's. */
    for (int r = left; r >= 1 && hooks.error == 0; r--) {
        if (r - 1 >= next->nlayers) {
            continue;
        }
        BDD l = preimage(s, lose, next->layer[CLS_WIN][r - 1]);
        sym_assign(&pl->layer[CLS_LOSE][r], l);
        sym_assign(&lose, bdd_apply(lose, l, bddop_diff));
        bdd_delref(l);
    }
    rc = sym_bdd_failed(s);
    if (rc == ERR_OK && lose != bddfalse) {
        rc = error_set(s->err, ERR_INTERNAL,
                       "symbolic: %.0f positions at ply %d have no value (a child outside the "
                       "next ply?)",
                       sym_count(s, lose, p), p);
    }
    bdd_delref(lose);
    bdd_delref(open);
    bdd_delref(n);
    set_np(s, bddfalse);
    return rc;
}

/* --------------------------------------------------------------- solve */

static ErrCode backward(Sym *s, DbSummary *sum) {
    ErrCode rc = ERR_OK;
    for (int p = s->last; p >= 0 && rc == ERR_OK; p--) {
        Ply *pl = &s->ply[p];
        /* A resume builds the lowest saved ply only (the target of the
         * next one's preimages) and counts the others from their files;
         * an export needs them all. */
        bool saved = p >= s->resume_from;
        bool build = !saved || p == s->resume_from || s->export_db;
        if (build && (!saved || s->simplify) && pl->reach == bddfalse &&
            s->reach_entry[p].name[0] != '\0') {
            rc = sym_load_reach(s, p);
        }
        if (rc == ERR_OK) {
            rc = saved ? sym_load_ply(s, p, build) : classify(s, p);
        }
        double total = 0;
        for (int c = 0; c < NCLS && rc == ERR_OK; c++) {
            pl->count[c] = 0;
            for (int r = 0; r < pl->nlayers; r++) {
                double k = pl->counted != NULL ? pl->counted[c * pl->nlayers + r]
                                               : sym_count(s, pl->layer[c][r], p);
                pl->count[c] += k;
                if (k > 0 && (uint32_t)r > s->max_remoteness) {
                    s->max_remoteness = (uint32_t)r;
                }
                if (sum->by_remoteness != NULL) {
                    sum->by_remoteness[r][sym_cls_value[c]] += (uint64_t)llround(k);
                    if (k > 0 && (uint32_t)r > sum->max_remoteness) {
                        sum->max_remoteness = (uint32_t)r;
                    }
                }
            }
            sum->count[sym_cls_value[c]] += (uint64_t)llround(pl->count[c]);
            total += pl->count[c];
        }
        if (rc == ERR_OK && total != pl->reach_count) {
            rc = error_set(s->err, ERR_INTERNAL,
                           "symbolic: ply %d has %.0f positions but %.0f classified", p,
                           pl->reach_count, total);
        }
        if (rc == ERR_OK && s->export_db) {
            double t = clock_seconds();
            rc = sym_export_ply(s, pl, p);
            s->t_export += clock_seconds() - t;
        }
        if (rc == ERR_OK && s->saving && p < s->resume_from) {
            double t = clock_seconds();
            rc = sym_save_ply(s, p);
            s->t_save += clock_seconds() - t;
        }
        if (rc == ERR_OK && p == 0) {
            for (int c = 0; c < NCLS; c++) {
                for (int r = 0; r < pl->nlayers; r++) {
                    if (bdd_and(pl->layer[c][r], s->initial) != bddfalse) {
                        s->res->root = (Outcome){sym_cls_value[c], (uint32_t)r};
                    }
                }
            }
        }
        s->weight_done += (double)pl->reach_nodes * (s->last - p + 1);
        if (s->progress && pl->counted != NULL) {
            progress(s,
                     "backward ply %d (counted from its file): %.0f win, %.0f lose, %.0f tie "
                     "(%" PRIu64 " nodes; reach %d)",
                     p, pl->count[CLS_WIN], pl->count[CLS_LOSE], pl->count[CLS_TIE],
                     pl->counted_nodes, pl->reach_nodes);
        } else if (s->progress) {
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
            sym_free_layers(&s->ply[p + 1]);
        }
        for (int c = 0; c < NCLS && s->simplify; c++) {
            for (int r = 0; r < pl->nlayers; r++) {
                if (pl->layer[c][r] != bddfalse) {
                    sym_assign(&pl->layer[c][r], bdd_simplify(pl->layer[c][r], pl->reach));
                }
            }
        }
        bdd_delref(pl->reach);
        pl->reach = bddfalse;
    }
    return rc;
}

/* Node table bounds from the options and the memory budget. */
static ErrCode start_buddy(Sym *s, const SolveConfig *cfg) {
    int64_t nodes = opt_int(&cfg->options, "nodes");
    int64_t ratio = opt_int(&cfg->options, "cache_ratio");
    int64_t max_nodes = opt_int(&cfg->options, "max_nodes");
    bool whole = opt_bool(&cfg->options, "prealloc");
    if (opt_bool(&cfg->options, "thp")) {
        s->huge_arena = mem_huge_arena_begin(&s->arena_before);
    }
    if (max_nodes == 0) {
        /* BuDDy grows the table with realloc, which may hold the old
         * table beside the new one: up to half again (doubling) while it
         * copies. On connect4 6x5 with --max-memory 7G and 20 bytes a node
         * counted, the peak RSS reached 7.3 GiB at a 134-million-node table.
         * A table made whole at the start (prealloc) never moves. */
        double per_node =
            (whole ? 1.0 : 1.5) * NODE_BYTES + (double)CACHE_BYTES_PER_ENTRY / (double)ratio;
        double room = (double)mem_budget() - (double)mem_allocated() - 64.0 * 1024 * 1024;
        /* --db: a ply's dump, its file's buffers and BuDDy's freed
         * tables must fit beside the table too (6x5 with --max-memory 7G
         * peaked at 7.29 GiB RSS without this reserve). A growing table
         * is seldom full when a ply is saved; a table made whole is, and
         * the dump of a ply's sets (a third of its nodes on 6x6, at 8 bytes
         * a slot of a hash of twice as many slots, rounded up to a power of
         * two, and 12 bytes a node: 3.4 GB for ply 24's 100 million nodes)
         * needs a quarter of the room. */
        if (cfg->work_dir != NULL) {
            room *= whole ? 0.75 : 0.85;
        }
        max_nodes = room > 0 ? (int64_t)(room / per_node) : 0;
        if (max_nodes > INT32_MAX - 1) {
            max_nodes = INT32_MAX - 1;
        }
    }
    if (nodes > max_nodes || whole) {
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
    /* The bound first: BuDDy makes a table of the first prime from `nodes`
     * on, which may pass it, and refuses a bound below the table's size. */
    bdd_setmaxnodenum((int)max_nodes);
    int cache = (int)(nodes / ratio) > 1000 ? (int)(nodes / ratio) : 1000;
    if (bdd_init((int)nodes, cache) < 0) {
        return error_set(s->err, ERR_MEMORY, "symbolic: BuDDy cannot start with %" PRId64 " nodes",
                         nodes);
    }
    bdd_error_hook(on_error);
    bdd_gbc_hook(on_gc);
    bdd_resize_hook(on_resize);
    hooks.table_peak = bdd_getallocnum();
    bdd_setmaxincrease((int)opt_int(&cfg->options, "max_increase"));
    bdd_setcacheratio((int)ratio);
    if (bdd_setvarnum(2 * s->enc->nvars) < 0) {
        return sym_bdd_failed(s) != ERR_OK
                   ? s->err->code
                   : error_set(s->err, ERR_INTERNAL, "symbolic: BuDDy refuses %d variables",
                               s->enc->nvars);
    }
    int *vs = calloc((size_t)s->enc->nvars, sizeof *vs);
    if (vs == NULL) {
        return error_set(s->err, ERR_MEMORY, "symbolic: out of memory");
    }
    for (int v = 0; v < s->enc->nvars; v++) {
        vs[v] = sym_bv(v);
    }
    unprimed_set = sym_keep(bdd_makeset(vs, s->enc->nvars));
    free(vs);
    return sym_bdd_failed(s);
}

static void stop_buddy(Sym *s) {
    if (s->ply != NULL) {
        for (int p = 0; p <= s->depth + 1; p++) {
            sym_free_layers(&s->ply[p]);
        }
        free(s->ply);
    }
    free(s->pre);
    free(s->cube);
    free(s->vars);
    free(s->parts);
    if (s->tr != NULL) {
        s->tr->free(s);
    }
    unprimed_set = bddfalse;
    sym_export_free();
    bdd_done();
    sym_save_end(s);
    if (s->huge_arena) {
        mem_huge_arena_end(s->arena_before);
        s->huge_arena = false;
    }
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
        .tr = sym_trans_for((int)opt_int(&cfg->options, "relprod")),
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
        rc = sym_save_begin(&s, cfg->work_dir);
        if (rc == ERR_OK) {
            dbstore_clean_tmp(&s.dir); /* the directory accepted */
        }
    } else if (rc == ERR_OK && cfg->work_dir != NULL) {
        fprintf(stderr, "symbolic: with sym the BDDs are not saved (they hold every position, "
                        "the database one per symmetry class): the exported database is saved "
                        "instead (layout slots)\n");
    }
    if (rc == ERR_OK) {
        rc = sym_read_forward(&s);
    }
    if (rc == ERR_OK && !s.forward_read) {
        rc = forward(&s);
    }
    sym_save_plan(&s);
    /* the reachable sets on disk, listed for a resume */
    if (rc == ERR_OK && s.reach_to_disk && !s.forward_read) {
        rc = sym_save_manifest(&s, NULL, false);
    }
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
        rc = sym_export_choose(&s, cfg, positions);
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
        solve_result_extra(res, "huge_arena", s.huge_arena);
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
            solve_result_extra(res, "resumed_forward", s.forward_read);
        }
    }
    if (rc == ERR_OK && s.saving) {
        rc = sym_save_manifest(&s, &sum, true);
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
    {.name = "prealloc",
     .type = OPT_BOOL,
     .def = 0,
     .help = "make the node table at its largest (max_nodes) from the start: never resized, "
             "so the budget counts 38 bytes a node instead of 48"},
    {.name = "thp",
     .type = OPT_BOOL,
     .def = 1,
     .help = "BuDDy's node table and caches on transparent huge pages (jemalloc builds; "
             "fewer TLB misses on a large table)"},
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
    /* The forward pass alone, by a cofactor per move (relprod=0). */
    Sym s = {.g = g,
             .enc = g->encoding,
             .res = &res,
             .err = err,
             .depth = (int)g->max_depth,
             .tr = sym_trans_for(0)};
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
