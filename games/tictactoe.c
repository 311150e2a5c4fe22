/* games/tictactoe.c: tic-tac-toe (GamesmanClassic's mttt.c, in three families).
 *
 * Board: 9 cells, row by row, each Blank (0), o (1) or x (2); x moves first.
 * Hash: base 3 over the cells (hash/basek.h), 3^9 = 19,683 positions; whose
 * turn it is follows from the piece counts.
 *
 *      0 | 1 | 2      A move is the index of the empty cell that the player
 *     ---+---+---     to move fills; players see it as 1..9.
 *      3 | 4 | 5
 *     ---+---+---     Primitive: a line of three ends the game: the player to
 *      6 | 7 | 8      move has lost (won, in misere); a full board is a tie.
 *
 * Families:
 *   stateless   every call unhashes its position (the GPS document's
 *               baseline); do_move adds one base-3 digit (one hash).
 *   gps         the seed's gPosition: board, next piece, pieces placed and a
 *               move history; do_move re-hashes the whole board as the seed's
 *               BlankOXToPosition does; primitive scans the 8 lines.
 *   gps-cached  adds a free-cell list (generate_moves copies it), per-line
 *               piece counts (a line reaching 3 marks the winner in do_move,
 *               so primitive is O(1)), and the hash kept up to date by one
 *               digit change per move. With `sym`, the 8 symmetric hashes are
 *               kept the same way, so canonical() is a minimum of 8 numbers.
 * Un-moves (generate_parents) take back a piece of the last player, for the
 * retrograde solvers.
 *
 * Tiers: tier t (0..9), named "ply<t>", holds the boards with t pieces,
 * ceil(t/2) x and floor(t/2) o; a move leads from tier t to tier t+1. The base-3 hash is not
 * tier-major, so a position's index in its tier is its rank among the
 * boards with the tier's piece counts, in the generic combinatorial hash
 * (hash/generic.h) whose blocks are the legal piece counts (x = o or o + 1):
 * index_of unhashes (base 3) and ranks (one hash); position_at unranks (one
 * unhash) and hashes (base 3). The tiers cover the 6,046 boards with legal
 * piece counts (1 + 9 + 72 + ... + 126); the other base-3 slots belong to
 * no tier and are never reached.
 *
 * Options: misere (three in a row loses), sym (store one position per class
 * of the 8 board symmetries; 765 classes are reachable).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "games/encoding.h"
#include "games/game.h"
#include "games/grid.h"
#include "hash/basek.h"
#include "hash/generic.h"

enum { BLANK = 0, O_PIECE = 1, X_PIECE = 2 };
enum { CELLS = GRID3_CELLS, LINES = GRID3_LINES, SYMMETRIES = GRID_SQUARE_SYMS };

typedef struct Ttt {
    BaseK hash;
    GenericHash tier_hash;     /* tier-local index: rank among boards with the tier's counts */
    int tier_tuple[CELLS + 1]; /* the tier_hash block of each tier */
    bool misere;
    uint8_t sym[SYMMETRIES][CELLS];  /* sym[s][i]: where cell i goes under symmetry s */
    uint8_t lines_through[CELLS][4]; /* lines through each cell */
    uint8_t nlines_through[CELLS];
    EncBuilder *enc; /* the Boolean encoding (symbolic solvers) */
} Ttt;

static const Ttt *ttt(const Game *g) { return g->self; }

/* ------------------------------------------------------------------ board */

static bool three_in_a_row(const uint8_t *cells) {
    for (int l = 0; l < LINES; l++) {
        uint8_t a = cells[grid3_lines[l][0]];
        if (a != BLANK && a == cells[grid3_lines[l][1]] && a == cells[grid3_lines[l][2]]) {
            return true;
        }
    }
    return false;
}

static int count_pieces(const uint8_t *cells) {
    int n = 0;
    for (int i = 0; i < CELLS; i++) {
        n += cells[i] != BLANK;
    }
    return n;
}

/* x moves when the counts are equal. */
static uint8_t piece_to_move(int placed) { return (placed & 1) ? O_PIECE : X_PIECE; }

static Value board_primitive(const Ttt *t, const uint8_t *cells, int placed) {
    if (three_in_a_row(cells)) {
        return t->misere ? VALUE_WIN : VALUE_LOSE;
    }
    return placed == CELLS ? VALUE_TIE : VALUE_UNDECIDED;
}

static int board_moves(const uint8_t *cells, Move *moves) {
    int n = 0;
    for (int i = 0; i < CELLS; i++) {
        if (cells[i] == BLANK) {
            moves[n++] = i;
        }
    }
    return n;
}

/* Smallest hash over the 8 symmetric images of the board (8 hashes). */
static Position board_canonical(const Ttt *t, const uint8_t *cells) {
    Position best = UINT64_MAX;
    for (int s = 0; s < SYMMETRIES; s++) {
        uint8_t image[CELLS];
        for (int i = 0; i < CELLS; i++) {
            image[t->sym[s][i]] = cells[i];
        }
        Position p = basek_hash(&t->hash, image);
        if (p < best) {
            best = p;
        }
    }
    return best;
}

static char piece_char(uint8_t c) { return c == X_PIECE ? 'x' : c == O_PIECE ? 'o' : '-'; }

/* -------------------------------------------------------- stateless family */

static Value ttt_primitive(const Game *g, Position pos) {
    uint8_t cells[CELLS];
    basek_unhash(&ttt(g)->hash, pos, cells);
    return board_primitive(ttt(g), cells, count_pieces(cells));
}

static int ttt_generate_moves(const Game *g, Position pos, Move *moves) {
    uint8_t cells[CELLS];
    basek_unhash(&ttt(g)->hash, pos, cells);
    return board_moves(cells, moves);
}

static Position ttt_do_move(const Game *g, Position pos, Move move) {
    uint8_t cells[CELLS];
    basek_unhash(&ttt(g)->hash, pos, cells);
    return basek_replace(&ttt(g)->hash, pos, move, BLANK, piece_to_move(count_pieces(cells)));
}

static int ttt_turn(const Game *g, Position pos) {
    uint8_t cells[CELLS];
    basek_unhash(&ttt(g)->hash, pos, cells);
    return count_pieces(cells) & 1;
}

static Position ttt_canonical(const Game *g, Position pos) {
    uint8_t cells[CELLS];
    basek_unhash(&ttt(g)->hash, pos, cells);
    return board_canonical(ttt(g), cells);
}

/* Un-moves: take back one piece of the player who moved last. A parent with
 * a line would have ended the game, so it is not a parent. With `sym`, the
 * parents are canonicalized and listed once. At most 5 (x's pieces). */
static int ttt_generate_parents(const Game *g, Position pos, Position *parents) {
    const Ttt *t = ttt(g);
    uint8_t cells[CELLS];
    basek_unhash(&t->hash, pos, cells);
    int placed = count_pieces(cells);
    if (placed == 0) {
        return 0;
    }
    uint8_t last = piece_to_move(placed - 1);
    int n = 0;
    for (int i = 0; i < CELLS; i++) {
        if (cells[i] != last) {
            continue;
        }
        cells[i] = BLANK;
        if (!three_in_a_row(cells)) {
            Position q = g->symmetric ? board_canonical(t, cells) : basek_hash(&t->hash, cells);
            bool listed = false;
            for (int k = 0; k < n && !listed; k++) {
                listed = parents[k] == q;
            }
            if (!listed) {
                parents[n++] = q;
            }
        }
        cells[i] = last;
    }
    return n;
}

static void ttt_format(const Game *g, Position pos, char *buf, size_t n) {
    uint8_t cells[CELLS];
    basek_unhash(&ttt(g)->hash, pos, cells);
    char text[CELLS + 1];
    for (int i = 0; i < CELLS; i++) {
        text[i] = piece_char(cells[i]);
    }
    text[CELLS] = '\0';
    snprintf(buf, n, "%s", text);
}

static void ttt_print(const Game *g, Position pos, char *buf, size_t n) {
    uint8_t cells[CELLS];
    basek_unhash(&ttt(g)->hash, pos, cells);
    int placed = count_pieces(cells);
    Value v = board_primitive(ttt(g), cells, placed);
    const char *status = v == VALUE_UNDECIDED
                             ? (piece_to_move(placed) == X_PIECE ? "x to move" : "o to move")
                             : "game over";
    char c[CELLS];
    for (int i = 0; i < CELLS; i++) {
        c[i] = piece_char(cells[i]);
    }
    snprintf(buf, n, " %c %c %c    1 2 3\n %c %c %c    4 5 6    %s\n %c %c %c    7 8 9\n", c[0],
             c[1], c[2], c[3], c[4], c[5], status, c[6], c[7], c[8]);
}

static void ttt_move_name(const Game *g, Position pos, Move move, char *buf, size_t n) {
    (void)g;
    (void)pos;
    snprintf(buf, n, "%d", (int)move + 1);
}

static ErrCode ttt_parse(const Game *g, const char *text, Position *pos, Error *err) {
    if (strlen(text) != CELLS) {
        return error_set(err, ERR_USAGE,
                         "a tic-tac-toe position is 9 cells row by row from x, o and - "
                         "(e.g. x-o------); '%s' has %zu",
                         text, strlen(text));
    }
    uint8_t cells[CELLS];
    int nx = 0, no = 0;
    for (int i = 0; i < CELLS; i++) {
        switch (text[i]) {
        case 'x':
        case 'X':
            cells[i] = X_PIECE;
            nx++;
            break;
        case 'o':
        case 'O':
            cells[i] = O_PIECE;
            no++;
            break;
        case '-':
        case '.':
            cells[i] = BLANK;
            break;
        default:
            return error_set(err, ERR_USAGE, "'%c' at cell %d of '%s' is not x, o or - (blank)",
                             text[i], i + 1, text);
        }
    }
    if (nx != no && nx != no + 1) {
        return error_set(err, ERR_USAGE,
                         "'%s' has %d x and %d o; x moves first, so x must have as many as o "
                         "or one more",
                         text, nx, no);
    }
    bool xl = grid3_has_line(cells, X_PIECE), ol = grid3_has_line(cells, O_PIECE);
    if ((xl && ol) || (xl && nx != no + 1) || (ol && nx != no)) {
        return error_set(err, ERR_USAGE,
                         "'%s' cannot arise in play: the game stops at the first three in a row",
                         text);
    }
    *pos = basek_hash(&ttt(g)->hash, cells);
    return ERR_OK;
}

static const GameOps ttt_ops = {
    .primitive = ttt_primitive,
    .generate_moves = ttt_generate_moves,
    .do_move = ttt_do_move,
    .turn = ttt_turn,
    .canonical = ttt_canonical,
    .generate_parents = ttt_generate_parents,
    .format = ttt_format,
    .parse = ttt_parse,
    .print = ttt_print,
    .move_name = ttt_move_name,
};

/* -------------------------------------------------------------- GPS family */

typedef struct TttGps {
    const Ttt *t;
    uint8_t cells[CELLS];
    int placed;
    uint8_t next; /* the piece placed next */
    int nhist;
    Move hist[CELLS];
} TttGps;

static GpsState *gps_create(const Game *g, Error *err) {
    TttGps *s = mem_calloc(1, sizeof *s, "a tic-tac-toe GPS state", err);
    if (s == NULL) {
        return NULL;
    }
    s->t = ttt(g);
    s->next = X_PIECE;
    return (GpsState *)s;
}

static void gps_destroy(GpsState *st) { free(st); }

static void gps_set(GpsState *st, Position pos) {
    TttGps *s = (TttGps *)st;
    basek_unhash(&s->t->hash, pos, s->cells);
    s->placed = count_pieces(s->cells);
    s->next = piece_to_move(s->placed);
    s->nhist = 0;
}

static Position gps_position(GpsState *st) {
    TttGps *s = (TttGps *)st;
    return basek_hash(&s->t->hash, s->cells);
}

static Value gps_primitive_scan(GpsState *st) {
    TttGps *s = (TttGps *)st;
    return board_primitive(s->t, s->cells, s->placed);
}

static int gps_moves_scan(GpsState *st, Move *moves) {
    return board_moves(((TttGps *)st)->cells, moves);
}

static Position gps_do(GpsState *st, Move move) {
    TttGps *s = (TttGps *)st;
    s->cells[move] = s->next;
    s->next = s->next == X_PIECE ? O_PIECE : X_PIECE;
    s->placed++;
    s->hist[s->nhist++] = move;
    return basek_hash(&s->t->hash, s->cells);
}

static void gps_undo(GpsState *st) {
    TttGps *s = (TttGps *)st;
    Move move = s->hist[--s->nhist];
    s->cells[move] = BLANK;
    s->next = s->next == X_PIECE ? O_PIECE : X_PIECE;
    s->placed--;
}

static Position gps_canonical(GpsState *st) {
    TttGps *s = (TttGps *)st;
    return board_canonical(s->t, s->cells);
}

static int gps_turn(GpsState *st) { return ((TttGps *)st)->placed & 1; }

static const GpsOps ttt_gps = {
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

typedef struct TttUndo {
    uint8_t move;
    uint8_t slot; /* where the move stood in the free list */
    bool won;     /* the win flag before the move */
} TttUndo;

typedef struct TttCached {
    const Ttt *t;
    bool symmetric;
    uint8_t cells[CELLS];
    int placed;
    uint8_t next;
    bool won;                      /* the player who just moved made three in a row */
    Position hash;                 /* hash of cells */
    Position sym_hash[SYMMETRIES]; /* hashes of the symmetric images (symmetric only) */
    uint8_t nfree;
    uint8_t free_cells[CELLS];    /* free_cells[0..nfree) are the empty cells */
    uint8_t slot_of[CELLS];       /* slot_of[c]: index of c in free_cells, if free */
    uint8_t line_count[3][LINES]; /* pieces of each kind on each line */
    int nhist;
    TttUndo hist[CELLS];
} TttCached;

static GpsState *cached_create(const Game *g, Error *err) {
    TttCached *s = mem_calloc(1, sizeof *s, "a tic-tac-toe GPS-cached state", err);
    if (s == NULL) {
        return NULL;
    }
    s->t = ttt(g);
    s->symmetric = g->symmetric;
    return (GpsState *)s;
}

static void cached_set(GpsState *st, Position pos) {
    TttCached *s = (TttCached *)st;
    const Ttt *t = s->t;
    basek_unhash(&t->hash, pos, s->cells);
    s->hash = pos;
    s->placed = count_pieces(s->cells);
    s->next = piece_to_move(s->placed);
    s->won = three_in_a_row(s->cells);
    memset(s->line_count, 0, sizeof s->line_count);
    for (int l = 0; l < LINES; l++) {
        for (int k = 0; k < 3; k++) {
            s->line_count[s->cells[grid3_lines[l][k]]][l]++;
        }
    }
    s->nfree = 0;
    for (int i = 0; i < CELLS; i++) {
        if (s->cells[i] == BLANK) {
            s->slot_of[i] = s->nfree;
            s->free_cells[s->nfree++] = (uint8_t)i;
        }
    }
    if (s->symmetric) {
        /* The images' hashes are derived from pos by digit changes, so the
         * only unhash is the one above; each image counts one hash. */
        for (int sy = 0; sy < SYMMETRIES; sy++) {
            uint8_t image[CELLS];
            for (int i = 0; i < CELLS; i++) {
                image[t->sym[sy][i]] = s->cells[i];
            }
            s->sym_hash[sy] = basek_hash(&t->hash, image);
        }
    }
    s->nhist = 0;
}

static Position cached_position(GpsState *st) { return ((TttCached *)st)->hash; }

static Value cached_primitive(GpsState *st) {
    TttCached *s = (TttCached *)st;
    if (s->won) {
        return s->t->misere ? VALUE_WIN : VALUE_LOSE;
    }
    return s->placed == CELLS ? VALUE_TIE : VALUE_UNDECIDED;
}

static int cached_moves(GpsState *st, Move *moves) {
    TttCached *s = (TttCached *)st;
    for (int i = 0; i < s->nfree; i++) {
        moves[i] = s->free_cells[i];
    }
    return s->nfree;
}

static Position cached_do(GpsState *st, Move move) {
    TttCached *s = (TttCached *)st;
    const Ttt *t = s->t;
    uint8_t piece = s->next;
    s->cells[move] = piece;
    /* Remove the cell from the free list: swap with the last free cell. */
    uint8_t slot = s->slot_of[move];
    uint8_t last = s->free_cells[--s->nfree];
    s->free_cells[slot] = last;
    s->slot_of[last] = slot;
    s->hist[s->nhist++] = (TttUndo){.move = (uint8_t)move, .slot = slot, .won = s->won};
    /* Incremental win detection: only the lines through this cell change. */
    for (int k = 0; k < t->nlines_through[move]; k++) {
        uint8_t l = t->lines_through[move][k];
        s->line_count[BLANK][l]--;
        if (++s->line_count[piece][l] == 3) {
            s->won = true;
        }
    }
    s->placed++;
    s->next = piece == X_PIECE ? O_PIECE : X_PIECE;
    if (s->symmetric) {
        for (int sy = 0; sy < SYMMETRIES; sy++) {
            s->sym_hash[sy] =
                basek_replace(&t->hash, s->sym_hash[sy], t->sym[sy][move], BLANK, piece);
        }
    }
    s->hash = basek_replace(&t->hash, s->hash, move, BLANK, piece);
    return s->hash;
}

static void cached_undo(GpsState *st) {
    TttCached *s = (TttCached *)st;
    const Ttt *t = s->t;
    TttUndo u = s->hist[--s->nhist];
    uint8_t piece = s->cells[u.move];
    s->cells[u.move] = BLANK;
    /* Put the cell back in its slot; the cell there goes back to the end. */
    uint8_t displaced = s->free_cells[u.slot];
    s->free_cells[s->nfree] = displaced;
    s->slot_of[displaced] = s->nfree;
    s->free_cells[u.slot] = u.move;
    s->slot_of[u.move] = u.slot;
    s->nfree++;
    for (int k = 0; k < t->nlines_through[u.move]; k++) {
        uint8_t l = t->lines_through[u.move][k];
        s->line_count[piece][l]--;
        s->line_count[BLANK][l]++;
    }
    s->won = u.won;
    s->placed--;
    s->next = piece;
    /* Undo restores values, it does not hash: the old positions are derived
     * by subtracting the digit, which is not a new board encoding. */
    s->hash -= (uint64_t)piece * t->hash.pow[u.move];
    if (s->symmetric) {
        for (int sy = 0; sy < SYMMETRIES; sy++) {
            s->sym_hash[sy] -= (uint64_t)piece * t->hash.pow[t->sym[sy][u.move]];
        }
    }
}

static Position cached_canonical(GpsState *st) {
    TttCached *s = (TttCached *)st;
    Position best = s->sym_hash[0];
    for (int sy = 1; sy < SYMMETRIES; sy++) {
        if (s->sym_hash[sy] < best) {
            best = s->sym_hash[sy];
        }
    }
    return best;
}

static int cached_turn(GpsState *st) { return ((TttCached *)st)->placed & 1; }

static const GpsOps ttt_gps_cached = {
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

/* ------------------------------------------------------------------ tiers */

static int ttt_tier_count(const Game *g) {
    (void)g;
    return CELLS + 1;
}

static uint64_t ttt_tier_size(const Game *g, int tier) {
    const Ttt *t = ttt(g);
    return t->tier_hash.multi[t->tier_tuple[tier]];
}

static int ttt_tier_of(const Game *g, Position pos) {
    uint8_t cells[CELLS];
    basek_unhash(&ttt(g)->hash, pos, cells);
    return count_pieces(cells);
}

static int ttt_tier_children(const Game *g, int tier, int *child_tiers) {
    (void)g;
    if (tier == CELLS) {
        return 0;
    }
    child_tiers[0] = tier + 1;
    return 1;
}

static uint64_t ttt_index_of(const Game *g, Position pos) {
    const Ttt *t = ttt(g);
    uint8_t cells[CELLS];
    basek_unhash(&t->hash, pos, cells);
    int tuple = t->tier_tuple[count_pieces(cells)];
    return generic_hash(&t->tier_hash, cells, 0) - t->tier_hash.offset[tuple];
}

static Position ttt_position_at(const Game *g, int tier, uint64_t i) {
    const Ttt *t = ttt(g);
    uint8_t cells[CELLS];
    generic_unhash(&t->tier_hash, t->tier_hash.offset[t->tier_tuple[tier]] + i, cells);
    return basek_hash(&t->hash, cells);
}

/* The generic hash's blocks: x has as many pieces as o, or one more. */
static bool legal_counts(const int *counts, void *ctx) {
    (void)ctx;
    return counts[X_PIECE] == counts[O_PIECE] || counts[X_PIECE] == counts[O_PIECE] + 1;
}

static ErrCode init_tiers(Ttt *t, Error *err) {
    static const int min[3] = {0, 0, 0};
    static const int max[3] = {CELLS, CELLS / 2, (CELLS + 1) / 2};
    ErrCode rc = generic_init(&t->tier_hash, CELLS, 3, min, max, 1, legal_counts, NULL, err);
    for (int tier = 0; rc == ERR_OK && tier <= CELLS; tier++) {
        int counts[3] = {CELLS - tier, tier / 2, (tier + 1) / 2};
        t->tier_tuple[tier] = generic_tuple(&t->tier_hash, counts);
        if (t->tier_tuple[tier] < 0) {
            rc = error_set(err, ERR_INTERNAL, "tic-tac-toe tier %d has no hash block", tier);
        }
    }
    return rc;
}

/* TierOps.name: "ply5", the pieces on the board (the moves played). */
static void ttt_tier_name(const Game *g, int tier, char *buf, size_t n) {
    (void)g;
    snprintf(buf, n, "ply%d", tier);
}

static const TierOps ttt_tiers = {
    .count = ttt_tier_count,
    .size = ttt_tier_size,
    .tier_of = ttt_tier_of,
    .children = ttt_tier_children,
    .index_of = ttt_index_of,
    .position_at = ttt_position_at,
    .name = ttt_tier_name,
};

/* ---------------------------------------------------------------- encoding */

/* The Boolean encoding (games/game.h GameEncoding) for symbolic solvers:
 * variable 0 is the side to move (1: o), then per cell i "occupied"
 * (1 + 2i) and "owner" (2 + 2i, 1: o; 0 in an empty cell). A move fills an
 * empty cell for the player to move and flips the turn; primitive: a line
 * of the player who just moved (lose, win in misere), then a full board
 * (tie). 19 variables, 18 moves. */
static Position ttt_enc_position(const Game *g, const uint8_t *values) {
    uint8_t cells[CELLS];
    for (int i = 0; i < CELLS; i++) {
        cells[i] = values[1 + 2 * i] ? (values[2 + 2 * i] ? O_PIECE : X_PIECE) : BLANK;
    }
    return basek_hash(&ttt(g)->hash, cells);
}

/* The inverse of ttt_enc_position (GameEncoding.values): the ply is the
 * number of marks; -1 unless x has as many marks as o or one more. */
static int ttt_enc_values(const Game *g, Position pos, uint8_t *values) {
    uint8_t cells[CELLS];
    basek_unhash(&ttt(g)->hash, pos, cells);
    int nx = 0, no = 0;
    for (int i = 0; i < CELLS; i++) {
        nx += cells[i] == X_PIECE;
        no += cells[i] == O_PIECE;
        values[1 + 2 * i] = cells[i] != BLANK;
        values[2 + 2 * i] = cells[i] == O_PIECE;
    }
    values[0] = (uint8_t)(nx > no);
    return nx == no || nx == no + 1 ? nx + no : -1;
}

static ErrCode init_encoding(Game *g, Ttt *t, Error *err) {
    enum { X_TURN = 0, O_TURN = 1 };
    EncBuilder *b = enc_create(2 * CELLS + 1, 2 * CELLS, 2 * LINES + 1,
                               2 * CELLS * 6 + (2 * LINES + 1) * 7 + CELLS, err);
    if (b == NULL) {
        return ERR_MEMORY;
    }
    for (int i = 0; i < CELLS; i++) {
        for (int p = X_TURN; p <= O_TURN; p++) {
            enc_lit(b, 0, p);
            enc_lit(b, 1 + 2 * i, 0);
            GameEncTerm pre = enc_term(b);
            enc_lit(b, 0, 1 - p);
            enc_lit(b, 1 + 2 * i, 1);
            enc_lit(b, 2 + 2 * i, p);
            enc_move(b, pre, enc_term(b));
        }
    }
    enc_primitive(b, t->misere ? VALUE_WIN : VALUE_LOSE);
    for (int p = X_TURN; p <= O_TURN; p++) {
        for (int l = 0; l < LINES; l++) {
            enc_lit(b, 0, 1 - p); /* p moved last */
            for (int k = 0; k < 3; k++) {
                enc_lit(b, 1 + 2 * grid3_lines[l][k], 1);
                enc_lit(b, 2 + 2 * grid3_lines[l][k], p);
            }
            enc_primitive_term(b, enc_term(b));
        }
    }
    enc_primitive(b, VALUE_TIE);
    for (int i = 0; i < CELLS; i++) {
        enc_lit(b, 1 + 2 * i, 1);
    }
    enc_primitive_term(b, enc_term(b));
    b->enc.position = ttt_enc_position;
    b->enc.values = ttt_enc_values;
    ErrCode rc = enc_finish(b, "tictactoe", err);
    if (rc != ERR_OK) {
        return rc;
    }
    t->enc = b;
    g->encoding = &b->enc;
    return ERR_OK;
}

/* ------------------------------------------------------------------ module */

static ErrCode ttt_create(Game *g, Error *err) {
    Ttt *t = mem_calloc(1, sizeof *t, "the tic-tac-toe module", err);
    if (t == NULL) {
        return ERR_MEMORY;
    }
    ErrCode rc = basek_init(&t->hash, 3, CELLS, err);
    if (rc == ERR_OK) {
        rc = init_tiers(t, err);
    }
    t->misere = opt_bool(&g->options, "misere");
    if (rc == ERR_OK) {
        rc = init_encoding(g, t, err);
    }
    if (rc != ERR_OK) {
        generic_destroy(&t->tier_hash);
        free(t);
        return rc;
    }
    /* The 8 symmetries of the square: 4 rotations, each with or without a
     * reflection. */
    grid_square_syms(3, &t->sym[0][0], CELLS);
    for (int l = 0; l < LINES; l++) {
        for (int k = 0; k < 3; k++) {
            int c = grid3_lines[l][k];
            t->lines_through[c][t->nlines_through[c]++] = (uint8_t)l;
        }
    }
    g->self = t;
    g->ops = &ttt_ops;
    g->gps = &ttt_gps;
    g->gps_cached = &ttt_gps_cached;
    g->tiers = &ttt_tiers;
    g->num_positions = t->hash.size;
    g->initial = 0; /* the empty board */
    g->max_moves = CELLS;
    g->max_depth = CELLS;
    g->max_parents = (CELLS + 1) / 2;
    g->symmetric = opt_bool(&g->options, "sym");
    return ERR_OK;
}

static const OptionSpec ttt_options[] = {
    {.name = "misere", .type = OPT_BOOL, .help = "three in a row loses"},
    {.name = "sym", .type = OPT_BOOL, .help = "canonicalize under the 8 board symmetries"},
    {0},
};

static const GameTestVariant ttt_tests[] = {
    {.options = ""}, {.options = "misere"}, {.options = "sym"}, {.options = "misere,sym"}, {NULL},
};

static void ttt_destroy(Game *g) {
    Ttt *t = g->self;
    if (t != NULL) {
        generic_destroy(&t->tier_hash);
        enc_destroy(t->enc);
        free(t);
    }
}

const GameModule tictactoe_module = {
    .name = "tictactoe",
    .title = "Tic-tac-toe",
    .description = "3x3 noughts and crosses; x moves first",
    .options = ttt_options,
    .test_variants = ttt_tests,
    .create = ttt_create,
    .destroy = ttt_destroy,
};
