/* solvers/dfs_depth.c: depth-limited memo (dfs-depth:k=K), a variant of dfs.c.
 *
 * The CS310 notes (seed 004, "Tricks with recursion level"): Weiss' search
 * keeps a transposition table but saves only the positions at recursion
 * depth <= 5, on the idea that deep positions are cheap to recompute and
 * the table's memory is what grows. This solver is dfs.c with that rule:
 *
 *   - the memo is a hash table (open addressing, linear probing) holding
 *     only what is stored, so its memory follows the number of stored
 *     positions, not the size of the hash space as dfs's dense array does;
 *   - every call looks its position up (a position first met deeper than K
 *     may also have a shallower path in a game whose positions recur at
 *     several depths, and is then found);
 *   - a position is stored only when the call that solved it is at depth
 *     <= K (the root is depth 0); deeper positions are solved again each
 *     time a path reaches them.
 *
 * With K >= the game's depth (the default, so that the solver is safe to
 * run on any game) it stores every reached position, as dfs does, in a
 * table instead of a dense array; with K = 0 it stores only the root and walks the whole game tree
 * like minimax. The values it stores are exact (a position's value does not
 * depend on the path), so the cross-check compares them with dfs.
 *
 * Result: a partial database (SolverModule.partial_db) of the stored
 * positions, exported from the table after the search; a caller that needs
 * only the root (SolveConfig.skip_export: the benchmarks) gets no database,
 * so the measured peak memory is the table's. The stored count is reported
 * as the extra figure SOLVE_EXTRA_STORED either way.
 *
 * Time: O(T_K) game calls, where T_K is the number of nodes of the game tree
 * cut at the stored positions (between the number of edges, K >= depth, and
 * the whole tree, K = 0). Memory: the table, 12 bytes per slot (+2 with
 * WinBy) at a load factor of at most 1/2, plus one stack frame per ply.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "core/mem.h"
#include "solvers/solver.h"

#define EMPTY_KEY UINT64_MAX
#define MIN_SLOTS 1024u

/* One stored outcome: remoteness in the low 16 bits, the value above. */
static inline uint32_t pack(Outcome o) { return (uint32_t)o.value << 16 | o.remoteness; }
static inline Outcome unpack(uint32_t e) { return (Outcome){(Value)(e >> 16), e & 0xffffu}; }

typedef struct Memo {
    uint64_t *keys;  /* EMPTY_KEY or a stored position */
    uint32_t *vals;  /* pack()ed outcomes */
    int16_t *winby;  /* WinBy per slot, NULL unless the game has scores */
    uint64_t mask;   /* slots - 1 (slots is a power of two) */
    uint64_t stored; /* used slots */
} Memo;

typedef struct DfsDepth {
    const Game *g;
    uint32_t k; /* store positions solved at depth <= k */
    Memo memo;
    SolveResult *export_to; /* where to export the memo; NULL: skip_export */
    uint64_t stored, slots; /* figures kept after the memo is freed */
    Error *err;
    ErrCode rc; /* sticky: once set, the search unwinds */
    Outcome root;
    WinBy root_winby;
} DfsDepth;

/* Fibonacci hashing: the top bits of pos * 2^64/phi. */
static inline uint64_t slot_of(const Memo *m, Position pos) {
    return (pos * UINT64_C(0x9E3779B97F4A7C15)) >> 32 & m->mask;
}

static void memo_free(Memo *m) {
    free(m->keys);
    free(m->vals);
    free(m->winby);
    *m = (Memo){0};
}

static ErrCode memo_alloc(Memo *m, uint64_t slots, bool winby, Error *err) {
    uint64_t bytes = slots * (sizeof *m->keys + sizeof *m->vals + (winby ? sizeof(int16_t) : 0));
    ErrCode rc = mem_check(bytes, "the dfs-depth memo", err);
    if (rc != ERR_OK) {
        return rc;
    }
    *m = (Memo){.mask = slots - 1};
    m->keys = mem_alloc(slots * sizeof *m->keys, "the dfs-depth memo", err);
    m->vals = mem_alloc(slots * sizeof *m->vals, "the dfs-depth memo", err);
    if (winby) {
        m->winby = mem_alloc(slots * sizeof *m->winby, "the dfs-depth memo", err);
    }
    if (m->keys == NULL || m->vals == NULL || (winby && m->winby == NULL)) {
        memo_free(m);
        return ERR_MEMORY;
    }
    for (uint64_t i = 0; i < slots; i++) {
        m->keys[i] = EMPTY_KEY;
    }
    return ERR_OK;
}

/* The slot holding pos, or the empty slot where it would go. O(1) expected. */
static inline uint64_t memo_find(const Memo *m, Position pos) {
    uint64_t i = slot_of(m, pos);
    while (m->keys[i] != EMPTY_KEY && m->keys[i] != pos) {
        i = (i + 1) & m->mask;
    }
    return i;
}

/* jemalloc folds live bytes into a thread's peak only at sampled events
 * (every 64 KiB or so allocated) and when the peak is read. Reading it while
 * two large blocks are live makes sure their overlap counts even when no
 * event fell in between. */
static void fold_peak(void) { (void)mem_thread_peak(); }

/* Doubles the table (rehashing every entry): amortized O(1) per store. */
static ErrCode memo_grow(Memo *m, Error *err) {
    Memo bigger;
    ErrCode rc = memo_alloc(&bigger, (m->mask + 1) * 2, m->winby != NULL, err);
    if (rc != ERR_OK) {
        return rc;
    }
    fold_peak();
    for (uint64_t i = 0; i <= m->mask; i++) {
        if (m->keys[i] != EMPTY_KEY) {
            uint64_t j = memo_find(&bigger, m->keys[i]);
            bigger.keys[j] = m->keys[i];
            bigger.vals[j] = m->vals[i];
            if (m->winby != NULL) {
                bigger.winby[j] = m->winby[i];
            }
        }
    }
    bigger.stored = m->stored;
    memo_free(m);
    *m = bigger;
    return ERR_OK;
}

static ErrCode memo_store(DfsDepth *d, Position pos, Outcome out, WinBy winby) {
    Memo *m = &d->memo;
    if (out.remoteness > DB_MAX_REMOTENESS_16) {
        return error_set(d->err, ERR_LIMIT,
                         "position %" PRIu64 " has remoteness %" PRIu32
                         ", more than dfs-depth stores (%u)",
                         pos, out.remoteness, DB_MAX_REMOTENESS_16);
    }
    if (m->winby != NULL && (winby < WINBY_MIN || winby > WINBY_MAX)) {
        return error_set(d->err, ERR_LIMIT,
                         "WinBy score %" PRId32 " at position %" PRIu64
                         " is outside the stored range %d..%d",
                         winby, pos, WINBY_MIN, WINBY_MAX);
    }
    if ((m->stored + 1) * 2 > m->mask + 1) {
        ErrCode rc = memo_grow(m, d->err);
        if (rc != ERR_OK) {
            return rc;
        }
    }
    STAT_INC(db_writes);
    uint64_t i = memo_find(m, pos);
    m->keys[i] = pos;
    m->vals[i] = pack(out);
    if (m->winby != NULL) {
        m->winby[i] = (int16_t)winby;
    }
    m->stored++;
    d->stored = m->stored;
    return ERR_OK;
}

/* Solves pos (a canonical position) at recursion depth `depth`. */
static Outcome visit(DfsDepth *d, Position pos, uint32_t depth, WinBy *winby) {
    STAT_INC(calls);
    const Game *g = d->g;
    STAT_INC(db_reads);
    uint64_t slot = memo_find(&d->memo, pos);
    if (d->memo.keys[slot] == pos) {
        if (g->has_winby) {
            *winby = d->memo.winby[slot];
        }
        return unpack(d->memo.vals[slot]);
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
    if (depth <= d->k) {
        d->rc = memo_store(d, pos, out, *winby);
    }
    return out;
}

/* Copies the stored positions into the (partial) result database. */
static ErrCode export_memo(const Game *g, const Memo *m, SolveResult *res, Error *err) {
    ErrCode rc = solver_db_create(g, &res->db, err);
    if (rc != ERR_OK) {
        return rc;
    }
    res->has_db = true;
    for (uint64_t i = 0; i <= m->mask && rc == ERR_OK; i++) {
        Position pos = m->keys[i];
        if (pos == EMPTY_KEY) {
            continue;
        }
        rc = solver_store(g, &res->db, pos, unpack(m->vals[i]), m->winby ? m->winby[i] : 0, err);
    }
    return rc;
}

/* The search and, unless skipped, the export, on the deep thread: every
 * block is allocated and freed there, and the peak is folded while the memo
 * and the exported database are both live. */
static void run(void *arg) {
    DfsDepth *d = arg;
    d->rc = memo_alloc(&d->memo, MIN_SLOTS, d->g->has_winby, d->err);
    if (d->rc == ERR_OK) {
        d->root = visit(d, game_canonical(d->g, d->g->initial), 0, &d->root_winby);
    }
    if (d->rc == ERR_OK && d->export_to != NULL) {
        d->rc = export_memo(d->g, &d->memo, d->export_to, d->err);
    }
    fold_peak();
    d->slots = d->memo.mask + 1;
    memo_free(&d->memo);
}

static ErrCode dfs_depth_solve(const Game *g, const SolveConfig *cfg, SolveResult *res,
                               Error *err) {
    int64_t k = opt_int(&cfg->options, "k");
    DfsDepth d = {.g = g,
                  .k = k > UINT32_MAX ? UINT32_MAX : (uint32_t)k,
                  .export_to = cfg->skip_export ? NULL : res,
                  .err = err};
    ErrCode rc = solver_run_deep(g, SOLVER_FRAME_BYTES, run, &d, res, err);
    if (rc == ERR_OK) {
        rc = d.rc;
    }
    res->root = d.root;
    res->has_winby = g->has_winby;
    res->root_winby = d.root_winby;
    solve_result_extra(res, SOLVE_EXTRA_STORED, (double)d.stored);
    solve_result_extra(res, "memo_slots", (double)d.slots);
    return rc;
}

static const OptionSpec dfs_depth_options[] = {
    {.name = "k",
     .type = OPT_INT,
     .min = 0,
     .max = 1000000,
     .def = 1000000,
     .help = "store only positions solved at depth <= k (default: every depth; Weiss "
             "used 5 for tic-tac-toe)"},
    {0},
};

const SolverModule dfs_depth_solver = {
    .name = "dfs-depth",
    .description = "dfs with a depth-limited memo: stores only positions at depth <= k",
    .partial_db = true,
    .options = dfs_depth_options,
    .solve = dfs_depth_solve,
};
