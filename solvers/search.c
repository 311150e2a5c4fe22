/* solvers/search.c: the value of the initial position by a proof search
 * with a memo, down to the positions of a database's solved tiers (Gasser's
 * opening search for nine men's morris).
 *
 * Gasser (1996) solved the mid- and endgame of nine men's morris by
 * retrograde analysis, 28 databases, and then found the value of the empty
 * board by an 18-ply alpha-beta search over the placement phase whose
 * leaves are the databases' positions. This solver is that search for any
 * game: from the initial position, each position is
 *   - a leaf when it is primitive, or when --db DIR (optional; a complete
 *     database, or a partial one of solved tiers, such as tier:sector
 *     leaves) holds its tier: its value is read there;
 *   - otherwise an inner node, valued from its children.
 *
 * The values are ordered for the player to move LOSE < MID < WIN, where MID
 * is a tie or a draw; a game whose search meets both a tie and a draw is
 * refused (their order is not the negation of itself, so the search below
 * would not be exact). The value is found by two Boolean questions, "can
 * the player to move reach at least level t" (t = MID, WIN), each asked of
 * a child as its negation ("the opponent cannot reach 3 - t"): an AND/OR
 * search that stops at the first child that answers, so it visits a proof
 * tree, not the game tree (alpha-beta's null windows, Gasser's method). The
 * memo keeps, per canonical position, the bounds learned [lo, hi] of its
 * level: a position proved once is not searched again by another move
 * order, and a question it already answers costs one lookup. Before
 * searching any child, a position looks at every child's leaf value or
 * memo bounds (enhanced transposition cutoffs): a child that already
 * answers costs no search. The children left are searched in the order of
 * the history heuristic: the moves that answered most often so far first
 * (a count per move, per thread).
 *
 * A node's children come from the game's GPS family when it has one (one
 * unhash a node, each child by do_move, primitive, canonical and
 * undo_move on the board), else from the stateless family
 * (search:stateless forces it).
 *
 * Only the value is computed: no remoteness (res->no_remoteness), no WinBy
 * score (games with scores are refused), and no database.
 *
 * Memo: 2^memo entries of 8 bytes (the option, default 2^24, 128 MiB; fewer
 * for a game of fewer positions, at least 1,024), in buckets of 4; a full bucket loses one entry (a
 * pseudo-random one) to the new one: the bounds are facts, so losing one costs time, never
 * correctness. The database's tiers are read whole into memory on their
 * first use while they fit --max-memory beside the memo and the tiers
 * already read (tiers_loaded), else record by record through the store's
 * block cache (tiers_by_block).
 *
 * Threads: with two or more (--threads), the two questions of the initial
 * position are asked at once, one thread each, sharing the memo (each
 * entry one 64-bit word, read and written atomically; a lost update costs
 * time only) and the tiers read; the value is the same for every thread
 * count, the node counts are not.
 *
 * Loops: the positions searched above the database must not repeat; a
 * position of a loopy tier that the database does not hold is refused, and
 * a path longer than the game's max_depth (or 100,000 without one) is
 * refused as a loop.
 *
 * Time: O(P b) game calls for the P positions of the proof trees, each
 * expanded with its b children canonicalized. Memory: the memo, the tiers
 * read, one buffer of children per ply of the path.
 */
#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/mem.h"
#include "solvers/solver.h"
#include "solvers/store.h"

enum { LEV_LOSE = 0, LEV_MID = 1, LEV_WIN = 2 };

#define SEARCH_DEPTH_CAP 100000u /* a path longer than this, without max_depth, is a loop */
#define BUCKET 4

typedef struct Ply {
    Move moves[GAME_MAX_MOVES];
    Position kids[GAME_MAX_MOVES];  /* the children still open */
    Move kid_moves[GAME_MAX_MOVES]; /* their moves */
} Ply;

#define HISTORY 4096 /* history heuristic: entries, by the move's hash */

/* One thread's counts and path buffers. */
typedef struct Worker {
    uint64_t nodes, db_leaves, prim_leaves, memo_stores, memo_replaced;
    Ply **ply;                 /* [max_depth + 1], allocated as the path grows */
    GpsState *st;              /* the GPS family's board, when the search uses it */
    uint32_t history[HISTORY]; /* how often a move answered (the history heuristic) */
} Worker;

static unsigned history_slot(Move m) { return ((uint32_t)m * 2654435761u) >> 20; /* 12 bits */ }

typedef struct Search {
    const Game *g;
    Error *err;
    volatile int failed; /* set with err, under search_fail */
    /* the database (have_db), and per tier: 0 not yet used, 1 read whole
     * (tdb[t]), 2 read by block, 3 not held */
    bool have_db;
    Store st;
    int ntiers;
    unsigned char *tstate;
    Database *tdb;
    uint64_t held_bytes; /* memo + tiers read whole */
    uint64_t budget;
    int tiers_loaded, tiers_by_block;
    /* the memo: ((pos + 1) << 4) | lo << 2 | hi, 0 empty */
    uint64_t *memo;
    uint64_t mask; /* entries - 1 */
    bool seen_tie, seen_draw;
    uint32_t max_depth;
    const GpsOps *gps; /* the game's GPS family, unless search:stateless */
    bool progress;     /* a line on stderr every 2^22 positions a thread searches */
    double t0;
} Search;

/* Records the first failure (later ones are dropped). */
static void search_fail(Search *s, ErrCode code, const char *msg) {
#pragma omp critical(search_fail)
    if (!s->failed) {
        error_set(s->err, code, "%s", msg);
        s->failed = 1;
    }
}

/* search_fail with a message naming position pos: fmt has one %s for it. */
static void fail_at(Search *s, ErrCode code, Position pos, const char *fmt, long long a,
                    long long b) {
    char text[256], msg[768];
    s->g->ops->format(s->g, pos, text, sizeof text);
    snprintf(msg, sizeof msg, fmt, text, a, b);
    search_fail(s, code, msg);
}

/* The level of a leaf's value for its player to move. */
static int level_of(Search *s, Value v, Position pos) {
    if (v == VALUE_TIE || v == VALUE_DRAW) {
        /* Written once, not at every leaf: the flags share a cache line
         * with what both threads read in their inner loop. */
        bool *seen = v == VALUE_TIE ? &s->seen_tie : &s->seen_draw;
        if (__atomic_load_n(seen, __ATOMIC_RELAXED)) {
            return LEV_MID;
        }
        __atomic_store_n(seen, true, __ATOMIC_RELAXED);
        if (__atomic_load_n(&s->seen_tie, __ATOMIC_RELAXED) &&
            __atomic_load_n(&s->seen_draw, __ATOMIC_RELAXED)) {
            fail_at(s, ERR_UNSUPPORTED, pos,
                    "search: the game has both ties and draws (one at '%s', the other earlier), "
                    "which a search by levels cannot order; use a strong solver",
                    0, 0);
        }
        return LEV_MID;
    }
    return v == VALUE_WIN ? LEV_WIN : LEV_LOSE;
}

/* ------------------------------------------------------------- the memo */

static uint64_t mix(Position p) {
    uint64_t x = p * UINT64_C(0x9E3779B97F4A7C15);
    return x ^ (x >> 29);
}

/* The bounds known of pos: *lo and *hi (LEV_LOSE and LEV_WIN if none). */
static void memo_get(const Search *s, Position pos, int *lo, int *hi) {
    uint64_t b = mix(pos) & s->mask & ~(uint64_t)(BUCKET - 1), key = pos + 1;
    for (int k = 0; k < BUCKET; k++) {
        uint64_t e = __atomic_load_n(&s->memo[b + k], __ATOMIC_RELAXED);
        if (e >> 4 == key) {
            *lo = (int)(e >> 2 & 3);
            *hi = (int)(e & 3);
            return;
        }
    }
    *lo = LEV_LOSE;
    *hi = LEV_WIN;
}

static void memo_put(Search *s, Worker *w, Position pos, int lo, int hi) {
    uint64_t h = mix(pos), b = h & s->mask & ~(uint64_t)(BUCKET - 1), key = pos + 1;
    uint64_t e = key << 4 | (uint64_t)lo << 2 | (uint64_t)hi;
    int empty = -1;
    for (int k = 0; k < BUCKET; k++) {
        uint64_t old = __atomic_load_n(&s->memo[b + k], __ATOMIC_RELAXED);
        if (old >> 4 == key) {
            __atomic_store_n(&s->memo[b + k], e, __ATOMIC_RELAXED);
            return;
        }
        if (old == 0 && empty < 0) {
            empty = k;
        }
    }
    w->memo_stores++;
    if (empty < 0) {
        empty = (int)(h >> 62);
        w->memo_replaced++;
    }
    __atomic_store_n(&s->memo[b + empty], e, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------ the leaves */

/* Tier t's state, reading the tier whole on first use when it fits (one
 * thread reads it, the others wait). */
static int tier_state(Search *s, int t) {
    int state = __atomic_load_n(&s->tstate[t], __ATOMIC_ACQUIRE);
    if (state != 0) {
        return state;
    }
#pragma omp critical(search_tiers)
    {
        state = s->tstate[t];
        uint64_t bytes = s->st.tier_size[t] * s->st.m.width;
        Error e = {0};
        if (state != 0) {
            /* another thread read it meanwhile */
        } else if (!store_tier_held(&s->st, t)) {
            state = 3;
        } else if (s->held_bytes + bytes > s->budget) {
            s->tiers_by_block++;
            state = 2;
        } else if (store_tier_load(&s->st, t, 1, &s->tdb[t], &e) != ERR_OK) {
            search_fail(s, e.code, e.msg);
            state = 3;
        } else {
            s->held_bytes += bytes;
            s->tiers_loaded++;
            state = 1;
        }
        __atomic_store_n(&s->tstate[t], (unsigned char)state, __ATOMIC_RELEASE);
    }
    return state;
}

/* True with *lev when pos is a leaf: primitive (v, its primitive value,
 * known to the caller), or in a tier the database holds. A position of a
 * loopy tier the database does not hold fails. */
static bool leaf(Search *s, Worker *w, Position pos, Value v, int *lev) {
    const Game *g = s->g;
    if (v != VALUE_UNDECIDED) {
        w->prim_leaves++;
        *lev = level_of(s, v, pos);
        return true;
    }
    if (!s->have_db && !g->loopy) {
        return false;
    }
    int t = g->tiers->tier_of(g, pos);
    int state = s->have_db && s->st.tiers ? tier_state(s, t) : s->have_db ? 2 : 3;
    if (state == 3) {
        if (g->loopy && (g->tiers->loopy == NULL || g->tiers->loopy(g, t))) {
            fail_at(s, ERR_UNSUPPORTED, pos,
                    "search: '%s' is in loopy tier %lld, which the database does not hold; solve "
                    "it first (--solver tier:sector=%lld --db DIR)",
                    t, t);
        }
        return false;
    }
    uint32_t raw;
    const Database *fmt = &s->st.fmt;
    if (state == 1) {
        uint64_t i =
            g->tiers->first != NULL ? pos - g->tiers->first(g, t) : g->tiers->index_of(g, pos);
        raw = db_get(&s->tdb[t], i);
    } else {
        WinBy score;
        Error e = {0};
        ErrCode rc;
        STAT_INC(db_reads);
#pragma omp critical(search_store)
        rc = store_get(&s->st, pos, &raw, &score, &e);
        if (rc != ERR_OK) {
            search_fail(s, rc, e.msg);
            return false;
        }
    }
    if (!db_raw_solved(fmt, raw)) {
        fail_at(s, ERR_IO, pos,
                "search: the database holds no value for '%s' (tier %lld), a position the "
                "search reaches; a database of another solve?",
                t, 0);
        return false;
    }
    w->db_leaves++;
    *lev = level_of(s, db_raw_value(fmt, raw), pos);
    return true;
}

/* ------------------------------------------------------------ the search */

/* True when the player to move at canonical inner position pos can reach
 * at least level t (LEV_MID or LEV_WIN). */
static bool reaches(Search *s, Worker *w, Position pos, int t, uint32_t depth) {
    const Game *g = s->g;
    int lo, hi;
    memo_get(s, pos, &lo, &hi);
    if (lo >= t || hi < t) {
        return lo >= t;
    }
    if (depth >= s->max_depth) {
        fail_at(s, ERR_LIMIT, pos,
                "search: a path above the database reaches '%s' after %lld moves: a loop "
                "outside the database's tiers, or a game longer than its max_depth",
                depth, 0);
        return false;
    }
    if (w->ply[depth] == NULL && (w->ply[depth] = malloc(sizeof(Ply))) == NULL) {
        search_fail(s, ERR_MEMORY, "search: cannot allocate the path's buffers");
        return false;
    }
    Ply *p = w->ply[depth];
    STAT_INC(calls);
    if (++w->nodes % (UINT64_C(1) << 22) == 0 && s->progress) {
        fprintf(stderr,
                "search: thread %d: %" PRIu64 " positions searched, %" PRIu64
                " database positions read, %" PRIu64 " memo entries stored (%" PRIu64
                " replaced), %.0f s\n",
                omp_get_thread_num(), w->nodes, w->db_leaves, w->memo_stores, w->memo_replaced,
                clock_seconds() - s->t0);
    }
    if (s->gps != NULL) {
        s->gps->set(w->st, pos); /* one unhash; the children by do/undo */
    }
    int n = s->gps != NULL ? gps_generate_moves(s->gps, w->st, p->moves)
                           : game_generate_moves(g, pos, p->moves);
    if (n <= 0) {
        fail_at(s, ERR_INTERNAL, pos, "search: '%s' is not primitive and has no moves", 0, 0);
        return false;
    }
    /* The children, and those that answer without a search: a leaf, or
     * memo bounds that settle the child's question. */
    int need = 3 - t, m = 0;
    bool yes = false;
    for (int k = 0; k < n && !yes && !s->failed; k++) {
        STAT_INC(edges);
        Position c;
        Value prim;
        if (s->gps != NULL) {
            c = gps_do_move(s->gps, w->st, p->moves[k]);
            prim = gps_primitive(s->gps, w->st);
            c = g->symmetric ? s->gps->canonical(w->st) : c;
            gps_undo_move(s->gps, w->st);
        } else {
            c = game_canonical(g, game_do_move(g, pos, p->moves[k]));
            prim = game_primitive(g, c);
        }
        int lev, clo, chi;
        if (leaf(s, w, c, prim, &lev)) {
            yes = lev < need;
            continue;
        }
        memo_get(s, c, &clo, &chi);
        if (chi < need) {
            yes = true; /* the opponent cannot reach `need` there */
        } else if (clo < need) {
            p->kid_moves[m] = p->moves[k];
            p->kids[m++] = c; /* open: search it */
        }
    }
    /* The open children, the moves that answered most often first (an
     * insertion sort: a few dozen children). */
    for (int k = 1; k < m && !yes; k++) {
        Position c = p->kids[k];
        Move mv = p->kid_moves[k];
        uint32_t h = w->history[history_slot(mv)];
        int x = k;
        for (; x > 0 && w->history[history_slot(p->kid_moves[x - 1])] < h; x--) {
            p->kids[x] = p->kids[x - 1];
            p->kid_moves[x] = p->kid_moves[x - 1];
        }
        p->kids[x] = c;
        p->kid_moves[x] = mv;
    }
    for (int k = 0; k < m && !yes && !s->failed; k++) {
        bool dup = false;
        for (int x = 0; x < k && !dup; x++) {
            dup = p->kids[x] == p->kids[k];
        }
        yes = !dup && !reaches(s, w, p->kids[k], need, depth + 1);
        if (yes) {
            w->history[history_slot(p->kid_moves[k])]++;
        }
    }
    if (s->failed) {
        return false;
    }
    memo_get(s, pos, &lo, &hi); /* the children's search may have moved it */
    if (yes) {
        lo = t > lo ? t : lo;
    } else {
        hi = t - 1 < hi ? t - 1 : hi;
    }
    memo_put(s, w, pos, lo, hi);
    return yes;
}

static void search_free(Search *s) {
    for (int t = 0; s->tdb != NULL && t < s->ntiers; t++) {
        if (s->tstate[t] == 1) {
            db_destroy(&s->tdb[t]);
        }
    }
    free(s->tdb);
    free(s->tstate);
    free(s->memo);
    if (s->have_db) {
        store_close(&s->st);
    }
}

/* Opens the database of cfg->work_dir, if any. */
static ErrCode open_db(Search *s, const SolveConfig *cfg, Error *err) {
    const Game *g = s->g;
    if (cfg->work_dir == NULL) {
        return ERR_OK;
    }
    if (g->tiers == NULL) {
        return error_set(err, ERR_UNSUPPORTED,
                         "search: --db needs a game with tiers (game '%s' has none)",
                         g->module->name);
    }
    ErrCode rc = store_open(g, cfg->work_dir, &s->st, err);
    if (rc != ERR_OK) {
        return rc;
    }
    s->have_db = true;
    s->ntiers = g->tiers->count(g);
    s->tstate = calloc((size_t)s->ntiers, 1);
    s->tdb = calloc((size_t)s->ntiers, sizeof *s->tdb);
    if (s->tstate == NULL || s->tdb == NULL) {
        return error_set(err, ERR_MEMORY, "search: cannot allocate the tier table");
    }
    return ERR_OK;
}

static ErrCode search_solve(const Game *g, const SolveConfig *cfg, SolveResult *res, Error *err) {
    Search s = {.g = g, .err = err, .progress = cfg->progress, .t0 = clock_seconds()};
    uint64_t entries = UINT64_C(1) << opt_int(&cfg->options, "memo");
    while (entries > 1024 && entries / 2 >= g->num_positions) {
        entries /= 2; /* never more entries than the game has positions */
    }
    if (g->num_positions >= UINT64_C(1) << 59) {
        return error_set(err, ERR_UNSUPPORTED,
                         "search: game '%s' has %" PRIu64
                         " hash slots, more than the memo's keys hold (2^59)",
                         g->module->name, g->num_positions);
    }
    s.max_depth = g->max_depth != 0 ? g->max_depth + 1 : SEARCH_DEPTH_CAP;
    ErrCode rc = mem_check(entries * 8, "the search's memo", err);
    if (rc == ERR_OK) {
        s.memo = mem_calloc((size_t)entries, 8, "the search's memo", err);
        rc = s.memo == NULL ? ERR_MEMORY : open_db(&s, cfg, err);
    }
    if (rc != ERR_OK) {
        search_free(&s);
        return rc;
    }
    s.mask = entries - 1;
    s.held_bytes = entries * 8;
    s.budget = mem_budget();
    int threads = cfg->threads > 0 ? cfg->threads : omp_get_num_procs();
    threads = threads >= 2 ? 2 : 1; /* one thread a question */
    res->threads = threads;
    Worker w[2] = {{0}};
    bool answer[2] = {false, false}; /* reaches LEV_WIN, reaches LEV_MID */
    uint64_t worker_peak[2] = {0, 0};
    Position root = game_canonical(g, cfg->root != NULL ? *cfg->root : g->initial);
    int lev = LEV_LOSE;
    bool root_leaf = leaf(&s, &w[0], root, game_primitive(g, root), &lev);
    s.gps = opt_bool(&cfg->options, "stateless") ? NULL : g->gps;
    if (!root_leaf && !s.failed) {
#pragma omp parallel num_threads(threads)
        {
            solver_worker_begin();
            int id = omp_get_thread_num();
            Worker *me = &w[id];
            me->ply = calloc((size_t)s.max_depth + 1, sizeof *me->ply);
            if (me->ply == NULL) {
                search_fail(&s, ERR_MEMORY, "search: cannot allocate the path");
            }
            Error e = {0};
            if (s.gps != NULL && (me->st = s.gps->create(g, &e)) == NULL) {
                search_fail(&s, e.code, e.msg);
            }
#pragma omp for schedule(static, 1)
            for (int q = 0; q < 2; q++) {
                /* One thread: the second question only when the first says no. */
                if (!s.failed && (threads == 2 || q == 0 || !answer[0])) {
                    answer[q] = reaches(&s, me, root, q == 0 ? LEV_WIN : LEV_MID, 0);
                }
            }
            for (uint32_t d = 0; me->ply != NULL && d <= s.max_depth; d++) {
                free(me->ply[d]);
            }
            free(me->ply);
            if (me->st != NULL) {
                s.gps->destroy(me->st);
            }
            solver_worker_end(res, worker_peak);
        }
        lev = answer[0] ? LEV_WIN : answer[1] ? LEV_MID : LEV_LOSE;
    }
    res->worker_peak_bytes = worker_peak[0] + worker_peak[1];
    Value v = lev == LEV_WIN    ? VALUE_WIN
              : lev == LEV_LOSE ? VALUE_LOSE
              : s.seen_draw     ? VALUE_DRAW
                                : VALUE_TIE;
    res->root = (Outcome){s.failed ? VALUE_UNDECIDED : v, 0};
    res->no_remoteness = true;
    solve_result_extra(res, "search_nodes", (double)(w[0].nodes + w[1].nodes));
    solve_result_extra(res, "db_leaves", (double)(w[0].db_leaves + w[1].db_leaves));
    solve_result_extra(res, "primitive_leaves", (double)(w[0].prim_leaves + w[1].prim_leaves));
    solve_result_extra(res, "memo_stores", (double)(w[0].memo_stores + w[1].memo_stores));
    solve_result_extra(res, "memo_replaced", (double)(w[0].memo_replaced + w[1].memo_replaced));
    for (int t = 0; s.progress && t < s.ntiers; t++) {
        if (s.tstate[t] == 1 || s.tstate[t] == 2) {
            char label[GAME_TIER_LABEL_MAX];
            fprintf(stderr, "search: tier %s of the database read (%s)\n",
                    game_tier_label(g, t, label, sizeof label),
                    s.tstate[t] == 1 ? "whole" : "by block");
        }
    }
    solve_result_extra(res, "memo_entries", (double)entries);
    solve_result_extra(res, "tiers_loaded", (double)s.tiers_loaded);
    solve_result_extra(res, "tiers_by_block", (double)s.tiers_by_block);
    rc = s.failed ? err->code : ERR_OK;
    search_free(&s);
    return rc;
}

static const OptionSpec search_options[] = {
    {.name = "memo",
     .type = OPT_INT,
     .min = 10,
     .max = 34,
     .def = 24,
     .help = "the memo holds 2^memo positions' bounds, 8 bytes each"},
    {.name = "stateless",
     .type = OPT_BOOL,
     .def = 0,
     .help = "children by the stateless family even when the game has GPS"},
    {0},
};

const SolverModule search_solver = {
    .name = "search",
    .description = "proof search with a memo for the initial position's value, down to the "
                   "solved tiers of --db DIR if given (Gasser's opening search)",
    .root_only = true,
    .values_only = true,
    .reads_db = true,
    .parallel = true,
    .bounded_memory = true,
    .options = search_options,
    .solve = search_solve,
};
