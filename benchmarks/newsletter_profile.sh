#!/usr/bin/env bash
# profile_analyze.sh over the ~20 KB newsletter e-mail that
# server/latency_compare.sh posts (its plain-text and HTML parts, taken from
# that script so that both measure the same mail), as --copies JSON lines.
#
# Usage: benchmarks/newsletter_profile.sh [--copies N] [profile_analyze.sh options]
#   --copies N   lines in the input (default 20)
# Any other option (--build DIR, --top N, --keep FILE) goes to profile_analyze.sh.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
copies=20
args=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --copies) copies=$2; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) args+=("$1"); shift ;;
  esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The generator between the heredoc's opening line and its EOF.
sed -n '/^python3 - > "\$work\/email.json" << .EOF.$/,/^EOF$/p' "$here/server/latency_compare.sh" \
  | sed '1d;$d' > "$work/newsletter.py"
[[ -s $work/newsletter.py ]] || { echo "newsletter_profile.sh: no generator in server/latency_compare.sh" >&2; exit 70; }
python3 "$work/newsletter.py" > "$work/one.jsonl"
for ((i = 0; i < copies; ++i)); do cat "$work/one.jsonl"; done > "$work/newsletter.jsonl"
"$here/profile_analyze.sh" --input "$work/newsletter.jsonl" "${args[@]}"
