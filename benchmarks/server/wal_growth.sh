#!/usr/bin/env bash
# The SQLite WAL's size under a sustained burst of scans, for two scamcheckd
# binaries (a baseline and a candidate), one after the other: each on its
# own temporary SQLite file, SMS scans (scan.lua) at --connections for
# --seconds while the size of the -wal file is sampled every second.
# Prints a Markdown table (the WAL's size in MB every --every seconds, its
# largest size, and the run's requests/s and p99); --out writes it too.
#
# Usage: benchmarks/server/wal_growth.sh --base BIN --new BIN
#            [--seconds S] [--connections N] [--every S] [--out FILE]
#   --seconds S  length of the burst (default 40)
#   --every S    a column every S seconds (default 5)
# Needs wrk.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
base=
new=
seconds=40
connections=64
every=5
out=
while (($#)); do
  case $1 in
    --base) base=$2; shift 2 ;;
    --new) new=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --every) every=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument $1" >&2; exit 64 ;;
  esac
done
command -v wrk > /dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 69; }
[[ -x $base && -x $new ]] || { echo "--base and --new must be scamcheckd binaries" >&2; exit 66; }
((seconds > 0 && seconds <= 600)) || { echo "--seconds must be 1..600" >&2; exit 64; }

source "$here/lib.sh"

mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }

rows=()
run() {  # NAME BINARY
  local name=$1 bin=$2 db="$work/$1.db" size max=0 row i
  start_server "$name" "$bin"
  SCAMCHECK_TOKEN=${token[$name]} wrk -t"$((connections < 2 ? 1 : 2))" -c"$connections" \
    -d"${seconds}s" --latency -s "$here/scan.lua" \
    "http://127.0.0.1:${port[$name]}/api/v1/scan" > "$work/$name-wrk.txt" &
  local wrk_pid=$!
  row="| $name"
  for ((i = 1; i <= seconds; ++i)); do
    sleep 1
    size=$(stat -c %s "$db-wal" 2> /dev/null || echo 0)
    ((size > max)) && max=$size
    ((i % every == 0)) && row+=" | $(mb "$size")"
  done
  wait "$wrk_pid"
  sleep 1
  size=$(stat -c %s "$db-wal" 2> /dev/null || echo 0)
  row+=" | $(mb "$max") | $(mb "$size") | $(rps "$work/$name-wrk.txt")"
  row+=" | $(ms "$work/$name-wrk.txt" 99) | $(errs "$work/$name-wrk.txt") |"
  rows+=("$row")
  kill -TERM "${pid[$name]}" && wait "${pid[$name]}" 2> /dev/null || true
}
run base "$base"
run new "$new"

head="| binary"
sep="|---"
for ((i = every; i <= seconds; i += every)); do head+=" | ${i} s"; sep+="|---:"; done
head+=" | largest | 1 s after | requests/s | p99 ms | errors |"
sep+="|---:|---:|---:|---:|---|"

report=$(
  cat << EOT
# scamcheckd: WAL size under a sustained burst, baseline and candidate

- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)
- commit: $(git -C "$root" rev-parse --short HEAD)
- base: $base
- new: $new
- machine: $(nproc) cores; wrk on the same machine; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)
- SMS scans (\`scan.lua\`) at $connections connections for $seconds s, \`--workers 2\`, SQLite (WAL), one binary after the other
- command: benchmarks/server/wal_growth.sh --base BASE --new NEW --seconds $seconds --connections $connections --every $every

Size of the \`-wal\` file in MB (MiB) during the burst, sampled every second;
"largest" is the largest sample, "1 s after" the size a second after the
burst ended.

$head
$sep
$(printf '%s\n' "${rows[@]}")
EOT
)
echo "$report"
[[ -n $out ]] && echo "$report" > "$out"
exit 0
