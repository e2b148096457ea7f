#include "scoring/model_scorer.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>

#include "model/evidence.h"
#include "url/url_checks.h"
#include "util/ascii.h"

namespace scamcheck::internal {

Result<std::unique_ptr<ModelScorer>> ModelScorer::load(const Options& options,
                                                       const DataSource& data, const Scorer& rules,
                                                       const BrandTable& brands,
                                                       const HtmlChecker& html) {
  std::unique_ptr<ModelScorer> scorer(new ModelScorer(rules, brands, html));
  if (!options.use_model) return scorer;
  // The pack's model/model.bin, or the file the caller names.
  Result<std::string> bytes = std::string();
  std::string name;
  if (options.model_file.empty()) {
    name = data.describe("model/model.bin");
    bytes = data.read("model/model.bin");
  } else {
    name = options.model_file;
    std::ifstream in(options.model_file, std::ios::binary);
    if (!in) {
      bytes = Status::not_found(name + ": cannot open the model file");
    } else {
      std::ostringstream buf;
      buf << in.rdbuf();
      bytes = buf.str();
    }
  }
  if (!bytes.ok()) {
    return Status(
        bytes.status().code(),
        bytes.status().message() + " (Options::use_model = false scores with the rules alone)");
  }
  auto model = model::LinearModel::parse(*bytes, name);
  if (!model.ok()) return model.status();
  scorer->model_ = std::move(model).value();
  return scorer;
}

model::FeatureSet ModelScorer::features(std::string_view content, Kind kind,
                                        const Findings& findings, double rules_total,
                                        const ParsedEmail& email,
                                        const NormalizedText* normalized) const {
  model::FeatureSet features;
  this->features(content, kind, findings, rules_total, email, normalized, features);
  return features;
}

void ModelScorer::features(std::string_view content, Kind kind, const Findings& findings,
                           double rules_total, const ParsedEmail& email,
                           const NormalizedText* normalized, model::FeatureSet& features) const {
  features.clear();
  if (kind == Kind::kEmail) {
    model::add_email(email, html_, features);
  } else if (kind == Kind::kUrl) {
    model::add_url_input(content, features.add_location("content"), features);
  } else {
    // Text; or the text read from an image or document, whose spans index
    // extracted_text under location "ocr" / "document" (CONTRACT §1).
    const std::string_view location = kind == Kind::kImage      ? "ocr"
                                      : kind == Kind::kDocument ? "document"
                                                                : "content";
    model::add_prose(content, features.add_location(location), features, {}, normalized);
  }
  // A link written without a scheme reads as http, so whether
  // insecure_login_page fires depends on the scheme, which in the corpora
  // tells scam URLs (all with one) from ham (bare hosts): never a model
  // feature. It stays a signal.
  auto scheme_dependent = [](const Finding& f) { return f.key == "insecure_login_page"; };
  if (std::none_of(findings.begin(), findings.end(), scheme_dependent)) {
    model::add_rules(findings, rules_total, features);
  } else {
    Findings rule_findings;
    std::remove_copy_if(findings.begin(), findings.end(), std::back_inserter(rule_findings),
                        scheme_dependent);
    model::add_rules(rule_findings, rules_.score(rule_findings).total, features);
  }
  model::add_kind(kind, features);
  features.finish();
}

namespace {

bool is_free_hosting(const Finding& f) { return f.key == url_keys::kFreeHosting; }

}  // namespace

bool ModelScorer::brand_publishes_alone(std::string_view registrable) const {
  const int brand = brands_.official_brand(registrable, true);
  return brand >= 0 && !brands_.brands()[static_cast<std::size_t>(brand)].open_platform;
}

bool ModelScorer::on_brand_own_site(const UrlInfo& url, const Findings& findings) const {
  return brand_publishes_alone(url.registrable_domain) &&
         std::none_of(findings.begin(), findings.end(), is_free_hosting);
}

bool ModelScorer::on_own_link(std::string_view content, Kind kind, const ParsedEmail& email,
                              const std::vector<UrlInfo>& urls, const Findings& findings,
                              std::string_view sender_site, std::string_view location,
                              std::size_t start, std::size_t end) const {
  if (urls.empty()) return false;
  const std::string_view text = kind == Kind::kEmail ? email.text_of(location) : content;
  if (end > text.size() || start >= end) return false;
  // The characters a link is written with.
  auto in_link = [](char c) {
    return static_cast<unsigned char>(c) > ' ' && c != '"' && c != '\'' && c != '<' && c != '>';
  };
  // Whether the link written at [from, to) is one of `urls` on such a site.
  auto own = [&](std::size_t from, std::size_t to) {
    std::string_view host = text.substr(from, to - from);
    if (const std::size_t scheme = host.find("://"); scheme != std::string_view::npos) {
      host.remove_prefix(scheme + 3);
    }
    host = host.substr(0, host.find_first_of("/?#:"));
    // A bare host at the end of a sentence: its full stop is not part of it.
    while (!host.empty() && std::string_view(".,;!)").find(host.back()) != std::string_view::npos) {
      host.remove_suffix(1);
    }
    const auto url = std::find_if(urls.begin(), urls.end(),
                                  [&](const UrlInfo& u) { return equals_ci(u.host, host); });
    if (url == urls.end()) return false;
    if (!brand_publishes_alone(url->registrable_domain) &&
        (sender_site.empty() || url->registrable_domain != sender_site)) {
      return false;
    }
    return std::none_of(findings.begin(), findings.end(), [&](const Finding& f) {
      return is_free_hosting(f) && f.location == location && f.start >= from && f.end <= to;
    });
  };
  // Every link the span touches (a phrase the model quotes may hold one:
  // "at paypal.com").
  std::size_t from = start, to = end;
  while (from > 0 && in_link(text[from - 1])) --from;
  while (to < text.size() && in_link(text[to])) ++to;
  for (std::size_t i = from; i < to;) {
    while (i < to && !in_link(text[i])) ++i;
    std::size_t j = i;
    while (j < to && in_link(text[j])) ++j;
    // A host has a dot: a word without one is no link.
    if (j > i && text.substr(i, j - i).find('.') != std::string_view::npos && own(i, j)) {
      return true;
    }
    i = j;
  }
  return false;
}

Score ModelScorer::score(std::string_view content, Kind kind, const ParsedEmail& email,
                         const std::vector<UrlInfo>& urls, Findings& findings,
                         const NormalizedText* normalized, const MailSender& sender) const {
  Score score = score_unfloored(content, kind, email, urls, findings, normalized, sender);
  rules_.apply_floor(findings, score);
  return score;
}

Score ModelScorer::score_unfloored(std::string_view content, Kind kind, const ParsedEmail& email,
                                   const std::vector<UrlInfo>& urls, Findings& findings,
                                   const NormalizedText* normalized,
                                   const MailSender& sender) const {
  if (!model_) return rules_.score(findings);
  // A URL on a known brand's own site, where only the brand publishes (not
  // a platform anyone can post to, nor a hosting service): the rules
  // decide. The model knows such brand names mostly from the phishing that
  // imitates them, and would hold the real site against itself.
  if (kind == Kind::kUrl && urls.size() == 1 && on_brand_own_site(urls.front(), findings)) {
    return rules_.score(findings);
  }
  // Likewise a verified sender's mail whose links stay within the
  // recipient's organisation: a colleague's share on the organisation's own
  // SharePoint, a payslip on its intranet. The model knows such notices
  // mostly from the phishing that imitates them.
  if (kind == Kind::kEmail && sender.links_stay_home) return rules_.score(findings);
  Score rules = rules_.score(findings);
  // One feature set per thread, its buffers reused from input to input; a
  // large input's (over 64k hits, ~1.3 MB) is released after use.
  thread_local model::FeatureSet features;
  this->features(content, kind, findings, rules.total, email, normalized, features);
  struct Release {
    model::FeatureSet& f;
    ~Release() {
      if (f.hits.capacity() > (1u << 16)) f.hits = {};
    }
  } release{features};
  const double p = model_->probability(model_->raw_score(features), kind);
  const model::Calibration& c = model_->calibration(kind);
  // The model's evidence only for a warning it backs: on a safe verdict a
  // "suspicious wording" signal would contradict the verdict.
  if (p >= c.t_suspicious) {
    const std::size_t before = findings.size();
    model::add_model_evidence(features, *model_, findings,
                              [&](std::string_view location, std::size_t start, std::size_t end) {
                                return on_own_link(content, kind, email, urls, findings,
                                                   sender.verified_site, location, start, end);
                              });
    if (findings.size() != before) rules = rules_.score(findings);
    // No evidence, no warning: when neither the rules nor the model can
    // quote anything (the words the model weighed sit in unreadable bytes),
    // nothing would show the person why, and the rules decide.
    if (findings.empty()) return rules;
  }
  // The rules' score is read below only for its numbers: its vectors move.
  const int rules_risk = rules.risk_score;
  const int rules_confidence = rules.confidence;
  Score score = Scorer::score_calibrated(std::move(rules), p, c.t_suspicious, c.t_danger);
  // What the rules alone find clearly suspicious stays at least suspicious:
  // the corpora the model learned from hold few of some tricks the rules
  // know (on text: a child's "new number", gift cards, a forwarded code; in
  // a mail: a brand's name in the sender with a lookalike domain), and
  // where the rules are that sure they rarely misfire (scoring.json).
  const std::optional<int> floor = rules_.rules_floor(kind);
  if (floor && score.verdict == Verdict::kSafe && rules_risk >= *floor) {
    score.verdict = Verdict::kSuspicious;
    score.risk_score = std::clamp(rules_risk, 30, 69);
    score.confidence = std::clamp(rules_confidence, 50, 80);
  }
  return score;
}

}  // namespace scamcheck::internal
