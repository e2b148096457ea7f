#include "email/html.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "email/html_scan.h"
#include "extract/links.h"
#include "url/public_suffix.h"
#include "url/url_parse.h"
#include "util/ascii.h"
#include "util/percent.h"

namespace scamcheck::internal {
namespace {

std::string percent_decode_lower(std::string_view s) { return lower_ascii(percent_decode(s)); }

// True if the href's path or query carries a URL of `site` (a redirect or
// click-tracking link that names where it goes): ".../click?u=https%3A%2F%2Fwww.shop.com%2F".
bool redirects_to(std::string_view href, std::string_view site) {
  std::string d = percent_decode_lower(href);
  if (d.find('%') != std::string::npos) d = percent_decode_lower(d);  // encoded twice
  // Past the href's own scheme, if it has one.
  std::size_t first = d.find("://");
  bool own = first != std::string::npos && first > 0 &&
             std::all_of(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(first),
                         [](char c) { return is_alnum(c) || c == '+' || c == '-' || c == '.'; });
  std::size_t at = own ? first + 3 : 0;
  while ((at = d.find("://", at)) != std::string::npos) {
    at += 3;
    std::size_t e = at;
    while (e < d.size() && (is_alnum(d[e]) || d[e] == '.' || d[e] == '-')) ++e;
    std::string host = d.substr(at, e - at);
    while (!host.empty() && host.back() == '.') host.pop_back();
    if (!host.empty() && (host == site || registrable_domain(host) == site)) return true;
  }
  return false;
}

bool starts_with_www(std::string_view s) {
  return s.size() > 4 && ascii_lower(s[0]) == 'w' && ascii_lower(s[1]) == 'w' &&
         ascii_lower(s[2]) == 'w' && s[3] == '.';
}

// Click-tracking links of mailing services: a host label or a path segment
// named like "click", "track", "redirect" ("clickthru.online.com/Click?q=",
// "u123.ct.sendgrid.net/ls/click?upn=", "links.shop.com/r/..."). `labels`:
// lists/click_tracker_labels.txt.
bool looks_like_click_tracker(std::string_view href, const std::vector<std::string>& labels) {
  ParsedUrl p;
  std::string u(href);
  if (u.rfind("//", 0) == 0) u.insert(0, "http:");
  if (!parse_url(u, p) || p.host.empty()) return false;
  // Exact sub-domain labels; labels containing "click", "track" or
  // "redirect" count too.
  std::string_view host = p.host;
  std::size_t start = 0;
  // Labels left of the registrable domain only.
  std::string reg = registrable_domain(p.host);
  std::size_t sub_end = reg.empty() || reg.size() >= host.size() ? 0 : host.size() - reg.size();
  while (start < sub_end) {
    std::size_t dot = host.find('.', start);
    if (dot == std::string_view::npos || dot >= sub_end) dot = sub_end - 1;
    std::string_view label = host.substr(start, dot - start);
    if (std::find(labels.begin(), labels.end(), label) != labels.end()) return true;
    for (std::string_view k : {"click", "track", "redirect"}) {
      if (label.find(k) != std::string_view::npos) return true;
    }
    start = dot + 1;
  }
  std::string path = percent_decode_lower(std::string_view(u).substr(p.path.start, p.path.size()));
  for (std::string_view seg :
       {"click", "track", "redirect", "redir", "/ls/", "/wf/", "/ss/c/", "/ctt", "/cl/"}) {
    if (path.find(seg) != std::string::npos) return true;
  }
  return false;
}

// "paypal.com" -> "paypal"; "bank.co.uk" -> "bank".
std::string_view org_label(std::string_view site) {
  std::size_t dot = site.find('.');
  return dot == std::string_view::npos ? site : site.substr(0, dot);
}

class HtmlCheckerImpl : public HtmlChecker {
 public:
  HtmlCheckerImpl(const UrlAnalyzer& urls, LinkLists link_lists,
                  std::vector<std::string> tracker_labels)
      : urls_(urls),
        link_lists_(std::move(link_lists)),
        tracker_labels_(std::move(tracker_labels)) {}

  void check(std::string_view html, const std::string& location, std::string_view sender_site,
             double sender_site_strength, Findings& out, VisibleText& visible) const override;

 private:
  void link_mismatches(const HtmlScan& scan, std::string_view html, const std::string& location,
                       std::string_view sender_site, double sender_site_strength,
                       Findings& out) const;
  void obfuscated_hrefs(const HtmlScan& scan, std::string_view html, const std::string& location,
                        Findings& out) const;
  void forms(const HtmlScan& scan, std::string_view html, const std::string& location,
             Findings& out) const;
  void hidden(const HtmlScan& scan, const std::string& location, Findings& out) const;

  const UrlAnalyzer& urls_;
  LinkLists link_lists_;
  std::vector<std::string> tracker_labels_;  // lists/click_tracker_labels.txt
};

void emit(Findings& out, std::string_view key, std::size_t start, std::size_t end,
          const std::string& location, double strength) {
  if (end <= start) return;
  Finding f = Finding::at(std::string(key), start, end, location);
  f.strength = strength;
  out.push_back(std::move(f));
}

void HtmlCheckerImpl::check(std::string_view html, const std::string& location,
                            std::string_view sender_site, double sender_site_strength,
                            Findings& out, VisibleText& visible) const {
  HtmlScan scan;
  scan_html(html, scan);
  link_mismatches(scan, html, location, sender_site, sender_site_strength, out);
  obfuscated_hrefs(scan, html, location, out);
  forms(scan, html, location, out);
  hidden(scan, location, out);
  visible = std::move(scan.visible);
}

void HtmlCheckerImpl::link_mismatches(const HtmlScan& scan, std::string_view html,
                                      const std::string& location, std::string_view sender_site,
                                      double sender_site_strength, Findings& out) const {
  const VisibleText& v = scan.visible;
  struct Mismatch {
    std::size_t start, end;  // the address in the HTML source
    std::string shown, target;
    double strength;
  };
  std::vector<Mismatch> found;
  for (const HtmlAnchor& a : scan.anchors) {
    if (found.size() >= kMaxMismatchesKept) break;
    if (a.text_end <= a.text_start) continue;
    // Where the anchor leads, parsed once its text shows an address (most
    // link texts show none: "more", "Read on").
    WebSite target;
    int target_parsed = -1;  // -1 not yet, 0 not a web site, 1 parsed
    std::string_view text =
        std::string_view(v.text).substr(a.text_start, a.text_end - a.text_start);
    for (const LinkMatch& m : extract_links(text, link_lists_)) {
      if (m.defanged) continue;
      if (m.start > 0 && text[m.start - 1] == '@') continue;  // an e-mail address
      // A written-out address ("https://...", "www.") counts anywhere in the
      // link text; a bare name ("News.com", "ASP.NET") only when it is the
      // whole text, not a mention inside a headline.
      bool written_out = m.had_scheme || starts_with_www(text.substr(m.start));
      if (!written_out && !(m.start == 0 && m.end == text.size())) continue;
      if (target_parsed < 0) target_parsed = web_site_of(a.href, target) ? 1 : 0;
      if (target_parsed == 0) break;
      WebSite shown;
      if (!web_site_of(m.url, shown)) continue;
      if (shown.site == target.site) break;
      if (!shown.ip && !target.ip && org_label(shown.site) == org_label(target.site)) break;
      if (urls_.is_official(shown.site) && urls_.is_official(target.site)) break;
      if (redirects_to(a.href, shown.site)) break;
      std::size_t s = a.text_start + m.start;
      std::size_t e = a.text_start + m.end;
      std::size_t src_s = v.source_start[s];
      std::size_t src_e = v.source_end[e - 1];
      if (src_e > src_s && src_e <= html.size()) {
        // A bare name that is not a known brand's domain ("Dilbert.com") is
        // as often a site's name as an address. Newsletters send every link
        // through a click-tracking host, which then differs from the site
        // shown. Both need other signs.
        double strength = written_out || urls_.is_official(shown.site) ? 1.0 : 0.5;
        if (looks_like_click_tracker(a.href, tracker_labels_)) strength *= 0.5;
        if (!sender_site.empty() && target.site == sender_site) strength *= sender_site_strength;
        found.push_back({src_s, src_e, shown.site, target.site, strength});
      }
      break;  // one finding per anchor
    }
  }
  // Links showing several different sites that all lead to one other site:
  // a newsletter's click tracker, not a disguise (a lure shows the one site
  // it imitates).
  auto shown_sites_via = [&](const std::string& target) {
    std::vector<std::string_view> shown;
    for (const Mismatch& m : found) {
      if (m.target == target && std::find(shown.begin(), shown.end(), m.shown) == shown.end()) {
        shown.push_back(m.shown);
      }
    }
    return shown.size();
  };
  int emitted = 0;
  for (const Mismatch& m : found) {
    if (emitted >= kMaxFindingsPerKey) break;
    const double tracker = shown_sites_via(m.target) >= kTrackerShownSites ? kTrackerStrength : 1.0;
    emit(out, html_keys::kLinkTextMismatch, m.start, m.end, location, m.strength * tracker);
    ++emitted;
  }
}

void HtmlCheckerImpl::obfuscated_hrefs(const HtmlScan& scan, std::string_view html,
                                       const std::string& location, Findings& out) const {
  int emitted = 0;
  for (const HtmlAnchor& a : scan.anchors) {
    if (emitted >= kMaxFindingsPerKey) break;
    if (!a.web) continue;  // mailto: addresses are often encoded against harvesters
    std::string_view src = html.substr(a.href_start, a.href_end - a.href_start);
    if (a.scheme_broken || encoded_alnum_references(src) >= 2) {
      emit(out, html_keys::kObfuscatedUrl, a.href_start, a.href_end, location, 1.0);
      ++emitted;
    }
  }
}

void HtmlCheckerImpl::forms(const HtmlScan& scan, std::string_view html,
                            const std::string& location, Findings& out) const {
  int emitted = 0;
  for (const HtmlForm& f : scan.forms) {
    if (emitted >= kMaxFindingsPerKey) break;
    // A search box or a newsletter sign-up has one field (search boxes send
    // it with GET); a form asking for a log-in or card details has a
    // password or several fields, and posts them.
    if (f.passwords == 0 && (f.fields < 2 || f.get)) continue;
    double strength = f.passwords > 0 ? 1.0 : (f.fields >= 3 ? 0.8 : 0.6);
    std::size_t s = f.start, e = f.end;
    if (e - s > kFormTagEvidenceMax) {
      if (f.action_end > f.action_start) {
        s = f.action_start;
        e = f.action_end;
      } else {
        e = s + kFormTagEvidenceMax;
        while (e > s && (static_cast<unsigned char>(html[e]) & 0xC0) == 0x80) --e;
      }
    }
    emit(out, html_keys::kHtmlForm, s, e, location, strength);
    ++emitted;
  }
  emitted = 0;
  for (const HtmlTag& t : scan.password_inputs) {
    if (emitted >= kMaxFindingsPerKey) break;
    emit(out, html_keys::kHtmlForm, t.start, t.end, location, 1.0);
    ++emitted;
  }
}

void HtmlCheckerImpl::hidden(const HtmlScan& scan, const std::string& location,
                             Findings& out) const {
  int emitted = 0;
  for (std::size_t i = 0; i < scan.hidden.size() && emitted < kMaxFindingsPerKey; ++i) {
    const HtmlHiddenBlock& b = scan.hidden[i];
    if (b.chars < kHiddenMinChars) continue;
    if (i == 0 && b.before_visible && b.chars < kPreheaderMaxChars) continue;
    emit(out, html_keys::kHiddenText, b.evidence_start, b.evidence_end, location, 1.0);
    ++emitted;
  }
}

}  // namespace

bool web_site_of(std::string_view url, WebSite& out) {
  std::string u;
  if (url.size() >= 2 && url[0] == '/' && url[1] == '/') {
    u = "http:";
    u += url;
  } else if (url.size() >= 4 && ascii_lower(url[0]) == 'w' && ascii_lower(url[1]) == 'w' &&
             ascii_lower(url[2]) == 'w' && url[3] == '.') {
    u = "http://";
    u += url;
  } else {
    u.assign(url);
  }
  ParsedUrl p;
  if (!parse_url(u, p)) return false;
  if (p.scheme != "http" && p.scheme != "https" && p.scheme != "ftp") return false;
  if (p.host.empty() || p.host_kind == HostKind::kNone) return false;
  out.host = p.host;
  out.ip = p.host_kind == HostKind::kIpv4 || p.host_kind == HostKind::kIpv6;
  out.site = out.ip ? p.host : registrable_domain(p.host);
  if (out.site.empty()) out.site = p.host;
  return true;
}

int encoded_alnum_references(std::string_view source) {
  int count = 0;
  for (std::size_t i = 0; i + 2 < source.size(); ++i) {
    if (source[i] != '&' || source[i + 1] != '#') continue;
    std::size_t d = i + 2;
    bool hex = d < source.size() && (source[d] == 'x' || source[d] == 'X');
    if (hex) ++d;
    long cp = 0;
    std::size_t digits = 0;
    while (d < source.size() && digits < 8) {
      int v = hex ? hex_value(source[d]) : (is_digit(source[d]) ? source[d] - '0' : -1);
      if (v < 0) break;
      cp = cp * (hex ? 16 : 10) + v;
      ++d;
      ++digits;
    }
    if (digits > 0 && cp < 128 && is_alnum(static_cast<char>(cp))) ++count;
  }
  return count;
}

Result<std::unique_ptr<HtmlChecker>> HtmlChecker::load(const DataSource& data,
                                                       const UrlAnalyzer& urls) {
  Result<LinkLists> link_lists = LinkLists::load(data);
  if (!link_lists.ok()) return link_lists.status();
  constexpr std::string_view kTrackers = "lists/click_tracker_labels.txt";
  Result<std::string> trackers = data.read(kTrackers);
  if (!trackers.ok()) return trackers.status();
  std::vector<std::string> labels = parse_list(*trackers);
  for (const std::string& label : labels) {
    if (label.find('.') != std::string::npos || label != lower_ascii(label)) {
      return Status::invalid_argument(data.describe(kTrackers) + ": \"" + label +
                                      "\" is not one lower-case host label");
    }
  }
  return std::unique_ptr<HtmlChecker>(
      new HtmlCheckerImpl(urls, std::move(link_lists).value(), std::move(labels)));
}

}  // namespace scamcheck::internal
