/* games/nim.c: Nim (normal play), heap sizes as options.
 *
 * Rules: heaps of counters (option `heaps`, e.g. 3-4-5); a move removes one
 * or more counters from one heap. Normal play: the player who cannot move
 * (every heap empty) loses. Bouton (1901): a position loses for the player
 * to move exactly when the heap sizes XOR to zero (tests/test_known_nim.c
 * checks every position against it).
 *
 * Position: the heap sizes as a mixed-radix number (hash/mixed.h), heap i a
 * digit of radix H_i + 1 for its starting size H_i, so the hash space is
 * prod (H_i + 1) and every state of the heaps has a slot. Whose turn it is
 * is not part of the position. A move is heap * NIM_HEAP_STRIDE + amount,
 * shown as "h2-3" (take 3 from heap 2, heaps counted from 1).
 *
 * Symmetry (option `sym`): the heaps are a multiset, so a position and any
 * reordering of its heaps have the same value; the canonical position sorts
 * the sizes in descending order. With `sym` the starting sizes are put in
 * descending order too, so that a sorted state always fits the radices (the
 * i-th largest size never exceeds the i-th largest starting size). Digit 0
 * is the least significant, so the descending order is also the smallest
 * hash among the reorderings that fit (GamesmanClassic's convention: the
 * canonical position is the least of its class).
 *
 * Bounds: at most sum H_i moves from a position (<= 256, the move buffer),
 * and a game lasts at most sum H_i moves.
 *
 * Families: stateless (every call unhashes) and GPS (heap sizes and the move
 * history in a state; do_move changes one digit of the kept position, one
 * hash). Generating moves is O(sum H_i); do/undo O(1); canonical O(h log h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "games/game.h"
#include "hash/mixed.h"

#define NIM_MAX_HEAPS 16
#define NIM_HEAP_STRIDE 1024 /* move = heap * stride + amount; amounts <= 256 */

typedef struct Nim {
    MixedRadix hash;
    int heaps;
    uint32_t start[NIM_MAX_HEAPS]; /* starting sizes (ascending with sym) */
} Nim;

static const Nim *nim(const Game *g) { return g->self; }

static bool all_empty(const Nim *t, const uint32_t *h) {
    for (int i = 0; i < t->heaps; i++) {
        if (h[i] != 0) {
            return false;
        }
    }
    return true;
}

static Value heaps_primitive(const Nim *t, const uint32_t *h) {
    return all_empty(t, h) ? VALUE_LOSE : VALUE_UNDECIDED;
}

static int heaps_moves(const Nim *t, const uint32_t *h, Move *moves) {
    int n = 0;
    for (int i = 0; i < t->heaps; i++) {
        for (uint32_t a = 1; a <= h[i]; a++) {
            moves[n++] = (Move)(i * NIM_HEAP_STRIDE + (int)a);
        }
    }
    return n;
}

/* Descending order. */
static int cmp_u32_desc(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x < y) - (x > y);
}

/* The heaps sorted in descending order, hashed (one hash). */
static Position heaps_canonical(const Nim *t, const uint32_t *h) {
    uint32_t sorted[NIM_MAX_HEAPS];
    memcpy(sorted, h, (size_t)t->heaps * sizeof *h);
    qsort(sorted, (size_t)t->heaps, sizeof *sorted, cmp_u32_desc);
    return mixed_hash(&t->hash, sorted);
}

/* -------------------------------------------------------- stateless family */

static Value nim_primitive(const Game *g, Position pos) {
    uint32_t h[NIM_MAX_HEAPS];
    mixed_unhash(&nim(g)->hash, pos, h);
    return heaps_primitive(nim(g), h);
}

static int nim_generate_moves(const Game *g, Position pos, Move *moves) {
    uint32_t h[NIM_MAX_HEAPS];
    mixed_unhash(&nim(g)->hash, pos, h);
    return heaps_moves(nim(g), h, moves);
}

static Position nim_do_move(const Game *g, Position pos, Move move) {
    const Nim *t = nim(g);
    uint32_t h[NIM_MAX_HEAPS];
    mixed_unhash(&t->hash, pos, h);
    int i = move / NIM_HEAP_STRIDE;
    uint32_t amount = (uint32_t)(move % NIM_HEAP_STRIDE);
    return mixed_replace(&t->hash, pos, i, h[i], h[i] - amount);
}

static Position nim_canonical(const Game *g, Position pos) {
    uint32_t h[NIM_MAX_HEAPS];
    mixed_unhash(&nim(g)->hash, pos, h);
    return heaps_canonical(nim(g), h);
}

static void heaps_text(const Nim *t, const uint32_t *h, char *buf, size_t n) {
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < t->heaps && used < n; i++) {
        used += (size_t)snprintf(buf + used, n - used, "%s%" PRIu32, i ? "-" : "", h[i]);
    }
}

static void nim_format(const Game *g, Position pos, char *buf, size_t n) {
    uint32_t h[NIM_MAX_HEAPS];
    mixed_unhash(&nim(g)->hash, pos, h);
    heaps_text(nim(g), h, buf, n);
}

/* One line per heap: "heap 2:  4 |||| (of 4)". */
static void nim_print(const Game *g, Position pos, char *buf, size_t n) {
    const Nim *t = nim(g);
    uint32_t h[NIM_MAX_HEAPS];
    mixed_unhash(&t->hash, pos, h);
    size_t used = 0;
    buf[0] = '\0';
    uint32_t x = 0;
    for (int i = 0; i < t->heaps && used < n; i++) {
        char bar[64];
        uint32_t shown = h[i] < sizeof bar - 1 ? h[i] : (uint32_t)sizeof bar - 1;
        memset(bar, '|', shown);
        bar[shown] = '\0';
        used += (size_t)snprintf(buf + used, n - used, "heap %d: %3" PRIu32 " %s%s\n", i + 1, h[i],
                                 bar, shown < h[i] ? "..." : "");
        x ^= h[i];
    }
    if (used < n) {
        snprintf(buf + used, n - used, "nim-sum (XOR of the sizes): %" PRIu32 "\n", x);
    }
}

static void nim_move_name(const Game *g, Position pos, Move move, char *buf, size_t n) {
    (void)g;
    (void)pos;
    snprintf(buf, n, "h%d-%d", (int)(move / NIM_HEAP_STRIDE) + 1, (int)(move % NIM_HEAP_STRIDE));
}

static ErrCode nim_parse(const Game *g, const char *text, Position *pos, Error *err) {
    const Nim *t = nim(g);
    char start[NIM_MAX_HEAPS * 12];
    heaps_text(t, t->start, start, sizeof start);
    char copy[256];
    if (strlen(text) >= sizeof copy) {
        return error_set(err, ERR_USAGE,
                         "a Nim position is %d heap sizes like %s; '%.40s...' is "
                         "too long",
                         t->heaps, start, text);
    }
    strcpy(copy, text);
    uint32_t h[NIM_MAX_HEAPS];
    int count = 0;
    char *save = NULL;
    bool shape = copy[0] != '\0' && copy[0] != '-' && copy[strlen(copy) - 1] != '-' &&
                 strstr(copy, "--") == NULL;
    for (char *tok = shape ? strtok_r(copy, "-", &save) : NULL; tok != NULL;
         tok = strtok_r(NULL, "-", &save)) {
        int64_t v;
        if (count >= t->heaps || !parse_int64(tok, 0, t->start[count], &v)) {
            if (count < t->heaps && parse_int64(tok, 0, INT64_MAX, &v)) {
                return error_set(err, ERR_USAGE,
                                 "heap %d of '%s' holds %s counters; in this variant (%s) it "
                                 "holds at most %" PRIu32,
                                 count + 1, text, tok, start, t->start[count]);
            }
            shape = false;
            break;
        }
        h[count++] = (uint32_t)v;
    }
    if (!shape || count != t->heaps) {
        return error_set(err, ERR_USAGE,
                         "a Nim position is %d heap sizes separated by '-' (the start is %s), "
                         "not '%s'",
                         t->heaps, start, text);
    }
    *pos = mixed_hash(&t->hash, h);
    return ERR_OK;
}

static const GameOps nim_ops = {
    .primitive = nim_primitive,
    .generate_moves = nim_generate_moves,
    .do_move = nim_do_move,
    .canonical = nim_canonical,
    .format = nim_format,
    .parse = nim_parse,
    .print = nim_print,
    .move_name = nim_move_name,
};

/* -------------------------------------------------------------- GPS family */

typedef struct NimGps {
    const Nim *t;
    uint32_t h[NIM_MAX_HEAPS];
    Position pos; /* hash of h, kept up to date */
    uint32_t nhist;
    Move *hist; /* at most max_depth moves */
} NimGps;

static GpsState *gps_create(const Game *g, Error *err) {
    NimGps *st = mem_calloc(1, sizeof *st, "a Nim GPS state", err);
    Move *hist = st == NULL ? NULL
                            : mem_calloc((size_t)g->max_depth + 1, sizeof *hist,
                                         "the move history of a Nim GPS state", err);
    if (hist == NULL) {
        free(st);
        return NULL;
    }
    st->t = nim(g);
    st->hist = hist;
    memcpy(st->h, st->t->start, sizeof st->h);
    st->pos = g->initial;
    return (GpsState *)st;
}

static void gps_destroy(GpsState *state) {
    NimGps *st = (NimGps *)state;
    free(st->hist);
    free(st);
}

static void gps_set(GpsState *state, Position pos) {
    NimGps *st = (NimGps *)state;
    mixed_unhash(&st->t->hash, pos, st->h);
    st->pos = pos;
    st->nhist = 0;
}

static Position gps_position(GpsState *state) { return ((NimGps *)state)->pos; }

static Value gps_primitive_(GpsState *state) {
    NimGps *st = (NimGps *)state;
    return heaps_primitive(st->t, st->h);
}

static int gps_moves(GpsState *state, Move *moves) {
    NimGps *st = (NimGps *)state;
    return heaps_moves(st->t, st->h, moves);
}

static Position gps_do(GpsState *state, Move move) {
    NimGps *st = (NimGps *)state;
    int i = move / NIM_HEAP_STRIDE;
    uint32_t next = st->h[i] - (uint32_t)(move % NIM_HEAP_STRIDE);
    st->pos = mixed_replace(&st->t->hash, st->pos, i, st->h[i], next);
    st->h[i] = next;
    st->hist[st->nhist++] = move;
    return st->pos;
}

static void gps_undo(GpsState *state) {
    NimGps *st = (NimGps *)state;
    Move move = st->hist[--st->nhist];
    int i = move / NIM_HEAP_STRIDE;
    uint32_t amount = (uint32_t)(move % NIM_HEAP_STRIDE);
    /* Restores the old position arithmetically: no new state is encoded. */
    st->h[i] += amount;
    st->pos += (uint64_t)amount * st->t->hash.place[i];
}

static Position gps_canonical(GpsState *state) {
    NimGps *st = (NimGps *)state;
    return heaps_canonical(st->t, st->h);
}

static const GpsOps nim_gps = {
    .create = gps_create,
    .destroy = gps_destroy,
    .set = gps_set,
    .position = gps_position,
    .primitive = gps_primitive_,
    .generate_moves = gps_moves,
    .do_move = gps_do,
    .undo_move = gps_undo,
    .canonical = gps_canonical,
};

/* ------------------------------------------------------------------ module */

static ErrCode nim_create(Game *g, Error *err) {
    Nim *t = mem_calloc(1, sizeof *t, "the Nim module", err);
    if (t == NULL) {
        return ERR_MEMORY;
    }
    const int64_t *items;
    t->heaps = opt_list(&g->options, "heaps", &items);
    uint64_t total = 0, radix[NIM_MAX_HEAPS];
    for (int i = 0; i < t->heaps; i++) {
        t->start[i] = (uint32_t)items[i];
        total += (uint64_t)items[i];
    }
    if (total > GAME_MAX_MOVES) {
        free(t);
        return error_set(err, ERR_USAGE,
                         "the heaps hold %" PRIu64 " counters in all; at most %d are supported "
                         "(a position has one move per counter)",
                         total, GAME_MAX_MOVES);
    }
    g->symmetric = opt_bool(&g->options, "sym");
    if (g->symmetric) {
        qsort(t->start, (size_t)t->heaps, sizeof t->start[0], cmp_u32_desc);
    }
    for (int i = 0; i < t->heaps; i++) {
        radix[i] = (uint64_t)t->start[i] + 1;
    }
    ErrCode rc = mixed_init(&t->hash, t->heaps, radix, err);
    if (rc != ERR_OK) {
        free(t);
        return rc;
    }
    g->self = t;
    g->ops = &nim_ops;
    g->gps = &nim_gps;
    g->num_positions = t->hash.size;
    g->initial = mixed_hash(&t->hash, t->start);
    g->max_moves = (int)total;
    g->max_depth = (uint32_t)total;
    return ERR_OK;
}

static const OptionSpec nim_options[] = {
    {.name = "heaps",
     .type = OPT_INT_LIST,
     .min = 1,
     .max = GAME_MAX_MOVES,
     .def_list = "3-4-5",
     .max_items = NIM_MAX_HEAPS,
     .help = "starting heap sizes (at most 256 counters in all)"},
    {.name = "sym", .type = OPT_BOOL, .help = "heaps as a multiset: store sorted sizes only"},
    {0},
};

static const GameTestVariant nim_tests[] = {
    {.options = ""},
    {.options = "sym"},
    {.options = "heaps=1-2-3-4"},
    {.options = "heaps=5-2-2,sym"},
    {.options = "heaps=7"},
    {.options = "heaps=2-2"},
    {NULL},
};

const GameModule nim_module = {
    .name = "nim",
    .title = "Nim",
    .description = "take any number of counters from one heap; the last to take wins",
    .options = nim_options,
    .test_variants = nim_tests,
    .create = nim_create,
};
