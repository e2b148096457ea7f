#!/usr/bin/env bash
# How the cost of one analyze() grows with the input: text from 100 B to
# 64 KB (SMS-like sentences with a link now and then), e-mails from 1 KB to
# 64 KB (the content limit; a plain-text and an HTML part with links, plus a
# base64 PDF attachment from 16 KB up) and DOCX documents from 10 KB to
# 1.3 MB of text. Each size is analysed many times (at least `--repeat`,
# up to 2,000 for small inputs) in one `scamcheck --jsonl --threads 1` run;
# the time per analysis is the run's CPU time (user + system, best of three)
# minus that of a run over one line (start-up), divided by the analyses.
# Writes a Markdown table, the data file and a gnuplot PNG.
#
# Usage: benchmarks/cost_growth.sh [--build DIR] [--base DIR] [--repeat N] [--out-dir DIR]
#                                   [--name STEM]
#   --build DIR    build directory holding adapters/cli/scamcheck (default: build)
#   --base DIR     a baseline build measured beside it, size by size (plotted dashed)
#   --repeat N     analyses per size at least (default 20)
#   --out-dir DIR  where STEM.md, STEM.dat and STEM.png go (default benchmarks/results)
#   --name STEM    file stem (default <date>-<commit>-cost-growth)
#   --keep-inputs DIR  also keep one JSON line per input there
#                  (<kind>-<bytes>.jsonl: e.g. the DOCX for profile_analyze.sh --input)
# Needs python3 and gnuplot (gnuplot-nox).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
build="$repo/build"
base_build=
repeat=20
out_dir="$here/results"
name="$(date -u +%F)-$(git -C "$repo" rev-parse --short HEAD)-cost-growth"
keep_inputs=
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --base) base_build=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --out-dir) out_dir=$2; shift 2 ;;
    --name) name=$2; shift 2 ;;
    --keep-inputs) keep_inputs=$2; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "cost_growth.sh: unknown argument: $1" >&2; exit 64 ;;
  esac
done
cli="$build/adapters/cli/scamcheck"
[[ -x $cli ]] || { echo "cost_growth.sh: $cli not found" >&2; exit 66; }
base_cli=
if [[ -n $base_build ]]; then
  base_cli="$base_build/adapters/cli/scamcheck"
  [[ -x $base_cli ]] || { echo "cost_growth.sh: $base_cli not found" >&2; exit 66; }
fi
command -v gnuplot > /dev/null || { echo "cost_growth.sh: gnuplot not installed" >&2; exit 69; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One JSONL file per (kind, size): `repeat` lines of the same input, ids
# numbered; plus sizes.txt: "kind size file".
python3 - "$work" "$repeat" << 'EOF'
import base64, io, json, os, sys, zipfile
work, repeat = sys.argv[1], int(sys.argv[2])
sentences = [
    "Are we still on for dinner at seven? I booked a table at the place on Main Street.",
    "Your parcel could not be delivered, confirm your address at https://parcel-{n}.example.top/track today.",
    "The meeting moved to Thursday, the slides are in the shared folder as before.",
    "Thanks for your order, it ships tomorrow and should arrive on Friday.",
    "Your account is locked, verify your password at http://secure-{n}.example-bank.xyz/login within 24 hours.",
]
def prose(size):
    out, n = [], 0
    while sum(len(s) + 1 for s in out) < size:
        out.append(sentences[n % len(sentences)].format(n=n))
        n += 1
    return " ".join(out)[:size]
def mail(size):
    body = prose(max(200, size // 3))
    html = "<html><body>" + "".join(f"<p>{p}</p>" for p in body.split(". ")) + "</body></html>"
    head = ("From: Example <news@shop.example.com>\r\nTo: reader@example.org\r\n"
            "Subject: News\r\nMIME-Version: 1.0\r\n"
            "Content-Type: multipart/mixed; boundary=\"m1\"\r\n\r\n"
            "--m1\r\nContent-Type: multipart/alternative; boundary=\"a1\"\r\n\r\n"
            "--a1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body +
            "\r\n--a1\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + html + "\r\n--a1--\r\n")
    rest = size - len(head) - 200
    if rest > 16384:  # an attachment fills the rest
        pdf = b"%PDF-1.4\n" + os.urandom(rest * 3 // 4 - 9)
        att = base64.encodebytes(pdf).decode().replace("\n", "\r\n")
        head += ("--m1\r\nContent-Type: application/pdf; name=\"invoice.pdf\"\r\n"
                 "Content-Disposition: attachment; filename=\"invoice.pdf\"\r\n"
                 "Content-Transfer-Encoding: base64\r\n\r\n" + att)
    elif rest > 0:
        head += "--m1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + prose(rest) + "\r\n"
    return (head + "--m1--\r\n")[:65536]
def docx(size):
    ns = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    body = "".join(f"<w:p><w:r><w:t>{p}</w:t></w:r></w:p>" for p in prose(size).split(". "))
    doc = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
           f'<w:document xmlns:w="{ns}"><w:body>{body}</w:body></w:document>')
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml",
                   '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                   '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                   '<Default Extension="xml" ContentType="application/xml"/>'
                   '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
        z.writestr("_rels/.rels",
                   '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                   '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>')
        z.writestr("word/document.xml", doc)
    return buf.getvalue()
cases = [("text", s, lambda s: {"kind": "text", "content": prose(s)})
         for s in (100, 400, 1024, 4096, 16384, 32768, 65536)]
cases += [("email", s, lambda s: {"kind": "email", "content": mail(s)})
          for s in (1024, 4096, 16384, 32768, 65536)]
cases += [("document", s, lambda s: {"kind": "document", "content_encoding": "base64",
                                     "content": base64.b64encode(docx(s)).decode()})
          for s in (10240, 102400, 409600, 1363148)]
with open(os.path.join(work, "sizes.txt"), "w") as index:
    for kind, size, make in cases:
        obj = make(size)
        path = os.path.join(work, f"{kind}-{size}.jsonl")
        lines = max(repeat, min(2000, 400000 // size))
        with open(path, "w") as f:
            for i in range(lines):
                f.write(json.dumps({"id": i + 1, **obj}, ensure_ascii=False) + "\n")
        with open(path + ".one", "w") as f:
            f.write(json.dumps({"id": 1, **obj}, ensure_ascii=False) + "\n")
        print(kind, size, path, lines, file=index)
EOF

if [[ -n $keep_inputs ]]; then
  mkdir -p "$keep_inputs"
  while read -r kind size path lines; do cp "$path.one" "$keep_inputs/$kind-$size.jsonl"; done < "$work/sizes.txt"
fi

# CPU time (user + system) of the CLI, which a busy machine disturbs less
# than wall time; the run over one line (start-up) is subtracted.
python3 - "$work" "$cli" $base_cli << 'EOF'
import os, resource, subprocess, sys
work, clis = sys.argv[1], sys.argv[2:]
def cpu(cli, path):
    best = None
    for _ in range(3):  # the least disturbed of three runs
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        with open(path, "rb") as f:
            subprocess.run([cli, "--jsonl", "--threads", "1"], stdin=f,
                           stdout=subprocess.DEVNULL, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best = t if best is None else min(best, t)
    return best
with open(os.path.join(work, "sizes.txt")) as index, open(os.path.join(work, "data.dat"), "w") as out:
    for line in index:
        kind, size, path, lines = line.split()
        row = [kind, size, lines]
        for cli in clis:  # the builds one after the other, size by size
            full, one = cpu(cli, path), cpu(cli, path + ".one")
            row.append(f"{max(0.0, (full - one) / (int(lines) - 1) * 1000):.3f}")
        print(*row, file=out)
EOF
rows=()
while read -r kind size lines ms base_ms; do
  rows+=("| $kind | $size | $lines | $ms |${base_cli:+ $base_ms |}")
done < "$work/data.dat"

mkdir -p "$out_dir"
cp "$work/data.dat" "$out_dir/$name.dat"
gnuplot << EOF
set terminal pngcairo size 900,560 noenhanced
set output "$out_dir/$name.png"
set title "analyze() time per input size (scamcheck --jsonl --threads 1, $repeat runs per size)"
set xlabel "input size (bytes; documents: bytes of text in the DOCX)"
set ylabel "ms CPU per analysis"
set logscale xy
set key top left
set grid
plot "< grep '^text ' $out_dir/$name.dat" using 2:4 with linespoints lc 1 title "text", \
     "< grep '^email ' $out_dir/$name.dat" using 2:4 with linespoints lc 2 title "e-mail", \
     "< grep '^document ' $out_dir/$name.dat" using 2:4 with linespoints lc 3 title "DOCX document", \
     $( [[ -n $base_cli ]] && echo "\"< grep '^text ' $out_dir/$name.dat\" using 2:5 with linespoints dashtype 3 lc 1 title \"text (baseline)\", \"< grep '^email ' $out_dir/$name.dat\" using 2:5 with linespoints dashtype 3 lc 2 title \"e-mail (baseline)\", \"< grep '^document ' $out_dir/$name.dat\" using 2:5 with linespoints dashtype 3 lc 3 title \"DOCX (baseline)\"," ) \
     50 with lines dashtype 2 lc 7 title "50 ms"
EOF
{
  echo "# analyze() time against input size"
  echo
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "- commit: $(git -C "$repo" rev-parse --short HEAD)"
  echo "- binary: $cli${base_cli:+; baseline: $base_cli}"
  echo "- machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- command: benchmarks/cost_growth.sh --repeat $repeat${base_cli:+ --base BASE}"
  echo "- plot: [$name.png]($name.png)"
  echo
  if [[ -n $base_cli ]]; then
    echo "| kind | input bytes | analyses | ms CPU per analysis | baseline ms |"
    echo "|---|---:|---:|---:|---:|"
  else
    echo "| kind | input bytes | analyses | ms CPU per analysis |"
    echo "|---|---:|---:|---:|"
  fi
  printf '%s\n' "${rows[@]}"
} | tee "$out_dir/$name.md"
