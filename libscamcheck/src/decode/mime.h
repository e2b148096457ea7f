// MIME decoding with GMime 3: a raw RFC 822 message (any bytes) becomes
// decoded UTF-8 header values and parts. Spans of email signals index into
// these decoded texts (CONTRACT §1).
#ifndef SCAMCHECK_DECODE_MIME_H_
#define SCAMCHECK_DECODE_MIME_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "scamcheck/status.h"

namespace scamcheck::internal {

struct EmailHeader {
  std::string name;    // as written, e.g. "From", "Reply-To"
  std::string value;   // unfolded, RFC 2047 decoded, valid UTF-8
  int occurrence = 1;  // 1-based among headers of the same name (case-insensitive)
  int count = 1;       // how many headers of this name the message has
  // "header:From", or "header:Received#3" when the name occurs more than once.
  std::string location() const;
};

struct EmailPart {
  enum class Type { kText, kHtml, kAttachment };
  Type type = Type::kText;
  std::string content_type;  // lower case, e.g. "text/plain", "application/zip"
  std::string filename;      // decoded (RFC 2231/2047); empty if none
  std::string text;          // kText/kHtml: decoded body as valid UTF-8
  std::string head;          // kAttachment: first bytes of the decoded content (magic)
  std::size_t size = 0;      // decoded size in bytes
  int depth = 0;             // nesting of message/rfc822 (0 = the message itself)
  std::string location;      // "body", "body#2", "body:html", "attachment:<filename>"
};

struct ParsedEmail {
  std::vector<EmailHeader> headers;  // of the top-level message, in order
  std::vector<EmailPart> parts;      // depth-first order

  // The decoded text a location's spans index into; empty if unknown.
  std::string_view text_of(std::string_view location) const;
  // Headers named `name` (case-insensitive), in order.
  std::vector<const EmailHeader*> find(std::string_view name) const;
};

// Parses `raw` best effort, like a mail client: a leading mbox "From " line
// is skipped, malformed structure is tolerated, unknown charsets fall back
// to Latin-1 / replacement characters so every decoded text is valid UTF-8.
// Errors only for input that is not a message at all (kInvalidArgument).
// Thread-safe (GMime is initialised once per process).
Result<ParsedEmail> parse_email(std::string_view raw);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_DECODE_MIME_H_
