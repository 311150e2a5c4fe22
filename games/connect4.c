/* games/connect4.c: Connect Four on a w x h board, k in a row (GamesmanClassic's mc4.c,
 * in three families).
 *
 * Rules: two players, x (first) and o, drop pieces in turn into one of w
 * columns of height h; a piece falls to the lowest empty cell. The first
 * player to make k in a row (vertical, horizontal or diagonal) wins: the
 * position after that move is primitive, a loss for the player to move (a
 * win with `misere`, where k in a row loses). A full board without a line
 * is a tie (Connect Four players' "draw"). Defaults: 7 x 6, k = 4.
 *
 * Hash: the column hash of hash/colhash.h, tier-major by the number of
 * pieces: tier n holds [first(n), first(n) + H(n) C(n, ceil(n/2))), the
 * height vector's rank times C(n, ceil(n/2)) plus the rank of the colour
 * sequence (pieces column by column, bottom to top); its name is "ply<n>"
 * (TierOps.name). Every slot is a board with the right piece counts and no
 * floating piece. 5x4: 5,621,939 slots
 * for 3,945,711 reachable positions; 7x6: 7.07e13 slots.
 *
 * Board: two bitboards (x's and o's pieces), bit c*h + r for column c, row
 * r from the bottom, and the column heights:
 *
 *      r=2 |  2  5  8 11       (w = 4, h = 3: bit numbers)
 *      r=1 |  1  4  7 10       A move is a column 0..w-1 (players see
 *      r=0 |  0  3  6  9       1..w); the direction deltas are 1 (up),
 *          +------------       h (right), h+1 (up-right), h-1 (down-right).
 *             c=0 1  2  3
 *
 * Families:
 *   stateless   every call unhashes; primitive scans the whole board for
 *               lines (O(log k) shift-ands per direction, all cells at
 *               once); do_move decodes into a cursor and drops the piece
 *               (colhash_cursor_drop: one hash).
 *   gps         the seed's board and history: set unhashes once into a
 *               cursor; do_move updates the bitboards and the hash
 *               incrementally (colhash_cursor_drop: a table lookup for the
 *               heights, a few binomials for the colours, no division) and
 *               records what undo needs; primitive scans the board;
 *               generate_moves scans the column heights.
 *   gps-cached  adds a mask of the non-full columns (generate_moves copies
 *               it out) and incremental win detection (GPS document, 4.2:
 *               "don't re-search what is already known"): only the lines
 *               through the last piece, of the player who dropped it, are
 *               checked (a windowed shift-and per direction), once per
 *               position, and the answer is cached, so neither primitive
 *               nor generate_moves scans the board. The check waits for
 *               primitive rather than do_move, since a memoized solver
 *               moves into many children it has already solved. undo_move
 *               pops a copy of the whole state (some 120 bytes) instead of
 *               undoing each part. With `sym`, the mirror image's hash is
 *               kept up to date the same way, so canonical is a minimum of
 *               two numbers.
 *
 * Tier solver fast path (TierOps.expand_run, without `sym`): a tier walked
 * in index order, the heights decoded once per block and the colours
 * stepped in colex order (c4_expand_run). The x bitboard is one BMI2 pdep
 * in a clone chosen at run time when the processor has BMI2 and POPCNT, a
 * portable loop otherwise; the environment variable GAMESMAN_C4_NO_PDEP
 * (any value), read when the game is created, forces the portable loop,
 * so the tests run both branches on every host (tests/test_tier.c).
 *
 * Options: w, h (1..16), k (1..16, at most max(w, h)), misere, sym (store
 * one position per pair of left-right mirror images), tromp (the compact
 * Boolean encoding for symbolic solvers; nothing else changes). Boards whose hash
 * space reaches 2^63 are refused with its size.
 *
 * Position text (format/parse, --query): the rows from the top, each w
 * cells of x, o or -, separated by '/': "----/----/-o--/-xx-" (4x4).
 * parse refuses boards that cannot arise in play: floating pieces, wrong
 * counts, lines of both players or of the player to move, and any board
 * no alternating order of drops reaches without an earlier line.
 *
 * Bounds: at most w moves per position, at most w h plies.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "games/encoding.h"
#include "games/game.h"
#include "hash/colhash.h"

enum { C4_MAX_COLS = COLHASH_MAX_COLS, C4_MAX_CELLS = COLHASH_MAX_CELLS };
enum { X_PLAYER = 0, O_PLAYER = 1 };
enum { DIR_UP, DIR_RIGHT, DIR_UP_RIGHT, DIR_DOWN_RIGHT, DIRS };

typedef struct C4 {
    ColHash hash;
    int w, h, k, cells;
    bool misere;
    int ndirs;             /* directions in which a line of k fits on the board */
    int dirs[DIRS];        /* those directions */
    int delta[DIRS];       /* bit distance of one step in each direction */
    uint64_t starts[DIRS]; /* cells where a line of k in that direction starts */
    /* The lines through one cell, for line_through: window[p][d] holds the
     * cells within k-1 steps of cell p along direction d, both ways (none
     * when no line of k fits that way); window[p][DIR_UP] holds the k cells
     * ending at p (none below row k-1). shift[d][0..nshift) are the
     * shift-ands that find k in a row (runs_of_k's steps). */
    uint64_t window[C4_MAX_CELLS][DIRS];
    int nshift;
    uint8_t shift[DIRS][8];
    bool pdep;       /* the CPU has BMI2 and POPCNT (the tier fast path's pdep clone), and
                      * GAMESMAN_C4_NO_PDEP is not set */
    EncBuilder *enc; /* the Boolean encoding (symbolic solvers) */
} C4;

static const C4 *c4(const Game *g) { return g->self; }

/* ------------------------------------------------------------------ board */

/* A decoded board: the hash parts (hash/colhash.h) and the two bitboards. */
typedef struct Board {
    ColHashCursor cur;
    uint64_t mine[2]; /* pieces of x and of o */
} Board;

static uint64_t low_bits(int n) { return n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1; }

/* x's bitboard from the colour sequence: column c's pieces are the next
 * heights[c] bits of the sequence; o has the other filled cells. O(w). */
static void board_from_cursor(const C4 *t, Board *b) {
    uint64_t seq = b->cur.colours, x = 0;
    for (int c = 0; c < t->w; c++) {
        x |= (seq & low_bits(b->cur.heights[c])) << (c * t->h);
        seq >>= b->cur.heights[c];
    }
    b->mine[X_PLAYER] = x;
    b->mine[O_PLAYER] = b->cur.occupied & ~x;
}

/* The colour sequence of x's pieces read column by column, in the given
 * column order (forward, or mirrored for the left-right image). */
static uint64_t colours_of(const C4 *t, const uint8_t *heights, uint64_t x, bool mirrored) {
    uint64_t seq = 0;
    for (int i = t->w - 1; i >= 0; i--) {
        int c = mirrored ? t->w - 1 - i : i;
        seq = (seq << heights[c]) | ((x >> (c * t->h)) & low_bits(heights[c]));
    }
    return seq;
}

static void mirror_heights(const C4 *t, const uint8_t *heights, uint8_t *out) {
    for (int c = 0; c < t->w; c++) {
        out[t->w - 1 - c] = heights[c];
    }
}

/* Starts of runs of k along direction d in x: t->nshift shift-ands that
 * double the run length (then top it up to k), O(log k). Bit s of the
 * result is the AND of bits s, s + delta, ..., s + (k-1) delta of x. */
static uint64_t runs_of_k(const C4 *t, uint64_t x, int d) {
    for (int i = 0; i < t->nshift; i++) {
        x &= x >> t->shift[d][i];
    }
    return x;
}

/* True when b holds k in a row anywhere: the whole board at once, per
 * direction, kept to the cells where a line of k starts on the board. */
static bool has_line(const C4 *t, uint64_t b) {
    uint64_t found = 0;
    for (int i = 0; i < t->ndirs; i++) {
        int d = t->dirs[i];
        found |= runs_of_k(t, b, d) & t->starts[d];
    }
    return found != 0;
}

/* True when the piece on cell p of b is part of k in a row of b: only the
 * lines through that cell (per direction, the window of up to 2k-1 cells
 * around it, where a run of k must contain p); nothing lies above a piece
 * just dropped, so the vertical line is one mask test. Branch-free but for
 * the fixed-count loop. */
static bool line_through(const C4 *t, uint64_t b, int p) {
    const uint64_t *win = t->window[p];
    uint64_t up = win[DIR_UP];
    uint64_t x1 = b & win[DIR_RIGHT], x2 = b & win[DIR_UP_RIGHT], x3 = b & win[DIR_DOWN_RIGHT];
    for (int i = 0; i < t->nshift; i++) {
        x1 &= x1 >> t->shift[DIR_RIGHT][i];
        x2 &= x2 >> t->shift[DIR_UP_RIGHT][i];
        x3 &= x3 >> t->shift[DIR_DOWN_RIGHT][i];
    }
    return (up != 0 && (b & up) == up) | ((x1 | x2 | x3) != 0);
}

/* A line ends the game; reachable positions have at most the last mover's. */
static Value end_value(const C4 *t) { return t->misere ? VALUE_WIN : VALUE_LOSE; }

static Value board_primitive(const C4 *t, const Board *b) {
    if (has_line(t, b->mine[X_PLAYER]) || has_line(t, b->mine[O_PLAYER])) {
        return end_value(t);
    }
    return b->cur.n == t->cells ? VALUE_TIE : VALUE_UNDECIDED;
}

/* Moves are listed from the last column down, in every family. The height
 * rank has column 0 as its most significant digit, so a drop in a late
 * column lands near its parent's block of the array: a depth-first solver
 * that tries those first keeps its working set close together. On 5x4 this
 * order cuts the misses of a simulated 512 KiB cache ninefold against
 * ascending columns (valgrind --tool=cachegrind --cache-sim=yes
 * --LL=524288,8,64 on bin/solve connect4:w=5,h=4 --solver gps-cached: 4.16
 * million to 0.48 million) and the solve time by a third. */
static int board_moves(const C4 *t, const uint8_t *heights, Move *moves) {
    int n = 0;
    for (int c = t->w - 1; c >= 0; c--) {
        if (heights[c] < t->h) {
            moves[n++] = c;
        }
    }
    return n;
}

static void unhash_board(const C4 *t, Position pos, Board *b) {
    colhash_cursor_set(&t->hash, &b->cur, pos);
    board_from_cursor(t, b);
}

/* The position of the mirror image of b (one hash). */
static Position mirror_position(const C4 *t, const Board *b) {
    uint8_t mh[C4_MAX_COLS];
    mirror_heights(t, b->cur.heights, mh);
    return colhash_hash(&t->hash, mh, b->cur.n,
                        colours_of(t, b->cur.heights, b->mine[X_PLAYER], true));
}

static char cell_char(const C4 *t, const Board *b, int c, int r) {
    uint64_t bit = UINT64_C(1) << (c * t->h + r);
    return (b->mine[X_PLAYER] & bit) ? 'x' : (b->mine[O_PLAYER] & bit) ? 'o' : '-';
}

/* -------------------------------------------------------- stateless family */

static Value c4_primitive(const Game *g, Position pos) {
    Board b;
    unhash_board(c4(g), pos, &b);
    return board_primitive(c4(g), &b);
}

static int c4_generate_moves(const Game *g, Position pos, Move *moves) {
    uint8_t heights[C4_MAX_COLS];
    uint64_t colours;
    colhash_unhash(&c4(g)->hash, pos, heights, &colours);
    return board_moves(c4(g), heights, moves);
}

/* One unhash into a cursor, one drop (one hash). */
static Position c4_do_move(const Game *g, Position pos, Move move) {
    const C4 *t = c4(g);
    ColHashCursor cur;
    ColHashUndo undo;
    colhash_cursor_set(&t->hash, &cur, pos);
    return colhash_cursor_drop(&t->hash, &cur, move, &undo);
}

static int c4_turn(const Game *g, Position pos) {
    return colhash_tier(&c4(g)->hash, pos) & 1; /* the tier is the piece count */
}

static Position c4_canonical(const Game *g, Position pos) {
    Board b;
    unhash_board(c4(g), pos, &b);
    Position m = mirror_position(c4(g), &b);
    return m < pos ? m : pos;
}

static void c4_format(const Game *g, Position pos, char *buf, size_t n) {
    const C4 *t = c4(g);
    Board b;
    unhash_board(t, pos, &b);
    char text[C4_MAX_CELLS * 2 + 32];
    size_t at = 0;
    for (int r = t->h - 1; r >= 0; r--) {
        for (int c = 0; c < t->w; c++) {
            text[at++] = cell_char(t, &b, c, r);
        }
        if (r > 0) {
            text[at++] = '/';
        }
    }
    text[at] = '\0';
    snprintf(buf, n, "%s", text);
}

static void c4_print(const Game *g, Position pos, char *buf, size_t n) {
    const C4 *t = c4(g);
    Board b;
    unhash_board(t, pos, &b);
    Value v = board_primitive(t, &b);
    int cw = t->w >= 10 ? 3 : 2; /* cell width: room for two-digit column numbers */
    char text[GAME_TEXT_MAX];
    size_t at = 0;
    for (int r = t->h - 1; r >= 0; r--) {
        for (int c = 0; c < t->w; c++) {
            at += (size_t)snprintf(text + at, sizeof text - at, "%*c", cw, cell_char(t, &b, c, r));
        }
        text[at++] = '\n';
    }
    for (int c = 0; c < t->w; c++) {
        at += (size_t)snprintf(text + at, sizeof text - at, "%*d", cw, c + 1);
    }
    snprintf(text + at, sizeof text - at, "\n%s\n",
             v != VALUE_UNDECIDED ? "game over"
             : (b.cur.n & 1)      ? "o to move"
                                  : "x to move");
    snprintf(buf, n, "%s", text);
}

static void c4_move_name(const Game *g, Position pos, Move move, char *buf, size_t n) {
    (void)g;
    (void)pos;
    snprintf(buf, n, "%d", (int)move + 1);
}

/* ------------------------------------------------------------------ parse */

/* Open-addressing set of occupancy bitboards (never 0: the empty board is
 * always reachable), for the height vectors the legality search has
 * already refuted. */
typedef struct OccSet {
    uint64_t *keys;
    size_t cap, count;
} OccSet;

enum { PEEL_MAX_STATES = 1 << 21 };

static bool occ_set_has(const OccSet *s, uint64_t key) {
    for (size_t i = (key * 0x9E3779B97F4A7C15ull) >> 20 & (s->cap - 1);;
         i = (i + 1) & (s->cap - 1)) {
        if (s->keys[i] == key) {
            return true;
        }
        if (s->keys[i] == 0) {
            return false;
        }
    }
}

/* Adds key; false when out of memory. */
static bool occ_set_add(OccSet *s, uint64_t key) {
    if (2 * (s->count + 1) > s->cap) {
        size_t cap = s->cap * 2;
        uint64_t *keys = calloc(cap, sizeof *keys);
        if (keys == NULL) {
            return false;
        }
        OccSet grown = {keys, cap, 0};
        for (size_t i = 0; i < s->cap; i++) {
            if (s->keys[i] != 0) {
                occ_set_add(&grown, s->keys[i]);
            }
        }
        free(s->keys);
        *s = grown;
    }
    size_t i = (key * 0x9E3779B97F4A7C15ull) >> 20 & (s->cap - 1);
    while (s->keys[i] != 0) {
        i = (i + 1) & (s->cap - 1);
    }
    s->keys[i] = key;
    s->count++;
    return true;
}

typedef struct Peel {
    const C4 *t;
    uint64_t mine[2];
    OccSet failed;
    bool gave_up; /* out of memory or past PEEL_MAX_STATES */
} Peel;

/* True when the pieces below `heights` (n of them, no line among them)
 * can be dropped in an alternating order from x: the last one dropped is
 * a top piece of the last mover; memoized on the refuted boards. */
static bool peelable(Peel *pl, uint8_t *heights, int n, uint64_t occ) {
    if (n == 0) {
        return true;
    }
    if (occ_set_has(&pl->failed, occ)) {
        return false;
    }
    const C4 *t = pl->t;
    uint64_t last = pl->mine[(n - 1) & 1];
    for (int c = 0; c < t->w && !pl->gave_up; c++) {
        if (heights[c] == 0) {
            continue;
        }
        uint64_t top = UINT64_C(1) << (c * t->h + heights[c] - 1);
        if ((last & top) == 0) {
            continue;
        }
        heights[c]--;
        bool ok = peelable(pl, heights, n - 1, occ & ~top);
        heights[c]++;
        if (ok) {
            return true;
        }
    }
    if (pl->failed.count >= PEEL_MAX_STATES || !occ_set_add(&pl->failed, occ)) {
        pl->gave_up = true;
    }
    return false;
}

/* Whether the board (n pieces, no floating ones, counts alternating from
 * x) arises in play. With a line, the last mover must have made it with
 * the last drop: some top piece of theirs whose removal leaves no line. */
static ErrCode check_reachable(const C4 *t, uint8_t *heights, int n, const uint64_t *mine,
                               const char *text, Error *err) {
    Peel pl = {.t = t, .mine = {mine[0], mine[1]}};
    pl.failed.cap = 1024;
    pl.failed.keys = calloc(pl.failed.cap, sizeof *pl.failed.keys);
    if (pl.failed.keys == NULL) {
        return error_set(err, ERR_MEMORY, "out of memory checking a connect4 position");
    }
    uint64_t occ = mine[0] | mine[1];
    int last = (n - 1) & 1;
    bool ok = false;
    if (n > 0 && has_line(t, mine[last])) {
        for (int c = 0; c < t->w && !ok && !pl.gave_up; c++) {
            if (heights[c] == 0) {
                continue;
            }
            uint64_t top = UINT64_C(1) << (c * t->h + heights[c] - 1);
            if ((mine[last] & top) == 0 || has_line(t, mine[last] & ~top)) {
                continue;
            }
            heights[c]--;
            pl.mine[last] &= ~top;
            ok = peelable(&pl, heights, n - 1, occ & ~top);
            pl.mine[last] |= top;
            heights[c]++;
        }
    } else {
        ok = peelable(&pl, heights, n, occ);
    }
    bool gave_up = pl.gave_up;
    free(pl.failed.keys);
    if (gave_up && !ok) {
        return error_set(err, ERR_USAGE,
                         "'%s': cannot decide within %d board states whether this position "
                         "arises in play",
                         text, PEEL_MAX_STATES);
    }
    if (!ok) {
        return error_set(err, ERR_USAGE,
                         "'%s' cannot arise in play: no order of alternating drops from x "
                         "reaches it without ending the game earlier",
                         text);
    }
    return ERR_OK;
}

static ErrCode shape_error(const C4 *t, const char *text, const char *what, Error *err) {
    char example[C4_MAX_CELLS * 2 + 32];
    size_t at = 0;
    for (int r = t->h - 1; r >= 0; r--) {
        for (int c = 0; c < t->w; c++) {
            example[at++] = (r == 0 && c == t->w / 2) ? 'x' : '-';
        }
        if (r > 0) {
            example[at++] = '/';
        }
    }
    example[at] = '\0';
    return error_set(err, ERR_USAGE,
                     "a connect4 position is %d rows of %d cells from the top, separated by "
                     "'/', each x, o or - (empty), x moving first (e.g. %s); '%s' %s",
                     t->h, t->w, example, text, what);
}

static ErrCode c4_parse(const Game *g, const char *text, Position *pos, Error *err) {
    const C4 *t = c4(g);
    size_t len = strlen(text);
    if (len != (size_t)(t->h * (t->w + 1) - 1)) {
        return shape_error(t, text, "has the wrong length", err);
    }
    uint64_t mine[2] = {0, 0};
    int count[2] = {0, 0};
    for (int r = t->h - 1, at = 0; r >= 0; r--) {
        for (int c = 0; c < t->w; c++, at++) {
            uint64_t bit = UINT64_C(1) << (c * t->h + r);
            switch (text[at]) {
            case 'x':
            case 'X':
                mine[X_PLAYER] |= bit;
                count[X_PLAYER]++;
                break;
            case 'o':
            case 'O':
                mine[O_PLAYER] |= bit;
                count[O_PLAYER]++;
                break;
            case '-':
            case '.':
                break;
            default:
                return error_set(err, ERR_USAGE,
                                 "'%c' at column %d, row %d from the top of '%s' is not x, o or - "
                                 "(empty)",
                                 text[at], c + 1, t->h - r, text);
            }
        }
        if (r > 0 && text[at++] != '/') {
            return shape_error(t, text, "does not separate its rows with '/'", err);
        }
    }
    uint64_t occ = mine[X_PLAYER] | mine[O_PLAYER];
    uint8_t heights[C4_MAX_COLS] = {0};
    for (int c = 0; c < t->w; c++) {
        uint64_t col = (occ >> (c * t->h)) & low_bits(t->h);
        heights[c] = (uint8_t)__builtin_popcountll(col);
        if (col != low_bits(heights[c])) {
            return error_set(err, ERR_USAGE,
                             "'%s': a piece in column %d floats above an empty cell", text, c + 1);
        }
    }
    if (count[X_PLAYER] != count[O_PLAYER] && count[X_PLAYER] != count[O_PLAYER] + 1) {
        return error_set(err, ERR_USAGE,
                         "'%s' has %d x and %d o; x moves first, so x must have as many as o "
                         "or one more",
                         text, count[X_PLAYER], count[O_PLAYER]);
    }
    int n = count[X_PLAYER] + count[O_PLAYER];
    bool xl = has_line(t, mine[X_PLAYER]), ol = has_line(t, mine[O_PLAYER]);
    if (xl && ol) {
        return error_set(err, ERR_USAGE,
                         "'%s' cannot arise in play: both players have %d in a row, and the "
                         "game ends at the first line",
                         text, t->k);
    }
    int last = (n - 1) & 1;
    if ((xl && last != X_PLAYER) || (ol && last != O_PLAYER)) {
        return error_set(err, ERR_USAGE,
                         "'%s' cannot arise in play: %c has %d in a row but %c moved last", text,
                         xl ? 'x' : 'o', t->k, last == X_PLAYER ? 'x' : 'o');
    }
    ErrCode rc = check_reachable(t, heights, n, mine, text, err);
    if (rc != ERR_OK) {
        return rc;
    }
    *pos = colhash_hash(&t->hash, heights, n, colours_of(t, heights, mine[X_PLAYER], false));
    return ERR_OK;
}

static const GameOps c4_ops = {
    .primitive = c4_primitive,
    .generate_moves = c4_generate_moves,
    .do_move = c4_do_move,
    .turn = c4_turn,
    .canonical = c4_canonical,
    .format = c4_format,
    .parse = c4_parse,
    .print = c4_print,
    .move_name = c4_move_name,
};

/* -------------------------------------------------------------- GPS family */

/* What undo needs: the hash parts before the move, and the column. */
typedef struct GpsUndo {
    ColHashUndo hash;
    uint8_t col;
} GpsUndo;

typedef struct C4Gps {
    const C4 *t;
    Board b; /* the board and its hash parts, kept up to date by drops */
    int nhist;
    GpsUndo hist[C4_MAX_CELLS];
} C4Gps;

static GpsState *gps_create(const Game *g, Error *err) {
    C4Gps *s = mem_calloc(1, sizeof *s, "a connect4 GPS state", err);
    if (s == NULL) {
        return NULL;
    }
    s->t = c4(g);
    s->b.cur.pos = g->initial; /* the empty board: every part is zero */
    return (GpsState *)s;
}

static void gps_destroy(GpsState *st) { free(st); }

static void gps_set(GpsState *st, Position pos) {
    C4Gps *s = (C4Gps *)st;
    unhash_board(s->t, pos, &s->b);
    s->nhist = 0;
}

static Position gps_position(GpsState *st) { return ((C4Gps *)st)->b.cur.pos; }

static Value gps_primitive_scan(GpsState *st) {
    C4Gps *s = (C4Gps *)st;
    return board_primitive(s->t, &s->b);
}

static int gps_moves_scan(GpsState *st, Move *moves) {
    C4Gps *s = (C4Gps *)st;
    return board_moves(s->t, s->b.cur.heights, moves);
}

static Position gps_do(GpsState *st, Move move) {
    C4Gps *s = (C4Gps *)st;
    const C4 *t = s->t;
    Board *b = &s->b;
    GpsUndo *u = &s->hist[s->nhist++];
    u->col = (uint8_t)move;
    b->mine[b->cur.n & 1] |= UINT64_C(1) << (move * t->h + b->cur.heights[move]);
    return colhash_cursor_drop(&t->hash, &b->cur, move, &u->hash);
}

static void gps_undo(GpsState *st) {
    C4Gps *s = (C4Gps *)st;
    Board *b = &s->b;
    const GpsUndo *u = &s->hist[--s->nhist];
    colhash_cursor_lift(&s->t->hash, &b->cur, u->col, &u->hash);
    b->mine[b->cur.n & 1] &= ~(UINT64_C(1) << (u->col * s->t->h + b->cur.heights[u->col]));
}

static Position gps_canonical(GpsState *st) {
    C4Gps *s = (C4Gps *)st;
    Position m = mirror_position(s->t, &s->b);
    return m < s->b.cur.pos ? m : s->b.cur.pos;
}

static int gps_turn(GpsState *st) { return ((C4Gps *)st)->b.cur.n & 1; }

static const GpsOps c4_gps = {
    .create = gps_create,
    .destroy = gps_destroy,
    .set = gps_set,
    .position = gps_position,
    .primitive = gps_primitive_scan,
    .generate_moves = gps_moves_scan,
    .do_move = gps_do,
    .undo_move = gps_undo,
    .canonical = gps_canonical,
    .turn = gps_turn,
};

/* ------------------------------------------------------- GPS-cached family */

/* The win flag: whether the last move made k in a row. */
enum { WON_UNKNOWN = -1, WON_NO = 0, WON_YES = 1 };

/* The whole mutable state. do_move pushes a copy and undo_move pops it:
 * two copies of some 120 bytes in L1 cost less than undoing each part. */
typedef struct CachedFrame {
    Board b;
    uint32_t open; /* bit c: column c is not full (the free-move list) */
    int8_t won;    /* WON_*: the last move made k in a row (cached) */
    uint8_t last;  /* the column of the last move (when nhist > 0) */
} CachedFrame;

typedef struct C4Cached {
    const C4 *t;
    bool symmetric;
    CachedFrame now;
    ColHashCursor mirror; /* the mirror image's hash parts, when symmetric */
    int nhist;
    CachedFrame hist[C4_MAX_CELLS];
    ColHashCursor mirror_hist[C4_MAX_CELLS];
} C4Cached;

static GpsState *cached_create(const Game *g, Error *err) {
    C4Cached *s = mem_calloc(1, sizeof *s, "a connect4 GPS-cached state", err);
    if (s == NULL) {
        return NULL;
    }
    s->t = c4(g);
    s->symmetric = g->symmetric;
    s->now.b.cur.pos = s->mirror.pos = g->initial;
    s->now.open = (uint32_t)low_bits(s->t->w);
    return (GpsState *)s;
}

/* The one unhash; the caches (free columns, win flag, mirror parts) are
 * derived from the board: set may scan. */
static void cached_set(GpsState *st, Position pos) {
    C4Cached *s = (C4Cached *)st;
    const C4 *t = s->t;
    CachedFrame *f = &s->now;
    unhash_board(t, pos, &f->b);
    const ColHashCursor *cur = &f->b.cur;
    f->open = 0;
    for (int c = 0; c < t->w; c++) {
        f->open |= (uint32_t)(cur->heights[c] < t->h) << c;
    }
    f->won =
        has_line(t, f->b.mine[X_PLAYER]) || has_line(t, f->b.mine[O_PLAYER]) ? WON_YES : WON_NO;
    if (s->symmetric) {
        uint8_t mh[C4_MAX_COLS];
        mirror_heights(t, cur->heights, mh);
        colhash_cursor_load(&t->hash, &s->mirror, mh,
                            colours_of(t, cur->heights, f->b.mine[X_PLAYER], true));
    }
    s->nhist = 0;
}

static Position cached_position(GpsState *st) { return ((C4Cached *)st)->now.b.cur.pos; }

/* Only the lines through the last piece can be new (the game went on
 * before it), so the first call after a move checks just those and caches
 * the answer. The check is made here rather than in do_move because a
 * memoized solver calls do_move on every edge but primitive only on
 * positions it has not solved yet (5x4: 8.8 million edges, 3.9 million
 * positions): a transposition's lines are never looked at. */
static Value cached_primitive(GpsState *st) {
    C4Cached *s = (C4Cached *)st;
    const C4 *t = s->t;
    CachedFrame *f = &s->now;
    if (f->won == WON_UNKNOWN) {
        const ColHashCursor *cur = &f->b.cur;
        int c = f->last;
        f->won = line_through(t, f->b.mine[(cur->n - 1) & 1], c * t->h + cur->heights[c] - 1)
                     ? WON_YES
                     : WON_NO;
    }
    if (f->won == WON_YES) {
        return end_value(t);
    }
    return f->open == 0 ? VALUE_TIE : VALUE_UNDECIDED;
}

/* The open columns, last first (as board_moves). */
static int cached_moves(GpsState *st, Move *moves) {
    int n = 0;
    for (uint32_t open = ((C4Cached *)st)->now.open; open != 0; n++) {
        int c = 31 - __builtin_clz(open);
        moves[n] = c;
        open ^= UINT32_C(1) << c;
    }
    return n;
}

static Position cached_do(GpsState *st, Move move) {
    C4Cached *s = (C4Cached *)st;
    const C4 *t = s->t;
    CachedFrame *f = &s->now;
    ColHashCursor *cur = &f->b.cur;
    if (s->symmetric) {
        s->mirror_hist[s->nhist] = s->mirror;
        colhash_cursor_drop(&t->hash, &s->mirror, t->w - 1 - move, NULL);
    }
    s->hist[s->nhist++] = *f;
    int r = cur->heights[move];
    f->b.mine[cur->n & 1] |= UINT64_C(1) << (move * t->h + r);
    f->won = WON_UNKNOWN;
    f->last = (uint8_t)move;
    if (r + 1 == t->h) {
        f->open &= ~(UINT32_C(1) << move);
    }
    return colhash_cursor_drop(&t->hash, cur, move, NULL);
}

static void cached_undo(GpsState *st) {
    C4Cached *s = (C4Cached *)st;
    s->now = s->hist[--s->nhist];
    if (s->symmetric) {
        s->mirror = s->mirror_hist[s->nhist];
    }
}

static Position cached_canonical(GpsState *st) {
    C4Cached *s = (C4Cached *)st;
    return s->mirror.pos < s->now.b.cur.pos ? s->mirror.pos : s->now.b.cur.pos;
}

static int cached_turn(GpsState *st) { return ((C4Cached *)st)->now.b.cur.n & 1; }

static const GpsOps c4_gps_cached = {
    .create = cached_create,
    .destroy = gps_destroy,
    .set = cached_set,
    .position = cached_position,
    .primitive = cached_primitive,
    .generate_moves = cached_moves,
    .do_move = cached_do,
    .undo_move = cached_undo,
    .canonical = cached_canonical,
    .turn = cached_turn,
};

/* ------------------------------------------------------------------- tiers */

/* Tier n = pieces on the board; a move goes from n to n + 1. */
static int tier_count(const Game *g) { return c4(g)->cells + 1; }

static uint64_t tier_size(const Game *g, int tier) { return colhash_tier_size(&c4(g)->hash, tier); }

static int tier_of(const Game *g, Position pos) { return colhash_tier(&c4(g)->hash, pos); }

static int tier_children(const Game *g, int tier, int *child_tiers) {
    if (tier >= c4(g)->cells) {
        return 0;
    }
    child_tiers[0] = tier + 1;
    return 1;
}

static Position tier_first(const Game *g, int tier) { return c4(g)->hash.first[tier]; }

/* TierOps.name: "ply17", the pieces on the board (the moves played). */
static void tier_name(const Game *g, int tier, char *buf, size_t n) {
    (void)g;
    snprintf(buf, n, "ply%d", tier);
}
/* A block: one vector of column heights, its C(n, ceil(n/2)) colourings. */
static uint64_t tier_block_size(const Game *g, int tier) { return c4(g)->hash.colourings[tier]; }

/* The next n-bit sequence with the same number of ones in colex order, which
 * is numeric order (Gosper's hack, the division replaced by a shift). */
static inline uint64_t next_colouring(uint64_t x) {
    uint64_t low = x & -x, r = x + low;
    return r | (((x ^ r) >> 2) >> __builtin_ctzll(x));
}

/* The tier solver's fast path (TierOps.expand_run; not with `sym`, whose
 * children need the mirror's hash). A tier's slots run height vector by
 * height vector, and within one the colour sequences in colex order, which
 * is numeric order. So a walk in index order decodes the heights once per
 * block (the open columns, where a dropped piece enters the colour
 * sequence, and the base of each child's block follow from them) and
 * steps the colour sequence to the next marked slot with Gosper's hack, or
 * unranks it when the gap is long. Per position: the x bitboard (O(w)),
 * both players' line scans (as cached_set), and per open column one
 * combi_insert_core for the child's colour rank, as a drop computes it.
 * The children are the GPS family's, in its order (last column first),
 * and it counts what the GPS-cached family counts for the same solve
 * (game.h). The tests compare it with `tier:generic`, database and
 * counters. */
enum { GAP_STEPS = 8 }; /* a longer gap unranks instead of stepping */

/* has_line when a line takes two shift-ands (k = 3 or 4): all four
 * directions unrolled, branch-free (a direction where no line fits has
 * shifts 0 and no starts, so it adds nothing). */
static inline __attribute__((always_inline)) bool has_line2(const C4 *t, uint64_t b) {
    uint64_t found = 0;
    for (int d = 0; d < DIRS; d++) {
        uint64_t x = b & (b >> t->shift[d][0]);
        found |= x & (x >> t->shift[d][1]) & t->starts[d];
    }
    return found != 0;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define C4_PDEP 1
/* Called only from the BMI2 clone below, where it inlines. */
__attribute__((target("bmi2"))) static inline uint64_t deposit(uint64_t v, uint64_t mask) {
    return _pdep_u64(v, mask);
}
#endif

static inline __attribute__((always_inline)) void
expand_run_body(const Game *g, int tier, const uint64_t *reach, uint64_t lo, uint64_t hi,
                TierExpandVisit visit, void *ctx, bool pdep) {
    const C4 *t = c4(g);
    const ColHash *h = &t->hash;
    const int n = tier;
    const uint64_t colourings = h->colourings[n];
    const int ones = (n + 1) / 2;
    const int bit = !(n & 1); /* the dropped piece is x's when n is even */
    TierExpansion e;
    e.winby = 0;
    e.turn = n & 1;
    /* The current block (height vector) and colour sequence. */
    uint64_t block_lo = 1, block_hi = 0; /* [block_lo, block_hi): none yet */
    uint8_t heights[C4_MAX_COLS] = {0};
    uint64_t occupied = 0;
    int nopen = 0;
    int col_q[C4_MAX_COLS];         /* per open column, last first: the insertion index */
    uint64_t col_low[C4_MAX_COLS];  /* ones below it: the mask of indices < q */
    Position col_base[C4_MAX_COLS]; /* the child block's first position */
    uint64_t colours = 0, rank = 0; /* rank: colex rank of colours within the block */
    for (uint64_t w = lo / 64; w * 64 < hi; w++) {
        /* reach starts at word lo / 64 (game.h) */
        uint64_t bits = game_bits_in(reach[w - lo / 64], w, lo, hi);
        for (; bits != 0; bits &= bits - 1) {
            uint64_t i = w * 64 + (uint64_t)__builtin_ctzll(bits);
            STAT_INC(unhash);
            if (i < block_lo || i >= block_hi) {
                uint64_t hr = i / colourings;
                block_lo = hr * colourings;
                block_hi = block_lo + colourings;
                memset(heights, 0, sizeof heights);
                compositions_unrank_core(&h->heights, hr, n, heights);
                occupied = 0;
                nopen = 0;
                int pieces_upto[C4_MAX_COLS];
                for (int c = 0, pieces = 0; c < t->w; c++) {
                    occupied |= low_bits(heights[c]) << (c * t->h);
                    pieces += heights[c];
                    pieces_upto[c] = pieces;
                }
                for (int c = t->w - 1; c >= 0; c--) {
                    if (heights[c] == t->h) {
                        continue;
                    }
                    col_q[nopen] = pieces_upto[c];
                    col_low[nopen] = low_bits(pieces_upto[c]);
                    heights[c]++;
                    col_base[nopen] =
                        h->first[n + 1] +
                        compositions_rank_core(&h->heights, heights, n + 1) * h->colourings[n + 1];
                    heights[c]--;
                    nopen++;
                }
                rank = i - block_lo;
                colours = combi_unrank_core(&h->binom, rank, n, ones);
            } else if (i - block_lo - rank <= GAP_STEPS) {
                for (; rank < i - block_lo; rank++) {
                    colours = next_colouring(colours);
                }
            } else {
                rank = i - block_lo;
                colours = combi_unrank_core(&h->binom, rank, n, ones);
            }
            /* The last mover's bitboard: column c's pieces are the next
             * heights[c] bits of the colour sequence (x's pieces), which
             * pdep deposits into the occupied cells in one instruction. */
            uint64_t x = 0;
#ifdef C4_PDEP
            if (pdep) {
                x = deposit(colours, occupied);
            }
#endif
            if (!pdep) {
                uint64_t seq = colours;
                for (int c = 0; c < t->w; c++) {
                    x |= (seq & low_bits(heights[c])) << (c * t->h);
                    seq >>= heights[c];
                }
            }
            uint64_t last = n & 1 ? x : occupied & ~x;
            STAT_INC(primitive);
            e.n = 0;
            /* Only the last mover can have a line: the visited positions
             * are reachable, and the player to move made no line with the
             * pieces it has (the game went on). Fewer than k pieces make
             * none. */
            if (n >= 2 * t->k - 1 && (t->nshift == 2 ? has_line2(t, last) : has_line(t, last))) {
                e.primitive = end_value(t);
            } else if (nopen == 0) {
                e.primitive = VALUE_TIE;
            } else {
                e.primitive = VALUE_UNDECIDED;
                STAT_INC(generate_moves);
                /* combi_insert_core's rank for every open column at once:
                 * a one at index s, the j-th one, adds C(s, j + 2) (an x
                 * piece dropped) or C(s, j) (an o piece) whatever q is, so
                 * the sum over the ones at or above q grows as q goes down
                 * the columns (last column first): each one is added once
                 * per position instead of once per child. */
                const uint64_t *by_k = &h->binom.by_k[0][0];
                const int stride = COMBI_MAX_N + 1, shift = bit ? 1 : -1;
                uint64_t above = 0, upper = ~UINT64_C(0);
                for (int k = 0; k < nopen; k++) {
                    int below = __builtin_popcountll(colours & col_low[k]);
                    const uint64_t *row = by_k + (below + 1 + shift) * stride;
                    for (uint64_t mid = colours & upper & ~col_low[k]; mid != 0;
                         row += stride, mid &= mid - 1) {
                        above += row[__builtin_ctzll(mid)];
                    }
                    upper = col_low[k];
                    uint64_t inserted = bit ? by_k[(below + 1) * stride + col_q[k]] : 0;
                    e.child[k] = col_base[k] + rank + above + inserted;
                }
                e.n = nopen;
                STAT_ADD(do_move, nopen);
                STAT_ADD(hash, nopen);
                STAT_ADD(undo_move, nopen);
            }
            visit(ctx, i, h->first[n] + i, &e);
        }
    }
}

#ifdef C4_PDEP
/* The body compiled for BMI2 (pdep) and POPCNT, chosen at run time. */
__attribute__((target("bmi2,popcnt"))) static void
expand_run_bmi2(const Game *g, int tier, const uint64_t *reach, uint64_t lo, uint64_t hi,
                TierExpandVisit visit, void *ctx) {
    expand_run_body(g, tier, reach, lo, hi, visit, ctx, true);
}
#endif

static void c4_expand_run(const Game *g, int tier, const uint64_t *reach, uint64_t lo, uint64_t hi,
                          TierExpandVisit visit, void *ctx) {
#ifdef C4_PDEP
    if (c4(g)->pdep) {
        expand_run_bmi2(g, tier, reach, lo, hi, visit, ctx);
        return;
    }
#endif
    expand_run_body(g, tier, reach, lo, hi, visit, ctx, false);
}

static const TierOps c4_tiers = {
    .count = tier_count,
    .size = tier_size,
    .tier_of = tier_of,
    .children = tier_children,
    .first = tier_first,
    .expand_run = c4_expand_run,
    .name = tier_name,
    .block_size = tier_block_size,
};

/* With `sym`: no fast path. */
static const TierOps c4_tiers_sym = {
    .count = tier_count,
    .size = tier_size,
    .tier_of = tier_of,
    .children = tier_children,
    .first = tier_first,
    .name = tier_name,
    .block_size = tier_block_size,
};

/* ---------------------------------------------------------------- encoding */

/* The Boolean encoding (games/game.h GameEncoding) for symbolic solvers:
 * variable 0 is the side to move (1: o), then per cell, column by column
 * and bottom to top (cell bit b = c*h + r), "occupied" (1 + 2b) and "owner"
 * (2 + 2b, 1: o; 0 in an empty cell), so a column's variables sit together
 * in the BDD order. A drop into column c is one move per row r: pre: cell
 * (c, r) empty, the cell below occupied (r > 0), the mover to move; set:
 * the cell occupied and owned by the mover, the turn flipped. Primitive: a
 * line of k of the player who just moved (end_value), then a full board
 * (tie). 2wh + 1 variables, 2wh moves. */
static int occ_var(int bit) { return 1 + 2 * bit; }
static int own_var(int bit) { return 2 + 2 * bit; }

static Position c4_enc_position(const Game *g, const uint8_t *values) {
    const C4 *t = c4(g);
    uint8_t heights[C4_MAX_COLS] = {0};
    uint64_t x = 0;
    int n = 0;
    for (int c = 0; c < t->w; c++) {
        for (int r = 0; r < t->h; r++) {
            int bit = c * t->h + r;
            if (values[occ_var(bit)]) {
                heights[c]++;
                n++;
                x |= (uint64_t)(values[own_var(bit)] == 0) << bit;
            }
        }
    }
    return colhash_hash(&t->hash, heights, n, colours_of(t, heights, x, false));
}

/* The inverse of c4_enc_position (GameEncoding.values): the ply is the
 * piece count. O(cells). */
static int c4_enc_values(const Game *g, Position pos, uint8_t *values) {
    const C4 *t = c4(g);
    Board b;
    unhash_board(t, pos, &b);
    values[0] = (uint8_t)(b.cur.n & 1);
    for (int bit = 0; bit < t->cells; bit++) {
        uint64_t m = UINT64_C(1) << bit;
        values[occ_var(bit)] = (uint8_t)((b.cur.occupied & m) != 0);
        values[own_var(bit)] = (uint8_t)((b.mine[O_PLAYER] & m) != 0);
    }
    return b.cur.n;
}

/* The compact encoding (option `tromp`, J. Tromp's bitboard layout): h + 1
 * variables per column, column by column after the side to move
 * (variable 0), numbered top to bottom within a column by tv() (11% fewer
 * instructions than bottom to top on 5x4, docs/symbolic.md): below the
 * column's height n its pieces (1: o),
 * variable n a marker 1, above it 0s; 1 + w(h + 1) variables instead of
 * 1 + 2wh. A drop into column c at row r: pre: the mover to move, variable
 * r 1 and every variable above it 0; set: variable r the mover's piece,
 * variable r + 1 the marker, the turn flipped. "Cell (c, r) is filled" is
 * the disjunction "some variable of column c above r is 1", so a line
 * becomes one term per choice of such a variable in each of its columns
 * (a product of at most h choices per column). */
static int tv(const C4 *t, int c, int i) { return 1 + c * (t->h + 1) + (t->h - i); }

static Position c4_tromp_position(const Game *g, const uint8_t *values) {
    const C4 *t = c4(g);
    uint8_t heights[C4_MAX_COLS] = {0};
    uint64_t x = 0;
    int n = 0;
    for (int c = 0; c < t->w; c++) {
        int top = t->h;
        while (top > 0 && !values[tv(t, c, top)]) {
            top--;
        }
        heights[c] = (uint8_t)top;
        n += top;
        for (int r = 0; r < top; r++) {
            x |= (uint64_t)(values[tv(t, c, r)] == 0) << (c * t->h + r);
        }
    }
    return colhash_hash(&t->hash, heights, n, colours_of(t, heights, x, false));
}

static int c4_tromp_values(const Game *g, Position pos, uint8_t *values) {
    const C4 *t = c4(g);
    Board b;
    unhash_board(t, pos, &b);
    values[0] = (uint8_t)(b.cur.n & 1);
    for (int c = 0; c < t->w; c++) {
        int n = b.cur.heights[c];
        for (int i = 0; i <= t->h; i++) {
            uint64_t m = UINT64_C(1) << (c * t->h + i);
            values[tv(t, c, i)] = (uint8_t)(i < n ? (b.mine[O_PLAYER] & m) != 0 : i == n);
        }
    }
    return b.cur.n;
}

/* Completes builder b with the encoding's position and values functions and
 * hangs it on the game (both encodings end so); enc_finish destroys b when
 * it refuses. */
static ErrCode install_encoding(Game *g, C4 *t, EncBuilder *b,
                                Position (*position)(const Game *, const uint8_t *),
                                int (*values)(const Game *, Position, uint8_t *), Error *err) {
    b->enc.position = position;
    b->enc.values = values;
    ErrCode rc = enc_finish(b, "connect4", err);
    if (rc != ERR_OK) {
        return rc;
    }
    t->enc = b;
    g->encoding = &b->enc;
    return ERR_OK;
}

/* The terms of "player p (who just moved) has the k cells of `cells`":
 * the pieces, and per column one variable above its highest cell. */
static void tromp_line(EncBuilder *b, const C4 *t, const int *cells, int p) {
    int cols[16], need[16], ncols = 0; /* need: the highest row + 1 */
    for (int j = 0; j < t->k; j++) {
        int c = cells[j] / t->h, r = cells[j] % t->h, i = 0;
        while (i < ncols && cols[i] != c) {
            i++;
        }
        if (i == ncols) {
            cols[ncols] = c;
            need[ncols++] = r + 1;
        } else if (r + 1 > need[i]) {
            need[i] = r + 1;
        }
    }
    int pick[16] = {0};
    for (;;) {
        enc_lit(b, 0, 1 - p);
        for (int j = 0; j < t->k; j++) {
            enc_lit(b, tv(t, cells[j] / t->h, cells[j] % t->h), p);
        }
        for (int i = 0; i < ncols; i++) {
            enc_lit(b, tv(t, cols[i], need[i] + pick[i]), 1);
        }
        enc_primitive_term(b, enc_term(b));
        int i = 0;
        while (i < ncols && need[i] + ++pick[i] > t->h) {
            pick[i++] = 0;
        }
        if (i == ncols) {
            return;
        }
    }
}

static ErrCode init_encoding_tromp(Game *g, C4 *t, Error *err) {
    int nvars = 1 + t->w * (t->h + 1), nmoves = 2 * t->cells;
    /* bound the terms: per line, at most h choices in each of k columns */
    double terms = 1;
    for (int i = 0; i < t->ndirs; i++) {
        double per = 1;
        for (int j = 0; j < (t->dirs[i] == DIR_UP ? 1 : t->k); j++) {
            per *= t->h;
        }
        terms += 2 * per * __builtin_popcountll(t->starts[t->dirs[i]]);
    }
    if (terms > 2e6) {
        return error_set(err, ERR_UNSUPPORTED,
                         "connect4: the `tromp` encoding of this board needs %.0f primitive terms; "
                         "leave `tromp` out",
                         terms);
    }
    size_t nlits =
        (size_t)nmoves * (size_t)(t->h + 4) + (size_t)terms * (size_t)(2 * t->k + 1) + (size_t)t->w;
    EncBuilder *b = enc_create(nvars, nmoves, (int)terms, nlits, err);
    if (b == NULL) {
        return ERR_MEMORY;
    }
    for (int c = 0; c < t->w; c++) {
        b->initial[tv(t, c, 0)] = 1;
    }
    for (int c = 0; c < t->w; c++) {
        for (int r = 0; r < t->h; r++) {
            for (int p = X_PLAYER; p <= O_PLAYER; p++) {
                enc_lit(b, 0, p);
                enc_lit(b, tv(t, c, r), 1);
                for (int i = r + 1; i <= t->h; i++) {
                    enc_lit(b, tv(t, c, i), 0);
                }
                GameEncTerm pre = enc_term(b);
                enc_lit(b, 0, 1 - p);
                enc_lit(b, tv(t, c, r), p);
                enc_lit(b, tv(t, c, r + 1), 1);
                enc_move(b, pre, enc_term(b));
            }
        }
    }
    enc_primitive(b, end_value(t));
    for (int p = X_PLAYER; p <= O_PLAYER; p++) {
        for (int i = 0; i < t->ndirs; i++) {
            int d = t->dirs[i];
            for (uint64_t s = t->starts[d]; s != 0; s &= s - 1) {
                int start = __builtin_ctzll(s), cells[16];
                for (int j = 0; j < t->k; j++) {
                    cells[j] = start + j * t->delta[d];
                }
                tromp_line(b, t, cells, p);
            }
        }
    }
    enc_primitive(b, VALUE_TIE);
    for (int c = 0; c < t->w; c++) {
        enc_lit(b, tv(t, c, t->h), 1);
    }
    enc_primitive_term(b, enc_term(b));
    return install_encoding(g, t, b, c4_tromp_position, c4_tromp_values, err);
}

static ErrCode init_encoding(Game *g, C4 *t, Error *err) {
    int cells = t->cells, lines = 0;
    for (int i = 0; i < t->ndirs; i++) {
        lines += __builtin_popcountll(t->starts[t->dirs[i]]);
    }
    int nmoves = 2 * cells, nterms = 2 * lines + 1;
    size_t nlits = (size_t)nmoves * 6 + (size_t)nterms * (size_t)(2 * t->k + 1) + (size_t)cells;
    EncBuilder *b = enc_create(2 * cells + 1, nmoves, nterms, nlits, err);
    if (b == NULL) {
        return ERR_MEMORY;
    }
    for (int c = 0; c < t->w; c++) {
        for (int r = 0; r < t->h; r++) {
            int bit = c * t->h + r;
            for (int p = X_PLAYER; p <= O_PLAYER; p++) {
                enc_lit(b, 0, p);
                enc_lit(b, occ_var(bit), 0);
                if (r > 0) {
                    enc_lit(b, occ_var(bit - 1), 1);
                }
                GameEncTerm pre = enc_term(b);
                enc_lit(b, 0, 1 - p);
                enc_lit(b, occ_var(bit), 1);
                enc_lit(b, own_var(bit), p);
                enc_move(b, pre, enc_term(b));
            }
        }
    }
    enc_primitive(b, end_value(t));
    for (int p = X_PLAYER; p <= O_PLAYER; p++) {
        for (int i = 0; i < t->ndirs; i++) {
            int d = t->dirs[i];
            for (uint64_t s = t->starts[d]; s != 0; s &= s - 1) {
                int start = __builtin_ctzll(s);
                enc_lit(b, 0, 1 - p); /* p moved last */
                for (int j = 0; j < t->k; j++) {
                    int bit = start + j * t->delta[d];
                    enc_lit(b, occ_var(bit), 1);
                    enc_lit(b, own_var(bit), p);
                }
                enc_primitive_term(b, enc_term(b));
            }
        }
    }
    enc_primitive(b, VALUE_TIE);
    for (int bit = 0; bit < cells; bit++) {
        enc_lit(b, occ_var(bit), 1);
    }
    enc_primitive_term(b, enc_term(b));
    return install_encoding(g, t, b, c4_enc_position, c4_enc_values, err);
}

/* ------------------------------------------------------------------ module */

/* Line tables: per direction, the bit step, the cells where a line of k
 * starts, the window of each cell, and the shift-and steps; only the
 * directions where a line of k fits are listed in dirs (in the others a
 * shift could reach 64 bits: their windows are empty and shifts 0). */
static void init_lines(C4 *t) {
    static const int dc[DIRS] = {0, 1, 1, 1}, dr[DIRS] = {1, 0, 1, -1};
    /* Run lengths 1, 2, 4, ... up to k: the steps of runs_of_k. */
    int steps[8], len = 1;
    t->nshift = 0;
    for (; 2 * len <= t->k; len *= 2) {
        steps[t->nshift++] = len;
    }
    if (len < t->k) {
        steps[t->nshift++] = t->k - len;
    }
    for (int d = 0; d < DIRS; d++) {
        t->delta[d] = dc[d] * t->h + dr[d];
        t->starts[d] = 0;
        for (int c = 0; c < t->w; c++) {
            for (int r = 0; r < t->h; r++) {
                int ec = c + (t->k - 1) * dc[d], er = r + (t->k - 1) * dr[d];
                if (ec < t->w && er >= 0 && er < t->h) {
                    t->starts[d] |= UINT64_C(1) << (c * t->h + r);
                }
            }
        }
        bool fits = t->starts[d] != 0;
        if (fits) {
            t->dirs[t->ndirs++] = d;
        }
        for (int i = 0; i < t->nshift; i++) {
            t->shift[d][i] = (uint8_t)(fits ? steps[i] * t->delta[d] : 0);
        }
        for (int c = 0; c < t->w; c++) {
            for (int r = 0; r < t->h; r++) {
                uint64_t win = 0;
                /* Nothing lies above a piece just dropped: up looks down only. */
                int to = d == DIR_UP ? 0 : t->k - 1;
                for (int i = -(t->k - 1); i <= to && fits; i++) {
                    int nc = c + i * dc[d], nr = r + i * dr[d];
                    if (nc >= 0 && nc < t->w && nr >= 0 && nr < t->h) {
                        win |= UINT64_C(1) << (nc * t->h + nr);
                    }
                }
                if (d == DIR_UP && r + 1 < t->k) {
                    win = 0; /* fewer than k cells at or below r */
                }
                t->window[c * t->h + r][d] = win;
            }
        }
    }
}

static ErrCode c4_create(Game *g, Error *err) {
    int w = (int)opt_int(&g->options, "w"), h = (int)opt_int(&g->options, "h");
    int k = (int)opt_int(&g->options, "k");
    if (k > w && k > h) {
        return error_set(err, ERR_USAGE,
                         "k=%d is larger than both w=%d and h=%d: no line of %d fits on the board",
                         k, w, h, k);
    }
    C4 *t = mem_calloc(1, sizeof *t, "the connect4 module", err);
    if (t == NULL) {
        return ERR_MEMORY;
    }
    ErrCode rc = colhash_init(&t->hash, w, h, err);
    if (rc != ERR_OK) {
        free(t);
        return rc;
    }
    t->w = w;
    t->h = h;
    t->k = k;
    t->cells = w * h;
    t->misere = opt_bool(&g->options, "misere");
    init_lines(t);
#ifdef C4_PDEP
    t->pdep = __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt") &&
              getenv("GAMESMAN_C4_NO_PDEP") == NULL;
#endif
    rc = opt_bool(&g->options, "tromp") ? init_encoding_tromp(g, t, err) : init_encoding(g, t, err);
    if (rc != ERR_OK) {
        colhash_destroy(&t->hash);
        free(t);
        return rc;
    }
    g->self = t;
    g->ops = &c4_ops;
    g->gps = &c4_gps;
    g->gps_cached = &c4_gps_cached;
    g->tiers = opt_bool(&g->options, "sym") ? &c4_tiers_sym : &c4_tiers;
    g->num_positions = t->hash.size;
    g->initial = 0; /* the empty board: tier 0 has one slot */
    g->max_moves = w;
    g->max_depth = (uint32_t)t->cells;
    g->symmetric = opt_bool(&g->options, "sym");
    return ERR_OK;
}

static void c4_destroy(Game *g) {
    C4 *t = g->self;
    if (t != NULL) {
        colhash_destroy(&t->hash);
        enc_destroy(t->enc);
        free(t);
    }
}

static const OptionSpec c4_options[] = {
    {.name = "w", .type = OPT_INT, .min = 1, .max = C4_MAX_COLS, .def = 7, .help = "columns"},
    {.name = "h", .type = OPT_INT, .min = 1, .max = 16, .def = 6, .help = "rows (column height)"},
    {.name = "k", .type = OPT_INT, .min = 1, .max = 16, .def = 4, .help = "pieces in a row to win"},
    {.name = "misere", .type = OPT_BOOL, .help = "k in a row loses"},
    {.name = "sym", .type = OPT_BOOL, .help = "canonicalize under the left-right mirror"},
    {.name = "tromp",
     .type = OPT_BOOL,
     .help = "symbolic solvers: the compact Boolean encoding (h+1 variables a column)"},
    {0},
};

/* Small boards for the exhaustive tests (tests/test_games.c and
 * tests/test_solvers.c walk every reachable position); 4x4 (161,029
 * positions) is heavy. */
static const GameTestVariant c4_tests[] = {
    {.options = "w=3,h=3,k=3"},
    {.options = "w=3,h=3,k=3,sym"},
    {.options = "w=4,h=3"},
    {.options = "w=4,h=3,misere"},
    {.options = "w=3,h=4,k=3,misere"},
    {.options = "w=4,h=3,k=3,misere,sym"},
    {.options = "w=1,h=5,k=2"},
    {.options = "w=5,h=2,k=2"},
    {.options = "w=4,h=3,tromp"},
    {.options = "w=3,h=4,k=3,misere,sym,tromp"},
    {.options = "w=4,h=4", .heavy = true},
    {.options = "w=4,h=4,sym", .heavy = true},
    {NULL},
};

const GameModule connect4_module = {
    .name = "connect4",
    .title = "Connect Four",
    .description = "drop pieces into w columns of height h; k in a row wins; x moves first",
    .options = c4_options,
    .test_variants = c4_tests,
    .create = c4_create,
    .destroy = c4_destroy,
};
