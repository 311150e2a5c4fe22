/* games/mutorere.c: Mu Torere, the Maori blocking game on an eight-pointed star.
 *
 * Rules (Wikipedia, "Mu torere"; R. C. Bell, Board and Table Games from Many
 * Civilizations, vol. 2; the "Adjacent Enemy" ruleset of the Ludii portal):
 * eight points (kewai) around a centre (putahi):
 *
 *         1  2  3        the kewai 1..8 form a ring (each is joined to the
 *          \ | /         two next to it) and each is joined to the centre 9
 *       8 -- 9 -- 4
 *          / | \         x (first player) starts on 1, 2, 3, 4 and o on
 *         7  6  5        5, 6, 7, 8; the centre is empty; x moves first
 *
 * A move slides one of your pieces to the empty point (there is always
 * exactly one): from a kewai to a neighbouring kewai, from the centre to any
 * kewai, or from a kewai to the centre, this last one only when the piece
 * stands next to (on the ring) at least one opponent piece. A player who
 * cannot move loses. The centre rule is the usual one (Bell, Wikipedia), and
 * it is also the opening rule used here, applied from the first move on: it
 * stops the first player from walking a middle piece (2 or 3) into the
 * centre, which would block the second player at once. Some sources restrict
 * the centre only during the first two turns or only for the first move
 * (Ludii's "First Two Turns" and "First Move" rulesets); they are not
 * implemented. With perfect play the game is a draw (Wikipedia, citing the
 * GamesCrafters analysis: 1180 reachable positions, 208 wins, 128 losses,
 * 844 draws).
 *
 * Hash: base 3 over the nine points with the player to move (games/board.h),
 * 2 * 3^9 = 39,366 positions. A move is the point (0..8) whose piece moves.
 * Un-moves: a piece of the last player next to the empty point goes back to it
 * (into the centre only if the centre rule allowed the move it undoes). Option
 * `sym` stores one position per class of the 16 symmetries of the star
 * (rotations and reflections; Scientific Gems counts 86 classes in play).
 */
#include <stdio.h>
#include <stdlib.h>

#include "games/board.h"
#include "games/game.h"

enum { MT_KEWAI = 8, MT_CENTRE = 8, MT_POINTS = 9 };

typedef struct Mt {
    BaseK hash;
    BoardSyms syms;
} Mt;

static const Mt *mt(const Game *g) { return g->self; }

static const char mt_symbols[] = "-xo";

/* ------------------------------------------------------------------ board */

static int mt_next(int k) { return (k + 1) % MT_KEWAI; }
static int mt_prev(int k) { return (k + MT_KEWAI - 1) % MT_KEWAI; }

static int mt_empty_point(const uint8_t *cells) {
    for (int i = 0; i < MT_POINTS; i++) {
        if (cells[i] == BOARD_EMPTY) {
            return i;
        }
    }
    return -1;
}

/* True when the piece on kewai k has an opponent of `piece` next to it. */
static bool mt_near_opponent(const uint8_t *cells, int k, uint8_t piece) {
    uint8_t a = cells[mt_prev(k)], b = cells[mt_next(k)];
    return (a != BOARD_EMPTY && a != piece) || (b != BOARD_EMPTY && b != piece);
}

/* The points whose piece the player to move can move into the empty point. */
static int mt_board_moves(const uint8_t *cells, int turn, Move *moves) {
    uint8_t piece = board_piece(turn);
    int e = mt_empty_point(cells), n = 0;
    if (e == MT_CENTRE) {
        for (int k = 0; k < MT_KEWAI; k++) {
            if (cells[k] == piece && mt_near_opponent(cells, k, piece)) {
                moves[n++] = k;
            }
        }
    } else if (e >= 0) {
        const int from[3] = {mt_prev(e), mt_next(e), MT_CENTRE};
        for (int i = 0; i < 3; i++) {
            if (cells[from[i]] == piece) {
                moves[n++] = from[i];
            }
        }
    }
    return n;
}

/* -------------------------------------------------------- stateless family */

static Value mt_primitive(const Game *g, Position pos) {
    uint8_t cells[MT_POINTS];
    Move moves[MT_POINTS];
    int turn = basek_unhash_turn(&mt(g)->hash, pos, cells);
    return mt_board_moves(cells, turn, moves) == 0 ? VALUE_LOSE : VALUE_UNDECIDED;
}

static int mt_generate_moves(const Game *g, Position pos, Move *moves) {
    uint8_t cells[MT_POINTS];
    int turn = basek_unhash_turn(&mt(g)->hash, pos, cells);
    return mt_board_moves(cells, turn, moves);
}

static Position mt_do_move(const Game *g, Position pos, Move move) {
    uint8_t cells[MT_POINTS];
    int turn = basek_unhash_turn(&mt(g)->hash, pos, cells);
    int e = mt_empty_point(cells);
    cells[e] = cells[move];
    cells[move] = BOARD_EMPTY;
    return basek_hash_turn(&mt(g)->hash, cells, 1 - turn);
}

static int mt_turn(const Game *g, Position pos) {
    uint8_t cells[MT_POINTS];
    return basek_unhash_turn(&mt(g)->hash, pos, cells);
}

static Position mt_canonical(const Game *g, Position pos) {
    uint8_t cells[MT_POINTS];
    int turn = basek_unhash_turn(&mt(g)->hash, pos, cells);
    return board_canonical(&mt(g)->hash, &mt(g)->syms, cells, turn);
}

/* The last mover moved a piece from the (now) empty point e to a point d next
 * to it: d a ring neighbour of e, or d the centre (allowed only when the piece
 * on e had an opponent beside it, which the move did not change), or, when e
 * is the centre, any kewai. At most 4 parents (the last mover's 4 pieces). */
static int mt_generate_parents(const Game *g, Position pos, Position *parents) {
    const Mt *t = mt(g);
    uint8_t cells[MT_POINTS];
    int turn = basek_unhash_turn(&t->hash, pos, cells);
    uint8_t last = board_piece(1 - turn);
    int e = mt_empty_point(cells), n = 0;
    int from[MT_KEWAI], nfrom = 0;
    if (e == MT_CENTRE) {
        for (int k = 0; k < MT_KEWAI; k++) {
            from[nfrom++] = k;
        }
    } else if (e >= 0) {
        from[nfrom++] = mt_prev(e);
        from[nfrom++] = mt_next(e);
        if (mt_near_opponent(cells, e, last)) {
            from[nfrom++] = MT_CENTRE;
        }
    }
    for (int i = 0; i < nfrom; i++) {
        int d = from[i];
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

static void mt_format(const Game *g, Position pos, char *buf, size_t n) {
    uint8_t cells[MT_POINTS];
    int turn = basek_unhash_turn(&mt(g)->hash, pos, cells);
    board_format(cells, MT_POINTS, turn, mt_symbols, buf, n);
}

static void mt_print(const Game *g, Position pos, char *buf, size_t n) {
    uint8_t cells[MT_POINTS];
    Move moves[MT_POINTS];
    int turn = basek_unhash_turn(&mt(g)->hash, pos, cells);
    char c[MT_POINTS];
    for (int i = 0; i < MT_POINTS; i++) {
        c[i] = mt_symbols[cells[i]];
    }
    const char *status = mt_board_moves(cells, turn, moves) == 0 ? "blocked: game over"
                         : turn == 0                             ? "x to move"
                                                                 : "o to move";
    snprintf(buf, n,
             " %c %c %c     1 2 3\n"
             " %c %c %c     8 9 4    %s\n"
             " %c %c %c     7 6 5\n",
             c[0], c[1], c[2], c[7], c[8], c[3], status, c[6], c[5], c[4]);
}

static void mt_move_name(const Game *g, Position pos, Move move, char *buf, size_t n) {
    uint8_t cells[MT_POINTS];
    basek_unhash_turn(&mt(g)->hash, pos, cells);
    snprintf(buf, n, "%d-%d", (int)move + 1, mt_empty_point(cells) + 1);
}

static ErrCode mt_parse(const Game *g, const char *text, Position *pos, Error *err) {
    uint8_t cells[MT_POINTS];
    int turn;
    ErrCode rc = board_parse(text, MT_POINTS, mt_symbols,
                             "9 points (the kewai 1..8 around the star, then the centre)", cells,
                             &turn, err);
    if (rc != ERR_OK) {
        return rc;
    }
    if (board_count(cells, MT_POINTS, BOARD_FIRST) != 4 ||
        board_count(cells, MT_POINTS, BOARD_SECOND) != 4) {
        return error_set(err, ERR_USAGE,
                         "'%s' must have four x, four o and one empty point (e.g. %s)", text,
                         "xxxxoooo-:x");
    }
    *pos = basek_hash_turn(&mt(g)->hash, cells, turn);
    return ERR_OK;
}

static const GameOps mt_ops = {
    .primitive = mt_primitive,
    .generate_moves = mt_generate_moves,
    .do_move = mt_do_move,
    .turn = mt_turn,
    .canonical = mt_canonical,
    .generate_parents = mt_generate_parents,
    .format = mt_format,
    .parse = mt_parse,
    .print = mt_print,
    .move_name = mt_move_name,
};

/* ------------------------------------------------------------------ module */

static ErrCode mt_create(Game *g, Error *err) {
    Mt *t = calloc(1, sizeof *t);
    if (t == NULL) {
        return error_set(err, ERR_MEMORY, "out of memory");
    }
    ErrCode rc = basek_init(&t->hash, 3, MT_POINTS, err);
    if (rc != ERR_OK) {
        free(t);
        return rc;
    }
    /* The dihedral group of the ring: kewai k goes to r + k (rotation by r)
     * or r - k (reflection, then rotation); the centre stays. */
    t->syms.count = 16;
    for (int s = 0; s < 16; s++) {
        int r = s % MT_KEWAI;
        for (int k = 0; k < MT_KEWAI; k++) {
            int image = s < MT_KEWAI ? r + k : r - k + MT_KEWAI;
            t->syms.map[s][k] = (uint8_t)(image % MT_KEWAI);
        }
        t->syms.map[s][MT_CENTRE] = MT_CENTRE;
    }
    uint8_t start[MT_POINTS];
    for (int i = 0; i < MT_POINTS; i++) {
        start[i] = i < 4 ? BOARD_FIRST : i < MT_KEWAI ? BOARD_SECOND : BOARD_EMPTY;
    }
    g->self = t;
    g->ops = &mt_ops;
    g->num_positions = 2 * t->hash.size;
    g->initial = basek_hash_turn(&t->hash, start, 0);
    g->max_moves = 4;
    g->max_parents = 4;
    g->max_depth = 0;
    g->loopy = true;
    g->symmetric = opt_bool(&g->options, "sym");
    return ERR_OK;
}

static const OptionSpec mt_options[] = {
    {.name = "sym", .type = OPT_BOOL, .help = "canonicalize under the 16 symmetries of the star"},
    {0},
};

static const GameTestVariant mt_tests[] = {{.options = ""}, {.options = "sym"}, {NULL}};

const GameModule mutorere_module = {
    .name = "mutorere",
    .title = "Mu Torere",
    .description = "Maori eight-pointed star, four pieces each (loopy; a draw)",
    .options = mt_options,
    .test_variants = mt_tests,
    .create = mt_create,
};
