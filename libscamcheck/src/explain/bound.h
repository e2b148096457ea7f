// The bound on every Report (CONTRACT §10): one signal per key and
// evidence, at most kMaxReportSignals signals and kMaxReportUrls urls (the
// strongest kept), and at most kMaxReportJsonBytes of compact JSON.
#ifndef SCAMCHECK_EXPLAIN_BOUND_H_
#define SCAMCHECK_EXPLAIN_BOUND_H_

#include <cstddef>
#include <functional>
#include <string_view>

#include "scamcheck/report.h"

namespace scamcheck::internal {

// The weight a signal's finding added to the score (0 when unknown, e.g. a
// signal an AI provider proposed); ranks signals of the same severity.
using SignalWeight = std::function<double(const Signal&)>;

// Bounds `report` in place. Repeats of a key with the same evidence fold
// into the first one's `occurrences`; beyond the caps the weakest signals
// (severity, then weight; later first among equals) and urls (clean, then
// unknown, then malicious; later first) are left out, the rest keeping
// their order. When the JSON would still be larger than the limit, long
// evidence (prefix kept, span unchanged), summary, action texts and
// extracted_text are shortened, then the weakest signals and urls dropped
// until it fits. Sets report.truncated when anything was left out or cut.
// Scores, verdict and confidence are not touched. Idempotent.
void bound_report(Report& report, const SignalWeight& weight = {},
                  std::size_t max_json_bytes = kMaxReportJsonBytes);

// An upper bound of the size of the compact JSON the adapters write for
// `report` (adapters/common/report_json.cc: RapidJSON escaping, invalid
// UTF-8 replaced by U+FFFD).
std::size_t report_json_size_bound(const Report& report);

// Upper bound of the JSON string literal for `text`, quotes included.
std::size_t json_string_size_bound(std::string_view text);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_EXPLAIN_BOUND_H_
