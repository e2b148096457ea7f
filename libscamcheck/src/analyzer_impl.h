// The analysis pipeline behind scamcheck::Analyzer: wiring only. Each stage
// lives in its own folder (see README.md): validate, decode, detect (text:
// rules, unicode, links; email/; decode/file_detect), context, reputation,
// score, explain, AI provider.
#ifndef SCAMCHECK_ANALYZER_IMPL_H_
#define SCAMCHECK_ANALYZER_IMPL_H_

#include <memory>
#include <optional>

#include "decode/file_reader.h"
#include "decode/mime.h"
#include "detect/unicode_checks.h"
#include "email/email_detector.h"
#include "explain/glossary.h"
#include "extract/links.h"
#include "model/features.h"
#include "normalize/normalize.h"
#include "providers/ai_stage.h"
#include "providers/reputation_stage.h"
#include "rules/rule_set.h"
#include "scamcheck/analyzer.h"
#include "scoring/model_scorer.h"
#include "scoring/scorer.h"
#include "text_stage.h"
#include "url/url_analyzer.h"

namespace scamcheck::internal {

class AnalyzerImpl final : public Analyzer, private TextStage {
 public:
  static Result<std::unique_ptr<Analyzer>> create(const Options& options);

  using Analyzer::analyze;
  Result<Report> analyze(std::string_view content, Kind kind,
                         std::string_view locale) const override;
  Result<std::vector<Report>> analyze_qr_codes(std::string_view image,
                                               std::string_view locale) const override;
  Status ocr_status() const override { return files_->ocr_status(); }
  ProviderStats provider_stats() const override;

  const Texts& texts() const { return *texts_; }

  // The raw findings for valid input (also fills report.urls); analyze()
  // scores and explains them. Exposed for tests and tools.
  // For kind email, `email` (if given) receives the decoded message, whose
  // header and part texts the findings' spans index into. For kind text,
  // `normalized` (if given) receives the rules' normalization of `content`;
  // for kind email, `sender` (if given) what the e-mail stage found out
  // about the sender (MailSender).
  Result<Findings> detect(std::string_view content, Kind kind, Report& report,
                          ParsedEmail* email = nullptr,
                          std::optional<NormalizedText>* normalized = nullptr,
                          MailSender* sender = nullptr) const;

  // The learned model's features of valid input, read exactly as analyze()
  // reads them. Exposed for the training tool (tools/train), which builds
  // its analyzer without a model (Options::use_model = false).
  Result<model::FeatureSet> model_features(std::string_view content, Kind kind) const;

  // Checks the input against CONTRACT §1's limits.
  static Status validate(std::string_view content, Kind kind);

 private:
  AnalyzerImpl() = default;

  // The text stage: rules, unicode checks, then each link's URL analysis.
  Status detect_text(std::string_view text, std::string_view location, std::string_view sender_site,
                     Findings& findings, Report& report) const override;
  void detect_link(std::string_view text, const LinkMatch& link, std::string_view sender_site,
                   Findings& findings, Report& report) const override;
  Status detect_normalized(const NormalizedText& normalized, std::string_view location,
                           std::string_view sender_site, Findings& findings,
                           Report& report) const override;
  // Content of kind url: the URL, and where a redirect in its query leads
  // (its UrlInfo second in report.urls).
  void detect_url(std::string_view content, Findings& findings, Report& report) const;

  std::unique_ptr<Texts> texts_;
  std::unique_ptr<RuleSet> text_rules_;
  LinkLists links_;  // what counts as a bare host name
  std::unique_ptr<UrlAnalyzer> urls_;
  std::unique_ptr<UnicodeChecker> unicode_;
  std::unique_ptr<EmailDetector> email_;
  std::unique_ptr<FileReader> files_;  // images and documents
  std::unique_ptr<Scorer> scorer_;
  std::unique_ptr<ModelScorer> model_;           // the rules alone without a model
  std::unique_ptr<ReputationStage> reputation_;  // null: no reputation source
  std::unique_ptr<AiStage> ai_;                  // null: heuristic only
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_ANALYZER_IMPL_H_
