/* solvers/symbolic_impl.h: the state the symbolic solver's units share
 * (not a public API: solvers/symbolic.h is). The solve (symbolic.c: the
 * passes, BuDDy's start and hooks, options) owns a Sym; the transition
 * methods (symbolic_trans.c), the export into a Database
 * (symbolic_export.c) and saving and resuming through --db
 * (symbolic_io.c) work on it. BuDDy is global, so one Sym at a time.
 *
 * BDD variable 2v is encoding variable v, 2v + 1 its primed copy (right
 * below it in the order, so that renaming keeps the order). A ply's sets
 * live on one copy, `ply_copy`: always 0 unless the transition method
 * alternates copies (SymTransOps.second_copy), then p % 2.
 */
#ifndef SOLVERS_SYMBOLIC_IMPL_H
#define SOLVERS_SYMBOLIC_IMPL_H

#include <bdd.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/dbstore.h"
#include "core/error.h"
#include "games/game.h"
#include "solvers/solver.h"

enum { CLS_WIN, CLS_LOSE, CLS_TIE, NCLS };
extern const Value sym_cls_value[NCLS];

/* The sets of one ply: layer[c][r] holds the positions of class c at
 * remoteness r (remoteness on) or layer[c][0] the whole class (off). */
typedef struct Ply {
    BDD reach;
    int nlayers; /* remoteness 0..nlayers-1 */
    BDD *layer[NCLS];
    double count[NCLS];
    double reach_count;
    int reach_nodes;
    /* A saved ply above the lowest one a resume loads is only counted,
     * from its file (sym_load_ply, build false): its sets' counts, [c * nlayers + r],
     * and its dump's nodes; its layers stay empty. NULL: not so. */
    double *counted;
    uint64_t counted_nodes;
} Ply;

typedef struct Sym Sym;

/* A way of forming images and preimages (option relprod), chosen once at
 * the start of a solve (sym_trans_for); its state is s->tr_state. Each
 * slot is called at a fixed point of the solve, so that the BDD operations
 * (and BuDDy's counters) follow one order whatever the method. */
typedef struct SymTransOps {
    const char *name;
    /* REQUIRED: builds the method's state from s->pre (and s->cube,
     * s->vars), after the primitive sets and before the initial set. */
    ErrCode (*build)(Sym *s);
    /* OPTIONAL: the plies alternate between the two copies of the
     * variables: sets s->cp_*[1] (the sets of copy 0 on copy 1) at the end
     * of the encoding. NULL: every ply lives on copy 0. */
    ErrCode (*second_copy)(Sym *s);
    /* REQUIRED: the successors (referenced) of n, the non-primitive
     * positions of a ply on copy k0. */
    BDD (*image)(Sym *s, BDD n, int k0);
    /* OPTIONAL: n, the non-primitive positions of the ply to classify
     * (bddfalse after it), before its preimages. */
    void (*prepare)(Sym *s, BDD n);
    /* REQUIRED: the positions of `within` (of the ply being classified,
     * on copy s->cur) with a move into t (of the next ply), referenced;
     * t and within are not bddfalse. */
    BDD (*preimage)(Sym *s, BDD within, BDD t);
    /* REQUIRED: frees the state (not its BDDs: bdd_done does); called
     * once, even after a failed build. */
    void (*free)(Sym *s);
} SymTransOps;

/* The method of option relprod: 0 a cofactor per move, 1 a relational
 * product per group of moves, 2 one over the whole relation. */
const SymTransOps *sym_trans_for(int relprod);

struct Sym {
    const Game *g;
    const GameEncoding *enc;
    SolveResult *res;
    Error *err;
    bool remoteness;
    bool simplify;         /* shrink finished layers with the reachable set as care set */
    bool huge_arena;       /* BuDDy's tables come from mem_huge_arena_begin's arena */
    unsigned arena_before; /* the thread's arena before it */
    int depth;             /* plies: 0..depth */
    Ply *ply;
    int last; /* last non-empty ply */
    /* the encoding as BDDs (referenced), per move: its precondition, its
     * assignment as a cube, the variables it sets */
    BDD *pre, *cube, *vars;
    BDD *parts; /* scratch: one BDD per move */
    const SymTransOps *tr;
    void *tr_state;
    /* The copies' versions of the sets below (cp_*[1] equal to cp_*[0]
     * unless the plies alternate). */
    BDD cp_set[2];
    BDD cp_prim_any[2];
    BDD cp_prim[2][NCLS];
    BDD cp_has_move[2];
    int cur; /* the copy of the ply being classified */
    BDD prim_any;
    BDD prim[NCLS]; /* primitive positions by class */
    BDD has_move;
    BDD initial;
    /* export (symbolic_export.c) */
    bool export_db;
    double exported;
    /* --db DIR (symbolic_io.c): every classified ply is saved, and the
     * plies a previous run saved (resume_from..last) are loaded instead of
     * classified */
    bool saving;
    DbDir dir;
    DbManifestFile *entry; /* per ply: its file (entry[p].name[0] == 0: none) */
    int resume_from;       /* lowest ply loaded from DIR; last + 1: none */
    /* per ply: its reachable set's file (reach_entry[p].name[0] == 0:
     * none). The forward pass writes them and drops each set once the next
     * ply's is formed; the backward pass reads each back when it reaches
     * its ply. The manifest lists them once the forward pass is over, so a
     * resumed solve reads them instead of walking forward again. */
    DbManifestFile *reach_entry;
    /* the forward pass writes the reachable sets (not over a complete
     * database: a solve refused there, say for another remoteness option,
     * must leave it complete) */
    bool reach_to_disk;
    bool forward_read; /* this solve read the reachable sets from DIR */
    long stop_after;   /* GAMESMAN_SYMBOLIC_STOP (tests): _exit after so many files */
    long written;      /* ply and reach files written */
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
};

/* ------------------------------------------------- BDD helpers (inline) */

static inline BDD sym_keep(BDD b) { return bdd_addref(b); }

/* Replaces *dst (referenced) with b (unreferenced), referencing b. */
static inline void sym_assign(BDD *dst, BDD b) {
    BDD old = *dst;
    *dst = bdd_addref(b);
    bdd_delref(old);
}

/* Encoding variable v's BDD variable (its primed copy is one more). */
static inline int sym_bv(int v) { return 2 * v; }

/* The copy of the variables ply p lives on. */
static inline int sym_ply_copy(const Sym *s, int p) {
    return s->tr->second_copy != NULL ? p & 1 : 0;
}

/* The positions of a set of ply p. */
static inline double sym_count(const Sym *s, BDD b, int p) {
    return b == bddfalse ? 0 : bdd_satcountset(b, s->cp_set[sym_ply_copy(s, p)]);
}

/* ----------------------------------------------- symbolic.c's services */

/* BuDDy's first error code since the solve started, 0 if none. */
int sym_bdd_error(void);
/* The error to return once BuDDy has failed (ERR_OK if it has not). */
ErrCode sym_bdd_failed(Sym *s);
/* ply->layer[c][0..nlayers) set to bddfalse (referenced); free_layers
 * releases them. */
ErrCode sym_alloc_layers(Sym *s, Ply *pl, int nlayers);
void sym_free_layers(Ply *pl);

/* -------------------------------------------- export (symbolic_export.c) */

/* Chooses between a database and the totals only, once the positions are
 * counted (remoteness on, at most export_max positions, within the memory
 * budget): sets s->export_db and creates s->res->db. */
ErrCode sym_export_choose(Sym *s, const SolveConfig *cfg, double positions);
/* Stores every position of ply p's classified layers into s->res->db
 * (bdd_allsat through the encoding's position()); counts s->exported. */
ErrCode sym_export_ply(Sym *s, const Ply *pl, int p);
/* Frees the export's scratch (after bdd_done is fine). */
void sym_export_free(void);

/* -------------------------------------------- --db DIR (symbolic_io.c) */

/* Opens DIR as its only writer, refuses another variant's database and
 * notes the plies a previous solve of this variant saved there (another
 * layout's database is removed: this solve replaces it). */
ErrCode sym_save_begin(Sym *s, const char *path);
/* After the forward pass: the plies to load are the longest run of saved
 * plies ending at the last one (s->resume_from). */
void sym_save_plan(Sym *s);
/* Saves ply p's sets (before their simplification) and the manifest of
 * the plies saved so far (complete 0). */
ErrCode sym_save_ply(Sym *s, int p);
/* Loads ply p from DIR instead of classifying it: builds its sets, or
 * (build false) only counts them from the file (pl->counted): a resume
 * builds only the lowest saved ply, the target of the next ply's
 * preimages. */
ErrCode sym_load_ply(Sym *s, int p, bool build);
/* Saves ply p's reachable set (s->reach_entry[p]). */
ErrCode sym_save_reach(Sym *s, int p);
/* Builds ply p's reachable set from its file; its count must be the
 * forward pass's. */
ErrCode sym_load_reach(Sym *s, int p);
/* Before the forward pass: when DIR's manifest lists the reachable sets of
 * plies 0 to L (a previous run's whole forward pass), reads their counts
 * and node counts, sets s->last = L and s->forward_read (the backward pass
 * builds each set when it reaches its ply); else forgets any it listed. */
ErrCode sym_read_forward(Sym *s);

/* Writes DIR's manifest: complete (sum and the root) or not. */
ErrCode sym_save_manifest(Sym *s, const DbSummary *sum, bool complete);
/* Closes DIR (when saving) and frees the plies' entries. */
void sym_save_end(Sym *s);

#endif /* SOLVERS_SYMBOLIC_IMPL_H */
