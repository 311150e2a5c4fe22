/* cli/report.c: bin/solve's report (cli/cli.h) of a solve or of a
 * database read from disk: as text, or as one JSON object on one line
 * (docs/cli.md, "JSON fields"), the query's object inside it. O(max
 * remoteness) lines with --analyze, one line per move with --query.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

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

/* ------------------------------------------------------------- compare */

/* A record of database st as text: "win in 3", "draw", "not stored";
 * with the score when the game has them. */
static void describe_record(const Game *g, const Store *st, bool values_only, uint32_t raw, WinBy w,
                            char *buf, size_t n) {
    if (raw == DB_UNREACHED) {
        snprintf(buf, n, "not stored");
        return;
    }
    Outcome o = {db_raw_value(&st->fmt, raw), db_raw_remoteness(&st->fmt, raw)};
    describe_outcome(o, values_only, buf, n);
    if (g->has_winby) {
        size_t used = strlen(buf);
        snprintf(buf + used, n - used, ", winby %" PRId32, w);
    }
}

void report_compare_text(const Game *g, const CompareReport *r) {
    char spec[GAME_VARIANT_MAX + 64], rss[32];
    game_spec(g, spec, sizeof spec);
    const StoreCompare *c = r->cmp;
    printf("game        %s (%s)\n", spec, g->module->title);
    for (int k = 0; k < 2; k++) {
        const Store *st = r->st[k];
        printf("%s           %s (solver %s, layout %s%s)\n", k == 0 ? "a" : "b", st->dir.path,
               st->m.solver, st->m.layout, c->partial[k] ? ", partial" : "");
    }
    printf("compared    %" PRIu64 " positions stored in a or b: %" PRIu64 " in both, %" PRIu64
           " in a only, %" PRIu64 " in b only%s\n",
           c->compared, c->both, c->only[0], c->only[1],
           c->values_only ? " (values only: one holds no remoteness)" : "");
    for (int k = 0; k < 2; k++) {
        if (c->beyond[k] > 0) {
            printf("beyond      %" PRIu64 " in %s only, not differences (a partial database holds "
                   "every legal position of its tiers, the other the reachable ones)\n",
                   c->beyond[k], k == 0 ? "a" : "b");
        }
    }
    printf("differ      %" PRIu64 "%s\n", c->differ,
           c->differ == 0 ? " (equal position by position)" : "");
    for (int i = 0; i < c->shown; i++) {
        char text[GAME_TEXT_MAX], da[64], db[64];
        g->ops->format(g, c->diff[i].pos, text, sizeof text);
        describe_record(g, r->st[0], c->values_only, c->diff[i].raw[0], c->diff[i].winby[0], da,
                        sizeof da);
        describe_record(g, r->st[1], c->values_only, c->diff[i].raw[1], c->diff[i].winby[1], db,
                        sizeof db);
        printf("  %s  a: %s  b: %s\n", text, da, db);
    }
    if ((uint64_t)c->shown < c->differ) {
        printf("  ... %" PRIu64 " more (the first %d shown)", c->differ - (uint64_t)c->shown,
               c->shown);
        if (c->unnamed > 0) {
            printf("; %" PRIu64 " at positions with no slot in the tiers layout (not named)",
                   c->unnamed);
        }
        printf("\n");
    }
    printf("time        %.6f s wall, %d thread%s, %" PRIu64 " blocks read\n", r->wall_seconds,
           r->threads, r->threads == 1 ? "" : "s", c->blocks_read);
    printf("memory      peak RSS %s\n", mem_format(r->peak_rss_bytes, rss, sizeof rss));
}

/* A record as {"value": .., "remoteness": .., "winby": ..}, null when not stored. */
static void record_json(JsonWriter *w, const char *key, const Game *g, const Store *st,
                        bool values_only, uint32_t raw, WinBy winby) {
    if (raw == DB_UNREACHED) {
        json_null(w, key);
        return;
    }
    json_object_begin(w, key);
    json_string(w, "value", value_name(db_raw_value(&st->fmt, raw)));
    if (!values_only) {
        json_uint(w, "remoteness", db_raw_remoteness(&st->fmt, raw));
    }
    if (g->has_winby) {
        json_int(w, "winby", winby);
    }
    json_object_end(w);
}

void report_compare_json(const Game *g, const CompareReport *r) {
    const StoreCompare *c = r->cmp;
    JsonWriter w;
    json_init(&w, stdout, false);
    json_object_begin(&w, NULL);
    json_string(&w, "game", g->module->name);
    json_string(&w, "variant", g->variant);
    json_string(&w, "source", "compare");
    for (int k = 0; k < 2; k++) {
        json_object_begin(&w, k == 0 ? "a" : "b");
        json_string(&w, "db", r->st[k]->dir.path);
        json_string(&w, "solver", r->st[k]->m.solver);
        json_string(&w, "layout", r->st[k]->m.layout);
        json_uint(&w, "positions", r->st[k]->m.positions);
        json_bool(&w, "partial", c->partial[k]);
        json_object_end(&w);
    }
    json_uint(&w, "compared", c->compared);
    json_uint(&w, "in_both", c->both);
    json_uint(&w, "a_only", c->only[0]);
    json_uint(&w, "b_only", c->only[1]);
    json_uint(&w, "a_beyond", c->beyond[0]);
    json_uint(&w, "b_beyond", c->beyond[1]);
    json_uint(&w, "differ", c->differ);
    json_uint(&w, "unnamed", c->unnamed);
    json_bool(&w, "values_only", c->values_only);
    json_array_begin(&w, "differences");
    for (int i = 0; i < c->shown; i++) {
        char text[GAME_TEXT_MAX];
        g->ops->format(g, c->diff[i].pos, text, sizeof text);
        json_object_begin(&w, NULL);
        json_string(&w, "position", text);
        json_uint(&w, "hash", c->diff[i].pos);
        for (int k = 0; k < 2; k++) {
            record_json(&w, k == 0 ? "a" : "b", g, r->st[k], c->values_only, c->diff[i].raw[k],
                        c->diff[i].winby[k]);
        }
        json_object_end(&w);
    }
    json_array_end(&w);
    json_uint(&w, "blocks_read", c->blocks_read);
    json_uint(&w, "threads", (uint64_t)r->threads);
    json_double(&w, "wall_seconds", r->wall_seconds);
    json_uint(&w, "peak_rss_bytes", r->peak_rss_bytes);
    json_object_end(&w);
}
