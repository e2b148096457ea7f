// Splitting one URL into its parts, with byte ranges into the URL string so
// that findings can quote the part that caused them, plus the normalized
// host (lower case, percent-decoded, IPv4 in dotted decimal, IDN as
// punycode A-labels, and back as Unicode U-labels for look-alike checks).
// Validation and the canonical host come from libcurl's URL API; the
// ranges come from our own split (curl does not report positions).
#ifndef SCAMCHECK_URL_URL_PARSE_H_
#define SCAMCHECK_URL_URL_PARSE_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace scamcheck::internal {

struct Range {
  std::size_t start = 0;
  std::size_t end = 0;
  bool empty() const { return end <= start; }
  std::size_t size() const { return end > start ? end - start : 0; }
};

enum class HostKind { kNone, kName, kIpv4, kIpv6 };

struct ParsedUrl {
  std::string scheme;  // lower case, e.g. "https", "javascript"
  Range scheme_range;  // without the ':'
  bool has_authority = false;
  Range authority;   // between "//" and the path
  Range userinfo;    // before the last '@' of the authority (empty: none)
  int at_signs = 0;  // number of '@' in the authority
  Range host_range;  // as written; brackets included for IPv6
  Range port;        // the digits after ':' (empty: none)
  Range path;
  Range query;           // without the '?'
  Range fragment;        // without the '#'
  bool curl_ok = false;  // libcurl's URL API accepted the URL
  int port_number = -1;  // -1: no explicit port

  HostKind host_kind = HostKind::kNone;
  std::string host;                   // normalized: lower case, no trailing dot, A-labels
  std::string host_unicode;           // U-labels where the host is an IDN, else == host
  bool host_percent_encoded = false;  // "%70aypal.com"
  bool ipv4_noncanonical = false;     // integer, hex or octal IPv4 forms
  bool host_written_unicode = false;  // non-ASCII characters in the URL's host
  bool host_has_xn_label = false;     // an "xn--" label written as such
  bool idn_failed = false;            // non-ASCII host that IDNA rejects
};

// Parses `url` (must start with a scheme). Returns false only if there is no
// scheme at all; a URL curl rejects is still split as well as possible
// (curl_ok == false). Thread-safe; uses a fresh CURLU handle per call.
bool parse_url(std::string_view url, ParsedUrl& out);

// Parses an IPv4 address in any of the forms browsers accept ("1.2.3.4",
// "3232235777", "0xC0.0250.1.1", "0x7f.1"); true and the dotted-decimal
// form in `dotted` if `host` is one. `canonical` is true for plain
// dotted-decimal without leading zeros.
bool parse_ipv4(std::string_view host, std::string& dotted, bool& canonical);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_URL_URL_PARSE_H_
