#include "rules/rule_set.h"

#include <simdjson.h>

#include <unordered_set>

#include "util/json.h"

namespace scamcheck::internal {
namespace {

// RE2 memory budgets: a set's DFA holds all of its rules at once.
constexpr int64_t kSetMaxMemBytes = 32 << 20;
constexpr int64_t kRuleMaxMemBytes = 2 << 20;

RE2::Options rule_options(int64_t max_mem) {
  RE2::Options options;
  options.set_log_errors(false);
  options.set_max_mem(max_mem);
  return options;
}

void read_strings(simdjson::dom::element value, std::vector<std::string>& out) {
  simdjson::dom::array array;
  if (value.get_array().get(array)) return;
  for (simdjson::dom::element item : array) {
    std::string_view s;
    if (!item.get_string().get(s)) out.emplace_back(s);
  }
}

}  // namespace

Result<std::unique_ptr<RuleSet>> RuleSet::load(
    const DataSource& data, const std::function<bool(std::string_view)>& known_key) {
  auto paths = data.list("rules");
  if (!paths.ok()) return paths.status();
  std::vector<RuleFile> files;
  for (const std::string& path : *paths) {
    if (path.size() < 5 || path.compare(path.size() - 5, 5, ".json") != 0) continue;
    auto json = data.read(path);
    if (!json.ok()) return json.status();
    files.push_back({data.describe(path), std::move(json).value()});
  }
  if (files.empty()) return Status::not_found(data.describe("rules") + ": no rule files");
  return compile(files, known_key);
}

Result<std::unique_ptr<RuleSet>> RuleSet::compile(
    std::string_view json, std::string_view file_name,
    const std::function<bool(std::string_view)>& known_key) {
  return compile({RuleFile{std::string(file_name), std::string(json)}}, known_key);
}

Result<std::unique_ptr<RuleSet>> RuleSet::compile(
    const std::vector<RuleFile>& files, const std::function<bool(std::string_view)>& known_key) {
  auto set = std::make_unique<RuleSet>();
  std::string problems;
  std::unordered_set<std::string> ids;
  for (const RuleFile& file : files) {
    const std::string& name = file.name;
    auto problem = [&](const std::string& id, const std::string& what) {
      if (!problems.empty()) problems += "; ";
      problems += name + " rule '" + id + "': " + what;
    };
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    if (Status s = parse_data_file(parser, file.json, name, doc); !s.ok()) return s;
    simdjson::dom::array rules;
    if (doc["rules"].get_array().get(rules)) {
      return Status::invalid_argument(name + ": \"rules\" must be an array");
    }
    for (simdjson::dom::element item : rules) {
      simdjson::dom::object obj;
      if (item.get_object().get(obj)) {
        problem("?", "not an object");
        continue;
      }
      Rule rule;
      rule.id = std::string(string_field(obj, "id"));
      rule.key = std::string(string_field(obj, "key"));
      const std::string pattern(string_field(obj, "pattern"));
      double weight = 0;
      if (!obj["weight"].get_double().get(weight)) rule.weight = weight;
      bool context = false;
      if (!obj["requires_context"].get_bool().get(context)) rule.requires_context = context;
      std::string_view severity;
      if (!obj["severity"].get_string().get(severity)) {
        if (severity == "low") {
          rule.severity = Severity::kLow;
        } else if (severity == "medium") {
          rule.severity = Severity::kMedium;
        } else if (severity == "high") {
          rule.severity = Severity::kHigh;
        } else {
          problem(rule.id.empty() ? "?" : rule.id, "severity must be low, medium or high");
        }
      }
      simdjson::dom::object examples;
      if (!obj["examples"].get_object().get(examples)) {
        simdjson::dom::element list;
        if (!examples["match"].get(list)) read_strings(list, rule.match_examples);
        if (!examples["no_match"].get(list)) read_strings(list, rule.no_match_examples);
      }
      if (rule.id.empty()) {
        problem("?", "missing id");
        continue;
      }
      if (!ids.insert(rule.id).second) problem(rule.id, "duplicate id");
      if (!known_key(rule.key)) problem(rule.id, "key '" + rule.key + "' is not in the glossary");
      if (pattern.empty()) problem(rule.id, "missing pattern");
      if (weight < 0) problem(rule.id, "negative weight");
      rule.regex = std::make_unique<RE2>(pattern, rule_options(kRuleMaxMemBytes));
      if (!rule.regex->ok()) {
        problem(rule.id, "bad pattern: " + rule.regex->error());
        continue;
      }
      if (set->rules_.size() % kRulesPerSet == 0) {
        set->sets_.push_back(
            std::make_unique<RE2::Set>(rule_options(kSetMaxMemBytes), RE2::UNANCHORED));
      }
      std::string error;
      if (set->sets_.back()->Add(pattern, &error) < 0) {
        problem(rule.id, "bad pattern: " + error);
        continue;
      }
      set->rules_.push_back(std::move(rule));
    }
  }
  if (!problems.empty()) return Status::invalid_argument(problems);
  for (auto& s : set->sets_) {
    if (!s->Compile()) {
      return Status::resource_exhausted(files.front().name +
                                        " and the other rule files: rules exceed the RE2 set "
                                        "memory budget");
    }
  }
  return set;
}

Status RuleSet::match(const NormalizedText& text, Findings& out) const {
  std::vector<int> matched, in_set;
  for (std::size_t s = 0; s < sets_.size(); ++s) {
    RE2::Set::ErrorInfo error{};
    if (!sets_[s]->Match(text.text(), &in_set, &error)) {
      // "No match" and "could not check" differ: never report the latter as safe.
      if (error.kind == RE2::Set::kNoError) continue;
      return Status::internal("rule set match failed (RE2 error " +
                              std::to_string(static_cast<int>(error.kind)) + ")");
    }
    for (int i : in_set) matched.push_back(static_cast<int>(s * kRulesPerSet) + i);
  }
  const re2::StringPiece input(text.text());
  re2::StringPiece groups[2];
  for (int index : matched) {
    const Rule& rule = rules_[static_cast<std::size_t>(index)];
    const int ngroups = std::min(rule.regex->NumberOfCapturingGroups(), 1) + 1;
    if (!rule.regex->Match(input, 0, input.size(), RE2::UNANCHORED, groups, ngroups)) continue;
    re2::StringPiece evidence = groups[0];
    if (ngroups > 1 && groups[1].data() != nullptr && !groups[1].empty()) evidence = groups[1];
    if (evidence.empty()) continue;  // no evidence, no signal
    const std::size_t start = static_cast<std::size_t>(evidence.data() - input.data());
    auto [orig_start, orig_end] = text.to_original(start, start + evidence.size());
    Finding f = Finding::at(rule.key, orig_start, orig_end);
    f.weight = rule.weight;
    f.requires_context = rule.requires_context;
    f.severity = rule.severity;
    out.push_back(std::move(f));
  }
  return {};
}

bool RuleSet::matches(const Rule& rule, std::string_view text) {
  NormalizedText normalized(text, /*underscores_as_spaces=*/true);
  return RE2::PartialMatch(normalized.text(), *rule.regex);
}

}  // namespace scamcheck::internal
