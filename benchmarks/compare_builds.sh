#!/usr/bin/env bash
# Library and CLI speed of two builds in one run, each figure beside its
# baseline: `batch_throughput.sh` for e-mails and for SMS (both builds, one
# after the other, `--rounds` times alternating) and the SMS and
# Analyzer::create rows of `analyze_benchmark` (median of repetitions). For a shared machine: the
# builds see the same load because they alternate.
#
# Usage: benchmarks/compare_builds.sh --base DIR --new DIR [--rounds N] [--out FILE]
#   --base DIR, --new DIR  build directories (scamcheck_cli and analyze_benchmark built)
#   --rounds N             alternations of the batch runs (default 2)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
base=
new=
rounds=2
out=
while [[ $# -gt 0 ]]; do
  case $1 in
    --base) base=$2; shift 2 ;;
    --new) new=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "compare_builds.sh: unknown argument: $1" >&2; exit 64 ;;
  esac
done
[[ -n $base && -n $new ]] || { echo "compare_builds.sh: --base and --new are required" >&2; exit 64; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

rows() { grep -E '^\| (cat|threads=)' "$1" | sed "s/^| /| $2 | /"; }
{
  echo "# Library and CLI speed: baseline and candidate builds"
  echo
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "- commit: $(git -C "$repo" rev-parse --short HEAD)"
  echo "- base: $base"
  echo "- new: $new"
  echo "- machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- command: benchmarks/compare_builds.sh --base BASE --new NEW --rounds $rounds"
  for kind in email text; do
    echo
    echo "## batch_throughput.sh --kind $kind --threads 2 --repeat 3 (rounds alternate base, new)"
    echo
    echo "| build | mode | wall s | messages/s | MB/s |"
    echo "|---|---|---:|---:|---:|"
    for ((r = 1; r <= rounds; ++r)); do
      for b in base new; do
        dir=$base
        [[ $b == new ]] && dir=$new
        "$here/batch_throughput.sh" --build "$dir" --kind "$kind" --threads 2 --repeat 3 \
          > "$work/$kind-$b-$r.md"
        rows "$work/$kind-$b-$r.md" "$b (round $r)"
      done
    done
    grep -m1 '^- input' "$work/$kind-base-1.md"
    grep -m1 '^- check' "$work/$kind-new-1.md"
  done
  echo
  echo "## analyze_benchmark: SMS and Analyzer::create (median of 5 repetitions)"
  echo
  echo '```'
  for b in base new; do
    dir=$base
    [[ $b == new ]] && dir=$new
    echo "# $b"
    "$dir/benchmarks/analyze_benchmark" --benchmark_filter='BM_AnalyzeSms$|BM_AnalyzeSmsAll$|BM_AnalyzerCreate$' \
      --benchmark_repetitions=5 --benchmark_report_aggregates_only=true 2> /dev/null |
      grep -E '_median'
  done
  echo '```'
  echo
  echo "- load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "${out:-/dev/null}"
