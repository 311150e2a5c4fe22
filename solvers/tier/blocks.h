/* solvers/tier/blocks.h: tier:blocks' state, private to its two units:
 * blocks.c (the plan, the backward pass part by part, the manifest) and
 * blocks_reach.c (the bitmaps on disk: the forward pass, and the slices of
 * a tier's bitmap that both passes read one part at a time). The solver
 * sees only internal.h's tier_blocks_* functions.
 */
#ifndef SOLVERS_TIER_BLOCKS_H
#define SOLVERS_TIER_BLOCKS_H

#include "core/dbfile.h"
#include "solvers/tier/block_cache.h"
#include "solvers/tier/internal.h"

/* One part: its range, its file's header checksum and size, and the file
 * open for reading while its tier is a child in use. */
typedef struct BlockPart {
    uint64_t lo, hi;
    uint64_t file_sum, file_bytes;
    DbStoreFile *f; /* NULL: not open */
    bool written;   /* by this run */
} BlockPart;

/* A thread's cache of decompressed child file blocks: block_cache.h
 * (shared with --verify by parts). */

struct TierBlocks {
    uint64_t target;       /* records a part at most */
    int *first;            /* [ntiers + 1]: tier t's parts are part[first[t] .. first[t + 1]) */
    BlockPart *part;       /* every tier's, in tier order */
    Database buf[2];       /* part buffers (capacity: the largest part) */
    int busy;              /* the buffer of the last submit (-1: none), which the writer may read */
    Database cur;          /* the part being solved: buf[k] narrowed to it */
    uint64_t cur_lo;       /* its first local index */
    BlockCache *cache;     /* [threads] */
    uint64_t cache_blocks; /* file blocks a thread's cache holds (a power of two) */
    bool guided;           /* the backward pass's walks: TierSolve.guided */
    long stop_after;       /* GAMESMAN_TIER_BLOCKS_STOP (0: never) */
    long written;          /* files this run wrote or handed to the writer */
    bool complete;         /* DIR holds the complete database: bitmaps from the records */
    uint64_t parts_solved, parts_loaded;
    uint64_t parts_mapped; /* child part files opened mapped (dbstore_file_map) */
    uint64_t tier_done;    /* positions of the tier solved so far (progress) */
    TierBlocksMemory mem;
    /* the tier's streamed checksum: whole 32-byte pieces, and the rest */
    DbfileSum sum;
    unsigned char carry[32];
    size_t ncarry;
    /* the bitmaps (blocks_reach.c): the file read slice by slice, open
     * for tier rf_tier (-1: none), a decompression context, the slice
     * (largest_part / 64 + 2 words) and one file block; per tier, the
     * reached positions counted when its bitmap was written or first
     * walked in this run (UINT64_MAX: not known), which every later walk
     * of its slices must count again */
    DbStoreFile rf;
    int rf_tier;
    void *rdctx;
    uint64_t *slice, slice_words;
    unsigned char *rblock;
    uint64_t *count;
    /* the tier the backward pass is on takes its bits from its parts'
     * records: a complete database, or a tier solved before a kill, whose
     * bitmap file was removed once its parts were on disk */
    bool records_bits;
};

/* blocks.c: the test hook (GAMESMAN_TIER_BLOCKS_STOP): like a kill once
 * this run has written (or handed to the writer) that many files. */
void tier_blocks_stop_point(TierBlocks *b);
/* blocks.c: every part file of tier t is in DIR (the tier is solved: its
 * bitmap is no longer needed, its records say which positions are
 * reached). */
bool tier_blocks_parts_on_disk(const TierSolve *s, int t);

/* blocks_reach.c: tier t's bitmap file opened for slices (closing the
 * one open); ERR_IO naming it when it is not in DIR. */
ErrCode tier_blocks_slice_open(TierSolve *s, int t);
/* The words of tier t's bitmap that hold local indices [lo, hi) (at most
 * a part), from its open file or zero (`zero`: a complete database's part,
 * whose bits its records give), into the slice: s->t[t].reach points at
 * it, reach_w0 is word lo / 64. Checked: the file blocks' checksums, no bit
 * past the tier's end, the initial position reached. *reached: the set
 * bits in [lo, hi). */
ErrCode tier_blocks_slice(TierSolve *s, int t, uint64_t lo, uint64_t hi, bool zero,
                          uint64_t *reached);
/* Detaches the slice from its tier and closes the file. */
void tier_blocks_slice_close(TierSolve *s);
/* A tier's reached positions, summed over its slices by a walk, against
 * b->count (ERR_INTERNAL when they differ: a slice read from the wrong
 * words); then the count is known. */
ErrCode tier_blocks_count_check(TierSolve *s, int t, uint64_t reached);
/* Everything blocks_reach.c holds, freed. */
void tier_blocks_reach_free(TierSolve *s);
/* Tier t's reachable positions, b->count[t], counted over the slices of
 * its bitmap file when this run has not counted them (a resumed run skips
 * the tiers walked before). */
ErrCode tier_blocks_count(TierSolve *s, int t, uint64_t *reached);

#endif /* SOLVERS_TIER_BLOCKS_H */
