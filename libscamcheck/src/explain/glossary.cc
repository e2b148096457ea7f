#include "explain/glossary.h"

#include <algorithm>
#include <cctype>

#include "util/json.h"

namespace scamcheck::internal {
namespace {

std::optional<Severity> parse_severity(std::string_view s) {
  if (s == "low") return Severity::kLow;
  if (s == "medium") return Severity::kMedium;
  if (s == "high") return Severity::kHigh;
  return std::nullopt;
}

// Collects problems so a broken pack reports all of them at once.
struct Problems {
  std::string text;
  void add(std::string_view where, std::string_view what) {
    if (!text.empty()) text += "; ";
    text.append(where).append(": ").append(what);
  }
};

Status load_glossary(const DataSource& data, std::vector<GlossaryEntry>& entries,
                     Problems& problems) {
  const std::string name = data.describe("glossary.json");
  auto text = data.read("glossary.json");
  if (!text.ok()) return text.status();
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (Status s = parse_data_file(parser, *text, name, doc); !s.ok()) return s;
  simdjson::dom::array signals;
  if (doc["signals"].get_array().get(signals)) {
    return Status::invalid_argument(name + ": \"signals\" must be an array");
  }
  for (simdjson::dom::element item : signals) {
    simdjson::dom::object obj;
    if (item.get_object().get(obj)) {
      problems.add(name, "a signal entry is not an object");
      continue;
    }
    GlossaryEntry entry;
    entry.key = std::string(string_field(obj, "key"));
    const std::string where = name + " key '" + entry.key + "'";
    auto severity = parse_severity(string_field(obj, "default_severity"));
    if (entry.key.empty()) problems.add(name, "entry without a key");
    if (!severity) problems.add(where, "default_severity must be low, medium or high");
    entry.default_severity = severity.value_or(Severity::kLow);
    simdjson::dom::array actions;
    if (!obj["actions"].get_array().get(actions)) {
      for (simdjson::dom::element a : actions) {
        std::string_view id;
        if (!a.get_string().get(id)) entry.actions.emplace_back(id);
      }
    }
    simdjson::dom::object texts;
    if (obj["texts"].get_object().get(texts)) {
      problems.add(where, "missing \"texts\"");
    } else {
      for (auto [locale, value] : texts) {
        simdjson::dom::object t;
        if (value.get_object().get(t)) continue;
        entry.texts[std::string(locale)] = {std::string(string_field(t, "title")),
                                            std::string(string_field(t, "explanation"))};
      }
    }
    entries.push_back(std::move(entry));
  }
  return {};
}

Status load_catalog(const DataSource& data, const std::string& path, Catalog& catalog,
                    Problems& problems) {
  const std::string name = data.describe(path);
  auto text = data.read(path);
  if (!text.ok()) return text.status();
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (Status s = parse_data_file(parser, *text, name, doc); !s.ok()) return s;
  simdjson::dom::object obj = doc.get_object().value_unsafe();
  catalog.locale = std::string(string_field(obj, "locale"));
  if (catalog.locale.empty()) problems.add(name, "missing \"locale\"");
  static constexpr std::string_view kVerdicts[] = {"safe", "suspicious", "danger"};
  simdjson::dom::object risk, summary, actions;
  if (obj["risk_text"].get_object().get(risk) || obj["summary"].get_object().get(summary) ||
      obj["actions"].get_object().get(actions)) {
    problems.add(name, "needs objects \"risk_text\", \"summary\" and \"actions\"");
    return {};
  }
  for (int v = 0; v < 3; ++v) {
    catalog.risk_text[v] = std::string(string_field(risk, kVerdicts[v]));
    catalog.summary[v] = std::string(string_field(summary, kVerdicts[v]));
    if (catalog.risk_text[v].empty() || catalog.summary[v].empty()) {
      problems.add(name, std::string("missing risk_text/summary for ") + kVerdicts[v].data());
    }
  }
  catalog.summary_safe_signs = std::string(string_field(summary, "safe_with_signs"));
  if (!catalog.summary_safe_signs.empty() &&
      catalog.summary_safe_signs.find("{reasons}") == std::string::npos) {
    problems.add(name, "summary \"safe_with_signs\" needs {reasons}");
  }
  catalog.reason_separator = std::string(string_field(obj, "reason_separator"));
  catalog.reason_last_separator = std::string(string_field(obj, "reason_last_separator"));
  catalog.strong_sign = std::string(string_field(obj, "strong_sign"));
  if (catalog.reason_separator.empty()) catalog.reason_separator = ", ";
  if (catalog.reason_last_separator.empty()) catalog.reason_last_separator = ", ";
  for (auto [id, value] : actions) {
    simdjson::dom::object a;
    if (value.get_object().get(a)) continue;
    Action action{std::string(string_field(a, "icon")), std::string(string_field(a, "text"))};
    if (action.icon.empty() || action.text.empty()) {
      problems.add(name, "action '" + std::string(id) + "' needs an icon and a text");
    }
    catalog.actions[std::string(id)] = std::move(action);
  }
  return {};
}

}  // namespace

Result<std::unique_ptr<Texts>> Texts::load(const DataSource& data) {
  auto texts = std::make_unique<Texts>();
  Problems problems;
  if (Status s = load_glossary(data, texts->entries_, problems); !s.ok()) return s;

  auto locale_files = data.list("locales");
  if (!locale_files.ok()) return locale_files.status();
  for (const std::string& path : *locale_files) {
    if (path.size() < 5 || path.compare(path.size() - 5, 5, ".json") != 0) continue;
    Catalog catalog;
    if (Status s = load_catalog(data, path, catalog, problems); !s.ok()) return s;
    texts->catalogs_[catalog.locale] = std::move(catalog);
  }
  if (!texts->catalogs_.count("en")) {
    problems.add(data.describe("locales"), "no \"en\" catalog");
  } else {
    const std::string& fallback = texts->catalogs_.at("en").strong_sign;
    if (!fallback.empty() && fallback.find("{sign}") == std::string::npos) {
      problems.add(data.describe("locales/en.json"), "\"strong_sign\" needs {sign}");
    }
    const std::string& safe_signs = texts->catalogs_.at("en").summary_safe_signs;
    for (auto& [locale, catalog] : texts->catalogs_) {
      if (catalog.strong_sign.empty()) catalog.strong_sign = fallback;
      if (catalog.summary_safe_signs.empty()) catalog.summary_safe_signs = safe_signs;
    }
  }

  for (std::size_t i = 0; i < texts->entries_.size(); ++i) {
    const GlossaryEntry& e = texts->entries_[i];
    if (!texts->by_key_.emplace(e.key, i).second) problems.add(e.key, "duplicate glossary key");
    for (const auto& [locale, catalog] : texts->catalogs_) {
      auto t = e.texts.find(locale);
      if (t == e.texts.end() || t->second.title.empty() || t->second.explanation.empty()) {
        problems.add("glossary key '" + e.key + "'", "no title/explanation for locale " + locale);
      }
      for (const std::string& action : e.actions) {
        if (!catalog.actions.count(action)) {
          problems.add("glossary key '" + e.key + "'",
                       "action '" + action + "' missing in catalog " + locale);
        }
      }
    }
  }
  for (const auto& [locale, catalog] : texts->catalogs_) {
    for (const char* required : {"no_action_needed", "stay_alert"}) {
      if (!catalog.actions.count(required)) {
        problems.add("catalog " + locale, std::string("missing action '") + required + "'");
      }
    }
  }
  if (!problems.text.empty()) return Status::invalid_argument(problems.text);
  return texts;
}

const GlossaryEntry* Texts::find(std::string_view key) const {
  auto it = by_key_.find(key);
  return it == by_key_.end() ? nullptr : &entries_[it->second];
}

const Catalog& Texts::catalog(std::string_view locale) const {
  std::string tag(locale);
  std::transform(tag.begin(), tag.end(), tag.begin(),
                 [](unsigned char c) { return c == '_' ? '-' : std::tolower(c); });
  if (auto it = catalogs_.find(tag); it != catalogs_.end()) return it->second;
  if (auto dash = tag.find('-'); dash != std::string::npos) {
    if (auto it = catalogs_.find(tag.substr(0, dash)); it != catalogs_.end()) return it->second;
  }
  return catalogs_.find("en")->second;
}

std::vector<std::string> Texts::locales() const {
  std::vector<std::string> out;
  for (const auto& [locale, catalog] : catalogs_) out.push_back(locale);
  return out;
}

}  // namespace scamcheck::internal
