// The human-readable rendering of a Report for `scamcheck --format text`.
#ifndef SCAMCHECK_ADAPTERS_CLI_TEXT_REPORT_H_
#define SCAMCHECK_ADAPTERS_CLI_TEXT_REPORT_H_

#include <string>
#include <string_view>

#include "scamcheck/report.h"

namespace scamcheck::cli {

// A readable summary: the verdict line (coloured green/yellow/red when
// `color`), score and confidence, the summary, each signal with severity,
// quoted evidence and explanation, then the recommended actions. Labels are
// the Report's JSON field names; every sentence comes from the report (and
// so from the locale catalogs). Untrusted text is made safe for a terminal:
// control characters and bidirectional overrides are shown as escapes, so a
// message cannot move the cursor, recolour the screen or reorder what it
// quotes.
std::string render_text_report(const Report& report, bool color);

// `text` with C0/C1 controls, DEL and bidi/invisible format characters
// replaced by visible escapes ("\n", "\x1b", "<U+202E>"), and invalid UTF-8
// repaired. Exposed for tests.
std::string terminal_safe(std::string_view text);

}  // namespace scamcheck::cli

#endif  // SCAMCHECK_ADAPTERS_CLI_TEXT_REPORT_H_
