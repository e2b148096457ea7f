#!/usr/bin/env bash
# Per-language detection figures: the share of each language's text fixtures
# (tests/fixtures/*_text*.jsonl, by their `lang`) flagged as suspicious or
# danger, scams and legitimate apart, with the rules alone and with the
# model, and the dev corpora's FPR, recall and MCC -- at BASELINE (default
# main) and at the working tree, both on the working tree's fixtures, in one
# run. Writes benchmarks/results/<date>-<commit>-languages.md.
#
#   benchmarks/eval/language_rates.sh [BASELINE]
#
# Builds scamcheck-eval for each side under ${SCAMCHECK_COMPARE_DIR:-/tmp/scamcheck-compare}
# (Release; ccache when installed). Corpus: ../shared/corpus beside the
# checkout, or $SCAMCHECK_CORPUS_DIR.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root=$PWD
baseline=$(git rev-parse --short "${1:-main}")
export SCAMCHECK_CORPUS_DIR=${SCAMCHECK_CORPUS_DIR:-$root/../shared/corpus}
scratch=${SCAMCHECK_COMPARE_DIR:-/tmp/scamcheck-compare}
mkdir -p "$scratch"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)

build_eval() {
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSCAMCHECK_BUILD_TESTS=OFF \
    -DSCAMCHECK_BUILD_TRAIN=OFF "${launcher[@]}" >/dev/null
  cmake --build "$2" -j"$(nproc)" --target scamcheck-eval >/dev/null
}

base_tree=$scratch/tree-$baseline
[[ -d $base_tree ]] || git worktree add -f --detach "$base_tree" "$baseline" >/dev/null 2>&1
after=$(git rev-parse --short HEAD)$([[ -n $(git status --porcelain) ]] && echo -dirty || true)
echo "building scamcheck-eval at $baseline and at $after" >&2
build_eval "$base_tree" "$scratch/build-$baseline"
build_eval "$root" "$scratch/build-languages-after"

for side in baseline after; do
  bin=$scratch/build-$([[ $side == baseline ]] && echo "$baseline" || echo languages-after)/benchmarks/eval/scamcheck-eval
  mkdir -p "$scratch/lang-$side"
  for mode in model rules-only; do
    flags=()
    [[ $mode == rules-only ]] && flags=(--rules-only)
    "$bin" --threads "$(nproc)" --worst 0 --fixtures "$root/tests/fixtures" "${flags[@]}" \
      --json "$scratch/lang-$side/$mode.json" --scores "$scratch/lang-$side/$mode.tsv" >/dev/null
  done
done

out=benchmarks/results/$(date -u +%F)-$after-languages.md
{
  echo "# Detection by language: $baseline (baseline) and $after, dev split"
  echo
  echo "$(date -u +%FT%TZ), \`benchmarks/eval/language_rates.sh ${1:-main}\`, corpus $SCAMCHECK_CORPUS_DIR,"
  echo "both sides scored on the fixtures of $after. Fixtures with an even id are in the model's"
  echo "training set (tools/train) once it is retrained on them; the model of both sides here is"
  echo "the one each tree ships."
  python3 benchmarks/eval/language_rates.py "$root/tests/fixtures" \
    "$baseline=$scratch/lang-baseline" "$after=$scratch/lang-after"
} >"$out"
cat "$out"
echo "written: $out" >&2
