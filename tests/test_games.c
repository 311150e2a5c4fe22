/* tests/test_games.c: properties every game module must have, and the
 * tier names of each game that names its tiers, against names written
 * from the rules.
 *
 * For every registered game and each of its test variants, over every
 * position reachable from the initial position:
 *   - hash round trip: parse(format(p)) == p and format(parse(t)) == t
 *     (the text is produced by unhashing, parsing hashes it again);
 *   - the stateless family: primitive positions end the game, others have
 *     1..max_moves distinct moves, children stay in the hash space;
 *   - the GPS and GPS-cached families agree with the stateless family move
 *     by move (position, primitive, moves, children, turn, canonical), and
 *     undo_move restores the state exactly; long random do/undo walks too;
 *   - symmetry: canonical() is idempotent and picks a class member;
 *   - non-loopy games are acyclic and never last longer than max_depth;
 *   - generate_parents (when provided) is the exact inverse of the moves;
 *   - tiers (when provided) partition the positions and bound the moves,
 *     and their names (TierOps.name) keep the contract of games/game.h;
 *   - parse refuses malformed text with ERR_USAGE.
 */
#include "tests/testutil.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_move(const void *a, const void *b) {
    Move x = *(const Move *)a, y = *(const Move *)b;
    return (x > y) - (x < y);
}

static int cmp_pos(const void *a, const void *b) {
    Position x = *(const Position *)a, y = *(const Position *)b;
    return (x > y) - (x < y);
}

/* Sorted moves of a non-primitive position, checked for range and repeats. */
static int sorted_moves(const Game *g, Position p, Move *moves) {
    int n = g->ops->generate_moves(g, p, moves);
    assert_in_range(n, 1, g->max_moves);
    qsort(moves, (size_t)n, sizeof *moves, cmp_move);
    for (int i = 1; i < n; i++) {
        assert_true(moves[i] != moves[i - 1]);
    }
    return n;
}

/* ------------------------------------------------------------ round trip */

static void round_trip(void **state) {
    Game *g = test_game(*state);
    Reach r;
    test_reach(g, &r);
    char text[1024], again[1024];
    for (uint64_t i = 0; i < r.count; i++) {
        Position p = r.list[i], q;
        Error err = {0};
        g->ops->format(g, p, text, sizeof text);
        if (g->ops->parse(g, text, &q, &err) != ERR_OK) {
            fail_msg("parse(format(%llu)) = parse('%s') refused: %s", (unsigned long long)p, text,
                     err.msg);
        }
        assert_int_equal(q, p);
        g->ops->format(g, q, again, sizeof again);
        assert_string_equal(again, text);
        char board[GAME_TEXT_MAX];
        game_print(g, p, board, sizeof board);
        assert_true(strlen(board) > 0);
    }
    test_reach_free(&r);
    game_destroy(g);
}

/* ---------------------------------------------------------- stateless */

static void stateless_shape(void **state) {
    Game *g = test_game(*state);
    Reach r;
    test_reach(g, &r);
    Move moves[GAME_MAX_MOVES];
    uint64_t primitives = 0;
    for (uint64_t i = 0; i < r.count; i++) {
        Position p = r.list[i];
        Value v = g->ops->primitive(g, p);
        assert_in_range(v, VALUE_UNDECIDED, VALUE_TIE);
        if (g->has_winby && v != VALUE_UNDECIDED) {
            /* Not assert_in_range: cmocka compares unsigned, and WINBY_MIN < 0. */
            WinBy w = g->ops->winby(g, p);
            assert_true(w >= WINBY_MIN && w <= WINBY_MAX);
        }
        if (v != VALUE_UNDECIDED) {
            primitives++;
            continue;
        }
        int n = sorted_moves(g, p, moves);
        for (int k = 0; k < n; k++) {
            Position c = g->ops->do_move(g, p, moves[k]);
            assert_true(c < g->num_positions);
            if (g->ops->turn != NULL) {
                assert_in_range(g->ops->turn(g, c), 0, 1);
            }
        }
    }
    assert_true(primitives > 0);
    test_reach_free(&r);
    game_destroy(g);
}

static void symmetry(void **state) {
    Game *g = test_game(*state);
    Reach r;
    test_reach(g, &r);
    Move moves[GAME_MAX_MOVES];
    for (uint64_t i = 0; i < r.count; i++) {
        Position p = r.list[i];
        assert_int_equal(g->ops->canonical(g, p), p);
        if (g->ops->primitive(g, p) != VALUE_UNDECIDED) {
            continue;
        }
        int n = g->ops->generate_moves(g, p, moves);
        for (int k = 0; k < n; k++) {
            Position c = g->ops->do_move(g, p, moves[k]);
            /* The representative need not be the class's smallest position
             * (Morris's has the smallest white set: games/morris.c). */
            Position cc = g->ops->canonical(g, c);
            assert_true(cc < g->num_positions);
            assert_int_equal(g->ops->canonical(g, cc), cc);
            /* A class shares its value at the root of the class: primitive. */
            assert_int_equal(g->ops->primitive(g, cc), g->ops->primitive(g, c));
        }
    }
    test_reach_free(&r);
    game_destroy(g);
}

/* ------------------------------------------------------------ GPS families */

static void check_family(const Game *g, const GpsOps *f, const Reach *r) {
    Error err = {0};
    GpsState *st = f->create(g, &err);
    assert_non_null(st);
    assert_int_equal(f->position(st), g->initial);
    Move a[GAME_MAX_MOVES], b[GAME_MAX_MOVES], c[GAME_MAX_MOVES];
    for (uint64_t i = 0; i < r->count; i++) {
        Position p = r->list[i];
        f->set(st, p);
        assert_int_equal(f->position(st), p);
        Value v = g->ops->primitive(g, p);
        assert_int_equal(f->primitive(st), v);
        if (g->symmetric) {
            assert_int_equal(f->canonical(st), p);
        }
        if (f->turn != NULL && g->ops->turn != NULL) {
            assert_int_equal(f->turn(st), g->ops->turn(g, p));
        }
        if (v != VALUE_UNDECIDED) {
            if (g->has_winby) {
                assert_int_equal(f->winby(st), g->ops->winby(g, p));
            }
            continue;
        }
        int n = sorted_moves(g, p, a);
        int m = f->generate_moves(st, b);
        assert_int_equal(m, n);
        qsort(b, (size_t)m, sizeof *b, cmp_move);
        assert_memory_equal(a, b, (size_t)n * sizeof *a);
        for (int k = 0; k < n; k++) {
            Position child = g->ops->do_move(g, p, a[k]);
            assert_int_equal(f->do_move(st, a[k]), child);
            assert_int_equal(f->position(st), child);
            assert_int_equal(f->primitive(st), g->ops->primitive(g, child));
            if (g->symmetric) {
                assert_int_equal(f->canonical(st), g->ops->canonical(g, child));
            }
            f->undo_move(st);
            assert_int_equal(f->position(st), p);
            /* the child's canonical position without playing the move */
            if (g->symmetric && f->child_canonical != NULL) {
                assert_int_equal(f->child_canonical(st, a[k]), g->ops->canonical(g, child));
                assert_int_equal(f->position(st), p);
            }
        }
        /* The state is whole again: the same moves and value. */
        assert_int_equal(f->primitive(st), v);
        int m2 = f->generate_moves(st, c);
        assert_int_equal(m2, n);
        qsort(c, (size_t)m2, sizeof *c, cmp_move);
        assert_memory_equal(a, c, (size_t)n * sizeof *a);
    }
    f->destroy(st);
}

static void gps_agrees(void **state) {
    Game *g = test_game(*state);
    Reach r;
    test_reach(g, &r);
    check_family(g, g->gps, &r);
    test_reach_free(&r);
    game_destroy(g);
}

static void gps_cached_agrees(void **state) {
    Game *g = test_game(*state);
    Reach r;
    test_reach(g, &r);
    check_family(g, g->gps_cached, &r);
    test_reach_free(&r);
    game_destroy(g);
}

/* Random games played to the end on a state, then unwound move by move:
 * each undo must give back the positions seen on the way down. */
static void walk_family(const Game *g, const GpsOps *f) {
    Error err = {0};
    GpsState *st = f->create(g, &err);
    assert_non_null(st);
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    enum { WALKS = 300, MAX_PLIES = 4096 };
    Position *path = malloc(MAX_PLIES * sizeof *path);
    assert_non_null(path);
    Move moves[GAME_MAX_MOVES];
    for (int w = 0; w < WALKS; w++) {
        f->set(st, g->initial);
        Position p = g->initial;
        int depth = 0;
        path[0] = p;
        while (depth + 1 < MAX_PLIES && f->primitive(st) == VALUE_UNDECIDED) {
            int n = f->generate_moves(st, moves);
            assert_in_range(n, 1, g->max_moves);
            Move m = moves[test_rng(&seed) % (uint64_t)n];
            Position expect = g->ops->do_move(g, p, m);
            p = f->do_move(st, m);
            assert_int_equal(p, expect);
            path[++depth] = p;
        }
        if (!g->loopy) {
            assert_true((uint32_t)depth <= g->max_depth);
        }
        while (depth > 0) {
            f->undo_move(st);
            depth--;
            assert_int_equal(f->position(st), path[depth]);
        }
    }
    free(path);
    f->destroy(st);
}

static void gps_walks(void **state) {
    Game *g = test_game(*state);
    walk_family(g, g->gps);
    game_destroy(g);
}

static void gps_cached_walks(void **state) {
    Game *g = test_game(*state);
    walk_family(g, g->gps_cached);
    game_destroy(g);
}

/* --------------------------------------------------------------- depth */

enum { WHITE = 0, GRAY = 1, BLACK = 2 };

/* Iterative DFS with colors: a gray child is a cycle. Returns the longest
 * path (in moves) from the initial position to a primitive. */
static uint32_t longest_path(const Game *g) {
    uint8_t *color = calloc(g->num_positions, 1);
    uint32_t *longest = calloc(g->num_positions, sizeof *longest);
    assert_non_null(color);
    assert_non_null(longest);
    typedef struct Frame {
        Position p;
        int next, n;
        Move moves[GAME_MAX_MOVES];
    } Frame;
    size_t cap = 64, top = 0;
    Frame *stack = malloc(cap * sizeof *stack);
    assert_non_null(stack);
    Position root = game_canonical(g, g->initial);
    stack[0] = (Frame){.p = root};
    color[root] = GRAY;
    stack[0].n = g->ops->primitive(g, root) == VALUE_UNDECIDED
                     ? g->ops->generate_moves(g, root, stack[0].moves)
                     : 0;
    top = 1;
    while (top > 0) {
        Frame *fr = &stack[top - 1];
        if (fr->next == fr->n) {
            color[fr->p] = BLACK;
            top--;
            if (top > 0) {
                Frame *up = &stack[top - 1];
                if (longest[fr->p] + 1 > longest[up->p]) {
                    longest[up->p] = longest[fr->p] + 1;
                }
            }
            continue;
        }
        Position c = game_canonical(g, g->ops->do_move(g, fr->p, fr->moves[fr->next++]));
        if (color[c] == GRAY) {
            fail_msg("non-loopy game %s:%s has a cycle through position %llu", g->module->name,
                     g->variant, (unsigned long long)c);
        }
        if (color[c] == BLACK) {
            if (longest[c] + 1 > longest[fr->p]) {
                longest[fr->p] = longest[c] + 1;
            }
            continue;
        }
        if (top == cap) {
            cap *= 2;
            stack = realloc(stack, cap * sizeof *stack);
            assert_non_null(stack);
        }
        Frame *nf = &stack[top++];
        nf->p = c;
        nf->next = 0;
        color[c] = GRAY;
        nf->n = g->ops->primitive(g, c) == VALUE_UNDECIDED ? g->ops->generate_moves(g, c, nf->moves)
                                                           : 0;
    }
    uint32_t result = longest[root];
    free(stack);
    free(color);
    free(longest);
    return result;
}

static void acyclic_within_depth(void **state) {
    Game *g = test_game(*state);
    uint32_t longest = longest_path(g);
    if (longest > g->max_depth) {
        fail_msg("%s:%s lasts %u moves, more than its max_depth %u", g->module->name, g->variant,
                 longest, g->max_depth);
    }
    game_destroy(g);
}

/* ------------------------------------------------------------- parents */

static bool contains(const Position *list, int n, Position p) {
    for (int i = 0; i < n; i++) {
        if (list[i] == p) {
            return true;
        }
    }
    return false;
}

/* Two buffers of g->max_parents positions. */
static void parent_buffers(const Game *g, Position **a, Position **b) {
    *a = malloc((size_t)g->max_parents * sizeof **a);
    *b = malloc((size_t)g->max_parents * sizeof **b);
    assert_non_null(*a);
    assert_non_null(*b);
}

static void parents_invert_moves(void **state) {
    Game *g = test_game(*state);
    Reach r;
    test_reach(g, &r);
    Position *parents, *sorted;
    parent_buffers(g, &parents, &sorted);
    Position children[GAME_MAX_MOVES];
    /* Each child lists its parent. */
    for (uint64_t i = 0; i < r.count; i++) {
        Position p = r.list[i];
        int n = test_children(g, p, children);
        for (int k = 0; k < n; k++) {
            Position c = children[k];
            int np = g->ops->generate_parents(g, c, parents);
            assert_in_range(np, 0, g->max_parents);
            if (!contains(parents, np, p)) {
                fail_msg("%s:%s: child %llu does not list its parent %llu", g->module->name,
                         g->variant, (unsigned long long)c, (unsigned long long)p);
            }
        }
    }
    /* Each parent generates the child, and parents are listed once. */
    for (uint64_t i = 0; i < r.count; i++) {
        Position c = r.list[i];
        int np = g->ops->generate_parents(g, c, parents);
        memcpy(sorted, parents, (size_t)np * sizeof *sorted);
        qsort(sorted, (size_t)np, sizeof *sorted, cmp_pos);
        for (int k = 0; k < np; k++) {
            Position q = parents[k];
            assert_true(q < g->num_positions);
            assert_true(k == 0 || sorted[k] != sorted[k - 1]);
            if (!r.seen[q]) {
                continue; /* unreachable parents are allowed; retro filters them */
            }
            assert_int_equal(g->ops->primitive(g, q), VALUE_UNDECIDED);
            int n = test_children(g, q, children);
            if (!contains(children, n, c)) {
                fail_msg("%s:%s: parent %llu has no move to %llu", g->module->name, g->variant,
                         (unsigned long long)q, (unsigned long long)c);
            }
        }
    }
    free(parents);
    free(sorted);
    test_reach_free(&r);
    game_destroy(g);
}

/* ---------------------------------------------------------------- tiers */

/* TierOps.parents_in (games with tiers and un-moves that have it): every
 * parent generate_parents lists in the position's own tier is there, and
 * nothing that generate_parents does not list, each once. */
static void tier_parents_agree(void **state) {
    Game *g = test_game(*state);
    Reach r;
    test_reach(g, &r);
    Position *all, *in;
    parent_buffers(g, &all, &in);
    uint64_t kept = 0, left = 0;
    for (uint64_t i = 0; i < r.count; i++) {
        Position c = r.list[i];
        int tier = g->tiers->tier_of(g, c);
        int na = g->ops->generate_parents(g, c, all);
        int ni = g->tiers->parents_in(g, tier, c, in);
        assert_in_range(ni, 0, g->max_parents);
        for (int k = 0; k < ni; k++) {
            assert_true(contains(all, na, in[k]));
            for (int x = 0; x < k; x++) {
                assert_true(in[x] != in[k]);
            }
        }
        for (int k = 0; k < na; k++) {
            if (g->tiers->tier_of(g, all[k]) == tier) {
                if (!contains(in, ni, all[k])) {
                    fail_msg("%s:%s: parent %llu of %llu is in its tier %d, not in parents_in",
                             g->module->name, g->variant, (unsigned long long)all[k],
                             (unsigned long long)c, tier);
                }
                kept++;
            } else {
                left += !contains(in, ni, all[k]);
            }
        }
    }
    assert_true(kept > 0); /* in-tier parents exist (a loopy tier) */
    assert_true(left > 0); /* and some others were left out */
    free(all);
    free(in);
    test_reach_free(&r);
    game_destroy(g);
}

static void tiers_partition(void **state) {
    Game *g = test_game(*state);
    const TierOps *t = g->tiers;
    Reach r;
    test_reach(g, &r);
    int ntiers = t->count(g);
    assert_true(ntiers >= 1);
    Move moves[GAME_MAX_MOVES];
    int children[GAME_MAX_CHILD_TIERS];
    for (uint64_t i = 0; i < r.count; i++) {
        Position p = r.list[i];
        int tier = t->tier_of(g, p);
        assert_in_range(tier, 0, ntiers - 1);
        uint64_t idx = t->first ? p - t->first(g, tier) : t->index_of(g, p);
        assert_true(idx < t->size(g, tier));
        Position back = t->first ? t->first(g, tier) + idx : t->position_at(g, tier, idx);
        assert_int_equal(back, p);
        if (g->ops->primitive(g, p) != VALUE_UNDECIDED) {
            continue;
        }
        int nc = t->children(g, tier, children);
        assert_in_range(nc, 0, GAME_MAX_CHILD_TIERS);
        int n = g->ops->generate_moves(g, p, moves);
        for (int k = 0; k < n; k++) {
            Position c = game_canonical(g, g->ops->do_move(g, p, moves[k]));
            int ct = t->tier_of(g, c);
            /* A loopy tier (TierOps.loopy, default: the game's loopiness)
             * may also keep a move inside it. */
            bool listed = ct == tier && (t->loopy ? t->loopy(g, tier) : g->loopy);
            for (int j = 0; j < nc; j++) {
                listed |= children[j] == ct;
            }
            if (!listed) {
                fail_msg("%s:%s: a move from tier %d reaches tier %d, not a listed child "
                         "(nor the tier itself, if loopy)",
                         g->module->name, g->variant, tier, ct);
            }
        }
    }
    if (t->first != NULL) {
        uint64_t total = 0;
        for (int k = 0; k < ntiers; k++) {
            assert_int_equal(t->first(g, k), total);
            total += t->size(g, k);
        }
        assert_true(total <= g->num_positions);
    }
    test_reach_free(&r);
    game_destroy(g);
}

/* ------------------------------------------------ tier:sector's bitmaps */

/* TierOps.positions_run against its definition (games/game.h): bit i of a
 * tier set iff slot i's position is legal and, with symmetry, canonical,
 * tested slot by slot; asked for the whole tier at once, a word at a time,
 * and in runs of 3 words, with a guard word after each answer that must
 * stay untouched. Tiers of at most `max_slots` slots (all: 0). */
static void check_positions_run(const Game *g, uint64_t max_slots) {
    const TierOps *t = g->tiers;
    int ntiers = t->count(g), checked = 0;
    for (int tier = 0; tier < ntiers; tier++) {
        uint64_t size = t->size(g, tier), nwords = (size + 63) / 64;
        if (max_slots != 0 && size > max_slots) {
            continue;
        }
        uint64_t *want = calloc(nwords + 1, sizeof *want), *got = calloc(nwords + 2, sizeof *got);
        assert_non_null(want);
        assert_non_null(got);
        for (uint64_t i = 0; i < size; i++) {
            Position p = t->first != NULL ? t->first(g, tier) + i : t->position_at(g, tier, i);
            bool legal = t->legal == NULL || t->legal(g, tier, p);
            if (legal && (!g->symmetric || game_canonical(g, p) == p)) {
                want[i / 64] |= UINT64_C(1) << (i % 64);
            }
        }
        const uint64_t guard = UINT64_C(0x5a5a5a5a5a5a5a5a);
        for (uint64_t step = 1; step <= 3; step++) {
            uint64_t run = step == 2 ? nwords : step == 1 ? 1 : 3;
            for (uint64_t w0 = 0; w0 < nwords; w0 += run) {
                uint64_t k = nwords - w0 < run ? nwords - w0 : run;
                for (uint64_t j = 0; j <= k; j++) {
                    got[w0 + j] = guard;
                }
                t->positions_run(g, tier, w0, k, got + w0);
                if (got[w0 + k] != guard) {
                    fail_msg("%s:%s tier %d: positions_run(%" PRIu64 ", %" PRIu64
                             ") wrote past its words",
                             g->module->name, g->variant, tier, w0, k);
                }
            }
            for (uint64_t w = 0; w < nwords; w++) {
                if (got[w] != want[w]) {
                    fail_msg("%s:%s tier %d word %" PRIu64 " (runs of %" PRIu64
                             "): positions_run %016" PRIx64 ", slot by slot %016" PRIx64,
                             g->module->name, g->variant, tier, w, run, got[w], want[w]);
                }
            }
        }
        free(want);
        free(got);
        checked++;
    }
    assert_true(checked > 0);
}

static void positions_run(void **state) {
    Game *g = test_game(*state);
    check_positions_run(g, 0);
    game_destroy(g);
}

/* The 5x5 game (4 tigers on the corners, 20 goats, the diagonals: all 8
 * symmetries, so classes of tiger sets with symmetries of their own on
 * both diagonals and the axes), with and without `sym`: its tiers of at
 * most 350,000 slots. */
static void positions_run_5x5(void **state) {
    (void)state;
    const char *specs[] = {"baghchal:sym", "baghchal"};
    for (int k = 0; k < 2; k++) {
        Game *g = test_game(specs[k]);
        check_positions_run(g, 350000);
        game_destroy(g);
    }
}

/* ----------------------------------------------------------- tier names */

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* TierOps.name's contract (games/game.h), over every tier of the variant:
 * one short word of letters, digits, '-' and '_', not a decimal number,
 * unique; game_tier_find finds each tier by its name and by its number,
 * and game_tier_label is "N (name)". Without the slot, the number. */
static void tier_names(void **state) {
    Game *g = test_game(*state);
    int ntiers = g->tiers->count(g);
    char **names = calloc((size_t)ntiers, sizeof *names);
    assert_non_null(names);
    for (int t = 0; t < ntiers; t++) {
        char raw[256] = {0}, name[GAME_TIER_NAME_MAX], label[GAME_TIER_LABEL_MAX], number[16];
        snprintf(number, sizeof number, "%d", t);
        if (g->tiers->name != NULL) {
            g->tiers->name(g, t, raw, sizeof raw); /* room to see a name too long */
            size_t len = strlen(raw);
            if (len < 1 || len >= GAME_TIER_NAME_MAX) {
                fail_msg("%s:%s tier %d: name '%s' of %zu characters", g->module->name, g->variant,
                         t, raw, len);
            }
            bool digits = true;
            for (size_t i = 0; i < len; i++) {
                char c = raw[i];
                bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                            (c >= '0' && c <= '9') || c == '-' || c == '_';
                if (!word) {
                    fail_msg("%s:%s tier %d: name '%s' has '%c'", g->module->name, g->variant, t,
                             raw, c);
                }
                digits = digits && c >= '0' && c <= '9';
            }
            if (digits) {
                fail_msg("%s:%s tier %d: name '%s' is a number", g->module->name, g->variant, t,
                         raw);
            }
        }
        game_tier_name(g, t, name, sizeof name);
        assert_string_equal(name, g->tiers->name != NULL ? raw : number);
        char want[GAME_TIER_LABEL_MAX];
        if (g->tiers->name != NULL) {
            snprintf(want, sizeof want, "%d (%s)", t, name);
        } else {
            snprintf(want, sizeof want, "%d", t);
        }
        assert_string_equal(game_tier_label(g, t, label, sizeof label), want);
        int found = game_tier_find(g, name);
        if (found != t) { /* the first tier of that name: two tiers share it */
            fail_msg("%s:%s: tiers %d and %d are both named '%s'", g->module->name, g->variant,
                     found, t, name);
        }
        assert_int_equal(game_tier_find(g, number), t);
        names[t] = test_strdupf("%s", name);
    }
    qsort(names, (size_t)ntiers, sizeof *names, cmp_str);
    for (int t = 1; t < ntiers; t++) {
        if (strcmp(names[t], names[t - 1]) == 0) {
            fail_msg("%s:%s: two tiers named '%s'", g->module->name, g->variant, names[t]);
        }
    }
    char past[16];
    snprintf(past, sizeof past, "%d", ntiers);
    assert_int_equal(game_tier_find(g, past), -1);
    assert_int_equal(game_tier_find(g, "-1"), -1);
    assert_int_equal(game_tier_find(g, ""), -1);
    assert_int_equal(game_tier_find(g, "no-such-tier"), -1);
    for (int t = 0; t < ntiers; t++) {
        free(names[t]);
    }
    free(names);
    game_destroy(g);
}

/* A tier's name, checked against the one written here from the rules. */
static void expect_name(const Game *g, int tier, const char *want) {
    char name[GAME_TIER_NAME_MAX];
    game_tier_name(g, tier, name, sizeof name);
    if (strcmp(name, want) != 0) {
        fail_msg("%s:%s tier %d: name '%s', want '%s'", g->module->name, g->variant, tier, name,
                 want);
    }
    assert_int_equal(game_tier_find(g, want), tier);
}

/* Names derived by hand from each game's layout (the comments at the top
 * of its file). */
static void tier_names_known(void **state) {
    (void)state;
    /* Morris (games/morris.c, morris_layout): hands (w, b) from (n, n)
     * down, b = w + 1 before b = w, then stones on the board, white's
     * outer. n = 3: (3,3) 1 tier, (2,3) 2, (2,2) 4, (1,2) 6, (1,1) 9,
     * (0,1) 12, (0,0) 16: 50 tiers, the movement sectors 34..49. */
    Game *g = test_game("morris:n=3");
    assert_int_equal(g->tiers->count(g), 50);
    expect_name(g, 0, "0-0-hand3-3");
    expect_name(g, 1, "0-0-hand2-3");
    expect_name(g, 2, "1-0-hand2-3");
    expect_name(g, 6, "1-1-hand2-2");
    expect_name(g, 34, "0-0");
    expect_name(g, 48, "3-2");
    expect_name(g, 49, "3-3");
    game_destroy(g);
    /* Nine and six: the sector numbers docs/loopy.md records for runs
     * (tier:sector=648 is 3-3, 662 is 4-7, 575 is hands 0-1 with 5-5 on
     * the board; six: 251 is 6-6, 235 is 4-4), and for every W-B the
     * number scripts/morris/sector-solve.sh computed before names, tiers
     * - (n + 1)^2 + (n + 1) W + B, with 715 and 252 tiers. */
    static const struct {
        const char *spec;
        int n, tiers;
    } morris[] = {{"morris:n=9", 9, 715}, {"morris:n=6", 6, 252}, {"morris:n=3", 3, 50}};
    for (int k = 0; k < 3; k++) {
        g = test_game(morris[k].spec);
        int n = morris[k].n, count = g->tiers->count(g);
        assert_int_equal(count, morris[k].tiers);
        for (int w = 0; w <= n; w++) {
            for (int b = 0; b <= n; b++) {
                char name[32];
                snprintf(name, sizeof name, "%d-%d", w, b);
                expect_name(g, count - (n + 1) * (n + 1) + (n + 1) * w + b, name);
            }
        }
        if (n == 9) {
            expect_name(g, 648, "3-3");
            expect_name(g, 662, "4-7");
            expect_name(g, 575, "5-5-hand0-1");
            assert_int_equal(game_tier_find(g, "9-10"), -1);
            assert_int_equal(game_tier_find(g, "10-9-hand0-1"), -1);
        } else if (n == 6) {
            expect_name(g, 251, "6-6");
            expect_name(g, 235, "4-4");
        }
        game_destroy(g);
    }
    /* Connect Four and tic-tac-toe: tier n holds the boards of n pieces. */
    g = test_game("connect4:w=4,h=4");
    assert_int_equal(g->tiers->count(g), 17);
    expect_name(g, 0, "ply0");
    expect_name(g, 7, "ply7");
    expect_name(g, 16, "ply16");
    assert_int_equal(game_tier_find(g, "ply17"), -1);
    game_destroy(g);
    g = test_game("tictactoe");
    expect_name(g, 9, "ply9");
    game_destroy(g);
    /* Achi, 3 pieces each: placement tiers 0..5, then the sliding tier. */
    g = test_game("achi");
    assert_int_equal(g->tiers->count(g), 7);
    expect_name(g, 5, "ply5");
    expect_name(g, 6, "movement");
    game_destroy(g);
    /* Dodgem 3x3, 2 cars a side: tier hi (hi + 1) / 2 + lo for the cars
     * on the board, {0,0} {1,0} {1,1} {2,0} {2,1} {2,2}. */
    g = test_game("dodgem");
    assert_int_equal(g->tiers->count(g), 6);
    expect_name(g, 0, "cars0-0");
    expect_name(g, 4, "cars2-1");
    expect_name(g, 5, "cars2-2");
    game_destroy(g);
    /* Bagh Chal 3x3, 4 goats, 1 capture: placement tiers by goats in hand
     * from 4 down, captures up (at most 4 - hand), goats then tigers to
     * move: (4,0) 0-1, (3,0) 2-3, (3,1) 4-5, (2,0) 6-7, (2,1) 8-9, (1,0)
     * 10-11, (1,1) 12-13; then the sliding tiers, captures 0 and 1. */
    g = test_game("baghchal:n=3");
    assert_int_equal(g->tiers->count(g), 16);
    expect_name(g, 0, "hand4-cap0-G");
    expect_name(g, 1, "hand4-cap0-T");
    expect_name(g, 5, "hand3-cap1-T");
    expect_name(g, 12, "hand1-cap1-G");
    expect_name(g, 14, "slide-cap0");
    expect_name(g, 15, "slide-cap1");
    game_destroy(g);
}

/* A game that names no tiers: the helpers fall back to the number, and a
 * lookup takes the number only. */
static void tier_names_default(void **state) {
    (void)state;
    Game *g = test_game("connect4:w=4,h=4");
    TierOps unnamed = *g->tiers;
    unnamed.name = NULL;
    const TierOps *named = g->tiers;
    g->tiers = &unnamed;
    char name[GAME_TIER_NAME_MAX], label[GAME_TIER_LABEL_MAX];
    assert_string_equal(game_tier_name(g, 7, name, sizeof name), "7");
    assert_string_equal(game_tier_label(g, 7, label, sizeof label), "7");
    assert_int_equal(game_tier_find(g, "7"), 7);
    assert_int_equal(game_tier_find(g, "16"), 16);
    assert_int_equal(game_tier_find(g, "17"), -1);
    assert_int_equal(game_tier_find(g, "ply7"), -1);
    g->tiers = named;
    assert_string_equal(game_tier_label(g, 7, label, sizeof label), "7 (ply7)");
    game_destroy(g);
}

/* ---------------------------------------------------------------- parse */

static void parse_refuses(void **state) {
    Game *g = test_game(*state);
    static const char *const bad[] = {
        "",
        "?",
        "\x01\x02",
        "0123456789abcdefghijklmnopqrstuvwxyz",
        "--------------------------------------------------------------------------------"
        "--------------------------------------------------------------------------------"
        "--------------------------------------------------------------------------------",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Position p;
        Error err = {0};
        ErrCode rc = g->ops->parse(g, bad[i], &p, &err);
        if (rc != ERR_USAGE) {
            fail_msg("%s accepted '%s'", g->module->name, bad[i]);
        }
        assert_true(strlen(err.msg) > 0);
    }
    game_destroy(g);
}

/* ----------------------------------------------------------------- main */

typedef struct Property {
    const char *name;
    CMUnitTestFunction fn;
    bool (*applies)(const Game *g);
} Property;

static bool always(const Game *g) { return g != NULL; }
static bool has_gps(const Game *g) { return g->gps != NULL; }
static bool has_gps_cached(const Game *g) { return g->gps_cached != NULL; }
static bool is_symmetric(const Game *g) { return g->symmetric; }
static bool non_loopy(const Game *g) { return !g->loopy; }
static bool has_parents(const Game *g) { return g->ops->generate_parents != NULL; }
static bool has_tiers(const Game *g) { return g->tiers != NULL; }
static bool has_positions_run(const Game *g) {
    return g->tiers != NULL && g->tiers->positions_run != NULL;
}
static bool has_tier_parents(const Game *g) {
    return g->tiers != NULL && g->tiers->parents_in != NULL && g->ops->generate_parents != NULL;
}

int main(void) {
    static const Property props[] = {
        {"round_trip", round_trip, always},
        {"stateless_shape", stateless_shape, always},
        {"parse_refuses", parse_refuses, always},
        {"symmetry", symmetry, is_symmetric},
        {"gps_agrees", gps_agrees, has_gps},
        {"gps_walks", gps_walks, has_gps},
        {"gps_cached_agrees", gps_cached_agrees, has_gps_cached},
        {"gps_cached_walks", gps_cached_walks, has_gps_cached},
        {"acyclic_within_depth", acyclic_within_depth, non_loopy},
        {"parents_invert_moves", parents_invert_moves, has_parents},
        {"tiers_partition", tiers_partition, has_tiers},
        {"tier_parents_agree", tier_parents_agree, has_tier_parents},
        {"tier_names", tier_names, has_tiers},
        {"positions_run", positions_run, has_positions_run},
    };
    size_t nspecs;
    char **specs = test_game_specs(&nspecs);
    size_t nprops = sizeof props / sizeof props[0];
    struct CMUnitTest *tests = calloc(nspecs * nprops, sizeof *tests);
    size_t n = 0;
    for (size_t s = 0; s < nspecs; s++) {
        Game *g = NULL;
        Error err = {0};
        if (game_create(specs[s], &g, &err) != ERR_OK) {
            fprintf(stderr, "test variant %s does not build: %s\n", specs[s], err.msg);
            return 1;
        }
        for (size_t p = 0; p < nprops; p++) {
            if (props[p].applies(g)) {
                tests[n++] = (struct CMUnitTest){
                    .name = test_strdupf("%s %s", props[p].name, specs[s]),
                    .test_func = props[p].fn,
                    .initial_state = specs[s],
                };
            }
        }
        game_destroy(g);
    }
    int failed = test_run_group("games", tests, n);
    free(tests);
    test_free_specs(specs);
    const struct CMUnitTest fixed[] = {
        cmocka_unit_test(tier_names_known),
        cmocka_unit_test(tier_names_default),
        cmocka_unit_test(positions_run_5x5),
    };
    failed += cmocka_run_group_tests_name("tier names and bitmaps", fixed, NULL, NULL);
    return failed;
}
