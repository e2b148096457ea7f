// Scoring: findings -> risk score, verdict and confidence, configured by
// data/scoring.json (weights per key, the scale of the score curve, the
// rules' floors under the model, the weight that gives context); or, with
// the learned model (model/), its calibrated probability -> score.
#ifndef SCAMCHECK_SCORING_SCORER_H_
#define SCAMCHECK_SCORING_SCORER_H_

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "data/data_source.h"
#include "detect/finding.h"
#include "explain/glossary.h"
#include "scamcheck/report.h"
#include "scamcheck/status.h"

namespace scamcheck::internal {

struct Score {
  int risk_score = 0;
  int confidence = 0;
  Verdict verdict = Verdict::kSafe;
  // Indices into the findings, strongest first, one or more per key; the
  // weight each finding contributed is in `weights` (same order as findings).
  std::vector<std::size_t> ranked;
  std::vector<double> weights;
  // The combined rule weight the score curve was applied to.
  double total = 0;
  // The strongest finding with a severity floor (Scorer::apply_floor),
  // which alone keeps the verdict at or above its floor; first in `ranked`.
  std::optional<std::size_t> strong_sign;
};

class Scorer {
 public:
  static Result<std::unique_ptr<Scorer>> load(const DataSource& data, const Texts& texts);

  // The effective weight of a finding (rule weight, or the key's weight,
  // times strength).
  double weight_of(const Finding& f) const;

  // Whether `f` is a real sign of a scam, next to which context-only
  // evidence (a phone number, an IBAN) counts: not context itself, and
  // weighing at least "context_min_weight".
  bool gives_context(const Finding& f) const {
    return !f.requires_context && weight_of(f) >= context_min_weight_;
  }

  // With the learned model: the rules-only score from which an input of
  // `kind` stays at least suspicious ("rules_floor"); none for a kind the
  // model alone decides.
  std::optional<int> rules_floor(Kind kind) const;

  // One strong sign is enough: a finding whose severity has a floor in
  // "severity_floors" (a rule's own severity, set in its rule file) raises
  // the risk score to at least that floor and the verdict with it, whatever
  // the model or the input's length say; the model may raise it further,
  // never below. Context-only evidence and findings the context weakened
  // (strength below 1: a quoted reply, a newsletter) set no floor.
  void apply_floor(const Findings& findings, Score& score) const;

  // Combines findings: per key the strongest counts fully and each further
  // one adds `repeat_factor` of its weight (at most `repeat_cap` times the
  // strongest); score = 100 * (1 - exp(-total / scale)).
  Score score(const Findings& findings) const;

  // With the learned model: `probability` (calibrated, that the input is a
  // scam or spam) decides. Verdict: safe below `t_suspicious`, danger from
  // `t_danger` on (REQUIRES: 0 < t_suspicious < t_danger < 1). Score:
  // piecewise linear in the log-odds, t_suspicious at 30 and t_danger at 70,
  // 8 log-odds below t_suspicious at 0 and 6 above t_danger at 100, kept
  // inside the verdict's range (CONTRACT §1). Confidence: the
  // probability that the verdict is right (1 - p for safe, p otherwise), in
  // percent. `ranked`, `weights` and `total` are those of `rules`, the
  // findings' score(findings).
  static Score score_calibrated(Score rules, double probability, double t_suspicious,
                                double t_danger);

 private:
  std::map<std::string, double, std::less<>> key_weights_;
  double scale_ = 50;
  double repeat_factor_ = 0.25;
  double repeat_cap_ = 2.0;
  int text_rules_floor_ = 0;
  int email_rules_floor_ = 0;
  std::array<int, 3> severity_floors_{};  // by Severity; 0 = none
  double context_min_weight_ = 0;
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_SCORING_SCORER_H_
