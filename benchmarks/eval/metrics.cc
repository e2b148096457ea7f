#include "metrics.h"

#include <cmath>

namespace scamcheck::bench {

Metrics compute_metrics(const Confusion& c) {
  Metrics m;
  const auto tp = static_cast<double>(c.tp);
  const auto fn = static_cast<double>(c.fn);
  const auto fp = static_cast<double>(c.fp);
  const auto tn = static_cast<double>(c.tn);
  if (c.negatives() > 0) m.fpr = fp / (fp + tn);
  if (c.positives() > 0) m.recall = tp / (tp + fn);
  // Precision, F1 and MCC say something only when both classes are present
  // (on an all-scam corpus precision is trivially 1).
  if (c.positives() > 0 && c.negatives() > 0) {
    if (c.tp + c.fp > 0) m.precision = tp / (tp + fp);
    if (m.precision) {
      const double sum = *m.precision + *m.recall;
      m.f1 = sum > 0 ? 2 * *m.precision * *m.recall / sum : 0.0;
    } else {
      m.f1 = 0.0;  // nothing flagged: no true positive either
    }
    // With nothing flagged (or everything) the denominator is 0; the usual
    // convention is 0 (no better than chance).
    const double denom = std::sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn));
    m.mcc = denom > 0 ? (tp * tn - fp * fn) / denom : 0.0;
  }
  return m;
}

}  // namespace scamcheck::bench
