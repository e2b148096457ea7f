#!/usr/bin/env bash
# Scan latency and throughput of two scamcheckd binaries side by side in one
# run (a baseline and a candidate), each on its own temporary SQLite file,
# the runs interleaved so both see the same machine load:
#   - idle RSS right after start (no scan yet, no image OCRed);
#   - POST /api/v1/scan of an SMS at 1 connection (latency floor) and at 64;
#   - POST /api/v1/scan of a ~20 KB e-mail at 16 connections.
# Prints one Markdown table (requests/s, p50, p99, server CPU µs per request
# per binary, and how much of the machine stayed idle in each run).
#
# Usage: benchmarks/server/latency_compare.sh --base BIN --new BIN
#            [--duration S] [--rounds N] [--workers N] [--out FILE]
#   --duration S  seconds per wrk run (default 10)
#   --rounds N    runs per case and binary, alternating; the median run by
#                 requests/s is reported (default 1)
# Needs wrk and python3.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
base=
new=
duration=10
rounds=1
workers=$(nproc)
out=
while (($#)); do
  case $1 in
    --base) base=$2; shift 2 ;;
    --new) new=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --workers) workers=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument $1" >&2; exit 64 ;;
  esac
done
command -v wrk > /dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 69; }
[[ -x $base && -x $new ]] || { echo "--base and --new must be scamcheckd binaries" >&2; exit 66; }

source "$here/lib.sh"

# A ~20 KB e-mail: a plain-text and an HTML part of an ordinary newsletter.
python3 - > "$work/email.json" << 'EOF'
import json
para = ("Our spring catalogue is out. This week: garden chairs, outdoor lights and "
        "planters at the usual prices. Opening hours are unchanged, and the shop in "
        "the high street takes returns within 30 days. ")
text = "\n\n".join(f"{i}. {para}" for i in range(48))
html = "".join(f"<p>{i}. {para} <a href=\"https://shop.example.com/c/{i}\">more</a></p>"
               for i in range(40))
mail = ("From: Example Shop <news@shop.example.com>\r\nTo: reader@example.org\r\n"
        "Subject: Spring catalogue\r\nMIME-Version: 1.0\r\n"
        "Content-Type: multipart/alternative; boundary=\"b1\"\r\n\r\n"
        "--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + text +
        "\r\n--b1\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body>" + html +
        "</body></html>\r\n--b1--\r\n")
print(json.dumps({"kind": "email", "locale": "en", "content": mail}))
EOF
email_bytes=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["content"]))' "$work/email.json")
cat > "$work/email.lua" << EOF
wrk.method = "POST"
local f = io.open("$work/email.json", "rb")
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("SCAMCHECK_TOKEN")
EOF

rss_mb() { awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/${pid[$1]}/status"; }

start_server base "$base" "$workers"
start_server new "$new" "$workers"
sleep 2
rss_base=$(rss_mb base)
rss_new=$(rss_mb new)
# Warm-up (RE2 builds its DFA states lazily), not measured.
for name in base new; do
  SCAMCHECK_TOKEN=${token[$name]} wrk -t1 -c8 -d2s -s "$here/scan.lua" \
    "http://127.0.0.1:${port[$name]}/api/v1/scan" > /dev/null
  SCAMCHECK_TOKEN=${token[$name]} wrk -t1 -c4 -d1s -s "$work/email.lua" \
    "http://127.0.0.1:${port[$name]}/api/v1/scan" > /dev/null
done


# CPU time of a server process so far (user + system), in clock ticks, and
# per request of a wrk run: the figure that moves least with what else runs.
ticks() { awk '{ print $14 + $15 }' "/proc/${pid[$1]}/stat"; }
cpu_us() {  # FILE TICKS
  awk -v t="$2" -v hz="$(getconf CLK_TCK)" '/ requests in / { printf "%.0f", t * 1e6 / hz / $1 }' "$1"
}

# Idle and I/O-wait ticks of the whole machine, and all ticks (/proc/stat):
# how much of the cores no process used during a run.
machine_ticks() { awk '/^cpu / { printf "%.0f %.0f\n", $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }

rows=()
case_run() {  # LABEL CONNECTIONS SCRIPT
  local label=$1 c=$2 script=$3 t name r f all
  t=$((c < 2 ? 1 : 2))
  declare -A best
  for name in base new; do : > "$work/$name.runs"; done
  for ((r = 0; r < rounds; ++r)); do
    for name in base new; do
      f="$work/$name-$c-$r.txt"
      t0=$(ticks "$name")
      read -r i0 a0 < <(machine_ticks)
      SCAMCHECK_TOKEN=${token[$name]} wrk -t"$t" -c"$c" -d"${duration}s" --latency -s "$script" \
        "http://127.0.0.1:${port[$name]}/api/v1/scan" > "$f"
      t1=$(ticks "$name")
      read -r i1 a1 < <(machine_ticks)
      idle=$(awk -v i=$((i1 - i0)) -v a=$((a1 - a0)) 'BEGIN { printf "%.0f", (a > 0 ? 100 * i / a : 0) }')
      echo "$(rps "$f") $f $(ms "$f" 99) $(cpu_us "$f" $((t1 - t0))) $idle" >> "$work/$name.runs"
    done
  done
  for name in base new; do
    f=$(sort -n "$work/$name.runs" | awk '{ a[NR] = $2 } END { print a[int((NR + 1) / 2)] }')
    all=$(awk '{ printf "%s%s/%s/%s/%s", (NR > 1 ? ", " : ""), $1, $3, $4, $5 }' "$work/$name.runs")
    cpu=$(awk -v f="$f" '$2 == f { print $4 }' "$work/$name.runs")
    rows+=("| $label | $name | $(rps "$f") | $(ms "$f" 50) | $(ms "$f" 99) | $cpu | $all | $(errs "$f") |")
  done
}
case_run "SMS, 1 connection" 1 "$here/scan.lua"
case_run "SMS, 64 connections" 64 "$here/scan.lua"
case_run "e-mail ${email_bytes} B, 16 connections" 16 "$work/email.lua"

cpu=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
report=$(
  cat << EOT
# scamcheckd: baseline and candidate side by side

- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)
- commit: $(git -C "$root" rev-parse --short HEAD)
- base: $base
- new: $new
- machine: $(nproc) cores ($cpu); wrk on the same machine; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)
- each server: \`--workers $workers\`, SQLite (WAL) in a temporary directory; ${duration} s per wrk run, $rounds run(s) per case and binary, interleaved (the median run by requests/s is shown)
- command: benchmarks/server/latency_compare.sh --base BASE --new NEW --duration $duration --rounds $rounds

Idle RSS right after start, before any scan: base $rss_base MB, new $rss_new MB.

Server CPU µs/request: user + system time of the server process during the
run divided by its requests (all threads: I/O, store writer, checkpoints).
Idle %: the share of the machine's CPU time (all cores) that no process
used during the run (idle and I/O wait, /proc/stat); near 0 when the run
was bound by CPU (the server, wrk, the kernel and anything else running).

| case | binary | requests/s | p50 ms | p99 ms | server CPU µs/request | every run: requests/s / p99 ms / CPU µs / idle % | errors |
|---|---|---:|---:|---:|---:|---|---|
$(printf '%s\n' "${rows[@]}")
EOT
)
echo "$report"
[[ -n $out ]] && echo "$report" > "$out"
exit 0
