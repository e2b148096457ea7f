#!/usr/bin/env bash
# Where the CPU of an e-mail goes: runs `scamcheck --jsonl --threads 1` under
# `valgrind --tool=callgrind` (instruction counts: the same on a loaded
# machine as on an idle one) over every 3rd e-mail record of the corpora's
# dev split, and prints the functions with the most inclusive instructions,
# each as a share of the program's total and as instructions per mail.
#
# Usage: benchmarks/profile_email.sh [--build DIR] [--corpus-dir DIR] [--top N]
#                                    [--keep FILE]
#   --build DIR       build directory holding adapters/cli/scamcheck (default: build)
#   --corpus-dir DIR  corpora (default $SCAMCHECK_CORPUS_DIR or ../shared/corpus)
#   --top N           functions listed (default 40)
#   --keep FILE       also keep the callgrind output file there
# Needs valgrind and python3. Takes about a minute.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
build="$repo/build"
corpus_dir=${SCAMCHECK_CORPUS_DIR:-$repo/../shared/corpus}
top=40
keep=

while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --corpus-dir) corpus_dir=$2; shift 2 ;;
    --top) top=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "profile_email.sh: unknown argument: $1" >&2; exit 64 ;;
  esac
done
cli="$build/adapters/cli/scamcheck"
[[ -x $cli ]] || { echo "profile_email.sh: $cli not found" >&2; exit 66; }
command -v valgrind > /dev/null || { echo "profile_email.sh: valgrind not installed" >&2; exit 69; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Every 3rd e-mail record of the dev splits, as batch_throughput.sh encodes them.
python3 - "$corpus_dir" > "$work/input.jsonl" <<'EOF'
import base64, glob, json, os, sys
n = 0
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*", "dev.jsonl"))):
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r.get("kind") != "email":
                continue
            n += 1
            if n % 3 != 1:
                continue
            raw = r["text"].encode(r.get("raw_encoding", "utf-8"))
            try:
                obj = {"id": n, "kind": "email", "content": raw.decode("utf-8")}
            except UnicodeDecodeError:
                obj = {"id": n, "kind": "email", "content": base64.b64encode(raw).decode(),
                       "content_encoding": "base64"}
            print(json.dumps(obj, ensure_ascii=False))
EOF
mails=$(wc -l < "$work/input.jsonl")
bytes=$(wc -c < "$work/input.jsonl")
[[ $mails -gt 0 ]] || { echo "profile_email.sh: no e-mail records in $corpus_dir" >&2; exit 66; }

valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" \
  "$cli" --jsonl --threads 1 < "$work/input.jsonl" > /dev/null 2> "$work/valgrind.log"
[[ -n $keep ]] && cp "$work/cg.out" "$keep"

echo "# Callgrind profile of scamcheck --jsonl over dev e-mails"
echo
echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "- commit: $(git -C "$repo" rev-parse --short HEAD)$(git -C "$repo" diff --quiet HEAD 2> /dev/null || echo -dirty)"
echo "- binary: $cli"
echo "- input: $mails e-mails (every 3rd e-mail record of $corpus_dir/*/dev.jsonl), $bytes bytes of JSONL"
echo "- command: valgrind --tool=callgrind scamcheck --jsonl --threads 1"
echo
callgrind_annotate --inclusive=yes "$work/cg.out" 2> /dev/null | python3 -c '
import re, sys
mails, top = int(sys.argv[1]), int(sys.argv[2])
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
print(f"- total instructions: {total:,}; in AnalyzerImpl::analyze: {analyze:,} "
      f"({analyze / mails:,.0f} per mail)")
print()
print("| inclusive Ir | % of total | Ir per mail | function |")
print("|---:|---:|---:|---|")
shown = 0
for ir, name in rows:
    if name.startswith("???:") or name.startswith("./"):
        name = name.split(":", 1)[1]
    lib = re.search(r"\[([^\]]*)\]\s*$", name)
    func = re.sub(r"\s*\[[^\]]*\]\s*$", "", name)
    func = func.replace("(anonymous namespace)", "{anon}").replace("non-virtual thunk to ", "")
    func = re.sub(r"\(.*", "()", func).replace("scamcheck::internal::", "")
    func = func if len(func) <= 100 else func[:97] + "..."
    where = lib.group(1).rsplit("/", 1)[-1] if lib else ""
    print(f"| {ir:,} | {100 * ir / total:.1f} | {ir / mails:,.0f} | `{func}` ({where}) |")
    shown += 1
    if shown >= top:
        break
' "$mails" "$top"
