// What the learned model costs: Analyzer::analyze() of the same SMS-sized
// texts (~160 bytes) with the model (the default) and with the rules alone
// (Options::use_model = false), in the same run. The difference is the
// model's share (feature extraction, the weighted sum, its evidence).
// Inputs as in analyze_benchmark (bench_inputs.h). Run a Release build:
//   model_benchmark --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

#include <benchmark/benchmark.h>
#include <scamcheck/scamcheck.h>

#include <memory>
#include <string>
#include <vector>

#include "bench_inputs.h"

namespace {

std::unique_ptr<scamcheck::Analyzer> make(bool use_model, std::string& error) {
  auto created = scamcheck::Analyzer::create({.use_model = use_model});
  if (!created.ok()) {
    error = created.status().to_string();
    return nullptr;
  }
  return std::move(created).value();
}

void run(benchmark::State& state, bool use_model) {
  static const std::vector<std::string> inputs = scamcheck::bench::sms_samples();
  std::string error;
  static std::unique_ptr<scamcheck::Analyzer> with_model = make(true, error);
  static std::unique_ptr<scamcheck::Analyzer> rules_only = make(false, error);
  const scamcheck::Analyzer* a = use_model ? with_model.get() : rules_only.get();
  if (a == nullptr) {
    state.SkipWithError(("Analyzer::create failed: " + error).c_str());
    return;
  }
  std::size_t i = 0;
  for (auto _ : state) {
    auto report = a->analyze(inputs[i], scamcheck::Kind::kText, "en");
    benchmark::DoNotOptimize(report);
    if (++i == inputs.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_AnalyzeSmsRulesOnly(benchmark::State& state) { run(state, false); }
void BM_AnalyzeSmsWithModel(benchmark::State& state) { run(state, true); }
BENCHMARK(BM_AnalyzeSmsRulesOnly);
BENCHMARK(BM_AnalyzeSmsWithModel);

}  // namespace

BENCHMARK_MAIN();
