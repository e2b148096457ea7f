#!/usr/bin/env python3
"""What the missed phishing URLs of a dev corpus look like, by shape.

  benchmarks/eval/url_misses.py [SCORES_TSV] [--dataset urls_jpcert] [--corpus-dir DIR]
                                [--eval BIN]

SCORES_TSV is a `scamcheck-eval --scores` file; without it the script runs
BIN (default build/benchmarks/eval/scamcheck-eval, embedded model) on the
dataset's dev split itself. Every positive record of the
dataset that was judged safe is put in one group by the shape of its URL
(first match): a bare host (no path, no query), a host with a query only, a
path with a login or verification word, a path of one short token (what a
link shortener makes), a path of a two-letter country folder alone ("/jp"),
or another path. Prints the count of each group beside the same count among
the records that were flagged, so a group's share of the misses can be read
against its share of the catches. Ids only, no URLs.
"""
import argparse
import datetime
import json
import subprocess
import tempfile
import pathlib
import re
import sys
from urllib.parse import urlsplit

ROOT = pathlib.Path(__file__).resolve().parents[2]
LOGIN = re.compile(r"log_?in|signin|sign_in|verify|account|auth|member|secure", re.I)


def shape(url):
    s = urlsplit(url if "://" in url else "http://" + url)
    path = s.path.strip("/")
    if not path and not s.query:
        return "bare host"
    if not path:
        return "host and query only"
    if LOGIN.search(path):
        return "path with a login or verification word"
    if "/" not in path and re.fullmatch(r"[A-Za-z0-9_-]{2,12}", path):
        return "path of one short token" if not re.fullmatch(r"[a-z]{2}", path) else \
            "path of a two-letter folder alone"
    return "other path"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("scores", nargs="?")
    p.add_argument("--eval", default=str(ROOT / "build/benchmarks/eval/scamcheck-eval"))
    p.add_argument("--dataset", default="urls_jpcert")
    p.add_argument("--corpus-dir", default=str(ROOT.parent / "shared" / "corpus"))
    a = p.parse_args()
    urls = {}
    with open(pathlib.Path(a.corpus_dir) / a.dataset / "dev.jsonl", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            urls[r["id"]] = r["text"]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.strip()
    print(f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, commit {commit}, "
          f"scores {a.scores or a.eval + ' (embedded model)'}")
    if a.scores is None:
        a.scores = tempfile.mkstemp(suffix=".tsv")[1]
        subprocess.run([a.eval, "--only", a.dataset, "--worst", "0", "--corpus-dir", a.corpus_dir,
                        "--scores", a.scores], cwd=ROOT, check=True, capture_output=True)
    missed, caught = {}, {}
    with open(a.scores, encoding="utf-8") as f:
        next(f)
        for line in f:
            dataset, rid, label, _, verdict = line.rstrip("\n").split("\t")[:5]
            if dataset != a.dataset or label == "ham" or rid not in urls:
                continue
            group = shape(urls[rid])
            target = missed if verdict == "safe" else caught
            target[group] = target.get(group, 0) + 1
    total_missed, total_caught = sum(missed.values()), sum(caught.values())
    print(f"{a.dataset}: {total_missed} missed, {total_caught} flagged "
          f"(recall {100 * total_caught / max(1, total_missed + total_caught):.2f}%)")
    print(f"{'shape':42} {'missed':>7} {'flagged':>8}")
    for group in sorted(set(missed) | set(caught), key=lambda g: -missed.get(g, 0)):
        print(f"{group:42} {missed.get(group, 0):7} {caught.get(group, 0):8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
