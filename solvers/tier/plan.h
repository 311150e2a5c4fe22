/* solvers/tier/plan.h: tier:blocks over N ranks, A DESIGN, NOT BUILT: the
 * model bin/tier-plan prints for it (docs/scaling.md, "Connect Four 7x6 by
 * blocks over N ranks: the plan"), from the tier graph, the reachable
 * positions of each tier and per-thread costs measured on the 5x7 run of
 * one process (results/big/connect4-5x7-blocks/).
 *
 * The design. Every tier is cut into parts as one process cuts it
 * (graph.h tier_graph_part_end, at most `part` records), and the parts of
 * each tier are dealt to the N ranks round-robin (part k of the tier to
 * rank k mod N), so that neighbouring parts, which hold similar positions,
 * go to different ranks; a tier of fewer parts than ranks leaves ranks
 * idle. Forward pass: a rank walks its parts of a tier (their bitmap
 * slices, from its own bitmap files on its local disk) and marks the
 * children: those in its own parts into its share of the child tier's
 * bitmap (the words of its parts), the others sent to their owners as
 * 8-byte indexes (at most m a position, m the game's max_moves: no
 * duplicate dropped, an upper bound) in rounds of at most
 * TIER_PLAN_MARK_ROUND bytes; a rank writes its share of a child tier's
 * bitmap to its local disk once the child's last parent tier is walked.
 * Backward pass: each rank writes its part files to a shared file system
 * and reads the child file blocks its parts need from there, through the
 * one-process caches, so every rank opens every child part (the one
 * process's block indexes) and reads the one process's child file blocks
 * in proportion to its share of the tier.
 *
 * The model, per rank, with share_t the largest fraction of tier t's slots
 * one rank holds (1 with one rank), R_t tier t's reachable positions, s_t
 * its slots, B_c the file blocks of child tier c (DBSTORE_BLOCK_BYTES of
 * records each) and D_c its database bytes:
 *   memory    the one-process model (graph.h tier_graph_blocks_memory) with
 *             the whole bitmaps of the child tiers being marked replaced by
 *             the rank's shares of them (tier_graph_reach_peak_of) and, with
 *             N > 1, the buffers of a round of marks sent and received (2 x
 *             the most marks of a tier, at most the round). N = 1 gives the
 *             one-process model exactly;
 *   disk      D_t = bytes_position R_t + bytes_slot (s_t - R_t) per tier;
 *             tier t's bitmap file bitmap_entropy H(R_t / s_t) s_t / 8
 *             bytes (H the binary entropy in bits: zstd's measured rate on
 *             5x7's bitmaps of plies 20, 24 and 25, 0.674 to 0.686 of it;
 *             a rank's share in proportion to its bitmap's words). One rank:
 *             one disk, whose peak is replayed over the backward pass (the
 *             bitmaps of the tiers still to solve, beside the parts of those
 *             solved, as tier:blocks removes them). N > 1: the rank's local
 *             disk holds its shares of every bitmap (all of them at the end
 *             of the forward pass), the shared file system the database;
 *   reads     the child file blocks read, reads m sum_c B_c for tier t (all
 *             ranks): the measured reads per child file block per move;
 *   exchange  N > 1, per rank: forward, the marks sent, 8 m R_t share_t
 *             (N-1)/N; backward, the child file blocks read from the shared
 *             file system, reads m share_t sum_c D_c (each read the mean
 *             compressed file block of its child tier, D_c / B_c). One rank
 *             exchanges nothing (its local disk's reads are in the costs);
 *   time      per tier, share_t (fwd_position m R_t + fwd_slot s_t) / T
 *             forward and share_t (bwd_position m R_t + bwd_read reads_t +
 *             bwd_slot s_t) / T backward (times imbalance when N > 1; the
 *             background writer's compression, bwd_slot, takes the same
 *             cores as the T threads), plus with N > 1 the
 *             exchange at min(bandwidth, fs_bandwidth / N) bytes a second
 *             per rank, one latency per round of marks and one read_latency
 *             per child file block read by a thread.
 * O(tiers x N + parts).
 */
#ifndef SOLVERS_TIER_PLAN_H
#define SOLVERS_TIER_PLAN_H

#include "solvers/tier/graph.h"

/* The marks a rank sends in one round at most (bytes). */
#define TIER_PLAN_MARK_ROUND 1073741824.0

/* The per-thread costs and the disk rates of tier:blocks, from the 5x7
 * run (one process, 2 threads, the machine alone) and its database
 * (docs/scaling.md, "Connect Four 7x6 by blocks over N ranks: the plan",
 * gives each figure's source and the fit). The per-position costs are per
 * move of the game (5x7: 5). */
typedef struct TierPlanCosts {
    double fwd_position;   /* forward: seconds a reachable position a move */
    double fwd_slot;       /* forward: seconds a slot (its bitmap read, written) */
    double bwd_position;   /* backward: seconds a reachable position a move */
    double bwd_read;       /* backward: seconds a child file block read */
    double bwd_slot;       /* backward: the writer's seconds a slot (compression) */
    double reads;          /* child file blocks read per child file block per move */
    double bytes_position; /* database bytes a reachable position */
    double bytes_slot;     /* database bytes an unreachable slot */
    double bitmap_entropy; /* a bitmap file's bytes per bit of entropy of its raw bits */
} TierPlanCosts;

typedef struct TierPlanMachine {
    int ranks, threads;
    uint64_t part;       /* records a part at most */
    int moves;           /* m: the game's max_moves */
    double bandwidth;    /* bytes a second per rank */
    double fs_bandwidth; /* the shared file system's, all ranks together */
    double latency;      /* seconds a round of marks */
    double read_latency; /* seconds a child file block read over the network */
    double imbalance;    /* N > 1: the slowest rank's compute against the model's */
} TierPlanMachine;

typedef struct TierPlanBlocks {
    TierBlocksMemory one; /* the one-process model (graph.h) */
    uint64_t nparts;      /* every tier's */
    uint64_t rank0_parts; /* the parts rank 0 holds (it holds the most) */
    double share_slots;   /* the slots of the fullest rank, summed over the tiers */
    double bitmaps;       /* the rank's shares of the bitmaps marked at once */
    double marks;         /* N > 1: the buffers of a round of marks */
    double memory;        /* the rank's peak */
    double database;      /* all tiers' D_t */
    double bitmap_files;  /* every tier's bitmap files, all ranks */
    double disk_rank;     /* N > 1: a rank's local disk (its bitmap files) */
    double disk_peak;     /* one rank: the disk's peak */
    double reads;         /* child file blocks read, all ranks */
    double fwd_bytes;     /* N > 1: marks a rank sends */
    double bwd_bytes;     /* N > 1: bytes of child file blocks a rank reads */
    double fwd_compute, fwd_wire, bwd_compute, bwd_wire; /* seconds, the slowest rank */
} TierPlanBlocks;

/* The model above for the graph gr (tier-major, no WinBy: the games
 * tier:blocks solves), records of `width` bytes, reach[t] tier t's
 * reachable positions. ERR_MEMORY (said in err) when its arrays cannot be
 * allocated. */
/* The calibration of docs/scaling.md, into *c. */
void tier_plan_costs_measured(TierPlanCosts *c);

ErrCode tier_plan_blocks(const TierGraph *gr, unsigned width, const double *reach,
                         const TierPlanCosts *c, const TierPlanMachine *m, TierPlanBlocks *out,
                         Error *err);

#endif /* SOLVERS_TIER_PLAN_H */
