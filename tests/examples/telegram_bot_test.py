#!/usr/bin/env python3
"""Integration tests of scamcheck-telegram-bot against a stand-in Bot API.

Starts bot_api_standin.py's server on loopback and the real bot process
pointed at it (--api-base), posts Telegram Updates to the bot's webhook as
Telegram does, and checks the Bot API calls the bot makes. One case per run
(CTest runs each as its own test):

  telegram_bot_test.py --bot build/examples/telegram-bot/scamcheck-telegram-bot \
      --cli build/adapters/cli/scamcheck --case scam_text

Cases: secret, scam_text, html_escape, start_de, photo, document, malformed, busy.
The photo case needs ImageMagick (convert) and the DejaVu fonts to draw a
screenshot and the Tesseract models to read it: without them it reports
itself skipped ("SCAMCHECK_SKIP:"), unless the environment variable CI is
set, where it fails.
"""

import argparse
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot_api_standin import BotApiStandin, parse_html, utf16_len  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.dirname(os.path.dirname(HERE))
TOKEN = "123456789:AAE-test_token_NOT-a-real-one"
SECRET = "test-secret_0123456789"
WEBHOOK_PATH = "hook-42"
CHAT_ID = 555000111

SCAM_TEXT = ('URGENT: your bank account is suspended & locked. Verify "now" your password at '
             'http://secure-bank-verify.top/login or it will be closed in 24 hours')
TAG_TEXT = ("Your account is suspended. Confirm <b>your password</b> here: "
            "http://paypal-secure.top/<b>login</b>")
PHOTO_TEXT = ("Your account has been suspended due to unusual activity. Verify your identity "
              "within 24 hours or it will be permanently closed: "
              "http://secure-bank-verify.example.com/login")


def risk_text(locale, verdict):
    with open(os.path.join(SOURCE_DIR, "libscamcheck", "data", "locales", locale + ".json"),
              encoding="utf-8") as f:
        return json.load(f)["risk_text"][verdict]


def html_escape(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Bot:
    """The real bot process, on a free port, logging to a file."""

    def __init__(self, binary, api_base, *extra):
        self.log_path = tempfile.mktemp(prefix="telegram-bot-", suffix=".log")
        self.log = open(self.log_path, "wb")
        env = dict(os.environ, TELEGRAM_BOT_TOKEN=TOKEN)  # the token by environment
        self.proc = subprocess.Popen(
            [binary, "--listen", "127.0.0.1:0", "--secret", SECRET, "--webhook-path",
             WEBHOOK_PATH, "--api-base", api_base, *extra],
            stdout=subprocess.DEVNULL, stderr=self.log, env=env)
        self.port = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise Failure("the bot exited: " + self.read_log())
            for line in self.read_log().splitlines():
                if "listening on 127.0.0.1:" in line:
                    self.port = int(line.split("listening on 127.0.0.1:")[1].split(",")[0])
                    return
            time.sleep(0.05)
        self.stop()
        raise Failure("the bot did not start within 60 s: " + self.read_log())

    def read_log(self):
        with open(self.log_path, encoding="utf-8", errors="replace") as f:
            return f.read()

    def request(self, method, path, body=b"", headers=None, timeout=10):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            return response.status, response.read()
        finally:
            conn.close()

    def post_update(self, update, secret=SECRET, timeout=10):
        body = update if isinstance(update, bytes) else json.dumps(update).encode()
        headers = {"Content-Type": "application/json"}
        if secret is not None:
            headers["X-Telegram-Bot-Api-Secret-Token"] = secret
        started = time.monotonic()
        status, _ = self.request("POST", "/telegram/" + WEBHOOK_PATH, body, headers, timeout)
        return status, time.monotonic() - started

    def alive(self):
        return self.proc.poll() is None

    def stop(self):
        """SIGTERM, then the exit status (it must stop within 15 s)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                raise Failure("the bot did not stop within 15 s of SIGTERM")
        self.log.close()
        return self.proc.returncode


UPDATE_ID = [700000]


def message_update(text=None, language_code="en", key="message", message_id=None, **fields):
    UPDATE_ID[0] += 1
    message = {"message_id": message_id or UPDATE_ID[0] % 100000, "date": int(time.time()),
               "chat": {"id": CHAT_ID, "type": "private", "first_name": "Erika"}}
    if key != "channel_post":
        message["from"] = {"id": CHAT_ID, "is_bot": False, "first_name": "Erika"}
        if language_code:
            message["from"]["language_code"] = language_code
    else:
        message["chat"] = {"id": -1001234567890, "type": "channel", "title": "News"}
    if text is not None:
        message["text"] = text
    message.update(fields)
    return {"update_id": UPDATE_ID[0], key: message}


def sent_messages(calls):
    return [c["body"] for c in calls if c["method"] == "sendMessage"]


def wait_reply(standin, reply_to, timeout=60):
    """The sendMessage body replying to message `reply_to`."""
    def find(calls):
        for body in sent_messages(calls):
            if body.get("reply_parameters", {}).get("message_id") == reply_to:
                return body
        return None
    body = standin.wait_for(find, timeout)
    check(body is not None, f"no sendMessage replying to message {reply_to} within {timeout} s")
    return body


def check_reply_shape(body, chat_id=CHAT_ID):
    check(body["chat_id"] == chat_id, f"chat_id {body['chat_id']}")
    check(body.get("parse_mode") == "HTML", "parse_mode is not HTML")
    check(body.get("link_preview_options", {}).get("is_disabled") is True,
          "link previews are not disabled")
    try:
        visible = parse_html(body["text"])  # as Telegram parses it
    except ValueError as e:
        raise Failure(f"Telegram would refuse this HTML ({e}): {body['text']!r}")
    check(utf16_len(visible) <= 4096, "reply over 4096 characters")
    return visible


def report_of(cli, text, locale="en"):
    out = subprocess.run([cli, "--format", "json", "--locale", locale], input=text.encode(),
                         capture_output=True, timeout=60)
    return json.loads(out.stdout)


# Cases ---------------------------------------------------------------------


def case_secret(bot, standin, args):
    update = message_update("/help")
    for secret, name in ((None, "missing"), ("wrong", "wrong"),
                         (SECRET[:-1] + "X", "wrong last character"), ("", "empty"),
                         (SECRET + "x", "longer")):
        status, _ = bot.post_update(update, secret=secret)
        check(status == 401, f"{name} secret: HTTP {status}, expected 401")
    time.sleep(1.5)
    check(not standin.snapshot(), f"a request without the secret made Bot API calls: "
          f"{standin.snapshot()}")
    status, _ = bot.request("GET", "/telegram/" + WEBHOOK_PATH)
    check(status == 405, f"GET: HTTP {status}, expected 405")
    status, _ = bot.request("POST", "/telegram/other", b"{}",
                            {"X-Telegram-Bot-Api-Secret-Token": SECRET})
    check(status == 404, f"other path: HTTP {status}, expected 404")
    # The same update with the right secret is answered.
    status, _ = bot.post_update(update)
    check(status == 200, f"right secret: HTTP {status}")
    body = wait_reply(standin, update["message"]["message_id"], 30)
    check("What I can check" in check_reply_shape(body), "no English help text")


def case_scam_text(bot, standin, args):
    update = message_update(SCAM_TEXT)
    status, took = bot.post_update(update)
    check(status == 200, f"HTTP {status}")
    check(took < 2.0, f"the webhook took {took:.2f} s to answer (the analysis must not block it)")
    # Telegram delivers an update again when unsure: it gets one reply.
    status, _ = bot.post_update(update)
    check(status == 200, f"repeated update: HTTP {status}")
    message_id = update["message"]["message_id"]
    body = wait_reply(standin, message_id)
    visible = check_reply_shape(body)
    danger = risk_text("en", "danger")
    check(f"🔴 <b>{html_escape(danger)}</b>" in body["text"], f"no danger verdict: {body['text']!r}")
    report = report_of(args.cli, SCAM_TEXT)
    check(report["verdict"] == "danger", "the CLI does not call the text danger")
    check(report["summary_plain"] in visible, "summary missing")
    for s in report["signals"]:
        check(html_escape(s["evidence"]) in body["text"],
              f"evidence {s['evidence']!r} not quoted escaped in {body['text']!r}")
        check(s["explanation"] in visible, f"explanation of {s['key']} missing")
    for a in report["actions"]:
        check(a["text"] in visible, f"action {a['text']!r} missing")
    check("&quot;now&quot;" in body["text"], "a quote in the evidence is not escaped")
    check("&amp;" in body["text"] or "&" not in visible, "& not escaped")
    time.sleep(1.0)
    replies = [b for b in sent_messages(standin.snapshot())
               if b.get("reply_parameters", {}).get("message_id") == message_id]
    check(len(replies) == 1, f"{len(replies)} replies to one update delivered twice")

    # A forwarded message, a channel post and a single URL are checked too.
    # The forwarded one hides its link behind words (a text_link entity).
    forwarded = message_update(
        "Your account is suspended. Click here to verify your password today.",
        entities=[{"type": "text_link", "offset": 27, "length": 10,
                   "url": "http://secure-bank-verify.top/login"}],
        forward_origin={"type": "user", "date": 1700000000,
                        "sender_user": {"id": 1, "is_bot": False, "first_name": "Unknown"}})
    url = message_update("http://secure-bank-verify.top/login", key="edited_message")
    channel = message_update(SCAM_TEXT, key="channel_post")
    for u in (forwarded, url, channel):
        status, _ = bot.post_update(u)
        check(status == 200, f"HTTP {status}")
    key = lambda u: u.get("message") or u.get("edited_message") or u.get("channel_post")
    text = check_reply_shape(wait_reply(standin, key(forwarded)["message_id"]))
    check("http://secure-bank-verify.top/login" in text,
          f"the link behind 'Click here' is not checked: {text!r}")
    url_reply = check_reply_shape(wait_reply(standin, key(url)["message_id"]))
    check("secure-bank-verify.top" in url_reply, "the URL reply does not quote the URL")
    check_reply_shape(wait_reply(standin, key(channel)["message_id"]), chat_id=-1001234567890)


def case_html_escape(bot, standin, args):
    update = message_update(TAG_TEXT)
    status, _ = bot.post_update(update)
    check(status == 200, f"HTTP {status}")
    body = wait_reply(standin, update["message"]["message_id"])
    visible = check_reply_shape(body)
    check("<b>login</b" in visible, f"the message's <b> is not shown as text: {visible!r}")
    check("&lt;b&gt;login&lt;/b" in body["text"], "the message's <b> is not escaped")
    check("<b>login" not in body["text"], "the message's <b> reached Telegram as a tag")
    # Markup in a caption, and a long message near Telegram's limit.
    long_text = ("Verify <b>your password</b> & PIN now at http://secure-bank-verify.top/login "
                 "or your account will be closed. ") * 40
    big = message_update(long_text[:4000])
    status, _ = bot.post_update(big)
    check(status == 200, f"HTTP {status}")
    check_reply_shape(wait_reply(standin, big["message"]["message_id"]))


def case_start_de(bot, standin, args):
    de = message_update("/start", language_code="de")
    de_at = message_update("/help@scamcheck_test_bot", language_code="de-AT")
    en = message_update("/start", language_code="fr")
    scam_de = message_update("DHL: Ihr Paket konnte nicht zugestellt werden. Bitte bezahlen Sie "
                             "die Zollgebühr von 2,99 EUR innerhalb von 24 Stunden: "
                             "https://dhl-paket-zustellung.top/verfolgen", language_code="de")
    for u in (de, de_at, en, scam_de):
        status, _ = bot.post_update(u)
        check(status == 200, f"HTTP {status}")
    text = check_reply_shape(wait_reply(standin, de["message"]["message_id"]))
    check("Hallo! Ich prüfe Nachrichten auf Betrug" in text, f"/start (de) not German: {text!r}")
    text = check_reply_shape(wait_reply(standin, de_at["message"]["message_id"]))
    check("Was ich prüfen kann" in text, f"/help (de-AT) not German: {text!r}")
    text = check_reply_shape(wait_reply(standin, en["message"]["message_id"]))
    check("I check messages for scams" in text, f"/start (fr) not English: {text!r}")
    body = wait_reply(standin, scam_de["message"]["message_id"])
    text = check_reply_shape(body)
    check("Warum" in text and "Risiko" in text, f"German report without German headings: {text!r}")
    check(risk_text("de", "danger") in text or risk_text("de", "suspicious") in text,
          f"no German verdict: {text!r}")

    # Over the rate limit: Telegram answers 429 with retry_after; the bot
    # waits and sends again.
    standin.rate_limit_next = 1
    limited = message_update("/help", language_code="de")
    status, _ = bot.post_update(limited)
    check(status == 200, f"HTTP {status}")
    def attempts(calls):
        return [b for b in sent_messages(calls)
                if b.get("reply_parameters", {}).get("message_id")
                == limited["message"]["message_id"]]
    standin.wait_for(lambda calls: len(attempts(calls)) >= 2, 30)
    time.sleep(0.5)
    sent = attempts(standin.snapshot())
    check(len(sent) == 2, f"{len(sent)} sendMessage calls after a 429, expected 2")
    check(sent[0] == sent[1], "the retry is not the same message")
    check("rate-limited" in bot.read_log(), "the 429 is not logged")


def screenshot_png(text):
    out = os.path.join(tempfile.mkdtemp(prefix="telegram-bot-"), "shot.png")
    subprocess.run(["convert", "-background", "#FFFFFF", "-fill", "#111111", "-font",
                    "DejaVu-Sans", "-pointsize", "40", "-size", "1000x", "caption:" + text,
                    "-bordercolor", "#FFFFFF", "-border", "40x120", "PNG24:" + out],
                   check=True, capture_output=True, timeout=60)
    with open(out, "rb") as f:
        return f.read()


def case_photo(bot, standin, args):
    png = screenshot_png(PHOTO_TEXT)
    standin.add_file("photo-small", "photos/file_1_small.jpg", b"not the largest size")
    standin.add_file("photo-large", "photos/file_1.png", png)
    update = message_update(photo=[
        {"file_id": "photo-small", "file_unique_id": "s1", "width": 90, "height": 40,
         "file_size": 20},
        {"file_id": "photo-large", "file_unique_id": "l1", "width": 1080, "height": 480,
         "file_size": len(png)},
        {"file_id": "photo-medium", "file_unique_id": "m1", "width": 320, "height": 142}])
    status, took = bot.post_update(update)
    check(status == 200, f"HTTP {status}")
    check(took < 2.0, f"the webhook took {took:.2f} s to answer (OCR must not block it)")
    body = wait_reply(standin, update["message"]["message_id"], 90)
    calls = standin.snapshot()
    get_files = [c["body"] for c in calls if c["method"] == "getFile"]
    check(get_files == [{"file_id": "photo-large"}], f"getFile calls: {get_files}")
    check({"method": "file", "path": "photos/file_1.png"} in calls, "the photo was not downloaded")
    text = check_reply_shape(body)
    check("🔴" in body["text"] or "🟠" in body["text"], f"the screenshot is not flagged: {text!r}")
    check("secure-bank-verify" in text or "suspended" in text.lower(),
          f"no evidence read from the picture: {text!r}")

    # The same picture as a document (image/png), with a harmless caption.
    standin.add_file("doc-png", "documents/file_2.png", png)
    doc = message_update(caption="is this real?", document={
        "file_id": "doc-png", "file_unique_id": "d2", "file_name": "shot.png",
        "mime_type": "image/png", "file_size": len(png)})
    status, _ = bot.post_update(doc)
    check(status == 200, f"HTTP {status}")
    body = wait_reply(standin, doc["message"]["message_id"], 90)
    text = check_reply_shape(body)
    check("🔴" in body["text"] or "🟠" in body["text"], f"the PNG document is not flagged: {text!r}")
    check("Checked: the picture" in text, f"does not say the picture was checked: {text!r}")


def case_document(bot, standin, args):
    # Over 10 MiB by its file_size: refused without getFile.
    big = message_update(document={"file_id": "doc-big", "file_unique_id": "b", "file_name":
                                   "scan.pdf", "mime_type": "application/pdf",
                                   "file_size": 20 * 1024 * 1024})
    # A small file_size, but the download is bigger than 10 MiB: cut off.
    standin.add_file("doc-liar", "documents/file_3.pdf", b"%PDF-1.4\n" + b"0" * (11 << 20),
                     advertised_size=1000)
    liar = message_update(document={"file_id": "doc-liar", "file_unique_id": "l",
                                    "file_name": "x.pdf", "mime_type": "application/pdf",
                                    "file_size": 1000})
    # A type the library does not read, and a damaged PDF.
    zip_doc = message_update(document={"file_id": "doc-zip", "file_unique_id": "z",
                                       "file_name": "a.zip", "mime_type": "application/zip",
                                       "file_size": 100})
    standin.add_file("doc-bad", "documents/file_4.pdf", b"%PDF-1.4\nnot really a pdf")
    bad = message_update(document={"file_id": "doc-bad", "file_unique_id": "x",
                                   "file_name": "bad.pdf", "mime_type": "application/pdf"})
    # A file_id the Bot API does not know.
    unknown = message_update(photo=[{"file_id": "gone", "file_unique_id": "g", "width": 10,
                                     "height": 10}])
    for u in (big, liar, zip_doc, bad, unknown):
        status, _ = bot.post_update(u)
        check(status == 200, f"HTTP {status}")
    text = check_reply_shape(wait_reply(standin, big["message"]["message_id"]))
    check("too big" in text, f"oversized document: {text!r}")
    check({"file_id": "doc-big"} not in [c["body"] for c in standin.snapshot()
                                         if c["method"] == "getFile"],
          "getFile was called for a file over the limit")
    text = check_reply_shape(wait_reply(standin, liar["message"]["message_id"]))
    check("too big" in text, f"download over the limit: {text!r}")
    text = check_reply_shape(wait_reply(standin, zip_doc["message"]["message_id"]))
    check("I can check text" in text, f"unsupported document: {text!r}")
    text = check_reply_shape(wait_reply(standin, bad["message"]["message_id"]))
    check("could not read" in text, f"damaged PDF: {text!r}")
    text = check_reply_shape(wait_reply(standin, unknown["message"]["message_id"]))
    check("could not read" in text, f"unknown file_id: {text!r}")


def case_malformed(bot, standin, args):
    bodies = [
        (b"", (400,)),
        (b"not json", (400,)),
        (b"[]", (400,)),
        (b'{"update_id": "x"}', (400,)),
        (b'{"update_id": 1}', (200,)),                       # nothing to answer
        (b'{"update_id": 2, "poll": {"id": "1"}}', (200,)),
        (b'{"update_id": 3, "message": {"message_id": 1}}', (400,)),
        (b'{"update_id": 4, "message": {"message_id": 1, "chat": {"id": "abc"}}}', (400,)),
        (b'{"update_id": 5, "message": []}', (200, 400)),
        (b'{"update_id": 6, "message": {"message_id": 1, "chat": {"id": 7}, "text": 5}}',
         (200, 400)),
        (b'{"update_id": 7, "message": {"message_id": 1, "chat": {"id": 7}, "photo": {}}}',
         (200, 400)),
        (b'{"update_id": 8, "message": {"message_id": 1, "chat": {"id": 7}, "photo": [1, {}]}}',
         (200, 400)),
        (b'{"update_id": 9, "message": {"text": "\xff\xfe"}}', (400,)),
        (b"[" * 100000, (400,)),
    ]
    for body, expected in bodies:
        status, _ = bot.post_update(body)
        check(status in expected, f"{body[:60]!r}: HTTP {status}, expected {expected}")
        check(bot.alive(), f"the bot died on {body[:60]!r}")
    # A body over 1 MiB is refused by its Content-Length, before it is read.
    with socket.create_connection(("127.0.0.1", bot.port), timeout=5) as s:
        s.sendall(f"POST /telegram/{WEBHOOK_PATH} HTTP/1.1\r\nHost: x\r\n"
                  f"X-Telegram-Bot-Api-Secret-Token: {SECRET}\r\n"
                  f"Content-Length: {2 << 20}\r\n\r\n".encode())
        answer = s.recv(1024)
        check(answer.startswith(b"HTTP/1.1 413"), f"2 MiB body: {answer[:40]!r}, expected 413")
    # A broken HTTP request and a client that sends half a request and waits.
    with socket.create_connection(("127.0.0.1", bot.port), timeout=5) as s:
        s.sendall(b"POST /telegram/x HTTP/1.1\r\nContent-Length: zzz\r\n\r\n")
        s.recv(1024)
    half = socket.create_connection(("127.0.0.1", bot.port), timeout=5)
    half.sendall(b"POST /telegram/" + WEBHOOK_PATH.encode() + b" HTTP/1.1\r\nContent-Length: 50\r\n")
    check(bot.alive(), "the bot died on a broken HTTP request")
    # Still serving: a valid update is answered.
    update = message_update("/help")
    status, _ = bot.post_update(update)
    check(status == 200, f"HTTP {status}")
    check_reply_shape(wait_reply(standin, update["message"]["message_id"], 30))
    half.close()


def case_busy(bot, standin, args):
    # One worker, one queue place, and a Bot API that takes 3 s per
    # sendMessage: the third update finds the queue full.
    standin.send_delay = 3.0
    first, second, third = (message_update("/help") for _ in range(3))
    statuses = []
    for u in (first, second):
        statuses.append(bot.post_update(u)[0])
        time.sleep(0.3)  # the worker takes the first before the second arrives
    status, took = bot.post_update(third)
    check(statuses == [200, 200], f"first two updates: {statuses}")
    check(status == 503, f"third update with the queue full: HTTP {status}, expected 503")
    check(took < 2.0, f"the 503 took {took:.2f} s")
    # Telegram delivers it again later: now it is handled.
    standin.send_delay = 0.0
    deadline = time.monotonic() + 30
    while True:
        status, _ = bot.post_update(third)
        if status == 200 or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    check(status == 200, f"the update delivered again: HTTP {status}")
    for u in (first, second, third):
        check_reply_shape(wait_reply(standin, u["message"]["message_id"], 30))


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bot", required=True, help="the scamcheck-telegram-bot binary")
    parser.add_argument("--cli", required=True, help="the scamcheck binary (expected reports)")
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    args = parser.parse_args()

    if args.case == "photo":
        missing = [tool for tool in ("convert",) if shutil.which(tool) is None]
        if not missing:
            fonts = subprocess.run(["convert", "-list", "font"], capture_output=True, text=True,
                                   timeout=60).stdout
            if "DejaVu-Sans" not in fonts:
                missing.append("the DejaVu fonts (fonts-dejavu-core)")
        if missing:
            if os.environ.get("CI"):
                print(f"FAIL: {', '.join(missing)} missing (CI is set)")
                return 1
            print(f"SCAMCHECK_SKIP: {', '.join(missing)} not installed")
            return 0

    standin = BotApiStandin(TOKEN)
    bot = None
    failure = None
    try:
        extra = ["--workers", "1", "--queue-size", "1"] if args.case == "busy" else []
        bot = Bot(args.bot, standin.base_url, *extra)
        if args.case == "photo" and "OCR unavailable" in bot.read_log():
            if os.environ.get("CI"):
                raise Failure("OCR unavailable (CI is set): " + bot.read_log())
            print("SCAMCHECK_SKIP: OCR unavailable (Tesseract models not installed)")
            return 0
        CASES[args.case](bot, standin, args)
    except Failure as e:
        failure = str(e)
    finally:
        if bot is not None:
            code = bot.stop()
            log = bot.read_log()
            if failure is None and code != 0:
                failure = f"the bot exited with {code} after SIGTERM"
            if failure is None and (TOKEN in log or SECRET in log):
                failure = "the token or the secret appears in the bot's log"
            if failure is not None:
                print("--- bot log ---\n" + log[-6000:])
        standin.stop()
    if failure is not None:
        print("FAIL:", failure)
        return 1
    print(f"ok: {args.case}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
