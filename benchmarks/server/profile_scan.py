#!/usr/bin/env python3
"""Where a scan's CPU goes in scamcheckd, for two binaries side by side.

Starts each binary (e.g. a baseline built from main, and a candidate) on
loopback with a temporary SQLite file, runs wrk (benchmarks/server/scan.lua,
an SMS) at --connections against it while `perf record --call-graph dwarf`
samples the server, and sorts every sample into one bucket by its stack
(first match in the order of the table). The server's CPU µs per request
(user + system time from /proc/PID/stat over the run, divided by the
requests) is split by the buckets' shares. Prints a Markdown table; --out
writes it too. Needs perf (linux-perf) and wrk.

  benchmarks/server/profile_scan.py --base BIN --new BIN [--seconds 5]
      [--connections 64] [--out FILE]
"""

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "server"))
from fault_common import Daemon  # noqa: E402

# (bucket, regular expression over the sample's stack), first match wins.
BUCKETS = [
    ("analyze() (the library)", r"AnalyzerImpl::analyze"),
    ("report JSON (report_to_json)", r"report_to_json"),
    ("stored report compaction (zstd)", r"compact_report"),
    ("store writer: the report's INSERTs", r"SqliteStore::insert_report"),
    ("store writer: COMMIT (WAL frames)", r"writer_loop.*(CommitPhase|sqlite3WalFrames)|"
                                          r"(CommitPhase|sqlite3WalFrames).*writer_loop"),
    ("store writer: answering (response on the writer thread)",
     r"writer_loop.*(answer_scan|Exchange::respond)|(answer_scan|Exchange::respond).*writer_loop"),
    ("store writer: waiting, waking", r"writer_loop.*(futex|pthread_cond|schedule)|"
                                      r"(futex|pthread_cond|schedule).*writer_loop"),
    ("store writer: WAL restart pass (past ~64 MB)", r"restart_wal"),
    ("store writer: BEGIN, savepoints, other", r"writer_loop"),
    ("WAL checkpoints (own thread)", r"checkpoint_loop|sqlite3_wal_checkpoint"),
    ("response: head, Beast write, sendmsg", r"Session::write|sendmsg"),
    ("routing, auth, allowance, JSON body", r"Router::|parse_scan_body|run_scan_flow|handle_scan"),
    ("request: read, HTTP parse", r"recvmsg|basic_parser|Session::on_header|Session::read_header|"
                                  r"Session::to_request|Session::wait_for_request"),
    ("context switches (kernel)", r"finish_task_switch|__schedule"),
    ("I/O loop, timers, other", r""),
]


def ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def stacks(perf_data):
    out = subprocess.run(["perf", "script", "-i", perf_data, "-F", "comm,tid,ip,sym"],
                         capture_output=True, text=True, errors="replace").stdout
    stack = []
    for line in out.splitlines():
        if not line.strip():
            if stack:
                yield "|".join(stack)
            stack = []
        elif line.startswith((" ", "\t")) and stack is not None:
            stack.append(line.strip())
        else:
            if stack:
                yield "|".join(stack)
            stack = []
    if stack:
        yield "|".join(stack)


def profile(binary, tmp, name, seconds, connections):
    d = os.path.join(tmp, name)
    os.mkdir(d)
    daemon = Daemon(binary, d, "--workers", "2", "--log-level", "notice",
                    "--max-connections-per-address", "0", "--scan-per-minute", "0",
                    "--reads-per-minute", "0", "--max-connections", "512")
    token = daemon.user(f"{name}@example.com")
    daemon.start()
    url = f"http://127.0.0.1:{daemon.port}/api/v1/scan"
    env = {**os.environ, "SCAMCHECK_TOKEN": token}
    lua = os.path.join(HERE, "scan.lua")
    try:
        subprocess.run(["wrk", "-t2", "-c8", "-d2s", "-s", lua, url], env=env,
                       stdout=subprocess.DEVNULL, check=True)  # warm-up
        perf_data = os.path.join(d, "perf.data")
        t0 = ticks(daemon.proc.pid)
        wrk = subprocess.Popen(["wrk", f"-t{min(2, connections)}", f"-c{connections}", f"-d{seconds}s", "-s", lua, url],
                               env=env, stdout=subprocess.PIPE, text=True)
        perf = subprocess.Popen(["perf", "record", "-q", "-F", "800", "--call-graph", "dwarf,16384",
                                 "-p", str(daemon.proc.pid), "-o", perf_data],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        report = wrk.communicate()[0]
        perf.send_signal(2)
        perf.wait()
        t1 = ticks(daemon.proc.pid)
    finally:
        daemon.stop()
    requests = int(re.search(r"(\d+) requests in", report).group(1))
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", report).group(1))
    cpu_us = (t1 - t0) * 1e6 / os.sysconf("SC_CLK_TCK") / requests
    counts = collections.Counter()
    for stack in stacks(perf_data):
        for bucket, pattern in BUCKETS:
            if re.search(pattern, stack):
                counts[bucket] += 1
                break
    return {"rps": rps, "cpu_us": cpu_us, "counts": counts, "samples": sum(counts.values())}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--connections", type=int, default=64)
    ap.add_argument("--out")
    args = ap.parse_args()
    for tool in ("perf", "wrk"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        runs = {name: profile(getattr(args, name), tmp, name, args.seconds, args.connections)
                for name in ("base", "new")}
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    rows = []
    for bucket, _ in BUCKETS:
        cells = []
        for name in ("base", "new"):
            r = runs[name]
            share = r["counts"][bucket] / max(1, r["samples"])
            cells.append(f"{100 * share:.1f}% | {share * r['cpu_us']:.1f}")
        rows.append(f"| {bucket} | {' | '.join(cells)} |")
    lines = [
        "# Where a scan's CPU goes in scamcheckd: baseline and candidate",
        "",
        f"- date: {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}",
        f"- commit: {commit}",
        f"- base: {args.base}",
        f"- new: {args.new}",
        f"- machine: {os.cpu_count()} cores; wrk on the same machine; load average at the end: {load}",
        f"- SMS scans (`scan.lua`) at {args.connections} connections for {args.seconds} s per "
        "binary, `--workers 2`, SQLite; `perf record -F 800 --call-graph dwarf`; each sample in "
        "the first bucket whose pattern its stack matches",
        f"- command: benchmarks/server/profile_scan.py --base BASE --new NEW --seconds "
        f"{args.seconds} --connections {args.connections}",
        "",
        f"Requests/s during the profile: base {runs['base']['rps']:.0f}, new "
        f"{runs['new']['rps']:.0f}. Server CPU per request (all threads): base "
        f"{runs['base']['cpu_us']:.1f} µs, new {runs['new']['cpu_us']:.1f} µs "
        f"({runs['base']['samples']} and {runs['new']['samples']} samples).",
        "",
        "| where | base share | base µs/request | new share | new µs/request |",
        "|---|---:|---:|---:|---:|",
        *rows,
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
