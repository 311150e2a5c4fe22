/* tests/test_loopy.c: loopy games and the retrograde solvers.
 *
 * Published figures, each checked with every registered solver that solves
 * loopy games (retro, retro-unmove, and any later one such as sweep):
 *   - Dodgem 3x3 is a first-player win (Berlekamp, Conway and Guy, Winning
 *     Ways for your Mathematical Plays, the Dodgem section, whose table
 *     gives the winner of every position; Wikipedia, "Dodgem").
 *   - Dodgem 4x4 is a draw: "the 4x4 and 5x5 games never end with perfect
 *     play" (D. desJardins, 1996, as cited by Wikipedia, "Dodgem"). Heavy
 *     (393,900 reachable positions, seconds under the sanitizers): release
 *     build only; retro, retro-unmove and tier (loopy tiers).
 *   - Pong Hau K'i is a draw: "if both players play perfectly, the game
 *     continues endlessly with no winner" (Wikipedia, "Pong Hau K'i").
 *   - Mu Torere: 1180 reachable positions, 208 winning, 128 losing, 844
 *     draws, the initial position a draw (Wikipedia, "Mu torere", citing the
 *     GamesCrafters analysis). Up to rotations and reflections, 86 game
 *     states occur in play (Scientific Gems, "The game of Mu Torere", 2018:
 *     40 boards with either player to move and 6 lost boards).
 *
 * Hand-worked graphs (a small game given by its edges, tests/testgraph.h,
 * not registered) check the rules of core/value.h where no game of the registry
 * reaches: ties and draws in the same loopy game, tie remoteness through a
 * loop, self-loops, parents that discovery never reached, a position with
 * 256 children, two moves to the same child, WinBy scores decided after the
 * value, and a remoteness too large for the 16-bit record (an error). The
 * same loopy graph cut into tiers checks the tier solver's loopy tiers
 * (1 and 2 threads, un-moves and stored back edges) at tier boundaries.
 *
 * Whole-sector mode (tier:sector, Gasser's sector by sector): on three men's
 * morris (with and without sym and swap) and Dodgem 3x3, every position retro
 * reaches has retro's record in the sector solve, and a solve that loads a
 * child sector from disk gives the same records.
 */
#include "tests/testgraph.h"
#include "tests/testutil.h"

#include "hash/generic.h"
#include "solvers/store.h"
#include "solvers/tier/loopy.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------ published figures */

/* Solves spec with every solver for loopy games and checks the root value
 * (and, when counts is not NULL, positions, wins, losses, draws). */
typedef struct Figure {
    const char *spec;
    Value value;
    const uint64_t *counts; /* positions, wins, losses, ties, draws; or NULL */
} Figure;

static void check_figure(const Figure *f, const char *only) {
    Game *g = test_game(f->spec);
    int solved = 0;
    for (int i = 0; solver_registry[i] != NULL; i++) {
        const SolverModule *s = solver_registry[i];
        if (!s->loopy_ok || s->root_only || !solver_supports(s, g, NULL, 0) ||
            (only != NULL && strstr(only, s->name) == NULL)) {
            continue;
        }
        SolveResult res;
        test_solve(s->name, g, &res);
        if (res.root.value != f->value) {
            fail_msg("%s on %s: %s, expected %s", s->name, f->spec, value_name(res.root.value),
                     value_name(f->value));
        }
        if (f->counts != NULL) {
            DbSummary sum;
            Error err = {0};
            assert_int_equal(db_summarize(&res.db, false, &sum, &err), ERR_OK);
            assert_int_equal(sum.undecided, 0);
            assert_int_equal(sum.positions, f->counts[0]);
            assert_int_equal(sum.count[VALUE_WIN], f->counts[1]);
            assert_int_equal(sum.count[VALUE_LOSE], f->counts[2]);
            assert_int_equal(sum.count[VALUE_TIE], f->counts[3]);
            assert_int_equal(sum.count[VALUE_DRAW], f->counts[4]);
        }
        solve_result_free(&res);
        solved++;
    }
    assert_true(solved >= 2); /* retro and retro-unmove at least */
    game_destroy(g);
}

static void dodgem_first_player_wins(void **state) {
    (void)state;
    check_figure(&(Figure){"dodgem", VALUE_WIN, NULL}, NULL);
    check_figure(&(Figure){"dodgem:sym", VALUE_WIN, NULL}, NULL);
}

static void dodgem_4x4_is_a_draw(void **state) {
    (void)state;
    if (!test_heavy_enabled()) {
        skip();
    }
    check_figure(&(Figure){"dodgem:n=4", VALUE_DRAW, NULL}, "retro retro-unmove tier");
}

static void ponghauki_is_a_draw(void **state) {
    (void)state;
    check_figure(&(Figure){"ponghauki", VALUE_DRAW, NULL}, NULL);
    check_figure(&(Figure){"ponghauki:sym", VALUE_DRAW, NULL}, NULL);
}

static void mutorere_gamescrafters_counts(void **state) {
    (void)state;
    static const uint64_t counts[] = {1180, 208, 128, 0, 844};
    check_figure(&(Figure){"mutorere", VALUE_DRAW, counts}, NULL);
}

static void mutorere_86_states_up_to_symmetry(void **state) {
    (void)state;
    Game *g = test_game("mutorere:sym");
    Reach r;
    test_reach(g, &r);
    assert_int_equal(r.count, 86);
    test_reach_free(&r);
    game_destroy(g);
    check_figure(&(Figure){"mutorere:sym", VALUE_DRAW, NULL}, NULL);
}

/* retro reads stored back edges (no generate_parents call); retro-unmove
 * makes exactly one per position taken from a frontier; both expand each
 * reached position once in discovery (one primitive call each). */
static void retro_counters(void **state) {
#if STATS
    (void)state;
    static const char *const specs[] = {"mutorere", "dodgem", "achi", "tictactoe"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        Game *g = test_game(specs[i]);
        SolveResult stored, unmove;
        test_solve("retro", g, &stored);
        test_solve("retro-unmove", g, &unmove);
        uint64_t reached = (uint64_t)test_extra(&stored, "reached");
        assert_int_equal(stored.counters.parents, 0);
        assert_int_equal(stored.counters.primitive, reached);
        assert_int_equal(unmove.counters.primitive, reached);
        uint64_t taken = (uint64_t)(test_extra(&unmove, "frontier_win_lose") +
                                    test_extra(&unmove, "frontier_tie"));
        assert_int_equal(unmove.counters.parents, taken);
        assert_int_equal(stored.counters.calls, unmove.counters.calls);
        assert_int_equal(test_extra(&stored, "back_edge_bytes") > 0, 1);
        assert_int_equal(test_extra(&unmove, "back_edge_bytes"), 0);
        solve_result_free(&stored);
        solve_result_free(&unmove);
        game_destroy(g);
    }
#else
    (void)state;
    skip();
#endif
}

/* ----------------------------------------------------- hand-worked graphs */

static ErrCode graph_solve(const char *solver, const Game *g, SolveResult *res, Error *err) {
    const SolverModule *s = NULL;
    SolveConfig cfg = {0};
    assert_int_equal(solver_lookup(solver, &s, &cfg, err), ERR_OK);
    return solver_run(s, g, &cfg, res, err);
}

typedef struct Expect {
    int node;
    Value value; /* VALUE_UNDECIDED: never reached */
    uint32_t remoteness;
    WinBy winby;
} Expect;

static void check_expect(const char *solver, const SolveResult *res, const Expect *x, int n,
                         bool winby) {
    for (int i = 0; i < n; i++) {
        uint32_t raw = db_peek(&res->db, (Position)x[i].node);
        if (x[i].value == VALUE_UNDECIDED) {
            if (db_raw_reached(raw)) {
                fail_msg("%s: node %d was never reachable but has a record", solver, x[i].node);
            }
            continue;
        }
        Value v = db_raw_value(&res->db, raw);
        uint32_t r = db_raw_remoteness(&res->db, raw);
        if (v != x[i].value || r != x[i].remoteness) {
            fail_msg("%s: node %d is %s %u, expected %s %u", solver, x[i].node, value_name(v), r,
                     value_name(x[i].value), x[i].remoteness);
        }
        if (winby && res->db.winby[x[i].node] != x[i].winby) {
            fail_msg("%s: node %d has WinBy %d, expected %d", solver, x[i].node,
                     res->db.winby[x[i].node], (int)x[i].winby);
        }
    }
}

/* Every solver of loopy games on the hand-worked loopy graph:
 *
 *   0 -> 1 2 3 12 13 16 19   the root
 *   1 -> 4        4 -> 1 5    5 lose (primitive)       a loop with an exit
 *   2 -> 6 7 6    7 -> 2      6 tie (primitive)        a tie through a loop
 *   3 -> 3 8 15   8 -> 9      9 -> 8                   a self-loop, a dead loop
 *   15 -> 5 1 6   12 -> 9 2   13 -> 4 14 14            14 win (primitive)
 *   16 -> 17      17 -> 16 18                          18 lose (primitive)
 *   19 -> 20 .. 275           20 .. 275 win (primitive): 256 children
 *   10 -> 1       11 -> 2     (never reached from 0)
 *
 * Worked by hand with the rules of core/value.h:
 *   5 lose 0, 14 win 0, 18 lose 0, 6 tie 0, 20..275 win 0 (primitives);
 *   4 win 1 (child 5 loses); 15 win 1 (5 loses at 0, 1 later: min; the
 *   tie child 6 does not matter beside a losing one);
 *   17 win 1 (18 loses); 19 lose 1 (all 256 children win, max 0);
 *   1 lose 2 (its only child 4 wins in 1); 13 lose 2 (4 wins in 1, 14 in 0:
 *   1 + max; the second move to 14 is the same child); 16 lose 2 (17 wins in
 *   1); 0 win 2 (losing children 1, 13, 16 at 2 and 19 at 1: 1 + min);
 *   2 tie 1 (no losing child, tie child 6 at 0; 7 is never a win);
 *   7 tie 2 (its only child 2 ties in 1); 12 tie 2 (tie child 2 at 1 is
 *   better than the draw child 9);
 *   8, 9 draw (they only move to each other); 3 draw (children: itself, 8
 *   (draw) and 15 (a win for the opponent): no loss, no tie, a draw);
 *   10, 11 are never reached, though they are listed as parents of 1 and 2. */
enum { HAND_NODES = 276, HAND_TIERS = 6 };

/* The graph above, its edges and primitives. */
static TestGraph *hand_graph(void) {
    int edges[2 * 300], ne = 0;
#define EDGE(a, b) (edges[2 * ne] = (a), edges[2 * ne + 1] = (b), ne++)
    static const int root_kids[] = {1, 2, 3, 12, 13, 16, 19};
    for (int k = 0; k < 7; k++) {
        EDGE(0, root_kids[k]);
    }
    EDGE(1, 4), EDGE(4, 1), EDGE(4, 5);
    EDGE(2, 6), EDGE(2, 7), EDGE(2, 6), EDGE(7, 2);
    EDGE(3, 3), EDGE(3, 8), EDGE(3, 15), EDGE(8, 9), EDGE(9, 8);
    EDGE(15, 5), EDGE(15, 1), EDGE(15, 6);
    EDGE(12, 9), EDGE(12, 2), EDGE(13, 4), EDGE(13, 14), EDGE(13, 14);
    EDGE(16, 17), EDGE(17, 16), EDGE(17, 18);
    for (int c = 20; c < HAND_NODES; c++) {
        EDGE(19, c);
    }
    EDGE(10, 1), EDGE(11, 2);
#undef EDGE
    TestGraph *gr = test_graph_new(HAND_NODES, edges, ne);
    gr->prim[5] = gr->prim[18] = VALUE_LOSE;
    gr->prim[14] = VALUE_WIN;
    gr->prim[6] = VALUE_TIE;
    for (int c = 20; c < HAND_NODES; c++) {
        gr->prim[c] = VALUE_WIN;
    }
    return gr;
}

static void loopy_graph_by_hand(void **state) {
    (void)state;
    TestGraph *gr = hand_graph();
    assert_int_equal(gr->max_moves, 256);
    Game g = test_graph_game(gr, 0, true, false);
    static const Expect expect[] = {
        {0, VALUE_WIN, 2, 0},   {1, VALUE_LOSE, 2, 0},       {2, VALUE_TIE, 1, 0},
        {3, VALUE_DRAW, 0, 0},  {4, VALUE_WIN, 1, 0},        {5, VALUE_LOSE, 0, 0},
        {6, VALUE_TIE, 0, 0},   {7, VALUE_TIE, 2, 0},        {8, VALUE_DRAW, 0, 0},
        {9, VALUE_DRAW, 0, 0},  {10, VALUE_UNDECIDED, 0, 0}, {11, VALUE_UNDECIDED, 0, 0},
        {12, VALUE_TIE, 2, 0},  {13, VALUE_LOSE, 2, 0},      {14, VALUE_WIN, 0, 0},
        {15, VALUE_WIN, 1, 0},  {16, VALUE_LOSE, 2, 0},      {17, VALUE_WIN, 1, 0},
        {18, VALUE_LOSE, 0, 0}, {19, VALUE_LOSE, 1, 0},      {20, VALUE_WIN, 0, 0},
        {275, VALUE_WIN, 0, 0},
    };
    int solved = 0;
    for (int i = 0; solver_registry[i] != NULL; i++) {
        const SolverModule *s = solver_registry[i];
        if (!s->loopy_ok || s->root_only || !solver_supports(s, &g, NULL, 0)) {
            continue;
        }
        SolveResult res;
        Error err = {0};
        if (graph_solve(s->name, &g, &res, &err) != ERR_OK) {
            fail_msg("%s on the loopy graph: %s", s->name, err.msg);
        }
        check_expect(s->name, &res, expect, (int)(sizeof expect / sizeof expect[0]), false);
        assert_int_equal(res.root.value, VALUE_WIN);
        assert_int_equal(res.root.remoteness, 2);
        solve_result_free(&res);
        solved++;
    }
    assert_true(solved >= 2);
    test_graph_free(gr);
}

/* The same graph cut into tiers, so that the tier solver's loopy tiers
 * (solvers/tier/loopy.c) meet every case at a tier boundary:
 *
 *   tier 0  {0}                          children 1, 2, 3, 5
 *   tier 1  {16, 17}                     loopy; 17 -> 18 leaves (a loss)
 *   tier 2  {1, 3, 4, 8, 9, 10, 12, 13, 15}  loopy; 4 -> 5, 15 -> 5 (losses),
 *                                        15 -> 6 (a tie beside the loss),
 *                                        13 -> 14 (a win, twice), 12 -> 2 (a
 *                                        tie at 1) leave; children 3, 4
 *   tier 3  {2, 7, 11}                   loopy; 2 -> 6 (a tie) leaves; child 4
 *   tier 4  {5, 6, 14, 18}               the primitives
 *   tier 5  {19, 20 .. 275}              loopy (declared), 256 in-tier wins
 *
 * The expected records are the hand-worked ones above; the tier solver must
 * give them with 1 and 2 threads, with un-moves and with stored back edges. */
static const int hand_small_tier[20] = {0, 2, 3, 2, 2, 4, 4, 3, 2, 2, 2, 3, 2, 2, 4, 2, 1, 1, 4, 5};

static int hand_tier_of(const Game *g, Position p) {
    (void)g;
    return p < 20 ? hand_small_tier[p] : 5;
}

static int hand_tier_count(const Game *g) {
    (void)g;
    return HAND_TIERS;
}

static uint64_t hand_index_of(const Game *g, Position p) {
    uint64_t i = 0;
    for (Position q = 0; q < p; q++) {
        i += hand_tier_of(g, q) == hand_tier_of(g, p);
    }
    return i;
}

static uint64_t hand_tier_size(const Game *g, int tier) {
    uint64_t n = 0;
    for (Position q = 0; q < HAND_NODES; q++) {
        n += hand_tier_of(g, q) == tier;
    }
    return n;
}

static Position hand_position_at(const Game *g, int tier, uint64_t i) {
    for (Position q = 0; q < HAND_NODES; q++) {
        if (hand_tier_of(g, q) == tier && i-- == 0) {
            return q;
        }
    }
    return HAND_NODES;
}

static int hand_children(const Game *g, int tier, int *child_tiers) {
    (void)g;
    static const int kids[HAND_TIERS][4] = {{1, 2, 3, 5}, {4}, {3, 4}, {4}, {0}, {0}};
    static const int nkids[HAND_TIERS] = {4, 1, 2, 1, 0, 0};
    memcpy(child_tiers, kids[tier], (size_t)nkids[tier] * sizeof *child_tiers);
    return nkids[tier];
}

static bool hand_loopy(const Game *g, int tier) {
    (void)g;
    return tier != 0 && tier != 4;
}

static void loopy_graph_by_tiers(void **state) {
    (void)state;
    TestGraph *gr = hand_graph();
    Game g = test_graph_game(gr, 0, true, false);
    static const TierOps tiers = {
        .count = hand_tier_count,
        .size = hand_tier_size,
        .tier_of = hand_tier_of,
        .children = hand_children,
        .index_of = hand_index_of,
        .position_at = hand_position_at,
        .loopy = hand_loopy,
    };
    g.tiers = &tiers;
    static const Expect expect[] = {
        {0, VALUE_WIN, 2, 0},   {1, VALUE_LOSE, 2, 0},       {2, VALUE_TIE, 1, 0},
        {3, VALUE_DRAW, 0, 0},  {4, VALUE_WIN, 1, 0},        {5, VALUE_LOSE, 0, 0},
        {6, VALUE_TIE, 0, 0},   {7, VALUE_TIE, 2, 0},        {8, VALUE_DRAW, 0, 0},
        {9, VALUE_DRAW, 0, 0},  {10, VALUE_UNDECIDED, 0, 0}, {11, VALUE_UNDECIDED, 0, 0},
        {12, VALUE_TIE, 2, 0},  {13, VALUE_LOSE, 2, 0},      {14, VALUE_WIN, 0, 0},
        {15, VALUE_WIN, 1, 0},  {16, VALUE_LOSE, 2, 0},      {17, VALUE_WIN, 1, 0},
        {18, VALUE_LOSE, 0, 0}, {19, VALUE_LOSE, 1, 0},      {20, VALUE_WIN, 0, 0},
        {275, VALUE_WIN, 0, 0},
    };
    /* The last two with the 64-bit slot indices of tiers over 2^32 slots
     * (the test hook tier_loopy_test_wide), here on a small graph (no test
     * can afford such a tier). */
    static const char *const specs[] = {
        "tier", "tier:parallel_min=0,chunk=64", "tier:stored_edges,parallel_min=0,chunk=64",
        "tier:parallel_min=0,chunk=64", "tier:stored_edges,parallel_min=0,chunk=64"};
    for (int threads = 1; threads <= 2; threads++) {
        for (int k = 0; k < 5; k++) {
            tier_loopy_test_wide = k >= 3;
            const SolverModule *s = NULL;
            SolveConfig cfg = {.threads = threads};
            SolveResult res;
            Error err = {0};
            assert_int_equal(solver_lookup(specs[k], &s, &cfg, &err), ERR_OK);
            if (solver_run(s, &g, &cfg, &res, &err) != ERR_OK) {
                fail_msg("%s on the tiered loopy graph: %s", specs[k], err.msg);
            }
            check_expect(specs[k], &res, expect, (int)(sizeof expect / sizeof expect[0]), false);
            solve_result_free(&res);
        }
    }
    tier_loopy_test_wide = false;
    test_graph_free(gr);
}

/* A non-loopy graph with WinBy scores (player 0 maximizes, player 1
 * minimizes; primitives' values follow their scores for the player to move):
 *
 *   0 (p0) -> 1 2 6        1 (p1) -> 3 4        2 (p1) -> 4 5 4
 *   6 (p1) -> 5 7          3 (p0) +2 win        4 (p0) -1 lose
 *   5 (p0)  0 tie          7 (p0) +3 win
 *
 * By hand: 1 win 1 (child 4 loses), WinBy min(+2, -1) = -1: the value is
 * known when 4 is, the score only once 3 is too; 2 win 1, min(-1, 0) = -1;
 * 6 tie 1 (5 ties, 7 wins for the opponent), min(0, +3) = 0; 0 tie 2 (no
 * losing child, tie child 6 at 1), max(-1, -1, 0) = 0. dfs agrees too. */
static void winby_graph_by_hand(void **state) {
    (void)state;
    static const int edges[] = {0, 1, 0, 2, 0, 6, 1, 3, 1, 4, 2, 4, 2, 5, 2, 4, 6, 5, 6, 7};
    TestGraph *gr = test_graph_new(8, edges, (int)(sizeof edges / sizeof edges[0] / 2));
    static const int turns[8] = {0, 1, 1, 0, 0, 0, 1, 0};
    memcpy(gr->turn, turns, sizeof turns);
    gr->prim[3] = VALUE_WIN, gr->score[3] = 2;
    gr->prim[4] = VALUE_LOSE, gr->score[4] = -1;
    gr->prim[5] = VALUE_TIE, gr->score[5] = 0;
    gr->prim[7] = VALUE_WIN, gr->score[7] = 3;
    Game g = test_graph_game(gr, 0, false, true);
    static const Expect expect[] = {
        {0, VALUE_TIE, 2, 0},   {1, VALUE_WIN, 1, -1}, {2, VALUE_WIN, 1, -1}, {3, VALUE_WIN, 0, 2},
        {4, VALUE_LOSE, 0, -1}, {5, VALUE_TIE, 0, 0},  {6, VALUE_TIE, 1, 0},  {7, VALUE_WIN, 0, 3},
    };
    static const char *const solvers[] = {"dfs", "retro", "retro-unmove"};
    for (int i = 0; i < 3; i++) {
        SolveResult res;
        Error err = {0};
        if (graph_solve(solvers[i], &g, &res, &err) != ERR_OK) {
            fail_msg("%s on the WinBy graph: %s", solvers[i], err.msg);
        }
        check_expect(solvers[i], &res, expect, 8, true);
        assert_true(res.has_winby);
        assert_int_equal(res.root_winby, 0);
        solve_result_free(&res);
    }
    test_graph_free(gr);
}

/* A game over before it starts: the root is primitive (no edges at all). */
static void primitive_root(void **state) {
    (void)state;
    TestGraph *gr = test_graph_new(2, NULL, 0);
    gr->prim[1] = VALUE_LOSE;
    Game g = test_graph_game(gr, 1, true, false);
    static const Expect expect[] = {{0, VALUE_UNDECIDED, 0, 0}, {1, VALUE_LOSE, 0, 0}};
    static const char *const solvers[] = {"retro", "retro-unmove"};
    for (int i = 0; i < 2; i++) {
        SolveResult res;
        Error err = {0};
        assert_int_equal(graph_solve(solvers[i], &g, &res, &err), ERR_OK);
        check_expect(solvers[i], &res, expect, 2, false);
        assert_int_equal(res.root.value, VALUE_LOSE);
        solve_result_free(&res);
    }
    test_graph_free(gr);
}

/* A chain 0 -> 1 -> ... -> 16400, the last node lost: node 0 wins or loses in
 * 16400 moves, more than a 16-bit record holds (16383). The solve must fail
 * with ERR_LIMIT, never store a truncated remoteness. */
static void remoteness_overflow_is_an_error(void **state) {
    (void)state;
    enum { LENGTH = 16400 };
    int *edges = malloc(2 * LENGTH * sizeof *edges);
    assert_non_null(edges);
    for (int i = 0; i < LENGTH; i++) {
        edges[2 * i] = i;
        edges[2 * i + 1] = i + 1;
    }
    TestGraph *gr = test_graph_new(LENGTH + 1, edges, LENGTH);
    free(edges);
    gr->prim[LENGTH] = VALUE_LOSE;
    Game g = test_graph_game(gr, 0, true, false);
    static const char *const solvers[] = {"retro", "retro-unmove"};
    for (int i = 0; i < 2; i++) {
        SolveResult res;
        Error err = {0};
        assert_int_equal(graph_solve(solvers[i], &g, &res, &err), ERR_LIMIT);
        assert_non_null(strstr(err.msg, "16383"));
    }
    test_graph_free(gr);
}

/* ------------------------------------------------- whole-sector mode */

static void sector_ok(const Game *g, const char *opts, const char *dir, int threads,
                      SolveResult *res) {
    Error err = {0};
    if (test_run_tier(g, opts, threads, dir, res, &err) != ERR_OK) {
        fail_msg("tier:%s on %s:%s: %s", opts, g->module->name, g->variant, err.msg);
    }
}

/* The tier of the position written as text. */
static int tier_of_text(const Game *g, const char *text) {
    Position p;
    Error err = {0};
    assert_int_equal(g->ops->parse(g, text, &p, &err), ERR_OK);
    return g->tiers->tier_of(g, game_canonical(g, p));
}

/* What tier:sector=root should hold when dir has some tier files: the
 * tiers below root, the walk stopping at a tier on disk (loaded: its own
 * descendants are not needed). *positions: how many records of `whole`
 * (the sector solved alone) lie in those tiers; *loaded: the tiers of the
 * walk on disk; *skipped: the tiers of whole's closure left out. */
static void sector_plan(const Game *g, int root, const char *dir, const SolveResult *whole,
                        uint64_t *positions, int *loaded, uint64_t *skipped) {
    int nt = g->tiers->count(g);
    bool *in = test_calloc((size_t)nt, sizeof *in);
    int *stack = test_calloc((size_t)nt, sizeof *stack);
    int top = 0;
    in[root] = true;
    stack[top++] = root;
    *loaded = 0;
    while (top > 0) {
        int t = stack[--top];
        char *path = test_strdupf("%s/tier-%04d.gmdb", dir, t);
        bool held = access(path, F_OK) == 0;
        free(path);
        if (held) {
            (*loaded)++;
            continue;
        }
        int ch[GAME_MAX_CHILD_TIERS];
        int n = g->tiers->children(g, t, ch);
        for (int k = 0; k < n; k++) {
            if (!in[ch[k]]) {
                in[ch[k]] = true;
                stack[top++] = ch[k];
            }
        }
    }
    *positions = *skipped = 0;
    for (Position p = 0; p < g->num_positions; p++) {
        int t = g->tiers->tier_of(g, p);
        if (t >= 0 && db_peek(&whole->db, p) != DB_UNREACHED) {
            *positions += in[t];
            *skipped += !in[t];
        }
    }
    test_free(in);
    test_free(stack);
}

/* tier:sector=T solves tier T and every tier below it over all their
 * positions. The value of a position does not depend on how it was
 * reached, so every position retro reaches from the start and the sector
 * closure holds must have retro's record exactly (value and remoteness);
 * the sector solve holds more (positions no play reaches). Then the
 * sector of the start solved with a child sector already on disk (an
 * earlier run's tier files in --db) loads that child but none of the
 * tiers below it (sector_plan), solves the rest, and leaves on disk every
 * record of the sector solved alone; and a sector past the last tier is
 * refused. */
static void sector_mode_matches_retro(void **state) {
    (void)state;
    /* spec, the start's sector, a child sector given by a position in it */
    const char *cases[][2] = {
        {"morris:n=3", "www---bbb:0:0:w"},      {"morris:n=3,sym", "www---bbb:0:0:w"},
        {"morris:n=3,swap", "www---bbb:0:0:w"}, {"morris:n=3,sym,swap", "www---bbb:0:0:w"},
        {"dodgem:n=3", "b--b----r:b"},
    };
    int skipped_any = 0; /* cases where the walk's stop left tiers out */
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        Game *g = test_game(cases[c][0]);
        SolveResult retro, whole, split, child;
        test_solve("retro", g, &retro);
        int root = g->tiers->tier_of(g, game_canonical(g, g->initial));
        char opts[64];
        snprintf(opts, sizeof opts, "sector=%d", root);
        sector_ok(g, opts, NULL, 2, &whole);
        assert_true(whole.has_db);
        assert_int_equal(whole.root.value, retro.root.value);
        assert_int_equal(whole.root.remoteness, retro.root.remoteness);
        uint64_t shared = 0, more = 0;
        for (Position p = 0; p < g->num_positions; p++) {
            uint32_t r = db_peek(&retro.db, p), w = db_peek(&whole.db, p);
            if (r != DB_UNREACHED) {
                if (w != r) {
                    fail_msg("%s position %" PRIu64 ": retro %u, tier:sector %u", cases[c][0], p, r,
                             w);
                }
                shared++;
            } else if (w != DB_UNREACHED) {
                more++;
            }
        }
        assert_true(more > 0); /* the sectors hold positions no play reaches */
        /* The 64-bit slot indices of tiers over 2^32 slots (forced here):
         * the same records, with un-moves and with stored back edges. */
        for (int k = 0; k < 2; k++) {
            SolveResult wide;
            snprintf(opts, sizeof opts, "sector=%d%s", root, k ? ",stored_edges" : "");
            tier_loopy_test_wide = true;
            sector_ok(g, opts, NULL, 2, &wide);
            tier_loopy_test_wide = false;
            assert_true(wide.has_checksum && whole.has_checksum);
            assert_int_equal(wide.checksum, whole.checksum);
            solve_result_free(&wide);
        }
        /* The same by parts: a child sector first, into a directory. */
        char dir[] = "/tmp/gamesman-sector-XXXXXX";
        assert_non_null(mkdtemp(dir));
        int sub = tier_of_text(g, cases[c][1]);
        assert_true(sub != root);
        snprintf(opts, sizeof opts, "sector=%d", sub);
        sector_ok(g, opts, dir, 1, &child);
        assert_int_equal(child.root.value, VALUE_UNDECIDED); /* the start is not below it */
        uint64_t planned = 0, skipped = 0;
        int loaded = 0;
        sector_plan(g, root, dir, &whole, &planned, &loaded, &skipped);
        snprintf(opts, sizeof opts, "sector=%d,window", root);
        sector_ok(g, opts, dir, 2, &split);
        assert_true(loaded >= 1);
        assert_int_equal(test_extra(&split, "tiers_loaded"), loaded);
        assert_int_equal(split.root.value, whole.root.value);
        assert_int_equal(split.root.remoteness, whole.root.remoteness);
        assert_true(split.has_summary);
        assert_int_equal(split.summary.positions, planned);
        assert_int_equal(planned + skipped, shared + more);
        skipped_any += skipped > 0;
        Store st;
        Error err = {0};
        if (store_open(g, dir, &st, &err) != ERR_OK) {
            fail_msg("%s: open %s: %s", cases[c][0], dir, err.msg);
        }
        for (Position p = 0; p < g->num_positions; p++) {
            uint32_t w = db_peek(&whole.db, p), raw;
            WinBy by;
            if (w != DB_UNREACHED && (store_get(&st, p, &raw, &by, &err) != ERR_OK || raw != w)) {
                fail_msg("%s position %" PRIu64 ": tier:sector %u, from %s by parts: %s",
                         cases[c][0], p, w, dir, err.msg);
            }
        }
        store_close(&st);
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        assert_int_equal(system(cmd), 0);
        snprintf(opts, sizeof opts, "sector=%d", g->tiers->count(g));
        SolveResult bad;
        assert_int_equal(test_run_tier(g, opts, 1, NULL, &bad, &err), ERR_USAGE);
        assert_non_null(strstr(err.msg, "tier:sector"));
        solve_result_free(&retro);
        solve_result_free(&whole);
        solve_result_free(&split);
        solve_result_free(&child);
        game_destroy(g);
    }
    assert_true(skipped_any > 0);
}

/* ------------------------------------------------ the Morris colour swap */

/* The record of position p in db, by its canonical position in g. */
static uint32_t record_of(const Game *g, const SolveResult *res, Position p) {
    return db_peek(&res->db, game_canonical(g, p));
}

/* The colour swap (`swap`, games/morris.c): a movement position and its
 * twin, colours and mover exchanged, have one value for the player to
 * move, so the swap variant keeps one of each pair. Checked against
 * solves that do not use it. Three men's morris (flying off and on, with
 * and without sym) by retro: every position the plain variant reaches has
 * the same record (value and remoteness) in the swap variant, and in the
 * plain solve each reached movement position's twin, written as text with
 * 'w' and 'b' exchanged, has the position's record. Six men's morris by
 * tier:sector: sector 4-3 with swap holds 4-3 and 3-4 (sym's 4-3 has
 * both movers, so the same counts), 3-3 half of sym's 3-3. */
static void morris_colour_swap_agrees(void **state) {
    (void)state;
    const char *specs[][2] = {{"morris:n=3", "morris:n=3,swap"},
                              {"morris:n=3,sym", "morris:n=3,sym,swap"},
                              {"morris:n=3,fly=1", "morris:n=3,fly=1,swap"}};
    for (size_t c = 0; c < sizeof specs / sizeof specs[0]; c++) {
        Game *g = test_game(specs[c][0]), *gs = test_game(specs[c][1]);
        SolveResult plain, swapped;
        test_solve("retro", g, &plain);
        test_solve("retro", gs, &swapped);
        assert_int_equal(plain.root.value, swapped.root.value);
        uint64_t twins = 0;
        for (Position p = 0; p < g->num_positions; p++) {
            uint32_t r = db_peek(&plain.db, p);
            if (r == DB_UNREACHED) {
                continue;
            }
            if (record_of(gs, &swapped, p) != r) {
                fail_msg("%s position %" PRIu64 ": %u, with swap %u", specs[c][0], p, r,
                         record_of(gs, &swapped, p));
            }
            char text[64];
            g->ops->format(g, p, text, sizeof text);
            size_t len = strlen(text);
            if (strcmp(text + len - 6, ":0:0:w") != 0 && strcmp(text + len - 6, ":0:0:b") != 0) {
                continue;
            }
            for (size_t i = 0; i < len - 6; i++) {
                text[i] = text[i] == 'w' ? 'b' : text[i] == 'b' ? 'w' : text[i];
            }
            text[len - 1] = text[len - 1] == 'w' ? 'b' : 'w';
            Position q;
            Error err = {0};
            assert_int_equal(g->ops->parse(g, text, &q, &err), ERR_OK);
            uint32_t rq = record_of(g, &plain, q);
            if (rq != DB_UNREACHED) {
                assert_int_equal(rq, r);
                twins++;
            }
        }
        assert_true(twins > 0);
        solve_result_free(&plain);
        solve_result_free(&swapped);
        game_destroy(g);
        game_destroy(gs);
    }
    Game *g = test_game("morris:n=6,sym"), *gs = test_game("morris:n=6,sym,swap");
    const char *sector[] = {"www-------bbb---:0:0:w", "wwww------bbb---:0:0:w"};
    const char *names[] = {"sector_positions", "sector_wins", "sector_losses", "sector_draws"};
    for (int k = 0; k < 2; k++) {
        SolveResult a, b;
        char opts[64];
        snprintf(opts, sizeof opts, "sector=%d", tier_of_text(g, sector[k]));
        sector_ok(g, opts, NULL, 2, &a);
        snprintf(opts, sizeof opts, "sector=%d", tier_of_text(gs, sector[k]));
        sector_ok(gs, opts, NULL, 2, &b);
        for (int i = 0; i < 4; i++) {
            double x = test_extra(&a, names[i]), y = test_extra(&b, names[i]);
            assert_true(x > 0 || i > 0);
            assert_true(k == 0 ? x == 2 * y : x == y);
        }
        solve_result_free(&a);
        solve_result_free(&b);
    }
    game_destroy(g);
    game_destroy(gs);
}

/* ------------------------------------- Morris symmetry classes by Burnside */

/* The boards of a Morris movement sector up to the board's 16 symmetries,
 * counted from the board's geometry alone (not games/morris.c's tables):
 * points 8r + k (ring r, k = 0..7 clockwise from the top-left corner), the
 * symmetries k -> k + 2j and k -> 2j - k (mod 8) times the ring exchange
 * r -> R - 1 - r. A symmetry fixes a board with w white and b black stones
 * iff each of its cycles is one colour or empty; Burnside's lemma: classes
 * = (1/16) sum over the symmetries of the boards each fixes. */
static uint64_t burnside_classes(int rings, int w, int b) {
    int npts = 8 * rings;
    uint64_t total = 0;
    for (int sw = 0; sw < 2; sw++) {
        for (int refl = 0; refl < 2; refl++) {
            for (int rot = 0; rot < 4; rot++) {
                int perm[24], seen[24] = {0};
                for (int r = 0; r < rings; r++) {
                    for (int k = 0; k < 8; k++) {
                        int kk = refl ? (2 * rot - k + 16) % 8 : (k + 2 * rot) % 8;
                        perm[8 * r + k] = 8 * (sw ? rings - 1 - r : r) + kk;
                    }
                }
                /* fix[i][j]: colourings of the cycles so far with i white
                 * and j black points, each cycle one colour or empty. */
                uint64_t fix[25][25] = {{0}};
                fix[0][0] = 1;
                for (int p = 0; p < npts; p++) {
                    if (seen[p]) {
                        continue;
                    }
                    int len = 0;
                    for (int q = p; !seen[q]; q = perm[q]) {
                        seen[q] = 1;
                        len++;
                    }
                    for (int i = w; i >= 0; i--) {
                        for (int j = b; j >= 0; j--) {
                            uint64_t add =
                                (i >= len ? fix[i - len][j] : 0) + (j >= len ? fix[i][j - len] : 0);
                            fix[i][j] += add;
                        }
                    }
                }
                total += fix[w][b];
            }
        }
    }
    assert_int_equal(total % 16, 0);
    return total / 16;
}

/* With sym, the tier solver indexes a Morris tier by classes of white sets
 * (games/morris.c, morris_index_of): a movement sector has 2 x classes(w)
 * x C(P - w, b) index slots, classes(w) being Burnside's count of the
 * white sets alone; every slot's position indexes back to the slot; and
 * the slots that tier:sector solves (legal and canonical) are one board
 * per class and mover: 2 x Burnside's count of the boards. Six men's morris
 * sectors 3-3 and 4-3; nine men's morris 3-3 (whose count 339,252 is also
 * the sector positions of the solved table in docs/loopy.md) only when
 * heavy tests run. */
static void morris_sym_classes_by_burnside(void **state) {
    (void)state;
    const struct {
        const char *spec, *text;
        int rings, w, b;
        bool heavy;
    } cases[] = {
        {"morris:n=6,sym", "www-------bbb---:0:0:w", 2, 3, 3, false},
        {"morris:n=6,sym", "wwww------bbb---:0:0:w", 2, 4, 3, false},
        {"morris:n=9,sym", "www---------bbb---------:0:0:w", 3, 3, 3, true},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        if (cases[c].heavy && !test_heavy_enabled()) {
            continue;
        }
        Game *g = test_game(cases[c].spec);
        int t = tier_of_text(g, cases[c].text), npts = 8 * cases[c].rings;
        uint64_t size = g->tiers->size(g, t), canonical = 0, free_sets = 1;
        for (int j = 0; j < cases[c].b; j++) { /* C(npts - w, b) */
            free_sets = free_sets * (uint64_t)(npts - cases[c].w - j) / (uint64_t)(j + 1);
        }
        assert_null(g->tiers->first);
        assert_int_equal(size, 2 * burnside_classes(cases[c].rings, cases[c].w, 0) * free_sets);
        for (uint64_t i = 0; i < size; i++) {
            Position p = g->tiers->position_at(g, t, i);
            assert_int_equal(g->tiers->tier_of(g, p), t);
            assert_int_equal(g->tiers->index_of(g, p), i);
            if ((g->tiers->legal == NULL || g->tiers->legal(g, t, p)) &&
                game_canonical(g, p) == p) {
                canonical++;
            }
        }
        uint64_t want = 2 * burnside_classes(cases[c].rings, cases[c].w, cases[c].b);
        if (canonical != want) {
            fail_msg("%s sector %d-%d: %" PRIu64 " canonical slots, Burnside %" PRIu64,
                     cases[c].spec, cases[c].w, cases[c].b, canonical, want);
        }
        game_destroy(g);
    }
}

/* ------------------------------- Morris hash and symmetry by a reference */

/* games/morris.c ranks, unranks and canonicalizes by its own tables (and the
 * processor's pext/pdep when it has them). Checked here against references
 * that share none of that code: the rank within a tier is the generic
 * hash's (hash/generic.h: the board's cells, 3 symbols, the mover) minus its
 * tuple's offset, and the canonical position is, of the 16 images of the
 * board under the symmetries as burnside_classes builds them (k -> k + 2j
 * and k -> 2j - k mod 8, rings exchanged or not), those with the smallest
 * white set (as a mask of points), the smallest position by the text
 * parser. The canonical position has an index slot in its tier (the index
 * by classes, with sym) that leads back to it. Random slots of every tier
 * of six and nine men's morris, with pext on and off
 * (GAMESMAN_MORRIS_NO_PEXT). */
static void morris_tables_match_references(void **state) {
    (void)state;
    const char *specs[] = {"morris:n=6", "morris:n=9"};
    for (int nopext = 0; nopext < 2; nopext++) {
        if (nopext) {
            setenv("GAMESMAN_MORRIS_NO_PEXT", "1", 1);
        }
        for (int sp = 0; sp < 2; sp++) {
            char symspec[32];
            snprintf(symspec, sizeof symspec, "%s,sym", specs[sp]);
            Game *g = test_game(specs[sp]), *gs = test_game(symspec);
            int rings = sp == 0 ? 2 : 3, npts = 8 * rings, n = sp == 0 ? 6 : 9;
            GenericHash h;
            Error err;
            const int min[3] = {0, 0, 0}, max[3] = {npts, n, n};
            assert_int_equal(generic_init(&h, npts, 3, min, max, 2, NULL, NULL, &err), ERR_OK);
            uint64_t x = 88172645463325252u; /* xorshift64 */
            int ntiers = g->tiers->count(g);
            assert_int_equal(gs->tiers->count(gs), ntiers);
            for (int it = 0; it < 20000; it++) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                int t = (int)(x % (uint64_t)ntiers);
                uint64_t size = g->tiers->size(g, t);
                uint64_t i = (x >> 20) % size;
                Position p = g->tiers->first(g, t) + i;
                if (g->tiers->legal != NULL && !g->tiers->legal(g, t, p)) {
                    continue; /* a placement slot with the wrong mover: no text */
                }
                char text[64], img[64];
                g->ops->format(g, p, text, sizeof text);
                Position back;
                assert_int_equal(g->ops->parse(g, text, &back, &err), ERR_OK);
                assert_true(back == p);
                assert_int_equal(gs->ops->parse(gs, text, &back, &err), ERR_OK);
                assert_true(back == p); /* sym changes the tiers' index, not the hash */
                uint8_t cells[24];
                int counts[3] = {0, 0, 0};
                for (int q = 0; q < npts; q++) {
                    cells[q] = text[q] == 'w' ? 1 : text[q] == 'b' ? 2 : 0;
                    counts[cells[q]]++;
                }
                int turn = text[strlen(text) - 1] == 'b';
                int32_t tuple = generic_tuple(&h, counts);
                assert_true(tuple >= 0);
                assert_true(generic_hash(&h, cells, turn) - h.offset[tuple] == i);
                Position best = UINT64_MAX;
                uint32_t best_white = UINT32_MAX;
                for (int sw = 0; sw < 2; sw++) {
                    for (int refl = 0; refl < 2; refl++) {
                        for (int rot = 0; rot < 4; rot++) {
                            strcpy(img, text);
                            uint32_t white = 0;
                            for (int r = 0; r < rings; r++) {
                                for (int k = 0; k < 8; k++) {
                                    int kk = refl ? (2 * rot - k + 16) % 8 : (k + 2 * rot) % 8;
                                    int to = 8 * (sw ? rings - 1 - r : r) + kk;
                                    img[to] = text[8 * r + k];
                                    white |= (uint32_t)(text[8 * r + k] == 'w') << to;
                                }
                            }
                            Position q;
                            assert_int_equal(g->ops->parse(g, img, &q, &err), ERR_OK);
                            if (white < best_white || (white == best_white && q < best)) {
                                best_white = white;
                                best = q;
                            }
                        }
                    }
                }
                Position c = game_canonical(gs, p);
                if (c != best) {
                    fail_msg("%s%s: %s: canonical %" PRIu64 ", reference %" PRIu64, symspec,
                             nopext ? " (no pext)" : "", text, c, best);
                }
                uint64_t ci = gs->tiers->index_of(gs, c);
                assert_true(ci < gs->tiers->size(gs, t));
                assert_true(gs->tiers->position_at(gs, t, ci) == c);
            }
            generic_destroy(&h);
            game_destroy(g);
            game_destroy(gs);
        }
    }
    unsetenv("GAMESMAN_MORRIS_NO_PEXT");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dodgem_first_player_wins),
        cmocka_unit_test(dodgem_4x4_is_a_draw),
        cmocka_unit_test(ponghauki_is_a_draw),
        cmocka_unit_test(mutorere_gamescrafters_counts),
        cmocka_unit_test(mutorere_86_states_up_to_symmetry),
        cmocka_unit_test(retro_counters),
        cmocka_unit_test(loopy_graph_by_hand),
        cmocka_unit_test(loopy_graph_by_tiers),
        cmocka_unit_test(winby_graph_by_hand),
        cmocka_unit_test(primitive_root),
        cmocka_unit_test(remoteness_overflow_is_an_error),
        cmocka_unit_test(sector_mode_matches_retro),
        cmocka_unit_test(morris_colour_swap_agrees),
        cmocka_unit_test(morris_sym_classes_by_burnside),
        cmocka_unit_test(morris_tables_match_references),
    };
    return cmocka_run_group_tests_name("loopy games and retrograde solvers", tests, NULL, NULL);
}
