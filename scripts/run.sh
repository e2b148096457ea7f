#!/usr/bin/env bash
# Builds ScamCheck (Release) into build/ and starts the reference server,
# scamcheckd, on SQLite (./scamcheck.db), with a first user and an API token
# ready: the token is printed once, on the first start.
#
#   scripts/run.sh                 start scamcheckd on 127.0.0.1:8080 (Ctrl-C stops it)
#   scripts/run.sh scan [FILE...]  scan files with the command-line scanner
#                                  (two sample messages when no FILE is given)
#
# Installs the Debian packages it needs first (scripts/install-deps.sh; as
# root, or through sudo when available). SCAMCHECK_LISTEN and
# SCAMCHECK_DATABASE change the address and the database.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ $(id -u) -eq 0 ]] || ! command -v sudo >/dev/null; then
  bash scripts/install-deps.sh
else
  sudo bash scripts/install-deps.sh
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release ${SCAMCHECK_CMAKE_ARGS:-}
cmake --build build -j"$(nproc)" --target scamcheck_cli scamcheckd
scamcheck=build/adapters/cli/scamcheck
scamcheckd=build/adapters/server/scamcheckd

if [[ ${1:-} != scan ]]; then
  listen=${SCAMCHECK_LISTEN:-127.0.0.1:8080}
  cat <<EOF
Starting scamcheckd on http://$listen (database ${SCAMCHECK_DATABASE:-sqlite:scamcheck.db}).
On the first start it prints an API token for admin@localhost; then, from another terminal:

  TOKEN=sck_...   # the value printed below
  curl -s http://$listen/api/v1/scan -H "Authorization: Bearer \$TOKEN" \\
    -H 'Content-Type: application/json' \\
    -d '{"content": "Your parcel is on hold. Pay 1.99 EUR at https://dhl-track.example.top"}'
  curl -s http://$listen/docs/api     # the OpenAPI description

EOF
  exec "$scamcheckd" serve --bootstrap --listen "$listen"
fi
shift

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
