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
 * answers costs no search.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "solvers/solver.h"
#include "solvers/store.h"

enum { LEV_LOSE = 0, LEV_MID = 1, LEV_WIN = 2 };

#define SEARCH_DEPTH_CAP 100000u /* a path longer than this, without max_depth, is a loop */
#define BUCKET 4

typedef struct Ply {
    Move moves[GAME_MAX_MOVES];
    Position kids[GAME_MAX_MOVES];
} Ply;

typedef struct Search {
    const Game *g;
    Error *err;
    ErrCode rc;
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
    uint64_t memo_stores, memo_replaced;
    uint64_t nodes, db_leaves, prim_leaves;
    bool seen_tie, seen_draw;
    uint32_t max_depth;
    Ply **ply; /* [max_depth + 1], allocated as the path grows */
} Search;

/* The level of a leaf's value for its player to move. */
static int level_of(Search *s, Value v, Position pos) {
    if (v == VALUE_TIE || v == VALUE_DRAW) {
        *(v == VALUE_TIE ? &s->seen_tie : &s->seen_draw) = true;
        if (s->seen_tie && s->seen_draw && s->rc == ERR_OK) {
            char text[256];
            s->g->ops->format(s->g, pos, text, sizeof text);
            s->rc = error_set(s->err, ERR_UNSUPPORTED,
                              "search: the game has both ties and draws (a %s at '%s', the other "
                              "earlier), which a search by levels cannot order; use a strong "
                              "solver",
                              value_name(v), text);
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
    uint64_t h = mix(pos), b = h & s->mask & ~(uint64_t)(BUCKET - 1), key = pos + 1;
    for (int k = 0; k < BUCKET; k++) {
        uint64_t e = s->memo[b + k];
        if (e >> 4 == key) {
            *lo = (int)(e >> 2 & 3);
            *hi = (int)(e & 3);
            return;
        }
    }
    *lo = LEV_LOSE;
    *hi = LEV_WIN;
}

static void memo_put(Search *s, Position pos, int lo, int hi) {
    uint64_t h = mix(pos), b = h & s->mask & ~(uint64_t)(BUCKET - 1), key = pos + 1;
    uint64_t e = key << 4 | (uint64_t)lo << 2 | (uint64_t)hi;
    int empty = -1;
    for (int k = 0; k < BUCKET; k++) {
        uint64_t old = s->memo[b + k];
        if (old >> 4 == key) {
            s->memo[b + k] = e;
            return;
        }
        if (old == 0 && empty < 0) {
            empty = k;
        }
    }
    s->memo_stores++;
    if (empty < 0) {
        empty = (int)(h >> 62);
        s->memo_replaced++;
    }
    s->memo[b + empty] = e;
}

/* ------------------------------------------------------------ the leaves */

/* Tier t's state, reading it whole on first use when it fits. */
static int tier_state(Search *s, int t) {
    if (s->tstate[t] != 0) {
        return s->tstate[t];
    }
    if (!store_tier_held(&s->st, t)) {
        return s->tstate[t] = 3;
    }
    uint64_t bytes = s->st.tier_size[t] * s->st.m.width;
    if (s->held_bytes + bytes <= s->budget) {
        if (store_tier_load(&s->st, t, 1, &s->tdb[t], s->err) != ERR_OK) {
            s->rc = s->err->code;
            return 3;
        }
        s->held_bytes += bytes;
        s->tiers_loaded++;
        return s->tstate[t] = 1;
    }
    s->tiers_by_block++;
    return s->tstate[t] = 2;
}

/* True with *lev when pos is a leaf: primitive, or in a tier the database
 * holds. A position of a loopy tier the database does not hold fails. */
static bool leaf(Search *s, Position pos, int *lev) {
    const Game *g = s->g;
    Value v = game_primitive(g, pos);
    if (v != VALUE_UNDECIDED) {
        s->prim_leaves++;
        *lev = level_of(s, v, pos);
        return true;
    }
    if (!s->have_db && !g->loopy) {
        return false;
    }
    int t = g->tiers->tier_of(g, pos);
    int state = s->have_db && s->st.tiers ? tier_state(s, t) : s->have_db ? 2 : 3;
    if (s->rc != ERR_OK) {
        return false;
    }
    if (state == 3) {
        bool loopy = g->loopy && (g->tiers->loopy == NULL || g->tiers->loopy(g, t));
        if (loopy) {
            char text[256];
            g->ops->format(g, pos, text, sizeof text);
            s->rc = error_set(s->err, ERR_UNSUPPORTED,
                              "search: '%s' is in loopy tier %d, which the database does not "
                              "hold; solve it first (--solver tier:sector=%d --db DIR)",
                              text, t, t);
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
        WinBy w;
        STAT_INC(db_reads);
        if (store_get(&s->st, pos, &raw, &w, s->err) != ERR_OK) {
            s->rc = s->err->code;
            return false;
        }
    }
    if (!db_raw_solved(fmt, raw)) {
        char text[256];
        g->ops->format(g, pos, text, sizeof text);
        s->rc = error_set(s->err, ERR_IO,
                          "search: the database holds no value for '%s' (tier %d), a position "
                          "the search reaches; a database of another solve?",
                          text, t);
        return false;
    }
    s->db_leaves++;
    *lev = level_of(s, db_raw_value(fmt, raw), pos);
    return true;
}

/* ------------------------------------------------------------ the search */

/* True when the player to move at canonical inner position pos can reach
 * at least level t (LEV_MID or LEV_WIN). */
static bool reaches(Search *s, Position pos, int t, uint32_t depth) {
    const Game *g = s->g;
    int lo, hi;
    memo_get(s, pos, &lo, &hi);
    if (lo >= t || hi < t) {
        return lo >= t;
    }
    if (depth >= s->max_depth) {
        char text[256];
        g->ops->format(g, pos, text, sizeof text);
        s->rc = error_set(s->err, ERR_LIMIT,
                          "search: a path of %" PRIu32
                          " moves above the database reaches '%s': a loop outside the "
                          "database's tiers, or a game longer than its max_depth",
                          depth, text);
        return false;
    }
    if (s->ply[depth] == NULL) {
        s->ply[depth] = mem_alloc(sizeof(Ply), "the search's path", s->err);
        if (s->ply[depth] == NULL) {
            s->rc = ERR_MEMORY;
            return false;
        }
    }
    Ply *p = s->ply[depth];
    STAT_INC(calls);
    s->nodes++;
    int n = game_generate_moves(g, pos, p->moves);
    if (n <= 0) {
        char text[256];
        g->ops->format(g, pos, text, sizeof text);
        s->rc =
            error_set(s->err, ERR_INTERNAL, "search: '%s' is not primitive and has no moves", text);
        return false;
    }
    /* The children, and those that answer without a search: a leaf, or
     * memo bounds that settle the child's question. */
    int need = 3 - t, m = 0;
    bool yes = false;
    for (int k = 0; k < n && !yes; k++) {
        STAT_INC(edges);
        Position c = game_canonical(g, game_do_move(g, pos, p->moves[k]));
        int lev;
        if (leaf(s, c, &lev)) {
            yes = lev < need;
        } else if (s->rc != ERR_OK) {
            return false;
        } else {
            int clo, chi;
            memo_get(s, c, &clo, &chi);
            if (chi < need) {
                yes = true; /* the opponent cannot reach `need` there */
            } else if (clo < need) {
                p->kids[m++] = c; /* open: search it */
            }
        }
    }
    for (int k = 0; k < m && !yes && s->rc == ERR_OK; k++) {
        bool dup = false;
        for (int x = 0; x < k && !dup; x++) {
            dup = p->kids[x] == p->kids[k];
        }
        yes = !dup && !reaches(s, p->kids[k], need, depth + 1);
    }
    if (s->rc != ERR_OK) {
        return false;
    }
    memo_get(s, pos, &lo, &hi); /* the children's search may have moved it */
    if (yes) {
        lo = t > lo ? t : lo;
    } else {
        hi = t - 1 < hi ? t - 1 : hi;
    }
    memo_put(s, pos, lo, hi);
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
    for (uint32_t d = 0; s->ply != NULL && d <= s->max_depth; d++) {
        free(s->ply[d]);
    }
    free(s->ply);
    free(s->memo);
    if (s->have_db) {
        store_close(&s->st);
    }
}

static ErrCode search_solve(const Game *g, const SolveConfig *cfg, SolveResult *res, Error *err) {
    Search s = {.g = g, .err = err};
    int bits = (int)opt_int(&cfg->options, "memo");
    uint64_t entries = UINT64_C(1) << bits;
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
    if (rc != ERR_OK) {
        return rc;
    }
    s.memo = mem_calloc((size_t)entries, 8, "the search's memo", err);
    s.ply = mem_calloc((size_t)s.max_depth + 1, sizeof *s.ply, "the search's path", err);
    if (s.memo == NULL || s.ply == NULL) {
        search_free(&s);
        return ERR_MEMORY;
    }
    s.mask = entries - 1;
    s.held_bytes = entries * 8;
    s.budget = mem_budget();
    if (cfg->work_dir != NULL) {
        if (g->tiers == NULL) {
            search_free(&s);
            return error_set(err, ERR_UNSUPPORTED,
                             "search: --db needs a game with tiers (game '%s' has none)",
                             g->module->name);
        }
        rc = store_open(g, cfg->work_dir, &s.st, err);
        if (rc != ERR_OK) {
            search_free(&s);
            return rc;
        }
        s.have_db = true;
        s.ntiers = g->tiers->count(g);
        s.tstate = calloc((size_t)s.ntiers, 1);
        s.tdb = calloc((size_t)s.ntiers, sizeof *s.tdb);
        if (s.tstate == NULL || s.tdb == NULL) {
            search_free(&s);
            return error_set(err, ERR_MEMORY, "search: cannot allocate the tier table");
        }
    }
    Position root = game_canonical(g, g->initial);
    int lev;
    Value v = VALUE_UNDECIDED;
    if (leaf(&s, root, &lev)) {
        v = lev == LEV_WIN ? VALUE_WIN : lev == LEV_LOSE ? VALUE_LOSE : VALUE_UNDECIDED;
    } else if (s.rc == ERR_OK) {
        lev = reaches(&s, root, LEV_WIN, 0)                     ? LEV_WIN
              : s.rc == ERR_OK && reaches(&s, root, LEV_MID, 0) ? LEV_MID
                                                                : LEV_LOSE;
    }
    if (s.rc == ERR_OK && lev == LEV_MID) {
        v = s.seen_draw ? VALUE_DRAW : VALUE_TIE;
    } else if (s.rc == ERR_OK) {
        v = lev == LEV_WIN ? VALUE_WIN : VALUE_LOSE;
    }
    res->root = (Outcome){v, 0};
    res->no_remoteness = true;
    solve_result_extra(res, "search_nodes", (double)s.nodes);
    solve_result_extra(res, "db_leaves", (double)s.db_leaves);
    solve_result_extra(res, "primitive_leaves", (double)s.prim_leaves);
    solve_result_extra(res, "memo_entries", (double)entries);
    solve_result_extra(res, "memo_stores", (double)s.memo_stores);
    solve_result_extra(res, "memo_replaced", (double)s.memo_replaced);
    solve_result_extra(res, "tiers_loaded", (double)s.tiers_loaded);
    solve_result_extra(res, "tiers_by_block", (double)s.tiers_by_block);
    rc = s.rc;
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
    {0},
};

const SolverModule search_solver = {
    .name = "search",
    .description = "proof search with a memo for the initial position's value, down to the "
                   "solved tiers of --db DIR if given (Gasser's opening search)",
    .root_only = true,
    .values_only = true,
    .reads_db = true,
    .options = search_options,
    .solve = search_solve,
};
