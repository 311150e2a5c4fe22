/* games/othello.c: Othello (Reversi) on small even boards, with WinBy scores.
 *
 * Rules (the standard rules of Othello, as summarized e.g. in Takizawa,
 * "Othello is Solved", 2023, section 3.2, and in GamesmanClassic's
 * mothello.c):
 *   - A board of w x h squares (w, h even; default 4 x 4). The 4 centre
 *     squares start filled: white on the top-left and bottom-right ones,
 *     black on the other two (d4/e5 white and d5/e4 black on 8 x 8; here
 *     b2/c3 white and c2/b3 black). Black (x) is the first player and moves
 *     first; white (o) is the second.
 *   - A move places a disc of the mover's colour on an empty square such
 *     that, in at least one of the 8 directions, a line of one or more
 *     opponent discs runs from it to a disc of the mover's colour; every
 *     such line is flipped to the mover's colour. A move must flip.
 *   - A player who has no such move passes; the pass is a move of its own
 *     (GamesCrafters' convention, as in mothello.c), so the game tree
 *     alternates turns. The game ends when neither player can move (a full
 *     board is the usual case).
 *   - Score (WinBy document, section 2: "(# black pieces - # white pieces),
 *     no matter whose turn it is"): the first player's discs minus the
 *     second player's discs at the end. Empty squares left when the game
 *     ends early count for nobody. This is mothello.c's computeWinBy, the
 *     document's own example; the World Othello Federation's tournament
 *     rule instead gives the empty squares to the winner, which changes
 *     the margin of such games but never its sign, so never the
 *     win/lose/tie value. The player with more discs wins: the value for
 *     the player to move follows from the sign of the score.
 *
 * Board and moves: bit r * w + c of a 64-bit bitboard is the square in row
 * r (from the top, shown 1..h) and column c (shown a, b, ...), one
 * bitboard per colour. A move is a square index, or OTH_PASS; players see
 * "a1".."d4" and "pass". Move generation is a shift-and-mask fill in each
 * of the 8 directions (a shift and a wrap mask per direction, one step per
 * opponent disc a run can hold: O(8 * max(w, h)) word operations, no loop
 * over squares); flipping walks the 8 rays from the placed disc
 * (O(flipped + 8)).
 *
 * Hash (hash/discs.h): the 4 centre squares are never empty, so a board is
 * a mixed-radix number with 2 states on those and 3 elsewhere, and the
 * player to move is a separate digit because passes let the same board
 * occur with either player to move: 2^4 * 3^(w*h - 4) * 2 positions,
 * 17,006,112 for 4 x 4. Boards whose hash exceeds 63 bits (more than 40
 * squares, e.g. 6 x 8) are refused with the size they would need; boards
 * whose database does not fit the memory budget (6 x 6: 5.9e16 positions)
 * are refused by the database with its estimate.
 *
 * Bounds: at most w*h - 4 placements, and a pass is always followed by a
 * placement, so a game lasts at most 2 (w*h - 4) + 1 moves; at most w*h - 4
 * moves from a position.
 *
 * Families:
 *   stateless   every call unhashes its position; do_move hashes the child.
 *               turn() reads the turn digit of the position (no board
 *               decode); winby() counts discs.
 *   gps         the seed's global board: two bitboards, the turn and a
 *               history of (move, flipped discs), so undo_move clears the
 *               placed disc and flips the recorded discs back; do_move
 *               re-hashes the board. primitive and generate_moves each
 *               compute the mover's mobility (and the opponent's, for the
 *               end-of-game test).
 *   gps-cached  the state also keeps its hash and the two mobility masks,
 *               computed at most once per position on demand (a memo hit
 *               after do_move never pays for them) and saved on the undo
 *               stack, so undo_move is a copy, primitive and
 *               generate_moves do no board scan after the first, and a
 *               pass swaps the masks without any scan.
 *
 * Option sym: canonicalize under the symmetries of the board that map the
 * starting position to itself. They are found at create time by checking
 * each candidate on the start: on a square board, the identity, the half
 * turn and the reflections in both diagonals (4 of the 8 symmetries of the
 * square: the quarter turns and the horizontal and vertical mirrors swap
 * the colours of the centre squares); on a rectangle, the identity and the
 * half turn. Symmetric positions have equal values and scores.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "games/game.h"
#include "hash/discs.h"

enum {
    OTH_PASS = 64,                    /* the pass move (squares are 0..63) */
    OTH_MAX_SIDE = 20,                /* columns are named a..t */
    OTH_MAX_PLIES = 2 * (64 - 4) + 1, /* longest game on any board */
    OTH_CANDIDATE_SYMS = 8,           /* symmetries of the square */
    OTH_DIRS = 8,
};

typedef struct OthDir {
    int shift;     /* > 0: toward higher squares (<<), < 0: toward lower (>>) */
    uint64_t mask; /* the squares a shifted bit may land on (no wrap-around) */
} OthDir;

typedef struct Oth {
    int w, h, cells;
    uint64_t board; /* every square */
    int fill_steps; /* extra fill steps: longest opponent run - 1 */
    OthDir dir[OTH_DIRS];
    DiscHash hash;
    uint64_t start_black, start_white;
    int nsym; /* symmetries in use (1 without sym): sym 0 is the identity */
    /* symtab[s][k][v]: image under symmetry s of the squares of nibble k
     * with bit pattern v, so an image costs one lookup per 4 squares. */
    uint64_t symtab[OTH_CANDIDATE_SYMS][DISCS_MAX_NIBBLES][16];
} Oth;

static const Oth *oth(const Game *g) { return g->self; }

/* ------------------------------------------------------------------ board */

static inline uint64_t shift_dir(uint64_t x, const OthDir *d) {
    return (d->shift > 0 ? x << d->shift : x >> -d->shift) & d->mask;
}

/* The squares where the owner of `own` may move. O(8 * max(w, h)). */
static uint64_t mobility(const Oth *o, uint64_t own, uint64_t opp) {
    uint64_t empty = o->board & ~(own | opp), moves = 0;
    for (int d = 0; d < OTH_DIRS; d++) {
        const OthDir *dir = &o->dir[d];
        uint64_t t = shift_dir(own, dir) & opp;
        for (int k = 0; k < o->fill_steps; k++) {
            t |= shift_dir(t, dir) & opp;
        }
        moves |= shift_dir(t, dir) & empty;
    }
    return moves;
}

/* The opponent discs a disc placed on `sq` flips (0: not a legal move). */
static uint64_t flips_of(const Oth *o, uint64_t own, uint64_t opp, int sq) {
    uint64_t flips = 0, at = UINT64_C(1) << sq;
    for (int d = 0; d < OTH_DIRS; d++) {
        uint64_t run = 0, x = shift_dir(at, &o->dir[d]);
        while (x & opp) {
            run |= x;
            x = shift_dir(x, &o->dir[d]);
        }
        if (x & own) {
            flips |= run;
        }
    }
    return flips;
}

/* First player's discs minus second player's (WinBy document). */
static WinBy score_of(uint64_t black, uint64_t white) {
    return __builtin_popcountll(black) - __builtin_popcountll(white);
}

/* The value of a finished game for the player to move. */
static Value value_of(int turn, WinBy score) {
    WinBy mine = turn == 0 ? score : -score;
    return mine > 0 ? VALUE_WIN : mine < 0 ? VALUE_LOSE : VALUE_TIE;
}

static Value board_primitive(const Oth *o, uint64_t black, uint64_t white, int turn) {
    uint64_t own = turn == 0 ? black : white, opp = turn == 0 ? white : black;
    if (mobility(o, own, opp) != 0 || mobility(o, opp, own) != 0) {
        return VALUE_UNDECIDED;
    }
    return value_of(turn, score_of(black, white));
}

static int moves_from_mask(uint64_t mob, Move *moves) {
    if (mob == 0) {
        moves[0] = OTH_PASS;
        return 1;
    }
    int n = 0;
    while (mob != 0) {
        moves[n++] = __builtin_ctzll(mob);
        mob &= mob - 1;
    }
    return n;
}

/* Plays a legal move (or a pass) on the bitboards and flips the turn;
 * returns the flipped discs. */
static uint64_t board_play(const Oth *o, uint64_t *black, uint64_t *white, int *turn, Move move) {
    uint64_t flips = 0;
    if (move != OTH_PASS) {
        uint64_t *own = *turn == 0 ? black : white, *opp = *turn == 0 ? white : black;
        flips = flips_of(o, *own, *opp, move);
        *own |= flips | UINT64_C(1) << move;
        *opp &= ~flips;
    }
    *turn ^= 1;
    return flips;
}

static uint64_t sym_image(const Oth *o, int s, uint64_t bb) {
    uint64_t image = 0;
    for (int k = 0; k < o->hash.nibbles; k++) {
        image |= o->symtab[s][k][(bb >> (4 * k)) & 15];
    }
    return image;
}

/* Smallest position over the symmetric images of the board (one hash per
 * symmetry other than the identity, whose position is `self`). */
static Position board_canonical(const Oth *o, uint64_t black, uint64_t white, int turn,
                                Position self) {
    Position best = self;
    for (int s = 1; s < o->nsym; s++) {
        Position p = discs_hash(&o->hash, sym_image(o, s, black), sym_image(o, s, white), turn);
        if (p < best) {
            best = p;
        }
    }
    return best;
}

/* -------------------------------------------------------- stateless family */

typedef struct OthBoard {
    uint64_t black, white;
    int turn;
} OthBoard;

static OthBoard unhash(const Game *g, Position pos) {
    OthBoard b;
    discs_unhash(&oth(g)->hash, pos, &b.black, &b.white, &b.turn);
    return b;
}

static Value oth_primitive(const Game *g, Position pos) {
    OthBoard b = unhash(g, pos);
    return board_primitive(oth(g), b.black, b.white, b.turn);
}

static int oth_generate_moves(const Game *g, Position pos, Move *moves) {
    OthBoard b = unhash(g, pos);
    uint64_t own = b.turn == 0 ? b.black : b.white, opp = b.turn == 0 ? b.white : b.black;
    return moves_from_mask(mobility(oth(g), own, opp), moves);
}

static Position oth_do_move(const Game *g, Position pos, Move move) {
    OthBoard b = unhash(g, pos);
    board_play(oth(g), &b.black, &b.white, &b.turn, move);
    return discs_hash(&oth(g)->hash, b.black, b.white, b.turn);
}

/* The turn is the position's lowest digit (discs.h: board * 2 + turn);
 * reading it decodes no board, so it is not an unhash. */
static int oth_turn(const Game *g, Position pos) { return discs_turn(&oth(g)->hash, pos); }

static WinBy oth_winby(const Game *g, Position pos) {
    OthBoard b = unhash(g, pos);
    return score_of(b.black, b.white);
}

static Position oth_canonical(const Game *g, Position pos) {
    OthBoard b = unhash(g, pos);
    return board_canonical(oth(g), b.black, b.white, b.turn, pos);
}

/* ------------------------------------------------------------------- text */

static char square_char(const OthBoard *b, int sq) {
    uint64_t bit = UINT64_C(1) << sq;
    return (b->black & bit) ? 'x' : (b->white & bit) ? 'o' : '-';
}

static void oth_format(const Game *g, Position pos, char *buf, size_t n) {
    const Oth *o = oth(g);
    OthBoard b = unhash(g, pos);
    char text[DISCS_MAX_CELLS + 3];
    for (int sq = 0; sq < o->cells; sq++) {
        text[sq] = square_char(&b, sq);
    }
    text[o->cells] = ':';
    text[o->cells + 1] = b.turn == 0 ? 'x' : 'o';
    text[o->cells + 2] = '\0';
    snprintf(buf, n, "%s", text);
}

static void oth_print(const Game *g, Position pos, char *buf, size_t n) {
    const Oth *o = oth(g);
    OthBoard b = unhash(g, pos);
    size_t used = (size_t)snprintf(buf, n, "   ");
    for (int c = 0; c < o->w && used < n; c++) {
        used += (size_t)snprintf(buf + used, n - used, " %c", 'a' + c);
    }
    for (int r = 0; r < o->h && used < n; r++) {
        used += (size_t)snprintf(buf + used, n - used, "\n %d ", r + 1);
        for (int c = 0; c < o->w && used < n; c++) {
            used += (size_t)snprintf(buf + used, n - used, " %c", square_char(&b, r * o->w + c));
        }
    }
    int nx = __builtin_popcountll(b.black), no = __builtin_popcountll(b.white);
    if (used < n) {
        if (board_primitive(o, b.black, b.white, b.turn) == VALUE_UNDECIDED) {
            snprintf(buf + used, n - used, "\n%s to move; x %d, o %d\n",
                     b.turn == 0 ? "x (black)" : "o (white)", nx, no);
        } else {
            snprintf(buf + used, n - used, "\ngame over: x %d, o %d\n", nx, no);
        }
    }
}

static void oth_move_name(const Game *g, Position pos, Move move, char *buf, size_t n) {
    (void)pos;
    if (move == OTH_PASS) {
        snprintf(buf, n, "pass");
    } else {
        snprintf(buf, n, "%c%d", 'a' + move % oth(g)->w, move / oth(g)->w + 1);
    }
}

/* True when the occupied squares are 8-connected: every disc but the 4
 * starting ones is placed next to a disc already on the board, and discs
 * are never removed. O(cells * 8) by flood fill from the centre. */
static bool connected(const Oth *o, uint64_t occupied) {
    uint64_t reached = o->start_black & occupied, frontier = reached;
    while (frontier != 0) {
        uint64_t next = 0;
        for (int d = 0; d < OTH_DIRS; d++) {
            next |= shift_dir(frontier, &o->dir[d]);
        }
        frontier = next & occupied & ~reached;
        reached |= frontier;
    }
    return reached == occupied;
}

static ErrCode oth_parse(const Game *g, const char *text, Position *pos, Error *err) {
    const Oth *o = oth(g);
    size_t len = strlen(text);
    if (len != (size_t)o->cells + 2 || (text[o->cells] != ':' && text[o->cells] != ' ')) {
        char example[DISCS_MAX_CELLS + 3]; /* the variant's own initial position */
        oth_format(g, g->initial, example, sizeof example);
        return error_set(err, ERR_USAGE,
                         "an Othello %dx%d position is %d squares row by row from x (black), "
                         "o (white) and - (empty), then ':' and the player to move, e.g. %s "
                         "(the initial position); '%s' is not",
                         o->w, o->h, o->cells, example, text);
    }
    uint64_t black = 0, white = 0;
    for (int sq = 0; sq < o->cells; sq++) {
        uint64_t bit = UINT64_C(1) << sq;
        switch (text[sq]) {
        case 'x':
        case 'X':
            black |= bit;
            break;
        case 'o':
        case 'O':
            white |= bit;
            break;
        case '-':
        case '.':
            break;
        default:
            return error_set(err, ERR_USAGE,
                             "'%c' at square %d of '%s' is not x (black), o (white) or - (empty)",
                             text[sq], sq + 1, text);
        }
    }
    int turn;
    char t = text[o->cells + 1];
    if (t == 'x' || t == 'X') {
        turn = 0;
    } else if (t == 'o' || t == 'O') {
        turn = 1;
    } else {
        return error_set(err, ERR_USAGE, "'%s' must end with the player to move, x or o, not '%c'",
                         text, t);
    }
    uint64_t centre = o->start_black | o->start_white;
    if ((centre & ~(black | white)) != 0) {
        return error_set(err, ERR_USAGE,
                         "'%s' cannot arise in play: the 4 centre squares are filled from the "
                         "start",
                         text);
    }
    if (!connected(o, black | white)) {
        return error_set(err, ERR_USAGE,
                         "'%s' cannot arise in play: every disc is placed next to one already on "
                         "the board, so the discs form one connected group",
                         text);
    }
    *pos = discs_hash(&o->hash, black, white, turn);
    return ERR_OK;
}

static const GameOps oth_ops = {
    .primitive = oth_primitive,
    .generate_moves = oth_generate_moves,
    .do_move = oth_do_move,
    .turn = oth_turn,
    .winby = oth_winby,
    .canonical = oth_canonical,
    .format = oth_format,
    .parse = oth_parse,
    .print = oth_print,
    .move_name = oth_move_name,
};

/* -------------------------------------------------------------- GPS family */

typedef struct OthUndo {
    uint64_t flips; /* discs the move flipped (0 for a pass) */
    Move move;
} OthUndo;

typedef struct OthGps {
    const Oth *o;
    uint64_t black, white;
    int turn;
    int nhist;
    OthUndo hist[OTH_MAX_PLIES];
} OthGps;

static GpsState *gps_create(const Game *g, Error *err) {
    OthGps *s = mem_calloc(1, sizeof *s, "an Othello GPS state", err);
    if (s == NULL) {
        return NULL;
    }
    s->o = oth(g);
    s->black = s->o->start_black;
    s->white = s->o->start_white;
    return (GpsState *)s;
}

static void gps_destroy(GpsState *st) { free(st); }

static void gps_set(GpsState *st, Position pos) {
    OthGps *s = (OthGps *)st;
    discs_unhash(&s->o->hash, pos, &s->black, &s->white, &s->turn);
    s->nhist = 0;
}

static Position gps_position(GpsState *st) {
    OthGps *s = (OthGps *)st;
    return discs_hash(&s->o->hash, s->black, s->white, s->turn);
}

static Value gps_primitive_scan(GpsState *st) {
    OthGps *s = (OthGps *)st;
    return board_primitive(s->o, s->black, s->white, s->turn);
}

static int gps_moves_scan(GpsState *st, Move *moves) {
    OthGps *s = (OthGps *)st;
    uint64_t own = s->turn == 0 ? s->black : s->white, opp = s->turn == 0 ? s->white : s->black;
    return moves_from_mask(mobility(s->o, own, opp), moves);
}

static Position gps_do(GpsState *st, Move move) {
    OthGps *s = (OthGps *)st;
    uint64_t flips = board_play(s->o, &s->black, &s->white, &s->turn, move);
    s->hist[s->nhist++] = (OthUndo){.flips = flips, .move = move};
    return discs_hash(&s->o->hash, s->black, s->white, s->turn);
}

static void gps_undo(GpsState *st) {
    OthGps *s = (OthGps *)st;
    OthUndo u = s->hist[--s->nhist];
    s->turn ^= 1; /* back to the player who made the move */
    if (u.move != OTH_PASS) {
        uint64_t *own = s->turn == 0 ? &s->black : &s->white;
        uint64_t *opp = s->turn == 0 ? &s->white : &s->black;
        *own &= ~(u.flips | UINT64_C(1) << u.move);
        *opp |= u.flips;
    }
}

static Position gps_canonical(GpsState *st) {
    OthGps *s = (OthGps *)st;
    Position self = discs_hash(&s->o->hash, s->black, s->white, s->turn);
    return board_canonical(s->o, s->black, s->white, s->turn, self);
}

static int gps_turn(GpsState *st) { return ((OthGps *)st)->turn; }

static WinBy gps_winby(GpsState *st) {
    OthGps *s = (OthGps *)st;
    return score_of(s->black, s->white);
}

static const GpsOps oth_gps = {
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
    .winby = gps_winby,
};

/* ------------------------------------------------------- GPS-cached family */

enum { MOB_OWN = 1, MOB_OPP = 2 }; /* which mobility masks are known */

/* Everything the state holds, so an undo is one copy. */
typedef struct OthFrame {
    uint64_t black, white;
    Position hash;
    uint64_t mob_own, mob_opp; /* moves of the player to move / of the other */
    int turn;
    int known; /* MOB_OWN | MOB_OPP: which masks are valid */
} OthFrame;

typedef struct OthCached {
    const Oth *o;
    OthFrame cur;
    int nhist;
    OthFrame hist[OTH_MAX_PLIES];
} OthCached;

static GpsState *cached_create(const Game *g, Error *err) {
    OthCached *s = mem_calloc(1, sizeof *s, "an Othello GPS-cached state", err);
    if (s == NULL) {
        return NULL;
    }
    s->o = oth(g);
    s->cur = (OthFrame){.black = s->o->start_black, .white = s->o->start_white, .hash = g->initial};
    return (GpsState *)s;
}

static void cached_set(GpsState *st, Position pos) {
    OthCached *s = (OthCached *)st;
    OthFrame *f = &s->cur;
    discs_unhash(&s->o->hash, pos, &f->black, &f->white, &f->turn);
    f->hash = pos;
    f->known = 0;
    s->nhist = 0;
}

static Position cached_position(GpsState *st) { return ((OthCached *)st)->cur.hash; }

static uint64_t cached_mob_own(OthCached *s) {
    OthFrame *f = &s->cur;
    if (!(f->known & MOB_OWN)) {
        f->mob_own =
            f->turn == 0 ? mobility(s->o, f->black, f->white) : mobility(s->o, f->white, f->black);
        f->known |= MOB_OWN;
    }
    return f->mob_own;
}

static uint64_t cached_mob_opp(OthCached *s) {
    OthFrame *f = &s->cur;
    if (!(f->known & MOB_OPP)) {
        f->mob_opp =
            f->turn == 0 ? mobility(s->o, f->white, f->black) : mobility(s->o, f->black, f->white);
        f->known |= MOB_OPP;
    }
    return f->mob_opp;
}

static Value cached_primitive(GpsState *st) {
    OthCached *s = (OthCached *)st;
    if (cached_mob_own(s) != 0 || cached_mob_opp(s) != 0) {
        return VALUE_UNDECIDED;
    }
    return value_of(s->cur.turn, score_of(s->cur.black, s->cur.white));
}

static int cached_moves(GpsState *st, Move *moves) {
    return moves_from_mask(cached_mob_own((OthCached *)st), moves);
}

static Position cached_do(GpsState *st, Move move) {
    OthCached *s = (OthCached *)st;
    OthFrame *f = &s->cur;
    s->hist[s->nhist++] = *f;
    if (move == OTH_PASS) {
        /* Same board, other player to move: the masks swap. */
        uint64_t own = f->mob_own;
        f->mob_own = f->mob_opp;
        f->mob_opp = own;
        f->known = ((f->known & MOB_OWN) ? MOB_OPP : 0) | ((f->known & MOB_OPP) ? MOB_OWN : 0);
        f->turn ^= 1;
    } else {
        board_play(s->o, &f->black, &f->white, &f->turn, move);
        f->known = 0;
    }
    f->hash = discs_hash(&s->o->hash, f->black, f->white, f->turn);
    return f->hash;
}

static void cached_undo(GpsState *st) {
    OthCached *s = (OthCached *)st;
    s->cur = s->hist[--s->nhist];
}

static Position cached_canonical(GpsState *st) {
    OthCached *s = (OthCached *)st;
    return board_canonical(s->o, s->cur.black, s->cur.white, s->cur.turn, s->cur.hash);
}

static int cached_turn(GpsState *st) { return ((OthCached *)st)->cur.turn; }

static WinBy cached_winby(GpsState *st) {
    OthCached *s = (OthCached *)st;
    return score_of(s->cur.black, s->cur.white);
}

static const GpsOps oth_gps_cached = {
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
    .winby = cached_winby,
};

/* ------------------------------------------------------------------ module */

static void init_directions(Oth *o) {
    uint64_t col0 = 0, last = 0;
    for (int r = 0; r < o->h; r++) {
        col0 |= UINT64_C(1) << (r * o->w);
        last |= UINT64_C(1) << (r * o->w + o->w - 1);
    }
    uint64_t b = o->board, not0 = b & ~col0, notlast = b & ~last;
    int w = o->w;
    const OthDir dirs[OTH_DIRS] = {
        {1, not0},        {-1, notlast},       /* east, west */
        {w, b},           {-w, b},             /* south, north */
        {w + 1, not0},    {w - 1, notlast},    /* south-east, south-west */
        {-(w - 1), not0}, {-(w + 1), notlast}, /* north-east, north-west */
    };
    memcpy(o->dir, dirs, sizeof dirs);
    int longest = o->w > o->h ? o->w : o->h;
    o->fill_steps = longest - 3 > 0 ? longest - 3 : 0;
}

/* Square (r, c) under candidate symmetry s: 0 identity, 1 half turn, 2 and
 * 3 the horizontal and vertical mirrors, and on square boards 4 and 5 the
 * reflections in the two diagonals, 6 and 7 the quarter turns. */
static int sym_square(const Oth *o, int s, int r, int c) {
    int w = o->w, h = o->h;
    switch (s) {
    case 1:
        return (h - 1 - r) * w + (w - 1 - c);
    case 2:
        return (h - 1 - r) * w + c;
    case 3:
        return r * w + (w - 1 - c);
    case 4:
        return c * w + r;
    case 5:
        return (w - 1 - c) * w + (h - 1 - r);
    case 6:
        return c * w + (h - 1 - r);
    case 7:
        return (w - 1 - c) * w + r;
    default:
        return r * w + c;
    }
}

static uint64_t map_board(const Oth *o, int s, uint64_t bb) {
    uint64_t image = 0;
    for (int sq = 0; sq < o->cells; sq++) {
        if ((bb >> sq) & 1) {
            image |= UINT64_C(1) << sym_square(o, s, sq / o->w, sq % o->w);
        }
    }
    return image;
}

/* Keeps the candidate symmetries that fix the starting position. */
static void init_symmetries(Oth *o, bool sym) {
    o->nsym = 0;
    int candidates = o->w == o->h ? OTH_CANDIDATE_SYMS : 4;
    for (int s = 0; s < (sym ? candidates : 1); s++) {
        if (map_board(o, s, o->start_black) != o->start_black ||
            map_board(o, s, o->start_white) != o->start_white) {
            continue;
        }
        int slot = o->nsym++;
        for (int k = 0; k < o->hash.nibbles; k++) {
            for (int v = 0; v < 16; v++) {
                uint64_t bits = (uint64_t)v << (4 * k) & o->board;
                o->symtab[slot][k][v] = map_board(o, s, bits);
            }
        }
    }
}

static ErrCode oth_create(Game *g, Error *err) {
    int64_t n = opt_int(&g->options, "n");
    bool given_n = opt_given(&g->options, "n");
    if (given_n && (opt_given(&g->options, "w") || opt_given(&g->options, "h"))) {
        return error_set(err, ERR_USAGE, "give the board as n=N (square) or as w=W,h=H, not both");
    }
    int w = (int)(given_n ? n : opt_int(&g->options, "w"));
    int h = (int)(given_n ? n : opt_int(&g->options, "h"));
    if (w % 2 != 0 || h % 2 != 0) {
        return error_set(err, ERR_USAGE,
                         "a %dx%d board has no 2x2 centre to start from; sides must be even", w, h);
    }
    double space = discs_space(w * h, 4, 2);
    /* Also keeps the board within a 64-bit bitboard. A variant too large to
     * hash is a bad option (exit 2), as in every other game's hash. */
    if (space >= 0x1p63) {
        return error_set(err, ERR_USAGE,
                         "a %dx%d board has 2^4 x 3^%d x 2 = %.3g positions, more than a 63-bit "
                         "hash holds; boards of up to 40 squares hash",
                         w, h, w * h - 4, space);
    }
    Oth *o = mem_calloc(1, sizeof *o, "the Othello module", err);
    if (o == NULL) {
        return ERR_MEMORY;
    }
    o->w = w;
    o->h = h;
    o->cells = w * h;
    o->board = o->cells == 64 ? UINT64_MAX : (UINT64_C(1) << o->cells) - 1;
    int r0 = h / 2 - 1, c0 = w / 2 - 1;
    o->start_white = UINT64_C(1) << (r0 * w + c0) | UINT64_C(1) << ((r0 + 1) * w + c0 + 1);
    o->start_black = UINT64_C(1) << (r0 * w + c0 + 1) | UINT64_C(1) << ((r0 + 1) * w + c0);
    ErrCode rc = discs_init(&o->hash, o->cells, o->start_black | o->start_white, 2, err);
    if (rc != ERR_OK) {
        free(o);
        return rc;
    }
    init_directions(o);
    bool sym = opt_bool(&g->options, "sym");
    init_symmetries(o, sym);
    snprintf(g->variant, sizeof g->variant, "w=%d,h=%d%s", w, h, sym ? ",sym" : "");
    g->self = o;
    g->ops = &oth_ops;
    g->gps = &oth_gps;
    g->gps_cached = &oth_gps_cached;
    g->num_positions = o->hash.size;
    g->initial = discs_hash(&o->hash, o->start_black, o->start_white, 0);
    g->max_moves = o->cells - 4 > 1 ? o->cells - 4 : 1;
    g->max_depth = (uint32_t)(2 * (o->cells - 4) + 1);
    g->symmetric = sym;
    g->has_winby = true;
    return ERR_OK;
}

static const OptionSpec oth_options[] = {
    {.name = "n",
     .type = OPT_INT,
     .min = 2,
     .max = OTH_MAX_SIDE,
     .def = 4,
     .help = "side of a square board (even); or give w and h"},
    {.name = "w",
     .type = OPT_INT,
     .min = 2,
     .max = OTH_MAX_SIDE,
     .def = 4,
     .help = "board width (even)"},
    {.name = "h",
     .type = OPT_INT,
     .min = 2,
     .max = OTH_MAX_SIDE,
     .def = 4,
     .help = "board height (even)"},
    {.name = "sym",
     .type = OPT_BOOL,
     .help = "canonicalize under the board symmetries that fix the start"},
    {0},
};

/* 4x4 solves in well under a second even under the sanitizers; 2xN boards
 * exercise rectangles, passes and early ends cheaply. */
static const GameTestVariant oth_tests[] = {
    {.options = "w=4,h=2"}, {.options = "w=2,h=6"}, {.options = "w=6,h=2,sym"},
    {.options = ""},        {.options = "sym"},     {NULL},
};

const GameModule othello_module = {
    .name = "othello",
    .title = "Othello",
    .description = "Othello/Reversi on small even boards; WinBy = black discs minus white",
    .options = oth_options,
    .test_variants = oth_tests,
    .create = oth_create,
};
