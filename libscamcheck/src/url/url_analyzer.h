// URL analysis: parsing (libcurl URL API), registrable domain (libpsl),
// IDN (libidn2), and the URL signals (brand lookalikes, brand in subdomain
// or path, IP hosts, userinfo tricks, shorteners, risky TLDs, ...).
#ifndef SCAMCHECK_URL_URL_ANALYZER_H_
#define SCAMCHECK_URL_URL_ANALYZER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "data/data_source.h"
#include "detect/finding.h"
#include "extract/links.h"
#include "scamcheck/report.h"
#include "scamcheck/status.h"
#include "url/brands.h"

namespace scamcheck::internal {

class UrlAnalyzer {
 public:
  // Loads lists/brands.json, lists/phishing_wildcard_words.txt,
  // lists/risky_tlds.txt, lists/shorteners.txt, lists/free_hosting.txt,
  // lists/brand_mention_sites.txt, lists/url_keywords.txt,
  // lists/rare_bigrams.txt and lists/site_asset_folders.txt and validates them;
  // every problem is reported in the Status. For content of kind "url",
  // build the LinkMatch with link_for_url_input() (url/url_input.h).
  static Result<std::unique_ptr<UrlAnalyzer>> load(const DataSource& data);
  virtual ~UrlAnalyzer() = default;

  // Analyzes the link `link` found in `text` (the original input). Appends
  // findings whose spans lie inside [link.start, link.end) — each evidence
  // is verbatim text, narrowed to the part that caused it (host, port,
  // userinfo, path segment) where that part is written verbatim — and fills
  // `info` (url, host, registrable_domain). Thread-safe (const).
  virtual void analyze(std::string_view text, const LinkMatch& link, Findings& out,
                       UrlInfo& info) const = 0;

  // True if `registrable_domain` (lower case) is a known brand's official
  // domain, e.g. "paypal.com" or "sparkasse-koelnbonn.de".
  virtual bool is_official(std::string_view registrable_domain) const = 0;

  // Names of the known brands (lower case, e.g. "paypal", "sparkasse"), for
  // the confusable-word check on text.
  virtual const std::vector<std::string>& brand_names() const = 0;

  // The brand table (data/lists/brands.json) itself, for checks outside
  // URLs that need to know which brand a name or domain belongs to (email
  // display names and sender domains).
  virtual const BrandTable& brand_table() const = 0;

  // The registrable domain (eTLD+1, lower case, IDN as punycode A-labels)
  // of a host name written anywhere (an email address's domain, a HELO
  // name): "Mail.PayPal.COM" -> "paypal.com", "bücher.de" ->
  // "xn--bcher-kva.de". Empty for IP addresses, public suffixes and strings
  // that are no host name.
  virtual std::string registrable_domain(std::string_view host) const = 0;

  // Whether `host` (e.g. the domain of a sender address) imitates a brand
  // the way a link's host would raise brand_lookalike: a look-alike or a
  // brand glued into the registrable name ("paypa1.com", "amazon-verify.de").
  // Official domains never do. strength is brand_lookalike's strength
  // (0 = no look-alike); brand is the imitated brand's index in
  // brand_table().brands() when known, else -1, and length the length of
  // the brand's part of the label (0 when unknown).
  struct DomainLookalike {
    double strength = 0;
    int brand = -1;
    LookalikeKind kind = LookalikeKind::kNone;
    std::size_t length = 0;
  };
  virtual DomainLookalike lookalike_brand(std::string_view host) const = 0;
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_URL_URL_ANALYZER_H_
