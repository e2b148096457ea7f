#!/usr/bin/env bash
# How far does a retrain move records that its data change does not touch?
# Trains four models with the working tree's scamcheck-train: with each
# visiting order (--order keyed and --order shuffled), once on the working
# tree's fixtures and once on them without the fixture records whose id
# matches ID_REGEX (e.g. a batch of new text fixtures); scores the dev split
# and the fixtures with each, and lists per order every record whose verdict
# moved between flagged and safe when the records were added (ids and scores
# only, no text; the left-out records themselves are not listed). Writes
# benchmarks/results/<date>-<commit>-retrain-stability.md.
#
#   benchmarks/eval/retrain_stability.sh [BUILD_DIR] ID_REGEX
#
# BUILD_DIR (default build) must hold scamcheck-train and scamcheck-eval
# built from the working tree. Scratch: ${SCAMCHECK_RETRAIN_DIR:-/tmp/scamcheck-retrain}/stability.
# Four trainings: about ten minutes on two busy cores.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
invocation="$*"
build=build
if (($# == 2)); then
  build=$1
  shift
fi
(($# == 1)) || { sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 64; }
regex=$1
train=$build/tools/train/scamcheck-train
eval=$build/benchmarks/eval/scamcheck-eval
for bin in "$train" "$eval"; do
  [[ -x $bin ]] || { echo "missing $bin (build scamcheck-train scamcheck-eval)" >&2; exit 64; }
done
scratch=${SCAMCHECK_RETRAIN_DIR:-/tmp/scamcheck-retrain}/stability
rm -rf "$scratch"
mkdir -p "$scratch/fixtures-without"
commit=$(git rev-parse --short HEAD)$([[ -n $(git status --porcelain) ]] && echo -dirty || true)
out=benchmarks/results/$(date -u +%F)-$commit-retrain-stability.md

# The fixtures without the records of ID_REGEX (e-mail fixtures as they are).
cp -r tests/fixtures/. "$scratch/fixtures-without/"
left_out=$(python3 - "$scratch/fixtures-without" "$regex" <<'EOF'
import json, pathlib, re, sys
rx = re.compile(sys.argv[2])
n = 0
for path in pathlib.Path(sys.argv[1]).glob("*.jsonl"):
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [l for l in lines if not (l.strip() and rx.search(json.loads(l)["id"]))]
    n += len(lines) - len(kept)
    path.write_text("".join(kept), encoding="utf-8")
print(n)
EOF
)
((left_out > 0)) || { echo "no fixture id matches $regex" >&2; exit 64; }

threads=$(nproc)
for order in keyed shuffled; do
  for data in with without; do
    dir=$scratch/$order-$data
    fixtures=tests/fixtures
    [[ $data == without ]] && fixtures=$scratch/fixtures-without
    echo "training --order $order, fixtures $data the $left_out records" >&2
    "$train" --out-dir "$dir" --order "$order" --fixtures "$fixtures" >"$dir.log" 2>&1
    "$eval" --threads "$threads" --worst 0 --model "$dir/model.bin" --scores "$dir.tsv" >/dev/null
  done
done
{
  echo "# Records a retrain moves beside a data change, per visiting order"
  echo
  echo "$(date -u +%FT%TZ), commit $commit, \`benchmarks/eval/retrain_stability.sh $invocation\`"
  echo
  echo "Each order trains twice with scamcheck-train's other options at their defaults: on"
  echo "every fixture, and without the $left_out fixture records whose id matches \`$regex\`."
  echo "Listed: every dev and fixture record (the left-out ones excepted) whose verdict"
  echo "moved between flagged and safe from the model without them to the model with them."
  for order in keyed shuffled; do
    echo
    echo "## --order $order"
    echo
    echo "without: \`$(tail -1 "$scratch/$order-without.log")\`"
    echo
    echo "with: \`$(tail -1 "$scratch/$order-with.log")\`"
    echo
    echo '```'
    python3 benchmarks/eval/moved_records.py "$scratch/$order-without.tsv" "$scratch/$order-with.tsv" --skip "$regex"
    echo '```'
  done
} >"$out"
echo "wrote $out" >&2
