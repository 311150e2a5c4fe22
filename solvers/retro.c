/* solvers/retro.c: the frontier/back-edge retrograde solver, for loopy games.
 *
 * Mario's loopy solver from the GamesCrafters meeting of 2006-02-06 (seed
 * 001): discover the game graph, put every primitive on a frontier, and move
 * the frontier up the graph along back edges (child to parent). Two solvers
 * share this file, since only the back edges differ:
 *
 *   retro         records the back edges during discovery, in CSR form (one
 *                 offset per position, one 32-bit parent index per edge);
 *   retro-unmove  keeps no edges: the parents of a position are generated on
 *                 demand by the game's generate_parents (un-moves), Mario's
 *                 proposal; parents the discovery never reached are ignored.
 *
 * Algorithm:
 *   1. Discovery: breadth-first search from the (canonical) initial position
 *      over the stateless family. Primitives get their value (remoteness 0)
 *      in the database; every other reached position gets the number of its
 *      distinct (canonical) children in a 16-bit counter (GAME_MAX_MOVES is
 *      256, so any game fits: there is no 127-child limit).
 *   2. Wins and losses: the win/lose primitives are the frontier, a FIFO. A
 *      position taken from it is passed to each undecided parent: the parent
 *      of a losing position wins, the first time (remoteness 1 + the
 *      child's); the parent whose counter reaches 0 (every child a win for
 *      the opponent) loses, with remoteness 1 + the child's. Primitives enter
 *      at remoteness 0 and a position taken at remoteness r adds positions at
 *      r + 1, so the FIFO holds remotenesses in nondecreasing order: the
 *      first losing child is the quickest (win = 1 + min over losing
 *      children) and the last winning child is the slowest (lose = 1 + max
 *      over all children), as core/value.h defines them.
 *   3. Ties, once wins and losses are complete: the tie primitives are the
 *      frontier, and a tie makes each still undecided parent a tie, the
 *      first time (1 + min over tie children, by the same FIFO argument). An
 *      undecided position has no losing child (phase 2 would have made it a
 *      win) and not all children winning (it would be a loss), so a tie
 *      child is its best option: a tie is never decided before a win or a
 *      loss is ruled out, which is why ties wait for phase 2 to finish.
 *   4. Draws: whatever is still undecided never resolves under perfect play.
 *      Draws stay distinct from ties (a tie ends the game; a draw never
 *      ends). A non-loopy game with undecided positions is reported as a
 *      broken module (it has a cycle).
 *   5. WinBy (non-loopy games with scores): a position's score is the max
 *      (player one to move) or min (player two) over all of its children, so
 *      it is known only once every child's is: a second frontier pass from
 *      the primitives, with a copy of the child counters, adds a position
 *      when its last child is done (a topological order).
 *
 * Reached positions are numbered by rank in the hash space: a bitmap of the
 * reached positions with a 32-bit count per 64-bit word gives the index of a
 * position in O(1), and a sorted array gives the position of an index. All
 * per-position arrays are indexed this way, so they hold reached positions
 * only; the value database (core/db.h) stays a dense array over the hash
 * space like every solver's. Children are deduplicated per position (several
 * moves may reach one canonical child), matching generate_parents, which lists
 * each parent once.
 *
 * Time: O(V + M) game calls for discovery (V reached positions, M moves),
 * then O(E) work for the propagation (E distinct edges): retro reads its
 * CSR; retro-unmove makes one generate_parents call per position taken from
 * a frontier (two with WinBy). Memory, in bytes: the database (1 or 2 per
 * hash slot, +2 with WinBy) + the reached set (N/8 + N/16 for a hash space of
 * N) + 14 per reached position (sorted positions, counter, frontier; the BFS
 * queue becomes the sorted positions) + 2 more during discovery (the child
 * counts in BFS order) and, with WinBy, 2 and a bit. retro adds its CSR, 8 per
 * position and 4 per edge; during discovery it holds the edges as 8-byte
 * child positions, turned into 4-byte indices in place before the CSR is
 * filled, so its peak holds 8 bytes per edge (plus the slack of a doubling
 * array). retro-unmove holds no edges at all.
 * Counters: `calls` counts positions expanded by discovery plus positions
 * taken from a frontier; `edges` counts moves examined by discovery plus
 * back edges followed. solver_stats give the reached positions, the distinct
 * edges, the bytes of the CSR (retro), the positions taken in each pass and
 * the draws; --progress prints one line per phase.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/mem.h"
#include "solvers/solver.h"

_Static_assert(GAME_MAX_MOVES <= UINT16_MAX, "child counters are 16 bits wide");

typedef struct Retro {
    const Game *g;
    Database *db;
    Error *err;
    bool stored;   /* retro (CSR back edges) or retro-unmove (generate_parents) */
    bool progress; /* one line per phase on standard error (--progress) */
    double start;  /* clock_seconds() at the start of the solve */
    uint64_t held; /* bytes allocated by this solve, for the memory budget */

    /* Reached set: bit p of `seen` is set when position p was reached;
     * rank_base[w] counts the reached positions below word w. */
    uint64_t *seen;
    uint32_t *rank_base;
    uint64_t nwords;
    uint64_t reached;   /* V */
    Position *pos_of;   /* [V] reached positions, increasing: index -> position */
    uint16_t *left;     /* [V] children not yet known to be wins for the opponent */
    uint16_t *children; /* [V] copy of the child counts, for WinBy only */
    uint64_t edges;     /* E, distinct (position, child) pairs */

    /* retro: back edges in CSR form, parents of i at parents[first[i] .. first[i + 1]) */
    uint64_t *first;
    uint32_t *parents;
    /* retro-unmove: buffers for one generate_parents call */
    Position *gen;
    uint32_t *gen_index;

    /* The frontier: a FIFO of indices; every position enters it at most once
     * per pass, so V entries suffice. */
    uint32_t *queue;
    uint64_t head, tail;
    uint64_t taken[3]; /* positions taken in the win/lose, tie and WinBy passes */
} Retro;

/* ---------------------------------------------------------------- memory */

static const char *retro_name(const Retro *r) { return r->stored ? "retro" : "retro-unmove"; }

/* Checks that everything the solve holds plus `bytes` more for `what` (an
 * array: "frontier") fits the memory budget, and that `count` items of
 * `size` bytes can be addressed. */
static bool retro_fits(Retro *r, uint64_t count, size_t size, const char *what) {
    if (size != 0 && count > SIZE_MAX / size) {
        error_set(r->err, ERR_MEMORY, "the %s solve cannot address a %s of %" PRIu64 " items",
                  retro_name(r), what, count);
        return false;
    }
    char label[160];
    snprintf(label, sizeof label, "the %s solve, with its %s,", retro_name(r), what);
    return mem_check(r->held + count * size, label, r->err) == ERR_OK;
}

/* Allocates count * size bytes after checking that everything the solve
 * holds still fits the memory budget. */
static void *retro_alloc(Retro *r, uint64_t count, size_t size, bool zero, const char *what) {
    if (!retro_fits(r, count, size, what)) {
        return NULL;
    }
    uint64_t bytes = count * size;
    char label[160];
    snprintf(label, sizeof label, "the %s solve's %s", retro_name(r), what);
    void *p = zero ? mem_calloc((size_t)count, size, label, r->err)
                   : mem_alloc((size_t)bytes, label, r->err);
    if (p != NULL) {
        r->held += bytes;
    }
    return p;
}

static void retro_free(Retro *r, void *p, uint64_t bytes) {
    if (p != NULL) {
        free(p);
        r->held -= bytes;
    }
}

/* A growable array: *cap elements of `size` bytes, doubled when `need`
 * exceeds it. The budget check counts the old and the new array together, as
 * realloc may hold both while it copies. */
static bool retro_grow(Retro *r, void **buf, uint64_t *cap, uint64_t need, size_t size,
                       const char *what) {
    if (need <= *cap) {
        return true;
    }
    uint64_t ncap = *cap < 1024 ? 1024 : *cap * 2;
    while (ncap < need) {
        ncap *= 2;
    }
    if (!retro_fits(r, ncap, size, what)) {
        return false;
    }
    uint64_t extra = (ncap - *cap) * size;
    void *p = realloc(*buf, (size_t)(ncap * size));
    if (p == NULL) {
        char b[32];
        error_set(r->err, ERR_MEMORY, "out of memory growing the %s solve's %s to %s",
                  retro_name(r), what, mem_format(ncap * size, b, sizeof b));
        return false;
    }
    *buf = p;
    *cap = ncap;
    r->held += extra;
    return true;
}

/* ----------------------------------------------------------- reached set */

static bool is_reached(const Retro *r, Position p) { return (r->seen[p >> 6] >> (p & 63)) & 1u; }

static void mark_reached(Retro *r, Position p) { r->seen[p >> 6] |= UINT64_C(1) << (p & 63); }

/* Index of a reached position: its rank among the reached positions. */
static uint32_t index_of(const Retro *r, Position p) {
    uint64_t below = r->seen[p >> 6] & ((UINT64_C(1) << (p & 63)) - 1);
    return r->rank_base[p >> 6] + (uint32_t)__builtin_popcountll(below);
}

/* ------------------------------------------------------------- discovery */

static int compare_positions(const void *a, const void *b) {
    Position x = *(const Position *)a, y = *(const Position *)b;
    return (x > y) - (x < y);
}

static ErrCode fail_internal(Retro *r, const char *what, Position p) {
    char text[256];
    r->g->ops->format(r->g, p, text, sizeof text);
    return error_set(r->err, ERR_INTERNAL, "game '%s': %s (position %" PRIu64 ", %s)",
                     r->g->module->name, what, p, text);
}

/* The distinct canonical children of a non-primitive position, sorted.
 * Returns their number, or -1 with r->err set. */
static int distinct_children(Retro *r, Position p, Position *kids) {
    const Game *g = r->g;
    Move moves[GAME_MAX_MOVES];
    int n = game_generate_moves(g, p, moves);
    if (n < 1) {
        solver_no_moves_error(g, p, r->err);
        return -1;
    }
    if (n > g->max_moves) {
        fail_internal(r, "generate_moves returned more than max_moves", p);
        return -1;
    }
    for (int k = 0; k < n; k++) {
        STAT_INC(edges);
        kids[k] = game_canonical(g, game_do_move(g, p, moves[k]));
        if (kids[k] >= g->num_positions) {
            fail_internal(r, "a move leaves the hash space", p);
            return -1;
        }
    }
    qsort(kids, (size_t)n, sizeof *kids, compare_positions);
    int m = 0;
    for (int k = 0; k < n; k++) {
        if (m == 0 || kids[k] != kids[m - 1]) {
            kids[m++] = kids[k];
        }
    }
    return m;
}

/* The discovery's arrays, in BFS order: order[j] has nkids[j] distinct
 * children; retro also keeps them, order[0]'s first, in out[0 .. nout). */
typedef struct Bfs {
    Position *order;
    uint16_t *nkids;
    Position *out;
    uint64_t cap, kcap, ocap, nout;
    uint64_t out_bytes; /* held by out, once its elements become indices */
} Bfs;

/* Shrinks a grown array to `count` elements (the slack goes back). */
static void retro_shrink(Retro *r, void **buf, uint64_t *cap, uint64_t count, size_t size) {
    if (*buf == NULL || count >= *cap || count == 0) {
        return;
    }
    void *p = realloc(*buf, (size_t)(count * size));
    if (p != NULL) {
        *buf = p;
        r->held -= (*cap - count) * size;
        *cap = count;
    }
}

/* Breadth-first search from the initial position: the reached set, the
 * primitives' values in the database, and the Bfs arrays. */
static ErrCode bfs_run(Retro *r, Bfs *b) {
    const Game *g = r->g;
    Position root = game_canonical(g, g->initial);
    if (!retro_grow(r, (void **)&b->order, &b->cap, 1, sizeof *b->order, "discovery queue")) {
        return ERR_MEMORY;
    }
    b->order[0] = root;
    mark_reached(r, root);
    uint64_t count = 1;
    Position kids[GAME_MAX_MOVES];
    for (uint64_t j = 0; j < count; j++) {
        STAT_INC(calls);
        Position p = b->order[j];
        if (!retro_grow(r, (void **)&b->nkids, &b->kcap, j + 1, sizeof *b->nkids,
                        "child counters")) {
            return ERR_MEMORY;
        }
        Value v = game_primitive(g, p);
        if (v != VALUE_UNDECIDED) {
            WinBy w = g->has_winby ? g->ops->winby(g, p) : 0;
            ErrCode rc = solver_store(g, r->db, p, (Outcome){v, 0}, w, r->err);
            if (rc != ERR_OK) {
                return rc;
            }
            b->nkids[j] = 0;
            continue;
        }
        db_put(r->db, p, VALUE_UNDECIDED, 0); /* reached, not decided */
        int n = distinct_children(r, p, kids);
        if (n < 0) {
            return ERR_INTERNAL;
        }
        b->nkids[j] = (uint16_t)n;
        r->edges += (uint64_t)n;
        if (r->stored) {
            if (!retro_grow(r, (void **)&b->out, &b->ocap, b->nout + (uint64_t)n, sizeof *b->out,
                            "edges")) {
                return ERR_MEMORY;
            }
            memcpy(b->out + b->nout, kids, (size_t)n * sizeof *kids);
            b->nout += (uint64_t)n;
        }
        for (int k = 0; k < n; k++) {
            if (is_reached(r, kids[k])) {
                continue;
            }
            if (count == UINT32_MAX) {
                return error_set(r->err, ERR_LIMIT,
                                 "game '%s' has more than %" PRIu32
                                 " reachable positions, more than the retro solvers index "
                                 "(32-bit indices)",
                                 g->module->name, UINT32_MAX - 1);
            }
            if (!retro_grow(r, (void **)&b->order, &b->cap, count + 1, sizeof *b->order,
                            "discovery queue")) {
                return ERR_MEMORY;
            }
            mark_reached(r, kids[k]);
            b->order[count++] = kids[k];
        }
    }
    r->reached = count;
    retro_shrink(r, (void **)&b->order, &b->cap, count, sizeof *b->order);
    retro_shrink(r, (void **)&b->nkids, &b->kcap, count, sizeof *b->nkids);
    retro_shrink(r, (void **)&b->out, &b->ocap, b->nout, sizeof *b->out);
    return ERR_OK;
}

/* Numbers the reached positions by rank (rank_base) and stores the child
 * counters in index order. */
static ErrCode index_reached(Retro *r, const Bfs *b) {
    r->rank_base = retro_alloc(r, r->nwords, sizeof *r->rank_base, false, "reached-set directory");
    r->left = retro_alloc(r, r->reached, sizeof *r->left, false, "child counters");
    if (r->rank_base == NULL || r->left == NULL) {
        return ERR_MEMORY;
    }
    uint32_t sum = 0;
    for (uint64_t w = 0; w < r->nwords; w++) {
        r->rank_base[w] = sum;
        sum += (uint32_t)__builtin_popcountll(r->seen[w]);
    }
    for (uint64_t j = 0; j < r->reached; j++) {
        r->left[index_of(r, b->order[j])] = b->nkids[j];
    }
    return ERR_OK;
}

/* retro: turns the edges around into CSR. The children in b->out become
 * 32-bit indices in place (memcpy: the buffer changes element type) and the
 * buffer shrinks to half before the parents array is allocated, so the peak is
 * 8 bytes per edge; then counts, prefix sums, fill. */
static ErrCode build_back_edges(Retro *r, Bfs *b) {
    char *bytes = (char *)b->out;
    for (uint64_t e = 0; e < b->nout; e++) {
        Position c;
        memcpy(&c, bytes + e * sizeof c, sizeof c);
        uint32_t i = index_of(r, c);
        memcpy(bytes + e * sizeof i, &i, sizeof i);
    }
    uint64_t cap = b->ocap * sizeof *b->out / sizeof(uint32_t);
    void *buf = b->out;
    retro_shrink(r, &buf, &cap, b->nout, sizeof(uint32_t));
    b->out = buf;
    b->out_bytes = cap * sizeof(uint32_t);
    const uint32_t *child = (const uint32_t *)(void *)b->out;
    r->first = retro_alloc(r, r->reached + 1, sizeof *r->first, true, "back-edge offsets");
    r->parents = retro_alloc(r, r->edges, sizeof *r->parents, false, "back edges");
    if (r->first == NULL || r->parents == NULL) {
        return ERR_MEMORY;
    }
    for (uint64_t e = 0; e < b->nout; e++) {
        r->first[child[e] + 1]++;
    }
    for (uint64_t i = 0; i < r->reached; i++) {
        r->first[i + 1] += r->first[i];
    }
    /* first[c] is the next free slot of c while filling; afterwards it is the
     * end of c's run, which is the start of c + 1's. */
    for (uint64_t j = 0, e = 0; j < r->reached; j++) {
        uint32_t parent = index_of(r, b->order[j]);
        for (uint16_t k = 0; k < b->nkids[j]; k++, e++) {
            r->parents[r->first[child[e]]++] = parent;
        }
    }
    memmove(r->first + 1, r->first, r->reached * sizeof *r->first);
    r->first[0] = 0;
    return ERR_OK;
}

/* Discovery: the BFS, the index, the back edges for retro, and pos_of (the
 * BFS queue reused, rewritten in increasing order from the reached set). */
static ErrCode discover(Retro *r) {
    r->nwords = (r->g->num_positions + 63) / 64;
    r->seen = retro_alloc(r, r->nwords, sizeof *r->seen, true, "reached set");
    if (r->seen == NULL) {
        return ERR_MEMORY;
    }
    Bfs b = {0};
    ErrCode rc = bfs_run(r, &b);
    b.out_bytes = b.ocap * sizeof *b.out;
    if (rc == ERR_OK) {
        rc = index_reached(r, &b);
    }
    if (rc == ERR_OK && r->stored) {
        rc = build_back_edges(r, &b);
    }
    retro_free(r, b.out, b.out_bytes);
    retro_free(r, b.nkids, b.kcap * sizeof *b.nkids);
    if (rc != ERR_OK) {
        retro_free(r, b.order, b.cap * sizeof *b.order);
        return rc;
    }
    uint64_t i = 0;
    for (uint64_t w = 0; w < r->nwords; w++) {
        for (uint64_t bits = r->seen[w]; bits != 0; bits &= bits - 1) {
            b.order[i++] = w * 64 + (uint64_t)__builtin_ctzll(bits);
        }
    }
    r->pos_of = b.order;
    return ERR_OK;
}

/* ----------------------------------------------------------- propagation */

/* The indices of the reached parents of index i, in *list. Returns their
 * number, or -1 with r->err set. */
static int64_t parents_of(Retro *r, uint32_t i, const uint32_t **list) {
    if (r->stored) {
        *list = r->parents + r->first[i];
        return (int64_t)(r->first[i + 1] - r->first[i]);
    }
    const Game *g = r->g;
    Position p = r->pos_of[i];
    int n = game_generate_parents(g, p, r->gen);
    if (n < 0 || n > g->max_parents) {
        fail_internal(r, "generate_parents returned a count outside 0..max_parents", p);
        return -1;
    }
    int m = 0;
    for (int k = 0; k < n; k++) {
        Position q = r->gen[k];
        if (q >= g->num_positions) {
            fail_internal(r, "generate_parents listed a position outside the hash space", p);
            return -1;
        }
        if (is_reached(r, q)) { /* parents the discovery never reached are ignored */
            r->gen_index[m++] = index_of(r, q);
        }
    }
    *list = r->gen_index;
    return m;
}

/* Gives index q its outcome and puts it on the frontier. */
static ErrCode decide(Retro *r, uint32_t q, Value v, uint32_t remoteness) {
    Position p = r->pos_of[q];
    if (!db_put(r->db, p, v, remoteness)) {
        if (!r->g->loopy) {
            return db_overflow_error(r->db, p, remoteness, r->err);
        }
        return error_set(r->err, ERR_LIMIT,
                         "position %" PRIu64 " of loopy game '%s' has remoteness %" PRIu32
                         ", more than the %u-bit database record holds (%" PRIu32 ")",
                         p, r->g->module->name, remoteness, r->db->width * 8,
                         r->db->max_remoteness);
    }
    r->queue[r->tail++] = q;
    return ERR_OK;
}

/* Puts on the frontier the primitives whose value is v: the positions
 * decided at remoteness 0 (every other decision is at 1 or more). */
static void seed(Retro *r, Value v) {
    const Database *db = r->db;
    for (uint32_t i = 0; i < r->reached; i++) {
        uint32_t raw = db_get(db, r->pos_of[i]);
        if (db_raw_solved(db, raw) && db_raw_remoteness(db, raw) == 0 &&
            db_raw_value(db, raw) == v) {
            r->queue[r->tail++] = i;
        }
    }
}

/* Phases 2 (tie_pass false: wins and losses) and 3 (ties): empties the
 * frontier, deciding parents as the file comment explains. */
static ErrCode expand(Retro *r, bool tie_pass) {
    Database *db = r->db;
    while (r->head < r->tail) {
        STAT_INC(calls);
        uint32_t i = r->queue[r->head++];
        r->taken[tie_pass]++;
        uint32_t raw = db_get(db, r->pos_of[i]);
        Value v = db_raw_value(db, raw);
        uint32_t up = db_raw_remoteness(db, raw) + 1;
        const uint32_t *list;
        int64_t n = parents_of(r, i, &list);
        if (n < 0) {
            return ERR_INTERNAL;
        }
        for (int64_t k = 0; k < n; k++) {
            STAT_INC(edges);
            uint32_t q = list[k];
            if (db_raw_solved(db, db_get(db, r->pos_of[q]))) {
                continue;
            }
            ErrCode rc = ERR_OK;
            if (tie_pass) {
                rc = decide(r, q, VALUE_TIE, up);
            } else if (v == VALUE_LOSE) {
                rc = decide(r, q, VALUE_WIN, up);
            } else if (--r->left[q] == 0) {
                rc = decide(r, q, VALUE_LOSE, up);
            }
            if (rc != ERR_OK) {
                return rc;
            }
        }
    }
    return ERR_OK;
}

/* Phase 4: the undecided positions are draws. Returns how many. */
static ErrCode mark_draws(Retro *r, uint64_t *draws) {
    *draws = 0;
    for (uint32_t i = 0; i < r->reached; i++) {
        Position p = r->pos_of[i];
        if (!db_raw_solved(r->db, db_get(r->db, p))) {
            if (!r->g->loopy) {
                return fail_internal(r,
                                     "the game is declared non-loopy but a position never "
                                     "resolves (a cycle?)",
                                     p);
            }
            db_put(r->db, p, VALUE_DRAW, 0);
            (*draws)++;
        }
    }
    return ERR_OK;
}

/* Phase 5, WinBy: each position gets the best score over all of its children
 * for the player to move, once every child has its score. */
static ErrCode propagate_winby(Retro *r) {
    const Game *g = r->g;
    Database *db = r->db;
    uint64_t *turn = retro_alloc(r, (r->reached + 63) / 64, sizeof *turn, true, "turn bits");
    if (turn == NULL) {
        return ERR_MEMORY;
    }
    ErrCode rc = ERR_OK;
    r->head = r->tail = 0;
    for (uint32_t i = 0; i < r->reached && rc == ERR_OK; i++) {
        Position p = r->pos_of[i];
        if (r->children[i] == 0) {
            r->queue[r->tail++] = i; /* a primitive: its score was stored in discovery */
        } else {
            int t = g->ops->turn(g, p);
            turn[i / 64] |= (uint64_t)(t & 1) << (i % 64);
            db->winby[p] = t == 0 ? WINBY_MIN : WINBY_MAX; /* below/above any score */
        }
    }
    while (rc == ERR_OK && r->head < r->tail) {
        STAT_INC(calls);
        uint32_t i = r->queue[r->head++];
        r->taken[2]++;
        WinBy w = db->winby[r->pos_of[i]];
        const uint32_t *list;
        int64_t n = parents_of(r, i, &list);
        if (n < 0) {
            rc = ERR_INTERNAL;
            break;
        }
        for (int64_t k = 0; k < n; k++) {
            STAT_INC(edges);
            uint32_t q = list[k];
            Position pq = r->pos_of[q];
            if (r->children[q] == 0) {
                rc = fail_internal(r, "generate_parents listed a primitive as a parent", pq);
                break;
            }
            int t = (int)((turn[q / 64] >> (q % 64)) & 1);
            db->winby[pq] = (int16_t)winby_better(t, db->winby[pq], w);
            if (--r->children[q] == 0) {
                r->queue[r->tail++] = q;
            }
        }
    }
    if (rc == ERR_OK && r->tail != r->reached) {
        rc = error_set(r->err, ERR_INTERNAL,
                       "game '%s': WinBy scores reached only %" PRIu64 " of %" PRIu64
                       " positions (the game has a cycle)",
                       g->module->name, r->tail, r->reached);
    }
    retro_free(r, turn, (r->reached + 63) / 64 * sizeof *turn);
    return rc;
}

/* ----------------------------------------------------------------- solve */

static void retro_release(Retro *r) {
    free(r->seen);
    free(r->rank_base);
    free(r->pos_of);
    free(r->left);
    free(r->children);
    free(r->first);
    free(r->parents);
    free(r->gen);
    free(r->gen_index);
    free(r->queue);
}

/* With --progress, what a phase did and the time since the start. */
static void report(const Retro *r, const char *phase, uint64_t count, const char *what) {
    if (r->progress) {
        fprintf(stderr, "%s: %s: %" PRIu64 " %s, %.3f s\n", r->stored ? "retro" : "retro-unmove",
                phase, count, what, clock_seconds() - r->start);
    }
}

static ErrCode retro_phases(Retro *r, uint64_t *draws) {
    const Game *g = r->g;
    ErrCode rc = discover(r);
    if (rc != ERR_OK) {
        return rc;
    }
    report(r, "discovery", r->reached, "positions");
    r->queue = retro_alloc(r, r->reached, sizeof *r->queue, false, "frontier");
    if (r->queue == NULL) {
        return ERR_MEMORY;
    }
    if (!r->stored) {
        r->gen = retro_alloc(r, (uint64_t)g->max_parents, sizeof *r->gen, false, "parent buffer");
        r->gen_index =
            retro_alloc(r, (uint64_t)g->max_parents, sizeof *r->gen_index, false, "parent buffer");
        if (r->gen == NULL || r->gen_index == NULL) {
            return ERR_MEMORY;
        }
    }
    if (g->has_winby) {
        r->children = retro_alloc(r, r->reached, sizeof *r->children, false, "WinBy counters");
        if (r->children == NULL) {
            return ERR_MEMORY;
        }
        memcpy(r->children, r->left, r->reached * sizeof *r->left);
    }
    seed(r, VALUE_WIN);
    seed(r, VALUE_LOSE);
    rc = expand(r, false);
    if (rc == ERR_OK) {
        report(r, "wins and losses", r->taken[0], "positions");
        seed(r, VALUE_TIE);
        rc = expand(r, true);
    }
    if (rc == ERR_OK) {
        report(r, "ties", r->taken[1], "positions");
        rc = mark_draws(r, draws);
    }
    if (rc == ERR_OK) {
        report(r, "draws", *draws, "positions");
    }
    if (rc == ERR_OK && g->has_winby) {
        rc = propagate_winby(r);
        report(r, "WinBy", r->taken[2], "positions");
    }
    return rc;
}

static ErrCode retro_run(const Game *g, const SolveConfig *cfg, bool stored, SolveResult *res,
                         Error *err) {
    ErrCode rc = solver_db_create(g, &res->db, err);
    if (rc != ERR_OK) {
        return rc;
    }
    res->has_db = true;
    Retro r = {.g = g,
               .db = &res->db,
               .err = err,
               .stored = stored,
               .progress = cfg->progress,
               .start = clock_seconds(),
               .held = db_bytes(g->num_positions, res->db.width, g->has_winby)};
    uint64_t draws = 0;
    rc = retro_phases(&r, &draws);
    if (rc == ERR_OK) {
        Position root = game_canonical(g, g->initial);
        uint32_t raw = db_peek(&res->db, root);
        res->root = (Outcome){db_raw_value(&res->db, raw), db_raw_remoteness(&res->db, raw)};
        res->has_winby = g->has_winby;
        res->root_winby = g->has_winby ? res->db.winby[root] : 0;
        solve_result_extra(res, "reached", (double)r.reached);
        solve_result_extra(res, "db_bytes",
                           (double)db_bytes(res->db.size, res->db.width, g->has_winby));
        solve_result_extra(res, "edges", (double)r.edges);
        solve_result_extra(
            res, "back_edge_bytes",
            stored ? (double)((r.reached + 1) * sizeof *r.first + r.edges * sizeof *r.parents)
                   : 0.0);
        solve_result_extra(res, "frontier_win_lose", (double)r.taken[0]);
        solve_result_extra(res, "frontier_tie", (double)r.taken[1]);
        solve_result_extra(res, "draws", (double)draws);
    }
    retro_release(&r);
    return rc;
}

static ErrCode retro_solve(const Game *g, const SolveConfig *cfg, SolveResult *res, Error *err) {
    return retro_run(g, cfg, true, res, err);
}

static ErrCode retro_unmove_solve(const Game *g, const SolveConfig *cfg, SolveResult *res,
                                  Error *err) {
    return retro_run(g, cfg, false, res, err);
}

const SolverModule retro_solver = {
    .name = "retro",
    .description = "frontier/back-edge retrograde solver, back edges stored (CSR); loopy games",
    .loopy_ok = true,
    .solve = retro_solve,
};

const SolverModule retro_unmove_solver = {
    .name = "retro-unmove",
    .description = "the same, back edges generated by the game's un-moves (generate_parents)",
    .needs = NEEDS_PARENTS,
    .loopy_ok = true,
    .solve = retro_unmove_solve,
};
