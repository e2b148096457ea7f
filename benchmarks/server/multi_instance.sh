#!/usr/bin/env bash
# Scan throughput of scamcheckd on its two stores, in one run on one machine
# (loopback): wrk POST /api/v1/scan (SMS-size text, benchmarks/server/scan.lua,
# a token of a plan without daily limit) against
#   1. one instance on SQLite (the baseline),
#   2. one instance on PostgreSQL 15 (a cluster of its own, default
#      durability: fsync and synchronous_commit on),
#   3. two instances on that PostgreSQL database behind HAProxy, with the
#      committed examples/deploy/haproxy.cfg (ports adjusted).
# For each: requests/s, p50/p99 latency, and the CPU time per request of
# scamcheckd (all instances), of PostgreSQL (postmaster and backends) and of
# HAProxy. Bounded: warm-up 2 s and --duration s per configuration. Prints a
# Markdown report; --out FILE also writes it (benchmarks/results/).
#
#   benchmarks/server/multi_instance.sh [--binary build/adapters/server/scamcheckd]
#       [--duration 15] [--connections 64] [--workers 2] [--out FILE]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
binary=$root/build/adapters/server/scamcheckd
duration=15
connections=64
workers=2
out=
while (($#)); do
  case $1 in
    --binary) binary=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --workers) workers=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 64 ;;
  esac
done
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 69; }
haproxy=$(command -v haproxy || echo /usr/sbin/haproxy)
[[ -x $haproxy ]] || { echo "haproxy is not installed (apt-get install haproxy)" >&2; exit 69; }
[[ -x /usr/lib/postgresql/15/bin/postgres ]] ||
  { echo "PostgreSQL 15 is not installed (apt-get install postgresql-15)" >&2; exit 69; }
[[ -x $binary ]] || { echo "no scamcheckd at $binary (build first)" >&2; exit 66; }

work=$(mktemp -d)
chmod 755 "$work"
pg_dir=$work/pg
pids=()
haproxy_pid=
cleanup() {
  [[ -n $haproxy_pid ]] && kill "$haproxy_pid" 2>/dev/null || true
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done
  python3 "$root/tests/server/pg_cluster.py" stop "$pg_dir" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

python3 "$root/tests/server/pg_cluster.py" start "$pg_dir" max_connections=100 >/dev/null
pg_port=$(cat "$pg_dir/port")
/usr/lib/postgresql/15/bin/psql -X -q -d "postgresql://postgres@127.0.0.1:$pg_port/postgres" \
  -c "CREATE DATABASE bench"
pg_url="postgresql://postgres@127.0.0.1:$pg_port/bench"
postmaster=$(head -1 "$pg_dir/data/postmaster.pid")

start_server() {  # DATABASE PORT: starts one instance, appends its pid to pids
  "$binary" serve --listen "127.0.0.1:$2" --database "$1" --workers "$workers" \
    --log-level notice --max-connections 1024 --max-connections-per-address 0 \
    --scan-per-minute 0 --reads-per-minute 0 >/dev/null 2>"$work/serve-$2.log" &
  pids+=($!)
  for _ in $(seq 100); do
    grep -q '"event":"listening"' "$work/serve-$2.log" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "scamcheckd did not start" >&2; cat "$work/serve-$2.log" >&2; exit 70
}
stop_servers() {
  for pid in "${pids[@]}"; do kill -TERM "$pid"; wait "$pid" || true; done
  pids=()
}
token_for() {  # DATABASE
  "$binary" user create --email bench@example.com --name bench --plan pro --database "$1" \
    --password-stdin <<<"benchmark password" >/dev/null 2>&1 || true
  "$binary" token create --email bench@example.com --name "bench-$RANDOM$RANDOM" \
    --abilities scan:create --database "$1"
}
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# CPU ticks (user + system) of processes, children that exited included.
ticks() { for pid in "$@"; do awk '{ print $14 + $15 + $16 + $17 }' "/proc/$pid/stat"; done |
          awk '{ t += $1 } END { print t + 0 }'; }
pg_ticks() { ticks "$postmaster" $(ps -o pid= --ppid "$postmaster"); }
hz=$(getconf CLK_TCK)
percentile() {  # FILE PCT: wrk --latency percentile in ms
  awk -v p="$2%" '$1 == p { v = $2; u = v; sub(/[0-9.]+/, "", u); sub(/[a-z]+$/, "", v);
    if (u == "us") v /= 1000; else if (u == "s") v *= 1000; printf "%.2f", v }' "$1"
}
per_request() {  # TICKS REQUESTS: CPU µs per request
  awk -v t="$1" -v hz="$hz" -v n="$2" 'BEGIN { if (n > 0) printf "%.0f", t / hz * 1e6 / n; else print "-" }'
}

rows=()
measure() {  # LABEL URL
  local label=$1 url=$2 s0 p0 h0 s1 p1 h1 n
  wrk -t2 -c8 -d2s -s "$here/scan.lua" "$url" >/dev/null  # warm-up
  s0=$(ticks "${pids[@]}"); p0=$(pg_ticks); h0=$([[ -n $haproxy_pid ]] && ticks "$haproxy_pid" || echo 0)
  wrk -t2 -c"$connections" -d"${duration}s" --latency -s "$here/scan.lua" "$url" >"$work/wrk.txt"
  s1=$(ticks "${pids[@]}"); p1=$(pg_ticks); h1=$([[ -n $haproxy_pid ]] && ticks "$haproxy_pid" || echo 0)
  n=$(awk '/requests in/ { print $1 }' "$work/wrk.txt")
  rows+=("| $label | $(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$work/wrk.txt") | $(percentile "$work/wrk.txt" 50) | $(percentile "$work/wrk.txt" 99) | $(per_request $((s1 - s0)) "$n") | $(per_request $((p1 - p0)) "$n") | $(per_request $((h1 - h0)) "$n") | $(per_request $((s1 - s0 + p1 - p0 + h1 - h0)) "$n") | $(awk '/Non-2xx|Socket errors/ { print }' "$work/wrk.txt" | tr '\n' ' ') |")
}

# 1. One instance on SQLite.
port=$(free_port)
start_server "sqlite:$work/bench.db" "$port"
export SCAMCHECK_TOKEN
SCAMCHECK_TOKEN=$(token_for "sqlite:$work/bench.db")
measure "1 × SQLite" "http://127.0.0.1:$port/api/v1/scan"
stop_servers

# 2. One instance on PostgreSQL.
port=$(free_port)
start_server "$pg_url" "$port"
SCAMCHECK_TOKEN=$(token_for "$pg_url")
measure "1 × PostgreSQL" "http://127.0.0.1:$port/api/v1/scan"
stop_servers

# 3. Two instances on PostgreSQL behind HAProxy.
a=$(free_port); b=$(free_port); front=$(free_port)
start_server "$pg_url" "$a"
start_server "$pg_url" "$b"
sed -e "s/\*:8080/127.0.0.1:$front/" -e "s/127.0.0.1:8081/127.0.0.1:$a/" \
    -e "s/127.0.0.1:8082/127.0.0.1:$b/" -e '/^\s*\(user\|group\|daemon\|log\) /d' \
    "$root/examples/deploy/haproxy.cfg" >"$work/haproxy.cfg"
"$haproxy" -db -f "$work/haproxy.cfg" >"$work/haproxy.log" 2>&1 &
haproxy_pid=$!
for _ in $(seq 100); do
  [[ $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$front/health") == 200 ]] && break
  sleep 0.1
done
measure "2 × PostgreSQL + HAProxy" "http://127.0.0.1:$front/api/v1/scan"
kill "$haproxy_pid"; wait "$haproxy_pid" 2>/dev/null || true; haproxy_pid=
stop_servers

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$root" status --porcelain 2>/dev/null | grep -q . && echo "+changes" || true)
cpu=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
report=$(cat <<EOT
## scamcheckd on SQLite and PostgreSQL, one and two instances ($(date -u +%Y-%m-%d), commit $commit$dirty)

Machine: $(nproc) cores ($cpu), $(uname -sr); everything on it: wrk (2
threads, $connections connections, ${duration} s per configuration after a
2 s warm-up), every scamcheckd (\`--workers $workers\` each), PostgreSQL 15
(own cluster, default durability: \`fsync\` and \`synchronous_commit\` on),
HAProxy $("$haproxy" -v | awk 'NR == 1 { print $3 }') with examples/deploy/haproxy.cfg. Load average at
the end: $(cut -d' ' -f1-3 /proc/loadavg). CPU columns: user + system CPU
time of those processes during the run divided by its requests (µs).
The baseline is the first row, measured in the same run.

| configuration | requests/s | p50 ms | p99 ms | scamcheckd CPU µs/req | PostgreSQL CPU µs/req | HAProxy CPU µs/req | total CPU µs/req | errors |
|---|---:|---:|---:|---:|---:|---:|---:|---|
$(printf '%s\n' "${rows[@]}")
EOT
)
echo "$report"
[[ -n $out ]] && echo "$report" >"$out"
exit 0
