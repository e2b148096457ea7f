// The evaluation tool's data model: datasets (a corpus split, a fixture file
// or a generated pseudo-corpus), the outcome of analysing each record, the
// per-dataset summary, and the text and JSON reports built from them.
#ifndef SCAMCHECK_BENCHMARKS_EVAL_EVALUATION_H_
#define SCAMCHECK_BENCHMARKS_EVAL_EVALUATION_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "jsonl_corpus.h"
#include "metrics.h"
#include "scamcheck/report.h"

namespace scamcheck::bench {

// What one analyze() call produced for one record.
struct Outcome {
  bool ok = false;
  std::string error;  // Status::to_string() when !ok
  Verdict verdict = Verdict::kSafe;
  int score = 0;
  int confidence = 0;
  // The first few signals, as (key, evidence), for the worst-case listings.
  std::vector<std::pair<std::string, std::string>> first_signals;
  // Every signal as "key@location", space-separated, for --scores.
  std::string all_signals;
  double micros = 0;  // wall time of the call
};

struct Dataset {
  std::string name;    // corpus folder, "fixtures/<file stem>" or pseudo-corpus name
  std::string origin;  // "corpus", "fixture" or "generated"
  std::vector<Record> records;
  std::vector<Outcome> outcomes;  // parallel to records
};

struct LabelCounts {
  std::int64_t n = 0;
  std::int64_t errors = 0;
  std::int64_t safe = 0;
  std::int64_t suspicious = 0;
  std::int64_t danger = 0;
};

struct Summary {
  std::string name;
  std::string origin;
  std::int64_t n = 0;
  std::int64_t errors = 0;
  std::array<LabelCounts, 3> by_label;  // indexed by Label
  Confusion all;                        // scam + spam vs ham
  Confusion scam_only;                  // scam vs ham (spam records left out)
  // Error messages with their count and the first record id, most frequent
  // first.
  struct ErrorGroup {
    std::string message;
    std::int64_t count = 0;
    std::string example_id;
  };
  std::vector<ErrorGroup> error_groups;
  std::vector<std::size_t> worst_fp;  // record indices, highest score first
  std::vector<std::size_t> worst_fn;  // record indices, lowest score first
  // Wall time per analyze() call. The mean includes the one-time warm-up of
  // the first calls (lazily built matchers); the median does not.
  double mean_micros = 0;
  double p50_micros = 0;
  double p99_micros = 0;
  // Ranking (ROC and PR AUC of risk_score) and whether confidence holds.
  Curves curves;
  ConfidenceCheck confidence;
};

Summary summarize(const Dataset& dataset, std::size_t worst);

const LabelCounts& counts(const Summary& s, Label label);
bool has_label(const Summary& s, Label label);

// A fixture file of legitimate messages: legit_*.jsonl (dataset name
// "fixtures/legit_*").
bool is_legit_fixture(const Dataset& dataset);

// Targets the fixture test (tests/corpus) also enforces.
inline constexpr double kLegitMaxSuspiciousFraction = 0.05;  // and no danger at all
inline constexpr double kScamFixtureMinFlaggedFraction = 0.80;

// The fixture targets, per fixture file: "legit" for legit_*.jsonl (its ham
// records), "scam" for any fixture file with scam records.
struct FixtureCheck {
  std::string name;
  std::string kind;         // "legit" or "scam"
  std::int64_t judged = 0;  // records analysed without error
  double danger = 0;        // fractions of `judged`
  double suspicious = 0;
  double flagged = 0;
  bool pass = false;
};
std::vector<FixtureCheck> fixture_checks(const std::vector<Dataset>& datasets,
                                         const std::vector<Summary>& summaries);

struct RunInfo {
  std::string date;  // UTC, ISO 8601
  std::string label;
  std::string split;
  std::string corpus_dir;
  bool corpus_found = false;
  std::string fixtures_dir;
  std::string data_dir;  // "" = embedded pack
  std::string model;     // "rules only", "embedded model" or a model file
  unsigned threads = 1;
  std::size_t worst = 5;
  std::int64_t records = 0;
  double elapsed_seconds = 0;
};

// ROC and PR AUC and the confidence check over several datasets at once
// (e.g. every corpus of the split): the figures of one pooled dataset.
Summary pool(const std::string& name, const std::vector<const Dataset*>& datasets);

// Writes roc.png and pr.png (one curve per dataset with both ham and
// positives, plus `pooled`) to `dir` with gnuplot, and the points as
// <dir>/curves.dat. Returns false and sets *error if that fails.
bool write_plots(const std::string& dir, const std::vector<Summary>& summaries,
                 const std::string& title, std::string* error);

// One row of the ranking and confidence table, for a pooled summary.
void print_pooled(std::ostream& out, const Summary& s);

void print_text(std::ostream& out, const RunInfo& info, const std::vector<Dataset>& datasets,
                const std::vector<Summary>& summaries);

// Returns false (and sets *error) if the file cannot be written.
bool write_json(const std::string& path, const RunInfo& info, const std::vector<Dataset>& datasets,
                const std::vector<Summary>& summaries, std::string* error);

// For reading a record in a listing: the first `max_chars` characters, with
// control characters escaped. For an e-mail, its Subject and the start of
// its body (the headers say little to a reader).
std::string record_preview(const Record& record, std::size_t max_chars);

}  // namespace scamcheck::bench

#endif  // SCAMCHECK_BENCHMARKS_EVAL_EVALUATION_H_
