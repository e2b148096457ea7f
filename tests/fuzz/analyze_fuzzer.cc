// Fuzzes Analyzer::analyze for kinds text and url: the first byte picks the
// kind and locale, the rest is the content. Checks the evidence invariant
// and the bound of CONTRACT §10 (at most 64 signals, 100 urls, 64 KiB of
// JSON, one signal per key and evidence).
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "explain/bound.h"
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
  if (report->signals.size() > scamcheck::kMaxReportSignals) std::abort();
  if (report->urls.size() > scamcheck::kMaxReportUrls) std::abort();
  if (scamcheck::internal::report_json_size_bound(*report) > scamcheck::kMaxReportJsonBytes) {
    std::abort();
  }
  std::set<std::pair<std::string_view, std::string_view>> seen;
  for (const auto& s : report->signals) {
    if (s.span.start >= s.span.end || s.span.end > content.size()) std::abort();
    if (s.occurrences < 1) std::abort();
    if (!seen.emplace(s.key, s.evidence).second) std::abort();
    const std::string_view covered = content.substr(s.span.start, s.span.end - s.span.start);
    // Only a truncated report may shorten a long evidence (to a prefix).
    if (covered != s.evidence && !(report->truncated && covered.starts_with(s.evidence))) {
      std::abort();
    }
  }
  return 0;
}
