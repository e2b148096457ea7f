#!/usr/bin/env bash
# E-mail batch cost of two builds in one run, for a shared machine: CPU time
# (user + system) moves far less with other load than wall time does. Both
# builds analyse the same input (the e-mail lines of `batch_throughput.sh
# --kind email`: the dev splits' e-mails, cycled) with `scamcheck --jsonl
# --threads N`, alternating, `--rounds` times; per build the least disturbed
# round (least CPU) and the median wall time are reported, with e-mails per
# CPU second and the throughput N threads would reach with all N cores free
# (N x e-mails per CPU second; start-up included).
#
# Usage: benchmarks/email_cpu_compare.sh --base DIR --new DIR [--rounds N] [--threads N]
#                                        [--count N] [--corpus-dir DIR]
#   --base DIR, --new DIR  build directories holding adapters/cli/scamcheck
#   --rounds N             alternations (default 5)
#   --threads N            --threads of the CLI (default 2)
#   --count N              input lines (default 5000)
# Needs python3.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
base=
new=
rounds=5
threads=2
count=5000
corpus_dir=${SCAMCHECK_CORPUS_DIR:-$repo/../shared/corpus}
while [[ $# -gt 0 ]]; do
  case $1 in
    --base) base=$2; shift 2 ;;
    --new) new=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    --corpus-dir) corpus_dir=$2; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "email_cpu_compare.sh: unknown argument: $1" >&2; exit 64 ;;
  esac
done
[[ -n $base && -n $new ]] || { echo "email_cpu_compare.sh: --base and --new are required" >&2; exit 64; }
for b in "$base" "$new"; do
  [[ -x $b/adapters/cli/scamcheck ]] || { echo "email_cpu_compare.sh: $b/adapters/cli/scamcheck not found" >&2; exit 66; }
done
command -v python3 > /dev/null || { echo "email_cpu_compare.sh: python3 not installed" >&2; exit 69; }

python3 - "$corpus_dir" "$repo/tests/fixtures/email" "$base" "$new" "$rounds" "$threads" "$count" "$repo" << 'PYEOF'
import base64, glob, json, os, resource, statistics, subprocess, sys, tempfile, time
corpus, fixtures, base, new, rounds, threads, count, repo = sys.argv[1:9]
rounds, threads, count = int(rounds), int(threads), int(count)

# The same input as batch_throughput.sh --kind email.
pool, source = [], f"email records of {corpus}/*/dev.jsonl"
for path in sorted(glob.glob(os.path.join(corpus, "*", "dev.jsonl"))):
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r.get("kind") == "email":
                pool.append(r["text"].encode(r.get("raw_encoding", "utf-8")))
if not pool:
    source = "tests/fixtures/email/*/*.eml"
    for path in sorted(glob.glob(os.path.join(fixtures, "*", "*.eml"))):
        with open(path, "rb") as f:
            pool.append(f.read())
def line(i, raw):
    try:
        obj = {"id": i, "kind": "email", "content": raw.decode("utf-8")}
    except UnicodeDecodeError:
        obj = {"id": i, "kind": "email", "content": base64.b64encode(raw).decode(),
               "content_encoding": "base64"}
    return json.dumps(obj, ensure_ascii=False)
tmp = tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8")
for i in range(count):
    tmp.write(line(i + 1, pool[i % len(pool)]) + "\n")
tmp.close()
size = os.path.getsize(tmp.name)

def run(build):
    cli = os.path.join(build, "adapters", "cli", "scamcheck")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    with open(tmp.name, "rb") as f:
        out = subprocess.run([cli, "--jsonl", "--threads", str(threads)], stdin=f,
                             stdout=subprocess.PIPE, check=True).stdout
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    answers = out.count(b"\n")
    if answers != count:
        sys.exit(f"email_cpu_compare.sh: {cli} answered {answers} of {count} lines")
    return cpu, wall

results = {"base": [], "new": []}
for _ in range(rounds):
    for name, build in (("base", base), ("new", new)):
        results[name].append(run(build))
os.unlink(tmp.name)

def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])
commit = subprocess.run(["git", "-C", repo, "rev-parse", "--short", "HEAD"],
                        capture_output=True, text=True).stdout.strip()
print("# E-mail batch: CPU time and wall time, baseline and candidate builds")
print()
print(f"- date: {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}")
print(f"- commit: {commit}")
print(f"- base: {base}")
print(f"- new: {new}")
print(f"- command: benchmarks/email_cpu_compare.sh --base BASE --new NEW --rounds {rounds} --threads {threads} --count {count}")
print(f"- input: {count} lines, {size} bytes, from {source} ({len(pool)} messages, cycled)")
print(f"- machine: {os.cpu_count()} cores; load average at the end: {loadavg()}")
print(f"- each build run {rounds} times, alternating; CPU = user + system of the least disturbed run, wall = median")
print()
print(f"| build | CPU s (best) | e-mails per CPU s | {threads} threads on free cores, e-mails/s | wall s (median) | e-mails/s by wall (median) |")
print("|---|---:|---:|---:|---:|---:|")
best = {}
for name in ("base", "new"):
    cpu = min(c for c, _ in results[name])
    wall = statistics.median(w for _, w in results[name])
    best[name] = cpu
    print(f"| {name} | {cpu:.2f} | {count / cpu:.0f} | {threads * count / cpu:.0f} | {wall:.2f} | {count / wall:.0f} |")
print()
print(f"- CPU per e-mail, new / base: {best['new'] / best['base']:.3f}")
print("- every run: " + "; ".join(
    f"{name} " + ", ".join(f"{c:.2f}/{w:.2f}" for c, w in results[name]) for name in ("base", "new")) +
    " (CPU s / wall s)")
PYEOF
