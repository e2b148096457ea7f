#include "url_cache.h"

#include <simdjson.h>

#include "common/report_json.h"

namespace scamcheck::server {

std::string_view trim_ascii_space(std::string_view s) {
  const auto space = [](char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
  };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

Sha256 url_cache_key(std::string_view content) {
  return sha256("url\n" + std::string(trim_ascii_space(content)));
}

std::string url_reputations_json(const Report& report) {
  rapidjson::StringBuffer buffer;
  adapters::JsonWriter writer(buffer);
  writer.StartArray();
  for (const UrlInfo& url : report.urls)
    adapters::write_json_string(writer, to_string(url.reputation));
  writer.EndArray();
  return std::string(buffer.GetString(), buffer.GetSize());
}

void apply_cached_reputations(std::string_view json, Report* report) {
  simdjson::dom::parser parser;
  simdjson::dom::array list;
  if (parser.parse(json.data(), json.size()).get(list)) list = {};
  std::size_t i = 0;
  for (simdjson::dom::element item : list) {
    if (i >= report->urls.size()) break;
    std::string_view name;
    if (!item.get(name)) {
      if (name == "malicious") report->urls[i].reputation = Reputation::kMalicious;
      if (name == "clean") report->urls[i].reputation = Reputation::kClean;
    }
    ++i;
  }
  for (UrlInfo& url : report->urls) url.cached = true;
}

}  // namespace scamcheck::server
