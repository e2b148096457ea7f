// The analysis pipeline behind scamcheck::Analyzer: wiring only; each stage
// lives in its own folder (normalize, extract, url, rules, detect, scoring,
// explain).
#ifndef SCAMCHECK_ANALYZER_IMPL_H_
#define SCAMCHECK_ANALYZER_IMPL_H_

#include <memory>

#include "detect/unicode_checks.h"
#include "explain/glossary.h"
#include "rules/rule_set.h"
#include "scamcheck/analyzer.h"
#include "scoring/scorer.h"
#include "url/url_analyzer.h"

namespace scamcheck::internal {

class AnalyzerImpl final : public Analyzer {
 public:
  static Result<std::unique_ptr<Analyzer>> create(const Options& options);

  using Analyzer::analyze;
  Result<Report> analyze(std::string_view content, Kind kind,
                         std::string_view locale) const override;

  const Texts& texts() const { return *texts_; }

  // The raw findings for valid input (also fills report.urls); analyze()
  // scores and explains them. Exposed for tests and tools.
  Result<Findings> detect(std::string_view content, Kind kind, Report& report) const;

  // Checks the input against CONTRACT §1's limits.
  static Status validate(std::string_view content, Kind kind);

 private:
  AnalyzerImpl() = default;

  // Collects the findings of one text or URL input.
  // Runs the text stages over `text`; findings get `location`.
  Status detect_text(std::string_view text, std::string_view location, Findings& findings,
                     Report& report) const;
  void detect_url(std::string_view content, Findings& findings, Report& report) const;

  std::unique_ptr<Texts> texts_;
  std::unique_ptr<RuleSet> text_rules_;
  std::unique_ptr<UrlAnalyzer> urls_;
  std::unique_ptr<UnicodeChecker> unicode_;
  std::unique_ptr<Scorer> scorer_;
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_ANALYZER_IMPL_H_
