#!/bin/bash
# submit.sh TOUR OUT SHARDS [MAX_RUNNING] - submit a tournament to Slurm: an array of SHARDS
# tasks (at most MAX_RUNNING at once), then the merge job that waits for all of them
# (afterok; killed if a shard fails). Prints the two job ids. ARENA and ARENA_ARGS are passed
# on to the jobs. Logs: OUT/slurm-logs/.
set -euo pipefail
if [ $# -lt 3 ]; then
    echo "usage: $0 TOUR OUT SHARDS [MAX_RUNNING]" >&2
    exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tour=$(realpath "$1")
out=$(realpath -m "$2")
shards=$3
limit=${4:+%$4}
mkdir -p "$out/slurm-logs"
export TOUR="$tour" OUT="$out" SHARDS="$shards"
array=$(sbatch --parsable --array="0-$((shards - 1))$limit" --export=ALL \
    --output="$out/slurm-logs/%x-%A_%a.log" "$here/tournament.sbatch")
merge=$(sbatch --parsable --dependency="afterok:${array%%;*}" --kill-on-invalid-dep=yes \
    --export=ALL --output="$out/slurm-logs/%x-%j.log" "$here/merge.sbatch")
echo "array job ${array%%;*} ($shards shards), merge job ${merge%%;*}: results in $out/merged"
