#include "util/json.h"

namespace scamcheck::internal {

Status parse_data_file(simdjson::dom::parser& parser, const std::string& text,
                       std::string_view name, simdjson::dom::element& doc) {
  if (auto error = parser.parse(text).get(doc); error) {
    return Status::invalid_argument(std::string(name) +
                                    ": invalid JSON: " + simdjson::error_message(error));
  }
  int64_t version = 0;
  if (!doc.is_object() || doc["version"].get_int64().get(version) || version != 1) {
    return Status::invalid_argument(std::string(name) + ": expected an object with \"version\": 1");
  }
  return {};
}

std::string_view string_field(simdjson::dom::object obj, std::string_view field) {
  std::string_view value;
  if (obj[field].get_string().get(value)) return {};
  return value;
}

}  // namespace scamcheck::internal
