// The JSON bodies of provider requests are written with RapidJSON's Writer,
// as the adapters write theirs. RapidJSON copies string bytes as they are,
// so strings go through write_string(), which keeps the promise that the
// output is always valid JSON: invalid UTF-8 becomes U+FFFD first.
//
//   rapidjson::StringBuffer buffer;
//   JsonWriter w(buffer);
//   w.StartObject();
//   w.Key("url");
//   write_string(w, url);
//   w.EndObject();
//   std::string body(buffer.GetString(), buffer.GetSize());
#ifndef SCAMCHECK_PROVIDERS_REQUEST_JSON_H_
#define SCAMCHECK_PROVIDERS_REQUEST_JSON_H_

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <string>
#include <string_view>

namespace scamcheck::internal {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

// Writes `text` as a JSON string value; each ill-formed UTF-8 sequence
// becomes U+FFFD (make_valid_utf8).
void write_string(JsonWriter& w, std::string_view text);

// The buffer's JSON as a string.
inline std::string json_text(const rapidjson::StringBuffer& buffer) {
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_PROVIDERS_REQUEST_JSON_H_
