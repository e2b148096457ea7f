// End-to-end Analyzer::analyze() on one thread: an SMS-sized text (~160
// bytes), a 5 KB text and single URLs, plus Analyzer::create() alone and
// followed by the first analysis (the start-up cost a caller pays once). Inputs come from
// ../shared/corpus when present (bench_inputs.h). Run a Release build:
//   analyze_benchmark --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

#include <benchmark/benchmark.h>
#include <scamcheck/scamcheck.h>

#include <memory>
#include <string>
#include <vector>

#include "bench_inputs.h"

namespace {

// One analyzer for every benchmark, as a real caller holds it; nullptr (and
// the reason) if it cannot be created.
struct Shared {
  std::unique_ptr<scamcheck::Analyzer> analyzer;
  std::string error;
};

const Shared& shared() {
  static const Shared* instance = [] {
    auto* s = new Shared;
    auto created = scamcheck::Analyzer::create();
    if (created.ok()) {
      s->analyzer = std::move(created).value();
    } else {
      s->error = created.status().to_string();
    }
    return s;
  }();
  return *instance;
}

// Analyzes the inputs in turn, one per iteration.
void run(benchmark::State& state, const std::vector<std::string>& inputs, scamcheck::Kind kind) {
  const Shared& s = shared();
  if (!s.analyzer) {
    state.SkipWithError(("Analyzer::create failed: " + s.error).c_str());
    return;
  }
  std::size_t i = 0;
  std::int64_t bytes = 0;
  std::int64_t errors = 0;
  for (auto _ : state) {
    const std::string& input = inputs[i];
    auto report = s.analyzer->analyze(input, kind, "en");
    errors += report.ok() ? 0 : 1;
    benchmark::DoNotOptimize(report);
    bytes += static_cast<std::int64_t>(input.size());
    if (++i == inputs.size()) i = 0;
  }
  state.SetBytesProcessed(bytes);
  state.SetItemsProcessed(state.iterations());
  std::size_t total = 0;
  for (const auto& input : inputs) total += input.size();
  state.counters["avg_input_bytes"] =
      static_cast<double>(total) / static_cast<double>(inputs.size());
  if (errors > 0) state.counters["errors"] = static_cast<double>(errors);
}

void BM_AnalyzeSms(benchmark::State& state) {
  static const std::vector<std::string> inputs = scamcheck::bench::sms_samples();
  run(state, inputs, scamcheck::Kind::kText);
}
BENCHMARK(BM_AnalyzeSms);

// Every SMS of the dev split in turn: many different texts, so the matchers'
// lazily built state is exercised far more than by the 8 samples above.
void BM_AnalyzeSmsAll(benchmark::State& state) {
  static const std::vector<std::string> inputs = scamcheck::bench::all_sms();
  run(state, inputs, scamcheck::Kind::kText);
}
BENCHMARK(BM_AnalyzeSmsAll);

// The same texts, each seen for the first time by a fresh analyzer: RE2
// builds DFA states lazily, so a text unlike any before pays for the states
// it reaches. This is the cost a new process (or one whose DFA cache was
// just reset) pays; the benchmark above measures the warm state.
void BM_AnalyzeSmsAllFirstPass(benchmark::State& state) {
  static const std::vector<std::string> inputs = scamcheck::bench::all_sms();
  std::int64_t bytes = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto created = scamcheck::Analyzer::create();
    if (!created.ok()) {
      state.SkipWithError(created.status().to_string().c_str());
      return;
    }
    state.ResumeTiming();
    for (const std::string& input : inputs) {
      auto report = (*created)->analyze(input, scamcheck::Kind::kText, "en");
      benchmark::DoNotOptimize(report);
      bytes += static_cast<std::int64_t>(input.size());
    }
    state.PauseTiming();
    created = scamcheck::Status::internal("released");  // destroy outside the timing
    state.ResumeTiming();
  }
  state.SetBytesProcessed(bytes);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(inputs.size()));
  state.counters["texts"] = static_cast<double>(inputs.size());
}
BENCHMARK(BM_AnalyzeSmsAllFirstPass)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_Analyze5KB(benchmark::State& state) {
  static const std::vector<std::string> inputs = {scamcheck::bench::long_text(5120)};
  run(state, inputs, scamcheck::Kind::kText);
}
BENCHMARK(BM_Analyze5KB);

void BM_AnalyzeUrl(benchmark::State& state) {
  static const std::vector<std::string> inputs = scamcheck::bench::url_samples();
  run(state, inputs, scamcheck::Kind::kUrl);
}
BENCHMARK(BM_AnalyzeUrl);

// The one-time cost of loading and validating the embedded data pack.
void BM_AnalyzerCreate(benchmark::State& state) {
  for (auto _ : state) {
    auto created = scamcheck::Analyzer::create();
    if (!created.ok()) {
      state.SkipWithError(created.status().to_string().c_str());
      return;
    }
    benchmark::DoNotOptimize(created);
  }
}
BENCHMARK(BM_AnalyzerCreate)->Unit(benchmark::kMillisecond);

// Cold start as a one-shot CLI run sees it: create, then the first SMS
// analysis, which also pays for whatever the matchers build lazily (RE2
// builds its DFA states on first use).
void BM_AnalyzerCreateAndFirstAnalyze(benchmark::State& state) {
  static const std::vector<std::string> inputs = scamcheck::bench::sms_samples();
  for (auto _ : state) {
    auto created = scamcheck::Analyzer::create();
    if (!created.ok()) {
      state.SkipWithError(created.status().to_string().c_str());
      return;
    }
    auto report = (*created)->analyze(inputs[0], scamcheck::Kind::kText, "en");
    benchmark::DoNotOptimize(report);
  }
}
BENCHMARK(BM_AnalyzerCreateAndFirstAnalyze)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
