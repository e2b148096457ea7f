"""Tests of the Python binding against the built libscamcheck_c (run by CTest
with SCAMCHECK_C_LIBRARY pointing at it)."""
import sys
import threading
import unittest

import scamcheck

SCAM = ("Your parcel is on hold at the depot. Pay the 1.99 EUR customs fee today at "
        "https://dhl-track.example.top/pay or it goes back to the sender.")


class BindingTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.analyzer = scamcheck.Analyzer()

    def test_report(self):
        report = self.analyzer.analyze(SCAM)
        self.assertEqual(report["verdict"], "danger")
        for signal in report["signals"]:  # evidence is the input at its span
            span = signal["span"]
            self.assertEqual(SCAM.encode()[span["start"]:span["end"]].decode(),
                             signal["evidence"])

    def test_kinds_and_locale(self):
        self.assertEqual(self.analyzer.analyze("https://example.org/", kind="url")["kind"], "url")
        self.assertEqual(self.analyzer.analyze(SCAM, locale="de")["locale"], "de")
        mail = (b"From: Bank <a@bank-secure.example.top>\r\nSubject: Konto\r\n"
                b"Content-Type: text/plain; charset=iso-8859-1\r\n\r\nBest\xe4tigen Sie\r\n")
        self.assertEqual(self.analyzer.analyze(mail, kind="email")["kind"], "email")

    def test_errors(self):
        for content, kind, code in (("", "text", "invalid_argument"),
                                    (b"\xff\xfe", "text", "invalid_argument"),
                                    ("hi", "video", "invalid_argument"),
                                    ("a" * 65537, "text", "out_of_range")):
            with self.assertRaises(scamcheck.Error) as caught:
                self.analyzer.analyze(content, kind=kind)
            self.assertEqual(caught.exception.code, code)
        with self.assertRaises(scamcheck.Error) as caught:
            scamcheck.Analyzer(use_modle=False)
        self.assertIn("unknown option", caught.exception.message)

    def test_options_and_threads(self):
        with scamcheck.Analyzer(use_model=False) as rules_only:
            verdicts = []
            threads = [threading.Thread(target=lambda: verdicts.append(
                rules_only.analyze(SCAM)["verdict"])) for _ in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            self.assertEqual(verdicts, ["danger"] * 4)
        self.assertTrue(scamcheck.version())


if __name__ == "__main__":
    sys.exit(unittest.main())
