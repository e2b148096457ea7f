#!/usr/bin/env python3
"""No text of the evaluation-only corpora in the repository.

`phishing_pot` and `phishing_pot_de` (../shared/corpus) are CC BY-NC and for
evaluation only: no rule, rule example, data file or fixture may quote them.
This test fails when any sequence of 8 words of a phishing_pot* message (every
split present) appears in a file under the scanned folder.

  pot_overlap_test.py data|fixtures [--corpus-dir DIR]

  data      libscamcheck/data (every text file; JSON files by their strings)
  fixtures  tests/fixtures (JSONL by their strings, e-mails by what a reader
            sees, everything else as text)

Normalised: lower case, words are runs of letters and digits. An e-mail (a
corpus message or an .eml fixture) is read as what a reader sees: its Subject,
its text parts and the text of its HTML parts (tags dropped, entities
decoded), never its headers, MIME structure or markup, which are protocol
boilerplate shared by every mail. Markup in other files (HTML templates of
the e-mail generators) is dropped the same way.

Without the corpus the test prints SCAMCHECK_SKIP: (CTest reports it
skipped); with CI=true a missing corpus is a failure. Exit 1 on any overlap,
listing each file, the text and the first shared sequence.
"""
import argparse
import email
import email.header
import email.policy
import html
import json
import os
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
N = 8
WORD = re.compile(r"[^\W_]+")
TAG = re.compile(r"<[^>]*>")
HIDDEN = re.compile(r"<(script|style)\b.*?</\1\s*>", re.I | re.S)
FOLDERS = {"data": ROOT / "libscamcheck" / "data", "fixtures": ROOT / "tests" / "fixtures"}
CORPORA = ("phishing_pot", "phishing_pot_de")


def words(text):
    return WORD.findall(text.lower())


def strip_markup(text):
    return html.unescape(TAG.sub(" ", HIDDEN.sub(" ", text)))


def subject(value):
    try:
        return str(email.header.make_header(email.header.decode_header(str(value))))
    except (LookupError, ValueError, UnicodeError):
        return str(value)


def mail_text(raw):
    """Subject and the readable text of every text part of a raw message."""
    msg = email.message_from_bytes(raw, policy=email.policy.compat32)
    out = [subject(msg.get("Subject", ""))]
    for part in msg.walk():
        if part.get_content_maintype() != "text":
            continue
        payload = part.get_payload(decode=True)
        if payload is None:
            continue
        charset = part.get_content_charset() or "utf-8"
        try:
            text = payload.decode(charset, errors="replace")
        except LookupError:
            text = payload.decode("utf-8", errors="replace")
        if part.get_content_subtype() == "html":
            text = strip_markup(text)
        out.append(text)
    return "\n".join(out)


def record_text(record):
    text = record["text"]
    if record.get("kind") != "email":
        return text
    raw = text.encode(record.get("raw_encoding") or "utf-8", errors="surrogateescape")
    return mail_text(raw)


def corpus_sequences(corpus_dir):
    """Every 8-word sequence of every phishing_pot* message -> a record id."""
    seen = {}
    files = 0
    for name in CORPORA:
        for path in sorted((corpus_dir / name).glob("*.jsonl")):
            files += 1
            with path.open(encoding="utf-8") as f:
                for line in f:
                    if not line.strip():
                        continue
                    record = json.loads(line)
                    w = words(record_text(record))
                    for i in range(len(w) - N + 1):
                        seen.setdefault(" ".join(w[i : i + N]), record["id"])
    return seen, files


def json_strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from json_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from json_strings(v)


def file_texts(path):
    """The texts of one repository file to compare, or [] for a binary file."""
    data = path.read_bytes()
    if path.suffix == ".eml":
        return [mail_text(data)]
    if b"\0" in data[:4096]:
        return []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return []
    if path.suffix == ".json":
        return list(json_strings(json.loads(text)))
    if path.suffix == ".jsonl":
        return [s for line in text.splitlines() if line.strip() for s in json_strings(json.loads(line))]
    return [strip_markup(text)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", choices=sorted(FOLDERS))
    parser.add_argument(
        "--corpus-dir",
        default=os.environ.get("SCAMCHECK_CORPUS_DIR", str(ROOT.parent / "shared" / "corpus")),
    )
    args = parser.parse_args()
    corpus_dir = pathlib.Path(args.corpus_dir)
    if not all((corpus_dir / name).is_dir() for name in CORPORA):
        reason = f"{corpus_dir}/phishing_pot* not found"
        if os.environ.get("CI") == "true":
            print(f"FAIL: {reason} (CI=true: the corpus is required)")
            return 1
        print(f"SCAMCHECK_SKIP: {reason}")
        return 0
    seen, files = corpus_sequences(corpus_dir)
    if not seen:
        print(f"FAIL: no message read from {corpus_dir}/phishing_pot*")
        return 1
    problems = 0
    scanned = 0
    for path in sorted(FOLDERS[args.folder].rglob("*")):
        if not path.is_file():
            continue
        scanned += 1
        for text in file_texts(path):
            w = words(text)
            for i in range(len(w) - N + 1):
                sequence = " ".join(w[i : i + N])
                if sequence in seen:
                    problems += 1
                    print(
                        f"{path.relative_to(ROOT)}: {text[:80]!r} shares \"{sequence}\" "
                        f"with {seen[sequence]}"
                    )
                    break
    print(
        f"{scanned} files under {FOLDERS[args.folder].relative_to(ROOT)} against "
        f"{len(seen)} sequences of {N} words from {files} phishing_pot* files: "
        f"{problems} text(s) overlap"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
