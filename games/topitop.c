/* games/topitop.c: Topitop, the sand-castle building game.
 *
 * Rules (Thierry Denoual's board game, Blue Orange Games; as played by the
 * GamesCrafters module, GamesmanClassic src/mtopitop.c, which this file
 * follows wherever the printed rules leave a choice; docs/games.md says
 * where): a 3x3 board whose cells touch their 8 neighbours (king steps).
 * Each player owns `buckets` buckets of its colour (2; blue moves first);
 * `small` small and `large` large sand piles (4 each) are shared. A move is
 * one of
 *   - a placement: one of the mover's buckets, or a small or a large pile,
 *     from the reserve onto an empty cell (never onto a piece);
 *   - a slide to an adjacent empty cell of a piece or stack the mover may
 *     move: its own bucket, its bucket on a small pile, its bucket on a
 *     castle, or a neutral small pile, large pile or castle (a small on a
 *     large); a stack slides as one piece, one step like the others (the
 *     module's rule; the printed rules say "to any free space");
 *   - a stacking slide onto an adjacent cell: the mover's lone bucket onto a
 *     lone small pile or a castle, a lone small pile onto a lone large pile
 *     (a castle), the mover's bucket-on-small onto a lone large pile (its
 *     bucket on a castle). Stacks never come apart.
 *   - a pass, only when none of the above exists (the module's default; with
 *     `nopass` a player without a move loses instead, the module's variant).
 * The player to move may not slide back a neutral pile or castle that the
 * opponent just slid to an empty cell (the "do not undo the opponent's last
 * move" rule; no other move can be undone: buckets belong to one player and
 * stacks never split), so that forbidden slide is part of the position. A
 * player whose buckets top `castles` castles (2) wins; with `misere` that
 * player loses. Play that goes on forever is a draw (the game is loopy).
 * The module's two-tower tying rule is not offered (it tests only one
 * colour's castles; docs/games.md).
 *
 * Position: the 9 cells, each empty or one of 9 contents (B/R a lone blue or
 * red bucket, S small, L large, X/O a blue/red bucket on a small pile, C a
 * castle, P/Q a blue/red bucket on a castle), the player to move, and the
 * forbidden slide (none, or a neutral pile's cell and the adjacent empty
 * cell it came from). The reserve follows from the board. Text:
 * "S---C---B:R:1-2" (cells row by row from the top left, ':' the player to
 * move, B or R, ':' the forbidden slide as cells 1..9 or '-').
 *
 * Hash: tier-major. A tier is the count of each of the 9 contents on the
 * board: a placement adds a piece, a stacking merges two cells, a slide or a
 * pass keeps the counts, so tiers form a DAG and each is loopy inside. In a
 * tier the forbidden slide is folded into the board as two marked cells (the
 * pile that moved, the cell it left), and the board of 14 symbols is ranked
 * by the generic combinatorial hash (hash/generic.h) with the turn; a tier
 * is the blocks of its unmarked counts and of one mark on a small pile, a
 * large pile or a castle, one after the other. Slots whose marked cells are
 * not adjacent are no positions (TierOps.legal says so; nothing moves into
 * them).
 *
 * Un-moves: a placement taken back, a slide or a stacking taken back, and a
 * pass (when the parent has no move), each with every forbidden slide the
 * parent may have had; a neutral slide's child names its parent's move, so
 * it has only that un-move. Symmetry (`sym`): the square's 8 symmetries
 * (they keep king adjacency), the least image of the marked board. GPS
 * family: the board in a state with the boards before each move (one
 * unhash per `set`), for the tier solver.
 *
 * Bounds: at most 67 moves (27 placements, 40 directed neighbour pairs);
 * at most 217 un-moves, each with at most 41 marks (TT_MAX_PARENTS).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "games/game.h"
#include "games/grid.h"
#include "hash/generic.h"

enum {
    TT_CELLS = 9,
    TT_KINDS = 10, /* empty and the 9 contents */
    TT_SYMBOLS = 14,
    TT_EMPTY = 0,
    TT_B = 1, /* blue bucket */
    TT_R = 2, /* red bucket */
    TT_S = 3, /* small pile */
    TT_L = 4, /* large pile */
    TT_X = 5, /* blue bucket on a small pile */
    TT_O = 6, /* red bucket on a small pile */
    TT_C = 7, /* castle: small on large */
    TT_P = 8, /* blue bucket on a castle */
    TT_Q = 9, /* red bucket on a castle */
    /* generic-hash symbols: 0 empty, 1 the cell a neutral slide left, 2..4
     * the small pile, large pile or castle that made it, kind k + 4 for the
     * other contents */
    TT_SYM_HOLE = 1,
    TT_SYM_MARKED = 2,
    TT_SYM_SHIFT = 4,
    /* moves: from * 9 + to for a slide or stacking, TT_PLACE + kind * 9 +
     * cell for a placement (kind 0 bucket, 1 small, 2 large), TT_PASS */
    TT_PLACE = 81,
    TT_PASS = 108,
    TT_MAX_MOVES = 3 * TT_CELLS + 40, /* placements + directed adjacent pairs */
    TT_MAX_STARS = 41,                /* none + directed adjacent pairs */
    /* un-moves of a position: at most 24 per cell (a bucket on a castle
     * came from any of 8 neighbours as it is, as a bucket onto a castle or
     * as a bucket-on-small onto a large pile) plus a pass, each with any
     * forbidden slide */
    TT_MAX_PARENTS = (24 * TT_CELLS + 1) * TT_MAX_STARS,
};

static const char tt_letters[] = "-BRSLXOCPQ";

typedef struct TtTier {
    uint8_t count[TT_KINDS]; /* count[0]: empty cells */
    int32_t tuple[4];        /* generic tuples: unmarked, marked S, L, C; -1 none */
    uint64_t sub[5];         /* sub[v]: first index of block v; sub[4]: size */
    uint64_t first;
} TtTier;

typedef struct Topitop {
    int buckets, small, large, castles;
    bool misere, nopass;
    GenericHash hash;
    int ntiers;
    TtTier *tier;
    int32_t *tier_of_tuple; /* generic tuple -> tier */
    int8_t *block_of_tuple; /* generic tuple -> block 0..3 of its tier */
    int nadj[TT_CELLS];
    int8_t adj[TT_CELLS][8];
    bool adjacent[TT_CELLS][TT_CELLS];
    uint8_t sym[GRID_SQUARE_SYMS][TT_CELLS];
} Topitop;

typedef struct TtPos {
    uint8_t cells[TT_CELLS];
    int turn;      /* 0 blue, 1 red */
    int star, gap; /* forbidden slide star -> gap; star = -1: none */
} TtPos;

static const Topitop *tt(const Game *g) { return g->self; }

static bool tt_neutral(int k) { return k == TT_S || k == TT_L || k == TT_C; }

/* The contents topped by player `turn`'s bucket. */
static bool tt_owned(int k, int turn) {
    return turn == 0 ? (k == TT_B || k == TT_X || k == TT_P)
                     : (k == TT_R || k == TT_O || k == TT_Q);
}

static void tt_counts(const TtPos *p, int *count) {
    memset(count, 0, TT_KINDS * sizeof *count);
    for (int i = 0; i < TT_CELLS; i++) {
        count[p->cells[i]]++;
    }
}

/* Pieces of each kind still in the reserve: bucket of each player, small,
 * large. */
static void tt_reserve(const Topitop *t, const int *count, int *blue, int *red, int *small,
                       int *large) {
    *blue = t->buckets - count[TT_B] - count[TT_X] - count[TT_P];
    *red = t->buckets - count[TT_R] - count[TT_O] - count[TT_Q];
    *small = t->small - count[TT_S] - count[TT_X] - count[TT_O] - count[TT_C] - count[TT_P] -
             count[TT_Q];
    *large = t->large - count[TT_L] - count[TT_C] - count[TT_P] - count[TT_Q];
}

/* ------------------------------------------------------------- hashing */

static void tt_symbols(const TtPos *p, uint8_t *s) {
    for (int i = 0; i < TT_CELLS; i++) {
        s[i] = (uint8_t)(p->cells[i] == TT_EMPTY ? 0 : p->cells[i] + TT_SYM_SHIFT);
    }
    if (p->star >= 0) {
        int k = p->cells[p->star];
        s[p->star] = (uint8_t)(TT_SYM_MARKED + (k == TT_S ? 0 : k == TT_L ? 1 : 2));
        s[p->gap] = TT_SYM_HOLE;
    }
}

static void tt_from_symbols(const uint8_t *s, TtPos *p) {
    static const uint8_t marked[3] = {TT_S, TT_L, TT_C};
    p->star = p->gap = -1;
    for (int i = 0; i < TT_CELLS; i++) {
        if (s[i] == 0 || s[i] == TT_SYM_HOLE) {
            p->cells[i] = TT_EMPTY;
            p->gap = s[i] == TT_SYM_HOLE ? i : p->gap;
        } else if (s[i] < TT_SYM_MARKED + 3) {
            p->cells[i] = marked[s[i] - TT_SYM_MARKED];
            p->star = i;
        } else {
            p->cells[i] = (uint8_t)(s[i] - TT_SYM_SHIFT);
        }
    }
}

static Position tt_hash_symbols(const Topitop *t, const uint8_t *s, int turn) {
    int count[TT_SYMBOLS] = {0};
    for (int i = 0; i < TT_CELLS; i++) {
        count[s[i]]++;
    }
    int32_t tu = generic_tuple(&t->hash, count);
    const TtTier *ti = &t->tier[t->tier_of_tuple[tu]];
    Position local = generic_hash(&t->hash, s, turn) - t->hash.offset[tu];
    return ti->first + ti->sub[t->block_of_tuple[tu]] + local;
}

static Position tt_hash(const Topitop *t, const TtPos *p) {
    uint8_t s[TT_CELLS];
    tt_symbols(p, s);
    return tt_hash_symbols(t, s, p->turn);
}

static int tt_find_tier(const Topitop *t, Position pos) {
    int lo = 0, hi = t->ntiers - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (t->tier[mid].first <= pos) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

static void tt_unhash(const Topitop *t, Position pos, TtPos *p) {
    const TtTier *ti = &t->tier[tt_find_tier(t, pos)];
    uint64_t i = pos - ti->first;
    int v = 3;
    while (ti->tuple[v] < 0 || i < ti->sub[v]) {
        v--;
    }
    uint8_t s[TT_CELLS];
    p->turn = generic_unhash(&t->hash, t->hash.offset[ti->tuple[v]] + (i - ti->sub[v]), s);
    tt_from_symbols(s, p);
}

/* The hash of the least image of p's marked board under the 8 symmetries
 * (or p's own hash when not symmetric). */
static Position tt_canonical_hash(const Topitop *t, bool symmetric, const TtPos *p) {
    uint8_t s[TT_CELLS];
    tt_symbols(p, s);
    if (!symmetric) {
        return tt_hash_symbols(t, s, p->turn);
    }
    uint8_t best[TT_CELLS], img[TT_CELLS];
    memcpy(best, s, sizeof best);
    for (int k = 1; k < GRID_SQUARE_SYMS; k++) {
        for (int i = 0; i < TT_CELLS; i++) {
            img[t->sym[k][i]] = s[i];
        }
        if (memcmp(img, best, sizeof best) < 0) {
            memcpy(best, img, sizeof best);
        }
    }
    return tt_hash_symbols(t, best, p->turn);
}

/* --------------------------------------------------------------- rules */

/* Moves of the player to move, without the pass. */
static int tt_moves(const Topitop *t, const TtPos *p, Move *moves) {
    int count[TT_KINDS], blue, red, small, large;
    tt_counts(p, count);
    tt_reserve(t, count, &blue, &red, &small, &large);
    int own = p->turn == 0 ? blue : red, mine = p->turn == 0 ? TT_B : TT_R;
    int mine_small = p->turn == 0 ? TT_X : TT_O;
    int n = 0;
    for (int to = 0; to < TT_CELLS; to++) {
        int k = p->cells[to];
        if (k == TT_EMPTY) {
            if (own > 0) {
                moves[n++] = TT_PLACE + to;
            }
            if (small > 0) {
                moves[n++] = TT_PLACE + TT_CELLS + to;
            }
            if (large > 0) {
                moves[n++] = TT_PLACE + 2 * TT_CELLS + to;
            }
        }
        for (int j = 0; j < t->nadj[to]; j++) {
            int from = t->adj[to][j], f = p->cells[from];
            bool ok;
            if (k == TT_EMPTY) {
                ok = (tt_neutral(f) || tt_owned(f, p->turn)) && !(from == p->star && to == p->gap);
            } else if (k == TT_S || k == TT_C) {
                ok = f == mine;
            } else if (k == TT_L) {
                ok = f == TT_S || f == mine_small;
            } else {
                ok = false;
            }
            if (ok) {
                moves[n++] = from * TT_CELLS + to;
            }
        }
    }
    return n;
}

static int tt_castles(const TtPos *p, int turn) {
    int n = 0;
    for (int i = 0; i < TT_CELLS; i++) {
        n += p->cells[i] == (turn == 0 ? TT_P : TT_Q);
    }
    return n;
}

static Value tt_board_primitive(const Topitop *t, const TtPos *p) {
    Value over = t->misere ? VALUE_WIN : VALUE_LOSE;
    if (tt_castles(p, 0) >= t->castles || tt_castles(p, 1) >= t->castles) {
        return over;
    }
    if (t->nopass) {
        Move moves[GAME_MAX_MOVES];
        if (tt_moves(t, p, moves) == 0) {
            return over;
        }
    }
    return VALUE_UNDECIDED;
}

static int tt_all_moves(const Topitop *t, const TtPos *p, Move *moves) {
    int n = tt_moves(t, p, moves);
    if (n == 0) {
        moves[n++] = TT_PASS;
    }
    return n;
}

static void tt_play(TtPos *p, Move move) {
    if (move == TT_PASS) {
        p->star = p->gap = -1;
    } else if (move >= TT_PLACE) {
        static const uint8_t kind[3] = {TT_B, TT_S, TT_L};
        int m = move - TT_PLACE;
        uint8_t k = kind[m / TT_CELLS];
        p->cells[m % TT_CELLS] = (uint8_t)(k == TT_B && p->turn == 1 ? TT_R : k);
        p->star = p->gap = -1;
    } else {
        int from = move / TT_CELLS, to = move % TT_CELLS;
        int f = p->cells[from], k = p->cells[to];
        p->star = p->gap = -1;
        if (k == TT_EMPTY) {
            k = f;
            if (tt_neutral(f)) {
                p->star = to;
                p->gap = from;
            }
        } else if (k == TT_S) {
            k = f == TT_B ? TT_X : TT_O;
        } else if (k == TT_C) {
            k = f == TT_B ? TT_P : TT_Q;
        } else { /* onto a large pile */
            k = f == TT_S ? TT_C : f == TT_X ? TT_P : TT_Q;
        }
        p->cells[to] = (uint8_t)k;
        p->cells[from] = TT_EMPTY;
    }
    p->turn = 1 - p->turn;
}

/* -------------------------------------------------------- stateless family */

static Value tt_primitive(const Game *g, Position pos) {
    TtPos p;
    tt_unhash(tt(g), pos, &p);
    return tt_board_primitive(tt(g), &p);
}

static int tt_generate_moves(const Game *g, Position pos, Move *moves) {
    TtPos p;
    tt_unhash(tt(g), pos, &p);
    return tt_all_moves(tt(g), &p, moves);
}

static Position tt_do_move(const Game *g, Position pos, Move move) {
    TtPos p;
    tt_unhash(tt(g), pos, &p);
    tt_play(&p, move);
    return tt_hash(tt(g), &p);
}

static int tt_turn(const Game *g, Position pos) {
    TtPos p;
    tt_unhash(tt(g), pos, &p);
    return p.turn;
}

static Position tt_canonical(const Game *g, Position pos) {
    TtPos p;
    tt_unhash(tt(g), pos, &p);
    return tt_canonical_hash(tt(g), true, &p);
}

/* ------------------------------------------------------------ GPS family */

/* The board and the boards before each move played on it (what undo
 * restores); the history grows as needed. */
typedef struct TtState {
    const Game *g;
    TtPos p;
    int depth, cap;
    TtPos *history;
} TtState;

static GpsState *tt_gps_create(const Game *g, Error *err) {
    TtState *st = mem_calloc(1, sizeof *st, "a Topitop state", err);
    if (st == NULL) {
        return NULL;
    }
    st->g = g;
    /* the start (the empty board, blue to move), without an unhash: the
     * counters must not depend on the number of states */
    st->p = (TtPos){.turn = 0, .star = -1, .gap = -1};
    return (GpsState *)st;
}

static void tt_gps_destroy(GpsState *s) {
    TtState *st = (TtState *)s;
    free(st->history);
    free(st);
}

static void tt_gps_set(GpsState *s, Position pos) {
    TtState *st = (TtState *)s;
    tt_unhash(tt(st->g), pos, &st->p);
    st->depth = 0;
}

static Position tt_gps_position(GpsState *s) {
    TtState *st = (TtState *)s;
    return tt_hash(tt(st->g), &st->p);
}

static Value tt_gps_primitive(GpsState *s) {
    TtState *st = (TtState *)s;
    return tt_board_primitive(tt(st->g), &st->p);
}

static int tt_gps_generate_moves(GpsState *s, Move *moves) {
    TtState *st = (TtState *)s;
    return tt_all_moves(tt(st->g), &st->p, moves);
}

static Position tt_gps_do_move(GpsState *s, Move move) {
    TtState *st = (TtState *)s;
    if (st->depth == st->cap) {
        int cap = st->cap < 16 ? 16 : 2 * st->cap;
        TtPos *h = realloc(st->history, (size_t)cap * sizeof *h);
        if (h == NULL) {
            fprintf(stderr, "topitop: out of memory for the move history\n");
            abort();
        }
        st->history = h;
        st->cap = cap;
    }
    st->history[st->depth++] = st->p;
    tt_play(&st->p, move);
    return tt_hash(tt(st->g), &st->p);
}

static void tt_gps_undo_move(GpsState *s) {
    TtState *st = (TtState *)s;
    st->p = st->history[--st->depth];
}

static Position tt_gps_canonical(GpsState *s) {
    TtState *st = (TtState *)s;
    return tt_canonical_hash(tt(st->g), true, &st->p);
}

static Position tt_gps_child_canonical(GpsState *s, Move move) {
    TtState *st = (TtState *)s;
    TtPos c = st->p;
    tt_play(&c, move);
    return tt_canonical_hash(tt(st->g), true, &c);
}

static int tt_gps_turn(GpsState *s) { return ((TtState *)s)->p.turn; }

static const GpsOps tt_gps = {
    .create = tt_gps_create,
    .destroy = tt_gps_destroy,
    .set = tt_gps_set,
    .position = tt_gps_position,
    .primitive = tt_gps_primitive,
    .generate_moves = tt_gps_generate_moves,
    .do_move = tt_gps_do_move,
    .undo_move = tt_gps_undo_move,
    .canonical = tt_gps_canonical,
    .child_canonical = tt_gps_child_canonical,
    .turn = tt_gps_turn,
};

/* ------------------------------------------------------------- un-moves */

typedef struct TtParents {
    Position *list;
    int n;
} TtParents;

/* Adds parent q (the player q->turn to move) with every forbidden slide it
 * may have had, but `skip_star` -> `skip_gap` (a slide q must be free to
 * make), when q is not over. With `pass`, only the forbidden slides under
 * which q has no move at all. */
static void tt_add_parents(const Game *g, TtPos *q, int skip_star, int skip_gap, bool pass,
                           TtParents *out) {
    const Topitop *t = tt(g);
    q->star = q->gap = -1;
    Move unmarked[GAME_MAX_MOVES];
    if (pass && tt_moves(t, q, unmarked) >= 2) {
        return; /* a mark forbids one slide: q always has a move */
    }
    for (int star = -1; star < TT_CELLS; star++) {
        int gaps = star < 0 ? 1 : tt_neutral(q->cells[star]) ? t->nadj[star] : 0;
        for (int j = 0; j < gaps; j++) {
            int gap = star < 0 ? -1 : t->adj[star][j];
            if (gap >= 0 && q->cells[gap] != TT_EMPTY) {
                continue;
            }
            if (star >= 0 && star == skip_star && gap == skip_gap) {
                continue;
            }
            q->star = star;
            q->gap = gap;
            Move moves[GAME_MAX_MOVES];
            if (tt_board_primitive(t, q) == VALUE_UNDECIDED &&
                (!pass || tt_moves(t, q, moves) == 0)) {
                out->list[out->n++] = tt_canonical_hash(t, g->symmetric, q);
            }
        }
    }
    q->star = q->gap = -1;
}

static int cmp_position(const void *a, const void *b) {
    Position x = *(const Position *)a, y = *(const Position *)b;
    return x < y ? -1 : x > y;
}

static int tt_generate_parents(const Game *g, Position pos, Position *parents) {
    const Topitop *t = tt(g);
    TtPos p;
    tt_unhash(t, pos, &p);
    TtParents out = {parents, 0};
    int mover = 1 - p.turn;
    TtPos q = p;
    q.turn = mover;
    if (p.star >= 0) {
        /* only a neutral slide gap -> star leaves this mark */
        q.cells[p.gap] = p.cells[p.star];
        q.cells[p.star] = TT_EMPTY;
        tt_add_parents(g, &q, p.gap, p.star, false, &out);
    } else {
        int mine = mover == 0 ? TT_B : TT_R, mine_small = mover == 0 ? TT_X : TT_O;
        int mine_castle = mover == 0 ? TT_P : TT_Q;
        for (int b = 0; b < TT_CELLS; b++) {
            int k = p.cells[b];
            if (k == mine || k == TT_S || k == TT_L) { /* placed there */
                q.cells[b] = TT_EMPTY;
                tt_add_parents(g, &q, -1, -1, false, &out);
                q.cells[b] = (uint8_t)k;
            }
            /* came from an adjacent empty cell a */
            uint8_t under[3] = {TT_EMPTY}, above[3] = {TT_EMPTY};
            int ways = 0;
            if (tt_owned(k, mover)) { /* slid as it is */
                under[ways] = TT_EMPTY;
                above[ways++] = (uint8_t)k;
            }
            if (k == mine_small) {
                under[ways] = TT_S;
                above[ways++] = (uint8_t)mine;
            }
            if (k == mine_castle) {
                under[ways] = TT_C;
                above[ways++] = (uint8_t)mine;
                under[ways] = TT_L;
                above[ways++] = (uint8_t)mine_small;
            }
            if (k == TT_C) {
                under[ways] = TT_L;
                above[ways++] = TT_S;
            }
            for (int j = 0; j < t->nadj[b] && ways > 0; j++) {
                int a = t->adj[b][j];
                if (p.cells[a] != TT_EMPTY) {
                    continue;
                }
                for (int w = 0; w < ways; w++) {
                    q.cells[a] = above[w];
                    q.cells[b] = under[w];
                    tt_add_parents(g, &q, -1, -1, false, &out);
                }
                q.cells[a] = TT_EMPTY;
                q.cells[b] = (uint8_t)k;
            }
        }
        if (!t->nopass) {
            tt_add_parents(g, &q, -1, -1, true, &out);
        }
    }
    /* symmetric images of different un-moves may coincide */
    qsort(parents, (size_t)out.n, sizeof *parents, cmp_position);
    int m = 0;
    for (int i = 0; i < out.n; i++) {
        if (m == 0 || parents[m - 1] != parents[i]) {
            parents[m++] = parents[i];
        }
    }
    return m;
}

/* ----------------------------------------------------------------- text */

static void tt_format(const Game *g, Position pos, char *buf, size_t n) {
    TtPos p;
    tt_unhash(tt(g), pos, &p);
    char cells[TT_CELLS + 1];
    for (int i = 0; i < TT_CELLS; i++) {
        cells[i] = tt_letters[p.cells[i]];
    }
    cells[TT_CELLS] = '\0';
    if (p.star >= 0) {
        snprintf(buf, n, "%s:%c:%d-%d", cells, p.turn == 0 ? 'B' : 'R', p.star + 1, p.gap + 1);
    } else {
        snprintf(buf, n, "%s:%c:-", cells, p.turn == 0 ? 'B' : 'R');
    }
}

static ErrCode tt_parse(const Game *g, const char *text, Position *pos, Error *err) {
    const Topitop *t = tt(g);
    size_t len = strlen(text);
    bool shape = (len == TT_CELLS + 4 || len == TT_CELLS + 6) && text[TT_CELLS] == ':' &&
                 (text[TT_CELLS + 1] == 'B' || text[TT_CELLS + 1] == 'R') &&
                 text[TT_CELLS + 2] == ':' &&
                 (len == TT_CELLS + 4 ? text[TT_CELLS + 3] == '-'
                                      : text[TT_CELLS + 3] >= '1' && text[TT_CELLS + 3] <= '9' &&
                                            text[TT_CELLS + 4] == '-' &&
                                            text[TT_CELLS + 5] >= '1' && text[TT_CELLS + 5] <= '9');
    if (!shape) {
        return error_set(err, ERR_USAGE,
                         "a position is the 9 cells row by row from the top left (- empty, B/R a "
                         "blue/red bucket, S small pile, L large pile, X/O a blue/red bucket on a "
                         "small pile, C castle, P/Q a blue/red bucket on a castle), ':' the player "
                         "to move (B or R), ':' the slide it may not make ('5-4': the pile on 5 "
                         "may not go back to 4) or '-', e.g. the start '---------:B:-'; '%s' is "
                         "not",
                         text);
    }
    TtPos p;
    for (int i = 0; i < TT_CELLS; i++) {
        const char *s = strchr(tt_letters, text[i]);
        if (s == NULL) {
            return error_set(err, ERR_USAGE, "'%c' at cell %d of '%s' is not one of %s", text[i],
                             i + 1, text, tt_letters);
        }
        p.cells[i] = (uint8_t)(s - tt_letters);
    }
    p.turn = text[TT_CELLS + 1] == 'R';
    p.star = p.gap = -1;
    int count[TT_KINDS], blue, red, small, large;
    tt_counts(&p, count);
    tt_reserve(t, count, &blue, &red, &small, &large);
    if (blue < 0 || red < 0 || small < 0 || large < 0) {
        return error_set(err, ERR_USAGE,
                         "'%s' uses more pieces than this variant has (%d buckets a player, %d "
                         "small and %d large piles)",
                         text, t->buckets, t->small, t->large);
    }
    if (len == TT_CELLS + 6) {
        p.star = text[TT_CELLS + 3] - '1';
        p.gap = text[TT_CELLS + 5] - '1';
        if (!t->adjacent[p.star][p.gap] || !tt_neutral(p.cells[p.star]) ||
            p.cells[p.gap] != TT_EMPTY) {
            return error_set(err, ERR_USAGE,
                             "in '%s' the forbidden slide %d-%d must take a lone small pile, large "
                             "pile or castle (S, L, C) back to the adjacent empty cell it came "
                             "from",
                             text, p.star + 1, p.gap + 1);
        }
    }
    int blue_castles = tt_castles(&p, 0), red_castles = tt_castles(&p, 1);
    if (blue_castles > t->castles || red_castles > t->castles) {
        return error_set(err, ERR_USAGE,
                         "in '%s' a player has more castles than the %d that end the game", text,
                         t->castles);
    }
    if (blue_castles >= t->castles && red_castles >= t->castles) {
        return error_set(err, ERR_USAGE, "in '%s' both players have built their %d castles", text,
                         t->castles);
    }
    if ((p.turn == 0 ? blue_castles : red_castles) >= t->castles) {
        return error_set(err, ERR_USAGE,
                         "in '%s' the player to move has built its %d castles: the game ended "
                         "with the other player to move",
                         text, t->castles);
    }
    *pos = tt_hash(t, &p);
    return ERR_OK;
}

static void tt_print(const Game *g, Position pos, char *buf, size_t n) {
    const Topitop *t = tt(g);
    TtPos p;
    tt_unhash(t, pos, &p);
    int count[TT_KINDS], blue, red, small, large;
    tt_counts(&p, count);
    tt_reserve(t, count, &blue, &red, &small, &large);
    char forbidden[32] = "none";
    if (p.star >= 0) {
        snprintf(forbidden, sizeof forbidden, "%d-%d", p.star + 1, p.gap + 1);
    }
    Value v = tt_board_primitive(t, &p);
    snprintf(buf, n,
             "  %c %c %c    1 2 3\n  %c %c %c    4 5 6\n  %c %c %c    7 8 9\n"
             "  %s; reserve: blue buckets %d, red buckets %d, small %d, large %d; forbidden "
             "slide %s\n",
             tt_letters[p.cells[0]], tt_letters[p.cells[1]], tt_letters[p.cells[2]],
             tt_letters[p.cells[3]], tt_letters[p.cells[4]], tt_letters[p.cells[5]],
             tt_letters[p.cells[6]], tt_letters[p.cells[7]], tt_letters[p.cells[8]],
             v != VALUE_UNDECIDED
                 ? (p.turn == 0 ? "game over, blue to move" : "game over, red to move")
             : p.turn == 0 ? "blue to move"
                           : "red to move",
             blue, red, small, large, forbidden);
}

static void tt_move_name(const Game *g, Position pos, Move move, char *buf, size_t n) {
    if (move == TT_PASS) {
        snprintf(buf, n, "pass");
    } else if (move >= TT_PLACE) {
        int m = move - TT_PLACE, kind = m / TT_CELLS;
        char letter = kind == 1 ? 'S' : kind == 2 ? 'L' : tt_turn(g, pos) == 0 ? 'B' : 'R';
        snprintf(buf, n, "%c%d", letter, m % TT_CELLS + 1);
    } else {
        snprintf(buf, n, "%d-%d", move / TT_CELLS + 1, move % TT_CELLS + 1);
    }
}

/* ------------------------------------------------------------------ tiers */

static int tt_tier_count(const Game *g) { return tt(g)->ntiers; }

static uint64_t tt_tier_size(const Game *g, int tier) { return tt(g)->tier[tier].sub[4]; }

static int tt_tier_of(const Game *g, Position pos) { return tt_find_tier(tt(g), pos); }

static Position tt_tier_first(const Game *g, int tier) { return tt(g)->tier[tier].first; }

/* The tier of the base counts c[0..9], or -1. */
static int tt_tier_of_counts(const Topitop *t, const int *c) {
    int s[TT_SYMBOLS] = {0};
    s[0] = c[0];
    for (int k = 1; k < TT_KINDS; k++) {
        s[k + TT_SYM_SHIFT] = c[k];
    }
    for (int k = 0; k < TT_KINDS; k++) {
        if (c[k] < 0) {
            return -1;
        }
    }
    int32_t tu = generic_tuple(&t->hash, s);
    return tu < 0 ? -1 : t->tier_of_tuple[tu];
}

static int tt_tier_children(const Game *g, int tier, int *child_tiers) {
    const Topitop *t = tt(g);
    const TtTier *ti = &t->tier[tier];
    int c[TT_KINDS];
    for (int k = 0; k < TT_KINDS; k++) {
        c[k] = ti->count[k];
    }
    if (c[TT_P] >= t->castles || c[TT_Q] >= t->castles) {
        return 0; /* every position is over */
    }
    /* placements (a kind gains a piece, an empty cell is lost) and the
     * stackings (two kinds lose one, their stack gains one, a cell empties) */
    static const int8_t change[11][3] = {
        {TT_B, -1, -1},     {TT_R, -1, -1},     {TT_S, -1, -1},     {TT_L, -1, -1},
        {TT_X, TT_B, TT_S}, {TT_O, TT_R, TT_S}, {TT_C, TT_S, TT_L}, {TT_P, TT_X, TT_L},
        {TT_Q, TT_O, TT_L}, {TT_P, TT_B, TT_C}, {TT_Q, TT_R, TT_C},
    };
    int n = 0;
    for (int i = 0; i < 11; i++) {
        int d[TT_KINDS];
        memcpy(d, c, sizeof d);
        d[change[i][0]]++;
        if (change[i][1] < 0) {
            d[TT_EMPTY]--;
        } else {
            d[change[i][1]]--;
            d[change[i][2]]--;
            d[TT_EMPTY]++;
        }
        int ct = tt_tier_of_counts(t, d);
        if (ct >= 0) {
            child_tiers[n++] = ct;
        }
    }
    return n;
}

/* A slot is a position when its marked cells are adjacent and nobody has
 * won with the player to move (that game ended with the other to move). */
static bool tt_tier_legal(const Game *g, int tier, Position pos) {
    (void)tier;
    const Topitop *t = tt(g);
    TtPos p;
    tt_unhash(t, pos, &p);
    return (p.star < 0 || t->adjacent[p.star][p.gap]) && tt_castles(&p, p.turn) < t->castles;
}

/* A tier's name: the count of each content on the board, letter and
 * count, in the text's letters (B, R: the buckets; S, L: small and large
 * piles; X, O: a bucket on a small pile; C: a castle, small on large; P,
 * Q: a bucket on a castle), the absent ones left out: "B1S2C1"; "empty"
 * for the empty board. A tier is its counts, so the names are unique. */
static void tt_tier_name(const Game *g, int tier, char *buf, size_t n) {
    const TtTier *ti = &tt(g)->tier[tier];
    size_t at = 0;
    buf[0] = '\0';
    for (int k = 1; k < TT_KINDS && at < n; k++) {
        if (ti->count[k] > 0) {
            int w = snprintf(buf + at, n - at, "%c%d", tt_letters[k], ti->count[k]);
            at += w > 0 ? (size_t)w : 0;
        }
    }
    if (at == 0) {
        snprintf(buf, n, "empty");
    }
}

static const TierOps tt_tiers = {
    .count = tt_tier_count,
    .size = tt_tier_size,
    .tier_of = tt_tier_of,
    .children = tt_tier_children,
    .first = tt_tier_first,
    .legal = tt_tier_legal,
    .name = tt_tier_name,
};

static const GameOps tt_ops = {
    .primitive = tt_primitive,
    .generate_moves = tt_generate_moves,
    .do_move = tt_do_move,
    .turn = tt_turn,
    .canonical = tt_canonical,
    .generate_parents = tt_generate_parents,
    .format = tt_format,
    .parse = tt_parse,
    .print = tt_print,
    .move_name = tt_move_name,
};

/* ------------------------------------------------------------------ module */

/* Counts of the 14 symbols a marked board may have: the pieces within the
 * variant's supply, at most one mark (a hole with its pile), neither player
 * past its castles nor both at them. */
static bool tt_valid_counts(const int *s, void *ctx) {
    const Topitop *t = ctx;
    int marks = s[2] + s[3] + s[4];
    if (marks > 1 || s[TT_SYM_HOLE] != marks) {
        return false;
    }
    int c[TT_KINDS];
    for (int k = 1; k < TT_KINDS; k++) {
        c[k] = s[k + TT_SYM_SHIFT];
    }
    c[TT_S] += s[2];
    c[TT_L] += s[3];
    c[TT_C] += s[4];
    int blue = c[TT_B] + c[TT_X] + c[TT_P], red = c[TT_R] + c[TT_O] + c[TT_Q];
    int small = c[TT_S] + c[TT_X] + c[TT_O] + c[TT_C] + c[TT_P] + c[TT_Q];
    int large = c[TT_L] + c[TT_C] + c[TT_P] + c[TT_Q];
    return blue <= t->buckets && red <= t->buckets && small <= t->small && large <= t->large &&
           c[TT_P] <= t->castles && c[TT_Q] <= t->castles &&
           !(c[TT_P] == t->castles && c[TT_Q] == t->castles);
}

static ErrCode tt_init(Topitop *t, Error *err) {
    for (int i = 0; i < TT_CELLS; i++) {
        t->nadj[i] = 0;
        for (int j = 0; j < TT_CELLS; j++) {
            int dr = i / 3 - j / 3, dc = i % 3 - j % 3;
            t->adjacent[i][j] = i != j && dr >= -1 && dr <= 1 && dc >= -1 && dc <= 1;
            if (t->adjacent[i][j]) {
                t->adj[i][t->nadj[i]++] = (int8_t)j;
            }
        }
    }
    uint8_t map[GRID_SQUARE_SYMS * TT_CELLS];
    grid_square_syms(3, map, TT_CELLS);
    for (int s = 0; s < GRID_SQUARE_SYMS; s++) {
        memcpy(t->sym[s], map + s * TT_CELLS, TT_CELLS);
    }
    int b = t->buckets, bs = b < t->small ? b : t->small;
    int sl = t->small < t->large ? t->small : t->large, k = t->castles;
    const int min[TT_SYMBOLS] = {0};
    const int max[TT_SYMBOLS] = {TT_CELLS, 1, 1, 1, 1, b, b, t->small, t->large, bs, bs, sl, k, k};
    ErrCode rc = generic_init(&t->hash, TT_CELLS, TT_SYMBOLS, min, max, 2, tt_valid_counts, t, err);
    if (rc != ERR_OK) {
        return rc;
    }
    uint32_t nt = t->hash.ntuples;
    t->tier = mem_calloc(nt, sizeof *t->tier, "the Topitop tiers", err);
    t->tier_of_tuple = mem_calloc(nt, sizeof *t->tier_of_tuple, "the Topitop tiers", err);
    t->block_of_tuple = mem_calloc(nt, sizeof *t->block_of_tuple, "the Topitop tiers", err);
    if (t->tier == NULL || t->tier_of_tuple == NULL || t->block_of_tuple == NULL) {
        return ERR_MEMORY;
    }
    uint64_t first = 0;
    for (uint32_t tu = 0; tu < nt; tu++) {
        const uint8_t *cnt = t->hash.counts + (size_t)tu * TT_SYMBOLS;
        if (cnt[1] + cnt[2] + cnt[3] + cnt[4] != 0) {
            continue; /* a marked block: found from its unmarked one */
        }
        TtTier *ti = &t->tier[t->ntiers];
        ti->count[0] = cnt[0];
        for (int kk = 1; kk < TT_KINDS; kk++) {
            ti->count[kk] = cnt[kk + TT_SYM_SHIFT];
        }
        ti->first = first;
        ti->tuple[0] = (int32_t)tu;
        static const int marked_kind[3] = {TT_S, TT_L, TT_C};
        for (int v = 1; v < 4; v++) {
            int s[TT_SYMBOLS];
            for (int x = 0; x < TT_SYMBOLS; x++) {
                s[x] = cnt[x];
            }
            s[marked_kind[v - 1] + TT_SYM_SHIFT]--;
            s[TT_SYM_MARKED + v - 1]++;
            s[0]--;
            s[TT_SYM_HOLE]++;
            ti->tuple[v] = s[0] >= 0 && s[marked_kind[v - 1] + TT_SYM_SHIFT] >= 0
                               ? generic_tuple(&t->hash, s)
                               : -1;
        }
        uint64_t at = 0;
        for (int v = 0; v < 4; v++) {
            ti->sub[v] = at;
            if (ti->tuple[v] >= 0) {
                int32_t x = ti->tuple[v];
                at += t->hash.offset[x + 1] - t->hash.offset[x];
                t->tier_of_tuple[x] = t->ntiers;
                t->block_of_tuple[x] = (int8_t)v;
            }
        }
        ti->sub[4] = at;
        first += at;
        t->ntiers++;
    }
    if (first != t->hash.size) {
        return error_set(err, ERR_INTERNAL, "Topitop tiers cover %llu of %llu slots",
                         (unsigned long long)first, (unsigned long long)t->hash.size);
    }
    return ERR_OK;
}

static void tt_destroy(Game *g) {
    Topitop *t = g->self;
    if (t != NULL) {
        generic_destroy(&t->hash);
        free(t->tier);
        free(t->tier_of_tuple);
        free(t->block_of_tuple);
        free(t);
    }
}

static ErrCode tt_create(Game *g, Error *err) {
    int buckets = (int)opt_int(&g->options, "buckets");
    int small = (int)opt_int(&g->options, "small");
    int large = (int)opt_int(&g->options, "large");
    int castles = (int)opt_int(&g->options, "castles");
    castles = castles == 0 ? buckets : castles;
    if (castles > buckets || castles > small || castles > large) {
        return error_set(err, ERR_USAGE,
                         "castles=%d: a player cannot build more castles than it has buckets "
                         "(%d) or than there are small (%d) or large (%d) piles",
                         castles, buckets, small, large);
    }
    Topitop *t = mem_calloc(1, sizeof *t, "the Topitop module", err);
    if (t == NULL) {
        return ERR_MEMORY;
    }
    t->buckets = buckets;
    t->small = small;
    t->large = large;
    t->castles = castles;
    t->misere = opt_bool(&g->options, "misere");
    t->nopass = opt_bool(&g->options, "nopass");
    g->self = t;
    ErrCode rc = tt_init(t, err);
    if (rc != ERR_OK) {
        tt_destroy(g);
        g->self = NULL;
        return rc;
    }
    g->symmetric = opt_bool(&g->options, "sym");
    snprintf(g->variant, sizeof g->variant, "buckets=%d,small=%d,large=%d,castles=%d%s%s%s",
             buckets, small, large, castles, t->misere ? ",misere" : "", t->nopass ? ",nopass" : "",
             g->symmetric ? ",sym" : "");
    TtPos start = {.turn = 0, .star = -1, .gap = -1};
    g->ops = &tt_ops;
    g->gps = &tt_gps;
    g->tiers = &tt_tiers;
    g->num_positions = t->hash.size;
    g->initial = tt_hash(t, &start);
    g->max_moves = TT_MAX_MOVES;
    g->max_parents = TT_MAX_PARENTS;
    g->max_depth = 0;
    g->loopy = true;
    return ERR_OK;
}

static const OptionSpec tt_options[] = {
    {.name = "buckets", .type = OPT_INT, .min = 1, .max = 2, .def = 2, .help = "buckets a player"},
    {.name = "small", .type = OPT_INT, .min = 1, .max = 4, .def = 4, .help = "small sand piles"},
    {.name = "large", .type = OPT_INT, .min = 1, .max = 4, .def = 4, .help = "large sand piles"},
    {.name = "castles",
     .type = OPT_INT,
     .min = 0,
     .max = 2,
     .def = 0,
     .help = "castles topped by one's buckets that win; 0: as many as the buckets"},
    {.name = "misere", .type = OPT_BOOL, .help = "who builds the castles loses"},
    {.name = "nopass", .type = OPT_BOOL, .help = "a player without a move loses (default: passes)"},
    {.name = "sym", .type = OPT_BOOL, .help = "canonicalize under the board's 8 symmetries"},
    {0},
};

static const GameTestVariant tt_tests[] = {
    /* without sym (84,594 positions) only in the release run: their
     * un-move checks were most of the sanitizer run's time */
    {.options = "buckets=1,small=1,large=1", .heavy = true},
    {.options = "buckets=1,small=1,large=1,sym"},
    {.options = "buckets=1,small=1,large=1,misere", .heavy = true},
    {.options = "buckets=1,small=1,large=1,nopass,sym"},
    {.options = "buckets=1,small=2,large=1,sym", .heavy = true},
    {NULL},
};

const GameModule topitop_module = {
    .name = "topitop",
    .title = "Topitop",
    .description = "buckets on sand castles: place, slide and stack on a 3x3 board (loopy)",
    .options = tt_options,
    .test_variants = tt_tests,
    .create = tt_create,
    .destroy = tt_destroy,
};
