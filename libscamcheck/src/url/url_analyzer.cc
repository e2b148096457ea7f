// UrlAnalyzer: wires parsing, the checks and the evidence spans together.
#include "url/url_analyzer.h"

#include <algorithm>

#include "url/brands.h"
#include "url/public_suffix.h"
#include "url/refang.h"
#include "url/url_checks.h"
#include "url/url_lists.h"
#include "url/url_parse.h"
#include "util/ascii.h"

namespace scamcheck::internal {
namespace {

class UrlAnalyzerImpl final : public UrlAnalyzer {
 public:
  explicit UrlAnalyzerImpl(std::unique_ptr<UrlChecker> checker) : checker_(std::move(checker)) {}

  void analyze(std::string_view text, const LinkMatch& link, Findings& out,
               UrlInfo& info) const override;

  bool is_official(std::string_view registrable_domain) const override {
    return !registrable_domain.empty() && checker_->brands().is_official(registrable_domain, true);
  }

  const std::vector<std::string>& brand_names() const override {
    return checker_->brands().names();
  }

  const BrandTable& brand_table() const override { return checker_->brands(); }

  std::string registrable_domain(std::string_view host) const override;
  DomainLookalike lookalike_brand(std::string_view host) const override;

 private:
  std::unique_ptr<UrlChecker> checker_;
};

void UrlAnalyzerImpl::analyze(std::string_view text, const LinkMatch& link, Findings& out,
                              UrlInfo& info) const {
  if (link.end > text.size() || link.start >= link.end) return;
  std::string_view written = text.substr(link.start, link.end - link.start);
  std::string url = link.url.empty() ? std::string(written) : link.url;
  ParsedUrl p;
  if (!parse_url(url, p)) {
    url.insert(0, "http://");
    parse_url(url, p);
  } else if (p.scheme != "http" && p.scheme != "https" && !p.has_authority &&
             p.scheme != "javascript" && p.scheme != "vbscript" && p.scheme != "data" &&
             url.find('.') != std::string::npos) {
    // "paypal.com:8080/x" parses as scheme "paypal.com"; a host with a port
    // and no scheme is what the user meant.
    url.insert(0, "http://");
    parse_url(url, p);
  }

  // The written text and the analysed URL differ by an added scheme and by
  // refanging; both are undone exactly here.
  Refanged r = refang(written);
  std::size_t prefix = std::string::npos;
  if (url.size() >= r.url.size() &&
      url.compare(url.size() - r.url.size(), std::string::npos, r.url) == 0) {
    prefix = url.size() - r.url.size();
  }
  auto to_text = [&](Range rg) -> std::pair<std::size_t, std::size_t> {
    std::pair<std::size_t, std::size_t> whole{link.start, link.end};
    if (rg.empty() || rg.end > url.size()) return whole;
    if (prefix != std::string::npos && rg.start >= prefix) {
      auto [s, e] = r.to_written(rg.start - prefix, rg.end - prefix);
      if (s < e && e <= written.size()) return {link.start + s, link.start + e};
      return whole;
    }
    // Not a mapped URL (a caller-built LinkMatch): quote the part if it is
    // written verbatim in the link.
    std::size_t at = find_ci(written, std::string_view(url).substr(rg.start, rg.size()));
    if (at != std::string_view::npos) return {link.start + at, link.start + at + rg.size()};
    return whole;
  };

  std::vector<UrlSignal> signals;
  std::string registrable;
  checker_->check(url, p, signals, registrable);

  info.url = url;
  info.host = p.host;
  info.registrable_domain = registrable;

  auto emit = [&](std::string_view key, std::size_t s, std::size_t e, double strength) {
    if (e <= s) return;
    Finding f = Finding::at(std::string(key), s, e);
    f.strength = strength;
    out.push_back(std::move(f));
  };
  if (r.defanged || link.defanged) {
    if (r.defanged && r.marker_end > r.marker_start) {
      emit(url_keys::kDefangedLink, link.start + r.marker_start, link.start + r.marker_end, 1.0);
    } else {
      emit(url_keys::kDefangedLink, link.start, link.end, 1.0);
    }
  }
  for (const UrlSignal& sig : signals) {
    auto [s, e] = to_text(sig.range);
    emit(sig.key, s, e, sig.strength);
  }
}

// A host name as written outside a URL, or "" when it cannot be one (a
// URL would split it at these characters).
bool plausible_host(std::string_view host) {
  if (host.empty() || host.size() > 253) return false;
  for (char c : host) {
    auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || c == '/' || c == '?' || c == '#' || c == '@' || c == ':' || c == '\\' ||
        c == '%' || c == '[' || c == ']' || c == '<' || c == '>' || c == '"') {
      return false;
    }
  }
  return true;
}

// Parses `host` as the host of "http://<host>/"; false unless it is a name.
bool parse_host(std::string_view host, std::string& url, ParsedUrl& p) {
  if (!plausible_host(host)) return false;
  url = "http://";
  url += host;
  url += '/';
  return parse_url(url, p) && p.host_kind == HostKind::kName && !p.host.empty();
}

// The registrable domain of a normalized host under a real top-level domain
// ("pop3.norton.antivirus" has none: the list's implicit "*" rule would
// make up "norton.antivirus").
std::string known_registrable(std::string_view host) {
  std::size_t dot = host.rfind('.');
  if (dot == std::string_view::npos || !is_known_tld(host.substr(dot + 1))) return {};
  return internal::registrable_domain(host);
}

std::string UrlAnalyzerImpl::registrable_domain(std::string_view host) const {
  while (!host.empty() && host.back() == '.') host.remove_suffix(1);
  if (!plausible_host(host)) return {};
  bool ascii = true;
  for (char c : host) ascii = ascii && static_cast<unsigned char>(c) < 0x80;
  if (ascii) {
    std::string lower_host(host);
    for (char& c : lower_host) c = ascii_lower(c);
    for (char c : lower_host) {
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_')) {
        return {};
      }
    }
    if (lower_host.find("..") != std::string::npos || lower_host.front() == '.') return {};
    return known_registrable(lower_host);
  }
  std::string url;
  ParsedUrl p;
  if (!parse_host(host, url, p) || p.idn_failed) return {};
  return known_registrable(p.host);
}

UrlAnalyzer::DomainLookalike UrlAnalyzerImpl::lookalike_brand(std::string_view host) const {
  DomainLookalike r;
  while (!host.empty() && host.back() == '.') host.remove_suffix(1);
  std::string url;
  ParsedUrl p;
  if (!parse_host(host, url, p)) return r;
  std::vector<UrlSignal> signals;
  std::string registrable;
  checker_->check(url, p, signals, registrable);
  for (const UrlSignal& sig : signals) {
    if (sig.key == url_keys::kBrandLookalike) r.strength = std::max(r.strength, sig.strength);
  }
  if (r.strength <= 0 || registrable.empty()) return r;
  // Which brand: the registrable label as a whole, then its hyphen parts
  // (the URL check also finds brand words glued to keywords; the brand
  // stays unknown there).
  r.kind = LookalikeKind::kContainsBrand;
  std::string_view label(registrable);
  label = label.substr(0, label.find('.'));
  std::string skel;
  ascii_skeleton(label, skel);
  LookalikeMatch m = checker_->brands().lookalike(label, skel);
  std::size_t s = 0;
  while (m.kind == LookalikeKind::kNone && s < label.size()) {
    std::size_t d = label.find('-', s);
    std::size_t e = d == std::string_view::npos ? label.size() : d;
    if (e - s >= 3 && e - s < label.size()) {
      std::string_view part = label.substr(s, e - s);
      ascii_skeleton(part, skel);
      m = checker_->brands().lookalike(part, skel);
    }
    if (d == std::string_view::npos) break;
    s = d + 1;
  }
  if (m.kind != LookalikeKind::kNone) {
    r.kind = m.kind;
    r.brand = m.brand;
    r.length = m.len;
  }
  return r;
}

}  // namespace

Result<std::unique_ptr<UrlAnalyzer>> UrlAnalyzer::load(const DataSource& data) {
  std::string problems;
  std::unique_ptr<BrandTable> brands;
  if (Result<std::unique_ptr<BrandTable>> b = BrandTable::load(data); b.ok()) {
    brands = std::move(b.value());
  } else {
    problems = b.status().message();
  }
  Result<UrlLists> lists = UrlLists::load(data);
  if (!lists.ok()) {
    if (!problems.empty()) problems += "; ";
    problems += lists.status().message();
  }
  if (!problems.empty()) return Status::invalid_argument(problems);
  Result<std::unique_ptr<UrlChecker>> checker =
      UrlChecker::create(std::move(brands), std::move(lists.value()));
  if (!checker.ok()) return checker.status();
  return std::unique_ptr<UrlAnalyzer>(new UrlAnalyzerImpl(std::move(checker.value())));
}

}  // namespace scamcheck::internal
