/* cli/tier_plan.c: bin/tier-plan, the plan of a distributed tier solve,
 * computed without solving (docs/scaling.md).
 *
 *   tier-plan GAME --ranks N [--threads T] [--positions P] [--cost S]
 *             [--bandwidth B] [--latency S] [--imbalance F]
 *             [--imbalance-sliced F] [--setup S] [--startup S] [--part N]
 *             [--fs-bandwidth B] [--read-latency S]
 *             [--profile FILE [--profile-game GAME]] [--tiers]
 *   tier-plan GAME --list
 *   tier-plan GAME --tier NAME
 *
 * --list prints the game's tiers, one line each in number order (the
 * layout, not the solve order), after a header line starting with '#':
 * number, name (TierOps.name, games/game.h: one word; the number when the
 * game names none), slots, loopy (yes/no), the tier's file in a --db
 * directory (tier-NNNN.gmdb: files are named by number) and its child
 * tiers' names, comma-separated ("-": none). Whitespace separates the
 * columns, so scripts read it with awk (scripts/morris/ select sectors by
 * name this way instead of re-deriving games/morris.c's numbering).
 * --tier NAME prints the line of the tier named NAME (or numbered NAME),
 * without the header; a name the game does not have is refused (exit 2).
 * Neither takes the plan's options.
 *
 * From the game's tier layout alone (sizes and child tiers: no position is
 * expanded) it prints what bin/solve-mpi on N ranks of T threads would hold,
 * write and exchange, and a predicted wall time:
 *
 *   memory per rank   every tier's reachability bitmap (one bit per slot)
 *                     plus the peak of the tier records in use (a tier and
 *                     its children, one record of `width` bytes per slot),
 *                     as the solver's window mode replays it: with `tier`
 *                     every rank holds whole tiers (the records are shared
 *                     by an allgather); with `tier:sliced` the larger of
 *                     the forward pass (every bitmap, whole) and the
 *                     backward pass: 1/N of the bitmaps (the rest is
 *                     dropped) and of the tiers in use, plus, while a tier
 *                     is solved, the look-up bitmaps of its child tiers
 *                     (16 bytes per 64 slots) and the child records
 *                     fetched from other ranks.
 *                     tier:blocks (one process, a tier-major game without
 *                     WinBy): the whole bitmaps of the child tiers its
 *                     forward pass marks (the others on disk), a part's
 *                     bitmap slice, 3 parts of --part records,
 *                     the threads' block caches and the child parts' block
 *                     indexes (solvers/tier/graph.h).
 *                     With N > 1, also the memory of a design NOT BUILT
 *                     (docs/scaling.md, 7x6): the forward pass on slices
 *                     (1/N of every bitmap, cut by slots; the children a
 *                     rank marks sent to their owners, 8-byte indexes in
 *                     rounds of at most PLAN_MARK_ROUND bytes) and look-ups
 *                     by index lists (8 bytes + a record per child fetched,
 *                     min(R_child, m R / N) (N-1)/N at most) instead of
 *                     whole-tier request bitmaps.
 *   disk per rank     with --work-dir: the rank's slices (1/N of every
 *                     tier's records), its copy of the bitmaps, headers.
 *   network           per rank and per tier, the ring volumes core/dist.c
 *                     counts: the OR of a tier's bitmap (2 b (N-1)/N) and
 *                     the allgather of its records (r (N-1)/N received).
 *                     tier:sliced: the OR, then per child tier the request
 *                     bitmaps (b_child (N-1)/N) and the answers: a rank's
 *                     positions reach at most min(R_child, m R / N) child
 *                     positions (m moves per position at most), (N-1)/N of
 *                     them elsewhere, one record each (an upper bound).
 *   wall time         per tier: positions * cost / (N T) (the compute,
 *                     split evenly), plus bytes / bandwidth and one latency
 *                     per collective (a few per tier). tier:sliced walks a
 *                     tier's range twice in the backward pass (once to mark
 *                     the child records to fetch), PLAN_SLICED_WALKS
 *                     walks in all instead of 2. With N > 1 the compute is
 *                     multiplied by --imbalance F (F >= 1: the slowest rank
 *                     against the even split, each tier waiting for it;
 *                     --imbalance-sliced for tier:sliced), and --setup S
 *                     adds S seconds per slot for the work outside the
 *                     walks (allocating and touching the tiers, the
 *                     summary). The solver's own wall_seconds is predicted
 *                     by these; --startup S adds the seconds mpirun takes
 *                     to start and end N ranks (the `mpirun` line). The
 *                     defaults leave F = 1, S = 0: scripts/measure/mpi-model.sh
 *                     calibrates all of them on boards other than those it
 *                     checks (docs/scaling.md, "The model").
 *
 * Positions (--positions, the reachable positions of the whole game) are
 * spread over the tiers in proportion to their slots; without it the slots
 * are used (an upper bound). --cost is seconds per reachable position per
 * thread for both passes (default: measured on connect4:w=6,h=4, see
 * docs/scaling.md); --bandwidth bytes per second per rank (default 1.25e9,
 * 10 Gbit/s Ethernet); --latency seconds per collective (default 50e-6).
 * --tiers adds the per-tier table (number, name) with each rank's slice
 * (by slots: the solver re-cuts by reachable positions once a tier's
 * bitmap is known).
 * Reachable positions per tier: --profile FILE gives them measured, one
 * line "TIER POSITIONS" a tier (plan_reach, read_profile), of the game
 * itself or of another board, --profile-game GAME, whose reachable
 * fraction per tier is carried to the game's tiers by relative depth;
 * with --positions they are scaled to that total. Every mode uses them.
 * tier:blocks (a tier-major game without WinBy or loopy tiers) is planned last, by the
 * model of solvers/tier/plan.h: with one rank the mode built (its memory
 * is tier:estimate's), with N > 1 A DESIGN, NOT BUILT (parts of at most
 * --part records, default 2^25, dealt round-robin; the forward pass's
 * marks sent to their owners; the child file blocks read from a shared
 * file system): parts, memory per rank, the database with remoteness, disk
 * per rank and on the shared file system, exchange and time per rank, from
 * per-thread costs measured on 5x7. --fs-bandwidth bounds the shared file
 * system's bytes a second, all ranks together (default: only --bandwidth
 * per rank); --read-latency adds seconds per child file block read over the
 * network, per thread (default 0: reads overlapped).
 * Options follow bin/solve's rules: each value option once, every number
 * finite and in its range (plan_options), a plan that could not be
 * written to standard output an error (exit 5).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/db.h"
#include "core/dbranks.h"
#include "core/dbstore.h"
#include "core/mem.h"
#include "core/options.h"
#include "games/game.h"
#include "solvers/tier/graph.h"
#include "solvers/tier/plan.h"

/* The default cost per position per thread (both passes), measured by
 * scripts/measure/mpi-bench.sh on connect4:w=6,h=4, 1 rank x 2 threads
 * (docs/scaling.md: 3.381 s computing x 2 / 94,910,577 positions). */
#define PLAN_COST_DEFAULT 7.125e-8

/* tier:sliced's walks over a range (forward, mark, solve) against 2 (forward,
 * solve): 3/2 of the compute, if the three cost the same. */
#define PLAN_SLICED_WALKS 1.5

/* The design of a forward pass on slices (not built: docs/scaling.md): a
 * rank sends the children it marks to their owners in rounds of at most
 * this many bytes of 8-byte indexes. */
#define PLAN_MARK_ROUND 1073741824.0

/* The most parts tier:blocks' models walk (--part against the slots): 7x6
 * at the default part is some 2.1 million. */
#define PLAN_PARTS_MAX 1e8

typedef struct Plan {
    int ranks, threads;
    double positions; /* 0: the slots */
    double cost, bandwidth, latency;
    double branching;                   /* child look-ups per position, for the sliced design */
    double imbalance, imbalance_sliced; /* N > 1: slowest rank / even split */
    double setup;                       /* seconds per slot outside the walks */
    double startup;                     /* mpirun's start and end, seconds */
    double part;                        /* tier:blocks: records a part at most */
    double fs_bandwidth;                /* the shared file system's bytes a second */
    double read_latency;                /* seconds a child file block read from it */
    const char *profile;                /* --profile FILE: measured positions per tier */
    const char *profile_game;           /* --profile-game GAME: the board FILE counts */
    bool tiers;
} Plan;

static int usage(const char *msg) {
    fprintf(stderr, "tier-plan: %s\n", msg);
    fprintf(stderr, "usage: tier-plan GAME --ranks N [--threads T] [--positions P] [--cost S] "
                    "[--bandwidth B] [--latency S] [--imbalance F] [--imbalance-sliced F] "
                    "[--setup S] [--startup S] [--part N] [--fs-bandwidth B] [--read-latency S] "
                    "[--profile FILE [--profile-game GAME]] [--tiers]; tier-plan GAME --list; "
                    "tier-plan GAME --tier NAME\n");
    return ERR_USAGE;
}

/* The options that take a number: each may be given once (as bin/solve's),
 * a finite value in (0, max] (--ranks, --threads: whole, in [1, max]), so
 * that no figure of the plan overflows to "inf s" or a clamped size.
 * --positions is bounded by the game's hash space too (main). The maxima
 * are far past any machine: a second of compute per position, 10 s per
 * collective, 1 PB/s. */
typedef struct PlanOption {
    const char *name;
    const char *unit; /* what the number is, for messages */
    double max;
    bool whole;
} PlanOption;

static const PlanOption plan_options[] = {
    {"--ranks", "ranks", 1 << 20, true},
    {"--threads", "threads per rank", 1 << 20, true},
    {"--positions", "reachable positions", 9.2e18, false},
    {"--cost", "seconds per position per thread", 1, false},
    {"--bandwidth", "bytes per second per rank", 1e15, false},
    {"--latency", "seconds per collective", 10, false},
    {"--imbalance", "times the even split", 1000, false},
    {"--imbalance-sliced", "times the even split", 1000, false},
    {"--setup", "seconds per slot", 1, false},
    {"--startup", "seconds", 86400, false},
    {"--part", "records a part", 1099511627776.0, true},
    {"--fs-bandwidth", "bytes per second of the shared file system", 1e18, false},
    {"--read-latency", "seconds per file block read", 10, false},
};
#define PLAN_NOPTIONS (int)(sizeof plan_options / sizeof plan_options[0])
#define PLAN_POSITIONS 2 /* the index of --positions in plan_options */

/* Where option k's value goes (in the order of plan_options). */
static double *plan_slot(Plan *p, int k, double *ranks, double *threads) {
    double *slots[PLAN_NOPTIONS] = {
        ranks,       threads,          &p->positions,        &p->cost,  &p->bandwidth,
        &p->latency, &p->imbalance,    &p->imbalance_sliced, &p->setup, &p->startup,
        &p->part,    &p->fs_bandwidth, &p->read_latency};
    return slots[k];
}

/* Parses option k's value into *out; on failure prints one line. */
static bool parse_value(int k, const char *text, double *out) {
    const PlanOption *o = &plan_options[k];
    char *end = NULL;
    double v = strtod(text, &end);
    bool ok = end != text && *end == '\0' && isfinite(v) && v > 0 && v <= o->max &&
              (!o->whole || (v >= 1 && v == floor(v)));
    if (!ok) {
        char quoted[128];
        fprintf(stderr, "tier-plan: %s takes %s, %s %.10g, not '%s'\n", o->name, o->unit,
                o->whole ? "a whole number from 1 to" : "a number above 0 and at most", o->max,
                text_escape(text, quoted, sizeof quoted));
        return false;
    }
    *out = v;
    return true;
}

static const char *fmt(double bytes, char *buf, size_t n) {
    return mem_format(bytes >= 1.8e19 ? UINT64_MAX : (uint64_t)bytes, buf, n);
}

/* One line of --list: number, name, slots, loopy, file, children. */
static void list_tier(const Game *g, const TierGraph *gr, int t) {
    const TierNode *node = &gr->node[t];
    char name[GAME_TIER_NAME_MAX], file[64];
    dbranks_tier_name(t, file, sizeof file);
    printf("%6d %-14s %14" PRIu64 " %-5s %-14s ", t, game_tier_name(g, t, name, sizeof name),
           node->size, node->loopy ? "yes" : "no", file);
    for (int k = 0; k < node->nchildren; k++) {
        printf("%s%s", k > 0 ? "," : "", game_tier_name(g, node->children[k], name, sizeof name));
    }
    printf("%s\n", node->nchildren == 0 ? "-" : "");
}

/* --list (tier NULL) or --tier NAME. */
/* The solver's own tier graph of g (solvers/tier/graph.h), or the
 * error said on stderr. */
static ErrCode graph_or_say(const Game *g, TierGraph *gr) {
    Error err = {0};
    ErrCode grc = tier_graph_build(g, gr, &err);
    if (grc != ERR_OK) {
        fprintf(stderr, "tier-plan: %s\n", err.msg);
        tier_graph_free(gr);
    }
    return grc;
}

static int list_game(const Game *g, const char *tier) {
    int one = tier != NULL ? game_tier_find(g, tier) : -1;
    if (tier != NULL && one < 0) {
        char spec[GAME_VARIANT_MAX + 64], quoted[128];
        game_spec(g, spec, sizeof spec);
        fprintf(stderr,
                "tier-plan: game '%s' has no tier '%s' (by name or number; tier-plan %s "
                "--list lists them)\n",
                spec, text_escape(tier, quoted, sizeof quoted), spec);
        return ERR_USAGE;
    }
    TierGraph gr;
    ErrCode grc = graph_or_say(g, &gr);
    if (grc != ERR_OK) {
        return grc;
    }
    if (tier != NULL) {
        list_tier(g, &gr, one);
    } else {
        printf("#%5s %-14s %14s %-5s %-14s %s\n", "tier", "name", "slots", "loopy", "file",
               "children");
        for (int t = 0; t < gr.ntiers; t++) {
            list_tier(g, &gr, t);
        }
    }
    tier_graph_free(&gr);
    return 0;
}

/* --profile FILE: the reachable positions of each tier of the profile's
 * board pg (the game planned, or --profile-game's), one line "TIER
 * POSITIONS" a tier, tiers 0, 1, ... in order, each tier once, blank lines
 * and lines starting with '#' skipped; POSITIONS a whole number at most
 * the tier's slots. Into count[ntiers]; false with one line said. */
static bool read_profile(const char *path, const TierGraph *pg, double *count) {
    char quoted[128];
    text_escape(path, quoted, sizeof quoted);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "tier-plan: --profile '%s': %s\n", quoted, strerror(errno));
        return false;
    }
    char line[256];
    int next = 0, lineno = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f) != NULL) {
        lineno++;
        char *q = line;
        while (*q == ' ' || *q == '\t') {
            q++;
        }
        if (*q == '#' || *q == '\n' || *q == '\0') {
            continue;
        }
        char *end = NULL;
        errno = 0;
        unsigned long long tier = strtoull(q, &end, 10);
        bool good = *q != '-' && end != q && errno == 0 && (*end == ' ' || *end == '\t');
        unsigned long long pos = 0;
        if (good) {
            q = end;
            pos = strtoull(q, &end, 10);
            good = end != q && errno == 0 && q[strspn(q, " \t")] != '-';
            while (good && (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')) {
                end++;
            }
            good = good && *end == '\0';
        }
        if (!good) {
            fprintf(
                stderr,
                "tier-plan: --profile '%s' line %d: not \"TIER POSITIONS\" (two whole numbers)\n",
                quoted, lineno);
            ok = false;
        } else if (next >= pg->ntiers || tier != (unsigned long long)next) {
            fprintf(stderr,
                    "tier-plan: --profile '%s' line %d: tier %llu where tier %d%s is due (every "
                    "tier of its board from 0, in order, once)\n",
                    quoted, lineno, tier, next, next >= pg->ntiers ? " (past the last)" : "");
            ok = false;
        } else if (pos > pg->node[next].size) {
            fprintf(
                stderr,
                "tier-plan: --profile '%s' line %d: %llu positions in tier %d, which has %" PRIu64
                " slots\n",
                quoted, lineno, pos, next, pg->node[next].size);
            ok = false;
        } else {
            count[next++] = (double)pos;
        }
    }
    if (ok && ferror(f)) {
        fprintf(stderr, "tier-plan: --profile '%s': cannot read it\n", quoted);
        ok = false;
    }
    fclose(f);
    if (ok && next != pg->ntiers) {
        fprintf(stderr, "tier-plan: --profile '%s' gives %d tiers; its board has %d\n", quoted,
                next, pg->ntiers);
        ok = false;
    }
    return ok;
}

/* Every tier's reachable positions, into reach[ntiers]. Without --profile,
 * --positions spread in proportion to the slots (none: the slots). With a
 * profile of the game itself (the same tiers), its counts; of another
 * board, each tier's slots times the profile's reachable fraction at the
 * same relative depth (tier t of n at t / (n - 1) of the profile's tiers,
 * linearly between its two nearest): meant for a chain of tiers such as
 * Connect Four's plies. Either scaled to --positions when given. False
 * with one line said. */
static bool plan_reach(const Plan *p, const Game *g, const TierGraph *gr, double slots,
                       double *reach) {
    int n = gr->ntiers;
    if (p->profile == NULL) {
        for (int t = 0; t < n; t++) {
            double size = (double)gr->node[t].size;
            reach[t] = p->positions > 0 ? p->positions * size / slots : size;
        }
        return true;
    }
    Error err = {0};
    Game *pgame = NULL;
    if (p->profile_game != NULL && game_create(p->profile_game, &pgame, &err) != ERR_OK) {
        fprintf(stderr, "tier-plan: --profile-game: %s\n", err.msg);
        return false;
    }
    const Game *pg = pgame != NULL ? pgame : g;
    if (pg->tiers == NULL) {
        fprintf(stderr, "tier-plan: --profile-game '%s' declares no tiers\n", pg->module->name);
        game_destroy(pgame);
        return false;
    }
    TierGraph pgr = {0};
    bool ok = graph_or_say(pg, &pgr) == ERR_OK;
    double *count = ok ? calloc((size_t)pgr.ntiers, sizeof *count) : NULL;
    ok = ok && count != NULL && read_profile(p->profile, &pgr, count);
    bool same = ok && pgr.ntiers == n;
    for (int t = 0; same && t < n; t++) {
        same = pgr.node[t].size == gr->node[t].size;
    }
    double sum = 0;
    for (int t = 0; ok && t < n; t++) {
        if (same) {
            reach[t] = count[t];
        } else {
            double x = n > 1 ? (double)t / (n - 1) * (pgr.ntiers - 1) : 0;
            int i = (int)floor(x);
            int j = i + 1 < pgr.ntiers ? i + 1 : i;
            double fi = pgr.node[i].size > 0 ? count[i] / (double)pgr.node[i].size : 0;
            double fj = pgr.node[j].size > 0 ? count[j] / (double)pgr.node[j].size : 0;
            reach[t] = (fi + (x - i) * (fj - fi)) * (double)gr->node[t].size;
        }
        sum += reach[t];
    }
    if (ok && sum <= 0) {
        fprintf(stderr, "tier-plan: --profile '%s' gives no reachable position\n", p->profile);
        ok = false;
    }
    for (int t = 0; ok && p->positions > 0 && t < n; t++) {
        reach[t] *= p->positions / sum;
    }
    free(count);
    if (pgr.node != NULL || pgr.order != NULL) {
        tier_graph_free(&pgr);
    }
    game_destroy(pgame);
    return ok;
}

/* tier:blocks over N ranks, the design of solvers/tier/plan.h. */
static int plan_blocks(const Game *g, const Plan *p, const TierGraph *gr, unsigned width,
                       const double *reach) {
    TierPlanCosts c;
    tier_plan_costs_measured(&c);
    TierPlanMachine m = {.ranks = p->ranks,
                         .threads = p->threads,
                         .part = (uint64_t)p->part,
                         .moves = g->max_moves,
                         .bandwidth = p->bandwidth,
                         .fs_bandwidth = p->fs_bandwidth,
                         .latency = p->latency,
                         .read_latency = p->read_latency,
                         .imbalance = p->imbalance};
    TierPlanBlocks b;
    Error err = {0};
    ErrCode rc = tier_plan_blocks(gr, width, reach, &c, &m, &b, &err);
    if (rc != ERR_OK) {
        fprintf(stderr, "tier-plan: %s\n", err.msg);
        return rc;
    }
    char a[32], d[32], e[32], f[32], h[32], i[32], j[32], k[32], l[32];
    const TierBlocksMemory *o = &b.one;
    bool many = p->ranks > 1;
    if (many) {
        printf("\ntier:blocks over %d ranks x %d threads (A DESIGN, NOT BUILT; docs/scaling.md: "
               "parts dealt round-robin, the marks sent to their owners, the child file blocks "
               "read from a shared file system)\n",
               p->ranks, p->threads);
    } else {
        printf("\ntier:blocks, one process x %d threads (the mode built; time by the model "
               "measured on 5x7, docs/scaling.md)\n",
               p->threads);
    }
    printf("  parts       %" PRIu64 " of at most %" PRIu64 " records; rank 0 holds %" PRIu64
           " (the most); the fullest rank's slots, over the tiers: %.0f\n",
           b.nparts, m.part, b.rank0_parts, b.share_slots);
    printf("  memory      per rank %s (%.0f bytes): shares of the bitmaps marked %s + marks in "
           "flight %s + the one-process rest %s (bitmap slices %s, 3 parts %s, caches %s, child "
           "block indexes %s, the rest %s)\n",
           fmt(b.memory, a, sizeof a), b.memory, fmt(b.bitmaps, d, sizeof d),
           fmt(b.marks, e, sizeof e), fmt((double)(o->total - o->bitmaps), f, sizeof f),
           fmt((double)o->slices, h, sizeof h), fmt((double)o->parts, i, sizeof i),
           fmt((double)o->caches, j, sizeof j), fmt((double)o->indexes, k, sizeof k),
           fmt((double)o->rest, l, sizeof l));
    printf("  database    %s with remoteness (%.0f bytes: %.4g a reachable position, %.4g an "
           "unreachable slot)\n",
           fmt(b.database, a, sizeof a), b.database, c.bytes_position, c.bytes_slot);
    if (many) {
        printf("  disk        per rank %s (its bitmap files, local); shared file system %s (the "
               "database)\n",
               fmt(b.disk_rank, a, sizeof a), fmt(b.database, d, sizeof d));
        printf("  exchange    per rank %s of marks sent (forward, at most) and %s of child file "
               "blocks read (backward); %.4g child file blocks read in all\n",
               fmt(b.fwd_bytes, a, sizeof a), fmt(b.bwd_bytes, d, sizeof d), b.reads);
    } else {
        printf("  disk        peak %s (the bitmap files %s, then the parts as the bitmaps go)\n",
               fmt(b.disk_peak, a, sizeof a), fmt(b.bitmap_files, d, sizeof d));
        printf("  exchange    none; %.4g child file blocks read from the local disk\n", b.reads);
    }
    double fwd = b.fwd_compute + b.fwd_wire, bwd = b.bwd_compute + b.bwd_wire;
    printf("  time        %.4g s per rank: forward %.4g s (compute %.4g + exchange %.4g), "
           "backward %.4g s (compute %.4g + exchange %.4g)%s\n",
           fwd + bwd, fwd, b.fwd_compute, b.fwd_wire, bwd, b.bwd_compute, b.bwd_wire,
           many && p->imbalance != 1 ? " (compute x --imbalance)" : "");
    return 0;
}

static int plan_game(const Game *g, const Plan *p) {
    /* The solver's own tier graph: sizes, children, the solve order and
     * the window's peak (solvers/tier/graph.h). */
    TierGraph gr;
    ErrCode grc = graph_or_say(g, &gr);
    if (grc != ERR_OK) {
        return grc;
    }
    int n = gr.ntiers;
    double slots = 0;
    for (int t = 0; t < n; t++) {
        slots += (double)gr.node[t].size;
    }
    if (gr.tier_major && !g->has_winby && slots / p->part > PLAN_PARTS_MAX) {
        /* tier:blocks' models walk every part */
        fprintf(stderr,
                "tier-plan: --part %.0f cuts the game's %.0f slots into more than %.0f parts; "
                "give a larger --part\n",
                p->part, slots, PLAN_PARTS_MAX);
        tier_graph_free(&gr);
        return ERR_USAGE;
    }
    unsigned width = db_width_for(g->max_depth);
    double per_slot = width + (g->has_winby ? 2.0 : 0.0);
    double N = p->ranks, T = p->threads;
    double *reach = malloc((size_t)n * sizeof *reach);
    if (reach == NULL || !plan_reach(p, g, &gr, slots, reach)) {
        if (reach == NULL) {
            fprintf(stderr, "tier-plan: out of memory\n");
        }
        free(reach);
        tier_graph_free(&gr);
        return reach == NULL ? ERR_MEMORY : ERR_USAGE;
    }
    double positions = 0;
    for (int t = 0; t < n; t++) {
        positions += reach[t];
    }
    double share = (N - 1) / N;
    double window = (double)tier_graph_window_peak(&gr, width, g->has_winby);
    double bitmaps = 0, records = 0, net = 0, compute = 0, comm = 0;
    double snet = 0, scomm = 0, sextra = 0; /* tier:sliced */
    double dextra = 0, dmarks = 0;          /* the forward pass on slices (a design) */
    char spec[GAME_VARIANT_MAX + 64], a[32], b[32], c[32], d[32], e[32], f[32];
    game_spec(g, spec, sizeof spec);
    printf("plan        %s on %d ranks x %d threads (nothing solved)\n", spec, p->ranks,
           p->threads);
    printf("tiers       %d, %.0f slots, %u-byte records%s, %.4g reachable positions%s\n", n, slots,
           width, g->has_winby ? " + 2-byte WinBy" : "", positions,
           p->profile != NULL ? (p->positions > 0 ? " (per tier: the profile, scaled)"
                                                  : " (per tier: the profile)")
           : p->positions > 0 ? ""
                              : " (the slots: give --positions)");
    if (p->tiers) {
        printf("\n%5s %-14s %14s %12s %12s %12s %10s  %s\n", "tier", "name", "slots", "records",
               "bitmap", "net/rank", "seconds", "slice of rank 0 (slots; re-cut by reachable)");
    }
    for (int k = 0; k < n; k++) {
        int t = gr.order[k];
        const TierNode *node = &gr.node[t];
        uint64_t size = node->size;
        double rec = (double)size * per_slot;
        double bits = ceil((double)size / 64) * 8;
        double bytes = 2 * bits * share + rec * share; /* received per rank */
        double pos = reach[t];
        double secs = pos * p->cost / (N * T);
        double wire = bytes / p->bandwidth + (p->ranks > 1 ? 4 * p->latency : 0);
        /* tier:sliced: the OR, then per child tier the requests and answers */
        double sbytes = 2 * bits * share, extra = 0, dx = 0;
        for (int c2 = 0; c2 < node->nchildren; c2++) {
            uint64_t csize = gr.node[node->children[c2]].size;
            double cbits = ceil((double)csize / 64) * 8;
            double cpos = reach[node->children[c2]];
            double reach = fmin(cpos, p->branching * pos / N);
            double answers = reach * share * per_slot;
            sbytes += cbits * share + answers;
            extra += 2 * cbits + answers;         /* need, need_rank, fetched records */
            dx += reach * share * (8 + per_slot); /* design: index lists + records */
        }
        /* design: the marks of a range, 8 bytes a child, sent in rounds */
        double marks = fmin(8 * p->branching * pos / N, PLAN_MARK_ROUND);
        dmarks = marks > dmarks ? marks : dmarks;
        dextra = dx > dextra ? dx : dextra;
        if (p->ranks == 1) { /* one rank: every child is its own, nothing fetched */
            extra = sbytes = 0;
        }
        sextra = extra > sextra ? extra : sextra;
        snet += sbytes;
        scomm +=
            sbytes / p->bandwidth + (p->ranks > 1 ? (4 + 4 * node->nchildren) * p->latency : 0);
        bitmaps += bits;
        records += rec;
        net += bytes;
        compute += secs;
        comm += wire;
        if (p->tiers) {
            uint64_t words = tier_words(size);
            uint64_t w1 = (uint64_t)((double)words / N);
            char name[GAME_TIER_NAME_MAX];
            printf("%5d %-14s %14" PRIu64 " %12s %12s %12s %10.3g  [0, %" PRIu64 ")\n", t,
                   game_tier_name(g, t, name, sizeof name), size, fmt(rec, a, sizeof a),
                   fmt(bits, b, sizeof b), fmt(bytes, c, sizeof c), secs + wire,
                   w1 * 64 < size ? w1 * 64 : size);
        }
    }
    if (p->tiers) {
        printf("\n");
    }
    double headers = (double)(n + 1) * DBSTORE_HEADER_BYTES;
    printf("memory      per rank %s: bitmaps %s + tiers in use %s (every rank holds whole "
           "tiers)\n",
           fmt(bitmaps + window, a, sizeof a), fmt(bitmaps, b, sizeof b), fmt(window, c, sizeof c));
    double back = (bitmaps + window) / N + sextra;
    printf("            tier:sliced: per rank %s: the larger of the forward pass (bitmaps %s) "
           "and the backward pass (%s: 1/N of the bitmaps and of the tiers in use %s, look-ups "
           "%s at most)\n",
           fmt(back > bitmaps ? back : bitmaps, a, sizeof a), fmt(bitmaps, b, sizeof b),
           fmt(back, c, sizeof c), fmt((bitmaps + window) / N, d, sizeof d),
           fmt(sextra, e, sizeof e));
    if (gr.tier_major && !g->has_winby) {
        /* tier:blocks, one process (solvers/tier/blocks.c): the tier
         * graph's model for parts of --part records (default 2^25) */
        TierBlocksMemory bm;
        tier_graph_blocks_memory(&gr, width, (uint64_t)p->part, p->threads,
                                 TIER_BLOCKS_CACHE_DEFAULT, &bm);
        printf("            tier:blocks (one process): %s: whole bitmaps of the child tiers "
               "marked %s + bitmap slices %s + 3 parts of %" PRIu64
               " records %s + caches %s + child block indexes %s + the rest %.3g MiB (%" PRIu64
               " part files, largest block %" PRIu64 " slots)\n",
               fmt((double)bm.total, a, sizeof a), fmt((double)bm.bitmaps, b, sizeof b),
               fmt((double)bm.slices, f, sizeof f), bm.largest_part,
               fmt((double)bm.parts, c, sizeof c), fmt((double)bm.caches, d, sizeof d),
               fmt((double)bm.indexes, e, sizeof e), (double)bm.rest / 1048576, bm.nparts,
               bm.largest_block);
    }
    if (p->ranks > 1) {
        double dfwd = bitmaps / N + dmarks, dback = (bitmaps + window) / N + dextra;
        printf(
            "            forward pass on slices, A DESIGN, NOT BUILT (docs/scaling.md): per rank "
            "%s: the larger of the forward pass (1/N of the bitmaps %s, marks for other ranks "
            "%s, in rounds of at most 1 GiB) and the backward pass (%s: 1/N of the bitmaps and "
            "tiers in use, look-ups by index lists %s at most)\n",
            fmt(dfwd > dback ? dfwd : dback, a, sizeof a), fmt(bitmaps / N, b, sizeof b),
            fmt(dmarks, c, sizeof c), fmt(dback, d, sizeof d), fmt(dextra, e, sizeof e));
    }
    printf("disk        per rank %s with --work-dir (its slices, its copy of the bitmaps); "
           "%s in all\n",
           fmt(records / N + bitmaps + headers, a, sizeof a),
           fmt(records + N * (bitmaps + headers), b, sizeof b));
    printf("network     per rank %s received (and about as much sent); %s in all (%.0f bytes)\n",
           fmt(net, a, sizeof a), fmt(net * N, b, sizeof b), net * N);
    printf("            tier:sliced: per rank at most %s; at most %s in all (%.0f bytes; "
           "%.3g moves per position at most)\n",
           fmt(snet, a, sizeof a), fmt(snet * N, b, sizeof b), snet * N, p->branching);
    double many = p->ranks > 1 ? 1.0 : 0.0;
    double setup = p->setup * slots;
    double whole = setup + compute * (many ? p->imbalance : 1.0) + comm;
    printf("time        %.4g s predicted: setup %.4g s, compute %.4g s (%.3g us per position per "
           "thread, x %.3g imbalance), exchange %.4g s (%.3g GB/s, %.3g us latency)\n",
           whole, setup, compute * (many ? p->imbalance : 1.0), p->cost * 1e6,
           many ? p->imbalance : 1.0, comm, p->bandwidth / 1e9, p->latency * 1e6);
    double walks = p->ranks > 1 ? PLAN_SLICED_WALKS : 1.0; /* one rank: no look-up walk */
    double sk = many ? p->imbalance_sliced : 1.0;
    double sliced = setup + compute * walks * sk + scomm;
    printf("            tier:sliced: %.4g s predicted: setup %.4g s, compute %.4g s (%.2g walks "
           "of 2, x %.3g imbalance), exchange %.4g s\n",
           sliced, setup, compute * walks * sk, walks, sk, scomm);
    if (p->startup > 0) {
        printf("mpirun      %.4g s with tier, %.4g s with tier:sliced (start and end of the ranks "
               "%.3g s)\n",
               whole + p->startup, sliced + p->startup, p->startup);
    }
    /* tier:blocks solves tier-major games without WinBy or loopy tiers */
    bool blocks = gr.tier_major && !g->has_winby;
    for (int t = 0; t < n && blocks; t++) {
        blocks = !gr.node[t].loopy;
    }
    int rc = blocks ? plan_blocks(g, p, &gr, width, reach) : 0;
    free(reach);
    tier_graph_free(&gr);
    return rc;
}

static int run(int argc, char **argv) {
    Plan p = {.threads = 1,
              .cost = PLAN_COST_DEFAULT,
              .bandwidth = 1.25e9,
              .latency = 50e-6,
              .branching = 0,
              .imbalance = 1,
              .imbalance_sliced = 1,
              .part = (double)TIER_BLOCKS_PART_DEFAULT};
    const char *game = NULL;
    const char *seen[PLAN_NOPTIONS] = {0};
    const char *tier = NULL; /* --tier NAME */
    bool list = false, planned = false;
    double ranks = 0, threads = 1;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        int k = 0;
        while (k < PLAN_NOPTIONS && strcmp(arg, plan_options[k].name) != 0) {
            k++;
        }
        planned |= k < PLAN_NOPTIONS || strcmp(arg, "--tiers") == 0;
        if (strcmp(arg, "--tiers") == 0) {
            p.tiers = true;
        } else if (strcmp(arg, "--list") == 0) {
            list = true;
        } else if (strcmp(arg, "--profile") == 0 || strcmp(arg, "--profile-game") == 0) {
            const char **dst = arg[9] == '\0' ? &p.profile : &p.profile_game;
            planned = true;
            if (i + 1 >= argc) {
                fprintf(stderr, "tier-plan: %s needs a value\n", arg);
                return ERR_USAGE;
            }
            if (*dst != NULL) {
                char a[64], b[64];
                fprintf(stderr, "tier-plan: %s given twice ('%s' and '%s'); give it once\n", arg,
                        text_escape(*dst, a, sizeof a), text_escape(argv[i + 1], b, sizeof b));
                return ERR_USAGE;
            }
            *dst = argv[++i];
        } else if (strcmp(arg, "--tier") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "tier-plan: --tier needs a value\n");
                return ERR_USAGE;
            }
            if (tier != NULL) {
                char a[64], b[64];
                fprintf(stderr, "tier-plan: --tier given twice ('%s' and '%s'); give it once\n",
                        text_escape(tier, a, sizeof a), text_escape(argv[i + 1], b, sizeof b));
                return ERR_USAGE;
            }
            tier = argv[++i];
        } else if (k < PLAN_NOPTIONS) {
            if (i + 1 >= argc) {
                fprintf(stderr, "tier-plan: %s needs a value\n", arg);
                return ERR_USAGE;
            }
            const char *val = argv[++i];
            if (seen[k] != NULL) {
                char a[64], b[64];
                fprintf(stderr, "tier-plan: %s given twice ('%s' and '%s'); give it once\n", arg,
                        text_escape(seen[k], a, sizeof a), text_escape(val, b, sizeof b));
                return ERR_USAGE;
            }
            seen[k] = val;
            if (!parse_value(k, val, plan_slot(&p, k, &ranks, &threads))) {
                return ERR_USAGE;
            }
        } else if (arg[0] == '-') {
            return usage("unknown option");
        } else if (game == NULL) {
            game = arg;
        } else {
            return usage("one game at a time");
        }
    }
    if (p.profile_game != NULL && p.profile == NULL) {
        fprintf(stderr, "tier-plan: --profile-game names the board of --profile FILE: give both\n");
        return ERR_USAGE;
    }
    if (list && tier != NULL) {
        fprintf(stderr, "tier-plan: --list lists every tier, --tier NAME one: give one of them\n");
        return ERR_USAGE;
    }
    if ((list || tier != NULL) && planned) {
        fprintf(stderr, "tier-plan: --list and --tier print the tiers only: no plan options "
                        "(--ranks, --tiers...) with them\n");
        return ERR_USAGE;
    }
    if (game == NULL || (ranks == 0 && !list && tier == NULL)) {
        return usage("give a game and --ranks N (or --list, or --tier NAME)");
    }
    p.ranks = (int)ranks;
    p.threads = (int)threads;
    Error err = {0};
    Game *g = NULL;
    if (game_create(game, &g, &err) != ERR_OK) {
        fprintf(stderr, "tier-plan: %s\n", err.msg);
        return (int)err.code;
    }
    p.branching = g->max_moves; /* an upper bound on the moves of a position */
    int rc = 0;
    if (g->tiers == NULL) {
        fprintf(stderr, "tier-plan: game '%s' declares no tiers\n", g->module->name);
        rc = ERR_UNSUPPORTED;
    } else if (p.positions > (double)g->num_positions) {
        /* reachable positions are at most the hash space */
        char quoted[128];
        fprintf(stderr,
                "tier-plan: --positions '%s' is more than the %" PRIu64
                " positions of the game's hash space\n",
                text_escape(seen[PLAN_POSITIONS], quoted, sizeof quoted), g->num_positions);
        rc = ERR_USAGE;
    } else if (list || tier != NULL) {
        rc = list_game(g, tier);
    } else {
        rc = plan_game(g, &p);
    }
    game_destroy(g);
    return rc;
}

int main(int argc, char **argv) {
    return error_finish_stdout(run(argc, argv), "tier-plan", "the plan");
}
