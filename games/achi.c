/* games/achi.c: Achi, the Ghanaian three-in-a-row game with moving pieces.
 *
 * Rules (Wikipedia, "Achi (game)"; R. C. Bell, Board and Table Games from
 * Many Civilizations; cyningstan.com's Achi page): the board is a 3x3 grid
 * of points joined by the three rows, the three columns and both long
 * diagonals (the lines of tic-tac-toe, drawn):
 *
 *     1 - 2 - 3      points 1..9 row by row; adjacent points are the
 *     | \ | / |      neighbours along a line: orthogonal neighbours, and
 *     4 - 5 - 6      the centre with each corner
 *     | / | \ |
 *     7 - 8 - 9
 *
 * Each player has `pieces` pieces (3 by default, the version Wikipedia calls
 * identical to three men's morris, also known as Tapatan; 4 in the version
 * Wikipedia describes, with one empty point). The first player is x.
 *   - Placement: while pieces remain in hand, the players in turn put one on
 *     any empty point (x first; x places on odd plies, o on even ones).
 *   - Movement: once all 2 * pieces are on the board, a move slides one of
 *     your pieces along a line to an adjacent empty point; x moves first.
 *   - Three of your pieces along one of the 8 lines, made by a placement or a
 *     move, wins at once.
 *   - A player who cannot slide any piece loses (as in the related blocking
 *     games Mu Torere and Pong Hau K'i); with the option `pass` the blocked
 *     player passes instead (the rule of the CSIRO Double Helix instructions),
 *     and two blocked players pass forever: a draw.
 * The placement phase cannot repeat; the movement phase can (loopy).
 *
 * Hash: base 3 over the nine points with the player to move (games/board.h),
 * 2 * 3^9 = 39,366 positions; during placement the player to move follows
 * from the piece counts and the turn bit must agree. A move is the point of a
 * placement (0..8), 9 + 9 * from + to for a slide, or 90 for a pass.
 * Un-moves: take back a placement (remove a piece of the last player), a slide
 * (move one back to an adjacent empty point) or a pass. Option `sym` stores
 * one position per class of the 8 symmetries of the square, which keep the
 * lines and adjacency.
 *
 * Tiers: tier t < 2 * pieces holds the placement boards with t pieces
 * (ceil(t/2) x, floor(t/2) o), one child t + 1, loop-free; tier 2 * pieces is
 * the movement phase, loopy, without child tiers (named "ply<t>" and
 * "movement", TierOps.name). The base-3 hash is not
 * tier-major: a position's index in its tier is its rank, with the player to
 * move, among the boards of the tier's piece counts in the generic
 * combinatorial hash (hash/generic.h); position_at unhashes it and hashes in
 * base 3.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "games/board.h"
#include "games/game.h"
#include "games/grid.h"
#include "hash/generic.h"

enum { ACHI_POINTS = GRID3_CELLS, ACHI_SLIDE = 9, ACHI_PASS = 90 };

/* Neighbours along the lines, ending with -1. */
static const int8_t achi_adjacent[ACHI_POINTS][9] = {
    {1, 3, 4, -1}, {0, 2, 4, -1}, {1, 5, 4, -1}, {0, 6, 4, -1}, {0, 1, 2, 3, 5, 6, 7, 8, -1},
    {2, 8, 4, -1}, {3, 7, 4, -1}, {6, 8, 4, -1}, {7, 5, 4, -1},
};

typedef struct Achi {
    BaseK hash;
    BoardSyms syms;
    GenericHash tier_hash;     /* tier-local index: rank among the tier's boards */
    int tier_tuple[2 * 4 + 1]; /* the tier_hash block of each tier */
    int pieces;                /* per player */
    bool pass;                 /* a blocked player passes instead of losing */
} Achi;

static const Achi *achi(const Game *g) { return g->self; }

static const char achi_symbols[] = "-xo";

/* ------------------------------------------------------------------ board */

static int achi_placed(const uint8_t *cells) {
    return ACHI_POINTS - board_count(cells, ACHI_POINTS, BOARD_EMPTY);
}

static int achi_slides(const uint8_t *cells, int turn, Move *moves) {
    uint8_t piece = board_piece(turn);
    int n = 0;
    for (int from = 0; from < ACHI_POINTS; from++) {
        if (cells[from] != piece) {
            continue;
        }
        for (int k = 0; achi_adjacent[from][k] >= 0; k++) {
            int to = achi_adjacent[from][k];
            if (cells[to] == BOARD_EMPTY) {
                moves[n++] = ACHI_SLIDE + ACHI_POINTS * from + to;
            }
        }
    }
    return n;
}

/* The moves of a position that is not over: placements, slides or a pass. */
static int achi_board_moves(const Achi *a, const uint8_t *cells, int turn, Move *moves) {
    if (achi_placed(cells) < 2 * a->pieces) {
        int n = 0;
        for (int i = 0; i < ACHI_POINTS; i++) {
            if (cells[i] == BOARD_EMPTY) {
                moves[n++] = i;
            }
        }
        return n;
    }
    int n = achi_slides(cells, turn, moves);
    if (n == 0 && a->pass) {
        moves[n++] = ACHI_PASS;
    }
    return n;
}

static Value achi_board_primitive(const Achi *a, const uint8_t *cells, int turn) {
    Move moves[GAME_MAX_MOVES];
    if (grid3_has_line(cells, board_piece(1 - turn))) {
        return VALUE_LOSE;
    }
    return achi_board_moves(a, cells, turn, moves) == 0 ? VALUE_LOSE : VALUE_UNDECIDED;
}

/* -------------------------------------------------------- stateless family */

static Value achi_primitive(const Game *g, Position pos) {
    uint8_t cells[ACHI_POINTS];
    int turn = basek_unhash_turn(&achi(g)->hash, pos, cells);
    return achi_board_primitive(achi(g), cells, turn);
}

static int achi_generate_moves(const Game *g, Position pos, Move *moves) {
    uint8_t cells[ACHI_POINTS];
    int turn = basek_unhash_turn(&achi(g)->hash, pos, cells);
    return achi_board_moves(achi(g), cells, turn, moves);
}

static Position achi_do_move(const Game *g, Position pos, Move move) {
    uint8_t cells[ACHI_POINTS];
    int turn = basek_unhash_turn(&achi(g)->hash, pos, cells);
    if (move < ACHI_SLIDE) {
        cells[move] = board_piece(turn);
    } else if (move < ACHI_PASS) {
        int from = (move - ACHI_SLIDE) / ACHI_POINTS, to = (move - ACHI_SLIDE) % ACHI_POINTS;
        cells[to] = cells[from];
        cells[from] = BOARD_EMPTY;
    }
    return basek_hash_turn(&achi(g)->hash, cells, 1 - turn);
}

static int achi_turn(const Game *g, Position pos) {
    uint8_t cells[ACHI_POINTS];
    return basek_unhash_turn(&achi(g)->hash, pos, cells);
}

static Position achi_canonical(const Game *g, Position pos) {
    uint8_t cells[ACHI_POINTS];
    int turn = basek_unhash_turn(&achi(g)->hash, pos, cells);
    return board_canonical(&achi(g)->hash, &achi(g)->syms, cells, turn);
}

/* Un-moves of the last mover L (the player to move is P). None when P has a
 * line: P made it earlier, so every parent was already over.
 *   - placement: any piece of L is taken back, when the position could follow
 *     a placement: fewer than 2 * pieces on the board, or exactly that many
 *     with x to move (o placed last);
 *   - slide (all pieces on the board): a piece of L next to an empty point
 *     goes back to it;
 *   - pass (option pass, all pieces on the board): the same board with L to
 *     move, when L has no slide there.
 * At most pieces + pieces * (9 - 2 * pieces) + 1 parents. */
static int achi_generate_parents(const Game *g, Position pos, Position *parents) {
    const Achi *a = achi(g);
    uint8_t cells[ACHI_POINTS];
    int turn = basek_unhash_turn(&a->hash, pos, cells);
    int last = 1 - turn, placed = achi_placed(cells), full = 2 * a->pieces;
    uint8_t piece = board_piece(last);
    if (grid3_has_line(cells, board_piece(turn))) {
        return 0;
    }
    int n = 0;
    if (placed < full || (placed == full && turn == 0)) {
        for (int i = 0; i < ACHI_POINTS; i++) {
            if (cells[i] == piece) {
                cells[i] = BOARD_EMPTY;
                n = board_add_unique(parents, n,
                                     board_key(&a->hash, &a->syms, g->symmetric, cells, last));
                cells[i] = piece;
            }
        }
    }
    if (placed != full) {
        return n;
    }
    for (int to = 0; to < ACHI_POINTS; to++) {
        if (cells[to] != piece) {
            continue;
        }
        for (int k = 0; achi_adjacent[to][k] >= 0; k++) {
            int from = achi_adjacent[to][k];
            if (cells[from] == BOARD_EMPTY) {
                cells[from] = piece;
                cells[to] = BOARD_EMPTY;
                n = board_add_unique(parents, n,
                                     board_key(&a->hash, &a->syms, g->symmetric, cells, last));
                cells[to] = piece;
                cells[from] = BOARD_EMPTY;
            }
        }
    }
    Move moves[GAME_MAX_MOVES];
    if (a->pass && achi_slides(cells, last, moves) == 0) {
        n = board_add_unique(parents, n, board_key(&a->hash, &a->syms, g->symmetric, cells, last));
    }
    return n;
}

static void achi_format(const Game *g, Position pos, char *buf, size_t n) {
    uint8_t cells[ACHI_POINTS];
    int turn = basek_unhash_turn(&achi(g)->hash, pos, cells);
    board_format(cells, ACHI_POINTS, turn, achi_symbols, buf, n);
}

static void achi_print(const Game *g, Position pos, char *buf, size_t n) {
    const Achi *a = achi(g);
    uint8_t cells[ACHI_POINTS];
    int turn = basek_unhash_turn(&a->hash, pos, cells);
    char c[ACHI_POINTS]; /* '.' for an empty point: '-' draws the lines */
    for (int i = 0; i < ACHI_POINTS; i++) {
        c[i] = cells[i] == BOARD_EMPTY ? '.' : achi_symbols[cells[i]];
    }
    Value v = achi_board_primitive(a, cells, turn);
    char status[64];
    if (v != VALUE_UNDECIDED) {
        snprintf(status, sizeof status, "game over");
    } else {
        snprintf(status, sizeof status, "%c to %s", turn == 0 ? 'x' : 'o',
                 achi_placed(cells) < 2 * a->pieces ? "place" : "move");
    }
    snprintf(buf, n,
             " %c-%c-%c    1 2 3\n"
             " |\\|/|\n"
             " %c-%c-%c    4 5 6    %s\n"
             " |/|\\|\n"
             " %c-%c-%c    7 8 9\n",
             c[0], c[1], c[2], c[3], c[4], c[5], status, c[6], c[7], c[8]);
}

static void achi_move_name(const Game *g, Position pos, Move move, char *buf, size_t n) {
    (void)g;
    (void)pos;
    if (move < ACHI_SLIDE) {
        snprintf(buf, n, "%d", (int)move + 1);
    } else if (move < ACHI_PASS) {
        snprintf(buf, n, "%d-%d", (int)(move - ACHI_SLIDE) / ACHI_POINTS + 1,
                 (int)(move - ACHI_SLIDE) % ACHI_POINTS + 1);
    } else {
        snprintf(buf, n, "pass");
    }
}

static ErrCode achi_parse(const Game *g, const char *text, Position *pos, Error *err) {
    const Achi *a = achi(g);
    uint8_t cells[ACHI_POINTS];
    int turn;
    ErrCode rc =
        board_parse(text, ACHI_POINTS, achi_symbols, "9 points row by row", cells, &turn, err);
    if (rc != ERR_OK) {
        return rc;
    }
    int nx = board_count(cells, ACHI_POINTS, BOARD_FIRST);
    int no = board_count(cells, ACHI_POINTS, BOARD_SECOND);
    if (nx > a->pieces || no > a->pieces || (nx != no && nx != no + 1)) {
        return error_set(err, ERR_USAGE,
                         "'%s' has %d x and %d o: each player has %d pieces, placed in turn "
                         "with x first",
                         text, nx, no, a->pieces);
    }
    if (nx + no < 2 * a->pieces && turn != (nx + no) % 2) {
        return error_set(err, ERR_USAGE,
                         "in '%s' pieces are still being placed, so %c is to move, not %c", text,
                         (nx + no) % 2 == 0 ? 'x' : 'o', turn == 0 ? 'x' : 'o');
    }
    bool xl = grid3_has_line(cells, BOARD_FIRST), ol = grid3_has_line(cells, BOARD_SECOND);
    if ((xl && ol) || (xl && turn == 0) || (ol && turn == 1)) {
        return error_set(err, ERR_USAGE,
                         "'%s' cannot arise in play: the game stops at the first three in a row, "
                         "made by the player who just moved",
                         text);
    }
    *pos = basek_hash_turn(&a->hash, cells, turn);
    return ERR_OK;
}

/* ------------------------------------------------------------------ tiers */

static int achi_tier_count(const Game *g) { return 2 * achi(g)->pieces + 1; }

static uint64_t achi_tier_size(const Game *g, int tier) {
    const Achi *a = achi(g);
    return 2 * a->tier_hash.multi[a->tier_tuple[tier]];
}

/* The tier of a board: its piece count, or -1 when the counts fit no tier
 * (never reached). */
static int achi_board_tier(const Achi *a, const uint8_t *cells) {
    int x = board_count(cells, ACHI_POINTS, BOARD_FIRST),
        o = board_count(cells, ACHI_POINTS, BOARD_SECOND);
    return (x == o || x == o + 1) && x <= a->pieces && o <= a->pieces ? x + o : -1;
}

static int achi_tier_of(const Game *g, Position pos) {
    uint8_t cells[ACHI_POINTS];
    basek_unhash_turn(&achi(g)->hash, pos, cells);
    return achi_board_tier(achi(g), cells);
}

static int achi_tier_children(const Game *g, int tier, int *child_tiers) {
    if (tier == 2 * achi(g)->pieces) {
        return 0;
    }
    child_tiers[0] = tier + 1;
    return 1;
}

static uint64_t achi_index_of(const Game *g, Position pos) {
    const Achi *a = achi(g);
    uint8_t cells[ACHI_POINTS];
    int turn = basek_unhash_turn(&a->hash, pos, cells);
    int tier = achi_board_tier(a, cells);
    if (tier < 0) {
        return UINT64_MAX;
    }
    return generic_hash(&a->tier_hash, cells, turn) - a->tier_hash.offset[a->tier_tuple[tier]];
}

static Position achi_position_at(const Game *g, int tier, uint64_t i) {
    const Achi *a = achi(g);
    uint8_t cells[ACHI_POINTS];
    int turn = generic_unhash(&a->tier_hash, a->tier_hash.offset[a->tier_tuple[tier]] + i, cells);
    return basek_hash_turn(&a->hash, cells, turn);
}

static bool achi_tier_loopy(const Game *g, int tier) { return tier == 2 * achi(g)->pieces; }

/* TierOps.name: "ply3" for a placement tier (the pieces placed), "movement"
 * for the sliding tier. */
static void achi_tier_name(const Game *g, int tier, char *buf, size_t n) {
    if (tier == 2 * achi(g)->pieces) {
        snprintf(buf, n, "movement");
    } else {
        snprintf(buf, n, "ply%d", tier);
    }
}

static const TierOps achi_tiers = {
    .count = achi_tier_count,
    .size = achi_tier_size,
    .tier_of = achi_tier_of,
    .children = achi_tier_children,
    .index_of = achi_index_of,
    .position_at = achi_position_at,
    .loopy = achi_tier_loopy,
    .name = achi_tier_name,
};

/* The generic hash's blocks: x has as many pieces as o, or one more. */
static bool achi_legal_counts(const int *counts, void *ctx) {
    (void)ctx;
    return counts[BOARD_FIRST] == counts[BOARD_SECOND] ||
           counts[BOARD_FIRST] == counts[BOARD_SECOND] + 1;
}

static ErrCode achi_init_tiers(Achi *a, Error *err) {
    const int min[3] = {0, 0, 0};
    const int max[3] = {ACHI_POINTS, a->pieces, a->pieces};
    ErrCode rc =
        generic_init(&a->tier_hash, ACHI_POINTS, 3, min, max, 2, achi_legal_counts, NULL, err);
    for (int tier = 0; rc == ERR_OK && tier <= 2 * a->pieces; tier++) {
        int counts[3] = {ACHI_POINTS - tier, (tier + 1) / 2, tier / 2};
        a->tier_tuple[tier] = generic_tuple(&a->tier_hash, counts);
        if (a->tier_tuple[tier] < 0) {
            rc = error_set(err, ERR_INTERNAL, "Achi tier %d has no hash block", tier);
        }
    }
    return rc;
}

static const GameOps achi_ops = {
    .primitive = achi_primitive,
    .generate_moves = achi_generate_moves,
    .do_move = achi_do_move,
    .turn = achi_turn,
    .canonical = achi_canonical,
    .generate_parents = achi_generate_parents,
    .format = achi_format,
    .parse = achi_parse,
    .print = achi_print,
    .move_name = achi_move_name,
};

/* ------------------------------------------------------------------ module */

static ErrCode achi_create(Game *g, Error *err) {
    Achi *a = mem_calloc(1, sizeof *a, "the Achi module", err);
    if (a == NULL) {
        return ERR_MEMORY;
    }
    ErrCode rc = basek_init(&a->hash, 3, ACHI_POINTS, err);
    if (rc != ERR_OK) {
        free(a);
        return rc;
    }
    a->pieces = (int)opt_int(&g->options, "pieces");
    a->pass = opt_bool(&g->options, "pass");
    rc = achi_init_tiers(a, err);
    if (rc != ERR_OK) {
        generic_destroy(&a->tier_hash);
        free(a);
        return rc;
    }
    /* The 8 symmetries of the square: 4 rotations, each with or without a
     * reflection. */
    a->syms.count = GRID_SQUARE_SYMS;
    grid_square_syms(3, &a->syms.map[0][0], BOARD_MAX_CELLS);
    uint8_t empty[ACHI_POINTS] = {0};
    int slides = a->pieces * (ACHI_POINTS - 2 * a->pieces);
    g->self = a;
    g->ops = &achi_ops;
    g->tiers = &achi_tiers;
    g->num_positions = 2 * a->hash.size;
    g->initial = basek_hash_turn(&a->hash, empty, 0);
    g->max_moves = slides > ACHI_POINTS ? slides : ACHI_POINTS;
    g->max_parents = a->pieces + slides + 1;
    g->max_depth = 0;
    g->loopy = true;
    g->symmetric = opt_bool(&g->options, "sym");
    return ERR_OK;
}

static const OptionSpec achi_options[] = {
    {.name = "pieces",
     .type = OPT_INT,
     .min = 3,
     .max = 4,
     .def = 3,
     .help = "pieces per player (3: as three men's morris; 4: one empty point)"},
    {.name = "pass", .type = OPT_BOOL, .help = "a blocked player passes instead of losing"},
    {.name = "sym", .type = OPT_BOOL, .help = "canonicalize under the 8 board symmetries"},
    {0},
};

static const GameTestVariant achi_tests[] = {
    {.options = ""},         {.options = "sym"},
    {.options = "pieces=4"}, {.options = "pieces=4,pass,sym"},
    {.options = "pass"},     {NULL},
};

static void achi_destroy(Game *g) {
    Achi *a = g->self;
    if (a != NULL) {
        generic_destroy(&a->tier_hash);
        free(a);
    }
}

const GameModule achi_module = {
    .name = "achi",
    .title = "Achi",
    .description = "three in a row on a 3x3 board with diagonals: place, then slide (loopy)",
    .options = achi_options,
    .test_variants = achi_tests,
    .create = achi_create,
    .destroy = achi_destroy,
};
