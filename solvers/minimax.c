/* solvers/minimax.c: plain recursive minimax, no memo (the textbook baseline).
 *
 * Weiss' backtracking search (CS310 notes, seed 004): evaluate a position by
 * recursing on every child, with no table of known positions, so every
 * path through the game tree is walked: tic-tac-toe's tree has 549,946
 * nodes, hence 549,946 calls from the empty board. Values and remoteness
 * follow the same rules as every other solver (core/value.h), WinBy too, so
 * the root agrees with dfs. Symmetry is irrelevant without a memo and is
 * not used.
 *
 * Only the initial position is solved (no database). The `limit` option
 * stops a tree that would take too long with a clear message.
 *
 * Time: O(tree size) game calls. Memory: one stack frame per ply.
 */
#include <inttypes.h>

#include "solvers/solver.h"

typedef struct Minimax {
    const Game *g;
    uint64_t calls;
    uint64_t limit;
    Error *err;
    ErrCode rc;
    Outcome root;
    WinBy root_winby;
} Minimax;

static Outcome visit(Minimax *m, Position pos, uint32_t depth, WinBy *winby) {
    STAT_INC(calls);
    const Game *g = m->g;
    if (++m->calls > m->limit) {
        m->rc = error_set(m->err, ERR_LIMIT,
                          "minimax stopped after %" PRIu64
                          " calls (its limit); the game tree is too large for a search without a "
                          "memo: raise minimax:limit=N or use dfs",
                          m->limit);
        return (Outcome){VALUE_UNDECIDED, 0};
    }
    if (depth > g->max_depth) {
        m->rc = solver_depth_error(g, m->err);
        return (Outcome){VALUE_UNDECIDED, 0};
    }
    Value v = game_primitive(g, pos);
    if (v != VALUE_UNDECIDED) {
        if (g->has_winby) {
            *winby = g->ops->winby(g, pos);
        }
        return (Outcome){v, 0};
    }
    Move moves[GAME_MAX_MOVES];
    int n = game_generate_moves(g, pos, moves);
    int turn = g->has_winby ? g->ops->turn(g, pos) : 0;
    WinBy best = winby_worst(turn);
    ChildFold fold;
    fold_init(&fold);
    for (int i = 0; i < n; i++) {
        STAT_INC(edges);
        WinBy child_winby = 0;
        Outcome c = visit(m, game_do_move(g, pos, moves[i]), depth + 1, &child_winby);
        if (m->rc != ERR_OK) {
            return c;
        }
        fold_add(&fold, c.value, c.remoteness);
        best = winby_better(turn, best, child_winby);
    }
    Outcome out = fold_result(&fold);
    if (out.value == VALUE_UNDECIDED) {
        m->rc = solver_no_moves_error(g, pos, m->err);
    }
    *winby = best;
    return out;
}

static ErrCode minimax_solve(const Game *g, const SolveConfig *cfg, SolveResult *res, Error *err) {
    Minimax m = {.g = g, .limit = (uint64_t)opt_int(&cfg->options, "limit"), .err = err};
    WinBy winby = 0;
    res->root = visit(&m, g->initial, 0, &winby);
    res->has_winby = g->has_winby;
    res->root_winby = winby;
    return m.rc;
}

static const OptionSpec minimax_options[] = {
    {.name = "limit",
     .type = OPT_INT,
     .min = 1,
     .max = INT64_MAX,
     .def = 1000000000,
     .help = "stop after this many calls"},
    {0},
};

const SolverModule minimax_solver = {
    .name = "minimax",
    .description = "plain recursive minimax, no memo; solves the initial position only",
    .root_only = true,
    .options = minimax_options,
    .solve = minimax_solve,
};
