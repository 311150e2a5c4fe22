/* solvers/tier/block_cache.c: the cold half of a thread's cache of child
 * file blocks (block_cache.h): allocation, a miss (one file block read and
 * decompressed into an entry), and the limit of open files the caller's
 * child files need. The lookup itself is inline in the header (the hot
 * path of tier:blocks' visit and of --verify by parts).
 */
#include "solvers/tier/block_cache.h"

#include <inttypes.h>
#include <stdlib.h>

ErrCode tier_block_cache_init(BlockCache *c, uint64_t blocks, unsigned width, Error *err) {
    memset(c, 0, sizeof *c);
    c->width = width;
    c->set_mask = blocks / TIER_BLOCKS_WAYS - 1;
    c->e = malloc((size_t)blocks * sizeof *c->e);
    c->data = malloc((size_t)blocks * DBSTORE_BLOCK_BYTES);
    c->dctx = dbstore_dctx_new();
    for (uint64_t j = 0; j < blocks && c->e != NULL && c->data != NULL; j++) {
        c->e[j] = (BlockCacheEntry){.tier = -1, .data = c->data + j * DBSTORE_BLOCK_BYTES};
    }
    if (c->e == NULL || c->data == NULL || c->dctx == NULL) {
        return error_set(err, ERR_MEMORY, "cannot allocate a cache of child blocks");
    }
    return ERR_OK;
}

void tier_block_cache_free(BlockCache *c) {
    free(c->data);
    free(c->e);
    if (c->dctx != NULL) {
        dbstore_dctx_free(c->dctx);
    }
    memset(c, 0, sizeof *c);
}

bool tier_block_cache_fill(BlockCache *c, BlockCacheEntry *e, int ct, uint64_t ci,
                           TierBlockFind find, void *ctx, Error *err) {
    uint64_t first = 0;
    const DbStoreFile *f = find(ctx, ct, ci, &first);
    e->tier = -1;
    if (f == NULL) {
        error_set(err, ERR_INTERNAL, "tier %d's file holding local index %" PRIu64 " is not open",
                  ct, ci);
        return false;
    }
    uint64_t k = (ci - first) / f->block_records;
    if (dbstore_block_bytes(f, k) > DBSTORE_BLOCK_BYTES) {
        error_set(err, ERR_INTERNAL, "%s: a block larger than the cache's", f->path);
        return false;
    }
    if (dbstore_block_read(f, k, c->dctx, e->data, err) != ERR_OK) {
        return false;
    }
    c->misses++;
    e->tier = ct;
    e->lo = first + k * f->block_records;
    e->hi = e->lo + dbstore_block_bytes(f, k) / c->width;
    return true;
}

ErrCode tier_block_files_limit(uint64_t files, const char *what, const char *remedy, Error *err) {
    uint64_t need = files + 64;
    uint64_t lim = dbstore_files_limit(need);
    if (lim == 0 || lim >= need) {
        return ERR_OK; /* not known: as before, tried */
    }
    return error_set(err, ERR_LIMIT,
                     "%s keeps %llu files open, more than the limit of open files (%llu); %s", what,
                     (unsigned long long)files, (unsigned long long)lim, remedy);
}
