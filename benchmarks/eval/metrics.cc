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

Curves compute_curves(const std::vector<std::pair<int, bool>>& scored) {
  Curves c;
  std::array<std::int64_t, 101> pos{};
  std::array<std::int64_t, 101> neg{};
  std::int64_t p = 0;
  std::int64_t n = 0;
  for (const auto& [score, positive] : scored) {
    const int s = score < 0 ? 0 : score > 100 ? 100 : score;
    if (positive) {
      ++pos[s];
      ++p;
    } else {
      ++neg[s];
      ++n;
    }
  }
  if (p == 0 || n == 0) return c;
  // Sweep thresholds from high to low.
  double auc = 0;
  double ap = 0;
  std::int64_t tp = 0;
  std::int64_t fp = 0;
  c.points.push_back({0.0, 0.0, 1.0});
  for (int t = 100; t >= 0; --t) {
    const std::int64_t dtp = pos[t];
    const std::int64_t dfp = neg[t];
    // Negatives below t ranked under these positives; ties count half.
    auc += static_cast<double>(dtp) *
           (static_cast<double>(n - fp - dfp) + 0.5 * static_cast<double>(dfp));
    tp += dtp;
    fp += dfp;
    const double recall = static_cast<double>(tp) / static_cast<double>(p);
    const double precision =
        tp + fp > 0 ? static_cast<double>(tp) / static_cast<double>(tp + fp) : 1.0;
    if (dtp > 0) ap += static_cast<double>(dtp) / static_cast<double>(p) * precision;
    c.points.push_back({static_cast<double>(fp) / static_cast<double>(n), recall, precision});
  }
  c.roc_auc = auc / (static_cast<double>(p) * static_cast<double>(n));
  c.pr_auc = ap;
  return c;
}

ConfidenceCheck compute_confidence(const std::vector<std::pair<int, bool>>& judged) {
  ConfidenceCheck c;
  std::array<double, 10> conf_sum{};
  std::array<std::int64_t, 10> right{};
  std::array<std::int64_t, 10> count{};
  std::int64_t confident_right = 0;
  std::int64_t all_right = 0;
  for (const auto& [confidence, ok] : judged) {
    const int bin = confidence >= 100 ? 9 : confidence < 0 ? 0 : confidence / 10;
    conf_sum[bin] += confidence / 100.0;
    right[bin] += ok;
    ++count[bin];
    ++c.n;
    all_right += ok;
    if (confidence >= kConfidentFrom) {
      ++c.confident;
      confident_right += ok;
    }
  }
  if (c.n == 0) return c;
  double ece = 0;
  for (int b = 0; b < 10; ++b) {
    if (count[b] == 0) continue;
    const double k = static_cast<double>(count[b]);
    ece += k / static_cast<double>(c.n) *
           std::fabs(conf_sum[b] / k - static_cast<double>(right[b]) / k);
  }
  c.ece = ece;
  c.accuracy = static_cast<double>(all_right) / static_cast<double>(c.n);
  if (c.confident > 0) {
    c.confident_right = static_cast<double>(confident_right) / static_cast<double>(c.confident);
  }
  return c;
}

}  // namespace scamcheck::bench
