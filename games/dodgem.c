/* games/dodgem.c: Dodgem, Colin Vout's car game from Winning Ways.
 *
 * Rules (E. Berlekamp, J. Conway, R. Guy, Winning Ways for your Mathematical
 * Plays, the Dodgem section; Wikipedia, "Dodgem"): an n x n board; the first
 * player (blue, b) has n - 1 cars on the left edge, the second player (red,
 * r) n - 1 cars on the bottom edge; the bottom-left square is empty:
 *
 *     b - -      3x3 start, rows from the top: "b--b---rr:b"
 *     b - -      blue drives east (forward), north or south;
 *     - r r      red drives north (forward), west or east.
 *
 * A move drives one of your cars one square forward or sideways onto an
 * empty square; a car on the far edge (east for blue, north for red) may
 * drive forward off the board, and is out of the game. Cars never move
 * backwards, never leave by a side, never jump. The game ends (Winning Ways):
 * a player who cannot move wins (you must always leave your opponent a move),
 * and a player loses once the opponent has driven all of its cars off the
 * board (the first to get all its cars off wins). So where the player to move
 * is blocked, that player wins at once (remoteness 0); where the player who
 * just moved has no car left on the board, the player to move has lost.
 * (Wikipedia's wording, the winner is the first player to have no legal move
 * on their turn, lets the loser make one more move first; with no opposing
 * car left, the loser's foremost car can always move, so every outcome is
 * the same and only remotenesses differ, by one.) Blue moves first. Winning
 * Ways shows that 3x3 is a first-player win; D. desJardins (1996) found 4x4
 * and 5x5 to be draws (neither side can force a win: play goes on forever).
 *
 * Hash: tier-major and compact. A tier is the cars still on the board, as
 * an unordered pair {hi, lo} (hi >= lo), tier hi * (hi + 1) / 2 + lo, tiers
 * laid out in that order. Within tier {hi, lo} come first the boards with hi
 * blue and lo red cars, then (when hi != lo) those with lo blue and hi red,
 * each ranked with the player to move by the generic combinatorial hash
 * (hash/generic.h). So only boards with at most n - 1 cars a side have a
 * position: 2,846 for 3x3, 555,986 for 4x4, 240,060,402 for 5x5 (a base-3
 * hash would need 39,366, 86 million and 1.7e12). Cars off the board are
 * n - 1 minus the cars on it. A move is 3 * square + direction (0 forward,
 * 1 and 2 the two sideways directions). Un-moves drive one of the last
 * mover's cars back (or back onto the far edge, when it has cars off the
 * board). Option `sym` stores one position per class of the one non-trivial
 * symmetry: the reflection in the diagonal from the bottom-left corner to
 * the top-right, which exchanges blue and red (and the player to move).
 * A GPS family (a board in a state object) lets the tier solver expand a
 * position with one unhash.
 *
 * Tiers (TierOps): a move inside the board keeps the tier (loopy when
 * lo > 0); a car leaving is the only move to another tier, {hi, lo - 1} or
 * {hi - 1, lo}. The pair is unordered because `sym` exchanges the colours,
 * and so the counts. Tiers with lo = 0 hold only finished games. 5x5: 15
 * tiers, the largest ({4, 4}) 151,420,500 positions. A tier's name
 * (TierOps.name) is "cars<hi>-<lo>": "cars4-4".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "games/board.h"
#include "games/game.h"
#include "games/grid.h"
#include "hash/generic.h"

enum { DG_FORWARD = 0, DG_DIRECTIONS = 3 };

/* A tier {hi, lo} (see the top of the file). */
typedef struct DodgemTier {
    int hi, lo;
    Position first; /* its first position */
    uint64_t size;
    uint64_t block; /* positions with hi blue and lo red cars (the first block) */
} DodgemTier;

#define DG_MAX_CARS 4
#define DG_MAX_TIERS ((DG_MAX_CARS + 1) * (DG_MAX_CARS + 2) / 2)

typedef struct Dodgem {
    BoardSyms syms;
    GenericHash counts_hash; /* rank among the boards of given car counts, with the mover */
    int ntiers;
    DodgemTier tier[DG_MAX_TIERS];
    /* base[b][r] + generic_hash(board) is the position of a board with b
     * blue and r red cars */
    uint64_t base[DG_MAX_CARS + 1][DG_MAX_CARS + 1];
    /* rank0[b][r][turn]: the position of the board of b blue and r red cars
     * whose arrangement ranks 0 (generic_rank_masks gives the rest) */
    uint64_t rank0[DG_MAX_CARS + 1][DG_MAX_CARS + 1][2];
    uint64_t size;                  /* positions */
    uint8_t start[BOARD_MAX_CELLS]; /* the initial board */
    /* target[turn][square][dir]: dg_target, tabulated (it was a tenth of
     * the tier solver's time on 4x4 in divisions) */
    int8_t target[2][BOARD_MAX_CELLS][DG_DIRECTIONS];
    int n;     /* side */
    int cells; /* n * n */
    int cars;  /* n - 1 per player */
} Dodgem;

static const Dodgem *dg(const Game *g) { return g->self; }

static const char dg_symbols[] = "-br";

/* ------------------------------------------------------------------- hash */

static int dg_pair_tier(int hi, int lo) { return hi * (hi + 1) / 2 + lo; }

/* One pass over the squares for the cars' masks, then the rank from the
 * masks: the same position as base[b][r] + generic_hash(cells, turn),
 * without generic_hash's second pass (the hash was the largest cost of the
 * tier solver on 4x4). */
/* The position of the board whose blue and red cars are on the squares of
 * bm and rm (b and r of them). */
static inline Position dg_hash_masks(const Dodgem *d, uint32_t bm, uint32_t rm, int b, int r,
                                     int turn) {
    uint64_t mask[3] = {0, bm, rm};
    return d->rank0[b][r][turn] + generic_rank_masks(&d->counts_hash, mask);
}

static Position dg_hash(const Dodgem *d, const uint8_t *cells, int turn) {
    uint32_t bm = 0, rm = 0; /* at most 25 squares */
    int b = 0, r = 0;
    for (int s = 0; s < d->cells; s++) {
        bm |= (uint32_t)(cells[s] == BOARD_FIRST) << s;
        rm |= (uint32_t)(cells[s] == BOARD_SECOND) << s;
        b += cells[s] == BOARD_FIRST;
        r += cells[s] == BOARD_SECOND;
    }
    return dg_hash_masks(d, bm, rm, b, r, turn);
}

/* The tier holding position pos (tiers are few: a linear scan). */
static int dg_find_tier(const Dodgem *d, Position pos) {
    int t = 0;
    while (t + 1 < d->ntiers && pos >= d->tier[t + 1].first) {
        t++;
    }
    return t;
}

static int dg_unhash(const Dodgem *d, Position pos, uint8_t *cells) {
    const DodgemTier *t = &d->tier[dg_find_tier(d, pos)];
    uint64_t i = pos - t->first;
    int b = t->hi, r = t->lo;
    if (i >= t->block) {
        b = t->lo;
        r = t->hi;
    }
    return generic_unhash(&d->counts_hash, pos - d->base[b][r], cells);
}

/* The smallest position over the symmetry images of (cells, turn). */
static Position dg_canonical_board(const Dodgem *d, const uint8_t *cells, int turn) {
    static const uint8_t swapped[3] = {BOARD_EMPTY, BOARD_SECOND, BOARD_FIRST};
    Position best = UINT64_MAX;
    for (int s = 0; s < d->syms.count; s++) {
        uint8_t image[BOARD_MAX_CELLS];
        for (int i = 0; i < d->cells; i++) {
            image[d->syms.map[s][i]] = d->syms.swap[s] ? swapped[cells[i]] : cells[i];
        }
        Position p = dg_hash(d, image, d->syms.swap[s] ? 1 - turn : turn);
        best = p < best ? p : best;
    }
    return best;
}

/* Lays out the tiers, in order of their number, and the base offsets. */
static ErrCode dg_init_hash(Dodgem *d, Error *err) {
    const int min[3] = {0, 0, 0}, max[3] = {d->cells, d->cars, d->cars};
    ErrCode rc = generic_init(&d->counts_hash, d->cells, 3, min, max, 2, NULL, NULL, err);
    if (rc != ERR_OK) {
        return rc;
    }
    const GenericHash *h = &d->counts_hash;
    d->ntiers = dg_pair_tier(d->cars, d->cars) + 1;
    Position next = 0;
    for (int k = 0; k < d->ntiers; k++) {
        DodgemTier *t = &d->tier[k];
        t->hi = 0;
        while ((t->hi + 1) * (t->hi + 2) / 2 <= k) {
            t->hi++;
        }
        t->lo = k - dg_pair_tier(t->hi, 0);
        int counts[3] = {d->cells - t->hi - t->lo, t->hi, t->lo};
        int tuple = generic_tuple(h, counts);
        t->block = h->offset[tuple + 1] - h->offset[tuple];
        t->size = t->hi == t->lo ? t->block : 2 * t->block;
        t->first = next;
        d->base[t->hi][t->lo] = next - h->offset[tuple];
        if (t->hi != t->lo) {
            int swapped[3] = {d->cells - t->hi - t->lo, t->lo, t->hi};
            d->base[t->lo][t->hi] = next + t->block - h->offset[generic_tuple(h, swapped)];
        }
        next += t->size;
    }
    for (int b = 0; b <= d->cars; b++) {
        for (int r = 0; r <= d->cars; r++) {
            int counts[3] = {d->cells - b - r, b, r};
            int tuple = generic_tuple(h, counts);
            for (int turn = 0; turn < 2; turn++) {
                d->rank0[b][r][turn] =
                    d->base[b][r] + h->offset[tuple] + (uint64_t)turn * h->multi[tuple];
            }
        }
    }
    d->size = next;
    return ERR_OK;
}

/* ------------------------------------------------------------------ board */

/* Row and column steps of each direction for player `turn` (0 blue, 1 red);
 * row 0 is the top. Blue: east, north, south. Red: north, west, east. */
static const int dg_step[2][DG_DIRECTIONS][2] = {
    {{0, 1}, {-1, 0}, {1, 0}},
    {{-1, 0}, {0, -1}, {0, 1}},
};

/* The square reached from square `from` in direction dir: a square index,
 * -1 for off the board forward (leaving the game), or -2 for illegal. */
static int dg_target_of(const Dodgem *d, int turn, int from, int dir) {
    int r = from / d->n + dg_step[turn][dir][0], c = from % d->n + dg_step[turn][dir][1];
    if (r >= 0 && r < d->n && c >= 0 && c < d->n) {
        return r * d->n + c;
    }
    return dir == DG_FORWARD ? -1 : -2;
}

static inline int dg_target(const Dodgem *d, int turn, int from, int dir) {
    return d->target[turn][from][dir];
}

static int dg_board_moves(const Dodgem *d, const uint8_t *cells, int turn, Move *moves) {
    uint8_t piece = board_piece(turn);
    int n = 0;
    for (int s = 0; s < d->cells; s++) {
        if (cells[s] != piece) {
            continue;
        }
        for (int dir = 0; dir < DG_DIRECTIONS; dir++) {
            int t = dg_target(d, turn, s, dir);
            if (t == -1 || (t >= 0 && cells[t] == BOARD_EMPTY)) {
                moves[n++] = s * DG_DIRECTIONS + dir;
            }
        }
    }
    return n;
}

static Value dg_board_primitive(const Dodgem *d, const uint8_t *cells, int turn) {
    Move moves[GAME_MAX_MOVES];
    if (board_count(cells, d->cells, board_piece(1 - turn)) == 0) {
        return VALUE_LOSE; /* the opponent has driven every car off */
    }
    return dg_board_moves(d, cells, turn, moves) == 0 ? VALUE_WIN : VALUE_UNDECIDED;
}

/* -------------------------------------------------------- stateless family */

static Value dg_primitive(const Game *g, Position pos) {
    uint8_t cells[BOARD_MAX_CELLS];
    int turn = dg_unhash(dg(g), pos, cells);
    return dg_board_primitive(dg(g), cells, turn);
}

static int dg_generate_moves(const Game *g, Position pos, Move *moves) {
    uint8_t cells[BOARD_MAX_CELLS];
    int turn = dg_unhash(dg(g), pos, cells);
    return dg_board_moves(dg(g), cells, turn, moves);
}

static Position dg_do_move(const Game *g, Position pos, Move move) {
    const Dodgem *d = dg(g);
    uint8_t cells[BOARD_MAX_CELLS];
    int turn = dg_unhash(d, pos, cells);
    int from = move / DG_DIRECTIONS, t = dg_target(d, turn, from, move % DG_DIRECTIONS);
    if (t >= 0) {
        cells[t] = cells[from];
    }
    cells[from] = BOARD_EMPTY;
    return dg_hash(d, cells, 1 - turn);
}

static int dg_turn(const Game *g, Position pos) {
    uint8_t cells[BOARD_MAX_CELLS];
    return dg_unhash(dg(g), pos, cells);
}

static Position dg_canonical(const Game *g, Position pos) {
    uint8_t cells[BOARD_MAX_CELLS];
    int turn = dg_unhash(dg(g), pos, cells);
    return dg_canonical_board(dg(g), cells, turn);
}

/* The key of a parent in which `last` (to move there) has its cars on
 * `mine` (nm of them) and the other player on `theirs` (nt). */
static inline Position dg_parent_key(const Dodgem *d, int last, uint32_t mine, uint32_t theirs,
                                     int nm, int nt) {
    return last == 0 ? dg_hash_masks(d, mine, theirs, nm, nt, last)
                     : dg_hash_masks(d, theirs, mine, nt, nm, last);
}

/* Un-moves of the last mover: a car on square t came from a square s with a
 * move s -> t (s is empty now), or a car that left the board came from an
 * empty square of the far edge. A parent in which the player to move's
 * opponent (the player to move now) had no car on the board was already
 * over, so there are none then. At most 3 (n - 1) + n parents. */
static int dg_generate_parents(const Game *g, Position pos, Position *parents) {
    const Dodgem *d = dg(g);
    uint8_t cells[BOARD_MAX_CELLS];
    int turn = dg_unhash(d, pos, cells);
    int last = 1 - turn;
    uint8_t piece = board_piece(last);
    if (board_count(cells, d->cells, board_piece(turn)) == 0) {
        return 0;
    }
    /* With a car back on the board, the last mover has at most n - 1. */
    bool can_return = board_count(cells, d->cells, piece) + 1 <= d->cars;
    /* Without `sym`, each parent's key from the masks: the last mover's
     * car moves from t back to s (or comes back onto s). */
    uint32_t mine = 0, theirs = 0;
    for (int s = 0; s < d->cells; s++) {
        mine |= (uint32_t)(cells[s] == piece) << s;
        theirs |= (uint32_t)(cells[s] == board_piece(turn)) << s;
    }
    int nm = __builtin_popcount(mine), nt = __builtin_popcount(theirs);
    int n = 0;
    for (int s = 0; s < d->cells; s++) {
        if (cells[s] != BOARD_EMPTY) {
            continue;
        }
        cells[s] = piece;
        for (int dir = 0; dir < DG_DIRECTIONS; dir++) {
            int t = dg_target(d, last, s, dir);
            if (t >= 0 && cells[t] == piece) {
                cells[t] = BOARD_EMPTY;
                Position q = g->symmetric ? dg_canonical_board(d, cells, last)
                                          : dg_parent_key(d, last, mine ^ (1u << s) ^ (1u << t),
                                                          theirs, nm, nt);
                n = board_add_unique(parents, n, q);
                cells[t] = piece;
            } else if (t == -1 && can_return) {
                Position q = g->symmetric
                                 ? dg_canonical_board(d, cells, last)
                                 : dg_parent_key(d, last, mine | (1u << s), theirs, nm + 1, nt);
                n = board_add_unique(parents, n, q);
            }
        }
        cells[s] = BOARD_EMPTY;
    }
    return n;
}

/* Square names as on a chess board: columns a.. from the west, rows 1.. from
 * the south. */
static void dg_square(const Dodgem *d, int s, char *buf, size_t n) {
    snprintf(buf, n, "%c%d", 'a' + s % d->n, d->n - s / d->n);
}

static void dg_move_name(const Game *g, Position pos, Move move, char *buf, size_t n) {
    const Dodgem *d = dg(g);
    int turn = dg_turn(g, pos);
    int from = move / DG_DIRECTIONS, t = dg_target(d, turn, from, move % DG_DIRECTIONS);
    char a[8], b[8] = "off";
    dg_square(d, from, a, sizeof a);
    if (t >= 0) {
        dg_square(d, t, b, sizeof b);
    }
    snprintf(buf, n, "%s-%s", a, b);
}

static void dg_format(const Game *g, Position pos, char *buf, size_t n) {
    uint8_t cells[BOARD_MAX_CELLS];
    int turn = dg_unhash(dg(g), pos, cells);
    board_format(cells, dg(g)->cells, turn, dg_symbols, buf, n);
}

static void dg_print(const Game *g, Position pos, char *buf, size_t n) {
    const Dodgem *d = dg(g);
    uint8_t cells[BOARD_MAX_CELLS];
    int turn = dg_unhash(d, pos, cells);
    size_t used = grid_print(cells, d->n, d->n, true, dg_symbols, " ", buf, n);
    if (used < n) {
        Value v = dg_board_primitive(d, cells, turn);
        int off_b = d->cars - board_count(cells, d->cells, BOARD_FIRST);
        int off_r = d->cars - board_count(cells, d->cells, BOARD_SECOND);
        snprintf(buf + used, n - used, "    off the board: %d blue, %d red; %s\n", off_b, off_r,
                 v == VALUE_UNDECIDED ? (turn == 0 ? "blue to move" : "red to move")
                 : v == VALUE_WIN     ? "the player to move is blocked and wins"
                                      : "game over: the player to move has lost");
    }
}

static ErrCode dg_parse(const Game *g, const char *text, Position *pos, Error *err) {
    const Dodgem *d = dg(g);
    uint8_t cells[BOARD_MAX_CELLS];
    int turn;
    char shape[96];
    snprintf(shape, sizeof shape, "%d squares row by row from the top (%dx%d board)", d->cells,
             d->n, d->n);
    ErrCode rc = board_parse(text, d->cells, dg_symbols, shape, cells, &turn, err);
    if (rc != ERR_OK) {
        return rc;
    }
    int nb = board_count(cells, d->cells, BOARD_FIRST),
        nr = board_count(cells, d->cells, BOARD_SECOND);
    if (nb > d->cars || nr > d->cars) {
        return error_set(err, ERR_USAGE, "'%s' has %d blue and %d red cars; each player has %d",
                         text, nb, nr, d->cars);
    }
    if (nb == 0 && nr == 0) {
        return error_set(err, ERR_USAGE,
                         "'%s' has no car on the board: the game ended when the first player "
                         "drove its last car off",
                         text);
    }
    *pos = dg_hash(d, cells, turn);
    return ERR_OK;
}

/* -------------------------------------------------------------- GPS family */

/* The board in a state object: set unhashes once, then do/undo mutate it
 * (the tier solver expands each position with one unhash instead of 2 + one
 * per move). The history grows as needed. */
typedef struct DgGps {
    const Dodgem *d;
    uint8_t cells[BOARD_MAX_CELLS];
    uint32_t mask[2]; /* the squares of blue's and red's cars, kept with cells */
    int count[2];     /* their numbers */
    int turn;
    int nhist, cap;
    struct DgUndo {
        int8_t from, to; /* to < 0: the car left the board */
    } * hist;
} DgGps;

static void dg_gps_masks(DgGps *s) {
    s->mask[0] = s->mask[1] = 0;
    for (int i = 0; i < s->d->cells; i++) {
        s->mask[0] |= (uint32_t)(s->cells[i] == BOARD_FIRST) << i;
        s->mask[1] |= (uint32_t)(s->cells[i] == BOARD_SECOND) << i;
    }
    s->count[0] = __builtin_popcount(s->mask[0]);
    s->count[1] = __builtin_popcount(s->mask[1]);
}

static GpsState *dg_gps_create(const Game *g, Error *err) {
    DgGps *s = mem_calloc(1, sizeof *s, "a Dodgem GPS state", err);
    if (s == NULL) {
        return NULL;
    }
    s->d = dg(g);
    memcpy(s->cells, s->d->start, sizeof s->cells); /* the initial position, blue to move */
    dg_gps_masks(s);
    return (GpsState *)s;
}

static void dg_gps_destroy(GpsState *st) {
    DgGps *s = (DgGps *)st;
    free(s->hist);
    free(s);
}

static void dg_gps_set(GpsState *st, Position pos) {
    DgGps *s = (DgGps *)st;
    s->turn = dg_unhash(s->d, pos, s->cells);
    dg_gps_masks(s);
    s->nhist = 0;
}

static Position dg_gps_position(GpsState *st) {
    DgGps *s = (DgGps *)st;
    return dg_hash(s->d, s->cells, s->turn);
}

static Value dg_gps_primitive(GpsState *st) {
    DgGps *s = (DgGps *)st;
    return dg_board_primitive(s->d, s->cells, s->turn);
}

static int dg_gps_moves(GpsState *st, Move *moves) {
    DgGps *s = (DgGps *)st;
    return dg_board_moves(s->d, s->cells, s->turn, moves);
}

static Position dg_gps_do(GpsState *st, Move move) {
    DgGps *s = (DgGps *)st;
    if (s->nhist == s->cap) {
        int cap = s->cap < 16 ? 16 : 2 * s->cap;
        struct DgUndo *h = realloc(s->hist, (size_t)cap * sizeof *h);
        if (h == NULL) {
            fprintf(stderr, "dodgem: out of memory for the move history\n");
            abort();
        }
        s->hist = h;
        s->cap = cap;
    }
    int from = move / DG_DIRECTIONS, t = dg_target(s->d, s->turn, from, move % DG_DIRECTIONS);
    int me = s->turn;
    s->mask[me] &= ~(UINT32_C(1) << from);
    if (t >= 0) {
        s->cells[t] = s->cells[from];
        s->mask[me] |= UINT32_C(1) << t;
    } else {
        s->count[me]--;
    }
    s->cells[from] = BOARD_EMPTY;
    s->hist[s->nhist++] = (struct DgUndo){(int8_t)from, (int8_t)t};
    s->turn = 1 - s->turn;
    return dg_hash_masks(s->d, s->mask[0], s->mask[1], s->count[0], s->count[1], s->turn);
}

static void dg_gps_undo(GpsState *st) {
    DgGps *s = (DgGps *)st;
    struct DgUndo u = s->hist[--s->nhist];
    s->turn = 1 - s->turn;
    int me = s->turn;
    s->cells[u.from] = board_piece(me);
    s->mask[me] |= UINT32_C(1) << u.from;
    if (u.to >= 0) {
        s->cells[u.to] = BOARD_EMPTY;
        s->mask[me] &= ~(UINT32_C(1) << u.to);
    } else {
        s->count[me]++;
    }
}

static Position dg_gps_canonical(GpsState *st) {
    DgGps *s = (DgGps *)st;
    return dg_canonical_board(s->d, s->cells, s->turn);
}

static int dg_gps_turn(GpsState *st) { return ((DgGps *)st)->turn; }

static const GpsOps dg_gps = {
    .create = dg_gps_create,
    .destroy = dg_gps_destroy,
    .set = dg_gps_set,
    .position = dg_gps_position,
    .primitive = dg_gps_primitive,
    .generate_moves = dg_gps_moves,
    .do_move = dg_gps_do,
    .undo_move = dg_gps_undo,
    .canonical = dg_gps_canonical,
    .turn = dg_gps_turn,
};

/* ------------------------------------------------------------------ tiers */

static int dg_tier_count(const Game *g) { return dg(g)->ntiers; }

static uint64_t dg_tier_size(const Game *g, int tier) { return dg(g)->tier[tier].size; }

static Position dg_tier_first(const Game *g, int tier) { return dg(g)->tier[tier].first; }

static int dg_tier_of(const Game *g, Position pos) { return dg_find_tier(dg(g), pos); }

static int dg_tier_children(const Game *g, int tier, int *child_tiers) {
    int hi = dg(g)->tier[tier].hi, lo = dg(g)->tier[tier].lo, n = 0;
    if (lo > 0) {
        child_tiers[n++] = dg_pair_tier(hi, lo - 1);
        if (hi > lo) {
            child_tiers[n++] = dg_pair_tier(hi - 1, lo);
        }
    }
    return n;
}

static bool dg_tier_loopy(const Game *g, int tier) { return dg(g)->tier[tier].lo > 0; }

/* TierOps.name: "cars3-2", the cars on the board, the larger count first
 * (the tier is the unordered pair {hi, lo}). */
static void dg_tier_name(const Game *g, int tier, char *buf, size_t n) {
    snprintf(buf, n, "cars%d-%d", dg(g)->tier[tier].hi, dg(g)->tier[tier].lo);
}

static const TierOps dg_tiers = {
    .count = dg_tier_count,
    .size = dg_tier_size,
    .tier_of = dg_tier_of,
    .children = dg_tier_children,
    .first = dg_tier_first,
    .loopy = dg_tier_loopy,
    .name = dg_tier_name,
};

static const GameOps dg_ops = {
    .primitive = dg_primitive,
    .generate_moves = dg_generate_moves,
    .do_move = dg_do_move,
    .turn = dg_turn,
    .canonical = dg_canonical,
    .generate_parents = dg_generate_parents,
    .format = dg_format,
    .parse = dg_parse,
    .print = dg_print,
    .move_name = dg_move_name,
};

/* ------------------------------------------------------------------ module */

static ErrCode dg_create(Game *g, Error *err) {
    Dodgem *d = mem_calloc(1, sizeof *d, "the Dodgem module", err);
    if (d == NULL) {
        return ERR_MEMORY;
    }
    d->n = (int)opt_int(&g->options, "n");
    d->cells = d->n * d->n;
    d->cars = d->n - 1;
    ErrCode rc = dg_init_hash(d, err);
    if (rc != ERR_OK) {
        generic_destroy(&d->counts_hash);
        free(d);
        return rc;
    }
    /* The reflection (r, c) -> (n-1-c, n-1-r) exchanges blue's edge and
     * directions with red's. */
    d->syms.count = 2;
    for (int s = 0; s < d->cells; s++) {
        int r = s / d->n, c = s % d->n;
        d->syms.map[0][s] = (uint8_t)s;
        d->syms.map[1][s] = (uint8_t)((d->n - 1 - c) * d->n + (d->n - 1 - r));
    }
    d->syms.swap[1] = true;
    for (int turn = 0; turn < 2; turn++) {
        for (int s = 0; s < d->cells; s++) {
            for (int dir = 0; dir < DG_DIRECTIONS; dir++) {
                d->target[turn][s][dir] = (int8_t)dg_target_of(d, turn, s, dir);
            }
        }
    }
    uint8_t start[BOARD_MAX_CELLS] = {0};
    for (int i = 0; i < d->cars; i++) {
        start[i * d->n] = BOARD_FIRST;                   /* west edge, from the top */
        start[(d->n - 1) * d->n + 1 + i] = BOARD_SECOND; /* south edge, from column b */
    }
    memcpy(d->start, start, sizeof d->start);
    g->self = d;
    g->ops = &dg_ops;
    g->tiers = &dg_tiers;
    g->gps = &dg_gps;
    g->num_positions = d->size;
    g->initial = dg_hash(d, start, 0);
    g->max_moves = DG_DIRECTIONS * d->cars;
    g->max_parents = DG_DIRECTIONS * d->cars + d->n;
    g->max_depth = 0;
    g->loopy = true;
    g->symmetric = opt_bool(&g->options, "sym");
    return ERR_OK;
}

static const OptionSpec dg_options[] = {
    {.name = "n",
     .type = OPT_INT,
     .min = 3,
     .max = 5,
     .def = 3,
     .help = "board side (n - 1 cars each); 5: 240 million positions, by tiers"},
    {.name = "sym", .type = OPT_BOOL, .help = "canonicalize under the colour-swapping reflection"},
    {0},
};

static const GameTestVariant dg_tests[] = {{.options = ""}, {.options = "sym"}, {NULL}};

static void dg_destroy(Game *g) {
    Dodgem *d = g->self;
    if (d != NULL) {
        generic_destroy(&d->counts_hash);
        free(d);
    }
}

const GameModule dodgem_module = {
    .name = "dodgem",
    .title = "Dodgem",
    .description = "Colin Vout's car game from Winning Ways, n-1 cars each (loopy)",
    .options = dg_options,
    .test_variants = dg_tests,
    .create = dg_create,
    .destroy = dg_destroy,
};
