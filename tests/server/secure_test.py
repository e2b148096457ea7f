#!/usr/bin/env python3
"""Secrets at rest and privacy of the real scamcheckd (issue 21).

Starts scamcheckd on 127.0.0.1 with a fresh SQLite file (helpers from
server_test.py) and checks:
  - the database files (db, -wal, -shm, -auth) are created 0600;
  - check and questionnaire-response UUIDs (bearer credentials of anonymous
    callers) never appear in the log;
  - a check's client address is cleared once it is analysed;
  - the list cursor is opaque, and a tampered cursor or another user's is 422;
  - `user create` does not echo the password on a terminal (a pty), and
    `--password-stdin` reads it from a pipe.

  secure_test.py --binary build/adapters/server/scamcheckd
"""

import argparse
import base64
import os
import pty
import select
import sqlite3
import stat
import subprocess
import sys
import time
import unittest

import server_test as base
from server_test import Server

SCAM = base.SCAM


def wait_complete(server, uuid, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        code, _, _, body = server.request("GET", f"/api/checks/{uuid}/status")
        assert code == 200, (code, body)
        if not body["is_pending"]:
            return body
        time.sleep(0.1)
    raise AssertionError(f"check still processing after {timeout} s")


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Secure(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = Server("--analysis-timeout", "3", "--workers", "2").start()

    @classmethod
    def tearDownClass(cls):
        code = cls.server.stop()
        assert code == 0, f"SIGTERM exit status {code}: {cls.server.read_log()[-2000:]}"

    def test_database_files_are_private(self):
        token = self.server.user("modes@example.com")
        self.assertEqual(self.server.scan(token)[0], 200)  # a write: the WAL exists
        for suffix in ("", "-wal", "-shm", "-auth"):
            path = self.server.db + suffix
            with self.subTest(file=os.path.basename(path)):
                self.assertTrue(os.path.exists(path), path)
                self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o600)

    def test_check_and_response_uuids_not_logged(self):
        code, _, _, body = self.server.request("POST", "/api/checks",
                                               {"type": "text", "content": SCAM})
        self.assertEqual(code, 201, body)
        uuid = body["check"]["uuid"]
        wait_complete(self.server, uuid)
        self.assertEqual(self.server.request("GET", f"/api/checks/{uuid}")[0], 200)
        self.assertEqual(self.server.request("GET", f"/api/checks/{uuid.upper()}")[0], 200)
        code, _, _, body = self.server.request("POST", "/api/questionnaires/was-i-phished/start")
        self.assertEqual(code, 201, body)
        response = body["response"]["uuid"]
        code, _, _, _ = self.server.request(
            "POST", f"/api/questionnaire-responses/{response}/answers", {"answers": []})
        self.assertIn(code, (200, 422))
        # The 404s of a near miss must not log it either.
        self.assertEqual(self.server.request("GET", f"/api/Checks/{uuid}")[0], 404)
        time.sleep(0.2)
        log = self.server.read_log()
        self.assertIn('"path":"/api/checks/{uuid}"', log)
        self.assertIn('"path":"/api/checks/{uuid}/status"', log)
        self.assertIn('"path":"/api/questionnaire-responses/{uuid}/answers"', log)
        self.assertIn('"check_ref":"', log)
        for secret in (uuid, uuid.upper(), response):
            self.assertNotIn(secret, log)

    def test_client_cleared_after_analysis(self):
        code, _, _, body = self.server.request("POST", "/api/checks",
                                               {"type": "text", "content": SCAM})
        self.assertEqual(code, 201, body)
        uuid = body["check"]["uuid"]
        with sqlite3.connect(self.server.db) as db:
            before = db.execute("SELECT client FROM checks WHERE uuid = ?", (uuid,)).fetchone()
        wait_complete(self.server, uuid)
        with sqlite3.connect(self.server.db) as db:
            row = db.execute("SELECT client, status FROM checks WHERE uuid = ?",
                             (uuid,)).fetchone()
        if before[0]:  # the job may have been faster than this read
            self.assertEqual(before[0], "127.0.0.1")
        self.assertEqual(row, ("", "completed"))

    def test_cursor_is_opaque_and_bound_to_its_user(self):
        alice = self.server.user("cursor-alice@example.com", plan="pro")
        bob = self.server.user("cursor-bob@example.com", plan="pro")
        for i in range(3):
            self.assertEqual(self.server.scan(alice, content=f"{SCAM} {i}")[0], 200)
        self.assertEqual(self.server.scan(bob)[0], 200)
        with sqlite3.connect(self.server.db) as db:
            seqs = [r[0] for r in db.execute("SELECT seq FROM reports")]
        code, _, _, first = self.server.request("GET", "/api/v1/reports?limit=1", token=alice)
        self.assertEqual(code, 200)
        cursor = first["next_cursor"]
        raw = unb64(cursor)
        self.assertNotIn(b"before", raw)
        # Sealed bytes, not a readable position: 56 random bytes are printable
        # ASCII with a chance of (95/256)^56. (A check on the last digit alone
        # failed whenever the random MAC happened to end in one.)
        self.assertFalse(raw.isascii() and raw.decode().isprintable(), raw)
        self.assertFalse(any(str(seq).encode() == raw for seq in seqs), raw)
        self.assertEqual(len(raw), 24 + 16 + 16)  # nonce, MAC, sealed user id and position
        # Sealed with a random nonce: the same position gives another cursor.
        _, _, _, again = self.server.request("GET", "/api/v1/reports?limit=1", token=alice)
        self.assertNotEqual(again["next_cursor"], cursor)
        # It pages through alice's reports only.
        seen, page_cursor = [r["id"] for r in first["data"]], cursor
        while page_cursor:
            code, _, _, page = self.server.request(
                "GET", f"/api/v1/reports?limit=1&cursor={page_cursor}", token=alice)
            self.assertEqual(code, 200, page)
            seen += [r["id"] for r in page["data"]]
            page_cursor = page["next_cursor"]
        self.assertEqual(len(seen), 3)
        self.assertEqual(len(set(seen)), 3)
        # Another user's cursor, a tampered one, an old-style one: 422.
        tampered = bytearray(raw)
        tampered[-1] ^= 1
        tampered = base64.urlsafe_b64encode(bytes(tampered)).decode().rstrip("=")
        old_style = base64.urlsafe_b64encode(b"before:999999").decode().rstrip("=")
        for token, bad in ((bob, cursor), (alice, tampered), (alice, old_style),
                           (alice, cursor[:-4]), (alice, cursor + "AAAA")):
            code, _, _, problem = self.server.request(
                "GET", f"/api/v1/reports?limit=1&cursor={bad}", token=token)
            self.assertEqual(code, 422, problem)
            self.assertIn("cursor", problem["errors"])

    def test_cursor_survives_restart(self):
        token = self.server.user("cursor-restart@example.com", plan="pro")
        for i in range(2):
            self.assertEqual(self.server.scan(token, content=f"{SCAM} r{i}")[0], 200)
        _, _, _, first = self.server.request("GET", "/api/v1/reports?limit=1", token=token)
        other = Server(db_dir=self.server.dir).start()  # a second process, same database
        try:
            code, _, _, page = other.request(
                "GET", f"/api/v1/reports?limit=1&cursor={first['next_cursor']}", token=token)
            self.assertEqual(code, 200, page)
            self.assertEqual(len(page["data"]), 1)
            self.assertNotEqual(page["data"][0]["id"], first["data"][0]["id"])
        finally:
            self.assertEqual(other.stop(), 0)


class Password(unittest.TestCase):
    def setUp(self):
        self.server = Server()
        os.makedirs(self.server.dir, exist_ok=True)

    def test_not_echoed_on_a_terminal(self):
        secret = "hunter2-correct-horse"
        pid, master = pty.fork()
        if pid == 0:
            os.execv(base.BINARY, [base.BINARY, "user", "create", "--email", "tty@example.com",
                                   "--name", "tty", "--database", "sqlite:" + self.server.db])
        output = b""
        deadline = time.monotonic() + 30
        sent = False
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 4096)
                except OSError:  # EIO: the child closed the terminal
                    break
                if not chunk:
                    break
                output += chunk
            if not sent and b"Password: " in output:
                os.write(master, (secret + "\n").encode())
                sent = True
        _, status = os.waitpid(pid, 0)
        os.close(master)
        self.assertTrue(sent, output)
        self.assertEqual(os.waitstatus_to_exitcode(status), 0, output)
        self.assertIn(b"created user tty@example.com", output)
        self.assertNotIn(secret.encode(), output)

    def test_password_stdin(self):
        for flag in ([], ["--password-stdin"]):
            email = f"pipe{len(flag)}@example.com"
            run = subprocess.run([base.BINARY, "user", "create", "--email", email, "--name", "p",
                                  *flag, "--database", "sqlite:" + self.server.db],
                                 input=b"correct horse battery\n", capture_output=True, timeout=60)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertNotIn(b"Password", run.stderr)
            self.assertNotIn(b"correct horse", run.stdout + run.stderr)
        run = subprocess.run([base.BINARY, "user", "create", "--email", "short@example.com",
                              "--name", "s", "--password-stdin", "--database",
                              "sqlite:" + self.server.db],
                             input=b"short\n", capture_output=True, timeout=60)
        self.assertEqual(run.returncode, 65, run.stderr)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    args, rest = parser.parse_known_args()
    base.BINARY = os.path.abspath(args.binary)
    unittest.main(argv=[sys.argv[0], "-v", *rest])


if __name__ == "__main__":
    main()
