# Shared by the server benchmarks (sourced after `set -euo pipefail`): a
# temporary directory `work`, removed on exit with every server stopped,
# scamcheckd started on loopback with a user and a scan token, and readers
# of wrk's output.

work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2> /dev/null && wait "$p" 2> /dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# start_server NAME BINARY [WORKERS] [MAX_CONNECTIONS]: `BINARY serve` on a
# free loopback port with its own SQLite file $work/NAME.db (no per-client
# or per-minute limits; at most MAX_CONNECTIONS, default 512), then a pro
# user with a scan:create token. Sets port[NAME], token[NAME] and
# pid[NAME]; the log is $work/NAME.log.
declare -A port token pid
start_server() {
  local name=$1 bin=$2 workers=${3:-2} max=${4:-512} db="sqlite:$work/$1.db" p=
  "$bin" serve --listen 127.0.0.1:0 --database "$db" --workers "$workers" --log-level notice \
    --max-connections "$max" --idle-timeout 600 \
    --max-connections-per-address 0 --scan-per-minute 0 --reads-per-minute 0 \
    > "$work/$name.out" 2> "$work/$name.log" &
  pid[$name]=$!
  pids+=($!)
  for _ in $(seq 100); do
    p=$(grep -o '"event":"listening"[^}]*"port":[0-9]*' "$work/$name.log" 2> /dev/null |
      grep -o '[0-9]*$' || true)
    [[ -n $p ]] && break
    sleep 0.1
  done
  [[ -n $p ]] || { echo "scamcheckd ($name) did not start" >&2; cat "$work/$name.log" >&2; exit 70; }
  port[$name]=$p
  "$bin" user create --email bench@example.com --name bench --plan pro --database "$db" \
    <<< "benchmark password" > /dev/null
  token[$name]=$("$bin" token create --email bench@example.com --name bench \
    --abilities scan:create --database "$db")
}

ms() {  # FILE PCT: a wrk latency percentile in ms
  awk -v p="$2%" '$1 == p { v = $2; u = v; sub(/[0-9.]+/, "", u); sub(/[a-z]+$/, "", v);
    if (u == "us") v /= 1000; else if (u == "s") v *= 1000; printf "%.3f", v }' "$1"
}
rps() { awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$1"; }
errs() { awk '/Non-2xx|Socket errors/ { print }' "$1" | tr '\n' ' '; }
