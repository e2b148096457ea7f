#include "http/multipart.h"

#include <gmime/gmime.h>

#include <memory>
#include <mutex>
#include <utility>

namespace scamcheck::server {
namespace {

struct GObjectUnref {
  void operator()(gpointer object) const {
    if (object != nullptr) g_object_unref(object);
  }
};
template <typename T>
using GObjectPtr = std::unique_ptr<T, GObjectUnref>;

struct ParserOptionsFree {
  void operator()(GMimeParserOptions* options) const { g_mime_parser_options_free(options); }
};
using ParserOptionsPtr = std::unique_ptr<GMimeParserOptions, ParserOptionsFree>;

// What the parser reported while it read the body.
struct ParseIssues {
  bool malformed = false;
};

// GMime is lenient: it reads what a mail client would. An upload is either
// what the client meant or refused, so structural problems (a missing or
// unclosed boundary, headerless parts, runaway nesting, garbage where part
// headers belong) make the form malformed. Warnings about header values
// (duplicates, 8-bit text, odd parameters) do not.
void on_parser_issue(gint64 /*offset*/, GMimeParserWarning code, const gchar* /*item*/,
                     gpointer user_data) {
  switch (code) {
    case GMIME_WARN_MALFORMED_MULTIPART:
    case GMIME_WARN_TRUNCATED_MESSAGE:
    case GMIME_WARN_MALFORMED_MESSAGE:
    case GMIME_CRIT_INVALID_HEADER_NAME:
    case GMIME_CRIT_CONFLICTING_HEADER:
    case GMIME_CRIT_CONFLICTING_PARAMETER:
    case GMIME_CRIT_MULTIPART_WITHOUT_BOUNDARY:
    case GMIME_CRIT_NESTING_OVERFLOW:
    case GMIME_CRIT_PART_WITHOUT_HEADERS_OR_CONTENT:
      static_cast<ParseIssues*>(user_data)->malformed = true;
      break;
    default:
      break;
  }
}

std::string or_empty(const char* text) { return text != nullptr ? std::string(text) : ""; }

// GMime compares every line that starts with "--" against each boundary
// open at that point, so a body that nests many multiparts (each declaring
// a boundary) and then repeats "--" lines costs nesting x lines: seconds
// for 10 MiB. Forms need no nesting, so a body whose worst case exceeds
// this many comparisons is refused before GMime reads it.
constexpr std::size_t kMaxBoundaryComparisons = 4'000'000;

std::size_t count_boundary_params(std::string_view body) {
  constexpr std::string_view kWord = "boundary";
  std::size_t count = 0;
  for (std::size_t i = 0; i + kWord.size() <= body.size(); ++i) {
    std::size_t k = 0;
    while (k < kWord.size() && (body[i + k] | 0x20) == kWord[k]) ++k;
    if (k == kWord.size()) ++count;
  }
  return count;
}

std::size_t count_dash_lines(std::string_view body) {
  std::size_t count = body.substr(0, 2) == "--" ? 1 : 0;
  for (std::size_t at = body.find("\n--"); at != std::string_view::npos;
       at = body.find("\n--", at + 3)) {
    ++count;
  }
  return count;
}

// The part's content with its transfer encoding (base64, quoted-printable;
// browsers send none) decoded.
bool read_content(GMimePart* part, std::string* out) {
  GMimeDataWrapper* wrapper = g_mime_part_get_content(part);
  if (wrapper == nullptr) return true;  // an empty part
  const GMimeContentEncoding encoding = g_mime_data_wrapper_get_encoding(wrapper);
  GMimeStream* source = g_mime_data_wrapper_get_stream(wrapper);
  if (source != nullptr &&
      (encoding == GMIME_CONTENT_ENCODING_DEFAULT || encoding == GMIME_CONTENT_ENCODING_7BIT ||
       encoding == GMIME_CONTENT_ENCODING_8BIT || encoding == GMIME_CONTENT_ENCODING_BINARY)) {
    // Unencoded: copy the bytes once, straight from the parser's buffer.
    if (g_mime_stream_reset(source) != 0) return false;
    const gint64 length = g_mime_stream_length(source);
    if (length < 0) return false;
    out->resize(static_cast<std::size_t>(length));
    std::size_t done = 0;
    while (done < out->size()) {
      const gssize n = g_mime_stream_read(source, out->data() + done, out->size() - done);
      if (n <= 0) return false;
      done += static_cast<std::size_t>(n);
    }
    return true;
  }
  GObjectPtr<GMimeStream> sink(g_mime_stream_mem_new());
  if (g_mime_data_wrapper_write_to_stream(wrapper, sink.get()) < 0) return false;
  GByteArray* bytes = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(sink.get()));
  out->assign(reinterpret_cast<const char*>(bytes->data), bytes->len);
  return true;
}

}  // namespace

void init_form_parser() {
  // Also safe when the library initialised GMime first: g_mime_init counts
  // its calls. Only a concurrent first call would race, hence the once.
  static std::once_flag once;
  std::call_once(once, [] { g_mime_init(); });
}

const FormPart* FormData::find(std::string_view name) const {
  for (const FormPart& part : parts) {
    if (part.name == name) return &part;
  }
  return nullptr;
}

Result<FormData> parse_form_data(std::string_view content_type, std::string body) {
  init_form_parser();
  if (content_type.find_first_of("\r\n") != std::string_view::npos) {
    return Status::invalid_argument("Content-Type holds a line break");
  }
  {
    GObjectPtr<GMimeContentType> type(
        g_mime_content_type_parse(nullptr, std::string(content_type).c_str()));
    const char* boundary =
        type ? g_mime_content_type_get_parameter(type.get(), "boundary") : nullptr;
    if (boundary == nullptr || *boundary == '\0') {
      return Status::invalid_argument("multipart/form-data without a boundary parameter");
    }
  }

  if ((count_boundary_params(body) + 1) * count_dash_lines(body) > kMaxBoundaryComparisons) {
    return Status::invalid_argument("nested multiparts with too many delimiter-like lines");
  }

  // GMime parses a MIME entity: the Content-Type header, a blank line, the
  // body. Its memory stream owns a copy; the request's is released here.
  const std::string head = "Content-Type: " + std::string(content_type) + "\r\n\r\n";
  GByteArray* buffer = g_byte_array_sized_new(static_cast<guint>(head.size() + body.size()));
  g_byte_array_append(buffer, reinterpret_cast<const guint8*>(head.data()),
                      static_cast<guint>(head.size()));
  g_byte_array_append(buffer, reinterpret_cast<const guint8*>(body.data()),
                      static_cast<guint>(body.size()));
  std::string().swap(body);
  GObjectPtr<GMimeStream> stream(g_mime_stream_mem_new_with_byte_array(buffer));

  ParseIssues issues;
  ParserOptionsPtr options(g_mime_parser_options_new());
  g_mime_parser_options_set_parameter_compliance_mode(options.get(), GMIME_RFC_COMPLIANCE_LOOSE);
  g_mime_parser_options_set_warning_callback(options.get(), on_parser_issue, &issues);
  GObjectPtr<GMimeParser> parser(g_mime_parser_new_with_stream(stream.get()));
  g_mime_parser_set_format(parser.get(), GMIME_FORMAT_MESSAGE);
  GObjectPtr<GMimeObject> root(g_mime_parser_construct_part(parser.get(), options.get()));
  if (root == nullptr || !GMIME_IS_MULTIPART(root.get())) {
    return Status::invalid_argument("the body is not a MIME multipart");
  }
  if (issues.malformed) return Status::invalid_argument("malformed multipart body");
  auto* multipart = GMIME_MULTIPART(root.get());
  const int count = g_mime_multipart_get_count(multipart);
  if (count <= 0) return Status::invalid_argument("a multipart without parts");

  FormData form;
  for (int i = 0; i < count; ++i) {
    GMimeObject* child = g_mime_multipart_get_part(multipart, i);
    if (child == nullptr || !GMIME_IS_PART(child)) continue;
    const char* name = g_mime_object_get_content_disposition_parameter(child, "name");
    if (name == nullptr || *name == '\0') continue;
    if (form.parts.size() >= kMaxFormParts) {
      return Status::invalid_argument("more than " + std::to_string(kMaxFormParts) +
                                      " form fields");
    }
    FormPart field;
    field.name = name;
    field.filename = or_empty(g_mime_part_get_filename(GMIME_PART(child)));
    if (g_mime_object_get_header(child, "Content-Type") != nullptr) {
      if (GMimeContentType* type = g_mime_object_get_content_type(child)) {
        gchar* media = g_mime_content_type_get_mime_type(type);  // allocated
        field.content_type = or_empty(media);
        g_free(media);
      }
    }
    if (!read_content(GMIME_PART(child), &field.body)) {
      return Status::invalid_argument("cannot read the form field " + field.name);
    }
    form.parts.push_back(std::move(field));
  }
  return form;
}

}  // namespace scamcheck::server
