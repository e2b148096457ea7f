#include "providers/request_json.h"

#include "util/utf8.h"

namespace scamcheck::internal {

void write_string(JsonWriter& w, std::string_view text) {
  if (is_valid_utf8(text)) {
    w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
    return;
  }
  const std::string valid = make_valid_utf8(text);
  w.String(valid.data(), static_cast<rapidjson::SizeType>(valid.size()));
}

}  // namespace scamcheck::internal
