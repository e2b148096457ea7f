#include "analyzer_impl.h"

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "decode/file_detect.h"
#include "explain/bound.h"
#include "explain/explain.h"
#include "extract/links.h"
#include "normalize/normalize.h"
#include "providers/report_merge.h"
#include "url/url_checks.h"
#include "url/url_input.h"
#include "util/ascii.h"
#include "util/text.h"

namespace scamcheck {

Analyzer::~Analyzer() = default;

Result<std::unique_ptr<Analyzer>> Analyzer::create(const Options& options) {
  return internal::AnalyzerImpl::create(options);
}

Result<Report> Analyzer::analyze(std::string_view content, std::string_view kind,
                                 std::string_view locale) const {
  std::optional<Kind> parsed = parse_kind(kind);
  if (!parsed) return Status::invalid_argument("unknown kind '" + std::string(kind) + "'");
  return analyze(content, *parsed, locale);
}

namespace internal {

Result<std::unique_ptr<Analyzer>> AnalyzerImpl::create(const Options& options) {
  std::unique_ptr<AnalyzerImpl> a(new AnalyzerImpl());
  const DataSource data(options.data_dir);
  const auto known_key = [&](std::string_view key) { return a->texts_->find(key) != nullptr; };

  auto texts = Texts::load(data);
  if (!texts.ok()) return texts.status();
  a->texts_ = std::move(texts).value();

  auto rules = RuleSet::load(data, known_key, options.compile_threads);
  if (!rules.ok()) return rules.status();
  a->text_rules_ = std::move(rules).value();

  auto links = LinkLists::load(data);
  if (!links.ok()) return links.status();
  a->links_ = std::move(links).value();

  auto urls = UrlAnalyzer::load(data);
  if (!urls.ok()) return urls.status();
  a->urls_ = std::move(urls).value();

  auto unicode = UnicodeChecker::create(a->urls_->brand_names());
  if (!unicode.ok()) return unicode.status();
  a->unicode_ = std::move(unicode).value();

  auto email = EmailDetector::load(data, *a->urls_, known_key);
  if (!email.ok()) return email.status();
  a->email_ = std::move(email).value();
  a->files_ = std::make_unique<FileReader>(options);

  auto scorer = Scorer::load(data, *a->texts_);
  if (!scorer.ok()) return scorer.status();
  a->scorer_ = std::move(scorer).value();
  auto model =
      ModelScorer::load(options, data, *a->scorer_, a->urls_->brand_table(), a->email_->html());
  if (!model.ok()) return model.status();
  a->model_ = std::move(model).value();

  a->reputation_ = ReputationStage::create(options, *a->texts_, *a->scorer_);
  a->ai_ = AiStage::create(options, *a->texts_);
  return std::unique_ptr<Analyzer>(std::move(a));
}

Status AnalyzerImpl::validate(std::string_view content, Kind kind) {
  if (kind == Kind::kImage || kind == Kind::kDocument) {
    // Raw file bytes; decode/ checks the format and its own limits.
    if (content.size() > kMaxFileContentBytes) {
      return Status::out_of_range("content is " + std::to_string(content.size()) +
                                  " bytes; at most " + std::to_string(kMaxFileContentBytes) +
                                  " allowed for an image or document");
    }
    if (content.empty()) return Status::invalid_argument("content is empty");
    return {};
  }
  if (kind != Kind::kText && kind != Kind::kUrl && kind != Kind::kEmail) {
    return Status::invalid_argument("unknown kind");
  }
  if (content.size() > kMaxContentBytes) {
    return Status::out_of_range("content is " + std::to_string(content.size()) +
                                " bytes; at most " + std::to_string(kMaxContentBytes) + " allowed");
  }
  // An email is raw bytes in any charset (CONTRACT §1); its decoded parts are UTF-8.
  if (kind != Kind::kEmail && !is_valid_utf8(content)) {
    return Status::invalid_argument("content is not valid UTF-8");
  }
  if (trim(content).empty()) return Status::invalid_argument("content is empty");
  return {};
}

Status AnalyzerImpl::detect_text(std::string_view text, std::string_view location,
                                 std::string_view sender_site, Findings& findings,
                                 Report& report) const {
  return detect_normalized(NormalizedText(text, /*underscores_as_spaces=*/true), location,
                           sender_site, findings, report);
}

Status AnalyzerImpl::detect_normalized(const NormalizedText& normalized, std::string_view location,
                                       std::string_view sender_site, Findings& findings,
                                       Report& report) const {
  const std::string_view text = normalized.original();
  const std::size_t first = findings.size();
  if (Status s = text_rules_->match(normalized, findings); !s.ok()) return s;
  unicode_->check(text, findings);
  for (const LinkMatch& link : extract_links(text, links_)) {
    detect_link(text, link, sender_site, findings, report);
  }
  for (std::size_t i = first; i < findings.size(); ++i) findings[i].location = location;
  return {};
}

void AnalyzerImpl::detect_link(std::string_view text, const LinkMatch& link,
                               std::string_view sender_site, Findings& findings,
                               Report& report) const {
  UrlInfo info;
  const std::size_t before = findings.size();
  urls_->analyze(text, link, findings, info);
  if (!sender_site.empty() && info.registrable_domain == sender_site) {
    // A mail linking to its sender's own site: what the link looks like
    // says little about the mail that the From header does not say.
    for (std::size_t i = before; i < findings.size(); ++i) {
      findings[i].strength *= email_->sender_site_strength();
    }
  } else if (findings.size() == before && !urls_->is_official(info.registrable_domain)) {
    // A link nothing is known against is still how most scams want to be
    // answered: it counts, a little, next to other signs of a scam.
    Finding f = Finding::at("link_in_message", link.start, link.end);
    f.requires_context = true;
    findings.push_back(std::move(f));
  }
  report.urls.push_back(std::move(info));
}

void AnalyzerImpl::detect_url(std::string_view content, Findings& findings, Report& report) const {
  // One URL, scheme optional, defanged or not (validate() ruled out blank).
  const LinkMatch link = link_for_url_input(content);
  UrlInfo info;
  const std::size_t first = findings.size();
  urls_->analyze(content, link, findings, info);
  report.urls.push_back(std::move(info));
  // A link to check that runs a script or carries a whole page
  // ("javascript:", "data:text/html;base64,...") leads nowhere a person
  // should go: one such sign is enough (scoring.json "severity_floors").
  // Not in mail, whose HTML often writes "javascript:void(0)" for a button.
  for (std::size_t i = first; i < findings.size(); ++i) {
    if (findings[i].key == url_keys::kScriptUrl) findings[i].severity = Severity::kHigh;
  }
  // Where a redirect in its query leads is checked too: a trusted site in
  // front ("https://www.google.com/url?q=...") does not vouch for the site
  // behind it.
  const std::optional<LinkMatch> target = redirect_target(content, link);
  if (!target) return;
  Findings found;
  UrlInfo destination;
  urls_->analyze(content, *target, found, destination);
  if (destination.registrable_domain.empty() ||
      destination.registrable_domain == report.urls.front().registrable_domain) {
    return;
  }
  for (Finding& f : found) {
    const bool known = std::any_of(findings.begin(), findings.end(), [&](const Finding& g) {
      return g.key == f.key && g.start == f.start && g.end == f.end;
    });
    if (!known) findings.push_back(std::move(f));
  }
  report.urls.push_back(std::move(destination));
}

Result<Findings> AnalyzerImpl::detect(std::string_view content, Kind kind, Report& report,
                                      ParsedEmail* email, std::optional<NormalizedText>* normalized,
                                      MailSender* sender) const {
  if (Status s = validate(content, kind); !s.ok()) return s;
  Findings findings;
  if (kind == Kind::kEmail) {
    auto parsed = parse_email(content);
    if (!parsed.ok()) return parsed.status();
    if (Status s = email_->detect(*parsed, *this, findings, report, sender); !s.ok()) {
      return s;
    }
    if (email) *email = std::move(parsed).value();
  } else if (kind == Kind::kUrl) {
    detect_url(content, findings, report);
  } else if (kind == Kind::kImage || kind == Kind::kDocument) {
    if (Status s = detect_file(*files_, content, kind, *this, findings, report); !s.ok()) return s;
  } else {
    std::optional<NormalizedText> own;
    std::optional<NormalizedText>& norm = normalized ? *normalized : own;
    norm.emplace(content, /*underscores_as_spaces=*/true);
    if (Status s = detect_normalized(*norm, "content", {}, findings, report); !s.ok()) return s;
  }
  // Context-only evidence (a phone number, an IBAN) needs a real sign nearby.
  if (std::none_of(findings.begin(), findings.end(),
                   [&](const Finding& f) { return scorer_->gives_context(f); })) {
    std::erase_if(findings, [](const Finding& f) { return f.requires_context; });
  }
  return findings;
}

Result<Report> AnalyzerImpl::analyze(std::string_view content, Kind kind,
                                     std::string_view locale) const {
  Report report;
  report.kind = kind;
  ParsedEmail email;
  std::optional<NormalizedText> normalized;  // of a text: the rules' and the model's
  MailSender sender;                         // of a mail
  auto findings = detect(content, kind, report, &email, &normalized, &sender);
  if (!findings.ok()) return findings.status();

  // An image or document is analysed as the text read from it (CONTRACT
  // §1: spans of "ocr", "qr" and "document" index extracted_text), which
  // the model scores as prose: it was trained on text, email and url only.
  const std::string_view analysed =
      report.extracted_text ? std::string_view(*report.extracted_text) : content;
  const TextOf text_of = [&](std::string_view location) {
    if (location == "ocr" || location == "qr" || location == "document") return analysed;
    return location == "content" ? analysed : email.text_of(location);
  };
  // No evidence, no signal, and no weight either.
  std::erase_if(*findings, [&](const Finding& f) {
    return f.end <= f.start || f.end > text_of(f.location).size();
  });
  std::vector<EvidenceText> texts;  // only needed for provider answers
  if (reputation_ || ai_) texts = evidence_texts(kind, analysed, email);
  if (reputation_) reputation_->check(texts, *findings, report);

  Score score = model_->score(analysed, report.extracted_text ? Kind::kText : kind, email,
                              report.urls, *findings, normalized ? &*normalized : nullptr, sender);
  if (kind == Kind::kUrl && report.urls.size() == 2) {
    // A redirect: the verdict is at least the one its destination gets on
    // its own, shown by the destination's signs (the model's own evidence
    // would quote the decoded destination, not the input: left out).
    Findings copy = *findings;
    const Score destination =
        model_->score(report.urls[1].url, Kind::kUrl, email, {report.urls[1]}, copy, nullptr);
    if (destination.risk_score > score.risk_score && !findings->empty()) {
      score.risk_score = destination.risk_score;
      score.verdict = destination.verdict;
      score.confidence = destination.confidence;
    }
  }
  if (reputation_) score = reputation_->with_reputation(std::move(score), *findings);
  report.risk_score = score.risk_score;
  report.confidence = score.confidence;
  report.verdict = score.verdict;
  explain(*texts_, *findings, score, text_of, locale, report);
  if (report.extracted_text) {
    // The model reads the extracted text as prose at location "content".
    for (Signal& s : report.signals) {
      if (s.location == "content") s.location = kind == Kind::kImage ? "ocr" : "document";
    }
  }

  report.id = new_ulid("rpt_");
  report.created_at = utc_now_iso8601();
  report.model_used = "heuristic-fallback";
  report.input_tokens =
      kind == Kind::kEmail ? count_email_tokens(email) : count_word_runs(analysed);
  report.output_tokens = 0;
  if (ai_) ai_->ask(kind, analysed, email, texts, report);
  // CONTRACT §10, on the heuristic's and the AI provider's reports alike.
  // The weight each signal's finding added ranks signals of one severity;
  // bound_report asks only when it has to leave some out.
  std::unordered_map<std::string, double> weight_at;
  const auto signal_id = [](std::string_view key, std::size_t start, std::size_t end) {
    return std::string(key) + '\0' + std::to_string(start) + ':' + std::to_string(end);
  };
  bound_report(report, [&](const Signal& s) {
    if (weight_at.empty()) {
      for (std::size_t i = 0; i < findings->size(); ++i) {
        const Finding& f = (*findings)[i];
        double& w = weight_at[signal_id(f.key, f.start, f.end)];
        w = std::max(w, score.weights[i]);
      }
    }
    auto it = weight_at.find(signal_id(s.key, s.span.start, s.span.end));
    return it == weight_at.end() ? 0.0 : it->second;
  });
  return report;
}

Result<model::FeatureSet> AnalyzerImpl::model_features(std::string_view content, Kind kind) const {
  Report report;
  ParsedEmail email;
  auto findings = detect(content, kind, report, &email);
  if (!findings.ok()) return findings.status();
  const TextOf text_of = [&](std::string_view location) {
    return location == "content" ? content : email.text_of(location);
  };
  std::erase_if(*findings, [&](const Finding& f) {
    return f.end <= f.start || f.end > text_of(f.location).size();
  });
  return model_->features(content, kind, *findings, scorer_->score(*findings).total, email);
}

Result<std::vector<Report>> AnalyzerImpl::analyze_qr_codes(std::string_view image,
                                                           std::string_view locale) const {
  if (Status s = validate(image, Kind::kImage); !s.ok()) return s;
  Result<std::vector<std::string>> payloads = files_->read_qr_codes(image);
  if (!payloads.ok()) return payloads.status();
  std::vector<Report> reports;
  for (const std::string& payload : *payloads) {
    Result<Report> r = analyze(payload, is_url_payload(payload) ? Kind::kUrl : Kind::kText, locale);
    if (!r.ok()) {
      // A blank or oversized payload has nothing to analyse.
      const StatusCode code = r.status().code();
      if (code == StatusCode::kInvalidArgument || code == StatusCode::kOutOfRange) continue;
      return r.status();
    }
    Report& report = *r;
    report.kind = Kind::kImage;
    report.extracted_text = payload;
    for (Signal& s : report.signals) s.location = "qr";
    bound_report(report);  // with the payload as extracted_text
    reports.push_back(std::move(r).value());
  }
  return reports;
}

ProviderStats AnalyzerImpl::provider_stats() const {
  ProviderStats stats;
  if (ai_) ai_->add_stats(stats);
  if (reputation_) reputation_->add_stats(stats);
  return stats;
}

}  // namespace internal

ProviderStats Analyzer::provider_stats() const { return {}; }

Result<std::vector<Report>> Analyzer::analyze_qr_codes(std::string_view, std::string_view) const {
  return Status::unimplemented("QR decoding is not available in this analyzer");
}

Status Analyzer::ocr_status() const {
  return Status::unimplemented("OCR is not available in this analyzer");
}

}  // namespace scamcheck
