// Explain: turns scored findings into the user-facing parts of a Report —
// signals with localized explanations, the summary and the actions.
#ifndef SCAMCHECK_EXPLAIN_EXPLAIN_H_
#define SCAMCHECK_EXPLAIN_EXPLAIN_H_

#include <functional>
#include <string_view>

#include "detect/finding.h"
#include "explain/glossary.h"
#include "scamcheck/report.h"
#include "scoring/scorer.h"

namespace scamcheck::internal {

// Resolves a finding's location ("content", "header:From", "body:html") to
// the text its span indexes.
using TextOf = std::function<std::string_view(std::string_view location)>;

// Fills report.signals (empty before), summary_plain, actions, risk_text and locale. A
// finding whose span does not fit the text of its location is dropped: no
// evidence, no signal.
void explain(const Texts& texts, const Findings& findings, const Score& score,
             const TextOf& text_of, std::string_view locale, Report& report);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_EXPLAIN_EXPLAIN_H_
