#!/usr/bin/env bash
# Where the CPU of an SMS or an e-mail goes: runs `scamcheck --jsonl
# --threads 1` under `valgrind --tool=callgrind` (instruction counts: the
# same on a loaded machine as on an idle one), counting only what
# AnalyzerImpl::analyze runs (not Analyzer::create, not the JSON lines), and
# prints the functions with the most inclusive instructions, each as a share
# of analyze() and per message.
#   sms    the text records of the SMS corpora's dev split, each read
#          --rounds times (the first round pays for what a new text costs the
#          first time, the others are what a running server sees)
#   email  every 3rd e-mail record of the corpora's dev split (with --rounds,
#          each read that many times: what a mail costs again, its rule
#          sets' DFA states built the first time)
#   --input FILE instead: the JSON lines of FILE as they are (e.g. the
#          1.3 MB DOCX that `cost_growth.sh --keep-inputs DIR` writes)
#
# Usage: benchmarks/profile_analyze.sh --kind sms|email|--input FILE
#            [--build DIR] [--commit TEXT] [--corpus-dir DIR] [--rounds N] [--top N]
#            [--keep FILE]
#   --build DIR       build directory holding adapters/cli/scamcheck (default: build)
#   --commit TEXT     the commit the build was made from (default: this tree's)
#   --corpus-dir DIR  corpora (default $SCAMCHECK_CORPUS_DIR or ../shared/corpus)
#   --rounds N        times each message is read (default: sms 3, email 1)
#   --top N           functions listed (default 40)
#   --keep FILE       also keep the callgrind output file there
# Needs valgrind and python3. A few minutes.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
build="$repo/build"
corpus_dir=${SCAMCHECK_CORPUS_DIR:-$repo/../shared/corpus}
kind=
input_file=
rounds=
top=40
keep=
commit=

while [[ $# -gt 0 ]]; do
  case $1 in
    --kind) kind=$2; shift 2 ;;
    --input) input_file=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --commit) commit=$2; shift 2 ;;
    --corpus-dir) corpus_dir=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --top) top=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "profile_analyze.sh: unknown argument: $1" >&2; exit 64 ;;
  esac
done
if [[ -n $input_file ]]; then
  [[ -r $input_file ]] || { echo "profile_analyze.sh: $input_file not readable" >&2; exit 66; }
  kind=input; unit=input
else
  case $kind in
    sms) select=(--rounds "${rounds:-3}"); unit=SMS ;;
    email) select=(--every 3); [[ -n $rounds ]] && select+=(--rounds "$rounds"); unit=mail ;;
    *) echo "profile_analyze.sh: --kind sms, --kind email or --input FILE is required" >&2; exit 64 ;;
  esac
fi
cli="$build/adapters/cli/scamcheck"
[[ -x $cli ]] || { echo "profile_analyze.sh: $cli not found" >&2; exit 66; }
command -v valgrind > /dev/null || { echo "profile_analyze.sh: valgrind not installed" >&2; exit 69; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ -n $input_file ]]; then
  cp "$input_file" "$work/input.jsonl"
  input="$(wc -l < "$input_file") lines, $(wc -c < "$input_file") bytes, from $input_file"
  how="--input $(basename "$input_file")"
else
  input=$(python3 "$here/dev_inputs.py" --kind "$kind" --corpus-dir "$corpus_dir" \
    "${select[@]}" --out "$work/input.jsonl")
  how="--kind $kind ${select[*]}"
fi
lines=$(wc -l < "$work/input.jsonl")

valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" \
  --toggle-collect='scamcheck::internal::AnalyzerImpl::analyze(*' \
  "$cli" --jsonl --threads 1 < "$work/input.jsonl" > /dev/null 2> "$work/valgrind.log"
[[ -n $keep ]] && cp "$work/cg.out" "$keep"

if [[ -n $input_file ]]; then
  echo "# Callgrind profile of scamcheck --jsonl over $(basename "$input_file")"
else
  echo "# Callgrind profile of scamcheck --jsonl over dev $kind"
fi
echo
echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "- commit: ${commit:-$(git -C "$repo" rev-parse --short HEAD)$(git -C "$repo" diff --quiet HEAD 2> /dev/null || echo -dirty)}"
echo "- binary: $cli"
echo "- input: $input"
echo "- command: benchmarks/profile_analyze.sh $how (valgrind --tool=callgrind scamcheck --jsonl --threads 1)"
echo
callgrind_annotate --inclusive=yes "$work/cg.out" 2> /dev/null | python3 -c '
import re, sys
lines, top, unit = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rows = []
for line in sys.stdin:
    m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$", line)
    if m and not m.group(2).startswith("PROGRAM TOTALS"):
        rows.append((int(m.group(1).replace(",", "")), m.group(2)))
analyze = next((ir for ir, n in rows if "AnalyzerImpl::analyze(" in n), 0)
print(f"- instructions in AnalyzerImpl::analyze: {analyze:,} ({analyze / lines:,.0f} per {unit})")
# Compiling a regex (each rule regex, on its first use) is paid once per
# process, however many messages follow: shown apart.
compiled = next((ir for ir, n in rows if re.search(r"re2::RE2::RE2\(", n)), 0)
rest = analyze - compiled
print(f"- of which compiling regexes on first use (re2::RE2::RE2): {compiled:,}; "
      f"without it {rest:,} ({rest / lines:,.0f} per {unit})")
print()
print(f"| inclusive Ir | % of analyze | Ir per {unit} | function |")
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
' "$lines" "$top" "$unit"
