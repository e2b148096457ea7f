#!/bin/sh
# The full fault and soak runs of scamcheckd (CTest runs short versions,
# label "fault"): 20 SIGKILLs during a 2-minute mixed load, then a
# 10-minute RSS soak. Writes benchmarks/results/<YYYY-MM-DD>-<commit>-fault.md,
# -soak.md and -soak.png (`-dirty` is appended to the commit when the tree
# has changes). Needs a built scamcheckd and python3; gnuplot for the plot.
#
#   benchmarks/fault/run.sh [build/adapters/server/scamcheckd]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
binary=${1:-$root/build/adapters/server/scamcheckd}
commit=$(git -C "$root" rev-parse --short HEAD)
if [ -n "$(git -C "$root" status --porcelain)" ]; then commit="$commit-dirty"; fi
out=$root/benchmarks/results/$(date -u +%Y-%m-%d)-$commit
status=0
python3 "$root/tests/server/fault_kill_test.py" --binary "$binary" --duration 120 --kills 20 \
  --threads 4 --rate 20 --commit "$commit" --out "$out-fault.md" || status=1
python3 "$root/tests/server/soak_test.py" --binary "$binary" --duration 600 --warmup 60 \
  --threads 4 --rate 15 --commit "$commit" --out "$out-soak.md" --png "$out-soak.png" || status=1
echo "wrote $out-fault.md $out-soak.md"
exit $status
