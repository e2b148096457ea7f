// The analysis pipeline behind scamcheck::Analyzer: wiring only; each stage
// lives in its own folder (normalize, extract, url, rules, detect, scoring,
// explain).
#ifndef SCAMCHECK_ANALYZER_IMPL_H_
#define SCAMCHECK_ANALYZER_IMPL_H_

#include <memory>

#include "decode/file_reader.h"
#include "decode/mime.h"
#include "detect/unicode_checks.h"
#include "email/email_checks.h"
#include "email/mail_context.h"
#include "explain/glossary.h"
#include "extract/links.h"
#include "model/features.h"
#include "model/linear_model.h"
#include "providers/ai_stage.h"
#include "providers/reputation_stage.h"
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
  Result<std::vector<Report>> analyze_qr_codes(std::string_view image,
                                               std::string_view locale) const override;
  Status ocr_status() const override { return files_->ocr_status(); }
  ProviderStats provider_stats() const override;

  const Texts& texts() const { return *texts_; }

  // The raw findings for valid input (also fills report.urls); analyze()
  // scores and explains them. Exposed for tests and tools.
  // For kind email, `email` (if given) receives the decoded message, whose
  // header and part texts the findings' spans index into.
  Result<Findings> detect(std::string_view content, Kind kind, Report& report,
                          ParsedEmail* email = nullptr) const;

  // The learned model's features of valid input, read exactly as analyze()
  // reads them. Exposed for the training tool (tools/train), which builds
  // its analyzer without a model (Options::use_model = false).
  Result<model::FeatureSet> model_features(std::string_view content, Kind kind) const;

  // Checks the input against CONTRACT §1's limits.
  static Status validate(std::string_view content, Kind kind);

 private:
  AnalyzerImpl() = default;

  // Runs the text stages over `text`; findings get `location`. In a mail,
  // `sender_site` is the From address's registrable domain ("" otherwise).
  Status detect_text(std::string_view text, std::string_view location, std::string_view sender_site,
                     Findings& findings, Report& report) const;
  void detect_link(std::string_view text, const LinkMatch& link, std::string_view sender_site,
                   Findings& findings, Report& report) const;
  Status detect_email(const ParsedEmail& email, Findings& findings, Report& report) const;
  // Returns the text the part shows a reader.
  std::string detect_html(const EmailPart& part, std::string_view sender_site, Findings& findings,
                          Report& report) const;
  void detect_url(std::string_view content, Findings& findings, Report& report) const;
  // Kinds image and document: reads the file, sets report.extracted_text
  // and analyses it (locations "ocr", "qr", "document").
  Status detect_file(std::string_view content, Kind kind, Findings& findings, Report& report) const;
  // The QR payload at [start, end) of `text`: a URL gets the URL analysis,
  // anything else the text stages; findings get location "qr".
  Status detect_qr_payload(std::string_view text, std::size_t start, std::size_t end,
                           Findings& findings, Report& report) const;

  // The model's features of analysed input (`findings` from detect();
  // `rules_total` their score's total).
  model::FeatureSet build_features(std::string_view content, Kind kind, const Findings& findings,
                                   double rules_total, const ParsedEmail& email) const;
  // analyze()'s scoring with the model; appends its evidence to `findings`.
  Score score_with_model(std::string_view content, Kind kind, const ParsedEmail& email,
                         const std::vector<UrlInfo>& urls, Findings& findings) const;
  // Whether `url` is on a known brand's official site other than a platform
  // anyone can publish on (brands.json "open_platform_categories", free
  // hosting).
  bool on_brand_own_site(const UrlInfo& url, const Findings& findings) const;

  std::unique_ptr<model::LinearModel> model_;  // null: scored by the rules alone
  std::unique_ptr<Texts> texts_;
  std::unique_ptr<RuleSet> text_rules_;
  std::unique_ptr<UrlAnalyzer> urls_;
  std::unique_ptr<UnicodeChecker> unicode_;
  std::unique_ptr<Scorer> scorer_;
  std::unique_ptr<HeaderChecker> headers_;
  std::unique_ptr<HtmlChecker> html_;
  std::unique_ptr<AttachmentChecker> attachments_;
  std::unique_ptr<MailContext> mail_;
  std::unique_ptr<FileReader> files_;            // images and documents
  std::unique_ptr<ReputationStage> reputation_;  // null: no reputation source
  std::unique_ptr<AiStage> ai_;                  // null: heuristic only
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_ANALYZER_IMPL_H_
