// UrlAnalyzer: wires parsing, the checks and the evidence spans together.
#include "url/url_analyzer.h"

#include <algorithm>

#include "url/brands.h"
#include "url/refang.h"
#include "url/url_checks.h"
#include "url/url_lists.h"
#include "url/url_parse.h"

namespace scamcheck::internal {
namespace {

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

std::size_t find_ci(std::string_view hay, std::string_view needle) {
  if (needle.empty() || needle.size() > hay.size()) return std::string_view::npos;
  for (std::size_t i = 0; i + needle.size() <= hay.size(); ++i) {
    std::size_t k = 0;
    while (k < needle.size() && lower(hay[i + k]) == lower(needle[k])) ++k;
    if (k == needle.size()) return i;
  }
  return std::string_view::npos;
}

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
    Finding f;
    f.key.assign(key);
    f.start = s;
    f.end = e;
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

}  // namespace

Result<std::unique_ptr<UrlAnalyzer>> UrlAnalyzer::load(const DataSource& data) {
  std::string problems;
  std::unique_ptr<BrandTable> brands;
  Result<std::string> json = data.read("lists/brands.json");
  if (!json.ok()) {
    problems = json.status().message();
  } else {
    Result<std::unique_ptr<BrandTable>> b =
        BrandTable::load(*json, data.describe("lists/brands.json"));
    if (b.ok()) {
      brands = std::move(b.value());
    } else {
      problems = b.status().message();
    }
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
