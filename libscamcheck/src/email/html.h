// HtmlChecker (declared in email_checks.h): the findings of one HTML part,
// computed from the scan in html_scan.h. This header exposes the pieces the
// checks are built from, for tests and for the measurement tool.
//
// Findings (location: the part's location, spans into the HTML source):
// - link_text_mismatch: an <a> whose visible text shows a web address
//   ("www.paypal.com", "https://bank.de/login") while its href leads to a
//   different site (registrable domain). Not for the same organisation
//   under another suffix (paypal.com / paypal.de), two official brand
//   domains, or a redirect whose query names the shown site. A bare name
//   ("Dilbert.com") counts only as the whole link text, and weaker unless
//   it is a brand's official domain; links through click-tracking hosts
//   count half, links to the sender's own site (From's registrable
//   domain) by sender_site_strength, and links showing kTrackerShownSites
//   or more different sites that all lead to one site (a newsletter's
//   tracker) by kTrackerStrength. Evidence: the address as written in the
//   link text.
// - html_form: a <form> start tag (evidence: the tag, or its action value
//   when the tag is long), an <input type=password> (evidence: the tag).
// - hidden_text: a run of >= kHiddenMinChars characters a reader cannot see
//   (display:none, visibility:hidden, opacity:0, zero height, off-screen,
//   font-size <= 1px, text colored like its background). A newsletter's
//   preview line (the first hidden run, before any visible text, shorter
//   than kPreheaderMaxChars, see html_scan.h) is not flagged. Evidence: the start of the
//   hidden text (<= 60 source bytes).
// - obfuscated_url: an href whose letters or digits are written as
//   character references ("&#104;&#116;tp://"), or with control characters
//   inside its scheme ("java&#9;script:"). Evidence: the href value.
//   javascript:/data: links, IP hosts and percent-encoded hosts are left to
//   the URL analysis of VisibleText::links (script_url, ip_address_host,
//   obfuscated_url there), so they are not counted twice.
#ifndef SCAMCHECK_EMAIL_HTML_H_
#define SCAMCHECK_EMAIL_HTML_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "email/email_checks.h"

namespace scamcheck::internal {

namespace html_keys {
inline constexpr std::string_view kLinkTextMismatch = "link_text_mismatch";
inline constexpr std::string_view kHtmlForm = "html_form";
inline constexpr std::string_view kHiddenText = "hidden_text";
inline constexpr std::string_view kObfuscatedUrl = "obfuscated_url";
}  // namespace html_keys

// Hidden runs shorter than this (in characters other than white space and
// invisible fillers) are ignored: a word or two hidden is layout, not spam.
inline constexpr std::size_t kHiddenMinChars = 20;
// Findings of one key per HTML part, at most (the scorer adds only a little
// for repeats; quoting dozens of hidden runs helps nobody).
inline constexpr int kMaxFindingsPerKey = 3;
// Mismatched links weighed for link_text_mismatch per HTML part, at most.
inline constexpr std::size_t kMaxMismatchesKept = 64;
// Mismatched links showing this many different sites while all leading to
// one other site go through a newsletter's click tracker: they count at
// kTrackerStrength.
inline constexpr std::size_t kTrackerShownSites = 3;
inline constexpr double kTrackerStrength = 0.25;
// A <form> start tag longer than this is quoted by its action value.
inline constexpr std::size_t kFormTagEvidenceMax = 200;

// The site a web address belongs to: its registrable domain, or the host
// itself for IP addresses and hosts without one. `url` may lack a scheme
// ("www.x.com", "//x.com/p"). False if it is not an http(s)/ftp address
// with a host.
struct WebSite {
  std::string host;  // normalized (lower case, A-labels)
  std::string site;  // registrable domain, or host
  bool ip = false;
};
bool web_site_of(std::string_view url, WebSite& out);

// Number of numeric character references in `source` (an attribute value
// as written) that encode an ASCII letter or digit, which no HTML encoder
// needs to escape: "&#104;&#116;&#116;&#112;" -> 4.
int encoded_alnum_references(std::string_view source);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_EMAIL_HTML_H_
