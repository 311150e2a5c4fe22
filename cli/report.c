/* cli/report.c: bin/solve's report (cli/cli.h) of a solve or of a
 * database read from disk: as text, or as one JSON object on one line
 * (docs/cli.md, "JSON fields"), the query's object inside it. O(max
 * remoteness) lines with --analyze, one line per move with --query.
 */
#include <inttypes.h>
#include <stdio.h>

#include "cli/cli.h"
#include "core/mem.h"
#include "core/stats.h"

/* "win in 3", or the value alone for a draw and when no remoteness is known. */
static void describe_outcome(Outcome o, bool no_remoteness, char *buf, size_t n) {
    if (o.value == VALUE_DRAW || no_remoteness) {
        snprintf(buf, n, "%s", value_name(o.value));
    } else {
        snprintf(buf, n, "%s in %" PRIu32, value_name(o.value), o.remoteness);
    }
}

void report_text(const Game *g, const char *solver, const SolveResult *res, const DbSummary *sum,
                 const Query *q) {
    char spec[GAME_VARIANT_MAX + 64], buf[64], peak[32], rss[32];
    game_spec(g, spec, sizeof spec);
    describe_outcome(res->root, res->no_remoteness, buf, sizeof buf);
    printf("game        %s (%s)\n", spec, g->module->title);
    printf("solver      %s\n", solver);
    printf("value       %s", buf);
    if (res->has_winby) {
        printf(", winby %" PRId32 " (the first player's margin)", res->root_winby);
    }
    printf("\n");
    if (sum != NULL) {
        printf("positions   %" PRIu64 " reached: %" PRIu64 " win, %" PRIu64 " lose, %" PRIu64
               " tie, %" PRIu64 " draw\n",
               sum->positions, sum->count[VALUE_WIN], sum->count[VALUE_LOSE], sum->count[VALUE_TIE],
               sum->count[VALUE_DRAW]);
    }
    printf("counters   ");
    for (int i = 0; i < COUNTER_COUNT; i++) {
        printf(" %s=%" PRIu64, counter_names[i], counters_get(&res->counters, i));
    }
    printf("%s\n", STATS_ENABLED ? "" : " (counting compiled out: STATS=0)");
    printf("time        %.6f s wall, %d thread%s\n", res->wall_seconds, res->threads,
           res->threads == 1 ? "" : "s");
    printf("memory      peak %s (%s), peak RSS %s\n",
           mem_format(res->peak_bytes, peak, sizeof peak),
           mem_have_jemalloc() ? "jemalloc" : "no jemalloc in this build",
           mem_format(res->peak_rss_bytes, rss, sizeof rss));
    for (int i = 0; i < res->nextra; i++) {
        printf("%-11s %.6g\n", res->extra[i].name, res->extra[i].value);
    }
    if (res->has_checksum) {
        printf("checksum    %016" PRIx64 " (of the database)\n", res->checksum);
    }
    if (sum != NULL && sum->by_remoteness != NULL && !res->no_remoteness) {
        printf("\nremoteness        win       lose        tie       draw\n");
        for (uint32_t r = 0; r <= sum->max_remoteness; r++) {
            const uint64_t *c = sum->by_remoteness[r];
            printf("%10" PRIu32 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 "\n", r,
                   c[VALUE_WIN], c[VALUE_LOSE], c[VALUE_TIE], c[VALUE_DRAW]);
        }
    }
    if (sum != NULL && sum->by_tier != NULL) {
        printf("\n      tier        positions              win             lose              tie"
               "             draw\n");
        for (int t = 0; t < sum->ntiers; t++) {
            const uint64_t *c = sum->by_tier[t];
            printf("%10d %16" PRIu64 " %16" PRIu64 " %16" PRIu64 " %16" PRIu64 " %16" PRIu64 "\n",
                   t, c[VALUE_WIN] + c[VALUE_LOSE] + c[VALUE_TIE] + c[VALUE_DRAW], c[VALUE_WIN],
                   c[VALUE_LOSE], c[VALUE_TIE], c[VALUE_DRAW]);
        }
    }
    if (q != NULL) {
        char board[GAME_TEXT_MAX];
        Position pos;
        g->ops->parse(g, q->text, &pos, NULL);
        game_print(g, pos, board, sizeof board);
        describe_outcome(q->outcome, q->no_remoteness, buf, sizeof buf);
        printf("\nposition    %s\n%s", q->text, board);
        printf("value       %s for the player to move", buf);
        if (res->has_winby) {
            printf(", winby %" PRId32, q->winby);
        }
        printf("\n");
        if (q->value_only) {
            printf("moves       not searched (search: the position's value only)\n");
        } else if (q->nmoves > 0) {
            printf("moves       (value for the player making the move)\n");
        }
        for (int i = 0; i < q->nmoves; i++) {
            const MoveResult *m = &q->moves[i];
            describe_outcome((Outcome){m->value, m->remoteness}, q->no_remoteness, buf, sizeof buf);
            printf("  %-8s %-14s -> %s", m->name, buf, m->text);
            if (res->has_winby) {
                printf("  winby %" PRId32, m->winby);
            }
            printf("\n");
        }
        if (q->pick >= 0) {
            printf("pick        %s (rule %s)\n", q->moves[q->pick].name, query_pick_names[q->rule]);
        }
    }
}

/* One element of by_remoteness or by_tier: {key: k, "win": .., "lose": ..,
 * "tie": .., "draw": ..}. */
static void counts_json(JsonWriter *w, const char *key, uint64_t k, const uint64_t *c) {
    json_object_begin(w, NULL);
    json_uint(w, key, k);
    json_uint(w, "win", c[VALUE_WIN]);
    json_uint(w, "lose", c[VALUE_LOSE]);
    json_uint(w, "tie", c[VALUE_TIE]);
    json_uint(w, "draw", c[VALUE_DRAW]);
    json_object_end(w);
}

void report_json(const Game *g, const char *solver, const char *source, const SolveResult *res,
                 const DbSummary *sum, const Query *q) {
    JsonWriter w;
    json_init(&w, stdout, false);
    json_object_begin(&w, NULL);
    json_string(&w, "game", g->module->name);
    json_string(&w, "variant", g->variant);
    json_string(&w, "solver", solver);
    json_string(&w, "source", source);
    json_string(&w, "value", value_name(res->root.value));
    if (!res->no_remoteness) {
        json_uint(&w, "remoteness", res->root.remoteness);
    }
    if (res->has_winby) {
        json_int(&w, "winby", res->root_winby);
    }
    static const char *const keys[] = {"wins", "losses", "ties", "draws"};
    static const Value vals[] = {VALUE_WIN, VALUE_LOSE, VALUE_TIE, VALUE_DRAW};
    if (sum != NULL) {
        json_uint(&w, "positions", sum->positions);
    } else {
        json_null(&w, "positions");
    }
    for (int i = 0; i < 4; i++) {
        if (sum != NULL) {
            json_uint(&w, keys[i], sum->count[vals[i]]);
        } else {
            json_null(&w, keys[i]);
        }
    }
    json_uint(&w, "hash_space", g->num_positions);
    json_object_begin(&w, "counters");
    for (int i = 0; i < COUNTER_COUNT; i++) {
        json_uint(&w, counter_names[i], counters_get(&res->counters, i));
    }
    json_object_end(&w);
    json_bool(&w, "counting", STATS_ENABLED);
    json_double(&w, "wall_seconds", res->wall_seconds);
    json_uint(&w, "peak_bytes", res->peak_bytes);
    json_uint(&w, "peak_rss_bytes", res->peak_rss_bytes);
    json_string(&w, "allocator", mem_allocator());
    json_int(&w, "threads", res->threads);
    json_object_begin(&w, "solver_stats");
    for (int i = 0; i < res->nextra; i++) {
        json_double(&w, res->extra[i].name, res->extra[i].value);
    }
    json_object_end(&w);
    if (res->has_checksum) {
        char hex[24];
        snprintf(hex, sizeof hex, "%016" PRIx64, res->checksum);
        json_string(&w, "db_checksum", hex);
    }
    if (sum != NULL && sum->by_remoteness != NULL && !res->no_remoteness) {
        json_array_begin(&w, "by_remoteness");
        for (uint32_t r = 0; r <= sum->max_remoteness; r++) {
            counts_json(&w, "remoteness", r, sum->by_remoteness[r]);
        }
        json_array_end(&w);
    }
    if (sum != NULL && sum->by_tier != NULL) {
        json_array_begin(&w, "by_tier");
        for (int t = 0; t < sum->ntiers; t++) {
            counts_json(&w, "tier", (uint64_t)t, sum->by_tier[t]);
        }
        json_array_end(&w);
    }
    if (q != NULL) {
        query_json(&w, "query", g, q, NULL);
    }
    json_object_end(&w);
}
