// The Public Suffix List (libpsl), shared by link extraction and URL
// analysis: "is this a real top-level domain?" and "what is the registrable
// domain (eTLD+1) of this host?".
#ifndef SCAMCHECK_URL_PUBLIC_SUFFIX_H_
#define SCAMCHECK_URL_PUBLIC_SUFFIX_H_

#include <string>
#include <string_view>

namespace scamcheck::internal {

// True if `label` (one label, ASCII lower case or punycode, or lower-case
// UTF-8) is a top-level domain listed in the ICANN section of the list,
// e.g. "com", "de", "shop", "xn--tckwe"; false for "txt", "g", "smith".
// Thread-safe; no allocation for ASCII labels up to 63 bytes.
bool is_known_tld(std::string_view label);

// The registrable domain of `host` (lower-case ASCII/punycode, no trailing
// dot) using the whole list (ICANN and private sections, as browsers do):
// "www.paypal.com" -> "paypal.com", "a.b.gov.uk" -> "b.gov.uk",
// "x.web.app" -> "x.web.app". Empty if `host` is itself a public suffix or
// an IP address. Thread-safe.
std::string registrable_domain(std::string_view host);

// The public suffix of `host` under the ICANN section only ("co.uk",
// "com", "presse.ci"), or "" if none. Thread-safe.
std::string icann_suffix(std::string_view host);

// Which list is in use, for diagnostics: the newer of the list compiled into
// libpsl and the distribution's file (Debian: package `publicsuffix`).
std::string_view public_suffix_list_source();

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_URL_PUBLIC_SUFFIX_H_
