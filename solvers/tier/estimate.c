/* solvers/tier/estimate.c: tier:estimate, what a solve of this variant
 * would need, printed on stderr without solving (the figures also go to
 * solver_stats, est_*): per tier its number and name (TierOps.name), the
 * hash slots and a bound on its
 * reachable positions, the memory mode the solve would choose and its peak
 * (the tier graph's memory model, graph.h), tier:blocks' peak (graph.h
 * tier_graph_blocks_memory, for a game that mode solves), the disk the tier files take
 * and, with --db DIR, the free space of DIR's disk (of its nearest existing
 * parent when DIR is not made yet; DIR is neither created nor written:
 * res->estimate_only), and the time from a calibration run.
 *
 * Calibration: the forward pass over the first tiers in solve order from
 * the initial position's (one thread), each tier's bitmap allocated when a
 * parent first needs it, until the bitmaps would pass
 * ESTIMATE_BITMAP_BYTES or ESTIMATE_SECONDS have passed. A walked tier's
 * reachable count is exact (all its parents came before it); the others
 * are bounded by their slots. The time is 2 expansions (forward and
 * backward) per reachable position at the calibrated rate per thread,
 * times the threads: an upper bound with every unwalked slot reachable,
 * and an extrapolation at the reachable fraction of the last walked tier
 * (or for the reachable positions given, tier:estimate,positions=N: a
 * published count, which also sets tier:blocks' disk projection).
 * Small tiers fit the caches, so the rate is optimistic for tiers of
 * gigabytes (docs/connect-four.md: estimate against the measured 6x5 solve).
 * A loopy tier is closed under its in-tier moves by tier_loopy_reach, as
 * the reach pass does, stopped after the round that passes
 * ESTIMATE_SECONDS (then it is not walked, only its rate counts, and the
 * calibration ends); its solve pass (one expansion a position, then
 * un-moves from the frontier) is timed as 2 expansions too, an
 * underestimate; the largest loopy pass's working set (tier_loopy_bytes,
 * on the reachable count or its bound) is added to the peak.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "core/clock.h"
#include "core/mem.h"
#include "solvers/tier/internal.h"
#include "solvers/tier/loopy.h"

#define ESTIMATE_BITMAP_BYTES (UINT64_C(64) << 20)
#define ESTIMATE_SECONDS 3.0

/* The calibration's state: its own, not the solver's. */
typedef struct Estimate {
    bool *walked;      /* [ntiers] walked (its reachable count exact) */
    uint64_t used;     /* bytes of bitmaps allocated */
    uint64_t expanded; /* positions expanded */
    int last;          /* the last tier walked (-1: none) */
    int partial;       /* a loopy tier stopped early (-1: none) */
    double elapsed;
} Estimate;

/* The calibration: the forward pass, one thread, until its budget. */
static ErrCode calibrate(TierSolve *s, Estimate *est) {
    ErrCode rc = ERR_OK;
    double t0 = clock_seconds();
    TierInfo *root = &s->t[s->gr.root_tier];
    uint64_t root_words = tier_words(s->gr.node[s->gr.root_tier].size);
    root->reach = mem_calloc((size_t)root_words, 8, "the estimate", s->err);
    est->used += root_words * 8;
    if (root->reach == NULL) {
        rc = ERR_MEMORY;
    } else {
        root->reach[s->gr.root_index / 64] |= UINT64_C(1) << (s->gr.root_index % 64);
    }
    for (int k = s->gr.ntiers - 1; k >= 0 && rc == ERR_OK && !tier_failed(s); k--) {
        int t = s->gr.order[k];
        TierInfo *ti = &s->t[t];
        const TierNode *n = &s->gr.node[t];
        if (ti->reach == NULL) {
            continue; /* no walked tier reaches it */
        }
        uint64_t need = 0;
        for (int j = 0; j < n->nchildren; j++) {
            int ct = n->children[j];
            need += s->t[ct].reach == NULL ? tier_words(s->gr.node[ct].size) * 8 : 0;
        }
        /* Stop before a tier that would take the calibration past its
         * time at the rate so far. */
        double spent = clock_seconds() - t0;
        uint64_t next = tier_popcount(ti->reach, tier_words(n->size));
        double ahead = est->expanded > 0 ? spent * (double)next / (double)est->expanded : 0;
        if (est->used + need > ESTIMATE_BITMAP_BYTES || spent + ahead > ESTIMATE_SECONDS) {
            break;
        }
        for (int j = 0; j < n->nchildren && rc == ERR_OK; j++) {
            TierInfo *ch = &s->t[n->children[j]];
            uint64_t words = tier_words(s->gr.node[n->children[j]].size);
            if (ch->reach == NULL) {
                ch->reach = mem_calloc((size_t)words, 8, "the estimate", s->err);
                est->used += words * 8;
                rc = ch->reach != NULL ? ERR_OK : ERR_MEMORY;
            }
        }
        if (rc != ERR_OK) {
            break;
        }
        ti->reached = tier_popcount(ti->reach, tier_words(n->size));
        if (n->loopy) { /* its moves may stay in it: closed as the reach pass does */
            bool stopped = false;
            uint64_t expanded = 0;
            tier_loopy_pass(s, t, false, UINT64_MAX, t0 + ESTIMATE_SECONDS, &stopped, &expanded);
            est->expanded += expanded;
            if (stopped) {
                est->partial = t;
                break; /* out of time: it and its children are not counted */
            }
            ti->reached = tier_popcount(ti->reach, tier_words(n->size));
        } else {
            tier_walk(s, t, "estimate", tier_mark_children, UINT64_MAX);
            est->expanded += ti->reached;
        }
        est->walked[t] = true;
        est->last = t;
    }
    est->elapsed = clock_seconds() - t0;
    for (int t = 0; t < s->gr.ntiers; t++) {
        free(s->t[t].reach);
        s->t[t].reach = NULL;
    }
    if (rc == ERR_OK && tier_failed(s)) {
        rc = s->err->code;
    }
    return rc;
}

ErrCode tier_estimate(TierSolve *s, bool window_only) {
    const Game *g = s->g;
    const TierGraph *gr = &s->gr;
    char a[32], b[32], c[32], d[32];
    uint64_t files = DBSTORE_HEADER_BYTES, slots = 0;
    for (int t = 0; t < gr->ntiers; t++) {
        files += db_bytes(gr->node[t].size, s->width, s->winby) + DBSTORE_HEADER_BYTES;
        slots += gr->node[t].size;
    }
    TierMemory mm;
    tier_graph_memory(gr, s->width, s->winby, 0, &mm);
    uint64_t bitmaps = mm.bitmaps;
    files += bitmaps;
    uint64_t budget = mem_budget();
    bool whole = !window_only && mm.full <= budget;
    uint64_t peak = whole ? mm.full : bitmaps + mm.window;

    Estimate est = {.last = -1, .partial = -1};
    est.walked = mem_calloc((size_t)gr->ntiers, sizeof *est.walked, "the estimate", s->err);
    if (est.walked == NULL) {
        return ERR_MEMORY;
    }
    ErrCode rc = calibrate(s, &est);
    if (rc != ERR_OK) {
        free(est.walked);
        return rc;
    }
    const bool *walked = est.walked;
    int last = est.last;

    /* The table and the totals. */
    double fraction = last >= 0 && gr->node[last].size > 0
                          ? (double)s->t[last].reached / (double)gr->node[last].size
                          : 1.0;
    uint64_t exact = 0, bound = 0;
    double guess = 0;
    fprintf(stderr, "tier estimate for %s (%d tiers, %" PRIu64 " slots), nothing solved:\n",
            s->spec, gr->ntiers, slots);
    fprintf(stderr, "%6s %-14s %18s %18s %12s\n", "tier", "name", "slots", "reachable", "records");
    for (int k = gr->ntiers - 1; k >= 0; k--) {
        int t = gr->order[k];
        uint64_t size = gr->node[t].size;
        uint64_t r = walked[t] ? s->t[t].reached : size;
        bound += r;
        exact += walked[t] ? r : 0;
        guess += walked[t] ? (double)r : fraction * (double)size;
        char rb[32], name[GAME_TIER_NAME_MAX];
        snprintf(rb, sizeof rb, "%s%" PRIu64, walked[t] ? "" : "<= ", r);
        fprintf(stderr, "%6d %-14s %18" PRIu64 " %18s %12s\n", t,
                game_tier_name(g, t, name, sizeof name), size, rb,
                mem_format(db_bytes(size, s->width, s->winby), a, sizeof a));
    }
    /* The largest loopy pass, on the reachable counts above (a bound for
     * the unwalked tiers), on top of the records. */
    uint64_t loopy = 0;
    bool edges = s->stored_edges || g->ops->generate_parents == NULL;
    for (int t = 0; t < gr->ntiers; t++) {
        if (gr->node[t].loopy) {
            uint64_t r = walked[t] ? s->t[t].reached : gr->node[t].size;
            uint64_t lb = tier_loopy_bytes(gr->node[t].size, r, edges);
            loopy = lb > loopy ? lb : loopy;
        }
    }
    free(est.walked);
    const char *basis = "the guess at the reachable fraction of the last walked tier";
    if (s->known_positions > 0) { /* tier:estimate,positions=N: a published count */
        guess = (double)s->known_positions;
        basis = "the positions given (positions=N)";
    }
    uint64_t records = peak - bitmaps;
    peak += loopy;
    char e[32], lp[64] = "";
    if (loopy > 0) {
        snprintf(lp, sizeof lp, ", loopy pass %s", mem_format(loopy, e, sizeof e));
    }
    fprintf(stderr, "memory: %s, peak %s (bitmaps %s, tier records %s%s); budget %s: %s\n",
            whole ? "the whole database" : "the tiers in use only", mem_format(peak, a, sizeof a),
            mem_format(bitmaps, b, sizeof b), mem_format(records, c, sizeof c), lp,
            mem_format(budget, d, sizeof d), peak <= budget ? "fits" : "does NOT fit");
    /* tier:blocks' model, for a game it can solve */
    uint64_t blocks_disk = tier_blocks_estimate(s, budget, guess);
    fprintf(stderr,
            "disk (--db): at most %s of tier files (uncompressed; zstd makes them far smaller)",
            mem_format(files, a, sizeof a));
    const char *dir = s->files != NULL ? s->files->work_dir : NULL;
    if (dir != NULL) { /* --db DIR: its disk's free space; DIR is neither created nor written */
        char where[4096];
        snprintf(where, sizeof where, "%s", dir);
        struct statvfs vfs;
        bool known = statvfs(where, &vfs) == 0;
        while (!known && errno == ENOENT) { /* DIR not made yet: the disk it would be made on */
            char *slash = strrchr(where, '/');
            if (slash == NULL) {
                snprintf(where, sizeof where, ".");
            } else if (slash == where) {
                where[1] = '\0';
            } else {
                *slash = '\0';
            }
            known = statvfs(where, &vfs) == 0;
            if (!known && (strcmp(where, ".") == 0 || strcmp(where, "/") == 0)) {
                break;
            }
        }
        if (known) {
            uint64_t free_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
            fprintf(stderr, "; %s free in %s: %s", mem_format(free_bytes, b, sizeof b), where,
                    files <= free_bytes ? "fits" : "does NOT fit");
            if (blocks_disk > 0) {
                fprintf(stderr, " (tier:blocks' projection: %s)",
                        blocks_disk <= free_bytes ? "fits" : "does NOT fit");
            }
            solve_result_extra(s->res, "est_disk_free_bytes", (double)free_bytes);
        }
        fprintf(stderr, "; nothing written in %s", dir);
    }
    fprintf(stderr, "\n");
    double elapsed = est.elapsed;
    uint64_t expanded = est.expanded;
    double rate = elapsed > 0 ? (double)expanded / elapsed : 0;
    double upper = 0, about = 0;
    if (expanded < 1000 || rate <= 0) {
        fprintf(stderr, "time: too few positions in the first tiers to calibrate (%" PRIu64 ")\n",
                expanded);
    } else if (last < 0) {
        upper = about = 2.0 * (double)bound / (rate * s->threads);
        char label[GAME_TIER_LABEL_MAX];
        fprintf(stderr,
                "time: calibrated on part of the closure of loopy tier %s: %" PRIu64
                " positions in %.2f s, %.3g positions/s on one thread; on %d threads, at most "
                "%.3g s with every slot reachable\n",
                est.partial >= 0 ? game_tier_label(g, est.partial, label, sizeof label) : "?",
                expanded, elapsed, rate, s->threads, upper);
    } else {
        upper = 2.0 * (double)bound / (rate * s->threads);
        about = 2.0 * guess / (rate * s->threads);
        char label[GAME_TIER_LABEL_MAX];
        game_tier_label(g, last, label, sizeof label);
        fprintf(stderr,
                "time: calibrated on tiers up to %s: %" PRIu64 " positions in %.2f s, %.3g "
                "positions/s on one thread; on %d threads, at most %.3g s with every "
                "unwalked slot reachable, about %.3g s for %.3g positions (%s; that fraction: "
                "%.3g of tier %s)\n",
                label, expanded, elapsed, rate, s->threads, upper, about, guess, basis, fraction,
                label);
    }
    solve_result_extra(s->res, "estimate_only", 1);
    s->res->estimate_only = true; /* nothing to save in --db DIR */
    solve_result_extra(s->res, "est_slots", (double)slots);
    solve_result_extra(s->res, "est_reachable_bound", (double)bound);
    solve_result_extra(s->res, "est_reachable_exact", (double)exact);
    solve_result_extra(s->res, "est_reachable_guess", guess);
    solve_result_extra(s->res, "est_whole_database", whole);
    solve_result_extra(s->res, "est_peak_bytes", (double)peak);
    solve_result_extra(s->res, "est_budget_bytes", (double)budget);
    solve_result_extra(s->res, "est_disk_bytes", (double)files);
    solve_result_extra(s->res, "est_rate_per_thread", rate);
    solve_result_extra(s->res, "est_seconds_bound", upper);
    solve_result_extra(s->res, "est_seconds_guess", about);
    return ERR_OK;
}
