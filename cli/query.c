/* cli/query.c: bin/solve --query (cli/cli.h): a position and every move
 * from it, looked up in the solve's database in memory or in a database on
 * disk (solvers/store.h), sorted best first for the mover (core/value.h,
 * value_move_order), and the move a perfect player picks by one of three
 * rules: the usual remoteness order (win soonest, lose latest), the WinBy
 * document's GetWinByMove (the best margin for the mover: player one
 * maximizes the score, player two minimizes it), or its "false hope"
 * future goal (among the winning moves, the one that wins by the least).
 * A query costs one look-up per move plus the game's moves; --query -
 * repeats it per line of standard input, one JSON object per line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cli/cli.h"

const char *const query_pick_names[] = {"remoteness", "winby", "false-hope"};

ErrCode query_parse_pick(const char *text, PickRule *rule, Error *err) {
    for (int i = 0; i < 3; i++) { /* the PickRule values */
        if (strcmp(text, query_pick_names[i]) == 0) {
            *rule = (PickRule)i;
            return ERR_OK;
        }
    }
    return error_set(err, ERR_USAGE, "--pick takes remoteness, winby or false-hope, not '%s'",
                     text);
}

/* Looks up a position's outcome; ERR_USAGE if the solve never reached it. */
static ErrCode lookup(const Game *g, const Source *src, Position pos, Outcome *out, WinBy *winby,
                      Error *err) {
    Position key = game_canonical(g, pos);
    const Database *fmt = src->store != NULL ? &src->store->fmt : &src->res->db;
    uint32_t raw;
    if (src->store != NULL) {
        ErrCode rc = store_get(src->store, key, &raw, winby, err);
        if (rc != ERR_OK) {
            return rc;
        }
    } else {
        raw = db_peek(fmt, key);
        *winby = fmt->winby != NULL ? fmt->winby[key] : 0;
    }
    if (!db_raw_solved(fmt, raw)) {
        char text[256];
        g->ops->format(g, pos, text, sizeof text);
        return error_set(err, ERR_USAGE,
                         "position '%s' is not reachable from the initial position of this "
                         "variant",
                         text);
    }
    out->value = db_raw_value(fmt, raw);
    out->remoteness = db_raw_remoteness(fmt, raw);
    return ERR_OK;
}

/* Best first (value_move_order: wins quickest, ties quickest, draws,
 * losses slowest), then in generate_moves' order. */
static int compare_moves(const void *pa, const void *pb) {
    const MoveResult *a = pa, *b = pb;
    int c = value_move_order(a->value, a->remoteness, b->value, b->remoteness);
    return c != 0 ? c : a->order - b->order;
}

/* The index of the move the rule picks from q->moves (sorted best first),
 * -1 if there are no moves. `turn` is the mover (0: player one). A move's
 * margin for the mover is its WinBy score from the mover's side. */
static int pick_move(const Query *q, PickRule rule, int turn) {
    if (q->nmoves == 0) {
        return -1;
    }
    if (rule == PICK_REMOTENESS) {
        return 0;
    }
    int best = -1, hope = -1;
    WinBy best_margin = 0, hope_margin = 0;
    for (int i = 0; i < q->nmoves; i++) {
        const MoveResult *m = &q->moves[i];
        WinBy margin = turn == 0 ? m->winby : -m->winby;
        /* Strict comparisons keep the first (by remoteness) among equals. */
        if (best < 0 || margin > best_margin) {
            best = i;
            best_margin = margin;
        }
        if (m->value == VALUE_WIN && (hope < 0 || margin < hope_margin)) {
            hope = i;
            hope_margin = margin;
        }
    }
    return rule == PICK_FALSE_HOPE && hope >= 0 ? hope : best;
}

ErrCode query_run(const Game *g, const Source *src, const char *text, PickRule rule, Query *q,
                  Error *err) {
    if (src->store == NULL && !src->res->has_db) {
        return error_set(err, ERR_USAGE,
                         "--query needs a solver that keeps a database, and this solve kept "
                         "none (a root-only solver such as minimax, or a database too large "
                         "for the memory budget)");
    }
    Position pos;
    ErrCode rc = g->ops->parse(g, text, &pos, err);
    if (rc != ERR_OK) {
        return rc;
    }
    g->ops->format(g, pos, q->text, sizeof q->text);
    rc = lookup(g, src, pos, &q->outcome, &q->winby, err);
    if (rc != ERR_OK) {
        return rc;
    }
    q->nmoves = 0;
    q->rule = rule;
    q->pick = -1;
    q->no_remoteness =
        src->res->no_remoteness || (src->store != NULL && !store_has_remoteness(src->store));
    if (g->ops->primitive(g, pos) != VALUE_UNDECIDED) {
        return ERR_OK;
    }
    Move moves[GAME_MAX_MOVES];
    int n = g->ops->generate_moves(g, pos, moves);
    for (int i = 0; i < n; i++) {
        MoveResult *m = &q->moves[q->nmoves++];
        m->order = i;
        Position child = g->ops->do_move(g, pos, moves[i]);
        game_move_name(g, pos, moves[i], m->name, sizeof m->name);
        g->ops->format(g, child, m->text, sizeof m->text);
        Outcome c;
        rc = lookup(g, src, child, &c, &m->winby, err);
        if (rc == ERR_USAGE && src->store != NULL) {
            return error_set(err, ERR_IO,
                             "%s: a child of a reached position has no record; the database is "
                             "damaged (solve --db %s --verify finds where)",
                             src->store->dir.path, src->store->dir.path);
        }
        if (rc != ERR_OK) {
            return rc == ERR_USAGE ? error_set(err, ERR_INTERNAL,
                                               "a child of a reached position was not solved")
                                   : rc;
        }
        m->value = value_for_mover(c.value);
        /* Counted from the queried position: this move plus the child's. */
        m->remoteness = c.value == VALUE_DRAW || q->no_remoteness ? 0 : c.remoteness + 1;
    }
    qsort(q->moves, (size_t)q->nmoves, sizeof q->moves[0], compare_moves);
    q->pick = pick_move(q, rule, g->has_winby ? g->ops->turn(g, pos) : 0);
    return ERR_OK;
}

/* A query's moves, best first, and the move it picks. */
static void json_moves(JsonWriter *w, const Game *g, const Query *q) {
    json_array_begin(w, "moves");
    for (int i = 0; i < q->nmoves; i++) {
        const MoveResult *m = &q->moves[i];
        json_object_begin(w, NULL);
        json_string(w, "move", m->name);
        json_string(w, "position", m->text);
        json_string(w, "value", value_name(m->value));
        if (!q->no_remoteness) {
            json_uint(w, "remoteness", m->remoteness);
        }
        if (g->has_winby) {
            json_int(w, "winby", m->winby);
        }
        json_object_end(w);
    }
    json_array_end(w);
    json_object_begin(w, "pick");
    json_string(w, "rule", query_pick_names[q->rule]);
    if (q->pick >= 0) {
        json_string(w, "move", q->moves[q->pick].name);
    } else {
        json_null(w, "move");
    }
    json_object_end(w);
}

/* The query object (inside the report, or one line of --query -). */
void query_json(JsonWriter *w, const char *key, const Game *g, const Query *q, const char *source) {
    json_object_begin(w, key);
    json_string(w, "position", q->text);
    json_string(w, "value", value_name(q->outcome.value));
    if (!q->no_remoteness) {
        json_uint(w, "remoteness", q->outcome.remoteness);
    }
    if (g->has_winby) {
        json_int(w, "winby", q->winby);
    }
    if (!q->value_only) { /* search --query P: no moves, no pick */
        json_moves(w, g, q);
    }
    if (source != NULL) {
        json_string(w, "source", source);
    }
    json_object_end(w);
}

ErrCode query_stream(const Game *g, const Source *src, PickRule rule, const char *source) {
    static Query q;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    ErrCode last = ERR_OK;
    while ((n = getline(&line, &cap, stdin)) >= 0) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) {
            line[--n] = '\0';
        }
        if (n == 0) {
            continue;
        }
        Error err = {0};
        JsonWriter w;
        json_init(&w, stdout, false);
        /* A NUL would end the text the game parses, and the rest of the
         * line would be dropped unseen: the line is malformed. */
        const char *nul = memchr(line, '\0', (size_t)n);
        ErrCode rc = nul != NULL ? error_set(&err, ERR_USAGE,
                                             "a query line holds a NUL byte (byte %td of the "
                                             "line); positions are text",
                                             nul - line + 1)
                                 : query_run(g, src, line, rule, &q, &err);
        if (rc == ERR_OK) {
            query_json(&w, NULL, g, &q, source); /* one line: the writer ends it */
        } else {
            json_object_begin(&w, NULL);
            json_string_n(&w, "position", line, (size_t)n);
            json_string(&w, "error", err.msg);
            json_int(&w, "code", rc);
            json_object_end(&w);
            last = rc;
            if (rc == ERR_IO || rc == ERR_MEMORY || rc == ERR_INTERNAL) {
                fprintf(stderr, "solve: %s\n", err.msg);
                break; /* the database itself is at fault: stop */
            }
        }
    }
    free(line);
    return last;
}
