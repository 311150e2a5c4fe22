/* solvers/store_verify_parts.c: the data of --verify by parts
 * (store_internal.h StoreParts): what store_verify (store_verify.c) reads
 * when a tier and its child tiers do not fit in memory together. A tier is
 * checked piece by piece: a piece is a run of whole file blocks of one of
 * the tier's files (a tier:blocks part, an N-rank slice or a whole tier
 * file) of at most `target` records, read and decompressed on the threads
 * into one buffer; each child record is read through the thread's cache of
 * child file blocks (solvers/tier/block_cache.h, the cache tier:blocks'
 * backward pass reads its child records through). Only the files of the
 * tier being checked and of its child tiers are open (the header and block
 * index of each, the file mapped where it can be, as the store opens its
 * files; the others are closed, so a database of more files than
 * the limit of open files is read).
 *
 * Layout tiers, a tier-major game with the tier fast path
 * (TierOps.expand_run), no WinBy scores (a file block holds records only).
 *
 * Memory (store_parts_memory, checked before a tier is checked this way):
 * a piece's records and its words of the reach bitmap, the per-thread
 * caches (store_parts_cache_blocks each: tier:blocks' default of
 * TIER_BLOCKS_CACHE_DEFAULT, capped alike by the child tiers), the open
 * files' indexes and dictionaries (graph.h TIER_BLOCKS_FILE_BYTES a file,
 * 16 bytes a file block), and per thread TIER_BLOCKS_THREAD_BYTES and the
 * verification's histogram. Time: one read and decompression of every
 * block of the tier, and about one of a child file block per block and
 * stream of children (tier:blocks' access pattern).
 */
#include <inttypes.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "solvers/store_internal.h"
#include "solvers/tier/block_cache.h"

/* Records of one file block (no WinBy: the by-parts path refuses them). */
static uint64_t block_records(const Store *st) { return DBSTORE_BLOCK_BYTES / st->m.width; }

bool store_parts_can(const Store *st) {
    const Game *g = st->g;
    return st->tiers && g->tiers->first != NULL && g->tiers->expand_run != NULL && !st->m.winby;
}

uint64_t store_parts_target(uint64_t target, const Store *st) {
    uint64_t br = block_records(st);
    return target < br ? br : target / br * br;
}

/* The largest piece of tier t: its largest file, at most target records. */
static uint64_t largest_piece(const Store *st, int t, uint64_t target) {
    uint64_t most = 0;
    for (int k = st->tier_file[t]; k < st->tier_file[t + 1]; k++) {
        most = st->m.files[k].records > most ? st->m.files[k].records : most;
    }
    return most < target ? most : target;
}

/* File blocks of tier t's files. */
static uint64_t tier_file_blocks(const Store *st, int t) {
    uint64_t br = block_records(st), blocks = 0;
    for (int k = st->tier_file[t]; k < st->tier_file[t + 1]; k++) {
        blocks += (st->m.files[k].records + br - 1) / br;
    }
    return blocks;
}

uint64_t store_parts_cache_blocks(const Store *st) {
    const Game *g = st->g;
    uint64_t most = 0;
    for (int t = 0; t < st->ntiers; t++) {
        int kids[GAME_MAX_CHILD_TIERS + 1];
        int nk = g->tiers->children(g, t, kids);
        uint64_t blocks = 0;
        for (int j = 0; j < nk; j++) {
            blocks += kids[j] >= 0 && kids[j] < st->ntiers ? tier_file_blocks(st, kids[j]) : 0;
        }
        most = blocks > most ? blocks : most;
    }
    return tier_graph_cache_capped(TIER_BLOCKS_CACHE_DEFAULT, most);
}

uint64_t store_parts_memory(const Store *st, int t, const int *tiers, int ntiers, int threads,
                            uint64_t target) {
    uint64_t piece = largest_piece(st, t, store_parts_target(target, st));
    uint64_t br = block_records(st), bytes = 0;
    bytes += piece * st->m.width + (piece / 64 + 2) * 8; /* the piece, its bitmap */
    bytes += (uint64_t)threads * store_parts_cache_blocks(st) *
             (DBSTORE_BLOCK_BYTES + TIER_BLOCKS_ENTRY_BYTES);
    for (int j = 0; j < ntiers; j++) {
        for (int k = st->tier_file[tiers[j]]; k < st->tier_file[tiers[j] + 1]; k++) {
            bytes += TIER_BLOCKS_FILE_BYTES + 16 * ((st->m.files[k].records + br - 1) / br);
        }
    }
    uint64_t hist = (st->m.width == 1 ? 256 : 65536) * sizeof(uint64_t);
    return bytes + TIER_BLOCKS_REST_BYTES + (uint64_t)threads * (TIER_BLOCKS_THREAD_BYTES + hist);
}

ErrCode store_parts_create(Store *st, int threads, uint64_t target, StoreParts *sp, Error *err) {
    memset(sp, 0, sizeof *sp);
    sp->st = st;
    sp->threads = threads;
    sp->target = store_parts_target(target, st);
    uint64_t most = 0, cap = 0;
    const Game *g = st->g;
    for (int t = 0; t < st->ntiers; t++) {
        int kids[GAME_MAX_CHILD_TIERS + 1];
        int nk = g->tiers->children(g, t, kids);
        uint64_t files = (uint64_t)(st->tier_file[t + 1] - st->tier_file[t]);
        for (int j = 0; j < nk; j++) {
            if (kids[j] >= 0 && kids[j] < st->ntiers) {
                files += (uint64_t)(st->tier_file[kids[j] + 1] - st->tier_file[kids[j]]);
            }
        }
        most = files > most ? files : most;
        uint64_t piece = largest_piece(st, t, sp->target);
        cap = piece > cap ? piece : cap;
    }
    ErrCode rc = tier_block_files_limit(most,
                                        "--verify by parts (a tier's files and its child "
                                        "tiers')",
                                        "raise it (ulimit -n)", err);
    if (rc != ERR_OK) {
        return rc;
    }
    sp->cache = mem_calloc((size_t)threads, sizeof *sp->cache, "the verification's caches", err);
    if (sp->cache == NULL) {
        return ERR_MEMORY;
    }
    uint64_t blocks = store_parts_cache_blocks(st);
    for (int i = 0; i < threads && rc == ERR_OK; i++) {
        rc = tier_block_cache_init(&sp->cache[i], blocks, st->m.width, err);
    }
    if (rc == ERR_OK) {
        rc = db_create(&sp->buf, cap > 0 ? cap : 1, st->m.width, false, err);
        sp->made = rc == ERR_OK;
    }
    return rc;
}

void store_parts_free(StoreParts *sp) {
    for (int i = 0; i < sp->threads && sp->cache != NULL; i++) {
        sp->misses += sp->cache[i].misses;
        tier_block_cache_free(&sp->cache[i]);
    }
    free(sp->cache);
    sp->cache = NULL;
    if (sp->made) {
        db_destroy(&sp->buf);
        sp->made = false;
    }
    if (sp->st != NULL) {
        for (int k = 0; k < sp->st->nfiles; k++) {
            store_close_file(sp->st, k);
        }
    }
}

/* The files of the given tiers open with their descriptors (the threads
 * read them at once), every other file closed first, so that the store's
 * clock hand (solvers/store.h) never suspends one of them; more files than
 * the descriptors the store may hold are refused. */
ErrCode store_parts_open(StoreParts *sp, const int *tiers, int ntiers, Error *err) {
    Store *st = sp->st;
    int need = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int t = 0; t < st->ntiers; t++) {
            bool in = false;
            for (int j = 0; j < ntiers; j++) {
                in = in || tiers[j] == t;
            }
            for (int k = st->tier_file[t]; k < st->tier_file[t + 1] && pass == 0; k++) {
                if (in) {
                    need++;
                } else {
                    store_close_file(st, k);
                }
            }
            for (int k = st->tier_file[t]; k < st->tier_file[t + 1] && pass == 1 && in; k++) {
                ErrCode rc = store_open_file(st, k, err);
                if (rc != ERR_OK) {
                    return rc;
                }
            }
        }
        if (pass == 0 && need > st->fd_cap) {
            return error_set(err, ERR_LIMIT,
                             "--verify by parts reads %d files at once (a tier and its child "
                             "tiers), more than the %d this process may keep open; raise the "
                             "limit of open files (ulimit -n)",
                             need, st->fd_cap);
        }
    }
    return ERR_OK;
}

/* The file of tier t holding local index i (binary search over its files,
 * in order of their first local index). */
static int file_of(const Store *st, int t, uint64_t i) {
    int lo = st->tier_file[t], hi = st->tier_file[t + 1] - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (st->m.files[mid].first <= i) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

uint64_t store_parts_end(const StoreParts *sp, int t, uint64_t lo) {
    const DbManifestFile *f = &sp->st->m.files[file_of(sp->st, t, lo)];
    uint64_t end = f->first + f->records;
    return end - lo < sp->target ? end : lo + sp->target;
}

ErrCode store_parts_read(StoreParts *sp, int t, uint64_t lo, uint64_t hi, Error *err) {
    Store *st = sp->st;
    int k = file_of(st, t, lo);
    const DbStoreFile *f = &st->files[k];
    uint64_t first = st->m.files[k].first, br = f->block_records;
    if (!st->opened[k] || hi - lo > sp->target || (lo - first) % br != 0) {
        return error_set(err, ERR_INTERNAL, "verify: tier %d's piece [%" PRIu64 ", %" PRIu64 ")", t,
                         lo, hi);
    }
    uint64_t b0 = (lo - first) / br, b1 = (hi - first + br - 1) / br;
    unsigned char *out =
        sp->buf.width == 1 ? (unsigned char *)sp->buf.r8 : (unsigned char *)sp->buf.r16;
    /* every block read, the first that fails named: the same on any
     * number of threads */
    uint64_t bad = UINT64_MAX;
    Error first_err = {0};
#pragma omp parallel for num_threads(sp->threads) schedule(dynamic, 16) if (b1 - b0 >= 64)
    for (uint64_t b = b0; b < b1; b++) {
        Error e;
        unsigned char *at = out + (b - b0) * br * st->m.width;
        if (dbstore_block_bytes(f, b) > (hi - lo - (b - b0) * br) * st->m.width) {
            error_set(&e, ERR_IO, "%s: block %" PRIu64 " is larger than the records it holds",
                      f->path, b);
        } else if (dbstore_block_read(f, b, sp->cache[omp_get_thread_num()].dctx, at, &e) ==
                   ERR_OK) {
            continue;
        }
#pragma omp critical(store_parts_read)
        if (b < bad) {
            first_err = e;
            bad = b;
        }
    }
    if (bad != UINT64_MAX) {
        *err = first_err;
        return err->code;
    }
    sp->buf.size = hi - lo;
    sp->pieces++;
    return ERR_OK;
}

/* The open file of tier t holding local index ci (the cache's
 * TierBlockFind). */
static const DbStoreFile *parts_find(void *ctx, int t, uint64_t ci, uint64_t *first) {
    const Store *st = ctx;
    if (st->tier_file[t] == st->tier_file[t + 1]) {
        return NULL;
    }
    int k = file_of(st, t, ci);
    *first = st->m.files[k].first;
    return st->opened[k] && ci - *first < st->m.files[k].records ? &st->files[k] : NULL;
}

bool store_parts_child(StoreParts *sp, int t, uint64_t ci, uint32_t *raw, Error *err) {
    return tier_block_cache_get(&sp->cache[omp_get_thread_num()], t, ci, parts_find, sp->st, raw,
                                err);
}

uint64_t store_parts_misses(const StoreParts *sp) {
    uint64_t n = sp->misses;
    for (int i = 0; i < sp->threads && sp->cache != NULL; i++) {
        n += sp->cache[i].misses;
    }
    return n;
}

void store_parts_forget(StoreParts *sp) {
    for (int i = 0; i < sp->threads && sp->cache != NULL; i++) {
        BlockCache *c = &sp->cache[i];
        for (uint64_t k = 0; k <= c->set_mask; k++) {
            for (int w = 0; w < TIER_BLOCKS_WAYS; w++) {
                c->e[k * TIER_BLOCKS_WAYS + (uint64_t)w].tier = -1;
            }
        }
    }
}
