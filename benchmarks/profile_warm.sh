#!/usr/bin/env bash
# Instructions per warm SMS: analyze_benchmark's BM_AnalyzeSms (the same 8
# SMS again and again, RE2's DFA states already built) under valgrind
# --tool=callgrind, counting only AnalyzerImpl::analyze, run twice for
# different lengths; the difference between the two runs divided by the
# difference in analyze() calls leaves out what the first calls pay once
# (compiling reverse programs, building DFA states). Instruction counts do
# not move with the machine's load. Prints the malloc calls per SMS and the
# functions with the most instructions per SMS (inclusive, then self).
#
# Usage: benchmarks/profile_warm.sh [--build DIR] [--top N] [--commit TEXT]
#   --build DIR    build directory holding benchmarks/analyze_benchmark (default: build)
#   --top N        functions listed per table (default 25)
#   --commit TEXT  the commit the build was made from (default: this tree's)
# Needs valgrind and python3. A few minutes (the runs are sequential).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
build="$repo/build"
top=25
commit=
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --top) top=$2; shift 2 ;;
    --commit) commit=$2; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "profile_warm.sh: unknown argument: $1" >&2; exit 64 ;;
  esac
done
bench="$build/benchmarks/analyze_benchmark"
[[ -x $bench ]] || { echo "profile_warm.sh: $bench not found" >&2; exit 66; }
command -v valgrind > /dev/null || { echo "profile_warm.sh: valgrind not installed" >&2; exit 69; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for t in 0.5 2.5; do
  valgrind --tool=callgrind --callgrind-out-file="$work/$t.cg" \
    --toggle-collect='scamcheck::internal::AnalyzerImpl::analyze(*' \
    "$bench" --benchmark_filter='BM_AnalyzeSms$' --benchmark_min_time="$t" \
    > /dev/null 2> "$work/$t.log"
done
for t in 0.5 2.5; do
  for inc in yes no; do
    callgrind_annotate --inclusive=$inc --threshold=100 "$work/$t.cg" > "$work/$t.$inc.txt" 2> /dev/null
  done
done

echo "# Instructions per warm SMS (BM_AnalyzeSms under callgrind)"
echo
echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "- commit: ${commit:-$(git -C "$repo" rev-parse --short HEAD)$(git -C "$repo" diff --quiet HEAD 2> /dev/null || echo -dirty)}"
echo "- binary: $bench"
echo "- command: benchmarks/profile_warm.sh (two callgrind runs, --benchmark_min_time 0.5 and 2.5; their difference per analyze() call)"
python3 - "$work" "$top" << 'PY'
import collections, re, sys
work, top = sys.argv[1], int(sys.argv[2])

def calls(path):
    # analyze() calls from outside analyze() (the benchmark's loop), and
    # calls of malloc (operator new's among them).
    names, cur, cfn, n, mallocs = {}, None, None, 0, 0
    for line in open(path):
        for pre in ("fn=", "cfn="):
            if line.startswith(pre):
                m = re.match(r"\((\d+)\)(?: (.*))?", line[len(pre):].rstrip("\n"))
                if m.group(2):
                    names[m.group(1)] = m.group(2)
                if pre == "fn=":
                    cur = names[m.group(1)]
                else:
                    cfn = names[m.group(1)]
        if line.startswith("calls=") and cfn.startswith("scamcheck::internal::AnalyzerImpl::analyze(") \
                and "AnalyzerImpl::analyze(" not in cur:
            n += int(line[6:].split()[0])
        if line.startswith("calls=") and cfn == "malloc":
            mallocs += int(line[6:].split()[0])
    return n, mallocs

def table(path):
    d = {}
    for line in open(path):
        m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$", line)
        if m and not m.group(2).startswith("PROGRAM TOTALS"):
            d[m.group(2)] = int(m.group(1).replace(",", ""))
    return d

(short, m_short), (long_, m_long) = calls(f"{work}/0.5.cg"), calls(f"{work}/2.5.cg")
n = long_ - short
if short < 100 or n < 1000:
    sys.exit(f"profile_warm.sh: too few analyze() calls ({short}, {long_}) to tell warm from first-call cost")
print(f"- analyze() calls: {short:,} and {long_:,}")
print(f"- malloc calls per warm SMS: {(m_long - m_short) / n:.1f}")
def name(k):
    lib = re.search(r"\[([^\]]*)\]\s*$", k)
    f = re.sub(r"\s*\[[^\]]*\]\s*$", "", k)
    f = f.split(":", 1)[1] if f.startswith("???:") or f.startswith("./") else f
    f = f.replace("(anonymous namespace)", "{anon}").replace("scamcheck::internal::", "")
    f = re.sub(r"\(.*", "()", f)
    return f"`{f[:90]}` ({lib.group(1).rsplit('/', 1)[-1] if lib else ''})"
for inc, title in (("yes", "inclusive"), ("no", "self")):
    a, b = table(f"{work}/0.5.{inc}.txt"), table(f"{work}/2.5.{inc}.txt")
    rows = sorted(((b[k] - a.get(k, 0)) / n, k) for k in b)[::-1]
    if inc == "yes":
        total = next(v for v, k in rows if "AnalyzerImpl::analyze(" in k)
        print(f"- instructions per warm SMS in AnalyzerImpl::analyze: {total:,.0f}")
    print()
    print(f"## {title}")
    print()
    print("| Ir per SMS | % | function |")
    print("|---:|---:|---|")
    shown = 0
    for v, k in rows:
        if inc == "yes" and v >= total:
            continue
        print(f"| {v:,.0f} | {100 * v / total:.1f} | {name(k)} |")
        shown += 1
        if shown >= top:
            break
PY
