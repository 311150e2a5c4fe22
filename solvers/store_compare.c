/* solvers/store_compare.c: store_compare (solvers/store.h): two databases
 * of one game variant on disk compared position by position, without
 * solving: how one solver is checked against another on a game too big to
 * hold twice in memory (Topitop by `retro` against `tier`).
 *
 * What is compared: the record (value and remoteness; the WinBy score
 * where the game has scores) of every slot of the hash space, as store_get
 * reads it: a slot a database does not store (not reached, no slot in a
 * tier's index, a position that is not canonical under `sym`) reads as
 * unreached. A slot unreached in both is no position and is not counted;
 * one reached in one database and not in the other is a difference, like
 * two different records. When a database holds no remoteness
 * (`symbolic:remoteness=0`), values alone are compared. The records must
 * be ones a solve writes (else ERR_IO, as store_get).
 *
 * A partial database (tier:sector's, a series of tiers solved one by one)
 * holds every legal position of each tier it holds, reachable from the
 * start or not, while a complete one holds the reachable positions only
 * (`tier`, `retro`). Against a complete database, a position the partial
 * one alone holds is no difference: it is counted apart (beyond[]), as a
 * position beyond the other's reachable ones; a position the complete one
 * holds and the partial one lacks (its tier not there, or a slot not
 * held) is a difference: the complete side must be covered. A tier the
 * partial database does not hold reads as unreached. Two partial
 * databases are compared as two complete ones (compare them when they
 * hold the same tiers).
 *
 * Order of reading: both databases streamed chunk by chunk (COMPARE_CHUNK
 * slots), the chunks taken by the threads (dynamic schedule):
 *   walk P  the hash space in position order, when each side is of layout
 *           `slots`, `bdd`, or `tiers` of a tier-major game
 *           (TierOps.first): a chunk is a run of consecutive local indexes
 *           of one file (or of a few tiers or slices), read block by block
 *           in file order, an all-unreached block (no bytes stored) without
 *           decompressing; a `bdd` side through store_get, one thread at a
 *           time (the BDD reader is not shared between threads);
 *   walk T  a side of layout `tiers` whose hash is not tier-major (Connect
 *           Four or tic-tac-toe with `sym`, whose tiers hold the canonical
 *           positions by index): its tiers in order, each slot's position
 *           by position_at (index_of is defined on positions only, not on
 *           every slot of the hash); the other side the same way when it is
 *           `tiers` too (the same slots), else looked up by position (a
 *           block per position at worst). A record of that other side at a
 *           position with no slot in the tiers' layout is no position a
 *           solver stores; such records are counted (the other side's
 *           reached records, streamed, less those met) as differences of
 *           that side only, not named (`unnamed`).
 * So two `slots` or tier-major databases are each read once, sequentially
 * (measured in docs/database.md). Each thread holds one decompressed block
 * per side. Memory: the two readers' block indexes (store_open), per
 * thread two chunks of records (and of positions, walk T) and two blocks,
 * the table of tier runs or chunks; not the databases. Time: O(hash
 * space) record comparisons plus the blocks decompressed.
 *
 * Every difference is counted; the STORE_COMPARE_SHOWN first in the
 * walk's order (position order; walk T: tier, then index) are kept, each
 * chunk's first ones merged, the same for every number of threads.
 */
#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/mem.h"
#include "solvers/store.h"
#include "solvers/store_internal.h"

#define COMPARE_CHUNK (UINT64_C(1) << 16) /* divides STORE_SLOTS_PER_FILE */

typedef enum SideMode { SIDE_RANGE, SIDE_MAPPED, SIDE_GET } SideMode;

/* One database as the comparison reads it: SIDE_RANGE (walk P, by
 * blocks), SIDE_MAPPED (tiers without a tier-major hash: walk T), SIDE_GET
 * (bdd: store_get). For layout tiers of a tier-major game, its tiers as runs of positions in
 * increasing order (run r: positions [run_first[r], run_first[r] + tier_size[run_tier[r]])). */
typedef struct Side {
    Store *st;
    SideMode mode;
    bool partial; /* tier:sector's: every legal position of its tiers */
    int nrun;
    Position *run_first;
    int *run_tier;
} Side;

/* One thread's reading of one side: its decompression context, the block
 * it read last, and the chunk's records. */
typedef struct Reader {
    void *dctx;
    unsigned char *buf;
    size_t buf_bytes;
    const Store *st; /* the block in buf: its database, file (-1: none) and number */
    int file;
    uint64_t block;
    uint64_t blocks_read;
    uint32_t *raw;
    WinBy *winby;
} Reader;

static int by_first(const void *x, const void *y, void *ctx) {
    const Store *st = ctx;
    const Game *g = st->g;
    Position a = g->tiers->first(g, *(const int *)x), b = g->tiers->first(g, *(const int *)y);
    return a < b ? -1 : a > b;
}

/* qsort_r is not C17: a small insertion sort of indexes with a context
 * (tiers are thousands at most, sorted once). */
static void sort_tiers(int *t, int n, Store *st) {
    for (int i = 1; i < n; i++) {
        int v = t[i], j = i;
        while (j > 0 && by_first(&t[j - 1], &v, st) > 0) {
            t[j] = t[j - 1];
            j--;
        }
        t[j] = v;
    }
}

static ErrCode side_init(Store *st, Side *s, Error *err) {
    memset(s, 0, sizeof *s);
    s->st = st;
    s->partial = st->m.partial;
    const Game *g = st->g;
    if (st->bdd != NULL) {
        s->mode = SIDE_GET;
        return ERR_OK;
    }
    /* Every file opened (header and index checked against the manifest)
     * before the threads read them, all with their descriptors (the
     * store's budget, solvers/store.h, must hold them all). */
    if (st->nfiles > st->fd_cap) {
        return error_set(err, ERR_LIMIT,
                         "%s has %d files, more than the %d this process may keep open for "
                         "--compare; raise the limit of open files (ulimit -n)",
                         st->dir.path, st->nfiles, st->fd_cap);
    }
    for (int k = 0; k < st->nfiles; k++) {
        ErrCode rc = store_open_file(st, k, err);
        if (rc != ERR_OK) {
            return rc;
        }
    }
    if (!st->tiers) {
        s->mode = SIDE_RANGE;
        return ERR_OK;
    }
    if (g->tiers->first == NULL) {
        s->mode = SIDE_MAPPED;
        return ERR_OK;
    }
    s->mode = SIDE_RANGE;
    s->run_tier = mem_calloc((size_t)st->ntiers + 1, sizeof *s->run_tier, "the tier runs", err);
    s->run_first = mem_calloc((size_t)st->ntiers + 1, sizeof *s->run_first, "the tier runs", err);
    if (s->run_tier == NULL || s->run_first == NULL) {
        return ERR_MEMORY;
    }
    for (int t = 0; t < st->ntiers; t++) {
        if (st->tier_size[t] > 0) {
            s->run_tier[s->nrun++] = t;
        }
    }
    sort_tiers(s->run_tier, s->nrun, st);
    for (int r = 0; r < s->nrun; r++) {
        s->run_first[r] = g->tiers->first(g, s->run_tier[r]);
        if (r > 0 && s->run_first[r] < s->run_first[r - 1] + st->tier_size[s->run_tier[r - 1]]) {
            return error_set(err, ERR_INTERNAL, "%s: tiers %d and %d overlap in the hash",
                             g->module->name, s->run_tier[r - 1], s->run_tier[r]);
        }
    }
    return ERR_OK;
}

static void side_free(Side *s) {
    free(s->run_first);
    free(s->run_tier);
}

static ErrCode reader_init(Reader *r, Error *err) {
    memset(r, 0, sizeof *r);
    r->file = -1;
    r->dctx = dbstore_dctx_new();
    r->raw = malloc(COMPARE_CHUNK * sizeof *r->raw);
    r->winby = malloc(COMPARE_CHUNK * sizeof *r->winby);
    if (r->dctx == NULL || r->raw == NULL || r->winby == NULL) {
        return error_set(err, ERR_MEMORY, "cannot allocate the comparison's buffers");
    }
    return ERR_OK;
}

static void reader_free(Reader *r) {
    if (r->dctx != NULL) {
        dbstore_dctx_free(r->dctx);
    }
    free(r->buf);
    free(r->raw);
    free(r->winby);
}

/* Records [i, i + n) of file k into raw/winby (n within the file). */
static ErrCode read_run(Store *st, Reader *r, int k, uint64_t i, uint64_t n, uint32_t *raw,
                        WinBy *winby, Error *err) {
    const DbStoreFile *f = &st->files[k];
    unsigned width = f->info.width, rec = width + (f->info.winby ? 2 : 0);
    size_t need = (size_t)f->block_records * rec + 8;
    if (need > r->buf_bytes) {
        free(r->buf);
        r->buf = malloc(need);
        r->buf_bytes = r->buf != NULL ? need : 0;
        r->file = -1;
        if (r->buf == NULL) {
            return error_set(err, ERR_MEMORY, "cannot allocate a block buffer");
        }
    }
    for (uint64_t done = 0; done < n;) {
        uint64_t b = (i + done) / f->block_records, j = (i + done) % f->block_records;
        uint64_t nb = dbstore_block_bytes(f, b) / rec;
        uint64_t take = nb - j < n - done ? nb - j : n - done;
        if (dbstore_block_csize(f, b) == 0) { /* every record unreached, no bytes stored */
            memset(raw + done, 0, take * sizeof *raw);
            memset(winby + done, 0, take * sizeof *winby);
            done += take;
            continue;
        }
        if (r->st != st || r->file != k || r->block != b) {
            r->file = -1;
            ErrCode rc = dbstore_block_read(f, b, r->dctx, r->buf, err);
            if (rc != ERR_OK) {
                return rc;
            }
            r->st = st;
            r->file = k;
            r->block = b;
            r->blocks_read++;
        }
        const unsigned char *d = r->buf;
        for (uint64_t x = 0; x < take; x++) {
            uint64_t y = j + x;
            raw[done + x] = width == 1 ? d[y] : (uint32_t)(d[2 * y] | d[2 * y + 1] << 8);
            winby[done + x] =
                f->info.winby
                    ? (WinBy)(int16_t)(d[nb * width + 2 * y] | d[nb * width + 2 * y + 1] << 8)
                    : 0;
            if (raw[done + x] != DB_UNREACHED) {
                const char *why = store_record_problem(st, raw[done + x]);
                if (why != NULL) {
                    return error_set(err, ERR_IO, "%s holds %s (record %" PRIu64 "); " REMEDY,
                                     f->path, why, b * f->block_records + y);
                }
            }
        }
        done += take;
    }
    return ERR_OK;
}

/* Local indexes [i, i + n) of tier t (within the tier), from its file or
 * its slices; unreached when a partial database does not hold the tier. */
static ErrCode read_tier(Store *st, Reader *r, int t, uint64_t i, uint64_t n, uint32_t *raw,
                         WinBy *winby, Error *err) {
    if (st->tier_file[t] == st->tier_file[t + 1]) {
        memset(raw, 0, n * sizeof *raw);
        memset(winby, 0, n * sizeof *winby);
        return ERR_OK;
    }
    for (int k = st->tier_file[t]; k < st->tier_file[t + 1] && n > 0; k++) {
        const DbManifestFile *f = &st->m.files[k];
        if (i >= f->first + f->records) {
            continue;
        }
        uint64_t take = f->first + f->records - i < n ? f->first + f->records - i : n;
        ErrCode rc = read_run(st, r, k, i - f->first, take, raw, winby, err);
        if (rc != ERR_OK) {
            return rc;
        }
        raw += take;
        winby += take;
        i += take;
        n -= take;
    }
    return ERR_OK;
}

/* The records of positions [p0, p0 + n) into r->raw, r->winby (walk P:
 * layouts slots, bdd, and tiers of a tier-major hash). */
static ErrCode side_fill(const Side *s, Reader *r, Position p0, uint64_t n, Error *err) {
    Store *st = s->st;
    if (s->mode == SIDE_GET) {
        ErrCode rc = ERR_OK;
#pragma omp critical(store_compare_get)
        for (uint64_t x = 0; x < n && rc == ERR_OK; x++) {
            rc = store_get(st, p0 + x, &r->raw[x], &r->winby[x], err);
        }
        return rc;
    }
    if (!st->tiers) { /* a chunk lies in one slots file */
        return read_run(st, r, (int)(p0 / STORE_SLOTS_PER_FILE), p0 % STORE_SLOTS_PER_FILE, n,
                        r->raw, r->winby, err);
    }
    /* tier-major: the runs the chunk meets, unreached between them */
    int lo = 0, hi = s->nrun; /* the first run ending after p0 */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (s->run_first[mid] + st->tier_size[s->run_tier[mid]] <= p0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    for (uint64_t x = 0; x < n;) {
        Position p = p0 + x;
        if (lo >= s->nrun || p < s->run_first[lo]) { /* a gap up to the next run */
            uint64_t gap =
                lo >= s->nrun || s->run_first[lo] - p > n - x ? n - x : s->run_first[lo] - p;
            memset(r->raw + x, 0, gap * sizeof *r->raw);
            memset(r->winby + x, 0, gap * sizeof *r->winby);
            x += gap;
            continue;
        }
        int t = s->run_tier[lo];
        uint64_t i = p - s->run_first[lo];
        uint64_t take = st->tier_size[t] - i < n - x ? st->tier_size[t] - i : n - x;
        ErrCode rc = read_tier(st, r, t, i, take, r->raw + x, r->winby + x, err);
        if (rc != ERR_OK) {
            return rc;
        }
        x += take;
        lo++;
    }
    return ERR_OK;
}

/* The record of position p of side s (layout slots or bdd) into raw[x],
 * winby[x]. */
static ErrCode side_get(const Side *s, Reader *r, Position p, uint32_t *raw, WinBy *winby,
                        Error *err) {
    Store *st = s->st;
    if (s->mode == SIDE_GET) {
        ErrCode rc;
#pragma omp critical(store_compare_get)
        rc = store_get(st, p, raw, winby, err);
        return rc;
    }
    return read_run(st, r, (int)(p / STORE_SLOTS_PER_FILE), p % STORE_SLOTS_PER_FILE, 1, raw, winby,
                    err);
}

/* One chunk's tally, merged into the total under a lock. */
typedef struct Tally {
    uint64_t compared, both, only[2], beyond[2], differ;
    int shown;
    StoreDiff diff[STORE_COMPARE_SHOWN];
    uint64_t key[STORE_COMPARE_SHOWN]; /* the walk's order: k0 + x */
} Tally;

/* Adds t to out; out->diff keeps the STORE_COMPARE_SHOWN smallest keys
 * (okey[i]: out->diff[i]'s; a chunk's keys increase). */
static void tally_merge(StoreCompare *out, uint64_t *okey, const Tally *t) {
    out->compared += t->compared;
    out->both += t->both;
    out->only[0] += t->only[0];
    out->only[1] += t->only[1];
    out->beyond[0] += t->beyond[0];
    out->beyond[1] += t->beyond[1];
    out->differ += t->differ;
    for (int k = 0; k < t->shown; k++) { /* insert, keeping the smallest keys */
        int at = out->shown;
        while (at > 0 && okey[at - 1] > t->key[k]) {
            at--;
        }
        if (at >= STORE_COMPARE_SHOWN) {
            break; /* t's keys increase: none of the rest fits either */
        }
        int last = out->shown < STORE_COMPARE_SHOWN ? out->shown : STORE_COMPARE_SHOWN - 1;
        memmove(&out->diff[at + 1], &out->diff[at], (size_t)(last - at) * sizeof *out->diff);
        memmove(&okey[at + 1], &okey[at], (size_t)(last - at) * sizeof *okey);
        out->diff[at] = t->diff[k];
        okey[at] = t->key[k];
        out->shown = last + 1;
    }
}

/* Compares one chunk of n slots: positions p0 + x, or pos[x] when pos is
 * not NULL (records in ra, rb); k0 + x is slot x's place in the walk.
 * whole[k]: side k is partial and the other complete, so a position k
 * alone holds is beyond the other's reachable ones, not a difference. */
static void compare_chunk(const Database *fa, const Database *fb, bool values_only, bool winby,
                          const bool whole[2], Position p0, const Position *pos, uint64_t k0,
                          uint64_t n, const Reader *ra, const Reader *rb, Tally *t) {
    for (uint64_t x = 0; x < n; x++) {
        uint32_t a = ra->raw[x], b = rb->raw[x];
        if ((a | b) == DB_UNREACHED) {
            continue;
        }
        t->compared++;
        bool ina = a != DB_UNREACHED, inb = b != DB_UNREACHED;
        bool same;
        if (ina && inb) {
            t->both++;
            same = values_only ? db_raw_value(fa, a) == db_raw_value(fb, b) : a == b;
            same = same && (!winby || ra->winby[x] == rb->winby[x]);
        } else if (whole[inb]) {
            t->beyond[inb]++;
            same = true;
        } else {
            t->only[inb]++;
            same = false;
        }
        if (!same) {
            t->differ++;
            if (t->shown < STORE_COMPARE_SHOWN) {
                t->key[t->shown] = k0 + x;
                t->diff[t->shown++] = (StoreDiff){.pos = pos != NULL ? pos[x] : p0 + x,
                                                  .raw = {a, b},
                                                  .winby = {ra->winby[x], rb->winby[x]}};
            }
        }
    }
}

/* The walk: walk P, the hash space in position order (chunk c: positions
 * from c * COMPARE_CHUNK); or, when side m is of layout tiers without a
 * tier-major hash, walk T, m's tiers in order (chunk c: tier ct[c], local
 * indexes from ci[c]; its slots' place in the walk base[t] + i). */
typedef struct Walk {
    bool by_tier;
    int m; /* walk T: the side in tier order; 1 - m, the other */
    uint64_t chunks;
    int *ct;
    uint64_t *ci;
    uint64_t *base;
    uint64_t met;   /* walk T: records of side 1 - m reached at m's slots */
    uint64_t extra; /* ... and reached elsewhere (no slot in m's layout) */
} Walk;

static ErrCode walk_plan(const Side *side, Walk *w, Error *err) {
    memset(w, 0, sizeof *w);
    w->m = side[0].mode == SIDE_MAPPED ? 0 : side[1].mode == SIDE_MAPPED ? 1 : -1;
    if (w->m < 0) {
        w->chunks = (side[0].st->g->num_positions + COMPARE_CHUNK - 1) / COMPARE_CHUNK;
        return ERR_OK;
    }
    w->by_tier = true;
    const Store *st = side[w->m].st;
    for (int t = 0; t < st->ntiers; t++) {
        w->chunks += (st->tier_size[t] + COMPARE_CHUNK - 1) / COMPARE_CHUNK;
    }
    w->ct = mem_calloc((size_t)w->chunks + 1, sizeof *w->ct, "the comparison's chunks", err);
    w->ci = mem_calloc((size_t)w->chunks + 1, sizeof *w->ci, "the comparison's chunks", err);
    w->base = mem_calloc((size_t)st->ntiers + 1, sizeof *w->base, "the comparison's chunks", err);
    if (w->ct == NULL || w->ci == NULL || w->base == NULL) {
        return ERR_MEMORY;
    }
    uint64_t c = 0, k = 0;
    for (int t = 0; t < st->ntiers; t++) {
        w->base[t] = k;
        k += st->tier_size[t];
        for (uint64_t i = 0; i < st->tier_size[t]; i += COMPARE_CHUNK) {
            w->ct[c] = t;
            w->ci[c++] = i;
        }
    }
    return ERR_OK;
}

static void walk_free(Walk *w) {
    free(w->ct);
    free(w->ci);
    free(w->base);
}

/* Fills ra, rb (and pos, walk T) with chunk c's records; *p0, *k0, *n:
 * its first position (walk P), its first place in the walk, its slots. */
static ErrCode walk_fill(const Side *side, const Walk *w, uint64_t c, Reader *rd, Position *pos,
                         Position *p0, uint64_t *k0, uint64_t *n, uint64_t *met, Error *err) {
    const Game *g = side[0].st->g;
    if (!w->by_tier) {
        *p0 = *k0 = c * COMPARE_CHUNK;
        *n = g->num_positions - *p0 < COMPARE_CHUNK ? g->num_positions - *p0 : COMPARE_CHUNK;
        ErrCode rc = side_fill(&side[0], &rd[0], *p0, *n, err);
        return rc == ERR_OK ? side_fill(&side[1], &rd[1], *p0, *n, err) : rc;
    }
    int m = w->m, o = 1 - m, t = w->ct[c];
    Store *sm = side[m].st, *so = side[o].st;
    uint64_t i0 = w->ci[c];
    *p0 = 0;
    *k0 = w->base[t] + i0;
    *n = sm->tier_size[t] - i0 < COMPARE_CHUNK ? sm->tier_size[t] - i0 : COMPARE_CHUNK;
    ErrCode rc = read_tier(sm, &rd[m], t, i0, *n, rd[m].raw, rd[m].winby, err);
    for (uint64_t x = 0; x < *n && rc == ERR_OK; x++) {
        pos[x] = g->tiers->position_at(g, t, i0 + x);
    }
    if (rc == ERR_OK && so->tiers) { /* the same layout: the same slots */
        return read_tier(so, &rd[o], t, i0, *n, rd[o].raw, rd[o].winby, err);
    }
    for (uint64_t x = 0; x < *n && rc == ERR_OK; x++) {
        rc = side_get(&side[o], &rd[o], pos[x], &rd[o].raw[x], &rd[o].winby[x], err);
        *met += rd[o].raw[x] != DB_UNREACHED;
    }
    return rc;
}

/* Walk T with a side of another layout: its reached records counted,
 * those at no slot of side m's layout are differences (not named: a
 * position without a slot has no place in the walk). Layout bdd: its
 * manifest's count. */
static ErrCode count_extra(const Side *side, Walk *w, int threads, Reader *rd, Error *err) {
    const Side *o = &side[1 - w->m];
    uint64_t total = o->st->m.positions;
    if (o->mode != SIDE_GET) {
        const Game *g = o->st->g;
        uint64_t chunks = (g->num_positions + COMPARE_CHUNK - 1) / COMPARE_CHUNK;
        int failed = 0;
        total = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) if (threads > 1) \
    reduction(+ : total)
        for (uint64_t c = 0; c < chunks; c++) {
            int me = threads > 1 ? omp_get_thread_num() : 0, stop;
#pragma omp atomic read
            stop = failed;
            if (stop) {
                continue;
            }
            Position p0 = c * COMPARE_CHUNK;
            uint64_t n =
                g->num_positions - p0 < COMPARE_CHUNK ? g->num_positions - p0 : COMPARE_CHUNK;
            Error e = {0};
            Reader *r = &rd[2 * me + 1 - w->m]; /* side o's own reader */
            if (side_fill(o, r, p0, n, &e) != ERR_OK) {
#pragma omp critical(store_compare_tally)
                if (!failed) {
                    failed = 1;
                    *err = e;
                }
                continue;
            }
            for (uint64_t x = 0; x < n; x++) {
                total += r->raw[x] != DB_UNREACHED;
            }
        }
        if (failed) {
            return err->code;
        }
    }
    w->extra = total > w->met ? total - w->met : 0;
    return ERR_OK;
}

ErrCode store_compare(Store *a, Store *b, int threads, bool progress, StoreCompare *out,
                      Error *err) {
    memset(out, 0, sizeof *out);
    const Game *g = a->g;
    Side side[2];
    memset(side, 0, sizeof side);
    Walk w;
    memset(&w, 0, sizeof w);
    ErrCode rc = side_init(a, &side[0], err);
    if (rc == ERR_OK) {
        rc = side_init(b, &side[1], err);
    }
    if (rc == ERR_OK && (b->g != g || a->m.hash_space != b->m.hash_space)) {
        rc = error_set(err, ERR_INTERNAL, "the two databases are not of one game variant");
    }
    if (rc == ERR_OK) {
        rc = walk_plan(side, &w, err);
    }
    out->values_only = !store_has_remoteness(a) || !store_has_remoteness(b);
    const bool whole[2] = {side[0].partial && !side[1].partial,
                           side[1].partial && !side[0].partial};
    out->partial[0] = side[0].partial;
    out->partial[1] = side[1].partial;
    threads = threads < 1 ? 1 : threads;
    /* per thread: a reader of each side, then the positions of a chunk */
    Reader *rd =
        rc == ERR_OK ? mem_calloc((size_t)threads * 2, sizeof *rd, "the readers", err) : NULL;
    Position *pos = rc == ERR_OK && w.by_tier
                        ? mem_calloc((size_t)threads * COMPARE_CHUNK, sizeof *pos,
                                     "the comparison's positions", err)
                        : NULL;
    rc = rc == ERR_OK && (rd == NULL || (w.by_tier && pos == NULL)) ? ERR_MEMORY : rc;
    for (int k = 0; rc == ERR_OK && k < 2 * threads; k++) {
        rc = reader_init(&rd[k], err);
    }
    uint64_t bad = w.chunks; /* the first chunk (in order) that failed, as one thread would */
    Error bad_err = {0};
    uint64_t done = 0, met = 0, okey[STORE_COMPARE_SHOWN];
    double t0 = clock_seconds(), shown_at = t0;
    if (rc == ERR_OK) {
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) if (threads > 1) \
    reduction(+ : met)
        for (uint64_t c = 0; c < w.chunks; c++) {
            uint64_t bad_now;
#pragma omp atomic read
            bad_now = bad;
            if (c > bad_now) {
                continue; /* an earlier chunk failed */
            }
            int me = threads > 1 ? omp_get_thread_num() : 0;
            Reader *r2 = &rd[2 * me];
            Position *mpos = w.by_tier ? pos + (size_t)me * COMPARE_CHUNK : NULL;
            Position p0;
            uint64_t k0, n;
            Error e = {0};
            ErrCode r = walk_fill(side, &w, c, r2, mpos, &p0, &k0, &n, &met, &e);
            if (r != ERR_OK) {
#pragma omp critical(store_compare_tally)
                if (c < bad) {
                    bad = c;
                    bad_err = e;
                    bad_err.code = r;
                }
                continue;
            }
            Tally t;
            memset(&t, 0, sizeof t);
            compare_chunk(&a->fmt, &b->fmt, out->values_only, g->has_winby, whole, p0, mpos, k0, n,
                          &r2[0], &r2[1], &t);
#pragma omp critical(store_compare_tally)
            {
                tally_merge(out, okey, &t);
                done++;
                double now = clock_seconds();
                if (progress && (now - shown_at >= 10 || done == w.chunks)) {
                    shown_at = now;
                    fprintf(stderr,
                            "compare: %" PRIu64 " of %" PRIu64 " chunks, %" PRIu64
                            " positions, %" PRIu64 " differ, %.0f s\n",
                            done, w.chunks, out->compared, out->differ, now - t0);
                }
            }
        }
        if (bad < w.chunks) {
            *err = bad_err;
            rc = bad_err.code;
        }
    }
    w.met = met;
    if (rc == ERR_OK && w.by_tier && !side[1 - w.m].st->tiers) {
        rc = count_extra(side, &w, threads, rd, err);
        out->compared += w.extra;
        out->only[1 - w.m] += w.extra;
        out->differ += w.extra;
        out->unnamed = w.extra;
    }
    for (int k = 0; rd != NULL && k < 2 * threads; k++) {
        out->blocks_read += rd[k].blocks_read;
        reader_free(&rd[k]);
    }
    out->blocks_read += a->rd.misses + b->rd.misses; /* store_get's, layout bdd */
    free(rd);
    free(pos);
    walk_free(&w);
    side_free(&side[0]);
    side_free(&side[1]);
    return rc;
}
