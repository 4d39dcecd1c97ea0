#!/bin/bash
# Submits a sharded mixscope run to Slurm: an array of N tasks (shard.sbatch), then the merge (merge.sbatch) with
# --dependency=afterok on the array, so the merge starts only when every task succeeded.
#
#   scripts/slurm/submit.sh [-n TASKS] [-c CPUS_PER_TASK] <audit|prepare|index> <input> <out dir> [-- command options…]
#   scripts/slurm/submit.sh -n 64 -c 4 audit /data/corpus/version=0 /data/audit-out -- --deep --preset ctc-finetune
#
# Writes <out>/parts/ (one part per task), <out>/logs/ (one log per task and one for the merge) and the merged
# result (see merge.sbatch). Prints the two job ids. sbatch's own environment variables (SBATCH_PARTITION,
# SBATCH_ACCOUNT, SBATCH_TIMELIMIT, …) apply to both jobs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tasks=4 cpus=1
while getopts "n:c:" opt; do
  case $opt in
    n) tasks=$OPTARG ;;
    c) cpus=$OPTARG ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -lt 3 ]; then sed -n '2,12p' "$0" >&2; exit 2; fi
command=$1 input=$2 out=$3
shift 3
if [ "${1:-}" = "--" ]; then shift; fi
mkdir -p "$out/parts" "$out/logs"
case $input in
  http://* | https://*) ;;
  *) input=$(cd "$(dirname "$input")" && pwd)/$(basename "$input") ;;
esac
out=$(cd "$out" && pwd)
# the repository's own launcher unless MIXSCOPE_BIN says otherwise (Slurm runs a copy of the script, not this path)
export MIXSCOPE_BIN=${MIXSCOPE_BIN:-node $(cd "$here/../.." && pwd)/bin/mixscope.js}
array=$(sbatch --parsable --array="0-$((tasks - 1))" --cpus-per-task="$cpus" --job-name="mixscope-$command" \
  --output="$out/logs/%x-%A_%a.out" --export=ALL "$here/shard.sbatch" "$command" "$input" "$out/parts" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes --job-name="mixscope-$command-merge" \
  --output="$out/logs/%x-%j.out" --export=ALL "$here/merge.sbatch" "$command" "$out/parts" "$out")
merge=${merge%%;*}
echo "array $array ($tasks tasks), merge $merge (after the array succeeds) → $out"
