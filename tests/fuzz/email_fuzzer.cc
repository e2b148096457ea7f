// Fuzzes Analyzer::analyze for kind email: the whole input is the raw
// message (any bytes). Checks the evidence invariant of CONTRACT §1 for
// email: every signal's evidence is non-empty and is the decoded text of its
// location (header value, part text, attachment filename) at its span;
// parse_email is deterministic, so parsing again gives those texts.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "decode/mime.h"
#include "scamcheck/scamcheck.h"
#include "util/text.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto analyzer = scamcheck::Analyzer::create();
  if (!analyzer.ok()) std::abort();
  const std::string_view content(reinterpret_cast<const char*>(data), size);

  // The decoder on its own: never fails on non-blank input, always UTF-8.
  auto parsed = scamcheck::internal::parse_email(content);
  if (parsed.ok()) {
    for (const auto& h : parsed->headers) {
      if (!scamcheck::internal::is_valid_utf8(h.value)) std::abort();
    }
    for (const auto& p : parsed->parts) {
      if (!scamcheck::internal::is_valid_utf8(p.text)) std::abort();
      if (!scamcheck::internal::is_valid_utf8(p.filename)) std::abort();
    }
  }

  auto report = (*analyzer)->analyze(content, scamcheck::Kind::kEmail, "en");
  if (!report.ok()) return 0;  // e.g. too large, or kind email not built in
  if (report->risk_score < 0 || report->risk_score > 100) std::abort();
  if (report->actions.empty() || report->actions.size() > 4) std::abort();
  for (const auto& s : report->signals) {
    if (s.evidence.empty() || s.location.empty()) std::abort();
    if (s.span.start >= s.span.end || s.span.end - s.span.start != s.evidence.size()) std::abort();
    if (!parsed.ok()) std::abort();  // signals need a parsed message
    const std::string_view text = parsed->text_of(s.location);
    if (s.span.end > text.size()) std::abort();
    if (text.substr(s.span.start, s.span.end - s.span.start) != s.evidence) std::abort();
  }
  return 0;
}
