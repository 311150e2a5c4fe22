/* solvers/tier/solve.c: Evan's stage (tier) solver, parallel with OpenMP:
 * the entry point, its options and the per-tier phase loop.
 *
 * The game declares tiers (games/game.h TierOps): a partition of its
 * positions such that a move from tier t leads only to t's child tiers, the
 * tiers forming a DAG (placement games: the number of pieces on the board,
 * one child t + 1). Positions of a tier have local indices 0..size(t)-1.
 *
 * 1. Forward pass (reachability), tiers in topological order from the
 *    initial position's tier: one bit per position (a bitmap per tier); each
 *    marked, non-primitive position sets the bits of its children. Positions
 *    of a tier are independent, so OpenMP threads share a tier's positions
 *    (atomic OR into the child bitmaps). `positions` then counts exactly the
 *    positions reachable from the initial position.
 * 2. Backward pass, children before parents (the last tier first): every
 *    marked position of the tier is solved from its children's records,
 *    which are final since their tiers are solved (fold_*, core/value.h;
 *    WinBy as in dfs.c). Positions are independent again: threads take
 *    chunks of the tier (dynamic schedule); each writes only its own
 *    records, so the result is the same byte for byte for every thread count.
 *    A tier's record array is freed as soon as no unsolved tier needs it, so
 *    at most a tier and its children are in memory, plus the bitmaps (one
 *    bit per position of the game, one block: the reach file).
 *
 * Per tier, the backward pass is a fixed sequence of phases; a phase whose
 * mode is off does nothing:
 *   split       dist.c: this rank's range of the tier (N > 1 MPI ranks)
 *   load        files.c: the tier's records from --db, if there (checked)
 *   distribute  dist.c: tier:sliced fetches the child records other ranks hold
 *   solve       walk.c, or loopy.c for a loopy tier
 *   submit      files.c: the records to the background writer
 *   collect     dist.c: the ranks' records shared (or the checksum chained),
 *               files.c: the N-rank manifest's lines; the totals, the
 *               sector's counts (sector.c), the root, the tiers freed
 *
 * The units (solvers/tier/): graph.c the tier graph (order, window, memory
 * model; shared with bin/tier-plan), walk.c the walk and its visits,
 * loopy.c loopy tiers (moves that stay in the tier: Morris sectors, Dodgem
 * tiers; retro's frontier algorithm within the tier), files.c the database
 * directory, dist.c MPI ranks and tier:sliced, sector.c tier:sector,
 * estimate.c tier:estimate, blocks.c tier:blocks. Loopy games without
 * tiers are refused (NEEDS_TIERS). observer.h is the public visit hook:
 * tier_solve_observed is this solve with an observer that the walks and
 * the loopy passes show each expanded position to, so that an
 * instrumented variant of the solver is one file (solvers/tier_probe.c);
 * tier itself passes none.
 *
 * Memory modes, chosen from the graph's memory model before anything is
 * allocated:
 *   - whole database: when the full database (one record per hash slot,
 *     core/db.h) and the bitmaps fit the budget, res->db gets every record,
 *     so --query works and the tests compare position by position. For a
 *     tier-major hash (TierOps.first) a tier's records are a slice of res->db
 *     (no copy); otherwise tier arrays are copied in via position_at().
 *   - tiers in use only: otherwise (or with `tier:window`), the records of
 *     a tier live only while it or a parent is being solved; the result has
 *     the root value and the totals (res->summary) but no database, and a
 *     note on stderr says so.
 *   - refused: when not even that fits, ERR_MEMORY with the estimate.
 *   - tier:blocks (blocks.c): the backward pass part by part, the child
 *     records read from the database on disk; its own memory model
 *     (graph.h tier_graph_blocks_memory), refused when it does not fit.
 *
 * Game calls: the GPS-cached family when the game has it, else GPS, else
 * the stateless family (`tier:stateless` forces it, to measure the
 * difference); one state per thread, loaded once per position (one unhash),
 * children by do!/undo! (solvers/expand.h). A game with the fast path
 * TierOps.expand_run (games/game.h; Connect Four) expands a chunk of a tier
 * in index order itself, in both passes, giving the same children and
 * counting the same calls; `tier:generic` ignores it. Counters and jemalloc
 * peaks are per thread and summed as solvers/solver.h describes.
 *
 * Distributed (bin/solve-mpi, core/dist.h): dist.c. Step outcomes are
 * agreed (dist_agree) before each exchange, so a rank that fails ends the
 * job with its message on every rank, never a hang. Without MPI, dist is
 * one rank of one and this is the single-process solver.
 *
 * Progress (tier, positions done, rate, time left) goes to stderr when it is
 * a terminal or with --progress.
 *
 * Time: O(R * b) game calls for R reachable positions of b moves, twice
 * (forward and backward), divided among the threads. Memory: bits/8 bytes
 * for the bitmaps plus, per resident tier, size * (width + 2 with WinBy)
 * bytes; with the whole database, num_positions * (width + 2 with WinBy).
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/dbfile.h"
#include "core/mem.h"
#include "solvers/tier/internal.h"

/* ------------------------------------------------------- tier records */

/* Makes room for tier `tier`'s records: a slice of res->db for a
 * tier-major whole database, otherwise an array of its own (tier:sliced:
 * this rank's range only). */
static ErrCode records_alloc(TierSolve *s, int tier) {
    TierInfo *ti = &s->t[tier];
    const TierNode *n = &s->gr.node[tier];
    if (s->whole && s->gr.tier_major) {
        Database *db = &s->res->db;
        ti->vals = *db;
        ti->vals.size = n->size;
        if (db->r8 != NULL) {
            ti->vals.r8 = db->r8 + n->first;
        } else {
            ti->vals.r16 = db->r16 + n->first;
        }
        if (db->winby != NULL) {
            ti->vals.winby = db->winby + n->first;
        }
        ti->owned = false;
    } else {
        ti->slo = s->sliced != NULL ? tier_dist_record(s, tier, dist_rank()) : 0;
        ti->shi = s->sliced != NULL ? tier_dist_record(s, tier, dist_rank() + 1) : n->size;
        ErrCode rc = db_create(&ti->vals, ti->shi - ti->slo, s->width, s->winby, s->err);
        if (rc != ERR_OK) {
            return rc;
        }
        /* huge pages: the child look-ups of a large tier (6x5: 1.3 GB) land
         * on many pages, and with 4 KiB pages nearly every one is a TLB miss */
        mem_advise_huge(ti->vals.r8 != NULL ? (void *)ti->vals.r8 : (void *)ti->vals.r16,
                        (ti->shi - ti->slo) * s->width);
        ti->owned = true;
    }
    ti->resident = true;
    return ERR_OK;
}

static void records_free(TierSolve *s, int tier) {
    TierInfo *ti = &s->t[tier];
    if (ti->resident) {
        tier_files_release(s, tier);
    }
    if (ti->resident && ti->owned) {
        db_destroy(&ti->vals);
    }
    ti->resident = false;
}

/* Copies a solved tier into res->db for a whole database that is not
 * tier-major (position_at: a counted unhash and hash per position). */
static void scatter(TierSolve *s, int tier) {
    TierInfo *ti = &s->t[tier];
    Database *db = &s->res->db;
    for (uint64_t i = 0; i < s->gr.node[tier].size; i++) {
        uint32_t raw = db_peek(&ti->vals, i);
        if (raw == DB_UNREACHED) {
            continue;
        }
        Position p = s->g->tiers->position_at(s->g, tier, i);
        db_poke(db, p, raw);
        if (db->winby != NULL) {
            db->winby[p] = ti->vals.winby[i];
        }
    }
}

/* Adds a solved tier's records this rank holds to the totals. */
static ErrCode tally(TierSolve *s, int tier, DbSummary *sum) {
    const Database *v = &s->t[tier].vals;
    for (uint64_t i = 0; i < v->size; i++) {
        uint32_t raw = db_peek(v, i);
        if (raw == DB_UNREACHED) {
            continue;
        }
        if (!db_raw_solved(v, raw)) {
            return error_set(s->err, ERR_INTERNAL, "tier %d: position %" PRIu64 " left unsolved",
                             tier, i);
        }
        Value val = db_raw_value(v, raw);
        uint32_t r = db_raw_remoteness(v, raw);
        sum->positions++;
        sum->count[val]++;
        if (r > sum->max_remoteness) {
            sum->max_remoteness = r;
        }
        sum->by_remoteness[r][val]++;
    }
    return ERR_OK;
}

/* The root's record, from the rank that holds it (sliced: every rank
 * learns it). */
static void take_root(TierSolve *s, int t) {
    TierInfo *ti = &s->t[t];
    uint64_t r = s->gr.root_index, raw = 0, wb = 0;
    if (r - ti->slo < ti->shi - ti->slo) {
        raw = db_peek(&ti->vals, r - ti->slo) + 1;
        wb = s->winby ? (uint64_t)(ti->vals.winby[r - ti->slo] + 32768) : 0;
    }
    if (s->sliced != NULL) {
        raw = dist_max_u64(raw);
        wb = dist_max_u64(wb);
    }
    s->res->root = (Outcome){db_raw_value(&ti->vals, (uint32_t)(raw - 1)),
                             db_raw_remoteness(&ti->vals, (uint32_t)(raw - 1))};
    s->res->root_winby = s->winby ? (WinBy)((int64_t)wb - 32768) : 0;
}

/* Chooses the memory mode (see the top of the file) or refuses. */
static ErrCode choose_mode(TierSolve *s, bool window_only, bool sliced) {
    if (s->blocks != NULL) { /* tier:blocks: its own memory model (blocks.c) */
        ErrCode rc = tier_blocks_fits(s);
        return rc == ERR_OK ? tier_files_open(s) : rc;
    }
    TierMemory mm;
    tier_graph_memory(&s->gr, s->width, s->winby, sliced ? dist_size() : 0, &mm);
    uint64_t budget = mem_budget();
    char a[32], b[32], c[32];
    s->whole = !window_only && mm.full <= budget;
    if (!s->whole && s->need_db) {
        return error_set(s->err, ERR_MEMORY,
                         "--query needs the whole database (%s), which does not fit the memory "
                         "budget (%s); the tier solver would keep only the tiers in use",
                         mem_format(mm.full, a, sizeof a), mem_format(budget, b, sizeof b));
    }
    if (!s->whole) {
        ErrCode rc = mem_check(mm.bitmaps + mm.window,
                               "the tiers in use and the reachability bitmaps", s->err);
        if (rc != ERR_OK) {
            error_prefix(s->err, "tier solver: even keeping only the tiers in use: ");
            return rc;
        }
        /* tier:sector keeps its records on disk (--db) by design: no note */
        if (!window_only && s->sector == NULL && dist_rank() == 0) {
            fprintf(stderr,
                    "tier: the whole database (%s) does not fit the memory budget (%s); keeping "
                    "only the tiers in use (peak %s): the root value and the counts are "
                    "reported, --query is not available%s\n",
                    mem_format(mm.full, a, sizeof a), mem_format(budget, b, sizeof b),
                    mem_format(mm.bitmaps + mm.window, c, sizeof c),
                    s->files != NULL ? "" : "; give --db DIR to keep the solved tiers on disk");
        }
    }
    return tier_files_open(s);
}

/* ------------------------------------------------------------- passes */

/* Loads the bitmaps from the database directory, or runs the forward pass
 * (and saves them there); tier:sector makes them from its tiers' slots. */
static ErrCode reachability(TierSolve *s) {
    if (s->sector != NULL) {
        return tier_sector_reach(s);
    }
    if (s->blocks != NULL) { /* then the projected disk, before any record */
        ErrCode rc = tier_blocks_reach(s);
        return rc == ERR_OK ? tier_blocks_disk_check(s) : rc;
    }
    uint64_t total_words = tier_graph_words(&s->gr);
    /* One block for all bitmaps, so that the reach file is one part. */
    uint64_t *block =
        mem_calloc((size_t)total_words, sizeof *block, "the reachability bitmaps", s->err);
    if (block == NULL) {
        return ERR_MEMORY;
    }
    s->reach_block = block;
    mem_advise_huge(block, total_words * 8);
    uint64_t off = 0;
    for (int t = 0; t < s->gr.ntiers; t++) {
        s->t[t].reach = block + off;
        off += tier_words(s->gr.node[t].size);
    }
    bool found = false;
    ErrCode rc = tier_files_load_reach(s, &found);
    /* Every rank loads its copy of the bitmaps, or every rank recomputes. */
    rc = dist_agree(rc, s->err);
    if (rc != ERR_OK) {
        return rc;
    }
    found = dist_sum_u64(found) == (uint64_t)dist_size();
    if (!found) {
        memset(block, 0, total_words * 8);
        uint64_t r = s->gr.root_index;
        s->t[s->gr.root_tier].reach[r / 64] |= UINT64_C(1) << (r % 64);
        for (int k = s->gr.ntiers - 1; k >= 0 && rc == ERR_OK; k--) {
            int t = s->gr.order[k];
            TierInfo *ti = &s->t[t];
            uint64_t words = tier_words(s->gr.node[t].size);
            /* Every parent tier is walked: combine the ranks' marks. */
            dist_or_words(ti->reach, words);
            ti->reached = tier_popcount(ti->reach, words);
            tier_dist_split(s, t);
            if (s->gr.node[t].loopy) { /* solved whole by every rank: not split */
                tier_loopy_pass(s, t, false, s->parallel_min, 0, NULL, NULL);
            } else {
                tier_walk(s, t, "reach", tier_mark_children, s->parallel_min);
            }
            rc = dist_agree(tier_failed(s) ? s->err->code : ERR_OK, s->err);
            tier_dist_step_report(s, "reach", t);
            tier_progress(s, "reach", t, ti->reached, ti->reached, true);
            s->done_before += ti->reached;
        }
        if (rc != ERR_OK) {
            return rc;
        }
        rc = dist_agree(tier_files_save_reach(s), s->err);
    }
    s->total_reached = 0;
    for (int t = 0; t < s->gr.ntiers; t++) {
        s->t[t].reached = tier_popcount(s->t[t].reach, tier_words(s->gr.node[t].size));
        s->total_reached += s->t[t].reached;
    }
    if (found) {
        s->done_before = s->total_reached; /* the forward half is done */
    }
    if (rc == ERR_OK) {
        tier_dist_trim(s);
    }
    return rc;
}

/* Phase solve: the tier's reachable positions from their children. */
static ErrCode solve_tier(TierSolve *s, int t) {
    if (s->t[t].reached == 0) {
        return ERR_OK;
    }
    if (s->gr.node[t].loopy) { /* solved whole by every rank: not split */
        tier_loopy_pass(s, t, true, s->parallel_min, 0, NULL, NULL);
    } else {
        tier_walk(s, t, "solve", tier_solve_position, s->parallel_min);
    }
    if (tier_failed(s)) {
        return s->err->code;
    }
    s->tiers_solved++;
    return ERR_OK;
}

/* Phase collect: what follows a tier solved (or loaded) on every rank. */
static ErrCode collect(TierSolve *s, int t, DbSummary *sum) {
    TierInfo *ti = &s->t[t];
    const TierNode *n = &s->gr.node[t];
    tier_dist_collect(s, t);
    tier_dist_step_report(s, "solve", t);
    ErrCode rc = tier_files_ranks_tier(s, t);
    tier_progress(s, "solve", t, ti->reached, ti->reached, true);
    s->done_before += ti->reached;
    if (rc == ERR_OK) {
        rc = tally(s, t, sum);
    }
    if (rc != ERR_OK) {
        return rc;
    }
    tier_sector_count(s, t);
    if (t == s->gr.root_tier) {
        take_root(s, t);
    }
    if (s->whole && !s->gr.tier_major) {
        scatter(s, t);
    }
    for (int c = 0; c < n->nchildren; c++) {
        int ct = n->children[c];
        if (--s->t[ct].parents_left == 0) {
            records_free(s, ct);
        }
    }
    if (ti->parents_left == 0) {
        records_free(s, t);
    }
    return ERR_OK;
}

/* Backward pass: the phases of every tier, children first. */
static ErrCode backward(TierSolve *s, DbSummary *sum) {
    if (s->blocks != NULL) {
        return tier_blocks_backward(s, sum);
    }
    ErrCode rc = ERR_OK;
    for (int k = 0; k < s->gr.ntiers && rc == ERR_OK; k++) {
        int t = s->gr.order[k];
        if (s->gr.node[t].outside) {
            continue; /* tier:sector: not below the sector */
        }
        bool found = false;
        tier_dist_split(s, t);
        rc = records_alloc(s, t);
        if (rc == ERR_OK) {
            rc = tier_files_load(s, t, &found);
        }
        rc = tier_dist_fetch(s, t, found, rc);
        if (rc == ERR_OK && found) {
            s->tiers_loaded++;
        } else if (rc == ERR_OK) {
            rc = solve_tier(s, t);
            if (rc == ERR_OK) {
                rc = tier_files_submit(s, t);
            }
        }
        /* Every rank has its range (or the failure is known to all). */
        rc = dist_agree(rc, s->err);
        if (rc == ERR_OK) {
            rc = collect(s, t, sum);
        }
    }
    return rc;
}

/* ---------------------------------------------------------- the solve */

/* The tiers' state, the threads' GPS states and the counters' peaks. */
static ErrCode setup(TierSolve *s, const SolveConfig *cfg) {
    ErrCode rc = tier_graph_build(s->g, &s->gr, s->err);
    if (rc != ERR_OK) {
        return rc;
    }
    s->t = mem_calloc((size_t)s->gr.ntiers, sizeof *s->t, "the tier table", s->err);
    if (s->t == NULL) {
        return ERR_MEMORY;
    }
    for (int t = 0; t < s->gr.ntiers; t++) {
        s->t[t].hi = tier_words(s->gr.node[t].size); /* the whole tier, until split */
        s->t[t].shi = s->gr.node[t].size;
        s->t[t].parents_left = s->gr.node[t].parents;
    }
    if (cfg->work_dir != NULL) {
        rc = tier_files_start(s, cfg->work_dir);
    }
    if (rc == ERR_OK) {
        rc = tier_sector_plan(s, (int)opt_int(&cfg->options, "sector"));
    }
    if (rc == ERR_OK) {
        rc = tier_blocks_plan(
            s, opt_bool(&cfg->options, "blocks"), (uint64_t)opt_int(&cfg->options, "part"),
            (uint64_t)opt_int(&cfg->options, "cache"), !opt_bool(&cfg->options, "dynamic"),
            opt_bool(&cfg->options, "estimate"));
    }
    if (rc == ERR_OK) {
        rc = tier_files_ranks(s);
    }
    return rc;
}

static ErrCode states_create(TierSolve *s, DbSummary *sum) {
    s->states = mem_calloc((size_t)s->threads, sizeof *s->states, "the GPS states", s->err);
    s->worker_peak = mem_calloc((size_t)s->threads, sizeof *s->worker_peak, "peaks", s->err);
    sum->by_remoteness =
        mem_calloc((size_t)(s->width == 1 ? DB_MAX_REMOTENESS_8 : DB_MAX_REMOTENESS_16) + 1,
                   sizeof *sum->by_remoteness, "the remoteness histogram", s->err);
    ErrCode rc = s->states && s->worker_peak && sum->by_remoteness ? ERR_OK : ERR_MEMORY;
    for (int i = 0; i < s->threads && rc == ERR_OK && s->fam != NULL; i++) {
        s->states[i] = s->fam->create(s->g, s->err);
        rc = s->states[i] != NULL ? ERR_OK : ERR_MEMORY;
    }
    return rc;
}

/* The result: the database checksum, the totals and the figures. */
static void report(TierSolve *s, DbSummary *sum) {
    SolveResult *res = s->res;
    res->has_winby = s->g->has_winby;
    res->has_checksum = true;
    res->checksum = 0;
    for (int t = 0; t < s->gr.ntiers; t++) {
        res->checksum = dbfile_checksum(res->checksum, &s->t[t].checksum, sizeof s->t[t].checksum);
    }
    if (!s->whole) {
        res->summary = *sum;
        res->has_summary = true;
        sum->by_remoteness = NULL;
    }
    solve_result_extra(res, "tiers", s->gr.ntiers);
    solve_result_extra(res, "tiers_solved", (double)s->tiers_solved);
    solve_result_extra(res, "tiers_loaded", (double)s->tiers_loaded);
    solve_result_extra(res, "whole_database", s->whole);
    solve_result_extra(res, "family_gps", s->fam != NULL);
    solve_result_extra(res, "fast_path", s->fast);
    tier_sector_report(s);
    tier_blocks_report(s);
    if (s->g->loopy) {
        solve_result_extra(res, "frontier_win_lose", (double)s->loopy_stats[0]);
        solve_result_extra(res, "frontier_tie", (double)s->loopy_stats[1]);
        solve_result_extra(res, "loopy_draws", (double)s->loopy_stats[2]);
        solve_result_extra(res, "loopy_events", (double)s->loopy_stats[3]);
    }
    tier_files_report(s);
    if (dist_compiled()) {
        DistStats d = dist_stats_total();
        solve_result_extra(res, "mpi_ranks", dist_size());
        solve_result_extra(res, "mpi_bytes_sent_max", (double)dist_max_u64(d.sent));
        solve_result_extra(res, "mpi_bytes_received_max", (double)dist_max_u64(d.received));
        solve_result_extra(res, "mpi_bytes_total", (double)dist_sum_u64(d.sent));
        solve_result_extra(res, "mpi_seconds_max", dist_max_double(d.mpi_seconds));
        solve_result_extra(res, "compute_seconds_max", dist_max_double(s->compute_seconds));
        solve_result_extra(res, "rank_peak_rss_max", (double)dist_max_u64(mem_rss_peak()));
    }
}

static void teardown(TierSolve *s, DbSummary *sum) {
    tier_files_stop(s);
    for (int i = 0; i < s->threads && s->states != NULL; i++) {
        if (s->states[i] != NULL) {
            s->fam->destroy(s->states[i]);
        }
    }
    for (int t = 0; t < s->gr.ntiers && s->t != NULL; t++) {
        records_free(s, t);
    }
    tier_dist_stop(s);
    free(s->reach_block);
    tier_blocks_free(s);
    tier_files_close(s);
    free(s->sector);
    db_summary_free(sum);
    free(s->states);
    free(s->worker_peak);
    free(s->t);
    tier_graph_free(&s->gr);
}

ErrCode tier_solve_observed(const Game *g, const SolveConfig *cfg, SolveResult *res, Error *err,
                            const TierObserver *obs) {
    const OptionValues *o = &cfg->options;
    TierSolve s = {
        .g = g,
        .res = res,
        .err = err,
        .width = db_width_for(g->max_depth),
        .winby = g->has_winby,
        .need_db = cfg->need_db,
        .progress = dist_rank() == 0 && (cfg->progress || isatty(STDERR_FILENO)),
        .tty = isatty(STDERR_FILENO),
        .t0 = clock_seconds(),
        .chunk_words = (uint64_t)opt_int(o, "chunk") / 64,
        .parallel_min = (uint64_t)opt_int(o, "parallel_min"),
        .stored_edges = opt_bool(o, "stored_edges"),
        .known_positions = (uint64_t)opt_int(o, "positions"),
    };
    s.last_report = s.t0;
    if (!opt_bool(o, "stateless")) {
        s.fam = g->gps_cached != NULL ? g->gps_cached : g->gps;
    }
    s.fast = g->tiers->expand_run != NULL && !opt_bool(o, "generic") && !opt_bool(o, "stateless");
    game_spec(g, s.spec, sizeof s.spec);
    s.threads = cfg->threads > 0 ? cfg->threads : omp_get_num_procs();
    res->threads = s.threads;
    DbSummary sum = {0};
    bool estimating = opt_bool(o, "estimate");
    bool sliced = opt_bool(o, "sliced") && !estimating;
    ErrCode rc = setup(&s, cfg);
    if (rc == ERR_OK && !estimating && s.known_positions > 0) {
        rc = error_set(err, ERR_USAGE, "tier:positions=N goes with tier:estimate only");
    }
    if (rc == ERR_OK && estimating && s.sector != NULL) {
        rc = error_set(err, ERR_USAGE, "tier:estimate and tier:sector do not go together");
    }
    if (rc == ERR_OK && sliced && s.blocks != NULL) {
        rc = error_set(err, ERR_USAGE, "tier:blocks and tier:sliced do not go together");
    }
    for (int t = 0; rc == ERR_OK && sliced && t < s.gr.ntiers; t++) {
        if (s.gr.node[t].loopy) {
            rc = error_set(err, ERR_UNSUPPORTED,
                           "tier:sliced: game '%s' has loopy tiers, which every rank solves "
                           "whole (docs/mpi.md); use --solver tier",
                           g->module->name);
        }
    }
    if (rc == ERR_OK && !estimating) {
        rc = choose_mode(&s, opt_bool(o, "window") || sliced, sliced);
    }
    if (rc == ERR_OK && s.whole) {
        rc = solver_db_create(g, &res->db, err);
        res->has_db = rc == ERR_OK;
        if (rc == ERR_OK) {
            mem_advise_huge(res->db.r8 != NULL ? (void *)res->db.r8 : (void *)res->db.r16,
                            res->db.size * res->db.width);
        }
    }
    if (rc == ERR_OK) {
        rc = states_create(&s, &sum);
    }
    if (rc == ERR_OK && obs != NULL && !estimating) {
        s.observer = obs;
        TierObserverStart info = {.threads = s.threads, .graph = &s.gr};
        rc = obs->start != NULL ? obs->start(obs->ctx, &info, err) : ERR_OK;
    }
    if (rc == ERR_OK && estimating) {
        rc = tier_estimate(&s, opt_bool(o, "window"));
    } else {
        if (rc == ERR_OK) {
            rc = tier_dist_start(&s, sliced,
                                 opt_bool(o, "rma") ? DIST_FETCH_RMA : DIST_FETCH_ALLTOALL);
        }
        if (rc == ERR_OK) {
            rc = tier_files_ranks_open(&s);
        }
        /* A rank refused (memory, files) ends every rank here, not in a wait. */
        rc = dist_agree(rc, err);
        if (rc == ERR_OK) {
            rc = tier_files_writer(&s);
        }
        if (rc == ERR_OK) {
            rc = reachability(&s);
        }
        if (rc == ERR_OK) {
            rc = backward(&s, &sum);
        }
        if (rc == ERR_OK) {
            rc = tier_files_drain(&s);
        }
        if (rc == ERR_OK) {
            tier_dist_summary(&s, &sum);
            rc = tier_files_finish(&s, &sum);
        }
        if (rc == ERR_OK) {
            report(&s, &sum);
        }
    }
    for (int i = 1; i < s.threads && s.worker_peak != NULL; i++) {
        res->worker_peak_bytes += s.worker_peak[i];
    }
    teardown(&s, &sum);
    return rc;
}

static ErrCode tier_solve(const Game *g, const SolveConfig *cfg, SolveResult *res, Error *err) {
    return tier_solve_observed(g, cfg, res, err, NULL);
}

const OptionSpec tier_solver_options[] = {
    {.name = "window",
     .type = OPT_BOOL,
     .help = "keep only the tiers in use, even when the whole database would fit"},
    {.name = "stateless",
     .type = OPT_BOOL,
     .help = "call the stateless family even when the game has a GPS family"},
    {.name = "estimate",
     .type = OPT_BOOL,
     .help = "print what the solve would need (slots and reachable bound per tier, memory, disk, "
             "time from a short calibration) on stderr, without solving"},
    {.name = "positions",
     .type = OPT_INT,
     .min = 0,
     .max = INT64_MAX,
     .def = 0,
     .help = "with estimate: the game's reachable positions when known (a published count), "
             "used for the time and disk projections instead of the calibration's guess"},
    {.name = "generic",
     .type = OPT_BOOL,
     .help = "expand position by position through the GPS family even when the game has a "
             "tier fast path (TierOps.expand_run)"},
    {.name = "sliced",
     .type = OPT_BOOL,
     .help = "on N MPI ranks, each keeps only its slice of every tier and fetches the child "
             "records it needs from their owners (implies window)"},
    {.name = "rma",
     .type = OPT_BOOL,
     .help = "with sliced: fetch child records by MPI one-sided reads (MPI_Get) instead of "
             "MPI_Alltoallv"},
    {.name = "stored_edges",
     .type = OPT_BOOL,
     .help = "loopy tiers: store back edges even when the game has un-moves"},
    {.name = "sector",
     .type = OPT_INT,
     .min = -1,
     .max = 1000000,
     .def = -1,
     .help = "solve this tier and the tiers below it over all their positions (canonical ones "
             "with sym), loading those already in --db: Gasser's sector by sector (-1: off)"},
    {.name = "blocks",
     .type = OPT_BOOL,
     .help = "solve each tier part by part, the child records read from the database on disk "
             "(--db DIR): memory holds a few parts, not whole tiers (solvers/tier/blocks.c)"},
    {.name = "part",
     .type = OPT_INT,
     .min = 64,
     .max = INT64_C(1) << 40,
     .def = (int64_t)TIER_BLOCKS_PART_DEFAULT,
     .help = "with blocks: records per part file at most (cut at the game's block boundaries)"},
    {.name = "cache",
     .type = OPT_INT,
     .min = TIER_BLOCKS_WAYS,
     .max = INT64_C(1) << 30,
     .def = TIER_BLOCKS_CACHE_DEFAULT,
     .help = "with blocks: decompressed child file blocks (4 KiB each) a thread's cache holds, "
             "rounded down to a power of two (at most twice the child tiers' file blocks)"},
    {.name = "dynamic",
     .type = OPT_BOOL,
     .help = "with blocks: hand the backward pass's chunks to the threads one at a time (the "
             "schedule of the other modes) instead of guided runs (for measurements)"},
    {.name = "chunk",
     .type = OPT_INT,
     .min = 64,
     .max = INT64_C(1) << 30,
     .def = TIER_CHUNK_DEFAULT,
     .help = "positions handed to a thread at a time (rounded down to a multiple of 64)"},
    {.name = "parallel_min",
     .type = OPT_INT,
     .min = 0,
     .max = INT64_MAX,
     .def = TIER_PARALLEL_MIN_DEFAULT,
     .help = "tiers with fewer reachable positions run on one thread"},
    {0},
};

const SolverModule tier_solver = {
    .name = "tier",
    .description = "Evan's stage solver: tiers last to first, each in parallel (OpenMP)",
    .needs = NEEDS_TIERS,
    .loopy_ok = true, /* loopy games that declare tiers: solvers/tier/loopy.c */
    .parallel = true,
    .distributed = true,
    .window_option = "window",
    .options = tier_solver_options,
    .solve = tier_solve,
};
