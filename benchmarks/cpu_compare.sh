#!/usr/bin/env bash
# Batch cost of two builds in one run, for a shared machine: CPU time (user +
# system) moves far less with other load than wall time does. Both builds
# analyse the same input with `scamcheck --jsonl --threads N`, alternating,
# `--rounds` times; per build the least disturbed round (least CPU) and the
# median wall time are reported, with messages per CPU second and the
# throughput N threads would reach with all N cores free (N x messages per
# CPU second; start-up included).
#   sms    the text records of the SMS corpora's dev split, cycled
#   email  the dev splits' e-mails, cycled (as `batch_throughput.sh --kind email`)
#
# Usage: benchmarks/cpu_compare.sh --kind sms|email --base DIR --new DIR
#            [--rounds N] [--threads N] [--count N] [--corpus-dir DIR]
#   --base DIR, --new DIR  build directories holding adapters/cli/scamcheck
#   --rounds N             alternations (default 3)
#   --threads N            --threads of the CLI (default: sms 1, email 2)
#   --count N              input lines (default: sms 100000, email 5000)
# Needs python3.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
kind=
base=
new=
rounds=3
threads=
count=
corpus_dir=${SCAMCHECK_CORPUS_DIR:-$repo/../shared/corpus}
while [[ $# -gt 0 ]]; do
  case $1 in
    --kind) kind=$2; shift 2 ;;
    --base) base=$2; shift 2 ;;
    --new) new=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    --corpus-dir) corpus_dir=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "cpu_compare.sh: unknown argument: $1" >&2; exit 64 ;;
  esac
done
case $kind in
  sms) threads=${threads:-1}; count=${count:-100000} ;;
  email) threads=${threads:-2}; count=${count:-5000} ;;
  *) echo "cpu_compare.sh: --kind sms or --kind email is required" >&2; exit 64 ;;
esac
[[ -n $base && -n $new ]] || { echo "cpu_compare.sh: --base and --new are required" >&2; exit 64; }
for b in "$base" "$new"; do
  [[ -x $b/adapters/cli/scamcheck ]] || { echo "cpu_compare.sh: $b/adapters/cli/scamcheck not found" >&2; exit 66; }
done
command -v python3 > /dev/null || { echo "cpu_compare.sh: python3 not installed" >&2; exit 69; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
input=$(python3 "$here/dev_inputs.py" --kind "$kind" --corpus-dir "$corpus_dir" \
  --fixtures "$repo/tests/fixtures/email" --count "$count" --out "$work/input.jsonl")

python3 - "$work/input.jsonl" "$input" "$kind" "$base" "$new" "$rounds" "$threads" "$count" "$repo" << 'PYEOF'
import os, resource, statistics, subprocess, sys, time
path, input_desc, kind, base, new, rounds, threads, count, repo = sys.argv[1:10]
rounds, threads, count = int(rounds), int(threads), int(count)
unit = "SMS" if kind == "sms" else "e-mails"

def run(build):
    cli = os.path.join(build, "adapters", "cli", "scamcheck")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    with open(path, "rb") as f:
        out = subprocess.run([cli, "--jsonl", "--threads", str(threads)], stdin=f,
                             stdout=subprocess.PIPE, check=True).stdout
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    answers = out.count(b"\n")
    if answers != count:
        sys.exit(f"cpu_compare.sh: {cli} answered {answers} of {count} lines")
    return cpu, wall

results = {"base": [], "new": []}
for _ in range(rounds):
    for name, build in (("base", base), ("new", new)):
        results[name].append(run(build))

def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])
commit = subprocess.run(["git", "-C", repo, "rev-parse", "--short", "HEAD"],
                        capture_output=True, text=True).stdout.strip()
print(f"# {unit} batch: CPU time and wall time, baseline and candidate builds")
print()
print(f"- date: {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}")
print(f"- commit: {commit}")
print(f"- base: {base}")
print(f"- new: {new}")
print(f"- command: benchmarks/cpu_compare.sh --kind {kind} --base BASE --new NEW --rounds {rounds} --threads {threads} --count {count}")
print(f"- input: {input_desc}")
print(f"- machine: {os.cpu_count()} cores; load average at the end: {loadavg()}")
print(f"- each build run {rounds} times, alternating; CPU = user + system of the least disturbed run, wall = median")
print()
print(f"| build | CPU s (best) | {unit} per CPU s | {threads} thread(s) on free cores, {unit}/s | wall s (median) | {unit}/s by wall (median) |")
print("|---|---:|---:|---:|---:|---:|")
best = {}
for name in ("base", "new"):
    cpu = min(c for c, _ in results[name])
    wall = statistics.median(w for _, w in results[name])
    best[name] = cpu
    print(f"| {name} | {cpu:.2f} | {count / cpu:.0f} | {threads * count / cpu:.0f} | {wall:.2f} | {count / wall:.0f} |")
print()
print(f"- CPU per message, new / base: {best['new'] / best['base']:.3f}")
print("- every run: " + "; ".join(
    f"{name} " + ", ".join(f"{c:.2f}/{w:.2f}" for c, w in results[name]) for name in ("base", "new")) +
    " (CPU s / wall s)")
PYEOF
