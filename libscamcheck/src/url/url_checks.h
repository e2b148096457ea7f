// The URL signals: given a parsed URL, which glossary keys apply, how
// strongly, and which part of the URL (a byte range in the URL string) is
// the evidence. Mapping those ranges back to the input text is the
// analyzer's job (url_analyzer.cc).
#ifndef SCAMCHECK_URL_URL_CHECKS_H_
#define SCAMCHECK_URL_URL_CHECKS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "scamcheck/status.h"
#include "url/brands.h"
#include "url/url_lists.h"
#include "url/url_parse.h"

struct USpoofChecker;

namespace scamcheck::internal {

// Glossary keys of this stage (static storage).
namespace url_keys {
inline constexpr std::string_view kBrandLookalike = "brand_lookalike";
inline constexpr std::string_view kBrandInSubdomain = "brand_in_subdomain";
inline constexpr std::string_view kBrandInPath = "brand_in_path";
inline constexpr std::string_view kPunycodeDomain = "punycode_domain";
inline constexpr std::string_view kIpAddressHost = "ip_address_host";
inline constexpr std::string_view kUserinfoTrick = "userinfo_trick";
inline constexpr std::string_view kUrlShortener = "url_shortener";
inline constexpr std::string_view kRiskyTld = "risky_tld";
inline constexpr std::string_view kManySubdomains = "many_subdomains";
inline constexpr std::string_view kNonstandardPort = "nonstandard_port";
inline constexpr std::string_view kInsecureLoginPage = "insecure_login_page";
inline constexpr std::string_view kScriptUrl = "script_url";
inline constexpr std::string_view kFreeHosting = "free_hosting";
inline constexpr std::string_view kPhishingKeywords = "phishing_keywords_in_url";
inline constexpr std::string_view kRandomDomain = "random_domain";
inline constexpr std::string_view kObfuscatedUrl = "obfuscated_url";
inline constexpr std::string_view kDefangedLink = "defanged_link";
inline constexpr std::string_view kHijackedSitePath = "hijacked_site_path";
inline constexpr std::string_view kRandomCodeFolder = "random_code_folder";
inline constexpr std::string_view kDomainInPath = "domain_in_path";
inline constexpr std::string_view kHostingServerName = "hosting_server_name";
}  // namespace url_keys

struct UrlSignal {
  std::string_view key;  // one of url_keys
  Range range;           // in the URL string; empty = the whole link
  double strength = 1.0;
};

class UrlChecker {
 public:
  static Result<std::unique_ptr<UrlChecker>> create(std::unique_ptr<BrandTable> brands,
                                                    UrlLists lists);
  ~UrlChecker();
  UrlChecker(const UrlChecker&) = delete;
  UrlChecker& operator=(const UrlChecker&) = delete;

  // Appends the signals of `url` (parsed into `p`) to `out`, at most one per
  // key, and sets `registrable` (eTLD+1, "" for IP hosts). Thread-safe.
  // REQUIRES: `p` is what parse_url(url) gives: an input repeats its links
  // (a newsletter's tracking links, a document's footer), so each thread
  // remembers the answers for its recent URLs, keyed by the URL alone.
  void check(std::string_view url, const ParsedUrl& p, std::vector<UrlSignal>& out,
             std::string& registrable) const;

  const BrandTable& brands() const { return *brands_; }

  // label_randomness() (host_heuristics.h) with this checker's rare letter
  // pairs.
  double randomness(std::string_view label) const;

 private:
  UrlChecker() = default;
  void check_uncached(std::string_view url, const ParsedUrl& p, std::vector<UrlSignal>& out,
                      std::string& registrable) const;
  // Look-alike test for one host label (ASCII form and Unicode form): the
  // whole label, then each hyphen-separated part, then brand names glued to
  // URL keywords ("appleaccounts", "paypalverify").
  LookalikeMatch label_lookalike(std::string_view label, std::string_view uni_label) const;

  // The steps of check(); State holds what one call has learned so far.
  struct State;
  void check_authority(State& st) const;   // userinfo, '@@', encodings, port
  void check_host(State& st) const;        // IP, IDN, shortener, hosting, TLD
  void check_host_names(State& st) const;  // brands, keywords, randomness
  void check_subdomains(State& st) const;
  void check_path(State& st) const;  // path/query keywords and brands
  void keyword_hits(State& st, std::string_view text, std::size_t text_off, bool in_host,
                    std::vector<int>& ids, Range& first) const;
  double keyword_weight(const std::vector<int>& ids) const;
  bool glued_to_keyword(std::string_view seg, std::size_t pos, std::size_t len,
                        bool glued_right) const;

  std::unique_ptr<BrandTable> brands_;
  UrlLists lists_;
  SubstringIndex keywords_;  // id = index into lists_.keywords
  USpoofChecker* spoof_ = nullptr;
  // Tells this checker's entries in the per-thread check() cache from those
  // of a checker freed before (whose address this one may reuse).
  std::uint64_t serial_ = 0;
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_URL_URL_CHECKS_H_
