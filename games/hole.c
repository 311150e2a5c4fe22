/* games/hole.c: see hole.h. */
#include "core/mem.h"
#include "games/hole.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct Hole {
    const HoleRules *rules;
    BaseK hash;
    BoardSyms syms;
} Hole;

static const Hole *hole(const Game *g) { return g->self; }

static const char hole_symbols[] = "-xo";

/* ------------------------------------------------------------------ board */

/* The first empty point (the hole), or -1 on a full board (a slot of the
 * hash space that no game reaches). */
static int hole_empty_point(const Hole *h, const uint8_t *cells) {
    for (int i = 0; i < h->rules->points; i++) {
        if (cells[i] == BOARD_EMPTY) {
            return i;
        }
    }
    return -1;
}

/* The points whose piece the player to move can slide into the hole. */
static int hole_board_moves(const Hole *h, const uint8_t *cells, int turn, Move *moves) {
    const HoleRules *r = h->rules;
    uint8_t piece = board_piece(turn);
    int e = hole_empty_point(h, cells), n = 0;
    for (int k = 0; e >= 0 && r->adjacent[e][k] >= 0; k++) {
        int from = r->adjacent[e][k];
        if (cells[from] == piece && (r->legal == NULL || r->legal(cells, from, e, piece))) {
            moves[n++] = from;
        }
    }
    return n;
}

/* -------------------------------------------------------- stateless family */

static Value hole_primitive(const Game *g, Position pos) {
    uint8_t cells[BOARD_MAX_CELLS];
    Move moves[HOLE_MAX_DEGREE];
    int turn = basek_unhash_turn(&hole(g)->hash, pos, cells);
    return hole_board_moves(hole(g), cells, turn, moves) == 0 ? VALUE_LOSE : VALUE_UNDECIDED;
}

static int hole_generate_moves(const Game *g, Position pos, Move *moves) {
    uint8_t cells[BOARD_MAX_CELLS];
    int turn = basek_unhash_turn(&hole(g)->hash, pos, cells);
    return hole_board_moves(hole(g), cells, turn, moves);
}

static Position hole_do_move(const Game *g, Position pos, Move move) {
    uint8_t cells[BOARD_MAX_CELLS];
    int turn = basek_unhash_turn(&hole(g)->hash, pos, cells);
    int e = hole_empty_point(hole(g), cells);
    cells[e] = cells[move];
    cells[move] = BOARD_EMPTY;
    return basek_hash_turn(&hole(g)->hash, cells, 1 - turn);
}

static int hole_turn(const Game *g, Position pos) {
    uint8_t cells[BOARD_MAX_CELLS];
    return basek_unhash_turn(&hole(g)->hash, pos, cells);
}

static Position hole_canonical(const Game *g, Position pos) {
    uint8_t cells[BOARD_MAX_CELLS];
    int turn = basek_unhash_turn(&hole(g)->hash, pos, cells);
    return board_canonical(&hole(g)->hash, &hole(g)->syms, cells, turn);
}

/* The last mover's piece now on a point d joined to the hole e came from e,
 * if the move e -> d was legal on the parent board. At most max_parents. */
static int hole_generate_parents(const Game *g, Position pos, Position *parents) {
    const Hole *h = hole(g);
    const HoleRules *r = h->rules;
    uint8_t cells[BOARD_MAX_CELLS];
    int turn = basek_unhash_turn(&h->hash, pos, cells);
    int e = hole_empty_point(h, cells), n = 0;
    uint8_t last = board_piece(1 - turn);
    for (int k = 0; e >= 0 && r->adjacent[e][k] >= 0; k++) {
        int d = r->adjacent[e][k];
        if (cells[d] != last) {
            continue;
        }
        cells[e] = last;
        cells[d] = BOARD_EMPTY;
        if (r->legal == NULL || r->legal(cells, e, d, last)) {
            n = board_add_unique(parents, n,
                                 board_key(&h->hash, &h->syms, g->symmetric, cells, 1 - turn));
        }
        cells[d] = last;
        cells[e] = BOARD_EMPTY;
    }
    return n;
}

/* ------------------------------------------------------------------- text */

static void hole_format(const Game *g, Position pos, char *buf, size_t n) {
    uint8_t cells[BOARD_MAX_CELLS];
    int turn = basek_unhash_turn(&hole(g)->hash, pos, cells);
    board_format(cells, hole(g)->rules->points, turn, hole_symbols, buf, n);
}

static void hole_print(const Game *g, Position pos, char *buf, size_t n) {
    const Hole *h = hole(g);
    uint8_t cells[BOARD_MAX_CELLS];
    Move moves[HOLE_MAX_DEGREE];
    int turn = basek_unhash_turn(&h->hash, pos, cells);
    char c[BOARD_MAX_CELLS];
    for (int i = 0; i < h->rules->points; i++) {
        c[i] = hole_symbols[cells[i]];
    }
    const char *status = hole_board_moves(h, cells, turn, moves) == 0 ? "blocked: game over"
                         : turn == 0                                  ? "x to move"
                                                                      : "o to move";
    h->rules->draw(c, status, buf, n);
}

static void hole_move_name(const Game *g, Position pos, Move move, char *buf, size_t n) {
    uint8_t cells[BOARD_MAX_CELLS];
    basek_unhash_turn(&hole(g)->hash, pos, cells);
    snprintf(buf, n, "%d-%d", (int)move + 1, hole_empty_point(hole(g), cells) + 1);
}

static ErrCode hole_parse(const Game *g, const char *text, Position *pos, Error *err) {
    const HoleRules *r = hole(g)->rules;
    uint8_t cells[BOARD_MAX_CELLS];
    int turn;
    ErrCode rc = board_parse(text, r->points, hole_symbols, r->shape, cells, &turn, err);
    if (rc != ERR_OK) {
        return rc;
    }
    if (board_count(cells, r->points, BOARD_FIRST) !=
            board_count(r->start, r->points, BOARD_FIRST) ||
        board_count(cells, r->points, BOARD_SECOND) !=
            board_count(r->start, r->points, BOARD_SECOND)) {
        char example[BOARD_MAX_CELLS + 3];
        board_format(r->start, r->points, 0, hole_symbols, example, sizeof example);
        return error_set(err, ERR_USAGE, "'%s' must have %s x, %s o and one empty point (e.g. %s)",
                         text, r->pieces, r->pieces, example);
    }
    *pos = basek_hash_turn(&hole(g)->hash, cells, turn);
    return ERR_OK;
}

static const GameOps hole_ops = {
    .primitive = hole_primitive,
    .generate_moves = hole_generate_moves,
    .do_move = hole_do_move,
    .turn = hole_turn,
    .canonical = hole_canonical,
    .generate_parents = hole_generate_parents,
    .format = hole_format,
    .parse = hole_parse,
    .print = hole_print,
    .move_name = hole_move_name,
};

/* ------------------------------------------------------------------ create */

ErrCode hole_create(Game *g, const HoleRules *rules, Error *err) {
    Hole *h = mem_calloc(1, sizeof *h, "the hole-game module", err);
    if (h == NULL) {
        return ERR_MEMORY;
    }
    ErrCode rc = basek_init(&h->hash, 3, rules->points, err);
    if (rc != ERR_OK) {
        free(h);
        return rc;
    }
    h->rules = rules;
    rules->symmetries(&h->syms);
    g->self = h;
    g->ops = &hole_ops;
    g->num_positions = 2 * h->hash.size;
    g->initial = basek_hash_turn(&h->hash, rules->start, 0);
    g->max_moves = rules->max_moves;
    g->max_parents = rules->max_parents;
    g->max_depth = 0;
    g->loopy = true;
    g->symmetric = opt_bool(&g->options, "sym");
    return ERR_OK;
}
