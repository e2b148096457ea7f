#!/usr/bin/env python3
"""Compares two runs of scamcheck-eval: are the figures the same?

    compare_eval.py BEFORE.json AFTER.json [--scores BEFORE.tsv AFTER.tsv]

The JSON files come from `scamcheck-eval --json`, the TSV files from
`--scores`. What describes the run rather than the analysis (date, label,
paths, wall times) is left out; every other figure must be equal, and with
--scores every record's score, verdict and signals too. Prints what differs
and exits 1 when anything does, 0 when the two runs agree.
"""

import argparse
import json
import sys

# Keys that describe the run, not its results.
RUN_KEYS = {"date", "label", "corpus_dir", "fixtures_dir", "elapsed_seconds", "micros_per_record"}


def figures(value, path=""):
    """Yields (path, value) for every leaf of an eval JSON, run keys left out."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in RUN_KEYS:
                yield from figures(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            name = item.get("name", i) if isinstance(item, dict) else i
            yield from figures(item, f"{path}[{name}]")
    else:
        yield path, value


def compare_json(before_path, after_path):
    with open(before_path) as f:
        before = dict(figures(json.load(f)))
    with open(after_path) as f:
        after = dict(figures(json.load(f)))
    differences = []
    for path in sorted(before.keys() | after.keys()):
        if before.get(path) != after.get(path):
            differences.append(f"  {path}: {before.get(path)!r} -> {after.get(path)!r}")
    return len(before), differences


def read_scores(path):
    with open(path) as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    header, rows = rows[0], rows[1:]
    # dataset and id name a record; the rest is what the analysis said.
    return header, {(r[0], r[1]): r[2:] for r in rows}


def compare_scores(before_path, after_path):
    header, before = read_scores(before_path)
    _, after = read_scores(after_path)
    differences = []
    for key in sorted(before.keys() | after.keys()):
        if before.get(key) != after.get(key):
            differences.append(f"  {key[0]} {key[1]}: {before.get(key)} -> {after.get(key)}")
    return len(before), differences


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before_json")
    parser.add_argument("after_json")
    parser.add_argument("--scores", nargs=2, metavar=("BEFORE_TSV", "AFTER_TSV"))
    args = parser.parse_args()

    n, differences = compare_json(args.before_json, args.after_json)
    print(f"figures: {n} compared, {len(differences)} differ")
    print("\n".join(differences[:200]))
    failed = bool(differences)
    if args.scores:
        n, differences = compare_scores(*args.scores)
        print(f"records: {n} compared (score, verdict, signals), {len(differences)} differ")
        print("\n".join(differences[:200]))
        failed = failed or bool(differences)
    print("identical" if not failed else "DIFFERENT")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
