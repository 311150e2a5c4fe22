/* games/ponghauki.c: Pong Hau K'i, the Chinese five-point blocking game.
 *
 * Rules (Wikipedia, "Pong Hau K'i"; GamesCrafters' Pong Hau K'i page; R. C.
 * Bell, Board and Table Games from Many Civilizations): the board is a square
 * with both diagonals and one side missing, five points joined by seven lines:
 *
 *     1       2       points 1 top-left, 2 top-right, 3 centre,
 *       \   /         4 bottom-left, 5 bottom-right; no line joins 1 and 2
 *         3
 *       /   \         lines: 1-3, 2-3, 4-3, 5-3 (the diagonals),
 *     4 ----- 5              1-4, 2-5, 4-5 (three sides of the square)
 *
 * Each player has two pieces: the first player (x) on 1 and 2, the second
 * (o) on 4 and 5, the centre empty; x moves first. A move slides one of your
 * pieces along a line to the adjacent empty point (there is always exactly
 * one empty point). A player who cannot move loses. With this start (x on the
 * two ends of the missing side) the first three moves are forced, as
 * Wikipedia describes; with perfect play the game never ends (a draw).
 *
 * Hash: base 3 over the five points with the player to move (games/board.h),
 * 2 * 3^5 = 486 positions; 60 boards have two pieces of each side. A move is
 * the point (0..4) whose piece moves; the destination is the empty point.
 * Un-moves: a piece of the player who moved last, next to the empty point,
 * goes back to it. Option `sym` stores one position per class of the left-right
 * mirror and the exchange of colours (with the player to move): 4 symmetries.
 */
#include <stdio.h>
#include <stdlib.h>

#include "games/board.h"
#include "games/game.h"

enum { PHK_POINTS = 5 };

/* adjacent[i]: the points joined to point i by a line, ending with -1. */
static const int8_t phk_adjacent[PHK_POINTS][5] = {
    {2, 3, -1}, {2, 4, -1}, {0, 1, 3, 4, -1}, {0, 2, 4, -1}, {1, 2, 3, -1},
};

typedef struct Phk {
    BaseK hash;
    BoardSyms syms;
} Phk;

static const Phk *phk(const Game *g) { return g->self; }

static const char phk_symbols[] = "-xo";

/* ------------------------------------------------------------------ board */

static int phk_empty_point(const uint8_t *cells) {
    for (int i = 0; i < PHK_POINTS; i++) {
        if (cells[i] == BOARD_EMPTY) {
            return i;
        }
    }
    return -1;
}

/* The points whose piece the player to move can slide into the empty point. */
static int phk_board_moves(const uint8_t *cells, int turn, Move *moves) {
    int e = phk_empty_point(cells), n = 0;
    for (int k = 0; e >= 0 && phk_adjacent[e][k] >= 0; k++) {
        int from = phk_adjacent[e][k];
        if (cells[from] == board_piece(turn)) {
            moves[n++] = from;
        }
    }
    return n;
}

/* -------------------------------------------------------- stateless family */

static Value phk_primitive(const Game *g, Position pos) {
    uint8_t cells[PHK_POINTS];
    Move moves[PHK_POINTS];
    int turn = basek_unhash_turn(&phk(g)->hash, pos, cells);
    return phk_board_moves(cells, turn, moves) == 0 ? VALUE_LOSE : VALUE_UNDECIDED;
}

static int phk_generate_moves(const Game *g, Position pos, Move *moves) {
    uint8_t cells[PHK_POINTS];
    int turn = basek_unhash_turn(&phk(g)->hash, pos, cells);
    return phk_board_moves(cells, turn, moves);
}

static Position phk_do_move(const Game *g, Position pos, Move move) {
    uint8_t cells[PHK_POINTS];
    int turn = basek_unhash_turn(&phk(g)->hash, pos, cells);
    int e = phk_empty_point(cells);
    cells[e] = cells[move];
    cells[move] = BOARD_EMPTY;
    return basek_hash_turn(&phk(g)->hash, cells, 1 - turn);
}

static int phk_turn(const Game *g, Position pos) {
    uint8_t cells[PHK_POINTS];
    return basek_unhash_turn(&phk(g)->hash, pos, cells);
}

static Position phk_canonical(const Game *g, Position pos) {
    uint8_t cells[PHK_POINTS];
    int turn = basek_unhash_turn(&phk(g)->hash, pos, cells);
    return board_canonical(&phk(g)->hash, &phk(g)->syms, cells, turn);
}

/* The last mover's piece now on a point next to the empty point came from the
 * empty point. At most 4 parents (the centre has four neighbours). */
static int phk_generate_parents(const Game *g, Position pos, Position *parents) {
    const Phk *t = phk(g);
    uint8_t cells[PHK_POINTS];
    int turn = basek_unhash_turn(&t->hash, pos, cells);
    int e = phk_empty_point(cells), n = 0;
    uint8_t last = board_piece(1 - turn);
    for (int k = 0; e >= 0 && phk_adjacent[e][k] >= 0; k++) {
        int d = phk_adjacent[e][k];
        if (cells[d] != last) {
            continue;
        }
        cells[e] = last;
        cells[d] = BOARD_EMPTY;
        n = board_add_unique(parents, n,
                             board_key(&t->hash, &t->syms, g->symmetric, cells, 1 - turn));
        cells[d] = last;
        cells[e] = BOARD_EMPTY;
    }
    return n;
}

static void phk_format(const Game *g, Position pos, char *buf, size_t n) {
    uint8_t cells[PHK_POINTS];
    int turn = basek_unhash_turn(&phk(g)->hash, pos, cells);
    board_format(cells, PHK_POINTS, turn, phk_symbols, buf, n);
}

static void phk_print(const Game *g, Position pos, char *buf, size_t n) {
    uint8_t cells[PHK_POINTS];
    Move moves[PHK_POINTS];
    int turn = basek_unhash_turn(&phk(g)->hash, pos, cells);
    char c[PHK_POINTS];
    for (int i = 0; i < PHK_POINTS; i++) {
        c[i] = phk_symbols[cells[i]];
    }
    const char *status = phk_board_moves(cells, turn, moves) == 0 ? "blocked: game over"
                         : turn == 0                              ? "x to move"
                                                                  : "o to move";
    snprintf(buf, n,
             " %c   %c      1   2\n"
             "  \\ /        \\ /\n"
             "   %c          3     %s\n"
             "  / \\        / \\\n"
             " %c---%c      4---5\n",
             c[0], c[1], c[2], status, c[3], c[4]);
}

static void phk_move_name(const Game *g, Position pos, Move move, char *buf, size_t n) {
    uint8_t cells[PHK_POINTS];
    basek_unhash_turn(&phk(g)->hash, pos, cells);
    snprintf(buf, n, "%d-%d", (int)move + 1, phk_empty_point(cells) + 1);
}

static ErrCode phk_parse(const Game *g, const char *text, Position *pos, Error *err) {
    uint8_t cells[PHK_POINTS];
    int turn;
    ErrCode rc = board_parse(text, PHK_POINTS, phk_symbols,
                             "5 points (top-left, top-right, centre, bottom-left, bottom-right)",
                             cells, &turn, err);
    if (rc != ERR_OK) {
        return rc;
    }
    if (board_count(cells, PHK_POINTS, BOARD_FIRST) != 2 ||
        board_count(cells, PHK_POINTS, BOARD_SECOND) != 2) {
        return error_set(err, ERR_USAGE,
                         "'%s' must have two x, two o and one empty point (e.g. %s)", text,
                         "xx-oo:x");
    }
    *pos = basek_hash_turn(&phk(g)->hash, cells, turn);
    return ERR_OK;
}

static const GameOps phk_ops = {
    .primitive = phk_primitive,
    .generate_moves = phk_generate_moves,
    .do_move = phk_do_move,
    .turn = phk_turn,
    .canonical = phk_canonical,
    .generate_parents = phk_generate_parents,
    .format = phk_format,
    .parse = phk_parse,
    .print = phk_print,
    .move_name = phk_move_name,
};

/* ------------------------------------------------------------------ module */

static ErrCode phk_create(Game *g, Error *err) {
    Phk *t = calloc(1, sizeof *t);
    if (t == NULL) {
        return error_set(err, ERR_MEMORY, "out of memory");
    }
    ErrCode rc = basek_init(&t->hash, 3, PHK_POINTS, err);
    if (rc != ERR_OK) {
        free(t);
        return rc;
    }
    /* Identity, left-right mirror (1<->2, 4<->5), and both with the colours
     * exchanged. */
    static const uint8_t mirror[PHK_POINTS] = {1, 0, 2, 4, 3};
    t->syms.count = 4;
    for (int s = 0; s < 4; s++) {
        for (int i = 0; i < PHK_POINTS; i++) {
            t->syms.map[s][i] = (s & 1) ? mirror[i] : (uint8_t)i;
        }
        t->syms.swap[s] = s >= 2;
    }
    static const uint8_t start[PHK_POINTS] = {BOARD_FIRST, BOARD_FIRST, BOARD_EMPTY, BOARD_SECOND,
                                              BOARD_SECOND};
    g->self = t;
    g->ops = &phk_ops;
    g->num_positions = 2 * t->hash.size;
    g->initial = basek_hash_turn(&t->hash, start, 0);
    g->max_moves = 2;
    g->max_parents = 4;
    g->max_depth = 0;
    g->loopy = true;
    g->symmetric = opt_bool(&g->options, "sym");
    return ERR_OK;
}

static const OptionSpec phk_options[] = {
    {.name = "sym", .type = OPT_BOOL, .help = "canonicalize under the mirror and the colour swap"},
    {0},
};

static const GameTestVariant phk_tests[] = {{.options = ""}, {.options = "sym"}, {NULL}};

const GameModule ponghauki_module = {
    .name = "ponghauki",
    .title = "Pong Hau K'i",
    .description = "five-point blocking game, two pieces each (loopy; a draw)",
    .options = phk_options,
    .test_variants = phk_tests,
    .create = phk_create,
};
