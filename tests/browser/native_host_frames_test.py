#!/usr/bin/env python3
"""Drives the real scamcheck-native-host with native messaging frames
(32-bit native-endian length + UTF-8 JSON), as Chromium and Firefox do.

    native_host_frames_test.py path/to/scamcheck-native-host

Good requests (text, url, email in base64) in one process, a report too
big for one message (trimmed under 1 MB, "truncated": true), and broken
input: length 0, over 64 MiB, a cut length prefix, a cut body, bad JSON,
bad UTF-8, no content. Every run has a timeout: a hang is a failure.
"""
import base64
import hashlib
import io
import json
import os
import struct
import subprocess
import sys
import tempfile
import time
import unittest
import zipfile

HOST = None
SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TIMEOUT = 180  # seconds per process: a hang fails; the slowest case (a large DOCX) takes seconds, longer on a loaded machine
MAX_REPLY = 1_000_000

SCAM_TEXT = ("URGENT: your bank account has been locked. Confirm your password within 24 hours "
             "at http://secure-login.example-bank.xyz/verify or it will be closed.")


def frame(message):
    body = message if isinstance(message, bytes) else json.dumps(message).encode()
    return struct.pack("=I", len(body)) + body


def replies_of(stdout):
    """The frames in `stdout`, parsed; fails on a cut frame or bad JSON."""
    out, pos = [], 0
    while pos < len(stdout):
        assert pos + 4 <= len(stdout), "reply cut inside its length prefix"
        (length,) = struct.unpack("=I", stdout[pos:pos + 4])
        assert length <= MAX_REPLY, f"reply of {length} bytes is over 1 MB"
        body = stdout[pos + 4:pos + 4 + length]
        assert len(body) == length, "reply cut inside its body"
        out.append(json.loads(body.decode("utf-8")))
        pos += 4 + length
    return out


def run_host(stdin, args=()):
    proc = subprocess.run([HOST, *args], input=stdin, capture_output=True, timeout=TIMEOUT)
    assert proc.returncode >= 0, f"killed by signal {-proc.returncode}: {proc.stderr!r}"
    return proc.returncode, replies_of(proc.stdout), proc.stderr.decode("utf-8", "replace")


def big_docx(paragraphs):
    para = ("Your account is locked. Confirm your password at "
            "http://secure-login.example-bank.xyz/verify within 24 hours. ")
    body = "".join(f"<w:p><w:r><w:t>{para}{i}</w:t></w:r></w:p>" for i in range(paragraphs))
    ns = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    document = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                f'<w:document xmlns:w="{ns}"><w:body>{body}</w:body></w:document>')
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml",
                   '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                   '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                   '<Default Extension="xml" ContentType="application/xml"/>'
                   '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
        z.writestr("_rels/.rels",
                   '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                   '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>')
        z.writestr("word/document.xml", document)
    return buf.getvalue()


class GoodRequests(unittest.TestCase):
    def test_several_requests_in_one_process(self):
        with open(os.path.join(SOURCE_DIR, "tests/fixtures/email/scam/de_ceo_fraud_ueberweisung.eml"),
                  "rb") as f:
            email = f.read()
        stdin = (frame({"id": 1, "content": SCAM_TEXT, "kind": "text", "locale": "en"})
                 + frame({"id": "two", "content": "http://paypal.com.secure-login.xyz/", "kind": "url",
                          "locale": "de"})
                 + frame({"id": {"n": 3}, "content": base64.b64encode(email).decode(), "kind": "email",
                          "content_encoding": "base64", "locale": "de"})
                 + frame({"id": 4, "content": "Hi Anna, see you at the bakery at 10 tomorrow?"}))
        status, replies, stderr = run_host(stdin)
        self.assertEqual(status, 0, stderr)
        self.assertEqual([r["id"] for r in replies], [1, "two", {"n": 3}, 4])
        for reply in replies:
            self.assertIn("report", reply, reply)
            self.assertNotIn("truncated", reply["report"])
            self.assertTrue(reply["report"]["risk_text"])
        text, url, mail, benign = (r["report"] for r in replies)
        self.assertEqual(text["verdict"], "danger")
        self.assertEqual(text["kind"], "text")
        self.assertEqual(text["risk_text"], "Dangerous")
        content = SCAM_TEXT.encode()
        self.assertTrue(text["signals"])
        for signal in text["signals"]:
            span = signal["span"]
            self.assertEqual(content[span["start"]:span["end"]].decode(), signal["evidence"])
        self.assertEqual(url["kind"], "url")
        self.assertEqual(url["locale"], "de")
        self.assertNotEqual(url["verdict"], "safe")
        self.assertEqual(mail["kind"], "email")
        self.assertNotEqual(mail["verdict"], "safe")
        self.assertEqual(benign["verdict"], "safe")
        self.assertEqual(benign["locale"], "en")  # the default

    def test_huge_report_is_trimmed_below_1_mb(self):
        docx = big_docx(12000)  # ~1.3 MB of text: extracted_text alone is over the limit
        stdin = frame({"id": "big", "content": base64.b64encode(docx).decode(),
                       "content_encoding": "base64", "kind": "document"})
        stdin += frame({"id": "after", "content": SCAM_TEXT})
        status, replies, stderr = run_host(stdin)
        self.assertEqual(status, 0, stderr)
        self.assertEqual(len(replies), 2)
        big = replies[0]
        self.assertEqual(big["id"], "big")
        report = big["report"]
        self.assertIs(report.get("truncated"), True)
        self.assertEqual(report["verdict"], "danger")
        self.assertIsInstance(report["risk_score"], int)
        self.assertTrue(report["summary_plain"])
        self.assertTrue(report["actions"])
        self.assertLessEqual(len(json.dumps(big, ensure_ascii=False, separators=(",", ":")).encode()), MAX_REPLY)
        self.assertEqual(replies[1]["report"]["verdict"], "danger")  # still serving


class BadFrames(unittest.TestCase):
    """Frames that can be read get an error reply and the host goes on."""

    def test_error_replies_then_still_serving(self):
        stdin = (frame(b"")                                        # length 0
                 + frame(b'{"id": 1, "content": ')                  # bad JSON
                 + frame(b'{"id": 2, "content": "caf\xe9 \xff"}')   # bad UTF-8
                 + frame({"id": 3, "kind": "text"})                 # no content
                 + frame({"id": 4, "content": "hello", "kind": "video"})
                 + frame({"id": 5, "content": "%%%", "content_encoding": "base64"})
                 + frame({"id": 6, "content": ""})                  # the library's own check
                 + frame(b'[1, 2, 3]')
                 + frame({"id": 7, "content": 42})
                 + frame({"id": 8, "content": SCAM_TEXT}))
        status, replies, stderr = run_host(stdin)
        self.assertEqual(status, 0, stderr)
        self.assertEqual(len(replies), 10)
        self.assertEqual([r["id"] for r in replies], [None, None, None, 3, 4, 5, 6, None, 7, 8])
        for reply in replies[:9]:
            self.assertEqual(reply["error"]["code"], "invalid_argument", reply)
            self.assertTrue(reply["error"]["message"])
        self.assertIn("UTF-8", replies[2]["error"]["message"])
        self.assertIn("content", replies[3]["error"]["message"])
        self.assertEqual(replies[9]["report"]["verdict"], "danger")

    def test_frame_of_exactly_64_mib_is_read(self):
        head, tail = b'{"id": "max", "content": "', b'"}'
        body = head + b"a" * ((64 << 20) - len(head) - len(tail)) + tail
        self.assertEqual(len(body), 64 << 20)
        status, replies, stderr = run_host(frame(body) + frame({"id": 2, "content": SCAM_TEXT}))
        self.assertEqual(status, 0, stderr)
        self.assertEqual(replies[0]["id"], "max")
        self.assertEqual(replies[0]["error"]["code"], "out_of_range")  # the library's 64 KiB
        self.assertEqual(replies[1]["report"]["verdict"], "danger")

    def test_content_over_the_library_limit(self):
        status, replies, stderr = run_host(frame({"id": 1, "content": "a " * 40000}))
        self.assertEqual(status, 0, stderr)
        self.assertEqual(replies[0]["error"]["code"], "out_of_range")


class BrokenStreams(unittest.TestCase):
    """A stream that cannot be read on: an error reply, exit 65."""

    def assert_broken(self, stdin, code, replies_before=0):
        status, replies, stderr = run_host(stdin)
        self.assertEqual(status, 65, stderr)
        self.assertEqual(len(replies), replies_before + 1)
        self.assertEqual(replies[-1], {"id": None, "error": replies[-1]["error"]})
        self.assertEqual(replies[-1]["error"]["code"], code)
        return replies

    def test_length_over_64_mib(self):
        self.assert_broken(struct.pack("=I", (64 << 20) + 1) + b"{}", "out_of_range")
        self.assert_broken(struct.pack("=I", 0xFFFFFFFF), "out_of_range")

    def test_length_over_64_mib_does_not_wait_for_the_body(self):
        proc = subprocess.Popen([HOST], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        try:
            proc.stdin.write(struct.pack("=I", 0x7FFFFFFF))
            proc.stdin.flush()  # and keep standard input open
            self.assertEqual(proc.wait(timeout=TIMEOUT), 65)
            self.assertEqual(replies_of(proc.stdout.read())[0]["error"]["code"], "out_of_range")
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            proc.stdin.close()
            proc.stdout.close()
            proc.stderr.close()

    def test_truncated_length_prefix(self):
        self.assert_broken(b"\x05\x00", "invalid_argument")
        self.assert_broken(frame({"id": 1, "content": SCAM_TEXT}) + b"\x10", "invalid_argument",
                           replies_before=1)

    def test_truncated_body(self):
        self.assert_broken(struct.pack("=I", 100) + b'{"id": 1, "co', "invalid_argument")

    def test_empty_input_is_a_clean_end(self):
        status, replies, _ = run_host(b"")
        self.assertEqual((status, replies), (0, []))

    def test_random_bytes_never_crash(self):
        import random
        rng = random.Random(20)
        for _ in range(20):
            blob = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
            # small lengths so the body can be (partly) there
            stdin = struct.pack("=I", rng.randrange(0, 80)) + blob
            status, _, stderr = run_host(stdin)
            self.assertIn(status, (0, 65), stderr)


class CommandLine(unittest.TestCase):
    def test_help_and_version(self):
        proc = subprocess.run([HOST, "--help"], capture_output=True, timeout=TIMEOUT, text=True)
        self.assertEqual(proc.returncode, 0)
        self.assertIn("--install-manifest", proc.stdout)
        self.assertIn("native messaging", proc.stdout)
        proc = subprocess.run([HOST, "--version"], capture_output=True, timeout=TIMEOUT, text=True)
        self.assertEqual(proc.returncode, 0)
        self.assertRegex(proc.stdout, r"^scamcheck-native-host \d+\.\d+")
        proc = subprocess.run([HOST, "--no-such-flag"], capture_output=True, timeout=TIMEOUT)
        self.assertEqual(proc.returncode, 64)

    def test_browser_arguments_are_accepted(self):
        # Chromium passes the caller's origin, Firefox the manifest path and add-on id.
        status, replies, stderr = run_host(frame({"id": 1, "content": SCAM_TEXT}),
                                           args=("chrome-extension://abc/",))
        self.assertEqual((status, replies[0]["id"]), (0, 1), stderr)

    def test_install_manifest(self):
        real_host = os.path.realpath(HOST)
        with tempfile.TemporaryDirectory() as tmp:
            chromium_dir = os.path.join(tmp, "chromium")
            ext = "abcdefghijklmnopabcdefghijklmnop"
            proc = subprocess.run([HOST, "--install-manifest", "--browser", "chromium",
                                   "--extension-id", ext, "--manifest-dir", chromium_dir],
                                  capture_output=True, text=True, timeout=TIMEOUT)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            path = os.path.join(chromium_dir, "org.scamcheck.native_host.json")
            self.assertEqual(proc.stdout.strip(), path)
            with open(path) as f:
                manifest = json.load(f)
            self.assertEqual(manifest["name"], "org.scamcheck.native_host")
            self.assertEqual(manifest["type"], "stdio")
            self.assertEqual(manifest["path"], real_host)
            self.assertEqual(manifest["allowed_origins"], [f"chrome-extension://{ext}/"])

            firefox_dir = os.path.join(tmp, "firefox")
            proc = subprocess.run([HOST, "--install-manifest", "--browser", "firefox",
                                   "--manifest-dir", firefox_dir],
                                  capture_output=True, text=True, timeout=TIMEOUT)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            with open(os.path.join(firefox_dir, "org.scamcheck.native_host.json")) as f:
                manifest = json.load(f)
            self.assertEqual(manifest["allowed_extensions"], ["browser-extension@scamcheck.org"])
            self.assertNotIn("allowed_origins", manifest)

            # Without --extension-id: the example extension, whose id Chromium
            # derives from its manifest's "key" (SHA-256, first 32 hex digits as a-p).
            with open(os.path.join(SOURCE_DIR, "examples/browser-extension/manifest.json")) as f:
                key = base64.b64decode(json.load(f)["key"])
            example_id = "".join(chr(ord("a") + int(c, 16))
                                 for c in hashlib.sha256(key).hexdigest()[:32])
            default_dir = os.path.join(tmp, "default")
            proc = subprocess.run([HOST, "--install-manifest", "--manifest-dir", default_dir],
                                  capture_output=True, text=True, timeout=TIMEOUT)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            with open(os.path.join(default_dir, "org.scamcheck.native_host.json")) as f:
                manifest = json.load(f)
            self.assertEqual(manifest["allowed_origins"], [f"chrome-extension://{example_id}/"])

            # The default profile directories, under a HOME of our own.
            env = dict(os.environ, HOME=tmp)
            env.pop("XDG_CONFIG_HOME", None)
            for browser, where in (("chromium", ".config/chromium/NativeMessagingHosts"),
                                   ("chrome", ".config/google-chrome/NativeMessagingHosts"),
                                   ("firefox", ".mozilla/native-messaging-hosts")):
                proc = subprocess.run([HOST, "--install-manifest", "--browser", browser], env=env,
                                      capture_output=True, text=True, timeout=TIMEOUT)
                self.assertEqual(proc.returncode, 0, proc.stderr)
                self.assertTrue(os.path.isfile(
                    os.path.join(tmp, where, "org.scamcheck.native_host.json")), browser)

            for bad in (["--browser", "opera"], ["--extension-id", "not-an-id"],
                        ["--browser", "firefox", "--extension-id", "x\"y"]):
                proc = subprocess.run([HOST, "--install-manifest", "--manifest-dir", tmp, *bad],
                                      capture_output=True, timeout=TIMEOUT)
                self.assertEqual(proc.returncode, 64, bad)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: native_host_frames_test.py path/to/scamcheck-native-host")
    HOST = sys.argv.pop(1)
    unittest.main(verbosity=2)
