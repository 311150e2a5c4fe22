/* tests/testgraph.h: games given by an explicit graph, for the solver tests
 * that need positions no registered game reaches (test_loopy's hand-worked
 * graphs, test_sweep's random loopy graphs, test_tier's layered WinBy game).
 *
 * Position i is node i. The moves of node i are 0..k-1, one per edge from i
 * in the order the edges were given (two edges may reach the same node).
 * The parents of a node (generate_parents) are the distinct nodes with an
 * edge to it, in increasing order, reachable from the root or not. Every
 * node is an inner node until the caller sets prim[]; turn[] and score[]
 * serve WinBy graphs. Building is O(n + edges).
 */
#ifndef TESTS_TESTGRAPH_H
#define TESTS_TESTGRAPH_H

#include <stdbool.h>

#include "games/game.h"

typedef struct TestGraph {
    int n;
    int *first, *kids;  /* edges of i: kids[first[i] .. first[i + 1]) */
    int *pfirst, *pars; /* distinct parents of i: pars[pfirst[i] .. pfirst[i + 1]) */
    Value *prim;        /* the value of a primitive node, VALUE_UNDECIDED otherwise */
    int *turn;          /* WinBy graphs: the player to move */
    WinBy *score;       /* WinBy graphs: the score of a primitive node */
    int max_moves, max_parents;
} TestGraph;

/* A graph of n nodes from edges[2 * nedges] (from, to); fails the test when
 * out of memory. Free with test_graph_free(). */
TestGraph *test_graph_new(int n, const int *edges, int nedges);
void test_graph_free(TestGraph *gr);

/* The game of gr (which must outlive it), starting at `root`: stateless
 * family with parents, turn and winby; loopy games have max_depth 0, others
 * n (the caller may set a tighter one, or add tiers). */
Game test_graph_game(TestGraph *gr, Position root, bool loopy, bool winby);

#endif /* TESTS_TESTGRAPH_H */
