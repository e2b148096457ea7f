#!/usr/bin/env python3
"""Detection figures of the working tree beside a baseline revision, one run.

  benchmarks/eval/detection_report.py BASE [--eval BIN] [--out DIR] [--threads N]

Scores the dev split and the fixtures four times with the working tree's
scamcheck-eval (default build/benchmarks/eval/scamcheck-eval): with the data
pack of BASE (its rules, scoring, texts and model, from `git archive BASE
libscamcheck/data`) and with the working tree's pack, each with the model and
with the rules alone. Writes benchmarks/results/<date>-<short HEAD>-detection.md:
per dataset the false-positive rate, recall and MCC of the baseline and of
the working tree side by side, then the per-family table, every record whose verdict
moved from the baseline's pack to the working tree's (ids and scores), and the
fixtures' trained/unseen halves of each run. The code is the working tree's in all four
runs; only the data pack differs (so a code change that moves a verdict on
its own is in both columns).
"""
import argparse
import datetime
import io
import json
import pathlib
import subprocess
import sys
import tarfile
import tempfile

from moved_records import load_scores, moved_records

ROOT = pathlib.Path(__file__).resolve().parents[2]


def git(*args):
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout.strip()


def run_eval(binary, data_dir, rules_only, threads, json_path):
    cmd = [str(binary), "--threads", str(threads), "--worst", "0", "--json", str(json_path),
           "--scores", str(json_path.with_suffix(".tsv"))]
    if data_dir:
        cmd += ["--data-dir", str(data_dir)]
    if rules_only:
        cmd.append("--rules-only")
    out = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return json.loads(pathlib.Path(json_path).read_text()), out


def tables(text):
    """scamcheck-eval's fixture halves and family tables (printed between the
    worst cases and the pooled figures)."""
    start = text.find("Fixtures by what the model saw")
    end = text.find("Pooled over every corpus", start)
    return text[start:end if end >= 0 else len(text)].strip() if start >= 0 else "(none)"


def family_totals(text, half="both"):
    """{family: (scams, flagged, look-alikes, flagged)}: the <family>/all rows
    (half "both"), or the sum of a family's rows of one half ("unseen")."""
    out = {}
    for line in text.splitlines():
        cells = line.split()
        if len(cells) < 8 or "/" not in cells[0] or cells[1] != half:
            continue
        family = cells[0].split("/")[0]
        prev = out.get(family, (0, 0, 0, 0))
        out[family] = tuple(a + int(b) for a, b in zip(prev, (cells[2], cells[3], cells[5], cells[6])))
    return out


def ratio(part, whole):
    return "-" if whole == 0 else f"{part}/{whole} ({100 * part / whole:.0f}%)"


def pct(v):
    return "-" if v is None else f"{100 * v:.2f}%"


def num(v):
    return "-" if v is None else f"{v:.3f}"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("base", help="baseline revision (e.g. main)")
    p.add_argument("--eval", default=str(ROOT / "build/benchmarks/eval/scamcheck-eval"))
    p.add_argument("--out", default=str(ROOT / "benchmarks/results"))
    p.add_argument("--threads", type=int, default=2)
    a = p.parse_args()
    base = git("rev-parse", "--short", a.base)
    head = git("rev-parse", "--short", "HEAD")
    dirty = bool(git("status", "--porcelain", "--untracked-files=no"))
    date = datetime.datetime.now(datetime.timezone.utc)
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "archive", base, "libscamcheck/data"], cwd=ROOT,
                                 check=True, capture_output=True).stdout
        tarfile.open(fileobj=io.BytesIO(archive)).extractall(tmp)
        base_data = pathlib.Path(tmp) / "libscamcheck" / "data"
        runs = {}
        for name, data_dir, rules_only in (("base model", base_data, False),
                                           ("new model", None, False),
                                           ("base rules", base_data, True),
                                           ("new rules", None, True)):
            json_path = pathlib.Path(tmp) / (name.replace(" ", "_") + ".json")
            runs[name] = run_eval(a.eval, data_dir, rules_only, a.threads, json_path) + (
                load_scores(json_path.with_suffix(".tsv")),)
    out = [f"# Detection figures: {head}{' (+ uncommitted changes)' if dirty else ''} "
           f"beside {base}",
           "",
           f"Date: {date:%Y-%m-%d %H:%M} UTC. Commit: {head}. Baseline: {base} (its "
           "`libscamcheck/data`: rules, scoring, texts and model). Split: dev, and "
           "every fixture file. Made by `benchmarks/eval/detection_report.py "
           f"{a.base}`: four runs of the same scamcheck-eval build (the working "
           "tree's code) that differ only in the data pack and the model switch.",
           ""]
    for mode in ("model", "rules"):
        b, n = runs[f"base {mode}"][0], runs[f"new {mode}"][0]
        title = "learned model (the default)" if mode == "model" else "rules alone (use_model = false)"
        out += [f"## Dev split and fixtures, {title}", "",
                "| dataset | n | FPR base | FPR new | recall base | recall new | MCC base | MCC new |",
                "|---|---:|---:|---:|---:|---:|---:|---:|"]
        base_by = {d["name"]: d for d in b["datasets"]}
        for d in n["datasets"]:
            bd = base_by.get(d["name"], {"all": {}})
            out.append(f"| {d['name']} | {d['n']} | {pct(bd['all'].get('fpr'))} | "
                       f"{pct(d['all'].get('fpr'))} | {pct(bd['all'].get('recall'))} | "
                       f"{pct(d['all'].get('recall'))} | {num(bd['all'].get('mcc'))} | "
                       f"{num(d['all'].get('mcc'))} |")
        out.append("")
    out += ["## Scam families, both languages and halves (targets: recall >= 90 %, "
            "look-alikes flagged <= 3 %)", "",
            "The baseline model never learned from the family fixtures (they are new); the "
            "working tree's model learned from their even half (see the halves below).", "",
            "| family | recall base | recall new | new, unseen half | look-alikes flagged base "
            "| look-alikes flagged new | new, unseen half | rules-only recall new "
            "| rules-only look-alikes new |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    fb, fn = family_totals(runs["base model"][1]), family_totals(runs["new model"][1])
    fr = family_totals(runs["new rules"][1])
    fu = family_totals(runs["new model"][1], "unseen")
    for fam in sorted(fn):
        b = fb.get(fam, (0, 0, 0, 0))
        n, r, u = fn[fam], fr.get(fam, (0, 0, 0, 0)), fu.get(fam, (0, 0, 0, 0))
        out.append(f"| {fam} | {ratio(b[1], b[0])} | {ratio(n[1], n[0])} | {ratio(u[1], u[0])} | "
                   f"{ratio(b[3], b[2])} | {ratio(n[3], n[2])} | {ratio(u[3], u[2])} | "
                   f"{ratio(r[1], r[0])} | {ratio(r[3], r[2])} |")
    out.append("")
    for mode in ("model", "rules"):
        out += [f"## Records whose verdict moved, {mode} runs (base -> new)", "",
                "Every dev and fixture record in both runs whose verdict moved between flagged "
                "and safe: ids and scores only.", "", "```"]
        out += moved_records(runs[f"base {mode}"][2], runs[f"new {mode}"][2])
        out += ["```", ""]
    for name in ("new model", "base model", "new rules", "base rules"):
        text = runs[name][1]
        note = (["In the base runs TRAINED only names the even half: the baseline model never "
                 "learned from the family files.", ""] if name.startswith("base") else [])
        out += [f"## Scam families and fixture halves, {name}", ""] + note + [
            "```", tables(text), "```", ""]
    path = pathlib.Path(a.out) / f"{date:%Y-%m-%d}-{head}-detection.md"
    path.write_text("\n".join(out) + "\n")
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
