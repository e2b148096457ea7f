#!/usr/bin/env bash
# ScamCheck beside Rspamd and SpamAssassin: quality and speed on the same
# dev messages, offline (benchmarks/compare/README.md). Installs rspamd,
# spamassassin, spamd and wrk from Debian when missing (needs root), then
# runs compare.py and writes benchmarks/results/<date>-<commit>-compare.md.
#
#   benchmarks/compare/run.sh [--build DIR] [--corpus-dir DIR] [--duration S] [--no-out] [--quick]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$root/build
corpus_dir=${SCAMCHECK_CORPUS_DIR:-$root/../shared/corpus}
duration=5
write=1
quick=
while (($#)); do
  case $1 in
    --build) build=$2; shift 2 ;;
    --corpus-dir) corpus_dir=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --no-out) write=0; shift ;;
    --quick) quick=--quick; write=0; shift ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 64 ;;
  esac
done

missing=()
command -v rspamd >/dev/null || missing+=(rspamd)
command -v spamassassin >/dev/null || missing+=(spamassassin)
command -v spamd >/dev/null || missing+=(spamd)
command -v wrk >/dev/null || missing+=(wrk)
if ((${#missing[@]})); then
  echo "installing ${missing[*]} from Debian" >&2
  # The packages' service units are not started here (no systemd in
  # containers); policy-rc.d keeps them from starting elsewhere too.
  own_policy=0
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    own_policy=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >&2 ||
    { if ((own_policy)); then rm -f /usr/sbin/policy-rc.d; fi; exit 69; }
  if ((own_policy)); then rm -f /usr/sbin/policy-rc.d; fi
fi

cli=$build/adapters/cli/scamcheck
server=$build/adapters/server/scamcheckd
for b in "$cli" "$server"; do
  [[ -x $b ]] || { echo "run.sh: $b not found; build the Release targets scamcheck_cli and scamcheckd" >&2; exit 66; }
done
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$root" status --porcelain 2>/dev/null | grep -q . && commit="$commit-dirty"
out=
((write)) && out=$root/benchmarks/results/$(date -u +%F)-$commit-compare.md
# The whole run is bounded: compare.py bounds each phase, this the total.
timeout --signal=TERM --kill-after=30 900 \
  python3 "$here/compare.py" --corpus-dir "$corpus_dir" --cli "$cli" --server "$server" \
    --duration "$duration" --commit "$commit" ${out:+--out "$out"} $quick
[[ -n $out ]] && echo "written: $out" >&2
exit 0
