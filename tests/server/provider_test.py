#!/usr/bin/env python3
"""scamcheckd with an AI provider and URL reputation services (CONTRACT §1, §2, §8).

Starts the real server with --ai-url pointing at a local stand-in that
speaks OpenAI chat completions, and --urlhaus-url at a stand-in of the
URLhaus API, then checks reports, /health and the logs. Loopback only;
standard library only.

  provider_test.py --binary build/adapters/server/scamcheckd
"""

import argparse
import http.server
import json
import os
import sqlite3
import sys
import threading
import unittest
import urllib.parse

import server_test
from server_test import Server

SECRET = "sk-provider-test-secret-7f3a"
SCAM = ("Dear customer, please confirm your password at "
        "https://listed-evil.example.top/login before midnight.")


class Standins:
    """Chat completions and URLhaus on one local HTTP server."""

    def __init__(self):
        self.mode = "answer"  # or "fail" (HTTP 500)
        self.authorizations = []
        self.urlhaus_asked = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if self.path == "/v1/url/":
                    url = urllib.parse.parse_qs(body.decode())["url"][0]
                    outer.urlhaus_asked.append(url)
                    listed = "listed-evil" in url
                    return self.reply(200, {"query_status": "ok" if listed else "no_results"})
                if self.path != "/v1/chat/completions":
                    return self.reply(404, {})
                outer.authorizations.append(self.headers.get("Authorization"))
                if outer.mode == "fail":
                    return self.reply(500, {"error": {"message": "down"}})
                request = json.loads(body)
                assert request["response_format"]["type"] == "json_schema"
                user = json.loads(request["messages"][1]["content"])
                assert "confirm your password" in user["content"]
                content = {
                    "verdict": "danger", "score": 95,
                    "summary": "This message tries to steal your password.",
                    "actions": [{"icon": "\U0001F6AB", "text": "Do not open the link."}],
                    "signals": [
                        {"key": "credential_request", "severity": "high",
                         "evidence": "confirm your password"},
                        {"key": "urgency", "severity": "medium", "evidence": "act within 1 hour"},
                    ],
                }
                self.reply(200, {
                    "model": "standin-model-2",
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant",
                                             "content": json.dumps(content)}}],
                    "usage": {"prompt_tokens": 777, "completion_tokens": 88},
                })

            def reply(self, status, obj):
                data = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class ProviderTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.standins = Standins()
        os.environ["SCAMCHECK_AI_KEY"] = SECRET
        cls.server = Server("--ai-url", cls.standins.url + "/v1", "--ai-model", "configured",
                            "--urlhaus-url", cls.standins.url).start()
        del os.environ["SCAMCHECK_AI_KEY"]
        cls.token = cls.server.user("provider@example.org", plan="pro")

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.standins.close()

    def test_1_provider_answer_and_reputation(self):
        _, _, _, health = self.server.request("GET", "/health")
        self.assertEqual(health["checks"]["ai_provider"], "ok")
        code, _, _, report = self.server.scan(self.token, content=SCAM)
        self.assertEqual(code, 200)
        self.assertEqual(report["model_used"], "standin-model-2")
        self.assertEqual(report["input_tokens"], 777)
        self.assertEqual(report["output_tokens"], 88)
        self.assertEqual(report["verdict"], "danger")
        self.assertEqual(report["summary_plain"], "This message tries to steal your password.")
        keys = {s["key"] for s in report["signals"]}
        self.assertIn("credential_request", keys)
        self.assertIn("known_malicious_url", keys)
        content = SCAM.encode()
        for s in report["signals"]:
            self.assertNotEqual(s["evidence"], "act within 1 hour")  # not in the input: dropped
            self.assertEqual(content[s["span"]["start"]:s["span"]["end"]].decode(), s["evidence"])
        self.assertEqual(report["urls"][0]["reputation"], "malicious")
        self.assertEqual(self.standins.authorizations[-1], "Bearer " + SECRET)

    def test_2_failures_fall_back_then_health_says_unavailable(self):
        self.standins.mode = "fail"
        try:
            for _ in range(5):
                code, _, _, report = self.server.scan(self.token, content=SCAM)
                self.assertEqual(code, 200)
                self.assertEqual(report["model_used"], "heuristic-fallback")
            _, _, _, health = self.server.request("GET", "/health")
            self.assertEqual(health["checks"]["ai_provider"], "unavailable")
            asked = len(self.standins.authorizations)
            code, _, _, report = self.server.scan(self.token, content=SCAM)
            self.assertEqual(report["model_used"], "heuristic-fallback")
            self.assertEqual(len(self.standins.authorizations), asked)  # breaker open: not asked
        finally:
            self.standins.mode = "answer"

    def test_3_key_never_logged(self):
        self.assertNotIn(SECRET, self.server.read_log())

    def test_4_reputation_answers_outlive_a_restart(self):
        url = "https://listed-evil.example.top/cached-login"
        text = "Your parcel is held: pay the fee at " + url + " today."
        _, _, _, first = self.server.scan(self.token, content=text)
        self.assertEqual(self.standins.urlhaus_asked.count(url), 1)
        self.assertEqual(first["urls"][0]["reputation"], "malicious")
        self.assertFalse(first["urls"][0]["cached"])  # a counted scan is never "cached"
        # A new process on the same database: the answer comes from the store.
        self.assertEqual(self.server.stop(), 0)
        self.server.start()
        code, h, _, again = self.server.scan(self.token, content=text)
        self.assertEqual(code, 200)
        self.assertEqual(self.standins.urlhaus_asked.count(url), 1)  # not asked again
        self.assertEqual(again["urls"][0]["reputation"], "malicious")
        self.assertIn("known_malicious_url", {s["key"] for s in again["signals"]})
        self.assertFalse(again["urls"][0]["cached"])
        # The answers are keyed by a SHA-256 digest: the table holds no URL.
        with sqlite3.connect(self.server.db) as db:
            rows = db.execute("SELECT url_key, reputation FROM url_reputations").fetchall()
        self.assertIn("malicious", {r[1] for r in rows})
        self.assertTrue(all(isinstance(r[0], bytes) and len(r[0]) == 32 for r in rows))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    args, rest = parser.parse_known_args()
    server_test.BINARY = os.path.abspath(args.binary)
    unittest.main(argv=[sys.argv[0], "-v", *rest])


if __name__ == "__main__":
    main()
