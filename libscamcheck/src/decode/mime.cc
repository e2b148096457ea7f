#include "decode/mime.h"

#include <gmime/gmime.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "decode/charset.h"
#include "util/ascii.h"

namespace scamcheck::internal {
namespace {

// Limits against hostile input. Decoded sizes are bounded by the input size
// anyway (base64 and QP only shrink, every part is a distinct byte range),
// except for charset conversion, which can triple a Windows-1252 text.
constexpr std::size_t kMaxTextBytes = std::size_t{1} << 20;  // per text/HTML part
constexpr std::size_t kMaxParts = 200;                       // leaf parts kept
constexpr int kMaxMessageDepth = 10;                         // message/rfc822 nesting
constexpr int kMaxTreeDepth = 64;                            // multipart nesting (recursion)
constexpr std::size_t kMaxHeaders = 1000;                    // top-level headers kept
constexpr std::size_t kHeadBytes = 512;                      // attachment magic bytes

// ---- GLib/GMime ownership -------------------------------------------------

struct GObjectUnref {
  void operator()(gpointer object) const {
    if (object != nullptr) g_object_unref(object);
  }
};
template <typename T>
using GObjectPtr = std::unique_ptr<T, GObjectUnref>;

struct GFree {
  void operator()(gpointer memory) const { g_free(memory); }
};
using GCharPtr = std::unique_ptr<char, GFree>;

struct ParserOptionsFree {
  void operator()(GMimeParserOptions* options) const { g_mime_parser_options_free(options); }
};
using ParserOptionsPtr = std::unique_ptr<GMimeParserOptions, ParserOptionsFree>;

// g_mime_init is not thread-safe and must run before any other GMime call;
// afterwards GMime's charset, iconv and utils functions are thread-safe and
// its objects are safe as long as no object is shared between threads
// (GMime FAQ). Every object below is created per call. GMime is never shut
// down: other code in the process may use it too.
void init_gmime() {
  static std::once_flag once;
  std::call_once(once, [] { g_mime_init(); });
}

// ---- small string helpers -------------------------------------------------

// CONTRACT §1: a leading mbox "From " envelope line is not part of the
// message (and is a collection artifact in the corpora).
std::string_view skip_mbox_from_line(std::string_view raw) {
  if (raw.substr(0, 5) != "From ") return raw;
  const std::size_t eol = raw.find('\n');
  return eol == std::string_view::npos ? std::string_view() : raw.substr(eol + 1);
}

// ---- charsets -------------------------------------------------------------

enum class CharsetClass { kGuess, kUtf8, kWindows1252, kOther };

// Names that mean "no usable charset" are guessed (UTF-8 if valid, else
// Windows-1252): mail claiming us-ascii with 8-bit bytes is common. Latin-1
// is read as its superset Windows-1252, as browsers and mail clients do.
CharsetClass classify_charset(std::string_view name) {
  static constexpr std::string_view kGuess[] = {
      "",        "us-ascii",     "ascii",     "ansi_x3.4-1968", "iso646-us", "us",   "default",
      "unknown", "unknown-8bit", "x-unknown", "x-user-defined", "8bit",      "none", "charset"};
  static constexpr std::string_view kUtf8[] = {"utf-8", "utf8", "unicode-1-1-utf-8"};
  static constexpr std::string_view kWindows1252[] = {
      "iso-8859-1", "iso8859-1", "iso_8859-1", "iso_8859-1:1987", "latin1", "latin-1",  "l1",
      "iso-ir-100", "cp819",     "ibm819",     "windows-1252",    "cp1252", "x-cp1252", "cp-1252"};
  const std::string lower = lower_ascii(trim(name));
  for (auto n : kGuess) {
    if (lower == n) return CharsetClass::kGuess;
  }
  for (auto n : kUtf8) {
    if (lower == n) return CharsetClass::kUtf8;
  }
  for (auto n : kWindows1252) {
    if (lower == n) return CharsetClass::kWindows1252;
  }
  return CharsetClass::kOther;
}

// Converts with GMime's charset filter (iconv underneath; GMime maps
// charset aliases such as ks_c_5601-1987). False if the charset is unknown.
bool convert_with_gmime(std::string_view bytes, const std::string& charset, std::string* out) {
  GMimeFilter* filter = g_mime_filter_charset_new(charset.c_str(), "UTF-8");
  if (filter == nullptr) return false;
  GObjectPtr<GMimeStream> memory(g_mime_stream_mem_new());
  GObjectPtr<GMimeStream> filtered(g_mime_stream_filter_new(memory.get()));
  g_mime_stream_filter_add(GMIME_STREAM_FILTER(filtered.get()), filter);
  g_object_unref(filter);  // the stream holds its own reference
  g_mime_stream_write(filtered.get(), bytes.data(), bytes.size());
  g_mime_stream_flush(filtered.get());
  GByteArray* array = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(memory.get()));
  out->assign(reinterpret_cast<const char*>(array->data), array->len);
  return true;
}

// Decoded part bytes to valid UTF-8 of at most kMaxTextBytes.
std::string text_to_utf8(std::string_view bytes, const char* charset) {
  bytes = bytes.substr(0, kMaxTextBytes);
  std::string text;
  const std::string name = charset != nullptr ? std::string(trim(charset)) : std::string();
  switch (classify_charset(name)) {
    case CharsetClass::kGuess:
      text = guess_to_utf8(bytes);
      break;
    case CharsetClass::kUtf8:
      text = make_valid_utf8(bytes);
      break;
    case CharsetClass::kWindows1252:
      text = windows1252_to_utf8(bytes);
      break;
    case CharsetClass::kOther: {
      std::string converted;
      // The filter drops undecodable bytes and passes input through on
      // unexpected iconv errors, so its output is validated again.
      text = convert_with_gmime(bytes, name, &converted) ? make_valid_utf8(converted)
                                                         : guess_to_utf8(bytes);
      break;
    }
  }
  if (text.size() > kMaxTextBytes) text.resize(truncate_utf8(text, kMaxTextBytes).size());
  return text;
}

// ---- parsing ----------------------------------------------------------------

// Per-call parser state, reached from GMime's warning callback.
struct ParseWarnings {
  gint64 first_invalid_header = -1;  // stream offset of the first non-header line
};

void on_parser_warning(gint64 offset, GMimeParserWarning code, const gchar* /*item*/,
                       gpointer user_data) {
  auto* warnings = static_cast<ParseWarnings*>(user_data);
  if (code == GMIME_CRIT_INVALID_HEADER_NAME && warnings->first_invalid_header < 0) {
    warnings->first_invalid_header = offset;
  }
}

// True if GMime reads every line of the top-level header block (up to the
// first empty line, or the end) as a header or its continuation: a field
// name of printable ASCII other than ':' (blanks only between it and the
// ':'), or a line starting with a blank after such a header. GMime warns
// GMIME_CRIT_INVALID_HEADER_NAME about any other line; this errs on the
// side of false (8-bit or control bytes in a name). Most mail passes, and
// is then parsed without a warning callback: with one, GMime also checks
// every header for other warnings, a third of its parse time.
bool header_lines_all_valid(std::string_view input) {
  bool first = true;
  std::size_t pos = 0;
  while (pos < input.size()) {
    std::size_t eol = input.find('\n', pos);
    std::string_view line =
        input.substr(pos, eol == std::string_view::npos ? std::string_view::npos : eol - pos);
    if (line.empty() || line == "\r") return true;  // the end of the headers
    if (line[0] == ' ' || line[0] == '\t') {
      if (first) return false;  // a continuation of nothing
    } else {
      std::size_t i = 0;
      while (i < line.size() && line[i] > ' ' && line[i] < 0x7F && line[i] != ':') ++i;
      if (i == 0) return false;
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      if (i == line.size() || line[i] != ':') return false;
    }
    first = false;
    if (eol == std::string_view::npos) break;
    pos = eol + 1;
  }
  return true;
}

// `warnings` null: no warning callback (see header_lines_all_valid).
ParserOptionsPtr make_parser_options(ParseWarnings* warnings) {
  ParserOptionsPtr options(g_mime_parser_options_new());
  // Spam and old mail break the RFCs freely; decode what a client would.
  g_mime_parser_options_set_rfc2047_compliance_mode(options.get(), GMIME_RFC_COMPLIANCE_LOOSE);
  g_mime_parser_options_set_parameter_compliance_mode(options.get(), GMIME_RFC_COMPLIANCE_LOOSE);
  g_mime_parser_options_set_address_compliance_mode(options.get(), GMIME_RFC_COMPLIANCE_LOOSE);
  // Unencoded 8-bit header text: UTF-8 if it is valid, else Windows-1252.
  const char* fallback[] = {"UTF-8", "windows-1252", nullptr};
  g_mime_parser_options_set_fallback_charsets(options.get(), fallback);
  if (warnings != nullptr) {
    g_mime_parser_options_set_warning_callback(options.get(), on_parser_warning, warnings);
  }
  return options;
}

struct ParserRun {
  GObjectPtr<GMimeObject> root;  // the message as a MIME part (headers + body)
  gint64 headers_end = -1;       // offset of the blank line ending the top-level headers
};

// The message is parsed as a MIME part, not as a GMimeMessage: a part keeps
// every header of the top-level block in one list, in order (a message
// moves the Content-* headers to its MIME part), and GMimeMessage would
// eagerly parse address, date and subject headers that are decoded below
// anyway (about a fifth of the parse time). Nested message/rfc822 parts
// are still GMimeMessages.
ParserRun run_parser(std::string_view bytes, GMimeParserOptions* options) {
  // The memory stream copies the bytes; parts keep substreams of it alive.
  GObjectPtr<GMimeStream> stream(g_mime_stream_mem_new_with_buffer(bytes.data(), bytes.size()));
  GObjectPtr<GMimeParser> parser(g_mime_parser_new_with_stream(stream.get()));
  g_mime_parser_set_format(parser.get(), GMIME_FORMAT_MESSAGE);
  ParserRun run;
  run.root.reset(g_mime_parser_construct_part(parser.get(), options));
  run.headers_end = g_mime_parser_get_headers_end(parser.get());
  return run;
}

// True if any top-level header starts after `offset`.
bool has_header_after(GMimeObject* root, gint64 offset) {
  if (root == nullptr) return false;
  GMimeHeaderList* list = g_mime_object_get_header_list(root);
  const int count = g_mime_header_list_get_count(list);
  for (int i = 0; i < count; ++i) {
    if (g_mime_header_get_offset(g_mime_header_list_get_header_at(list, i)) > offset) return true;
  }
  return false;
}

bool needs_rfc2047_decoding(std::string_view text) {
  if (text.find("=?") != std::string_view::npos) return true;
  return std::any_of(text.begin(), text.end(),
                     [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
}

// Unfolded, RFC 2047 decoded, valid UTF-8. Plain ASCII without encoded
// words comes out of g_mime_utils_header_decode_text unchanged, so the call
// is skipped for it (most headers; it is the costliest step here).
std::string decode_header_value(const char* raw, GMimeParserOptions* options) {
  std::string unfolded = unfold_header_value(raw != nullptr ? raw : "");
  if (!needs_rfc2047_decoding(unfolded)) return unfolded;
  GCharPtr decoded(g_mime_utils_header_decode_text(options, unfolded.c_str()));
  return make_valid_utf8(decoded != nullptr ? decoded.get() : "");
}

void collect_headers(GMimeObject* root, GMimeParserOptions* options, ParsedEmail& out) {
  GMimeHeaderList* list = g_mime_object_get_header_list(root);
  const int count = g_mime_header_list_get_count(list);
  out.headers.reserve(static_cast<std::size_t>(std::min<int>(count, kMaxHeaders)));
  for (int i = 0; i < count && out.headers.size() < kMaxHeaders; ++i) {
    GMimeHeader* header = g_mime_header_list_get_header_at(list, i);
    const char* name = g_mime_header_get_name(header);
    EmailHeader h;
    h.name = make_valid_utf8(name != nullptr ? name : "");
    h.value = decode_header_value(g_mime_header_get_raw_value(header), options);
    out.headers.push_back(std::move(h));
  }
  // Occurrence numbers per case-insensitive name: the headers in order of
  // their lower-cased names (stable: in message order within a name).
  const std::size_t n = out.headers.size();
  std::vector<std::string> lower(n);
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) {
    lower[i] = lower_ascii(out.headers[i].name);
    order[i] = i;
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return lower[a] < lower[b]; });
  for (std::size_t first = 0; first < n;) {
    std::size_t end = first + 1;
    while (end < n && lower[order[end]] == lower[order[first]]) ++end;
    for (std::size_t k = first; k < end; ++k) {
      out.headers[order[k]].occurrence = static_cast<int>(k - first + 1);
      out.headers[order[k]].count = static_cast<int>(end - first);
    }
    first = end;
  }
}

// Files whose text matters to the attachment checks (HTML with forms).
bool is_textual_attachment(const EmailPart& part) {
  if (part.content_type.rfind("text/", 0) == 0) return true;
  for (std::string_view ext : {".htm", ".html", ".shtml", ".xhtml", ".svg", ".hta"}) {
    if (ends_with_ci(part.filename, ext)) return true;
  }
  return false;
}

// Walks the MIME tree depth-first, collecting leaf parts.
class PartWalker {
 public:
  explicit PartWalker(ParsedEmail& out) : out_(out) {}

  void walk(GMimeObject* object, int message_depth, int tree_depth) {
    if (object == nullptr || out_.parts.size() >= kMaxParts || tree_depth > kMaxTreeDepth) return;
    if (GMIME_IS_MESSAGE_PART(object)) {
      // A forwarded or attached message: its parts count, one level deeper;
      // its headers are not the top-level headers.
      if (message_depth + 1 > kMaxMessageDepth) return;
      GMimeMessage* inner = g_mime_message_part_get_message(GMIME_MESSAGE_PART(object));
      if (inner != nullptr) {
        walk(g_mime_message_get_mime_part(inner), message_depth + 1, tree_depth + 1);
      }
    } else if (GMIME_IS_MULTIPART(object)) {
      GMimeMultipart* multipart = GMIME_MULTIPART(object);
      const int count = g_mime_multipart_get_count(multipart);
      for (int i = 0; i < count; ++i) {
        walk(g_mime_multipart_get_part(multipart, i), message_depth, tree_depth + 1);
      }
      if (count == 0) add_unsplit_multipart(multipart, message_depth);
    } else if (GMIME_IS_PART(object)) {
      add_leaf(GMIME_PART(object), message_depth);
    }
  }

 private:
  void add_leaf(GMimePart* part, int depth) {
    GMimeObject* object = GMIME_OBJECT(part);
    EmailPart p;
    p.depth = depth;
    GMimeContentType* type = g_mime_object_get_content_type(object);
    GCharPtr mime_type(type != nullptr ? g_mime_content_type_get_mime_type(type) : nullptr);
    p.content_type = make_valid_utf8(lower_ascii(mime_type ? mime_type.get() : "text/plain"));
    const char* filename = g_mime_part_get_filename(part);
    if (filename != nullptr) p.filename = std::string(trim(make_valid_utf8(filename)));
    GMimeContentDisposition* disposition = g_mime_object_get_content_disposition(object);
    const bool attached =
        (disposition != nullptr && g_mime_content_disposition_is_attachment(disposition)) ||
        !p.filename.empty();
    if (!attached && p.content_type == "text/plain") {
      p.type = EmailPart::Type::kText;
    } else if (!attached && p.content_type == "text/html") {
      p.type = EmailPart::Type::kHtml;
    } else {
      p.type = EmailPart::Type::kAttachment;
    }

    const std::string bytes = decoded_content(part);
    p.size = bytes.size();
    const char* charset = g_mime_object_get_content_type_parameter(object, "charset");
    if (p.type == EmailPart::Type::kAttachment) {
      p.head = bytes.substr(0, kHeadBytes);
      if (is_textual_attachment(p)) p.text = text_to_utf8(bytes, charset);
    } else {
      p.text = text_to_utf8(bytes, charset);
    }
    p.location = location_for(p);
    out_.parts.push_back(std::move(p));
  }

  // A multipart whose boundary never occurs (missing, mistyped, an
  // unterminated quote) has no children: GMime keeps its whole content as
  // the prologue. Spam does this; read that raw content as a text body,
  // rather than losing it.
  void add_unsplit_multipart(GMimeMultipart* multipart, int depth) {
    const char* prologue = g_mime_multipart_get_prologue(multipart);
    if (prologue == nullptr || trim(prologue).empty()) return;
    EmailPart p;
    p.type = EmailPart::Type::kText;
    p.content_type = "text/plain";
    p.depth = depth;
    p.size = std::strlen(prologue);
    p.text = text_to_utf8(prologue, nullptr);
    p.location = location_for(p);
    out_.parts.push_back(std::move(p));
  }

  // The part's content with its transfer encoding (base64, quoted-printable,
  // uuencode) undone. GMime's decoders skip invalid characters and stop at
  // truncation, so broken encodings decode as far as they go.
  static std::string decoded_content(GMimePart* part) {
    GMimeDataWrapper* content = g_mime_part_get_content(part);
    if (content == nullptr) return {};
    GObjectPtr<GMimeStream> memory(g_mime_stream_mem_new());
    g_mime_data_wrapper_write_to_stream(content, memory.get());
    GByteArray* array = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(memory.get()));
    return std::string(reinterpret_cast<const char*>(array->data), array->len);
  }

  std::string location_for(const EmailPart& p) {
    switch (p.type) {
      case EmailPart::Type::kText:
        return ++text_parts_ == 1 ? "body" : "body#" + std::to_string(text_parts_);
      case EmailPart::Type::kHtml:
        return ++html_parts_ == 1 ? "body:html" : "body:html#" + std::to_string(html_parts_);
      case EmailPart::Type::kAttachment:
        break;
    }
    std::string base =
        "attachment:" +
        (p.filename.empty() ? "part" + std::to_string(out_.parts.size() + 1) : p.filename);
    std::string location = base;
    for (int n = 2; is_used(location); ++n) location = base + "#" + std::to_string(n);
    return location;
  }

  bool is_used(const std::string& location) const {
    return std::any_of(out_.parts.begin(), out_.parts.end(),
                       [&](const EmailPart& p) { return p.location == location; });
  }

  ParsedEmail& out_;
  int text_parts_ = 0;
  int html_parts_ = 0;
};

}  // namespace

std::string EmailHeader::location() const {
  if (count > 1) return "header:" + name + "#" + std::to_string(occurrence);
  return "header:" + name;
}

std::string_view ParsedEmail::text_of(std::string_view location) const {
  if (location.substr(0, 7) == "header:") {
    for (const auto& h : headers) {
      if (h.location() == location) return h.value;
    }
    return {};
  }
  for (const auto& p : parts) {
    if (p.location == location) {
      return p.type == EmailPart::Type::kAttachment ? std::string_view(p.filename)
                                                    : std::string_view(p.text);
    }
  }
  return {};
}

std::vector<const EmailHeader*> ParsedEmail::find(std::string_view name) const {
  std::vector<const EmailHeader*> found;
  for (const auto& h : headers) {
    if (equals_ci(h.name, name)) found.push_back(&h);
  }
  return found;
}

std::string unfold_header_value(std::string_view raw) {
  auto lwsp = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  std::size_t start = 0, end = raw.size();
  while (start < end && lwsp(raw[start])) ++start;
  while (end > start && lwsp(raw[end - 1])) --end;
  raw = raw.substr(start, end - start);
  std::string out;
  out.reserve(raw.size());
  // Line by line (a search for each line break, not a test of each byte).
  for (std::size_t from = 0; from <= raw.size();) {
    std::size_t nl = raw.find('\n', from);
    if (nl == std::string_view::npos) nl = raw.size();
    const std::string_view line = raw.substr(from, nl - from);
    if (line.find('\r') == std::string_view::npos) {
      out.append(line);
    } else {
      for (char c : line) {
        if (c != '\r') out.push_back(c);
      }
    }
    from = nl + 1;
  }
  return out;
}

Result<ParsedEmail> parse_email(std::string_view raw) {
  init_gmime();
  const std::string_view input = skip_mbox_from_line(raw);
  if (trim(input).empty()) return Status::invalid_argument("the email is empty");

  ParseWarnings warnings;
  ParserOptionsPtr options =
      make_parser_options(header_lines_all_valid(input) ? nullptr : &warnings);
  ParserRun run = run_parser(input, options.get());

  // GMime skips a line that is not a header and goes on reading headers up
  // to the blank line, so a message without that blank line (or without
  // any headers) loses its body. Mail clients end the headers at such a
  // line instead; do so when no real header follows it (a stray garbage
  // line between headers is skipped, as GMime does).
  const gint64 bad_line = warnings.first_invalid_header;
  if (bad_line >= 0 && static_cast<std::size_t>(bad_line) <= input.size() &&
      (run.headers_end < 0 || bad_line < run.headers_end) &&
      !has_header_after(run.root.get(), bad_line)) {
    std::string repaired;
    repaired.reserve(input.size() + 1);
    repaired.append(input.substr(0, static_cast<std::size_t>(bad_line)));
    repaired.push_back('\n');
    repaired.append(input.substr(static_cast<std::size_t>(bad_line)));
    run = run_parser(repaired, options.get());
  }

  ParsedEmail email;
  if (!run.root) {
    // Not parseable as a message at all: read it as one plain-text body.
    EmailPart body;
    body.content_type = "text/plain";
    body.text = text_to_utf8(input, nullptr);
    body.size = input.size();
    body.location = "body";
    email.parts.push_back(std::move(body));
    return email;
  }
  collect_headers(run.root.get(), options.get(), email);
  PartWalker(email).walk(run.root.get(), 0, 0);
  return email;
}

}  // namespace scamcheck::internal
