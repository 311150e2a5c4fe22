#!/bin/bash
# scripts/slurm-tier.sh: a Slurm batch job for a distributed tier solve
# (bin/solve-mpi, docs/scaling.md). One MPI rank per node, OpenMP threads on
# the node's cores, each rank's files on its node-local disk (no shared file
# system needed for the database; the binary and this script must be
# reachable from every node, e.g. in the submit directory).
#
#   sbatch --nodes=8 scripts/slurm-tier.sh connect4:w=6,h=5
#   sbatch --nodes=64 --time=2-00:00:00 scripts/slurm-tier.sh connect4:w=7,h=5 LOCAL/c4
#   SOLVER=tier:sliced sbatch --nodes=8 scripts/slurm-tier.sh connect4:w=6,h=6
#
# SOLVER (default tier): `tier` holds whole tiers on every rank; `tier:sliced`
# keeps only each rank's slices and fetches child records from their owners
# (memory per rank falls with the node count; docs/scaling.md).
#
# Arguments: GAME [WORK_DIR] (default WORK_DIR: /tmp/gamesman-$SLURM_JOB_ID
# on each node; LOCAL above: the cluster's node-local disk). Resubmitting with the same node count and WORK_DIR on the
# same nodes resumes from the slices already written (each rank loads its
# own). Before submitting, print the plan:
#   bin/tier-plan GAME --ranks NODES --threads CORES --positions P --tiers
#
#SBATCH --job-name=gamesman-tier
#SBATCH --ntasks-per-node=1
#SBATCH --exclusive
#SBATCH --output=gamesman-tier-%j.out
set -euo pipefail
game=${1:?usage: sbatch --nodes=N scripts/slurm-tier.sh GAME [WORK_DIR]}
work=${2:-/tmp/gamesman-${SLURM_JOB_ID:-local}}
threads=${SLURM_CPUS_ON_NODE:-$(nproc)}
solver=${SOLVER:-tier}
# Leave 10% of the node's memory to the system and MPI's buffers.
mem_kib=$(awk '/^MemTotal:/ {print int($2 * 0.9)}' /proc/meminfo)
export OMP_NUM_THREADS=$threads
echo "job ${SLURM_JOB_ID:-?}: $game on ${SLURM_NNODES:-?} nodes x $threads threads, work dir $work"
bin/tier-plan "$game" --ranks "${SLURM_NNODES:-1}" --threads "$threads" || true
# Inside the allocation Open MPI's mpirun learns the nodes from Slurm; one
# rank per node (ppr:1:node), its threads free to use every core. The same
# line for a fixed set of hosts (one slot each), without Slurm:
#   mpirun -np 4 --host node1:1,node2:1,node3:1,node4:1 --bind-to none \
#       -x OMP_NUM_THREADS=32 bin/solve-mpi GAME --solver tier --threads 32 \
#       --max-memory 200G --work-dir LOCAL/c4 --progress --json
mpirun --map-by ppr:1:node --bind-to none -x OMP_NUM_THREADS \
    bin/solve-mpi "$game" --solver "$solver" --threads "$threads" \
    --max-memory "${mem_kib}K" --work-dir "$work" --progress --json
