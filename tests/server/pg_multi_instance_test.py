#!/usr/bin/env python3
"""Several scamcheckd processes on one PostgreSQL database (issue: CONTRACT §8).

Starts a PostgreSQL 15 cluster of its own (pg_cluster.py: it stops and
restarts it), three `scamcheckd serve` on one database started at once (the
migration runs under an advisory lock), and checks that what one process
kept in memory is shared: the daily allowance and the per-minute limits
are exact across the three, a token revoked or a plan changed with the
operator CLI is applied by all within 1 s, data written on one is read on
the others, a check whose process is killed with SIGKILL mid-analysis is
completed by another once its lease runs out (exactly once), the database
going away answers 503 and recovers without a restart, and an unreachable
database or a newer schema refuses to start (exit 69). With --haproxy the
committed examples/deploy/haproxy.cfg (ports adjusted) balances two of them.

  pg_multi_instance_test.py --binary build/adapters/server/scamcheckd \
      [--haproxy /usr/sbin/haproxy --haproxy-config examples/deploy/haproxy.cfg]
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pg_cluster  # noqa: E402
import server_test as base  # noqa: E402
from server_test import Server  # noqa: E402
from workflow_standin import WorkflowStandIn  # noqa: E402

HAPROXY = None
HAPROXY_CONFIG = None
CLUSTER = None
SERVERS = []
SHARED_DIR = None


def start_all(servers):
    """Starts servers at once (their migrations race for the advisory lock)."""
    with concurrent.futures.ThreadPoolExecutor(len(servers)) as pool:
        list(pool.map(lambda s: s.start(), servers))
    return servers


def setUpModule():
    global CLUSTER, SHARED_DIR
    if not pg_cluster.available():
        pg_cluster.skip_or_fail("the PostgreSQL 15 binaries are not installed "
                                "(apt-get install postgresql-15)")
    CLUSTER = pg_cluster.Cluster(tempfile.mkdtemp(prefix="scamcheck-pg-multi-"))
    CLUSTER.start(settings=("fsync=off",))
    base.PG = CLUSTER
    SHARED_DIR = tempfile.mkdtemp(prefix="scamcheckd-multi-")
    SERVERS.extend(start_all([Server("--workers", "2", "--analysis-timeout", "4",
                                     "--database-pool", "3", db_dir=SHARED_DIR)
                              for _ in range(3)]))


def tearDownModule():
    for s in SERVERS:
        s.stop()
    if CLUSTER:
        CLUSTER.destroy()


def parallel(calls):
    """Runs the (function, args) pairs at once; their results in order."""
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        return list(pool.map(lambda c: c[0](*c[1]), calls))


def wait_for_fresh_minute(need=10):
    if 60 - time.time() % 60 < need:
        time.sleep(60 - time.time() % 60 + 0.2)


class Shared(unittest.TestCase):
    def test_migrated_once(self):
        rows = CLUSTER.psql("SELECT version FROM schema_migrations ORDER BY version",
                            SERVERS[0].dbname)
        versions = [int(r[0]) for r in rows]
        self.assertEqual(versions, sorted(set(versions)))

    def test_daily_allowance_is_exact_across_instances(self):
        token = SERVERS[0].user("daily@example.com", plan="free")  # 10 per day
        calls = [(SERVERS[i % 3].scan, (token, f"{base.SMS} #{i}")) for i in range(30)]
        codes = [r[0] for r in parallel(calls)]
        self.assertEqual(codes.count(200), 10, codes)
        self.assertEqual(codes.count(429), 20, codes)
        for server in SERVERS:  # the 11th is refused wherever it lands
            self.assertEqual(server.scan(token, base.SMS + " again")[0], 429)
        rows = CLUSTER.psql("SELECT count(*) FROM reports r JOIN users u ON u.id = r.user_id "
                            "WHERE u.email = 'daily@example.com'", SERVERS[0].dbname)
        self.assertEqual(rows, [["10"]])

    def test_minute_limit_across_instances(self):
        token = SERVERS[0].user("minute@example.com", plan="pro")
        wait_for_fresh_minute()
        # The check API allows 60 requests per minute per user (CONTRACT §3).
        calls = [(SERVERS[i % 3].request, ("GET", "/api/user", None, token)) for i in range(75)]
        codes = [r[0] for r in parallel(calls)]
        self.assertLessEqual(abs(codes.count(200) - 60), 1, codes)
        self.assertEqual(codes.count(200) + codes.count(429), 75, codes)
        for server in SERVERS:
            code, headers, _, _ = server.request("GET", "/api/user", token=token)
            self.assertEqual(code, 429)
            self.assertEqual(headers["x-ratelimit-remaining"], "0")

    def test_revocation_and_plan_change_reach_every_instance(self):
        token = SERVERS[0].user("revoke@example.com", plan="free")
        for server in SERVERS:  # every process has the token cached now
            self.assertEqual(server.request("GET", "/api/user/plan", token=token)[0], 200)
        code, _, err = SERVERS[1].cli("user", "set-plan", "--email", "revoke@example.com",
                                      "--plan", "pro")
        self.assertEqual(code, 0, err)
        changed = time.monotonic()
        for server in SERVERS:
            while True:
                _, _, _, body = server.request("GET", "/api/user/plan", token=token)
                if body["plan"]["name"] == "pro":
                    break
                self.assertLess(time.monotonic() - changed, 1.0, body)
                time.sleep(0.02)
        code, _, err = SERVERS[2].cli("token", "revoke", "--email", "revoke@example.com",
                                      "--name", "main")
        self.assertEqual(code, 0, err)
        revoked = time.monotonic()
        for server in SERVERS:
            while server.request("GET", "/api/user", token=token)[0] != 401:
                self.assertLess(time.monotonic() - revoked, 1.0)
                time.sleep(0.02)

    def test_data_written_on_one_is_read_on_the_others(self):
        a, b, c = SERVERS
        token = a.user("data@example.com", plan="pro")
        _, _, _, report = a.scan(token)
        for server in (b, c):
            self.assertEqual(server.request("GET", "/api/v1/reports/" + report["id"],
                                            token=token)[0], 200)
        # A URL scan's cached reputation answers, written by one, answer the
        # same scan on another (not counted).
        free = a.user("urlcache@example.com", plan="free")
        code, h, _, first = a.scan(free, "https://login.example.net/verify", kind="url")
        self.assertEqual((code, h["x-ratelimit-remaining"]), (200, "9"))
        self.assertEqual([u["cached"] for u in first["urls"]], [False])
        code, h, _, again = b.scan(free, "https://login.example.net/verify", kind="url")
        self.assertEqual((code, h["x-ratelimit-remaining"]), (200, "9"))
        self.assertEqual([u["cached"] for u in again["urls"]], [True])
        # A check created on one, polled on another.
        code, _, _, body = a.request("POST", "/api/checks",
                                     {"type": "text", "content": base.SCAM}, token=token)
        self.assertEqual(code, 201)
        uuid = body["check"]["uuid"]
        deadline = time.monotonic() + 10
        while True:
            _, _, _, status = b.request("GET", f"/api/checks/{uuid}/status", token=token)
            if not status["is_pending"]:
                break
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.1)
        self.assertEqual(c.request("GET", f"/api/checks/{uuid}", token=token)[0], 200)
        # A questionnaire started on one, answered on another, completed on the third.
        _, _, _, started = a.request("POST", "/api/questionnaires/was-i-phished/start",
                                     token=token)
        rid = started["response"]["uuid"]
        _, _, _, q = a.request("GET", "/api/questionnaires/was-i-phished", token=token)
        answers = [{"question_id": x["id"],
                    "value": "no" if x["type"] == "yes_no" else x["options"][0]["value"]}
                   for x in q["questions"]]
        self.assertEqual(b.request("POST", f"/api/questionnaire-responses/{rid}/answers",
                                   {"answers": answers}, token=token)[0], 200)
        self.assertEqual(c.request("POST", f"/api/questionnaire-responses/{rid}/complete",
                                   token=token)[0], 200)
        # A webhook secret rotated by the CLI is accepted by every process.
        code, secret, _ = a.cli("webhook", "rotate-secret")
        self.assertEqual(code, 0)
        result = {"check_uuid": uuid, "risk_level": "warning", "risk_score": 50,
                  "explanation": "x", "indicators": []}
        for server in SERVERS:  # known secret, completed check: 409 (a wrong secret is 404)
            self.assertEqual(server.request("POST", "/api/webhooks/analysis-result/" +
                                            secret.strip(), result)[0], 409)

    def test_sigkill_mid_analysis_loses_no_check(self):
        with WorkflowStandIn("hang") as wf:
            # A fourth process dispatches to a workflow that never answers,
            # so its checks stay leased to it; then it is killed.
            doomed = Server("--workflow-url", wf.url, "--analysis-timeout", "4", "--workers", "2",
                            db_dir=SHARED_DIR).start()
            token = doomed.user("kill@example.com", plan="pro")
            uuids = []
            for i in range(4):
                code, _, _, body = doomed.request(
                    "POST", "/api/checks", {"type": "text", "content": f"{base.SCAM} {i}"},
                    token=token)
                self.assertEqual(code, 201, body)
                uuids.append(body["check"]["uuid"])
            self.assertTrue(wf.wait_for(lambda w: len(w.dispatches) >= 1, timeout=5))
            doomed.stop(signal.SIGKILL)
            wf.release.set()
        killed = time.monotonic()
        for i, uuid in enumerate(uuids):
            while True:
                _, _, _, status = SERVERS[i % 3].request("GET", f"/api/checks/{uuid}/status",
                                                         token=token)
                if not status["is_pending"]:
                    break
                self.assertLess(time.monotonic() - killed, 20, status)
                time.sleep(0.1)
            self.assertEqual(status["status"], "completed")
        rows = CLUSTER.psql("SELECT uuid, source, claimed_by IS NULL FROM checks WHERE uuid IN (" +
                            ",".join(f"'{u}'" for u in uuids) + ")", SERVERS[0].dbname)
        self.assertEqual(len(rows), 4)
        self.assertTrue(all(r[1] == "local" and r[2] == "t" for r in rows), rows)
        # Each completed once, by one of the survivors: one log line per check in all.
        logs = "".join(s.read_log() for s in SERVERS)
        completions = re.findall(r'"event":"check_completed","check_ref":"([0-9a-f]+)"', logs)
        self.assertEqual(len(completions), len(set(completions)), completions)


class Faults(unittest.TestCase):
    """Last (alphabetically after Shared): stops the database."""

    def test_database_lost_while_serving_is_503_then_recovers(self):
        server = SERVERS[0]
        token = server.user("fault@example.com", plan="pro")
        self.assertEqual(server.scan(token)[0], 200)
        CLUSTER.stop("fast")
        try:
            code, _, _, body = server.request("GET", "/health")
            self.assertEqual((code, body["checks"]["database"]), (503, "unavailable"))
            for s in SERVERS:
                r = s.scan(token)
                self.assertEqual(r[0], 503, r[3])
                self.assertEqual(r[3]["type"], "/problems/unavailable")
                r = s.request("GET", "/api/user", token=token)
                self.assertIn(r[0], (401, 503), r[3])
                self.assertNotEqual(r[0], 500)
        finally:
            CLUSTER.start(settings=("fsync=off",))
        for s in SERVERS:  # no restart: the next use connects again
            deadline = time.monotonic() + 10
            while s.request("GET", "/health")[0] != 200:
                self.assertLess(time.monotonic(), deadline)
                time.sleep(0.2)
            r = s.scan(token)
            self.assertEqual(r[0], 200, (r[3], s.read_log()[-1500:]))
            self.assertIsNone(s.proc.poll())

    def test_unreachable_database_at_start_exits_69(self):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        run = subprocess.run([base.BINARY, "serve", "--listen", "127.0.0.1:0", "--database",
                              f"postgresql://postgres@127.0.0.1:{port}/none"],
                             capture_output=True, text=True, timeout=30)
        self.assertEqual(run.returncode, 69, run.stderr)
        self.assertIn("cannot connect", run.stderr)

    def test_newer_schema_refuses_to_start(self):
        directory = tempfile.mkdtemp(prefix="scamcheckd-newer-")
        server = Server(db_dir=directory).start()
        server.stop()
        CLUSTER.psql("INSERT INTO schema_migrations VALUES (9999, '9999_future.sql', 0)",
                      server.dbname)
        run = subprocess.run([base.BINARY, "serve", "--listen", "127.0.0.1:0", "--database",
                              server.url], capture_output=True, text=True, timeout=30)
        self.assertEqual(run.returncode, 69, run.stderr)
        self.assertIn("newer than this scamcheckd", run.stderr)


class Haproxy(unittest.TestCase):
    def test_two_instances_behind_haproxy(self):
        if not HAPROXY:
            pg_cluster.skip_or_fail("haproxy is not installed (apt-get install haproxy)")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        with open(HAPROXY_CONFIG) as f:
            config = f.read()
        # The example's ports (8080 in front, 8081 and 8082 behind) become these.
        config = config.replace("127.0.0.1:8081", f"127.0.0.1:{SERVERS[0].port}")
        config = config.replace("127.0.0.1:8082", f"127.0.0.1:{SERVERS[1].port}")
        config = config.replace("*:8080", f"127.0.0.1:{port}").replace(":8080", f":{port}")
        config = re.sub(r"(?m)^\s*(user|group|chroot|daemon|stats socket|log)\b.*$", "", config)
        directory = tempfile.mkdtemp(prefix="scamcheck-haproxy-")
        path = os.path.join(directory, "haproxy.cfg")
        with open(path, "w") as f:
            f.write(config)
        check = subprocess.run([HAPROXY, "-c", "-f", path], capture_output=True, text=True)
        self.assertEqual(check.returncode, 0, check.stdout + check.stderr)
        log = open(os.path.join(directory, "haproxy.log"), "wb")
        proxy = subprocess.Popen([HAPROXY, "-db", "-f", path], stdout=log, stderr=log)
        try:
            front = Server(db_dir=SHARED_DIR)
            front.port = port
            deadline = time.monotonic() + 10
            while True:
                try:
                    if front.request("GET", "/health")[0] == 200:
                        break
                except OSError:
                    pass
                with open(log.name) as f:
                    self.assertLess(time.monotonic(), deadline, f.read())
                time.sleep(0.1)
            token = SERVERS[0].user("proxy@example.com", plan="free")
            before = [s.read_log().count('"path":"/api/v1/scan"') for s in SERVERS[:2]]
            codes = [front.scan(token, f"{base.SMS} via proxy {i}")[0] for i in range(12)]
            self.assertEqual(codes, [200] * 10 + [429] * 2)
            # Round robin: both instances served scans, and the allowance held.
            served = [s.read_log().count('"path":"/api/v1/scan"') - b
                      for s, b in zip(SERVERS[:2], before)]
            self.assertEqual(sum(served), 12, served)
            self.assertGreater(min(served), 0, served)
        finally:
            proxy.terminate()
            proxy.wait(10)
            log.close()
            shutil.rmtree(directory, ignore_errors=True)


def main():
    global HAPROXY, HAPROXY_CONFIG
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--haproxy", default=shutil.which("haproxy") or "/usr/sbin/haproxy")
    parser.add_argument("--haproxy-config", required=True)
    args, rest = parser.parse_known_args()
    base.BINARY = os.path.abspath(args.binary)
    HAPROXY = args.haproxy if os.access(args.haproxy, os.X_OK) else None
    HAPROXY_CONFIG = args.haproxy_config
    unittest.main(argv=[sys.argv[0], "-v", *rest])


if __name__ == "__main__":
    main()
