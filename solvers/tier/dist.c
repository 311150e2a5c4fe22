/* solvers/tier/dist.c: the tier solver on N MPI ranks (bin/solve-mpi,
 * core/dist.h): splitting a tier among the ranks, sharing its records,
 * its checksum, and tier:sliced's look-ups. With one rank (s->dist NULL)
 * every phase here does nothing: a tier is one range, the whole of it.
 *
 * Whole tiers (tier): each tier's reachable positions are split among the
 * ranks into contiguous ranges of bitmap words holding about equal numbers
 * of reachable positions (tier_dist_split: deterministic, from the
 * complete bitmap); each rank solves its range, then the ranges are shared
 * (an allgather), so every rank holds every record of the tier, byte for
 * byte what one process computes.
 *
 * tier:sliced (no loopy tiers): each rank keeps only its range of every
 * tier. After the forward pass every tier is split once and the other
 * ranks' bitmap words are dropped (tier_dist_trim). Before a tier is
 * solved, each rank walks its range to mark the child records it needs
 * from other ranks (tier_mark_needed) and fetches them in one batch per
 * child tier (tier_dist_fetch: MPI_Alltoallv, or MPI_Get with
 * tier:sliced,rma); the solve walk finds a child's record in its own slice
 * or among the fetched (tier_child_record). No share: the tier checksum
 * passes along the ranks (sliced_checksum) and the totals are summed at
 * the end (tier_dist_summary), so the JSON, the files and the database
 * checksum are those of the other modes.
 *
 * Memory: (N + 1) words a tier for the splits; sliced, per child tier of
 * the tier solved, 16 bytes per 64 slots plus the fetched records.
 */
#define _DEFAULT_SOURCE /* madvise */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/dbfile.h"
#include "core/mem.h"
#include "solvers/tier/internal.h"

ErrCode tier_dist_start(TierSolve *s, bool sliced, DistFetchMode fetch) {
    int n = dist_size();
    if (n == 1) {
        return ERR_OK; /* one range a tier; sliced is then the window mode */
    }
    TierDist *d = mem_calloc(1, sizeof *d, "the tier ranges", s->err);
    if (d == NULL) {
        return ERR_MEMORY;
    }
    s->dist = d;
    d->cut = mem_calloc((size_t)s->gr.ntiers * ((size_t)n + 1), sizeof *d->cut, "the tier ranges",
                        s->err);
    d->bytes = mem_calloc((size_t)n + 1, sizeof *d->bytes, "the tier ranges", s->err);
    if (d->cut == NULL || d->bytes == NULL) {
        return ERR_MEMORY;
    }
    if (sliced) {
        s->sliced = mem_calloc(1, sizeof *s->sliced, "the tier slices", s->err);
        if (s->sliced == NULL) {
            return ERR_MEMORY;
        }
        s->sliced->fetch = fetch;
        s->sliced->tier =
            mem_calloc((size_t)s->gr.ntiers, sizeof *s->sliced->tier, "the tier slices", s->err);
        if (s->sliced->tier == NULL) {
            return ERR_MEMORY;
        }
    }
    return ERR_OK;
}

/* Sliced: frees what tier `tier` fetched for a parent. */
static void need_free(TierSolve *s, int tier) {
    TierSliceNeed *n = &s->sliced->tier[tier];
    free(n->need);
    free(n->need_rank);
    n->need = n->need_rank = NULL;
    db_destroy(&n->got);
}

void tier_dist_stop(TierSolve *s) {
    if (s->sliced != NULL) {
        for (int t = 0; t < s->gr.ntiers && s->sliced->tier != NULL; t++) {
            need_free(s, t);
        }
        free(s->sliced->tier);
        free(s->sliced);
        s->sliced = NULL;
    }
    if (s->dist != NULL) {
        free(s->dist->cut);
        free(s->dist->bytes);
        free(s->dist);
        s->dist = NULL;
    }
}

static uint64_t *cut_of(const TierSolve *s, int tier) {
    return s->dist->cut + (size_t)tier * ((size_t)dist_size() + 1);
}

/* Rank r gets the bitmap words [cut[r], cut[r+1]), cut where the running
 * count of reachable positions first reaches r * reached / N, so the ranks
 * get about equal numbers of positions to expand (not of slots). Every
 * rank computes the same cuts from the same complete bitmap; once
 * presplit (sliced, the bitmaps trimmed) the cut is kept. Sets the tier's
 * lo and hi. O(words of the tier). */
void tier_dist_split(TierSolve *s, int tier) {
    if (s->dist == NULL) {
        return; /* lo, hi: the whole tier */
    }
    TierInfo *ti = &s->t[tier];
    uint64_t nwords = tier_words(s->gr.node[tier].size);
    int n = dist_size();
    uint64_t *cut = cut_of(s, tier);
    if (s->sliced == NULL || !s->sliced->presplit) {
        uint64_t seen = 0, w = 0;
        cut[0] = 0;
        for (int r = 1; r < n; r++) {
            uint64_t target =
                (uint64_t)((unsigned __int128)ti->reached * (unsigned)r / (unsigned)n);
            while (w < nwords && seen < target) {
                seen += (uint64_t)__builtin_popcountll(ti->reach[w++]);
            }
            cut[r] = w;
        }
        cut[n] = nwords;
    }
    ti->lo = cut[dist_rank()];
    ti->hi = cut[dist_rank() + 1];
}

/* The first record of rank r's range of the tier (r = N: the tier's size). */
uint64_t tier_dist_record(const TierSolve *s, int tier, int r) {
    uint64_t size = s->gr.node[tier].size;
    if (s->dist == NULL) {
        return r == 0 ? 0 : size;
    }
    uint64_t i = cut_of(s, tier)[r] * 64;
    return i < size ? i : size;
}

/* The records of a tier from record i on (i in [slo, shi]). */
void *tier_records_at(const TierInfo *ti, uint64_t i) {
    i -= ti->slo;
    return ti->vals.r8 != NULL ? (void *)(ti->vals.r8 + i) : (void *)(ti->vals.r16 + i);
}

/* Its WinBy scores from record i on, or NULL. */
int16_t *tier_winby_at(const TierInfo *ti, uint64_t i) {
    return ti->vals.winby != NULL ? ti->vals.winby + (i - ti->slo) : NULL;
}

/* Gives every rank the records (and WinBy scores) the other ranks solved
 * in their ranges of the tier. */
static void share_tier(TierSolve *s, int tier) {
    int n = dist_size();
    Database *v = &s->t[tier].vals;
    uint64_t *b = s->dist->bytes;
    for (int r = 0; r <= n; r++) {
        b[r] = tier_dist_record(s, tier, r) * v->width;
    }
    dist_share_ranges(v->r8 != NULL ? (void *)v->r8 : (void *)v->r16, b, b[n]);
    if (v->winby != NULL) {
        for (int r = 0; r <= n; r++) {
            b[r] = tier_dist_record(s, tier, r) * sizeof(int16_t);
        }
        dist_share_ranges(v->winby, b, b[n]);
    }
}

/* core/dbfile.h's checksum of the records, then (chained) the WinBy
 * scores, of records [a, b) of a solved tier (a range this rank holds). */
uint64_t tier_range_checksum(const TierInfo *ti, uint64_t a, uint64_t b) {
    const Database *v = &ti->vals;
    uint64_t h = dbfile_checksum(0, tier_records_at(ti, a), (b - a) * v->width);
    if (v->winby != NULL) {
        h = dbfile_checksum(h, tier_winby_at(ti, a), (b - a) * sizeof(int16_t));
    }
    return h;
}

/* Sliced: tier_range_checksum(ti, 0, size) of a tier whose records are
 * spread over the ranks, without moving them: the checksum's state passes
 * along the ranks (dist_chain), each adding its slice, first over the
 * records, then, from that checksum, over the WinBy scores. A slice that
 * does not end the tier is a whole number of bitmap words, 64 records, so
 * a multiple of 32 bytes (core/dbfile.h's pieces); the rank whose slice
 * ends the tier finishes the checksum, and the empty slices after it
 * change nothing. Collective. */
typedef struct ChainSum {
    DbfileSum st;
    uint64_t h;
    uint64_t done;
} ChainSum;

typedef struct ChainPart {
    const void *data;
    uint64_t bytes;
    bool ends; /* the slice ends the tier */
} ChainPart;

static void chain_step(void *state, void *ctx) {
    ChainSum *c = state;
    const ChainPart *p = ctx;
    if (c->done) {
        return;
    }
    if (p->ends) {
        c->h = dbfile_sum_final(&c->st, p->data, p->bytes);
        c->done = 1;
    } else {
        dbfile_sum_blocks(&c->st, p->data, p->bytes);
    }
}

static uint64_t sliced_checksum(const TierInfo *ti, uint64_t size) {
    const Database *v = &ti->vals;
    uint64_t n = ti->shi - ti->slo;
    ChainSum c = {0};
    ChainPart part = {tier_records_at(ti, ti->slo), n * v->width, ti->shi == size};
    dbfile_sum_init(&c.st, 0);
    dist_chain(&c, sizeof c, chain_step, &part);
    if (v->winby != NULL) {
        part.data = v->winby;
        part.bytes = n * sizeof(int16_t);
        dbfile_sum_init(&c.st, c.h);
        c.done = 0;
        dist_chain(&c, sizeof c, chain_step, &part);
    }
    return c.h;
}

/* Phase collect: every rank's records of the solved tier (whole: shared),
 * or its checksum (sliced: chained, and the fetched child records freed). */
void tier_dist_collect(TierSolve *s, int tier) {
    TierInfo *ti = &s->t[tier];
    if (s->sliced != NULL) {
        for (int k = 0; k < s->gr.node[tier].nchildren; k++) {
            need_free(s, s->gr.node[tier].children[k]);
        }
        ti->checksum = sliced_checksum(ti, s->gr.node[tier].size);
        return;
    }
    if (s->dist != NULL) {
        share_tier(s, tier);
    }
    ti->checksum = tier_range_checksum(ti, 0, s->gr.node[tier].size);
}

/* With --progress, rank 0 reports a step: its range of the tier, its
 * seconds computing (walking the range) and inside MPI (waiting for the
 * slowest rank and moving data), the bytes it sent and received, and the
 * bytes its process has allocated (jemalloc). */
void tier_dist_step_report(TierSolve *s, const char *phase, int tier) {
    if (s->dist == NULL) {
        return;
    }
    DistStats d = dist_stats_take();
    double computing = s->compute_seconds - s->dist->compute_reported;
    s->dist->compute_reported = s->compute_seconds;
    if (s->progress && dist_rank() == 0) {
        char mem[32], label[GAME_TIER_LABEL_MAX];
        fprintf(stderr,
                "tier: %s tier %s on rank 0 of %d: slots [%" PRIu64 ", %" PRIu64 ") of %" PRIu64
                ", computing %.3f s, in MPI %.3f s, sent %" PRIu64 " B, received %" PRIu64
                " B, allocated %s\n",
                phase, game_tier_label(s->g, tier, label, sizeof label), dist_size(),
                tier_dist_record(s, tier, 0), tier_dist_record(s, tier, 1), s->gr.node[tier].size,
                computing, d.mpi_seconds, d.sent, d.received,
                mem_format(mem_allocated(), mem, sizeof mem));
    }
}

/* Sliced, once the bitmaps are complete (and saved): every tier is split
 * now, and the pages of bitmap words in other ranks' ranges go back to the
 * system (madvise MADV_DONTNEED: they read as zeros from then on, and
 * nothing reads them: the backward pass walks and checks only this rank's
 * ranges, and tier_dist_split reuses these cuts). The bitmaps then take
 * about 1/N of their size during the backward pass. */
void tier_dist_trim(TierSolve *s) {
    if (s->sliced == NULL) {
        return;
    }
    for (int t = 0; t < s->gr.ntiers; t++) {
        tier_dist_split(s, t);
    }
    s->sliced->presplit = true;
#ifdef MADV_DONTNEED
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t keep_end = (uintptr_t)s->reach_block; /* the end of the last range kept */
    for (int t = 0; t <= s->gr.ntiers; t++) {
        uintptr_t start = t < s->gr.ntiers ? (uintptr_t)(s->t[t].reach + s->t[t].lo)
                                           : (uintptr_t)(s->reach_block + tier_graph_words(&s->gr));
        uintptr_t a = (keep_end + page - 1) & ~(page - 1), e = start & ~(page - 1);
        if (e > a) {
            (void)madvise((void *)a, e - a, MADV_DONTNEED);
        }
        if (t < s->gr.ntiers) {
            keep_end = (uintptr_t)(s->t[t].reach + s->t[t].hi);
        }
    }
#endif
}

/* Phase distribute (sliced, before tier `tier` is solved; collective:
 * every rank calls it, also one with nothing to solve, which then asks for
 * nothing): each rank walks its range once to mark the child records it
 * needs that other ranks hold (tier_mark_needed), then fetches them, one
 * batch per child tier (dist_fetch: the records, then the WinBy scores).
 * The walk is a second expansion of the range (the solve walk expands it
 * again): the price of not storing the children. Memory per child tier: 16
 * bytes per 64 slots (need, and need_rank's count per word) plus the
 * fetched records. `found`: this rank loaded the tier (it walks nothing). */
ErrCode tier_dist_fetch(TierSolve *s, int tier, bool found, ErrCode rc) {
    const TierNode *node = &s->gr.node[tier];
    if (s->sliced == NULL || node->loopy || s->t[tier].reached == 0) {
        return rc;
    }
    /* Every rank takes part in the look-ups when any rank solves. */
    rc = dist_agree(rc, s->err);
    if (rc != ERR_OK || dist_max_u64(!found) == 0) {
        return rc;
    }
    for (int k = 0; k < node->nchildren && rc == ERR_OK; k++) {
        int ct = node->children[k];
        TierSliceNeed *c = &s->sliced->tier[ct];
        uint64_t nw = tier_words(s->gr.node[ct].size);
        c->need = mem_calloc((size_t)nw, 8, "the child records to fetch", s->err);
        c->need_rank = mem_calloc((size_t)nw, 8, "the child records to fetch", s->err);
        rc = c->need != NULL && c->need_rank != NULL ? ERR_OK : ERR_MEMORY;
    }
    if (rc == ERR_OK && !found) {
        tier_walk(s, tier, "fetch", tier_mark_needed, s->parallel_min);
        rc = tier_failed(s) ? s->err->code : ERR_OK;
    }
    for (int k = 0; k < node->nchildren && rc == ERR_OK; k++) {
        int ct = node->children[k];
        TierSliceNeed *c = &s->sliced->tier[ct];
        uint64_t count = 0;
        for (uint64_t w = 0; w < tier_words(s->gr.node[ct].size); w++) {
            c->need_rank[w] = count;
            count += (uint64_t)__builtin_popcountll(c->need[w]);
        }
        if (count > 0) {
            rc = db_create(&c->got, count, s->width, s->winby, s->err);
        }
    }
    rc = dist_agree(rc, s->err);
    for (int k = 0; k < node->nchildren && rc == ERR_OK; k++) {
        int ct = node->children[k];
        TierSliceNeed *c = &s->sliced->tier[ct];
        const Database *v = &s->t[ct].vals, *g = &c->got;
        dist_fetch(s->sliced->fetch, cut_of(s, ct), s->gr.node[ct].size, v->width,
                   v->r8 != NULL ? (const void *)v->r8 : (const void *)v->r16, c->need,
                   g->r8 != NULL ? (void *)g->r8 : (void *)g->r16);
        if (v->winby != NULL) {
            dist_fetch(s->sliced->fetch, cut_of(s, ct), s->gr.node[ct].size, sizeof(int16_t),
                       v->winby, c->need, g->winby);
        }
    }
    return rc;
}

/* Sliced: each rank tallied its own slices; the totals are their sums
 * (collective). */
void tier_dist_summary(TierSolve *s, DbSummary *sum) {
    if (s->sliced == NULL) {
        return;
    }
    sum->max_remoteness = (uint32_t)dist_max_u64(sum->max_remoteness);
    uint64_t head[2 + VALUE_COUNT] = {sum->positions, sum->undecided};
    memcpy(head + 2, sum->count, sizeof sum->count);
    dist_sum_words(head, 2 + VALUE_COUNT);
    sum->positions = head[0];
    sum->undecided = head[1];
    memcpy(sum->count, head + 2, sizeof sum->count);
    dist_sum_words(&sum->by_remoteness[0][0],
                   ((uint64_t)sum->max_remoteness + 1) * (uint64_t)VALUE_COUNT);
}
