#include "email/email_detector.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "email/bulk_mail.h"
#include "email/recipients.h"
#include "email/relayed_mail.h"
#include "email/reply_elsewhere.h"
#include "normalize/normalize.h"
#include "url/public_suffix.h"
#include "url/url_checks.h"
#include "util/ascii.h"
#include "util/text.h"

namespace scamcheck::internal {
namespace {

// Links analyzed per HTML part at most: a message with thousands of links
// should not cost thousands of URL analyses.
constexpr std::size_t kMaxHtmlLinks = 200;

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

// Bytes of `text` other than spaces, tabs and line breaks.
std::size_t count_non_space(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return c != ' ' && c != '\t' && c != '\r' && c != '\n';
  }));
}

// The sender checks of a top-level From line, run on the From line of the
// message a text forwards (`shown`, what a part shows; `visible` maps an HTML
// part's text back to its source): a brand's name over a look-alike address
// is as telling there. Its findings point into the part.
void check_forwarded_sender(const HeaderChecker& headers, const EmailPart& part,
                            std::string_view shown, const VisibleText* visible,
                            Findings& findings) {
  const Forwarded fwd = find_forwarded(shown);
  if (!fwd.found || fwd.from_end <= fwd.from_start || fwd.from_end > shown.size()) return;
  ParsedEmail inner;
  EmailHeader from;
  from.name = "From";
  from.value = std::string(shown.substr(fwd.from_start, fwd.from_end - fwd.from_start));
  // Outlook writes "Name [mailto:a@b]": the same address in angle brackets,
  // byte for byte in place.
  if (const std::size_t m = from.value.find("[mailto:"); m != std::string::npos) {
    const std::size_t close = from.value.find(']', m);
    if (close != std::string::npos) {
      from.value.replace(m, 8, "       <");
      from.value[close] = '>';
    }
  }
  inner.headers.push_back(std::move(from));
  Findings found;
  headers.check(inner, found);
  for (Finding& f : found) {
    if (f.location != "header:From" ||
        (f.key != "display_name_impersonation" && f.key != "sender_lookalike_domain")) {
      continue;
    }
    std::size_t start = fwd.from_start + f.start, end = fwd.from_start + f.end;
    if (end <= start || end > shown.size()) continue;
    if (visible != nullptr) {
      const auto source = visible->source_span(start, end);
      if (!source) continue;
      std::tie(start, end) = *source;
    }
    f.start = start;
    f.end = end;
    f.location = part.location;
    findings.push_back(std::move(f));
  }
}

// The organisations a mail was delivered to: each recipient domain's
// registrable domain, and its name as a SharePoint tenant spells it (the
// first label, lower case, hyphens left out as Microsoft does). A
// mailbox at a freemail provider is nobody's organisation.
struct RecipientOrgs {
  std::vector<std::string> sites;
  std::vector<std::string> names;
};

// A name as a SharePoint tenant spells it: lower case, no hyphens.
std::string tenant_name(std::string_view label) {
  std::string name;
  for (char c : label) {
    if (c != '-') name += ascii_lower(c);
  }
  return name;
}

RecipientOrgs recipient_orgs(const ParsedEmail& email, const HeaderChecker& headers) {
  RecipientOrgs orgs;
  for (const std::string& address : recipient_addresses(email)) {
    const std::string_view domain = std::string_view(address).substr(address.find('@') + 1);
    std::string site = registrable_domain(domain);
    if (site.empty() || headers.freemail_mailbox(domain)) continue;
    orgs.names.push_back(tenant_name(std::string_view(site).substr(0, site.find('.'))));
    orgs.sites.push_back(std::move(site));
  }
  return orgs;
}

// Whether `host` is a recipient organisation's own SharePoint
// ("<org>.sharepoint.com", "<org>-my.sharepoint.com" for OneDrive): a
// colleague's share, not a page a stranger put up. SharePoint alone: on the
// other hosts anyone can take a site named after any company.
bool own_tenant(std::string_view host, const RecipientOrgs& orgs) {
  const std::size_t dot = host.find('.');
  if (dot == std::string_view::npos || !equals_ci(host.substr(dot), ".sharepoint.com")) {
    return false;
  }
  std::string_view tenant = host.substr(0, dot);
  if (tenant.size() > 3 && equals_ci(tenant.substr(tenant.size() - 3), "-my")) {
    tenant.remove_suffix(3);
  }
  return std::find(orgs.names.begin(), orgs.names.end(), tenant_name(tenant)) != orgs.names.end();
}

// The host a finding of a mail quotes, "" when its span is off the text.
std::string_view quoted(const ParsedEmail& email, const Finding& f) {
  const std::string_view text = email.text_of(f.location);
  if (f.end > text.size() || f.start >= f.end) return {};
  return text.substr(f.start, f.end - f.start);
}

// A file shared on the recipient's own SharePoint is no free hosting.
void drop_own_tenant_hosting(const ParsedEmail& email, const RecipientOrgs& orgs,
                             Findings& findings) {
  std::erase_if(findings, [&](const Finding& f) {
    return f.key == url_keys::kFreeHosting && own_tenant(quoted(email, f), orgs);
  });
}

// A link that platforms' own notices carry and nobody else can make: a
// meeting service's page to join a call, Microsoft's own short links and
// home page (a Teams invitation's "download the app").
bool service_link(std::string_view host) {
  for (std::string_view service :
       {"teams.microsoft.com", "teams.live.com", "meet.google.com", "zoom.us", "webex.com",
        "aka.ms", "go.microsoft.com", "www.microsoft.com"}) {
    if (equals_ci(host, service) ||
        (host.size() > service.size() && host[host.size() - service.size() - 1] == '.' &&
         equals_ci(host.substr(host.size() - service.size()), service))) {
      return true;
    }
  }
  return false;
}

// Whether every link of a mail from `sender_site` stays at home: on a
// recipient organisation's own site or SharePoint, or on a brand's
// official site other than a page hosted there (a free_hosting finding:
// anyone can put one up). On a platform where anyone publishes (a "tech"
// or "social" brand: a form or a document shared from Google or
// Microsoft) only beside a link at the organisation, which SharePoint's
// notices carry; a colleague's mail needs none of its own, and links to a
// meeting or the platform's own short links (service_link) are fine.
bool links_stay_home(const ParsedEmail& email, const RecipientOrgs& orgs,
                     std::string_view sender_site, const std::vector<UrlInfo>& urls,
                     const Findings& findings, const UrlAnalyzer& analyzer) {
  if (orgs.sites.empty() || urls.empty()) return false;
  const BrandTable& brands = analyzer.brand_table();
  const bool colleague =
      std::find(orgs.sites.begin(), orgs.sites.end(), sender_site) != orgs.sites.end();
  bool home = false, open_platform = false;
  for (const UrlInfo& u : urls) {
    if (std::find(orgs.sites.begin(), orgs.sites.end(), u.registrable_domain) != orgs.sites.end() ||
        own_tenant(u.host, orgs)) {
      home = true;
      continue;
    }
    const bool hosted = std::any_of(findings.begin(), findings.end(), [&](const Finding& f) {
      return f.key == url_keys::kFreeHosting && equals_ci(quoted(email, f), u.host);
    });
    const int brand =
        u.registrable_domain.empty() ? -1 : brands.official_brand(u.registrable_domain, true);
    if (hosted || brand < 0) return false;
    if (brands.brands()[static_cast<std::size_t>(brand)].open_platform && !service_link(u.host)) {
      open_platform = true;
    }
  }
  return home || (colleague && !open_platform);
}

}  // namespace

Result<std::unique_ptr<EmailDetector>> EmailDetector::load(
    const DataSource& data, const UrlAnalyzer& urls,
    const std::function<bool(std::string_view)>& known_key) {
  std::unique_ptr<EmailDetector> d(new EmailDetector());
  d->urls_ = &urls;
  auto headers = HeaderChecker::load(data, urls);
  if (!headers.ok()) return headers.status();
  d->headers_ = std::move(headers).value();
  auto html = HtmlChecker::load(data, urls);
  if (!html.ok()) return html.status();
  d->html_ = std::move(html).value();
  auto attachments = AttachmentChecker::load(data);
  if (!attachments.ok()) return attachments.status();
  d->attachments_ = std::move(attachments).value();
  auto mail = MailContext::load(data, known_key);
  if (!mail.ok()) return mail.status();
  d->mail_ = std::move(mail).value();
  return d;
}

std::string_view EmailDetector::detect_html(const EmailPart& part, std::string_view sender_site,
                                            const TextStage& text, Findings& findings,
                                            Report& report) const {
  auto shown = std::make_shared<VisibleText>();
  html_->check(part.text, part.location, sender_site, mail_->sender_site_strength(), findings,
               *shown);
  part.visible = shown;  // for the model's features
  const VisibleText& visible = *shown;
  // The text stages read what a person sees; their spans map back to the
  // HTML source, which is what evidence of location body:html quotes.
  const std::size_t first = findings.size();
  auto normalized = std::make_shared<const NormalizedText>(visible.text,
                                                           /*underscores_as_spaces=*/true);
  part.normalized = normalized;  // for the model's features
  (void)text.detect_normalized(*normalized, part.location, sender_site, findings, report);
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
    text.detect_link(part.text, link, sender_site, findings, report);
    for (std::size_t i = before; i < findings.size(); ++i) findings[i].location = part.location;
  }
  return visible.text;
}

Status EmailDetector::detect(const ParsedEmail& email, const TextStage& text, Findings& findings,
                             Report& report, MailSender* sender) const {
  headers_->check(email, findings);
  const std::string sender_site = headers_->sender_site(email);
  for (const EmailHeader* subject : email.find("Subject")) {
    Status s = text.detect_text(subject->value, subject->location(), sender_site, findings, report);
    if (!s.ok()) return s;
  }
  // Lines of an earlier message quoted in a reply: only a mail that says it
  // answers one (In-Reply-To, References or a "Re:" subject) counts them.
  const bool answers = is_reply(email);
  std::size_t quoted_lines = 0;
  // How much text the mail shows (non-space bytes), for its shape.
  std::size_t html_parts = 0, html_chars = 0, text_chars = 0;
  std::vector<std::string_view> html_texts;  // what each HTML part shows (part.visible)
  for (const EmailPart& part : email.parts) {
    if (part.type == EmailPart::Type::kText) {
      text_chars += count_non_space(part.text);
      const std::size_t first = findings.size();
      auto normalized = std::make_shared<const NormalizedText>(part.text,
                                                               /*underscores_as_spaces=*/true);
      part.normalized = normalized;  // for the model's features
      Status s = text.detect_normalized(*normalized, part.location, sender_site, findings, report);
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
      const std::string_view shown = detect_html(part, sender_site, text, findings, report);
      html_chars += count_non_space(shown);
      html_texts.push_back(shown);
      ++html_parts;
    }
  }
  // The sender of a message the mail forwards.
  for (const EmailPart& part : email.parts) {
    if (part.depth != 0) continue;
    if (part.type == EmailPart::Type::kText) {
      check_forwarded_sender(*headers_, part, part.text, nullptr, findings);
    } else if (part.type == EmailPart::Type::kHtml && part.visible) {
      check_forwarded_sender(*headers_, part, part.visible->text, part.visible.get(), findings);
    }
  }
  attachments_->check(email, findings);
  // Who the mail was delivered to, read only when a finding or the
  // sender's check needs it.
  std::optional<RecipientOrgs> orgs;
  auto recipients = [&]() -> const RecipientOrgs& {
    if (!orgs) orgs = recipient_orgs(email, *headers_);
    return *orgs;
  };
  if (std::any_of(findings.begin(), findings.end(),
                  [](const Finding& f) { return f.key == url_keys::kFreeHosting; })) {
    drop_own_tenant_hosting(email, recipients(), findings);
  }
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
  std::string verified = headers_->verified_sender_site(email);
  const MailShape shape{.html_parts = html_parts,
                        .html_visible_chars = html_chars,
                        .plain_text_chars = text_chars,
                        .linked_sites = sites.size(),
                        .links_sender_site = links_sender_site,
                        .sender_site = sender_site,
                        .verified_sender = !verified.empty()};
  keep_first_of_each_url(report.urls);  // however often the message repeats it
  // A form notification carrying a visitor's link; a mail (or the message
  // it forwards) that is little more than a link to another site.
  check_relayed_mail(email, sender_site, report.urls, findings);
  // A short letter asking the reader to write to another, free-mail address.
  check_reply_elsewhere(email, answers, *headers_, findings);
  // A newsletter also shows itself by many different links.
  mail_->apply(findings, shape.verified_sender, shape.linked_sites, quoted_lines,
               report.urls.size());
  // An advert shows itself by its shape as much as by its words; a
  // newsletter by saying that the reader subscribed.
  if (!mark_bulk_advert(email, shape, findings) && mail_->notice_scales_any(findings)) {
    std::vector<std::string_view> shown;  // the text parts and what the HTML parts show
    for (const EmailPart& part : email.parts) {
      if (part.type == EmailPart::Type::kText) shown.push_back(part.text);
    }
    shown.insert(shown.end(), html_texts.begin(), html_texts.end());
    mail_->apply_subscription_notice(shown, findings);
  }
  if (sender) {
    sender->links_stay_home = !verified.empty() && links_stay_home(email, recipients(), verified,
                                                                   report.urls, findings, *urls_);
    sender->verified_site = std::move(verified);
  }
  return {};
}

std::int64_t count_email_tokens(const ParsedEmail& email) {
  std::int64_t n = 0;
  for (const EmailHeader& h : email.headers) n += count_word_runs(h.value);
  for (const EmailPart& p : email.parts) n += count_word_runs(p.text);
  return n;
}

}  // namespace scamcheck::internal
