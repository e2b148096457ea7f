#!/usr/bin/env python3
"""OCR quality and cost of kind image on the generated phone screenshots.

Usage: benchmarks/ocr_eval.py BUILD_DIR [--out FILE]

Generates the fixtures (tests/fixtures/images/make_images.py) into
BUILD_DIR/image_fixtures if they are not there, then for every screenshot of
tests/fixtures/images/screenshots.json runs
  OMP_THREAD_LIMIT=1 taskset -c 0 /usr/bin/time -v scamcheck --kind image
(one process, one core, one OCR engine) and reports:
  - word recall of extracted_text: the share of the message's words (case
    folded, maximal runs of letters and digits) found in the extracted text;
  - verdict accuracy: scam screenshots not "safe", legitimate ones "safe";
  - peak memory (maximum resident set size) of the process;
  - OCR time: the median of ocr_benchmark (warm engine, pinned to one core).
Writes a Markdown report to --out (default: print it).
"""
import argparse
import collections
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORD = re.compile(r"[^\W_]+", re.UNICODE)


def words(text):
    return [w.casefold() for w in WORD.findall(text)]


def recall(truth, extracted):
    have = collections.Counter(words(extracted))
    want = words(truth)
    hit = 0
    for w in want:
        if have[w] > 0:
            have[w] -= 1
            hit += 1
    return hit, len(want)


def pinned(cmd):
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    prefix = ["taskset", "-c", "0"] if shutil_which("taskset") else []
    return subprocess.run(prefix + cmd, capture_output=True, env=env)


def shutil_which(name):
    from shutil import which
    return which(name)


def machine():
    model = ""
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain"],
                           capture_output=True, text=True).stdout.strip()
    return model, os.cpu_count(), commit + ("-dirty" if dirty else "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--out")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    cli = os.path.join(build, "adapters", "cli", "scamcheck")
    bench = os.path.join(build, "benchmarks", "ocr_benchmark")
    fixtures = os.path.join(build, "image_fixtures")
    if not os.path.exists(os.path.join(fixtures, "done.stamp")):
        subprocess.run([sys.executable, os.path.join(ROOT, "tests", "fixtures", "images",
                                                     "make_images.py"), fixtures], check=True)
    spec = json.load(open(os.path.join(ROOT, "tests", "fixtures", "images", "screenshots.json"),
                          encoding="utf-8"))

    rows = []
    total_hit = total_words = correct = 0
    peaks = []
    walls = []
    for s in spec["screenshots"]:
        path = os.path.join(fixtures, "screenshots", s["id"] + ".png")
        r = pinned(["/usr/bin/time", "-v", cli, "--kind", "image", "--locale", s["lang"], path])
        err = r.stderr.decode("utf-8", "replace")
        peak_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", err).group(1))
        wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", err).group(1)
        wall_s = sum(float(x) * 60 ** i for i, x in enumerate(reversed(wall.split(":"))))
        try:
            report = json.loads(r.stdout)
        except ValueError:
            report = {"verdict": "error", "risk_score": -1, "extracted_text": ""}
        truth = "\n".join(b["text"] for b in s["bubbles"])
        hit, n = recall(truth, report.get("extracted_text", ""))
        ok = (report["verdict"] != "safe") == (s["label"] == "scam") and report["verdict"] != "error"
        total_hit += hit
        total_words += n
        correct += ok
        peaks.append(peak_kb / 1024)
        walls.append(wall_s)
        rows.append((s["id"], s["lang"], s["theme"], s["layout"], s["label"], report["verdict"],
                     report["risk_score"], hit / n, ok, peak_kb / 1024, wall_s))

    bench_out = ""
    medians = {}
    if os.path.exists(bench):
        env = dict(os.environ, SCAMCHECK_IMAGE_FIXTURES=fixtures)
        prefix = ["taskset", "-c", "0"] if shutil_which("taskset") else []
        env["OMP_THREAD_LIMIT"] = "1"
        r = subprocess.run(prefix + [bench, "--benchmark_repetitions=5",
                                     "--benchmark_format=json"],
                           capture_output=True, env=env, text=True)
        bench_out = r.stdout
        try:
            for b in json.loads(r.stdout)["benchmarks"]:
                if b.get("aggregate_name") == "median":
                    medians[b["run_name"]] = b["real_time"]
        except (ValueError, KeyError):
            pass

    model, cores, commit = machine()
    lines = []
    lines.append(f"# OCR evaluation — {datetime.date.today().isoformat()}")
    lines.append("")
    lines.append(f"- machine: {model}, {cores} cores ({platform.machine()}), "
                 f"measurements pinned to one core (`taskset -c 0`, `OMP_THREAD_LIMIT=1`)")
    lines.append(f"- commit: {commit}")
    lines.append(f"- command: `benchmarks/ocr_eval.py {os.path.relpath(build, ROOT)}`")
    lines.append(f"- inputs: {len(rows)} screenshots of tests/fixtures/images/screenshots.json, "
                 "1080x2340, rendered by make_images.py (ImageMagick, DejaVu Sans 38-46 px)")
    lines.append("")
    lines.append("| target | measured | goal |")
    lines.append("|---|---|---|")
    lines.append(f"| word recall of extracted_text | {100 * total_hit / total_words:.1f}% "
                 f"({total_hit}/{total_words} words) | >= 95% |")
    lines.append(f"| verdict accuracy | {100 * correct / len(rows):.1f}% "
                 f"({correct}/{len(rows)}) | >= 95% |")
    for name, ms in sorted(medians.items()):
        lines.append(f"| {name} median (ocr_benchmark, warm engine) | {ms:.0f} ms | <= 1500 ms |")
    lines.append(f"| peak memory of one `scamcheck --kind image` process (one OCR engine) | "
                 f"max {max(peaks):.0f} MB, median {statistics.median(peaks):.0f} MB | <= 300 MB |")
    lines.append(f"| whole CLI run incl. start-up and engine load | median "
                 f"{statistics.median(walls):.2f} s | |")
    lines.append("")
    lines.append("| screenshot | lang | theme | layout | label | verdict | score | word recall | "
                 "correct | peak MB | wall s |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        lines.append(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} | {r[5]} | {r[6]} | "
                     f"{100 * r[7]:.0f}% | {'yes' if r[8] else 'NO'} | {r[9]:.0f} | {r[10]:.2f} |")
    if bench_out:
        lines.append("")
        lines.append("<details><summary>ocr_benchmark JSON</summary>")
        lines.append("")
        lines.append("```json")
        lines.append(bench_out.strip())
        lines.append("```")
        lines.append("</details>")
    text = "\n".join(lines) + "\n"
    if args.out:
        open(args.out, "w", encoding="utf-8").write(text)
    print(text)


if __name__ == "__main__":
    main()
