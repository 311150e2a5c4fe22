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
#include <errno.h>
#include <omp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

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
        ErrCode rc = store_read(src->store, src->reader != NULL ? src->reader : &src->store->rd,
                                key, &raw, winby, err);
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

/* ------------------------------------------------------- --query - */

/* Lines of standard input read by read(2), so that a batch is answered as
 * soon as no more input is waiting (poll): a client that writes a line
 * and waits for its answer gets it. */
typedef struct LineReader {
    char *buf;
    size_t len, cap, pos;
    bool eof;
} LineReader;

/* The next line, its end of line dropped, NUL-terminated in place (*n
 * its length, NUL bytes within it counted), or NULL: at the end of the
 * input, or, when `wait` is false, when no whole line is buffered or
 * waiting to be read. */
static char *next_line(LineReader *r, bool wait, size_t *n) {
    for (;;) {
        char *nl = r->pos < r->len ? memchr(r->buf + r->pos, '\n', r->len - r->pos) : NULL;
        if (nl != NULL || (r->eof && r->pos < r->len)) {
            char *line = r->buf + r->pos;
            size_t end = nl != NULL ? (size_t)(nl - r->buf) : r->len; /* cap > len: room */
            r->buf[end] = '\0';
            *n = end - r->pos;
            r->pos = nl != NULL ? end + 1 : r->len;
            return line;
        }
        if (r->eof) {
            return NULL;
        }
        if (!wait) {
            struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
            if (poll(&p, 1, 0) <= 0) {
                return NULL;
            }
        }
        if (r->pos > 0) {
            memmove(r->buf, r->buf + r->pos, r->len - r->pos);
            r->len -= r->pos;
            r->pos = 0;
        }
        if (r->len + 1 >= r->cap) {
            size_t cap = r->cap > 0 ? 2 * r->cap : (size_t)1 << 16;
            char *b = realloc(r->buf, cap);
            if (b == NULL) {
                r->eof = true; /* the lines read so far are answered */
                continue;
            }
            r->buf = b;
            r->cap = cap;
        }
        ssize_t got = read(STDIN_FILENO, r->buf + r->len, r->cap - r->len - 1);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        r->eof = got <= 0;
        r->len += got > 0 ? (size_t)got : 0;
    }
}

/* Lines answered at once (their answers printed in their order). */
#define QUERY_BATCH 4096

typedef struct Slot {
    char *text; /* the line, NUL-terminated (may hold NUL bytes: n) */
    size_t n, cap;
    int worker;
    long start, end; /* its answer in its worker's stream */
    ErrCode rc;
    Error err;
} Slot;

/* Answers one line into w's stream. */
static void answer(const Game *g, const Source *src, PickRule rule, const char *source, Query *q,
                   Slot *s, FILE *out) {
    Error *err = &s->err;
    *err = (Error){0};
    JsonWriter w;
    json_init(&w, out, false);
    /* A NUL would end the text the game parses, and the rest of the
     * line would be dropped unseen: the line is malformed. */
    const char *nul = memchr(s->text, '\0', s->n);
    s->start = ftell(out);
    s->rc = nul != NULL ? error_set(err, ERR_USAGE,
                                    "a query line holds a NUL byte (byte %td of the "
                                    "line); positions are text",
                                    nul - s->text + 1)
                        : query_run(g, src, s->text, rule, q, err);
    if (s->rc == ERR_OK) {
        query_json(&w, NULL, g, q, source); /* one line: the writer ends it */
    } else {
        json_object_begin(&w, NULL);
        json_string_n(&w, "position", s->text, s->n);
        json_string(&w, "error", err->msg);
        json_int(&w, "code", s->rc);
        json_object_end(&w);
    }
    fflush(out);
    s->end = ftell(out);
}

static bool fatal(ErrCode rc) { return rc == ERR_IO || rc == ERR_MEMORY || rc == ERR_INTERNAL; }

ErrCode query_stream(const Game *g, const Source *src, PickRule rule, const char *source,
                     int threads) {
    threads = threads < 1 ? 1 : threads > QUERY_BATCH ? QUERY_BATCH : threads;
    /* A database on disk shared by the workers (its files opened once),
     * each with a reader of its own; one worker when it cannot be. */
    if (threads > 1 && src->store != NULL && !store_share(src->store)) {
        threads = 1;
    }
    Source *srcs = calloc((size_t)threads, sizeof *srcs);
    StoreReader *readers = calloc((size_t)threads, sizeof *readers);
    Query *qs = calloc((size_t)threads, sizeof *qs);
    Slot *slots = calloc(QUERY_BATCH, sizeof *slots);
    char **mem = calloc((size_t)threads, sizeof *mem);
    size_t *mem_bytes = calloc((size_t)threads, sizeof *mem_bytes);
    ErrCode last = ERR_OK;
    if (srcs == NULL || readers == NULL || qs == NULL || slots == NULL || mem == NULL ||
        mem_bytes == NULL) {
        fprintf(stderr, "solve: cannot allocate the query buffers\n");
        last = ERR_MEMORY;
    }
    int made = 0;
    for (int t = 0; t < threads && last == ERR_OK; t++) {
        srcs[t] = *src;
        if (t > 0 && src->store != NULL) {
            Error err = {0};
            last = store_reader_init(&readers[t], &err);
            if (last != ERR_OK) {
                fprintf(stderr, "solve: %s\n", err.msg);
                break;
            }
            made = t;
            srcs[t].reader = &readers[t];
        }
    }
    LineReader r = {0};
    bool stop = last != ERR_OK;
    while (!stop) {
        int n = 0;
        size_t len;
        for (char *line; n < QUERY_BATCH && (line = next_line(&r, n == 0, &len)) != NULL;) {
            while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) {
                line[--len] = '\0';
            }
            if (len == 0) {
                continue;
            }
            Slot *s = &slots[n];
            if (len + 1 > s->cap) {
                char *t = realloc(s->text, len + 1);
                if (t == NULL) {
                    fprintf(stderr, "solve: cannot allocate a query line\n");
                    last = ERR_MEMORY;
                    break;
                }
                s->text = t;
                s->cap = len + 1;
            }
            memcpy(s->text, line, len + 1);
            s->n = len;
            n++;
        }
        if (n == 0 || last == ERR_MEMORY) {
            break;
        }
        /* Every line of the batch answered (those after a fatal one are
         * not printed: the answers stop there, as one at a time). */
#pragma omp parallel num_threads(threads) if (threads > 1 && n > 1)
        {
            int t = omp_get_thread_num(), nt = omp_get_num_threads();
            FILE *out = open_memstream(&mem[t], &mem_bytes[t]);
            for (int i = t; i < n; i += nt) {
                slots[i].worker = t;
                if (out != NULL) {
                    answer(g, &srcs[t], rule, source, &qs[t], &slots[i], out);
                } else {
                    slots[i].rc = error_set(&slots[i].err, ERR_MEMORY,
                                            "cannot allocate the answer to a query");
                    slots[i].start = slots[i].end = 0;
                }
            }
            if (out != NULL) {
                fclose(out);
            }
        }
        for (int i = 0; i < n && !stop; i++) {
            const Slot *s = &slots[i];
            if (s->end > s->start) {
                fwrite(mem[s->worker] + s->start, 1, (size_t)(s->end - s->start), stdout);
            }
            if (s->rc != ERR_OK) {
                last = s->rc;
            }
            if (fatal(s->rc)) {
                fprintf(stderr, "solve: %s\n", s->err.msg);
                stop = true; /* the database itself is at fault */
            }
        }
        fflush(stdout);
        for (int t = 0; t < threads; t++) {
            free(mem[t]);
            mem[t] = NULL;
        }
    }
    for (int t = 1; t <= made; t++) {
        store_reader_free(&readers[t]);
    }
    for (int i = 0; slots != NULL && i < QUERY_BATCH; i++) {
        free(slots[i].text);
    }
    free(r.buf);
    free(srcs);
    free(readers);
    free(qs);
    free(slots);
    free(mem);
    free(mem_bytes);
    return last;
}
