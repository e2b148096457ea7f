#!/usr/bin/env bash
# Builds the zstd dictionary the SQLite store compresses reports with
# (storage/report_codec.h): starts BINARY on a temporary SQLite file, scans
# messages of the corpus's train splits (SMS, URLs, e-mails) in every
# locale of the library, and trains a dictionary on the reports
# (`zstd --train`). Stored rows name their dictionary by its ID, so a
# dictionary that rows use must never change: a new one gets the next ID
# and a file of its own, and the codec keeps every older one.
#
# Usage: adapters/server/tools/make_report_dictionary.sh --binary BIN --id N --out FILE
#            [--corpus DIR] [--per-source N]
# Needs zstd and python3.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
binary=
id=
out=
corpus=$root/../shared/corpus
per_source=150
while (($#)); do
  case $1 in
    --binary) binary=$2; shift 2 ;;
    --id) id=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --corpus) corpus=$2; shift 2 ;;
    --per-source) per_source=$2; shift 2 ;;
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
python3 - "${port[dict]}" "${token[dict]}" "$work/reports" "$corpus" "$per_source" "$locales" << 'PY'
import http.client, json, random, sys
port, token, out, corpus, n, locales = sys.argv[1:7]
n = int(n)
items = []
# Train splits only; phishing_pot* is evaluation-only and never used here.
for path, k in [("sms_spam_collection/train.jsonl", n), ("sms_smishing_mishra_soni/train.jsonl", n),
                ("urls_jpcert/train.jsonl", n // 4), ("spamassassin/train.jsonl", n // 8)]:
    rows = [json.loads(line) for line in open(f"{corpus}/{path}")]
    random.Random(1).shuffle(rows)
    items += rows[:k]
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
