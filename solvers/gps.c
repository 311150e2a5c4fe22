/* solvers/gps.c: depth-first search over the GPS families (do!/undo!).
 *
 * The same search as dfs.c, but the board lives in one state object: the
 * solver loads the initial position once (gps->set: the only unhash of the
 * solve), then walks the tree with do_move (which mutates the state and
 * returns the child's hash for the memo) and undo_move on the way back.
 * primitive and generate_moves read the state, so no position is decoded
 * again (GPS document, section 4.1).
 *
 * Two solvers share this file, since only the family differs:
 *   gps         game->gps: the seed's board + history state;
 *   gps-cached  game->gps_cached: a richer state with a free-move list and
 *               incremental win detection (section 4.2), so that
 *               generate_moves and primitive do no board scan.
 * With symmetry, the child's key is gps->canonical(state), computed from the
 * board in the state (hashes, no unhash).
 *
 * Time: O(E) family calls. Memory: as dfs.c, plus one state.
 */
#include <inttypes.h>

#include "solvers/solver.h"

typedef struct Gps {
    const Game *g;
    const GpsOps *f;
    GpsState *st;
    Database *db;
    Error *err;
    ErrCode rc;
    Outcome root;
    WinBy root_winby;
} Gps;

/* Solves the state's current board, whose key (canonical position) is pos. */
static Outcome visit(Gps *s, Position pos, uint32_t depth, WinBy *winby) {
    STAT_INC(calls);
    const Game *g = s->g;
    const GpsOps *f = s->f;
    Database *db = s->db;
    uint32_t raw = db_get(db, pos);
    if (db_raw_solved(db, raw)) {
        if (g->has_winby) {
            *winby = db->winby[pos];
        }
        return (Outcome){db_raw_value(db, raw), db_raw_remoteness(db, raw)};
    }
    if (depth > g->max_depth) {
        s->rc = solver_depth_error(g, s->err);
        return (Outcome){VALUE_UNDECIDED, 0};
    }
    Outcome out;
    Value v = gps_primitive(f, s->st);
    if (v != VALUE_UNDECIDED) {
        out = (Outcome){v, 0};
        if (g->has_winby) {
            *winby = f->winby(s->st);
        }
    } else {
        Move moves[GAME_MAX_MOVES];
        int n = gps_generate_moves(f, s->st, moves);
        int turn = g->has_winby ? f->turn(s->st) : 0;
        WinBy best = winby_worst(turn);
        ChildFold fold;
        fold_init(&fold);
        for (int i = 0; i < n; i++) {
            STAT_INC(edges);
            Position child = gps_do_move(f, s->st, moves[i]);
            if (g->symmetric) {
                child = f->canonical(s->st);
            }
            WinBy child_winby = 0;
            Outcome c = visit(s, child, depth + 1, &child_winby);
            gps_undo_move(f, s->st);
            if (s->rc != ERR_OK) {
                return c;
            }
            fold_add(&fold, c.value, c.remoteness);
            best = winby_better(turn, best, child_winby);
        }
        out = fold_result(&fold);
        if (out.value == VALUE_UNDECIDED) {
            s->rc = solver_no_moves_error(g, pos, s->err);
            return out;
        }
        *winby = best;
    }
    s->rc = solver_store(g, db, pos, out, *winby, s->err);
    return out;
}

/* Loads the initial position (the solve's one unhash) and searches. */
static void run(void *arg) {
    Gps *s = arg;
    s->f->set(s->st, s->g->initial);
    Position root = s->g->symmetric ? s->f->canonical(s->st) : s->g->initial;
    s->root = visit(s, root, 0, &s->root_winby);
}

static ErrCode solve_family(const Game *g, const GpsOps *f, SolveResult *res, Error *err) {
    ErrCode rc = solver_db_create(g, &res->db, err);
    if (rc != ERR_OK) {
        return rc;
    }
    res->has_db = true;
    GpsState *st = f->create(g, err);
    if (st == NULL) {
        return ERR_MEMORY;
    }
    Gps s = {.g = g, .f = f, .st = st, .db = &res->db, .err = err, .rc = ERR_OK};
    rc = solver_run_deep(g, SOLVER_FRAME_BYTES, run, &s, res, err);
    res->root = s.root;
    res->has_winby = g->has_winby;
    res->root_winby = s.root_winby;
    f->destroy(st);
    return rc != ERR_OK ? rc : s.rc;
}

static ErrCode gps_solve(const Game *g, const SolveConfig *cfg, SolveResult *res, Error *err) {
    (void)cfg;
    return solve_family(g, g->gps, res, err);
}

static ErrCode gps_cached_solve(const Game *g, const SolveConfig *cfg, SolveResult *res,
                                Error *err) {
    (void)cfg;
    return solve_family(g, g->gps_cached, res, err);
}

const SolverModule gps_solver = {
    .name = "gps",
    .description = "DFS over the GPS family: one unhash, then do!/undo! on a state",
    .needs = NEEDS_GPS,
    .solve = gps_solve,
};

const SolverModule gps_cached_solver = {
    .name = "gps-cached",
    .description = "DFS over the GPS-cached family: cached free moves, incremental wins",
    .needs = NEEDS_GPS_CACHED,
    .solve = gps_cached_solve,
};
