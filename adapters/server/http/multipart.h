// multipart/form-data request bodies (RFC 7578), parsed with GMime 3: the
// form fields of a multipart POST /api/v1/scan (CONTRACT §2).
//
//   Result<FormData> form = parse_form_data(request.header("Content-Type"),
//                                           std::move(request.body));
//   if (const FormPart* file = form->find("file")) analyze(file->body, ...);
//
// Thread-safe: every GMime object is created per call. The first call
// initialises GMime (init_form_parser() does it ahead of time).
#ifndef SCAMCHECK_ADAPTERS_SERVER_HTTP_MULTIPART_H_
#define SCAMCHECK_ADAPTERS_SERVER_HTTP_MULTIPART_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "scamcheck/status.h"

namespace scamcheck::server {

// One field of a form: a part with `Content-Disposition: form-data; name=…`.
struct FormPart {
  std::string name;          // the disposition's `name`
  std::string filename;      // the disposition's `filename`; "" when absent (informative)
  std::string content_type;  // the part's media type, e.g. "image/png"; "" when absent
  std::string body;          // the content, transfer encoding (if any) decoded
};

struct FormData {
  std::vector<FormPart> parts;  // in the order sent

  // The first part named `name`, or nullptr.
  const FormPart* find(std::string_view name) const;
};

// Most parts of one form that are kept; more is a malformed form.
inline constexpr std::size_t kMaxFormParts = 32;

// Parses `body` sent with the Content-Type header value `content_type`
// (multipart/form-data with a boundary parameter). Parts without a
// form-data name, and nested multiparts, are skipped. kInvalidArgument,
// with an English message for the log, when the boundary is missing, the
// body is not a multipart of that boundary (no parts, no closing
// delimiter, broken part headers) or holds more than kMaxFormParts fields.
// `body` is taken by value so its memory is released once GMime has it.
Result<FormData> parse_form_data(std::string_view content_type, std::string body);

// Initialises GMime; call once before threads that parse forms start (GMime's
// own initialisation is not thread-safe). parse_form_data() calls it too.
void init_form_parser();

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_HTTP_MULTIPART_H_
