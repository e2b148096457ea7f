// The AI provider's second opinion (Options::ai_provider): asked behind a
// circuit breaker with the finished heuristic report, and merged into it.
// Its signals keep only glossary keys with evidence found verbatim in the
// input; on any failure the report stays heuristic. Thread-safe; counts
// its calls for Analyzer::provider_stats().
#ifndef SCAMCHECK_PROVIDERS_AI_STAGE_H_
#define SCAMCHECK_PROVIDERS_AI_STAGE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "decode/mime.h"
#include "explain/glossary.h"
#include "providers/circuit_breaker.h"
#include "providers/report_merge.h"
#include "scamcheck/options.h"
#include "scamcheck/providers.h"

namespace scamcheck::internal {

class AiStage {
 public:
  // Null without Options::ai_provider. Keeps a reference to `texts`, which
  // must outlive the stage.
  static std::unique_ptr<AiStage> create(const Options& options, const Texts& texts);

  // Asks the provider about the analysed input (`analysed`, or for an
  // e-mail its decoded headers and text parts; `texts` as evidence_texts()
  // gives them) if the breaker allows, and merges its answer into the
  // finished heuristic `report`; on any failure leaves it unchanged.
  void ask(Kind kind, std::string_view analysed, const ParsedEmail& email,
           const std::vector<EvidenceText>& texts, Report& report) const;

  // Fills the ai_* fields.
  void add_stats(ProviderStats& stats) const;

 private:
  AiStage(const Options& options, const Texts& texts);

  std::shared_ptr<AiProvider> provider_;
  std::unique_ptr<CircuitBreaker> breaker_;
  const Texts& texts_;
  std::vector<std::string_view> signal_keys_;  // glossary keys, into texts_
  mutable std::atomic<std::uint64_t> requests_{0};
  mutable std::atomic<std::uint64_t> answers_{0};
  mutable std::atomic<std::uint64_t> failures_{0};
  mutable std::atomic<std::uint64_t> skipped_{0};
  mutable std::atomic<std::uint64_t> signals_dropped_{0};
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_PROVIDERS_AI_STAGE_H_
