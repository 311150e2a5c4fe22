/* solvers/tier/graph.h: a game's tier graph, as the tier solver, its
 * estimate, tier:sector's fit and bin/tier-plan all see it (one copy).
 *
 * From the game's TierOps alone (no position is expanded): every tier's
 * slots and child tiers, the solve order (every tier after its children),
 * the initial position's tier and index, and the memory model: the peak of
 * the tier records held when only the tiers in use are kept (the window,
 * replayed with the solver's eviction rule: a tier's records go when its
 * last parent is solved) and what the whole database would take.
 */
#ifndef SOLVERS_TIER_GRAPH_H
#define SOLVERS_TIER_GRAPH_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"
#include "games/game.h"

/* One tier. */
typedef struct TierNode {
    uint64_t size;  /* slots (local indices 0..size-1); 0 when left out (outside) */
    Position first; /* tier-major games (TierOps.first): the tier's first position */
    int nchildren;
    int children[GAME_MAX_CHILD_TIERS];
    int parents;  /* parent tiers that are solved (the window frees a tier after the last) */
    bool loopy;   /* moves may stay in the tier (TierOps.loopy) */
    bool outside; /* tier:sector: not below the sector, never solved */
} TierNode;

typedef struct TierGraph {
    const Game *g;
    int ntiers;
    TierNode *node; /* [ntiers] */
    int *order;     /* [ntiers] solve order: every tier after its children */
    bool tier_major;
    int root_tier; /* the initial position's tier (-1: left out, tier:sector) */
    uint64_t root_index;
} TierGraph;

/* Builds the graph and checks what the game declared (a tier count in
 * 1..10^6, child tiers that are other tiers, no cycle, tier-major ranges
 * inside the hash space, the initial position inside its tier): ERR_INTERNAL
 * naming the game otherwise. The order is a depth-first postorder over
 * children(). O(tiers + edges). Free with tier_graph_free. */
ErrCode tier_graph_build(const Game *g, TierGraph *gr, Error *err);
void tier_graph_free(TierGraph *gr);

/* Recounts every tier's solved parents, leaving out the tiers marked outside
 * (and giving those size 0). */
void tier_graph_recount(TierGraph *gr);

/* Bitmap words of a tier of `size` slots, and of every tier. */
static inline uint64_t tier_words(uint64_t size) { return (size + 63) / 64; }
uint64_t tier_graph_words(const TierGraph *gr);

/* The set bits of a bitmap of nwords words. */
static inline uint64_t tier_popcount(const uint64_t *bits, uint64_t nwords) {
    uint64_t n = 0;
    for (uint64_t w = 0; w < nwords; w++) {
        n += (uint64_t)__builtin_popcountll(bits[w]);
    }
    return n;
}

/* The position of local index i of tier `tier`: first + i in a tier-major
 * game, else TierOps.position_at (a counted unhash and hash). */
static inline Position tier_graph_position(const TierGraph *gr, int tier, uint64_t i) {
    return gr->tier_major ? gr->node[tier].first + i : gr->g->tiers->position_at(gr->g, tier, i);
}

/* Peak bytes of tier records (width bytes a record, + 2 with WinBy) when
 * only the tiers in use are kept: the solve order replayed with the
 * eviction rule (tiers outside are never solved). UINT64_MAX when out of
 * memory. O(tiers + edges). */
uint64_t tier_graph_window_peak(const TierGraph *gr, unsigned width, bool winby);

/* The memory model of a solve (choose_mode, the estimate): the bitmaps
 * (one bit a slot), the records of the tiers in use (the window; with
 * sliced_ranks > 0 (tier:sliced on that many ranks), 1/ranks of it plus the look-up bitmaps of the
 * largest tier, 16 bytes per 64 slots), and the whole database (one
 * record a hash slot, the bitmaps, and the window too when the tiers are
 * copied into it: not tier-major). */
typedef struct TierMemory {
    uint64_t bitmaps, window, full;
} TierMemory;
void tier_graph_memory(const TierGraph *gr, unsigned width, bool winby, int sliced_ranks,
                       TierMemory *m);

#endif /* SOLVERS_TIER_GRAPH_H */
