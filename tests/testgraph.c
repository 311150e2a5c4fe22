/* tests/testgraph.c: see testgraph.h. */
#include "tests/testgraph.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/testutil.h"

static const TestGraph *graph_of(const Game *g) { return g->self; }

static Value graph_primitive(const Game *g, Position pos) { return graph_of(g)->prim[pos]; }

static int graph_generate_moves(const Game *g, Position pos, Move *moves) {
    const TestGraph *gr = graph_of(g);
    int n = gr->first[pos + 1] - gr->first[pos];
    for (int k = 0; k < n; k++) {
        moves[k] = k;
    }
    return n;
}

static Position graph_do_move(const Game *g, Position pos, Move move) {
    const TestGraph *gr = graph_of(g);
    return (Position)gr->kids[gr->first[pos] + move];
}

static int graph_turn(const Game *g, Position pos) { return graph_of(g)->turn[pos]; }

static WinBy graph_winby(const Game *g, Position pos) { return graph_of(g)->score[pos]; }

static int graph_generate_parents(const Game *g, Position pos, Position *parents) {
    const TestGraph *gr = graph_of(g);
    int n = 0;
    for (int k = gr->pfirst[pos]; k < gr->pfirst[pos + 1]; k++) {
        parents[n++] = (Position)gr->pars[k];
    }
    return n;
}

static void graph_format(const Game *g, Position pos, char *buf, size_t n) {
    (void)g;
    snprintf(buf, n, "node %" PRIu64, pos);
}

static ErrCode graph_parse(const Game *g, const char *text, Position *pos, Error *err) {
    (void)g;
    (void)text;
    (void)pos;
    return error_set(err, ERR_USAGE, "a test graph has no position text");
}

static const GameOps graph_ops = {
    .primitive = graph_primitive,
    .generate_moves = graph_generate_moves,
    .do_move = graph_do_move,
    .turn = graph_turn,
    .winby = graph_winby,
    .generate_parents = graph_generate_parents,
    .format = graph_format,
    .parse = graph_parse,
};

static const GameModule graph_module = {.name = "graph", .title = "Test graph"};

TestGraph *test_graph_new(int n, const int *edges, int nedges) {
    TestGraph *gr = calloc(1, sizeof *gr);
    assert_non_null(gr);
    gr->n = n;
    gr->first = calloc((size_t)n + 1, sizeof *gr->first);
    gr->kids = calloc((size_t)nedges + 1, sizeof *gr->kids);
    gr->pfirst = calloc((size_t)n + 1, sizeof *gr->pfirst);
    gr->pars = calloc((size_t)nedges + 1, sizeof *gr->pars);
    gr->prim = calloc((size_t)n, sizeof *gr->prim);
    gr->turn = calloc((size_t)n, sizeof *gr->turn);
    gr->score = calloc((size_t)n, sizeof *gr->score);
    int *fill = calloc((size_t)n + 1, sizeof *fill);
    assert_true(gr->first && gr->kids && gr->pfirst && gr->pars && gr->prim && gr->turn &&
                gr->score && fill);
    /* Edges by their node, in the order given (a counting sort). */
    for (int e = 0; e < nedges; e++) {
        gr->first[edges[2 * e] + 1]++;
    }
    for (int i = 0; i < n; i++) {
        gr->max_moves = gr->first[i + 1] > gr->max_moves ? gr->first[i + 1] : gr->max_moves;
        gr->first[i + 1] += gr->first[i];
    }
    for (int e = 0; e < nedges; e++) {
        int from = edges[2 * e];
        gr->kids[gr->first[from] + fill[from]++] = edges[2 * e + 1];
    }
    /* Parents: edges counted by their target, then filled node by node in
     * increasing order, so a node's parents come sorted and a repeated one
     * is the last one written. */
    for (int e = 0; e < nedges; e++) {
        gr->pfirst[edges[2 * e + 1] + 1]++;
    }
    for (int c = 0; c < n; c++) {
        gr->pfirst[c + 1] += gr->pfirst[c];
        fill[c] = 0;
    }
    for (int p = 0; p < n; p++) {
        for (int k = gr->first[p]; k < gr->first[p + 1]; k++) {
            int c = gr->kids[k];
            if (fill[c] == 0 || gr->pars[gr->pfirst[c] + fill[c] - 1] != p) {
                gr->pars[gr->pfirst[c] + fill[c]++] = p;
            }
        }
    }
    /* Close the gaps the repeated edges left. */
    int np = 0;
    for (int c = 0; c < n; c++) {
        int start = gr->pfirst[c];
        gr->pfirst[c] = np;
        for (int k = 0; k < fill[c]; k++) {
            gr->pars[np++] = gr->pars[start + k];
        }
        gr->max_parents = fill[c] > gr->max_parents ? fill[c] : gr->max_parents;
    }
    gr->pfirst[n] = np;
    if (gr->max_parents == 0) {
        gr->max_parents = 1;
    }
    free(fill);
    return gr;
}

void test_graph_free(TestGraph *gr) {
    free(gr->first);
    free(gr->kids);
    free(gr->pfirst);
    free(gr->pars);
    free(gr->prim);
    free(gr->turn);
    free(gr->score);
    free(gr);
}

Game test_graph_game(TestGraph *gr, Position root, bool loopy, bool winby) {
    return (Game){
        .module = &graph_module,
        .self = gr,
        .ops = &graph_ops,
        .num_positions = (uint64_t)gr->n,
        .initial = root,
        .max_moves = gr->max_moves,
        .max_parents = gr->max_parents,
        .max_depth = loopy ? 0 : (uint32_t)gr->n,
        .loopy = loopy,
        .has_winby = winby,
    };
}
