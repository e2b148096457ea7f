// Explain: turns scored findings into the user-facing parts of a Report —
// signals with localized explanations, the summary and the actions.
#ifndef SCAMCHECK_EXPLAIN_EXPLAIN_H_
#define SCAMCHECK_EXPLAIN_EXPLAIN_H_

#include <string_view>

#include "detect/finding.h"
#include "explain/glossary.h"
#include "scamcheck/report.h"
#include "scoring/scorer.h"

namespace scamcheck::internal {

// Fills report.signals, summary_plain, actions, risk_text and locale.
// `source` resolves a finding's location to the text its span indexes.
void explain(const Texts& texts, const Findings& findings, const Score& score,
             std::string_view content, std::string_view locale, Report& report);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_EXPLAIN_EXPLAIN_H_
