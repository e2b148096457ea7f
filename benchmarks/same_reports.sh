#!/usr/bin/env bash
# Whether two builds write the same reports: runs `scamcheck --jsonl` of
# each over the dev SMS and dev e-mails of the corpora and over every
# tests/fixtures/*.jsonl, drops what differs by design (the report's id and
# created_at), and diffs. A change meant only to make analysis cheaper must
# leave the diff empty.
#
# Usage: benchmarks/same_reports.sh --base DIR [--new DIR] [--corpus-dir DIR] [--threads N]
#   --base DIR        build directory of the reference (adapters/cli/scamcheck)
#   --new DIR         build directory to check (default: build)
#   --corpus-dir DIR  corpora (default $SCAMCHECK_CORPUS_DIR or ../shared/corpus)
#   --threads N       scamcheck --threads (default 2)
# Prints one line per input set and the first lines of any difference;
# exits 1 when some report differs. A few minutes on 2 cores.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
base=
new="$repo/build"
corpus_dir=${SCAMCHECK_CORPUS_DIR:-$repo/../shared/corpus}
threads=2
while [[ $# -gt 0 ]]; do
  case $1 in
    --base) base=$2; shift 2 ;;
    --new) new=$2; shift 2 ;;
    --corpus-dir) corpus_dir=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "same_reports.sh: unknown argument: $1" >&2; exit 64 ;;
  esac
done
[[ -n $base ]] || { echo "same_reports.sh: --base DIR is required" >&2; exit 64; }
for b in "$base" "$new"; do
  [[ -x $b/adapters/cli/scamcheck ]] || { echo "same_reports.sh: $b/adapters/cli/scamcheck not found" >&2; exit 66; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One input file per set: corpus or fixture records as `scamcheck --jsonl`
# lines (raw bytes that are not UTF-8 go as base64).
python3 - "$work" "$corpus_dir" "$repo/tests/fixtures" "$here" << 'PY'
import glob, json, os, sys
work, corpus, fixtures, here = sys.argv[1:5]
sys.path.insert(0, here)
from dev_inputs import scan_line
sets = {f"corpus-{name}": os.path.join(corpus, name, "dev.jsonl")
        for name in ("sms_spam_collection", "sms_smishing_mishra_soni", "spamassassin",
                     "nazario_phishing")}
for path in sorted(glob.glob(os.path.join(fixtures, "*.jsonl"))):
    sets["fixtures-" + os.path.basename(path)[:-6]] = path
for name, path in sets.items():
    with open(path, encoding="utf-8") as f, open(os.path.join(work, name + ".in"), "w",
                                                  encoding="utf-8") as out:
        for i, line in enumerate(f, 1):
            r = json.loads(line)
            raw = r["text"].encode(r.get("raw_encoding", "utf-8"))
            out.write(scan_line(i, r.get("kind", "text"), raw) + "\n")
PY

# The report without its id and created_at, keys sorted: one line per input.
strip() {
  python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    r.pop("id", None)
    if isinstance(r.get("report"), dict):
        r["report"].pop("id", None)
        r["report"].pop("created_at", None)
    print(json.dumps(r, sort_keys=True, ensure_ascii=False))
'
}

status=0
for input in "$work"/*.in; do
  name=$(basename "$input" .in)
  for side in base new; do
    dir=$base; [[ $side == new ]] && dir=$new
    "$dir/adapters/cli/scamcheck" --jsonl --threads "$threads" < "$input" | strip > "$work/$name.$side"
  done
  if cmp -s "$work/$name.base" "$work/$name.new"; then
    echo "same: $name ($(wc -l < "$input") records)"
  else
    echo "DIFFERENT: $name ($(wc -l < "$input") records)"
    diff "$work/$name.base" "$work/$name.new" | head -20 || true
    status=1
  fi
done
exit $status
