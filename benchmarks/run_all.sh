#!/usr/bin/env bash
# Builds Release with the benchmarks and writes one results log,
# benchmarks/results/<YYYY-MM-DD>-<commit>.md, holding the machine, the
# commit, and the outputs of scamcheck-eval (dev split), the Google
# Benchmarks (median of 5 repetitions) and batch_throughput.sh. The eval
# figures also go to benchmarks/results/<YYYY-MM-DD>-<commit>-eval.json.
#
# Usage: benchmarks/run_all.sh [--build DIR] [--corpus-dir DIR] [--quick]
#   --build DIR       Release build directory (default: build-release)
#   --corpus-dir DIR  corpora (default $SCAMCHECK_CORPUS_DIR or ../shared/corpus)
#   --quick           fewer repetitions and 20,000 batch lines (a smoke run,
#                     not for the log)
# Time only on an otherwise idle machine; the log records what ran.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
build="$repo/build-release"
corpus_dir=${SCAMCHECK_CORPUS_DIR:-$repo/../shared/corpus}
repetitions=5
batch_count=100000
email_count=5000
batch_repeat=3

while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --corpus-dir) corpus_dir=$2; shift 2 ;;
    --quick) repetitions=2; batch_count=20000; email_count=1000; batch_repeat=1; shift ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run_all.sh: unknown argument: $1" >&2; exit 64 ;;
  esac
done

corpus_dir=$(cd "$corpus_dir" 2> /dev/null && pwd || echo "$corpus_dir")
commit=$(git -C "$repo" rev-parse --short HEAD 2> /dev/null || echo nocommit)
if [[ $commit != nocommit && -n $(git -C "$repo" status --porcelain 2> /dev/null) ]]; then
  commit="$commit-dirty"
fi
day=$(date -u +%Y-%m-%d)
mkdir -p "$here/results"
log="$here/results/$day-$commit.md"
eval_json="$here/results/$day-$commit-eval.json"

echo "run_all.sh: building Release in $build" >&2
cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DSCAMCHECK_BUILD_BENCHMARKS=ON > /dev/null
cmake --build "$build" -j "$(nproc)" \
  --target scamcheck-eval analyze_benchmark rules_benchmark scamcheck_cli >&2

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
bench_args=(--benchmark_repetitions="$repetitions" --benchmark_report_aggregates_only=true)

{
  echo "# Benchmark results $day $commit"
  echo
  echo "- commit: $commit"
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "- machine: $(nproc) cores, $cpu, $(uname -sr)"
  echo "- compiler: $(c++ --version | head -n1)"
  echo "- build: Release ($build)"
  echo "- corpus: $corpus_dir"
  echo
  echo "## Quality: scamcheck-eval, dev split"
  echo
  echo '```text'
  SCAMCHECK_CORPUS_DIR="$corpus_dir" "$build/benchmarks/eval/scamcheck-eval" \
    --split dev --label "commit $commit" --json "$eval_json" 2>&1 || echo "(scamcheck-eval failed: $?)"
  echo '```'
  echo
  echo "## Micro-benchmarks (Google Benchmark, one thread, median of $repetitions)"
  for bench in analyze_benchmark rules_benchmark; do
    echo
    echo "### $bench"
    echo
    echo '```text'
    SCAMCHECK_CORPUS_DIR="$corpus_dir" "$build/benchmarks/$bench" "${bench_args[@]}" 2>&1 |
      grep -v -E '_(mean|stddev|cv) ' || echo "($bench failed)"
    echo '```'
  done
  echo
  echo "## Batch throughput"
  echo
  SCAMCHECK_CORPUS_DIR="$corpus_dir" "$here/batch_throughput.sh" --build "$build" \
    --count "$batch_count" --repeat "$batch_repeat" 2>&1 | sed '1,2d' || echo "(batch_throughput.sh failed)"
  echo
  echo "## Batch throughput, e-mails"
  echo
  SCAMCHECK_CORPUS_DIR="$corpus_dir" "$here/batch_throughput.sh" --build "$build" --kind email \
    --count "$email_count" --repeat "$batch_repeat" 2>&1 | sed '1,2d' || echo "(batch_throughput.sh failed)"
} > "$log"

echo "run_all.sh: wrote $log and $eval_json" >&2
