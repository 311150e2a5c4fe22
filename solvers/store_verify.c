/* solvers/store_verify.c: store_verify (solvers/store.h): a database on
 * disk checked without solving. Every file's checksums first (each opened:
 * header, dictionary, index), then, position by position, that each stored
 * record is what the fold of its children's stored records gives
 * (core/value.h, the rule every solver uses): children through the tier
 * fast path (TierOps.expand_run) where the game has one, else through the
 * GPS family; in parallel over chunks of 2^16 records, the first
 * disagreement (the smallest index of the deepest tier) named exactly.
 * A reached position with a child that has no record disagrees too, and
 * each chunk's visits by the fast path are counted against its reached
 * records (none left unchecked). Then the initial position's record
 * against the manifest's root value, and the counts against the
 * manifest's (a partial database has neither).
 *
 * Tiers are checked children before parents (check_order: from the last
 * tier down, a tier after its child tiers), each one of two ways chosen
 * by memory (choose_path): whole, with its child tiers
 * resident and nothing else (whole_memory: their records, the tier's
 * bitmap, a histogram per thread), when that fits the budget and, for a
 * database that can be checked by parts, is at most VERIFY_WHOLE_MAX;
 * else by parts (store_verify_parts.c: a piece of the tier's records and its
 * bitmap words at a time, the child records through per-thread caches of
 * child file blocks; a tier-major game with the tier fast path, no
 * WinBy), when that fits; else ERR_MEMORY with both estimates. Both ways
 * check the same chunks (aligned at multiples of 2^16 local indices) and
 * name the same first disagreement. GAMESMAN_VERIFY_PATH=whole|parts and
 * GAMESMAN_VERIFY_PART=N (records of a piece) are for tests. The slots
 * layout holds the whole database. Every file's header and block index is
 * checked first, each file opened and closed (a database may hold more
 * files than may be open). O(records + positions x moves).
 */
#include <inttypes.h>
#include <limits.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/le.h"
#include "core/mem.h"
#include "core/options.h"
#include "solvers/expand.h"
#include "solvers/store.h"
#include "solvers/store_internal.h"
#include "solvers/symbolic_db.h"
#include "solvers/tier/graph.h"

/* -------------------------------------------------------------- verify */

/* A position's expansion: what the GPS families (solvers/expand.h, counted
 * as in a solve) or the tier fast path (TierOps.expand_run) give, the same
 * by the game's contract. */
typedef TierExpansion Kids;

/* The records in memory during a verification: for tiers, loaded[t] holds
 * tier t's records when resident; for slots, loaded[0] the whole space. */
typedef struct Verify {
    Store *st;
    Database *loaded;
    bool *resident;
    Position *first;                    /* tier-major: first position of each tier */
    int kids[GAME_MAX_CHILD_TIERS + 1]; /* the tier being checked and its children */
    int nkids;
    StoreParts *parts; /* the tier checked by parts: its children's records through
                          its caches (store_verify_parts.c); NULL: resident */
} Verify;

/* The record of child c (canonical): NULL, or why it has none (in buf):
 * its tier is not a child tier of the tier checked (a game breaking its
 * tier contract), or its file cannot be read. */
static const char *child_record(const Verify *v, Position c, uint32_t *raw, WinBy *winby, char *buf,
                                size_t n) {
    const Store *st = v->st;
    const Game *g = st->g;
    const Database *db;
    uint64_t i;
    if (!st->tiers) {
        db = &v->loaded[0];
        i = c;
    } else if (g->tiers->first != NULL) {
        /* Tier-major: a range test over the child tiers (no game call),
         * as the tier solver's locate does. */
        for (int k = 0; k < v->nkids; k++) {
            int u = v->kids[k];
            if (c - v->first[u] < st->tier_size[u] && c >= v->first[u]) {
                Error err;
                *winby = 0;
                if (v->parts != NULL) {
                    if (!store_parts_child(v->parts, u, c - v->first[u], raw, &err)) {
                        snprintf(buf, n, "child %" PRIu64 " cannot be read: %.200s", c, err.msg);
                        return buf;
                    }
                    return NULL;
                }
                *raw = db_peek(&v->loaded[u], c - v->first[u]);
                *winby = v->loaded[u].winby != NULL ? v->loaded[u].winby[c - v->first[u]] : 0;
                return NULL;
            }
        }
        db = NULL;
        i = 0;
    } else {
        int t = g->tiers->tier_of(g, c);
        db = t >= 0 && t < st->ntiers && v->resident[t] ? &v->loaded[t] : NULL;
        i = db != NULL ? g->tiers->index_of(g, c) : 0;
        db = db != NULL && i < db->size ? db : NULL;
    }
    if (db == NULL) {
        snprintf(buf, n, "child %" PRIu64 " is outside the child tiers", c);
        return buf;
    }
    *raw = db_peek(db, i);
    *winby = db->winby != NULL ? db->winby[i] : 0;
    return NULL;
}

/* Checks record i of the unit, db's record i - base (position p,
 * expanded as *given, or through fam when given is NULL); NULL if it
 * agrees, else a description of the disagreement in buf. */
static const char *check_one(const Verify *v, const GpsOps *fam, GpsState *gs, const Database *db,
                             uint64_t base, uint64_t i, Position p, const Kids *given, char *buf,
                             size_t n) {
    const Store *st = v->st;
    const Game *g = st->g;
    uint32_t raw = db_peek(db, i - base);
    WinBy stored_w = db->winby != NULL ? db->winby[i - base] : 0;
    if (raw == DB_UNREACHED) {
        if (stored_w != 0) {
            snprintf(buf, n, "an unreached position with a score (%d)", (int)stored_w);
            return buf;
        }
        return NULL;
    }
    const char *why = store_record_problem(st, raw);
    if (why != NULL) {
        snprintf(buf, n, "%s", why);
        return buf;
    }
    Kids own;
    const Kids *e = given;
    if (e == NULL) {
        solver_expand(g, fam, gs, p, &own);
        e = &own;
    }
    Outcome want = {e->primitive, 0};
    WinBy want_w = e->winby;
    if (e->primitive == VALUE_UNDECIDED) {
        ChildFold fold;
        fold_init(&fold);
        want_w = winby_worst(e->turn);
        for (int k = 0; k < e->n; k++) {
            uint32_t craw;
            WinBy cw;
            const char *none = child_record(v, e->child[k], &craw, &cw, buf, n);
            if (none != NULL) {
                return none;
            }
            if (!db_raw_solved(&st->fmt, craw)) {
                snprintf(buf, n, "child %" PRIu64 " has no record", e->child[k]);
                return buf;
            }
            fold_add(&fold, db_raw_value(&st->fmt, craw), db_raw_remoteness(&st->fmt, craw));
            want_w = winby_better(e->turn, want_w, cw);
        }
        want = fold_result(&fold);
        if (want.value == VALUE_UNDECIDED) {
            snprintf(buf, n, "not primitive, but no moves");
            return buf;
        }
    }
    Outcome got = {db_raw_value(&st->fmt, raw), db_raw_remoteness(&st->fmt, raw)};
    if (got.value != want.value || got.remoteness != want.remoteness ||
        (g->has_winby && stored_w != want_w)) {
        snprintf(buf, n,
                 "stored %s in %" PRIu32 " (winby %d), its children give %s in %" PRIu32
                 " (winby %d)",
                 value_name(got.value), got.remoteness, (int)stored_w, value_name(want.value),
                 want.remoteness, (int)(g->has_winby ? want_w : 0));
        return buf;
    }
    return NULL;
}

/* The fast path's visitor state (one per thread and chunk). */
typedef struct FastCheck {
    const Verify *v;
    const Database *db;
    uint64_t base; /* the unit's index of db's record 0 */
    uint64_t bad;  /* the first index that disagrees, UINT64_MAX if none */
    uint64_t seen; /* positions checked */
    char buf[256];
} FastCheck;

static void fast_check(void *ctx, uint64_t i, Position p, const TierExpansion *e) {
    FastCheck *f = ctx;
    if (f->bad != UINT64_MAX) {
        return; /* this chunk already has its first disagreement */
    }
    f->seen++;
    if (check_one(f->v, NULL, NULL, f->db, f->base, i, p, e, f->buf, sizeof f->buf) != NULL) {
        f->bad = i;
    }
}

/* The bits of the 8 one-byte records in x (read little-endian: record i
 * in byte i) that are reached (not 0, as DB_UNREACHED is): each byte's
 * high bit set when it is not zero, then the 8 high bits gathered into the
 * low byte, byte i to bit i. */
static inline uint64_t reached8(uint64_t x) {
    const uint64_t low7 = UINT64_C(0x7f7f7f7f7f7f7f7f);
    uint64_t high = (((x & low7) + low7) | x) & ~low7;
    return ((high >> 7) * UINT64_C(0x0102040810204080)) >> 56;
}

_Static_assert(DB_UNREACHED == 0, "reached8 tests bytes against 0");

/* The unit's bitmap from word base / 64 on: bit i (of word i / 64 - base /
 * 64) set when the unit's record i, db's record i - base, is reached (not
 * DB_UNREACHED); what the fast path walks. Filled in parallel. */
static uint64_t *reach_of(const Database *db, uint64_t base, int threads, Error *err) {
    uint64_t w0 = base / 64, words = (base + db->size + 63) / 64 - w0;
    uint64_t *reach = mem_calloc((size_t)words + 1, sizeof *reach, "the verify bitmap", err);
    if (reach == NULL) {
        return NULL;
    }
#pragma omp parallel for num_threads(threads) schedule(static) if (words > 4096)
    for (uint64_t w = 0; w < words; w++) {
        uint64_t i0 = (w0 + w) * 64, i1 = i0 + 64, bits = 0;
        i0 = i0 > base ? i0 : base;
        i1 = i1 < base + db->size ? i1 : base + db->size;
        if (db->width == 1 && i1 - i0 == 64) {
            /* one-byte records, a whole word: 8 at a time (most slots of
             * Connect Four's tiers are unreached, their words zero) */
            for (int j = 0; j < 8; j++) {
                uint64_t x = le_get64(db->r8 + (i0 - base) + 8 * (uint64_t)j);
                bits |= x == 0 ? 0 : reached8(x) << (8 * j);
            }
            i0 = i1;
        }
        for (uint64_t i = i0; i < i1; i++) {
            bits |= (uint64_t)(db_peek(db, i - base) != DB_UNREACHED) << (i % 64);
        }
        reach[w] = bits;
    }
    return reach;
}

/* Checks records [base, base + db->size) of one unit (a tier, or the whole
 * slots database), db's records from 0, in parallel over the unit's chunks
 * of 2^16 records (aligned at multiples of 2^16, so a tier checked in
 * pieces is cut as a tier checked whole), and adds how many of each
 * reached record there are to tier_hist (256 or 65536 counts); *bad gets
 * the smallest index that disagrees (UINT64_MAX if none). A game with the tier fast path
 * (TierOps.expand_run) has each chunk's reached positions expanded by it, in index order, as the
 * tier solver does; others expand each position through the GPS family. O(records + positions x
 * moves); memory: a bitmap of the unit (fast path) and a histogram of record values per thread. */
static ErrCode check_unit(Verify *v, int tier, const Database *db, uint64_t base, int threads,
                          bool progress, uint64_t *bad, uint64_t *checked, uint64_t *tier_hist,
                          Error *err) {
    const Game *g = v->st->g;
    const GpsOps *fam = g->gps_cached != NULL ? g->gps_cached : g->gps;
    bool fast = v->st->tiers && g->tiers->expand_run != NULL;
    uint64_t *reach = NULL;
    if (fast) {
        reach = reach_of(db, base, threads, err);
        if (reach == NULL) {
            return ERR_MEMORY;
        }
    }
    uint64_t size = db->size, end = base + size;
    uint64_t chunk = 1 << 16;
    uint64_t c0 = base / chunk, nchunks = size > 0 ? (end - 1) / chunk + 1 - c0 : 0;
    uint64_t best = UINT64_MAX, done = 0;
    uint64_t gap = UINT64_MAX, gap_end = 0, gap_seen = 0, gap_reached = 0;
    size_t nraw = db->width == 1 ? 256 : 65536;
    uint64_t *hist = calloc(nraw, sizeof *hist);
    volatile int failed = hist == NULL;
    double last = clock_seconds();
#pragma omp parallel num_threads(threads) if (size >= 4 * chunk)
    {
        if (omp_get_thread_num() != 0) {
            stats_thread_reset(); /* counted from here, collected below */
        }
        GpsState *gs = fam != NULL && !fast ? fam->create(g, NULL) : NULL;
        const GpsOps *f = gs != NULL ? fam : NULL;
        uint64_t *mine_hist = calloc(nraw, sizeof *mine_hist);
        if ((fam != NULL && !fast && gs == NULL) || mine_hist == NULL) {
            failed = 1;
        }
        FastCheck *fc = fast ? malloc(sizeof *fc) : NULL;
        if (fast && fc == NULL) {
            failed = 1;
        }
        char buf[256];
        uint64_t mine = 0;
#pragma omp for schedule(dynamic, 1)
        for (uint64_t c = c0; c < c0 + nchunks; c++) {
            uint64_t i0 = c * chunk > base ? c * chunk : base;
            uint64_t i1 = (c + 1) * chunk < end ? (c + 1) * chunk : end;
            if (failed || i0 > __atomic_load_n(&best, __ATOMIC_RELAXED)) {
                continue;
            }
            uint64_t first_bad = UINT64_MAX, reached = 0, i = i0;
            if (db->width == 1) {
                /* one-byte records 8 at a time (db_count_bytes), its
                 * inexact count of zeros replaced by the exact one */
                uint64_t h[256] = {0};
                db_count_bytes(db->r8 + (i0 - base), i1 - i0, h);
                for (int b = 1; b < 256; b++) {
                    mine_hist[b] += h[b];
                    reached += h[b];
                }
                mine_hist[DB_UNREACHED] += (i1 - i0) - reached;
                i = i1;
            }
            for (; i < i1; i++) {
                uint32_t raw = db_peek(db, i - base);
                mine_hist[raw]++;
                reached += raw != DB_UNREACHED;
            }
            if (fast) {
                *fc = (FastCheck){.v = v, .db = db, .base = base, .bad = UINT64_MAX};
                g->tiers->expand_run(g, tier, reach + (i0 / 64 - base / 64), i0, i1, fast_check,
                                     fc);
                mine += fc->seen;
                first_bad = fc->bad;
                /* Every reached position visited: a fast path (or a bitmap
                 * read from the wrong words) that skips one would leave it
                 * unchecked. */
                if (first_bad == UINT64_MAX && fc->seen != reached) {
#pragma omp critical(store_verify_gap)
                    if (i0 < gap) {
                        gap = i0;
                        gap_end = i1;
                        gap_seen = fc->seen;
                        gap_reached = reached;
                    }
                }
                /* An unreached record with a score: not visited above. */
                for (uint64_t i = i0; i < i1 && db->winby != NULL && i < first_bad; i++) {
                    if (db->winby[i - base] != 0 && db_peek(db, i - base) == DB_UNREACHED) {
                        first_bad = i;
                    }
                }
            } else {
                for (uint64_t i = i0; i < i1; i++) {
                    if (db_peek(db, i - base) == DB_UNREACHED &&
                        (db->winby == NULL || db->winby[i - base] == 0)) {
                        continue;
                    }
                    Position p = !v->st->tiers             ? i
                                 : g->tiers->first != NULL ? v->first[tier] + i
                                                           : g->tiers->position_at(g, tier, i);
                    mine++;
                    if (check_one(v, f, gs, db, base, i, p, NULL, buf, sizeof buf) != NULL) {
                        first_bad = i;
                        break;
                    }
                }
            }
            if (first_bad != UINT64_MAX) {
#pragma omp critical(store_verify_bad)
                if (first_bad < best) {
                    best = first_bad;
                }
            }
            uint64_t d = __atomic_add_fetch(&done, i1 - i0, __ATOMIC_RELAXED);
            if (progress && omp_get_thread_num() == 0 && clock_seconds() - last >= 1.0) {
                last = clock_seconds();
                fprintf(stderr, "verify: %s %d: %" PRIu64 "/%" PRIu64 " slots\n",
                        v->st->tiers ? "tier" : "file", tier, base + d,
                        v->st->tiers ? v->st->tier_size[tier] : size);
            }
        }
        if (gs != NULL) {
            fam->destroy(gs);
        }
        free(fc);
#pragma omp critical(store_verify_hist)
        {
            stats_thread_collect(&v->st->counters);
            *checked += mine;
            for (size_t r = 0; r < nraw && mine_hist != NULL && hist != NULL; r++) {
                hist[r] += mine_hist[r];
            }
        }
        free(mine_hist);
    }
    free(reach);
    if (failed) {
        free(hist);
        return error_set(err, ERR_MEMORY, "cannot allocate the verification's per-thread state");
    }
    if (gap != UINT64_MAX) {
        free(hist);
        return error_set(err, ERR_INTERNAL,
                         "verify: tier %d: the fast path visited %" PRIu64 " of the %" PRIu64
                         " reached positions of [%" PRIu64 ", %" PRIu64 ")",
                         tier, gap_seen, gap_reached, gap, gap_end);
    }
    for (size_t r = 0; r < nraw; r++) {
        tier_hist[r] += r != DB_UNREACHED ? hist[r] : 0;
    }
    free(hist);
    *bad = best;
    return ERR_OK;
}

/* The message for the disagreement at index i of unit `tier` (db's record
 * i - base). */
static ErrCode report_bad(Verify *v, int tier, const Database *db, uint64_t base, uint64_t i,
                          Error *err) {
    const Game *g = v->st->g;
    const GpsOps *fam = g->gps_cached != NULL ? g->gps_cached : g->gps;
    GpsState *gs = fam != NULL ? fam->create(g, NULL) : NULL;
    Position p = !v->st->tiers             ? i
                 : g->tiers->first != NULL ? v->first[tier] + i
                                           : g->tiers->position_at(g, tier, i);
    char buf[256], text[256] = "";
    const char *why =
        check_one(v, gs != NULL ? fam : NULL, gs, db, base, i, p, NULL, buf, sizeof buf);
    if (gs != NULL) {
        fam->destroy(gs);
    }
    if (db_peek(db, i - base) != DB_UNREACHED) {
        g->ops->format(g, p, text, sizeof text);
    }
    char where[128];
    if (v->st->tiers) {
        snprintf(where, sizeof where, "tier-%04d.gmdb index %" PRIu64, tier, i);
    } else {
        snprintf(where, sizeof where, "slot %" PRIu64, i);
    }
    return error_set(err, ERR_IO,
                     "%s: verification failed at %s (position %" PRIu64 " '%s'): %s; " REMEDY,
                     v->st->dir.path, where, p, text, why != NULL ? why : "(not reproducible)");
}

/* The memory model of checking tier t whole, kids[0..nk) (its child tiers
 * and t) resident: their records (width bytes each, + 2 with WinBy), t's
 * bitmap, per thread a histogram of records and its state, and 1 MiB. */
static uint64_t whole_memory(const Store *st, int t, const int *kids, int nk, int threads) {
    uint64_t per = st->m.width + (st->m.winby ? 2 : 0), bytes = UINT64_C(1) << 20;
    for (int k = 0; k < nk; k++) {
        bytes += st->tier_size[kids[k]] * per;
    }
    bytes += (st->tier_size[t] + 63) / 64 * 8;
    return bytes + (uint64_t)threads * ((st->m.width == 1 ? 256 : 65536) * 8 + (64 << 10));
}

/* The most memory a tier checked whole may take when it could be checked
 * by parts instead (VERIFY_AUTO): past it, loading every slot of the tier
 * and its children costs more time than it saves. On the 5x7 database
 * (docs/connect-four.md, "Verify by parts": 5x7) whole was faster up to
 * 3.4 GB (ply 22: 25.0 s against 27.1 by parts), even at 5.5 GB (ply 23),
 * and slower beyond (ply 24, 8.4 GB: 78.6 s against 60.5; ply 26, 17.9 GB:
 * 188 against 89), and on a sparse tier already at 5.1 GB (ply 35, 1.3%
 * of its slots reached: 44.4 against 7.6); 2 GiB keeps nearly all of the
 * gain and bounds the peak. */
#define VERIFY_WHOLE_MAX (UINT64_C(2) << 30)

/* How each tier is checked: by the memory it needs (VERIFY_AUTO: whole
 * when that fits the budget and, if the tier can be checked by parts, is
 * at most *whole_max bytes), or as GAMESMAN_VERIFY_PATH=whole|parts says
 * (tests); GAMESMAN_VERIFY_PART=N the records of a piece at most (tests;
 * default TIER_BLOCKS_PART_DEFAULT); GAMESMAN_VERIFY_WHOLE_MAX=B the
 * bytes (tests; default VERIFY_WHOLE_MAX). GAMESMAN_VERIFY_STOP=K (tests)
 * ends the process with _exit(86), like a kill, once K tiers have passed
 * in this run (each journaled first). */
typedef enum { VERIFY_AUTO, VERIFY_WHOLE, VERIFY_PARTS } VerifyPath;

static ErrCode verify_path(const Store *st, VerifyPath *path, uint64_t *target, uint64_t *whole_max,
                           long *stop, Error *err) {
    const char *p = getenv("GAMESMAN_VERIFY_PATH");
    *path = VERIFY_AUTO;
    if (p != NULL && strcmp(p, "whole") == 0) {
        *path = VERIFY_WHOLE;
    } else if (p != NULL && strcmp(p, "parts") == 0) {
        *path = VERIFY_PARTS;
    } else if (p != NULL && *p != '\0') {
        return error_set(err, ERR_USAGE, "GAMESMAN_VERIFY_PATH is '%s': give whole or parts", p);
    }
    int64_t part = TIER_BLOCKS_PART_DEFAULT, wmax = (int64_t)VERIFY_WHOLE_MAX, k = 0;
    ErrCode rc =
        env_int64("GAMESMAN_VERIFY_WHOLE_MAX", 0, INT64_MAX, "a number of bytes", &wmax, err);
    if (rc == ERR_OK) {
        rc = env_int64("GAMESMAN_VERIFY_STOP", 1, LONG_MAX, "a number of tiers, at least 1", &k,
                       err);
    }
    if (rc == ERR_OK) {
        rc = env_int64("GAMESMAN_VERIFY_PART", 1, INT64_MAX, "a number of records, at least 1",
                       &part, err);
    }
    if (rc != ERR_OK) {
        return rc;
    }
    *target = (uint64_t)part;
    *whole_max = (uint64_t)wmax;
    *stop = (long)k;
    if (*path == VERIFY_PARTS && !store_parts_can(st)) {
        return error_set(err, ERR_USAGE,
                         "GAMESMAN_VERIFY_PATH=parts: %s cannot be verified by parts (that needs "
                         "layout tiers, a tier-major game with the tier fast path, no scores)",
                         st->dir.path);
    }
    return ERR_OK;
}

/* Whether tier t (kids[0..nk): its child tiers and t) is checked by parts:
 * whole when that fits the memory budget and, where the database can be
 * checked by parts, takes at most whole_max bytes or by parts would not
 * fit (or GAMESMAN_VERIFY_PATH says so), else by parts when that fits,
 * else ERR_MEMORY with both estimates. *bytes: the estimate of the way
 * chosen. */
static ErrCode choose_path(Store *st, VerifyPath path, uint64_t target, uint64_t whole_max, int t,
                           const int *kids, int nk, int threads, bool *by_parts, uint64_t *bytes,
                           Error *err) {
    bool can = store_parts_can(st);
    uint64_t whole = whole_memory(st, t, kids, nk, threads);
    uint64_t parts = can ? store_parts_memory(st, t, kids, nk, threads, target) : 0;
    Error ignored;
    *by_parts =
        path == VERIFY_PARTS || (path == VERIFY_AUTO && can &&
                                 (mem_check(whole, "", &ignored) != ERR_OK ||
                                  (whole > whole_max && mem_check(parts, "", &ignored) == ERR_OK)));
    *bytes = *by_parts ? parts : whole;
    if (path != VERIFY_AUTO) {
        return ERR_OK;
    }
    char what[256], a[32], b[32];
    if (can) {
        snprintf(what, sizeof what,
                 "--verify of tier %d (whole, with its child tiers: %s; by parts: %s)", t,
                 mem_format(whole, a, sizeof a), mem_format(parts, b, sizeof b));
    } else {
        snprintf(what, sizeof what,
                 "--verify of tier %d (whole, with its child tiers; this database cannot be "
                 "checked by parts)",
                 t);
    }
    /* neither fits: the smaller estimate refused */
    return mem_check(*by_parts && parts < whole ? parts : whole, what, err);
}

/* Tier t (kids: v->kids) checked by parts: the tiers resident freed, the
 * files of t and its child tiers open, then piece by piece in order, the
 * first disagreement (the smallest index) named. sp is created on first
 * use. */
static ErrCode verify_by_parts(Verify *v, StoreParts *sp, int t, int threads, bool progress,
                               uint64_t target, uint64_t *checked, uint64_t *tier_hist,
                               Error *err) {
    Store *st = v->st;
    for (int u = 0; u < st->ntiers; u++) {
        if (v->resident[u]) {
            db_destroy(&v->loaded[u]);
            v->resident[u] = false;
        }
    }
    ErrCode rc = ERR_OK;
    if (sp->st == NULL) {
        rc = store_parts_create(st, threads, target, sp, err);
        if (rc != ERR_OK) {
            store_parts_free(sp);
            sp->st = NULL;
            return rc;
        }
    }
    rc = store_parts_open(sp, v->kids, v->nkids, err);
    store_parts_forget(sp); /* the same blocks read whatever tier came before */
    v->parts = sp;
    for (uint64_t lo = 0, hi; lo < st->tier_size[t] && rc == ERR_OK; lo = hi) {
        hi = store_parts_end(sp, t, lo);
        rc = store_parts_read(sp, t, lo, hi, err);
        uint64_t bad = UINT64_MAX;
        if (rc == ERR_OK) {
            rc = check_unit(v, t, &sp->buf, lo, threads, progress, &bad, checked, tier_hist, err);
        }
        if (rc == ERR_OK && bad != UINT64_MAX) {
            rc = report_bad(v, t, &sp->buf, lo, bad, err);
        }
    }
    v->parts = NULL;
    return rc;
}

/* Adds a tier's histogram of reached records (nraw counts) to sum. */
static void add_hist(const Store *st, DbSummary *sum, const uint64_t *hist, size_t nraw) {
    for (size_t r = 0; r < nraw; r++) {
        if (hist[r] != 0) {
            store_summary_add_n(st, sum, (uint32_t)r, hist[r]);
        }
    }
}

/* The order the tiers are checked in (order[0..n)): children before
 * parents, by a depth-first walk of the tier graph from the last tier down,
 * each tier placed after its child tiers. Where every child tier has a
 * larger number than its parent (Connect Four's plies, for one) that is
 * n - 1 down to 0; Bagh Chal's tigers' tier of a hand has the goats' tier
 * of that hand, numbered before it, as a child, and comes after it. So a
 * tier's journal line follows its child tiers' lines, and a run stopped
 * anywhere resumes with every tier that passed taken (a parent checked
 * before a child would be checked again, its child not yet taken). A
 * child number out of range is left to the check to refuse. The walk
 * starts from the last tier on purpose, not from tier 0 as the solve's
 * order does (tier_graph_build): on a partial database a tier whose child
 * is present but cannot be checked is never taken from a journal, and
 * starting from the top puts the tiers that can be taken first (tests/cli.sh,
 * "baghchal placement verify -j", fails with the solve's order). False: out
 * of memory. */
static bool check_order(const Store *st, int n, int *order) {
    if (!st->tiers) {
        order[0] = 0;
        return true;
    }
    const Game *g = st->g;
    typedef struct Frame {
        int t, k, nk;
        int kids[GAME_MAX_CHILD_TIERS];
    } Frame;
    bool *seen = calloc((size_t)n, sizeof *seen);
    Frame *stack = malloc((size_t)n * sizeof *stack);
    if (seen == NULL || stack == NULL) {
        free(seen);
        free(stack);
        return false;
    }
    int m = 0;
    for (int r = n - 1; r >= 0; r--) {
        if (seen[r]) {
            continue;
        }
        int top = 0;
        seen[r] = true;
        stack[0].t = r;
        stack[0].k = 0;
        stack[0].nk = g->tiers->children(g, r, stack[0].kids);
        while (top >= 0) {
            Frame *f = &stack[top];
            if (f->k == f->nk) {
                order[m++] = f->t;
                top--;
                continue;
            }
            int c = f->kids[f->k++];
            if (c >= 0 && c < n && !seen[c]) {
                seen[c] = true;
                Frame *next = &stack[++top];
                next->t = c;
                next->k = 0;
                next->nk = g->tiers->children(g, c, next->kids);
            }
        }
    }
    free(seen);
    free(stack);
    return true;
}

/* Tier t taken from its journal line e: its counts, game calls and ways,
 * as if it had been checked in this run. */
static void take_tier(Store *st, const JournalTier *e, DbSummary *sum, uint64_t *checked,
                      uint64_t *pieces, uint64_t *blocks) {
    for (int i = 0; i < e->nhist; i++) {
        store_summary_add_n(st, sum, e->raw[i], e->n[i]);
    }
    counters_add(&st->counters, &e->counters);
    *checked += e->checked;
    *pieces += e->pieces;
    *blocks += e->blocks;
    st->verify_peak = e->est > st->verify_peak ? e->est : st->verify_peak;
    st->verify_parts += e->parts;
    st->verify_whole += !e->parts;
    st->verify_journal_tiers++;
    st->verify_journal_cpu += e->cpu;
    st->verify_journal_wall += e->wall;
}

/* What tier t's check in this run found, for its journal line. */
typedef struct TierRun {
    Counters before; /* st->counters before it */
    uint64_t checked, pieces, blocks;
    double cpu, wall;
} TierRun;

static void tier_begin(Store *st, const StoreParts *sp, uint64_t checked, TierRun *r) {
    stats_thread_collect(&st->counters); /* the calls before it are not its own */
    r->before = st->counters;
    r->checked = checked;
    r->pieces = sp->pieces;
    r->blocks = store_parts_misses(sp);
    r->cpu = clock_cpu_seconds();
    r->wall = clock_seconds();
}

/* Tier t passed: its histogram into sum, its line into the journal (when
 * there is one), then the stop hook. */
static ErrCode tier_passed(Store *st, VerifyJournal *j, const StoreParts *sp, int t, bool parts,
                           int threads, uint64_t est, uint64_t checked, const TierRun *r,
                           uint64_t *hist, size_t nraw, DbSummary *sum, long stop, long *passed,
                           Error *err) {
    add_hist(st, sum, hist, nraw);
    ErrCode rc = ERR_OK;
    if (j != NULL) {
        stats_thread_collect(&st->counters);
        JournalTier e = {.parts = parts,
                         .threads = threads,
                         .checked = checked - r->checked,
                         .pieces = sp->pieces - r->pieces,
                         .blocks = store_parts_misses(sp) - r->blocks,
                         .est = est,
                         .counters = st->counters,
                         .cpu = clock_cpu_seconds() - r->cpu,
                         .wall = clock_seconds() - r->wall};
        for (int i = 0; i < COUNTER_COUNT; i++) {
            counters_set(&e.counters, i,
                         counters_get(&e.counters, i) - counters_get(&r->before, i));
        }
        e.files = store_journal_files(st, t);
        e.raw = malloc(nraw * sizeof *e.raw);
        e.n = malloc(nraw * sizeof *e.n);
        for (size_t k = 0; k < nraw && e.raw != NULL && e.n != NULL; k++) {
            if (hist[k] != 0) {
                e.raw[e.nhist] = (uint32_t)k;
                e.n[e.nhist++] = hist[k];
            }
        }
        rc = e.files != NULL && e.raw != NULL && e.n != NULL
                 ? store_journal_append(st, j, t, &e, err)
                 : error_set(err, ERR_MEMORY, "out of memory for a journal line");
        free(e.files);
        free(e.raw);
        free(e.n);
    }
    if (rc == ERR_OK && stop > 0 && ++*passed == stop) {
        fprintf(stderr, "verify: stopped after %ld tier%s (GAMESMAN_VERIFY_STOP)\n", stop,
                stop == 1 ? "" : "s");
        _exit(86);
    }
    return rc;
}

ErrCode store_verify(Store *st, int threads, bool progress, uint64_t *checked, Error *err) {
    return store_verify_journal(st, threads, progress, NULL, checked, err);
}

ErrCode store_verify_journal(Store *st, int threads, bool progress, const char *journal,
                             uint64_t *checked, Error *err) {
    const Game *g = st->g;
    *checked = 0;
    st->unchecked = 0;
    st->verify_journal_tiers = 0;
    st->verify_journal_cpu = st->verify_journal_wall = 0;
    if (journal != NULL && (!st->tiers || st->bdd != NULL)) {
        return error_set(err, ERR_USAGE,
                         "--journal resumes a verification tier by tier, and %s holds no tiers "
                         "(layout %s); verify it without --journal",
                         st->dir.path, st->m.layout);
    }
    if (st->bdd != NULL) {
        /* BDDs: every file's checksums and structure, and the counts. */
        return symdb_analyze(st->bdd, NULL, checked, err);
    }
    if (threads < 1) {
        threads = omp_get_num_procs();
    }
    int n = st->tiers ? st->ntiers : 1;
    Verify v = {.st = st};
    v.loaded = calloc((size_t)n, sizeof *v.loaded);
    v.resident = calloc((size_t)n, sizeof *v.resident);
    v.first = calloc((size_t)n, sizeof *v.first);
    bool *taken = calloc((size_t)n, sizeof *taken);
    int *order = malloc((size_t)n * sizeof *order);
    size_t nraw = st->m.width == 1 ? 256 : 65536;
    uint64_t *hist = calloc(nraw, sizeof *hist);
    DbSummary sum;
    ErrCode rc =
        v.loaded && v.resident && v.first && taken && order && hist && check_order(st, n, order)
            ? store_summary_alloc(st, &sum, err)
            : error_set(err, ERR_MEMORY, "out of memory");
    if (rc != ERR_OK) {
        free(v.loaded);
        free(v.resident);
        free(v.first);
        free(taken);
        free(order);
        free(hist);
        return rc;
    }
    /* Every file's header and block index first (their checksums), each
     * file opened and closed (a tier:blocks database may hold more files
     * than may be open at once); the blocks' checksums as they are read. */
    for (int k = 0; k < st->nfiles && rc == ERR_OK; k++) {
        rc = store_open_file(st, k, err);
        store_close_file(st, k);
    }
    VerifyPath path = VERIFY_AUTO;
    uint64_t target = 0, whole_max = 0;
    long stop = 0, passed = 0;
    StoreParts sp = {0};
    VerifyJournal jr = {.fd = -1}, *j = NULL;
    uint64_t jr_pieces = 0, jr_blocks = 0; /* by parts, of the tiers taken from the journal */
    st->verify_parts = st->verify_whole = 0;
    st->verify_peak = 0;
    if (rc == ERR_OK) {
        rc = verify_path(st, &path, &target, &whole_max, &stop, err);
    }
    if (rc == ERR_OK && journal != NULL) {
        rc = store_journal_open(st, journal, &jr, err);
        j = &jr;
        if (rc == ERR_OK && progress) {
            fprintf(stderr, "verify: journal %s: %d tier lines\n", journal, jr.lines);
        }
    }
    for (int u = 0; u < n && st->tiers && g->tiers->first != NULL; u++) {
        v.first[u] = g->tiers->first(g, u);
    }
    if (!st->tiers && rc == ERR_OK) {
        /* The slots of every file in one database. */
        rc = db_create(&v.loaded[0], g->num_positions, st->m.width, st->m.winby, err);
        for (int k = 0; k < st->nfiles && rc == ERR_OK; k++) {
            Database part;
            rc = store_load_file(st, k, threads, &part, err);
            if (rc == ERR_OK) {
                uint64_t first = st->m.files[k].first;
                memcpy(st->m.width == 1 ? (void *)(v.loaded[0].r8 + first)
                                        : (void *)(v.loaded[0].r16 + first),
                       part.width == 1 ? (void *)part.r8 : (void *)part.r16,
                       part.size * part.width);
                if (part.winby != NULL) {
                    memcpy(v.loaded[0].winby + first, part.winby, part.size * 2);
                }
                db_destroy(&part);
            }
        }
        v.resident[0] = rc == ERR_OK;
    }
    /* Tiers in check_order's order, children before parents, so the
     * first disagreement found is the deepest, where a damaged record is,
     * not its parents; and, with a journal, each tier's line appended as
     * soon as it passed, so that a stopped run loses the tier in hand
     * only. */
    for (int i = 0; i < n && rc == ERR_OK; i++) {
        int t = order[i];
        int kids[GAME_MAX_CHILD_TIERS + 1];
        int nk = 0;
        TierRun run;
        memset(hist, 0, nraw * sizeof *hist);
        bool by_parts = false;
        uint64_t bytes = 0;
        if (st->tiers) {
            tier_begin(st, &sp, *checked, &run);
            nk = g->tiers->children(g, t, kids);
            kids[nk++] = t;
            memcpy(v.kids, kids, sizeof kids);
            v.nkids = nk;
            bool all_there = true;
            for (int k = 0; k < nk; k++) {
                if (kids[k] < 0 || kids[k] >= n) {
                    rc = error_set(err, ERR_INTERNAL, "game '%s': tier %d lists child tier %d",
                                   g->module->name, t, kids[k]);
                } else {
                    all_there = all_there && st->tier_file[kids[k]] < st->tier_file[kids[k] + 1];
                }
            }
            if (rc == ERR_OK && !all_there) {
                /* partial: tier t or a child tier not there */
                st->unchecked += st->tier_file[t] < st->tier_file[t + 1];
                continue;
            }
            /* From the journal: its line names the tier's files as they
             * are, and every child tier was taken too (a child checked
             * again, its file changed, has its parents checked again). */
            taken[t] = rc == ERR_OK && store_journal_matches(st, j, t);
            for (int k = 0; k < nk - 1 && taken[t]; k++) {
                taken[t] = taken[kids[k]];
            }
            if (taken[t]) {
                stats_thread_reset(); /* the calls made to decide are not counted */
                take_tier(st, &jr.tier[t], &sum, checked, &jr_pieces, &jr_blocks);
                if (progress) {
                    fprintf(stderr,
                            "verify: tier %d of %d taken from the journal (checked %s in "
                            "%.1f s)\n",
                            t, n, jr.tier[t].parts ? "by parts" : "whole", jr.tier[t].wall);
                }
                continue;
            }
            if (rc == ERR_OK) {
                rc = choose_path(st, path, target, whole_max, t, kids, nk, threads, &by_parts,
                                 &bytes, err);
            }
            st->verify_peak = bytes > st->verify_peak ? bytes : st->verify_peak;
            if (rc == ERR_OK && by_parts) {
                rc = verify_by_parts(&v, &sp, t, threads, progress, target, checked, hist, err);
                st->verify_parts++;
                if (rc == ERR_OK) {
                    rc = tier_passed(st, j, &sp, t, true, threads, bytes, *checked, &run, hist,
                                     nraw, &sum, stop, &passed, err);
                }
                if (progress && rc == ERR_OK) {
                    fprintf(stderr, "verify: tier %d of %d checked by parts\n", t, n);
                }
                continue;
            }
            if (rc == ERR_OK && sp.st != NULL) {
                rc = store_parts_open(&sp, NULL, 0, err); /* closes its files */
            }
            st->verify_whole++;
            /* Keep what tier t needs, free the rest, then load what is
             * missing (so that at most t and its child tiers are held, as
             * whole_memory counts). */
            for (int pass = 0; pass < 2; pass++) {
                for (int u = 0; u < n && rc == ERR_OK; u++) {
                    bool need = false;
                    for (int k = 0; k < nk; k++) {
                        need = need || kids[k] == u;
                    }
                    if (pass == 0 && v.resident[u] && !need) {
                        db_destroy(&v.loaded[u]);
                        v.resident[u] = false;
                    } else if (pass == 1 && !v.resident[u] && need) {
                        rc = store_load_tier(st, u, threads, &v.loaded[u], err);
                        v.resident[u] = rc == ERR_OK;
                    }
                }
            }
        }
        if (rc != ERR_OK) {
            break;
        }
        const Database *db = &v.loaded[t];
        uint64_t bad = UINT64_MAX;
        rc = check_unit(&v, t, db, 0, threads, progress, &bad, checked, hist, err);
        if (rc == ERR_OK && bad != UINT64_MAX) {
            rc = report_bad(&v, t, db, 0, bad, err);
        }
        if (rc == ERR_OK && st->tiers) {
            rc = tier_passed(st, j, &sp, t, false, threads, bytes, *checked, &run, hist, nraw, &sum,
                             stop, &passed, err);
        } else if (rc == ERR_OK) {
            add_hist(st, &sum, hist, nraw);
        }
        if (progress && rc == ERR_OK) {
            fprintf(stderr, "verify: %s %d of %d checked\n", st->tiers ? "tier" : "file", t, n);
        }
    }
    if (sp.st != NULL) {
        store_parts_free(&sp);
    }
    st->verify_child_blocks = sp.misses + jr_blocks;
    st->verify_pieces = sp.pieces + jr_pieces;
    /* The initial position is reached, and the counts are the manifest's
     * (a partial database has neither). */
    if (rc == ERR_OK && !st->m.partial) {
        uint32_t raw;
        WinBy w;
        Position root = game_canonical(g, g->initial);
        if (!st->tiers) {
            raw = db_peek(&v.loaded[0], root);
        } else {
            for (int u = 0; u < n; u++) {
                if (v.resident[u]) {
                    db_destroy(&v.loaded[u]);
                    v.resident[u] = false;
                }
            }
            rc = store_get(st, root, &raw, &w, err);
        }
        if (rc == ERR_OK && raw == DB_UNREACHED) {
            rc = error_set(err, ERR_IO, "%s: the initial position has no record; " REMEDY,
                           st->dir.path);
        }
        if (rc == ERR_OK &&
            (strcmp(value_name(db_raw_value(&st->fmt, raw)), st->m.root_value) != 0 ||
             db_raw_remoteness(&st->fmt, raw) != st->m.root_remoteness)) {
            rc = error_set(err, ERR_IO,
                           "%s: the initial position's record differs from the manifest's "
                           "root value; " REMEDY,
                           st->dir.path);
        }
    }
    if (rc == ERR_OK && !st->m.partial) {
        rc = store_check_counts(st, &sum, err);
    }
    for (int u = 0; u < n; u++) {
        if (v.resident[u]) {
            db_destroy(&v.loaded[u]);
        }
    }
    db_summary_free(&sum);
    store_journal_close(&jr);
    free(taken);
    free(order);
    free(hist);
    free(v.loaded);
    free(v.resident);
    free(v.first);
    return rc;
}
