#!/usr/bin/env python3
"""Per-language flagged rates of the text fixtures, and the corpus figures,
for two runs of scamcheck-eval (a baseline and the tree under test), each
with the model and with the rules alone.

    language_rates.py FIXTURES_DIR NAME=DIR ... > report.md

Each DIR holds <mode>.json and <mode>.tsv (scamcheck-eval --json/--scores)
for mode in model and rules-only. The language of a fixture record is the
`lang` field of tests/fixtures/*.jsonl; "flagged" is a verdict other than
safe. Prints Markdown.
"""
import csv
import json
import pathlib
import sys

MODES = ("rules-only", "model")


def fixture_langs(fixtures_dir):
    langs = {}
    for path in sorted(pathlib.Path(fixtures_dir).glob("*_text*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                langs[r["id"]] = r["lang"]
    return langs


def rates(tsv, langs):
    """{(lang, label): [flagged, n]} over the text fixtures."""
    out = {}
    with open(tsv, encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row["id"] not in langs or not row["dataset"].startswith("fixtures/"):
                continue
            key = (langs[row["id"]], "scam" if row["label"] == "scam" else "legit")
            cell = out.setdefault(key, [0, 0])
            cell[1] += 1
            cell[0] += row["verdict"] != "safe"
    return out


def pct(cell):
    if not cell or not cell[1]:
        return "-"
    return f"{100.0 * cell[0] / cell[1]:.1f}% ({cell[0]}/{cell[1]})"


def corpus_rows(path):
    data = json.loads(pathlib.Path(path).read_text(encoding="utf-8"))
    rows = {}
    for d in data["datasets"]:
        if d.get("origin") == "fixture":
            continue
        a = d["all"]
        rows[d["name"]] = (d["n"], a.get("fpr"), a.get("recall"), a.get("mcc"),
                           d["micros_per_record"]["p50"])
    return rows


def fmt(value, percent=False):
    if value is None:
        return "-"
    return f"{100 * value:.2f}%" if percent else f"{value:.4f}"


def main():
    fixtures_dir, runs = sys.argv[1], [a.split("=", 1) for a in sys.argv[2:]]
    langs = fixture_langs(fixtures_dir)
    order = ["en", "de", "fr", "es", "it", "nl", "pt", "pl", "tr"]
    seen = sorted(set(langs.values()), key=lambda l: (order.index(l) if l in order else 99, l))
    for mode in MODES:
        table = {name: rates(f"{d}/{mode}.tsv", langs) for name, d in runs}
        print(f"\n## Text fixtures by language, {mode}\n")
        print("Share flagged (suspicious or danger). Targets: scams >= 90 %, legitimate <= 3 %.\n")
        head = " | ".join(f"{name} scams | {name} legitimate" for name, _ in runs)
        print(f"| lang | {head} |")
        print("|---|" + "---|---|" * len(runs))
        for lang in seen:
            cells = " | ".join(f"{pct(table[name].get((lang, 'scam')))} | "
                               f"{pct(table[name].get((lang, 'legit')))}" for name, _ in runs)
            print(f"| {lang} | {cells} |")
    for mode in MODES:
        print(f"\n## Corpora (dev split), {mode}\n")
        print("| dataset | " + " | ".join(f"{n} FPR | {n} recall | {n} MCC | {n} p50 µs"
                                          for n, _ in runs) + " |")
        print("|---|" + "---|---|---|---|" * len(runs))
        tables = [corpus_rows(f"{d}/{mode}.json") for _, d in runs]
        for name in sorted(set().union(*tables)):
            cells = []
            for t in tables:
                n, fpr, recall, mcc, p50 = t.get(name, (0, None, None, None, None))
                cells.append(f"{fmt(fpr, True)} | {fmt(recall, True)} | {fmt(mcc)} | "
                             f"{'-' if p50 is None else f'{p50:.0f}'}")
            print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
