#!/usr/bin/env python3
"""JSON lines for `scamcheck --jsonl` from the corpora's dev split.

  dev_inputs.py --kind sms|email --corpus-dir DIR --out FILE
                [--count N | [--every N] [--rounds N]] [--fixtures DIR]

  sms    the text records of DIR/sms_*/dev.jsonl
  email  the e-mail records of DIR/*/dev.jsonl (raw bytes; base64 when not
         UTF-8), else the .eml files of --fixtures (tests/fixtures/email)

--count N cycles the messages to N lines, --rounds N reads each N times,
--every N keeps one message in N (default: each message once); --every and
--rounds go together (one in N, each read R times: warm beside cold).
Prints one line describing the input ("N lines, B bytes, from ...").
"""

import argparse
import base64
import glob
import json
import os
import sys


def pool(kind, corpus, fixtures):
    """The messages (bytes) and where they came from."""
    pattern = "sms_*" if kind == "sms" else "*"
    wanted = "text" if kind == "sms" else "email"
    messages = []
    for path in sorted(glob.glob(os.path.join(corpus, pattern, "dev.jsonl"))):
        with open(path, encoding="utf-8") as f:
            for line in f:
                r = json.loads(line)
                if r.get("kind") == wanted:
                    messages.append(r["text"].encode(r.get("raw_encoding", "utf-8")))
    source = f"{wanted} records of {corpus}/{pattern}/dev.jsonl"
    if not messages and kind == "email" and fixtures:
        source = f"{fixtures}/*/*.eml"
        for path in sorted(glob.glob(os.path.join(fixtures, "*", "*.eml"))):
            with open(path, "rb") as f:
                messages.append(f.read())
    return messages, source


def scan_line(i, kind, raw):
    """One `scamcheck --jsonl` input line: raw bytes of an input of `kind`
    (text, email, url), as UTF-8 text or, when they are not, as base64."""
    try:
        obj = {"id": i, "kind": kind, "content": raw.decode("utf-8")}
    except UnicodeDecodeError:
        obj = {"id": i, "kind": kind, "content": base64.b64encode(raw).decode(),
               "content_encoding": "base64"}
    return json.dumps(obj, ensure_ascii=False)


def line(i, kind, raw):
    return scan_line(i, "text" if kind == "sms" else "email", raw)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--kind", choices=("sms", "email"), required=True)
    p.add_argument("--corpus-dir", required=True)
    p.add_argument("--fixtures")
    p.add_argument("--out", required=True)
    p.add_argument("--count", type=int)
    p.add_argument("--rounds", type=int)
    p.add_argument("--every", type=int)
    a = p.parse_args()
    if a.count and (a.rounds or a.every):
        p.error("--count goes with neither --rounds nor --every")
    messages, source = pool(a.kind, a.corpus_dir, a.fixtures)
    if not messages:
        sys.exit(f"dev_inputs.py: no {a.kind} messages in {source}")
    if a.count:
        chosen, how = [messages[i % len(messages)] for i in range(a.count)], "cycled"
    elif a.every and a.rounds:
        chosen = messages[::a.every] * a.rounds
        how = f"one in {a.every}, each {a.rounds} times"
    elif a.rounds:
        chosen, how = messages * a.rounds, f"each {a.rounds} times"
    elif a.every:
        chosen, how = messages[::a.every], f"one in {a.every}"
    else:
        chosen, how = messages, "each once"
    with open(a.out, "w", encoding="utf-8") as out:
        for i, raw in enumerate(chosen, 1):
            out.write(line(i, a.kind, raw) + "\n")
    print(f"{len(chosen)} lines, {os.path.getsize(a.out)} bytes, from {len(messages)} "
          f"{source} ({how})")


if __name__ == "__main__":
    main()
