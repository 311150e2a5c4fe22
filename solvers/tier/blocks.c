/* solvers/tier/blocks.c: tier:blocks, the backward pass out of core: each
 * tier solved part by part, the child records read from the compressed
 * database on disk, so that memory holds a few parts and caches, never a
 * whole tier's records.
 *
 * A part is a range of a tier's local indices, cut by the tier graph's rule
 * (graph.h tier_graph_part_end): a run of whole blocks of the game's layout
 * (TierOps.block_size; Connect Four: one block per vector of column
 * heights) of at most `part` records, or a piece of a block larger than
 * that. Every part is one record file of the database directory,
 * DIR/tier-TTTT-FFFFFFFFFFFF.gmdb (core/dbranks.h: F the part's first local
 * index; header `first` and `records`), written by the background writer
 * (core/dbwriter.h) while the next part is solved; the manifest, written
 * last, lists the parts of each tier in order, as the slices of an N-rank
 * solve are listed, so --query, --analyze and --verify read the database
 * like any other (solvers/store.h).
 *
 * Per tier, children first (the tier solver's order): the part files of its
 * child tiers are opened (header and block index; the writer has finished
 * them), then per part: if its file is there (a resumed run) it is read and
 * checked record by record against the bitmaps, else its reachable
 * positions are expanded (the game's fast path TierOps.expand_run or the
 * GPS family, in parallel chunks, as solvers/tier/walk.c does) and each
 * child's record is read through a per-thread set-associative LRU cache of
 * tier:blocks,cache=N decompressed file blocks (block_cache.h, which
 * --verify by parts reads through too; dbstore_block_read: one pread, or the
 * frame from the part file mapped (dbstore_file_map), its
 * checksum, one zstd decompression) and folded (core/value.h);
 * the part goes to the writer. A part's chunks go to the threads in guided
 * runs (walk.c, TierSolve.guided; tier:blocks,dynamic: one at a time), so
 * that each thread follows its own streams of child indices instead of
 * reading the blocks the other thread's chunk just read into its own
 * cache. The children of consecutive positions of a
 * block lie in a few runs of consecutive child indices (Connect Four: one
 * per open column), so the cache misses about once per child file block
 * and stream. The totals, the root and each tier's checksum (the chained
 * dbfile checksum of its records, core/dbfile.h, streamed over the parts)
 * are those of the other modes, so the database checksum is tier:window's.
 *
 * The bitmaps are out of core too (blocks_reach.c): each tier's is a file,
 * DIR/reach-TTTT.gmdb, that both passes read one part's slice at a time;
 * the forward pass holds whole only the bitmaps of the child tiers it
 * marks, the backward pass none.
 *
 * Resuming: the forward pass skips the tiers whose children's bitmaps are
 * on disk (blocks_reach.c), and the backward pass loads, not solves, every
 * part whose file is in DIR; a file whose write was cut short left only a
 * temporary file, removed at the start. So a run killed at any point
 * resumes from its finished tiers and parts. The environment variable
 * GAMESMAN_TIER_BLOCKS_STOP=K (tests) ends the process with _exit(86),
 * like a kill, right after the K-th file (bitmap written, or part handed
 * to the writer) of this run.
 *
 * Memory (graph.h tier_graph_blocks_memory, checked before anything is
 * allocated): the whole bitmaps of the child tiers the forward pass marks
 * (Connect Four: one tier's), a part's bitmap slice, 3 parts, the caches
 * and the open child parts' block indexes. Still one record a slot in a
 * part (records for reachable positions only are what remains:
 * docs/connect-four.md).
 *
 * Refused: without --db, with tier:sector, tier:sliced or N > 1 ranks,
 * loopy tiers, WinBy scores, a game that is not tier-major, --query.
 *
 * Time: the expansions of the other modes, plus per child file block and
 * stream one decompression of DBSTORE_BLOCK_BYTES.
 */
#include <inttypes.h>
#include <limits.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "core/clock.h"
#include "core/dbfile.h"
#include "core/mem.h"
#include "core/options.h"
#include "solvers/expand.h"
#include "solvers/store.h"
#include "solvers/tier/blocks.h"

/* ------------------------------------------------------------ planning */

ErrCode tier_blocks_plan(TierSolve *s, bool on, uint64_t part, uint64_t cache, bool guided,
                         bool estimating) {
    if (!on) {
        return ERR_OK;
    }
    const Game *g = s->g;
    const char *why = NULL;
    if (s->files == NULL && !estimating) {
        why = "needs --db DIR (the solved parts are read back from there)";
    } else if (s->sector != NULL) {
        why = "and tier:sector do not go together";
    } else if (dist_size() > 1) {
        why = "runs in one process (not under MPI)";
    } else if (!s->gr.tier_major) {
        why = "needs a tier-major layout (TierOps.first)";
    } else if (g->has_winby) {
        why = "does not keep WinBy scores yet";
    } else if (s->need_db) {
        why = "keeps no database in memory: give --db and query the database afterwards";
    }
    for (int t = 0; t < s->gr.ntiers && why == NULL; t++) {
        if (s->gr.node[t].loopy) {
            why = "does not solve loopy tiers";
        }
    }
    if (why != NULL) {
        return error_set(s->err, ERR_USAGE, "tier:blocks %s (game '%s')", why, g->module->name);
    }
    TierBlocks *b = mem_calloc(1, sizeof *b, "tier:blocks", s->err);
    if (b == NULL) {
        return ERR_MEMORY;
    }
    s->blocks = b;
    b->target = part;
    b->busy = -1;
    b->rf_tier = -1;
    b->guided = guided;
    tier_graph_blocks_memory(&s->gr, s->width, part, s->threads, cache, &b->mem);
    b->cache_blocks = b->mem.cache_blocks; /* cache=N, capped by what the child tiers hold */
    b->first = mem_calloc((size_t)s->gr.ntiers + 1, sizeof *b->first, "tier:blocks", s->err);
    b->part = mem_calloc((size_t)b->mem.nparts, sizeof *b->part, "tier:blocks", s->err);
    if (b->first == NULL || b->part == NULL) {
        return ERR_MEMORY;
    }
    int k = 0;
    for (int t = 0; t < s->gr.ntiers; t++) {
        b->first[t] = k;
        for (uint64_t lo = 0; lo < s->gr.node[t].size; k++) {
            b->part[k].lo = lo;
            b->part[k].hi = lo = tier_graph_part_end(&s->gr, t, lo, part);
        }
    }
    b->first[s->gr.ntiers] = k;
    int64_t stop = 0;
    ErrCode rc = env_int64("GAMESMAN_TIER_BLOCKS_STOP", 1, LONG_MAX,
                           "a number of files, at least 1", &stop, s->err);
    b->stop_after = (long)stop;
    return rc;
}

ErrCode tier_blocks_fits(TierSolve *s) {
    const TierBlocksMemory *m = &s->blocks->mem;
    char what[512], a[32], b[32], c[32], d[32], e[32], f[32];
    snprintf(what, sizeof what,
             "tier:blocks (bitmaps %s and slices %s, 3 parts of %" PRIu64
             " records %s, %d threads' caches %s, child block indexes %s, the rest %s)",
             mem_format(m->bitmaps, a, sizeof a), mem_format(m->slices, f, sizeof f),
             m->largest_part, mem_format(m->parts, b, sizeof b), s->threads,
             mem_format(m->caches, c, sizeof c), mem_format(m->indexes, d, sizeof d),
             mem_format(m->rest, e, sizeof e));
    return mem_check(m->total, what, s->err);
}

static void part_name(int t, const BlockPart *p, char *name, size_t n) {
    dbranks_part_name(t, p->lo, name, n);
}

static void part_info(const TierSolve *s, int t, const BlockPart *p, DbStoreInfo *info) {
    memset(info, 0, sizeof *info);
    info->kind = DBSTORE_RECORDS;
    snprintf(info->spec, sizeof info->spec, "%s", s->spec);
    info->count = s->gr.ntiers;
    info->index = t;
    info->width = s->width;
    info->records = p->hi - p->lo;
    info->first = p->lo;
}

bool tier_blocks_parts_on_disk(const TierSolve *s, int t) {
    const TierBlocks *b = s->blocks;
    for (int k = b->first[t]; k < b->first[t + 1]; k++) {
        char name[DBSTORE_NAME_MAX];
        part_name(t, &b->part[k], name, sizeof name);
        if (!dbstore_exists(&s->files->dir, name)) {
            return false;
        }
    }
    return true;
}

/* Tier t's part files not in DIR: their fixed bytes (header, largest
 * dictionary, block index) added to *fixed and, when bound is not NULL,
 * their worst case (every file block at zstd's bound) to *bound; true
 * when there is one. */
static bool parts_missing(const TierSolve *s, int t, uint64_t *fixed, uint64_t *bound) {
    const TierBlocks *b = s->blocks;
    uint64_t per = DBSTORE_BLOCK_BYTES / s->width;
    bool missing = false;
    for (int k = b->first[t]; k < b->first[t + 1]; k++) {
        char name[DBSTORE_NAME_MAX];
        part_name(t, &b->part[k], name, sizeof name);
        if (!dbstore_exists(&s->files->dir, name)) {
            uint64_t blocks = (b->part[k].hi - b->part[k].lo + per - 1) / per;
            *fixed += DBSTORE_HEADER_BYTES + DBSTORE_DICT_BYTES + 8 * blocks;
            if (bound != NULL) {
                *bound += DBSTORE_HEADER_BYTES + DBSTORE_DICT_BYTES +
                          blocks * (8 + ZSTD_COMPRESSBOUND(DBSTORE_BLOCK_BYTES));
            }
            missing = true;
        }
    }
    return missing;
}

/* The bytes of DIR/NAME on disk (0: none). */
static uint64_t file_bytes(const TierSolve *s, const char *name) {
    struct stat st;
    return fstatat(s->files->dir.fd, name, &st, 0) == 0 ? (uint64_t)st.st_size : 0;
}

uint64_t tier_blocks_disk_left(const TierSolve *s, bool projected) {
    const TierBlocks *b = s->blocks;
    if (!projected) { /* before the forward pass: the bitmaps it writes, raw */
        uint64_t left = 0;
        for (int t = 0; t < s->gr.ntiers; t++) {
            char name[DBSTORE_NAME_MAX];
            dbranks_reach_name(t, name, sizeof name);
            if (parts_missing(s, t, &left, NULL) && !b->complete &&
                !dbstore_exists(&s->files->dir, name)) {
                left += tier_words(s->gr.node[t].size) * 8 + DBSTORE_HEADER_BYTES;
            }
        }
        return left;
    }
    /* After it, in the backward pass's order: a tier's parts are written,
     * then (at the next tier) its bitmap file is removed; the most the disk
     * holds beyond today's is the largest running sum. */
    int64_t now = 0, most = 0;
    for (int j = 0; j < s->gr.ntiers; j++) {
        int t = s->gr.order[j];
        if (j > 0 && !b->complete) {
            char name[DBSTORE_NAME_MAX];
            dbranks_reach_name(s->gr.order[j - 1], name, sizeof name);
            now -= (int64_t)file_bytes(s, name);
        }
        uint64_t fixed = 0;
        if (parts_missing(s, t, &fixed, NULL)) { /* tier_blocks_disk_check counted them */
            now += (int64_t)(fixed + TIER_BLOCKS_DISK_RATE * b->count[t]);
        }
        most = now > most ? now : most;
    }
    return (uint64_t)most;
}

ErrCode tier_blocks_disk_check(TierSolve *s) {
    TierBlocks *b = s->blocks;
    ErrCode rc = ERR_OK;
    uint64_t fixed = 0, bound = 0; /* the worst case: zstd's bound */
    for (int t = 0; t < s->gr.ntiers && rc == ERR_OK; t++) {
        /* the tiers the forward pass skipped (resumed) are counted from
         * their bitmap files */
        uint64_t reached;
        if (parts_missing(s, t, &fixed, &bound) && !b->complete) {
            rc = tier_blocks_count(s, t, &reached);
        }
    }
    if (rc != ERR_OK) {
        return rc;
    }
    uint64_t need = tier_blocks_disk_left(s, true);
    need = need < bound ? need : bound;
    solve_result_extra(s->res, "blocks_disk_projected_bytes", (double)need);
    char what[256], a[32];
    snprintf(what, sizeof what,
             "the part files still to write (projected: %d byte a reachable position, plus "
             "headers and block indexes; at most %s)",
             TIER_BLOCKS_DISK_RATE, mem_format(bound, a, sizeof a));
    rc = tier_files_fit(s, need, what);
    if (rc != ERR_OK) {
        error_prefix(s->err, "tier:blocks, after the forward pass (its bitmaps are kept: a rerun "
                             "resumes after them): ");
    }
    return rc;
}

/* ------------------------------------------------------ child records */

/* Child tier ct's part holding local index ci (binary search). */
static BlockPart *find_part(TierBlocks *b, int ct, uint64_t ci) {
    int lo = b->first[ct], hi = b->first[ct + 1] - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (b->part[mid].lo <= ci) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return &b->part[lo];
}

/* The open part file of child tier ct holding local index ci (the
 * cache's TierBlockFind). */
static const DbStoreFile *part_file(void *ctx, int ct, uint64_t ci, uint64_t *first) {
    const BlockPart *p = find_part(ctx, ct, ci);
    *first = p->lo;
    return p->f != NULL && ci < p->hi ? p->f : NULL;
}

/* The child tier and local index of child position c (tier-major: a range
 * test over the child tiers). */
static inline bool locate(const TierSolve *s, int tier, Position c, int *ct, uint64_t *ci) {
    const TierNode *n = &s->gr.node[tier];
    for (int k = 0; k < n->nchildren; k++) {
        const TierNode *child = &s->gr.node[n->children[k]];
        if (c - child->first < child->size) {
            *ct = n->children[k];
            *ci = c - child->first;
            return true;
        }
    }
    return false;
}

/* The visit: position p (local index i of the part being solved) from its
 * children's records on disk, as walk.c's tier_solve_position does from
 * records in memory. */
static void solve_position(TierSolve *s, int tier, uint64_t i, Position p, const TierExpansion *e) {
    TierBlocks *b = s->blocks;
    BlockCache *c = &b->cache[omp_get_thread_num()];
    const Database *fmt = &b->cur;
    Outcome out = {e->primitive, 0};
    if (e->primitive == VALUE_UNDECIDED) {
        ChildFold fold;
        fold_init(&fold);
        for (int k = 0; k < e->n; k++) {
            STAT_INC(edges);
            int ct;
            uint64_t ci;
            uint32_t raw;
            if (!locate(s, tier, e->child[k], &ct, &ci)) {
                tier_fail(s, ERR_INTERNAL,
                          "game '%s': a move from position %" PRIu64 " (tier %d) reaches position "
                          "%" PRIu64 ", which is in none of the tier's child tiers",
                          s->g->module->name, p, tier, e->child[k]);
                return;
            }
            Error err;
            if (!tier_block_cache_get(c, ct, ci, part_file, b, &raw, &err)) {
                tier_fail(s, err.code, "%s", err.msg);
                return;
            }
            if (!db_raw_solved(fmt, raw)) {
                tier_fail(s, ERR_INTERNAL,
                          "tier %d: child %" PRIu64 " of position %" PRIu64 " has no value", ct,
                          e->child[k], p);
                return;
            }
            fold_add(&fold, db_raw_value(fmt, raw), db_raw_remoteness(fmt, raw));
        }
        out = fold_result(&fold);
        if (out.value == VALUE_UNDECIDED) {
            Error e2;
            solver_no_moves_error(s->g, p, &e2);
            tier_fail(s, e2.code, "%s", e2.msg);
            return;
        }
    }
    Error store_err;
    if (solver_store(s->g, &b->cur, i - b->cur_lo, out, 0, &store_err) != ERR_OK) {
        tier_fail(s, store_err.code, "tier %d, index %" PRIu64 " (position %" PRIu64 "): %s", tier,
                  i, p, store_err.msg);
    }
}

/* --------------------------------------------------- per part and tier */

/* The tier's checksum, streamed: dbfile_sum_blocks takes whole 32-byte
 * pieces, the rest waits for the next part. */
static void sum_add(TierBlocks *b, const unsigned char *p, uint64_t n) {
    if (b->ncarry > 0) {
        size_t take = 32 - b->ncarry < n ? 32 - b->ncarry : (size_t)n;
        memcpy(b->carry + b->ncarry, p, take);
        b->ncarry += take;
        p += take;
        n -= take;
        if (b->ncarry < 32) {
            return;
        }
        dbfile_sum_blocks(&b->sum, b->carry, 32);
        b->ncarry = 0;
    }
    uint64_t whole = n - n % 32;
    if (whole > 0) {
        dbfile_sum_blocks(&b->sum, p, whole);
    }
    memcpy(b->carry, p + whole, (size_t)(n - whole));
    b->ncarry = (size_t)(n - whole);
}

/* True when the n records of v from j are all DB_UNREACHED (zero). */
static bool records_zero(const Database *v, uint64_t j, uint64_t n) {
    const unsigned char *r =
        v->width == 1 ? (const unsigned char *)(v->r8 + j) : (const unsigned char *)(v->r16 + j);
    size_t bytes = (size_t)(n * v->width), k = 0;
    uint64_t any = 0;
    for (; k + 8 <= bytes; k += 8) {
        uint64_t x;
        memcpy(&x, r + k, 8);
        any |= x;
    }
    for (; k < bytes; k++) {
        any |= r[k];
    }
    return any == 0;
}

/* A part read from its file (a resumed run): checked as files.c checks a
 * loaded tier: a record exactly where the bitmap says a position is
 * reached, each a final value the game can have. By words of the bitmap,
 * on the threads: a word with no bit set whose records are all zero (most
 * of a late Connect Four tier) is passed in one test, any other word slot
 * by slot; the first fault in index order is the one refused. A resumed
 * 6x6 solve (2026-11-27) spent 70% of its reload in the slot-by-slot test
 * on one thread, some 5 million positions a second. */
static ErrCode check_part(TierSolve *s, int t, const BlockPart *p, const char *name) {
    const Database *v = &s->blocks->cur;
    const uint64_t *reach = s->t[t].reach, w0 = s->t[t].reach_w0; /* the part's slice */
    uint64_t wlo = p->lo / 64, whi = (p->hi + 63) / 64, bad = UINT64_MAX;
    bool team = s->threads > 1 && p->hi - p->lo >= ((uint64_t)1 << 20);
#pragma omp parallel for num_threads(s->threads) schedule(static) reduction(min : bad) if (team)
    for (uint64_t w = wlo; w < whi; w++) {
        uint64_t a = w * 64 > p->lo ? w * 64 : p->lo, e = w * 64 + 64 < p->hi ? w * 64 + 64 : p->hi;
        if (reach[w - w0] == 0 && v->winby == NULL && records_zero(v, a - p->lo, e - a)) {
            continue;
        }
        for (uint64_t i = a; i < e && i < bad; i++) {
            bool reached = (reach[w - w0] >> (i % 64)) & 1;
            if (tier_record_fault(s, v, i - p->lo, reached) != NULL) {
                bad = i;
            }
        }
    }
    if (bad != UINT64_MAX) {
        bool reached = (reach[bad / 64 - w0] >> (bad % 64)) & 1;
        return tier_record_refuse(s, name, bad, tier_record_fault(s, v, bad - p->lo, reached));
    }
    return ERR_OK;
}

/* One bit per nonzero byte of x: bit k for byte k (the bytes' high bits
 * gathered by one multiplication, whose partial products never overlap). */
static inline uint64_t nonzero_bytes(uint64_t x) {
    const uint64_t low7 = UINT64_C(0x7f7f7f7f7f7f7f7f);
    uint64_t high = (((x & low7) + low7) | x) & ~low7;
    return ((high >> 7) * UINT64_C(0x0102040810204080)) >> 56;
}

/* Bits w * 64 .. w * 64 + 63 of a part from its records: set where the
 * record is nonzero (reached). j: the word's first record in the part. */
static inline uint64_t reached_word(const Database *v, uint64_t j) {
    uint64_t bits = 0;
    if (v->width == 1) {
        for (int k = 0; k < 8; k++) {
            uint64_t x;
            memcpy(&x, v->r8 + j + 8 * k, 8);
            bits |= nonzero_bytes(x) << (8 * k);
        }
    } else {
        for (int k = 0; k < 64; k++) {
            bits |= (uint64_t)(v->r16[j + k] != 0) << k;
        }
    }
    return bits;
}

/* A part's slice of the tier's bitmap made from its records (a tier whose
 * bitmap file is gone: solved, or a complete database): whole words on the
 * threads, the part's ragged ends bit by bit. Returns the reached count.
 * On a resumed 6x6 solve (2026-11-27) the bit-by-bit loop over every slot
 * on one thread reloaded the solved tiers at some 5 million positions a
 * second, 70% of the reload's time. */
static uint64_t bits_from_records(TierSolve *s, int t, const BlockPart *p) {
    const Database *v = &s->blocks->cur;
    uint64_t *reach = s->t[t].reach, w0 = s->t[t].reach_w0, reached = 0;
    uint64_t a = (p->lo + 63) / 64 * 64, e = p->hi / 64 * 64;
    if (a > e) { /* within one word */
        a = e = p->hi;
    }
    for (uint64_t i = p->lo; i < a; i++) {
        uint64_t bit = db_raw_reached(db_peek(v, i - p->lo));
        reach[i / 64 - w0] |= bit << (i % 64);
        reached += bit;
    }
    for (uint64_t i = e > a ? e : a; i < p->hi; i++) {
        uint64_t bit = db_raw_reached(db_peek(v, i - p->lo));
        reach[i / 64 - w0] |= bit << (i % 64);
        reached += bit;
    }
    bool team = s->threads > 1 && e - a >= ((uint64_t)1 << 20);
#pragma omp parallel for num_threads(s->threads) schedule(static) reduction(+ : reached) if (team)
    for (uint64_t w = a / 64; w < e / 64; w++) {
        uint64_t bits = reached_word(v, w * 64 - p->lo);
        reach[w - w0] |= bits;
        reached += (uint64_t)__builtin_popcountll(bits);
    }
    return reached;
}

/* The part's records into the totals, the checksum and the root. Records
 * are nonzero exactly where a position is reached (solved, checked by
 * check_part, or the bits made from the records), so the totals come from
 * the records alone: with one byte a record, a histogram of the part's
 * bytes on the threads (256 counts each), else the reached positions one
 * by one. */
static ErrCode tally_part(TierSolve *s, int t, const BlockPart *p, DbSummary *sum) {
    TierBlocks *b = s->blocks;
    const Database *v = &b->cur;
    if (v->width == 1) {
        uint64_t hist[256] = {0};
        bool team = s->threads > 1 && v->size >= ((uint64_t)1 << 20);
#pragma omp parallel num_threads(s->threads) if (team)
        {
            uint64_t mine[256] = {0};
            /* in runs of 4096 records on the threads */
            uint64_t runs = (v->size + 4095) / 4096;
#pragma omp for schedule(static)
            for (uint64_t k = 0; k < runs; k++) {
                uint64_t lo = 4096 * k, n = v->size - lo < 4096 ? v->size - lo : 4096;
                db_count_bytes(v->r8 + lo, n, mine);
            }
#pragma omp critical(tally_part)
            for (int k = 0; k < 256; k++) {
                hist[k] += mine[k];
            }
        }
        for (uint32_t raw = 1; raw < 256; raw++) {
            if (hist[raw] == 0) {
                continue;
            }
            if (!db_raw_solved(v, raw)) {
                uint64_t i = 0;
                while (v->r8[i] != raw) {
                    i++;
                }
                return error_set(s->err, ERR_INTERNAL,
                                 "tier %d: position %" PRIu64 " left unsolved", t, p->lo + i);
            }
            Value val = db_raw_value(v, raw);
            uint32_t r = db_raw_remoteness(v, raw);
            sum->positions += hist[raw];
            sum->count[val] += hist[raw];
            sum->max_remoteness = r > sum->max_remoteness ? r : sum->max_remoteness;
            sum->by_remoteness[r][val] += hist[raw];
        }
    } else {
        const uint64_t *reach = s->t[t].reach, w0 = s->t[t].reach_w0;
        for (uint64_t w = p->lo / 64; w * 64 < p->hi; w++) {
            uint64_t bits = game_bits_in(reach[w - w0], w, p->lo, p->hi);
            for (; bits != 0; bits &= bits - 1) {
                uint64_t i = w * 64 + (uint64_t)__builtin_ctzll(bits) - p->lo;
                uint32_t raw = db_peek(v, i);
                if (!db_raw_solved(v, raw)) {
                    return error_set(s->err, ERR_INTERNAL,
                                     "tier %d: position %" PRIu64 " left unsolved", t, p->lo + i);
                }
                Value val = db_raw_value(v, raw);
                uint32_t r = db_raw_remoteness(v, raw);
                sum->positions++;
                sum->count[val]++;
                sum->max_remoteness = r > sum->max_remoteness ? r : sum->max_remoteness;
                sum->by_remoteness[r][val]++;
            }
        }
    }
    sum_add(b, v->width == 1 ? (const unsigned char *)v->r8 : (const unsigned char *)v->r16,
            v->size * v->width);
    uint64_t r = s->gr.root_index;
    if (t == s->gr.root_tier && r - p->lo < p->hi - p->lo) {
        uint32_t raw = db_peek(v, r - p->lo);
        s->res->root = (Outcome){db_raw_value(v, raw), db_raw_remoteness(v, raw)};
        s->res->root_winby = 0;
    }
    return ERR_OK;
}

void tier_blocks_stop_point(TierBlocks *b) {
    if (b->stop_after > 0 && ++b->written == b->stop_after) {
        fprintf(stderr, "tier:blocks: stopped after %ld files (GAMESMAN_TIER_BLOCKS_STOP)\n",
                b->stop_after);
        _exit(86);
    }
}

/* Loads part k of tier t from its file, or solves it and hands it to the
 * writer; then its totals, its reachable positions added to
 * *tier_reached. The part's slice of the tier's bitmap is read first; a
 * complete database's part is loaded unchecked and sets its slice. */
static ErrCode do_part(TierSolve *s, int t, int k, DbSummary *sum, bool *solved,
                       uint64_t *tier_reached) {
    TierBlocks *b = s->blocks;
    BlockPart *p = &b->part[k];
    /* not the buffer of the last submit: the writer may still read it */
    int which = b->busy == 0 ? 1 : 0;
    b->cur = b->buf[which];
    b->cur.size = p->hi - p->lo;
    b->cur_lo = p->lo;
    char name[DBSTORE_NAME_MAX];
    part_name(t, p, name, sizeof name);
    DbStoreInfo info;
    part_info(s, t, p, &info);
    void *rec = b->cur.r8 != NULL ? (void *)b->cur.r8 : (void *)b->cur.r16;
    /* the part's slice of the tier's bitmap (a complete database: zero,
     * then its records' bits) and its reachable positions */
    uint64_t reached = 0;
    bool found = false;
    ErrCode rc = tier_blocks_slice(s, t, p->lo, p->hi, b->records_bits, &reached);
    if (rc == ERR_OK) {
        rc = dbstore_read(&s->files->dir, name, &info, rec, NULL, s->threads, &found, &p->file_sum,
                          &p->file_bytes, s->err);
    }
    if (rc == ERR_OK && b->records_bits && !found) {
        rc = b->complete
                 ? error_set(s->err, ERR_IO,
                             "%s/%s is missing, though the manifest lists it; remove the "
                             "manifest (the tiers will be solved again) or use another --db",
                             s->files->work_dir, name)
                 : error_set(s->err, ERR_IO,
                             "%s/%s is missing, though its tier was solved (its bitmap "
                             "removed); remove the tier's other part files (it will be "
                             "solved again) or use another --db",
                             s->files->work_dir, name);
    } else if (rc == ERR_OK && b->records_bits) {
        reached = bits_from_records(s, t, p);
        b->parts_loaded++;
    } else if (rc == ERR_OK && found) {
        rc = check_part(s, t, p, name);
        b->parts_loaded++;
        b->tier_done += reached;
    } else if (rc == ERR_OK) {
        memset(rec, 0, (size_t)(b->cur.size * b->cur.width));
        if (reached > 0) { /* a team when the part has parallel_min or more */
            bool team = reached >= s->parallel_min && s->threads > 1;
            s->guided = b->guided;
            b->tier_done +=
                tier_walk_span(s, t, "solve", solve_position, team, p->lo, p->hi, b->tier_done);
            s->guided = false;
        }
        rc = tier_failed(s) ? s->err->code : ERR_OK;
        if (rc == ERR_OK) {
            rc = dbwriter_submit(tier_writer(s), name, &info, rec, NULL, &p->file_sum,
                                 &p->file_bytes, s->err);
            b->busy = which;
            p->written = true;
            b->parts_solved++;
            *solved = true;
        }
        if (rc == ERR_OK) {
            tier_blocks_stop_point(b);
        }
    }
    if (rc == ERR_OK) {
        rc = tally_part(s, t, p, sum);
        *tier_reached += reached;
    }
    return rc;
}

static void parts_close(TierBlocks *b, int t) {
    for (int k = b->first[t]; k < b->first[t + 1]; k++) {
        if (b->part[k].f != NULL) {
            dbstore_file_close(b->part[k].f);
            free(b->part[k].f);
            b->part[k].f = NULL;
        }
    }
}

/* Opens tier t's part files for reading (its parents' child records),
 * each mapped when it can be (dbstore_file_map). */
static ErrCode parts_open(TierSolve *s, int t) {
    TierBlocks *b = s->blocks;
    for (int k = b->first[t]; k < b->first[t + 1]; k++) {
        BlockPart *p = &b->part[k];
        if (p->f != NULL) {
            continue;
        }
        char name[DBSTORE_NAME_MAX];
        DbStoreInfo info;
        part_name(t, p, name, sizeof name);
        part_info(s, t, p, &info);
        DbStoreFile *f = mem_calloc(1, sizeof *f, "tier:blocks' files", s->err);
        if (f == NULL) {
            return ERR_MEMORY;
        }
        /* the cache's misses take the frames from the mapping: a pread
         * less each (or by pread, when it cannot be mapped) */
        ErrCode rc = dbstore_file_open_mapped(&s->files->dir, name, &info, f, s->err);
        if (rc != ERR_OK) {
            free(f);
            return rc;
        }
        if (f->map != NULL) {
            b->parts_mapped++;
        }
        p->f = f;
    }
    return ERR_OK;
}

/* Every part of a child tier is open while its parents are solved: the
 * soft limit of open files is raised to what the largest tier's parts
 * need (and the writer's files, the directory, a margin), or the run is
 * refused before it starts; then the caches and the part buffers. */
static ErrCode caches_create(TierSolve *s) {
    TierBlocks *b = s->blocks;
    uint64_t most = 0;
    for (int t = 0; t < s->gr.ntiers; t++) {
        uint64_t n = (uint64_t)(b->first[t + 1] - b->first[t]);
        most = n > most ? n : most;
    }
    ErrCode rc = tier_block_files_limit(most, "tier:blocks (a tier's part files)",
                                        "give a larger tier:blocks,part=N", s->err);
    if (rc != ERR_OK) {
        return rc;
    }
    b->cache = mem_calloc((size_t)s->threads, sizeof *b->cache, "tier:blocks' caches", s->err);
    if (b->cache == NULL) {
        return ERR_MEMORY;
    }
    for (int i = 0; i < s->threads && rc == ERR_OK; i++) {
        rc = tier_block_cache_init(&b->cache[i], b->cache_blocks, s->width, s->err);
    }
    for (int i = 0; i < 2 && rc == ERR_OK; i++) {
        rc = db_create(&b->buf[i], b->mem.largest_part, s->width, false, s->err);
    }
    return rc;
}

ErrCode tier_blocks_backward(TierSolve *s, DbSummary *sum) {
    TierBlocks *b = s->blocks;
    ErrCode rc = caches_create(s);
    for (int j = 0; j < s->gr.ntiers && rc == ERR_OK; j++) {
        int t = s->gr.order[j];
        const TierNode *n = &s->gr.node[t];
        /* The child tiers' files are complete before they are read. */
        rc = dbwriter_wait(tier_writer(s), s->err);
        b->busy = -1;
        /* the tier solved before is on disk: its bitmap file goes (the disk
         * holds the bitmaps of the tiers still to solve and the parts of
         * those solved, not both of every tier) */
        if (rc == ERR_OK && j > 0 && !b->complete) {
            char name[DBSTORE_NAME_MAX];
            dbranks_reach_name(s->gr.order[j - 1], name, sizeof name);
            dbstore_remove(&s->files->dir, name);
        }
        for (int c = 0; c < n->nchildren && rc == ERR_OK; c++) {
            rc = parts_open(s, n->children[c]);
        }
        /* the tier's bitmap, a part's slice at a time: from its file, or
         * (a complete database) from the part's records */
        char rname[DBSTORE_NAME_MAX];
        dbranks_reach_name(t, rname, sizeof rname);
        b->records_bits = b->complete || !dbstore_exists(&s->files->dir, rname);
        if (rc == ERR_OK && b->records_bits && !b->complete && !tier_blocks_parts_on_disk(s, t)) {
            rc = error_set(s->err, ERR_IO,
                           "%s/%s is gone, and tier %d's parts are not all there; run again "
                           "with a new --db",
                           s->files->work_dir, rname, t);
        }
        if (rc == ERR_OK && !b->records_bits) {
            rc = tier_blocks_slice_open(s, t);
        }
        dbfile_sum_init(&b->sum, 0);
        b->ncarry = 0;
        b->tier_done = 0;
        bool solved = false;
        uint64_t reached = 0;
        s->t[t].reached = b->count != NULL && b->count[t] != UINT64_MAX ? b->count[t] : 0;
        for (int k = b->first[t]; k < b->first[t + 1] && rc == ERR_OK; k++) {
            rc = do_part(s, t, k, sum, &solved, &reached);
        }
        tier_blocks_slice_close(s);
        if (rc == ERR_OK && !b->complete) {
            rc = tier_blocks_count_check(s, t, reached);
        }
        if (rc != ERR_OK) {
            break;
        }
        s->t[t].reached = reached;
        s->t[t].checksum = dbfile_sum_final(&b->sum, b->carry, b->ncarry);
        if (solved) {
            s->tiers_solved++;
        } else {
            s->tiers_loaded++;
        }
        tier_progress(s, "solve", t, s->t[t].reached, s->t[t].reached, true);
        s->done_before += s->t[t].reached;
        for (int c = 0; c < n->nchildren; c++) {
            if (--s->t[n->children[c]].parents_left == 0) {
                parts_close(b, n->children[c]);
            }
        }
    }
    return rc;
}

/* ----------------------------------------------------- manifest, report */

ErrCode tier_blocks_finish_dir(TierSolve *s, const DbSummary *sum) {
    TierBlocks *b = s->blocks;
    DbManifest m;
    store_manifest_fill(&m, s->g, "tier", "tiers", sum, s->res->root, false, 0);
    m.nfiles = b->first[s->gr.ntiers];
    m.files = mem_calloc((size_t)m.nfiles, sizeof *m.files, "the manifest", s->err);
    if (m.files == NULL) {
        return ERR_MEMORY;
    }
    for (int t = 0; t < s->gr.ntiers; t++) {
        for (int k = b->first[t]; k < b->first[t + 1]; k++) {
            DbManifestFile *f = &m.files[k];
            const BlockPart *p = &b->part[k];
            part_name(t, p, f->name, sizeof f->name);
            f->index = t;
            f->records = p->hi - p->lo;
            f->first = p->lo;
            f->bytes = p->file_bytes;
            f->header_sum = p->file_sum;
        }
    }
    ErrCode rc = store_manifest_commit(&s->files->dir, &m, s->err);
    dbstore_manifest_free(&m);
    s->files->bytes_written = 0; /* the parts this run wrote (db_tier_bytes) */
    for (int k = 0; k < b->first[s->gr.ntiers]; k++) {
        s->files->bytes_written += b->part[k].written ? (double)b->part[k].file_bytes : 0;
    }
    if (rc == ERR_OK) { /* the records say which positions are reached */
        dbstore_remove(&s->files->dir, "reach.gmdb");
        for (int t = 0; t < s->gr.ntiers; t++) {
            char name[DBSTORE_NAME_MAX];
            dbranks_reach_name(t, name, sizeof name);
            dbstore_remove(&s->files->dir, name);
        }
        s->res->saved_db = true;
    }
    return rc;
}

uint64_t tier_blocks_estimate(const TierSolve *s, uint64_t budget, double reachable) {
    TierBlocksMemory mm;
    const TierBlocksMemory *m = &mm;
    if (s->blocks != NULL) {
        m = &s->blocks->mem;
    } else if (!s->gr.tier_major || s->winby) {
        return 0; /* a mode this game cannot use */
    } else {
        tier_graph_blocks_memory(&s->gr, s->width, TIER_BLOCKS_PART_DEFAULT, s->threads,
                                 TIER_BLOCKS_CACHE_DEFAULT, &mm);
    }
    for (int t = 0; t < s->gr.ntiers; t++) {
        if (s->gr.node[t].loopy) {
            return 0;
        }
    }
    char a[32], b[32], c[32], d[32], e[32], f[32], g[32], h[32];
    fprintf(stderr,
            "tier:blocks: peak %s (whole bitmaps of the child tiers marked %s, bitmap slices %s, "
            "3 parts %s, caches %s on %d threads, child block indexes %s, the rest %s); %" PRIu64
            " parts of at most %" PRIu64 " records, largest block %" PRIu64 "; budget %s: %s\n",
            mem_format(m->total, a, sizeof a), mem_format(m->bitmaps, b, sizeof b),
            mem_format(m->slices, h, sizeof h), mem_format(m->parts, c, sizeof c),
            mem_format(m->caches, d, sizeof d), s->threads, mem_format(m->indexes, e, sizeof e),
            mem_format(m->rest, g, sizeof g), m->nparts, m->largest_part, m->largest_block,
            mem_format(budget, f, sizeof f), m->total <= budget ? "fits" : "does NOT fit");
    solve_result_extra(s->res, "est_blocks_peak_bytes", (double)m->total);
    solve_result_extra(s->res, "est_blocks_parts", (double)m->nparts);
    /* The disk: what tier_files_open and tier_blocks_disk_check check */
    uint64_t slots = 0, bitmaps = 0;
    for (int t = 0; t < s->gr.ntiers; t++) {
        slots += s->gr.node[t].size;
        bitmaps += tier_words(s->gr.node[t].size) * 8 + DBSTORE_HEADER_BYTES;
    }
    uint64_t per = DBSTORE_BLOCK_BYTES / s->width;
    uint64_t fixed = m->nparts * (uint64_t)(DBSTORE_HEADER_BYTES + DBSTORE_DICT_BYTES) +
                     8 * ((slots + per - 1) / per + m->nparts);
    uint64_t records = (uint64_t)(TIER_BLOCKS_DISK_RATE * reachable);
    fprintf(stderr,
            "tier:blocks disk: bitmaps at most %s (kept until the manifest), part headers and "
            "block indexes %s, records projected at %s (%d byte a position, for the %.4g "
            "positions below; the solve projects the exact count after its forward pass): %s\n",
            mem_format(bitmaps, a, sizeof a), mem_format(fixed, b, sizeof b),
            mem_format(records, c, sizeof c), TIER_BLOCKS_DISK_RATE, reachable,
            mem_format(bitmaps + fixed + records, d, sizeof d));
    solve_result_extra(s->res, "est_blocks_disk_bytes", (double)(bitmaps + fixed + records));
    return bitmaps + fixed + records;
}

void tier_blocks_report(const TierSolve *s) {
    const TierBlocks *b = s->blocks;
    if (b == NULL) {
        return;
    }
    uint64_t misses = 0;
    for (int i = 0; i < s->threads && b->cache != NULL; i++) {
        misses += b->cache[i].misses;
    }
    solve_result_extra(s->res, "blocks_parts", (double)b->mem.nparts);
    solve_result_extra(s->res, "blocks_parts_solved", (double)b->parts_solved);
    solve_result_extra(s->res, "blocks_parts_loaded", (double)b->parts_loaded);
    solve_result_extra(s->res, "blocks_child_blocks_read", (double)misses);
    solve_result_extra(s->res, "blocks_child_parts_mapped", (double)b->parts_mapped);
    solve_result_extra(s->res, "blocks_est_peak_bytes", (double)b->mem.total);
}

void tier_blocks_free(TierSolve *s) {
    TierBlocks *b = s->blocks;
    if (b == NULL) {
        return;
    }
    for (int t = 0; t < s->gr.ntiers && b->first != NULL && b->part != NULL; t++) {
        parts_close(b, t);
    }
    if (s->t != NULL) {
        tier_blocks_reach_free(s);
    }
    for (int i = 0; i < s->threads && b->cache != NULL; i++) {
        tier_block_cache_free(&b->cache[i]);
    }
    for (int i = 0; i < 2; i++) {
        if (b->buf[i].r8 != NULL || b->buf[i].r16 != NULL) {
            db_destroy(&b->buf[i]);
        }
    }
    free(b->cache);
    free(b->part);
    free(b->first);
    free(b);
    s->blocks = NULL;
}
