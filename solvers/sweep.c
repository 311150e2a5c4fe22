/* solvers/sweep.c: Scott's "zero memory" bottom-up sweep solver (2006
 * minutes).
 *
 * No queue, no stack, no parent lists: the value database is the only
 * structure, and its VISITED record (core/db.h) is the visited mark.
 *
 * 1. Marking sweeps. The initial position is marked; a sweep walks the
 *    positions from the smallest marked one upwards, and each marked
 *    position is asked primitive(): a primitive gets its value (remoteness 0)
 *    at once, any other marks its children. A child marked behind the
 *    cursor (a smaller hash) is not seen by this sweep, so another sweep
 *    starts from the smallest such child; when every new mark lands ahead of
 *    the cursor, one sweep marks everything. That is the case whenever moves
 *    lead to larger hashes (tic-tac-toe's base 3, and every tier-major hash:
 *    a child is in a later tier), so marking costs one sweep there. A DFS or
 *    BFS would mark in one pass too, but needs a stack or queue as large as
 *    the game is deep (loopy games: as large as the game), which is exactly
 *    what this solver exists to avoid; re-expanding the marked range is the
 *    price when hashes go backwards (symmetric or loopy games).
 *
 * 2. Value sweeps over [smallest, largest] unresolved position (the
 *    minutes' "dumb way to make this faster", narrowed again after every
 *    sweep), upwards by default (`sweep:down` sweeps downwards, which for
 *    games whose children hash higher resolves children before parents).
 *    A marked position without a value generates its children and reads
 *    their records; it gets a value when they decide it with an exact
 *    remoteness:
 *      - every child solved: fold them (core/value.h), exact;
 *      - some child unsolved but a solved child loses with remoteness
 *        r <= K: a win in r + 1. K is a lower bound on the remoteness of
 *        every win/lose position still unsolved: at the start of a sweep,
 *        every win/lose position of remoteness < K is solved (each sweep
 *        solves every position of remoteness K, since its deciding
 *        children are older), so no unsolved child can lose sooner than r.
 *        K grows by one per sweep; a sweep that changes nothing while wins
 *        wait on K raises K to the smallest waiting r + 1 (the unsolved
 *        position of least remoteness must be such a waiting win).
 *      - otherwise it waits. Lose needs all children; so do ties, since an
 *        unsolved child might still lose.
 *    The minutes ask primitive() of every unresolved position in every
 *    sweep; here the marking sweep already asked and stored the primitives,
 *    so value sweeps ask nothing (`sweep:recheck` restores the minutes'
 *    loop: primitives are stored by the value sweeps and asked every time,
 *    an unhash each, to measure what that costs).
 *
 * 3. Loopy games: when a value sweep changes nothing and no win waits, the
 *    unsolved positions R can no longer be wins or losses. Among them a tie
 *    spreads: a position with a solved tie child of remoteness t <= KT
 *    becomes a tie in t + 1 (KT bounds the tie remoteness of unsolved
 *    positions in R the same way, from 1). Tie sweeps repeat until nothing
 *    changes; what is still unsolved becomes a draw (the minutes' step 4).
 *
 * WinBy games (non-loopy by definition) wait for every child, since the
 * score needs them all; values and scores then fold as in dfs.c.
 *
 * Counters: `sweeps` counts marking, value and tie sweeps; every record a
 * sweep looks at counts a db read. solver_stats give the sweeps of each
 * kind and the primitive checks of each sweep (the first ones, as many as
 * fit), and --progress prints one line per sweep.
 *
 * Time: O(S * (P + U * b)) game calls and db reads, for S sweeps over a range
 * of P slots with U unresolved positions of b children each; S is about
 * the largest remoteness upwards, and as low as 2 downwards on games whose
 * children hash higher. Memory: the database only (1 or 2 bytes per slot,
 * +2 with WinBy), and a few counters per sweep.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/mem.h"
#include "solvers/solver.h"

typedef enum SweepKind { SWEEP_MARK, SWEEP_VALUE, SWEEP_TIE } SweepKind;

/* What one sweep did, for the report. */
typedef struct SweepLog {
    SweepKind kind;
    uint64_t examined;   /* unresolved marked positions looked at */
    uint64_t primitives; /* primitive() calls */
    uint64_t resolved;   /* positions given a value */
} SweepLog;

typedef struct Sweep {
    const Game *g;
    Database *db;
    Error *err;
    bool down;       /* value sweeps from the largest position to the smallest */
    bool recheck;    /* the minutes' loop: primitives asked by every value sweep */
    bool progress;   /* one line per sweep on stderr */
    Position lo, hi; /* range holding every unresolved marked position */
    SweepLog *log;
    int nlog, caplog;
    double t0;
} Sweep;

static ErrCode log_sweep(Sweep *s, SweepKind kind) {
    if (s->nlog == s->caplog) {
        int cap = s->caplog ? 2 * s->caplog : 64;
        SweepLog *grown = realloc(s->log, (size_t)cap * sizeof *grown);
        if (grown == NULL) {
            return error_set(s->err, ERR_MEMORY, "out of memory for the sweep log");
        }
        s->log = grown;
        s->caplog = cap;
    }
    s->log[s->nlog++] = (SweepLog){.kind = kind};
    STAT_INC(sweeps);
    return ERR_OK;
}

static void report_sweep(const Sweep *s) {
    if (!s->progress) {
        return;
    }
    static const char *const kinds[] = {"marking", "values", "ties"};
    const SweepLog *l = &s->log[s->nlog - 1];
    fprintf(stderr,
            "sweep %d (%s): %" PRIu64 " examined, %" PRIu64 " resolved, %" PRIu64
            " primitive checks, %.1f s\n",
            s->nlog, kinds[l->kind], l->examined, l->resolved, l->primitives,
            clock_seconds() - s->t0);
}

/* Stores an outcome (and WinBy score) and counts it for the sweep's log. */
static ErrCode store(Sweep *s, Position p, Value v, uint32_t r, WinBy winby) {
    s->log[s->nlog - 1].resolved++;
    return solver_store(s->g, s->db, p, (Outcome){v, r}, winby, s->err);
}

static ErrCode store_primitive(Sweep *s, Position p, Value v) {
    return store(s, p, v, 0, s->g->has_winby ? s->g->ops->winby(s->g, p) : 0);
}

/* ------------------------------------------------------------- marking */

/* Marking sweeps (step 1). On return [s->lo, s->hi] holds every mark. */
static ErrCode mark(Sweep *s) {
    const Game *g = s->g;
    Database *db = s->db;
    Position root = game_canonical(g, g->initial);
    db_put(db, root, VALUE_UNDECIDED, 0);
    s->lo = s->hi = root;
    Position from = root;
    Move moves[GAME_MAX_MOVES];
    for (;;) {
        ErrCode rc = log_sweep(s, SWEEP_MARK);
        if (rc != ERR_OK) {
            return rc;
        }
        SweepLog *l = &s->log[s->nlog - 1];
        Position behind = UINT64_MAX; /* smallest new mark behind the cursor */
        for (Position p = from; p <= s->hi; p++) {
            if (db_get(db, p) != DB_VISITED) {
                continue;
            }
            STAT_INC(calls);
            l->examined++;
            l->primitives++;
            Value v = game_primitive(g, p);
            if (v != VALUE_UNDECIDED) {
                if (!s->recheck) {
                    rc = store_primitive(s, p, v);
                    if (rc != ERR_OK) {
                        return rc;
                    }
                }
                continue;
            }
            int n = game_generate_moves(g, p, moves);
            if (n <= 0) {
                return solver_no_moves_error(g, p, s->err);
            }
            for (int i = 0; i < n; i++) {
                STAT_INC(edges);
                Position c = game_canonical(g, game_do_move(g, p, moves[i]));
                if (db_get(db, c) != DB_UNREACHED) {
                    continue;
                }
                db_put(db, c, VALUE_UNDECIDED, 0);
                if (c < p && c < behind) {
                    behind = c;
                }
                s->lo = c < s->lo ? c : s->lo;
                s->hi = c > s->hi ? c : s->hi;
            }
        }
        report_sweep(s);
        if (behind == UINT64_MAX) {
            return ERR_OK;
        }
        from = behind;
    }
}

/* ------------------------------------------------------------- values */

/* The children of p folded, with how many are still unsolved. */
typedef struct Children {
    ChildFold fold;
    int unsolved;
    WinBy best; /* WinBy over the solved children, for the player to move */
} Children;

static ErrCode read_children(const Sweep *s, Position p, Children *ch) {
    const Game *g = s->g;
    const Database *db = s->db;
    Move moves[GAME_MAX_MOVES];
    int n = game_generate_moves(g, p, moves);
    if (n <= 0) {
        return solver_no_moves_error(g, p, s->err);
    }
    int turn = g->has_winby ? g->ops->turn(g, p) : 0;
    fold_init(&ch->fold);
    ch->unsolved = 0;
    ch->best = winby_worst(turn);
    for (int i = 0; i < n; i++) {
        STAT_INC(edges);
        Position c = game_canonical(g, game_do_move(g, p, moves[i]));
        uint32_t raw = db_get(db, c);
        if (!db_raw_solved(db, raw)) {
            ch->unsolved++;
            continue;
        }
        fold_add(&ch->fold, db_raw_value(db, raw), db_raw_remoteness(db, raw));
        if (g->has_winby) {
            ch->best = winby_better(turn, ch->best, db->winby[c]);
        }
    }
    return ERR_OK;
}

/* One value or tie sweep over [s->lo, s->hi]. `bound` is K (value sweeps)
 * or KT (tie sweeps); *waiting gets the least r (or t) of the positions
 * whose value is known but whose remoteness waits on the bound, UINT32_MAX
 * if none. Narrows [lo, hi] to the positions still unresolved. */
static ErrCode value_sweep(Sweep *s, SweepKind kind, uint32_t bound, uint32_t *waiting) {
    const Game *g = s->g;
    Database *db = s->db;
    ErrCode rc = log_sweep(s, kind);
    if (rc != ERR_OK) {
        return rc;
    }
    SweepLog *l = &s->log[s->nlog - 1];
    *waiting = UINT32_MAX;
    Position new_lo = UINT64_MAX, new_hi = 0;
    uint64_t span = s->hi - s->lo + 1;
    for (uint64_t k = 0; k < span; k++) {
        Position p = s->down ? s->hi - k : s->lo + k;
        if (db_get(db, p) != DB_VISITED) {
            continue;
        }
        STAT_INC(calls);
        l->examined++;
        if (s->recheck && kind == SWEEP_VALUE) {
            l->primitives++;
            Value v = game_primitive(g, p);
            if (v != VALUE_UNDECIDED) {
                rc = store_primitive(s, p, v);
                if (rc != ERR_OK) {
                    return rc;
                }
                continue;
            }
        }
        Children ch;
        rc = read_children(s, p, &ch);
        if (rc != ERR_OK) {
            return rc;
        }
        const ChildFold *f = &ch.fold;
        if (ch.unsolved == 0) { /* exact; in a tie sweep, a tie (no child loses in R) */
            Outcome o = fold_result(f);
            rc = store(s, p, o.value, o.remoteness, ch.best);
            if (rc != ERR_OK) {
                return rc;
            }
            continue;
        }
        /* A win (value sweeps) or tie (tie sweeps) with unsolved children. */
        bool early = kind == SWEEP_VALUE ? f->losing > 0 && !g->has_winby : f->tying > 0;
        uint32_t r = kind == SWEEP_VALUE ? f->min_lose_r : f->min_tie_r;
        if (early && r <= bound) {
            rc = store(s, p, kind == SWEEP_VALUE ? VALUE_WIN : VALUE_TIE, r + 1, 0);
            if (rc != ERR_OK) {
                return rc;
            }
            continue;
        }
        if (early && r < *waiting) {
            *waiting = r;
        }
        new_lo = p < new_lo ? p : new_lo;
        new_hi = p > new_hi ? p : new_hi;
    }
    report_sweep(s);
    if (new_lo == UINT64_MAX) { /* nothing left: an empty range */
        s->lo = 1;
        s->hi = 0;
    } else {
        s->lo = new_lo;
        s->hi = new_hi;
    }
    return ERR_OK;
}

/* Repeats sweeps of one kind until one changes nothing and nothing waits.
 * `bound` starts at the least remoteness an unresolved position can have. */
static ErrCode sweep_until_stable(Sweep *s, SweepKind kind, uint32_t bound) {
    for (;;) {
        if (s->lo > s->hi) {
            return ERR_OK;
        }
        uint32_t waiting;
        ErrCode rc = value_sweep(s, kind, bound, &waiting);
        if (rc != ERR_OK) {
            return rc;
        }
        bool changed = s->log[s->nlog - 1].resolved > 0;
        if (!changed && waiting == UINT32_MAX) {
            return ERR_OK;
        }
        /* Each sweep solved every unresolved position of remoteness
         * `bound`; with no change, the least waiting r decides (see top). */
        bound++;
        if (!changed && waiting + 1 > bound) {
            bound = waiting + 1;
        }
    }
}

/* Step 4: what no sweep could solve is a draw. */
static void mark_draws(Sweep *s) {
    if (s->lo > s->hi) {
        return;
    }
    for (Position p = s->lo; p <= s->hi; p++) {
        if (db_peek(s->db, p) == DB_VISITED) {
            db_put(s->db, p, VALUE_DRAW, 0);
        }
    }
}

/* ---------------------------------------------------------------- solve */

static void add_extras(const Sweep *s, SolveResult *res) {
    int count[3] = {0};
    uint64_t primitives = 0;
    for (int i = 0; i < s->nlog; i++) {
        count[s->log[i].kind]++;
        primitives += s->log[i].primitives;
    }
    solve_result_extra(res, "sweeps", s->nlog);
    solve_result_extra(res, "marking_sweeps", count[SWEEP_MARK]);
    solve_result_extra(res, "value_sweeps", count[SWEEP_VALUE]);
    solve_result_extra(res, "tie_sweeps", count[SWEEP_TIE]);
    solve_result_extra(res, "primitive_checks", (double)primitives);
    /* Per sweep, while the report has room (--progress prints them all). */
    for (int i = 0; i < s->nlog && res->nextra < SOLVE_EXTRA_MAX; i++) {
        char name[48];
        snprintf(name, sizeof name, "sweep%d_primitive_checks", i + 1);
        solve_result_extra(res, name, (double)s->log[i].primitives);
    }
}

static ErrCode sweep_solve(const Game *g, const SolveConfig *cfg, SolveResult *res, Error *err) {
    ErrCode rc = solver_db_create(g, &res->db, err);
    if (rc != ERR_OK) {
        return rc;
    }
    res->has_db = true;
    Sweep s = {
        .g = g,
        .db = &res->db,
        .err = err,
        .down = opt_bool(&cfg->options, "down"),
        .recheck = opt_bool(&cfg->options, "recheck"),
        .progress = cfg->progress,
        .t0 = clock_seconds(),
    };
    rc = mark(&s);
    /* Win/lose remoteness of unresolved positions is at least 1 once the
     * marking sweep stored the primitives, at least 0 when the value sweeps
     * ask primitive themselves (recheck). */
    if (rc == ERR_OK) {
        rc = sweep_until_stable(&s, SWEEP_VALUE, s.recheck ? 0 : 1);
    }
    if (rc == ERR_OK) {
        rc = sweep_until_stable(&s, SWEEP_TIE, 1);
    }
    if (rc == ERR_OK) {
        mark_draws(&s);
        Position root = game_canonical(g, g->initial);
        uint32_t raw = db_peek(&res->db, root);
        res->root = (Outcome){db_raw_value(&res->db, raw), db_raw_remoteness(&res->db, raw)};
        res->has_winby = g->has_winby;
        res->root_winby = g->has_winby ? res->db.winby[root] : 0;
        add_extras(&s, res);
    }
    free(s.log);
    return rc;
}

static const OptionSpec sweep_options[] = {
    {.name = "down",
     .type = OPT_BOOL,
     .help = "value sweeps run from the largest position to the smallest"},
    {.name = "recheck",
     .type = OPT_BOOL,
     .help = "ask primitive() in every value sweep, as the 2006 minutes do"},
    {0},
};

const SolverModule sweep_solver = {
    .name = "sweep",
    .description = "Scott's zero-memory bottom-up sweeps until nothing changes; loopy games too",
    .loopy_ok = true,
    .options = sweep_options,
    .solve = sweep_solve,
};
