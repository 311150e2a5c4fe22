/* cli/cli.h: the private interface of bin/solve's units (not a library
 * header: only the cli units include it).
 *
 *   cli/solve.c   the command line: options, the solve or the database on
 *                 disk, --list, --sample, exit codes
 *   cli/query.c   --query: a position and its moves looked up in a
 *                 database (in memory or on disk), ordered best first, the
 *                 move a rule picks, as JSON; --query -, one JSON line per
 *                 line of standard input
 *   cli/report.c  the report of a solve or of a database read, as text or
 *                 as one JSON object (docs/cli.md lists its fields)
 */
#ifndef CLI_CLI_H
#define CLI_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "core/db.h"
#include "core/error.h"
#include "core/json.h"
#include "games/game.h"
#include "solvers/solver.h"
#include "solvers/store.h"

/* How the picked move of a query is chosen. */
typedef enum PickRule {
    PICK_REMOTENESS, /* the best by value, then remoteness (the first of the sorted moves) */
    PICK_WINBY,      /* the best margin for the mover; ties by remoteness order */
    PICK_FALSE_HOPE, /* among winning moves, the smallest margin; no win: as PICK_WINBY */
} PickRule;

/* "remoteness", "winby", "false-hope", indexed by PickRule. */
extern const char *const query_pick_names[];

/* Parses --pick's value; ERR_USAGE naming the rules otherwise. */
ErrCode query_parse_pick(const char *text, PickRule *rule, Error *err);

typedef struct MoveResult {
    char name[32];
    char text[256];
    Value value;         /* for the player making the move */
    uint32_t remoteness; /* moves to the end when this move is played, counting it */
    WinBy winby;
    int order; /* its place in generate_moves' order: the last tie-break */
} MoveResult;

typedef struct Query {
    char text[256];
    Outcome outcome;
    WinBy winby;
    int nmoves;
    MoveResult moves[GAME_MAX_MOVES]; /* best first by value and remoteness */
    PickRule rule;
    int pick;           /* index in moves of the picked move; -1 when there is none */
    bool no_remoteness; /* the source holds no remoteness: none printed or compared */
    bool value_only;    /* the position's value by a search from it: no moves */
} Query;

/* Where queries are answered from: the solve's database in memory, or a
 * database on disk. */
typedef struct Source {
    const SolveResult *res; /* res->db, when store is NULL; res->no_remoteness */
    Store *store;
    StoreReader *reader; /* the caller's reader of store (NULL: the store's own) */
} Source;

/* Answers --query TEXT from src: the position's outcome and, unless it is
 * primitive, every move's, sorted best first (value_move_order, then the
 * game's move order), and the move `rule` picks. ERR_USAGE for a malformed
 * or unreached position; ERR_IO when a database on disk lacks a child. */
ErrCode query_run(const Game *g, const Source *src, const char *text, PickRule rule, Query *q,
                  Error *err);

/* Writes q as a JSON object under key (NULL: a value of its own, one line),
 * with "source" when source is not NULL. */
void query_json(JsonWriter *w, const char *key, const Game *g, const Query *q, const char *source);

/* --query -: one position per line of standard input, one JSON object per
 * line out (or {"position":..., "error":..., "code":...} for a line that
 * cannot be answered: a malformed position, a line holding a NUL byte).
 * Returns ERR_OK, or the code of the last failed line; stops at the first
 * ERR_IO, ERR_MEMORY or ERR_INTERNAL (the database is at fault), which it
 * also prints on standard error. The lines waiting (up to 4096) are
 * answered at once by `threads` workers (a database on disk shared by
 * them, store_share: its open files once, a block cache each; one worker
 * for a symbolic one) and printed in their order; a batch is answered as
 * soon as no more input is waiting, so a client that writes a line and
 * waits for its answer gets it. */
ErrCode query_stream(const Game *g, const Source *src, PickRule rule, const char *source,
                     int threads);

/* The report as text: the game, solver, value, counts (sum, NULL: none),
 * counters, time, memory, the solver's figures, by remoteness (with
 * sum->by_remoteness) and the query q (NULL: none). */
void report_text(const Game *g, const char *solver, const SolveResult *res, const DbSummary *sum,
                 const Query *q);

/* The same as one JSON object on one line; source is "solve" or "disk". */
void report_json(const Game *g, const char *solver, const char *source, const SolveResult *res,
                 const DbSummary *sum, const Query *q);

/* --compare: the two databases (a: --db, b: --compare) and what
 * store_compare found, as text or as one JSON object (docs/cli.md). */
typedef struct CompareReport {
    const Store *st[2];
    const StoreCompare *cmp;
    int threads;
    double wall_seconds;
    uint64_t peak_rss_bytes;
} CompareReport;

void report_compare_text(const Game *g, const CompareReport *r);
void report_compare_json(const Game *g, const CompareReport *r);

#endif /* CLI_CLI_H */
