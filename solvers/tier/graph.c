/* solvers/tier/graph.c: the tier graph (graph.h): tiers, children, the
 * solve order by a depth-first postorder, the window replay and the memory
 * models (the window's and tier:blocks' parts), for the tier solver and
 * bin/tier-plan alike. O(tiers + edges), the parts O(parts). */
#include "solvers/tier/graph.h"

#include <stdlib.h>
#include <string.h>

#include "core/db.h"
#include "core/dbstore.h"
#include "core/mem.h"

/* Postorder DFS over children: a tier comes after all its children.
 * state 0 new, 1 on the stack, 2 done; a child on the stack is a cycle. */
static ErrCode order_tiers(TierGraph *gr, Error *err) {
    int n = gr->ntiers;
    uint8_t *state = mem_calloc((size_t)n, 1, "the tier order", err);
    int *stack = mem_calloc((size_t)n, sizeof *stack, "the tier order", err);
    int *next = mem_calloc((size_t)n, sizeof *next, "the tier order", err);
    ErrCode rc = (state && stack && next) ? ERR_OK : ERR_MEMORY;
    int norder = 0;
    for (int r = 0; r < n && rc == ERR_OK; r++) {
        if (state[r] != 0) {
            continue;
        }
        int top = 0;
        stack[top++] = r;
        state[r] = 1;
        while (top > 0 && rc == ERR_OK) {
            int t = stack[top - 1];
            if (next[t] < gr->node[t].nchildren) {
                int c = gr->node[t].children[next[t]++];
                if (state[c] == 1) {
                    rc = error_set(err, ERR_INTERNAL,
                                   "game '%s': its tiers form a cycle through tier %d (the tier "
                                   "solver needs tiers that never lead back)",
                                   gr->g->module->name, c);
                } else if (state[c] == 0) {
                    state[c] = 1;
                    stack[top++] = c;
                }
            } else {
                state[t] = 2;
                gr->order[norder++] = t;
                top--;
            }
        }
    }
    free(state);
    free(stack);
    free(next);
    return rc;
}

ErrCode tier_graph_build(const Game *g, TierGraph *gr, Error *err) {
    const TierOps *to = g->tiers;
    *gr = (TierGraph){.g = g, .tier_major = to->first != NULL};
    gr->ntiers = to->count(g);
    if (gr->ntiers < 1 || gr->ntiers > 1000000) {
        return error_set(err, ERR_INTERNAL, "game '%s' declares %d tiers", g->module->name,
                         gr->ntiers);
    }
    gr->node = mem_calloc((size_t)gr->ntiers, sizeof *gr->node, "the tier table", err);
    gr->order = mem_calloc((size_t)gr->ntiers, sizeof *gr->order, "the tier order", err);
    if (gr->node == NULL || gr->order == NULL) {
        return ERR_MEMORY;
    }
    for (int t = 0; t < gr->ntiers; t++) {
        TierNode *ti = &gr->node[t];
        ti->size = to->size(g, t);
        ti->loopy = to->loopy != NULL ? to->loopy(g, t) : g->loopy;
        ti->nchildren = to->children(g, t, ti->children);
        if (ti->nchildren < 0 || ti->nchildren > GAME_MAX_CHILD_TIERS) {
            return error_set(err, ERR_INTERNAL, "game '%s': tier %d has %d child tiers",
                             g->module->name, t, ti->nchildren);
        }
        for (int k = 0; k < ti->nchildren; k++) {
            if (ti->children[k] < 0 || ti->children[k] >= gr->ntiers || ti->children[k] == t) {
                return error_set(err, ERR_INTERNAL,
                                 "game '%s': tier %d lists child tier %d (the tier solver needs "
                                 "child tiers that are other tiers of the game)",
                                 g->module->name, t, ti->children[k]);
            }
        }
        if (gr->tier_major) {
            ti->first = to->first(g, t);
            if (ti->first > g->num_positions || ti->size > g->num_positions - ti->first) {
                return error_set(err, ERR_INTERNAL,
                                 "game '%s': tier %d [%" PRIu64 ", +%" PRIu64
                                 ") is outside the hash space",
                                 g->module->name, t, ti->first, ti->size);
            }
        }
    }
    tier_graph_recount(gr);
    ErrCode rc = order_tiers(gr, err);
    if (rc != ERR_OK) {
        return rc;
    }
    Position root = game_canonical(g, g->initial);
    gr->root_tier = to->tier_of(g, root);
    if (gr->root_tier < 0 || gr->root_tier >= gr->ntiers) {
        return error_set(err, ERR_INTERNAL, "game '%s': the initial position is in tier %d",
                         g->module->name, gr->root_tier);
    }
    gr->root_index = gr->tier_major ? root - gr->node[gr->root_tier].first : to->index_of(g, root);
    if (gr->root_index >= gr->node[gr->root_tier].size) {
        return error_set(err, ERR_INTERNAL, "game '%s': the initial position is outside its tier",
                         g->module->name);
    }
    return ERR_OK;
}

void tier_graph_free(TierGraph *gr) {
    free(gr->node);
    free(gr->order);
    gr->node = NULL;
    gr->order = NULL;
}

void tier_graph_recount(TierGraph *gr) {
    for (int t = 0; t < gr->ntiers; t++) {
        gr->node[t].parents = 0;
    }
    for (int t = 0; t < gr->ntiers; t++) {
        TierNode *ti = &gr->node[t];
        if (ti->outside) {
            ti->size = 0;
            continue;
        }
        for (int k = 0; k < ti->nchildren; k++) {
            gr->node[ti->children[k]].parents++;
        }
    }
}

uint64_t tier_graph_words(const TierGraph *gr) {
    uint64_t n = 0;
    for (int t = 0; t < gr->ntiers; t++) {
        n += tier_words(gr->node[t].size);
    }
    return n;
}

uint64_t tier_graph_window_peak(const TierGraph *gr, unsigned width, bool winby) {
    int *left = malloc((size_t)gr->ntiers * sizeof *left);
    if (left == NULL) {
        return UINT64_MAX;
    }
    for (int t = 0; t < gr->ntiers; t++) {
        left[t] = gr->node[t].parents;
    }
    uint64_t resident = 0, peak = 0;
    for (int k = 0; k < gr->ntiers; k++) {
        int t = gr->order[k];
        const TierNode *ti = &gr->node[t];
        if (ti->outside) {
            continue; /* tier:sector: never solved, so it frees no child */
        }
        resident += db_bytes(ti->size, width, winby);
        peak = resident > peak ? resident : peak;
        for (int c = 0; c < ti->nchildren; c++) {
            int ct = ti->children[c];
            if (--left[ct] == 0) {
                resident -= db_bytes(gr->node[ct].size, width, winby);
            }
        }
        if (left[t] == 0) {
            resident -= db_bytes(ti->size, width, winby);
        }
    }
    free(left);
    return peak;
}

void tier_graph_memory(const TierGraph *gr, unsigned width, bool winby, int sliced_ranks,
                       TierMemory *m) {
    m->bitmaps = tier_graph_words(gr) * 8;
    m->window = tier_graph_window_peak(gr, width, winby);
    if (sliced_ranks > 0) {
        /* 1/N of the tiers in use, and the look-up bitmaps of the largest
         * tier (16 bytes per 64 slots); the fetched records are checked
         * when they are allocated */
        uint64_t most = 0;
        for (int t = 0; t < gr->ntiers; t++) {
            most = gr->node[t].size > most ? gr->node[t].size : most;
        }
        m->window = m->window / (uint64_t)sliced_ranks + tier_words(most) * 16;
    }
    m->full = db_bytes(gr->g->num_positions, width, winby) + m->bitmaps +
              (gr->tier_major ? 0 : m->window);
}

uint64_t tier_graph_part_end(const TierGraph *gr, int t, uint64_t lo, uint64_t target) {
    uint64_t size = gr->node[t].size;
    const TierOps *to = gr->g->tiers;
    uint64_t bs = to->block_size != NULL && gr->tier_major ? to->block_size(gr->g, t) : 0;
    uint64_t end = size - lo <= target ? size : lo + target;
    if (bs > 0 && end < size) {
        uint64_t next = (lo / bs + 1) * bs; /* the first block boundary after lo */
        if (next - lo <= target) {
            end = lo + target - (lo + target) % bs; /* the last one within target */
        }
    }
    return end;
}

uint64_t tier_graph_reach_peak(const TierGraph *gr) { return tier_graph_reach_peak_of(gr, NULL); }

/* Tier t's bitmap bytes in the replay: bytes[t], or the whole bitmap. */
static uint64_t reach_bytes(const TierGraph *gr, const uint64_t *bytes, int t) {
    return bytes != NULL ? bytes[t] : tier_words(gr->node[t].size) * 8;
}

uint64_t tier_graph_reach_peak_of(const TierGraph *gr, const uint64_t *bytes) {
    int *left = malloc((size_t)gr->ntiers * sizeof *left); /* parent tiers not yet walked */
    bool *held = calloc((size_t)gr->ntiers, sizeof *held); /* whole in memory */
    if (left == NULL || held == NULL) {
        free(left);
        free(held);
        uint64_t all = 0; /* every bitmap: a bound */
        for (int t = 0; t < gr->ntiers; t++) {
            all += reach_bytes(gr, bytes, t);
        }
        return all;
    }
    for (int t = 0; t < gr->ntiers; t++) {
        left[t] = gr->node[t].parents;
    }
    uint64_t cur = 0, peak = 0;
    for (int k = gr->ntiers - 1; k >= 0; k--) {
        int t = gr->order[k];
        const TierNode *n = &gr->node[t];
        if (n->parents == 0) { /* made, written and freed at its turn */
            uint64_t own = reach_bytes(gr, bytes, t);
            peak = cur + own > peak ? cur + own : peak;
        }
        for (int c = 0; c < n->nchildren; c++) { /* marked: whole in memory */
            int ct = n->children[c];
            cur += held[ct] ? 0 : reach_bytes(gr, bytes, ct);
            held[ct] = true;
        }
        peak = cur > peak ? cur : peak;
        for (int c = 0; c < n->nchildren; c++) {
            int ct = n->children[c];
            if (--left[ct] == 0) { /* its last parent: written and freed */
                cur -= reach_bytes(gr, bytes, ct);
            }
        }
    }
    free(left);
    free(held);
    return peak;
}

uint64_t tier_graph_cache_blocks(uint64_t n) {
    uint64_t p = TIER_BLOCKS_WAYS;
    while (p <= n / 2) {
        p *= 2;
    }
    return p;
}

uint64_t tier_graph_cache_capped(uint64_t n, uint64_t child_blocks) {
    uint64_t cap = TIER_BLOCKS_WAYS;
    while (cap < 2 * child_blocks) {
        cap *= 2;
    }
    uint64_t blocks = tier_graph_cache_blocks(n);
    return blocks < cap ? blocks : cap;
}

void tier_graph_blocks_memory(const TierGraph *gr, unsigned width, uint64_t part_records,
                              int threads, uint64_t cache_blocks, TierBlocksMemory *m) {
    memset(m, 0, sizeof *m);
    m->bitmaps = tier_graph_reach_peak(gr);
    uint64_t per_block = DBSTORE_BLOCK_BYTES / width, reach_blocks = 0;
    const TierOps *to = gr->g->tiers;
    uint64_t *parts = calloc((size_t)gr->ntiers * 2, sizeof *parts);
    uint64_t *fblocks = parts != NULL ? parts + gr->ntiers : NULL; /* file blocks a tier */
    for (int t = 0; t < gr->ntiers; t++) {
        uint64_t size = gr->node[t].size;
        for (uint64_t lo = 0; lo < size;) {
            uint64_t hi = tier_graph_part_end(gr, t, lo, part_records);
            m->largest_part = hi - lo > m->largest_part ? hi - lo : m->largest_part;
            m->nparts++;
            if (parts != NULL) {
                parts[t]++;
                fblocks[t] += (hi - lo + per_block - 1) / per_block;
            }
            lo = hi;
        }
        uint64_t bs = to->block_size != NULL && gr->tier_major ? to->block_size(gr->g, t) : 0;
        m->largest_block = bs > m->largest_block ? bs : m->largest_block;
        /* its bitmap file: words in blocks of DBSTORE_BLOCK_BYTES / 8 */
        uint64_t rb = (tier_words(size) + DBSTORE_BLOCK_BYTES / 8 - 1) / (DBSTORE_BLOCK_BYTES / 8);
        reach_blocks = rb > reach_blocks ? rb : reach_blocks;
    }
    m->slices = (m->largest_part / 64 + 2) * 8 + TIER_BLOCKS_FILE_BYTES + reach_blocks * 16 +
                TIER_BLOCKS_SLICE_IO_BYTES;
    for (int t = 0; t < gr->ntiers; t++) {
        uint64_t idx = 0;
        for (int k = 0; k < gr->node[t].nchildren; k++) {
            int c = gr->node[t].children[k];
            /* per part: its file's state and dictionary; per file block, 16 bytes */
            uint64_t nparts = parts != NULL ? parts[c] : gr->node[c].size / per_block + 1;
            idx += nparts * TIER_BLOCKS_FILE_BYTES +
                   (gr->node[c].size + nparts * (per_block - 1)) / per_block * 16;
        }
        m->indexes = idx > m->indexes ? idx : m->indexes;
    }
    m->parts = 3 * m->largest_part * width;
    /* the cache: cache=N as a power of two, but no more than twice the
     * file blocks of the child tiers of any one tier (the set hash spreads
     * them over its sets: 5x4 512 blocks, 5x5 and 6x4 16384, 6x5 and the
     * larger boards not capped) */
    uint64_t most = 0;
    for (int t = 0; t < gr->ntiers; t++) {
        uint64_t blocks = 0;
        for (int k = 0; k < gr->node[t].nchildren; k++) {
            int c = gr->node[t].children[k];
            blocks += fblocks != NULL ? fblocks[c] : gr->node[c].size / per_block + 1;
        }
        most = blocks > most ? blocks : most;
    }
    free(parts);
    m->cache_blocks = tier_graph_cache_capped(cache_blocks, most);
    m->caches =
        (uint64_t)threads * m->cache_blocks * (DBSTORE_BLOCK_BYTES + TIER_BLOCKS_ENTRY_BYTES);
    m->rest = TIER_BLOCKS_REST_BYTES + (uint64_t)threads * TIER_BLOCKS_THREAD_BYTES;
    m->total = m->bitmaps + m->slices + m->parts + m->caches + m->indexes + m->rest;
}
