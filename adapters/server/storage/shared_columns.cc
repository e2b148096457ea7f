#include "storage/shared_columns.h"

#include <simdjson.h>

#include <algorithm>

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

std::vector<std::string> split_abilities(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) out.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

std::string join_abilities(const std::vector<std::string>& abilities) {
  std::string out;
  for (const auto& a : abilities) {
    if (!out.empty()) out.push_back(',');
    out += a;
  }
  return out;
}

}  // namespace scamcheck::server
