#!/usr/bin/env python3
"""The disk filling up under scamcheckd's SQLite database, and space returning.

The server runs under a soft RLIMIT_FSIZE with SIGXFSZ ignored
(fault_common.Daemon), so a write past the limit fails with EFBIG as on a
full filesystem, without root or a loop mount. The test lowers the running
server's limit (prlimit) to the size of its WAL, sends scans,
check-API checks and MCP calls until writes fail, and expects:

- scans and uploads answered 503 with the `/problems/unavailable` problem
  document, never a 500, a crash or a hang; the check API and MCP answer 503 too
  (MCP: a tool error), never 500;
- /health answering 503 with `status: "degraded"` and `database:
  "unavailable"` while nothing can be written;
- once the limit is raised again (space returns), without a restart:
  scans answer 200 again, /health says ok, everything acknowledged before,
  during and after is in the database and `PRAGMA integrity_check` is ok.

  disk_full_test.py --binary build/adapters/server/scamcheckd
"""

import argparse
import os
import resource
import shutil
import sqlite3
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fault_common import PDF_FIXTURE, SCAM, SMS, Daemon, form  # noqa: E402

MCP_HEADERS = {"MCP-Protocol-Version": "2025-11-25"}


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def wal_size(daemon):
    """The WAL grows with every commit (no checkpoint runs before 4,000
    pages), so a limit at its current size refuses every new commit."""
    return os.path.getsize(daemon.db + "-wal")


def scan(daemon, token, n):
    return daemon.request("POST", "/api/v1/scan", {"content": f"{SCAM} disk {n}"}, token=token,
                          timeout=20)


def mcp_scan(daemon, token, n):
    return daemon.request("POST", "/mcp/scamcheck",
                          {"jsonrpc": "2.0", "id": n, "method": "tools/call",
                           "params": {"name": "scan_text", "arguments": {"text": f"{SCAM} {n}"}}},
                          token=token, headers=MCP_HEADERS, timeout=20)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()

    directory = tempfile.mkdtemp(prefix="scamcheckd-diskfull-")
    daemon = Daemon(os.path.abspath(args.binary), directory, "--workers", "2",
                    "--analysis-timeout", "5", "--log-level", "notice",
                    fsize=resource.RLIM_INFINITY)
    daemon.start()
    token = daemon.user("disk@example.com")
    acknowledged = []
    try:
        for n in range(5):
            status, body = scan(daemon, token, n)
            check(status == 200, f"scan before the limit: {status} {body}")
            acknowledged.append(body["id"])
        status, body = daemon.request("GET", "/health")
        check(status == 200 and body["status"] == "ok", f"health before: {status} {body}")

        # The filesystem is full: nothing past the current end of the files.
        limit = wal_size(daemon)
        check(limit > 0, "no WAL")
        daemon.set_fsize(limit)
        refused = None
        for n in range(5, 2005):
            status, body = scan(daemon, token, n)
            check(status in (200, 503), f"scan on a full disk: {status} {body}")
            if status == 200:
                acknowledged.append(body["id"])
                continue
            refused = body
            break
        check(refused is not None, "2,000 scans fitted under the file size limit")
        check(refused["type"].endswith("/problems/unavailable") and refused["status"] == 503,
              f"problem document: {refused}")
        print(f"writes failed after {len(acknowledged) - 5} scans (limit {limit} bytes)")
        for n in range(3):
            status, body = scan(daemon, token, 10000 + n)
            check(status == 503 and body["type"].endswith("/problems/unavailable"),
                  f"scan while full: {status} {body}")
            status, body = daemon.request("POST", "/api/checks",
                                          {"type": "text", "content": f"{SMS} {n}"}, token=token)
            check(status == 503 and isinstance(body.get("message"), str),
                  f"check while full: {status} {body}")
            with open(PDF_FIXTURE, "rb") as f:
                upload, content_type = form([("file", f.read(), "letter.pdf", "application/pdf")])
            status, body = daemon.request("POST", "/api/v1/scan", upload, token=token,
                                          headers={"Content-Type": content_type}, timeout=20)
            check(status == 503 and body["type"].endswith("/problems/unavailable"),
                  f"upload while full: {status} {body}")
            status, body = mcp_scan(daemon, token, 20000 + n)
            check(status == 503 or (status == 200 and body["result"].get("isError")),
                  f"MCP while full: {status} {body}")
        status, body = daemon.request("GET", "/health")
        check(status == 503 and body["status"] == "degraded"
              and body["checks"]["database"] == "unavailable",
              f"health while full: {status} {body}")
        status, body = daemon.request("GET", "/api/v1/reports/" + acknowledged[0], token=token)
        check(status == 200, f"reads while full: {status} {body}")
        check(daemon.alive(), "the server died on a full disk")

        # Space returns: no restart.
        daemon.set_fsize(resource.RLIM_INFINITY)
        deadline = time.monotonic() + 10
        while True:
            status, body = daemon.request("GET", "/health")
            if status == 200:
                break
            check(time.monotonic() < deadline, f"health after space returned: {status} {body}")
            time.sleep(0.2)
        check(body["status"] == "ok", body)
        for n in range(5):
            status, body = scan(daemon, token, 30000 + n)
            check(status == 200, f"scan after space returned: {status} {body}")
            acknowledged.append(body["id"])
        status, body = daemon.request("POST", "/api/checks",
                                      {"type": "text", "content": SMS}, token=token)
        check(status == 201, f"check after space returned: {status} {body}")
        uuid = body["check"]["uuid"]
        status, body = mcp_scan(daemon, token, 40000)
        check(status == 200 and not body["result"].get("isError"), f"MCP after: {status} {body}")
        acknowledged.append(body["result"]["structuredContent"]["id"])
        deadline = time.monotonic() + 20
        while True:
            status, body = daemon.request("GET", f"/api/checks/{uuid}/status", token=token)
            check(status == 200, body)
            if not body["is_pending"]:
                break
            check(time.monotonic() < deadline, "the check was not completed")
            time.sleep(0.2)
        check(body["status"] == "completed", body)
        check(daemon.alive(), "the server died")
        code = daemon.stop()
        check(code == 0, f"SIGTERM exit status {code}")
        with sqlite3.connect(daemon.db) as db:
            integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
            stored = {r for (r,) in db.execute("SELECT public_id FROM reports")}
        check(integrity == "ok", f"integrity_check: {integrity}")
        lost = [r for r in acknowledged if r not in stored]
        check(not lost, f"acknowledged reports lost: {lost}")
        print(f"ok: {len(acknowledged)} reports acknowledged, none lost; integrity_check ok")
    except BaseException:
        daemon.stop()
        print(daemon.read_log()[-4000:], file=sys.stderr)
        raise
    if not args.keep:
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
