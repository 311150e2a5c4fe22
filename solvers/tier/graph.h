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

/* tier:blocks (solvers/tier/blocks.c): a tier is solved in parts, each a
 * file of the database directory. The part that starts at local index lo
 * of tier t ends at tier_graph_part_end: at most `target` records on, at
 * the last boundary of the game's blocks (TierOps.block_size) that keeps
 * it within target, or, when the next block boundary lies farther than
 * target (a block larger than a part), target records on; at the tier's
 * end at the latest. So a part is a run of whole blocks unless a block
 * alone exceeds the target, and never holds more than target records. */
uint64_t tier_graph_part_end(const TierGraph *gr, int t, uint64_t lo, uint64_t target);

/* The whole bitmaps tier:blocks' forward pass holds at its fullest
 * (bytes): a tier's bitmap is whole in memory from its first parent's walk
 * (which marks it) to its last parent's (then it is written to disk); a
 * tier without a parent tier has its own while it is made and written. The
 * tier walked is read from its file slice by slice (not counted here:
 * TierBlocksMemory.slices). The solve order replayed backwards. Connect
 * Four, a chain of tiers: the largest tier's bitmap. O(tiers + edges). */
uint64_t tier_graph_reach_peak(const TierGraph *gr);
/* The same replay with bytes[t] the bytes of tier t's bitmap held (a
 * rank's share of it: solvers/tier/plan.h); bytes NULL: whole bitmaps,
 * tier_graph_reach_peak. */
uint64_t tier_graph_reach_peak_of(const TierGraph *gr, const uint64_t *bytes);

/* The memory model of tier:blocks on `threads` threads with parts of at
 * most part_records records (each record `width` bytes; no WinBy):
 *   bitmaps   tier_graph_reach_peak: the whole bitmaps of the child tiers
 *             the forward pass marks, one bit a slot (the others on disk);
 *   slices    the tier walked (forward) or solved (backward), one part at
 *             a time: the part's words of its bitmap (part_records / 64 +
 *             2 words), its bitmap file open (TIER_BLOCKS_FILE_BYTES and 16
 *             bytes of block index per file block, at the largest tier),
 *             and TIER_BLOCKS_SLICE_IO_BYTES (a zstd decompression context,
 *             a file block);
 *   parts     3 parts: the one being solved, the one the background writer
 *             compresses meanwhile, and its compressed pieces in flight (at
 *             most its raw size);
 *   caches    per thread, cache_blocks decompressed blocks of the child
 *             tiers' files (DBSTORE_BLOCK_BYTES each, and TIER_BLOCKS_ENTRY_BYTES
 *             of bookkeeping each), rounded down to a power of two and at
 *             most the power of two at or above twice the file blocks of
 *             the child tiers of any one tier (a larger cache would hold
 *             nothing more: Connect Four 5x4's caches hold 512 blocks);
 *             m->cache_blocks;
 *   indexes   the open child parts: per part file TIER_BLOCKS_FILE_BYTES
 *             (its DbStoreFile and zstd dictionary), per file block of
 *             DBSTORE_BLOCK_BYTES / width records 16 bytes of index (a
 *             bound: the index as stored, 8 bytes, read in the mapping, and
 *             the offsets of its groups, core/dbstore.h), at the tier
 *             whose child tiers need the most;
 *   rest      TIER_BLOCKS_REST_BYTES, and per thread TIER_BLOCKS_THREAD_BYTES:
 *             its zstd decompression context, a compressor of the
 *             background writer and its scratch (core/dbwriter.h), the
 *             solver's own tables.
 * Also: the number of parts and the largest part and block, for the
 * estimate. O(tiers + parts). */
/* The cache's default size (file blocks a thread: tier:blocks,cache=N)
 * and its associativity; N is rounded down to a power of two, at least
 * TIER_BLOCKS_WAYS. 32768 blocks (128 MiB a thread): a simulation of the
 * backward pass's reads (docs/connect-four.md) has 6x5 reading 37% fewer
 * child blocks than with 4096, 5x7 6% fewer, and no more gained beyond;
 * each read is a 7 us decompression. --verify by parts sizes its caches
 * the same way (store_verify_parts.c). */
#define TIER_BLOCKS_CACHE_DEFAULT 32768
#define TIER_BLOCKS_WAYS 4
#define TIER_BLOCKS_ENTRY_BYTES 64
#define TIER_BLOCKS_PART_DEFAULT (UINT64_C(1) << 25)
/* An open part file: its DbStoreFile (4.3 KiB) and the ZSTD_DDict of its
 * 4 KiB dictionary, rounded up (checked in docs/connect-four.md). */
#define TIER_BLOCKS_FILE_BYTES (UINT64_C(48) << 10)
#define TIER_BLOCKS_REST_BYTES (UINT64_C(1) << 20)
#define TIER_BLOCKS_THREAD_BYTES (UINT64_C(512) << 10)
#define TIER_BLOCKS_SLICE_IO_BYTES (UINT64_C(256) << 10)
typedef struct TierBlocksMemory {
    uint64_t bitmaps, slices, parts, caches, indexes, rest, total;
    uint64_t nparts, largest_part, largest_block;
    uint64_t cache_blocks; /* a thread's cache, as tier:blocks allocates it */
} TierBlocksMemory;
void tier_graph_blocks_memory(const TierGraph *gr, unsigned width, uint64_t part_records,
                              int threads, uint64_t cache_blocks, TierBlocksMemory *m);
/* tier:blocks,cache=N as the cache holds it: rounded down to a power of
 * two, at least TIER_BLOCKS_WAYS. */
uint64_t tier_graph_cache_blocks(uint64_t n);
/* tier_graph_cache_blocks(n), at most the power of two at or above twice
 * child_blocks (the file blocks of the child tiers of any one tier: a
 * larger cache would hold nothing more); tier:blocks' caches and --verify
 * by parts' (solvers/store_verify_parts.c). */
uint64_t tier_graph_cache_capped(uint64_t n, uint64_t child_blocks);

#endif /* SOLVERS_TIER_GRAPH_H */
