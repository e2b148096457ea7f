#!/usr/bin/env python3
"""HTTP framing and connection-flood tests of the real scamcheckd, on raw sockets.

Request smuggling (RFC 9112 §6.1, §6.3): a head whose framing is refused is
answered 400 and the connection closed, so the bytes after it never run as
a second request. Absolute-form targets (§3.2.2). The head deadline
(--header-timeout) answers 408. The per-address connection cap: one
loopback address (127.0.0.2) holds many half-sent requests while another
(127.0.0.1) keeps scanning fast.

  http_hardening_test.py --binary build/adapters/server/scamcheckd [--flood N] [--seconds S]
"""

import argparse
import json
import os
import re
import resource
import socket
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import server_test  # noqa: E402  (the Server helper)
from server_test import SMS, Server  # noqa: E402

FLOOD = 1000
FLOOD_SECONDS = 10
SERVER = None


def setUpModule():
    global SERVER
    SERVER = Server("--header-timeout", "2", "--workers", "2").start()


def tearDownModule():
    SERVER.stop()


def exchange(data, port=None, timeout=5):
    """Sends raw bytes, returns everything the server sends until it closes."""
    s = socket.create_connection(("127.0.0.1", port or SERVER.port), timeout=timeout)
    try:
        s.sendall(data)
        out = b""
        while True:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                return out, False  # still open
            if not chunk:
                return out, True
            out += chunk
    finally:
        s.close()


def statuses(data):
    """The status codes of the responses in `data`, in order."""
    return [int(code) for code in re.findall(rb"HTTP/1\.1 (\d{3}) [^\r\n]*\r\n", data)]


def report_count(token):
    _, _, _, body = SERVER.request("GET", "/api/v1/reports?limit=100", token=token)
    return len(body["data"])


class Smuggling(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.token = SERVER.user("smuggle@example.com", plan="pro")

    def smuggled(self):
        """A complete scan request, to be hidden in another request's body."""
        body = json.dumps({"content": SMS}).encode()
        return (b"POST /api/v1/scan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Authorization: Bearer " + self.token.encode() + b"\r\n"
                b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)

    def attempt(self, head_fields, body):
        before = report_count(self.token)
        data, closed = exchange(b"POST /health HTTP/1.1\r\nHost: x\r\n" + head_fields +
                                b"\r\n" + body)
        self.assertEqual(statuses(data), [400], data[:300])
        self.assertTrue(closed, "the connection stays open after a refused framing")
        self.assertIn(b"Connection: close", data)
        self.assertIn(b"application/problem+json", data)
        time.sleep(0.2)
        self.assertEqual(report_count(self.token), before, "the smuggled scan ran")

    def test_transfer_encodings_other_than_chunked(self):
        for te in (b"xchunked", b"chunked, identity", b"gzip, chunked", b"identity",
                   b"chunked;q=1", b"chunked\r\nTransfer-Encoding: chunked"):
            with self.subTest(te=te):
                self.attempt(b"Transfer-Encoding: " + te + b"\r\n", self.smuggled())

    def test_content_length_with_transfer_encoding(self):
        smuggled = self.smuggled()
        chunked = b"0\r\n\r\n" + smuggled
        self.attempt(b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", chunked)
        self.attempt(b"Transfer-Encoding: chunked\r\nContent-Length: 5\r\n", chunked)
        self.attempt(b"Transfer-Encoding: xchunked\r\nContent-Length: 5\r\n", b"12345" + smuggled)

    def test_bad_content_length(self):
        for cl in (b"5, 5", b"+5", b"5 5", b"0x5", b"-1"):
            with self.subTest(cl=cl):
                self.attempt(b"Content-Length: " + cl + b"\r\n", b"12345" + self.smuggled())
        self.attempt(b"Content-Length: 0\r\nContent-Length: 0\r\n", self.smuggled())

    def test_transfer_encoding_in_http_1_0(self):
        before = report_count(self.token)
        data, closed = exchange(b"POST /health HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n"
                                b"0\r\n\r\n" + self.smuggled())
        self.assertEqual(statuses(data), [400])
        self.assertTrue(closed)
        self.assertEqual(report_count(self.token), before)

    def test_chunked_is_still_served_and_pipelining_works(self):
        body = json.dumps({"content": SMS}).encode()
        chunked = (b"POST /api/v1/scan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                   b"Authorization: Bearer " + self.token.encode() + b"\r\n"
                   b"Transfer-Encoding: chunked\r\n\r\n" +
                   f"{len(body):x}".encode() + b"\r\n" + body + b"\r\n0\r\n\r\n")
        data, _ = exchange(chunked + b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        self.assertEqual(statuses(data), [200, 200])

    def test_two_authorization_headers(self):
        other = SERVER.user("smuggle-other@example.com", plan="pro")
        data, closed = exchange(b"GET /api/v1/reports HTTP/1.1\r\nHost: x\r\n"
                                b"Authorization: Bearer " + self.token.encode() + b"\r\n"
                                b"Authorization: Bearer " + other.encode() + b"\r\n\r\n")
        self.assertEqual(statuses(data), [400])
        self.assertTrue(closed)

    def test_host_missing_or_repeated(self):
        for head in (b"GET /health HTTP/1.1\r\n\r\n",
                     b"GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"):
            with self.subTest(head=head):
                data, closed = exchange(head)
                self.assertEqual(statuses(data), [400])
                self.assertTrue(closed)
        data, _ = exchange(b"GET /health HTTP/1.0\r\n\r\n")  # HTTP/1.0 needs no Host
        self.assertEqual(statuses(data), [200])


class RequestTargets(unittest.TestCase):
    def test_absolute_form_uses_the_path(self):
        data, _ = exchange(b"GET http://other.example/health HTTP/1.1\r\nHost: x\r\n"
                           b"Connection: close\r\n\r\n")
        self.assertEqual(statuses(data), [200], data[:300])
        self.assertIn(b'"status":"ok"', data)
        data, _ = exchange(b"GET HTTPS://other.example:8443/docs/api?x=1 HTTP/1.1\r\nHost: x\r\n"
                           b"Connection: close\r\n\r\n")
        self.assertEqual(statuses(data), [200])
        data, _ = exchange(b"GET http://other.example HTTP/1.1\r\nHost: x\r\n"
                           b"Connection: close\r\n\r\n")
        self.assertEqual(statuses(data), [200])  # the path "/": the web interface's check page
        self.assertIn(b"Content-Type: text/html", data)

    def test_other_forms_are_bad_requests(self):
        for target in (b"*", b"other.example:443", b"ftp://other.example/health",
                       b"http://user@other.example/health", b"http:///health",
                       b"http://other.example/health#frag", b"health"):
            with self.subTest(target=target):
                data, closed = exchange(b"GET " + target + b" HTTP/1.1\r\nHost: x\r\n\r\n")
                self.assertEqual(statuses(data), [400], data[:200])
                self.assertTrue(closed)


class BufferedRequests(unittest.TestCase):
    """Requests that arrive together in one segment are each answered, in
    order; a body that arrives after its head is waited for; a chunked body
    over the limit is refused with 413 wherever its bytes are."""

    @classmethod
    def setUpClass(cls):
        cls.token = SERVER.user("buffered@example.com", plan="pro")

    def scan_request(self, extra=b""):
        body = json.dumps({"content": SMS}).encode()
        return (b"POST /api/v1/scan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Authorization: Bearer " + self.token.encode() + b"\r\n" + extra +
                b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n", body)

    def test_pipelined_scans_in_one_segment_are_each_answered_and_stored(self):
        before = report_count(self.token)
        head, body = self.scan_request()
        data, closed = exchange(head + body + head + body +
                                b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        self.assertEqual(statuses(data), [200, 200, 200], data[:300])
        self.assertTrue(closed)
        self.assertEqual(data.count(b'"id":"rpt_'), 2)
        self.assertEqual(report_count(self.token), before + 2)

    def test_body_sent_after_the_head(self):
        head, body = self.scan_request(b"Connection: close\r\n")
        s = socket.create_connection(("127.0.0.1", SERVER.port), timeout=5)
        try:
            s.sendall(head + body[:10])
            time.sleep(0.3)
            s.sendall(body[10:])
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        finally:
            s.close()
        self.assertEqual(statuses(data), [200], data[:300])

    def test_chunked_body_over_the_limit_in_one_segment(self):
        big = b"x" * (512 * 1024 + 1)  # kMaxJsonBodyBytes + 1
        data, closed = exchange(b"POST /api/v1/scan HTTP/1.1\r\nHost: x\r\n"
                                b"Content-Type: application/json\r\n"
                                b"Authorization: Bearer " + self.token.encode() + b"\r\n"
                                b"Transfer-Encoding: chunked\r\n\r\n" +
                                f"{len(big):x}".encode() + b"\r\n" + big + b"\r\n0\r\n\r\n")
        self.assertEqual(statuses(data), [413], data[:300])
        self.assertTrue(closed)


class Deadlines(unittest.TestCase):
    def test_slow_head_gets_408(self):
        start = time.monotonic()
        data, closed = exchange(b"GET /health HTTP/1.1\r\nHost: x\r\n", timeout=10)
        self.assertEqual(statuses(data), [408], data[:300])
        self.assertTrue(closed)
        self.assertGreater(time.monotonic() - start, 1.5)
        self.assertLess(time.monotonic() - start, 6)

    def test_silent_connection_is_closed_without_answer(self):
        start = time.monotonic()
        data, closed = exchange(b"", timeout=10)
        self.assertEqual((data, closed), (b"", True))
        self.assertLess(time.monotonic() - start, 6)


class KeepAliveDeadlines(unittest.TestCase):
    """The connection's deadlines share one timer, moved lazily (http_server.cc):
    a keep-alive connection still gets the idle timeout between requests and
    the full head deadline for each new request."""

    @classmethod
    def setUpClass(cls):
        cls.server = Server("--header-timeout", "2", "--idle-timeout", "3", "--workers", "2").start()

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def connect(self):
        s = socket.create_connection(("127.0.0.1", self.server.port), timeout=10)
        self.addCleanup(s.close)
        return s

    def read_response(self, s):
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(65536)
            self.assertTrue(chunk, "closed before a response")
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
        while len(body) < length:
            body += s.recv(65536)
        return head

    def test_idle_keep_alive_connection_is_closed_after_the_idle_timeout(self):
        s = self.connect()
        for _ in range(3):  # requests 1.5 s apart: within the idle timeout each time
            s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            self.assertTrue(self.read_response(s).startswith(b"HTTP/1.1 200 "))
            time.sleep(1.5)
        start = time.monotonic()
        self.assertEqual(s.recv(65536), b"")  # closed without an answer
        self.assertGreater(time.monotonic() - start, 0.5)  # at about 3 s after the last answer
        self.assertLess(time.monotonic() - start, 4)

    def test_each_request_gets_the_whole_head_deadline(self):
        s = self.connect()
        s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        self.assertTrue(self.read_response(s).startswith(b"HTTP/1.1 200 "))
        time.sleep(1.5)  # most of a head deadline, spent idle
        start = time.monotonic()
        s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")  # a head that never ends
        self.assertTrue(self.read_response(s).startswith(b"HTTP/1.1 408 "))
        self.assertGreater(time.monotonic() - start, 1.5)  # 2 s from its first byte
        self.assertLess(time.monotonic() - start, 5)


def flood(flood_count, seconds, server_args=()):
    """One address holds half-sent requests while another scans; returns figures."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, flood_count + 512)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    flood_count = min(flood_count, want - 256)
    # The scanning user's per-minute allowance would answer 429 long before.
    server = Server("--workers", "2", "--scan-per-minute", "0", *server_args).start()
    figures = {"flood_sockets": flood_count}
    try:
        token = server.user("flood@example.com", plan="pro")
        held, refused = [], 0
        for _ in range(flood_count):
            s = socket.socket()
            s.setblocking(True)
            s.settimeout(2)
            try:
                s.bind(("127.0.0.2", 0))
                s.connect(("127.0.0.1", server.port))
                s.sendall(b"POST /api/v1/scan HTTP/1.1\r\nHost: x\r\nContent-Le")  # half sent
                held.append(s)
            except OSError:
                refused += 1
                s.close()
        latencies, errors = [], 0
        stop = time.monotonic() + seconds
        conn = server.connect()
        body = json.dumps({"content": SMS})
        i = 0
        while time.monotonic() < stop:
            i += 1
            t = time.monotonic()
            try:
                conn.request("POST", "/api/v1/scan", body=body.replace("hold", f"hold {i}"),
                             headers={"Authorization": "Bearer " + token,
                                      "Content-Type": "application/json"})
                resp = conn.getresponse()
                resp.read()
                if resp.status != 200:
                    errors += 1
            except OSError:
                errors += 1
                conn = server.connect()
            latencies.append(time.monotonic() - t)
            # A new connection now and then, too: accepting must keep working.
            if i % 50 == 0:
                conn.close()
                conn = server.connect()
        answered_408 = closed_silently = still_open = 0
        for s in held:
            s.setblocking(False)
            try:
                data = s.recv(4096)
                if data.startswith(b"HTTP/1.1 408 "):
                    answered_408 += 1
                else:
                    closed_silently += 1  # b"": closed at once (over the per-address cap)
            except BlockingIOError:
                still_open += 1
            except OSError:
                closed_silently += 1
            s.close()
        latencies.sort()
        figures.update({
            "flood_refused_at_connect": refused,
            "flood_answered_408": answered_408,
            "flood_closed_without_answer": closed_silently,
            "flood_still_open": still_open,
            "scans": len(latencies),
            "scan_errors": errors,
            "p50_ms": round(latencies[len(latencies) // 2] * 1000, 2),
            "p99_ms": round(latencies[int(len(latencies) * 0.99)] * 1000, 2),
            "max_ms": round(latencies[-1] * 1000, 2),
        })
        figures["refusal_logged"] = '"reason":"connections per address"' in server.read_log()
    finally:
        server.stop()
    return figures


FLOOD_SERVER_ARGS = ["--max-connections", "512"]  # the flood alone would fill it


class Flood(unittest.TestCase):
    def test_one_address_cannot_starve_another(self):
        figures = flood(FLOOD, FLOOD_SECONDS, FLOOD_SERVER_ARGS)
        print(json.dumps(figures), file=sys.stderr)
        self.assertEqual(figures["scan_errors"], 0)
        self.assertGreater(figures["scans"], 50)
        self.assertLess(figures["p99_ms"], 50)
        self.assertTrue(figures["refusal_logged"])


def main():
    global FLOOD, FLOOD_SECONDS
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--flood", type=int, default=FLOOD, help="half-sent sockets")
    parser.add_argument("--seconds", type=float, default=FLOOD_SECONDS)
    parser.add_argument("--server-args", default=None,
                        help="flags of the flooded server (default: --max-connections 512)")
    args, rest = parser.parse_known_args()
    server_test.BINARY = os.path.abspath(args.binary)
    FLOOD, FLOOD_SECONDS = args.flood, args.seconds
    if args.server_args is not None:
        FLOOD_SERVER_ARGS[:] = args.server_args.split()
    unittest.main(argv=[sys.argv[0], "-v", *rest])


if __name__ == "__main__":
    main()
