#!/usr/bin/env python3
"""A soak of scamcheckd: its resident memory under a steady mixed load.

Runs scamcheckd on loopback with a temporary SQLite file and a steady mixed
load (fault_common.MixedLoad: JSON scans, check-API checks and polls,
PNG/PDF uploads, MCP tool calls) for --duration seconds, sampling VmRSS
(and RssAnon, RssFile) from /proc/<pid>/status every second. After
--warmup seconds, the mean of the next 5 samples is the reference; every
later sample must stay within --tolerance (20 %) of it. A 5xx other than
503 fails the run too.

  soak_test.py --binary build/adapters/server/scamcheckd                     # CTest: 60 s
  soak_test.py --binary ... --duration 600 --warmup 60 --out soak.md --png soak.png
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fault_common import Daemon, MixedLoad  # noqa: E402


def memory(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key = line.split(":")[0]
            if key in ("VmRSS", "RssAnon", "RssFile", "Threads"):
                out[key] = int(line.split()[1])
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--duration", type=float, default=60, help="seconds of load")
    parser.add_argument("--warmup", type=float, default=20, help="seconds before the reference")
    parser.add_argument("--tolerance", type=float, default=0.20)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--rate", type=float, default=15, help="requests per second, all threads")
    parser.add_argument("--users", type=int, default=6)
    parser.add_argument("--out", help="write the results as Markdown here")
    parser.add_argument("--commit", help="the commit named in --out (default: git HEAD)")
    parser.add_argument("--png", help="plot the curve here (gnuplot)")
    args = parser.parse_args()

    directory = tempfile.mkdtemp(prefix="scamcheckd-soak-")
    daemon = Daemon(os.path.abspath(args.binary), directory, "--workers", "2",
                    "--analysis-timeout", "5", "--log-level", "notice")
    daemon.start()
    tokens = [daemon.user(f"soak{i}@example.com") for i in range(args.users)]
    load = MixedLoad(daemon, tokens, threads=args.threads, rate=args.rate)
    samples = []  # (seconds, VmRSS KiB, RssAnon, RssFile, requests tried)
    started = time.monotonic()
    load.start()
    tick = started
    while True:
        now = time.monotonic()
        if now - started >= args.duration:
            break
        if not daemon.alive():
            break
        m = memory(daemon.proc.pid)
        samples.append((round(now - started, 1), m["VmRSS"], m["RssAnon"], m["RssFile"],
                        load.tried))
        tick += 1.0
        time.sleep(max(0.0, tick - time.monotonic()))
    load.stop()
    alive = daemon.alive()
    summary = load.summary()
    stop_code = daemon.stop()

    after = [s for s in samples if s[0] >= args.warmup]
    failures = []
    if not alive:
        failures.append("the server died: " + daemon.read_log()[-2000:])
    if len(after) < 6:
        failures.append("too few samples after the warm-up")
        reference = peak = low = 0
    else:
        reference = sum(s[1] for s in after[:5]) / 5
        peak = max(s[1] for s in after[5:])
        low = min(s[1] for s in after[5:])
        if peak > reference * (1 + args.tolerance) or low < reference * (1 - args.tolerance):
            failures.append(f"VmRSS left {reference:.0f} KiB ± {args.tolerance:.0%}: "
                            f"{low}..{peak} KiB")
    if load.unexpected:
        failures.append(f"unexpected 5xx: {load.unexpected[:5]}")
    if summary["reports_acknowledged"] == 0:
        failures.append("nothing acknowledged: the load did not run")
    if stop_code != 0:
        failures.append(f"SIGTERM exit status {stop_code}")
    result = {"duration_s": args.duration, "warmup_s": args.warmup, "rate_per_s": args.rate,
              "threads": args.threads, **summary, "samples": len(samples),
              "rss_reference_kib": round(reference), "rss_min_after_kib": low,
              "rss_max_after_kib": peak,
              "rss_max_change": round(max(peak / reference - 1, 1 - low / reference), 4)
              if reference else None,
              "rss_start_kib": samples[0][1] if samples else None,
              "rss_end_kib": samples[-1][1] if samples else None}
    print(json.dumps(result, indent=2))
    if args.png and samples:
        plot(samples, args, reference, args.png)
    if args.out:
        write_markdown(args, result, samples, failures)
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures), file=sys.stderr)
        sys.exit(1)
    shutil.rmtree(directory, ignore_errors=True)
    print("ok")


def plot(samples, args, reference, png):
    data = png + ".dat"
    with open(data, "w") as f:
        for t, rss, anon, file_, _ in samples:
            f.write(f"{t} {rss / 1024:.2f} {anon / 1024:.2f} {file_ / 1024:.2f}\n")
    script = f"""
set terminal pngcairo size 900,450
set output '{png}'
set title 'scamcheckd RSS under a steady mixed load ({args.rate:g} requests/s)'
set xlabel 'seconds'
set ylabel 'MiB'
set key left top
set yrange [0:{reference / 1024 * (1 + args.tolerance) * 1.15:.0f}]
set arrow from {args.warmup},graph 0 to {args.warmup},graph 1 nohead dt 2
plot '{data}' using 1:2 with lines title 'VmRSS', \\
     '' using 1:3 with lines title 'RssAnon', \\
     '' using 1:4 with lines title 'RssFile', \\
     {reference / 1024 * (1 + args.tolerance):.2f} with lines dt 3 title '+{args.tolerance:.0%}'
"""
    try:
        subprocess.run(["gnuplot"], input=script.encode(), check=True, capture_output=True,
                       timeout=60)
    except (OSError, subprocess.SubprocessError) as e:
        print(f"gnuplot: {e}", file=sys.stderr)
    finally:
        os.remove(data)


def write_markdown(args, r, samples, failures):
    commit = args.commit or subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
        cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    lines = [
        f"# scamcheckd: RSS soak ({time.strftime('%Y-%m-%d', time.gmtime())}, commit {commit})",
        "",
        f"`tests/server/soak_test.py --duration {args.duration:g} --warmup {args.warmup:g} "
        f"--threads {args.threads} --rate {args.rate:g} --users {args.users}`: one scamcheckd "
        "(`--workers 2`) on loopback and a temporary SQLite file under a steady mixed load (JSON "
        "scans, check-API checks and status polls, PNG and PDF uploads, MCP `scan_text` calls). "
        "VmRSS, RssAnon and RssFile sampled from `/proc/<pid>/status` every second; the "
        "reference is the mean of the 5 samples after the warm-up. The machine (2 cores) was "
        "shared with other work, so the rate was kept modest.",
        "",
        "| measure | value |",
        "|---|---|",
        f"| requests tried | {r['tried']} |",
        f"| 5xx answers (of which not 503) | {r['5xx']} ({r['unexpected_5xx']}) |",
        f"| reports / checks acknowledged | {r['reports_acknowledged']} / "
        f"{r['checks_acknowledged']} |",
        f"| VmRSS at start | {r['rss_start_kib']} KiB |",
        f"| VmRSS reference after {args.warmup:g} s | {r['rss_reference_kib']} KiB |",
        f"| VmRSS after the reference: min / max | {r['rss_min_after_kib']} / "
        f"{r['rss_max_after_kib']} KiB |",
        f"| largest change from the reference | {r['rss_max_change']:.1%} "
        f"(limit {args.tolerance:.0%}) |",
        f"| VmRSS at the end | {r['rss_end_kib']} KiB |",
        "",
        "Answers by request kind and status:",
        "",
        "| kind and status | count |",
        "|---|---|",
    ]
    lines += [f"| {k} | {c} |" for k, c in r["statuses"].items()]
    if args.png:
        lines += ["", f"![RSS curve]({os.path.basename(args.png)})"]
    step = max(1, len(samples) // 60)
    lines += ["", f"The curve (every {step} s):", "",
              "| s | VmRSS KiB | RssAnon KiB | RssFile KiB | requests so far |",
              "|---|---|---|---|---|"]
    for i in list(range(0, len(samples), step)) + ([len(samples) - 1]
                                                   if (len(samples) - 1) % step else []):
        t, rss, anon, file_, tried = samples[i]
        lines.append(f"| {t:g} | {rss} | {anon} | {file_} | {tried} |")
    verdict = "**passed**" if not failures else "**failed**: " + "; ".join(failures)
    lines += ["", "Result: " + verdict, ""]
    with open(args.out, "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
