#!/usr/bin/env bash
# Would retraining on the working tree's data be better than the embedded
# model? Trains a model with the working tree's scamcheck-train (default
# options, the working tree's fixtures and embedded rules) into a scratch
# directory, scores the dev split with the embedded model and with the new
# one (`scamcheck-eval --compare embedded NEW`), and lists every record whose
# verdict moved between flagged and safe (ids and scores only, no text).
# Writes benchmarks/results/<date>-<commit>-retrain.md.
#
#   benchmarks/eval/retrain_compare.sh [BUILD_DIR] [-- TRAIN_OPTION...]
#
# BUILD_DIR (default build) must hold scamcheck-train and scamcheck-eval
# built from the working tree. Options after `--` go to scamcheck-train (e.g.
# `-- --seed 2`, to see how far the figures move with the seed alone); the
# log's name then ends in them (`-retrain-seed-2.md`). The scratch directory
# is ${SCAMCHECK_RETRAIN_DIR:-/tmp/scamcheck-retrain}.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
invocation="$*"
build=build
if (($# > 0)) && [[ $1 != -- ]]; then
  build=$1
  shift
fi
train_args=()
if (($# > 0)); then
  [[ $1 == -- ]] || { echo "usage: retrain_compare.sh [BUILD_DIR] [-- TRAIN_OPTION...]" >&2; exit 64; }
  shift
  train_args=("$@")
fi
train=$build/tools/train/scamcheck-train
eval=$build/benchmarks/eval/scamcheck-eval
for bin in "$train" "$eval"; do
  [[ -x $bin ]] || { echo "missing $bin (build scamcheck-train scamcheck-eval)" >&2; exit 64; }
done
scratch=${SCAMCHECK_RETRAIN_DIR:-/tmp/scamcheck-retrain}
mkdir -p "$scratch"
commit=$(git rev-parse --short HEAD)$([[ -n $(git status --porcelain) ]] && echo -dirty || true)
suffix=$(printf '%s' "${train_args[*]:-}" | tr -c 'A-Za-z0-9.' '-' | sed 's/-\+/-/g; s/^-//; s/-$//')
out=benchmarks/results/$(date -u +%F)-$commit-retrain${suffix:+-$suffix}.md

echo "training into $scratch" >&2
"$train" --out-dir "$scratch" "${train_args[@]}" >"$scratch/train.log" 2>&1
threads=$(nproc)
"$eval" --threads "$threads" --worst 0 --scores "$scratch/embedded.tsv" >/dev/null
"$eval" --threads "$threads" --worst 0 --model "$scratch/model.bin" \
  --scores "$scratch/retrained.tsv" >/dev/null
{
  echo "# Embedded model and a retrain of the working tree's data, dev split"
  echo
  echo "$(date -u +%FT%TZ), commit $commit, \`benchmarks/eval/retrain_compare.sh $*\`"
  echo
  echo "Retrained with \`scamcheck-train ${train_args[*]:-}\`: \`$(tail -1 "$scratch/train.log")\`"
  echo
  echo '```'
  "$eval" --threads "$threads" --worst 0 --compare embedded "$scratch/model.bin"
  echo '```'
  echo
  echo "## Records whose verdict moved (embedded -> retrained)"
  echo
  echo '```'
  python3 benchmarks/eval/moved_records.py "$scratch/embedded.tsv" "$scratch/retrained.tsv"
  echo '```'
} >"$out"
echo "wrote $out" >&2
