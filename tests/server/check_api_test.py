#!/usr/bin/env python3
"""Integration tests of the check API (CONTRACT §3) against the real scamcheckd.

Starts scamcheckd on 127.0.0.1 (helpers from server_test.py), with a local
workflow stand-in (workflow_standin.py) where the automation workflow is
involved, and records every response for openapi_check.mjs.

  check_api_test.py --binary build/adapters/server/scamcheckd --record check_responses.jsonl
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import time
import unittest

import server_test as base
from server_test import Server
from workflow_standin import WorkflowStandIn

SCAM = base.SCAM
SAFE = "Hi mum, I will be home at 6. Can you buy milk on the way?"
JSON_CT = "application/json"
SERVER = None
NEXT_IP = [1]


def fresh_ip():
    """A client address of its own (sent through the trusted proxy 127.0.0.1)."""
    NEXT_IP[0] += 1
    return f"203.0.113.{NEXT_IP[0] % 250 + 1}" if NEXT_IP[0] < 250 else f"198.51.100.{NEXT_IP[0] % 250}"


def as_client(ip, headers=None):
    h = dict(headers or {})
    h["X-Forwarded-For"] = ip
    return h


def wait_complete(server, uuid, token=None, headers=None, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        code, _, _, body = server.request("GET", f"/api/checks/{uuid}/status", token=token,
                                          headers=headers)
        assert code == 200, (code, body)
        if not body["is_pending"]:
            return body
        time.sleep(0.1)
    raise AssertionError(f"check {uuid} still processing after {timeout} s")


def create(server, payload, token=None, headers=None):
    return server.request("POST", "/api/checks", payload, token=token, headers=headers)


def setUpModule():
    global SERVER
    SERVER = Server("--analysis-timeout", "3", "--workers", "2", "--trusted-proxy", "127.0.0.1/32",
                    "--base-url", "http://scamcheck.test:9/")
    SERVER.start()


def tearDownModule():
    code = SERVER.stop()
    assert code == 0, f"SIGTERM exit status {code}: {SERVER.read_log()[-2000:]}"


class Shapes:
    def assert_message(self, response, status):
        code, headers, _, body = response
        self.assertEqual(code, status, body)
        self.assertTrue(headers["content-type"].startswith(JSON_CT), headers)
        self.assertIsInstance(body["message"], str)
        self.assertTrue(body["message"])
        self.assertNotIn("type", body)
        return body

    def assert_rate_headers(self, headers, limit=None):
        for name in ("x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"):
            self.assertRegex(headers[name], r"^\d+$", name)
        if limit is not None:
            self.assertEqual(int(headers["x-ratelimit-limit"]), limit)
        self.assertGreater(int(headers["x-ratelimit-reset"]), time.time() - 1)


class Checks(unittest.TestCase, Shapes):
    @classmethod
    def setUpClass(cls):
        cls.alice = SERVER.user("check-alice@example.com", plan="pro")
        cls.bob = SERVER.user("check-bob@example.com", plan="pro")

    def test_text_check_lifecycle(self):
        ip = as_client(fresh_ip())
        code, h, _, body = create(SERVER, {"type": "text", "content": SCAM}, headers=ip)
        self.assertEqual(code, 201, body)
        self.assert_rate_headers(h, 10)
        self.assertIsInstance(body["message"], str)
        self.assertEqual(body["status"], "processing")
        self.assertEqual(body["check"]["type"], "text")
        self.assertEqual(body["check"]["webhook_status"], "processing")
        uuid = body["check"]["uuid"]
        self.assertRegex(uuid, r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
        status = wait_complete(SERVER, uuid, headers=ip)
        self.assertEqual(status["status"], "completed")
        self.assertEqual((status["is_complete"], status["is_pending"], status["has_failed"]),
                         (True, False, False))
        code, h, _, d = SERVER.request("GET", f"/api/checks/{uuid}", headers=ip)
        self.assertEqual(code, 200)
        self.assert_rate_headers(h, 120)
        self.assertEqual(d["risk_level"], "danger")
        self.assertGreaterEqual(d["risk_score"], 70)
        self.assertEqual(d["risk_color"], "red")
        self.assertEqual(d["risk_text"], "Dangerous")
        self.assertEqual(d["webhook_status"], "completed")
        self.assertTrue(d["ai_explanation"])
        self.assertTrue(d["ai_indicators"])
        self.assertEqual(len(d["ai_indicators"]), len(set(d["ai_indicators"])))

    def test_levels_follow_scores(self):
        ip = as_client(fresh_ip())
        _, _, _, body = create(SERVER, {"type": "text", "content": SAFE, "locale": "de"},
                               headers=ip)
        uuid = body["check"]["uuid"]
        wait_complete(SERVER, uuid, headers=ip)
        _, _, _, d = SERVER.request("GET", f"/api/checks/{uuid}", headers=ip)
        self.assertEqual(d["risk_level"], "safe")
        self.assertLess(d["risk_score"], 30)
        self.assertEqual((d["risk_color"], d["risk_text"]), ("green", "Wirkt sicher"))

    def test_details_before_completion_and_link_and_email(self):
        ip = as_client(fresh_ip(), {"Accept-Language": "de-AT"})
        code, _, _, body = create(SERVER, {"type": "link", "url": "http://secure-bank-login.example.top/verify",
                                           "content": "Ihr Konto ist gesperrt"}, headers=ip)
        self.assertEqual(code, 201, body)
        self.assertEqual(body["message"], "Ihre Prüfung ist eingegangen und wird analysiert.")
        uuid = body["check"]["uuid"]
        code, _, _, d = SERVER.request("GET", f"/api/checks/{uuid}", headers=ip)
        self.assertEqual(code, 200)
        if d["status"] == "processing":
            self.assertIsNone(d["risk_level"])
            self.assertIsNone(d["ai_explanation"])
        wait_complete(SERVER, uuid, headers=ip)
        _, _, _, d = SERVER.request("GET", f"/api/checks/{uuid}", headers=ip)
        self.assertEqual(d["type"], "link")
        self.assertEqual(d["url"], "http://secure-bank-login.example.top/verify")
        self.assertIn(d["risk_level"], ("warning", "danger"))
        email = (b"From: PayPal <service@paypa1-secure.example.top>\r\nSubject: Konto gesperrt\r\n"
                 b"Content-Type: text/plain; charset=iso-8859-1\r\n\r\nBest\xe4tigen Sie Ihr Passwort.\r\n")
        import base64 as b64
        code, _, _, body = create(SERVER, {"type": "email", "content": b64.b64encode(email).decode(),
                                           "content_encoding": "base64"}, headers=ip)
        self.assertEqual(code, 201, body)
        self.assertEqual(wait_complete(SERVER, body["check"]["uuid"], headers=ip)["status"],
                         "completed")

    def test_validation(self):
        for payload, field in (({}, "type"), ({"type": "fax", "content": "x"}, "type"),
                               ({"type": "text"}, "content"),
                               ({"type": "text", "content": "   "}, "content"),
                               ({"type": "text", "content": 5}, "content"),
                               ({"type": "text", "content": "a" * 65537}, "content"),
                               ({"type": "email", "content": "%%", "content_encoding": "base64"}, "content"),
                               ({"type": "link"}, "url"),
                               ({"type": "link", "url": "ftp://example.com/x"}, "url"),
                               ({"type": "link", "url": "not a url"}, "url"),
                               ({"type": "text", "content": "x", "locale": 7}, "locale")):
            code, h, _, body = create(SERVER, payload, token=self.alice)
            self.assertEqual(code, 422, (payload, body))
            self.assertIsInstance(body["message"], str)
            self.assertIn(field, body["errors"], payload)
            self.assertIsInstance(body["errors"][field][0], str)
            self.assert_rate_headers(h, 60)
        code, _, _, body = create(SERVER, {"type": "text", "content": "a" * 65536}, token=self.alice)
        self.assertEqual(code, 201, body)

    def test_malformed_and_media_type(self):
        self.assert_message(SERVER.request("POST", "/api/checks", b"{nope", token=self.alice,
                                           headers={"Content-Type": JSON_CT}), 400)
        self.assert_message(SERVER.request("POST", "/api/checks", b"[]", token=self.alice,
                                           headers={"Content-Type": JSON_CT}), 400)
        self.assert_message(SERVER.request("POST", "/api/checks", b"type=text", token=self.alice,
                                           headers={"Content-Type": "text/plain"}), 415)
        big = b'{"type": "text", "content": "' + b"a" * (600 * 1024) + b'"}'
        self.assert_message(SERVER.request("POST", "/api/checks", big, token=self.alice,
                                           headers={"Content-Type": JSON_CT}), 413)

    def test_ownership(self):
        _, _, _, body = create(SERVER, {"type": "text", "content": "Alice's " + SCAM}, token=self.alice)
        uuid = body["check"]["uuid"]
        wait_complete(SERVER, uuid, token=self.alice)
        for path in (f"/api/checks/{uuid}", f"/api/checks/{uuid}/status"):
            self.assertEqual(SERVER.request("GET", path, token=self.alice)[0], 200)
            other = self.assert_message(SERVER.request("GET", path, token=self.bob), 404)
            anon = self.assert_message(SERVER.request("GET", path, headers=as_client(fresh_ip())), 404)
            missing = self.assert_message(
                SERVER.request("GET", "/api/checks/00000000-0000-4000-8000-000000000000",
                               token=self.bob), 404)
            self.assertEqual(other["message"], missing["message"])
            self.assertEqual(anon["message"], missing["message"])
        # An anonymous check is readable by anyone holding its UUID.
        _, _, _, body = create(SERVER, {"type": "text", "content": SAFE}, headers=as_client(fresh_ip()))
        anon_uuid = body["check"]["uuid"]
        self.assertEqual(SERVER.request("GET", f"/api/checks/{anon_uuid}", token=self.bob)[0], 200)
        self.assert_message(SERVER.request("GET", "/api/checks/not-a-uuid/status"), 404)
        upper = SERVER.request("GET", f"/api/checks/{anon_uuid.upper()}/status")
        self.assertEqual(upper[0], 200)

    def test_bad_token_is_401_even_where_optional(self):
        r = create(SERVER, {"type": "text", "content": SAFE},
                   headers={"Authorization": "Bearer sck_" + "x" * 40})
        self.assert_message(r, 401)
        self.assertEqual(r[1]["www-authenticate"], "Bearer")
        self.assert_rate_headers(r[1])

    def test_content_is_not_kept_after_analysis(self):
        _, _, _, body = create(SERVER, {"type": "text", "content": "forget me " + SCAM}, token=self.alice)
        uuid = body["check"]["uuid"]
        wait_complete(SERVER, uuid, token=self.alice)
        row = base.db_query(SERVER, "SELECT content, status FROM checks WHERE uuid = ?", (uuid,))[0]
        self.assertEqual(row, (None, "completed"))


class Limits(unittest.TestCase, Shapes):
    def wait_for_fresh_minute(self, need=8):
        if 60 - time.time() % 60 < need:
            time.sleep(60 - time.time() % 60 + 0.2)

    def test_anonymous_daily_allowance_per_ip(self):
        ip = as_client(fresh_ip())
        self.wait_for_fresh_minute()
        for i in range(3):
            self.assertEqual(create(SERVER, {"type": "text", "content": f"{i} {SAFE}"}, headers=ip)[0], 201)
        code, h, _, body = create(SERVER, {"type": "text", "content": SAFE}, headers=ip)
        self.assertEqual(code, 429, body)
        self.assertEqual(set(body), {"message", "retry_after"})
        self.assertTrue(0 < body["retry_after"] <= 86400)
        self.assertEqual(int(h["retry-after"]), body["retry_after"])
        self.assert_rate_headers(h, 10)
        _, _, _, usage = SERVER.request("GET", "/api/usage", headers=ip)
        self.assertEqual(usage["usage"]["today"], 3)
        self.assertEqual((usage["remaining"], usage["limit"], usage["is_unlimited"]), (0, 3, False))
        self.assertEqual(usage["plan"]["name"], "anonymous")
        _, _, _, can = SERVER.request("GET", "/api/usage/can-perform?action=check", headers=ip)
        self.assertEqual(can["can_perform"], False)
        _, _, _, can = SERVER.request("GET", "/api/usage/can-perform?action=questionnaire", headers=ip)
        self.assertEqual(can["can_perform"], True)
        self.assertEqual(create(SERVER, {"type": "text", "content": SAFE},
                                headers=as_client(fresh_ip()))[0], 201)

    def test_daily_bucket_shared_with_scan_api(self):
        token = SERVER.user("check-free@example.com")  # free: 10 per day
        for i in range(4):
            self.assertEqual(SERVER.scan(token, f"scan {i} " + SAFE)[0], 200)
        for i in range(6):
            code, _, _, body = create(SERVER, {"type": "text", "content": f"check {i} " + SAFE}, token=token)
            self.assertEqual(code, 201, body)
        code, _, _, body = create(SERVER, {"type": "text", "content": SAFE}, token=token)
        self.assertEqual(code, 429, body)
        self.assertIn("retry_after", body)
        self.assertEqual(SERVER.scan(token, "one more")[0], 429)
        _, _, _, usage = SERVER.request("GET", "/api/usage", token=token)
        self.assertEqual((usage["usage"]["today"], usage["remaining"], usage["limit"]), (10, 0, 10))
        self.assertEqual(usage["plan"]["name"], "free")
        _, _, _, plan = SERVER.request("GET", "/api/user/plan", token=token)
        self.assertEqual(plan["remaining"], 0)
        self.assertEqual(plan["usage"]["today"], 10)
        self.assertEqual(plan["subscription"], {"is_subscribed": False, "on_trial": False})

    def test_per_minute_limits_and_polling(self):
        ip = as_client(fresh_ip())
        self.wait_for_fresh_minute(15)
        _, _, _, body = create(SERVER, {"type": "text", "content": SAFE}, headers=ip)
        uuid = body["check"]["uuid"]
        for i in range(9):  # 10 per minute anonymously, the creation included
            code, h, _, _ = SERVER.request("GET", "/api/plans", headers=ip)
            self.assertEqual(code, 200)
            self.assertEqual(int(h["x-ratelimit-remaining"]), 8 - i)
        code, h, _, body = SERVER.request("GET", "/api/plans", headers=ip)
        self.assertEqual(code, 429, body)
        self.assertTrue(0 < body["retry_after"] <= 60)
        self.assertLessEqual(abs(int(h["x-ratelimit-reset"]) - time.time() - body["retry_after"]), 2)
        # Polling has its own allowance: far more than 10 polls still pass.
        for _ in range(61):
            self.assertEqual(SERVER.request("GET", f"/api/checks/{uuid}/status", headers=ip)[0], 200)
        # The webhook is not limited and carries no limit headers.
        code, h, _, _ = SERVER.request("POST", "/api/webhooks/analysis-result/wrong", {}, headers=ip)
        self.assertEqual(code, 404)
        self.assertNotIn("x-ratelimit-limit", h)

    def test_forwarded_for_only_from_trusted_proxy(self):
        server = Server().start()  # trusts nobody
        try:
            for i in range(3):
                code = create(server, {"type": "text", "content": f"{i} {SAFE}"},
                              headers=as_client(f"192.0.2.{i + 1}"))[0]
                self.assertEqual(code, 201)
            code, _, _, body = create(server, {"type": "text", "content": SAFE},
                                      headers=as_client("192.0.2.99"))
            self.assertEqual(code, 429, body)
        finally:
            self.assertEqual(server.stop(), 0)


class Account(unittest.TestCase, Shapes):
    @classmethod
    def setUpClass(cls):
        cls.token = SERVER.user("ada.lovelace@example.com", plan="pro")

    def test_user(self):
        r = SERVER.request("GET", "/api/user")
        self.assert_message(r, 401)
        self.assertEqual(r[1]["www-authenticate"], "Bearer")
        code, h, _, user = SERVER.request("GET", "/api/user", token=self.token)
        self.assertEqual(code, 200)
        self.assert_rate_headers(h, 60)
        self.assertEqual(user["email"], "ada.lovelace@example.com")
        self.assertIsInstance(user["id"], int)
        self.assertRegex(user["email_verified_at"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
        self.assertRegex(user["created_at"], r"Z$")
        self.assertRegex(user["updated_at"], r"Z$")
        self.assertTrue(user["profile_photo_url"].startswith("http://scamcheck.test:9/avatars/"))
        path = user["profile_photo_url"][len("http://scamcheck.test:9"):]
        code, h, data, _ = SERVER.request("GET", path)
        self.assertEqual(code, 200)
        self.assertEqual(h["content-type"], "image/svg+xml")
        self.assertIn(b"<svg", data)
        self.assertIn(b">AL<", data)  # name "ada.lovelace"

    def test_plans(self):
        code, h, _, body = SERVER.request("GET", "/api/plans")
        self.assertEqual(code, 200)
        self.assert_rate_headers(h)
        plans = {p["name"]: p for p in body["plans"]}
        self.assertEqual(set(plans), {"free", "pro", "business"})
        self.assertEqual((plans["free"]["checks_per_day"], plans["free"]["unlimited_checks"],
                          plans["free"]["price_monthly"]), (10, False, "0.00"))
        self.assertEqual((plans["pro"]["unlimited_checks"], plans["pro"]["price_monthly"],
                          plans["pro"]["price_yearly"]), (True, "4.99", "49.00"))
        self.assertEqual(plans["business"]["metered_price_per_1000"], "5.00")
        _, _, _, de = SERVER.request("GET", "/api/plans", headers={"Accept-Language": "de"})
        self.assertEqual(de["plans"][0]["display_name"], "Kostenlos")

    def test_user_plan_and_usage_unlimited(self):
        self.assert_message(SERVER.request("GET", "/api/user/plan"), 401)
        _, _, _, plan = SERVER.request("GET", "/api/user/plan", token=self.token)
        self.assertEqual(plan["plan"]["name"], "pro")
        self.assertIsNone(plan["remaining"])
        self.assertTrue(plan["subscription"]["is_subscribed"])
        _, _, _, usage = SERVER.request("GET", "/api/usage", token=self.token)
        self.assertEqual((usage["remaining"], usage["limit"], usage["is_unlimited"]), (-1, -1, True))
        _, _, _, can = SERVER.request("GET", "/api/usage/can-perform?action=check", token=self.token)
        self.assertEqual(can, {"action": "check", "can_perform": True, "remaining": -1,
                               "limit": -1, "is_unlimited": True})
        for query in ("", "?action=fly"):
            code, _, _, body = SERVER.request("GET", "/api/usage/can-perform" + query, token=self.token)
            self.assertEqual(code, 422)
            self.assertIn("action", body["errors"])

    def test_openapi_lists_check_routes(self):
        _, _, _, doc = SERVER.request("GET", "/docs/api")
        for path in ("/api/checks", "/api/checks/{uuid}/status", "/api/checks/{uuid}", "/api/user",
                     "/api/plans", "/api/user/plan", "/api/usage", "/api/usage/can-perform",
                     "/api/questionnaires", "/api/questionnaires/{slug}",
                     "/api/questionnaires/{slug}/start",
                     "/api/questionnaire-responses/{uuid}/answers",
                     "/api/questionnaire-responses/{uuid}/complete",
                     "/api/webhooks/analysis-result/{secret}"):
            self.assertIn(path, doc["paths"])


class Questionnaires(unittest.TestCase, Shapes):
    def start(self, slug, token=None, headers=None):
        code, _, _, body = SERVER.request("POST", f"/api/questionnaires/{slug}/start", token=token,
                                          headers=headers or self.ip)
        self.assertEqual(code, 201, body)
        self.assertRegex(body["response"]["started_at"], r"Z$")
        return body["response"]["uuid"]

    def setUp(self):
        self.ip = as_client(fresh_ip())  # anonymous: 10 requests per minute per client

    def answer_all(self, slug, yes):
        _, _, _, q = SERVER.request("GET", f"/api/questionnaires/{slug}", headers=self.ip)
        answers = []
        for question in q["questions"]:
            if question["type"] == "yes_no":
                answers.append({"question_id": question["id"], "value": "yes" if yes else "no"})
            else:
                answers.append({"question_id": question["id"],
                                "value": question["options"][0]["value"]})
        return q, answers

    def test_list_and_get(self):
        code, h, _, body = SERVER.request("GET", "/api/questionnaires", headers=self.ip)
        self.assertEqual(code, 200)
        slugs = [q["slug"] for q in body["questionnaires"]]
        self.assertIn("was-i-phished", slugs)
        self.assertIn("investment-scam", slugs)
        for q in body["questionnaires"]:
            self.assertIsInstance(q["estimated_duration"], int)
            self.assertTrue(q["title"] and q["category"])
        _, _, _, de = SERVER.request("GET", "/api/questionnaires/was-i-phished",
                                     headers=as_client(fresh_ip(), {"Accept-Language": "de"}))
        self.assertEqual(de["title"], "Wurde ich gephisht?")
        self.assertTrue(all(q["options"] for q in de["questions"]))
        self.assertIn({"value": "yes", "label": "Ja"}, de["questions"][1]["options"])
        self.assert_message(SERVER.request("GET", "/api/questionnaires/nope", headers=self.ip), 404)
        self.assert_message(SERVER.request("GET", "/api/questionnaires/Bad_Slug!", headers=self.ip),
                            404)

    def test_all_yes_is_danger_all_no_is_safe(self):
        for slug in ("was-i-phished", "investment-scam"):
            for yes, level, color in ((True, "danger", "red"), (False, "safe", "green")):
                self.ip = as_client(fresh_ip())
                uuid = self.start(slug, headers=as_client(self.ip["X-Forwarded-For"],
                                                          {"Accept-Language": "de"}))
                q, answers = self.answer_all(slug, yes)
                code, _, _, progress = SERVER.request(
                    "POST", f"/api/questionnaire-responses/{uuid}/answers", {"answers": answers},
                    headers=self.ip)
                self.assertEqual(code, 200, progress)
                self.assertEqual(progress, {"answered": len(q["questions"]), "remaining": 0})
                code, _, _, result = SERVER.request(
                    "POST", f"/api/questionnaire-responses/{uuid}/complete", headers=self.ip)
                self.assertEqual(code, 200, result)
                self.assertEqual((result["risk_level"], result["risk_color"]), (level, color), slug)
                self.assertTrue(result["advice"])
                self.assertEqual(result["risk_text"], "Gefährlich" if yes else "Wirkt sicher")
                again = SERVER.request("POST", f"/api/questionnaire-responses/{uuid}/complete",
                                       headers=self.ip)
                self.assertEqual(again[3], result)
                self.assert_message(SERVER.request(
                    "POST", f"/api/questionnaire-responses/{uuid}/answers", {"answers": answers},
                    headers=self.ip), 409)

    def test_answers_in_several_calls_and_validation(self):
        uuid = self.start("was-i-phished")
        path = f"/api/questionnaire-responses/{uuid}/answers"
        _, _, _, progress = SERVER.request("POST", path, headers=self.ip, body={"answers": [
            {"question_id": "clicked_link", "value": "yes"}]})
        self.assertEqual(progress["answered"], 1)
        _, _, _, progress = SERVER.request("POST", path, headers=self.ip, body={"answers": [
            {"question_id": "clicked_link", "value": False},
            {"question_id": "sent_money", "value": "no"}]})
        self.assertEqual(progress["answered"], 2)
        self.assertEqual(progress["remaining"], 5)
        code, _, _, body = SERVER.request("POST", f"/api/questionnaire-responses/{uuid}/complete",
                                          headers=self.ip)
        self.assertEqual(code, 422)
        self.assertIn("answers", body["errors"])
        for answers, field in (([{"question_id": "nope", "value": "yes"}], "answers.0.question_id"),
                               ([{"question_id": "channel", "value": "pigeon"}], "answers.0.value"),
                               ([{"question_id": "sent_money", "value": "maybe"}], "answers.0.value"),
                               ([], "answers")):
            code, _, _, body = SERVER.request("POST", path, {"answers": answers}, headers=self.ip)
            self.assertEqual(code, 422, answers)
            self.assertIn(field, body["errors"])
        self.assert_message(SERVER.request(
            "POST", "/api/questionnaire-responses/00000000-0000-4000-8000-000000000000/complete",
            headers=as_client(fresh_ip())), 404)

    def test_session_of_a_user_is_private(self):
        alice = SERVER.user("q-alice@example.com")
        uuid = self.start("investment-scam", token=alice)
        self.assert_message(SERVER.request("POST", f"/api/questionnaire-responses/{uuid}/complete",
                                           headers=self.ip), 404)
        code, _, _, _ = SERVER.request("POST", f"/api/questionnaire-responses/{uuid}/complete", token=alice)
        self.assertEqual(code, 422)


class Webhook(unittest.TestCase, Shapes):
    def rotate(self, server):
        code, out, err = server.cli("webhook", "rotate-secret")
        self.assertEqual(code, 0, err)
        self.assertRegex(out.strip(), r"^[A-Za-z0-9_-]{43}$")
        return out.strip()

    def test_secrets_rotate_and_results_are_checked(self):
        _, _, _, body = create(SERVER, {"type": "text", "content": SAFE}, headers=as_client(fresh_ip()))
        done = body["check"]["uuid"]
        wait_complete(SERVER, done)
        first = self.rotate(SERVER)
        second = self.rotate(SERVER)
        third = self.rotate(SERVER)
        result = {"check_uuid": done, "risk_level": "warning", "risk_score": 50,
                  "explanation": "x", "indicators": []}
        hook = "/api/webhooks/analysis-result/"
        self.assert_message(SERVER.request("POST", hook + first, result), 404)
        for secret in (second, third):  # previous and current
            self.assert_message(SERVER.request("POST", hook + secret, result), 409)
        unknown = dict(result, check_uuid="00000000-0000-4000-8000-000000000000")
        self.assert_message(SERVER.request("POST", hook + third, unknown), 404)
        for bad, field in ((dict(result, risk_level="safe"), "risk_level"),
                           (dict(result, risk_score=101), "risk_score"),
                           (dict(result, risk_score="50"), "risk_score"),
                           (dict(result, indicators="x"), "indicators"),
                           ({k: v for k, v in result.items() if k != "explanation"}, "explanation"),
                           (dict(result, check_uuid="123"), "check_uuid")):
            code, _, _, body = SERVER.request("POST", hook + third, bad)
            self.assertEqual(code, 422, bad)
            self.assertIn(field, body["errors"])
        self.assert_message(SERVER.request("POST", hook + third, b"{", headers={"Content-Type": JSON_CT}), 400)
        _, _, _, d = SERVER.request("GET", f"/api/checks/{done}")
        self.assertNotEqual(d["ai_explanation"], "x")  # nothing changed
        time.sleep(0.2)
        log = SERVER.read_log()
        for secret in (first, second, third):
            self.assertNotIn(secret, log)


class Workflow(unittest.TestCase, Shapes):
    def run_with(self, mode, timeout="3", **kw):
        wf = WorkflowStandIn(mode, on_response=base.record, **kw).__enter__()
        server = Server("--workflow-url", wf.url, "--analysis-timeout", timeout).start()
        return wf, server

    def finish(self, wf, server):
        wf.__exit__(None, None, None)
        self.assertEqual(server.stop(), 0)

    def test_workflow_answers(self):
        wf, server = self.run_with("answer", delay=0.3, score=88)
        try:
            token = server.user("wf@example.com", plan="pro")
            _, _, _, body = create(server, {"type": "link", "url": "https://example.com/a",
                                            "content": "ctx", "locale": "de"}, token=token)
            uuid = body["check"]["uuid"]
            status = wait_complete(server, uuid, token=token)
            self.assertEqual(status["risk_level"], "danger")
            sent = wf.dispatches[0]
            self.assertEqual(set(sent), {"check_uuid", "type", "content", "url", "locale", "callback_url"})
            self.assertEqual((sent["check_uuid"], sent["type"], sent["content"], sent["url"], sent["locale"]),
                             (uuid, "link", "ctx", "https://example.com/a", "de"))
            self.assertRegex(sent["callback_url"],
                             r"^http://127\.0\.0\.1:\d+/api/webhooks/analysis-result/[A-Za-z0-9_-]{43}$")
            _, _, _, d = server.request("GET", f"/api/checks/{uuid}", token=token)
            self.assertEqual((d["risk_score"], d["ai_explanation"], d["risk_text"]),
                             (88, "Workflow says: danger", "Gefährlich"))
            self.assertEqual(d["ai_indicators"], ["workflow indicator one", "workflow indicator two"])
            # The check completes when the server stores the result, a moment
            # before the stand-in has read the server's answer to its POST.
            self.assertTrue(wf.wait_for(lambda w: w.callbacks))
            self.assertEqual(wf.callbacks[0][0], 200)
            secret = sent["callback_url"].rsplit("/", 1)[1]
            self.assertNotIn(secret, server.read_log())
        finally:
            self.finish(wf, server)

    def test_answers_twice_second_is_409(self):
        wf, server = self.run_with("twice", delay=0.1, score=40)
        try:
            _, _, _, body = create(server, {"type": "text", "content": SAFE})
            uuid = body["check"]["uuid"]
            self.assertTrue(wf.wait_for(lambda w: len(w.callbacks) == 2))
            self.assertEqual([c[0] for c in wf.callbacks], [200, 409])
            self.assertEqual(wait_complete(server, uuid)["risk_level"], "warning")
        finally:
            self.finish(wf, server)

    def test_silent_or_inconsistent_or_late_workflow_falls_back_to_local(self):
        for mode, kw in (("never", {}), ("inconsistent", {"delay": 0.1}), ("late", {"delay": 3.5})):
            wf, server = self.run_with(mode, timeout="2", **kw)
            try:
                start = time.monotonic()
                _, _, _, body = create(server, {"type": "text", "content": SCAM})
                uuid = body["check"]["uuid"]
                status = wait_complete(server, uuid, timeout=10)
                self.assertEqual(status["status"], "completed", mode)
                self.assertGreater(time.monotonic() - start, 1.5, mode)  # waited for the workflow
                _, _, _, d = server.request("GET", f"/api/checks/{uuid}")
                self.assertEqual(d["risk_level"], "danger")
                self.assertNotIn("Workflow says", d["ai_explanation"])
                if mode == "inconsistent":
                    self.assertTrue(wf.wait_for(lambda w: w.callbacks))
                    self.assertEqual(wf.callbacks[0][0], 422)
                if mode == "late":
                    self.assertTrue(wf.wait_for(lambda w: w.callbacks, timeout=5))
                    self.assertEqual(wf.callbacks[0][0], 409)
            finally:
                self.finish(wf, server)

    def test_unreachable_workflow_analyses_at_once(self):
        server = Server("--workflow-url", "http://127.0.0.1:9/none", "--analysis-timeout", "30").start()
        try:
            _, _, _, body = create(server, {"type": "text", "content": SCAM})
            self.assertEqual(wait_complete(server, body["check"]["uuid"], timeout=10)["status"], "completed")
        finally:
            self.assertEqual(server.stop(), 0)


class Durability(unittest.TestCase):
    def test_sigkill_during_dispatch_finishes_after_restart(self):
        with WorkflowStandIn("hang") as wf:
            server = Server("--workflow-url", wf.url, "--analysis-timeout", "4").start()
            _, _, _, body = create(server, {"type": "text", "content": SCAM})
            uuid = body["check"]["uuid"]
            self.assertTrue(wf.wait_for(lambda w: w.dispatches, timeout=5))
            server.stop(signal.SIGKILL)  # the worker holds the check's lease
            row = base.db_query(server, "SELECT status, claimed_by IS NOT NULL FROM checks "
                                "WHERE uuid = ?", (uuid,))[0]
            self.assertEqual(row, ("processing", 1))
            start = time.monotonic()
            again = Server("--analysis-timeout", "4", db_dir=server.dir).start()
            try:
                status = wait_complete(again, uuid, timeout=15)
                self.assertEqual(status["status"], "completed")
                self.assertLess(time.monotonic() - start, 4 + 3)
            finally:
                self.assertEqual(again.stop(), 0)

    def test_sigkill_while_waiting_for_workflow(self):
        with WorkflowStandIn("never") as wf:
            server = Server("--workflow-url", wf.url, "--analysis-timeout", "3").start()
            _, _, _, body = create(server, {"type": "email", "content": "Subject: hi\r\n\r\n" + SCAM})
            uuid = body["check"]["uuid"]
            self.assertTrue(wf.wait_for(lambda w: w.dispatches, timeout=5))
            time.sleep(0.3)
            server.stop(signal.SIGKILL)
            again = Server("--workflow-url", wf.url, "--analysis-timeout", "3", db_dir=server.dir).start()
            try:
                self.assertEqual(wait_complete(again, uuid, timeout=10)["status"], "completed")
                self.assertEqual(len(wf.dispatches), 1)  # not sent twice
            finally:
                self.assertEqual(again.stop(), 0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--record", help="append every response here (JSON Lines)")
    parser.add_argument("--database", help="sqlite (default) or postgresql:CLUSTER_DIR")
    args, rest = parser.parse_known_args()
    base.configure_database(args.database)
    base.BINARY = os.path.abspath(args.binary)
    base.RECORD = args.record
    if base.RECORD and os.path.exists(base.RECORD):
        os.remove(base.RECORD)
    unittest.main(argv=[sys.argv[0], "-v", *rest])


if __name__ == "__main__":
    main()
