// Best-effort readers for the header values the header checks look at:
// mailboxes (From, Reply-To, Sender, Return-Path), Message-ID, dates,
// Received lines and authentication results. Values are the decoded header
// texts of ParsedEmail (unfolded, RFC 2047 decoded), so a display name may
// hold any character; everything returned is a byte span into the value,
// which is what findings quote. Nothing here throws or allocates per byte.
#ifndef SCAMCHECK_EMAIL_HEADER_PARSE_H_
#define SCAMCHECK_EMAIL_HEADER_PARSE_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "util/ascii.h"

namespace scamcheck::internal {

struct Span {
  std::size_t start = 0;
  std::size_t end = 0;
  bool empty() const { return end <= start; }
  std::string_view of(std::string_view text) const {
    return empty() ? std::string_view() : text.substr(start, end - start);
  }
};

// One mailbox of an address header. `name` is the display name without the
// surrounding quotes and blanks (empty if none; a comment "(Name)" after a
// bare address counts as its name); `address` the addr-spec "local@domain"
// (empty for "<>" or a name without an address); `domain` the part after
// its last '@' (empty if there is none).
struct Mailbox {
  Span name;
  Span address;
  Span domain;
};

// The sender of a single-mailbox header (From, Sender, Return-Path): the
// last angle address "<...>" is the address and everything before it the
// display name, as mail clients show it; without angle brackets, the first
// word containing '@'. A missing '>' at the end is tolerated.
Mailbox parse_mailbox(std::string_view value);

// Every mailbox of an address-list header (Reply-To), in order.
std::vector<Mailbox> parse_mailbox_list(std::string_view value);

// Addresses written inside a display name ("service@paypal.com" in
// "service@paypal.com <x@example.net>"): spans of each word that looks like
// local@domain.tld, and of its domain.
struct NameAddress {
  Span address;
  Span domain;
};
std::vector<NameAddress> addresses_in(std::string_view text, Span within);

// Words of text[within) shaped like domain names ("Amazon.de",
// "proton.me", "www.example.co.uk"), not parts of an address: two or more
// dot-separated labels of letters, digits and hyphens, the last one all
// letters. Whether the last label is a real top-level domain is the
// caller's business.
std::vector<Span> domains_in(std::string_view text, Span within);

// The domain of a Message-ID "<local@domain>" (empty if none).
Span message_id_domain(std::string_view value);

// A date as written in Date and at the end of Received lines (RFC 5322
// date-time, with the obsolete forms: two-digit years, named zones,
// missing weekday or seconds).
struct DateTime {
  enum class Status {
    kOk,
    kMalformed,   // no day, month, year and time could be read
    kImpossible,  // read, but a field is out of range (month 13, 25:00,
                  // year before 1990, zone +3000)
  };
  Status status = Status::kMalformed;
  std::int64_t epoch = 0;  // seconds since 1970 (UTC), for kOk
};
DateTime parse_date(std::string_view text);

// The date at the end of a Received value (after its last ';').
DateTime received_date(std::string_view value);

// The parts of a Received value "from HELO (REVERSE [IP]) by ...".
struct ReceivedFrom {
  Span helo;           // the name the sending host gave (empty if none / an IP)
  Span reverse;        // its reverse-DNS name as the receiver saw it ("unknown" included)
  Span ip;             // the connecting IP address (brackets excluded)
  bool valid = false;  // a "from" clause was found
};
ReceivedFrom parse_received_from(std::string_view value);

// Whether `ip` is an IPv4 address in dotted form, and whether it is one no
// mail host on the internet can have (private, loopback, link-local).
struct Ipv4Info {
  bool dotted = false;    // four dot-separated decimal numbers
  bool valid = false;     // each at most 255
  bool internal = false;  // 10/8, 172.16/12, 192.168/16, 127/8, 169.254/16, 0/8
};
Ipv4Info classify_ipv4(std::string_view ip);

// One "method=result" of an authentication result ("spf=softfail",
// "dmarc=fail"); `result` is lower-case ASCII compared, spans quote it as
// written.
struct AuthResult {
  enum class Method { kSpf, kDkim, kDmarc };
  Method method = Method::kSpf;
  Span token;               // "dmarc=fail" as written
  std::string_view result;  // "fail" (a view into the value)
};
// Authentication-Results / ARC-Authentication-Results: every spf, dkim and
// dmarc result (the authserv-id and the "reason" texts are skipped).
std::vector<AuthResult> parse_auth_results(std::string_view value);
// Received-SPF: the result word at the start ("Fail", "softfail", "None").
std::vector<AuthResult> parse_received_spf(std::string_view value);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_EMAIL_HEADER_PARSE_H_
