#include "http/catalog.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <cstdlib>

#include "common/ascii.h"
#include "embedded_files.h"

namespace scamcheck::server {
namespace {

std::string_view trim(std::string_view s) { return adapters::trim(s, adapters::kHttpSpace); }

}  // namespace

Result<std::shared_ptr<const Catalog>> Catalog::load() {
  auto catalog = std::make_shared<Catalog>();
  simdjson::dom::parser parser;
  constexpr std::string_view kDir = "data/locales/";
  for (const EmbeddedFile& file : embedded_files()) {
    if (file.path.substr(0, kDir.size()) != kDir) continue;
    std::string locale(file.path.substr(kDir.size()));
    locale = locale.substr(0, locale.find('.'));
    simdjson::dom::element root;
    if (auto error = parser.parse(file.content.data(), file.content.size()).get(root)) {
      return Status::internal(fmt::format("{}: {}", file.path, simdjson::error_message(error)));
    }
    simdjson::dom::object messages;
    if (root["messages"].get(messages)) {
      return Status::internal(fmt::format("{}: no \"messages\" object", file.path));
    }
    auto& table = catalog->messages_[locale];
    for (auto [key, value] : messages) {
      std::string_view text;
      if (value.get(text)) {
        return Status::internal(fmt::format("{}: \"{}\" is not a string", file.path, key));
      }
      table.emplace(std::string(key), std::string(text));
    }
  }
  const auto en = catalog->messages_.find("en");
  if (en == catalog->messages_.end()) return Status::internal("no en catalog");
  for (const auto& [locale, table] : catalog->messages_) {
    for (const auto& [key, text] : table) {
      if (!en->second.count(key)) {
        return Status::internal(fmt::format("{}: key {} missing in en", locale, key));
      }
    }
  }
  return std::shared_ptr<const Catalog>(std::move(catalog));
}

std::string Catalog::resolve(std::string_view tag) const {
  std::string lower = adapters::lower_ascii(trim(tag));
  for (char& c : lower) {
    if (c == '_') c = '-';
  }
  while (!lower.empty()) {
    if (messages_.count(lower)) return lower;
    const std::size_t dash = lower.rfind('-');
    if (dash == std::string::npos) break;
    lower.resize(dash);
  }
  return "en";
}

std::string Catalog::text(std::string_view locale, std::string_view key,
                          const TextVars& vars) const {
  const std::string* found = nullptr;
  for (std::string_view l : {locale, std::string_view("en")}) {
    auto table = messages_.find(l);
    if (table == messages_.end()) continue;
    auto it = table->second.find(key);
    if (it != table->second.end()) {
      found = &it->second;
      break;
    }
  }
  return found == nullptr ? std::string(key) : adapters::fill_placeholders(*found, vars);
}

std::string preferred_language(std::string_view header) {
  std::string best;
  double best_q = 0.0;
  while (!header.empty()) {
    const std::size_t comma = header.find(',');
    std::string_view item = header.substr(0, comma);
    header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
    std::string_view tag = item;
    double q = 1.0;
    if (const std::size_t semi = item.find(';'); semi != std::string_view::npos) {
      tag = item.substr(0, semi);
      std::string_view params = trim(item.substr(semi + 1));
      if (params.size() > 2 && (params[0] == 'q' || params[0] == 'Q') && params[1] == '=') {
        q = std::strtod(std::string(params.substr(2)).c_str(), nullptr);
      }
    }
    tag = trim(tag);
    if (tag.empty() || tag == "*") continue;
    if (q > best_q) {
      best_q = q;
      best = std::string(tag);
    }
  }
  return best;
}

}  // namespace scamcheck::server
