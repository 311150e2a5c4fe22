/* games/hexapawn.c: Hexapawn (Martin Gardner, "Mathematical Games",
 * Scientific American, March 1962), on a w x h board.
 *
 * Rules (Gardner's, generalized to w columns and h rows as is usual for the
 * GamesCrafters variants):
 *   - White's w pawns start on row 1 (the bottom row), Black's w pawns on
 *     row h (the top row); White moves first.
 *   - A pawn moves one square straight forward (White up, Black down) onto
 *     an empty square, or one square diagonally forward onto a square held
 *     by an enemy pawn, which is captured (removed). There is no double
 *     step, no en passant and no promotion.
 *   - A player wins by (a) moving a pawn onto the far row (the enemy's home
 *     row), (b) capturing every enemy pawn, or (c) leaving the opponent to
 *     move with no legal move. There are no ties: every game ends with a
 *     winner, so every primitive position is a loss for the player to move.
 * Gardner's 3x3 game is a win for the second player (Black) with perfect
 * play (tests/test_known_hexapawn.c).
 *
 * Board: cells r * w + c for row r (0 = White's home row) and column c, each
 * blank (0), white (1) or black (2). Position: the generic hash
 * (hash/generic.h) over w * h cells with 0..w pawns of each colour and the
 * turn folded in (players = 2), so only boards with legal pawn counts take
 * a slot: 3x3 has 2 * sum_{a,b<=3} 9! / (a! b! (9-a-b)!) = 13,598 slots
 * instead of 2 * 3^9 = 39,366. The turn is part of the position because captures
 * make it impossible to tell from the counts.
 *
 * A move is from * 3 + kind (kind 0 straight, 1 capture towards column a,
 * 2 capture towards the last column), shown as "a1-a2" or "b1xa2".
 *
 * Bounds: every move advances a pawn one row, a pawn advances at most
 * h - 2 rows without winning, and only one move reaches a far row, so a game
 * lasts at most 2 w (h - 2) + 1 moves; a position has at most 3 w moves.
 *
 * Symmetry (option `sym`): the mirror image (column c <-> w - 1 - c) has the
 * same value; the canonical position is the smaller of the two hashes.
 *
 * Families: stateless (every call unhashes) and GPS (board, turn and a move
 * history with the captured piece in a state; do_move hashes the new board
 * once and the state keeps it, so position() is free). primitive and
 * generate_moves scan the board, O(w h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "games/game.h"
#include "games/grid.h"
#include "hash/generic.h"

enum { BLANK = 0, WHITE = 1, BLACK = 2 };
enum { HEX_MAX_SIDE = 8, HEX_MAX_CELLS = HEX_MAX_SIDE * HEX_MAX_SIDE };
enum { STRAIGHT = 0, TOWARD_A = 1, AWAY_FROM_A = 2 };

typedef struct Hex {
    GenericHash hash;
    int w, h, cells;
    uint8_t mirror[HEX_MAX_CELLS]; /* mirror[i]: cell i reflected left-right */
} Hex;

static const Hex *hex(const Game *g) { return g->self; }

static uint8_t pawn_of(int turn) { return turn == 0 ? WHITE : BLACK; }

/* The row a pawn of this colour wins on. */
static int far_row(const Hex *x, uint8_t pawn) { return pawn == WHITE ? x->h - 1 : 0; }

static bool on_row(const Hex *x, const uint8_t *cells, uint8_t pawn, int row) {
    for (int c = 0; c < x->w; c++) {
        if (cells[row * x->w + c] == pawn) {
            return true;
        }
    }
    return false;
}

/* The cell a move lands on. */
static int move_target(const Hex *x, int from, int kind, uint8_t pawn) {
    int to = from + (pawn == WHITE ? x->w : -x->w);
    return kind == STRAIGHT ? to : kind == TOWARD_A ? to - 1 : to + 1;
}

/* The starting board: White's pawns on row 0, Black's on row h - 1. */
static void initial_board(const Hex *x, uint8_t *cells) {
    memset(cells, BLANK, (size_t)x->cells);
    for (int c = 0; c < x->w; c++) {
        cells[c] = WHITE;
        cells[(x->h - 1) * x->w + c] = BLACK;
    }
}

/* Moves of the player to move (at most 3 per pawn). */
static int board_moves(const Hex *x, const uint8_t *cells, int turn, Move *moves) {
    uint8_t me = pawn_of(turn), foe = pawn_of(!turn);
    int dr = me == WHITE ? 1 : -1, n = 0;
    for (int i = 0; i < x->cells; i++) {
        if (cells[i] != me) {
            continue;
        }
        int r = i / x->w + dr, c = i % x->w;
        if (r < 0 || r >= x->h) {
            continue; /* on its far row: the game is already over */
        }
        int ahead = r * x->w + c;
        if (cells[ahead] == BLANK) {
            moves[n++] = i * 3 + STRAIGHT;
        }
        if (c > 0 && cells[ahead - 1] == foe) {
            moves[n++] = i * 3 + TOWARD_A;
        }
        if (c + 1 < x->w && cells[ahead + 1] == foe) {
            moves[n++] = i * 3 + AWAY_FROM_A;
        }
    }
    return n;
}

/* Every end of the game is a loss for the player to move: the opponent
 * reached its far row, or the player has no move (no pawns, or all
 * blocked). */
static Value board_primitive(const Hex *x, const uint8_t *cells, int turn) {
    uint8_t foe = pawn_of(!turn);
    if (on_row(x, cells, foe, far_row(x, foe))) {
        return VALUE_LOSE;
    }
    Move moves[3 * HEX_MAX_SIDE];
    return board_moves(x, cells, turn, moves) == 0 ? VALUE_LOSE : VALUE_UNDECIDED;
}

/* Plays `move` on cells; returns what stood on the target (for undo). */
static uint8_t board_play(const Hex *x, uint8_t *cells, int turn, Move move) {
    uint8_t me = pawn_of(turn);
    int from = move / 3, to = move_target(x, from, move % 3, me);
    uint8_t captured = cells[to];
    cells[to] = me;
    cells[from] = BLANK;
    return captured;
}

/* The smaller hash of the board and its mirror image (two hashes). */
static Position board_canonical(const Hex *x, const uint8_t *cells, int turn) {
    uint8_t image[HEX_MAX_CELLS];
    for (int i = 0; i < x->cells; i++) {
        image[x->mirror[i]] = cells[i];
    }
    Position a = generic_hash(&x->hash, cells, turn), b = generic_hash(&x->hash, image, turn);
    return a < b ? a : b;
}

/* -------------------------------------------------------- stateless family */

static Value hex_primitive(const Game *g, Position pos) {
    uint8_t cells[HEX_MAX_CELLS];
    int turn = generic_unhash(&hex(g)->hash, pos, cells);
    return board_primitive(hex(g), cells, turn);
}

static int hex_generate_moves(const Game *g, Position pos, Move *moves) {
    uint8_t cells[HEX_MAX_CELLS];
    int turn = generic_unhash(&hex(g)->hash, pos, cells);
    return board_moves(hex(g), cells, turn, moves);
}

static Position hex_do_move(const Game *g, Position pos, Move move) {
    const Hex *x = hex(g);
    uint8_t cells[HEX_MAX_CELLS];
    int turn = generic_unhash(&x->hash, pos, cells);
    board_play(x, cells, turn, move);
    return generic_hash(&x->hash, cells, !turn);
}

static int hex_turn(const Game *g, Position pos) {
    uint8_t cells[HEX_MAX_CELLS];
    return generic_unhash(&hex(g)->hash, pos, cells);
}

static Position hex_canonical(const Game *g, Position pos) {
    uint8_t cells[HEX_MAX_CELLS];
    int turn = generic_unhash(&hex(g)->hash, pos, cells);
    return board_canonical(hex(g), cells, turn);
}

static const char pawn_chars[] = {'-', 'w', 'b'};

/* Rows from the top (Black's home row) down, '/' between rows, then ':'
 * and the player to move: "bbb/---/www:w". */
static void hex_format(const Game *g, Position pos, char *buf, size_t n) {
    const Hex *x = hex(g);
    uint8_t cells[HEX_MAX_CELLS];
    int turn = generic_unhash(&x->hash, pos, cells);
    char text[HEX_MAX_CELLS + HEX_MAX_SIDE + 3];
    int k = 0;
    for (int r = x->h - 1; r >= 0; r--) {
        for (int c = 0; c < x->w; c++) {
            text[k++] = pawn_chars[cells[r * x->w + c]];
        }
        text[k++] = r > 0 ? '/' : ':';
    }
    text[k++] = turn == 0 ? 'w' : 'b';
    text[k] = '\0';
    snprintf(buf, n, "%s", text);
}

static void hex_print(const Game *g, Position pos, char *buf, size_t n) {
    const Hex *x = hex(g);
    uint8_t cells[HEX_MAX_CELLS];
    int turn = generic_unhash(&x->hash, pos, cells);
    size_t used = grid_print(cells, x->w, x->h, false, pawn_chars, "", buf, n);
    if (used < n) {
        bool over = board_primitive(x, cells, turn) != VALUE_UNDECIDED;
        snprintf(buf + used, n - used, "\n%s %s\n",
                 turn == 0 ? "white (w, moving up)"
                           : "black "
                             "(b, moving down)",
                 over ? "has lost" : "to move");
    }
}

static void hex_move_name(const Game *g, Position pos, Move move, char *buf, size_t n) {
    const Hex *x = hex(g);
    uint8_t cells[HEX_MAX_CELLS];
    int turn = generic_unhash(&x->hash, pos, cells);
    int from = move / 3, kind = move % 3, to = move_target(x, from, kind, pawn_of(turn));
    snprintf(buf, n, "%c%d%c%c%d", 'a' + from % x->w, from / x->w + 1, kind == STRAIGHT ? '-' : 'x',
             'a' + to % x->w, to / x->w + 1);
}

static ErrCode hex_parse(const Game *g, const char *text, Position *pos, Error *err) {
    const Hex *x = hex(g);
    size_t want = (size_t)(x->h * (x->w + 1) + 1);
    char example[HEX_MAX_CELLS + HEX_MAX_SIDE + 3];
    hex_format(g, g->initial, example, sizeof example);
    if (strlen(text) != want) {
        return error_set(err, ERR_USAGE,
                         "a %dx%d Hexapawn position is %d rows of %d cells from the top (w, b or "
                         "-), separated by '/', then ':' and the player to move (e.g. %s); "
                         "'%.80s' has the wrong length",
                         x->w, x->h, x->h, x->w, example, text);
    }
    uint8_t cells[HEX_MAX_CELLS];
    int count[3] = {0, 0, 0};
    size_t k = 0;
    for (int r = x->h - 1; r >= 0; r--) {
        for (int c = 0; c < x->w; c++, k++) {
            char ch = text[k];
            uint8_t v = ch == 'w' || ch == 'W'   ? WHITE
                        : ch == 'b' || ch == 'B' ? BLACK
                        : ch == '-' || ch == '.' ? BLANK
                                                 : 255;
            if (v == 255) {
                return error_set(err, ERR_USAGE,
                                 "'%c' in '%s' is not a cell: write w (white pawn), b (black "
                                 "pawn) or - (empty)",
                                 ch, text);
            }
            cells[r * x->w + c] = v;
            count[v]++;
        }
        char sep = text[k++];
        if (sep != (r > 0 ? '/' : ':')) {
            return error_set(err, ERR_USAGE, "'%s': expected '%c' after row %d (e.g. %s)", text,
                             r > 0 ? '/' : ':', r + 1, example);
        }
    }
    char who = text[k];
    if (who != 'w' && who != 'b' && who != 'W' && who != 'B') {
        return error_set(err, ERR_USAGE, "'%s' must end with the player to move, w or b", text);
    }
    int turn = who == 'w' || who == 'W' ? 0 : 1;
    if (!generic_fits(&x->hash, cells)) { /* the hash holds 0..w pawns a side */
        return error_set(err, ERR_USAGE, "'%s' has %d white and %d black pawns; each side has %d",
                         text, count[WHITE], count[BLACK], x->w);
    }
    bool white_home = on_row(x, cells, WHITE, far_row(x, WHITE));
    bool black_home = on_row(x, cells, BLACK, far_row(x, BLACK));
    if (white_home && black_home) {
        return error_set(err, ERR_USAGE, "'%s' cannot arise: both sides reached the far row", text);
    }
    if ((turn == 0 && white_home) || (turn == 1 && black_home)) {
        return error_set(err, ERR_USAGE,
                         "'%s' cannot arise: the player to move already reached the far row, "
                         "which ended the game",
                         text);
    }
    *pos = generic_hash(&x->hash, cells, turn);
    return ERR_OK;
}

static const GameOps hex_ops = {
    .primitive = hex_primitive,
    .generate_moves = hex_generate_moves,
    .do_move = hex_do_move,
    .turn = hex_turn,
    .canonical = hex_canonical,
    .format = hex_format,
    .parse = hex_parse,
    .print = hex_print,
    .move_name = hex_move_name,
};

/* -------------------------------------------------------------- GPS family */

typedef struct HexUndo {
    Move move;
    uint8_t captured;
    Position pos; /* the position before the move */
} HexUndo;

typedef struct HexGps {
    const Hex *x;
    uint8_t cells[HEX_MAX_CELLS];
    int turn;
    Position pos; /* hash of the board, kept by do/undo */
    uint32_t nhist;
    HexUndo *hist; /* at most max_depth moves */
} HexGps;

static GpsState *gps_create(const Game *g, Error *err) {
    HexGps *st = mem_calloc(1, sizeof *st, "a Hexapawn GPS state", err);
    HexUndo *hist = st == NULL ? NULL
                               : mem_calloc((size_t)g->max_depth + 1, sizeof *hist,
                                            "the move history of a Hexapawn GPS state", err);
    if (hist == NULL) {
        free(st);
        return NULL;
    }
    st->x = hex(g);
    st->hist = hist;
    initial_board(st->x, st->cells);
    st->turn = 0;
    st->pos = g->initial;
    return (GpsState *)st;
}

static void gps_destroy(GpsState *state) {
    HexGps *st = (HexGps *)state;
    free(st->hist);
    free(st);
}

static void gps_set(GpsState *state, Position pos) {
    HexGps *st = (HexGps *)state;
    st->turn = generic_unhash(&st->x->hash, pos, st->cells);
    st->pos = pos;
    st->nhist = 0;
}

static Position gps_position(GpsState *state) { return ((HexGps *)state)->pos; }

static Value gps_primitive_(GpsState *state) {
    HexGps *st = (HexGps *)state;
    return board_primitive(st->x, st->cells, st->turn);
}

static int gps_moves(GpsState *state, Move *moves) {
    HexGps *st = (HexGps *)state;
    return board_moves(st->x, st->cells, st->turn, moves);
}

static Position gps_do(GpsState *state, Move move) {
    HexGps *st = (HexGps *)state;
    HexUndo *u = &st->hist[st->nhist++];
    u->move = move;
    u->pos = st->pos;
    u->captured = board_play(st->x, st->cells, st->turn, move);
    st->turn = !st->turn;
    st->pos = generic_hash(&st->x->hash, st->cells, st->turn);
    return st->pos;
}

static void gps_undo(GpsState *state) {
    HexGps *st = (HexGps *)state;
    const HexUndo *u = &st->hist[--st->nhist];
    st->turn = !st->turn;
    int from = u->move / 3, to = move_target(st->x, from, u->move % 3, pawn_of(st->turn));
    st->cells[from] = st->cells[to];
    st->cells[to] = u->captured;
    st->pos = u->pos;
}

static Position gps_canonical(GpsState *state) {
    HexGps *st = (HexGps *)state;
    return board_canonical(st->x, st->cells, st->turn);
}

static int gps_turn(GpsState *state) { return ((HexGps *)state)->turn; }

static const GpsOps hex_gps = {
    .create = gps_create,
    .destroy = gps_destroy,
    .set = gps_set,
    .position = gps_position,
    .primitive = gps_primitive_,
    .generate_moves = gps_moves,
    .do_move = gps_do,
    .undo_move = gps_undo,
    .canonical = gps_canonical,
    .turn = gps_turn,
};

/* ------------------------------------------------------------------ module */

static void hex_destroy(Game *g) {
    Hex *x = g->self;
    if (x != NULL) {
        generic_destroy(&x->hash);
        free(x);
    }
}

static ErrCode hex_create(Game *g, Error *err) {
    Hex *x = mem_calloc(1, sizeof *x, "the Hexapawn module", err);
    if (x == NULL) {
        return ERR_MEMORY;
    }
    x->w = (int)opt_int(&g->options, "w");
    x->h = (int)opt_int(&g->options, "h");
    x->cells = x->w * x->h;
    int min[3] = {0, 0, 0}, max[3] = {x->cells, x->w, x->w};
    ErrCode rc = generic_init(&x->hash, x->cells, 3, min, max, 2, NULL, NULL, err);
    if (rc != ERR_OK) {
        error_prefix(err, "w=%d,h=%d: ", x->w, x->h);
        free(x);
        return rc;
    }
    uint8_t cells[HEX_MAX_CELLS];
    initial_board(x, cells);
    for (int i = 0; i < x->cells; i++) {
        x->mirror[i] = (uint8_t)((i / x->w) * x->w + (x->w - 1 - i % x->w));
    }
    g->self = x;
    g->ops = &hex_ops;
    g->gps = &hex_gps;
    g->symmetric = opt_bool(&g->options, "sym");
    g->num_positions = x->hash.size;
    g->initial = generic_hash(&x->hash, cells, 0);
    g->max_moves = 3 * x->w;
    g->max_depth = (uint32_t)(2 * x->w * (x->h - 2) + 1);
    return ERR_OK;
}

static const OptionSpec hex_options[] = {
    {.name = "w",
     .type = OPT_INT,
     .min = 1,
     .max = HEX_MAX_SIDE,
     .def = 3,
     .help = "board width (pawns per side)"},
    {.name = "h", .type = OPT_INT, .min = 3, .max = HEX_MAX_SIDE, .def = 3, .help = "board height"},
    {.name = "sym", .type = OPT_BOOL, .help = "canonicalize under the left-right mirror"},
    {0},
};

static const GameTestVariant hex_tests[] = {
    {.options = ""},
    {.options = "sym"},
    {.options = "w=4,h=3"},
    {.options = "w=3,h=4,sym"},
    {.options = "w=2,h=5"},
    {.options = "w=1,h=4"},
    {.options = "w=4,h=4", .heavy = true},
    {NULL},
};

const GameModule hexapawn_module = {
    .name = "hexapawn",
    .title = "Hexapawn",
    .description = "Gardner's pawn game: reach the far row, capture all, or stalemate the foe",
    .options = hex_options,
    .test_variants = hex_tests,
    .create = hex_create,
    .destroy = hex_destroy,
};
