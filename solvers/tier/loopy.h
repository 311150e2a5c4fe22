/* solvers/tier/loopy.h: loopy tiers for the tier solver (solvers/tier/).
 *
 * A loopy tier (TierOps.loopy) has moves that stay inside the tier as well
 * as moves to its child tiers. The solver hands such a tier to the two
 * passes below instead of its one-expansion-per-position walks; the
 * algorithm and its bounds are at the top of loopy.c.
 */
#ifndef SOLVERS_TIER_LOOPY_H
#define SOLVERS_TIER_LOOPY_H

#include <stdbool.h>
#include <stdint.h>

#include "core/db.h"
#include "core/error.h"
#include "games/game.h"
#include "solvers/solver.h"
#include "solvers/tier/graph.h"
#include "solvers/tier/observer.h"

/* A child tier as the loopy passes see it. */
typedef struct TierLoopyChild {
    int tier;
    uint64_t size;
    Position first;       /* tier-major games only */
    uint64_t *reach;      /* reach pass: the child's bitmap (bits are ORed in) */
    const Database *vals; /* solve pass: the child's solved records */
} TierLoopyChild;

/* One loopy tier and what the passes may use. */
typedef struct TierLoopyJob {
    const Game *g;
    const TierGraph *gr; /* the game's tiers (positions of local indices) */
    const GpsOps *fam;   /* NULL: the stateless family */
    GpsState **states;   /* one per thread (fam != NULL) */
    int threads;         /* team size */
    uint64_t par_min;    /* fewer positions (or frontier entries) than this: one thread */
    uint64_t chunk;      /* positions per work unit, a multiple of 64 */
    bool tier_major;     /* positions of tier t are first(t) + index */
    bool stored_edges;   /* keep back edges even when the game has generate_parents */
    bool wide_index;     /* 64-bit indices even below TIER_LOOPY_WIDE_FROM slots */
    int tier;            /* the tier solved */
    uint64_t size;       /* its size */
    Position first;      /* tier-major games only */
    uint64_t *reach;     /* its bitmap: reach pass closes it under in-tier moves */
    Database *vals;      /* solve pass: its records (all unreached on entry) */
    int nchildren;
    TierLoopyChild child[GAME_MAX_CHILD_TIERS];
    SolveResult *res;      /* worker threads add their counters here */
    uint64_t *worker_peak; /* [threads]: worker jemalloc peaks (max kept) */
    uint64_t stats[4];     /* out: frontier positions taken (win/lose, tie), draws, events */
    double stop_at;        /* reach pass: clock_seconds() after which it stops (0: never) */
    bool stopped;          /* out: the reach pass stopped before its fixpoint */
    uint64_t expanded;     /* out: positions the reach pass expanded */
    /* shown each position the reach pass and the solve pass's first scan
     * expand (observer.h); NULL: none, one test a position */
    const TierObserver *observer;
    bool progress; /* a line per phase on stderr */
    double t0;     /* clock_seconds() at the start of the solve, for those lines */
} TierLoopyJob;

/* Tiers of more than this many slots keep the slot indices of their
 * frontier, events and back edges in 64 bits; the others in 32 (every index
 * of such a tier is below 2^32), so their arrays do not grow. A build-time
 * knob: -DTIER_LOOPY_WIDE_FROM=0 forces 64-bit indices in every tier (to
 * measure the wide code on a real sector, docs/loopy.md); the default
 * costs the tiers that fit 32 bits nothing. */
#ifndef TIER_LOOPY_WIDE_FROM
#define TIER_LOOPY_WIDE_FROM (UINT64_C(1) << 32)
#endif

/* Test hook, not a user option: true makes every loopy tier keep 64-bit
 * slot indices, so the tests run the wide code on small games in the same
 * binary (tests/test_loopy.c). False unless a test sets it. */
extern bool tier_loopy_test_wide;

/* The bytes of one slot index in the loopy passes of a tier of `size`
 * slots: 4, or 8 from TIER_LOOPY_WIDE_FROM slots on (or when wide). */
unsigned tier_loopy_index_bytes(uint64_t size, bool wide);

/* An upper bound on the bytes tier_loopy_solve allocates beyond the tier's
 * records for a tier of `size` slots of which `reached` are reachable, with
 * I = tier_loopy_index_bytes(size, false): 4 + 2 I a reachable position
 * (counter, event, the frontier, and the events of one pass, at most one a
 * position), 1/8 a slot (ranks) and the event levels' offsets (128 KiB);
 * with stored edges also 8 a slot, plus I an in-tier edge, which is not
 * counted here (the solve checks it when it has counted the edges). So 12
 * bytes a reachable position up to 2^32 slots, 20 above. */
uint64_t tier_loopy_bytes(uint64_t size, uint64_t reached, bool stored_edges);

/* Reach pass: the positions of the tier reachable from those whose bits are
 * set (moves inside the tier, to a fixpoint), and the bits of every child
 * tier position they move to. With stop_at (tier:estimate's calibration)
 * it may stop after a round, before the fixpoint (stopped): the bitmaps
 * then hold only part of the reachable positions. */
ErrCode tier_loopy_reach(TierLoopyJob *job, Error *err);

/* Solve pass: every reachable position of the tier gets its value and
 * remoteness, equal to what retro gives over the whole game; the child
 * tiers' records must be final. */
ErrCode tier_loopy_solve(TierLoopyJob *job, Error *err);

#endif /* SOLVERS_TIER_LOOPY_H */
