#!/usr/bin/env bash
# Do two commits analyse the dev split alike? For changes that must not move
# any figure (a refactoring): builds scamcheck-eval at BEFORE and at AFTER
# (default: the working tree), runs it with the model and with the rules
# alone, and compares every figure and every record's score, verdict and
# signals (compare_eval.py). Writes the log to
# benchmarks/results/<date>-<after>-compare-<before>.md and exits 1 when the
# two differ.
#
#   benchmarks/eval/compare_revisions.sh BEFORE [AFTER]
#
# SCAMCHECK_COMPARE_SPLIT=train compares the train split instead (the log's
# name then ends in -train.md).
#
# Each revision is built in its own scratch worktree under
# ${SCAMCHECK_COMPARE_DIR:-/tmp/scamcheck-compare} (Release; ccache is used
# when installed). The corpus is ../shared/corpus beside the checkout, or
# $SCAMCHECK_CORPUS_DIR.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root=$PWD

if (($# < 1 || $# > 2)); then
  sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 64
fi
before=$(git rev-parse --short "$1")
after_label=${2:-worktree}
export SCAMCHECK_CORPUS_DIR=${SCAMCHECK_CORPUS_DIR:-$root/../shared/corpus}
scratch=${SCAMCHECK_COMPARE_DIR:-/tmp/scamcheck-compare}
mkdir -p "$scratch"

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)

# build_eval SOURCE_DIR BUILD_DIR: scamcheck-eval of that tree.
build_eval() {
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSCAMCHECK_BUILD_TESTS=OFF \
    -DSCAMCHECK_BUILD_TRAIN=OFF "${launcher[@]}" >/dev/null
  cmake --build "$2" -j"$(nproc)" --target scamcheck-eval >/dev/null
}

# tree_of REV: a worktree checked out at REV.
tree_of() {
  local dir=$scratch/tree-$1
  [[ -d $dir ]] || git worktree add -f --detach "$dir" "$1" >/dev/null 2>&1
  echo "$dir"
}

before_tree=$(tree_of "$before")
if [[ $after_label == worktree ]]; then
  after_tree=$root
  after=$(git rev-parse --short HEAD)$([[ -n $(git status --porcelain) ]] && echo -dirty || true)
else
  after=$(git rev-parse --short "$after_label")
  after_tree=$(tree_of "$after")
fi

echo "building scamcheck-eval at $before and $after" >&2
build_eval "$before_tree" "$scratch/build-$before"
build_eval "$after_tree" "$scratch/build-after"

split=${SCAMCHECK_COMPARE_SPLIT:-dev}
suffix=$([[ $split == dev ]] || echo "-$split")
out=benchmarks/results/$(date -u +%F)-$after-compare-$before$suffix.md
status=0
{
  echo "# scamcheck-eval at $before and at $after, $split split"
  echo
  echo "$(date -u +%FT%TZ), \`benchmarks/eval/compare_revisions.sh $*\`, corpus $SCAMCHECK_CORPUS_DIR"
  for mode in model rules-only; do
    flags=()
    [[ $mode == rules-only ]] && flags=(--rules-only)
    for side in before after; do
      "$scratch/build-$([[ $side == before ]] && echo "$before" || echo after)/benchmarks/eval/scamcheck-eval" \
        --threads "$(nproc)" --worst 0 --split "$split" "${flags[@]}" \
        --json "$scratch/$side-$mode.json" --scores "$scratch/$side-$mode.tsv" >/dev/null
    done
    echo
    echo "## $mode"
    echo
    echo '```'
    python3 benchmarks/eval/compare_eval.py "$scratch/before-$mode.json" "$scratch/after-$mode.json" \
      --scores "$scratch/before-$mode.tsv" "$scratch/after-$mode.tsv" || status=1
    echo '```'
  done
} >"$out"
cat "$out"
echo "written: $out" >&2
exit $status
