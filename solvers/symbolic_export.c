/* solvers/symbolic_export.c: the symbolic solver's sets into an ordinary
 * Database (solvers/symbolic_impl.h: sym_export_*), so that --query and the
 * cross-check tests work on a solve held in memory.
 *
 * When the database fits (remoteness on, at most export_max positions,
 * within the memory budget), every layer of every ply is enumerated with
 * bdd_allsat as the backward pass classifies it: each satisfying profile,
 * its free variables expanded (at most 20; the encoding promises one
 * assignment per position, so there are none in a reachable set), is
 * mapped by the encoding's position() to the game's hash, canonicalized
 * (`sym`), and stored with the layer's value and remoteness. Otherwise the
 * solve reports the totals only (res->summary). Time: O(positions x nvars)
 * beside the solve; memory: one record per hash slot.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/mem.h"
#include "solvers/symbolic_impl.h"

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
    for (int v = 0; sym_bv(v) + ex.copy < size; v++) {
        if (profile[sym_bv(v) + ex.copy] < 0) {
            ex.free_vars[nfree++] = v;
            ex.values[v] = 0;
        } else {
            ex.values[v] = (uint8_t)profile[sym_bv(v) + ex.copy];
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

ErrCode sym_export_ply(Sym *s, const Ply *pl, int p) {
    ex.s = s;
    ex.copy = sym_ply_copy(s, p);
    ex.rc = ERR_OK;
    for (int c = 0; c < NCLS && ex.rc == ERR_OK; c++) {
        for (int r = 0; r < pl->nlayers && ex.rc == ERR_OK; r++) {
            if (pl->layer[c][r] == bddfalse) {
                continue;
            }
            ex.value = sym_cls_value[c];
            ex.r = (uint32_t)r;
            bdd_allsat(pl->layer[c][r], on_sat);
        }
    }
    return ex.rc;
}

ErrCode sym_export_choose(Sym *s, const SolveConfig *cfg, double positions) {
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

void sym_export_free(void) {
    free(ex.values);
    free(ex.free_vars);
    ex.values = NULL;
    ex.free_vars = NULL;
}
