#!/usr/bin/env bash
# Batch throughput of `scamcheck --jsonl` (CONTRACT §8) on SMS-sized
# messages or on e-mails (--kind email), next to baselines measured in the
# same run:
#   cat FILE > /dev/null               (reading the input: the floor)
#   scamcheck --jsonl --threads 1      (one worker)
#   scamcheck --jsonl --threads N      (default N = 2)
#
# Usage: benchmarks/batch_throughput.sh [--build DIR] [--kind text|email] [--count N]
#                                       [--threads N] [--repeat R] [--corpus-dir DIR]
#   --build DIR       build directory holding adapters/cli/scamcheck (default: build)
#   --kind K          text (SMS, the default) or email
#   --count N         input lines (default 100000 for text, 5000 for email)
#   --threads N       threads for the parallel run (default 2)
#   --repeat R        runs per mode; the median is reported (default 3)
#   --corpus-dir DIR  corpora (default $SCAMCHECK_CORPUS_DIR or ../shared/corpus)
# Input lines are {"id": i, "kind": "text", "content": <SMS>} with the SMS
# taken in turn from the text records of the SMS corpora's dev split (built-in
# samples when the corpus is absent). E-mails are the email records of the
# dev splits (raw messages; base64 content for non-UTF-8 ones), or the mails
# of tests/fixtures/email when the corpus is absent. Needs jq or python3 to
# build the input from the corpus (python3 for e-mails).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
build="$repo/build"
kind=text
count=
threads=2
repeat=3
corpus_dir=${SCAMCHECK_CORPUS_DIR:-$repo/../shared/corpus}

while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --kind) kind=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --corpus-dir) corpus_dir=$2; shift 2 ;;
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "batch_throughput.sh: unknown argument: $1" >&2; exit 64 ;;
  esac
done

case $kind in
  text) count=${count:-100000} ;;
  email) count=${count:-5000} ;;
  *) echo "batch_throughput.sh: --kind must be text or email" >&2; exit 64 ;;
esac
corpus_dir=$(cd "$corpus_dir" 2> /dev/null && pwd || echo "$corpus_dir")
cli="$build/adapters/cli/scamcheck"
if [[ ! -x $cli ]]; then
  echo "batch_throughput.sh: $cli not found; build the target 'scamcheck_cli' first" >&2
  exit 66
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pool="$work/pool.jsonl"
input="$work/input.jsonl"

if [[ $kind == email ]]; then
  # The pool: one {"kind":"email","content":...} object per mail.
  python3 - "$corpus_dir" "$repo/tests/fixtures/email" > "$pool" <<'EOF'
import base64, glob, json, os, sys
corpus, fixtures = sys.argv[1:3]
def emit(raw):
    try:
        obj = {"kind": "email", "content": raw.decode("utf-8")}
    except UnicodeDecodeError:
        obj = {"kind": "email", "content": base64.b64encode(raw).decode(), "content_encoding": "base64"}
    print(json.dumps(obj, ensure_ascii=False))
found = False
for path in sorted(glob.glob(os.path.join(corpus, "*", "dev.jsonl"))):
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r.get("kind") == "email":
                emit(r["text"].encode(r.get("raw_encoding", "utf-8")))
                found = True
if not found:
    for path in sorted(glob.glob(os.path.join(fixtures, "*", "*.eml"))):
        with open(path, "rb") as f:
            emit(f.read())
EOF
  source_desc="email records of $corpus_dir/*/dev.jsonl"
  ls "$corpus_dir"/*/dev.jsonl > /dev/null 2>&1 || source_desc="tests/fixtures/email/*/*.eml"
else
# The pool: one {"kind":"text","content":...} object per SMS.
sms_files=()
for name in sms_spam_collection sms_smishing_mishra_soni; do
  [[ -f $corpus_dir/$name/dev.jsonl ]] && sms_files+=("$corpus_dir/$name/dev.jsonl")
done
source_desc="built-in samples"
if [[ ${#sms_files[@]} -gt 0 ]] && command -v jq > /dev/null; then
  jq -c 'select(.kind == "text") | {kind: "text", content: .text}' "${sms_files[@]}" > "$pool"
  source_desc="text records of ${sms_files[*]}"
elif [[ ${#sms_files[@]} -gt 0 ]] && command -v python3 > /dev/null; then
  python3 - "${sms_files[@]}" > "$pool" <<'EOF'
import json, sys
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r.get("kind", "text") == "text":
                print(json.dumps({"kind": "text", "content": r["text"]}, ensure_ascii=False))
EOF
  source_desc="text records of ${sms_files[*]}"
else
  cat > "$pool" <<'EOF'
{"kind":"text","content":"Your parcel could not be delivered. Confirm your address and pay the 1.99 EUR fee within 24h: https://parcel-redelivery.example.top/track?id=88231"}
{"kind":"text","content":"Hi Mum, my phone broke and this is my new number. Can you send me 450 pounds for the rent today? I'll pay you back Friday. Don't call, text me."}
{"kind":"text","content":"Are we still on for dinner at 7? I booked a table at the Italian place on Main Street. Let me know if you're running late, no rush at all."}
{"kind":"text","content":"Your verification code is 482913. It expires in 10 minutes. If you did not request this code you can ignore this message. Example Bank"}
{"kind":"text","content":"Thanks for your order #40213! It ships tomorrow and should arrive on Thursday. Track it in the app any time. Questions? Just reply to this text."}
{"kind":"text","content":"Running 10 min late, train stuck outside the station. Start without me, I'll grab a coffee on the way and see you in the meeting room upstairs."}
EOF
fi

fi

# Cycle through the pool, numbering the lines: {"id":1,"kind":...}.
awk -v n="$count" '{ pool[NR] = substr($0, 2) }
  END { for (i = 0; i < n; ++i) printf "{\"id\":%d,%s\n", i + 1, pool[i % NR + 1] }' \
  "$pool" > "$input"
bytes=$(wc -c < "$input")
pool_lines=$(wc -l < "$pool")

now_ns() { date +%s%N; }

# median of the arguments (numbers)
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# time_mode NAME COMMAND...: runs COMMAND < input > /dev/null `repeat` times
# and prints a table row with the median wall time.
time_mode() {
  local name=$1; shift
  local times=() r t0 t1 us
  for ((r = 0; r < repeat; ++r)); do
    t0=$(now_ns)
    if ! "$@" < "$input" > /dev/null; then
      echo "batch_throughput.sh: '$*' failed" >&2
      exit 70
    fi
    t1=$(now_ns)
    times+=($(( (t1 - t0) / 1000 )))  # microseconds
  done
  us=$(median "${times[@]}")
  awk -v name="$name" -v us="$us" -v n="$count" -v bytes="$bytes" 'BEGIN {
      s = us / 1e6; if (s <= 0) s = 1e-9;
      printf "| %-22s | %9.3f | %12.0f | %8.1f |\n", name, s, n / s, bytes / s / 1e6 }'
}

# Untimed sanity check on the first lines: one answer per line, in order,
# and how many are errors (a fast run that answers every line with an error
# would mean nothing).
check_lines=$(( count < 10000 ? count : 10000 ))
check=$(head -n "$check_lines" "$input" | "$cli" --jsonl --threads "$threads" | awk '
  { ++lines }
  /^\{"id":[0-9]+,"error"/ { ++errors }
  { if (match($0, /^\{"id":[0-9]+/)) { id = substr($0, 7, RLENGTH - 6) + 0; if (id != lines) ++misordered } }
  END { printf "%d %d %d", lines, errors, misordered }')
read -r got_lines got_errors got_misordered <<< "$check"

echo "# scamcheck --jsonl batch throughput"
echo
echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "- binary: $cli"
echo "- input: $count lines, $bytes bytes (avg $(( bytes / count )) bytes per line), from $source_desc ($pool_lines messages, cycled)"
echo "- machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "- each mode run $repeat times, output to /dev/null; median wall time"
echo "- check on the first $check_lines lines: $got_lines answers, $got_errors errors, $got_misordered out of order"
if [[ $got_lines -ne $check_lines || $got_misordered -ne 0 ]]; then
  echo "batch_throughput.sh: the CLI answered $got_lines of $check_lines lines ($got_misordered out of order)" >&2
fi
echo
echo "| mode                   |    wall s |   messages/s |   MB/s   |"
echo "|------------------------|-----------|--------------|----------|"
time_mode cat cat
time_mode "threads=1" "$cli" --jsonl --threads 1
time_mode "threads=$threads" "$cli" --jsonl --threads "$threads"
