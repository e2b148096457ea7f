#!/usr/bin/env bash
# Where the CPU of an SMS goes: runs `scamcheck --jsonl --threads 1` under
# `valgrind --tool=callgrind` (instruction counts: the same on a loaded
# machine as on an idle one) over the text records of the SMS corpora's dev
# split, each read --rounds times (default 3: the first round pays for what
# a new text costs the first time, the others are what a running server
# sees), and prints the functions with the most inclusive instructions,
# each as a share of AnalyzerImpl::analyze (only its instructions are
# counted) and as instructions per SMS.
#
# Usage: benchmarks/profile_sms.sh [--build DIR] [--corpus-dir DIR] [--rounds N]
#                                  [--top N] [--keep FILE]
#   --build DIR       build directory holding adapters/cli/scamcheck (default: build)
#   --corpus-dir DIR  corpora (default $SCAMCHECK_CORPUS_DIR or ../shared/corpus)
#   --rounds N        times each SMS is read (default 3)
#   --top N           functions listed (default 40)
#   --keep FILE       also keep the callgrind output file there
# Needs valgrind and python3. Takes a few minutes.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
build="$repo/build"
corpus_dir=${SCAMCHECK_CORPUS_DIR:-$repo/../shared/corpus}
rounds=3
top=40
keep=

while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --corpus-dir) corpus_dir=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --top) top=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "profile_sms.sh: unknown argument: $1" >&2; exit 64 ;;
  esac
done
cli="$build/adapters/cli/scamcheck"
[[ -x $cli ]] || { echo "profile_sms.sh: $cli not found" >&2; exit 66; }
command -v valgrind > /dev/null || { echo "profile_sms.sh: valgrind not installed" >&2; exit 69; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$corpus_dir" "$rounds" > "$work/input.jsonl" <<'EOF'
import glob, json, os, sys
texts = []
for path in sorted(glob.glob(os.path.join(sys.argv[1], "sms_*", "dev.jsonl"))):
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r.get("kind") == "text":
                texts.append(r["text"])
for _ in range(int(sys.argv[2])):
    for i, t in enumerate(texts):
        print(json.dumps({"id": i, "kind": "text", "content": t}, ensure_ascii=False))
EOF
lines=$(wc -l < "$work/input.jsonl")
[[ $lines -gt 0 ]] || { echo "profile_sms.sh: no text records in $corpus_dir/sms_*" >&2; exit 66; }

# Only what AnalyzerImpl::analyze runs is counted (not Analyzer::create,
# not reading and writing the JSON lines).
valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" \
  --toggle-collect='scamcheck::internal::AnalyzerImpl::analyze(*' \
  "$cli" --jsonl --threads 1 < "$work/input.jsonl" > /dev/null 2> "$work/valgrind.log"
[[ -n $keep ]] && cp "$work/cg.out" "$keep"

echo "# Callgrind profile of scamcheck --jsonl over dev SMS"
echo
echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "- commit: $(git -C "$repo" rev-parse --short HEAD)$(git -C "$repo" diff --quiet HEAD 2> /dev/null || echo -dirty)"
echo "- binary: $cli"
echo "- input: $lines lines: the text records of $corpus_dir/sms_*/dev.jsonl, $rounds times"
echo "- command: benchmarks/profile_sms.sh --rounds $rounds (valgrind --tool=callgrind scamcheck --jsonl --threads 1)"
echo
callgrind_annotate --inclusive=yes "$work/cg.out" 2> /dev/null | python3 -c '
import re, sys
lines, top = int(sys.argv[1]), int(sys.argv[2])
total = None
rows = []
for line in sys.stdin:
    m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$", line)
    if not m:
        continue
    ir = int(m.group(1).replace(",", ""))
    name = m.group(2)
    if name.startswith("PROGRAM TOTALS"):
        total = ir
        continue
    rows.append((ir, name))
analyze = next((ir for ir, n in rows if "AnalyzerImpl::analyze(" in n), 0)
print(f"- instructions in AnalyzerImpl::analyze: {analyze:,} ({analyze / lines:,.0f} per SMS)")
print()
print("| inclusive Ir | % of analyze | Ir per SMS | function |")
print("|---:|---:|---:|---|")
shown = 0
for ir, name in rows:
    if ir >= analyze:
        continue  # analyze itself and its callers
    if name.startswith("???:") or name.startswith("./"):
        name = name.split(":", 1)[1]
    lib = re.search(r"\[([^\]]*)\]\s*$", name)
    func = re.sub(r"\s*\[[^\]]*\]\s*$", "", name)
    func = func.replace("(anonymous namespace)", "{anon}").replace("non-virtual thunk to ", "")
    func = re.sub(r"\(.*", "()", func).replace("scamcheck::internal::", "")
    func = func if len(func) <= 100 else func[:97] + "..."
    where = lib.group(1).rsplit("/", 1)[-1] if lib else ""
    print(f"| {ir:,} | {100 * ir / analyze:.1f} | {ir / lines:,.0f} | `{func}` ({where}) |")
    shown += 1
    if shown >= top:
        break
' "$lines" "$top"
