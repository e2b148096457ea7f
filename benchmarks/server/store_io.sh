#!/usr/bin/env bash
# What a scan costs the SQLite store in system calls, for two scamcheckd
# binaries side by side: each on its own temporary SQLite file, SMS scans
# (scan.lua) at --connections while `perf stat` counts the server's
# pwrite64 (WAL frames: two calls per frame; checkpoint copies: one per
# page), pread64, fdatasync, futex (thread wake-ups and waits) and fcntl
# (SQLite's locks) calls, and beside them the connection's recvmsg, sendmsg
# and epoll_wait; divided by the requests of that run. Prints a Markdown table; --out
# writes it too.
#
# Usage: benchmarks/server/store_io.sh --base BIN --new BIN
#            [--seconds S] [--connections N] [--rounds N] [--out FILE]
# Needs wrk and perf (linux-perf).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
base=
new=
seconds=5
connections=64
rounds=1
out=
while (($#)); do
  case $1 in
    --base) base=$2; shift 2 ;;
    --new) new=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument $1" >&2; exit 64 ;;
  esac
done
for tool in wrk perf; do
  command -v $tool > /dev/null || { echo "$tool is not installed" >&2; exit 69; }
done
[[ -x $base && -x $new ]] || { echo "--base and --new must be scamcheckd binaries" >&2; exit 66; }

source "$here/lib.sh"

start() {  # NAME BINARY: started and warmed up
  local name=$1
  start_server "$name" "$2"
  SCAMCHECK_TOKEN=${token[$name]} wrk -t1 -c8 -d2s -s "$here/scan.lua" \
    "http://127.0.0.1:${port[$name]}/api/v1/scan" > /dev/null
}

events=pwrite64,pread64,fdatasync,futex,fcntl,recvmsg,sendmsg,epoll_wait
rows=()
start base "$base"
start new "$new"
for ((r = 0; r < rounds; ++r)); do
  for name in base new; do
    SCAMCHECK_TOKEN=${token[$name]} wrk -t2 -c"$connections" -d"$((seconds + 1))s" \
      -s "$here/scan.lua" "http://127.0.0.1:${port[$name]}/api/v1/scan" > "$work/wrk.txt" &
    wrk_pid=$!
    sleep 0.5
    perf stat -x, -e "$(sed 's/\([a-z0-9_]*\)/syscalls:sys_enter_\1/g' <<< "$events")" \
      -p "${pid[$name]}" -o "$work/stat.txt" -- sleep "$seconds" > /dev/null 2>&1
    wait "$wrk_pid"
    # Requests during the counted seconds: the run's rate times their length.
    rps=$(awk '/^Requests\/sec:/ { print $2 }' "$work/wrk.txt")
    row="| $name | $(printf '%.0f' "$rps")"
    for e in ${events//,/ }; do
      n=$(awk -F, -v e="syscalls:sys_enter_$e" '$3 == e { print $1 }' "$work/stat.txt")
      row+=" | $(awk -v n="${n:-0}" -v r="$rps" -v s="$seconds" 'BEGIN { printf "%.2f", n / (r * s) }')"
    done
    rows+=("$row |")
  done
done

report=$(
  cat << EOT
# scamcheckd: store system calls per scan, baseline and candidate

- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)
- commit: $(git -C "$root" rev-parse --short HEAD)
- base: $base
- new: $new
- machine: $(nproc) cores; wrk on the same machine; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)
- SMS scans (\`scan.lua\`) at $connections connections, \`--workers 2\`, SQLite (WAL); $seconds s counted per run, $rounds run(s) per binary, interleaved
- command: benchmarks/server/store_io.sh --base BASE --new NEW --seconds $seconds --connections $connections --rounds $rounds

System calls of the whole server process per request (the run's requests/s
times the counted seconds). pwrite64: two per WAL frame written at a
commit, one per page a checkpoint copies; pread64: one per page a
checkpoint reads from the WAL; futex: waits and wake-ups between threads;
fcntl: SQLite's file locks (a transaction, a checkpoint); recvmsg, sendmsg,
epoll_wait: the connections (a read that finds nothing yet is a recvmsg
too).

| binary | requests/s | pwrite64 | pread64 | fdatasync | futex | fcntl | recvmsg | sendmsg | epoll_wait |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
$(printf '%s\n' "${rows[@]}")
EOT
)
echo "$report"
[[ -n $out ]] && echo "$report" > "$out"
exit 0
