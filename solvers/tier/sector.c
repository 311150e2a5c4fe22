/* solvers/tier/sector.c: tier:sector=T, whole-sector mode.
 *
 * Tier T and every tier below it are solved over ALL their positions
 * (TierOps.legal ones; with `sym`, every canonical one), as Gasser solved
 * the Nine Men's Morris sectors, not only those reachable from the initial
 * position; the tiers already in the --db directory (child sectors solved
 * by earlier runs) are loaded, not solved again. So a game too large to
 * solve from the start is solved sector by sector, each run holding a
 * sector and its children. The run ends with a partial manifest
 * (store_manifest_partial: the directory need not hold the whole game),
 * and the result's value is "undecided" unless the initial position lies
 * in the solved tiers.
 *
 * tier_sector_plan: the tiers outside the sector's descendants get size 0
 * (no bitmap, no records, skipped by the backward pass), and the initial
 * position is the root only when its tier is in the sector's closure. The
 * walk stops at a tier whose file --db holds (`held`): it is loaded, so its
 * own descendants are not needed, and a run whose children are all on disk
 * (a placement tier of nine men's morris above the 28 sectors) loads those
 * children only, not every sector below them. O(tiers + edges) and one
 * stat a tier. tier_sector_reach: the bitmaps, O(slots) legal/canonical
 * calls (or the game's TierOps.positions_run), in parallel; no forward
 * pass and no reach file.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/mem.h"
#include "solvers/tier/internal.h"
#include "solvers/tier/loopy.h"

/* Refuses, before any tier is solved, a sector whose peak would exceed the
 * memory budget (ERR_MEMORY). The peak counted: the records the window
 * holds at its fullest (tier_graph_window_peak), the reachability bitmaps,
 * and the largest loopy pass's working set (tier_loopy_bytes, an upper
 * bound), the sum an upper bound since the window's fullest moment and
 * the largest loopy pass need not coincide. Before the bitmaps exist
 * (`reached` false) the loopy pass's 14 or 22 bytes a reachable position
 * are not known and not counted: what is counted is then certain to be
 * needed; once they exist (tier_sector_reach) they are counted. A tier of
 * more than 2^32 slots is no longer refused (until 2026-11-23 the loopy
 * pass's 32-bit indices stopped at 2^31 slots: ERR_LIMIT); its loopy pass
 * keeps 64-bit indices (TIER_LOOPY_WIDE_FROM). */
static ErrCode sector_fits(TierSolve *s, bool reached) {
    bool edges = s->stored_edges || s->g->ops->generate_parents == NULL;
    uint64_t loopy = 0;
    for (int t = 0; t < s->gr.ntiers; t++) {
        const TierNode *n = &s->gr.node[t];
        if (n->outside || s->t[t].held || !n->loopy) {
            continue;
        }
        uint64_t b = tier_loopy_bytes(n->size, reached ? s->t[t].reached : 0, edges);
        loopy = b > loopy ? b : loopy;
    }
    uint64_t records = tier_graph_window_peak(&s->gr, s->width, s->winby);
    uint64_t bitmaps = tier_graph_words(&s->gr) * 8;
    char what[256], a[32], b[32], c[32];
    snprintf(what, sizeof what,
             "tier:sector=%d (records %s, bitmaps %s, loopy pass %s%s; docs/loopy.md)",
             s->sector->tier, mem_format(records, a, sizeof a), mem_format(bitmaps, b, sizeof b),
             mem_format(loopy, c, sizeof c), reached ? "" : " before its positions are counted");
    return mem_check(records + bitmaps + loopy, what, s->err);
}

ErrCode tier_sector_plan(TierSolve *s, int sector) {
    if (sector < 0) {
        return ERR_OK;
    }
    if (sector >= s->gr.ntiers) {
        return error_set(s->err, ERR_USAGE, "tier:sector=%d: game '%s' has tiers 0..%d", sector,
                         s->g->module->name, s->gr.ntiers - 1);
    }
    if (dist_size() > 1) {
        return error_set(s->err, ERR_USAGE, "tier:sector runs in one process (not under MPI)");
    }
    s->sector = mem_calloc(1, sizeof *s->sector, "the sector", s->err);
    if (s->sector == NULL) {
        return ERR_MEMORY;
    }
    s->sector->tier = sector;
    TierNode *node = s->gr.node;
    for (int t = 0; t < s->gr.ntiers; t++) {
        node[t].outside = true;
    }
    int *stack = mem_calloc((size_t)s->gr.ntiers, sizeof *stack, "the tier order", s->err);
    if (stack == NULL) {
        return ERR_MEMORY;
    }
    int top = 0;
    stack[top++] = sector;
    node[sector].outside = false;
    while (top > 0) {
        int t = stack[--top];
        s->t[t].held = tier_files_has(s, t);
        for (int k = 0; k < node[t].nchildren && !s->t[t].held; k++) {
            if (node[node[t].children[k]].outside) {
                node[node[t].children[k]].outside = false;
                stack[top++] = node[t].children[k];
            }
        }
    }
    free(stack);
    tier_graph_recount(&s->gr);
    for (int t = 0; t < s->gr.ntiers; t++) {
        s->t[t].parents_left = node[t].parents;
        if (node[t].outside) {
            s->t[t].hi = 0;
        }
    }
    if (node[s->gr.root_tier].outside) {
        s->gr.root_tier = -1;
    }
    return sector_fits(s, false);
}

/* The bitmaps of tier:sector: every position of the tiers in the sector's
 * closure (TierOps.legal, when the game has it; with `sym`, every canonical
 * one: the records of the others would never be read), in parallel; by
 * the game's TierOps.positions_run when it has one (Bagh Chal: a whole
 * word at a time for most classes of tiger sets, 2026-11-27), in runs of
 * SECTOR_RUN_WORDS words (4,096 slots) a thread takes at a time. */
enum { SECTOR_RUN_WORDS = 64 };
ErrCode tier_sector_reach(TierSolve *s) {
    uint64_t total_words = tier_graph_words(&s->gr);
    uint64_t *block =
        mem_calloc((size_t)total_words + 1, sizeof *block, "the reachability bitmaps", s->err);
    if (block == NULL) {
        return ERR_MEMORY;
    }
    s->reach_block = block;
    uint64_t off = 0;
    s->total_reached = 0;
    for (int t = 0; t < s->gr.ntiers; t++) {
        TierInfo *ti = &s->t[t];
        const TierNode *n = &s->gr.node[t];
        ti->reach = block + off;
        uint64_t nwords = tier_words(n->size);
        off += nwords;
        if (n->outside || ti->held) {
            continue; /* held: from its records once loaded (check_tier) */
        }
        const Game *g = s->g;
        bool (*legal)(const Game *, int, Position) = g->tiers->legal;
        void (*run)(const Game *, int, uint64_t, uint64_t, uint64_t *) = g->tiers->positions_run;
        int tier = t;
        uint64_t size = n->size;
        if (run != NULL) {
            /* the game's fast path, in runs of SECTOR_RUN_WORDS words */
            uint64_t runs = (nwords + SECTOR_RUN_WORDS - 1) / SECTOR_RUN_WORDS;
#pragma omp parallel for num_threads(s->threads) schedule(dynamic, 1) if (size >= s->parallel_min)
            for (uint64_t r = 0; r < runs; r++) {
                uint64_t w0 = r * SECTOR_RUN_WORDS;
                uint64_t k = nwords - w0 < SECTOR_RUN_WORDS ? nwords - w0 : SECTOR_RUN_WORDS;
                run(g, tier, w0, k, ti->reach + w0);
            }
        } else {
#pragma omp parallel for num_threads(s->threads) schedule(dynamic, 1) if (size >= s->parallel_min)
            for (uint64_t w = 0; w < nwords; w++) {
                uint64_t bits = 0;
                for (uint64_t i = w * 64; i < size && i < w * 64 + 64; i++) {
                    Position p = tier_position(s, tier, i);
                    if ((legal == NULL || legal(g, tier, p)) &&
                        (!g->symmetric || game_canonical(g, p) == p)) {
                        bits |= UINT64_C(1) << (i % 64);
                    }
                }
                ti->reach[w] = bits;
            }
        }
        ti->reached = tier_popcount(ti->reach, nwords);
        s->total_reached += ti->reached;
    }
    return sector_fits(s, true);
}

/* The sector's own positions by value (the totals also hold the tiers
 * below it). */
void tier_sector_count(TierSolve *s, int t) {
    if (s->sector == NULL || t != s->sector->tier) {
        return;
    }
    const Database *v = &s->t[t].vals;
    for (uint64_t i = 0; i < s->gr.node[t].size; i++) {
        uint32_t raw = db_peek(v, i);
        if (raw != DB_UNREACHED) {
            s->sector->count[db_raw_value(v, raw)]++;
        }
    }
}

void tier_sector_report(const TierSolve *s) {
    if (s->sector == NULL) {
        return;
    }
    const TierSector *c = s->sector;
    solve_result_extra(s->res, "sector", c->tier);
    solve_result_extra(s->res, "sector_positions", (double)s->t[c->tier].reached);
    solve_result_extra(s->res, "sector_wins", (double)c->count[VALUE_WIN]);
    solve_result_extra(s->res, "sector_losses", (double)c->count[VALUE_LOSE]);
    solve_result_extra(s->res, "sector_ties", (double)c->count[VALUE_TIE]);
    solve_result_extra(s->res, "sector_draws", (double)c->count[VALUE_DRAW]);
}
