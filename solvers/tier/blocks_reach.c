/* solvers/tier/blocks_reach.c: tier:blocks' bitmaps out of core, by parts:
 * the forward pass, and the slices of a tier's bitmap that both passes
 * read one part at a time.
 *
 * Every tier's bitmap is a file, DIR/reach-TTTT.gmdb (core/dbstore.h: a
 * record file of 8-byte words, compressed in blocks of DBSTORE_BLOCK_BYTES
 * / 8 words). A walk over a tier reads it one part at a time (the parts of
 * graph.h tier_graph_part_end): tier_blocks_slice decompresses the file
 * blocks that hold the part's words (dbstore_block_read) into a buffer of
 * largest_part / 64 + 2 words, and s->t[t].reach points at it, reach_w0
 * its first word, so the walk (walk.c tier_walk_span) and the game's fast
 * path read that part's bits only.
 *
 * The forward pass (tier_blocks_reach), tiers in topological order: a tier
 * is walked part by part from its file, marking its children's bits into
 * their bitmaps, which are whole in memory from their first parent tier's
 * walk to their last one's; then each is written to its file and freed. A
 * tier without a parent tier (the initial position's; one no move reaches)
 * is made (zero, the initial position marked) and written at its turn. So
 * memory holds the whole bitmaps of the tiers being marked (Connect Four,
 * a chain of tiers: tier n + 1's while tier n is walked) and one part's
 * slice, never a tier walked and its children whole (graph.h
 * tier_graph_reach_peak and TierBlocksMemory.slices). A child's bitmap
 * stays whole because the children of one part of a tier lie all over the
 * child tier (Connect Four: a block's children are in w blocks far apart
 * in the child tier's order); holding it in pieces would need to know
 * which parts of a tier feed which part of its child (not in TierOps).
 *
 * Resuming: a bitmap file is written only once all its tier's parent tiers
 * have been walked, so a file in DIR is complete. A tier is walked again
 * when one of its child tiers has no file (its marks were lost with the
 * killed process) and is not solved; then a child whose file is there is
 * marked into a scratch bitmap that is dropped, not written. The backward
 * pass removes a tier's bitmap file once the tier's parts are on disk
 * (blocks.c), so a solved tier needs no marks and a resumed run takes its
 * bits from its records. (A tier without child tiers
 * is walked once its bitmap is written in this run: its walk marks nothing
 * but expands its positions, so a run's counters are the other modes'.) Each file written is a stop
 * point (GAMESMAN_TIER_BLOCKS_STOP). A complete database (manifest) needs
 * no forward pass: the backward pass takes each part's bits from its
 * records (blocks.c do_part).
 *
 * Checks: every slice read checks its file blocks' checksums (dbstore), no
 * bit past the tier's end, the initial position reached; the reached
 * positions counted over a tier's slices must equal the count taken when
 * its bitmap was written (or first walked) in this run, so a slice read
 * from the wrong words fails the solve instead of marking wrong children.
 *
 * Time: per walk of a tier, its bitmap file decompressed once, on the
 * solver's thread between the parts' parallel walks (one zstd call a file
 * block of 512 words), beside the walk's expansions.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "solvers/store.h"
#include "solvers/tier/blocks.h"

static void reach_info(const TierSolve *s, int t, DbStoreInfo *info) {
    memset(info, 0, sizeof *info);
    info->kind = DBSTORE_REACH;
    snprintf(info->spec, sizeof info->spec, "%s", s->spec);
    info->count = s->gr.ntiers;
    info->index = t;
    info->width = 8;
    info->records = tier_words(s->gr.node[t].size);
}

static bool reach_exists(const TierSolve *s, int t) {
    char name[DBSTORE_NAME_MAX];
    dbranks_reach_name(t, name, sizeof name);
    return dbstore_exists(&s->files->dir, name);
}

/* Tier t needs no marks: its bitmap file is there, or the tier is solved
 * (every part on disk; its bitmap file was removed then). */
static bool reach_done(const TierSolve *s, int t) {
    return reach_exists(s, t) || tier_blocks_parts_on_disk(s, t);
}

/* ------------------------------------------------------------- slices */

/* The slice, a file block and a decompression context, once. */
static ErrCode slice_alloc(TierSolve *s) {
    TierBlocks *b = s->blocks;
    if (b->rdctx == NULL) {
        b->rdctx = dbstore_dctx_new();
        b->slice_words = b->mem.largest_part / 64 + 2;
        b->slice = mem_calloc((size_t)b->slice_words, sizeof *b->slice, "a bitmap slice", s->err);
        b->rblock = mem_calloc(DBSTORE_BLOCK_BYTES, 1, "a bitmap slice", s->err);
        if (b->rdctx == NULL || b->slice == NULL || b->rblock == NULL) {
            return error_set(s->err, ERR_MEMORY, "cannot allocate tier:blocks' bitmap slices");
        }
    }
    return ERR_OK;
}

ErrCode tier_blocks_slice_open(TierSolve *s, int t) {
    TierBlocks *b = s->blocks;
    if (b->rf_tier == t) {
        return ERR_OK;
    }
    tier_blocks_slice_close(s);
    ErrCode rc = slice_alloc(s);
    if (rc != ERR_OK) {
        return rc;
    }
    char name[DBSTORE_NAME_MAX];
    DbStoreInfo info;
    dbranks_reach_name(t, name, sizeof name);
    reach_info(s, t, &info);
    if (!dbstore_exists(&s->files->dir, name)) {
        return error_set(s->err, ERR_IO, "%s/%s is gone since it was written; run again",
                         s->files->work_dir, name);
    }
    rc = dbstore_file_open(&s->files->dir, name, &info, &b->rf, s->err);
    if (rc == ERR_OK) {
        b->rf_tier = t;
    }
    return rc;
}

void tier_blocks_slice_close(TierSolve *s) {
    TierBlocks *b = s->blocks;
    for (int t = 0; t < s->gr.ntiers && b->slice != NULL; t++) {
        if (s->t[t].reach == b->slice) {
            s->t[t].reach = NULL;
            s->t[t].reach_w0 = 0;
        }
    }
    if (b->rf_tier >= 0) {
        dbstore_file_close(&b->rf);
        b->rf_tier = -1;
    }
}

ErrCode tier_blocks_slice(TierSolve *s, int t, uint64_t lo, uint64_t hi, bool zero,
                          uint64_t *reached) {
    TierBlocks *b = s->blocks;
    TierInfo *ti = &s->t[t];
    uint64_t size = s->gr.node[t].size, wa = lo / 64, wz = tier_words(hi);
    *reached = 0;
    ErrCode rc = slice_alloc(s);
    if (rc != ERR_OK) {
        return rc;
    }
    if (wz - wa > b->slice_words || hi > size || (!zero && b->rf_tier != t)) {
        return error_set(s->err, ERR_INTERNAL,
                         "tier:blocks: tier %d's slice [%" PRIu64 ", %" PRIu64 ") has no room", t,
                         lo, hi);
    }
    ti->reach = b->slice;
    ti->reach_w0 = wa;
    if (zero) {
        memset(b->slice, 0, (size_t)(wz - wa) * 8);
        return ERR_OK;
    }
    /* the file blocks that hold words [wa, wz), each copied where it
     * overlaps them */
    uint64_t br = b->rf.block_records;
    for (uint64_t k = wa / br; k * br < wz; k++) {
        uint64_t n = dbstore_block_bytes(&b->rf, k) / 8, from = k * br;
        if (n * 8 > DBSTORE_BLOCK_BYTES) {
            return error_set(s->err, ERR_INTERNAL, "%s: a block larger than a slice's", b->rf.path);
        }
        rc = dbstore_block_read(&b->rf, k, b->rdctx, b->rblock, s->err);
        if (rc != ERR_OK) {
            return rc;
        }
        uint64_t a = from > wa ? from : wa, z = from + n < wz ? from + n : wz;
        memcpy(b->slice + (a - wa), b->rblock + (a - from) * 8, (size_t)(z - a) * 8);
    }
    uint64_t r = s->gr.root_index;
    if ((wz == tier_words(size) && size % 64 != 0 && (b->slice[wz - 1 - wa] >> (size % 64)) != 0) ||
        (t == s->gr.root_tier && r - lo < hi - lo && !((b->slice[r / 64 - wa] >> (r % 64)) & 1))) {
        return error_set(s->err, ERR_IO,
                         "%s holds an impossible bitmap (bits past the tier's end, or the initial "
                         "position not reached); remove it (it will be computed again) or use "
                         "another --db",
                         b->rf.path);
    }
    /* the set bits of [lo, hi): the first and last words masked */
    for (uint64_t w = wa; w < wz; w++) {
        uint64_t bits = b->slice[w - wa];
        if (w == wa) {
            bits &= ~UINT64_C(0) << (lo % 64);
        }
        if (hi - w * 64 < 64) {
            bits &= (UINT64_C(1) << (hi - w * 64)) - 1;
        }
        *reached += (uint64_t)__builtin_popcountll(bits);
    }
    return ERR_OK;
}

ErrCode tier_blocks_count_check(TierSolve *s, int t, uint64_t reached) {
    TierBlocks *b = s->blocks;
    if (b->count[t] != UINT64_MAX && b->count[t] != reached) {
        return error_set(s->err, ERR_INTERNAL,
                         "tier:blocks: tier %d's bitmap slices hold %" PRIu64
                         " reached positions, the bitmap held %" PRIu64 " when it was written",
                         t, reached, b->count[t]);
    }
    b->count[t] = reached;
    return ERR_OK;
}

/* -------------------------------------------------------- forward pass */

/* Tier t's whole bitmap in memory (zero, the initial position marked in
 * its tier), unless it is there. */
static ErrCode bitmap_alloc(TierSolve *s, int t) {
    TierInfo *ti = &s->t[t];
    if (ti->reach == NULL) {
        uint64_t words = tier_words(s->gr.node[t].size);
        ti->reach = mem_calloc((size_t)words + 1, sizeof *ti->reach, "a bitmap", s->err);
        if (ti->reach == NULL) {
            return ERR_MEMORY;
        }
        ti->reach_w0 = 0;
        mem_advise_huge(ti->reach, words * 8);
        if (t == s->gr.root_tier) {
            uint64_t r = s->gr.root_index;
            ti->reach[r / 64] |= UINT64_C(1) << (r % 64);
        }
    }
    return ERR_OK;
}

static void bitmap_free(TierSolve *s, int t) {
    if (s->t[t].reach != s->blocks->slice) {
        free(s->t[t].reach);
    }
    s->t[t].reach = NULL;
    s->t[t].reach_w0 = 0;
}

/* Writes tier t's whole bitmap to its file, its count kept for the
 * walks' check. */
static ErrCode bitmap_save(TierSolve *s, int t) {
    char name[DBSTORE_NAME_MAX];
    DbStoreInfo info;
    dbranks_reach_name(t, name, sizeof name);
    reach_info(s, t, &info);
    s->blocks->count[t] = tier_popcount(s->t[t].reach, info.records);
    ErrCode rc = dbstore_write(&s->files->dir, name, &info, s->t[t].reach, NULL, s->threads, NULL,
                               NULL, s->err);
    if (rc == ERR_OK) {
        tier_blocks_stop_point(s->blocks);
    }
    return rc;
}

/* Tier t's set bits, over its slices (an observer's tier_begin needs them
 * before the walk). */
static ErrCode count_slices(TierSolve *s, int t, uint64_t *reached) {
    TierBlocks *b = s->blocks;
    *reached = 0;
    ErrCode rc = ERR_OK;
    for (int k = b->first[t]; k < b->first[t + 1] && rc == ERR_OK; k++) {
        uint64_t r;
        rc = tier_blocks_slice(s, t, b->part[k].lo, b->part[k].hi, false, &r);
        *reached += r;
    }
    return rc;
}

ErrCode tier_blocks_count(TierSolve *s, int t, uint64_t *reached) {
    TierBlocks *b = s->blocks;
    if (b->count[t] == UINT64_MAX) {
        uint64_t r = 0;
        ErrCode rc = tier_blocks_slice_open(s, t);
        if (rc == ERR_OK) {
            rc = count_slices(s, t, &r);
        }
        tier_blocks_slice_close(s);
        if (rc != ERR_OK) {
            return rc;
        }
        b->count[t] = r;
    }
    *reached = b->count[t];
    return ERR_OK;
}

/* Walks tier t part by part from its bitmap file, marking its children
 * (whole bitmaps in memory). */
static ErrCode walk_slices(TierSolve *s, int t) {
    TierBlocks *b = s->blocks;
    TierInfo *ti = &s->t[t];
    ErrCode rc = tier_blocks_slice_open(s, t);
    uint64_t done = 0;
    ti->reached = b->count[t] != UINT64_MAX ? b->count[t] : 0; /* the progress lines' total */
    if (rc == ERR_OK && s->observer != NULL && b->count[t] == UINT64_MAX) {
        rc = count_slices(s, t, &ti->reached);
    }
    TierVisit visit = tier_walk_observe(s, t, tier_mark_children, ti->reached);
    for (int k = b->first[t]; k < b->first[t + 1] && rc == ERR_OK; k++) {
        const BlockPart *p = &b->part[k];
        uint64_t reached;
        rc = tier_blocks_slice(s, t, p->lo, p->hi, false, &reached);
        if (rc == ERR_OK && reached > 0) {
            bool team = reached >= s->parallel_min && s->threads > 1;
            tier_walk_span(s, t, "reach", visit, team, p->lo, p->hi, done);
            rc = tier_failed(s) ? s->err->code : ERR_OK;
        }
        done += reached;
    }
    tier_walk_unobserve(s, t, visit);
    tier_blocks_slice_close(s);
    if (rc == ERR_OK) {
        rc = tier_blocks_count_check(s, t, done);
        ti->reached = done;
    }
    return rc;
}

ErrCode tier_blocks_reach(TierSolve *s) {
    TierBlocks *b = s->blocks;
    int n = s->gr.ntiers;
    b->rf_tier = -1;
    b->count = mem_calloc((size_t)n, sizeof *b->count, "tier:blocks", s->err);
    int *left = mem_calloc((size_t)n, sizeof *left, "tier:blocks", s->err);
    if (b->count == NULL || left == NULL) {
        free(left);
        return ERR_MEMORY;
    }
    for (int t = 0; t < n; t++) {
        b->count[t] = UINT64_MAX;
        left[t] = s->gr.node[t].parents; /* parent tiers not yet walked */
    }
    DbManifest m;
    bool have = false;
    ErrCode rc = dbstore_manifest_read(&s->files->dir, &m, &have, s->err);
    if (rc == ERR_OK) {
        b->complete = have && m.complete && strcmp(m.layout, "tiers") == 0;
        dbstore_manifest_free(&m);
    }
    s->total_reached = 0;
    for (int k = n - 1; k >= 0 && rc == ERR_OK && !b->complete; k--) {
        int t = s->gr.order[k];
        const TierNode *node = &s->gr.node[t];
        /* No parent tier: made and written here. With parents: written
         * after the last of them, which all came before. */
        if (!reach_done(s, t) && node->parents == 0) {
            rc = bitmap_alloc(s, t);
            rc = rc == ERR_OK ? bitmap_save(s, t) : rc;
            bitmap_free(s, t);
        }
        /* walked when a child's marks are missing; a tier without child
         * tiers once its bitmap is written (its walk marks nothing, but
         * it expands every position, as the other modes' forward pass) */
        bool walk = node->nchildren == 0 && b->count[t] != UINT64_MAX;
        for (int c = 0; c < node->nchildren; c++) {
            walk = walk || !reach_done(s, node->children[c]);
        }
        for (int c = 0; c < node->nchildren && rc == ERR_OK && walk; c++) {
            rc = bitmap_alloc(s, node->children[c]);
        }
        if (rc == ERR_OK && walk) {
            rc = walk_slices(s, t);
            tier_progress(s, "reach", t, s->t[t].reached, s->t[t].reached, true);
            s->done_before += s->t[t].reached;
            s->total_reached += s->t[t].reached;
        }
        for (int c = 0; c < node->nchildren && rc == ERR_OK; c++) {
            int ct = node->children[c];
            if (--left[ct] == 0) { /* every parent walked: the marks are complete */
                if (s->t[ct].reach != NULL && !reach_done(s, ct)) {
                    rc = bitmap_save(s, ct);
                }
                bitmap_free(s, ct);
            }
        }
    }
    free(left);
    return rc;
}

void tier_blocks_reach_free(TierSolve *s) {
    TierBlocks *b = s->blocks;
    tier_blocks_slice_close(s);
    for (int t = 0; t < s->gr.ntiers; t++) {
        bitmap_free(s, t);
    }
    if (b->rdctx != NULL) {
        dbstore_dctx_free(b->rdctx);
    }
    free(b->slice);
    free(b->rblock);
    free(b->count);
    b->rdctx = NULL;
    b->slice = NULL;
    b->rblock = NULL;
    b->count = NULL;
}
