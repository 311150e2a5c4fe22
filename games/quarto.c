/* games/quarto.c: Quarto (Blaise Muller, 1991) on n x n boards with 2^a pieces.
 *
 * Rules: the pieces are the 2^a different combinations of a binary
 * attributes (full Quarto: 16 pieces of 4 attributes: tall/short,
 * dark/light, square/round, hollow/solid). The players share the pieces.
 * The first player opens by choosing a piece for the second. From then on,
 * the player to move places the piece chosen for them (the "hand") on an
 * empty square, then chooses one of the remaining pieces for the opponent.
 * A line (row, column or main diagonal) of n pieces that share an attribute
 * (all have it, or all lack it) wins for the player who completed it. When
 * the last piece has been placed, or the board is full, without such a
 * line, the game is a tie. A move is the seed GPS document's Quarto move:
 * a slot and the next piece (GamesmanClassic's mquarto.c); placing the last
 * piece hands over nothing, and the opening "places" the empty hand.
 *
 * Variant: n = 2..4 (board side), attrs = 1..4 (2^attrs pieces), sym. The
 * game lasts min(n^2, 2^attrs) placements plus the opening choice. Full
 * Quarto (n=4, attrs=4) is a tie with perfect play (Luc Goossens, 1998), but
 * its hash space has 2.7 * 10^16 positions: a variant whose database would
 * not fit the memory budget is created with that refusal and its estimate
 * (Game.table_refusal), which every solver gives before solving except one
 * whose memory is bounded by its own options: `search`, with its memo.
 *
 * Symmetry (`sym`): positions are canonical under the group of the maps
 * that preserve the rules: a board map, a permutation of the cells that
 * sends the set of lines (rows, columns, the two diagonals) onto itself,
 * composed with a piece map, a permutation of the attributes followed by a
 * complement (XOR) of any subset of them, applied to every piece on the
 * board and to the hand. A piece map sends n pieces sharing an attribute
 * to n pieces sharing its image, and pieces not in play to pieces not in
 * play, so moves, wins and values are invariant. The board maps are the
 * closure of a few generators: the rotation and the transpose (the 8 of
 * the square; all of them for n = 3); for n = 4 also the swap of the two
 * middle rows and the two middle columns together and the inside-out map
 * (rows and columns 0 1 2 3 -> 1 0 3 2): 32 maps; for n = 2, where every
 * pair of cells is a line, a swap of two cells: all 24 permutations. Full
 * Quarto's group has 32 x 4! x 2^4 = 12,288 elements, the whole group
 * (Kerner, 2001); tests/test_known_quarto.c finds every line-preserving
 * permutation by brute force and checks the canonical position against it.
 *
 * The canonical position is found without applying the 12,288 maps: for
 * each board map b, read the image sequence (the hand, then the image's
 * cells in order) and take its least form, lexicographically, over all
 * piece maps (empty cells are fixed by them): the XOR is forced to the
 * first piece of the sequence (which becomes piece 0, the only way to be
 * least), then each following piece splits the attributes still
 * interchangeable into the ones it has (sent to the lowest free attribute
 * positions: the least value) and the ones it lacks; that greedy choice is
 * the exact least form, since every permutation left keeps the prefix
 * least. The least form depends only on the sequence's class under the
 * piece maps, and a group element (b', f) of a position only permutes the
 * set of its board images (b b') and changes them by f, so the set of the
 * least forms over b, and its least member (compared code by code, empty
 * 0 < pieces), is the same for every member of an orbit; it is one of
 * them. O(maps x (n^2 + 1) x attrs) per position, a map abandoned at its
 * first code above the best, and one hash. The hash stays the exact
 * generic hash (unhash(hash(x)) == x).
 *
 * Board: cells 0..n^2-1 row by row (cell r * n + c is column letter c, row
 * number r + 1: a1 b1 c1 / a2 ...), and the hand as cell n^2. A cell holds
 * 0 (empty) or 1 + p for piece p (p's bit i is attribute i). Position: the
 * generic hash (hash/generic.h) over those n^2 + 1 cells with every piece
 * at most once and at most min(n^2, 2^attrs) pieces in play, so the space
 * is sum_m C(2^a, m) (n^2+1)! / (n^2+1-m)!, every way to seat m distinct
 * pieces on the board and hand; whose turn it is follows from the pieces
 * placed. The default 3x3 board with 8 pieces has 12,975,561 slots.
 *
 * A move is slot * 32 + code: slot is a cell or n^2 (the opening), code is
 * 1 + the next piece or 0 for none. Shown as "b2+5" (place on b2, hand over
 * piece 5), "c3" (the last piece) and "+5" (the opening).
 *
 * Families:
 *   stateless   every call unhashes; primitive scans the 2n + 2 lines.
 *   gps         the seed's Quarto do-move on a board held in a state: the
 *               hand piece goes to the slot, the chosen piece to the hand,
 *               and the whole board is hashed again; primitive and
 *               generate_moves scan the board.
 *   gps-cached  adds lists of the free cells and the free pieces (swap-
 *               remove, O(1) per move and undo) and, per line, the number
 *               of pieces and per attribute the number having it (4-bit
 *               fields in one word); a move updates the lines through its
 *               slot and flags a completed line, so primitive is O(1) and
 *               generate_moves does no board scan. The caches are brought
 *               up to date lazily, only for children the solver goes on to
 *               visit (most children are found in its database and undone
 *               at once). Undo restores from a history record.
 * Every do_move hashes once (the generic hash has no one-cell update).
 * With `sym`, canonical (all three families) unhashes at most once (the
 * GPS families read their board) and hashes once.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/db.h"
#include "core/mem.h"
#include "games/game.h"
#include "hash/generic.h"

enum {
    Q_MAX_SIDE = 4,
    Q_MAX_CELLS = Q_MAX_SIDE * Q_MAX_SIDE,
    Q_MAX_PIECES = 16,
    Q_MAX_LINES = 2 * Q_MAX_SIDE + 2,
    Q_MAX_ATTRS = 4,
    Q_SLOT_SHIFT = 5, /* move = slot << 5 | code, code <= 16 */
    Q_CODE_MASK = 31,
    Q_MAX_MAPS = 32, /* board maps: 32 for n = 4, 24 for n = 2, 8 for n = 3 */
};

typedef struct Quarto {
    GenericHash hash;
    int n, attrs, pieces, cells, hand, limit; /* hand = cells; limit = pieces in a game */
    int nlines;
    uint8_t line[Q_MAX_LINES][Q_MAX_SIDE];
    uint8_t nthrough[Q_MAX_CELLS];
    uint8_t through[Q_MAX_CELLS][4];      /* lines through each cell: row, column, diagonals */
    uint32_t spread[Q_MAX_PIECES];        /* attribute i of piece p in bits 4i..4i+3 */
    int nmaps;                            /* board maps (the identity first) */
    uint8_t src[Q_MAX_MAPS][Q_MAX_CELLS]; /* src[m][j]: the cell whose piece map m puts on j */
    char refusal[1100];                   /* Game.table_refusal, when set */
} Quarto;

static const Quarto *qt(const Game *g) { return g->self; }

static const char piece_digits[] = "0123456789abcdef";

/* ------------------------------------------------------------------ board */

/* All n pieces of a full line share an attribute. */
static bool line_shares(const Quarto *q, const uint8_t *cells, int l) {
    unsigned all = (1u << q->attrs) - 1, any = 0;
    for (int k = 0; k < q->n; k++) {
        uint8_t v = cells[q->line[l][k]];
        if (v == 0) {
            return false;
        }
        all &= (unsigned)(v - 1);
        any |= (unsigned)(v - 1);
    }
    return all != 0 || (~any & ((1u << q->attrs) - 1)) != 0;
}

static int count_placed(const Quarto *q, const uint8_t *cells) {
    int placed = 0;
    for (int i = 0; i < q->cells; i++) {
        placed += cells[i] != 0;
    }
    return placed;
}

/* 0 for the first player: the opening choice is move 1, each placement one more. */
static int whose_turn(int placed, uint8_t hand) {
    return placed == 0 && hand == 0 ? 0 : (placed + 1) & 1;
}

static Value board_primitive(const Quarto *q, const uint8_t *cells, int placed) {
    for (int l = 0; l < q->nlines; l++) {
        if (line_shares(q, cells, l)) {
            return VALUE_LOSE; /* the previous player completed it */
        }
    }
    return placed == q->limit ? VALUE_TIE : VALUE_UNDECIDED;
}

static int board_moves(const Quarto *q, const uint8_t *cells, int placed, Move *moves) {
    unsigned used = 0;
    for (int i = 0; i <= q->cells; i++) {
        if (cells[i] != 0) {
            used |= 1u << (cells[i] - 1);
        }
    }
    int n = 0;
    if (cells[q->hand] == 0) { /* the opening: choose any piece */
        for (int p = 0; p < q->pieces; p++) {
            moves[n++] = (q->hand << Q_SLOT_SHIFT) | (p + 1);
        }
        return n;
    }
    for (int c = 0; c < q->cells; c++) {
        if (cells[c] != 0) {
            continue;
        }
        if (placed + 1 == q->limit) {
            moves[n++] = c << Q_SLOT_SHIFT;
            continue;
        }
        for (int p = 0; p < q->pieces; p++) {
            if (!(used & (1u << p))) {
                moves[n++] = (c << Q_SLOT_SHIFT) | (p + 1);
            }
        }
    }
    return n;
}

/* The seed's DoMove: the hand piece goes to the slot, the chosen one to the hand. */
static void board_play(const Quarto *q, uint8_t *cells, Move move) {
    int slot = move >> Q_SLOT_SHIFT;
    if (slot != q->hand) {
        cells[slot] = cells[q->hand];
    }
    cells[q->hand] = (uint8_t)(move & Q_CODE_MASK);
}

/* ---------------------------------------------------------------- symmetry */

/* The canonical cells of cells (board and hand), as the file's opening
 * comment defines them, written to out. */
static void board_canonical(const Quarto *q, const uint8_t *cells, uint8_t *out) {
    uint8_t best[Q_MAX_CELLS + 1], cur[Q_MAX_CELLS + 1]; /* the hand first, then the cells */
    const unsigned all = (1u << q->attrs) - 1;
    for (int m = 0; m < q->nmaps; m++) {
        const uint8_t *src = q->src[m];
        unsigned x = 0, cls[Q_MAX_ATTRS];    /* the XOR; classes of attributes, lowest first */
        int ncls = 1, cmp = m == 0 ? -1 : 0; /* -1: already below best; 0: equal so far */
        bool have_x = false;
        cls[0] = all;
        for (int k = 0; k <= q->cells && cmp <= 0; k++) {
            uint8_t v = k == 0 ? cells[q->hand] : cells[src[k - 1]], code = 0;
            if (v != 0) {
                unsigned p = v - 1u;
                if (!have_x) {
                    x = p;
                    have_x = true;
                }
                p ^= x;
                /* Per class, the attributes p has take its lowest positions. */
                unsigned img = 0, split[Q_MAX_ATTRS];
                int pos = 0, nsplit = 0;
                for (int c = 0; c < ncls; c++) {
                    unsigned on = cls[c] & p, off = cls[c] & ~p;
                    img |= ((1u << __builtin_popcount(on)) - 1) << pos;
                    pos += __builtin_popcount(cls[c]);
                    if (on != 0) {
                        split[nsplit++] = on;
                    }
                    if (off != 0) {
                        split[nsplit++] = off;
                    }
                }
                memcpy(cls, split, sizeof cls);
                ncls = nsplit;
                code = (uint8_t)(img + 1);
            }
            if (cmp == 0 && code != best[k]) {
                cmp = code < best[k] ? -1 : 1;
            }
            cur[k] = code;
        }
        if (cmp < 0) {
            memcpy(best, cur, sizeof best);
        }
    }
    memcpy(out, best + 1, (size_t)q->cells);
    out[q->hand] = best[0];
}

static Position q_canonical(const Game *g, Position pos) {
    const Quarto *q = qt(g);
    uint8_t cells[Q_MAX_CELLS + 1], canon[Q_MAX_CELLS + 1];
    generic_unhash(&q->hash, pos, cells);
    board_canonical(q, cells, canon);
    return generic_hash(&q->hash, canon, 0);
}

/* -------------------------------------------------------- stateless family */

static Value q_primitive(const Game *g, Position pos) {
    const Quarto *q = qt(g);
    uint8_t cells[Q_MAX_CELLS + 1];
    generic_unhash(&q->hash, pos, cells);
    return board_primitive(q, cells, count_placed(q, cells));
}

static int q_generate_moves(const Game *g, Position pos, Move *moves) {
    const Quarto *q = qt(g);
    uint8_t cells[Q_MAX_CELLS + 1];
    generic_unhash(&q->hash, pos, cells);
    return board_moves(q, cells, count_placed(q, cells), moves);
}

static Position q_do_move(const Game *g, Position pos, Move move) {
    const Quarto *q = qt(g);
    uint8_t cells[Q_MAX_CELLS + 1];
    generic_unhash(&q->hash, pos, cells);
    board_play(q, cells, move);
    return generic_hash(&q->hash, cells, 0);
}

static int q_turn(const Game *g, Position pos) {
    const Quarto *q = qt(g);
    uint8_t cells[Q_MAX_CELLS + 1];
    generic_unhash(&q->hash, pos, cells);
    return whose_turn(count_placed(q, cells), cells[q->hand]);
}

/* "5-3/---/---:7": rows a1.., '/' between rows, ':' and the hand. */
static void board_text(const Quarto *q, const uint8_t *cells, char *buf, size_t n) {
    char text[Q_MAX_CELLS + Q_MAX_SIDE + 3];
    int k = 0;
    for (int i = 0; i < q->cells; i++) {
        text[k++] = cells[i] ? piece_digits[cells[i] - 1] : '-';
        if (i % q->n == q->n - 1) {
            text[k++] = i + 1 < q->cells ? '/' : ':';
        }
    }
    text[k++] = cells[q->hand] ? piece_digits[cells[q->hand] - 1] : '-';
    text[k] = '\0';
    snprintf(buf, n, "%s", text);
}

static void q_format(const Game *g, Position pos, char *buf, size_t n) {
    const Quarto *q = qt(g);
    uint8_t cells[Q_MAX_CELLS + 1];
    generic_unhash(&q->hash, pos, cells);
    board_text(q, cells, buf, n);
}

/* A piece as its attribute bits, attribute attrs-1 first ("0101"). */
static void piece_bits(const Quarto *q, uint8_t v, char *out) {
    for (int a = 0; a < q->attrs; a++) {
        out[a] = v == 0 ? '.' : (char)('0' + (((v - 1) >> (q->attrs - 1 - a)) & 1));
    }
    out[q->attrs] = '\0';
}

static void q_print(const Game *g, Position pos, char *buf, size_t n) {
    const Quarto *q = qt(g);
    uint8_t cells[Q_MAX_CELLS + 1];
    generic_unhash(&q->hash, pos, cells);
    int placed = count_placed(q, cells);
    size_t used = (size_t)snprintf(buf, n, "  ");
    for (int c = 0; c < q->n && used < n; c++) {
        int pad = c + 1 < q->n ? q->attrs : 1; /* no trailing blanks */
        used += (size_t)snprintf(buf + used, n - used, " %-*c", pad, 'a' + c);
    }
    for (int r = 0; r < q->n && used < n; r++) {
        used += (size_t)snprintf(buf + used, n - used, "\n%d ", r + 1);
        for (int c = 0; c < q->n && used < n; c++) {
            char bits[Q_MAX_SIDE + 1];
            piece_bits(q, cells[r * q->n + c], bits);
            used += (size_t)snprintf(buf + used, n - used, " %s", bits);
        }
    }
    if (used >= n) {
        return;
    }
    Value v = board_primitive(q, cells, placed);
    int turn = whose_turn(placed, cells[q->hand]);
    if (v != VALUE_UNDECIDED) {
        snprintf(buf + used, n - used, "\ngame over: %s\n",
                 v == VALUE_TIE ? "a tie"
                 : turn == 0    ? "player 2 won"
                                : "player 1 won");
    } else if (cells[q->hand] == 0) {
        snprintf(buf + used, n - used, "\nplayer 1 to choose the first piece for player 2\n");
    } else {
        char bits[Q_MAX_SIDE + 1];
        piece_bits(q, cells[q->hand], bits);
        snprintf(buf + used, n - used, "\nplayer %d to place piece %c (%s)%s\n", turn + 1,
                 piece_digits[cells[q->hand] - 1], bits,
                 placed + 1 == q->limit ? ", the last" : " and choose the next");
    }
}

static void q_move_name(const Game *g, Position pos, Move move, char *buf, size_t n) {
    const Quarto *q = qt(g);
    (void)pos;
    int slot = move >> Q_SLOT_SHIFT, code = move & Q_CODE_MASK;
    char where[16] = "";
    if (slot != q->hand) {
        snprintf(where, sizeof where, "%c%d", 'a' + slot % q->n, slot / q->n + 1);
    }
    if (code == 0) {
        snprintf(buf, n, "%s", where);
    } else {
        snprintf(buf, n, "%s+%c", where, piece_digits[code - 1]);
    }
}

static ErrCode q_parse(const Game *g, const char *text, Position *pos, Error *err) {
    const Quarto *q = qt(g);
    uint8_t cells[Q_MAX_CELLS + 1] = {0};
    char example[Q_MAX_CELLS + Q_MAX_SIDE + 3];
    board_text(q, cells, example, sizeof example);
    size_t want = (size_t)(q->cells + q->n + 1);
    if (strlen(text) != want) {
        return error_set(err, ERR_USAGE,
                         "a %dx%d Quarto position is %d rows of %d cells (a piece 0..%c in hex, "
                         "or -) separated by '/', then ':' and the piece in hand or - (e.g. "
                         "%s); '%.80s' has the wrong length",
                         q->n, q->n, q->n, q->n, piece_digits[q->pieces - 1], example, text);
    }
    unsigned used = 0;
    int placed = 0;
    for (int i = 0, k = 0; i <= q->cells; i++, k++) {
        char ch = text[k];
        uint8_t v = 0;
        if (ch != '-' && ch != '.') {
            const char *d = strchr(piece_digits, ch >= 'A' && ch <= 'F' ? ch - 'A' + 'a' : ch);
            if (ch == '\0' || d == NULL || d - piece_digits >= q->pieces) {
                return error_set(err, ERR_USAGE,
                                 "'%c' in '%s' is not a piece of this variant (0..%c in hex) "
                                 "nor - (empty)",
                                 ch, text, piece_digits[q->pieces - 1]);
            }
            int p = (int)(d - piece_digits);
            if (used & (1u << p)) {
                return error_set(err, ERR_USAGE, "piece %c appears twice in '%s'", ch, text);
            }
            used |= 1u << p;
            v = (uint8_t)(p + 1);
            placed += i < q->cells;
        }
        cells[i] = v;
        if (i < q->cells && i % q->n == q->n - 1) {
            char sep = i + 1 < q->cells ? '/' : ':';
            if (text[++k] != sep) {
                return error_set(err, ERR_USAGE, "'%s': expected '%c' after row %d (e.g. %s)", text,
                                 sep, i / q->n + 1, example);
            }
        }
    }
    uint8_t hand = cells[q->hand];
    if (placed == q->limit && hand != 0) {
        return error_set(err, ERR_USAGE,
                         "'%s' places the last piece of the game, so nothing is left in hand; "
                         "end it with ':-'",
                         text);
    }
    if (placed > 0 && placed < q->limit && hand == 0) {
        return error_set(err, ERR_USAGE,
                         "'%s' has no piece in hand, but every placement hands over the next "
                         "piece until the last",
                         text);
    }
    /* Every completed line must pass through the last piece placed. */
    unsigned common = (1u << q->cells) - 1;
    bool won = false;
    for (int l = 0; l < q->nlines; l++) {
        if (line_shares(q, cells, l)) {
            unsigned on = 0;
            for (int k = 0; k < q->n; k++) {
                on |= 1u << q->line[l][k];
            }
            common &= on;
            won = true;
        }
    }
    if (won && common == 0) {
        return error_set(err, ERR_USAGE,
                         "'%s' cannot arise: it has completed lines that no single placement "
                         "made, and the game ends at the first",
                         text);
    }
    *pos = generic_hash(&q->hash, cells, 0);
    return ERR_OK;
}

static const GameOps q_ops = {
    .primitive = q_primitive,
    .generate_moves = q_generate_moves,
    .do_move = q_do_move,
    .turn = q_turn,
    .canonical = q_canonical,
    .format = q_format,
    .parse = q_parse,
    .print = q_print,
    .move_name = q_move_name,
};

/* -------------------------------------------------------------- GPS family */

typedef struct QGps {
    const Quarto *q;
    uint8_t cells[Q_MAX_CELLS + 1];
    int placed;
    int nhist;
    Move hist[Q_MAX_CELLS + 2];
} QGps;

static GpsState *gps_create(const Game *g, Error *err) {
    QGps *s = mem_calloc(1, sizeof *s, "a Quarto GPS state",
                         err); /* the empty board: the initial position */
    if (s == NULL) {
        return NULL;
    }
    s->q = qt(g);
    return (GpsState *)s;
}

static void gps_destroy(GpsState *st) { free(st); }

static void gps_set(GpsState *st, Position pos) {
    QGps *s = (QGps *)st;
    generic_unhash(&s->q->hash, pos, s->cells);
    s->placed = count_placed(s->q, s->cells);
    s->nhist = 0;
}

static Position gps_position(GpsState *st) {
    QGps *s = (QGps *)st;
    return generic_hash(&s->q->hash, s->cells, 0);
}

static Value gps_primitive_scan(GpsState *st) {
    QGps *s = (QGps *)st;
    return board_primitive(s->q, s->cells, s->placed);
}

static int gps_moves_scan(GpsState *st, Move *moves) {
    QGps *s = (QGps *)st;
    return board_moves(s->q, s->cells, s->placed, moves);
}

static Position gps_do(GpsState *st, Move move) {
    QGps *s = (QGps *)st;
    board_play(s->q, s->cells, move);
    s->placed += (move >> Q_SLOT_SHIFT) != s->q->hand;
    s->hist[s->nhist++] = move;
    return generic_hash(&s->q->hash, s->cells, 0);
}

static void gps_undo(GpsState *st) {
    QGps *s = (QGps *)st;
    const Quarto *q = s->q;
    int slot = s->hist[--s->nhist] >> Q_SLOT_SHIFT;
    if (slot == q->hand) {
        s->cells[q->hand] = 0; /* undo the opening */
    } else {
        s->cells[q->hand] = s->cells[slot];
        s->cells[slot] = 0;
        s->placed--;
    }
}

static int gps_turn(GpsState *st) {
    QGps *s = (QGps *)st;
    return whose_turn(s->placed, s->cells[s->q->hand]);
}

static Position gps_canonical(GpsState *st) {
    QGps *s = (QGps *)st;
    uint8_t canon[Q_MAX_CELLS + 1];
    board_canonical(s->q, s->cells, canon);
    return generic_hash(&s->q->hash, canon, 0);
}

static const GpsOps q_gps = {
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

/* The caches (free lists, line counts, the win flag) follow the board
 * lazily: do_move only plays on the board and hashes, and the caches catch
 * up with the moves not yet applied when primitive or generate_moves asks.
 * A depth-first solver looks up most children in its database and undoes
 * them at once, so those children never pay for the caches. The applied
 * moves are always a prefix of the history, so undo reverses them in order. */

typedef struct QUndo {
    Move move;
    uint8_t cell_slot;  /* where the slot stood in the free-cell list */
    uint8_t piece_slot; /* where the handed piece stood in the free-piece list */
    bool won;           /* the win flag before the move was applied */
    Position pos;       /* the position before the move */
} QUndo;

typedef struct QCached {
    const Quarto *q;
    uint8_t cells[Q_MAX_CELLS + 1];
    int placed;
    Position pos;
    /* Caches, valid for the board after the first `applied` moves of hist. */
    bool won; /* a completed line sharing an attribute is on the board */
    uint8_t nfree, free_cells[Q_MAX_CELLS], cell_slot[Q_MAX_CELLS];
    uint8_t npieces, free_pieces[Q_MAX_PIECES], piece_slot[Q_MAX_PIECES]; /* not in play */
    uint8_t count[Q_MAX_LINES];                                           /* pieces on each line */
    uint32_t ones[Q_MAX_LINES]; /* per attribute, pieces on the line having it (4 bits each) */
    int nhist, applied;
    QUndo hist[Q_MAX_CELLS + 2];
} QCached;

/* A full line shares an attribute when some 4-bit field is 0 or n. */
static bool ones_share(const Quarto *q, uint32_t ones) {
    for (int a = 0; a < q->attrs; a++) {
        uint32_t f = (ones >> (4 * a)) & 15;
        if (f == 0 || f == (uint32_t)q->n) {
            return true;
        }
    }
    return false;
}

static GpsState *cached_create(const Game *g, Error *err) {
    QCached *s = mem_calloc(1, sizeof *s, "a Quarto GPS-cached state", err);
    if (s == NULL) {
        return NULL;
    }
    s->q = qt(g);
    return (GpsState *)s;
}

static void cached_set(GpsState *st, Position pos) {
    QCached *s = (QCached *)st;
    const Quarto *q = s->q;
    generic_unhash(&q->hash, pos, s->cells);
    s->pos = pos;
    s->placed = count_placed(q, s->cells);
    s->nhist = s->applied = 0;
    s->nfree = 0;
    for (int c = 0; c < q->cells; c++) {
        if (s->cells[c] == 0) {
            s->cell_slot[c] = s->nfree;
            s->free_cells[s->nfree++] = (uint8_t)c;
        }
    }
    unsigned used = 0;
    for (int i = 0; i <= q->cells; i++) {
        if (s->cells[i] != 0) {
            used |= 1u << (s->cells[i] - 1);
        }
    }
    s->npieces = 0;
    for (int p = 0; p < q->pieces; p++) {
        if (!(used & (1u << p))) {
            s->piece_slot[p] = s->npieces;
            s->free_pieces[s->npieces++] = (uint8_t)p;
        }
    }
    s->won = false;
    for (int l = 0; l < q->nlines; l++) {
        s->count[l] = 0;
        s->ones[l] = 0;
        for (int k = 0; k < q->n; k++) {
            uint8_t v = s->cells[q->line[l][k]];
            if (v != 0) {
                s->count[l]++;
                s->ones[l] += q->spread[v - 1];
            }
        }
        s->won |= s->count[l] == q->n && ones_share(q, s->ones[l]);
    }
}

/* Brings the caches up to the board: applies the pending moves in order.
 * The piece a move placed is still on its cell (cells only fill up). */
static void cached_sync(QCached *s) {
    const Quarto *q = s->q;
    for (; s->applied < s->nhist; s->applied++) {
        QUndo *u = &s->hist[s->applied];
        int slot = u->move >> Q_SLOT_SHIFT, code = u->move & Q_CODE_MASK;
        u->won = s->won;
        if (slot != q->hand) {
            /* Remove the cell from the free list: the last free cell takes its place. */
            uint8_t at = s->cell_slot[slot], last = s->free_cells[--s->nfree];
            s->free_cells[at] = last;
            s->cell_slot[last] = at;
            u->cell_slot = at;
            uint32_t spread = q->spread[s->cells[slot] - 1];
            for (int k = 0; k < q->nthrough[slot]; k++) {
                uint8_t l = q->through[slot][k];
                s->ones[l] += spread;
                if (++s->count[l] == q->n && ones_share(q, s->ones[l])) {
                    s->won = true;
                }
            }
        }
        if (code != 0) {
            uint8_t p = (uint8_t)(code - 1);
            uint8_t at = s->piece_slot[p], last = s->free_pieces[--s->npieces];
            s->free_pieces[at] = last;
            s->piece_slot[last] = at;
            u->piece_slot = at;
        }
    }
}

static Position cached_position(GpsState *st) { return ((QCached *)st)->pos; }

static Value cached_primitive(GpsState *st) {
    QCached *s = (QCached *)st;
    cached_sync(s);
    if (s->won) {
        return VALUE_LOSE;
    }
    return s->placed == s->q->limit ? VALUE_TIE : VALUE_UNDECIDED;
}

static int cached_moves(GpsState *st, Move *moves) {
    QCached *s = (QCached *)st;
    const Quarto *q = s->q;
    cached_sync(s);
    int n = 0;
    if (s->cells[q->hand] == 0) {
        for (int i = 0; i < s->npieces; i++) {
            moves[n++] = (q->hand << Q_SLOT_SHIFT) | (s->free_pieces[i] + 1);
        }
        return n;
    }
    bool last = s->placed + 1 == q->limit;
    for (int j = 0; j < s->nfree; j++) {
        Move base = s->free_cells[j] << Q_SLOT_SHIFT;
        if (last) {
            moves[n++] = base;
            continue;
        }
        for (int i = 0; i < s->npieces; i++) {
            moves[n++] = base | (s->free_pieces[i] + 1);
        }
    }
    return n;
}

static Position cached_do(GpsState *st, Move move) {
    QCached *s = (QCached *)st;
    QUndo *u = &s->hist[s->nhist++];
    u->move = move;
    u->pos = s->pos;
    board_play(s->q, s->cells, move);
    s->placed += (move >> Q_SLOT_SHIFT) != s->q->hand;
    s->pos = generic_hash(&s->q->hash, s->cells, 0);
    return s->pos;
}

static void cached_undo(GpsState *st) {
    QCached *s = (QCached *)st;
    const Quarto *q = s->q;
    const QUndo *u = &s->hist[--s->nhist];
    int slot = u->move >> Q_SLOT_SHIFT, code = u->move & Q_CODE_MASK;
    if (s->applied > s->nhist) { /* the move reached the caches: reverse it */
        s->applied = s->nhist;
        if (code != 0) {
            /* Put the piece back in its list slot; the piece there goes to the end. */
            uint8_t p = (uint8_t)(code - 1), displaced = s->free_pieces[u->piece_slot];
            s->free_pieces[s->npieces] = displaced;
            s->piece_slot[displaced] = s->npieces++;
            s->free_pieces[u->piece_slot] = p;
            s->piece_slot[p] = u->piece_slot;
        }
        if (slot != q->hand) {
            uint8_t displaced = s->free_cells[u->cell_slot];
            s->free_cells[s->nfree] = displaced;
            s->cell_slot[displaced] = s->nfree++;
            s->free_cells[u->cell_slot] = (uint8_t)slot;
            s->cell_slot[slot] = u->cell_slot;
            uint32_t spread = q->spread[s->cells[slot] - 1];
            for (int k = 0; k < q->nthrough[slot]; k++) {
                uint8_t l = q->through[slot][k];
                s->ones[l] -= spread;
                s->count[l]--;
            }
        }
        s->won = u->won;
    }
    if (slot == q->hand) {
        s->cells[q->hand] = 0; /* undo the opening */
    } else {
        s->cells[q->hand] = s->cells[slot];
        s->cells[slot] = 0;
        s->placed--;
    }
    s->pos = u->pos;
}

static int cached_turn(GpsState *st) {
    QCached *s = (QCached *)st;
    return whose_turn(s->placed, s->cells[s->q->hand]);
}

static Position cached_canonical(GpsState *st) {
    QCached *s = (QCached *)st;
    uint8_t canon[Q_MAX_CELLS + 1];
    board_canonical(s->q, s->cells, canon);
    return generic_hash(&s->q->hash, canon, 0);
}

static const GpsOps q_gps_cached = {
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

/* ------------------------------------------------------------------ module */

/* At most `limit` pieces in play (board and hand together). */
static bool pieces_in_play(const int *counts, void *ctx) {
    const Quarto *q = ctx;
    return q->cells + 1 - counts[0] <= q->limit;
}

static void q_destroy(Game *g) {
    Quarto *q = g->self;
    if (q != NULL) {
        generic_destroy(&q->hash);
        free(q);
    }
}

static void init_lines(Quarto *q) {
    int n = q->n;
    q->nlines = 0;
    for (int r = 0; r < n; r++) {
        for (int k = 0; k < n; k++) {
            q->line[q->nlines][k] = (uint8_t)(r * n + k);     /* row r */
            q->line[q->nlines + 1][k] = (uint8_t)(k * n + r); /* column r */
        }
        q->nlines += 2;
    }
    for (int k = 0; k < n; k++) {
        q->line[q->nlines][k] = (uint8_t)(k * n + k);
        q->line[q->nlines + 1][k] = (uint8_t)(k * n + n - 1 - k);
    }
    q->nlines += 2;
    for (int l = 0; l < q->nlines; l++) {
        for (int k = 0; k < n; k++) {
            int c = q->line[l][k];
            q->through[c][q->nthrough[c]++] = (uint8_t)l;
        }
    }
    for (int p = 0; p < q->pieces; p++) {
        for (int a = 0; a < q->attrs; a++) {
            q->spread[p] |= (uint32_t)((p >> a) & 1) << (4 * a);
        }
    }
}

/* The board maps: the closure of the generators of the file's opening
 * comment under composition, each as dst (cell i goes to dst[i]), stored
 * inverted (src). The identity is map 0. */
static void init_maps(Quarto *q) {
    int n = q->n, cells = q->cells, ngen = 0;
    uint8_t gen[4][Q_MAX_CELLS], dst[Q_MAX_MAPS][Q_MAX_CELLS];
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) {
            int i = r * n + c;
            gen[0][i] = (uint8_t)(c * n + n - 1 - r); /* rotation */
            gen[1][i] = (uint8_t)(c * n + r);         /* transpose */
            if (n == 4) {
                static const uint8_t middle[4] = {0, 2, 1, 3}, inside_out[4] = {1, 0, 3, 2};
                gen[2][i] = (uint8_t)(middle[r] * n + middle[c]);
                gen[3][i] = (uint8_t)(inside_out[r] * n + inside_out[c]);
            } else if (n == 2) {
                gen[2][i] = (uint8_t)(i < 2 ? 1 - i : i); /* swap cells 0 and 1 */
            }
        }
    }
    ngen = n == 4 ? 4 : n == 2 ? 3 : 2;
    int nmaps = 1;
    for (int i = 0; i < cells; i++) {
        dst[0][i] = (uint8_t)i;
    }
    for (int m = 0; m < nmaps; m++) {
        for (int k = 0; k < ngen; k++) {
            uint8_t next[Q_MAX_CELLS];
            for (int i = 0; i < cells; i++) {
                next[i] = gen[k][dst[m][i]];
            }
            bool known = false;
            for (int o = 0; o < nmaps && !known; o++) {
                known = memcmp(dst[o], next, (size_t)cells) == 0;
            }
            if (!known && nmaps < Q_MAX_MAPS) {
                memcpy(dst[nmaps++], next, (size_t)cells);
            }
        }
    }
    q->nmaps = nmaps;
    for (int m = 0; m < nmaps; m++) {
        for (int i = 0; i < cells; i++) {
            q->src[m][dst[m][i]] = (uint8_t)i;
        }
    }
}

static ErrCode q_create(Game *g, Error *err) {
    Quarto *q = mem_calloc(1, sizeof *q, "the Quarto module", err);
    if (q == NULL) {
        return ERR_MEMORY;
    }
    q->n = (int)opt_int(&g->options, "n");
    q->attrs = (int)opt_int(&g->options, "attrs");
    q->pieces = 1 << q->attrs;
    q->cells = q->n * q->n;
    q->hand = q->cells;
    q->limit = q->cells < q->pieces ? q->cells : q->pieces;
    init_lines(q);
    init_maps(q);
    /* Symbol 0 (empty) fills the rest; each piece is in play at most once. */
    int min[Q_MAX_PIECES + 1] = {0}, max[Q_MAX_PIECES + 1];
    max[0] = q->cells + 1;
    for (int p = 1; p <= q->pieces; p++) {
        max[p] = 1;
    }
    ErrCode rc =
        generic_init(&q->hash, q->cells + 1, q->pieces + 1, min, max, 1, pieces_in_play, q, err);
    if (rc != ERR_OK) {
        free(q);
        return rc;
    }
    g->self = q;
    g->max_depth = (uint32_t)q->limit + 1;
    /* A variant whose database cannot fit (full Quarto) is refused, with
     * this estimate, by every solver but a search with a bounded memo. */
    char what[256];
    snprintf(what, sizeof what,
             "the value database of %dx%d Quarto with %d pieces (%" PRIu64
             " positions in its hash space, %u byte each)%s",
             q->n, q->n, q->pieces, q->hash.size, db_width_for(g->max_depth),
             q->n == 4 && q->attrs == 4 ? ", i.e. full Quarto," : "");
    Error refused = {0};
    if (mem_check(db_bytes(q->hash.size, db_width_for(g->max_depth), false), what, &refused) !=
        ERR_OK) {
        snprintf(q->refusal, sizeof q->refusal,
                 "%s; only --solver search, whose memo is bounded, "
                 "runs it",
                 refused.msg);
        g->table_refusal = q->refusal;
    }
    g->symmetric = opt_bool(&g->options, "sym");
    g->ops = &q_ops;
    g->gps = &q_gps;
    g->gps_cached = &q_gps_cached;
    g->num_positions = q->hash.size;
    uint8_t empty[Q_MAX_CELLS + 1] = {0};
    g->initial = generic_hash(&q->hash, empty, 0);
    g->max_moves = q->cells * (q->pieces - 1) > q->pieces ? q->cells * (q->pieces - 1) : q->pieces;
    return ERR_OK;
}

static const OptionSpec q_options[] = {
    {.name = "n",
     .type = OPT_INT,
     .min = 2,
     .max = Q_MAX_SIDE,
     .def = 3,
     .help = "board side (lines of n win)"},
    {.name = "attrs",
     .type = OPT_INT,
     .min = 1,
     .max = 4,
     .def = 3,
     .help = "binary attributes per piece (2^attrs pieces)"},
    {.name = "sym",
     .type = OPT_BOOL,
     .help = "canonicalize under the board maps that keep the lines and the attribute "
             "permutations and complements (12,288 for full Quarto)"},
    {0},
};

static const GameTestVariant q_tests[] = {
    {.options = "n=2,attrs=1"},
    {.options = "n=2,attrs=2"},
    {.options = "n=2,attrs=3"},
    {.options = "n=2,attrs=4"},
    {.options = "n=3,attrs=1"},
    {.options = "n=3,attrs=2"},
    {.options = "n=4,attrs=1"},
    {.options = "n=4,attrs=2", .heavy = true},
    {.options = "n=2,attrs=2,sym"},
    {.options = "n=2,attrs=3,sym"},
    {.options = "n=3,attrs=2,sym"},
    {.options = "n=4,attrs=1,sym"},
    {.options = "n=4,attrs=2,sym", .heavy = true},
    {NULL},
};

const GameModule quarto_module = {
    .name = "quarto",
    .title = "Quarto",
    .description = "place the piece your opponent chose; n pieces sharing a trait in a line win",
    .options = q_options,
    .test_variants = q_tests,
    .create = q_create,
    .destroy = q_destroy,
};
