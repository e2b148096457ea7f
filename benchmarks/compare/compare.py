#!/usr/bin/env python3
"""ScamCheck beside Rspamd and SpamAssassin on the same dev messages.

Started by benchmarks/compare/run.sh (which installs the peers); see the
README there. Everything runs on loopback: a DNS sink answering REFUSED
(a thread of this process), rspamd with its packaged rules and the
network modules off, spamd with local tests only (-L) and no Bayes, and
scamcheckd on a temporary SQLite file. Every process this script starts is
stopped by its PID in a finally block; every loop is bounded by a count
(the sample) and a wall-clock deadline per phase.
"""
import argparse
import base64
import concurrent.futures as cf
import http.client
import json
import math
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

# Fixed sample per corpus (dev split, records in file order, which is by
# id = sha1 of the text, i.e. an arbitrary but fixed order). None = all.
EMAIL_CORPORA = [("spamassassin", None), ("nazario_phishing", None), ("phishing_pot", None)]
SMS_CORPORA = [("sms_spam_collection", 300)]
URL_CORPORA = [("urls_phishing_database", 150), ("domains", 200)]
# E-mails for the messages/s runs: every e-mail of the sample, except for
# SpamAssassin (about 100 times slower), which gets the first SLOW_EMAILS.
# The library runs in one CLI process; it gets the e-mails LIBRARY_CYCLES
# times over so that process start-up (model load) weighs little.
SLOW_EMAILS = 120
LIBRARY_CYCLES = 3
PHASE_DEADLINE_S = 400  # one pass of one system over the sample stops after this
REQUEST_TIMEOUT_S = 30
WRK_CONNECTIONS = [1, 8, 64]

RSPAMD_DISABLED = [
    "rbl", "surbl", "emails", "fuzzy_check", "spf", "dkim", "dmarc", "arc", "asn",
    "phishing", "neural", "ratelimit", "greylist", "replies", "reputation", "mx_check",
    "dcc", "history_redis", "rspamd_update", "url_redirector", "metadata_exporter",
    "clickhouse", "elastic", "p0f", "external_services", "antivirus",
]
RSPAMD_SPAM_ACTIONS = {"add header", "rewrite subject", "reject"}
SA_THRESHOLD = 5.0


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------- sample

def wrap_mail(ident, subject, body):
    """A minimal RFC 822 mail around an SMS or URL, for the mail filters."""
    return ("From: sender@example.invalid\r\nTo: user@example.invalid\r\n"
            f"Subject: {subject}\r\nDate: Mon, 2 Nov 2026 10:00:00 +0000\r\n"
            f"Message-ID: <{ident}@example.invalid>\r\nMIME-Version: 1.0\r\n"
            "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n"
            f"\r\n{body}\r\n").encode("utf-8")


def load_sample(corpus_dir):
    items = []  # dict(corpus, kind, label, raw (bytes for peers), native (CLI line))
    groups = [("email", c, n) for c, n in EMAIL_CORPORA] + \
             [("text", c, n) for c, n in SMS_CORPORA] + [("url", c, n) for c, n in URL_CORPORA]
    for kind, corpus, cap in groups:
        path = os.path.join(corpus_dir, corpus, "dev.jsonl")
        taken = 0
        with open(path, encoding="utf-8") as f:
            for line in f:
                if cap is not None and taken >= cap:
                    break
                r = json.loads(line)
                if r.get("kind") != kind:
                    continue
                taken += 1
                ident = r["id"]
                if kind == "email":
                    raw = r["text"].encode(r.get("raw_encoding", "utf-8"))
                    try:
                        native = {"kind": "email", "content": raw.decode("utf-8")}
                    except UnicodeDecodeError:
                        native = {"kind": "email", "content": base64.b64encode(raw).decode(),
                                  "content_encoding": "base64"}
                elif kind == "text":
                    raw = wrap_mail(ident, "SMS", r["text"])
                    native = {"kind": "text", "content": r["text"]}
                else:
                    raw = wrap_mail(ident, "Link", r["text"])
                    native = {"kind": "url", "content": r["text"]}
                items.append({"corpus": corpus, "kind": kind, "label": r["label"],
                              "raw": raw, "native": native})
    return items


# ---------------------------------------------------------------- DNS sink

def dns_sink(stop):
    """Answers every DNS query on a loopback UDP port with REFUSED."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    sock.settimeout(0.2)
    port = sock.getsockname()[1]
    count = [0]

    def loop():
        while not stop.is_set():
            try:
                data, addr = sock.recvfrom(4096)
            except socket.timeout:
                continue
            if len(data) < 12:
                continue
            ident, flags = struct.unpack("!HH", data[:4])
            rflags = 0x8000 | (flags & 0x7900) | 5  # QR, opcode, RD; RCODE 5 = REFUSED
            qd = struct.unpack("!H", data[4:6])[0]
            sock.sendto(struct.pack("!HHHHHH", ident, rflags, qd, 0, 0, 0) + data[12:], addr)
            count[0] += 1
        sock.close()

    t = threading.Thread(target=loop, daemon=True)
    t.start()
    return port, count


# ---------------------------------------------------------------- processes

class Procs:
    def __init__(self):
        self.procs = []

    def start(self, name, argv, **kw):
        p = subprocess.Popen(argv, start_new_session=True, **kw)
        self.procs.append((name, p))
        return p

    def stop_all(self):
        for name, p in reversed(self.procs):
            if p.poll() is None:
                try:
                    os.kill(p.pid, signal.SIGTERM)
                    p.wait(timeout=10)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    try:
                        os.kill(p.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
        # rspamd and spamd fork children into their own process group (the
        # session started above); end whatever of that group is left.
        for name, p in self.procs:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


def wait_until(pred, timeout, what):
    end = time.time() + timeout
    while time.time() < end:
        try:
            if pred():
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{what} did not become ready in {timeout} s")


def start_rspamd(procs, work, dns_port):
    conf = os.path.join(work, "rspamd")
    for d in ("local.d", "override.d", "db", "run", "log"):
        os.makedirs(os.path.join(conf, d), exist_ok=True)
    port, ctl, proxy = free_port(), free_port(), free_port()
    w = lambda rel, text: open(os.path.join(conf, rel), "w").write(text)
    w("override.d/options.inc",
      f'dns {{ nameserver = ["127.0.0.1:{dns_port}"]; timeout = 0.5s; retransmits = 1; }}\n')
    w("override.d/worker-normal.inc", f'bind_socket = "127.0.0.1:{port}";\ncount = 2;\n')
    w("override.d/worker-controller.inc", f'bind_socket = "127.0.0.1:{ctl}";\ncount = 1;\n')
    w("override.d/worker-proxy.inc", f'bind_socket = "127.0.0.1:{proxy}";\ncount = 1;\n')
    w("override.d/logging.inc", 'level = "error";\n')
    w("override.d/redis.conf", "# no redis: Bayes, neural, greylist and history stay off\n")
    for m in RSPAMD_DISABLED:
        w(f"override.d/{m}.conf", "enabled = false;\n")
    shutil.chown(conf, "_rspamd", "_rspamd")
    for d in ("db", "run", "log"):
        shutil.chown(os.path.join(conf, d), "_rspamd", "_rspamd")
    argv = ["rspamd", "-f", "-u", "_rspamd", "-g", "_rspamd", "-c", "/etc/rspamd/rspamd.conf",
            "--var", f"LOCAL_CONFDIR={conf}", "--var", f"DBDIR={conf}/db",
            "--var", f"RUNDIR={conf}/run", "--var", f"LOGDIR={conf}/log"]
    log("starting rspamd:", " ".join(argv))
    p = procs.start("rspamd", argv, stdout=open(os.path.join(work, "rspamd.out"), "w"),
                    stderr=subprocess.STDOUT)

    def ready():
        if p.poll() is not None:
            raise RuntimeError("rspamd exited; see " + os.path.join(conf, "log/rspamd.log"))
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        c.request("GET", "/ping")
        return c.getresponse().status == 200
    wait_until(ready, 60, "rspamd")
    return port


def start_spamd(procs, work):
    site = os.path.join(work, "spamassassin")
    shutil.copytree("/etc/spamassassin", site)
    with open(os.path.join(site, "zz_offline.cf"), "w") as f:
        f.write("# offline: no Bayes, no network tests, packaged rules only\n"
                "use_bayes 0\nbayes_auto_learn 0\nskip_rbl_checks 1\ndns_available no\n"
                "use_razor2 0\nuse_pyzor 0\nuse_dcc 0\n")
    port = free_port()
    argv = ["spamd", "-L", "-x", "-u", "debian-spamd", "--siteconfigpath", site,
            "--listen", f"127.0.0.1:{port}", "--max-children", "2", "--min-children", "2",
            "--min-spare", "1", "--max-spare", "2", "-s", os.path.join(work, "spamd.log")]
    log("starting spamd:", " ".join(argv))
    p = procs.start("spamd", argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def ready():
        if p.poll() is not None:
            raise RuntimeError("spamd exited; see " + os.path.join(work, "spamd.log"))
        with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
            s.sendall(b"PING SPAMC/1.5\r\n\r\n")
            return b"PONG" in s.recv(100)
    wait_until(ready, 120, "spamd")
    return port


def start_scamcheckd(procs, work, binary):
    db = f"sqlite:{work}/scamcheck.db"
    port = free_port()
    argv = [binary, "serve", "--listen", f"127.0.0.1:{port}", "--database", db, "--workers", "2",
            "--log-level", "notice", "--max-connections", "512", "--idle-timeout", "600",
            "--max-connections-per-address", "0", "--scan-per-minute", "0",
            "--reads-per-minute", "0"]
    p = procs.start("scamcheckd", argv, stdout=subprocess.DEVNULL,
                    stderr=open(os.path.join(work, "scamcheckd.log"), "w"))

    def ready():
        if p.poll() is not None:
            raise RuntimeError("scamcheckd exited")
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        c.request("GET", "/health")
        return c.getresponse().status == 200
    wait_until(ready, 30, "scamcheckd")
    subprocess.run([binary, "user", "create", "--email", "bench@example.com", "--name", "bench",
                    "--plan", "pro", "--database", db], input=b"benchmark password\n",
                   stdout=subprocess.DEVNULL, check=True, timeout=30)
    token = subprocess.run([binary, "token", "create", "--email", "bench@example.com", "--name",
                            "bench", "--abilities", "scan:create", "--database", db],
                           capture_output=True, check=True, timeout=30).stdout.decode().strip()
    return port, token


# ---------------------------------------------------------------- clients

class RspamdClient:
    def __init__(self, port):
        self.port = port
        self.local = threading.local()

    def __call__(self, item):
        c = getattr(self.local, "c", None)
        if c is None:
            c = self.local.c = http.client.HTTPConnection("127.0.0.1", self.port,
                                                          timeout=REQUEST_TIMEOUT_S)
        try:
            c.request("POST", "/checkv2", body=item["raw"])
            r = c.getresponse()
            body = r.read()
        except (OSError, http.client.HTTPException):
            self.local.c = None
            raise
        if r.status != 200:
            raise RuntimeError(f"HTTP {r.status}")
        j = json.loads(body)
        return j.get("action") in RSPAMD_SPAM_ACTIONS, j.get("score")


def spamd_client(port):
    def check(item):
        msg = item["raw"]
        with socket.create_connection(("127.0.0.1", port), timeout=REQUEST_TIMEOUT_S) as s:
            s.sendall(b"CHECK SPAMC/1.5\r\nContent-length: %d\r\n\r\n" % len(msg) + msg)
            s.shutdown(socket.SHUT_WR)
            data = b""
            while True:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
        m = re.search(rb"Spam: (\w+) ; (-?[0-9.]+) / (-?[0-9.]+)", data)
        if not m:
            raise RuntimeError("no Spam: header in " + data[:80].decode("latin-1"))
        score = float(m.group(2))
        return score >= SA_THRESHOLD, score
    return check


class ScamcheckdClient:
    def __init__(self, port, token):
        self.port, self.token = port, token
        self.local = threading.local()

    def __call__(self, item):
        c = getattr(self.local, "c", None)
        if c is None:
            c = self.local.c = http.client.HTTPConnection("127.0.0.1", self.port,
                                                          timeout=REQUEST_TIMEOUT_S)
        try:
            c.request("POST", "/api/v1/scan", body=json.dumps(item["native"]).encode(),
                      headers={"Content-Type": "application/json",
                               "Authorization": "Bearer " + self.token})
            r = c.getresponse()
            body = r.read()
        except (OSError, http.client.HTTPException):
            self.local.c = None
            raise
        if r.status not in (200, 201):
            raise RuntimeError(f"HTTP {r.status}: {body[:120]!r}")
        j = json.loads(body)
        rep = j.get("report", j)
        return rep.get("verdict") != "safe", rep.get("risk_score")


def run_pass(client, items, clients):
    """Sends every item with `clients` concurrent clients; returns (results, seconds)."""
    results = [None] * len(items)
    deadline = time.time() + PHASE_DEADLINE_S
    t0 = time.perf_counter()

    def one(i):
        if time.time() > deadline:
            results[i] = ("timeout", None)
            return
        try:
            results[i] = ("ok", client(items[i]))
        except Exception as e:  # noqa: BLE001 - counted as an error per message
            results[i] = ("error", str(e)[:100])
    with cf.ThreadPoolExecutor(max_workers=clients) as ex:
        list(ex.map(one, range(len(items))))
    return results, time.perf_counter() - t0


def run_cli(cli, items, threads):
    lines = "".join(json.dumps(dict(id=i + 1, **it["native"]), ensure_ascii=False) + "\n"
                    for i, it in enumerate(items)).encode("utf-8")
    t0 = time.perf_counter()
    out = subprocess.run([cli, "--jsonl", "--threads", str(threads)], input=lines,
                         capture_output=True, check=True, timeout=PHASE_DEADLINE_S).stdout
    secs = time.perf_counter() - t0
    results = [("error", "no answer")] * len(items)
    for line in out.decode("utf-8").splitlines():
        j = json.loads(line)
        i = j["id"] - 1
        if "report" in j:
            results[i] = ("ok", (j["report"]["verdict"] != "safe", j["report"]["risk_score"]))
        else:
            results[i] = ("error", str(j.get("error"))[:100])
    return results, secs


# ---------------------------------------------------------------- metrics

def metrics(items, results):
    by = {}
    for it, (status, val) in zip(items, results):
        m = by.setdefault(it["corpus"], dict(tp=0, fp=0, tn=0, fn=0, err=0, n=0))
        m["n"] += 1
        if status != "ok":
            m["err"] += 1
            continue
        pos = it["label"] in ("scam", "spam")
        flagged = val[0]
        m[("t" if flagged == pos else "f") + ("p" if flagged else "n")] += 1
    return by


def fmt_row(m):
    tp, fp, tn, fn = m["tp"], m["fp"], m["tn"], m["fn"]
    prec = f"{tp / (tp + fp):.3f}" if tp + fp and tn + fp else "—"
    rec = f"{tp / (tp + fn):.3f}" if tp + fn else "—"
    fpr = f"{fp / (fp + tn):.3f}" if fp + tn else "—"
    den = math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    mcc = f"{(tp * tn - fp * fn) / den:.3f}" if den else "—"
    return prec, rec, fpr, mcc


def wrk_run(url, script, conns, duration, env):
    threads = 1 if conns == 1 else 2
    out = subprocess.run(["wrk", f"-t{threads}", f"-c{conns}", f"-d{duration}s", "--latency",
                          "-s", script, url], capture_output=True, text=True, env=env,
                         timeout=duration + 30).stdout

    def pct(p):
        m = re.search(rf"^\s+{p}%\s+([0-9.]+)(us|ms|s)\s*$", out, re.M)
        if not m:
            return "?"
        v = float(m.group(1)) * {"us": 1e-3, "ms": 1, "s": 1e3}[m.group(2)]
        return f"{v:.2f}"
    rps = re.search(r"Requests/sec:\s+([0-9.]+)", out)
    errs = " ".join(re.findall(r"(Non-2xx.*|Socket errors.*)", out))
    return (f"{float(rps.group(1)):.0f}" if rps else "?"), pct(50), pct(99), errs


def versions(binary):
    def first(argv):
        try:
            r = subprocess.run(argv, capture_output=True, text=True, timeout=30)
            return (r.stdout + r.stderr).strip().splitlines()[0]
        except (OSError, IndexError, subprocess.TimeoutExpired):
            return "?"
    return {"rspamd": first(["rspamd", "--version"]),
            "spamassassin": first(["spamassassin", "--version"]),
            "scamcheck": first([binary, "--version"]),
            "wrk": first(["wrk", "--version"])}


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus-dir", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--server", required=True)
    ap.add_argument("--duration", type=int, default=5)
    ap.add_argument("--commit", default="unknown")
    ap.add_argument("--out")
    ap.add_argument("--quick", action="store_true", help="20 records per corpus: a smoke run")
    args = ap.parse_args()
    # `timeout` in run.sh sends SIGTERM: leave through the finally below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    global SLOW_EMAILS
    if args.quick:
        for lst in (EMAIL_CORPORA, SMS_CORPORA, URL_CORPORA):
            lst[:] = [(c, 20) for c, _ in lst]
        SLOW_EMAILS = 20
    here = os.path.dirname(os.path.abspath(__file__))
    started = time.time()

    items = load_sample(args.corpus_dir)
    emails = [it for it in items if it["kind"] == "email"]
    log(f"sample: {len(items)} messages; speed: {len(emails)} e-mails")
    stop = threading.Event()
    dns_port, dns_count = dns_sink(stop)
    procs = Procs()
    work = tempfile.mkdtemp(prefix="scamcheck-compare-")
    os.chmod(work, 0o755)
    quality, speed, http_rows = {}, [], []
    try:
        rs_port = start_rspamd(procs, work, dns_port)
        sa_port = start_spamd(procs, work)
        sc_port, token = start_scamcheckd(procs, work, args.server)
        systems = [("ScamCheck", None), ("Rspamd", RspamdClient(rs_port)),
                   ("SpamAssassin", spamd_client(sa_port))]
        for name, client in systems:
            log(f"quality: {name}")
            if client is None:
                res, _ = run_cli(args.cli, items, 2)
            else:
                res, _ = run_pass(client, items, 2)
            quality[name] = metrics(items, res)
        sc_http = ScamcheckdClient(sc_port, token)
        for name, kind, fn, batch in [
                ("ScamCheck", "library (`scamcheck --jsonl --threads N`, one process)", None,
                 emails * LIBRARY_CYCLES),
                ("ScamCheck", "HTTP `POST /api/v1/scan`, N clients", sc_http, emails),
                ("Rspamd", "HTTP `POST /checkv2`, N clients", RspamdClient(rs_port), emails),
                ("SpamAssassin", "spamd protocol (`CHECK`), N clients", spamd_client(sa_port),
                 emails[:SLOW_EMAILS])]:
            row = [name, kind, str(len(batch))]
            for n in (1, 2):
                log(f"speed: {name} {kind} x{n}")
                if fn is None:
                    res, secs = run_cli(args.cli, batch, n)
                else:
                    res, secs = run_pass(fn, batch, n)
                ok = sum(1 for s, _ in res if s == "ok")
                row.append(f"{ok / secs:.0f}" + ("" if ok == len(batch) else f" ({ok} ok)"))
            speed.append(row)
        # wrk: the same SMS, wrapped as a mail, to both HTTP servers.
        sms = next(it for it in items if it["kind"] == "text" and it["label"] == "spam")
        env = dict(os.environ, COMPARE_BODY=os.path.join(work, "rspamd.body"))
        open(env["COMPARE_BODY"], "wb").write(sms["raw"])
        sc_env = dict(os.environ, COMPARE_BODY=os.path.join(work, "scan.body"),
                      SCAMCHECK_TOKEN=token)
        open(sc_env["COMPARE_BODY"], "w").write(
            json.dumps({"kind": "email", "content": sms["raw"].decode("utf-8")}))
        script = os.path.join(here, "post_body.lua")
        for name, url, e in [("scamcheckd `POST /api/v1/scan`",
                              f"http://127.0.0.1:{sc_port}/api/v1/scan", sc_env),
                             ("Rspamd `POST /checkv2`", f"http://127.0.0.1:{rs_port}/checkv2", env)]:
            wrk_run(url, script, 8, 2, e)  # warm-up
            for conns in WRK_CONNECTIONS:
                log(f"wrk: {name} c={conns}")
                http_rows.append([name, str(conns), *wrk_run(url, script, conns, args.duration, e)])
    finally:
        procs.stop_all()
        stop.set()
        shutil.rmtree(work, ignore_errors=True)

    v = versions(args.server)
    load = open("/proc/loadavg").read().split()[:3]
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), "?")
    corp = {}
    for it in items:
        c = corp.setdefault(it["corpus"], {"kind": it["kind"], "ham": 0, "pos": 0})
        c["ham" if it["label"] == "ham" else "pos"] += 1
    L = []
    L.append(f"# ScamCheck beside Rspamd and SpamAssassin ({time.strftime('%Y-%m-%d', time.gmtime())}, commit {args.commit})")
    L.append("")
    L.append(f"Command: `benchmarks/compare/run.sh` ({time.time() - started:.0f} s). "
             f"Versions: ScamCheck `{v['scamcheck']}`; {v['rspamd']}; {v['spamassassin']}; {v['wrk']}.")
    L.append(f"Machine: {os.cpu_count()} cores ({cpu}); **loaded by other work during the run** "
             f"(load average at the end {' '.join(load)}), and the load generator (this script, wrk) "
             "runs on the same cores: the speed figures are lower bounds, comparable only within this run.")
    L.append("")
    L.append("Offline, loopback only: DNS goes to a local sink answering REFUSED "
             f"({dns_count[0]} queries refused); rspamd 3.4 with its packaged rules and the modules "
             f"`{'`, `'.join(RSPAMD_DISABLED)}` off, no Redis (so no Bayes, neural, fuzzy or "
             "reputation); spamd with `-L` (local tests only), `use_bayes 0`, `skip_rbl_checks 1`, "
             "no sa-update (rules as packaged by Debian). ScamCheck with its embedded data pack.")
    L.append("")
    L.append("What counts as flagged: ScamCheck verdict ≠ `safe`; Rspamd action `add header`, "
             "`rewrite subject` or `reject` (default score ≥ 6; `greylist` at ≥ 4 is *not* "
             f"counted); SpamAssassin score ≥ {SA_THRESHOLD:g}. Positives are `scam` and `spam`.")
    L.append("")
    L.append("Input, the dev split of each corpus, first records in file order: " + ", ".join(
        f"`{name}` {c['ham'] + c['pos']} {c['kind']} ({c['ham']} ham)" for name, c in corp.items()) + ". "
        "E-mails are sent raw to all three; the peers get each SMS and URL wrapped in a minimal "
        "RFC 822 mail (From, To, Subject, Date, Message-ID, text/plain body), ScamCheck gets them "
        "as `text` and `url`.")
    L.append("")
    L.append("Caveats: the peers run with packaged rules only (no Bayes training, no DNS lists, "
             "no fuzzy hashes or reputation), which is not how they are deployed; they are mail "
             "filters, so an SMS or a URL in a minimal mail gives them little to go on. "
             "ScamCheck's model was trained on the train split of these corpora (not "
             "`phishing_pot`, evaluation only); the peers never saw them.")
    L.append("")
    L.append("## Quality")
    L.append("")
    L.append("| corpus | kind | ham / positives | system | precision | recall | FPR | MCC | errors |")
    L.append("|---|---|---|---|---:|---:|---:|---:|---:|")
    for name, c in corp.items():
        for sysname in quality:
            m = quality[sysname].get(name)
            if not m:
                continue
            p, r, f, mc = fmt_row(m)
            L.append(f"| {name} | {c['kind']} | {c['ham']} / {c['pos']} | {sysname} | {p} | {r} | {f} | {mc} | {m['err']} |")
    L.append("")
    L.append("Precision and MCC are `—` on a corpus without ham (all scam), FPR on one without positives.")
    L.append("")
    L.append("## Speed")
    L.append("")
    L.append(f"E-mails per second, one pass over the sample's {len(emails)} e-mails with 1 and 2 "
             "concurrent clients (for the library: worker threads). The library row reads them "
             f"{LIBRARY_CYCLES} times over in one `scamcheck` process (its start-up and model load "
             "included); SpamAssassin, far slower, gets the first "
             f"{min(SLOW_EMAILS, len(emails))} only. The HTTP clients are this Python script's "
             "threads, on the same cores.")
    L.append("")
    L.append("| system | interface | e-mails | e-mails/s, 1 client | e-mails/s, 2 clients |")
    L.append("|---|---|---:|---:|---:|")
    for row in speed:
        L.append("| " + " | ".join(row) + " |")
    L.append("")
    L.append(f"HTTP with wrk ({args.duration} s per run after a 2 s warm-up; 1 wrk thread at 1 "
             "connection, else 2), the same message to both: an SMS of `sms_spam_collection` "
             f"wrapped as a {len(sms['raw'])}-byte mail (sent to scamcheckd as `kind: email`). "
             "scamcheckd stores every report in SQLite before it answers; Rspamd stores nothing.")
    L.append("")
    L.append("| server | connections | requests/s | p50 ms | p99 ms | errors |")
    L.append("|---|---:|---:|---:|---:|---|")
    for row in http_rows:
        L.append("| " + " | ".join(row) + " |")
    text = "\n".join(L) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
