#!/usr/bin/env bash
# Where the time of a warm SMS goes: `perf record` (cycles, sampled) over
# analyze_benchmark's BM_AnalyzeSms (the same 8 SMS analysed again and
# again on one thread: what a running server sees), then the symbols with
# the most samples and the share of each library. Complements
# profile_analyze.sh (instruction counts over every dev SMS, first sight
# included): here memory latency (RE2's DFA tables) counts as time.
#
# Usage: benchmarks/perf_analyze.sh [--build DIR] [--seconds N] [--top N]
#   --build DIR    build directory holding benchmarks/analyze_benchmark (default: build)
#   --seconds N    benchmark time (default 3)
#   --top N        symbols listed (default 30)
#   --commit TEXT  the commit the build was made from (default: this tree's)
# Needs perf (Debian: linux-perf) and kernel.perf_event_paranoid <= 2.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
build="$repo/build"
seconds=3
top=30
commit=
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --top) top=$2; shift 2 ;;
    --commit) commit=$2; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "perf_analyze.sh: unknown argument: $1" >&2; exit 64 ;;
  esac
done
bench="$build/benchmarks/analyze_benchmark"
[[ -x $bench ]] || { echo "perf_analyze.sh: $bench not found" >&2; exit 66; }
command -v perf > /dev/null || { echo "perf_analyze.sh: perf not installed" >&2; exit 69; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
perf record -q -o "$work/perf.data" "$bench" --benchmark_filter='BM_AnalyzeSms$' \
  --benchmark_min_time="$seconds" > "$work/bench.txt" 2> "$work/perf.log"

echo "# perf profile of BM_AnalyzeSms (warm SMS, one thread)"
echo
echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "- commit: ${commit:-$(git -C "$repo" rev-parse --short HEAD)$(git -C "$repo" diff --quiet HEAD 2> /dev/null || echo -dirty)}"
echo "- binary: $bench"
echo "- machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- command: benchmarks/perf_analyze.sh --seconds $seconds (perf record, cycles)"
echo "- benchmark: $(grep '^BM_AnalyzeSms ' "$work/bench.txt" | tr -s ' ')"
echo
echo "## By library (share of samples)"
echo
echo '```'
perf report -i "$work/perf.data" --no-children --sort dso --stdio -g none 2> /dev/null |
  grep '%' | grep -v '^#' | head -8 | sed 's/ *$//'
echo '```'
echo
echo "## Top $top symbols (self, share of samples)"
echo
echo '```'
perf report -i "$work/perf.data" --no-children --sort dso,symbol --stdio -g none 2> /dev/null |
  grep '%' | grep -v '^#' | head -"$top" | sed -e 's/scamcheck::internal:://g' \
  -e 's/(anonymous namespace)/{anon}/g' | cut -c1-150 | sed 's/ *$//'
echo '```'
