// The rule stage's design choice, measured: set passes over the normalized
// text (DESIGN.md "Fast by construction") against the obvious alternative, a
// loop running every rule's own RE2 over the text. BM_LibraryRuleSet is the
// library's own RuleSet (sets of 32 rules, spans included;
// BM_DataPackRuleSetDevSms: every rule file over every dev SMS, with how
// many sets a text wakes); BM_RuleSetPass
// is a single set holding every rule. Both over the same rules file
// (libscamcheck/data/rules/text.json, or $SCAMCHECK_DATA_DIR/rules/text.json), compiled with the
// library's RE2 options, on an SMS-sized text and a 5 KB text. Also the normalization (NFKC + case
// folding + offset map) that precedes matching.
//
//   rules_benchmark --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// The patterns are read here with simdjson, not through the library, so the
// baseline does not depend on the library's loader; whatever the file holds
// (even no rules yet) is used.

#include <benchmark/benchmark.h>
#include <re2/re2.h>
#include <re2/set.h>
#include <simdjson.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "bench_inputs.h"
#include "data/data_source.h"
#include "normalize/normalize.h"
#include "rules/rule_set.h"

namespace {

using scamcheck::internal::NormalizedText;

// The library's per-rule budget (libscamcheck/src/rules/rule_set.cc); the
// single set here holds every rule, so it gets a large budget.
constexpr int64_t kSetMaxMemBytes = 64 << 20;
constexpr int64_t kRuleMaxMemBytes = 2 << 20;

RE2::Options rule_options(int64_t max_mem) {
  RE2::Options options;
  options.set_log_errors(false);
  options.set_max_mem(max_mem);
  return options;
}

struct Rules {
  std::vector<std::unique_ptr<RE2>> regexes;  // index = set index
  std::unique_ptr<RE2::Set> set;
  std::size_t skipped = 0;  // patterns RE2 rejected
  std::string error;        // why nothing can run
};

Rules load_rules() {
  Rules rules;
  const std::string path = scamcheck::bench::data_dir() + "/rules/text.json";
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (auto err = parser.load(path).get(doc)) {
    rules.error = path + ": " + simdjson::error_message(err);
    return rules;
  }
  simdjson::dom::array list;
  if (doc["rules"].get_array().get(list)) {
    rules.error = path + ": no \"rules\" array";
    return rules;
  }
  rules.set = std::make_unique<RE2::Set>(rule_options(kSetMaxMemBytes), RE2::UNANCHORED);
  for (simdjson::dom::element item : list) {
    std::string_view pattern;
    if (item["pattern"].get_string().get(pattern) || pattern.empty()) {
      ++rules.skipped;
      continue;
    }
    auto regex = std::make_unique<RE2>(std::string(pattern), rule_options(kRuleMaxMemBytes));
    if (!regex->ok() || rules.set->Add(pattern, nullptr) < 0) {
      ++rules.skipped;
      continue;
    }
    rules.regexes.push_back(std::move(regex));
  }
  if (rules.regexes.empty()) {
    rules.error = path + ": no usable rules (yet)";
  } else if (!rules.set->Compile()) {
    rules.error = path + ": RE2::Set::Compile failed (memory budget)";
  }
  return rules;
}

const Rules& rules() {
  static const Rules* instance = new Rules(load_rules());
  return *instance;
}

// Submatches asked for a span, as the library does: the whole match plus
// the first capturing group (a rule's evidence) when the rule has one.
int span_groups(const RE2& regex) { return std::min(regex.NumberOfCapturingGroups(), 1) + 1; }

enum class Input { kSms, kFiveKb };

const std::vector<std::string>& originals(Input input) {
  static const std::vector<std::string> sms = scamcheck::bench::sms_samples();
  static const std::vector<std::string> five_kb = {scamcheck::bench::long_text(5120)};
  return input == Input::kSms ? sms : five_kb;
}

// The normalized texts the rules run over, as the library produces them.
const std::vector<std::string>& normalized(Input input) {
  static const auto make = [](Input which) {
    std::vector<std::string> out;
    for (const std::string& text : originals(which)) out.push_back(NormalizedText(text).text());
    return out;
  };
  static const std::vector<std::string> sms = make(Input::kSms);
  static const std::vector<std::string> five_kb = make(Input::kFiveKb);
  return input == Input::kSms ? sms : five_kb;
}

// Runs `body(text)` over the inputs in turn; `body` returns the number of
// rules that matched, reported as a per-input average.
template <typename Body>
void run(benchmark::State& state, Input input, Body body) {
  const Rules& r = rules();
  if (!r.error.empty()) {
    state.SkipWithError(r.error.c_str());
    return;
  }
  const std::vector<std::string>& texts = normalized(input);
  std::size_t i = 0;
  std::int64_t bytes = 0;
  std::int64_t matched = 0;
  for (auto _ : state) {
    matched += body(texts[i]);
    bytes += static_cast<std::int64_t>(texts[i].size());
    if (++i == texts.size()) i = 0;
  }
  state.SetBytesProcessed(bytes);
  state.SetItemsProcessed(state.iterations());
  state.counters["rules"] = static_cast<double>(r.regexes.size());
  state.counters["matched_per_text"] =
      benchmark::Counter(static_cast<double>(matched), benchmark::Counter::kAvgIterations);
}

// RuleSet::match over the texts in turn, one per iteration, with the findings
// per text as a counter.
void match_in_turn(benchmark::State& state, const scamcheck::internal::RuleSet& set,
                   const std::vector<NormalizedText>& texts) {
  std::size_t i = 0;
  scamcheck::internal::Findings findings;
  std::int64_t matched = 0;
  for (auto _ : state) {
    findings.clear();
    (void)set.match(texts[i], findings);
    matched += static_cast<std::int64_t>(findings.size());
    if (++i == texts.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["matched_per_text"] =
      benchmark::Counter(static_cast<double>(matched), benchmark::Counter::kAvgIterations);
}

// What the library runs: RuleSet::match (its sets, then spans), given the
// normalized text (normalization is timed separately below).
void BM_LibraryRuleSet(benchmark::State& state, Input input) {
  using namespace scamcheck::internal;
  static const auto compiled = [] {
    const DataSource data(scamcheck::bench::data_dir());
    auto json = data.read("rules/text.json");
    return json.ok()
               ? RuleSet::compile(*json, "rules/text.json", [](std::string_view) { return true; })
               : scamcheck::Result<std::unique_ptr<RuleSet>>(json.status());
  }();
  if (!compiled.ok()) {
    state.SkipWithError(compiled.status().to_string().c_str());
    return;
  }
  std::vector<NormalizedText> texts;
  for (const std::string& text : originals(input)) texts.emplace_back(text);
  match_in_turn(state, **compiled, texts);
}
BENCHMARK_CAPTURE(BM_LibraryRuleSet, sms, Input::kSms);
BENCHMARK_CAPTURE(BM_LibraryRuleSet, 5kb, Input::kFiveKb);

// The whole data pack (every rules/*.json, as Analyzer::create loads it)
// over every SMS of the dev split in turn: RuleSet::match, and how many of
// its sets run a pass over a text (`sets_run_per_text` of `sets`; the
// others cannot match it, or the one or two rules it wakes run alone).
void BM_DataPackRuleSetDevSms(benchmark::State& state) {
  using namespace scamcheck::internal;
  static const auto compiled = RuleSet::load(DataSource(scamcheck::bench::data_dir()),
                                             [](std::string_view) { return true; });
  if (!compiled.ok()) {
    state.SkipWithError(compiled.status().to_string().c_str());
    return;
  }
  static const std::vector<std::string> sms = scamcheck::bench::all_sms();
  std::vector<NormalizedText> texts;
  std::size_t woken = 0;
  for (const std::string& text : sms) {
    texts.emplace_back(text, true);
    const auto sets = (*compiled)->sets_woken(texts.back());
    woken += sets.ok() ? sets->run : 0;
  }
  match_in_turn(state, **compiled, texts);
  state.counters["texts"] = static_cast<double>(texts.size());
  state.counters["sets"] = static_cast<double>((*compiled)->set_count());
  state.counters["sets_run_per_text"] =
      static_cast<double>(woken) / static_cast<double>(std::max<std::size_t>(texts.size(), 1));
}
BENCHMARK(BM_DataPackRuleSetDevSms);

// Which rules match: one pass of a single set holding every rule.
void BM_RuleSetPass(benchmark::State& state, Input input) {
  std::vector<int> matched;
  run(state, input, [&](const std::string& text) -> std::int64_t {
    matched.clear();
    RE2::Set::ErrorInfo info{};
    rules().set->Match(text, &matched, &info);
    if (info.kind != RE2::Set::kNoError) state.SkipWithError("RE2::Set out of memory");
    return static_cast<std::int64_t>(matched.size());
  });
}
BENCHMARK_CAPTURE(BM_RuleSetPass, sms, Input::kSms);
BENCHMARK_CAPTURE(BM_RuleSetPass, 5kb, Input::kFiveKb);

// Which rules match: every rule's RE2 in turn (the baseline).
void BM_PerRuleLoop(benchmark::State& state, Input input) {
  run(state, input, [&](const std::string& text) -> std::int64_t {
    std::int64_t n = 0;
    for (const auto& regex : rules().regexes) n += RE2::PartialMatch(text, *regex) ? 1 : 0;
    return n;
  });
}
BENCHMARK_CAPTURE(BM_PerRuleLoop, sms, Input::kSms);
BENCHMARK_CAPTURE(BM_PerRuleLoop, 5kb, Input::kFiveKb);

// With spans, as the library needs them: the set pass, then each matched
// rule's RE2 once for its leftmost match.
void BM_RuleSetPassWithSpans(benchmark::State& state, Input input) {
  std::vector<int> matched;
  run(state, input, [&](const std::string& text) -> std::int64_t {
    matched.clear();
    RE2::Set::ErrorInfo info{};
    rules().set->Match(text, &matched, &info);
    const re2::StringPiece piece(text);
    re2::StringPiece groups[2];
    for (int index : matched) {
      const RE2& regex = *rules().regexes[static_cast<std::size_t>(index)];
      regex.Match(piece, 0, piece.size(), RE2::UNANCHORED, groups, span_groups(regex));
      benchmark::DoNotOptimize(groups);
    }
    return static_cast<std::int64_t>(matched.size());
  });
}
BENCHMARK_CAPTURE(BM_RuleSetPassWithSpans, sms, Input::kSms);
BENCHMARK_CAPTURE(BM_RuleSetPassWithSpans, 5kb, Input::kFiveKb);

// With spans, the baseline: every rule's RE2 asked for its leftmost match.
void BM_PerRuleLoopWithSpans(benchmark::State& state, Input input) {
  run(state, input, [&](const std::string& text) -> std::int64_t {
    const re2::StringPiece piece(text);
    re2::StringPiece groups[2];
    std::int64_t n = 0;
    for (const auto& regex : rules().regexes) {
      if (regex->Match(piece, 0, piece.size(), RE2::UNANCHORED, groups, span_groups(*regex))) ++n;
      benchmark::DoNotOptimize(groups);
    }
    return n;
  });
}
BENCHMARK_CAPTURE(BM_PerRuleLoopWithSpans, sms, Input::kSms);
BENCHMARK_CAPTURE(BM_PerRuleLoopWithSpans, 5kb, Input::kFiveKb);

// Normalization alone (runs before every rule pass).
void BM_Normalize(benchmark::State& state, Input input) {
  const std::vector<std::string>& texts = originals(input);
  std::size_t i = 0;
  std::int64_t bytes = 0;
  for (auto _ : state) {
    NormalizedText normalized_text(texts[i]);
    benchmark::DoNotOptimize(normalized_text.text().data());
    bytes += static_cast<std::int64_t>(texts[i].size());
    if (++i == texts.size()) i = 0;
  }
  state.SetBytesProcessed(bytes);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(BM_Normalize, sms, Input::kSms);
BENCHMARK_CAPTURE(BM_Normalize, 5kb, Input::kFiveKb);

}  // namespace

BENCHMARK_MAIN();
