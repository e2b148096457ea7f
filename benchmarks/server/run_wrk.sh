#!/usr/bin/env bash
# Load test of scamcheckd with wrk on loopback (benchmarks/server/README.md):
# POST /api/v1/scan (SMS-size text, unlimited token) and GET /health, at
# 64 connections, then again with 1,000 idle keep-alive connections open
# beside the load. Prints a Markdown table; with --out FILE also writes it
# there (results go to benchmarks/results/).
#
#   benchmarks/server/run_wrk.sh [--binary build/adapters/server/scamcheckd]
#                                [--duration 15] [--connections 64] [--idle 1000]
#                                [--workers N] [--wrk-threads 2] [--out FILE]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
binary=$root/build/adapters/server/scamcheckd
duration=15
connections=64
idle=1000
workers=$(nproc)
wrk_threads=2
out=
while (($#)); do
  case $1 in
    --binary) binary=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --idle) idle=$2; shift 2 ;;
    --workers) workers=$2; shift 2 ;;
    --wrk-threads) wrk_threads=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 64 ;;
  esac
done
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 69; }
[[ -x $binary ]] || { echo "no scamcheckd at $binary (build first)" >&2; exit 66; }

source "$here/lib.sh"
# Throughput from one address: no per-address connection cap and no
# per-minute scan allowance (both would refuse the load by design).
start_server bench "$binary" "$workers" $((idle + connections + 256))
server_pid=${pid[bench]}
port=${port[bench]}
export SCAMCHECK_TOKEN=${token[bench]}
# Warm up (page cache, SQLite file growth).
wrk -t1 -c8 -d2s -s "$here/scan.lua" "http://127.0.0.1:$port/api/v1/scan" >/dev/null

# CPU time the server used so far, in clock ticks (utime + stime).
server_ticks() { awk '{ print $14 + $15 }' "/proc/$server_pid/stat"; }
ticks_per_second=$(getconf CLK_TCK)
# Server CPU microseconds per request of a wrk run: FILE TICKS_BEFORE TICKS_AFTER.
cpu_per_request() {
  local n
  n=$(awk '/requests in/ { print $1 }' "$1")
  awk -v t=$(($3 - $2)) -v hz="$ticks_per_second" -v n="$n" \
    'BEGIN { if (n > 0) printf "%.0f", t / hz * 1e6 / n }'
}

rows=()
load() {  # NAME URL [SCRIPT]: one wrk run into $work/NAME.txt, CPU use into $work/NAME.cpu
  local name=$1 url=$2 before after
  before=$(server_ticks)
  wrk -t"$wrk_threads" -c"$connections" -d"${duration}s" --latency ${3:+-s "$3"} "$url" \
    >"$work/$name.txt"
  after=$(server_ticks)
  cpu_per_request "$work/$name.txt" "$before" "$after" >"$work/$name.cpu"
}
run() {  # LABEL
  local label=$1 s h
  load scan "http://127.0.0.1:$port/api/v1/scan" "$here/scan.lua"
  load health "http://127.0.0.1:$port/health"
  s=$(rps "$work/scan.txt")
  h=$(rps "$work/health.txt")
  rows+=("| $label | POST /api/v1/scan | $s | $(ms "$work/scan.txt" 50) | $(ms "$work/scan.txt" 99) | $(cat "$work/scan.cpu") | $(errs "$work/scan.txt") |")
  rows+=("| $label | GET /health | $h | $(ms "$work/health.txt" 50) | $(ms "$work/health.txt" 99) | $(cat "$work/health.cpu") | $(errs "$work/health.txt") |")
  rows+=("| $label | scan / health | $(awk -v s="$s" -v h="$h" 'BEGIN { printf "%.0f%%", 100 * s / h }') | | | | |")
}

run "$connections connections"
python3 "$here/idle_connections.py" "$port" "$idle" >"$work/idle.out" &
idle_pid=$!
pids+=("$idle_pid")
for _ in $(seq 600); do
  grep -q '^ready' "$work/idle.out" && break
  kill -0 "$idle_pid" 2>/dev/null || { echo "idle connections failed" >&2; exit 70; }
  sleep 0.1
done
grep -q "^ready $idle\$" "$work/idle.out" || { echo "idle connections not ready" >&2; exit 70; }
run "$connections + $idle idle"
kill -TERM "$idle_pid"
wait "$idle_pid" || true
idle_pid=
still_open=$(awk '/^still open/ { print $3 }' "$work/idle.out")

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$root" status --porcelain 2>/dev/null | grep -q . && echo "+changes" || true)
cpu=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
report=$(cat <<EOT
## scamcheckd under wrk ($(date -u +%Y-%m-%d), commit $commit$dirty)

Machine: $(nproc) cores ($cpu), $(uname -sr). Server: \`--workers $workers\`, SQLite
(WAL) in $work; wrk $wrk_threads threads on the same machine, ${duration} s per run;
SMS-size text (benchmarks/server/scan.lua), token of a plan without a daily limit.
Idle connections after the loaded runs: $still_open of $idle. Load average at the
end: $(cut -d' ' -f1-3 /proc/loadavg). \`server CPU µs/request\` is the server
process's user + system CPU time during a run divided by its requests: the
cost of a request independent of what else runs on the machine.

| run | request | requests/s | p50 ms | p99 ms | server CPU µs/request | errors |
|---|---|---:|---:|---:|---:|---|
$(printf '%s\n' "${rows[@]}")
EOT
)
echo "$report"
[[ -n $out ]] && echo "$report" >"$out"
exit 0
