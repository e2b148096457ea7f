// Email-specific signals: headers, HTML bodies and attachments. Text rules
// and link analysis of the decoded bodies run in the text pipeline
// (analyzer_impl.cc); these add what only an email has.
#ifndef SCAMCHECK_EMAIL_EMAIL_CHECKS_H_
#define SCAMCHECK_EMAIL_EMAIL_CHECKS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "data/data_source.h"
#include "decode/mime.h"
#include "detect/finding.h"
#include "scamcheck/status.h"
#include "url/url_analyzer.h"

namespace scamcheck::internal {

// Header checks: display name impersonating a brand or person while the
// address is elsewhere; From domain lookalike of a brand; Reply-To /
// Return-Path registrable domain differing from From's; failed SPF / DKIM /
// DMARC (Authentication-Results, Received-SPF) for a sender claiming a
// brand; Message-ID domain unrelated to From; Received chain anomalies;
// unusual Date. Findings carry location EmailHeader::location() and spans
// into EmailHeader::value. Recipient headers (To, Cc, Bcc, Delivered-To,
// X-Original-To, envelope lines) are never evidence.
// Keeps a reference to `urls`, which must outlive the checker.
class HeaderChecker {
 public:
  static Result<std::unique_ptr<HeaderChecker>> load(const DataSource& data,
                                                     const UrlAnalyzer& urls);
  virtual ~HeaderChecker() = default;
  virtual void check(const ParsedEmail& email, Findings& out) const = 0;
  // The From address's registrable domain when the receiving server's
  // topmost Authentication-Results says dmarc=pass and the address is on a
  // known brand's official domain, or on the registrable domain of one of
  // the addresses the mail was delivered to (a colleague, the
  // organisation's own IT; never a freemail provider's): the mail
  // verifiably comes from there. "" otherwise.
  virtual std::string verified_sender_site(const ParsedEmail& email) const = 0;
  // The registrable domain of the From address; "" when there is none or
  // it is a personal mailbox at a freemail provider.
  virtual std::string sender_site(const ParsedEmail& email) const = 0;
  // Whether an address at `domain` (lower case) is a personal mailbox at a
  // freemail provider ("gmail.com", not the provider's "reply.yahoo.com").
  virtual bool freemail_mailbox(std::string_view domain) const = 0;
};

// What the e-mail stage found out about a mail's sender, for the scorer.
struct MailSender {
  // The verified sender's registrable domain
  // (HeaderChecker::verified_sender_site), "" when there is none.
  std::string verified_site;
  // A verified sender whose links all stay at the recipient's organisation
  // (its site or its own SharePoint, at least once) or on brands' official
  // sites other than pages hosted there.
  bool links_stay_home = false;
};

// Text of an HTML part that a reader sees, with a map back to the HTML
// source: the text pipeline runs over `text`, and a span [s, e) of it maps
// to source bytes [source_start[s], source_end[e - 1]).
struct VisibleText {
  std::string text;
  std::vector<std::uint32_t> source_start;  // per byte of `text`
  std::vector<std::uint32_t> source_end;    // per byte of `text`
  // Web and script links (<a href>; not mailto:, tel:, cid: or fragments)
  // with their span in the HTML source (the href value).
  struct Link {
    std::size_t href_start = 0, href_end = 0;  // the href attribute value in the source
    std::string href;                          // entity-decoded
  };
  std::vector<Link> links;

  // The source bytes a span [start, end) of `text` came from; nullopt when
  // the span is empty, out of range, or maps to no source byte.
  std::optional<std::pair<std::size_t, std::size_t>> source_span(std::size_t start,
                                                                 std::size_t end) const {
    if (end <= start || end > source_start.size() || end > source_end.size()) return std::nullopt;
    const std::size_t s = source_start[start], e = source_end[end - 1];
    if (e <= s) return std::nullopt;
    return std::pair{s, e};
  }
};

// HTML checks on one decoded HTML part (location "body:html", spans into the
// HTML source): link text showing one domain while the href goes to
// another; <form> elements and password fields; hidden text (display:none,
// zero font size, white on white); obfuscated or encoded links. Tracking
// pixels are not signals on their own.
class HtmlChecker {
 public:
  static Result<std::unique_ptr<HtmlChecker>> load(const DataSource& data, const UrlAnalyzer& urls);
  virtual ~HtmlChecker() = default;
  // Appends HTML findings for `html` and fills `visible` (for the text
  // pipeline). `location` is the part's location; `sender_site` the From
  // address's registrable domain ("" for none or a freemail mailbox).
  // Findings about a link to `sender_site` are scaled by
  // `sender_site_strength`: a sender's own click tracker is no disguise.
  virtual void check(std::string_view html, const std::string& location,
                     std::string_view sender_site, double sender_site_strength, Findings& out,
                     VisibleText& visible) const = 0;
  // The same for a part whose sender is not known.
  void check(std::string_view html, const std::string& location, Findings& out,
             VisibleText& visible) const {
    check(html, location, {}, 1.0, out, visible);
  }
};

// Attachment checks (location "attachment:<filename>", spans into the
// filename): dangerous types and extensions (executables, scripts, .lnk,
// .iso, .img, macro-enabled Office files, .html/.htm attachments with
// forms), double extensions, archives named as invoices; and, with the
// body texts, a password for an archive given in the body.
class AttachmentChecker {
 public:
  static Result<std::unique_ptr<AttachmentChecker>> load(const DataSource& data);
  virtual ~AttachmentChecker() = default;
  virtual void check(const ParsedEmail& email, Findings& out) const = 0;
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_EMAIL_EMAIL_CHECKS_H_
