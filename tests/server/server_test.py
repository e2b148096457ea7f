#!/usr/bin/env python3
"""Integration tests of the real scamcheckd (CONTRACT §2, §4, §8).

Starts the scamcheckd binary on 127.0.0.1 (any free port) with a temporary
SQLite file, creates users and tokens with its operator CLI, and talks HTTP
to it with the standard library only. Every response is appended to a JSON
Lines file (--record) that openapi_check.mjs checks against /docs/api.

  server_test.py --binary build/adapters/server/scamcheckd --record responses.jsonl

With --database postgresql:DIR every server gets a fresh database of the
PostgreSQL cluster in DIR (pg_cluster.py, the CTest fixture) instead; the
few cases about the SQLite file itself are skipped there.
"""

import argparse
import base64
import functools
import http.client
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import pg_cluster  # noqa: E402

BINARY = None
RECORD = None
RECORD_LOCK = threading.Lock()
PG = None  # the pg_cluster.Cluster every server uses, or None: SQLite files
PG_DATABASES = {}  # server directory -> its database name

SCAM = ("URGENT: your bank account has been suspended. Verify your password and enter the TAN "
        "code at http://secure-bank-login.example.top/verify within 24 hours.")
SMS = "Your parcel is on hold. Pay 1.99 EUR at https://dhl-track.example.top/pay"
ULID = re.compile(r"^[0-9A-HJKMNP-TV-Z]{26}$")


def configure_database(option):
    """--database: "sqlite" (the default) or "postgresql:DIR" (a started cluster)."""
    global PG
    if option in (None, "sqlite"):
        return
    if not option.startswith("postgresql:"):
        raise SystemExit("--database must be sqlite or postgresql:DIR")
    directory = option[len("postgresql:"):]
    if not pg_cluster.available() or not os.path.exists(os.path.join(directory, "port")):
        pg_cluster.skip_or_fail("no PostgreSQL cluster (the PostgreSQL 15 binaries are not "
                                "installed: apt-get install postgresql-15)")
    PG = pg_cluster.Cluster(directory)


def sqlite_only(reason):
    """Skips a case about the SQLite file itself when the servers use PostgreSQL."""
    def wrap(test):
        @functools.wraps(test)
        def run(self, *args, **kwargs):
            if PG is not None:
                self.skipTest("SQLite only: " + reason)
            return test(self, *args, **kwargs)
        return run
    return wrap


def _sql_literal(value):
    if value is None:
        return "NULL"
    if isinstance(value, (bytes, bytearray)):
        return "'\\x" + bytes(value).hex() + "'::bytea"
    if isinstance(value, (int, float)):
        return str(value)
    return "'" + str(value).replace("'", "''") + "'"


def _sql_value(text):
    if text == "<NULL>":
        return None
    if text.startswith("\\x"):
        return bytes.fromhex(text[2:])
    if re.fullmatch(r"-?[0-9]+", text):
        return int(text)
    return {"t": True, "f": False}.get(text, text)


def db_query(server, sql, params=()):
    """The rows of `sql` (with ? placeholders) on the server's database, either backend."""
    if PG is None:
        with sqlite3.connect(server.db) as db:
            return db.execute(sql, params).fetchall()
    parts = sql.split("?")
    text = parts[0] + "".join(_sql_literal(p) + rest for p, rest in zip(params, parts[1:]))
    return [tuple(_sql_value(v) for v in row) for row in PG.psql(text, server.dbname)]


class Server:
    """One scamcheckd process on a temporary SQLite file (or PostgreSQL database)."""

    def __init__(self, *extra, db_dir=None):
        self.dir = db_dir or tempfile.mkdtemp(prefix="scamcheckd-test-")
        self.db = os.path.join(self.dir, "test.db")
        self.url = "sqlite:" + self.db
        if PG is not None:
            if self.dir not in PG_DATABASES:
                PG_DATABASES[self.dir] = "t_" + os.path.basename(self.dir).replace("-", "_").lower()
                PG.create_database(PG_DATABASES[self.dir])
            self.dbname = PG_DATABASES[self.dir]
            self.url = PG.url(self.dbname)
        self.extra = list(extra)
        self.proc = None
        self.port = None
        self.log_path = os.path.join(self.dir, f"server-{time.monotonic_ns()}.log")

    def start(self):
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            [BINARY, "serve", "--listen", "127.0.0.1:0", "--database", self.url,
             *self.extra],
            stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("scamcheckd exited: " + self.read_log())
            for line in self.read_log().splitlines():
                if '"event":"listening"' in line:
                    self.port = json.loads(line)["port"]
                    return self
            time.sleep(0.05)
        raise RuntimeError("scamcheckd did not start: " + self.read_log())

    def read_log(self):
        with open(self.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def stop(self, sig=signal.SIGTERM, timeout=30):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if hasattr(self, "log"):
            self.log.close()
        return self.proc.returncode

    def cli(self, *args, stdin=""):
        run = subprocess.run([BINARY, *args, "--database", self.url],
                             input=stdin.encode(), capture_output=True, timeout=60)
        return run.returncode, run.stdout.decode(), run.stderr.decode()

    def user(self, email, plan="free", abilities="*", expires_in=None, token_name="main"):
        """Creates a user and a token; returns the token value."""
        code, _, err = self.cli("user", "create", "--email", email, "--name", email.split("@")[0],
                                "--plan", plan, stdin="correct horse battery\n")
        assert code == 0, err
        return self.token(email, token_name, abilities, expires_in)

    def token(self, email, name, abilities, expires_in=None):
        args = ["token", "create", "--email", email, "--name", name, "--abilities", abilities]
        if expires_in is not None:
            args += ["--expires-in", str(expires_in)]
        code, out, err = self.cli(*args)
        assert code == 0, err
        return out.strip()

    def connect(self):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def request(self, method, path, body=None, token=None, headers=None, conn=None):
        """One request; returns (status, headers dict (lower-case), body bytes, json or None)."""
        h = dict(headers or {})
        if token:
            h["Authorization"] = "Bearer " + token
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
            h.setdefault("Content-Type", "application/json")
        own = conn is None
        conn = conn or self.connect()
        try:
            conn.request(method, path, body=body, headers=h)
            resp = conn.getresponse()
            data = resp.read()
            hdrs = {k.lower(): v for k, v in resp.getheaders()}
        finally:
            if own:
                conn.close()
        parsed = None
        if data and "json" in hdrs.get("content-type", ""):
            parsed = json.loads(data)
        record(method, path, resp.status, hdrs, data)
        return resp.status, hdrs, data, parsed

    def scan(self, token, content=SMS, **fields):
        return self.request("POST", "/api/v1/scan", {"content": content, **fields}, token=token)


def record(method, path, status, headers, body):
    if not RECORD:
        return
    line = json.dumps({"method": method, "path": path.split("?")[0], "status": status,
                       "headers": headers, "body": body.decode("utf-8", "replace")})
    with RECORD_LOCK, open(RECORD, "a") as f:
        f.write(line + "\n")


SERVER = None


def setUpModule():
    global SERVER
    feeds = tempfile.mkdtemp(prefix="scamcheckd-feeds-")
    with open(os.path.join(feeds, "openphish.txt"), "w") as f:
        f.write("https://evil-login.example.net/account/verify\n")
    with open(os.path.join(feeds, "urlhaus.txt"), "w") as f:
        f.write("# URLhaus text export\nhttp://malware-drop.example.org/payload.exe\n"
                "bad-domain.example.com\n")
    SERVER = Server("--feeds-dir", feeds, "--read-timeout", "2", "--header-timeout", "2",
                    "--workers", "2")
    SERVER.feeds = feeds
    SERVER.start()


def tearDownModule():
    code = SERVER.stop()
    assert code == 0, f"SIGTERM exit status {code}: {SERVER.read_log()[-2000:]}"


class ProblemMixin:
    def assert_problem(self, response, status, type_name):
        code, headers, _, body = response
        self.assertEqual(code, status, body)
        self.assertEqual(headers["content-type"], "application/problem+json")
        self.assertEqual(body["type"], "/problems/" + type_name)
        self.assertEqual(body["status"], status)
        for member in ("title", "detail", "instance"):
            self.assertIsInstance(body[member], str)
        self.assertEqual(body["instance"], headers["x-request-id"])
        self.assertNotIn("Traceback", json.dumps(body))
        return body


class PublicRoutes(unittest.TestCase, ProblemMixin):
    def test_health(self):
        code, headers, _, body = SERVER.request("GET", "/health")
        self.assertEqual(code, 200)
        self.assertEqual(body["status"], "ok")
        self.assertEqual(body["checks"]["database"], "ok")
        self.assertIn(body["checks"]["ocr"], ("ok", "unavailable"))
        self.assertIn(body["checks"]["ai_provider"], ("ok", "unavailable", "disabled"))
        self.assertRegex(headers["x-request-id"], ULID)

    def test_jemalloc_purges_in_the_background(self):
        # Linked with jemalloc, the server asks it (malloc_conf) for background
        # purging, so freed memory (ended OCR engines) leaves an idle server.
        with open(f"/proc/{SERVER.proc.pid}/maps") as f:
            maps = f.read()
        if "libjemalloc" not in maps:
            self.assertFalse(os.environ.get("CI"), "CI: scamcheckd must link jemalloc")
            self.skipTest("scamcheckd is not linked with jemalloc (libjemalloc-dev)")
        task = f"/proc/{SERVER.proc.pid}/task"
        names = []
        for t in os.listdir(task):
            with open(os.path.join(task, t, "comm")) as f:
                names.append(f.read().strip())
        self.assertIn("jemalloc_bg_thd", names)

    def test_openmp_one_thread_per_region(self):
        # scamcheckd starts itself again with OMP_THREAD_LIMIT=1 (main.cc):
        # Tesseract's OpenMP threads spin on busy cores.
        if "OMP_THREAD_LIMIT" in os.environ:
            self.skipTest("OMP_THREAD_LIMIT is set in the test's environment")
        with open(f"/proc/{SERVER.proc.pid}/environ", "rb") as f:
            environ = f.read().split(b"\0")
        self.assertIn(b"OMP_THREAD_LIMIT=1", environ)
        with open(f"/proc/{SERVER.proc.pid}/comm") as f:
            self.assertEqual(f.read().strip(), os.path.basename(BINARY)[:15])

    def test_openapi_document(self):
        code, _, _, doc = SERVER.request("GET", "/docs/api")
        self.assertEqual(code, 200)
        self.assertEqual(doc["openapi"], "3.1.0")
        self.assertLessEqual({"/api/v1/scan", "/api/v1/reports", "/api/v1/reports/{public_id}",
                              "/health", "/docs/api", "/mcp/{mcp_name}"}, set(doc["paths"]))
        self.assertEqual(set(doc["paths"]["/api/v1/reports/{public_id}"]), {"get", "delete"})

    def test_request_id_echo_and_generation(self):
        _, h, _, _ = SERVER.request("GET", "/health", headers={"X-Request-ID": "abc-123 x"})
        self.assertEqual(h["x-request-id"], "abc-123 x")
        _, h, _, _ = SERVER.request("GET", "/health", headers={"X-Request-ID": "a" * 129})
        self.assertRegex(h["x-request-id"], ULID)
        _, h, _, _ = SERVER.request("GET", "/health", headers={"X-Request-ID": "a" * 128})
        self.assertEqual(h["x-request-id"], "a" * 128)

    def test_request_id_in_log_lines(self):
        SERVER.request("GET", "/nope", headers={"X-Request-ID": "log-check-42"})
        time.sleep(0.2)
        lines = [json.loads(l) for l in SERVER.read_log().splitlines()
                 if "log-check-42" in l]
        self.assertTrue(lines)
        for line in lines:
            self.assertEqual(line["request_id"], "log-check-42")

    def test_unknown_route_is_404(self):
        self.assert_problem(SERVER.request("GET", "/api/v1/nothing"), 404, "not-found")

    def test_wrong_method_is_405_with_allow(self):
        r = SERVER.request("PUT", "/api/v1/scan", b"{}")
        self.assert_problem(r, 405, "method-not-allowed")
        self.assertEqual(r[1]["allow"], "POST")
        r = SERVER.request("POST", "/api/v1/reports/rpt_01ARZ3NDEKTSV4RRFFQ69G5FAV", b"")
        self.assertEqual(r[1]["allow"], "GET, DELETE")

    def test_localized_problem(self):
        r = SERVER.request("GET", "/api/v1/nothing", headers={"Accept-Language": "de-AT,en;q=0.5"})
        body = self.assert_problem(r, 404, "not-found")
        self.assertEqual(body["title"], "Nicht gefunden")

    def test_keep_alive(self):
        conn = SERVER.connect()
        for _ in range(5):
            code, _, _, _ = SERVER.request("GET", "/health", conn=conn)
            self.assertEqual(code, 200)
        conn.close()


class Auth(unittest.TestCase, ProblemMixin):
    @classmethod
    def setUpClass(cls):
        cls.token = SERVER.user("auth@example.com")

    def test_missing_token(self):
        r = SERVER.request("GET", "/api/v1/reports")
        self.assert_problem(r, 401, "unauthorized")
        self.assertEqual(r[1]["www-authenticate"], "Bearer")

    def test_malformed_and_unknown_token(self):
        for value in ("Basic abc", "Bearer", "Bearer sck_short",
                      "Bearer sck_" + "A" * 40, "Bearer " + self.token + "x"):
            r = SERVER.request("GET", "/api/v1/reports", headers={"Authorization": value})
            self.assert_problem(r, 401, "unauthorized")

    def test_revoked_token_at_once(self):
        token = SERVER.token("auth@example.com", "to-revoke", "*")
        self.assertEqual(SERVER.request("GET", "/api/v1/reports", token=token)[0], 200)
        code, _, err = SERVER.cli("token", "revoke", "--email", "auth@example.com",
                                  "--name", "to-revoke")
        self.assertEqual(code, 0, err)
        self.assert_problem(SERVER.request("GET", "/api/v1/reports", token=token), 401,
                            "unauthorized")
        code, _, _ = SERVER.cli("token", "revoke", "--email", "auth@example.com",
                                "--name", "to-revoke")
        self.assertEqual(code, 66)

    def test_expired_token(self):
        token = SERVER.token("auth@example.com", "short", "*", expires_in="0.00001")
        time.sleep(1.2)
        self.assert_problem(SERVER.request("GET", "/api/v1/reports", token=token), 401,
                            "unauthorized")

    def test_abilities(self):
        reader = SERVER.token("auth@example.com", "reader", "reports:read")
        scanner = SERVER.token("auth@example.com", "scanner", "scan:create")
        body = self.assert_problem(SERVER.scan(reader), 403, "forbidden")
        self.assertIn("scan:create", body["detail"])
        code, _, _, report = SERVER.scan(scanner)
        self.assertEqual(code, 200)
        self.assert_problem(SERVER.request("GET", "/api/v1/reports", token=scanner), 403,
                            "forbidden")
        self.assertEqual(SERVER.request("GET", "/api/v1/reports/" + report["id"],
                                        token=reader)[0], 200)
        self.assert_problem(SERVER.request("DELETE", "/api/v1/reports/" + report["id"],
                                           token=reader), 403, "forbidden")

    def test_last_used_at_is_recorded(self):
        token = SERVER.token("auth@example.com", "used", "*")
        SERVER.request("GET", "/api/v1/reports", token=token)
        time.sleep(0.3)
        row = db_query(SERVER, "SELECT last_used_at, length(token_hash) FROM tokens "
                               "WHERE name = 'used'")[0]
        self.assertIsNotNone(row[0])
        self.assertEqual(row[1], 32)  # only the SHA-256 is stored

    def test_cli_usage_errors(self):
        code, _, _ = SERVER.cli("token", "create", "--email", "auth@example.com", "--name", "x",
                                "--abilities", "scan:everything")
        self.assertEqual(code, 65)
        code, _, _ = SERVER.cli("token", "create", "--email", "nobody@example.com", "--name",
                                "x", "--abilities", "*")
        self.assertEqual(code, 66)
        code, _, _ = SERVER.cli("user", "create", "--email", "auth@example.com", "--name", "a",
                                stdin="long enough password\n")
        self.assertEqual(code, 65)
        hash_ = db_query(SERVER, "SELECT password_hash FROM users WHERE email = ?",
                         ("auth@example.com",))[0][0]
        self.assertTrue(hash_.startswith("$argon2id$"))


class Scan(unittest.TestCase, ProblemMixin):
    @classmethod
    def setUpClass(cls):
        cls.token = SERVER.user("scan@example.com", plan="pro")

    def test_scan_returns_report_with_evidence(self):
        code, h, _, r = SERVER.scan(self.token, SCAM, locale="de", hints={"source_app": "sms"})
        self.assertEqual(code, 200)
        self.assertRegex(r["id"], r"^rpt_[0-9A-HJKMNP-TV-Z]{26}$")
        self.assertEqual(r["verdict"], "danger")
        self.assertEqual(r["locale"], "de")
        self.assertEqual(h["x-ratelimit-remaining"], "-1")
        raw = SCAM.encode()
        for s in r["signals"]:
            if s["location"] == "content":
                self.assertEqual(raw[s["span"]["start"]:s["span"]["end"]].decode(), s["evidence"])

    def test_locale_from_accept_language(self):
        _, _, _, r = SERVER.request("POST", "/api/v1/scan", {"content": SMS}, token=self.token,
                                    headers={"Accept-Language": "de-DE;q=0.9, fr;q=0.1"})
        self.assertEqual(r["locale"], "de")
        # The report's language follows the library's catalogs, with fallback.
        for header, body_locale, used in (("pt-BR,pt;q=0.9,en;q=0.5", None, "pt"),
                                          ("de", "fr-CA", "fr"), ("pl-PL", None, "en")):
            payload = {"content": SMS} if body_locale is None else {"content": SMS,
                                                                    "locale": body_locale}
            _, _, _, r = SERVER.request("POST", "/api/v1/scan", payload, token=self.token,
                                        headers={"Accept-Language": header})
            self.assertEqual(r["locale"], used, header)

    def test_base64_email(self):
        email = (b"From: PayPal <service@paypa1-secure.example.top>\r\nTo: you@example.com\r\n"
                 b"Subject: Konto gesperrt\r\nContent-Type: text/plain; charset=iso-8859-1\r\n\r\n"
                 b"Ihr Konto wurde gesperrt. Best\xe4tigen Sie Ihr Passwort.\r\n")
        code, _, _, r = SERVER.scan(self.token, base64.b64encode(email).decode(), kind="email",
                                    content_encoding="base64")
        self.assertEqual(code, 200, r)
        self.assertEqual(r["kind"], "email")

    def test_malformed_json(self):
        r = SERVER.request("POST", "/api/v1/scan", b"{not json", token=self.token,
                           headers={"Content-Type": "application/json"})
        self.assert_problem(r, 400, "bad-request")
        r = SERVER.request("POST", "/api/v1/scan", b"[1, 2]", token=self.token,
                           headers={"Content-Type": "application/json"})
        self.assert_problem(r, 400, "bad-request")

    def test_validation_errors(self):
        body = self.assert_problem(SERVER.request("POST", "/api/v1/scan", {"kind": "fax"},
                                                  token=self.token), 422, "validation-error")
        self.assertIn("content", body["errors"])
        self.assertIn("kind", body["errors"])
        for payload, field in (({"content": ""}, "content"),
                               ({"content": 42}, "content"),
                               ({"content": "x", "content_encoding": "rot13"}, "content_encoding"),
                               ({"content": "%%%", "content_encoding": "base64"}, "content"),
                               ({"content": base64.b64encode(b"\xff\xfe bad").decode(),
                                 "content_encoding": "base64"}, "content"),
                               ({"content": "x", "kind": "image"}, "kind"),
                               ({"content": "x", "hints": "sms"}, "hints")):
            r = SERVER.request("POST", "/api/v1/scan", payload, token=self.token)
            body = self.assert_problem(r, 422, "validation-error")
            self.assertIn(field, body["errors"], payload)
            self.assertIsInstance(body["errors"][field][0], str)
        r = SERVER.request("POST", "/api/v1/scan", {"content": ""}, token=self.token,
                           headers={"Accept-Language": "de"})
        self.assertEqual(r[3]["errors"]["content"], ["Darf nicht leer sein."])

    def test_content_limit_is_on_decoded_content(self):
        just_fits = "a" * 65536
        self.assertEqual(SERVER.scan(self.token, just_fits)[0], 200)
        self.assert_problem(SERVER.scan(self.token, "a" * 65537), 413, "payload-too-large")
        encoded = base64.b64encode(b"a" * 65537).decode()
        self.assert_problem(SERVER.scan(self.token, encoded, content_encoding="base64"), 413,
                            "payload-too-large")
        # Escaping may make the body larger than the content: 6 bytes per \u escape.
        escaped = '{"content": "' + "\\u0041" * 60000 + '"}'
        self.assertGreater(len(escaped), 65536)
        r = SERVER.request("POST", "/api/v1/scan", escaped.encode(), token=self.token,
                           headers={"Content-Type": "application/json"})
        self.assertEqual(r[0], 200)

    def test_body_limit(self):
        body = b'{"content": "' + b"a" * (512 * 1024) + b'"}'
        r = SERVER.request("POST", "/api/v1/scan", body, token=self.token,
                           headers={"Content-Type": "application/json"})
        self.assert_problem(r, 413, "payload-too-large")

    def test_media_types(self):
        r = SERVER.request("POST", "/api/v1/scan", b"hello", token=self.token,
                           headers={"Content-Type": "text/plain"})
        self.assert_problem(r, 415, "unsupported-media-type")
        r = SERVER.request("POST", "/api/v1/scan", b"--x\r\n\r\n--x--\r\n", token=self.token,
                           headers={"Content-Type": "multipart/mixed; boundary=x"})
        self.assert_problem(r, 415, "unsupported-media-type")
        # multipart/form-data is accepted (upload_test.py); this one lacks a file part.
        r = SERVER.request("POST", "/api/v1/scan", b"--x\r\n\r\n--x--\r\n", token=self.token,
                           headers={"Content-Type": "multipart/form-data; boundary=x"})
        self.assert_problem(r, 400, "bad-request")
        r = SERVER.request("POST", "/api/v1/scan", {"content": "hi"}, token=self.token,
                           headers={"Content-Type": "application/json; charset=utf-8"})
        self.assertEqual(r[0], 200)

    def test_header_limit(self):
        r = SERVER.request("GET", "/health", headers={"X-Big": "a" * 20000})
        self.assert_problem(r, 431, "request-header-fields-too-large")

    def test_content_is_not_retained_by_default(self):
        _, _, _, r = SERVER.scan(self.token, "retention check " + SMS)
        time.sleep(0.1)
        row = db_query(SERVER, "SELECT content FROM reports WHERE public_id = ?", (r["id"],))[0]
        self.assertIsNone(row[0])


class Reports(unittest.TestCase, ProblemMixin):
    @classmethod
    def setUpClass(cls):
        cls.alice = SERVER.user("alice@example.com", plan="pro")
        cls.bob = SERVER.user("bob@example.com", plan="pro")

    def test_list_paging_newest_first(self):
        token = SERVER.user("pager@example.com", plan="pro")
        ids = [SERVER.scan(token, f"message number {i}: " + SMS)[3]["id"] for i in range(5)]
        ids += [SERVER.scan(token, "Hi mum, home at 6. Can you buy milk?")[3]["id"]]
        seen, cursor = [], None
        while True:
            path = "/api/v1/reports?limit=2" + (f"&cursor={cursor}" if cursor else "")
            code, _, _, page = SERVER.request("GET", path, token=token)
            self.assertEqual(code, 200)
            self.assertLessEqual(len(page["data"]), 2)
            seen += [r["id"] for r in page["data"]]
            cursor = page["next_cursor"]
            if cursor is None:
                break
        self.assertEqual(seen, list(reversed(ids)))
        _, _, _, page = SERVER.request("GET", "/api/v1/reports", token=token)
        self.assertEqual(len(page["data"]), 6)
        _, _, _, safe = SERVER.request("GET", "/api/v1/reports?verdict=safe", token=token)
        self.assertTrue(all(r["verdict"] == "safe" for r in safe["data"]))
        self.assertIn(ids[-1], [r["id"] for r in safe["data"]])

    def test_list_validation(self):
        for query, field in (("limit=0", "limit"), ("limit=101", "limit"),
                             ("limit=abc", "limit"), ("limit=2.5", "limit"),
                             ("cursor=%21%21", "cursor"), ("cursor=Zm9v", "cursor"),
                             ("verdict=evil", "verdict")):
            r = SERVER.request("GET", "/api/v1/reports?" + query, token=self.alice)
            body = self.assert_problem(r, 422, "validation-error")
            self.assertIn(field, body["errors"])

    def test_get_and_delete(self):
        _, _, _, report = SERVER.scan(self.alice, SCAM)
        path = "/api/v1/reports/" + report["id"]
        code, _, _, got = SERVER.request("GET", path, token=self.alice)
        self.assertEqual(code, 200)
        self.assertEqual(got, report)
        code, h, data, _ = SERVER.request("DELETE", path, token=self.alice)
        self.assertEqual(code, 204)
        self.assertEqual(data, b"")
        self.assert_problem(SERVER.request("GET", path, token=self.alice), 404, "not-found")
        self.assert_problem(SERVER.request("DELETE", path, token=self.alice), 404, "not-found")
        self.assert_problem(SERVER.request("GET", "/api/v1/reports/not-an-id", token=self.alice),
                            404, "not-found")

    def test_stored_compact_and_read_back_unchanged(self):
        """SQLite keeps a report compressed (a BLOB far smaller than the JSON); reading it
        gives the scan's answer byte for byte, and rows stored as JSON text still read."""
        if PG is not None:
            self.skipTest("the compact form is SQLite's")
        token = SERVER.user("compact@example.com", plan="pro")
        _, _, answered, report = SERVER.scan(token, SCAM)
        time.sleep(0.1)
        (kind, size), = db_query(SERVER, "SELECT typeof(report_json), length(report_json) "
                                 "FROM reports WHERE public_id = ?", (report["id"],))
        self.assertEqual(kind, "blob")
        self.assertLess(size * 3, len(answered))
        code, _, got, _ = SERVER.request("GET", "/api/v1/reports/" + report["id"], token=token)
        self.assertEqual(code, 200)
        self.assertEqual(got, answered)
        # A row as written before the compact form: the JSON as text.
        old = dict(report, id="rpt_01ARZ3NDEKTSV4RRFFQ69G5FAW")
        old_json = json.dumps(old, ensure_ascii=False, separators=(",", ":"))
        with sqlite3.connect(SERVER.db, timeout=10) as db:
            db.execute("INSERT INTO reports (public_id, user_id, kind, verdict, created_at, "
                       "report_json) SELECT ?, user_id, kind, verdict, created_at, ? "
                       "FROM reports WHERE public_id = ?", (old["id"], old_json, report["id"]))
        code, _, got, _ = SERVER.request("GET", "/api/v1/reports/" + old["id"], token=token)
        self.assertEqual(code, 200)
        self.assertEqual(got.decode(), old_json)
        _, _, _, page = SERVER.request("GET", "/api/v1/reports", token=token)
        self.assertEqual(page["data"], [old, report])

    def test_tenant_isolation(self):
        _, _, _, report = SERVER.scan(self.alice, "Alice's own message " + SMS)
        path = "/api/v1/reports/" + report["id"]
        a = self.assert_problem(SERVER.request("GET", path, token=self.bob), 404, "not-found")
        missing = self.assert_problem(
            SERVER.request("GET", "/api/v1/reports/rpt_01ARZ3NDEKTSV4RRFFQ69G5FAV",
                           token=self.bob), 404, "not-found")
        self.assertEqual(a["detail"], missing["detail"])
        self.assert_problem(SERVER.request("DELETE", path, token=self.bob), 404, "not-found")
        _, _, _, page = SERVER.request("GET", "/api/v1/reports?limit=100", token=self.bob)
        self.assertNotIn(report["id"], [r["id"] for r in page["data"]])
        self.assertEqual(SERVER.request("GET", path, token=self.alice)[0], 200)


class Limits(unittest.TestCase, ProblemMixin):
    def test_daily_bucket_shared_by_tokens(self):
        first = SERVER.user("free@example.com")  # plan free: 10 per day
        second = SERVER.token("free@example.com", "second", "*")
        remaining = []
        for i in range(10):
            token = first if i % 2 else second
            if i == 3:  # failed scans and reads do not count
                self.assertEqual(SERVER.scan(token, "")[0], 422)
                SERVER.request("GET", "/api/v1/reports", token=token)
            code, h, _, _ = SERVER.scan(token, f"scan {i}: " + SMS)
            self.assertEqual(code, 200)
            remaining.append(int(h["x-ratelimit-remaining"]))
        self.assertEqual(remaining, list(range(9, -1, -1)))
        r = SERVER.scan(first, "one too many")
        body = self.assert_problem(r, 429, "rate-limited")
        self.assertEqual(r[1]["x-ratelimit-remaining"], "0")
        self.assertEqual(int(r[1]["retry-after"]), body["retry_after"])
        self.assertTrue(0 < body["retry_after"] <= 86400)
        self.assertIsInstance(body["message"], str)
        self.assertEqual(SERVER.request("GET", "/api/v1/reports", token=first)[0], 200)

    def test_url_cache_not_counted(self):
        token = SERVER.user("cache@example.com")
        code, h, _, r1 = SERVER.scan(token, "  https://evil-login.example.net/account/verify ",
                                     kind="url")
        self.assertEqual(code, 200)
        self.assertEqual(h["x-ratelimit-remaining"], "9")
        self.assertEqual([u["cached"] for u in r1["urls"]], [False])
        self.assertEqual(r1["urls"][0]["reputation"], "malicious")
        code, h, _, r2 = SERVER.scan(token, "https://evil-login.example.net/account/verify",
                                     kind="url")
        self.assertEqual(code, 200)
        self.assertEqual(h["x-ratelimit-remaining"], "9")
        self.assertNotEqual(r1["id"], r2["id"])
        self.assertEqual([u["cached"] for u in r2["urls"]], [True])
        self.assertEqual(r2["urls"][0]["reputation"], "malicious")
        self.assertEqual(SERVER.request("GET", "/api/v1/reports/" + r2["id"], token=token)[0], 200)
        # Another user's identical scan is not a cache hit.
        other = SERVER.user("cache2@example.com")
        _, h, _, r3 = SERVER.scan(other, "https://evil-login.example.net/account/verify",
                                  kind="url")
        self.assertEqual(h["x-ratelimit-remaining"], "9")
        self.assertEqual(r3["urls"][0]["cached"], False)

    def test_feed_reputation_and_reload(self):
        token = SERVER.user("feeds@example.com", plan="pro")
        _, _, _, r = SERVER.scan(token, "Get it at http://shop.bad-domain.example.com/x and "
                                 "http://malware-drop.example.org/payload.exe today")
        reps = {u["host"]: u["reputation"] for u in r["urls"]}
        self.assertEqual(reps.get("shop.bad-domain.example.com"), "malicious")
        self.assertEqual(reps.get("malware-drop.example.org"), "malicious")
        # A listed URL is a signal, with the URL as written as its evidence.
        listed = [s for s in r["signals"] if s["key"] == "known_malicious_url"]
        self.assertEqual({s["evidence"] for s in listed},
                         {"http://shop.bad-domain.example.com/x",
                          "http://malware-drop.example.org/payload.exe"})
        self.assertNotEqual(r["verdict"], "safe")
        _, _, _, r = SERVER.scan(token, "Visit https://fresh-phish.example.info/login now")
        self.assertEqual(r["urls"][0]["reputation"], "unknown")
        with open(os.path.join(SERVER.feeds, "added.txt"), "w") as f:
            f.write("fresh-phish.example.info\n")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            _, _, _, r = SERVER.scan(token, "Visit https://fresh-phish.example.info/login now")
            if r["urls"][0]["reputation"] == "malicious":
                break
            time.sleep(0.5)
        self.assertEqual(r["urls"][0]["reputation"], "malicious")


class CachePurge(unittest.TestCase):
    @sqlite_only("writes rows into the file while the server is stopped")
    def test_expired_cache_rows_are_dropped(self):
        server = Server().start()
        token = server.user("purge@example.com", plan="pro")
        self.assertEqual(server.stop(), 0)
        old = int(time.time()) - 2 * 86400
        with sqlite3.connect(server.db) as db:
            db.execute("INSERT INTO url_cache VALUES (1, x'00', '[]', ?)", (old,))
            db.execute("INSERT INTO url_cache VALUES (1, x'01', '[]', ?)", (int(time.time()),))
            db.execute("INSERT INTO url_reputations VALUES (x'02', 'clean', ?)", (old,))
        server.start()
        try:
            self.assertEqual(server.scan(token, SMS)[0], 200)  # a commit; the first purges
        finally:
            self.assertEqual(server.stop(), 0)
        with sqlite3.connect(server.db) as db:
            self.assertEqual(db.execute("SELECT hex(content_key) FROM url_cache").fetchall(),
                             [("01",)])
            self.assertEqual(db.execute("SELECT count(*) FROM url_reputations").fetchone(), (0,))


class Connections(unittest.TestCase, ProblemMixin):
    def test_slow_client_is_disconnected(self):
        s = socket.create_connection(("127.0.0.1", SERVER.port), timeout=10)
        s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")  # never finishes its headers
        start = time.monotonic()
        data = s.recv(4096)
        self.assertTrue(data.startswith(b"HTTP/1.1 408 "), data)  # --header-timeout 2
        self.assertEqual(s.recv(1024), b"")  # then closed
        self.assertLess(time.monotonic() - start, 8)
        s.close()

    def test_malformed_http(self):
        s = socket.create_connection(("127.0.0.1", SERVER.port), timeout=10)
        s.sendall(b"GARBAGE\x01 / HTTP/9\r\n\r\n")
        data = s.recv(4096)
        self.assertIn(b" 400 ", data.split(b"\r\n")[0])
        s.close()

    def test_expect_100_continue(self):
        token = SERVER.user("expect@example.com", plan="pro")
        body = json.dumps({"content": SMS}).encode()
        s = socket.create_connection(("127.0.0.1", SERVER.port), timeout=10)
        s.sendall(b"POST /api/v1/scan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Authorization: Bearer " + token.encode() + b"\r\nExpect: 100-continue\r\n"
                  b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n")
        self.assertTrue(s.recv(1024).startswith(b"HTTP/1.1 100 Continue\r\n\r\n"))
        s.sendall(body)
        self.assertTrue(s.recv(65536).startswith(b"HTTP/1.1 200 OK\r\n"))
        s.close()

    def test_idle_connections_do_not_starve_new_ones(self):
        server = Server("--max-connections", "4").start()
        try:
            idle = []
            for _ in range(4):
                conn = server.connect()
                server.request("GET", "/health", conn=conn)  # now idle keep-alive
                idle.append(conn)
            for _ in range(3):
                self.assertEqual(server.request("GET", "/health")[0], 200)
            for conn in idle:
                conn.close()
        finally:
            self.assertEqual(server.stop(), 0)


class Durability(unittest.TestCase):
    def test_sigkill_during_burst_keeps_acknowledged_reports(self):
        server = Server().start()
        token = server.user("burst@example.com", plan="pro")
        acknowledged, lock, stop = [], threading.Lock(), threading.Event()

        def worker(n):
            conn = None
            i = 0
            while not stop.is_set():
                try:
                    conn = conn or server.connect()
                    conn.request("POST", "/api/v1/scan",
                                 body=json.dumps({"content": f"burst {n}-{i} " + SMS}),
                                 headers={"Authorization": "Bearer " + token,
                                          "Content-Type": "application/json"})
                    resp = conn.getresponse()
                    data = resp.read()
                    if resp.status == 200:
                        with lock:
                            acknowledged.append(json.loads(data)["id"])
                except (OSError, http.client.HTTPException, ValueError):
                    conn = None
                    if stop.is_set():
                        return
                    time.sleep(0.01)
                i += 1

        threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
        for t in threads:
            t.start()
        time.sleep(1.5)
        server.stop(signal.SIGKILL)
        stop.set()
        for t in threads:
            t.join(30)
        self.assertGreater(len(acknowledged), 20)

        again = Server(db_dir=server.dir).start()
        try:
            _, _, _, _ = again.request("GET", "/health")
            missing = [rid for rid in acknowledged
                       if again.request("GET", "/api/v1/reports/" + rid, token=token)[0] != 200]
            self.assertEqual(missing, [], f"{len(missing)} of {len(acknowledged)} lost")
        finally:
            self.assertEqual(again.stop(), 0)

    def test_sigterm_finishes_in_flight_and_exits_0(self):
        server = Server().start()
        token = server.user("term@example.com", plan="pro")
        results = []

        def worker():
            for i in range(30):
                try:
                    code = server.request("POST", "/api/v1/scan", {"content": f"t{i} " + SMS},
                                          token=token)[0]
                    results.append(code)
                except (OSError, http.client.HTTPException):
                    return

        threads = [threading.Thread(target=worker) for _ in range(4)]
        for t in threads:
            t.start()
        time.sleep(0.3)
        code = server.stop(signal.SIGTERM)
        for t in threads:
            t.join(30)
        self.assertEqual(code, 0)
        self.assertTrue(all(c == 200 for c in results), results)

    @sqlite_only("overwrites the database file (PostgreSQL: pg_multi_instance_test.py)")
    def test_unreachable_database_is_503(self):
        server = Server().start()
        try:
            token = server.user("gone@example.com", plan="pro")
            self.assertEqual(server.request("GET", "/health")[0], 200)
            for name in ("test.db", "test.db-wal", "test.db-shm"):  # unreadable from now on
                with open(os.path.join(server.dir, name), "r+b") as f:
                    f.write(b"\0" * 4096)
            code, _, _, body = server.request("GET", "/health")
            self.assertEqual(code, 503)
            self.assertEqual(body["status"], "degraded")
            self.assertEqual(body["checks"]["database"], "unavailable")
            r = server.scan(token)
            self.assertEqual(r[0], 503)
            self.assertEqual(r[3]["type"], "/problems/unavailable")
        finally:
            self.assertEqual(server.stop(), 0)

    def test_retain_content(self):
        server = Server("--retain-content").start()
        try:
            token = server.user("keep@example.com", plan="pro")
            _, _, _, r = server.scan(token, "keep me " + SMS)
            row = db_query(server, "SELECT content FROM reports WHERE public_id = ?", (r["id"],))[0]
            self.assertEqual(bytes(row[0]).decode(), "keep me " + SMS)
        finally:
            self.assertEqual(server.stop(), 0)


class McpEndpoint(unittest.TestCase, ProblemMixin):
    """POST /mcp/scamcheck (CONTRACT §5): the transport's HTTP answers. The
    MCP clients themselves (the official SDK, the conformance suite, raw
    2026-07-28 requests) are in tests/mcp."""

    PATH = "/mcp/scamcheck"

    @classmethod
    def setUpClass(cls):
        cls.token = SERVER.user("mcp@example.com", plan="pro")

    def rpc(self, body, token=None, headers=None, path=PATH):
        return SERVER.request("POST", path, body, token=token, headers=headers)

    def initialize(self, revision="2025-11-25", **kw):
        return self.rpc({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                         "params": {"protocolVersion": revision, "capabilities": {},
                                    "clientInfo": {"name": "server_test", "version": "1"}}}, **kw)

    def call(self, name, arguments, revision="2025-11-25", token=None):
        code, headers, _, body = self.rpc(
            {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
             "params": {"name": name, "arguments": arguments}},
            token=token or self.token, headers={"MCP-Protocol-Version": revision})
        self.assertEqual(code, 200, body)
        self.assertEqual(headers["content-type"], "application/json")
        return body["result"]

    def test_initialize_and_notifications(self):
        code, headers, _, body = self.initialize(token=self.token)
        self.assertEqual(code, 200, body)
        self.assertEqual(body["result"]["protocolVersion"], "2025-11-25")
        self.assertEqual(body["result"]["serverInfo"]["name"], "scamcheck")
        self.assertNotIn("mcp-session-id", headers)
        code, _, data, _ = self.rpc({"jsonrpc": "2.0", "method": "notifications/initialized"},
                                    token=self.token,
                                    headers={"MCP-Protocol-Version": "2025-11-25"})
        self.assertEqual(code, 202)
        self.assertEqual(data, b"")

    def test_missing_and_invalid_token(self):
        self.assert_problem(self.initialize(), 401, "unauthorized")
        code, headers, _, _ = self.initialize(token="sck_" + "x" * 40)
        self.assertEqual(code, 401)
        self.assertEqual(headers["www-authenticate"], "Bearer")

    def test_foreign_origin(self):
        self.assert_problem(self.initialize(token=self.token,
                                            headers={"Origin": "http://evil.example.com"}),
                            403, "forbidden")
        # Refused before the token is looked at.
        self.assert_problem(self.initialize(headers={"Origin": "http://evil.example.com"}),
                            403, "forbidden")
        code, _, _, _ = self.initialize(token=self.token)  # no Origin: not a browser
        self.assertEqual(code, 200)

    def test_get_is_405_and_other_names_404(self):
        response = SERVER.request("GET", self.PATH, token=self.token,
                                  headers={"Accept": "text/event-stream"})
        self.assert_problem(response, 405, "method-not-allowed")
        self.assertEqual(response[1]["allow"], "POST")
        self.assert_problem(self.initialize(token=self.token, path="/mcp/other"), 404, "not-found")

    def test_protocol_errors(self):
        code, _, _, body = self.rpc(b"{not json", token=self.token,
                                    headers={"Content-Type": "application/json"})
        self.assertEqual(code, 400)
        self.assertEqual(body["error"]["code"], -32700)
        code, _, _, body = self.rpc({"jsonrpc": "2.0", "id": 3, "method": "tools/list"},
                                    token=self.token,
                                    headers={"MCP-Protocol-Version": "1999-01-01"})
        self.assertEqual(code, 400)
        self.assertIn("error", body)
        self.assert_problem(self.rpc(b"ping", token=self.token,
                                     headers={"Content-Type": "text/plain"}),
                            415, "unsupported-media-type")

    def test_scans_are_stored_as_the_callers_reports(self):
        result = self.call("scan_text", {"text": SCAM})
        report = result["structuredContent"]
        self.assertNotEqual(report["verdict"], "safe")
        code, _, _, page = SERVER.request("GET", "/api/v1/reports?limit=5", token=self.token)
        self.assertEqual(code, 200)
        self.assertEqual(page["data"][0]["id"], report["id"])
        code, _, _, stored = SERVER.request("GET", "/api/v1/reports/" + report["id"],
                                            token=self.token)
        self.assertEqual(stored, report)
        other = SERVER.user("mcp-other@example.com")
        self.assert_problem(SERVER.request("GET", "/api/v1/reports/" + report["id"], token=other),
                            404, "not-found")
        listed = self.call("list_my_recent_reports", {"limit": 1}, token=other)
        self.assertEqual(listed["structuredContent"]["reports"], [])

    def test_daily_bucket_is_shared_with_the_scan_api(self):
        token = SERVER.user("mcp-free@example.com", plan="free")
        for i in range(9):
            self.assertEqual(SERVER.scan(token, content=f"{SMS} {i}")[0], 200)
        self.assertNotEqual(self.call("scan_text", {"text": SMS}, token=token).get("isError"), True)
        refused = self.call("scan_text", {"text": SMS}, token=token)
        self.assertTrue(refused["isError"])
        code, headers, _, _ = SERVER.scan(token)
        self.assertEqual(code, 429)
        self.assertEqual(headers["x-ratelimit-remaining"], "0")

    def test_route_is_in_the_openapi_document(self):
        _, _, _, doc = SERVER.request("GET", "/docs/api")
        operation = doc["paths"]["/mcp/{mcp_name}"]["post"]
        self.assertEqual(operation["operationId"], "mcp")
        self.assertEqual(operation["security"], [{"bearerAuth": []}])
        for status in ("200", "202", "400", "401", "403", "404", "413", "415"):
            self.assertIn(status, operation["responses"])
        self.assertIn("application/problem+json", operation["responses"]["400"]["content"])


def main():
    global BINARY, RECORD
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--record", help="append every response here (JSON Lines)")
    parser.add_argument("--database", help="sqlite (default) or postgresql:CLUSTER_DIR")
    args, rest = parser.parse_known_args()
    configure_database(args.database)
    BINARY = os.path.abspath(args.binary)
    RECORD = args.record
    if RECORD and os.path.exists(RECORD):
        os.remove(RECORD)
    unittest.main(argv=[sys.argv[0], "-v", *rest])


if __name__ == "__main__":
    main()
