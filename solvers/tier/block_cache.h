/* solvers/tier/block_cache.h: a thread's cache of decompressed file blocks
 * of a database's child tiers, shared by tier:blocks' backward pass
 * (blocks.c: the child records of the part being solved) and --verify by
 * parts (solvers/store_verify_parts.c: the child records of the part being
 * checked), so that both read a child record the same way.
 *
 * `sets` sets of TIER_BLOCKS_WAYS entries (graph.h), each set in LRU order
 * (way 0 the most recent), an entry pointing at its file block's bytes in
 * `data`. A record is looked up in the set of its file block (a hash of the
 * block's number and the tier), most recent first; a hit moves its entry to
 * the front, a miss reads the block (dbstore_block_read: one pread, or the frame from a mapped
 * file, its checksum, one zstd decompression) into the least recent entry, then the front. So a set
 * holds the TIER_BLOCKS_WAYS blocks used last among those hashed to it. Where a tier's local index
 * lies on disk (which open file, from which local index) the caller says through a TierBlockFind.
 * Records of 1 or 2 bytes, no WinBy scores (the block holds records only).
 * Memory: blocks x (DBSTORE_BLOCK_BYTES + TIER_BLOCKS_ENTRY_BYTES) and a
 * zstd decompression context; one cache per thread, never shared.
 */
#ifndef SOLVERS_TIER_BLOCK_CACHE_H
#define SOLVERS_TIER_BLOCK_CACHE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/dbstore.h"
#include "core/error.h"
#include "solvers/tier/graph.h"

typedef struct BlockCacheEntry {
    int tier; /* -1: empty */
    uint64_t lo, hi;
    unsigned char *data; /* DBSTORE_BLOCK_BYTES */
} BlockCacheEntry;

typedef struct BlockCache {
    BlockCacheEntry *e;  /* [sets * TIER_BLOCKS_WAYS] */
    uint64_t set_mask;   /* sets - 1 (a power of two) */
    unsigned char *data; /* sets * TIER_BLOCKS_WAYS * DBSTORE_BLOCK_BYTES */
    void *dctx;
    unsigned width; /* bytes a record: 1 or 2 */
    uint64_t misses;
} BlockCache;

/* The open file of tier `tier` holding local index ci, and in *first the
 * local index of its record 0; NULL when no open file holds it. Called on
 * a miss, from any thread at once. */
typedef const DbStoreFile *(*TierBlockFind)(void *ctx, int tier, uint64_t ci, uint64_t *first);

/* A cache of `blocks` file blocks (a power of two, at least
 * TIER_BLOCKS_WAYS: graph.h tier_graph_cache_blocks) for records of
 * `width` bytes. ERR_MEMORY when it cannot be allocated (free it anyway). */
ErrCode tier_block_cache_init(BlockCache *c, uint64_t blocks, unsigned width, Error *err);
void tier_block_cache_free(BlockCache *c);

/* A miss: the file block holding local index ci of tier ct read into
 * entry e; false (in *err) when no open file holds it or it cannot be
 * read. */
bool tier_block_cache_fill(BlockCache *c, BlockCacheEntry *e, int ct, uint64_t ci,
                           TierBlockFind find, void *ctx, Error *err);

/* The soft limit of open files raised to `files` and a margin, or
 * ERR_LIMIT naming `what` and the remedy when it cannot be. */
ErrCode tier_block_files_limit(uint64_t files, const char *what, const char *remedy, Error *err);

/* The record of local index ci of tier ct (see the top). False (in *err)
 * when a file cannot be read. */
_Static_assert(DBSTORE_BLOCK_BYTES % 2 == 0, "a record of 1 or 2 bytes divides a file block");
_Static_assert(sizeof(BlockCacheEntry) <= TIER_BLOCKS_ENTRY_BYTES, "the memory model's entry");
static inline bool tier_block_cache_get(BlockCache *c, int ct, uint64_t ci, TierBlockFind find,
                                        void *ctx, uint32_t *raw, Error *err) {
    /* ci / (DBSTORE_BLOCK_BYTES / width), exact for a width dividing the
     * block's bytes (1 or 2), and a shift: a division by a run-time value
     * here was a third of the visit's time (perf, 5x5) */
    uint64_t key = ci * (uint64_t)c->width / DBSTORE_BLOCK_BYTES;
    uint64_t set = ((key * UINT64_C(0x9E3779B97F4A7C15) + (uint64_t)ct) >> 32) & c->set_mask;
    BlockCacheEntry *e = &c->e[set * TIER_BLOCKS_WAYS];
    int w = 0;
    while (w < TIER_BLOCKS_WAYS && (e[w].tier != ct || ci - e[w].lo >= e[w].hi - e[w].lo)) {
        w++;
    }
    if (w > 0) { /* not the front: to the front, the ones before it one back */
        int at = w == TIER_BLOCKS_WAYS ? w - 1 : w; /* a miss takes the least recent */
        BlockCacheEntry hit = e[at];
        for (; at > 0; at--) {
            e[at] = e[at - 1];
        }
        e[0] = hit;
        if (w == TIER_BLOCKS_WAYS && !tier_block_cache_fill(c, &e[0], ct, ci, find, ctx, err)) {
            return false;
        }
    }
    const unsigned char *data = e[0].data;
    uint64_t j = ci - e[0].lo;
    if (c->width == 1) {
        *raw = data[j];
    } else {
        uint16_t r;
        memcpy(&r, data + 2 * j, 2);
        *raw = r;
    }
    return true;
}

#endif /* SOLVERS_TIER_BLOCK_CACHE_H */
