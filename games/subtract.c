/* games/subtract.c: subtraction games (GamesmanClassic's m1210, "1, 2, ..., 10").
 *
 * Rules: one pile of n counters; the players alternate removing one of the
 * allowed amounts (option `moves`, e.g. 1-2), never more than the pile
 * holds. Normal play: the player who cannot move loses; `misere`: the
 * player who cannot move wins. GamesCrafters' "1,2,...,10" is n=10 with
 * moves 1-2 (count up from 0 to 10 by 1 or 2; whoever says 10 wins), the
 * same game read backwards.
 *
 * Position: the counters left, 0..n, hashed as one mixed-radix digit of
 * radix n + 1 (hash/mixed.h), so positions are [0, n]. Whose turn it is is
 * not part of the position (values are for the player to move). A move is
 * the amount removed, shown as "-2".
 *
 * Bounds: a game lasts at most n / (smallest move) moves, which is also the
 * largest remoteness; the database stores remoteness up to 16383, so a
 * variant with a longer possible game is refused at creation. The depth-first
 * solvers recurse once per move, on a thread whose stack the harness sizes
 * from that bound (about 1.3 KiB a ply).
 *
 * Families: stateless (every call unhashes the pile) and GPS (the pile and
 * the move history in a state; do_move updates the position by one digit
 * change, one hash). Generating moves is O(|moves|); everything else O(1).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/db.h"
#include "core/mem.h"
#include "games/game.h"
#include "hash/mixed.h"

typedef struct Sub {
    MixedRadix hash;
    uint32_t n;
    bool misere;
    int nmoves;
    uint32_t moves[OPTION_LIST_MAX]; /* allowed amounts, ascending */
} Sub;

static const Sub *sub(const Game *g) { return g->self; }

static uint32_t pile_of(const Sub *s, Position pos) {
    uint32_t pile;
    mixed_unhash(&s->hash, pos, &pile);
    return pile;
}

/* No amount fits: the game is over for the player to move. */
static Value pile_primitive(const Sub *s, uint32_t pile) {
    if (pile >= s->moves[0]) {
        return VALUE_UNDECIDED;
    }
    return s->misere ? VALUE_WIN : VALUE_LOSE;
}

static int pile_moves(const Sub *s, uint32_t pile, Move *moves) {
    int n = 0;
    for (int i = 0; i < s->nmoves && s->moves[i] <= pile; i++) {
        moves[n++] = (Move)s->moves[i];
    }
    return n;
}

/* -------------------------------------------------------- stateless family */

static Value sub_primitive(const Game *g, Position pos) {
    return pile_primitive(sub(g), pile_of(sub(g), pos));
}

static int sub_generate_moves(const Game *g, Position pos, Move *moves) {
    return pile_moves(sub(g), pile_of(sub(g), pos), moves);
}

static Position sub_do_move(const Game *g, Position pos, Move move) {
    const Sub *s = sub(g);
    uint32_t pile = pile_of(s, pos);
    return mixed_replace(&s->hash, pos, 0, pile, pile - (uint32_t)move);
}

static void sub_format(const Game *g, Position pos, char *buf, size_t n) {
    snprintf(buf, n, "%" PRIu32, pile_of(sub(g), pos));
}

static void sub_print(const Game *g, Position pos, char *buf, size_t n) {
    const Sub *s = sub(g);
    uint32_t pile = pile_of(s, pos);
    char amounts[OPTION_LIST_MAX * 12] = "";
    size_t used = 0;
    for (int i = 0; i < s->nmoves; i++) {
        used += (size_t)snprintf(amounts + used, sizeof amounts - used, "%s%" PRIu32,
                                 i == 0               ? ""
                                 : i == s->nmoves - 1 ? " or "
                                                      : ", ",
                                 s->moves[i]);
    }
    snprintf(buf, n, "pile of %" PRIu32 " (of %" PRIu32 "); a move takes %s%s\n", pile, s->n,
             amounts, pile_primitive(s, pile) != VALUE_UNDECIDED ? "; no move is left" : "");
}

static void sub_move_name(const Game *g, Position pos, Move move, char *buf, size_t n) {
    (void)g;
    (void)pos;
    snprintf(buf, n, "-%" PRId32, move);
}

static ErrCode sub_parse(const Game *g, const char *text, Position *pos, Error *err) {
    const Sub *s = sub(g);
    int64_t pile;
    if (!parse_int64(text, 0, s->n, &pile)) {
        return error_set(err, ERR_USAGE,
                         "a subtraction-game position is the number of counters left, 0..%" PRIu32
                         " (e.g. %" PRIu32 "), not '%s'",
                         s->n, s->n, text);
    }
    uint32_t digit = (uint32_t)pile;
    *pos = mixed_hash(&s->hash, &digit);
    return ERR_OK;
}

static const GameOps sub_ops = {
    .primitive = sub_primitive,
    .generate_moves = sub_generate_moves,
    .do_move = sub_do_move,
    .format = sub_format,
    .parse = sub_parse,
    .print = sub_print,
    .move_name = sub_move_name,
};

/* -------------------------------------------------------------- GPS family */

typedef struct SubGps {
    const Sub *s;
    uint32_t pile;
    Position pos; /* hash of pile, kept up to date */
    uint32_t nhist;
    uint32_t *hist; /* amounts removed, at most max_depth */
} SubGps;

static GpsState *gps_create(const Game *g, Error *err) {
    SubGps *st = mem_calloc(1, sizeof *st, "a subtraction-game GPS state", err);
    uint32_t *hist = st == NULL
                         ? NULL
                         : mem_calloc((size_t)g->max_depth + 1, sizeof *hist,
                                      "the move history of a subtraction-game GPS state", err);
    if (hist == NULL) {
        free(st);
        return NULL;
    }
    st->s = sub(g);
    st->hist = hist;
    st->pile = st->s->n;
    st->pos = g->initial;
    return (GpsState *)st;
}

static void gps_destroy(GpsState *state) {
    SubGps *st = (SubGps *)state;
    free(st->hist);
    free(st);
}

static void gps_set(GpsState *state, Position pos) {
    SubGps *st = (SubGps *)state;
    st->pile = pile_of(st->s, pos);
    st->pos = pos;
    st->nhist = 0;
}

static Position gps_position(GpsState *state) { return ((SubGps *)state)->pos; }

static Value gps_primitive_(GpsState *state) {
    SubGps *st = (SubGps *)state;
    return pile_primitive(st->s, st->pile);
}

static int gps_moves(GpsState *state, Move *moves) {
    SubGps *st = (SubGps *)state;
    return pile_moves(st->s, st->pile, moves);
}

static Position gps_do(GpsState *state, Move move) {
    SubGps *st = (SubGps *)state;
    uint32_t next = st->pile - (uint32_t)move;
    st->pos = mixed_replace(&st->s->hash, st->pos, 0, st->pile, next);
    st->pile = next;
    st->hist[st->nhist++] = (uint32_t)move;
    return st->pos;
}

static void gps_undo(GpsState *state) {
    SubGps *st = (SubGps *)state;
    uint32_t amount = st->hist[--st->nhist];
    /* Restores the old position arithmetically: no new board is encoded. */
    st->pile += amount;
    st->pos += (uint64_t)amount * st->s->hash.place[0];
}

static const GpsOps sub_gps = {
    .create = gps_create,
    .destroy = gps_destroy,
    .set = gps_set,
    .position = gps_position,
    .primitive = gps_primitive_,
    .generate_moves = gps_moves,
    .do_move = gps_do,
    .undo_move = gps_undo,
};

/* ------------------------------------------------------------------ module */

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static ErrCode sub_create(Game *g, Error *err) {
    Sub *s = mem_calloc(1, sizeof *s, "the subtraction-game module", err);
    if (s == NULL) {
        return ERR_MEMORY;
    }
    s->n = (uint32_t)opt_int(&g->options, "n");
    s->misere = opt_bool(&g->options, "misere");
    const int64_t *items;
    s->nmoves = opt_list(&g->options, "moves", &items);
    for (int i = 0; i < s->nmoves; i++) {
        s->moves[i] = (uint32_t)items[i];
    }
    qsort(s->moves, (size_t)s->nmoves, sizeof s->moves[0], cmp_u32);
    for (int i = 1; i < s->nmoves; i++) {
        if (s->moves[i] == s->moves[i - 1]) {
            uint32_t twice = s->moves[i];
            free(s);
            return error_set(err, ERR_USAGE, "moves lists the amount %" PRIu32 " twice", twice);
        }
    }
    /* The longest game takes the smallest amount every time. */
    uint32_t depth = s->n / s->moves[0];
    if (depth > DB_MAX_REMOTENESS_16) {
        uint32_t n = s->n, least = s->moves[0];
        free(s);
        return error_set(err, ERR_USAGE,
                         "n=%" PRIu32 " with smallest move %" PRIu32 " allows games of %" PRIu32
                         " moves, but the database stores remoteness up to %u; choose n <= %" PRIu64
                         " or a larger smallest move",
                         n, least, depth, DB_MAX_REMOTENESS_16,
                         (uint64_t)DB_MAX_REMOTENESS_16 * least + least - 1);
    }
    uint64_t radix = (uint64_t)s->n + 1;
    ErrCode rc = mixed_init(&s->hash, 1, &radix, err);
    if (rc != ERR_OK) {
        free(s);
        return rc;
    }
    uint32_t digit = s->n;
    g->self = s;
    g->ops = &sub_ops;
    g->gps = &sub_gps;
    g->num_positions = s->hash.size;
    g->initial = mixed_hash(&s->hash, &digit);
    g->max_moves = s->nmoves;
    g->max_depth = depth;
    return ERR_OK;
}

static const OptionSpec sub_options[] = {
    {.name = "n",
     .type = OPT_INT,
     .min = 0,
     .max = 1000000000,
     .def = 10,
     .help = "counters in the pile at the start"},
    {.name = "moves",
     .type = OPT_INT_LIST,
     .min = 1,
     .max = 1000000000,
     .def_list = "1-2",
     .max_items = OPTION_LIST_MAX,
     .help = "the amounts a move may remove (distinct)"},
    {.name = "misere", .type = OPT_BOOL, .help = "the player who cannot move wins"},
    {0},
};

static const GameTestVariant sub_tests[] = {
    {.options = ""},
    {.options = "misere"},
    {.options = "n=30,moves=1-3-4"},
    {.options = "n=30,moves=2-5,misere"},
    {.options = "n=3000,moves=1-2-3"},
    {NULL},
};

const GameModule subtract_module = {
    .name = "subtract",
    .title = "Subtraction game",
    .description = "take one of the allowed amounts from a pile; 1,2,...,10 is n=10",
    .options = sub_options,
    .test_variants = sub_tests,
    .create = sub_create,
};
