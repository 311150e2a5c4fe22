/* solvers/tier/plan.c: tier:blocks over N ranks, a design not built: the
 * model of plan.h (parts dealt round-robin, the forward pass's marks sent
 * to the parts' owners, the child file blocks read from a shared file
 * system), evaluated from the tier graph without solving. One pass over
 * every tier's parts (O(parts), a rank's slots and bitmap words tallied in
 * an array of N), then O(tiers + edges) for the passes' sums.
 */
#include "solvers/tier/plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/dbstore.h"
#include "core/mem.h"

void tier_plan_costs_measured(TierPlanCosts *c) {
    *c = (TierPlanCosts){
        /* least squares over the 36 tiers' seconds of the 5x7 run's passes
         * (results/big/connect4-5x7-blocks/progress-per-tier.txt), times 2
         * threads, per move (5): scripts/measure/blocks-fit.sh */
        .fwd_position = 1.10095e-8,
        .fwd_slot = 2.55992e-10,
        .bwd_position = 3.43499e-8,
        .bwd_read = 4.63092e-6,
        .bwd_slot = 0,
        /* 163,584,777 child file blocks read (its JSON) over 5 x its
         * 37,767,762 child file blocks */
        .reads = 0.866267,
        /* scripts/measure/tier-bytes.sh on the 5x7 database */
        .bytes_position = 0.4162,
        .bytes_slot = 0.0119,
        /* 5x7's bitmap files of plies 20, 24, 25 (docs/connect-four.md):
         * 0.686, 0.674, 0.682 of H(reached / slots) x raw */
        .bitmap_entropy = 0.68,
    };
}

/* The binary entropy of p, in bits (0 at 0 and 1). */
static double entropy(double p) {
    return p <= 0 || p >= 1 ? 0 : -(p * log2(p) + (1 - p) * log2(1 - p));
}

/* The arrays of the pass over the parts. */
typedef struct PlanTally {
    uint64_t *own;   /* [ntiers] the fullest rank's bitmap bytes of the tier */
    double *share;   /* [ntiers] the fullest rank's fraction of the tier's slots */
    double *blocks;  /* [ntiers] the tier's file blocks */
    double *db;      /* [ntiers] its database bytes D_t */
    double *file;    /* [ntiers] its bitmap file's bytes */
    uint64_t *slots; /* [ranks] a tier's slots per rank */
    uint64_t *words; /* [ranks] a tier's bitmap bytes per rank */
} PlanTally;

static void tally_free(PlanTally *t) {
    free(t->own);
    free(t->share);
    free(t->blocks);
    free(t->db);
    free(t->file);
    free(t->slots);
    free(t->words);
}

/* Deals tier t's parts round-robin and tallies what each rank holds: its
 * slots, and its bitmap's words (the words each part spans; one rank: the
 * tier's whole bitmap, as one process holds it). */
static void deal_tier(const TierGraph *gr, int t, const TierPlanMachine *m, unsigned width,
                      PlanTally *tl, TierPlanBlocks *out) {
    uint64_t size = gr->node[t].size, per_block = DBSTORE_BLOCK_BYTES / width;
    int n = m->ranks;
    memset(tl->slots, 0, (size_t)n * sizeof *tl->slots);
    memset(tl->words, 0, (size_t)n * sizeof *tl->words);
    uint64_t k = 0;
    double blocks = 0;
    for (uint64_t lo = 0; lo < size; k++) {
        uint64_t hi = tier_graph_part_end(gr, t, lo, m->part);
        int r = (int)(k % (uint64_t)n);
        tl->slots[r] += hi - lo;
        tl->words[r] += ((hi - 1) / 64 - lo / 64 + 1) * 8; /* the words it spans */
        blocks += (double)((hi - lo + per_block - 1) / per_block);
        lo = hi;
    }
    out->nparts += k;
    out->rank0_parts += (k + (uint64_t)n - 1) / (uint64_t)n;
    uint64_t most = 0, bytes = 0;
    for (int r = 0; r < n; r++) {
        most = tl->slots[r] > most ? tl->slots[r] : most;
        bytes = tl->words[r] > bytes ? tl->words[r] : bytes;
    }
    out->share_slots += (double)most;
    tl->share[t] = n == 1 || size == 0 ? 1.0 : (double)most / (double)size;
    tl->own[t] = n == 1 ? tier_words(size) * 8 : bytes;
    tl->blocks[t] = blocks;
}

ErrCode tier_plan_blocks(const TierGraph *gr, unsigned width, const double *reach,
                         const TierPlanCosts *c, const TierPlanMachine *m, TierPlanBlocks *out,
                         Error *err) {
    memset(out, 0, sizeof *out);
    tier_graph_blocks_memory(gr, width, m->part, m->threads, TIER_BLOCKS_CACHE_DEFAULT, &out->one);
    int nt = gr->ntiers;
    PlanTally tl = {
        .own = mem_calloc((size_t)nt, sizeof *tl.own, "the plan", err),
        .share = mem_calloc((size_t)nt, sizeof *tl.share, "the plan", err),
        .blocks = mem_calloc((size_t)nt, sizeof *tl.blocks, "the plan", err),
        .db = mem_calloc((size_t)nt, sizeof *tl.db, "the plan", err),
        .file = mem_calloc((size_t)nt, sizeof *tl.file, "the plan", err),
        .slots = mem_calloc((size_t)m->ranks, sizeof *tl.slots, "the plan", err),
        .words = mem_calloc((size_t)m->ranks, sizeof *tl.words, "the plan", err),
    };
    if (!tl.own || !tl.share || !tl.blocks || !tl.db || !tl.file || !tl.slots || !tl.words) {
        tally_free(&tl);
        return ERR_MEMORY;
    }
    double N = m->ranks, T = m->threads, moves = m->moves;
    /* a rank's rate of reads from the shared file system (0: not limited by it) */
    double rate = m->fs_bandwidth > 0 ? fmin(m->bandwidth, m->fs_bandwidth / N) : m->bandwidth;
    double k = m->ranks > 1 ? m->imbalance : 1.0;
    for (int t = 0; t < nt; t++) {
        deal_tier(gr, t, m, width, &tl, out);
        double s = (double)gr->node[t].size, r = fmin(reach[t], s);
        tl.db[t] = c->bytes_position * r + c->bytes_slot * (s - r);
        out->database += tl.db[t];
        /* its bitmap file, and the rank's share of it (by its words) */
        double ratio = s > 0 ? c->bitmap_entropy * entropy(r / s) : 0;
        tl.file[t] = (double)(tier_words(gr->node[t].size) * 8) * ratio;
        out->bitmap_files += tl.file[t];
        out->disk_rank += (double)tl.own[t] * ratio;
    }
    double marks = 0;
    for (int t = 0; t < nt; t++) {
        const TierNode *node = &gr->node[t];
        double s = (double)node->size, r = fmin(reach[t], s), share = tl.share[t];
        double child_blocks = 0, child_db = 0;
        for (int j = 0; j < node->nchildren; j++) {
            child_blocks += tl.blocks[node->children[j]];
            child_db += tl.db[node->children[j]];
        }
        double reads = c->reads * moves * child_blocks;
        out->reads += reads;
        out->fwd_compute += share * (c->fwd_position * moves * r + c->fwd_slot * s) / T * k;
        out->bwd_compute +=
            share * (c->bwd_position * moves * r + c->bwd_read * reads + c->bwd_slot * s) / T * k;
        if (m->ranks > 1) {
            double sent = 8 * moves * r * share * (N - 1) / N;
            out->fwd_bytes += sent;
            out->fwd_wire +=
                sent / m->bandwidth + m->latency * fmax(1, ceil(sent / TIER_PLAN_MARK_ROUND));
            marks = fmax(marks, 2 * fmin(sent, TIER_PLAN_MARK_ROUND));
            double fetched = c->reads * moves * share * child_db;
            out->bwd_bytes += fetched;
            out->bwd_wire += fetched / rate + reads * share * m->read_latency / T;
        }
    }
    out->marks = marks;
    out->bitmaps = (double)tier_graph_reach_peak_of(gr, tl.own);
    out->memory = (double)(out->one.total - out->one.bitmaps) + out->bitmaps + marks;
    /* one disk: every bitmap file after the forward pass, then per tier of
     * the solve order its parts written and its bitmap file removed */
    double cur = out->bitmap_files, peak = cur;
    for (int j = 0; j < nt; j++) {
        int t = gr->order[j];
        cur += tl.db[t];
        peak = fmax(peak, cur);
        cur -= tl.file[t];
    }
    out->disk_peak = peak;
    tally_free(&tl);
    return ERR_OK;
}
