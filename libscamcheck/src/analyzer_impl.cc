#include "analyzer_impl.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>
#include <utility>
#include <vector>

#include "decode/charset.h"
#include "email/bulk_mail.h"
#include "explain/explain.h"
#include "extract/links.h"
#include "model/evidence.h"
#include "normalize/normalize.h"
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
namespace {

// One entry per URL, in order of first appearance.
void keep_first_of_each_url(std::vector<UrlInfo>& urls) {
  std::vector<UrlInfo> unique;
  for (UrlInfo& u : urls) {
    if (std::none_of(unique.begin(), unique.end(),
                     [&](const UrlInfo& x) { return x.url == u.url; })) {
      unique.push_back(std::move(u));
    }
  }
  urls = std::move(unique);
}

// The lines of a plain-text part that quote an earlier message ("> ..."),
// as [start, end) byte ranges.
std::vector<std::pair<std::size_t, std::size_t>> quoted_line_spans(std::string_view text) {
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::size_t p = pos;
    while (p < end && (text[p] == ' ' || text[p] == '\t')) ++p;
    if (p < end && text[p] == '>') spans.emplace_back(pos, end);
    pos = end + 1;
  }
  return spans;
}

// Whether a mail says it answers another: an In-Reply-To or References
// header, or a subject starting with a reply prefix ("Re:", "AW:", "SV:").
bool is_reply(const ParsedEmail& email) {
  if (!email.find("In-Reply-To").empty() || !email.find("References").empty()) return true;
  for (const EmailHeader* subject : email.find("Subject")) {
    std::string_view v = subject->value;
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
    for (std::string_view prefix : {"re:", "aw:", "sv:", "antw:", "re :"}) {
      if (starts_with_ci(v, prefix)) return true;
    }
  }
  return false;
}

// input_tokens of an email: the word runs of the texts analysed (decoded
// header values and parts), since its raw bytes need not be UTF-8.
std::int64_t count_email_tokens(const ParsedEmail& email) {
  std::int64_t n = 0;
  for (const EmailHeader& h : email.headers) n += count_word_runs(h.value);
  for (const EmailPart& p : email.parts) n += count_word_runs(p.text);
  return n;
}

}  // namespace

Result<std::unique_ptr<Analyzer>> AnalyzerImpl::create(const Options& options) {
  std::unique_ptr<AnalyzerImpl> a(new AnalyzerImpl());
  const DataSource data(options.data_dir);

  auto texts = Texts::load(data);
  if (!texts.ok()) return texts.status();
  a->texts_ = std::move(texts).value();

  auto rules_json = data.read("rules/text.json");
  if (!rules_json.ok()) return rules_json.status();
  auto rules =
      RuleSet::compile(*rules_json, data.describe("rules/text.json"),
                       [&](std::string_view key) { return a->texts_->find(key) != nullptr; });
  if (!rules.ok()) return rules.status();
  a->text_rules_ = std::move(rules).value();

  auto urls = UrlAnalyzer::load(data);
  if (!urls.ok()) return urls.status();
  a->urls_ = std::move(urls).value();

  auto unicode = UnicodeChecker::create(a->urls_->brand_names());
  if (!unicode.ok()) return unicode.status();
  a->unicode_ = std::move(unicode).value();

  auto headers = HeaderChecker::load(data, *a->urls_);
  if (!headers.ok()) return headers.status();
  a->headers_ = std::move(headers).value();
  auto html = HtmlChecker::load(data, *a->urls_);
  if (!html.ok()) return html.status();
  a->html_ = std::move(html).value();
  auto attachments = AttachmentChecker::load(data);
  if (!attachments.ok()) return attachments.status();
  a->attachments_ = std::move(attachments).value();
  auto mail = MailContext::load(
      data, [&](std::string_view key) { return a->texts_->find(key) != nullptr; });
  if (!mail.ok()) return mail.status();
  a->mail_ = std::move(mail).value();
  a->files_ = std::make_unique<FileReader>(options);

  auto scorer = Scorer::load(data, *a->texts_);
  if (!scorer.ok()) return scorer.status();
  a->scorer_ = std::move(scorer).value();

  if (options.use_model) {
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
      return Status(bytes.status().code(), bytes.status().message() +
                                               " (Options::use_model = false scores with the "
                                               "rules alone)");
    }
    auto model = model::LinearModel::parse(*bytes, name);
    if (!model.ok()) return model.status();
    a->model_ = std::move(model).value();
  }

  a->reputation_ = ReputationStage::create(options, *a->texts_, *a->scorer_);
  a->ai_ = AiStage::create(options, *a->texts_);
  return std::unique_ptr<Analyzer>(std::move(a));
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
      findings[i].strength *= mail_->sender_site_strength();
    }
  } else if (findings.size() == before && !urls_->is_official(info.registrable_domain)) {
    // A link nothing is known against is still how most scams want to be
    // answered: it counts, a little, next to other signs of a scam.
    Finding f;
    f.key = "link_in_message";
    f.start = link.start;
    f.end = link.end;
    f.requires_context = true;
    findings.push_back(std::move(f));
  }
  report.urls.push_back(std::move(info));
}

Status AnalyzerImpl::detect_text(std::string_view text, std::string_view location,
                                 std::string_view sender_site, Findings& findings,
                                 Report& report) const {
  const std::size_t first = findings.size();
  const NormalizedText normalized(text, /*underscores_as_spaces=*/true);
  if (Status s = text_rules_->match(normalized, findings); !s.ok()) return s;
  unicode_->check(text, findings);
  for (const LinkMatch& link : extract_links(text)) {
    detect_link(text, link, sender_site, findings, report);
  }
  for (std::size_t i = first; i < findings.size(); ++i) findings[i].location = location;
  return {};
}

// Links analyzed per HTML part at most: a message with thousands of links
// should not cost thousands of URL analyses.
constexpr std::size_t kMaxHtmlLinks = 200;

namespace {

// Bytes of `text` other than spaces, tabs and line breaks.
std::size_t count_non_space(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return c != ' ' && c != '\t' && c != '\r' && c != '\n';
  }));
}

}  // namespace

std::string AnalyzerImpl::detect_html(const EmailPart& part, std::string_view sender_site,
                                      Findings& findings, Report& report) const {
  VisibleText visible;
  html_->check(part.text, part.location, sender_site, mail_->sender_site_strength(), findings,
               visible);
  // The text stages read what a person sees; their spans map back to the
  // HTML source, which is what evidence of location body:html quotes.
  const std::size_t first = findings.size();
  (void)detect_text(visible.text, part.location, sender_site, findings, report);
  for (std::size_t i = first; i < findings.size(); ++i) {
    Finding& f = findings[i];
    if (f.end <= f.start || f.end > visible.text.size()) {
      f.end = f.start;  // dropped by explain(): no evidence, no signal
      continue;
    }
    f.start = visible.source_start[f.start];
    f.end = visible.source_end[f.end - 1];
  }
  std::size_t analyzed = 0;
  for (const VisibleText::Link& l : visible.links) {
    if (++analyzed > kMaxHtmlLinks) break;
    LinkMatch link;
    link.start = l.href_start;
    link.end = l.href_end;
    link.url = l.href;
    link.had_scheme = l.href.find(':') != std::string::npos;
    const std::size_t before = findings.size();
    detect_link(part.text, link, sender_site, findings, report);
    for (std::size_t i = before; i < findings.size(); ++i) findings[i].location = part.location;
  }
  return std::move(visible.text);
}

Status AnalyzerImpl::detect_email(const ParsedEmail& email, Findings& findings,
                                  Report& report) const {
  headers_->check(email, findings);
  const std::string sender_site = headers_->sender_site(email);
  for (const EmailHeader* subject : email.find("Subject")) {
    Status s = detect_text(subject->value, subject->location(), sender_site, findings, report);
    if (!s.ok()) return s;
  }
  // Lines of an earlier message quoted in a reply: only a mail that says it
  // answers one (In-Reply-To, References or a "Re:" subject) counts them.
  const bool answers = is_reply(email);
  std::size_t quoted_lines = 0;
  // How much text the mail shows (non-space bytes), for its shape.
  std::size_t html_parts = 0, html_chars = 0, text_chars = 0;
  std::vector<std::string> html_texts;  // what each HTML part shows
  for (const EmailPart& part : email.parts) {
    if (part.type == EmailPart::Type::kText) {
      text_chars += count_non_space(part.text);
      const std::size_t first = findings.size();
      Status s = detect_text(part.text, part.location, sender_site, findings, report);
      if (!s.ok()) return s;
      if (answers) {
        const std::vector<std::pair<std::size_t, std::size_t>> quoted =
            quoted_line_spans(part.text);
        quoted_lines += quoted.size();
        for (std::size_t i = first; i < findings.size(); ++i) {
          Finding& f = findings[i];
          const bool in_quote = std::any_of(quoted.begin(), quoted.end(), [&](const auto& q) {
            return f.start >= q.first && f.start < q.second;
          });
          if (in_quote) f.strength *= mail_->quoted_strength();
        }
      }
    } else if (part.type == EmailPart::Type::kHtml) {
      std::string shown = detect_html(part, sender_site, findings, report);
      html_chars += count_non_space(shown);
      html_texts.push_back(std::move(shown));
      ++html_parts;
    }
  }
  attachments_->check(email, findings);
  // How many different sites the mail links to: a digest links to many, a
  // scam to the one page it wants visited.
  std::vector<std::string_view> sites;
  for (const UrlInfo& u : report.urls) {
    const std::string_view site = u.registrable_domain.empty() ? u.host : u.registrable_domain;
    if (!site.empty() && std::find(sites.begin(), sites.end(), site) == sites.end()) {
      sites.push_back(site);
    }
  }
  // Read before keep_first_of_each_url reorders the URLs `sites` points into.
  const bool links_sender_site =
      !sender_site.empty() && std::find(sites.begin(), sites.end(), sender_site) != sites.end();
  const MailShape shape{.html_parts = html_parts,
                        .html_visible_chars = html_chars,
                        .plain_text_chars = text_chars,
                        .linked_sites = sites.size(),
                        .links_sender_site = links_sender_site,
                        .sender_site = sender_site,
                        .verified_sender = headers_->verified_brand_sender(email)};
  keep_first_of_each_url(report.urls);  // however often the message repeats it
  // A newsletter also shows itself by many different links.
  mail_->apply(findings, shape.verified_sender, shape.linked_sites, quoted_lines,
               report.urls.size());
  // An advert shows itself by its shape as much as by its words; a
  // newsletter by saying that the reader subscribed.
  if (!mark_bulk_advert(email, shape, findings)) {
    std::vector<std::string_view> shown;  // the text parts and what the HTML parts show
    for (const EmailPart& part : email.parts) {
      if (part.type == EmailPart::Type::kText) shown.push_back(part.text);
    }
    shown.insert(shown.end(), html_texts.begin(), html_texts.end());
    mail_->apply_subscription_notice(shown, findings);
  }
  return {};
}

void AnalyzerImpl::detect_url(std::string_view content, Findings& findings, Report& report) const {
  // One URL, scheme optional, defanged or not (validate() ruled out blank).
  UrlInfo info;
  urls_->analyze(content, link_for_url_input(content), findings, info);
  report.urls.push_back(std::move(info));
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

Result<Findings> AnalyzerImpl::detect(std::string_view content, Kind kind, Report& report,
                                      ParsedEmail* email) const {
  if (Status s = validate(content, kind); !s.ok()) return s;
  Findings findings;
  if (kind == Kind::kEmail) {
    auto parsed = parse_email(content);
    if (!parsed.ok()) return parsed.status();
    if (Status s = detect_email(*parsed, findings, report); !s.ok()) return s;
    if (email) *email = std::move(parsed).value();
  } else if (kind == Kind::kUrl) {
    detect_url(content, findings, report);
  } else if (kind == Kind::kImage || kind == Kind::kDocument) {
    if (Status s = detect_file(content, kind, findings, report); !s.ok()) return s;
  } else if (Status s = detect_text(content, "content", {}, findings, report); !s.ok()) {
    return s;
  }
  // Context-only evidence (a phone number, an IBAN) needs a real sign nearby.
  const bool has_context = std::any_of(findings.begin(), findings.end(),
                                       [&](const Finding& f) { return scorer_->gives_context(f); });
  if (!has_context) {
    std::erase_if(findings, [](const Finding& f) { return f.requires_context; });
  }
  return findings;
}

Result<Report> AnalyzerImpl::analyze(std::string_view content, Kind kind,
                                     std::string_view locale) const {
  Report report;
  report.kind = kind;
  ParsedEmail email;
  auto findings = detect(content, kind, report, &email);
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

  Score score = model_ ? score_with_model(analysed, report.extracted_text ? Kind::kText : kind,
                                          email, report.urls, *findings)
                       : scorer_->score(*findings);
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

  report.id = "rpt_" + new_ulid();
  report.created_at = utc_now_iso8601();
  report.model_used = "heuristic-fallback";
  report.input_tokens =
      kind == Kind::kEmail ? count_email_tokens(email) : count_word_runs(analysed);
  report.output_tokens = 0;
  if (ai_) ai_->ask(kind, analysed, email, texts, report);
  return report;
}

model::FeatureSet AnalyzerImpl::build_features(std::string_view content, Kind kind,
                                               const Findings& findings, double rules_total,
                                               const ParsedEmail& email) const {
  model::FeatureSet features;
  if (kind == Kind::kEmail) {
    model::add_email(email, *html_, features);
  } else if (kind == Kind::kUrl) {
    model::add_url_input(content, features.add_location("content"), features);
  } else {
    // Text; or the text read from an image or document, whose spans index
    // extracted_text under location "ocr" / "document" (CONTRACT §1).
    const std::string_view location = kind == Kind::kImage      ? "ocr"
                                      : kind == Kind::kDocument ? "document"
                                                                : "content";
    model::add_prose(content, features.add_location(location), features);
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
    model::add_rules(rule_findings, scorer_->score(rule_findings).total, features);
  }
  model::add_kind(kind, features);
  features.finish();
  return features;
}

bool AnalyzerImpl::on_brand_own_site(const UrlInfo& url, const Findings& findings) const {
  const BrandTable& brands = urls_->brand_table();
  const int brand = brands.official_brand(url.registrable_domain, true);
  if (brand < 0) return false;
  if (brands.brands()[static_cast<std::size_t>(brand)].open_platform) return false;
  return std::none_of(findings.begin(), findings.end(),
                      [](const Finding& f) { return f.key == "free_hosting"; });
}

Score AnalyzerImpl::score_with_model(std::string_view content, Kind kind, const ParsedEmail& email,
                                     const std::vector<UrlInfo>& urls, Findings& findings) const {
  // A URL on a known brand's own site, where only the brand publishes (not
  // a platform anyone can post to, nor a hosting service): the rules
  // decide. The model knows such brand names mostly from the phishing that
  // imitates them, and would hold the real site against itself.
  if (kind == Kind::kUrl && urls.size() == 1 && on_brand_own_site(urls.front(), findings)) {
    return scorer_->score(findings);
  }
  Score rules = scorer_->score(findings);
  const model::FeatureSet features = build_features(content, kind, findings, rules.total, email);
  const double p = model_->probability(model_->raw_score(features), kind);
  const model::Calibration& c = model_->calibration(kind);
  // The model's evidence only for a warning it backs: on a safe verdict a
  // "suspicious wording" signal would contradict the verdict.
  if (p >= c.t_suspicious) {
    const std::size_t before = findings.size();
    model::add_model_evidence(features, *model_, findings);
    if (findings.size() != before) rules = scorer_->score(findings);
  }
  Score score = Scorer::score_calibrated(rules, p, c.t_suspicious, c.t_danger);
  // What the rules alone find clearly suspicious stays at least suspicious:
  // the corpora the model learned from hold few of some tricks the rules
  // know (on text: a child's "new number", gift cards, a forwarded code; in
  // a mail: a brand's name in the sender with a lookalike domain), and
  // where the rules are that sure they rarely misfire (scoring.json).
  const std::optional<int> floor = scorer_->rules_floor(kind);
  if (floor && score.verdict == Verdict::kSafe && rules.risk_score >= *floor) {
    score.verdict = Verdict::kSuspicious;
    score.risk_score = std::clamp(rules.risk_score, 30, 69);
    score.confidence = std::clamp(rules.confidence, 50, 80);
  }
  return score;
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
  return build_features(content, kind, *findings, scorer_->score(*findings).total, email);
}

namespace {

// A QR payload that is one URL (scheme optional) and nothing else.
bool is_url_payload(std::string_view payload) {
  payload = trim(payload);
  if (payload.empty() || payload.find_first_of(" \t\r\n") != std::string_view::npos) return false;
  const std::vector<LinkMatch> links = extract_links(payload);
  return links.size() == 1 && links[0].start == 0 && links[0].end == payload.size();
}

}  // namespace

Status AnalyzerImpl::detect_qr_payload(std::string_view text, std::size_t start, std::size_t end,
                                       Findings& findings, Report& report) const {
  const std::string_view payload = text.substr(start, end - start);
  const std::size_t first = findings.size();
  if (is_url_payload(payload)) {
    LinkMatch link = link_for_url_input(payload);
    if (link.end > link.start) {
      link.start += start;
      link.end += start;
      detect_link(text, link, {}, findings, report);
    }
  } else {
    if (Status s = detect_text(payload, "qr", {}, findings, report); !s.ok()) return s;
    for (std::size_t i = first; i < findings.size(); ++i) {
      findings[i].start += start;
      findings[i].end += start;
    }
  }
  for (std::size_t i = first; i < findings.size(); ++i) findings[i].location = "qr";
  return {};
}

Status AnalyzerImpl::detect_file(std::string_view content, Kind kind, Findings& findings,
                                 Report& report) const {
  Result<FileText> file = files_->read(content, kind);
  if (!file.ok()) return file.status();
  // CONTRACT §1: the recognised text, then each QR payload on its own line.
  std::string extracted = std::move(file->text);
  const std::size_t text_end = extracted.size();
  std::vector<std::pair<std::size_t, std::size_t>> payloads;
  for (const std::string& p : file->qr_payloads) {
    if (!extracted.empty()) extracted.push_back('\n');
    const std::size_t start = extracted.size();
    extracted += p;
    payloads.emplace_back(start, extracted.size());
  }
  report.extracted_text = std::move(extracted);
  const std::string_view text = *report.extracted_text;
  if (text_end > 0) {
    const std::string_view location = kind == Kind::kImage ? "ocr" : "document";
    if (Status s = detect_text(text.substr(0, text_end), location, {}, findings, report); !s.ok()) {
      return s;
    }
  }
  for (const auto& [start, end] : payloads) {
    if (Status s = detect_qr_payload(text, start, end, findings, report); !s.ok()) return s;
  }
  keep_first_of_each_url(report.urls);  // however often the text and the codes repeat it
  return {};
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
