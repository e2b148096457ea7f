#include "storage/shared_columns.h"

#include <simdjson.h>

#include "common/report_json.h"

namespace scamcheck::server {

std::string indicators_to_json(const std::vector<std::string>& indicators) {
  rapidjson::StringBuffer buffer;
  adapters::JsonWriter writer(buffer);
  writer.StartArray();
  for (const auto& text : indicators) adapters::write_json_string(writer, text);
  writer.EndArray();
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::vector<std::string> indicators_from_json(const std::string& json) {
  std::vector<std::string> out;
  if (json.empty()) return out;
  simdjson::dom::parser parser;
  simdjson::dom::array list;
  if (parser.parse(json).get(list)) return out;
  for (simdjson::dom::element item : list) {
    std::string_view text;
    if (!item.get(text)) out.emplace_back(text);
  }
  return out;
}

}  // namespace scamcheck::server
