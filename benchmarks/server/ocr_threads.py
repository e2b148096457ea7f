#!/usr/bin/env python3
"""Image scans (OCR) with and without OMP_THREAD_LIMIT=1, one binary.

Tesseract's LSTM runs OpenMP loops with several threads; OpenMP's idle
threads spin, so on a machine whose cores are busy an OCR can take many
times longer. scamcheckd sets OMP_THREAD_LIMIT=1 for itself (main.cc) when
the environment does not set it. This measures what that costs or saves:
it starts BIN with OMP_THREAD_LIMIT unset in its environment's place (a
binary that does not set it itself, e.g. one built from main, shows the
OpenMP default) and with OMP_THREAD_LIMIT=1, and times --uploads PNG
uploads (tests/mcp/fixtures/qr_phishing_url.png) one after another:
alone, then while wrk sends SMS scans at 64 connections (busy cores).
Prints a Markdown table; --out writes it too.

  benchmarks/server/ocr_threads.py --binary BIN [--uploads 8] [--out FILE]
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "server"))
from fault_common import PNG_FIXTURE, Daemon, form  # noqa: E402


def upload_times(daemon, token, png, n):
    times = []
    for _ in range(n):
        body, ctype = form([("file", png, "shot.png", "image/png"), ("locale", "en", None, None)])
        start = time.monotonic()
        status, _ = daemon.request("POST", "/api/v1/scan", body, token=token,
                                   headers={"Content-Type": ctype}, timeout=300)
        times.append((time.monotonic() - start) * 1000)
        if status != 200:
            raise RuntimeError(f"image scan answered {status}")
    return times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--uploads", type=int, default=8)
    ap.add_argument("--out")
    args = ap.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed (apt-get install wrk)")
    with open(PNG_FIXTURE, "rb") as f:
        png = f.read()
    rows = []
    for label, value in (("unset (OpenMP default)", None), ("1", "1")):
        env_before = os.environ.pop("OMP_THREAD_LIMIT", None)
        if value is not None:
            os.environ["OMP_THREAD_LIMIT"] = value
        with tempfile.TemporaryDirectory() as tmp:
            daemon = Daemon(args.binary, tmp, "--workers", "2", "--log-level", "notice",
                            "--max-connections-per-address", "0", "--scan-per-minute", "0",
                            "--reads-per-minute", "0")
            token = daemon.user("ocr@example.com")
            daemon.start()
            try:
                upload_times(daemon, token, png, 2)  # engines loaded, not measured
                alone = upload_times(daemon, token, png, args.uploads)
                lua = os.path.join(HERE, "scan.lua")
                wrk = subprocess.Popen(
                    ["wrk", "-t2", "-c64", "-d600s", "-s", lua,
                     f"http://127.0.0.1:{daemon.port}/api/v1/scan"],
                    env={**os.environ, "SCAMCHECK_TOKEN": token},
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                try:
                    time.sleep(1)
                    busy = upload_times(daemon, token, png, args.uploads)
                finally:
                    wrk.terminate()
                    wrk.wait()
            finally:
                daemon.stop()
        os.environ.pop("OMP_THREAD_LIMIT", None)
        if env_before is not None:
            os.environ["OMP_THREAD_LIMIT"] = env_before
        for case, times in (("alone", alone), ("during SMS load (64 connections)", busy)):
            rows.append(f"| {label} | {case} | {statistics.median(times):.0f} | "
                        f"{max(times):.0f} | {', '.join(f'{t:.0f}' for t in times)} |")
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    lines = [
        "# Image scans (OCR) with and without OMP_THREAD_LIMIT=1",
        "",
        f"- date: {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}",
        f"- commit: {commit}",
        f"- binary: {args.binary}",
        f"- machine: {os.cpu_count()} cores; wrk on the same machine; load average at the end: {load}",
        f"- {args.uploads} PNG uploads one after another per case (after 2 not measured); "
        "`--workers 2`, SQLite",
        f"- command: benchmarks/server/ocr_threads.py --binary BIN --uploads {args.uploads}",
        "",
        "| OMP_THREAD_LIMIT in the environment | case | median ms | max ms | every upload, ms |",
        "|---|---|---:|---:|---|",
        *rows,
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
