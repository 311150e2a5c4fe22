/* solvers/dfs.c: stateless memoized depth-first search (the oracle).
 *
 * GamesCrafters' standard solver (solvestd.c): from a position, return its
 * stored value if it has one; otherwise ask primitive(), and if the game
 * goes on, generate the moves, do each one and recurse on the child, then
 * fold the children's values (core/value.h) and store the result.
 *
 * Every game call takes a hashed position, so each visited position is
 * unhashed by primitive, by generate_moves and by every do_move from it
 * (the GPS document's "unhashing the same board 3 times"), and every
 * do_move hashes the child. This is the baseline the GPS solvers beat, and
 * the oracle every other solver is checked against, position by position.
 *
 * With WinBy, player one maximizes and player two minimizes the children's
 * scores (turn() tells whose turn it is), stored beside the values.
 *
 * Time: O(E) game calls for E edges among reachable positions.
 * Memory: one record (1 or 2 bytes, +2 with WinBy) per hash slot, plus a
 * stack frame of GAME_MAX_MOVES moves per ply (depth <= g->max_depth).
 */
#include <inttypes.h>

#include "solvers/solver.h"

typedef struct Dfs {
    const Game *g;
    Database *db;
    Error *err;
    ErrCode rc; /* sticky: once set, the search unwinds */
    Outcome root;
    WinBy root_winby;
} Dfs;

/* Solves pos (a canonical position) and returns its outcome; *winby gets its
 * score when the game has WinBy. */
static Outcome visit(Dfs *d, Position pos, uint32_t depth, WinBy *winby) {
    STAT_INC(calls);
    const Game *g = d->g;
    Database *db = d->db;
    uint32_t raw = db_get(db, pos);
    if (db_raw_solved(db, raw)) {
        if (g->has_winby) {
            *winby = db->winby[pos];
        }
        return (Outcome){db_raw_value(db, raw), db_raw_remoteness(db, raw)};
    }
    if (depth > g->max_depth) {
        d->rc = solver_depth_error(g, d->err);
        return (Outcome){VALUE_UNDECIDED, 0};
    }
    Outcome out;
    Value v = game_primitive(g, pos);
    if (v != VALUE_UNDECIDED) {
        out = (Outcome){v, 0};
        if (g->has_winby) {
            *winby = g->ops->winby(g, pos);
        }
    } else {
        Move moves[GAME_MAX_MOVES];
        int n = game_generate_moves(g, pos, moves);
        int turn = g->has_winby ? g->ops->turn(g, pos) : 0;
        WinBy best = winby_worst(turn);
        ChildFold fold;
        fold_init(&fold);
        for (int i = 0; i < n; i++) {
            STAT_INC(edges);
            Position child = game_canonical(g, game_do_move(g, pos, moves[i]));
            WinBy child_winby = 0;
            Outcome c = visit(d, child, depth + 1, &child_winby);
            if (d->rc != ERR_OK) {
                return c;
            }
            fold_add(&fold, c.value, c.remoteness);
            best = winby_better(turn, best, child_winby);
        }
        out = fold_result(&fold);
        if (out.value == VALUE_UNDECIDED) {
            d->rc = solver_no_moves_error(g, pos, d->err);
            return out;
        }
        *winby = best;
    }
    d->rc = solver_store(g, db, pos, out, *winby, d->err);
    return out;
}

static void run(void *arg) {
    Dfs *d = arg;
    d->root = visit(d, game_canonical(d->g, d->g->initial), 0, &d->root_winby);
}

static ErrCode dfs_solve(const Game *g, const SolveConfig *cfg, SolveResult *res, Error *err) {
    (void)cfg;
    ErrCode rc = solver_db_create(g, &res->db, err);
    if (rc != ERR_OK) {
        return rc;
    }
    res->has_db = true;
    Dfs d = {.g = g, .db = &res->db, .err = err, .rc = ERR_OK};
    rc = solver_run_deep(g, SOLVER_FRAME_BYTES, run, &d, res, err);
    res->root = d.root;
    res->has_winby = g->has_winby;
    res->root_winby = d.root_winby;
    return rc != ERR_OK ? rc : d.rc;
}

const SolverModule dfs_solver = {
    .name = "dfs",
    .description = "stateless memoized DFS: every call unhashes (the oracle)",
    .solve = dfs_solve,
};
