#!/usr/bin/env python3
"""Per-minute allowances of the scan API per plan, and every allowance of
CONTRACT §2/§3 as configuration (the plans file and flags), on the real
scamcheckd.

  minute_limits_test.py --binary build/adapters/server/scamcheckd
"""

import argparse
import json
import os
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import server_test  # noqa: E402  (the Server helper)
from server_test import SMS, Server  # noqa: E402

PLANS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "adapters",
                     "server", "data", "plans.json")


def same_minute(need_seconds):
    """Waits, if needed, so that `need_seconds` fit before the minute ends."""
    left = 60 - time.time() % 60
    if left < need_seconds:
        time.sleep(left + 0.1)


class MinuteLimits(unittest.TestCase, server_test.ProblemMixin):
    def assert_minute_429(self, status, headers, body, limit):
        self.assert_problem((status, headers, b"", body), 429, "rate-limited")
        self.assertIn(str(limit), body["message"])
        self.assertTrue(1 <= body["retry_after"] <= 60)
        self.assertEqual(headers["retry-after"], str(body["retry_after"]))

    def test_plan_defaults_stop_a_flood(self):
        """The built-in pro plan: 600 scans a minute, then 429 (before: all accepted)."""
        with open(PLANS) as f:
            pro = next(p for p in json.load(f)["plans"] if p["name"] == "pro")
        limit = pro["scan_per_minute"]
        server = Server("--workers", "2").start()
        try:
            token = server.user("flood@example.com", plan="pro")
            same_minute(10)
            conn = server.connect()
            body = json.dumps({"content": SMS}).encode()
            codes = {}
            for _ in range(limit + 5):
                conn.request("POST", "/api/v1/scan", body=body,
                             headers={"Authorization": "Bearer " + token,
                                      "Content-Type": "application/json"})
                resp = conn.getresponse()
                resp.read()
                codes[resp.status] = codes.get(resp.status, 0) + 1
            self.assertEqual(codes, {200: limit, 429: 5})
        finally:
            server.stop()

    def test_flags_override_the_plans(self):
        server = Server("--scan-per-minute", "3", "--reads-per-minute", "2").start()
        try:
            token = server.user("a@example.com", plan="pro")
            second = server.token("a@example.com", "second", "*")
            other = server.user("b@example.com", plan="business")
            same_minute(8)
            for _ in range(2):
                self.assertEqual(server.scan(token)[0], 200)
            self.assertEqual(server.scan(second)[0], 200)  # the user's tokens share a window
            status, headers, _, body = server.scan(token)
            self.assert_minute_429(status, headers, body, 3)
            self.assertEqual(headers["x-ratelimit-remaining"], "-1")  # the daily allowance
            self.assertEqual(server.scan(other)[0], 200)  # another user has their own
            for _ in range(2):
                self.assertEqual(server.request("GET", "/api/v1/reports", token=token)[0], 200)
            status, headers, _, body = server.request("GET", "/api/v1/reports", token=token)
            self.assert_minute_429(status, headers, body, 2)
            status, headers, _, body = server.request(
                "DELETE", "/api/v1/reports/rpt_01M8BP3XZ1YF6G9MXDVA8MPS24", token=token)
            self.assert_minute_429(status, headers, body, 2)
        finally:
            server.stop()

    def test_plans_file_sets_the_allowances(self):
        with open(PLANS) as f:
            plans = json.load(f)
        for plan in plans["plans"]:
            if plan["name"] == "free":
                plan["checks_per_day"] = 2
            if plan["name"] == "pro":
                plan["scan_per_minute"] = 2
                plan["reads_per_minute"] = None  # no limit
        path = os.path.join(tempfile.mkdtemp(prefix="scamcheckd-plans-"), "plans.json")
        with open(path, "w") as f:
            json.dump(plans, f)
        server = Server("--plans", path).start()
        try:
            free = server.user("free@example.com", plan="free")
            pro = server.user("pro@example.com", plan="pro")
            same_minute(8)
            self.assertEqual(server.scan(free, "one " + SMS)[0], 200)
            self.assertEqual(server.scan(free, "two " + SMS)[0], 200)
            status, headers, _, body = server.scan(free, "three " + SMS)
            self.assertEqual(status, 429)  # the daily allowance of 2
            self.assertEqual(headers["x-ratelimit-remaining"], "0")
            _, _, _, plan = server.request("GET", "/api/user/plan", token=free)
            self.assertEqual(json.dumps(plan).count('"checks_per_day": 2') +
                             json.dumps(plan).count('"limit": 2'), 1, plan)
            for _ in range(2):
                self.assertEqual(server.scan(pro)[0], 200)
            status, headers, _, body = server.scan(pro)
            self.assert_minute_429(status, headers, body, 2)
            for _ in range(5):
                self.assertEqual(server.request("GET", "/api/v1/reports", token=pro)[0], 200)
        finally:
            server.stop()

    def test_bad_plans_file_is_refused(self):
        with open(PLANS) as f:
            plans = json.load(f)
        plans["plans"][0]["scan_per_minute"] = 0
        path = os.path.join(tempfile.mkdtemp(prefix="scamcheckd-plans-"), "plans.json")
        with open(path, "w") as f:
            json.dump(plans, f)
        server = Server("--plans", path)
        with self.assertRaises(RuntimeError):
            server.start()
        self.assertIn("scan_per_minute", server.read_log())

    def test_check_api_allowances_are_flags(self):
        server = Server("--anonymous-checks-per-day", "1", "--check-per-minute-anonymous", "4",
                        "--check-polling-per-minute", "1").start()
        try:
            same_minute(8)
            check = {"type": "text", "content": SMS}
            status, _, _, created = server.request("POST", "/api/checks", check)
            self.assertEqual(status, 201)
            status, headers, _, body = server.request("POST", "/api/checks", check)
            self.assertEqual(status, 429)  # the anonymous daily allowance of 1
            self.assertEqual(headers["x-ratelimit-limit"], "4")
            uuid = created["check"]["uuid"] if "check" in created else created["uuid"]
            self.assertEqual(server.request("GET", f"/api/checks/{uuid}/status")[0], 200)
            status, headers, _, _ = server.request("GET", f"/api/checks/{uuid}/status")
            self.assertEqual((status, headers["x-ratelimit-limit"]), (429, "1"))
            self.assertEqual(server.request("GET", "/api/plans")[0], 200)  # the 3rd of 4
            self.assertEqual(server.request("GET", "/api/plans")[0], 200)
            status, headers, _, _ = server.request("GET", "/api/plans")
            self.assertEqual(status, 429)
        finally:
            server.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    args, rest = parser.parse_known_args()
    server_test.BINARY = os.path.abspath(args.binary)
    unittest.main(argv=[sys.argv[0], "-v", *rest])


if __name__ == "__main__":
    main()
