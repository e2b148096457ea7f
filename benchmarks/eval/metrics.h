// Binary classification figures for the evaluation tool. A record counts as
// flagged iff its verdict is not `safe`; positives are the labels under test
// (scam + spam, or scam only) and negatives are ham.
#ifndef SCAMCHECK_BENCHMARKS_EVAL_METRICS_H_
#define SCAMCHECK_BENCHMARKS_EVAL_METRICS_H_

#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace scamcheck::bench {

struct Confusion {
  std::int64_t tp = 0;  // positive, flagged
  std::int64_t fn = 0;  // positive, safe
  std::int64_t fp = 0;  // ham, flagged
  std::int64_t tn = 0;  // ham, safe

  std::int64_t positives() const { return tp + fn; }
  std::int64_t negatives() const { return fp + tn; }
};

// Each figure is std::nullopt when it is undefined or meaningless for the
// data: FPR needs ham, recall needs positives, and precision, F1 and MCC
// need both.
struct Metrics {
  std::optional<double> fpr;        // fp / ham
  std::optional<double> precision;  // tp / (tp + fp)
  std::optional<double> recall;     // tp / positives
  std::optional<double> f1;
  std::optional<double> mcc;  // Matthews correlation, -1..1
};

Metrics compute_metrics(const Confusion& c);

// Ranking quality of risk_score (0-100), independent of the verdict
// thresholds: ROC AUC (ties count half) and PR AUC (average precision over
// the distinct score thresholds). Both need positives and negatives.
struct Curves {
  std::optional<double> roc_auc;
  std::optional<double> pr_auc;
  // One point per threshold "score >= t", t = 101 (nothing flagged) down to
  // 0: {false-positive rate, true-positive rate (= recall), precision}.
  std::vector<std::array<double, 3>> points;
};
// `scored`: (risk_score, is_positive) per record.
Curves compute_curves(const std::vector<std::pair<int, bool>>& scored);

// Whether confidence means what it says: `judged` is (confidence 0-100,
// verdict right) per record, right = flagged for scam/spam, safe for ham.
struct ConfidenceCheck {
  std::int64_t n = 0;
  std::optional<double> ece;              // expected calibration error, 10 equal-width bins
  std::int64_t confident = 0;             // records with confidence >= 80
  std::optional<double> confident_right;  // fraction of those whose verdict is right
  std::optional<double> accuracy;         // fraction of all verdicts that are right
};
inline constexpr int kConfidentFrom = 80;
ConfidenceCheck compute_confidence(const std::vector<std::pair<int, bool>>& judged);

}  // namespace scamcheck::bench

#endif  // SCAMCHECK_BENCHMARKS_EVAL_METRICS_H_
