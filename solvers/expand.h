/* solvers/expand.h: one position's expansion, the one copy every solver
 * that expands positions by the batch uses (the tier solver's walks, its
 * loopy passes, and store_verify).
 *
 * solver_expand gives a position's primitive value (and, in a game with
 * WinBy scores, its score) or its canonical children in generate_moves
 * order (and the player to move): exactly what the tier fast path
 * (TierOps.expand_run) reports for it, so the two are interchangeable. It
 * goes through the GPS-cached or GPS family f when f is not NULL (the
 * state st loaded once, children by do!/undo!, gps_child), otherwise
 * through the stateless family; every call is one of games/game.h's
 * counted wrappers, so whoever expands is counted the same way (a verify as
 * a solve). static inline: it is the hot path of the tier walks, where an
 * outlined call per position would cost (STYLE.md 3). O(moves).
 */
#ifndef SOLVERS_EXPAND_H
#define SOLVERS_EXPAND_H

#include "games/game.h"

static inline __attribute__((always_inline)) void
solver_expand(const Game *g, const GpsOps *f, GpsState *st, Position p, TierExpansion *e) {
    Move moves[GAME_MAX_MOVES];
    bool winby = g->has_winby;
    e->n = 0;
    e->turn = 0;
    e->winby = 0;
    if (f != NULL) {
        f->set(st, p);
        e->primitive = gps_primitive(f, st);
        if (e->primitive != VALUE_UNDECIDED) {
            e->winby = winby ? f->winby(st) : 0;
            return;
        }
        e->turn = winby ? f->turn(st) : 0;
        int n = gps_generate_moves(f, st, moves);
        for (int i = 0; i < n; i++) {
            e->child[i] = gps_child(g, f, st, moves[i]);
        }
        e->n = n;
        return;
    }
    e->primitive = game_primitive(g, p);
    if (e->primitive != VALUE_UNDECIDED) {
        e->winby = winby ? g->ops->winby(g, p) : 0;
        return;
    }
    e->turn = winby ? g->ops->turn(g, p) : 0;
    int n = game_generate_moves(g, p, moves);
    for (int i = 0; i < n; i++) {
        e->child[i] = game_canonical(g, game_do_move(g, p, moves[i]));
    }
    e->n = n;
}

#endif /* SOLVERS_EXPAND_H */
