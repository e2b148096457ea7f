// The request handler of scamcheck-native-host (CONTRACT §8): one request
// frame in, one reply frame out.
//
//   request  {"id": any, "content": "...", "kind": "text", "locale": "en",
//             "content_encoding": "base64"}      (kind, locale, encoding optional)
//   reply    {"id": <same>, "report": Report}
//         or {"id": <same>, "error": {"code": "invalid_argument", "message": "..."}}
//
// The Report is the one JSON mapping of adapters/common/report_json.h plus
// `risk_text` (the verdict's localized label, for the extension to show) and
// `truncated: true` when it had to be trimmed to fit a reply under
// kMaxReplyBytes. `code` is the library's status name (to_string(StatusCode)).
#ifndef SCAMCHECK_ADAPTERS_NATIVE_HOST_HOST_H_
#define SCAMCHECK_ADAPTERS_NATIVE_HOST_HOST_H_

#include <simdjson.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "framing.h"
#include "scamcheck/scamcheck.h"

namespace scamcheck::native_host {

// Not thread-safe (it reuses one JSON parser); one per connection.
class RequestHandler {
 public:
  // `analyzer` is not owned and must outlive the handler.
  explicit RequestHandler(const Analyzer& analyzer, std::size_t max_reply = kMaxReplyBytes)
      : analyzer_(analyzer), max_reply_(max_reply) {}

  // The reply to one request frame (any bytes: bad JSON, bad UTF-8 and a
  // missing content give an error reply with "id": null when the id could
  // not be read). Never longer than the max_reply given to the constructor.
  std::string handle(std::string_view frame);

 private:
  const Analyzer& analyzer_;
  std::size_t max_reply_;
  simdjson::dom::parser parser_;
};

// {"id": <id_json>, "error": {"code": "<code>", "message": "..."}}.
// `id_json` is a JSON value ("null" when there is none).
std::string error_reply(std::string_view id_json, StatusCode code, std::string_view message);

// {"id": <id_json>, "report": {...}}, the report trimmed (urls, then
// signals from the end, then extracted_text) and marked "truncated": true
// when the whole reply would be over `max_reply` bytes.
std::string report_reply(std::string_view id_json, const Report& report, std::size_t max_reply);

}  // namespace scamcheck::native_host

#endif  // SCAMCHECK_ADAPTERS_NATIVE_HOST_HOST_H_
