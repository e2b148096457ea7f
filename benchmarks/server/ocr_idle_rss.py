#!/usr/bin/env python3
"""RSS of scamcheckd around its first OCR, for two binaries side by side.

Starts each binary (e.g. a baseline built from main, and a candidate) on
loopback with a temporary SQLite file, at the same time, and samples VmRSS
from /proc/<pid>/status: after start (idle, nothing OCRed yet), right after
a few PNG uploads (OCR engines loaded), and then every 5 s for --wait
seconds of idleness (a pool that ends unused engines shows the drop).
Prints a Markdown table; --out writes it too.

  benchmarks/server/ocr_idle_rss.py --base BIN --new BIN [--wait 80] [--out FILE]
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "server"))
from fault_common import PNG_FIXTURE, Daemon, form  # noqa: E402


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--wait", type=int, default=80)
    ap.add_argument("--uploads", type=int, default=4)
    ap.add_argument("--out")
    args = ap.parse_args()
    with open(PNG_FIXTURE, "rb") as f:
        png = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        daemons = {}
        for name in ("base", "new"):
            d = os.path.join(tmp, name)
            os.mkdir(d)
            daemon = Daemon(getattr(args, name), d, "--workers", "2", "--log-level", "notice")
            token = daemon.user(f"{name}@example.com")
            daemon.start()
            daemons[name] = (daemon, token)
        try:
            time.sleep(2)
            samples = {name: [("idle after start", rss_kib(d.proc.pid))]
                       for name, (d, _) in daemons.items()}
            for name, (d, token) in daemons.items():
                for _ in range(args.uploads):
                    body, ctype = form([("file", png, "shot.png", "image/png"),
                                        ("locale", "en", None, None)])
                    status, _ = d.request("POST", "/api/v1/scan", body, token=token,
                                          headers={"Content-Type": ctype}, timeout=120)
                    if status != 200:
                        raise RuntimeError(f"{name}: image scan answered {status}")
                samples[name].append((f"after {args.uploads} image scans", rss_kib(d.proc.pid)))
            start = time.monotonic()
            while time.monotonic() - start < args.wait:
                time.sleep(5)
                t = round(time.monotonic() - start)
                for name, (d, _) in daemons.items():
                    samples[name].append((f"idle {t} s later", rss_kib(d.proc.pid)))
        finally:
            for d, _ in daemons.values():
                d.stop()
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    lines = [
        "# scamcheckd RSS around the first OCR: baseline and candidate",
        "",
        f"- date: {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}",
        f"- commit: {commit}",
        f"- base: {args.base}",
        f"- new: {args.new}",
        f"- command: benchmarks/server/ocr_idle_rss.py --wait {args.wait} --uploads {args.uploads}",
        "- both servers `--workers 2`, started together, SQLite in a temporary directory;"
        f" {args.uploads} PNG uploads (tests/mcp/fixtures/qr_phishing_url.png) each, then idle",
        "",
        "| moment | base VmRSS MB | new VmRSS MB |",
        "|---|---:|---:|",
    ]
    for (moment, b), (_, n) in zip(samples["base"], samples["new"]):
        lines.append(f"| {moment} | {b / 1024:.1f} | {n / 1024:.1f} |")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
