#!/usr/bin/env bash
# How the cost of one analyze() grows with the input: text from 100 B to
# 64 KB (SMS-like sentences with a link now and then), e-mails from 1 KB to
# 64 KB (the content limit; a plain-text and an HTML part with links, plus a
# base64 PDF attachment from 16 KB up), DOCX documents from 10 KB to 1.3 MB
# of text and one at the 10 MiB limit (20 MiB of XML, ~15 MB of text, a
# stored image filling the rest), and PDFs from 10 KB of text to one of
# 10 MiB (50 pages, the page limit, ~10 MB of text). Each size is analysed
# many times (at least `--repeat`, up to 2,000 for small inputs; 5 times
# for a file over 2 MiB) in one `scamcheck --jsonl --threads 1` run;
# the time per analysis is the run's CPU time (user + system, best of three)
# minus that of a run over one line (start-up), divided by the analyses.
# A document over 2 MiB is also timed as a file of its own (`scamcheck
# --kind document FILE`, as an upload reaches the server: no JSON line, no
# base64; kinds document-file and pdf-file): one analysis per process less
# a process over a short text run right after it, the median of nine pairs.
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
    -h|--help) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
import base64, io, json, os, random, re, sys, zipfile
work, repeat = sys.argv[1], int(sys.argv[2])
sentences = [
    "Are we still on for dinner at seven? I booked a table at the place on Main Street.",
    "Your parcel could not be delivered, confirm your address at https://parcel-{n}.example.top/track today.",
    "The meeting moved to Thursday, the slides are in the shared folder as before.",
    "Thanks for your order, it ships tomorrow and should arrive on Friday.",
    "Your account is locked, verify your password at http://secure-{n}.example-bank.xyz/login within 24 hours.",
]
def prose(size):
    out, n, total = [], 0, 0
    while total < size:
        out.append(sentences[n % len(sentences)].format(n=n))
        total += len(out[-1]) + 1
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
def docx(size, file_size=0):
    """A DOCX with `size` bytes of text; with file_size, as much text as
    20 MiB of XML (the inflate limit) holds, and a stored image filling the
    archive up to file_size bytes."""
    ns = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    paras = [f"<w:p><w:r><w:t>{p}</w:t></w:r></w:p>" for p in prose(size).split(". ")]
    if file_size:
        room, total = (20 << 20) - 4096, 0
        for i, p in enumerate(paras):
            total += len(p)
            if total > room:
                paras = paras[:i]
                break
    doc = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
           f'<w:document xmlns:w="{ns}"><w:body>{"".join(paras)}</w:body></w:document>')
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
        rest = file_size - buf.tell() - 1024
        if rest > 0:
            z.writestr(zipfile.ZipInfo("word/media/image1.png"),
                       random.Random(1).randbytes(rest), zipfile.ZIP_STORED)
    return buf.getvalue()
def pdf(size, pages):
    """A PDF of `pages` pages holding `size` bytes of text in all, in lines
    of 1,900 characters (uncompressed content streams)."""
    text = prose(size)
    per_page = -(-len(text) // pages)
    esc = lambda s: s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>",
            ("<< /Type /Pages /Kids [" + " ".join(f"{4 + 2 * i} 0 R" for i in range(pages)) +
             f"] /Count {pages} >>").encode(),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    for i in range(pages):
        page, lines, y = text[i * per_page:(i + 1) * per_page], [], 780.0
        for at in range(0, len(page), 1900):
            lines.append(f"BT /F1 0.35 Tf 20 {y:.1f} Td ({esc(page[at:at + 1900])}) Tj ET\n")
            y = y - 7.5 if y > 17.5 else 780.0
        stream = "".join(lines).encode()
        objs.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources "
                    f"<< /Font << /F1 3 0 R >> >> /Contents {5 + 2 * i} 0 R >>".encode())
        objs.append(f"<< /Length {len(stream)} >>\nstream\n".encode() + stream + b"\nendstream")
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for n, o in enumerate(objs, 1):
        offsets.append(len(out))
        out += f"{n} 0 obj\n".encode() + o + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{o:010d} 00000 n \n" for o in offsets).encode()
    out += (f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n"
            "%%EOF\n").encode()
    return bytes(out)
def document(data):
    return {"kind": "document", "content_encoding": "base64",
            "content": base64.b64encode(data).decode()}
cases = [("text", s, lambda s: {"kind": "text", "content": prose(s)})
         for s in (100, 400, 1024, 4096, 16384, 32768, 65536)]
cases += [("email", s, lambda s: {"kind": "email", "content": mail(s)})
          for s in (1024, 4096, 16384, 32768, 65536)]
cases += [("document", s, lambda s: document(docx(s)))
          for s in (10240, 102400, 409600, 1363148)]
# At the 10 MiB limit: the text 20 MiB of XML hold.
limit_docx = docx(16 << 20, (10 << 20) - 8192)
with zipfile.ZipFile(io.BytesIO(limit_docx)) as z:
    xml = z.read("word/document.xml").decode()
limit_text = sum(len(t) for t in re.findall(r"<w:t>([^<]*)</w:t>", xml))
cases += [("document", limit_text, lambda s: document(limit_docx))]
cases += [("pdf", s, lambda s: document(pdf(s, max(1, min(50, s // 204800)))))
          for s in (10240, 102400, 1363148)]
# 50 pages (the page limit) of ~200 KB of text each: 10 MiB with the PDF's own bytes.
cases += [("pdf", 10000000, lambda s: document(pdf(s, 50)))]
with open(os.path.join(work, "sizes.txt"), "w") as index:
    for kind, size, make in cases:
        obj = make(size)
        path = os.path.join(work, f"{kind}-{size}.jsonl")
        file_bytes = len(base64.b64decode(obj["content"])) if "content_encoding" in obj else len(obj["content"].encode())
        assert file_bytes <= 10 << 20, (kind, size, file_bytes)
        lines = 5 if file_bytes > 2 << 20 else max(repeat, min(2000, 400000 // size))
        with open(path, "w") as f:
            for i in range(lines):
                f.write(json.dumps({"id": i + 1, **obj}, ensure_ascii=False) + "\n")
        with open(path + ".one", "w") as f:
            f.write(json.dumps({"id": 1, **obj}, ensure_ascii=False) + "\n")
        if file_bytes > 2 << 20:  # also as a file of its own (no JSON, no base64)
            with open(path + ".bin", "wb") as f:
                f.write(base64.b64decode(obj["content"]))
        print(kind, size, path, lines, file_bytes, file=index)
EOF

if [[ -n $keep_inputs ]]; then
  mkdir -p "$keep_inputs"
  while read -r kind size path lines file_bytes; do cp "$path.one" "$keep_inputs/$kind-$size.jsonl"; done < "$work/sizes.txt"
fi

# CPU time (user + system) of the CLI, which a busy machine disturbs less
# than wall time; the run over one line (start-up) is subtracted.
python3 - "$work" "$cli" $base_cli << 'EOF'
import os, resource, subprocess, sys
work, clis = sys.argv[1], sys.argv[2:]
def cpu(cli, path, args=("--jsonl", "--threads", "1"), runs=3):
    best = None
    for _ in range(runs):  # the least disturbed run
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        with open(path, "rb") as f:
            # A single report's exit status is its verdict (0, 1 or 2).
            r = subprocess.run([cli, *args], stdin=f, stdout=subprocess.DEVNULL)
            assert r.returncode in (0, 1, 2), (cli, path, r.returncode)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best = t if best is None else min(best, t)
    return best
with open(os.path.join(work, "sizes.txt")) as index, open(os.path.join(work, "data.dat"), "w") as out:
    for line in index:
        kind, size, path, lines, file_bytes = line.split()
        row = [kind, size, lines, file_bytes]
        for cli in clis:  # the builds one after the other, size by size
            full, one = cpu(cli, path), cpu(cli, path + ".one")
            row.append(f"{max(0.0, (full - one) / (int(lines) - 1) * 1000):.3f}")
        print(*row, file=out)
        if os.path.exists(path + ".bin"):
            # The file read as it is (`scamcheck --kind document FILE`, as
            # an upload reaches the server): one analysis per process, less
            # a process over a short text (start-up), best of five each.
            row = [kind + "-file", size, 1, file_bytes]
            short = os.path.join(work, "short.txt")
            with open(short, "w") as f:
                f.write("See you at seven?\n")
            for cli in clis:
                diffs = sorted(
                    cpu(cli, os.devnull, ("--kind", "document", path + ".bin"), runs=1) -
                    cpu(cli, os.devnull, ("--kind", "text", short), runs=1) for _ in range(9))
                row.append(f"{max(0.0, diffs[4] * 1000):.3f}")
            print(*row, file=out)
EOF
rows=()
while read -r kind size lines file_bytes ms base_ms; do
  rows+=("| $kind | $size | $file_bytes | $lines | $ms |${base_cli:+ $base_ms |}")
done < "$work/data.dat"

mkdir -p "$out_dir"
cp "$work/data.dat" "$out_dir/$name.dat"
gnuplot << EOF
set terminal pngcairo size 900,560 noenhanced
set output "$out_dir/$name.png"
set title "analyze() time per input size (scamcheck --jsonl --threads 1, $repeat runs per size)"
set xlabel "input size (bytes; documents: bytes of text in the DOCX or PDF)"
set ylabel "ms CPU per analysis"
set logscale xy
set key top left
set grid
plot "< grep '^text ' $out_dir/$name.dat" using 2:5 with linespoints lc 1 title "text", \
     "< grep '^email ' $out_dir/$name.dat" using 2:5 with linespoints lc 2 title "e-mail", \
     "< grep '^document ' $out_dir/$name.dat" using 2:5 with linespoints lc 3 title "DOCX document", \
     "< grep '^pdf ' $out_dir/$name.dat" using 2:5 with linespoints lc 4 title "PDF document", \
     "< grep -E '^(document|pdf)-file ' $out_dir/$name.dat" using 2:5 with points pt 7 lc 6 title "10 MiB DOCX, PDF as a file (no base64)", \
     $( [[ -n $base_cli ]] && echo "\"< grep '^text ' $out_dir/$name.dat\" using 2:6 with linespoints dashtype 3 lc 1 title \"text (baseline)\", \"< grep '^email ' $out_dir/$name.dat\" using 2:6 with linespoints dashtype 3 lc 2 title \"e-mail (baseline)\", \"< grep '^document ' $out_dir/$name.dat\" using 2:6 with linespoints dashtype 3 lc 3 title \"DOCX (baseline)\", \"< grep '^pdf ' $out_dir/$name.dat\" using 2:6 with linespoints dashtype 3 lc 4 title \"PDF (baseline)\"," ) \
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
    echo "| kind | input bytes (documents: of text) | file bytes | analyses | ms CPU per analysis | baseline ms |"
    echo "|---|---:|---:|---:|---:|---:|"
  else
    echo "| kind | input bytes (documents: of text) | file bytes | analyses | ms CPU per analysis |"
    echo "|---|---:|---:|---:|---:|"
  fi
  printf '%s\n' "${rows[@]}"
} | tee "$out_dir/$name.md"
