// Fuzzes Analyzer::analyze for kinds text and url: the first byte picks the
// kind and locale, the rest is the content. Checks the evidence invariant.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "scamcheck/scamcheck.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto analyzer = scamcheck::Analyzer::create();
  if (!analyzer.ok()) std::abort();
  if (size == 0) return 0;
  const auto kind = (data[0] & 1) ? scamcheck::Kind::kUrl : scamcheck::Kind::kText;
  const char* locale = (data[0] & 2) ? "de-AT" : "en";
  const std::string_view content(reinterpret_cast<const char*>(data + 1), size - 1);
  auto report = (*analyzer)->analyze(content, kind, locale);
  if (!report.ok()) return 0;
  if (report->risk_score < 0 || report->risk_score > 100) std::abort();
  if (report->actions.empty() || report->actions.size() > 4) std::abort();
  for (const auto& s : report->signals) {
    if (s.span.start >= s.span.end || s.span.end > content.size()) std::abort();
    if (content.substr(s.span.start, s.span.end - s.span.start) != s.evidence) std::abort();
  }
  return 0;
}
