#!/usr/bin/env bash
# Builds the zstd dictionary the SQLite store compresses reports with
# (storage/report_codec.h): starts BINARY on a temporary SQLite file, scans
# the project's own fixture messages (tests/fixtures: the texts and URLs of
# *.jsonl and the e-mails of email/**/*.eml, written for the tests, no
# corpus text) in every locale of the
# library, and trains a dictionary on the reports
# (`zstd --train`). Stored rows name their dictionary by its ID, so a
# dictionary that rows use must never change: a new one gets the next ID
# and a file of its own, and the codec keeps every older one.
#
# Usage: adapters/server/tools/make_report_dictionary.sh --binary BIN --id N --out FILE
#            [--fixtures DIR]
# Needs zstd and python3.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
binary=
id=
out=
fixtures=$root/tests/fixtures
while (($#)); do
  case $1 in
    --binary) binary=$2; shift 2 ;;
    --id) id=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --fixtures) fixtures=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument $1" >&2; exit 64 ;;
  esac
done
[[ -x $binary && -n $id && -n $out ]] || { echo "--binary, --id and --out are required" >&2; exit 64; }
command -v zstd > /dev/null || { echo "zstd is not installed (apt-get install zstd)" >&2; exit 69; }

source "$root/benchmarks/server/lib.sh"
start_server dict "$binary" 2
locales=$(cd "$root/libscamcheck/data/locales" && ls *.json | sed 's/\.json$//' | paste -sd, -)
mkdir "$work/reports"
python3 - "${port[dict]}" "${token[dict]}" "$work/reports" "$fixtures" "$locales" << 'PY'
import glob, http.client, json, sys
port, token, out, fixtures, locales = sys.argv[1:6]
# Our own fixture messages only: the dictionary ships with the server, so it
# must hold no text of the corpora.
items = [json.loads(line) for path in sorted(glob.glob(f"{fixtures}/*.jsonl"))
         for line in open(path, encoding="utf-8") if line.strip()]
items += [{"kind": "email", "text": open(path, encoding="utf-8", errors="replace").read()}
          for path in sorted(glob.glob(f"{fixtures}/email/**/*.eml", recursive=True))]
conn = http.client.HTTPConnection("127.0.0.1", int(port))
written = 0
for row in items:
    for locale in locales.split(","):
        body = json.dumps({"kind": row["kind"], "locale": locale, "content": row["text"]})
        conn.request("POST", "/api/v1/scan", body,
                     {"Authorization": "Bearer " + token, "Content-Type": "application/json"})
        response = conn.getresponse()
        data = response.read()
        if response.status == 200:
            open(f"{out}/{written:05d}.json", "wb").write(data)
            written += 1
print(f"{written} reports", file=sys.stderr)
PY
zstd --train -q --maxdict=112640 --dictID="$id" "$work"/reports/*.json -o "$out"
echo "wrote $out (dictionary ID $id)" >&2
