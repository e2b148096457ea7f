#include "common/mcp_catalog.h"

#include <simdjson.h>

#include "common/ascii.h"

namespace scamcheck::adapters {
namespace {

// "mcp_de.json" -> "de"; "" when the name does not have that shape.
std::string locale_of_file(std::string_view name) {
  constexpr std::string_view kPrefix = "mcp_", kSuffix = ".json";
  if (name.size() <= kPrefix.size() + kSuffix.size() || name.substr(0, kPrefix.size()) != kPrefix ||
      name.substr(name.size() - kSuffix.size()) != kSuffix) {
    return {};
  }
  return std::string(name.substr(kPrefix.size(), name.size() - kPrefix.size() - kSuffix.size()));
}

}  // namespace

Result<std::shared_ptr<const McpCatalog>> McpCatalog::load() {
  return load(mcp_embedded_catalogs());
}

Result<std::shared_ptr<const McpCatalog>> McpCatalog::load(
    const std::vector<McpCatalogFile>& files) {
  auto catalog = std::shared_ptr<McpCatalog>(new McpCatalog());
  std::string problems;
  const auto problem = [&](std::string_view file, std::string_view what) {
    if (!problems.empty()) problems += "; ";
    problems.append(file).append(": ").append(what);
  };
  simdjson::dom::parser parser;
  for (const McpCatalogFile& file : files) {
    const std::string locale = locale_of_file(file.name);
    if (locale.empty()) {
      problem(file.name, "not named mcp_<locale>.json");
      continue;
    }
    simdjson::dom::object root;
    if (parser.parse(file.content.data(), file.content.size()).get(root)) {
      problem(file.name, "not a JSON object");
      continue;
    }
    std::string_view declared;
    if (root["locale"].get(declared) || declared != locale) {
      problem(file.name, "\"locale\" does not match the file name");
    }
    simdjson::dom::object messages;
    if (root["messages"].get(messages)) {
      problem(file.name, "\"messages\" is missing or not an object");
      continue;
    }
    Messages& out = catalog->catalogs_[locale];
    for (auto [key, value] : messages) {
      std::string_view text;
      if (value.get(text)) {
        problem(file.name, std::string("message \"") + std::string(key) + "\" is not a string");
        continue;
      }
      out.emplace(std::string(key), std::string(text));
    }
  }
  const auto en = catalog->catalogs_.find("en");
  if (en == catalog->catalogs_.end()) {
    problem("mcp_en.json", "missing (en is the fallback of every locale)");
  } else {
    for (const auto& [locale, messages] : catalog->catalogs_) {
      for (const auto& [key, text] : messages) {
        if (en->second.find(key) == en->second.end()) {
          problem("mcp_" + locale + ".json", "key \"" + key + "\" is not in mcp_en.json");
        }
      }
    }
  }
  if (!problems.empty()) return Status::internal("MCP catalogs: " + problems);
  return std::shared_ptr<const McpCatalog>(std::move(catalog));
}

std::string McpCatalog::resolve(std::string_view tag) const {
  std::string lower = lower_ascii(tag);
  for (char& c : lower) {
    if (c == '_') c = '-';
  }
  if (catalogs_.count(lower) != 0) return lower;
  const std::size_t dash = lower.find('-');
  if (dash != std::string::npos) {
    std::string language = lower.substr(0, dash);
    if (catalogs_.count(language) != 0) return language;
  }
  return "en";
}

std::string McpCatalog::text(std::string_view locale, std::string_view key,
                             const McpTextVars& vars) const {
  const std::string* found = nullptr;
  for (const std::string& candidate : {resolve(locale), std::string("en")}) {
    const auto catalog = catalogs_.find(candidate);
    if (catalog == catalogs_.end()) continue;
    const auto message = catalog->second.find(key);
    if (message != catalog->second.end()) {
      found = &message->second;
      break;
    }
  }
  return found == nullptr ? std::string(key) : fill_placeholders(*found, vars);
}

std::vector<std::string> McpCatalog::locales() const {
  std::vector<std::string> out;
  for (const auto& [locale, messages] : catalogs_) out.push_back(locale);
  return out;
}

}  // namespace scamcheck::adapters
