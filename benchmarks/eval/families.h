// The fixture figures by what the model saw: each fixture file's trained half
// (the records scamcheck-train learned from) beside its unseen half, and the
// scam families (fixture records with a "family" field): recall over the
// family's scams and the share of its legitimate look-alikes flagged, per
// language and half.
#ifndef SCAMCHECK_BENCHMARKS_EVAL_FAMILIES_H_
#define SCAMCHECK_BENCHMARKS_EVAL_FAMILIES_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "evaluation.h"

namespace scamcheck::bench {

// The family targets of issue 23: at least 90 % of a family's scams flagged,
// at most 3 % of its look-alikes.
inline constexpr double kFamilyMinRecall = 0.90;
inline constexpr double kFamilyMaxFlaggedLookalikes = 0.03;

// Marks each fixture record that scamcheck-train learns from (Record::trained):
// a .jsonl record whose id ends in an even number, an .eml at an even
// position (0, 2, ...) of its sorted folder. Corpus records are never
// trained on here (only their train split is).
void mark_trained(Dataset& fixture, bool eml_folder);

struct HalfRow {
  std::string name;  // dataset, or "family/lang"
  bool trained = false;
  std::int64_t scams = 0;  // positives (scam + spam)
  std::int64_t scams_flagged = 0;
  std::int64_t ham = 0;
  std::int64_t ham_flagged = 0;
  std::int64_t errors = 0;
};

// Per fixture dataset: its unseen and its trained half.
std::vector<HalfRow> fixture_halves(const std::vector<Dataset>& datasets);
// Per (family, lang, half), and per family over both languages and halves
// (trained = false, name "family/all").
std::vector<HalfRow> family_rows(const std::vector<Dataset>& datasets);

void print_halves(std::ostream& out, const std::vector<HalfRow>& halves,
                  const std::vector<HalfRow>& families);

}  // namespace scamcheck::bench

#endif  // SCAMCHECK_BENCHMARKS_EVAL_FAMILIES_H_
