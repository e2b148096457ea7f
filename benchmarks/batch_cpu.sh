#!/usr/bin/env bash
# CPU time of `scamcheck --jsonl --threads 1` over the dev SMS, for two
# builds alternating: user + system seconds per run (from /usr/bin/time) and
# SMS per CPU-second. On a machine shared with other work, wall-clock
# throughput (batch_throughput.sh) measures the other work as much as the
# build; CPU seconds move much less. One worker, so the figure is the
# per-core rate: two threads on an idle 2-core machine reach at most twice
# it.
#
# Usage: benchmarks/batch_cpu.sh --base DIR --new DIR [--count N] [--rounds N]
#                                [--corpus-dir DIR]
#   --base DIR, --new DIR  build directories holding adapters/cli/scamcheck
#   --count N              input lines (default 100000: the SMS in turn)
#   --rounds N             runs per build, alternating (default 3); the
#                          median is reported
#   --corpus-dir DIR       corpora (default $SCAMCHECK_CORPUS_DIR or ../shared/corpus)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
base=
new=
count=100000
rounds=3
corpus_dir=${SCAMCHECK_CORPUS_DIR:-$repo/../shared/corpus}
while [[ $# -gt 0 ]]; do
  case $1 in
    --base) base=$2; shift 2 ;;
    --new) new=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --corpus-dir) corpus_dir=$2; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "batch_cpu.sh: unknown argument: $1" >&2; exit 64 ;;
  esac
done
[[ -n $base && -n $new ]] || { echo "batch_cpu.sh: --base and --new are required" >&2; exit 64; }
for dir in "$base" "$new"; do
  [[ -x $dir/adapters/cli/scamcheck ]] || { echo "batch_cpu.sh: $dir/adapters/cli/scamcheck not found" >&2; exit 66; }
done
[[ -x /usr/bin/time ]] || { echo "batch_cpu.sh: /usr/bin/time not installed" >&2; exit 69; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$corpus_dir" "$count" > "$work/input.jsonl" <<'EOF'
import glob, json, os, sys
texts = []
for path in sorted(glob.glob(os.path.join(sys.argv[1], "sms_*", "dev.jsonl"))):
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r.get("kind") == "text":
                texts.append(r["text"])
if not texts:
    sys.exit("batch_cpu.sh: no text records under " + sys.argv[1])
for i in range(int(sys.argv[2])):
    print(json.dumps({"id": i, "kind": "text", "content": texts[i % len(texts)]}, ensure_ascii=False))
EOF

echo "# CPU time of the SMS batch: baseline and candidate builds"
echo
echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "- commit: $(git -C "$repo" rev-parse --short HEAD)"
echo "- base: $base"
echo "- new: $new"
echo "- machine: $(nproc) cores; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- input: $count lines, the text records of $corpus_dir/sms_*/dev.jsonl in turn"
echo "- command: benchmarks/batch_cpu.sh --base BASE --new NEW --count $count --rounds $rounds"
echo
echo "| build | run | user s | system s | wall s | SMS per CPU-second |"
echo "|---|---:|---:|---:|---:|---:|"
declare -A cpu
for ((r = 1; r <= rounds; ++r)); do
  for b in base new; do
    dir=$base
    [[ $b == new ]] && dir=$new
    /usr/bin/time -f "%U %S %e" -o "$work/time" "$dir/adapters/cli/scamcheck" --jsonl --threads 1 \
      < "$work/input.jsonl" > /dev/null
    read -r user sys wall < "$work/time"
    rate=$(python3 -c "print(round($count / ($user + $sys)))")
    cpu[$b]+="$rate "
    echo "| $b | $r | $user | $sys | $wall | $rate |"
  done
done
echo
for b in base new; do
  echo "- $b: median $(python3 -c "import statistics,sys; print(round(statistics.median(map(int, sys.argv[1:]))))" ${cpu[$b]}) SMS per CPU-second"
done
echo "- load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
