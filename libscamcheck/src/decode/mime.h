// MIME decoding with GMime 3: a raw RFC 822 message (any bytes) becomes
// decoded UTF-8 header values and parts. Spans of email signals index into
// these decoded texts (CONTRACT §1).
#ifndef SCAMCHECK_DECODE_MIME_H_
#define SCAMCHECK_DECODE_MIME_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "scamcheck/status.h"

namespace scamcheck::internal {

struct VisibleText;    // email/email_checks.h
class NormalizedText;  // normalize/normalize.h

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
  // kText/kHtml: decoded body as valid UTF-8 (at most 1 MiB). kAttachment:
  // the same for text/* attachments and HTML/SVG/HTA file names (for checks
  // such as forms in an .html attachment), else empty. Spans of attachment
  // signals index into `filename`, never into this.
  std::string text;
  std::string head;      // kAttachment: first 512 bytes of the decoded content (magic)
  std::size_t size = 0;  // decoded size in bytes
  int depth = 0;         // nesting of message/rfc822 (0 = the message itself)
  // "body", "body#2", "body:html", "body:html#2", "attachment:<filename>",
  // "attachment:<filename>#2" (same name twice), "attachment:part<N>" (no
  // filename; N = 1-based index in ParsedEmail::parts).
  std::string location;
  // kHtml: the text the part shows a reader, kept by the first HTML check of
  // an analysis (the detector's) so that the model's features do not parse
  // the same HTML again; null until then.
  mutable std::shared_ptr<const VisibleText> visible;
  // kText: the rules' normalization of `text`; kHtml: of what the part
  // shows (visible->text). Kept by the detector for the model's prose
  // features (which use it when it spaced no underscore); null until then.
  mutable std::shared_ptr<const NormalizedText> normalized;
};

struct ParsedEmail {
  // The top-level header block in order, Content-* headers included (not
  // those of parts or of nested messages). At most 1000.
  std::vector<EmailHeader> headers;
  // Leaf parts, depth-first, including those of nested message/rfc822
  // (depth > 0); multiparts themselves are not listed, except that one whose
  // boundary never occurs is a kText part holding its raw content. At most
  // 200.
  std::vector<EmailPart> parts;

  // The decoded text a location's spans index into: a header's value, a
  // text/HTML part's text, an attachment's filename; empty if unknown.
  std::string_view text_of(std::string_view location) const;
  // Headers named `name` (case-insensitive), in order.
  std::vector<const EmailHeader*> find(std::string_view name) const;
};

// Parses `raw` best effort, like a mail client: a leading mbox "From " line
// is skipped, malformed structure is tolerated (a line that is not a header
// ends the headers when no header follows it; input without any headers is
// one text body), unknown charsets fall back to UTF-8 if valid, else
// Windows-1252, and ill-formed UTF-8 becomes U+FFFD, so every decoded text
// is valid UTF-8. Errors only for input that is empty or blank after the
// From line (kInvalidArgument). Thread-safe: GMime is initialised once per
// process and every GMime object is local to the call.
Result<ParsedEmail> parse_email(std::string_view raw);

// A raw header value unfolded as g_mime_utils_header_unfold() does: blanks,
// tabs and line breaks trimmed from both ends, every CR and LF removed.
std::string unfold_header_value(std::string_view raw);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_DECODE_MIME_H_
