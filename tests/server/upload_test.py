#!/usr/bin/env python3
"""Integration tests of image and document uploads: multipart/form-data
POST /api/v1/scan on the real scamcheckd (CONTRACT §1, §2).

Uses server_test.py's Server and response recording, so openapi_check.mjs
checks every response recorded here too. Files are generated in the test:
a phone-screenshot-like PNG (ImageMagick `convert`), a PDF with a text
layer and a DOCX (tests/fixtures/images/make_images.py), a QR code PNG
(tests/mcp/fixtures), a PNG whose header claims 50,000 x 50,000 pixels.
Cases that need OCR are skipped when ImageMagick or the Tesseract models
are missing.

  upload_test.py --binary build/adapters/server/scamcheckd --record responses.jsonl \
                 --qr-fixture tests/mcp/fixtures/qr_phishing_url.png
"""

import argparse
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "fixtures", "images"))
import make_images  # noqa: E402
import server_test  # noqa: E402
from fault_common import form  # noqa: E402  (the multipart encoder the fault load uses too)
from server_test import ProblemMixin, Server, record  # noqa: E402

QR_FIXTURE = None
SERVER = None
OCR = False  # /health says OCR works and ImageMagick can render text
MIB = 1024 * 1024

SCREENSHOT_TEXT = ("URGENT: your bank account has been suspended. Verify your password "
                   "at http://secure-bank-login.example.top/verify within 24 hours.")




def upload(token, file_bytes, filename="upload.bin", ctype="application/octet-stream", **text):
    fields = [("file", file_bytes, filename, ctype)] if file_bytes is not None else []
    fields += [(k, v, None, None) for k, v in text.items()]
    body, content_type = form(fields)
    return SERVER.request("POST", "/api/v1/scan", body, token=token,
                          headers={"Content-Type": content_type})


def screenshot_png(text, dark=False):
    """A phone-screenshot-like PNG (1080 px wide, 40 px text) rendered by ImageMagick."""
    out = os.path.join(tempfile.mkdtemp(prefix="scamcheck-upload-"), "shot.png")
    bg, fg = ("#121212", "#E8E8E8") if dark else ("#FFFFFF", "#111111")
    subprocess.run(["convert", "-background", bg, "-fill", fg, "-font", "DejaVu-Sans",
                    "-pointsize", "40", "-size", "1000x", "caption:" + text,
                    "-bordercolor", bg, "-border", "40x120", "PNG24:" + out],
                   check=True, capture_output=True, timeout=60)
    with open(out, "rb") as f:
        return f.read()


def png_header_bomb(side=50000):
    """A PNG whose header claims side x side pixels, with a token IDAT."""
    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    ihdr = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(b"\x00" * 4096)) + chunk(b"IEND", b""))


def assert_spans(test, report):
    text = report["extracted_text"].encode("utf-8")
    for s in report["signals"]:
        if s["location"] in ("ocr", "qr", "document"):
            span = s["span"]
            test.assertEqual(text[span["start"]:span["end"]].decode("utf-8"), s["evidence"], s)


def setUpModule():
    global SERVER, OCR
    SERVER = Server("--workers", "2", "--read-timeout", "5", "--retain-content")
    SERVER.start()
    _, _, _, health = SERVER.request("GET", "/health")
    OCR = health["checks"]["ocr"] == "ok" and shutil.which("convert") is not None
    SERVER.request("GET", "/docs/api")  # the document the OpenAPI check reads


def tearDownModule():
    code = SERVER.stop()
    assert code == 0, f"SIGTERM exit status {code}: {SERVER.read_log()[-2000:]}"


class Documents(unittest.TestCase, ProblemMixin):
    """PDF and DOCX: no OCR needed for text layers."""

    @classmethod
    def setUpClass(cls):
        cls.token = SERVER.user("docs@example.com", plan="pro")

    def test_pdf_with_text_layer(self):
        pdf = make_images.text_layer_pdf([
            "Dear customer, your account has been suspended.",
            "Verify your password at http://secure-bank-login.example.top/verify",
        ])
        code, headers, _, report = upload(self.token, pdf, "letter.pdf", "application/pdf",
                                          locale="de")
        self.assertEqual(code, 200, report)
        self.assertEqual(report["kind"], "document")
        self.assertEqual(report["locale"], "de")
        self.assertIn("secure-bank-login.example.top", report["extracted_text"])
        self.assertIn("x-ratelimit-remaining", headers)
        self.assertIn(report["verdict"], ("suspicious", "danger"))
        assert_spans(self, report)
        self.assertTrue(any(s["location"] == "document" for s in report["signals"]))
        # Stored like any scan, without the file even with --retain-content.
        code, _, _, stored = SERVER.request("GET", "/api/v1/reports/" + report["id"],
                                            token=self.token)
        self.assertEqual(code, 200)
        self.assertEqual(stored["extracted_text"], report["extracted_text"])
        (content,) = server_test.db_query(SERVER, "SELECT content FROM reports WHERE public_id = ?",
                                          (report["id"],))[0]
        self.assertIn(content, (None, b""))

    def test_docx_with_declared_kind(self):
        docx = make_images.letter_docx()
        code, _, _, report = upload(
            self.token, docx, "letter.docx",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            kind="document", source_app="mail")
        self.assertEqual(code, 200, report)
        self.assertEqual(report["kind"], "document")
        self.assertIn("paypal-account-restore.top", report["extracted_text"])
        assert_spans(self, report)


class Errors(unittest.TestCase, ProblemMixin):
    @classmethod
    def setUpClass(cls):
        cls.token = SERVER.user("errors@example.com", plan="pro")

    def test_no_boundary(self):
        body, _ = form([("file", b"%PDF-1.4", "a.pdf", None)])
        r = SERVER.request("POST", "/api/v1/scan", body, token=self.token,
                           headers={"Content-Type": "multipart/form-data"})
        self.assert_problem(r, 400, "bad-request")
        self.assertIn("x-ratelimit-remaining", r[1])

    def test_malformed_bodies(self):
        for body in (b"not a multipart body at all",
                     b"--scamcheck-test-boundary\r\nContent-Disposition: form-data; name=\"file\""
                     b"\r\n\r\nno closing delimiter"):
            r = SERVER.request("POST", "/api/v1/scan", body, token=self.token, headers={
                "Content-Type": "multipart/form-data; boundary=scamcheck-test-boundary"})
            self.assert_problem(r, 400, "bad-request")

    def test_missing_file_part(self):
        r = upload(self.token, None, kind="image", locale="en")
        self.assert_problem(r, 400, "bad-request")

    def test_text_kind_is_422(self):
        for kind in ("text", "url", "email"):
            r = upload(self.token, make_images.letter_docx(), "a.docx", kind=kind)
            body = self.assert_problem(r, 422, "validation-error")
            self.assertIn("kind", body["errors"])
        r = upload(self.token, make_images.letter_docx(), "a.docx", kind="video")
        self.assertIn("kind", self.assert_problem(r, 422, "validation-error")["errors"])

    def test_not_an_image_or_document(self):
        r = upload(self.token, b"Hello, this is plain text, not an image.", "note.txt",
                   "text/plain")
        body = self.assert_problem(r, 422, "validation-error")
        self.assertIn("file", body["errors"])
        r = upload(self.token, b"", "empty.png", "image/png")
        self.assertIn("file", self.assert_problem(r, 422, "validation-error")["errors"])

    def test_damaged_file_is_422(self):
        pdf = make_images.text_layer_pdf(["hello"])
        r = upload(self.token, pdf[:40], "broken.pdf", "application/pdf")
        self.assertIn("file", self.assert_problem(r, 422, "validation-error")["errors"])

    def test_file_over_10_mib_is_413(self):
        big = b"%PDF-1.4\n" + b"0" * (10 * MIB)
        started = time.monotonic()
        r = upload(self.token, big, "big.pdf", "application/pdf")
        self.assert_problem(r, 413, "payload-too-large")
        self.assertLess(time.monotonic() - started, 10)

    def test_body_over_limit_is_413_before_it_is_sent(self):
        """Content-Length over the multipart limit: answered without reading the body."""
        conn = socket.create_connection(("127.0.0.1", SERVER.port), timeout=10)
        try:
            conn.sendall((f"POST /api/v1/scan HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          f"Authorization: Bearer {self.token}\r\n"
                          f"Content-Type: multipart/form-data; boundary=x\r\n"
                          f"Content-Length: {11 * MIB}\r\n\r\n").encode())
            data = b""
            while True:  # the server answers, then closes (it never reads the body)
                chunk = conn.recv(65536)
                if not chunk:
                    break
                data += chunk
        finally:
            conn.close()
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode().split("\r\n")
        status = int(lines[0].split()[1])
        headers = {k.lower(): v.strip() for k, v in (l.split(":", 1) for l in lines[1:])}
        record("POST", "/api/v1/scan", status, headers, body)
        self.assertEqual(status, 413)
        self.assertEqual(headers["content-type"], "application/problem+json")

    def test_png_header_bomb_is_refused_fast(self):
        started = time.monotonic()
        r = upload(self.token, png_header_bomb(), "bomb.png", "image/png")
        self.assertLess(time.monotonic() - started, 2.5)
        self.assertIn(r[0], (413, 422), r[3])
        self.assert_problem(r, r[0], "payload-too-large" if r[0] == 413 else "validation-error")

    def test_unsupported_media_type_still_415(self):
        r = SERVER.request("POST", "/api/v1/scan", b"hello", token=self.token,
                           headers={"Content-Type": "text/plain"})
        self.assert_problem(r, 415, "unsupported-media-type")
        r = SERVER.request("POST", "/api/v1/scan", b"x", token=self.token,
                           headers={"Content-Type": "multipart/mixed; boundary=x"})
        self.assert_problem(r, 415, "unsupported-media-type")

    def test_upload_needs_a_token(self):
        body, ctype = form([("file", make_images.letter_docx(), "a.docx", None)])
        r = SERVER.request("POST", "/api/v1/scan", body, headers={"Content-Type": ctype})
        self.assert_problem(r, 401, "unauthorized")


class Allowance(unittest.TestCase, ProblemMixin):
    def test_an_upload_counts_once_and_failures_not_at_all(self):
        token = SERVER.user("upload-quota@example.com")  # plan free: 10 per day
        _, headers, _, _ = upload(token, b"plain text", "a.txt")
        self.assertEqual(headers["x-ratelimit-remaining"], "10")
        code, headers, _, _ = upload(token, make_images.letter_docx(), "a.docx")
        self.assertEqual(code, 200)
        self.assertEqual(headers["x-ratelimit-remaining"], "9")
        r = upload(token, make_images.text_layer_pdf(["x"])[:40], "broken.pdf")
        self.assert_problem(r, 422, "validation-error")
        self.assertEqual(r[1]["x-ratelimit-remaining"], "9")


class Images(unittest.TestCase, ProblemMixin):
    @classmethod
    def setUpClass(cls):
        cls.token = SERVER.user("images@example.com", plan="pro")

    def setUp(self):
        if not OCR:
            self.skipTest("OCR unavailable (Tesseract models or ImageMagick missing)")

    def test_health_reports_ocr(self):
        _, _, _, health = SERVER.request("GET", "/health")
        self.assertEqual(health["checks"]["ocr"], "ok")

    def test_screenshot(self):
        png = screenshot_png(SCREENSHOT_TEXT)
        started = time.monotonic()
        code, _, _, report = upload(self.token, png, "Screenshot.png", "image/png",
                                    source_app="sms")
        self.assertEqual(code, 200, report)
        self.assertLess(time.monotonic() - started, 10)
        self.assertEqual(report["kind"], "image")
        self.assertIn("password", report["extracted_text"].lower())
        self.assertIn(report["verdict"], ("suspicious", "danger"))
        self.assertTrue(any(s["location"] == "ocr" for s in report["signals"]))
        assert_spans(self, report)

    def test_qr_code(self):
        with open(QR_FIXTURE, "rb") as f:
            png = f.read()
        code, _, _, report = upload(self.token, png, "qr.png", "image/png", kind="image")
        self.assertEqual(code, 200, report)
        self.assertEqual(report["kind"], "image")
        self.assertIn("http", report["extracted_text"])
        self.assertTrue(report["urls"])
        assert_spans(self, report)


class BoundedPool(unittest.TestCase, ProblemMixin):
    """With one worker, uploads beyond the queue are answered 503 at once."""

    def test_full_queue_is_503_with_retry_after(self):
        if not OCR:
            self.skipTest("OCR unavailable (Tesseract models or ImageMagick missing)")
        server = Server("--workers", "1")
        server.start()
        try:
            token = server.user("busy@example.com", plan="pro")
            png = screenshot_png(SCREENSHOT_TEXT + " " + SCREENSHOT_TEXT, dark=True)
            body, ctype = form([("file", png, "shot.png", "image/png")])
            results = []

            def send():
                results.append(server.request("POST", "/api/v1/scan", body, token=token,
                                              headers={"Content-Type": ctype}))

            threads = [threading.Thread(target=send) for _ in range(12)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(120)
            codes = sorted(r[0] for r in results)
            self.assertEqual(len(codes), 12)
            self.assertLessEqual(set(codes), {200, 503}, codes)
            self.assertIn(200, codes)
            self.assertIn(503, codes)
            for r in results:
                if r[0] == 503:
                    self.assert_problem(r, 503, "unavailable")
                    self.assertEqual(r[1]["retry-after"], "2")
        finally:
            self.assertEqual(server.stop(), 0)


def main():
    global QR_FIXTURE
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--record", help="append every response here (JSON Lines)")
    parser.add_argument("--qr-fixture", required=True)
    parser.add_argument("--database", help="sqlite (default) or postgresql:CLUSTER_DIR")
    args, rest = parser.parse_known_args()
    server_test.configure_database(args.database)
    server_test.BINARY = os.path.abspath(args.binary)
    server_test.RECORD = args.record
    QR_FIXTURE = args.qr_fixture
    if args.record and os.path.exists(args.record):
        os.remove(args.record)
    unittest.main(argv=[sys.argv[0], "-v", *rest])


if __name__ == "__main__":
    main()
