// The learned model's share of a report's evidence: the places in the
// input whose features pushed the model furthest toward "scam", as findings
// ("suspicious_wording" for words, "suspicious_url_pattern" for parts of a
// link) with exact spans. A feature without a place in the input (a rule,
// the kind) moves the score but is never quoted: no evidence, no signal.
#ifndef SCAMCHECK_MODEL_EVIDENCE_H_
#define SCAMCHECK_MODEL_EVIDENCE_H_

#include <cstddef>
#include <functional>
#include <string_view>

#include "detect/finding.h"
#include "model/features.h"
#include "model/linear_model.h"

namespace scamcheck::internal::model {

inline constexpr std::string_view kWordingKey = "suspicious_wording";
inline constexpr std::string_view kUrlPatternKey = "suspicious_url_pattern";

// Appends up to `max_spans` findings: the spans with the largest positive
// contribution (weight times value), each at least `min_share` of the
// largest. Overlapping spans of positive features join into one phrase
// whose contribution is their sum, so a run of telling words is quoted once.
// Their `weight` ranks them among the rule findings (10..40 by share).
// A span for which `not_quoted(location, start, end)` is true is passed
// over, as a link's pattern or as words (a link to a brand's own site does
// not look like phishing, whatever its words weigh). `features` must be finished
// (FeatureSet::finish()).
using LinkFilter = std::function<bool(std::string_view, std::size_t, std::size_t)>;
void add_model_evidence(const FeatureSet& features, const LinearModel& model, Findings& out,
                        const LinkFilter& not_quoted = {}, std::size_t max_spans = 3,
                        double min_share = 0.25);

}  // namespace scamcheck::internal::model

#endif  // SCAMCHECK_MODEL_EVIDENCE_H_
