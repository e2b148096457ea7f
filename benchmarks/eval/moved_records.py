#!/usr/bin/env python3
"""Records whose verdict moved between two scamcheck-eval --scores files.

Usage: moved_records.py BEFORE.tsv AFTER.tsv [--skip REGEX]

Prints one line per record found in both files whose verdict moved between
flagged and safe (dataset, id, label, scores and verdicts; never the text),
then the count per dataset, label and direction, then the total. Records
whose id matches --skip are left out (e.g. the fixtures a retrain added).
detection_report.py, retrain_compare.sh and retrain_stability.sh share it.
"""
import argparse
import re


def load_scores(path):
    """{(dataset, id): (label, score, verdict)} of a --scores file."""
    rows = {}
    with open(path, encoding="utf-8") as f:
        next(f)
        for line in f:
            dataset, rid, label, score, verdict = line.rstrip("\n").split("\t")[:5]
            rows[(dataset, rid)] = (label, int(score), verdict)
    return rows


def moved_records(before, after, skip=None):
    """Lines for every record in both runs whose verdict moved, then counts."""
    lines, counts = [], {}
    for key in sorted(before):
        if key not in after or (skip and skip.search(key[1])):
            continue
        (label, s0, v0), (_, s1, v1) = before[key], after[key]
        if (v0 == "safe") != (v1 == "safe"):
            way = "flagged now" if v0 == "safe" else "safe now"
            counts[(key[0], label, way)] = counts.get((key[0], label, way), 0) + 1
            lines.append(f"{key[0]:28} {key[1]:44} {label:5} {s0:3} {v0:10} -> {s1:3} {v1}")
    lines.append("")
    lines += [f"{d:28} {label:5} {way:12} {n}" for (d, label, way), n in sorted(counts.items())]
    urls = sum(n for (d, _, _), n in counts.items() if d.startswith(("domains", "urls")))
    lines.append(f"records moved: {sum(counts.values())}, of them URL datasets: {urls}")
    return lines


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("before")
    p.add_argument("after")
    p.add_argument("--skip", help="leave out records whose id matches this regex")
    a = p.parse_args()
    skip = re.compile(a.skip) if a.skip else None
    print("\n".join(moved_records(load_scores(a.before), load_scores(a.after), skip)))


if __name__ == "__main__":
    main()
