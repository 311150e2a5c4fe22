/* games/baghchal.c: Bagh Chal (Tigers and Goats), the Nepali hunt game.
 *
 * Rules (the traditional game; Lim Yew Jin and J. Nievergelt, "Tigers and
 * Goats is a draw", Games of No Chance 3, 2009; the GamesCrafters module
 * GamesmanClassic src/mbaghchal.c for the small boards): an n x n grid of
 * points (3 <= n <= 5) joined by the orthogonal lines everywhere and, with
 * diagonals on, by the diagonal lines through the points (r, c) with r + c
 * even (so a diagonal joins two even points). `tigers` tigers (4) start on
 * the corners; the goats (20 on 5x5) start in hand. Goats move first.
 *   - Goats: while goats remain in hand, a goat move places one on an empty
 *     point (goats cannot slide before all are placed); afterwards a goat
 *     slides along a line to an adjacent empty point.
 *   - Tigers: a tiger slides along a line to an adjacent empty point, or
 *     jumps along a line over an adjacent goat onto the empty point just
 *     beyond, capturing the goat (one capture a move, no chains).
 *   - Tigers win on the capture that makes `captures` (5 on 5x5).
 *   - A player to move with no legal move loses: the goats win by
 *     immobilizing the tigers, and goats that cannot slide lose (the rule of
 *     GamesmanClassic's module, whose Primitive is a loss for any player
 *     without moves).
 *   - Play that goes on forever is a draw (the sliding phase is loopy).
 * Board defaults follow GamesmanClassic: 3x3 4 goats, 1 capture, diagonals;
 * 4x4 12 goats, 3 captures, no diagonals; 5x5 20 goats, 5 captures,
 * diagonals. Options 0 (goats, captures) and diag=2 take those defaults; the
 * variant string always names the values in force.
 *
 * Position: the board, the goats in hand h, the goats captured c, the player
 * to move. Text: the n * n points row by row from the top ('T' tiger, 'G'
 * goat, '-' empty), then ':' and the player to move (G or T), ':' h, ':' c:
 * "T--T--------T--T:G:12:0" is the 4x4 start.
 *
 * Hash: tier-major. A tier is (h, c, player) while goats are in hand (h > 0;
 * the player to move is part of the tier, so a placement tier has no move
 * inside itself) and (0, c) in the sliding phase, whose tier holds both
 * players (turn * M + rank). Within a tier the board, with its fixed counts
 * (T tigers, b = goats - h - c goats), is ranked by the generic
 * combinatorial hash (hash/generic.h): M = C(N, T) C(N - T, b); bc_hash
 * computes the same rank from the board's bit masks (bc_rank_masks, which
 * the tier fast path calls too: one pass over the occupied points, the
 * goats' colex rank plus C(N, b) times the tigers' among the points without
 * a goat), and bc_unhash decodes it the same way (bc_unrank_set; until 2026-11-27 generic_unhash).
 * Tiers are laid out by h from goats down to 1, c up, goats then tigers to move, then the sliding
 * tiers by c. A few slots are not positions of a game (tigers to move with every goat in hand, or
 * after the last capture): parse refuses them, nothing moves into them, and TierOps.legal names
 * them (for `tier:sector`, which takes every slot of its tiers).
 *
 * Moves: from * 32 + to; a placement has from == to; a jump lands two
 * points away. Un-moves (generate_parents): a tiger's slide or capture
 * taken back (the goat put back), a placement taken back (a goat back in
 * hand), a goat's slide taken back in the sliding phase; parents that are
 * over (c = captures) or impossible (tigers to move with all goats in hand)
 * are left out.
 *
 * Symmetry (`sym`): the square's 8 symmetries keep the orthogonal lines;
 * with diagonals they must also keep the parity of r + c, which all 8 do on
 * an odd board but only 4 (identity, half turn, the two diagonal
 * reflections) on an even one (GamesmanClassic's module notes the same for
 * 4x4). The canonical board (bc_canonical_masks; 2026-11-27, until then
 * the least image in point order) is, of the images, the one whose tiger
 * set is least as a bit mask, the tiger set's class representative, and of
 * those the one whose goat set is least: so that the tier solver can index
 * a tier by classes of tiger sets (below), as Morris indexes by classes of
 * white sets. The hash, the text and the moves are the same with or
 * without `sym`; only which image stands for a class, and so the sym
 * databases' checksums, changed with it, not a value.
 *
 * Index by classes (`sym`; TierOps index_of and position_at, bc_index_of):
 * a tier's slot = the player's part + the class of the tiger set x
 * C(N - T, b) + the colex rank of the goats among the points without a
 * tiger, about 1/8 of the hash's slots (1/4 with 4 symmetries), so the tier
 * solver's records and bitmaps are too. With `sym` the tiers are not
 * tier-major for the solver (no TierOps.first); the hash still is.
 *
 * Decoding cache (speed; 2026-11-26): the stateless family is called as
 * primitive(p), generate_moves(p), then do_move(p, m) for each move and
 * canonical() of each child, so each thread keeps its two most recently
 * decoded positions (the position and its latest child, with the moves once
 * generated) and unhashes only a position it does not hold: one unhash a
 * position instead of 2 + 2 per child. Slots are keyed by the variant's
 * serial number and the position, so games created and freed in turn never
 * see each other's. Values, databases and counters do not change: a hit
 * counts the unhash it saves, since which look-ups hit depends on where
 * each thread's range starts, and counters must not depend on the thread
 * count (baghchal_test_nocache, games/baghchal.h, turns the cache off for
 * the tests that compare the two).
 *
 * Tier fast path (TierOps.expand_run, 2026-11-27; bc_expand_run): a run
 * of a tier's slots walked in index order on bit masks of the goats and
 * tigers, the goats' set stepped to the next in colex order, each child
 * ranked from its parent's rank (a placement in O(1) from prefix sums), a
 * child's canonical board by byte tables of the symmetries (with `sym`,
 * a placement's index from its parent's too, bc_sym_child for the rest);
 * the same expansions and counters as the stateless family's (the comment
 * above bc_expand_run has the details).
 *
 * Tiers (TierOps, tier-major `first`, or with `sym` the index by classes):
 * placement tiers are loop-free, each
 * sliding tier (0, c) is loopy, with the capture tier (0, c + 1) as child.
 * Names (TierOps.name): "hand12-cap0-G" (goats in hand, captured, the
 * player to move), "slide-cap2" (the sliding phase, goats captured).
 * The sliding phase alone is `tier:sector` of the tier (0, 0) (tier 2 *
 * the number of placement (h, c) pairs: 84 on 4x4, 210 on 5x5): it and the
 * tiers (0, c) below it, every legal slot (with `sym`, every legal slot
 * whose board is canonical), no placement tier.
 */
#include "games/baghchal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "core/stats.h"
#include "games/game.h"
#include "games/grid.h"
#include "hash/generic.h"

enum {
    BC_MAX_N = 5,
    BC_MAX_POINTS = BC_MAX_N * BC_MAX_N,
    BC_MAX_GOATS = BC_MAX_POINTS,
    BC_MAX_TIERS = 2 * (BC_MAX_GOATS + 1) * (BC_MAX_GOATS + 1),
    BC_EMPTY = 0,
    BC_GOAT = 1,
    BC_TIGER = 2,
    BC_MOVE_SHIFT = 5,
    BC_MAX_TIGER_SETS = 12650, /* C(25, 4): the most sets of 1..4 tigers */
};

#define BC_NO_CLASS UINT16_MAX

typedef struct BcTier {
    int hand, captured, turn; /* turn -1: the sliding phase, both players */
    int tuple;                /* the generic hash block of its board counts */
    uint64_t first, size, boards;
    /* The index by classes (`sym`; bc_index_of): index_boards = classes x
     * C(N - T, b) slots a player, index_size = one or two of them. */
    uint64_t index_boards, index_size;
} BcTier;

typedef struct Baghchal {
    int n, points, goats, captures, tigers;
    bool diag;
    GenericHash hash; /* boards of T tigers and 0..goats goats */
    int ntiers;
    BcTier tier[BC_MAX_TIERS];
    int16_t tier_id[BC_MAX_GOATS + 1][BC_MAX_GOATS + 1][2]; /* [h][c][turn], -1 none */
    int nsyms;
    uint8_t sym[GRID_SQUARE_SYMS][BC_MAX_POINTS]; /* point i goes to sym[s][i] */
    uint8_t inv[GRID_SQUARE_SYMS][BC_MAX_POINTS]; /* image point j holds point inv[s][j] */
    /* Lines: for each point and direction, the neighbour, or -1. */
    int8_t step[BC_MAX_POINTS][8];
    int8_t mid[BC_MAX_POINTS][BC_MAX_POINTS]; /* the point a jump from -> to passes, or -1 */
    /* The fast path's lines from each point, in direction order: the
     * neighbour, and the point beyond it on the same line or -1. */
    uint8_t nlines[BC_MAX_POINTS];
    int8_t line_to[BC_MAX_POINTS][8], line_land[BC_MAX_POINTS][8];
    uint64_t serial; /* this variant's number for the decoding cache, 1 up */
    uint64_t binom[BC_MAX_POINTS + 1][BC_MAX_POINTS + 1]; /* C(a, k) for bc_hash */
    /* The fast path's symmetric images of a board's bit mask (bit i: point
     * i), a byte at a time: img[s][k][v] is the image under symmetry s of
     * the points 8k + j for the bits j of v. */
    uint32_t img[GRID_SQUARE_SYMS][4][256];
    /* The classes of tiger sets under the symmetries (bc_classes), for the
     * canonical board and the index by classes: the T-sets in colex order
     * (rank r); class_of[r], the class of set r when it is its class's
     * representative (its least image as a mask), else BC_NO_CLASS;
     * set_class[r], the class of set r whatever its image (the fast path's
     * canonical children: one colex rank of the tigers gives both their
     * symmetries and their class); class_rep[c], class c's
     * representative, classes in increasing order; rep_syms[r], the
     * symmetries (bit s) that take set r to its representative. */
    uint32_t nclass;
    uint32_t class_rep[BC_MAX_TIGER_SETS];
    uint16_t class_of[BC_MAX_TIGER_SETS];
    uint16_t set_class[BC_MAX_TIGER_SETS];
    uint8_t rep_syms[BC_MAX_TIGER_SETS];
    /* Colex ranks five points at a time (bc_colex5): col5[f][k][v], the
     * terms of the points 5f + j for the bits j of v, the i-th of them
     * adding C(5f + j, k + i), k points being below them; pc5[v], the bits
     * of v; fifth[p], p / 5. 17 KiB. */
    uint32_t col5[5][BC_MAX_POINTS + 1][32];
    uint8_t pc5[32];
    uint8_t fifth[BC_MAX_POINTS + 1];
} Baghchal;

typedef struct BcPos {
    uint8_t cells[BC_MAX_POINTS];
    int hand, captured, turn; /* turn 0 goats, 1 tigers */
} BcPos;

static const Baghchal *bc(const Game *g) { return g->self; }

/* Directions in opposite pairs (d ^ 1 reverses d): orthogonal 0..3, diagonal
 * 4..7. */
static const int bc_dr[8] = {-1, 1, 0, 0, -1, 1, -1, 1};
static const int bc_dc[8] = {0, 0, -1, 1, -1, 1, 1, -1};

/* ------------------------------------------------------------- hashing */

static int bc_tier_of_state(const Baghchal *b, int hand, int captured, int turn) {
    return b->tier_id[hand][captured][hand == 0 ? 0 : turn];
}

/* The board's rank in its tier (bc_hash's, without the tier's offset) in
 * one pass over the occupied points: a goat at p, the k-th, adds C(p, k) to
 * the goat rank, a tiger at p, the k-th, C(p - goats below p, k) to the
 * tiger rank. Selects, not branches (goat or tiger is a coin toss to the
 * predictor), and no popcount (the build targets no POPCNT: a libgcc
 * call). O(occupied points). */
static inline uint64_t bc_rank_masks(const Baghchal *b, uint32_t goats, uint32_t tigers) {
    uint64_t gr = 0, tr = 0;
    int kg = 0, kt = 0;
    for (uint32_t m = goats | tigers; m != 0; m &= m - 1) {
        int p = __builtin_ctz(m), goat = (int)(goats >> p & 1);
        kg += goat;
        kt += 1 - goat;
        /* both read, one kept; p - kg + goat is in range for a goat too */
        uint64_t add_g = b->binom[p][kg], add_t = b->binom[p - kg + goat][kt];
        gr += goat ? add_g : 0;
        tr += goat ? 0 : add_t;
    }
    return gr + b->binom[b->points][kg] * tr;
}

/* The board's bit masks (bit i: point i). */
static inline void bc_masks(const Baghchal *b, const BcPos *p, uint32_t *goats, uint32_t *tigers) {
    for (int i = 0; i < b->points; i++) {
        *goats |= (uint32_t)(p->cells[i] == BC_GOAT) << i;
        *tigers |= (uint32_t)(p->cells[i] == BC_TIGER) << i;
    }
}

/* The position of the board (goats, tigers) with p's counts and player
 * (p's cells are not read). */
static inline Position bc_position_masks(const Baghchal *b, const BcPos *p, uint32_t goats,
                                         uint32_t tigers) {
    const BcTier *t = &b->tier[bc_tier_of_state(b, p->hand, p->captured, p->turn)];
    return t->first + (t->turn < 0 ? (uint64_t)p->turn * t->boards : 0) +
           bc_rank_masks(b, goats, tigers);
}

/* The board's rank in its tier, generic_hash's (hash/generic.h: goats
 * symbol 1, tigers symbol 2): the board's masks ranked by bc_rank_masks
 * (the goats' colex rank among all points, plus C(N, goats) times the
 * tigers' colex rank among the points that hold no goat). Counted as one
 * hash. */
static Position bc_hash(const Baghchal *b, const BcPos *p) {
    STAT_INC(hash);
    uint32_t goats = 0, tigers = 0;
    bc_masks(b, p, &goats, &tigers);
    return bc_position_masks(b, p, goats, tigers);
}

/* The next set of the same size in colex order (Gosper's hack); x != 0. */
static inline uint32_t bc_next_set(uint32_t x) {
    uint32_t low = x & -x, r = x + low;
    return r | (((x ^ r) >> 2) >> __builtin_ctz(x));
}

/* The k-subset of [0, n) of colex rank r < C(n, k), as a mask. O(n). */
static uint32_t bc_unrank_set(const Baghchal *b, uint64_t r, int n, int k) {
    uint32_t m = 0;
    for (int s = n - 1; k > 0; s--) {
        if (b->binom[s][k] <= r) {
            r -= b->binom[s][k];
            m |= UINT32_C(1) << s;
            k--;
        }
    }
    return m;
}

/* The image of the points m under symmetry s. */
static inline uint32_t bc_image(const Baghchal *b, int s, uint32_t m) {
    const uint32_t(*t)[256] = b->img[s];
    return t[0][m & 255] | t[1][(m >> 8) & 255] | t[2][(m >> 16) & 255] | t[3][m >> 24];
}

/* The colex rank of the set m among the sets of its size: its k-th point
 * p (from 1) adds C(p, k). O(|m|). */
static inline uint64_t bc_colex(const Baghchal *b, uint32_t m) {
    uint64_t r = 0;
    int k = 0;
    for (; m != 0; m &= m - 1) {
        r += b->binom[__builtin_ctz(m)][++k];
    }
    return r;
}

/* The colex rank of the set m (bc_colex's) five points at a time, from
 * the tables col5 and pc5 (bcspeed, 2026-11-27): a fifth's points add
 * the terms its bits give with the points below it counted; below[f] gets
 * the points of m in the fifths under f (below[5]: all of them). O(1):
 * five look-ups instead of a step a point. */
static inline uint64_t bc_colex5(const Baghchal *b, uint32_t m, int below[6]) {
    uint64_t r = 0;
    below[0] = 0;
    for (int f = 0; f < 5; f++) {
        uint32_t v = (m >> (5 * f)) & 31;
        r += b->col5[f][below[f]][v];
        below[f + 1] = below[f] + b->pc5[v];
    }
    return r;
}

/* The set m of places among the points not in `holes`, as points: a 0
 * put in at each hole, lowest first (a pdep onto the complement of holes).
 * O(|holes|). */
static inline uint32_t bc_spread(uint32_t m, uint32_t holes) {
    for (; holes != 0; holes &= holes - 1) {
        uint32_t low = (holes & -holes) - 1;
        m = (m & low) | (m & ~low) << 1;
    }
    return m;
}

/* bc_spread undone: the points m (none in `holes`) as places among the
 * points not in holes (a pext). O(|holes|). */
static inline uint32_t bc_squeeze(uint32_t m, uint32_t holes) {
    for (int gone = 0; holes != 0; holes &= holes - 1, gone++) {
        uint32_t low = ((holes & -holes) >> gone) - 1;
        m = (m & low) | ((m >> 1) & ~low);
    }
    return m;
}

/* Replaces the board (goats, tigers) with its canonical image (`sym`):
 * of the images under the symmetries, those whose tiger set is least as a
 * mask (the tiger set's class representative: the symmetries rep_syms
 * names, usually one), and of those the one whose goat set is least as a
 * mask; false when the board is its own canonical image. So the canonical
 * board's tigers are their class's representative and it has a slot in the
 * index by classes (bc_index_of). O(T + symmetries taking the tigers to
 * their representative). */
static inline bool bc_canonical_masks(const Baghchal *b, uint32_t *goats, uint32_t *tigers) {
    unsigned syms = b->rep_syms[bc_colex(b, *tigers)];
    int s = __builtin_ctz(syms);
    uint32_t rep = bc_image(b, s, *tigers), best = bc_image(b, s, *goats);
    for (syms &= syms - 1; syms != 0; syms &= syms - 1) {
        uint32_t g = bc_image(b, __builtin_ctz(syms), *goats);
        best = g < best ? g : best;
    }
    bool moved = rep != *tigers || best != *goats;
    *goats = best;
    *tigers = rep;
    return moved;
}

/* The index by classes (bc_index_of) of the board (goats, tigers), whose
 * tigers are their class's representative, in a tier of b goats on the
 * board: ibase (the player's part of the index) + class x C(N - T, b) +
 * the colex rank of the goats squeezed into the points without a tiger.
 * O(T + b). */
static inline uint64_t bc_index_masks(const Baghchal *b, uint64_t ibase, int on_board,
                                      uint32_t goats, uint32_t tigers) {
    return ibase + b->class_of[bc_colex(b, tigers)] * b->binom[b->points - b->tigers][on_board] +
           bc_colex(b, bc_squeeze(goats, tigers));
}

/* The index memo (`sym`; speed, 2026-11-27): the tier solver finds each
 * child's and parent's slot by bc_index_of, which unranks the position's
 * hash to its masks (O(N)); but the module has just made that position
 * from masks (bc_canonical_hash, the fast path's children), where its index
 * costs O(T + b). So each thread keeps the indices of the canonical
 * positions it made last, in a direct-mapped table of BC_MEMO entries
 * keyed by the variant's serial and the position, and bc_index_of looks
 * there first. An index is a function of the variant and the position, so
 * an entry is right however old; a miss computes it. Not counted (index_of
 * is no counted call); baghchal_test_nocache turns the look-ups off. The
 * entry holds the position's tier too (2026-11-27, bcspeed): the solver
 * asks tier_of before index_of, and bc_tier_of answers from the memo
 * instead of a binary search over the tiers (about 8 unpredictable
 * branches; the child's tier is known where it is made). */
enum { BC_MEMO = 256 };
typedef struct BcMemo {
    uint64_t serial; /* 0: empty */
    Position pos;
    uint64_t index;
    int64_t tier;
} BcMemo;
static _Thread_local BcMemo bc_memo[BC_MEMO];

static inline BcMemo *bc_memo_at(Position pos) {
    return &bc_memo[(pos * UINT64_C(0x9e3779b97f4a7c15)) >> 56];
}

static inline void bc_memo_put(const Baghchal *b, Position pos, uint64_t index, int tier) {
    BcMemo *m = bc_memo_at(pos);
    m->serial = b->serial;
    m->pos = pos;
    m->index = index;
    m->tier = tier;
}

static int bc_find_tier(const Baghchal *b, Position pos) {
    int lo = 0, hi = b->ntiers - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (b->tier[mid].first <= pos) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

static void bc_unhash(const Baghchal *b, Position pos, BcPos *p) {
    const BcTier *t = &b->tier[bc_find_tier(b, pos)];
    uint64_t i = pos - t->first;
    p->hand = t->hand;
    p->captured = t->captured;
    if (t->turn < 0) {
        p->turn = i >= t->boards;
        i -= p->turn ? t->boards : 0;
    } else {
        p->turn = t->turn;
    }
    /* generic_unhash's board, from the masks (bc_rank_masks undone):
     * the goats' set of colex rank i mod C(N, b), the tigers' places
     * among the other points of rank i / C(N, b). Counted as one unhash. */
    STAT_INC(unhash);
    const int np = b->points, on_board = b->goats - t->hand - t->captured;
    uint64_t goat_sets = b->binom[np][on_board];
    uint32_t goats = bc_unrank_set(b, i % goat_sets, np, on_board);
    uint32_t tigers = bc_spread(bc_unrank_set(b, i / goat_sets, np - on_board, b->tigers), goats);
    for (int k = 0; k < np; k++) {
        p->cells[k] = (uint8_t)((goats >> k & 1) | (tigers >> k & 1) << 1);
    }
}

/* --------------------------------------------------------------- rules */

static int bc_moves(const Baghchal *b, const BcPos *p, Move *moves) {
    int n = 0;
    if (p->turn == 0 && p->hand > 0) {
        for (int i = 0; i < b->points; i++) {
            if (p->cells[i] == BC_EMPTY) {
                moves[n++] = (Move)(i << BC_MOVE_SHIFT | i);
            }
        }
        return n;
    }
    uint8_t piece = p->turn == 0 ? BC_GOAT : BC_TIGER;
    for (int from = 0; from < b->points; from++) {
        if (p->cells[from] != piece) {
            continue;
        }
        for (int d = 0; d < 8; d++) {
            int to = b->step[from][d];
            if (to < 0) {
                continue;
            }
            if (p->cells[to] == BC_EMPTY) {
                moves[n++] = (Move)(from << BC_MOVE_SHIFT | to);
            } else if (piece == BC_TIGER && p->cells[to] == BC_GOAT) {
                int land = b->step[to][d];
                if (land >= 0 && p->cells[land] == BC_EMPTY) {
                    moves[n++] = (Move)(from << BC_MOVE_SHIFT | land);
                }
            }
        }
    }
    return n;
}

static Value bc_board_primitive(const Baghchal *b, const BcPos *p) {
    if (p->captured >= b->captures) {
        return VALUE_LOSE;
    }
    Move moves[GAME_MAX_MOVES];
    return bc_moves(b, p, moves) == 0 ? VALUE_LOSE : VALUE_UNDECIDED;
}

static void bc_play(const Baghchal *b, BcPos *p, Move move) {
    int from = (int)(move >> BC_MOVE_SHIFT), to = (int)(move & ((1 << BC_MOVE_SHIFT) - 1));
    if (from == to) {
        p->cells[to] = BC_GOAT;
        p->hand--;
    } else {
        p->cells[to] = p->cells[from];
        p->cells[from] = BC_EMPTY;
        int mid = b->mid[from][to];
        if (mid >= 0) {
            p->cells[mid] = BC_EMPTY;
            p->captured++;
        }
    }
    p->turn = 1 - p->turn;
}

/* The hash of p's canonical board (bc_canonical_masks) with `symmetric`,
 * else of p. Counted as one hash. */
static Position bc_canonical_hash(const Baghchal *b, bool symmetric, const BcPos *p) {
    if (!symmetric) {
        return bc_hash(b, p);
    }
    STAT_INC(hash);
    uint32_t goats = 0, tigers = 0;
    bc_masks(b, p, &goats, &tigers);
    bc_canonical_masks(b, &goats, &tigers);
    Position pos = bc_position_masks(b, p, goats, tigers);
    int id = bc_tier_of_state(b, p->hand, p->captured, p->turn);
    const BcTier *t = &b->tier[id];
    bc_memo_put(b, pos,
                bc_index_masks(b, t->turn < 0 && p->turn ? t->index_boards : 0,
                               b->goats - p->hand - p->captured, goats, tigers),
                id);
    return pos;
}

/* ------------------------------------------------------- decoding cache */

/* A thread's two most recently decoded positions (see the file comment):
 * the solvers ask primitive, generate_moves, then do_move once per move of
 * the same position, and canonical of each child just made, so two slots,
 * the position and its latest child, save all but one unhash a position. */
typedef struct BcSlot {
    uint64_t serial; /* the variant (Baghchal.serial); 0: empty */
    Position pos;
    BcPos p;
    int nmoves; /* -1 until generated */
    Move moves[GAME_MAX_MOVES];
} BcSlot;

static _Thread_local BcSlot bc_slot[2];
static _Thread_local int bc_last; /* the slot of the latest look-up */
static uint64_t bc_serials;       /* the last serial handed out */
bool baghchal_test_nocache = false;

/* The slot holding pos, decoded now unless one of the two holds it. */
static BcSlot *bc_decode(const Baghchal *b, Position pos) {
    if (!baghchal_test_nocache) {
        for (int k = 0; k < 2; k++) {
            if (bc_slot[k].pos == pos && bc_slot[k].serial == b->serial) {
                /* Counted as the unhash it saves: which look-ups hit
                 * depends on where the threads' ranges start, and the
                 * counters must not depend on the thread count. */
                STAT_INC(unhash);
                bc_last = k;
                return &bc_slot[k];
            }
        }
    }
    bc_last = 1 - bc_last;
    BcSlot *s = &bc_slot[bc_last];
    bc_unhash(b, pos, &s->p);
    s->serial = b->serial;
    s->pos = pos;
    s->nmoves = -1;
    return s;
}

static int bc_slot_moves(const Baghchal *b, BcSlot *s) {
    if (s->nmoves < 0) {
        s->nmoves = bc_moves(b, &s->p, s->moves);
    }
    return s->nmoves;
}

/* -------------------------------------------------------- stateless family */

static Value bc_primitive(const Game *g, Position pos) {
    const Baghchal *b = bc(g);
    BcSlot *s = bc_decode(b, pos);
    if (s->p.captured >= b->captures) {
        return VALUE_LOSE;
    }
    return bc_slot_moves(b, s) == 0 ? VALUE_LOSE : VALUE_UNDECIDED;
}

static int bc_generate_moves(const Game *g, Position pos, Move *moves) {
    const Baghchal *b = bc(g);
    BcSlot *s = bc_decode(b, pos);
    int n = bc_slot_moves(b, s);
    memcpy(moves, s->moves, (size_t)n * sizeof *moves);
    return n;
}

/* The child goes to the other slot, where canonical() finds it. */
static Position bc_do_move(const Game *g, Position pos, Move move) {
    const Baghchal *b = bc(g);
    const BcSlot *s = bc_decode(b, pos);
    BcSlot *c = &bc_slot[1 - bc_last];
    c->p = s->p;
    bc_play(b, &c->p, move);
    c->serial = b->serial;
    c->pos = bc_hash(b, &c->p);
    c->nmoves = -1;
    return c->pos;
}

static int bc_turn(const Game *g, Position pos) { return bc_decode(bc(g), pos)->p.turn; }

static Position bc_canonical(const Game *g, Position pos) {
    const Baghchal *b = bc(g);
    return bc_canonical_hash(b, true, &bc_decode(b, pos)->p);
}

static int bc_add_parent(const Game *g, const BcPos *p, Position *parents, int n) {
    const Baghchal *b = bc(g);
    if (p->captured >= b->captures || (p->turn == 1 && p->hand == b->goats)) {
        return n; /* over, or no position of a game */
    }
    Position q = bc_canonical_hash(b, g->symmetric, p);
    for (int i = 0; i < n; i++) {
        if (parents[i] == q) {
            return n;
        }
    }
    parents[n] = q;
    return n + 1;
}

/* Un-moves of the player who just moved (see the file comment); with
 * in_tier, in the sliding phase, only those that stay in pos's tier: no
 * capture taken back (tier c - 1) and no placement (a placement tier). */
static int bc_parents(const Game *g, Position pos, Position *parents, bool in_tier) {
    const Baghchal *b = bc(g);
    BcPos p = bc_decode(b, pos)->p;
    bool skip = in_tier && p.hand == 0; /* leave out the un-moves to other tiers */
    BcPos q = p;
    q.turn = 1 - p.turn;
    int n = 0;
    if (p.turn == 0) { /* tigers moved: a slide or a capture */
        for (int to = 0; to < b->points; to++) {
            if (p.cells[to] != BC_TIGER) {
                continue;
            }
            for (int d = 0; d < 8; d++) {
                /* The tiger came from `from` in direction d: from's step d is `to`. */
                int back = d ^ 1; /* directions come in opposite pairs */
                int from = b->step[to][back];
                if (from < 0 || p.cells[from] != BC_EMPTY) {
                    continue;
                }
                q.cells[to] = BC_EMPTY;
                q.cells[from] = BC_TIGER;
                n = bc_add_parent(g, &q, parents, n);
                int far = b->step[from][back];
                if (!skip && p.captured > 0 && far >= 0 && p.cells[far] == BC_EMPTY) {
                    q.cells[from] = BC_GOAT;
                    q.cells[far] = BC_TIGER;
                    q.captured--;
                    n = bc_add_parent(g, &q, parents, n);
                    q.captured++;
                    q.cells[far] = BC_EMPTY;
                }
                q.cells[from] = BC_EMPTY;
                q.cells[to] = BC_TIGER;
            }
        }
        return n;
    }
    /* goats moved: a placement (the last one may have emptied the hand), or
     * a slide in the sliding phase */
    for (int to = 0; to < b->points; to++) {
        if (p.cells[to] != BC_GOAT) {
            continue;
        }
        if (!skip && p.hand < b->goats) {
            q.cells[to] = BC_EMPTY;
            q.hand++;
            n = bc_add_parent(g, &q, parents, n);
            q.hand--;
            q.cells[to] = BC_GOAT;
        }
        if (p.hand > 0) {
            continue;
        }
        for (int d = 0; d < 8; d++) {
            int from = b->step[to][d];
            if (from < 0 || p.cells[from] != BC_EMPTY) {
                continue;
            }
            q.cells[to] = BC_EMPTY;
            q.cells[from] = BC_GOAT;
            n = bc_add_parent(g, &q, parents, n);
            q.cells[from] = BC_EMPTY;
            q.cells[to] = BC_GOAT;
        }
    }
    return n;
}

static int bc_generate_parents(const Game *g, Position pos, Position *parents) {
    return bc_parents(g, pos, parents, false);
}

/* ----------------------------------------------------------------- text */

static const char bc_symbols[] = "-GT";

static void bc_format(const Game *g, Position pos, char *buf, size_t n) {
    const Baghchal *b = bc(g);
    BcPos p;
    bc_unhash(b, pos, &p);
    char text[BC_MAX_POINTS + 1];
    for (int i = 0; i < b->points; i++) {
        text[i] = bc_symbols[p.cells[i]];
    }
    text[b->points] = '\0';
    snprintf(buf, n, "%s:%c:%d:%d", text, p.turn == 0 ? 'G' : 'T', p.hand, p.captured);
}

/* A count field of the position text: digits only, at most 2, value <= max. */
static bool bc_parse_count(const char *s, size_t len, int max, int *out) {
    if (len == 0 || len > 2) {
        return false;
    }
    int v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return false;
        }
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return v <= max;
}

static ErrCode bc_parse(const Game *g, const char *text, Position *pos, Error *err) {
    const Baghchal *b = bc(g);
    size_t len = strlen(text), np = (size_t)b->points;
    const char *c1 = len > np ? text + np : NULL;
    const char *c2 = c1 != NULL && len > np + 2 ? strchr(text + np + 3, ':') : NULL;
    char start[GAME_TEXT_MAX];
    bc_format(g, g->initial, start, sizeof start);
    if (c1 == NULL || c1[0] != ':' || (c1[1] != 'G' && c1[1] != 'T') || c1[2] != ':' ||
        c2 == NULL) {
        return error_set(err, ERR_USAGE,
                         "a position is the %d points row by row from the top (T tiger, G goat, "
                         "- empty), ':' the player to move (G or T), ':' the goats in hand, ':' "
                         "the goats captured, e.g. the start '%s'; '%s' is not",
                         b->points, start, text);
    }
    BcPos p;
    int tigers = 0, on_board = 0;
    for (size_t i = 0; i < np; i++) {
        const char *s = strchr(bc_symbols, text[i]);
        if (s == NULL || text[i] == '\0') {
            return error_set(err, ERR_USAGE, "'%c' at point %zu of '%s' is not T, G or - (empty)",
                             text[i], i + 1, text);
        }
        p.cells[i] = (uint8_t)(s - bc_symbols);
        tigers += p.cells[i] == BC_TIGER;
        on_board += p.cells[i] == BC_GOAT;
    }
    p.turn = c1[1] == 'T';
    if (!bc_parse_count(c1 + 3, (size_t)(c2 - (c1 + 3)), b->goats, &p.hand) ||
        !bc_parse_count(c2 + 1, strlen(c2 + 1), b->captures, &p.captured)) {
        return error_set(err, ERR_USAGE,
                         "in '%s' the goats in hand (0..%d) and captured (0..%d) are not numbers "
                         "in range",
                         text, b->goats, b->captures);
    }
    if (tigers != b->tigers) {
        return error_set(err, ERR_USAGE, "'%s' has %d tigers; this variant has %d", text, tigers,
                         b->tigers);
    }
    if (on_board + p.hand + p.captured != b->goats) {
        return error_set(err, ERR_USAGE,
                         "'%s' has %d goats on the board, %d in hand and %d captured: they must "
                         "add up to the %d goats of this variant",
                         text, on_board, p.hand, p.captured, b->goats);
    }
    if (p.turn == 1 && p.hand == b->goats) {
        return error_set(err, ERR_USAGE,
                         "in '%s' no goat has been placed, so the goats are to move, not the "
                         "tigers",
                         text);
    }
    if (p.turn == 1 && p.captured == b->captures) {
        return error_set(err, ERR_USAGE,
                         "in '%s' the tigers have made their last capture, so the game ended with "
                         "the goats to move",
                         text);
    }
    *pos = bc_hash(b, &p);
    return ERR_OK;
}

static void bc_print(const Game *g, Position pos, char *buf, size_t n) {
    const Baghchal *b = bc(g);
    BcPos p;
    bc_unhash(b, pos, &p);
    size_t used = grid_print(p.cells, b->n, b->n, true, bc_symbols, " ", buf, n);
    if (used < n) {
        Value v = bc_board_primitive(b, &p);
        snprintf(buf + used, n - used, "    goats in hand %d, captured %d; %s\n", p.hand,
                 p.captured,
                 v != VALUE_UNDECIDED
                     ? (p.turn == 0 ? "game over: the goats lost" : "game over: the tigers lost")
                 : p.turn == 0 ? (p.hand > 0 ? "goats to place" : "goats to move")
                               : "tigers to move");
    }
}

static void bc_move_name(const Game *g, Position pos, Move move, char *buf, size_t n) {
    (void)pos;
    const Baghchal *b = bc(g);
    int from = (int)(move >> BC_MOVE_SHIFT), to = (int)(move & ((1 << BC_MOVE_SHIFT) - 1));
    char fc = (char)('a' + from % b->n), tc = (char)('a' + to % b->n);
    int fr = b->n - from / b->n, tr = b->n - to / b->n;
    if (from == to) {
        snprintf(buf, n, "%c%d", tc, tr);
    } else {
        snprintf(buf, n, "%c%d%c%c%d", fc, fr, b->mid[from][to] >= 0 ? 'x' : '-', tc, tr);
    }
}

/* ------------------------------------------------------------------ tiers */

static int bc_tier_count(const Game *g) { return bc(g)->ntiers; }

static uint64_t bc_tier_size(const Game *g, int tier) { return bc(g)->tier[tier].size; }

/* From the index memo when it holds pos (with `sym`: the canonical
 * positions the module made last), else by binary search. */
static int bc_tier_of(const Game *g, Position pos) {
    const Baghchal *b = bc(g);
    const BcMemo *m = bc_memo_at(pos);
    if (m->pos == pos && m->serial == b->serial && !baghchal_test_nocache) {
        return (int)m->tier;
    }
    return bc_find_tier(b, pos);
}

static Position bc_tier_first(const Game *g, int tier) { return bc(g)->tier[tier].first; }

static int bc_tier_children(const Game *g, int tier, int *child_tiers) {
    const Baghchal *b = bc(g);
    const BcTier *t = &b->tier[tier];
    int h = t->hand, c = t->captured, on_board = b->goats - h - c, n = 0;
    if (c >= b->captures) {
        return 0;
    }
    if (t->turn == 0) {
        child_tiers[n++] = bc_tier_of_state(b, h - 1, c, 1);
        return n;
    }
    if (t->turn == 1) {
        child_tiers[n++] = bc_tier_of_state(b, h, c, 0);
    }
    if (on_board > 0) {
        child_tiers[n++] = bc_tier_of_state(b, h, c + 1, 0);
    }
    return n;
}

static bool bc_tier_loopy(const Game *g, int tier) { return bc(g)->tier[tier].turn < 0; }

/* TierOps.name: a placement tier by the goats in hand, the goats captured
 * and the player to move as the position text writes it (G or T),
 * "hand12-cap0-G"; a sliding tier by the goats captured, "slide-cap2". */
static void bc_tier_name(const Game *g, int tier, char *buf, size_t n) {
    const BcTier *t = &bc(g)->tier[tier];
    if (t->turn < 0) {
        snprintf(buf, n, "slide-cap%d", t->captured);
    } else {
        snprintf(buf, n, "hand%d-cap%d-%c", t->hand, t->captured, t->turn == 0 ? 'G' : 'T');
    }
}

/* The slots that are no position of a game (the file comment): tigers to
 * move with every goat in hand, or after the last capture. Only
 * `tier:sector`, which takes every slot of a tier, needs to be told. */
static bool bc_tier_legal(const Game *g, int tier, Position pos) {
    const Baghchal *b = bc(g);
    const BcTier *t = &b->tier[tier];
    bool tigers = t->turn < 0 ? pos - t->first >= t->boards : t->turn == 1;
    return !(tigers && (t->hand == b->goats || t->captured >= b->captures));
}

/* TierOps.positions_run (tier:sector's bitmaps; 2026-11-27): the slots of
 * a tier that are positions, a word at a time, without unhashing a slot.
 * A slot is legal unless its tier half has the tigers to move with every
 * goat in hand or after the last capture (bc_tier_legal). Without `sym`
 * every legal slot is a position. With `sym` (the index by classes) a
 * slot's tigers are their class's representative, so its board is
 * canonical iff no symmetry that keeps the representative (rep_syms of
 * it: the identity alone for all but a few classes) makes its goats'
 * mask smaller (bc_canonical_masks); only the slots of those few classes
 * are unranked. The walk steps the class and the goats' rank along the
 * slots. O(slots) cheap steps, O(N) more a slot of a class with
 * symmetries of its own. */
static void bc_positions_run(const Game *g, int tier, uint64_t w0, uint64_t nwords,
                             uint64_t *bits) {
    const Baghchal *b = bc(g);
    const BcTier *t = &b->tier[tier];
    const bool sym = g->symmetric;
    const int np = b->points, on_board = b->goats - t->hand - t->captured;
    const uint64_t size = sym ? t->index_size : t->size;
    const uint64_t half = t->turn < 0 ? (sym ? t->index_boards : t->boards) : size;
    const bool tigers_barred = t->hand == b->goats || t->captured >= b->captures;
    const uint64_t goat_sets = b->binom[np - b->tigers][on_board];
    uint64_t i = w0 * 64, end = (w0 + nwords) * 64;
    end = end < size ? end : size;
    for (uint64_t k = 0; k < nwords; k++) {
        bits[k] = 0;
    }
    while (i < end) {
        /* a stretch of one half of the tier: one player to move */
        bool second = i >= half;
        uint64_t stop = second ? end : (half < end ? half : end);
        bool tigers = t->turn < 0 ? second : t->turn == 1;
        if (tigers && tigers_barred) {
            i = stop;
            continue;
        }
        if (!sym) {
            for (; i < stop; i++) {
                bits[i / 64 - w0] |= UINT64_C(1) << (i % 64);
            }
            continue;
        }
        uint64_t r = i - (second ? half : 0);
        uint64_t c = r / goat_sets, gs = r % goat_sets;
        while (i < stop) {
            uint32_t rep = b->class_rep[c];
            unsigned stab = b->rep_syms[bc_colex(b, rep)];
            uint64_t run = goat_sets - gs < stop - i ? goat_sets - gs : stop - i;
            if ((stab & (stab - 1)) == 0) { /* the identity alone */
                for (uint64_t e = i + run; i < e; i++) {
                    bits[i / 64 - w0] |= UINT64_C(1) << (i % 64);
                }
            } else {
                for (uint64_t e = i + run; i < e; i++, gs++) {
                    uint32_t goats = bc_spread(bc_unrank_set(b, gs, np - b->tigers, on_board), rep);
                    bool least = true;
                    for (unsigned m = stab; m != 0 && least; m &= m - 1) {
                        least = bc_image(b, __builtin_ctz(m), goats) >= goats;
                    }
                    bits[i / 64 - w0] |= (uint64_t)least << (i % 64);
                }
            }
            gs = 0;
            c++;
        }
    }
}

/* The loopy tier solver's un-moves (TierOps.parents_in): those of a
 * sliding tier that stay in it, skipped before they are hashed. */
static int bc_tier_parents_in(const Game *g, int tier, Position pos, Position *parents) {
    (void)tier;
    return bc_parents(g, pos, parents, true);
}

/* With `sym`, the tier solver's index by classes (TierOps index_of and
 * position_at; games/game.h), as Morris's (games/morris.c) and Gasser's:
 * a tier's slot i = turn x index_boards + c x C(N - T, b) + s, for the
 * class c of the tiger set (Baghchal.class_of) and the colex rank s of the
 * goats squeezed into the N - T points without a tiger (bc_squeeze). Only a
 * board whose tigers are their class's representative has a slot, and every
 * canonical board has (bc_canonical_masks takes the tigers to it first):
 * classes(T) C(N - T, b) slots a player, about 1/8 (1/4 on an even board
 * with diagonals) of the hash's C(N, T) C(N - T, b). When the
 * representative has symmetries of its own (the corners, a diagonal...),
 * a slot's goats may not be the least of their images under those: the
 * slot holds a board that is not canonical, no position for the solvers,
 * which skip it as they skip any slot whose position is not canonical (the
 * forward pass reaches canonical children only, tier:sector tests
 * canonical(p) == p, --verify walks the records there are). index_of:
 * O(N) (the hash's rank unranked to masks); position_at: O(N). */
static uint64_t bc_index_size(const Game *g, int tier) { return bc(g)->tier[tier].index_size; }

static uint64_t bc_index_of(const Game *g, Position pos) {
    const Baghchal *b = bc(g);
    if (pos >= g->num_positions) {
        return UINT64_MAX;
    }
    const BcMemo *m = bc_memo_at(pos);
    if (m->pos == pos && m->serial == b->serial && !baghchal_test_nocache) {
        return m->index;
    }
    const BcTier *t = &b->tier[bc_find_tier(b, pos)];
    const int np = b->points, on_board = b->goats - t->hand - t->captured;
    uint64_t r = pos - t->first;
    bool turn = t->turn < 0 && r >= t->boards;
    r -= turn ? t->boards : 0;
    uint64_t goat_sets = b->binom[np][on_board];
    uint32_t goats = bc_unrank_set(b, r % goat_sets, np, on_board);
    uint32_t tigers = bc_spread(bc_unrank_set(b, r / goat_sets, np - on_board, b->tigers), goats);
    if (b->class_of[bc_colex(b, tigers)] == BC_NO_CLASS) {
        return UINT64_MAX;
    }
    return bc_index_masks(b, turn ? t->index_boards : 0, on_board, goats, tigers);
}

static Position bc_position_at(const Game *g, int tier, uint64_t i) {
    const Baghchal *b = bc(g);
    const BcTier *t = &b->tier[tier];
    const int np = b->points, on_board = b->goats - t->hand - t->captured;
    bool turn = t->turn < 0 && i >= t->index_boards;
    i -= turn ? t->index_boards : 0;
    uint64_t goat_sets = b->binom[np - b->tigers][on_board];
    uint32_t tigers = b->class_rep[i / goat_sets];
    uint32_t goats = bc_spread(bc_unrank_set(b, i % goat_sets, np - b->tigers, on_board), tigers);
    return t->first + (turn ? t->boards : 0) + bc_rank_masks(b, goats, tigers);
}

/* ------------------------------------------------------------ fast path */

/* The tier solver's fast path (TierOps.expand_run; games/game.h). A tier's
 * slots in index order are the boards of its counts in the generic rank's
 * order: index = goat rank + C(N, b) * tiger rank (after the goats' boards
 * in a sliding tier when the tigers are to move), the goat rank being the
 * colex rank of the b goats' points and the tiger rank that of the tigers'
 * "compressed" points, their places among the points without a goat.
 * Colex order is the numeric order of the sets' bit masks, so the walk
 * holds the board as masks, steps to the next marked slot with Gosper's
 * hack on the goats' mask (carrying into the tigers' compressed mask when
 * the goats' wraps) across gaps of at most BC_GAP_STEPS slots and unranks
 * after longer ones. With `sym` the walk is over the index by classes
 * (bc_index_of) the same way: the goats' set squeezed into the points
 * without a tiger stepped by Gosper's hack, carrying into the class, whose
 * representative gives the tigers (bc_spread puts the goats back among
 * them, O(T)); the position's hash and goat rank are made from the masks
 * (O(N)). Per position, the tigers' points from their
 * compressed mask (O(N)); per child, its rank from the parent's:
 *   - a placement at point i: the goat adds C(i, j + 1) (j goats below
 *     it), each goat above i moves one place up in the goats' order and
 *     each tiger above i one compressed point down; sums over the goats
 *     and tigers below and above i come from prefix sums made once a
 *     position, so O(1) a child;
 *   - a tiger's slide keeps the goat rank and ranks the tigers anew (O(T));
 *   - a capture moves the goats above the captured one a place down in
 *     the goats' order (prefix sums made at the position's first capture)
 *     and ranks the tigers anew, each above it one compressed point up;
 *   - a goat's slide (sliding tiers only) ranks the child's masks (O(N)).
 * The moves come from each point's list of lines (no direction off the
 * board is tried).
 * With `sym` (2026-11-27, bcspeed) a placement keeps the parent's tigers,
 * their class's representative: when no other symmetry takes them there
 * (all but a few classes) the child is its own canonical board, and its
 * rank comes as above and its index the same way from prefix sums of the
 * goats' places among the points without a tiger, O(1) a child; any other
 * child (the tigers moved, or placements beside tigers with symmetries of
 * their own) is made canonical and ranked from its masks by bc_sym_child
 * (byte tables of the symmetries' images, colex ranks five points at a
 * time). Either way the child's index and tier are memoized for
 * bc_index_of and bc_tier_of, where the solver looks them up next.
 * The children are bc_moves' in its order. Counted as the stateless family
 * counts the same expansion (bc_primitive, bc_generate_moves, bc_do_move,
 * bc_canonical; the decoding cache's hits count as unhashes): one unhash
 * and one primitive a position; for one that is not primitive one
 * generate_moves and one unhash more, and per child one do_move, one
 * unhash and one hash, with `sym` one unhash and one hash more (its
 * canonical). Any tier: the tier solver walks only the loop-free
 * (placement) ones with it, the sliding ones going through
 * solvers/tier/loopy.c, but store_verify (solvers/store_verify.c) walks
 * every tier of a database with it. tests/test_tier.c compares it with
 * `tier:generic`, records and counters, on every test variant. */
enum { BC_GAP_STEPS = 16 }; /* a longer gap between marked slots unranks */

/* The position of rank 0 of the boards with `hand` goats in hand,
 * `captured` captured and player `turn` to move (0 for no such tier). */
static Position bc_base(const Baghchal *b, int hand, int captured, int turn) {
    int id = bc_tier_of_state(b, hand, captured, turn);
    if (id < 0) {
        return 0;
    }
    const BcTier *t = &b->tier[id];
    return t->first + (t->turn < 0 ? (uint64_t)turn * t->boards : 0);
}

/* The canonical children of the board (goats, tigers), whose goat rank is
 * gr, in tier `t` with player `turn` to move, into child[] in bc_moves'
 * order; returns how many. `empty`: the points with no piece; base: the
 * child tiers' rank-0 positions by kind of move (bc_expand_run). The
 * goats and tigers below each point are counted once, in one pass (no
 * popcount a child: see bc_rank_masks). */
/* The child tiers of a fast-path run by kind of move: a placement, a
 * tiger's slide, a capture, a goat's slide. base: the rank-0 positions;
 * with `sym`, ibase and goats: the player's part of the index and the goats
 * on the board (bc_index_masks). */
typedef struct BcKids {
    Position base[4];
    uint64_t ibase[4];
    int goats[4];
    int tier[4];
} BcKids;

/* A child (goats, tigers) of kind `kind` with `sym` (2026-11-27,
 * bcspeed): its canonical board's position, its index and tier memoized
 * (bc_memo_put), what bc_canonical_hash gives, in fewer steps. The
 * straightforward way (bc_canonical_masks, bc_rank_masks, bc_index_masks)
 * ranks the tigers twice (their symmetries, then their class), walks the
 * pieces point by point three times, and branches on goat or tiger at
 * each point (gcc makes bc_rank_masks' selects a branch, which the
 * predictor misses about once a tiger). Here one colex rank of the tigers
 * gives their symmetries and class (set_class); the goats' colex ranks, of
 * the hash (among all points) and of the index (among the points without
 * a tiger), come five points at a time from tables (bc_colex5), and the
 * tigers' rank among the points without a goat from the goats counted
 * below each tiger with the same tables. Used for the children whose
 * tigers move (7 in 8 are not their own canonical image, so a rank made
 * incrementally from the parent's would mostly be thrown away) and for the
 * placements of a parent whose tigers have symmetries of their own.
 * O(T + symmetries taking the tigers to their representative).
 * tests/test_known_baghchal.c checks it against the straightforward way
 * (the stateless family's bc_canonical_hash, and bc_index_of and
 * bc_tier_of without the memo) slot by slot, and on samples of the 5x5
 * game's large tiers (every count of goats below a fifth of the board). */
static inline Position bc_sym_child(const Baghchal *b, const BcKids *kids, int kind, uint32_t goats,
                                    uint32_t tigers) {
    uint64_t set = bc_colex(b, tigers);
    unsigned syms = b->rep_syms[set];
    int s = __builtin_ctz(syms);
    uint32_t rep = bc_image(b, s, tigers), best = bc_image(b, s, goats);
    for (syms &= syms - 1; syms != 0; syms &= syms - 1) {
        uint32_t g = bc_image(b, __builtin_ctz(syms), goats);
        best = g < best ? g : best;
    }
    /* The tigers' points, lowest first (a missing one, T < 4, at 31: above
     * every point). */
    int tp[4];
    uint32_t left = rep;
    for (int j = 0; j < 4; j++) {
        tp[j] = __builtin_ctz(left | UINT32_C(1) << 31);
        left &= left - 1;
    }
    /* The hash's goat rank, five points at a time (bc_colex5), with the
     * goats below each fifth of the board; the index's, of the goats
     * squeezed among the points without a tiger (each tiger's point taken
     * out, the highest first, so that the lower ones stay where they are:
     * bc_squeeze without the dependent steps of its running count). */
    int below[6];
    uint64_t gr = bc_colex5(b, best, below);
    uint32_t sq = best;
    for (int j = 3; j >= 0; j--) {
        uint32_t low = (UINT32_C(1) << tp[j]) - 1;
        sq = (sq & low) | ((sq >> 1) & ~low);
    }
    int unused[6];
    uint64_t ir = bc_colex5(b, sq, unused);
    /* The tigers' rank among the points without a goat: tiger j at tp[j]
     * with g goats below it (those of the fifths below its own, and of its
     * own fifth below it) adds C(tp[j] - g, j + 1). */
    const int kg = below[5];
    uint64_t tr = 0;
    for (int j = 0; j < b->tigers; j++) {
        int f = b->fifth[tp[j]];
        int g = below[f] + b->pc5[(best >> (5 * f)) & ((UINT32_C(1) << (tp[j] - 5 * f)) - 1)];
        tr += b->binom[tp[j] - g][j + 1];
    }
    Position pos = kids->base[kind] + gr + b->binom[b->points][kg] * tr;
    bc_memo_put(b, pos,
                kids->ibase[kind] +
                    b->set_class[set] * b->binom[b->points - b->tigers][kids->goats[kind]] + ir,
                kids->tier[kind]);
    return pos;
}

/* A child (goats, tigers) of kind `kind` and rank r in its tier (r unused
 * with `sym`, bc_sym_child). */
static inline Position bc_fast_child(const Baghchal *b, bool sym, const BcKids *kids, int kind,
                                     uint32_t goats, uint32_t tigers, uint64_t r) {
    return sym ? bc_sym_child(b, kids, kind, goats, tigers) : kids->base[kind] + r;
}

static inline int bc_fast_children(const Baghchal *b, bool sym, const BcTier *t, int turn,
                                   uint32_t goats, uint32_t tigers, uint32_t empty, uint64_t gr,
                                   const BcKids *kids, Position *child) {
    const int np = b->points, on_board = b->goats - t->hand - t->captured;
    uint8_t gb[BC_MAX_POINTS + 1]; /* the goats below point p (not with `sym`) */
    gb[0] = 0;
    for (int p = 0; p < np && !sym; p++) {
        gb[p + 1] = (uint8_t)(gb[p] + (goats >> p & 1));
    }
    /* The goats' rank terms summed over the first k goats: pg as they
     * are, pg1 with one goat more below them (a placement), pgm with one
     * goat fewer (a capture; made at the position's first capture). */
    uint64_t pg[BC_MAX_POINTS + 1], pg1[BC_MAX_POINTS + 1], pgm[BC_MAX_POINTS + 1];
    int n = 0;
    /* With `sym`, placements keep the parent's tigers, their class's
     * representative (the walk's boards are the index's): when no symmetry
     * but the identity takes them there (rep_syms 1, all but a few
     * classes), every placement's board is its own canonical image, so its
     * rank and its index are made from the parent's like the rank without
     * `sym`, in O(1) a child (bcspeed, 2026-11-27); otherwise
     * bc_sym_child. */
    uint64_t set = 0;
    if (turn == 0 && t->hand > 0 && sym) {
        set = bc_colex(b, tigers);
        if (b->rep_syms[set] != 1) {
            for (uint32_t m = empty; m != 0; m &= m - 1) {
                child[n++] = bc_sym_child(b, kids, 0, goats | (m & -m), tigers);
            }
            return n;
        }
    }
    if (turn == 0 && t->hand > 0) {    /* placements, point by point */
        uint8_t tb[BC_MAX_POINTS + 1]; /* the tigers below point p */
        tb[0] = 0;
        for (int p = 0; p < np; p++) {
            tb[p + 1] = (uint8_t)(tb[p] + (tigers >> p & 1));
            gb[p + 1] = (uint8_t)(gb[p] + (goats >> p & 1));
        }
        uint64_t pt[5], pt1[5]; /* the tigers' terms, as they are and with a goat below */
        /* With `sym`, the index's terms: the goats' places among the
         * points without a tiger, as they are and with a goat below. */
        uint64_t ps[BC_MAX_POINTS + 1], ps1[BC_MAX_POINTS + 1];
        pg[0] = pg1[0] = pt[0] = pt1[0] = ps[0] = ps1[0] = 0;
        int k = 0;
        for (uint32_t m = goats; m != 0; m &= m - 1) {
            int s = __builtin_ctz(m);
            k++;
            pg[k] = pg[k - 1] + b->binom[s][k];
            pg1[k] = pg1[k - 1] + b->binom[s][k + 1];
            if (sym) {
                ps[k] = ps[k - 1] + b->binom[s - tb[s]][k];
                ps1[k] = ps1[k - 1] + b->binom[s - tb[s]][k + 1];
            }
        }
        k = 0;
        for (uint32_t m = tigers; m != 0; m &= m - 1) {
            int x = __builtin_ctz(m), c = x - gb[x];
            k++;
            pt[k] = pt[k - 1] + b->binom[c][k];
            pt1[k] = pt1[k - 1] + (c > 0 ? b->binom[c - 1][k] : 0);
        }
        const uint64_t mult = b->binom[np][on_board + 1];
        const uint64_t ifirst =
            sym ? kids->ibase[0] + b->set_class[set] * b->binom[np - b->tigers][kids->goats[0]] +
                      ps1[on_board]
                : 0;
        for (uint32_t m = empty; m != 0; m &= m - 1) {
            int i = __builtin_ctz(m), j = gb[i], q = tb[i];
            uint64_t r = pg[j] + b->binom[i][j + 1] + (pg1[on_board] - pg1[j]) +
                         mult * (pt[q] + (pt1[b->tigers] - pt1[q]));
            child[n] = kids->base[0] + r;
            if (sym) { /* the goat at place i - q among the points without a tiger */
                bc_memo_put(b, child[n], ifirst + ps[j] + b->binom[i - q][j + 1] - ps1[j],
                            kids->tier[0]);
            }
            n++;
        }
        return n;
    }
    const uint64_t mult = b->binom[np][on_board];
    const uint64_t mult_capture = on_board > 0 ? b->binom[np][on_board - 1] : 0;
    bool have_pgm = false;
    uint32_t movers = turn == 0 ? goats : tigers;
    for (uint32_t m = movers; m != 0; m &= m - 1) {
        int from = __builtin_ctz(m);
        for (int l = 0; l < b->nlines[from]; l++) {
            int to = b->line_to[from][l];
            uint32_t g2 = goats, t2 = tigers;
            uint64_t r;
            int kind;
            if ((empty >> to & 1) != 0) {
                if (turn == 0) { /* a goat's slide */
                    g2 ^= UINT32_C(1) << from | UINT32_C(1) << to;
                    r = sym ? 0 : bc_rank_masks(b, g2, t2);
                    kind = 3;
                } else if (sym) { /* a tiger's slide, ranked by bc_sym_child */
                    t2 ^= UINT32_C(1) << from | UINT32_C(1) << to;
                    r = 0;
                    kind = 1;
                } else { /* a tiger's slide: the goats stay, the tigers ranked */
                    t2 ^= UINT32_C(1) << from | UINT32_C(1) << to;
                    uint64_t tr = 0;
                    int k = 1;
                    for (uint32_t x = t2; x != 0; x &= x - 1, k++) {
                        int p = __builtin_ctz(x);
                        tr += b->binom[p - gb[p]][k];
                    }
                    r = gr + mult * tr;
                    kind = 1;
                }
            } else if (turn == 1 && (goats >> to & 1) != 0) {
                int land = b->line_land[from][l];
                if (land < 0 || (empty >> land & 1) == 0) {
                    continue;
                }
                if (sym) { /* ranked by bc_sym_child */
                    g2 ^= UINT32_C(1) << to;
                    t2 ^= UINT32_C(1) << from | UINT32_C(1) << land;
                    child[n++] = bc_sym_child(b, kids, 2, g2, t2);
                    continue;
                }
                /* A capture: the goats above `to` move one place down in
                 * the goats' order, the tigers above it one compressed
                 * point up. */
                if (!have_pgm) {
                    pg[0] = pgm[0] = 0;
                    int k = 0;
                    for (uint32_t x = goats; x != 0; x &= x - 1) {
                        int s = __builtin_ctz(x);
                        k++;
                        pg[k] = pg[k - 1] + b->binom[s][k];
                        pgm[k] = pgm[k - 1] + b->binom[s][k - 1];
                    }
                    have_pgm = true;
                }
                g2 ^= UINT32_C(1) << to;
                t2 ^= UINT32_C(1) << from | UINT32_C(1) << land;
                int j = gb[to]; /* the captured goat is the (j + 1)-th */
                uint64_t tr = 0;
                int k = 1;
                for (uint32_t x = t2; x != 0; x &= x - 1, k++) {
                    int p = __builtin_ctz(x);
                    tr += b->binom[p - gb[p] + (p > to)][k];
                }
                r = pg[j] + (pgm[on_board] - pgm[j + 1]) + mult_capture * tr;
                kind = 2;
            } else {
                continue;
            }
            child[n++] = bc_fast_child(b, sym, kids, kind, g2, t2, r);
        }
    }
    return n;
}

static void bc_expand_run(const Game *g, int tier, const uint64_t *reach, uint64_t lo, uint64_t hi,
                          TierExpandVisit visit, void *ctx) {
    const Baghchal *b = bc(g);
    const BcTier *t = &b->tier[tier];
    const int np = b->points, on_board = b->goats - t->hand - t->captured;
    const uint32_t full = (UINT32_C(1) << np) - 1;
    const bool sym = g->symmetric, over = t->captured >= b->captures;
    /* The slots' order (bc_tier_first's, or with `sym` bc_index_of's): a
     * low set stepped in colex order, carrying into a high part: the goats'
     * set and the tigers' compressed set, or with `sym` the goats' set
     * squeezed into the N - T points without a tiger and the tigers'
     * class. */
    const int low_n = sym ? np - b->tigers : np;
    const uint32_t low_full = (UINT32_C(1) << low_n) - 1;
    const uint64_t low_sets = b->binom[low_n][on_board];
    const uint64_t half = sym ? t->index_boards : t->boards; /* a player's slots */
    /* The child tiers: (hand, captured, player) by kind of move. */
    const int kid_hand[4] = {t->hand - 1, t->hand, t->hand, 0};
    const int kid_cap[4] = {t->captured, t->captured, t->captured + 1, t->captured};
    const int kid_turn[4] = {1, 0, 0, 1};
    const bool kid_is[4] = {t->hand > 0, true, t->captured < b->captures, t->hand == 0};
    BcKids kids;
    for (int k = 0; k < 4; k++) {
        int id = kid_is[k] ? bc_tier_of_state(b, kid_hand[k], kid_cap[k], kid_turn[k]) : -1;
        const BcTier *c = id >= 0 ? &b->tier[id] : NULL;
        kids.base[k] = c != NULL ? bc_base(b, kid_hand[k], kid_cap[k], kid_turn[k]) : 0;
        kids.ibase[k] = c != NULL && c->turn < 0 && kid_turn[k] ? c->index_boards : 0;
        kids.goats[k] = c != NULL ? b->goats - c->hand - c->captured : 0;
        kids.tier[k] = id;
    }
    TierExpansion e;
    e.winby = 0;
    e.turn = 0;
    /* The board held: slot `at` (UINT64_MAX: none yet), the player to
     * move, the low set and its rank, the high part. */
    uint64_t at = UINT64_MAX, lr = 0;
    int turn = 0;
    uint32_t low = 0, high = 0;
    for (uint64_t w = lo / 64; w * 64 < hi; w++) {
        /* reach starts at word lo / 64 (game.h) */
        uint64_t bits = game_bits_in(reach[w - lo / 64], w, lo, hi);
        for (; bits != 0; bits &= bits - 1) {
            uint64_t i = w * 64 + (uint64_t)__builtin_ctzll(bits);
            STAT_INC(unhash);
            STAT_INC(primitive);
            bool same_turn = t->turn >= 0 || (i >= half) == (at >= half);
            if (at != UINT64_MAX && i - at <= BC_GAP_STEPS && same_turn) {
                for (; at < i; at++) {
                    uint32_t next = on_board > 0 ? bc_next_set(low) : low_full + 1;
                    if (next > low_full) { /* the low set wraps: the high part's next */
                        low = (UINT32_C(1) << on_board) - 1;
                        lr = 0;
                        high = sym ? high + 1 : bc_next_set(high);
                    } else {
                        low = next;
                        lr++;
                    }
                }
            } else {
                at = i;
                turn = t->turn >= 0 ? t->turn : i >= half;
                uint64_t r = i - (t->turn < 0 && turn ? half : 0);
                lr = r % low_sets;
                low = bc_unrank_set(b, lr, low_n, on_board);
                high = sym ? (uint32_t)(r / low_sets)
                           : bc_unrank_set(b, r / low_sets, np - on_board, b->tigers);
            }
            uint32_t goats, tigers;
            uint64_t gr; /* the goats' colex rank among all points */
            Position pos;
            if (sym) {
                tigers = b->class_rep[high];
                goats = bc_spread(low, tigers);
                gr = 0; /* the children are ranked by bc_sym_child */
                pos = t->first + (t->turn < 0 && turn ? t->boards : 0) +
                      bc_rank_masks(b, goats, tigers);
            } else {
                /* The tigers' points: bit k of the high part puts a tiger
                 * on the k-th point without a goat. */
                goats = low;
                gr = lr;
                tigers = 0;
                uint32_t rest = high;
                for (uint32_t open = full & ~goats; rest != 0; rest >>= 1, open &= open - 1) {
                    tigers |= (rest & 1) != 0 ? open & -open : 0;
                }
                pos = t->first + i;
            }
            e.n = over ? 0
                       : bc_fast_children(b, sym, t, turn, goats, tigers, full & ~(goats | tigers),
                                          gr, &kids, e.child);
            e.primitive = e.n == 0 ? VALUE_LOSE : VALUE_UNDECIDED;
            if (e.n > 0) {
                /* per child, the stateless path's counts: one hash and
                 * one unhash, twice with `sym` (its canonical image) */
                STAT_INC(generate_moves);
                STAT_ADD(unhash, 1 + (sym ? 2u : 1u) * (uint64_t)e.n);
                STAT_ADD(hash, (sym ? 2u : 1u) * (uint64_t)e.n);
                STAT_ADD(do_move, e.n);
            }
            visit(ctx, i, pos, &e);
        }
    }
}

static const TierOps bc_tiers = {
    .count = bc_tier_count,
    .size = bc_tier_size,
    .tier_of = bc_tier_of,
    .children = bc_tier_children,
    .first = bc_tier_first,
    .loopy = bc_tier_loopy,
    .name = bc_tier_name,
    .legal = bc_tier_legal,
    .positions_run = bc_positions_run,
    .parents_in = bc_tier_parents_in,
    .expand_run = bc_expand_run,
};

/* With `sym`: the index by classes instead of the hash's slots (the fast
 * path walks it). */
static const TierOps bc_tiers_sym = {
    .count = bc_tier_count,
    .size = bc_index_size,
    .tier_of = bc_tier_of,
    .children = bc_tier_children,
    .index_of = bc_index_of,
    .position_at = bc_position_at,
    .loopy = bc_tier_loopy,
    .name = bc_tier_name,
    .legal = bc_tier_legal,
    .positions_run = bc_positions_run,
    .parents_in = bc_tier_parents_in,
    .expand_run = bc_expand_run,
};

static const GameOps bc_ops = {
    .primitive = bc_primitive,
    .generate_moves = bc_generate_moves,
    .do_move = bc_do_move,
    .turn = bc_turn,
    .canonical = bc_canonical,
    .generate_parents = bc_generate_parents,
    .format = bc_format,
    .parse = bc_parse,
    .print = bc_print,
    .move_name = bc_move_name,
};

/* ------------------------------------------------------------------ module */

static ErrCode bc_add_tier(Baghchal *b, int hand, int captured, int turn, Error *err) {
    BcTier *t = &b->tier[b->ntiers];
    int counts[3] = {b->points - b->tigers - (b->goats - hand - captured),
                     b->goats - hand - captured, b->tigers};
    t->hand = hand;
    t->captured = captured;
    t->turn = turn;
    t->tuple = generic_tuple(&b->hash, counts);
    if (t->tuple < 0) {
        return error_set(err, ERR_INTERNAL, "Bagh Chal tier (%d, %d) has no hash block", hand,
                         captured);
    }
    t->boards = b->hash.multi[t->tuple];
    t->size = turn < 0 ? 2 * t->boards : t->boards;
    t->index_boards = b->nclass * b->binom[b->points - b->tigers][counts[1]];
    t->index_size = turn < 0 ? 2 * t->index_boards : t->index_boards;
    t->first = b->ntiers == 0 ? 0 : b->tier[b->ntiers - 1].first + b->tier[b->ntiers - 1].size;
    if (turn < 0) {
        b->tier_id[hand][captured][0] = b->tier_id[hand][captured][1] = (int16_t)b->ntiers;
    } else {
        b->tier_id[hand][captured][turn] = (int16_t)b->ntiers;
    }
    b->ntiers++;
    return ERR_OK;
}

/* The classes of tiger sets under the symmetries (Baghchal.class_of,
 * class_rep, rep_syms): the T-sets in colex order (Gosper's step gives the
 * masks in increasing order, which is colex order), a set its class's
 * representative when no image is smaller. At most C(25, 4) = 12,650 sets
 * times the 8 symmetries. */
static void bc_classes(Baghchal *b) {
    uint64_t sets = b->binom[b->points][b->tigers];
    uint32_t x = (UINT32_C(1) << b->tigers) - 1;
    b->nclass = 0;
    for (uint64_t r = 0; r < sets; r++, x = r < sets ? bc_next_set(x) : x) {
        uint32_t least = x;
        for (int s = 0; s < b->nsyms; s++) {
            uint32_t y = bc_image(b, s, x);
            least = y < least ? y : least;
        }
        b->rep_syms[r] = 0;
        for (int s = 0; s < b->nsyms; s++) {
            b->rep_syms[r] |= (uint8_t)((bc_image(b, s, x) == least) << s);
        }
        b->class_of[r] = least == x ? (uint16_t)b->nclass : BC_NO_CLASS;
        /* the representative is a smaller mask, so a smaller colex rank:
         * its class is known by now */
        b->set_class[r] = least == x ? (uint16_t)b->nclass : b->class_of[bc_colex(b, least)];
        if (least == x) {
            b->class_rep[b->nclass++] = x;
        }
    }
}

static ErrCode bc_init(Baghchal *b, Error *err) {
    int n = b->n;
    for (int i = 0; i < b->points; i++) {
        int r = i / n, c = i % n;
        for (int d = 0; d < 8; d++) {
            int r2 = r + bc_dr[d], c2 = c + bc_dc[d];
            bool on = r2 >= 0 && r2 < n && c2 >= 0 && c2 < n;
            bool line = d < 4 || (b->diag && (r + c) % 2 == 0);
            b->step[i][d] = (int8_t)(on && line ? r2 * n + c2 : -1);
        }
    }
    for (int a = 0; a <= b->points; a++) {
        b->binom[a][0] = 1;
        for (int k = 1; k <= a; k++) {
            b->binom[a][k] = b->binom[a - 1][k - 1] + (k < a ? b->binom[a - 1][k] : 0);
        }
    }
    for (int v = 0; v < 32; v++) {
        b->pc5[v] = (uint8_t)(((v >> 0) & 1) + ((v >> 1) & 1) + ((v >> 2) & 1) + ((v >> 3) & 1) +
                              ((v >> 4) & 1));
    }
    for (int p = 0; p <= BC_MAX_POINTS; p++) {
        b->fifth[p] = (uint8_t)(p / 5);
    }
    /* A term C(p, k + i) past the table (k + i > p) is 0, as in colex. */
    for (int f = 0; f < 5; f++) {
        for (int k = 0; k <= BC_MAX_POINTS; k++) {
            for (int v = 0; v < 32; v++) {
                uint64_t sum = 0;
                for (int j = 0, i = 0; j < 5; j++) {
                    int p = 5 * f + j;
                    i += v >> j & 1;
                    sum += (v >> j & 1) != 0 && k + i <= p ? b->binom[p][k + i] : 0;
                }
                b->col5[f][k][v] = (uint32_t)sum;
            }
        }
    }
    for (int i = 0; i < b->points; i++) {
        for (int d = 0; d < 8; d++) {
            int to = b->step[i][d];
            if (to >= 0) {
                b->line_to[i][b->nlines[i]] = (int8_t)to;
                b->line_land[i][b->nlines[i]++] = b->step[to][d];
            }
        }
    }
    memset(b->mid, -1, sizeof b->mid);
    for (int i = 0; i < b->points; i++) {
        for (int d = 0; d < 8; d++) {
            int over = b->step[i][d];
            if (over >= 0 && b->step[over][d] >= 0) {
                b->mid[i][b->step[over][d]] = (int8_t)over;
            }
        }
    }
    uint8_t map[GRID_SQUARE_SYMS * BC_MAX_POINTS];
    grid_square_syms(n, map, BC_MAX_POINTS);
    b->nsyms = 0;
    for (int s = 0; s < GRID_SQUARE_SYMS; s++) {
        bool keeps = true;
        for (int i = 0; i < b->points && b->diag; i++) {
            int j = map[s * BC_MAX_POINTS + i];
            keeps = keeps && (i / n + i % n) % 2 == (j / n + j % n) % 2;
        }
        if (keeps) {
            memcpy(b->sym[b->nsyms], map + s * BC_MAX_POINTS, (size_t)b->points);
            for (int i = 0; i < b->points; i++) {
                b->inv[b->nsyms][b->sym[b->nsyms][i]] = (uint8_t)i;
            }
            b->nsyms++;
        }
    }
    for (int s = 0; s < b->nsyms; s++) {
        for (int k = 0; k < 4; k++) {
            for (int v = 0; v < 256; v++) {
                uint32_t m = 0;
                for (int j = 0; j < 8 && 8 * k + j < b->points; j++) {
                    m |= (uint32_t)((v >> j) & 1) << b->sym[s][8 * k + j];
                }
                b->img[s][k][v] = m;
            }
        }
    }
    bc_classes(b);
    const int min[3] = {0, 0, b->tigers};
    const int max[3] = {b->points, b->goats, b->tigers};
    ErrCode rc = generic_init(&b->hash, b->points, 3, min, max, 1, NULL, NULL, err);
    if (rc != ERR_OK) {
        return rc;
    }
    memset(b->tier_id, -1, sizeof b->tier_id);
    for (int h = b->goats; h >= 1 && rc == ERR_OK; h--) {
        for (int c = 0; c <= b->captures && c <= b->goats - h && rc == ERR_OK; c++) {
            rc = bc_add_tier(b, h, c, 0, err);
            if (rc == ERR_OK) {
                rc = bc_add_tier(b, h, c, 1, err);
            }
        }
    }
    for (int c = 0; c <= b->captures && rc == ERR_OK; c++) {
        rc = bc_add_tier(b, 0, c, -1, err);
    }
    return rc;
}

static ErrCode bc_create(Game *g, Error *err) {
    int n = (int)opt_int(&g->options, "n");
    int tigers = (int)opt_int(&g->options, "tigers");
    int goats = (int)opt_int(&g->options, "goats");
    int captures = (int)opt_int(&g->options, "captures");
    int diag = (int)opt_int(&g->options, "diag");
    static const int def_goats[] = {0, 0, 0, 4, 12, 20}, def_captures[] = {0, 0, 0, 1, 3, 5};
    goats = goats == 0 ? def_goats[n] : goats;
    captures = captures == 0 ? def_captures[n] : captures;
    diag = diag == 2 ? n != 4 : diag;
    if (goats + tigers > n * n) {
        return error_set(err, ERR_USAGE,
                         "%d goats and %d tigers do not fit on the %d points of a %dx%d board",
                         goats, tigers, n * n, n, n);
    }
    if (captures > goats) {
        return error_set(err, ERR_USAGE,
                         "captures=%d: the tigers cannot capture more than the %d goats", captures,
                         goats);
    }
    Baghchal *b = mem_calloc(1, sizeof *b, "the Bagh Chal module", err);
    if (b == NULL) {
        return ERR_MEMORY;
    }
    b->n = n;
    b->points = n * n;
    b->tigers = tigers;
    b->goats = goats;
    b->captures = captures;
    b->diag = diag != 0;
    b->serial = __atomic_add_fetch(&bc_serials, 1, __ATOMIC_RELAXED);
    ErrCode rc = bc_init(b, err);
    if (rc != ERR_OK) {
        generic_destroy(&b->hash);
        free(b);
        return rc;
    }
    g->symmetric = opt_bool(&g->options, "sym");
    snprintf(g->variant, sizeof g->variant, "n=%d,tigers=%d,goats=%d,captures=%d,diag=%d%s", n,
             tigers, goats, captures, diag, g->symmetric ? ",sym" : "");
    /* The tigers on the corners: top-left, bottom-right, top-right,
     * bottom-left. */
    BcPos start = {.hand = goats, .captured = 0, .turn = 0};
    const int corners[4] = {0, b->points - 1, n - 1, b->points - n};
    for (int i = 0; i < tigers; i++) {
        start.cells[corners[i]] = BC_TIGER;
    }
    const BcTier *last = &b->tier[b->ntiers - 1];
    int free_points = b->points - tigers;
    int slides = 4 * free_points; /* 8 min(goats, empty points) */
    int max_moves = b->points > 8 * tigers ? b->points : 8 * tigers;
    int max_parents = 16 * tigers > 5 * free_points ? 16 * tigers : 5 * free_points;
    g->self = b;
    g->ops = &bc_ops;
    g->tiers = g->symmetric ? &bc_tiers_sym : &bc_tiers;
    g->num_positions = last->first + last->size;
    g->initial = bc_hash(b, &start);
    g->max_moves = max_moves > slides ? max_moves : slides;
    g->max_parents = max_parents;
    g->max_depth = 0;
    g->loopy = true;
    return ERR_OK;
}

static const OptionSpec bc_options[] = {
    {.name = "n", .type = OPT_INT, .min = 3, .max = BC_MAX_N, .def = 5, .help = "board side"},
    {.name = "tigers",
     .type = OPT_INT,
     .min = 1,
     .max = 4,
     .def = 4,
     .help = "tigers, on the corners (top-left, bottom-right, top-right, bottom-left)"},
    {.name = "goats",
     .type = OPT_INT,
     .min = 0,
     .max = BC_MAX_GOATS,
     .def = 0,
     .help = "goats; 0: the board's default (3x3 4, 4x4 12, 5x5 20)"},
    {.name = "captures",
     .type = OPT_INT,
     .min = 0,
     .max = BC_MAX_GOATS,
     .def = 0,
     .help = "captures that win for the tigers; 0: the board's default (3x3 1, 4x4 3, 5x5 5)"},
    {.name = "diag",
     .type = OPT_INT,
     .min = 0,
     .max = 2,
     .def = 2,
     .help = "diagonal lines: 0 off, 1 on, 2 the board's default (off on 4x4 only)"},
    {.name = "sym", .type = OPT_BOOL, .help = "canonicalize under the board's symmetries"},
    {0},
};

static const GameTestVariant bc_tests[] = {
    {.options = "n=3"},
    {.options = "n=3,sym"},
    {.options = "n=3,goats=3,captures=2,diag=0,sym"},
    {.options = "n=3,tigers=2,goats=5,captures=2"},
    /* 4x4 with diagonals and sym, only in the release run (heavy): two
     * goats (29,280 slots, the goats lose), three (141,840 slots, a draw) */
    {.options = "n=4,tigers=2,goats=2,captures=2,diag=1,sym", .heavy = true},
    {.options = "n=4,tigers=2,goats=3,captures=2,diag=1,sym", .heavy = true},
    {.options = "n=4,tigers=1,goats=3,captures=1,diag=0"},
    {NULL},
};

static void bc_destroy(Game *g) {
    Baghchal *b = g->self;
    if (b != NULL) {
        generic_destroy(&b->hash);
        free(b);
    }
}

const GameModule baghchal_module = {
    .name = "baghchal",
    .title = "Bagh Chal",
    .description = "tigers and goats: goats placed then slid, tigers jump to capture (loopy)",
    .options = bc_options,
    .test_variants = bc_tests,
    .create = bc_create,
    .destroy = bc_destroy,
};
