"""Shared parts of the fault and soak tests of scamcheckd (fault_kill_test.py,
disk_full_test.py, soak_test.py): the server process on a fixed loopback
port (so it can be restarted on the same address and database), its
operator CLI, and a bounded mixed load client (JSON scans, check-API checks
and their completion, PNG/PDF uploads, MCP tool calls over HTTP) that
records every acknowledged report id and check UUID.

Python 3 standard library only.
"""

import http.client
import json
import os
import random
import resource
import signal
import socket
import subprocess
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
PNG_FIXTURE = os.path.join(ROOT, "tests", "mcp", "fixtures", "qr_phishing_url.png")
PDF_FIXTURE = os.path.join(ROOT, "tests", "fuzz", "corpus", "file", "text_layer.pdf")

SCAM = ("URGENT: your bank account has been suspended. Verify your password and enter the TAN "
        "code at http://secure-bank-login.example.top/verify within 24 hours.")
SMS = "Your parcel is on hold. Pay 1.99 EUR at https://dhl-track.example.top/pay"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def vm_rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Daemon:
    """One scamcheckd on 127.0.0.1:port and one SQLite file; can be killed
    and started again on both. With fsize (bytes), the process runs under a
    soft RLIMIT_FSIZE (hard limit unlimited, so the test can raise it with
    prlimit while the server runs) and SIGXFSZ ignored, so a write past the
    limit fails with EFBIG instead of killing the process; its log then goes
    through a pipe (a pipe has no file size)."""

    def __init__(self, binary, directory, *extra, port=None, fsize=None):
        self.binary = binary
        self.dir = directory
        self.db = os.path.join(directory, "fault.db")
        self.extra = list(extra)
        self.port = port or free_port()
        self.fsize = fsize
        self.proc = None
        self.log_path = os.path.join(directory, "server.log")
        self.starts = 0

    def cli(self, *args, stdin=""):
        run = subprocess.run([self.binary, *args, "--database", "sqlite:" + self.db],
                             input=stdin.encode(), capture_output=True, timeout=60)
        if run.returncode != 0:
            raise RuntimeError(f"scamcheckd {' '.join(args)}: {run.stderr.decode()}")
        return run.stdout.decode().strip()

    def user(self, email, plan="pro"):
        self.cli("user", "create", "--email", email, "--name", email.split("@")[0], "--plan",
                 plan, stdin="correct horse battery\n")
        return self.cli("token", "create", "--email", email, "--name", "main", "--abilities", "*")

    def _limits(self):
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (self.fsize, resource.RLIM_INFINITY))

    def start(self, timeout=30):
        mark = os.path.getsize(self.log_path) if os.path.exists(self.log_path) else 0
        log = open(self.log_path, "ab")
        cmd = [self.binary, "serve", "--listen", f"127.0.0.1:{self.port}", "--database",
               "sqlite:" + self.db, *self.extra]
        if self.fsize is None:
            self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log)
            log.close()
        else:
            self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                         preexec_fn=self._limits)
            pipe = self.proc.stderr

            def copy():
                with log:
                    for line in pipe:
                        log.write(line)
                        log.flush()
            threading.Thread(target=copy, daemon=True).start()
        self.starts += 1
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("scamcheckd exited: " + self.read_log()[-3000:])
            with open(self.log_path, "rb") as f:
                f.seek(mark)
                if b'"event":"listening"' in f.read():
                    return self
            time.sleep(0.02)
        raise RuntimeError("scamcheckd did not start: " + self.read_log()[-3000:])

    def set_fsize(self, soft):
        """Changes the running server's soft RLIMIT_FSIZE (prlimit(2))."""
        resource.prlimit(self.proc.pid, resource.RLIMIT_FSIZE, (soft, resource.RLIM_INFINITY))

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self, timeout=30):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def read_log(self):
        with open(self.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def request(self, method, path, body=None, token=None, headers=None, timeout=30):
        """(status, parsed JSON or raw bytes); raises OSError/HTTPException when
        the connection fails (the server was killed)."""
        h = dict(headers or {})
        if token:
            h["Authorization"] = "Bearer " + token
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
            h.setdefault("Content-Type", "application/json")
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request(method, path, body=body, headers=h)
            resp = conn.getresponse()
            data = resp.read()
            ctype = resp.getheader("Content-Type", "")
        finally:
            conn.close()
        if data and "json" in ctype:
            try:
                return resp.status, json.loads(data)
            except ValueError:
                pass
        return resp.status, data


def form(fields, boundary="scamcheck-test-boundary"):
    """A multipart/form-data body and its Content-Type: fields is a list of
    (name, value bytes or str, filename or None, content type or None)."""
    out = bytearray()
    for name, value, filename, ctype in fields:
        out += b"--" + boundary.encode() + b"\r\n"
        disposition = f'Content-Disposition: form-data; name="{name}"'
        if filename:
            disposition += f'; filename="{filename}"'
        out += disposition.encode() + b"\r\n"
        if ctype:
            out += f"Content-Type: {ctype}\r\n".encode()
        out += b"\r\n" + (value.encode() if isinstance(value, str) else value) + b"\r\n"
    out += b"--" + boundary.encode() + b"--\r\n"
    return bytes(out), "multipart/form-data; boundary=" + boundary


class MixedLoad:
    """Threads sending a mixed load at a modest, fixed rate until stop():
    JSON scans, check-API checks (and status polls of pending ones), PNG and
    PDF uploads, MCP scan_text calls. Every 200/201 acknowledgement is
    recorded (report ids, check UUIDs, with the token that owns them);
    statuses are counted; a failed connection (the server killed) counts as
    a connection error and the thread waits a little before going on."""

    KINDS = ("scan", "check", "poll", "upload_png", "upload_pdf", "mcp")

    def __init__(self, daemon, tokens, threads=4, rate=20.0,
                 weights=(5, 2, 1, 1, 1, 2), seed=21):
        self.daemon = daemon
        self.tokens = tokens
        self.threads = threads
        self.interval = threads / rate  # seconds between one thread's requests
        self.weights = weights
        self.random = random.Random(seed)
        with open(PNG_FIXTURE, "rb") as f:
            self.png = f.read()
        with open(PDF_FIXTURE, "rb") as f:
            self.pdf = f.read()
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.workers = []
        self.tried = 0
        self.statuses = {}  # (kind, status) -> count
        self.connection_errors = 0
        self.unexpected = []  # (kind, status, body excerpt) for 5xx other than 503
        self.reports = {}  # report id -> token
        self.checks = {}  # check uuid -> token
        self.pending = []  # check uuids not yet seen completed
        self.completed = set()
        self.counter = 0

    def start(self):
        for i in range(self.threads):
            t = threading.Thread(target=self._run, args=(i,), daemon=True)
            t.start()
            self.workers.append(t)

    def stop(self):
        self.stopping.set()
        for t in self.workers:
            t.join(60)

    def _next(self):
        with self.lock:
            self.counter += 1
            return self.counter

    def _run(self, index):
        rnd = random.Random(index * 7919 + 1)
        next_at = time.monotonic() + rnd.random() * self.interval
        while not self.stopping.is_set():
            delay = next_at - time.monotonic()
            if delay > 0:
                self.stopping.wait(delay)
                if self.stopping.is_set():
                    return
            next_at = max(next_at + self.interval, time.monotonic())
            kind = rnd.choices(self.KINDS, self.weights)[0]
            token = self.tokens[rnd.randrange(len(self.tokens))]
            try:
                self._one(kind, token)
            except (OSError, http.client.HTTPException):
                with self.lock:
                    self.connection_errors += 1
                self.stopping.wait(0.05)

    def _count(self, kind, status, body):
        with self.lock:
            self.statuses[(kind, status)] = self.statuses.get((kind, status), 0) + 1
            if status >= 500 and status != 503:
                self.unexpected.append((kind, status, str(body)[:300]))

    def _one(self, kind, token):
        n = self._next()
        if kind == "poll":
            with self.lock:
                if not self.pending:
                    kind = "check"
                else:
                    uuid, token = self.pending[n % len(self.pending)]
        with self.lock:
            self.tried += 1
        d = self.daemon
        if kind == "scan":
            status, body = d.request("POST", "/api/v1/scan",
                                     {"content": f"{SCAM} ref {n}", "locale": "en"}, token=token)
            self._count(kind, status, body)
            if status == 200:
                self._acknowledged_report(body["id"], token)
        elif kind == "check":
            status, body = d.request("POST", "/api/checks",
                                     {"type": "text", "content": f"{SMS} ref {n}"}, token=token)
            self._count(kind, status, body)
            if status == 201:
                uuid = body["check"]["uuid"]
                with self.lock:
                    self.checks[uuid] = token
                    self.pending.append((uuid, token))
        elif kind == "poll":
            status, body = d.request("GET", f"/api/checks/{uuid}/status", token=token)
            self._count(kind, status, body)
            if status == 200 and not body.get("is_pending", True):
                with self.lock:
                    self.completed.add(uuid)
                    if (uuid, token) in self.pending:
                        self.pending.remove((uuid, token))
        elif kind in ("upload_png", "upload_pdf"):
            data, name, ctype = ((self.png, "shot.png", "image/png") if kind == "upload_png"
                                 else (self.pdf, "letter.pdf", "application/pdf"))
            body, content_type = form([("file", data, name, ctype), ("locale", "en", None, None)])
            status, body = d.request("POST", "/api/v1/scan", body, token=token,
                                     headers={"Content-Type": content_type})
            self._count(kind, status, body)
            if status == 200:
                self._acknowledged_report(body["id"], token)
        elif kind == "mcp":
            status, body = d.request(
                "POST", "/mcp/scamcheck",
                {"jsonrpc": "2.0", "id": n, "method": "tools/call",
                 "params": {"name": "scan_text", "arguments": {"text": f"{SCAM} mcp {n}"}}},
                token=token, headers={"MCP-Protocol-Version": "2025-11-25"})
            self._count(kind, status, body)
            if status == 200 and isinstance(body, dict) and "result" in body:
                result = body["result"]
                if not result.get("isError") and "id" in result.get("structuredContent", {}):
                    self._acknowledged_report(result["structuredContent"]["id"], token)

    def _acknowledged_report(self, report_id, token):
        with self.lock:
            self.reports[report_id] = token

    def summary(self):
        with self.lock:
            five = sum(c for (_, s), c in self.statuses.items() if s >= 500)
            return {"tried": self.tried, "connection_errors": self.connection_errors,
                    "5xx": five, "unexpected_5xx": len(self.unexpected),
                    "reports_acknowledged": len(self.reports),
                    "checks_acknowledged": len(self.checks),
                    "statuses": {f"{k} {s}": c for (k, s), c in sorted(self.statuses.items())}}
