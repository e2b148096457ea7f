#!/usr/bin/env bash
# Connection flood against scamcheckd (benchmarks/server/README.md): one
# loopback address (127.0.0.2) opens N sockets, each with a half-sent
# request head, while another (127.0.0.1) runs scans one after another for
# S seconds, with the server's default connection limits. Prints the
# figures as JSON (p50/p99/max scan latency, errors, what happened to the
# flood's sockets) and, with --out FILE, writes a Markdown report there
# (results go to benchmarks/results/). The short version runs in CTest
# (tests/server/http_hardening_test.py, test server_http_hardening).
#
#   benchmarks/server/connection_flood.sh [--binary build/adapters/server/scamcheckd]
#                                         [--flood 4200] [--seconds 60] [--out FILE]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
binary=$root/build/adapters/server/scamcheckd
flood=4200
seconds=60
out=
while (($#)); do
  case $1 in
    --binary) binary=$2; shift 2 ;;
    --flood) flood=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 64 ;;
  esac
done
# 4,200 sockets (more than the default --max-connections of 4,096) need as
# many descriptors; the Python side raises its soft limit up to the hard one.
figures=$(python3 - "$root/tests/server" "$binary" "$flood" "$seconds" <<'PY'
import json, os, sys
sys.path.insert(0, sys.argv[1])
import server_test, http_hardening_test as h
server_test.BINARY = os.path.abspath(sys.argv[2])
print(json.dumps(h.flood(int(sys.argv[3]), float(sys.argv[4]), ())))
PY
)
echo "$figures"
if [[ -n $out ]]; then
  commit=$(git -C "$root" rev-parse --short HEAD)
  {
    echo "# Connection flood, $(date -u +%F), commit $commit"
    echo
    echo "\`benchmarks/server/connection_flood.sh --flood $flood --seconds $seconds\`:"
    echo "one address (127.0.0.2) holds $flood half-sent request heads while another"
    echo "(127.0.0.1) scans for $seconds s on one keep-alive connection, reconnecting every"
    echo "50 scans; server defaults (--max-connections 4096, --max-connections-per-address"
    echo "256, --header-timeout 5), --workers 2, $(nproc) cores shared with the client."
    echo
    echo '```json'
    echo "$figures" | python3 -m json.tool
    echo '```'
  } >"$out"
fi
