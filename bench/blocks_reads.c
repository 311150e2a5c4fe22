/* bench/blocks_reads.c: a model of tier:blocks' child block reads on
 * Connect Four (docs/connect-four.md, "Speed: what a child block read
 * costs"), a tool of its own (scripts/measure/blocks-read-sim.sh builds
 * it; not part of bin/bench).
 *
 * Usage: blocks_reads W H CACHE...: for each CACHE (file blocks, a power of
 * two, at least 4), the file blocks of 4 KiB (one-byte records) the
 * backward pass would decompress on one thread: the tiers in the solve's
 * order (the last first), each parent block of heights (colhash's order)
 * sweeping every file block of each of its child blocks (one stream an
 * open column, last column first, the streams interleaved evenly), each
 * through one 4-way LRU cache hashed as solvers/tier/block_cache.h hashes
 * (a block's number times the golden ratio plus the tier, the high half).
 * It counts a read for every file block a sweep crosses, where the solve
 * reads only those its reached positions touch, and ignores the parts'
 * boundaries and the second thread: a model to compare cache sizes, not a
 * count of the solve's reads. Also prints the reads with each child file
 * block read once. Time: O(reads); memory: the cache's entries.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "hash/colhash.h"
#include "hash/combi.h"

typedef struct Entry {
    int tier; /* -1: empty */
    uint64_t key;
} Entry;

typedef struct Cache {
    Entry *e; /* sets of 4, most recent first */
    uint64_t mask, reads;
} Cache;

static void cache_get(Cache *c, int tier, uint64_t key) {
    uint64_t set = ((key * UINT64_C(0x9E3779B97F4A7C15) + (uint64_t)tier) >> 32) & c->mask;
    Entry *s = &c->e[set * 4];
    int w = 0;
    while (w < 4 && (s[w].tier != tier || s[w].key != key)) {
        w++;
    }
    if (w == 4) { /* a miss: the least recent goes */
        c->reads++;
        w = 3;
        s[3] = (Entry){tier, key};
    }
    Entry hit = s[w];
    for (; w > 0; w--) {
        s[w] = s[w - 1];
    }
    s[0] = hit;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: blocks_reads W H CACHE...\n");
        return 2;
    }
    int w = atoi(argv[1]), h = atoi(argv[2]);
    ColHash ch;
    Error err;
    if (w < 1 || h < 1 || colhash_init(&ch, w, h, &err) != ERR_OK) {
        fprintf(stderr, "blocks_reads: no %dx%d board\n", w, h);
        return 2;
    }
    for (int a = 3; a < argc; a++) {
        uint64_t blocks = strtoull(argv[a], NULL, 10);
        if (blocks < 4 || (blocks & (blocks - 1)) != 0) {
            fprintf(stderr, "blocks_reads: CACHE %s is not a power of two of at least 4\n",
                    argv[a]);
            return 2;
        }
        Cache c = {malloc((size_t)blocks * sizeof(Entry)), blocks / 4 - 1, 0};
        if (c.e == NULL) {
            fprintf(stderr, "blocks_reads: no memory for %s entries\n", argv[a]);
            return 1;
        }
        for (uint64_t i = 0; i < blocks; i++) {
            c.e[i].tier = -1;
        }
        uint64_t once = 0;
        for (int n = ch.cells - 1; n >= 0; n--) {
            uint64_t col = ch.colourings[n], col1 = ch.colourings[n + 1];
            uint64_t nblocks = colhash_tier_size(&ch, n) / col, per = (col1 + 4095) / 4096;
            once += (colhash_tier_size(&ch, n + 1) + 4095) / 4096;
            for (uint64_t hr = 0; hr < nblocks; hr++) {
                uint8_t heights[COLHASH_MAX_COLS] = {0};
                compositions_unrank_core(&ch.heights, hr, n, heights);
                uint64_t base[COLHASH_MAX_COLS];
                int streams = 0;
                for (int k = w - 1; k >= 0; k--) {
                    if (heights[k] == h) {
                        continue;
                    }
                    heights[k]++;
                    base[streams++] = compositions_rank_core(&ch.heights, heights, n + 1) * col1;
                    heights[k]--;
                }
                for (uint64_t j = 0; j < per; j++) {
                    for (int k = 0; k < streams; k++) {
                        cache_get(&c, n + 1, (base[k] + j * 4096) / 4096);
                    }
                }
            }
        }
        printf("%dx%d cache %" PRIu64 " blocks: %" PRIu64
               " reads (each child file block once: %" PRIu64 ")\n",
               w, h, blocks, c.reads, once);
        free(c.e);
    }
    colhash_destroy(&ch);
    return 0;
}
