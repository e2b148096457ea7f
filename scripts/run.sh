#!/usr/bin/env bash
# Builds ScamCheck (Release) into build/ and scans a message with the
# `scamcheck` command-line scanner.
#
#   scripts/run.sh            scan two sample messages (a scam and a harmless one)
#   scripts/run.sh FILE...    scan your own files (raw bytes; --kind text)
#
# Installs the Debian packages it needs first (scripts/install-deps.sh; as
# root, or through sudo when available).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ $(id -u) -eq 0 ]] || ! command -v sudo >/dev/null; then
  bash scripts/install-deps.sh
else
  sudo bash scripts/install-deps.sh
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release ${SCAMCHECK_CMAKE_ARGS:-}
cmake --build build -j"$(nproc)" --target scamcheck_cli
scamcheck=build/adapters/cli/scamcheck

scan() {  # scan FILE: prints the readable report and the exit status
  local rc=0
  echo "==> scamcheck --format text $1"
  "$scamcheck" --format text "$1" || rc=$?
  case $rc in
    0) echo "(exit 0: safe)" ;;
    1) echo "(exit 1: suspicious)" ;;
    2) echo "(exit 2: danger)" ;;
    *) echo "(exit $rc: error; see scamcheck --help)"; return "$rc" ;;
  esac
  echo
}

if (($#)); then
  for f in "$@"; do scan "$f"; done
  exit 0
fi

samples=$(mktemp -d)
trap 'rm -rf "$samples"' EXIT
cat >"$samples/parcel-scam.txt" <<'MSG'
DHL: Your parcel is on hold because of an unpaid customs fee. Pay 1.99 EUR within 24 hours or it will be returned to the sender: https://dhl-paket-zoll.example.top/pay?id=88213 Enter your card number and the code we send you to confirm.
MSG
cat >"$samples/family.txt" <<'MSG'
Hi mum, the train is late again, I'll be home around 7. Can you save me some dinner? Love, Anna
MSG
scan "$samples/parcel-scam.txt"
scan "$samples/family.txt"
echo "Scan your own message: $scamcheck --format text FILE   (or: echo 'text' | $scamcheck)"
