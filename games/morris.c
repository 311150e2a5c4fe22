/* games/morris.c: the Morris family: three, six and nine men's morris.
 *
 * Rules (nine men's morris as R. Gasser solved it: "Solving Nine Men's
 * Morris", Computational Intelligence 12(1), 1996, and his 1993
 * announcement; the board and the smaller games as in Wikipedia, "Nine
 * men's morris", "Six men's morris", "Three men's morris"):
 *   - n stones each (n = 3, 6 or 9), white (w) first. The board: for nine,
 *     three concentric squares whose side midpoints are joined (24 points);
 *     for six, two squares (16 points); for three, a 3x3 grid without
 *     diagonals (9 points; Achi, games/achi.c, is the version with them).
 *   - Placement: while a player has stones in hand, a move puts one on an
 *     empty point. Then the movement phase: a move slides a stone along a
 *     line to an adjacent empty point. Flying (option `fly`): a player with
 *     exactly three stones left, none in hand, may move a stone to any empty
 *     point. Gasser's rules fly; it is the default for nine and off for three
 *     and six (fly=0 never, 1 always with three stones, 2 the variant's
 *     default).
 *   - A move that closes a mill (three of the mover's stones on one line:
 *     a side of a square, or for nine also a line through the midpoints)
 *     removes one opponent stone from the board, as part of the same move: a
 *     stone not in a mill, unless every opponent stone on the board is in a
 *     mill, in which case any. Closing two mills at once removes one stone.
 *     With no opponent stone on the board, nothing is removed.
 *   - A player to move with fewer than three stones (board plus hand) loses,
 *     and so does a player to move without a legal move.
 *   - Draws: no repetition or move-count rule; a position that neither
 *     player can force to a win is a draw (the retrograde solvers' DRAW:
 *     play goes on forever), as in Gasser's databases.
 * For three men's morris these rules give the usual game: a line wins,
 * since the opponent is left with two stones.
 *
 * Points. Nine and six: ring r (0 the outer square) has points 8r + k, k = 0
 * top-left, 1 top, 2 top-right, 3 right, 4 bottom-right, 5 bottom, 6
 * bottom-left, 7 left (clockwise); odd k (midpoints) join ring r to r + 1.
 * Three: points 0..8 row by row.
 *
 * Hash: tier-major. A tier (Gasser's sector) is (stones in hand w, b;
 * stones on the board w, b), in hand b = w (white to place) or w + 1; its
 * positions are the boards of those counts with either player to move,
 * ranked as the generic combinatorial hash (hash/generic.h) ranks them,
 * computed by this file's tables (morris_rank; the generic hash still lays
 * out the tiers; tests/test_loopy checks the two agree). Placement tiers
 * are loop-free (each move empties a hand); the movement tiers (hands 0, 0)
 * are loopy; a capture leads to a tier with one stone less on the board.
 *
 * A move is (from * (P + 1) + to) * (P + 1) + removed, for P points, with
 * from = P for a placement and removed = P for no capture. Un-moves
 * (generate_parents) take back a placement or a slide or flight, and
 * with it a capture when the stone moved is in a mill, putting an opponent
 * stone back on an empty point from which it could be removed.
 *
 * Tier names (TierOps.name): "9-7" for the movement sector of 9 white and
 * 7 black stones on the board, "8-7-hand1-2" for the placement tier of 8
 * and 7 on the board and 1 and 2 in hand.
 *
 * TierOps.legal: a placement sector's slots with the wrong player to move
 * are no positions (`tier:sector` solves every legal slot of a sector).
 *
 * Symmetry (`sym`): the 8 symmetries of the square, and for six and nine
 * also the exchange of the inner and outer squares (16, as Gasser used).
 * The canonical position is, of the images with the smallest white set,
 * the one of smallest rank, found with one rank (morris_key_masks). With
 * `sym` the tier solver indexes a tier by classes, as Gasser indexed his
 * databases (TierOps index_of and position_at, morris_index_of): the
 * class of the white set under the symmetries, the black set's rank, the
 * mover; about 1/16 of the hash's slots, so the records and bitmaps of a
 * sector are too. The hash itself (queries, moves, text) stays the
 * board's.
 *
 * Colour swap (`swap`, with or without `sym`): once both hands are empty
 * the two players' rules are the same, so a movement position and its
 * image with the colours and the mover exchanged have the same value for
 * the player to move; the canonical position gives white more stones, or
 * as many and the move. Sector W-B then holds W-B's and B-W's positions
 * for W > B, half of W-W's, and none for W < B: Gasser's 28 mid- and
 * endgame databases (3-3 up to 9-9) instead of 49, half the work. The
 * placement phase has no such twin (white places first).
 *
 * Families: the stateless GameOps and a GPS family (morris_gps: one unhash
 * per set, moves kept from primitive, do_move and canonical on the point
 * masks), which the tier solver uses.
 * Text: "<points>:<w in hand>:<b in hand>:<mover>", points 'w', 'b', '-'.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define MORRIS_HAVE_BMI2 1 /* pext, chosen at run time (Morris.bmi2) */
#endif

#include "core/mem.h"
#include "core/sort.h"
#include "games/board.h"
#include "games/game.h"
#include "games/grid.h"
#include "hash/generic.h"

#define MORRIS_MAX_POINTS 24
#define MORRIS_MAX_MILLS 16
#define MORRIS_MAX_SYMS 16
#define MORRIS_MAX_STONES 9

typedef struct MorrisTier {
    int hand[2], board[2];
    Position first;
    uint64_t size;       /* hash slots: 2 C(P, w) C(P - w, b) */
    uint64_t index_size; /* with `sym`, the index by classes: 2 classes(w) C(P - w, b) */
    /* With `swap`, a movement sector W-W holds white to move only (its
     * index is half), and W-B for W < B nothing (its index empty). */
    bool one_mover;
} MorrisTier;

#define MORRIS_NO_CLASS UINT32_MAX

typedef struct Morris {
    int n;      /* stones per player */
    int points; /* P */
    bool fly;
    bool symmetric; /* canonical under the board's symmetries (`sym`) */
    bool swap;      /* canonical under the colour swap in the movement phase */
    int nmills;
    int8_t mill[MORRIS_MAX_MILLS][3];
    uint32_t mill_mask[MORRIS_MAX_MILLS];  /* the points of each mill */
    uint32_t adj_mask[MORRIS_MAX_POINTS];  /* each point's neighbours */
    int8_t mills_of[MORRIS_MAX_POINTS][2]; /* the mills through each point, -1 if none */
    int nsyms;
    uint8_t sym[MORRIS_MAX_SYMS][MORRIS_MAX_POINTS];
    /* symmetry s maps the points of byte k of a point mask, v, to
     * sym_mask[s][k][v] (3 lookups permute a 24-point mask) */
    uint32_t sym_mask[MORRIS_MAX_SYMS][3][256];
    /* Ranks from point masks by table (morris_rank): binom[a][b] = C(a, b);
     * colex[k][v][c]: the colex rank's terms of the points of byte k of a
     * mask, v, when c points lie in the bytes below (the sum over the set
     * bits i of v, the t-th from 1, of C(8k + i, c + t)); squeeze[e][v]:
     * the bits of v at the set bits of e, packed low (a byte's pext);
     * ones[v]: the set bits of byte v. */
    uint32_t binom[MORRIS_MAX_POINTS + 1][MORRIS_MAX_POINTS + 1];
    uint32_t colex[3][256][MORRIS_MAX_STONES + 1];
    uint8_t squeeze[256][256];
    uint8_t ones[256];
    bool bmi2;               /* the processor has pext (MORRIS_HAVE_BMI2) */
    GenericHash counts_hash; /* board ranks by stone counts, with the mover */
    /* With `sym`, the index by classes (morris_index_of): for k white
     * stones, nclass[k] classes of white sets under the symmetries;
     * class_rank[k][c], the colex rank of class c's representative (its
     * smallest image), in increasing order; class_of[k][r], the class of the
     * white set of colex rank r when that set is a representative, else
     * MORRIS_NO_CLASS. */
    uint32_t nclass[MORRIS_MAX_STONES + 1];
    uint32_t *class_rank[MORRIS_MAX_STONES + 1];
    uint32_t *class_of[MORRIS_MAX_STONES + 1];
    /* rep_syms[k][r]: the symmetries (bit s for symmetry s) that take the
     * white set of k points and colex rank r to its class's
     * representative (morris_canonical_key). */
    uint16_t *rep_syms[MORRIS_MAX_STONES + 1];
    /* div_magic[k] = ceil(2^64 / C(P, k)): a rank's quotient by C(P, k) is
     * the high word of a product (split_position), exact for ranks below
     * 2^64 / C(P, k) >= 2^43, beyond any rank here. */
    uint64_t div_magic[MORRIS_MAX_STONES + 1];
    int ntiers;
    MorrisTier *tier;
    /* tier_at[pos >> tier_shift]: the tier of the bucket's first position,
     * at most 2^16 buckets (find_tier scans on from it). */
    uint16_t *tier_at;
    int tier_shift;
    /* tier_id[((wh * 10 + bh) * 10 + wb) * 10 + bb], -1 if none */
    int tier_id[10 * 10 * 10 * 10];
    uint64_t size;
} Morris;

static const Morris *mo(const Game *g) { return g->self; }

static const char morris_symbols[] = "-wb";

static int tier_key(int wh, int bh, int wb, int bb) { return ((wh * 10 + bh) * 10 + wb) * 10 + bb; }

/* ------------------------------------------------------------------- hash */

typedef struct MBoard {
    uint8_t cells[MORRIS_MAX_POINTS];
    int hand[2];
    int turn;
} MBoard;

static int count_of(const Morris *m, const uint8_t *cells, uint8_t piece) {
    return board_count(cells, m->points, piece);
}

/* Ranks by table. The generic hash (hash/generic.h) ranks a board of w
 * white and b black stones as colex(W) + C(P, w) colex(B squeezed into the
 * points W leaves empty), for the colex rank colex(X) = the sum over X's
 * points p, the t-th from 1, of C(p, t); the tables give the same numbers
 * (tests/test_games checks hash and unhash against each other and the
 * byte-identical sector files against the generic hash's build). */

/* The set bits of a point mask. */
static inline int mask_ones(const Morris *m, uint32_t x) {
    return m->ones[x & 0xff] + m->ones[(x >> 8) & 0xff] + m->ones[x >> 16];
}

/* colex(x) for a point mask of at most MORRIS_MAX_STONES points. */
static inline uint32_t colex_rank(const Morris *m, uint32_t x) {
    uint32_t x0 = x & 0xff, x1 = (x >> 8) & 0xff, x2 = x >> 16;
    int c1 = m->ones[x0], c2 = c1 + m->ones[x1];
    return m->colex[0][x0][0] + m->colex[1][x1][c1] + m->colex[2][x2][c2];
}

/* The bits of v at the set bits of e, packed low (pext). */
static inline uint32_t squeeze_mask(const Morris *m, uint32_t v, uint32_t e) {
    uint32_t e0 = e & 0xff, e1 = (e >> 8) & 0xff, e2 = e >> 16;
    return m->squeeze[e0][v & 0xff] | (uint32_t)m->squeeze[e1][(v >> 8) & 0xff] << m->ones[e0] |
           (uint32_t)m->squeeze[e2][(v >> 16) & 0xff] << (m->ones[e0] + m->ones[e1]);
}

static inline uint32_t all_points(const Morris *m) { return (UINT32_C(1) << m->points) - 1; }

/* The board's rank within its tier and mover from white's mask w and
 * black's mask squeezed into the points w leaves empty, sq. */
static inline uint64_t rank_squeezed(const Morris *m, uint32_t w, uint32_t sq) {
    return colex_rank(m, w) + (uint64_t)m->binom[m->points][mask_ones(m, w)] * colex_rank(m, sq);
}

/* The board's rank within its tier and mover: white mask w, black k. */
static inline uint64_t morris_rank(const Morris *m, uint32_t w, uint32_t k) {
    return rank_squeezed(m, w, squeeze_mask(m, k, all_points(m) & ~w));
}

static const MorrisTier *tier_of_masks(const Morris *m, const int *hand, uint32_t w, uint32_t k) {
    return &m->tier[m->tier_id[tier_key(hand[0], hand[1], mask_ones(m, w), mask_ones(m, k))]];
}

static void board_masks(const Morris *m, const uint8_t *cells, uint32_t *w, uint32_t *k) {
    *w = *k = 0;
    for (int i = 0; i < m->points; i++) {
        *w |= (uint32_t)(cells[i] == BOARD_FIRST) << i;
        *k |= (uint32_t)(cells[i] == BOARD_SECOND) << i;
    }
}

static uint64_t permute_mask(const Morris *m, int s, uint32_t mask) {
    return m->sym_mask[s][0][mask & 0xff] | m->sym_mask[s][1][(mask >> 8) & 0xff] |
           m->sym_mask[s][2][mask >> 16];
}

/* The canonical key W * 2^24 + S (morris_key_masks) of the board with
 * masks w, k: the symmetries that take W to its class's representative,
 * W', by table (usually one: W has symmetries of its own only when some
 * image of it is itself), each applied to the black set, squeezed into the
 * points W' leaves empty; the smallest. SQUEEZE(v, e) is squeeze_mask's
 * pext. */
#define MORRIS_CANONICAL_KEY(SQUEEZE)                                                              \
    unsigned syms = m->rep_syms[mask_ones(m, w)][colex_rank(m, w)];                                \
    int s = __builtin_ctz(syms);                                                                   \
    uint32_t w2 = (uint32_t)permute_mask(m, s, w), empty = all_points(m) & ~w2;                    \
    uint32_t best = SQUEEZE((uint32_t)permute_mask(m, s, k), empty);                               \
    for (syms &= syms - 1; syms != 0; syms &= syms - 1) {                                          \
        uint32_t sq = SQUEEZE((uint32_t)permute_mask(m, __builtin_ctz(syms), k), empty);           \
        best = sq < best ? sq : best;                                                              \
    }                                                                                              \
    return (uint64_t)w2 << 24 | best

#define MORRIS_SQUEEZE_TABLE(v, e) squeeze_mask(m, v, e)
static uint64_t canonical_key(const Morris *m, uint32_t w, uint32_t k) {
    MORRIS_CANONICAL_KEY(MORRIS_SQUEEZE_TABLE);
}

#ifdef MORRIS_HAVE_BMI2
/* The same with the processor's pext (BMI2), when it has it (m->bmi2). */
__attribute__((target("bmi2"))) static uint64_t canonical_key_bmi2(const Morris *m, uint32_t w,
                                                                   uint32_t k) {
    MORRIS_CANONICAL_KEY(_pext_u32);
}
#endif

/* The position of the board with masks w, k, hands and mover, or with
 * `canonical` that of its canonical image. With `swap`, a movement
 * position first takes the colours that give white more stones than black,
 * or as many and white to move (the colour swap exchanges the stones and the
 * mover; both players' rules are the same once the hands are empty, so the
 * value of the player to move is kept). Then with `sym`: of the images with
 * the smallest white set, the one with the smallest black set squeezed into
 * the points white leaves empty (S), compared as W * 2^24 + S (colex orders
 * sets of one size as their masks do: the largest point decides). White's
 * set first, so that the canonical board's white set is its class's
 * representative, which the index by classes needs (morris_index_of). Every
 * image has the board's counts, so its tier; its rank is colex(W) + C(P, w)
 * colex(S). The symmetries to try come from a table by W's rank
 * (canonical_key): usually one, six lookups to permute, a pext, a rank. */
static Position morris_key_masks(const Morris *m, const int *hand, int turn, uint32_t w, uint32_t k,
                                 bool canonical) {
    if (canonical && m->swap && hand[0] == 0 && hand[1] == 0) {
        int cw = mask_ones(m, w), ck = mask_ones(m, k);
        if (cw < ck || (cw == ck && turn == 1)) {
            uint32_t x = w;
            w = k;
            k = x;
            turn = 1 - turn;
        }
    }
    const MorrisTier *t = tier_of_masks(m, hand, w, k);
    uint64_t base = t->first + (uint64_t)turn * (t->size / 2);
    if (!canonical || !m->symmetric) {
        return base + morris_rank(m, w, k);
    }
#ifdef MORRIS_HAVE_BMI2
    uint64_t best = m->bmi2 ? canonical_key_bmi2(m, w, k) : canonical_key(m, w, k);
#else
    uint64_t best = canonical_key(m, w, k);
#endif
    return base + rank_squeezed(m, (uint32_t)(best >> 24), (uint32_t)(best & 0xffffff));
}

static Position morris_hash(const Morris *m, const MBoard *b) {
    uint32_t w, k;
    board_masks(m, b->cells, &w, &k);
    return morris_key_masks(m, b->hand, b->turn, w, k, false);
}

/* The tier of pos: the last whose first slot is at most pos, by a binary
 * search without branches (the halving step a conditional move). */
static int search_tier(const Morris *m, Position pos) {
    const MorrisTier *base = m->tier;
    for (int n = m->ntiers; n > 1; n -= n / 2) {
        base = base[n / 2].first <= pos ? base + n / 2 : base;
    }
    return (int)(base - m->tier);
}

/* The same from the tier of pos's bucket (Morris.tier_at), scanning on
 * past the tiers that start within the bucket before pos: the sectors
 * that solves spend their time in are larger than a bucket. */
static int find_tier(const Morris *m, Position pos) {
    int t = m->tier_at[pos >> m->tier_shift];
    while (t + 1 < m->ntiers && m->tier[t + 1].first <= pos) {
        t++;
    }
    return t;
}

/* The colex unrank: the mask of k of the points 0..n-1 whose colex rank
 * is d (the largest point p with C(p, k) <= d, then the rest below it). */
static uint32_t colex_unrank(const Morris *m, uint64_t d, int k, int n) {
    uint32_t x = 0;
    int p = n - 1;
    for (int j = k; j >= 1; j--, p--) {
        while (m->binom[p][j] > d) {
            p--;
        }
        x |= UINT32_C(1) << p;
        d -= m->binom[p][j];
    }
    return x;
}

#ifdef MORRIS_HAVE_BMI2
__attribute__((target("bmi2"))) static uint32_t deposit_bmi2(uint32_t v, uint32_t e) {
    return _pdep_u32(v, e);
}
#endif

/* The low bits of v put on the set bits of e, in order (pdep). */
static uint32_t deposit_mask(const Morris *m, uint32_t v, uint32_t e) {
#ifdef MORRIS_HAVE_BMI2
    if (m->bmi2) {
        return deposit_bmi2(v, e);
    }
#else
    (void)m;
#endif
    uint32_t out = 0;
    for (int i = 0; e != 0; e &= e - 1, i++) {
        out |= ((v >> i) & 1) * (e & -e);
    }
    return out;
}

/* The tier and mover of position pos, and its rank within them split into
 * the colex ranks of the white set (*rw) and of the black set squeezed
 * into the points white leaves empty (*rs): morris_rank's terms. */
static const MorrisTier *split_position(const Morris *m, Position pos, int *turn, uint64_t *rw,
                                        uint64_t *rs) {
    const MorrisTier *t = &m->tier[find_tier(m, pos)];
    uint64_t local = pos - t->first, half = t->size / 2;
    *turn = local >= half;
    uint64_t r = local - (uint64_t)*turn * half, cw = m->binom[m->points][t->board[0]];
    uint64_t q =
        t->board[0] == 0 ? r : (uint64_t)((unsigned __int128)r * m->div_magic[t->board[0]] >> 64);
    *rw = r - q * cw;
    *rs = q;
    return t;
}

/* The tier, mover and point masks of position pos (morris_rank
 * inverted). */
static const MorrisTier *unhash_masks(const Morris *m, Position pos, int *turn, uint32_t *w,
                                      uint32_t *k) {
    uint64_t rw, rs;
    const MorrisTier *t = split_position(m, pos, turn, &rw, &rs);
    *w = colex_unrank(m, rw, t->board[0], m->points);
    uint32_t sq = colex_unrank(m, rs, t->board[1], m->points - t->board[0]);
    *k = deposit_mask(m, sq, all_points(m) & ~*w);
    return t;
}

/* The board of position pos. */
static void morris_unhash(const Morris *m, Position pos, MBoard *b) {
    uint32_t w, k;
    const MorrisTier *t = unhash_masks(m, pos, &b->turn, &w, &k);
    for (int p = 0; p < m->points; p++) {
        b->cells[p] = (uint8_t)(((w >> p) & 1) * BOARD_FIRST | ((k >> p) & 1) * BOARD_SECOND);
    }
    b->hand[0] = t->hand[0];
    b->hand[1] = t->hand[1];
}

/* ------------------------------------------------------------------ rules */

static Move encode(const Morris *m, int from, int to, int removed) {
    return (from * (m->points + 1) + to) * (m->points + 1) + removed;
}

/* The stones of mask x that stand in a mill of x. */
static uint32_t milled(const Morris *m, uint32_t x) {
    uint32_t out = 0;
    for (int i = 0; i < m->nmills; i++) {
        uint32_t mm = m->mill_mask[i];
        out |= (x & mm) == mm ? mm : 0;
    }
    return out;
}

/* A mill through point p lies in mask x. */
static bool closes_mill(const Morris *m, uint32_t x, int p) {
    for (int k = 0; k < 2; k++) {
        int i = m->mills_of[p][k];
        if (i >= 0 && (x & m->mill_mask[i]) == m->mill_mask[i]) {
            return true;
        }
    }
    return false;
}

static int push_move(Move *moves, int n, Move move) {
    if (n >= GAME_MAX_MOVES) {
        fprintf(stderr, "morris: more than %d moves from one position\n", GAME_MAX_MOVES);
        abort();
    }
    moves[n] = move;
    return n + 1;
}

/* Appends the moves that put the mover's stone on `to` (from `from`, or
 * from the hand: P), the mover's stones then being `after`: one for each
 * stone of `removable` when the stone closes a mill, else one. */
static int add_moves(const Morris *m, uint32_t after, uint32_t removable, int from, int to,
                     Move *moves, int n) {
    if (removable != 0 && closes_mill(m, after, to)) {
        for (uint32_t r = removable; r != 0; r &= r - 1) {
            n = push_move(moves, n, encode(m, from, to, __builtin_ctz(r)));
        }
        return n;
    }
    return push_move(moves, n, encode(m, from, to, m->points));
}

/* The moves of board b, whose point masks are mask[0] (white) and mask[1]
 * (black): placements while the mover has stones in hand, else slides to
 * a neighbour, or flights to any empty point with three stones (`fly`);
 * a move that closes a mill removes an opponent stone not in a mill, or
 * any when all are (none when the opponent has none on the board). In
 * increasing order of from, to and removed stone. */
static int mask_moves(const Morris *m, const MBoard *b, const uint32_t *mask, Move *moves) {
    uint32_t me = mask[b->turn], opp = mask[1 - b->turn];
    uint32_t empty = all_points(m) & ~(me | opp), loose = opp & ~milled(m, opp);
    uint32_t removable = loose != 0 ? loose : opp;
    int n = 0;
    if (b->hand[b->turn] > 0) {
        for (uint32_t t = empty; t != 0; t &= t - 1) {
            int p = __builtin_ctz(t);
            n = add_moves(m, me | UINT32_C(1) << p, removable, m->points, p, moves, n);
        }
        return n;
    }
    bool fly = m->fly && mask_ones(m, me) == 3;
    for (uint32_t f = me; f != 0; f &= f - 1) {
        int s = __builtin_ctz(f);
        uint32_t rest = me & ~(UINT32_C(1) << s);
        for (uint32_t t = fly ? empty : m->adj_mask[s] & empty; t != 0; t &= t - 1) {
            int p = __builtin_ctz(t);
            n = add_moves(m, rest | UINT32_C(1) << p, removable, s, p, moves, n);
        }
    }
    return n;
}

static int board_moves(const Morris *m, const MBoard *b, Move *moves) {
    uint32_t mask[2];
    board_masks(m, b->cells, &mask[0], &mask[1]);
    return mask_moves(m, b, mask, moves);
}

static int total(const Morris *m, const MBoard *b, int player) {
    return b->hand[player] + count_of(m, b->cells, board_piece(player));
}

static Value board_primitive(const Morris *m, MBoard *b) {
    if (total(m, b, b->turn) < 3) {
        return VALUE_LOSE;
    }
    Move moves[GAME_MAX_MOVES];
    return board_moves(m, b, moves) == 0 ? VALUE_LOSE : VALUE_UNDECIDED;
}

static void apply_move(const Morris *m, MBoard *b, Move move) {
    int r = move % (m->points + 1), to = move / (m->points + 1) % (m->points + 1),
        from = move / (m->points + 1) / (m->points + 1);
    if (from == m->points) {
        b->hand[b->turn]--;
    } else {
        b->cells[from] = BOARD_EMPTY;
    }
    b->cells[to] = board_piece(b->turn);
    if (r < m->points) {
        b->cells[r] = BOARD_EMPTY;
    }
    b->turn = 1 - b->turn;
}

/* -------------------------------------------------------- stateless family */

static Value morris_primitive(const Game *g, Position pos) {
    MBoard b;
    morris_unhash(mo(g), pos, &b);
    return board_primitive(mo(g), &b);
}

static int morris_generate_moves(const Game *g, Position pos, Move *moves) {
    MBoard b;
    morris_unhash(mo(g), pos, &b);
    return board_moves(mo(g), &b, moves);
}

static Position morris_do_move(const Game *g, Position pos, Move move) {
    MBoard b;
    morris_unhash(mo(g), pos, &b);
    apply_move(mo(g), &b, move);
    return morris_hash(mo(g), &b);
}

static int morris_turn(const Game *g, Position pos) {
    MBoard b;
    morris_unhash(mo(g), pos, &b);
    return b.turn;
}

static Position morris_canonical(const Game *g, Position pos) {
    const Morris *m = mo(g);
    uint32_t w, k;
    int turn;
    const MorrisTier *t = unhash_masks(m, pos, &turn, &w, &k);
    return morris_key_masks(m, t->hand, turn, w, k, true);
}

/* Adds the parent before the mover's stone went to `to` (from `from`, or
 * from the hand: P), with the captures the move may have made when the
 * stone closed a mill (unless `captures` is false). hand and mover: the
 * parent's; qmask: its point masks with `to` still occupied (the mover's
 * stone back on `from`). */
static int add_parents(const Game *g, const int *hand, int mover, const uint32_t *qmask, int from,
                       int to, bool captures, Position *out, int n) {
    const Morris *m = mo(g);
    int opp = 1 - mover;
    uint32_t to_bit = UINT32_C(1) << to, from_bit = from < m->points ? UINT32_C(1) << from : 0;
    /* the mover's stones right after the move, before any removal */
    uint32_t after = (qmask[mover] | to_bit) & ~from_bit, them = qmask[opp];
    bool mill = closes_mill(m, after, to);
    /* The parents' masks: q's, with `to` empty (and a stone put back). */
    uint32_t pm[2];
    pm[mover] = qmask[mover] & ~to_bit;
    pm[opp] = them;
    int opp_stones = mask_ones(m, them);
    if (!mill || opp_stones == 0) {
        out[n++] = morris_key_masks(m, hand, mover, pm[0], pm[1], g->symmetric);
    }
    /* A capture took one of the opponent's n stones: none when the
     * opponent has all n (a slot that no play reaches, which the whole
     * sector solve of tier:sector still expands). */
    if (!mill || !captures || hand[opp] + opp_stones >= m->n) {
        return n;
    }
    /* a stone put back where the move could have removed it: not in a
     * mill, or every stone in one; not on `from`, which held the mover's */
    for (uint32_t e = all_points(m) & ~(after | them | from_bit); e != 0; e &= e - 1) {
        int r = __builtin_ctz(e);
        uint32_t back = them | UINT32_C(1) << r;
        if (!closes_mill(m, back, r) || milled(m, back) == back) {
            uint32_t rm[2] = {pm[0], pm[1]};
            rm[opp] = back;
            out[n++] = morris_key_masks(m, hand, mover, rm[0], rm[1], g->symmetric);
        }
    }
    return n;
}

/* Kinds of un-moves (board_parents). */
enum { UNDO_PLACE = 1, UNDO_SLIDE = 2, UNDO_CAPTURE = 4, UNDO_ALL = 7 };

/* Appends the parents of the board with point masks bm, hands and `turn`
 * to move, of the kinds asked for: the last mover's placement
 * (UNDO_PLACE) or slide/flight (UNDO_SLIDE), and with them the capture it
 * made when the stone it moved closed a mill (UNDO_CAPTURE; without it,
 * only the moves that captured nothing). A parent whose mover had fewer
 * than three stones was over, so it is not listed. */
static int board_parents(const Game *g, const int *hand, int turn, const uint32_t *bm,
                         unsigned kinds, Position *parents, int n) {
    const Morris *m = mo(g);
    int mover = 1 - turn;
    uint32_t me = bm[mover];
    if (hand[mover] + mask_ones(m, me) < 3) {
        return n;
    }
    /* A placement: the mover had one more in hand, and was to place. */
    bool place = mover == 0 ? hand[0] + 1 == hand[1] : hand[1] == hand[0];
    place = place && hand[mover] + 1 <= m->n && (kinds & UNDO_PLACE);
    bool slide = (kinds & UNDO_SLIDE) && hand[0] == 0 && hand[1] == 0;
    bool captures = kinds & UNDO_CAPTURE;
    bool fly = m->fly && hand[mover] == 0 && mask_ones(m, me) == 3;
    int placed[2] = {hand[0], hand[1]};
    placed[mover]++;
    uint32_t empty = all_points(m) & ~(bm[0] | bm[1]);
    for (uint32_t t = me; t != 0; t &= t - 1) {
        int to = __builtin_ctz(t);
        if (place) {
            n = add_parents(g, placed, mover, bm, m->points, to, captures, parents, n);
        }
        if (!slide) {
            continue;
        }
        for (uint32_t f = fly ? empty : m->adj_mask[to] & empty; f != 0; f &= f - 1) {
            int from = __builtin_ctz(f);
            uint32_t qm[2] = {bm[0], bm[1]};
            qm[mover] |= UINT32_C(1) << from;
            n = add_parents(g, hand, mover, qm, from, to, captures, parents, n);
        }
    }
    return n;
}

/* With symmetry, parents listed once: sorted, duplicates dropped. */
static int unique_parents(const Game *g, Position *parents, int n) {
    if (g->symmetric && n > 1) {
        sort_u64(parents, n);
        int k = 1;
        for (int i = 1; i < n; i++) {
            if (parents[i] != parents[k - 1]) {
                parents[k++] = parents[i];
            }
        }
        n = k;
    }
    return n;
}

/* Un-moves (board_parents). With `swap`, a movement board with black to
 * move stands for its colour twin too, whose last mover, black, may have
 * placed its last stone: those placements are parents as well (the
 * twin's slides are the board's, swapped). */
static int morris_generate_parents(const Game *g, Position pos, Position *parents) {
    const Morris *m = mo(g);
    uint32_t bm[2];
    int turn;
    const MorrisTier *t = unhash_masks(m, pos, &turn, &bm[0], &bm[1]);
    int n = board_parents(g, t->hand, turn, bm, UNDO_ALL, parents, 0);
    if (m->swap && t->hand[0] == 0 && t->hand[1] == 0 && turn == 1) {
        uint32_t twin[2] = {bm[1], bm[0]};
        n = board_parents(g, t->hand, 0, twin, UNDO_PLACE | UNDO_CAPTURE, parents, n);
    }
    return unique_parents(g, parents, n);
}

/* TierOps.parents_in: in a movement sector, the parents in the sector are
 * the slides and flights that captured nothing (a capture taken back puts
 * a stone back: another sector; a placement is in a placement sector), so
 * those alone are hashed. Elsewhere every parent. */
static int morris_parents_in(const Game *g, int tier, Position pos, Position *parents) {
    const Morris *m = mo(g);
    const MorrisTier *tt = &m->tier[tier];
    if (tt->hand[0] != 0 || tt->hand[1] != 0) {
        return morris_generate_parents(g, pos, parents);
    }
    uint32_t bm[2];
    int turn;
    const MorrisTier *t = unhash_masks(m, pos, &turn, &bm[0], &bm[1]);
    int n = board_parents(g, t->hand, turn, bm, UNDO_SLIDE, parents, 0);
    return unique_parents(g, parents, n);
}

/* ------------------------------------------------------------ GPS family */

/* A state: the board, its point masks (w, b) and the history of do_move for
 * undo_move; the moves of the board are kept from primitive (which needs
 * them) for generate_moves. set costs one unhash; do_move one rank from the
 * masks, canonical one canonical key (morris_key_masks), no unhash. */
typedef struct MorrisState {
    MBoard b;
    uint32_t mask[2];
} MorrisState;

typedef struct MorrisGps {
    const Morris *m;
    MorrisState s;
    bool have_moves; /* moves[0 .. nmoves) are the current board's */
    int nmoves;
    Move moves[GAME_MAX_MOVES];
    int nhist, cap;
    MorrisState *hist;
} MorrisGps;

static GpsState *morris_gps_create(const Game *g, Error *err) {
    MorrisGps *s = mem_calloc(1, sizeof *s, "a Morris GPS state", err);
    if (s == NULL) {
        return NULL;
    }
    s->m = mo(g);
    s->s.b.hand[0] = s->s.b.hand[1] = s->m->n; /* the initial position, white to place */
    return (GpsState *)s;
}

static void morris_gps_destroy(GpsState *st) {
    MorrisGps *s = (MorrisGps *)st;
    free(s->hist);
    free(s);
}

static void morris_gps_set(GpsState *st, Position pos) {
    MorrisGps *s = (MorrisGps *)st;
    morris_unhash(s->m, pos, &s->s.b);
    board_masks(s->m, s->s.b.cells, &s->s.mask[0], &s->s.mask[1]);
    s->nhist = 0;
    s->have_moves = false;
}

static Position morris_gps_position(GpsState *st) {
    MorrisGps *s = (MorrisGps *)st;
    return morris_key_masks(s->m, s->s.b.hand, s->s.b.turn, s->s.mask[0], s->s.mask[1], false);
}

static int morris_gps_moves(GpsState *st, Move *moves) {
    MorrisGps *s = (MorrisGps *)st;
    if (!s->have_moves) {
        s->nmoves = mask_moves(s->m, &s->s.b, s->s.mask, s->moves);
        s->have_moves = true;
    }
    memcpy(moves, s->moves, (size_t)s->nmoves * sizeof *moves);
    return s->nmoves;
}

/* board_primitive's rule, keeping the moves. */
static Value morris_gps_primitive(GpsState *st) {
    MorrisGps *s = (MorrisGps *)st;
    int me = s->s.b.turn;
    if (s->s.b.hand[me] + mask_ones(s->m, s->s.mask[me]) < 3) {
        return VALUE_LOSE;
    }
    if (!s->have_moves) {
        s->nmoves = mask_moves(s->m, &s->s.b, s->s.mask, s->moves);
        s->have_moves = true;
    }
    return s->nmoves == 0 ? VALUE_LOSE : VALUE_UNDECIDED;
}

static Position morris_gps_do(GpsState *st, Move move) {
    MorrisGps *s = (MorrisGps *)st;
    const Morris *m = s->m;
    if (s->nhist == s->cap) {
        int cap = s->cap < 16 ? 16 : 2 * s->cap;
        MorrisState *h = realloc(s->hist, (size_t)cap * sizeof *h);
        if (h == NULL) {
            fprintf(stderr, "morris: out of memory for the move history\n");
            abort();
        }
        s->hist = h;
        s->cap = cap;
    }
    s->hist[s->nhist++] = s->s;
    int r = move % (m->points + 1), to = move / (m->points + 1) % (m->points + 1),
        from = move / (m->points + 1) / (m->points + 1), me = s->s.b.turn;
    if (from < m->points) {
        s->s.mask[me] &= ~(UINT32_C(1) << from);
    }
    s->s.mask[me] |= UINT32_C(1) << to;
    if (r < m->points) {
        s->s.mask[1 - me] &= ~(UINT32_C(1) << r);
    }
    apply_move(m, &s->s.b, move);
    s->have_moves = false;
    return morris_gps_position(st);
}

static void morris_gps_undo(GpsState *st) {
    MorrisGps *s = (MorrisGps *)st;
    s->s = s->hist[--s->nhist];
    s->have_moves = false;
}

/* The child's canonical position from the masks alone (GpsOps
 * child_canonical): the mover's stone moved or placed, a stone removed, the
 * hand and the mover changed, no history and no board update. */
static Position morris_gps_child_canonical(GpsState *st, Move move) {
    MorrisGps *s = (MorrisGps *)st;
    const Morris *m = s->m;
    int r = move % (m->points + 1), to = move / (m->points + 1) % (m->points + 1),
        from = move / (m->points + 1) / (m->points + 1), me = s->s.b.turn;
    uint32_t mask[2] = {s->s.mask[0], s->s.mask[1]};
    int hand[2] = {s->s.b.hand[0], s->s.b.hand[1]};
    if (from < m->points) {
        mask[me] &= ~(UINT32_C(1) << from);
    } else {
        hand[me]--;
    }
    mask[me] |= UINT32_C(1) << to;
    if (r < m->points) {
        mask[1 - me] &= ~(UINT32_C(1) << r);
    }
    return morris_key_masks(m, hand, 1 - me, mask[0], mask[1], true);
}

static Position morris_gps_canonical(GpsState *st) {
    MorrisGps *s = (MorrisGps *)st;
    return morris_key_masks(s->m, s->s.b.hand, s->s.b.turn, s->s.mask[0], s->s.mask[1], true);
}

static int morris_gps_turn(GpsState *st) { return ((MorrisGps *)st)->s.b.turn; }

static const GpsOps morris_gps = {
    .create = morris_gps_create,
    .destroy = morris_gps_destroy,
    .set = morris_gps_set,
    .position = morris_gps_position,
    .primitive = morris_gps_primitive,
    .generate_moves = morris_gps_moves,
    .do_move = morris_gps_do,
    .undo_move = morris_gps_undo,
    .canonical = morris_gps_canonical,
    .child_canonical = morris_gps_child_canonical,
    .turn = morris_gps_turn,
};

/* ------------------------------------------------------------------- text */

static void morris_format(const Game *g, Position pos, char *buf, size_t n) {
    const Morris *m = mo(g);
    MBoard b;
    morris_unhash(m, pos, &b);
    char cells[MORRIS_MAX_POINTS + 1];
    for (int i = 0; i < m->points; i++) {
        cells[i] = morris_symbols[b.cells[i]];
    }
    cells[m->points] = '\0';
    snprintf(buf, n, "%s:%d:%d:%c", cells, b.hand[0], b.hand[1], b.turn == 0 ? 'w' : 'b');
}

static ErrCode morris_parse(const Game *g, const char *text, Position *pos, Error *err) {
    const Morris *m = mo(g);
    MBoard b;
    memset(&b, 0, sizeof b);
    int len = 0;
    while (text[len] != '\0' && text[len] != ':') {
        len++;
    }
    if (len != m->points) {
        return error_set(err, ERR_USAGE,
                         "'%s': expected %d points ('w', 'b' or '-'), then :<w in hand>:<b in "
                         "hand>:<w|b to move>",
                         text, m->points);
    }
    for (int i = 0; i < m->points; i++) {
        const char *s = strchr(morris_symbols, text[i]);
        if (s == NULL || text[i] == '\0') {
            return error_set(err, ERR_USAGE, "'%s': point %d is '%c', not 'w', 'b' or '-'", text, i,
                             text[i]);
        }
        b.cells[i] = (uint8_t)(s - morris_symbols);
    }
    char mover = 0, extra = 0;
    if (sscanf(text + len, ":%d:%d:%c%c", &b.hand[0], &b.hand[1], &mover, &extra) != 3 ||
        (mover != 'w' && mover != 'b')) {
        return error_set(err, ERR_USAGE,
                         "'%s': after the points, expected :<w in hand>:<b in hand>:<w|b to move>",
                         text);
    }
    b.turn = mover == 'b';
    int wb = count_of(m, b.cells, BOARD_FIRST), bb = count_of(m, b.cells, BOARD_SECOND);
    if (b.hand[0] < 0 || b.hand[1] < 0 || b.hand[0] + wb > m->n || b.hand[1] + bb > m->n) {
        return error_set(err, ERR_USAGE, "'%s': each player has %d stones in all", text, m->n);
    }
    if (m->tier_id[tier_key(b.hand[0], b.hand[1], wb, bb)] < 0) {
        return error_set(err, ERR_USAGE,
                         "'%s': black must have as many stones in hand as white, or one more",
                         text);
    }
    if (b.hand[0] + b.hand[1] > 0 && b.turn != (b.hand[1] == b.hand[0] + 1)) {
        return error_set(err, ERR_USAGE, "'%s': with these hands %s is to place", text,
                         b.hand[1] == b.hand[0] ? "white" : "black");
    }
    *pos = morris_hash(m, &b);
    return ERR_OK;
}

/* A picture: the points on a square grid (7x7 for nine, 5x5 for six, 3x3
 * for three), '.' where there is no point, then the hands and the mover. */
static void morris_print(const Game *g, Position pos, char *buf, size_t n) {
    const Morris *m = mo(g);
    MBoard b;
    morris_unhash(m, pos, &b);
    int side = m->n == 3 ? 3 : m->n == 6 ? 5 : 7;
    char grid[7][7];
    memset(grid, '.', sizeof grid);
    for (int p = 0; p < m->points; p++) {
        int row = p / 3, col = p % 3;
        if (m->n != 3) {
            int r = p / 8, k = p % 8, lo = r, hi = side - 1 - r, mid = side / 2;
            static const int at[8][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 2},
                                         {2, 2}, {2, 1}, {2, 0}, {1, 0}};
            int pick[3] = {lo, mid, hi};
            row = pick[at[k][0]];
            col = pick[at[k][1]];
        }
        grid[row][col] = morris_symbols[b.cells[p]];
    }
    size_t used = 0;
    for (int row = 0; row < side && used < n; row++) {
        for (int col = 0; col < side && used < n; col++) {
            used += (size_t)snprintf(buf + used, n - used, "%c%s", grid[row][col],
                                     col + 1 < side ? " " : "\n");
        }
    }
    if (used < n) {
        snprintf(buf + used, n - used, "in hand: w %d, b %d; %s to move\n", b.hand[0], b.hand[1],
                 b.turn == 0 ? "white" : "black");
    }
}

static void morris_move_name(const Game *g, Position pos, Move move, char *buf, size_t n) {
    const Morris *m = mo(g);
    (void)pos;
    int r = move % (m->points + 1), to = move / (m->points + 1) % (m->points + 1),
        from = move / (m->points + 1) / (m->points + 1);
    char a[16] = "", c[16] = "";
    if (from < m->points) {
        snprintf(a, sizeof a, "%d-", from);
    }
    if (r < m->points) {
        snprintf(c, sizeof c, "x%d", r);
    }
    snprintf(buf, n, "%s%d%s", a, to, c);
}

static const GameOps morris_ops = {
    .primitive = morris_primitive,
    .generate_moves = morris_generate_moves,
    .do_move = morris_do_move,
    .turn = morris_turn,
    .canonical = morris_canonical,
    .generate_parents = morris_generate_parents,
    .format = morris_format,
    .parse = morris_parse,
    .print = morris_print,
    .move_name = morris_move_name,
};

/* ------------------------------------------------------------------ tiers */

static int morris_tier_count(const Game *g) { return mo(g)->ntiers; }

static uint64_t morris_tier_size(const Game *g, int tier) { return mo(g)->tier[tier].size; }

static uint64_t morris_index_size(const Game *g, int tier) { return mo(g)->tier[tier].index_size; }

/* With `sym`, a tier's index: i = mover * (index_size / 2) + c + classes(w)
 * x colex(S), for the class c of the white set W and the black set squeezed
 * into the points W leaves empty, S: about 1/16 of the hash's slots for a
 * solve that keeps a record and a bit per slot. Only a board whose white
 * set is its class's representative has an index (the canonical boards
 * have: morris_key_masks minimizes W first); a board whose W has
 * symmetries of its own may still not be canonical (a duplicate slot, which
 * the solvers skip as they skip any non-canonical slot): a movement sector
 * has 1.3% (9-3) to 24.8% (3-9) more slots than canonical positions
 * (docs/loopy.md). O(1): the hash's rank splits into the ranks of W and S,
 * and W's gives its class by table. */
static uint64_t morris_index_of(const Game *g, Position pos) {
    const Morris *m = mo(g);
    int turn;
    uint64_t rw, rs;
    const MorrisTier *t = split_position(m, pos, &turn, &rw, &rs);
    uint32_t c = m->class_of[t->board[0]][rw];
    if (c == MORRIS_NO_CLASS || t->index_size == 0 || (t->one_mover && turn == 1)) {
        return UINT64_MAX;
    }
    uint64_t half = t->one_mover ? 0 : t->index_size / 2;
    return (uint64_t)turn * half + c + (uint64_t)m->nclass[t->board[0]] * rs;
}

static Position morris_position_at(const Game *g, int tier, uint64_t i) {
    const Morris *m = mo(g);
    const MorrisTier *t = &m->tier[tier];
    uint64_t half = t->one_mover ? t->index_size : t->index_size / 2, turn = i >= half,
             j = i - turn * half;
    uint64_t nc = m->nclass[t->board[0]];
    return t->first + turn * (t->size / 2) + m->class_rank[t->board[0]][j % nc] +
           (uint64_t)m->binom[m->points][t->board[0]] * (j / nc);
}

static Position morris_tier_first(const Game *g, int tier) { return mo(g)->tier[tier].first; }

static int morris_tier_of(const Game *g, Position pos) { return find_tier(mo(g), pos); }

/* The tier of (hands, board counts), if there is one, appended: with
 * `swap`, a movement sector's canonical one (W >= B). */
static int add_child(const Morris *m, int wh, int bh, int wb, int bb, int *out, int n) {
    if (wh < 0 || bh < 0 || wb < 0 || bb < 0) {
        return n;
    }
    if (m->swap && wh == 0 && bh == 0 && wb < bb) {
        int x = wb;
        wb = bb;
        bb = x;
    }
    int t = m->tier_id[tier_key(wh, bh, wb, bb)];
    if (t >= 0) {
        out[n++] = t;
    }
    return n;
}

/* Placement: the player to place puts a stone (and may capture); movement:
 * a capture. With `swap`, W-B for W < B holds no canonical position (no
 * children) and W-W white to move only (white captures). */
static int morris_tier_children(const Game *g, int tier, int *child_tiers) {
    const Morris *m = mo(g);
    const MorrisTier *t = &m->tier[tier];
    int wh = t->hand[0], bh = t->hand[1], wb = t->board[0], bb = t->board[1], n = 0;
    if (wh == 0 && bh == 0) {
        if (m->swap && wb <= bb) {
            return wb < bb ? 0 : add_child(m, 0, 0, wb, bb - 1, child_tiers, 0);
        }
        n = add_child(m, 0, 0, wb, bb - 1, child_tiers, n);
        return add_child(m, 0, 0, wb - 1, bb, child_tiers, n);
    }
    if (wh == bh) {
        n = add_child(m, wh - 1, bh, wb + 1, bb, child_tiers, n);
        return add_child(m, wh - 1, bh, wb + 1, bb - 1, child_tiers, n);
    }
    n = add_child(m, wh, bh - 1, wb, bb + 1, child_tiers, n);
    return add_child(m, wh, bh - 1, wb - 1, bb + 1, child_tiers, n);
}

static bool morris_tier_loopy(const Game *g, int tier) {
    const MorrisTier *t = &mo(g)->tier[tier];
    return t->hand[0] == 0 && t->hand[1] == 0;
}

/* A placement sector's slots with the wrong player to move (white places
 * when both hands are equal, black when black has one more) are no
 * positions; every movement-sector slot is one. */
static bool morris_legal(const Game *g, int tier, Position pos) {
    const MorrisTier *t = &mo(g)->tier[tier];
    if (t->hand[0] == 0 && t->hand[1] == 0) {
        return true;
    }
    MBoard b;
    morris_unhash(mo(g), pos, &b);
    return b.turn == (t->hand[1] == t->hand[0] + 1);
}

/* TierOps.name: a movement sector by the stones on the board, white's and
 * black's, "9-7" (Gasser's and Malom's sector names); a placement tier adds
 * the stones in hand, white's and black's, "8-7-hand1-2" (the mover is
 * implied: white places when the hands are equal, black when it has one
 * more). Unique: the four counts are the tier (morris_layout). */
static void morris_tier_name(const Game *g, int tier, char *buf, size_t n) {
    const MorrisTier *t = &mo(g)->tier[tier];
    if (t->hand[0] == 0 && t->hand[1] == 0) {
        snprintf(buf, n, "%d-%d", t->board[0], t->board[1]);
    } else {
        snprintf(buf, n, "%d-%d-hand%d-%d", t->board[0], t->board[1], t->hand[0], t->hand[1]);
    }
}

static const TierOps morris_tiers = {
    .count = morris_tier_count,
    .size = morris_tier_size,
    .tier_of = morris_tier_of,
    .children = morris_tier_children,
    .first = morris_tier_first,
    .loopy = morris_tier_loopy,
    .legal = morris_legal,
    .parents_in = morris_parents_in,
    .name = morris_tier_name,
};

/* With `sym`: the index by classes instead of the hash's slots. */
static const TierOps morris_tiers_sym = {
    .count = morris_tier_count,
    .size = morris_index_size,
    .tier_of = morris_tier_of,
    .children = morris_tier_children,
    .index_of = morris_index_of,
    .position_at = morris_position_at,
    .loopy = morris_tier_loopy,
    .legal = morris_legal,
    .parents_in = morris_parents_in,
    .name = morris_tier_name,
};

/* ------------------------------------------------------------------ setup */

static void add_mill(Morris *m, int a, int b, int c) {
    int x = m->nmills++;
    m->mill[x][0] = (int8_t)a;
    m->mill[x][1] = (int8_t)b;
    m->mill[x][2] = (int8_t)c;
}

static void add_edge(Morris *m, int a, int b) {
    m->adj_mask[a] |= UINT32_C(1) << b;
    m->adj_mask[b] |= UINT32_C(1) << a;
}

/* The board's points, lines, neighbours and symmetries. */
static void morris_geometry(Morris *m) {
    memset(m->mills_of, -1, sizeof m->mills_of);
    if (m->n == 3) {
        m->points = 9;
        for (int i = 0; i < 3; i++) {
            add_mill(m, 3 * i, 3 * i + 1, 3 * i + 2);
            add_mill(m, i, i + 3, i + 6);
            for (int j = 0; j < 2; j++) {
                add_edge(m, 3 * i + j, 3 * i + j + 1);
                add_edge(m, i + 3 * j, i + 3 * j + 3);
            }
        }
        m->nsyms = GRID_SQUARE_SYMS;
        grid_square_syms(3, &m->sym[0][0], MORRIS_MAX_POINTS);
    } else {
        int rings = m->n == 6 ? 2 : 3;
        m->points = 8 * rings;
        for (int r = 0; r < rings; r++) {
            for (int k = 0; k < 8; k += 2) {
                add_mill(m, 8 * r + k, 8 * r + k + 1, 8 * r + (k + 2) % 8);
            }
            for (int k = 0; k < 8; k++) {
                add_edge(m, 8 * r + k, 8 * r + (k + 1) % 8);
                if (k % 2 == 1 && r + 1 < rings) {
                    add_edge(m, 8 * r + k, 8 * (r + 1) + k);
                }
            }
        }
        if (rings == 3) {
            for (int k = 1; k < 8; k += 2) {
                add_mill(m, k, 8 + k, 16 + k);
            }
        }
        /* Rotations k -> k + 2j, each with or without the mirror k -> 2 - k,
         * each with or without the exchange of the inner and outer rings. */
        m->nsyms = 0;
        for (int swap = 0; swap < 2; swap++) {
            for (int mirror = 0; mirror < 2; mirror++) {
                for (int rot = 0; rot < 4; rot++) {
                    uint8_t *map = m->sym[m->nsyms++];
                    for (int r = 0; r < rings; r++) {
                        for (int k = 0; k < 8; k++) {
                            int k2 = mirror ? (10 - k) % 8 : k;
                            k2 = (k2 + 2 * rot) % 8;
                            int r2 = swap ? rings - 1 - r : r;
                            map[8 * r + k] = (uint8_t)(8 * r2 + k2);
                        }
                    }
                }
            }
        }
    }
    for (int s = 0; s < m->nsyms; s++) {
        for (int byte = 0; byte < 3; byte++) {
            for (int v = 0; v < 256; v++) {
                uint32_t out = 0;
                for (int j = 0; j < 8 && 8 * byte + j < m->points; j++) {
                    if (v & (1 << j)) {
                        out |= UINT32_C(1) << m->sym[s][8 * byte + j];
                    }
                }
                m->sym_mask[s][byte][v] = out;
            }
        }
    }
    for (int a = 0; a <= MORRIS_MAX_POINTS; a++) {
        m->binom[a][0] = 1;
        for (int b = 1; b <= a; b++) {
            m->binom[a][b] = m->binom[a - 1][b - 1] + m->binom[a - 1][b];
        }
    }
    for (int v = 0; v < 256; v++) {
        m->ones[v] = (uint8_t)__builtin_popcount((unsigned)v);
        for (int e = 0; e < 256; e++) {
            int out = 0, at = 0;
            for (int i = 0; i < 8; i++) {
                if (e & (1 << i)) {
                    out |= ((v >> i) & 1) << at++;
                }
            }
            m->squeeze[e][v] = (uint8_t)out;
        }
        for (int byte = 0; byte < 3; byte++) {
            for (int c = 0; c <= MORRIS_MAX_STONES; c++) {
                uint32_t sum = 0;
                for (int i = 0, t = c; i < 8; i++) {
                    if (v & (1 << i)) {
                        sum += m->binom[8 * byte + i][++t]; /* t <= 17, C = 0 when t > p */
                    }
                }
                m->colex[byte][v][c] = sum;
            }
        }
    }
    for (int x = 0; x < m->nmills; x++) {
        for (int i = 0; i < 3; i++) {
            int8_t *of = m->mills_of[m->mill[x][i]];
            of[of[0] < 0 ? 0 : 1] = (int8_t)x;
            m->mill_mask[x] |= UINT32_C(1) << m->mill[x][i];
        }
    }
}

/* The classes of white sets under the symmetries (Morris.nclass,
 * class_rank, class_of): the sets of k points in colex order (Gosper's
 * next-subset step gives the masks in increasing order, which is colex
 * order), a representative when no image is smaller; and for each set the
 * symmetries that take it to the representative (rep_syms). Nine men's
 * morris: 2,579,130 sets of up to 9 points: about 15 MiB of tables. */
static ErrCode morris_classes(Morris *m, Error *err) {
    for (int k = 0; k <= m->n; k++) {
        uint32_t sets = m->binom[m->points][k];
        m->class_of[k] = mem_calloc(sets, sizeof *m->class_of[k], "the Morris classes", err);
        m->class_rank[k] = mem_calloc(sets, sizeof *m->class_rank[k], "the Morris classes", err);
        m->rep_syms[k] = mem_calloc(sets, sizeof *m->rep_syms[k], "the Morris classes", err);
        if (m->class_of[k] == NULL || m->class_rank[k] == NULL || m->rep_syms[k] == NULL) {
            return ERR_MEMORY;
        }
        uint32_t x = (UINT32_C(1) << k) - 1;
        for (uint32_t r = 0; r < sets; r++) {
            uint32_t least = x;
            for (int s = 0; s < m->nsyms; s++) {
                uint32_t y = (uint32_t)permute_mask(m, s, x);
                least = y < least ? y : least;
            }
            for (int s = 0; s < m->nsyms; s++) {
                m->rep_syms[k][r] |= (uint16_t)((permute_mask(m, s, x) == least) << s);
            }
            bool rep = least == x;
            m->class_of[k][r] = rep ? m->nclass[k] : MORRIS_NO_CLASS;
            if (rep) {
                m->class_rank[k][m->nclass[k]++] = r;
            }
            if (k > 0 && r + 1 < sets) {
                uint32_t low = x & -x, y = x + low;
                x = (((y ^ x) >> 2) / low) | y;
            }
        }
        /* about 1/16 of the sets are representatives: give the rest back */
        uint32_t *fit = realloc(m->class_rank[k], m->nclass[k] * sizeof *fit);
        m->class_rank[k] = fit != NULL ? fit : m->class_rank[k];
    }
    return ERR_OK;
}

/* Tiers in order: by stones in hand (placement first), then on the board. */
static ErrCode morris_layout(Morris *m, bool sym, Error *err) {
    const int min[3] = {0, 0, 0}, max[3] = {m->points, m->n, m->n};
    ErrCode rc = generic_init(&m->counts_hash, m->points, 3, min, max, 2, NULL, NULL, err);
    if (rc != ERR_OK) {
        return rc;
    }
    memset(m->tier_id, -1, sizeof m->tier_id);
    m->tier = mem_calloc(10 * 10 * 10 * 10, sizeof *m->tier, "the Morris tiers", err);
    if (m->tier == NULL) {
        return ERR_MEMORY;
    }
    Position next = 0;
    m->ntiers = 0;
    for (int wh = m->n; wh >= 0; wh--) {
        for (int bh = wh + 1; bh >= wh; bh--) {
            if (bh > m->n) {
                continue;
            }
            for (int wb = 0; wb + wh <= m->n; wb++) {
                for (int bb = 0; bb + bh <= m->n; bb++) {
                    MorrisTier *t = &m->tier[m->ntiers];
                    int counts[3] = {m->points - wb - bb, wb, bb};
                    int tuple = generic_tuple(&m->counts_hash, counts);
                    if (tuple < 0) {
                        continue;
                    }
                    t->hand[0] = wh;
                    t->hand[1] = bh;
                    t->board[0] = wb;
                    t->board[1] = bb;
                    t->first = next;
                    t->size = m->counts_hash.offset[tuple + 1] - m->counts_hash.offset[tuple];
                    t->index_size =
                        sym ? 2 * (uint64_t)m->nclass[wb] * m->binom[m->points - wb][bb] : t->size;
                    if (sym && m->swap && wh == 0 && bh == 0 && wb <= bb) {
                        t->one_mover = wb == bb;
                        t->index_size = wb == bb ? t->index_size / 2 : 0;
                    }
                    next += t->size;
                    m->tier_id[tier_key(wh, bh, wb, bb)] = m->ntiers++;
                }
            }
        }
    }
    m->size = next;
    for (int k = 1; k <= m->n; k++) {
        m->div_magic[k] = UINT64_MAX / m->binom[m->points][k] + 1;
    }
    m->tier_shift = 0;
    while ((m->size - 1) >> m->tier_shift >= UINT64_C(1) << 16) {
        m->tier_shift++;
    }
    uint64_t buckets = ((m->size - 1) >> m->tier_shift) + 1;
    m->tier_at = mem_calloc(buckets, sizeof *m->tier_at, "the Morris tiers", err);
    if (m->tier_at == NULL) {
        return ERR_MEMORY;
    }
    for (uint64_t b = 0; b < buckets; b++) {
        m->tier_at[b] = (uint16_t)search_tier(m, b << m->tier_shift);
    }
    return ERR_OK;
}

static void morris_destroy(Game *g) {
    Morris *m = g->self;
    if (m != NULL) {
        generic_destroy(&m->counts_hash);
        free(m->tier);
        free(m->tier_at);
        for (int k = 0; k <= MORRIS_MAX_STONES; k++) {
            free(m->class_of[k]);
            free(m->class_rank[k]);
            free(m->rep_syms[k]);
        }
        free(m);
    }
}

static ErrCode morris_create(Game *g, Error *err) {
    int n = (int)opt_int(&g->options, "n");
    if (n != 3 && n != 6 && n != 9) {
        return error_set(err, ERR_USAGE, "n=%d: the Morris games have n=3, 6 or 9 stones", n);
    }
    Morris *m = mem_calloc(1, sizeof *m, "the Morris module", err);
    if (m == NULL) {
        return ERR_MEMORY;
    }
    m->n = n;
#ifdef MORRIS_HAVE_BMI2
    m->bmi2 = __builtin_cpu_supports("bmi2") && getenv("GAMESMAN_MORRIS_NO_PEXT") == NULL;
#endif
    int fly = (int)opt_int(&g->options, "fly");
    m->fly = fly == 2 ? n == 9 : fly == 1;
    morris_geometry(m);
    g->self = m;
    bool sym = opt_bool(&g->options, "sym");
    m->symmetric = sym;
    m->swap = opt_bool(&g->options, "swap");
    ErrCode rc = sym ? morris_classes(m, err) : ERR_OK;
    if (rc == ERR_OK) {
        rc = morris_layout(m, sym, err);
    }
    if (rc != ERR_OK) {
        return rc; /* game_create calls destroy */
    }
    MBoard start = {.hand = {n, n}, .turn = 0};
    g->ops = &morris_ops;
    g->gps = &morris_gps;
    g->tiers = sym ? &morris_tiers_sym : &morris_tiers;
    g->num_positions = m->size;
    g->initial = morris_hash(m, &start);
    g->max_moves = GAME_MAX_MOVES;
    /* A stone of the mover back to one of the points (or the hand), with
     * or without an opponent stone put back on one of them. */
    g->max_parents = n * (m->points + 1) * (m->points + 1);
    g->max_depth = 0;
    g->loopy = true;
    g->symmetric = sym || m->swap;
    return ERR_OK;
}

static const OptionSpec morris_options[] = {
    {.name = "n",
     .type = OPT_INT,
     .min = 3,
     .max = 9,
     .def = 9,
     .help = "stones per player: 3, 6 or 9 (three, six, nine men's morris)"},
    {.name = "fly",
     .type = OPT_INT,
     .min = 0,
     .max = 2,
     .def = 2,
     .help = "flying with three stones: 0 never, 1 always, 2 the default (nine only)"},
    {.name = "sym", .type = OPT_BOOL, .help = "canonicalize under the board's symmetries"},
    {.name = "swap",
     .type = OPT_BOOL,
     .help = "canonicalize movement positions under the colour swap (Gasser's 28 sectors)"},
    {0},
};

static const GameTestVariant morris_tests[] = {{.options = "n=3"},          {.options = "n=3,sym"},
                                               {.options = "n=3,fly=1"},    {.options = "n=3,swap"},
                                               {.options = "n=3,sym,swap"}, {NULL}};

const GameModule morris_module = {
    .name = "morris",
    .title = "Morris (three, six, nine men's morris)",
    .description = "Morris games: place, slide, fly; a mill removes a stone (loopy)",
    .options = morris_options,
    .test_variants = morris_tests,
    .create = morris_create,
    .destroy = morris_destroy,
};
