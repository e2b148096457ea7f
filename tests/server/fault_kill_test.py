#!/usr/bin/env python3
"""SIGKILLs under a mixed load: nothing acknowledged is lost.

Runs scamcheckd on a fixed loopback port and one SQLite file, sends a mixed
load (JSON scans, check-API checks and their completion, PNG/PDF uploads,
MCP tool calls; fault_common.MixedLoad) for --duration seconds and kills
the server with SIGKILL --kills times, spread over the run, starting it
again on the same database each time. Then every acknowledged report (200)
is read back with GET /api/v1/reports/{id}, every acknowledged check (201)
must be in the SQLite file and end completed or failed (the contract: no
check stays processing longer than the analysis timeout plus one restart),
and `PRAGMA integrity_check` must say ok. Any 5xx other than 503 fails the
run too.

  fault_kill_test.py --binary build/adapters/server/scamcheckd               # CTest: 40 s, 4 kills
  fault_kill_test.py --binary ... --duration 120 --kills 20 --out results.md  # the full run
"""

import argparse
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fault_common import Daemon, MixedLoad  # noqa: E402

ANALYSIS_TIMEOUT = 5


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--duration", type=float, default=40, help="seconds of load")
    parser.add_argument("--kills", type=int, default=4, help="SIGKILLs spread over the load")
    parser.add_argument("--threads", type=int, default=4, help="client threads")
    parser.add_argument("--rate", type=float, default=20, help="requests per second, all threads")
    parser.add_argument("--users", type=int, default=4)
    parser.add_argument("--out", help="write the results as Markdown here")
    parser.add_argument("--commit", help="the commit named in --out (default: git HEAD)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()

    directory = tempfile.mkdtemp(prefix="scamcheckd-fault-")
    daemon = Daemon(os.path.abspath(args.binary), directory, "--workers", "2",
                    "--analysis-timeout", str(ANALYSIS_TIMEOUT), "--log-level", "notice")
    daemon.start()
    tokens = [daemon.user(f"fault{i}@example.com") for i in range(args.users)]
    load = MixedLoad(daemon, tokens, threads=args.threads, rate=args.rate)
    rnd = random.Random(2121)
    slot = args.duration / max(args.kills, 1)
    kill_at = [slot * (i + 0.25 + 0.5 * rnd.random()) for i in range(args.kills)]
    restarts = []  # seconds from SIGKILL to listening again
    started = time.monotonic()
    load.start()
    for at in kill_at:
        delay = started + at - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        t0 = time.monotonic()
        daemon.kill()
        time.sleep(rnd.uniform(0.05, 0.3))  # clients meet a closed port meanwhile
        daemon.start()
        restarts.append(time.monotonic() - t0)
    delay = started + args.duration - time.monotonic()
    if delay > 0:
        time.sleep(delay)
    load.stop()
    elapsed = time.monotonic() - started
    summary = load.summary()

    # Every acknowledged check ends completed or failed within the analysis
    # timeout (the server was last started at most a few seconds ago).
    deadline = time.monotonic() + ANALYSIS_TIMEOUT + 30
    processing = None
    while time.monotonic() < deadline:
        with sqlite3.connect(f"file:{daemon.db}?mode=ro", uri=True, timeout=10) as db:
            (processing,) = db.execute(
                "SELECT count(*) FROM checks WHERE status = 'processing'").fetchone()
        if processing == 0:
            break
        time.sleep(0.5)

    # Every acknowledged report, read back through the API by its owner.
    reports_lost = []
    for report_id, token in load.reports.items():
        status, body = daemon.request("GET", "/api/v1/reports/" + report_id, token=token)
        if status != 200 or body.get("id") != report_id:
            reports_lost.append((report_id, status))
    stop_code = daemon.stop()

    with sqlite3.connect(daemon.db) as db:
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        stored_reports = {r for (r,) in db.execute("SELECT public_id FROM reports")}
        checks = dict(db.execute("SELECT uuid, status FROM checks"))
    reports_missing_in_file = [r for r in load.reports if r not in stored_reports]
    checks_lost = [u for u in load.checks if u not in checks]
    check_states = {}
    for uuid in load.checks:
        state = checks.get(uuid, "missing")
        check_states[state] = check_states.get(state, 0) + 1

    result = {
        "duration_s": round(elapsed, 1), "kills": len(kill_at), "threads": args.threads,
        "rate_per_s": args.rate, **summary,
        "reports_lost_api": len(reports_lost), "reports_lost_file": len(reports_missing_in_file),
        "checks_lost": len(checks_lost), "acknowledged_check_states": check_states,
        "checks_still_processing": processing, "integrity_check": integrity,
        "restart_s_max": round(max(restarts), 3) if restarts else None,
        "restart_s_mean": round(sum(restarts) / len(restarts), 3) if restarts else None,
        "sigterm_exit": stop_code,
    }
    print(json.dumps(result, indent=2))
    failures = []
    if reports_lost or reports_missing_in_file:
        failures.append(f"reports lost: {reports_lost[:5]} {reports_missing_in_file[:5]}")
    if checks_lost:
        failures.append(f"checks lost: {checks_lost[:5]}")
    if processing:
        failures.append(f"{processing} checks still processing")
    if integrity != "ok":
        failures.append(f"integrity_check: {integrity}")
    if load.unexpected:
        failures.append(f"unexpected 5xx: {load.unexpected[:5]}")
    if summary["reports_acknowledged"] == 0 or summary["checks_acknowledged"] == 0:
        failures.append("nothing acknowledged: the load did not run")
    if stop_code != 0:
        failures.append(f"SIGTERM exit status {stop_code}")
    if args.out:
        write_markdown(args, result, failures)
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures), file=sys.stderr)
        print(daemon.read_log()[-3000:], file=sys.stderr)
        sys.exit(1)
    if not args.keep:
        shutil.rmtree(directory, ignore_errors=True)
    print("ok")


def write_markdown(args, r, failures):
    commit = args.commit or subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
        cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    lines = [
        f"# scamcheckd: SIGKILLs under a mixed load ({time.strftime('%Y-%m-%d', time.gmtime())}, "
        f"commit {commit})",
        "",
        "`tests/server/fault_kill_test.py --duration {:g} --kills {} --threads {} --rate {:g} "
        "--users {}`: one scamcheckd (`--workers 2 --analysis-timeout {}`) on loopback and one "
        "SQLite file, killed with SIGKILL {} times during the load and started again on the same "
        "database each time. The load: JSON scans, check-API checks and status polls, PNG and "
        "PDF uploads, MCP `scan_text` calls over HTTP. The machine (2 cores) was shared with "
        "other work, so the rate was kept modest.".format(
            args.duration, args.kills, args.threads, args.rate, args.users, ANALYSIS_TIMEOUT,
            r["kills"]),
        "",
        "| measure | value |",
        "|---|---|",
        f"| load duration | {r['duration_s']} s |",
        f"| SIGKILLs (restart to listening: mean / max) | {r['kills']} "
        f"({r['restart_s_mean']} s / {r['restart_s_max']} s) |",
        f"| requests tried | {r['tried']} |",
        f"| connection errors (server down or killed mid-request) | {r['connection_errors']} |",
        f"| 5xx answers (of which not 503) | {r['5xx']} ({r['unexpected_5xx']}) |",
        f"| reports acknowledged (200) | {r['reports_acknowledged']} |",
        f"| checks acknowledged (201) | {r['checks_acknowledged']} |",
        f"| reports lost (GET by owner / in the file) | {r['reports_lost_api']} / "
        f"{r['reports_lost_file']} |",
        f"| checks lost | {r['checks_lost']} |",
        f"| acknowledged checks at the end | {r['acknowledged_check_states']} |",
        f"| `PRAGMA integrity_check` | {r['integrity_check']} |",
        f"| SIGTERM at the end: exit status | {r['sigterm_exit']} |",
        "",
        "Answers by request kind and status:",
        "",
        "| kind and status | count |",
        "|---|---|",
    ]
    lines += [f"| {k} | {c} |" for k, c in r["statuses"].items()]
    verdict = "**passed**" if not failures else "**failed**: " + "; ".join(failures)
    lines += ["", "Result: " + verdict, ""]
    with open(args.out, "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
