// Binary classification figures for the evaluation tool. A record counts as
// flagged iff its verdict is not `safe`; positives are the labels under test
// (scam + spam, or scam only) and negatives are ham.
#ifndef SCAMCHECK_BENCHMARKS_EVAL_METRICS_H_
#define SCAMCHECK_BENCHMARKS_EVAL_METRICS_H_

#include <cstdint>
#include <optional>

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

}  // namespace scamcheck::bench

#endif  // SCAMCHECK_BENCHMARKS_EVAL_METRICS_H_
