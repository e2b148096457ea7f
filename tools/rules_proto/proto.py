#!/usr/bin/env python3
"""Prototype evaluator for libscamcheck/data/rules/text.json (dev tool, not shipped).

Approximates the library's text stage with Python's `re`:
  * normalization: NFKC + casefold, default-ignorable code points removed,
    typographic dashes/quotes/spaces lumped to ASCII (like utf8proc LUMP);
  * every rule runs on the normalized text (re.ASCII, so \\b \\w \\d \\s are
    ASCII-only as in RE2); the first match (or group 1) is the evidence;
  * scoring per /tmp/scoring-and-rules-format.md: rule weight or key default,
    per key strongest + 25 % of each further finding (capped at 2x strongest),
    requires_context rules count only next to a non-context finding of weight
    >= 10, score = round(100 * (1 - exp(-total / 50))), flagged = score >= 30,
    danger = score >= 70.
URL signals are not modelled (a link to an unknown domain adds nothing).

Usage (from the repository root):
  python3 tools/rules_proto/proto.py                 # train split, summary
  python3 tools/rules_proto/proto.py --split dev     # dev split (report only!)
  python3 tools/rules_proto/proto.py --rules-table   # per-rule hits (train)
  python3 tools/rules_proto/proto.py --show fp,fn --corpus sms_spam_collection
  python3 tools/rules_proto/proto.py --check         # examples + syntax only
  python3 tools/rules_proto/proto.py --text "Hi Mum, this is my new number"
"""

import argparse
import collections
import json
import math
import os
import re
import sys
import unicodedata

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DEFAULT_RULES = os.path.join(REPO, "libscamcheck", "data", "rules", "text.json")
DEFAULT_GLOSSARY = os.path.join(REPO, "libscamcheck", "data", "glossary.json")
DEFAULT_SCORING = os.path.join(REPO, "libscamcheck", "data", "scoring.json")
DEFAULT_CORPUS = os.path.abspath(os.path.join(REPO, "..", "shared", "corpus"))
FIXTURES = os.path.join(REPO, "tests", "fixtures")

SMS_CORPORA = ["sms_spam_collection", "sms_smishing_mishra_soni"]
EMAIL_CORPORA = ["spamassassin", "nazario_phishing", "phishing_pot", "phishing_pot_de"]

# Fallback weights when data/scoring.json is absent (values from the lead's
# scoring note): by glossary severity, with two key overrides.
SEVERITY_WEIGHT = {"high": 40, "medium": 20, "low": 8}
KEY_WEIGHT_OVERRIDE = {"marketing_spam": 12, "urgency": 10}
CONTEXT_MIN_WEIGHT = 10
SAME_KEY_FACTOR = 0.25

# Harmless German (and a few English) texts written for this prototype; none
# may be flagged. They use the words the German rules look for, in everyday
# contexts: parcels, banks, family, codes, jobs, money between friends.
LEGIT_EXTRA = [
    "Hallo Mama, ich bin gut angekommen. Das Hotel ist schön, melde mich morgen!",
    "Papa, kannst du mich um 18 Uhr vom Bahnhof abholen? Mein Akku ist gleich leer.",
    "Mein Handy ist kaputt, ich schreibe dir vom Laptop. Treffen wir uns trotzdem um 8?",
    "Ich habe eine neue Nummer, die alte Karte ist abgelaufen. Grüße, Jonas",
    "Dein Paket wurde heute um 10:14 Uhr an deinen Nachbarn zugestellt.",
    "Ihre Sendung 00340434161234567890 wird heute zwischen 12 und 15 Uhr zugestellt.",
    "Kannst du mir die 20 Euro fürs Kino zurücküberweisen? Kein Stress.",
    "Ich überweise dir das Geld für die Konzertkarten heute Abend.",
    "Die Sparkasse hat am Montag wegen Umbau geschlossen, ich gehe zur Filiale am Markt.",
    "Dein Bestätigungscode für die Anmeldung lautet 482913. Gib ihn niemals an Dritte weiter.",
    "Ihr Termin beim Bürgeramt am 12.03. um 9:30 Uhr ist bestätigt.",
    "Die Rechnung vom Zahnarzt habe ich bezahlt, die Mahnung war ein Irrtum der Praxis.",
    "Wir haben beim Tippspiel im Büro gewonnen! Heute Abend gibt es Pizza.",
    "Herzlichen Glückwunsch zur bestandenen Prüfung! Du hast es dir verdient.",
    "Ich arbeite morgen von zu Hause, ruf mich einfach auf dem Handy an.",
    "Die Polizei hat die Straße wegen des Marathons gesperrt, nimm lieber die U-Bahn.",
    "Das Finanzamt hat meinen Steuerbescheid geschickt, ich bekomme 230 Euro zurück.",
    "Kannst du mir kurz den Code vom Fahrradschloss schicken? Ich steh davor.",
    "Meine Bankverbindung hat sich nicht geändert, du kannst wie immer überweisen.",
    "Bitte vergiss nicht, dein Passwort für das WLAN im Büro zu ändern.",
    "Oma hat gefragt, ob du am Sonntag zum Kaffee kommst. Sie backt Kuchen.",
    "Der Zoll hat mein Paket aus den USA noch nicht freigegeben, das dauert wohl.",
    "Mein Konto bei der Bibliothek ist gesperrt, weil ich die Bücher zu spät zurückgebracht habe.",
    "Schick mir bitte deine neue Adresse, dann kommt die Einladung zur Hochzeit.",
    "Der Kurs kostet 1,99 EUR pro Monat, ich habe ihn aber schon gekündigt.",
    "Wir haben die Wohnung! Die Kaution überweisen wir nächste Woche.",
    "Lies dir die AGB durch, bevor du den Handyvertrag unterschreibst.",
    "Neuer Nebenjob im Café: 12 Euro die Stunde, zwei Abende pro Woche. Hast du Lust?",
    "Hi Mum, I'm on the train, see you at 6. Love you!",
    "I've got a new phone, same number though. Call me later.",
    "My bank card got blocked abroad so I called them and it's fine now.",
    # Near misses of the SMS-marketing rules (offers, quizzes, content, jobs).
    "Your order worth £45 has been dispatched. Questions? Call 0800 123 4567.",
    "We're hiring at the café again, tell your brother to call me on 07700 900123.",
    "The best quality photos from the wedding are on the drive, call me on 07700 900123 if it fails.",
    "Quiz night answer sheet: send A, B or C to Tom by 9pm, winner buys the drinks!",
    "My colleague tested positive for covid, so I'm working from home this week.",
    "The NHS app says someone I was in contact with tested positive, so I'm isolating.",
    "The gas bill is overdue, can you pay it today? I'll transfer you my half tonight.",
    "Your video will be sent to you once the photographer has finished editing.",
    "The girls are waiting for you at the restaurant, hurry up!",
    "Is the new Harry Potter game any good? I might download it this weekend.",
    "Reply YES to confirm your appointment on Monday or call us on 01632 960123.",
    "Text me when you get to 1234 Main Street, I'll come down.",
    "Hurry up! The film starts at 8.",
]


# --------------------------------------------------------------------------
# Normalization (approximation of libscamcheck/src/normalize)

_LUMP = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u02bc": "'", "\u00b4": "'", "\u0060": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
    "\u00ab": '"', "\u00bb": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-",
    "\u2015": "-", "\u2212": "-", "\u2043": "-",
    "\u2044": "/", "\u2215": "/", "\u2236": ":", "\u2039": "<", "\u203a": ">",
    "\u2223": "|", "\u2028": "\n", "\u2029": "\n", "\u00a0": " ",
}


def _is_ignorable(ch):
    cp = ord(ch)
    if unicodedata.category(ch) == "Cf" and ch not in "\u0600\u0601\u0602\u0603\u06dd":
        return True
    return cp == 0x00AD or 0xFE00 <= cp <= 0xFE0F or cp == 0x034F or 0xE0000 <= cp <= 0xE0FFF


def normalize(text):
    s = unicodedata.normalize("NFKC", text)
    s = "".join(_LUMP.get(ch, ch) for ch in s if not _is_ignorable(ch))
    s = s.casefold()
    s = "".join(" " if (unicodedata.category(ch) == "Zs") else ch for ch in s)
    return unicodedata.normalize("NFC", s)


# --------------------------------------------------------------------------
# Pattern translation RE2 -> Python re (only what the rule file uses)

_RE2_FORBIDDEN = [
    (re.compile(r"\(\?[=!]"), "lookahead"),
    (re.compile(r"\(\?<[=!]"), "lookbehind"),
    (re.compile(r"\(\?>"), "atomic group"),
    (re.compile(r"\\[1-9]"), "backreference"),
    (re.compile(r"\(\?P="), "named backreference"),
    (re.compile(r"(?<!\\)[*+?}]\+"), "possessive quantifier"),
]
_LETTER_RANGES = "a-zA-Z\u00aa\u00b5\u00ba\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u0370-\u03ff\u0400-\u04ff"


def re2_problems(pattern):
    problems = [name for rx, name in _RE2_FORBIDDEN if rx.search(pattern)]
    for m in re.finditer(r"\{(\d+)(?:,(\d*))?\}", pattern):
        hi = m.group(2) or m.group(1)
        if hi and int(hi) > 100:
            problems.append("counted repetition above 100 (%s)" % m.group(0))
    for m in re.finditer(r"\\b\(\?:([^()]*)\)", pattern):
        if any(alt[:1] in "äöü" for alt in m.group(1).split("|")):
            problems.append("\\b before a word starting with an umlaut: " + m.group(0)[:40])
    if re.search(r"\\b[äöü]", pattern):
        problems.append("\\b before an umlaut")
    for m in re.finditer(r"\{0,(\d+)\}", pattern):
        if int(m.group(1)) > 6:
            problems.append("long gap {0,%s} (DFA cost)" % m.group(1))
    if "[^a-zäöü" in pattern:
        problems.append("consuming boundary class [^a-zäöü...] (DFA cost; use \\b)")
    if pattern.startswith(".*") or pattern.endswith(".*"):
        problems.append("leading/trailing .*")
    return problems


def to_python(pattern):
    """Translates \\pL / \\p{L} (unsupported by `re`) into explicit ranges."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            if nxt == "p" or nxt == "P":
                if pattern.startswith("{L}", i + 2):
                    length = 5
                elif i + 2 < len(pattern) and pattern[i + 2] == "L":
                    length = 3
                else:
                    raise ValueError("unsupported \\p class in %r" % pattern)
                neg = nxt == "P"
                if in_class:
                    if neg:
                        raise ValueError("\\PL inside a class is not supported by proto")
                    out.append(_LETTER_RANGES)
                else:
                    out.append(("[^%s]" if neg else "[%s]") % _LETTER_RANGES)
                i += length
                continue
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if c == "[" and not in_class:
            in_class = True
            out.append(c)
            i += 1
            if i < len(pattern) and pattern[i] == "^":
                out.append("^")
                i += 1
            if i < len(pattern) and pattern[i] == "]":
                out.append("\\]")
                i += 1
            continue
        if c == "]" and in_class:
            in_class = False
        out.append(c)
        i += 1
    return "".join(out)


# --------------------------------------------------------------------------
# Rules and scoring

class Rule:
    def __init__(self, d, key_weights):
        self.id = d["id"]
        self.key = d["key"]
        self.pattern = d["pattern"]
        self.weight = float(d.get("weight", key_weights.get(self.key, 0)))
        self.requires_context = bool(d.get("requires_context", False))
        self.examples = d.get("examples", {})
        self.rx = re.compile(to_python(self.pattern), re.ASCII)

    def find(self, norm):
        m = self.rx.search(norm)
        if not m:
            return None
        if m.re.groups >= 1 and m.group(1) is not None and m.start(1) < m.end(1):
            return m.start(1), m.end(1)
        return m.start(), m.end()


def load_key_weights(glossary_path, scoring_path):
    weights = {}
    with open(glossary_path, encoding="utf-8") as f:
        for s in json.load(f)["signals"]:
            weights[s["key"]] = SEVERITY_WEIGHT.get(s.get("default_severity", "low"), 8)
    weights.update(KEY_WEIGHT_OVERRIDE)
    if os.path.exists(scoring_path):
        with open(scoring_path, encoding="utf-8") as f:
            sc = json.load(f)
        for k, v in sc.get("weights", {}).items():
            if isinstance(v, (int, float)):
                weights[k] = v
    return weights


def load_rules(path, key_weights):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    return [Rule(d, key_weights) for d in data["rules"]]


def analyze(text, rules):
    """Returns (score, total, findings) with findings [(rule, start, end)] into norm."""
    norm = normalize(text)
    hits = []
    for r in rules:
        span = r.find(norm)
        if span:
            hits.append((r, span[0], span[1]))
    has_context = any(not r.requires_context and r.weight >= CONTEXT_MIN_WEIGHT for r, _, _ in hits)
    hits = [h for h in hits if has_context or not h[0].requires_context]
    by_key = collections.defaultdict(list)
    for r, _, _ in hits:
        by_key[r.key].append(r.weight)
    total = 0.0
    for ws in by_key.values():
        ws.sort(reverse=True)
        total += min(ws[0] + SAME_KEY_FACTOR * sum(ws[1:]), 2 * ws[0])
    score = round(100 * (1 - math.exp(-total / 50)))
    return score, total, hits, norm


def verdict(score):
    return "danger" if score >= 70 else ("suspicious" if score >= 30 else "safe")


# --------------------------------------------------------------------------
# Data

def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def email_body(raw):
    """Subject + decoded text parts (HTML tags stripped), roughly what the email stage feeds the rules."""
    import email
    import email.policy
    import html
    msg = email.message_from_string(raw, policy=email.policy.default)
    parts = [str(msg.get("subject", ""))]
    for part in msg.walk():
        ctype = part.get_content_type()
        if ctype not in ("text/plain", "text/html"):
            continue
        try:
            body = part.get_content()
        except Exception:  # broken charset or encoding: take the raw payload
            body = part.get_payload(decode=False)
            if not isinstance(body, str):
                continue
        if ctype == "text/html":
            body = re.sub(r"(?is)<(script|style).*?</\1>", " ", body)
            body = html.unescape(re.sub(r"(?s)<[^>]+>", " ", body))
        parts.append(body)
    return "\n".join(parts)[:65536]


def mcc(tp, fp, tn, fn):
    den = math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    return (tp * tn - fp * fn) / den if den else 0.0


# --------------------------------------------------------------------------
# Commands

def check_rules(rules, glossary_keys):
    errors = 0
    seen = set()
    for r in rules:
        def err(msg):
            nonlocal errors
            errors += 1
            print("ERROR %s: %s" % (r.id, msg))
        if r.id in seen:
            err("duplicate id")
        seen.add(r.id)
        if r.key not in glossary_keys:
            err("key %r not in glossary" % r.key)
        if not re.fullmatch(r"(en|de|any)\.[a-z_]+\.[a-z0-9_]+", r.id):
            err("id does not follow <lang>.<category>.<name>")
        for p in re2_problems(r.pattern):
            err("not RE2-friendly: " + p)
        if r.pattern != r.pattern.lower() and not re.search(r"\\[A-Z]", r.pattern):
            err("pattern has upper-case letters (text is case-folded)")
        ex = r.examples
        if not ex.get("match") or not ex.get("no_match"):
            err("needs >= 1 match and >= 1 no_match example")
        for s in ex.get("match", []):
            if not r.find(normalize(s)):
                err("match example does not match: %r" % s)
        for s in ex.get("no_match", []):
            if r.find(normalize(s)):
                err("no_match example matches: %r" % s)
    print("%d rules checked, %d errors" % (len(rules), errors))
    return errors


def describe(hits, norm, text_width=60):
    return "; ".join("%s[%s]=%r" % (r.id, int(r.weight), norm[s:e][:text_width]) for r, s, e in hits)


def evaluate(records, rules, is_pos):
    tp = fp = tn = fn = 0
    danger_ham = 0
    rule_ham = collections.Counter()
    rule_pos = collections.Counter()
    rows = []
    for rec in records:
        score, total, hits, norm = analyze(rec["_text"], rules)
        pos = is_pos(rec)
        flagged = score >= 30
        for r, _, _ in hits:
            (rule_pos if pos else rule_ham)[r.id] += 1
        if pos and flagged:
            tp += 1
        elif pos:
            fn += 1
        elif flagged:
            fp += 1
            danger_ham += score >= 70
        else:
            tn += 1
        rows.append((rec, pos, score, hits, norm))
    return dict(tp=tp, fp=fp, tn=tn, fn=fn, danger_ham=danger_ham,
                rule_ham=rule_ham, rule_pos=rule_pos, rows=rows)


def grep(pattern, corpus_dir, split, corpora, shown=8):
    """Vets a candidate pattern before it becomes a rule: hits on ham first."""
    rx = re.compile(to_python(pattern), re.ASCII)
    groups = []
    for name in corpora:
        records = read_jsonl(os.path.join(corpus_dir, name, split + ".jsonl"))
        groups.append((name + " ham", [r["text"] for r in records if r["label"] == "ham"]))
        groups.append((name + " spam/scam", [r["text"] for r in records if r["label"] != "ham"]))
    legit = list(LEGIT_EXTRA)
    for lang in ("en", "de"):
        p = os.path.join(FIXTURES, "legit_text_%s.jsonl" % lang)
        if os.path.exists(p):
            legit += [r.get("text", "") for r in read_jsonl(p)]
    groups.append(("legit texts", legit))
    for label, texts in groups:
        hits = []
        for t in texts:
            m = rx.search(normalize(t))
            if m:
                hits.append((m.group(0), t))
        print("%-36s %5d hits" % (label, len(hits)))
        for ev, t in hits[:shown]:
            print("    <%s> %s" % (ev[:40], t[:140].replace("\n", " ")))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", default=DEFAULT_RULES)
    ap.add_argument("--corpus-dir", default=DEFAULT_CORPUS)
    ap.add_argument("--split", default="train", choices=["train", "dev"])
    ap.add_argument("--corpus", action="append", help="limit to these corpora (repeatable)")
    ap.add_argument("--emails", action="store_true", help="also run the e-mail corpora (decoded bodies)")
    ap.add_argument("--check", action="store_true", help="only check examples and syntax")
    ap.add_argument("--rules-table", action="store_true", help="per-rule hit counts ham vs spam/scam")
    ap.add_argument("--show", default="", help="comma list of fp,fn,tp,scam to print messages")
    ap.add_argument("--text", action="append", help="analyse this text and print findings")
    ap.add_argument("--grep", metavar="PATTERN",
                    help="where a candidate pattern matches: ham vs spam/scam of the SMS corpora and the legit texts")
    args = ap.parse_args()

    key_weights = load_key_weights(DEFAULT_GLOSSARY, DEFAULT_SCORING)
    rules = load_rules(args.rules, key_weights)
    with open(DEFAULT_GLOSSARY, encoding="utf-8") as f:
        glossary_keys = {s["key"] for s in json.load(f)["signals"]}

    if args.grep:
        return grep(args.grep, args.corpus_dir, args.split, args.corpus or SMS_CORPORA)

    if args.text:
        for t in args.text:
            score, total, hits, norm = analyze(t, rules)
            print("%3d %-10s total=%.1f  %s" % (score, verdict(score), total, describe(hits, norm)))
        return 0

    errors = check_rules(rules, glossary_keys)
    if args.check:
        return 1 if errors else 0

    show = set(filter(None, args.show.split(",")))
    corpora = args.corpus or (SMS_CORPORA + (EMAIL_CORPORA if args.emails else []))
    rule_ham_total = collections.Counter()
    rule_pos_total = collections.Counter()
    print("\n%-26s %6s %6s %7s %7s %7s %6s %6s" % ("corpus/" + args.split, "ham", "pos", "FPR%", "recall%", "prec%", "MCC", "dngHam"))
    for name in corpora:
        path = os.path.join(args.corpus_dir, name, args.split + ".jsonl")
        records = read_jsonl(path)
        for rec in records:
            rec["_text"] = email_body(rec["text"]) if rec.get("kind") == "email" else rec["text"]
        res = evaluate(records, rules, lambda r: r["label"] != "ham")
        tp, fp, tn, fn = res["tp"], res["fp"], res["tn"], res["fn"]
        ham, pos = fp + tn, tp + fn
        print("%-26s %6d %6d %7.2f %7.2f %7.2f %6.3f %6d" % (
            name, ham, pos, 100.0 * fp / ham if ham else 0, 100.0 * tp / pos if pos else 0,
            100.0 * tp / (tp + fp) if tp + fp else 0, mcc(tp, fp, tn, fn), res["danger_ham"]))
        rule_ham_total.update(res["rule_ham"])
        rule_pos_total.update(res["rule_pos"])
        for rec, p, score, hits, norm in res["rows"]:
            flagged = score >= 30
            kind = ("tp" if flagged else "fn") if p else ("fp" if flagged else "tn")
            if kind in show:
                print("  %s %3d %s | %s\n      -> %s" % (kind.upper(), score, rec["label"],
                      rec["_text"][:300].replace("\n", " "), describe(hits, norm)))

    # Our own legitimate texts.
    legit = [("proto-extra", t) for t in LEGIT_EXTRA]
    for lang in ("en", "de"):
        p = os.path.join(FIXTURES, "legit_text_%s.jsonl" % lang)
        if os.path.exists(p):
            for rec in read_jsonl(p):
                t = rec.get("text") or rec.get("content") or ""
                if t:
                    legit.append(("legit_text_" + lang, t))
    counts = collections.defaultdict(collections.Counter)
    for src, t in legit:
        score, total, hits, norm = analyze(t, rules)
        counts[src][verdict(score)] += 1
        for r, _, _ in hits:
            rule_ham_total[r.id] += 1
        if score >= 30 or (src == "proto-extra" and hits):
            print("  LEGIT %-15s %3d %-10s %s\n      -> %s" % (src, score, verdict(score), t[:160], describe(hits, norm)))
    for src, c in counts.items():
        n = sum(c.values())
        print("%-26s n=%d safe=%d suspicious=%d (%.1f%%) danger=%d" % (
            src, n, c["safe"], c["suspicious"], 100.0 * c["suspicious"] / n, c["danger"]))

    # Our own scam fixtures: a sanity recall check (too few to tune on).
    scam_path = os.path.join(FIXTURES, "scam_text.jsonl")
    if os.path.exists(scam_path):
        c = collections.Counter()
        for rec in read_jsonl(scam_path):
            score, total, hits, norm = analyze(rec["text"], rules)
            c[verdict(score)] += 1
            for r, _, _ in hits:
                rule_pos_total[r.id] += 1
            if score < 30 or "scam" in show:
                print("  SCAM-FIXTURE %3d %-10s %s\n      -> %s" % (score, verdict(score), rec["text"][:160], describe(hits, norm)))
        n = sum(c.values())
        print("%-26s n=%d flagged=%d (%.1f%%) danger=%d" % ("scam_text (fixture)", n, n - c["safe"],
              100.0 * (n - c["safe"]) / n, c["danger"]))

    if args.rules_table:
        print("\n%-48s %5s %6s %s" % ("rule", "ham", "pos", "weight"))
        for r in rules:
            print("%-48s %5d %6d %4d%s" % (r.id, rule_ham_total[r.id], rule_pos_total[r.id], r.weight,
                                          "  ctx" if r.requires_context else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
