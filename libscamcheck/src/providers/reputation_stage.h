// URL reputation for a report: the local lists (Options::local_reputation)
// first, then the remote source (Options::url_reputation) through the memory
// cache and the store (Options::reputation_store). A listed URL becomes a
// known_malicious_url finding where the input spells it, and raises the
// score at least to what the rules make of the findings (the model has no
// feature for reputation). Sources that throw or fail leave URLs unknown.
// Thread-safe; counts its lookups for Analyzer::provider_stats().
#ifndef SCAMCHECK_PROVIDERS_REPUTATION_STAGE_H_
#define SCAMCHECK_PROVIDERS_REPUTATION_STAGE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "explain/glossary.h"
#include "providers/report_merge.h"
#include "providers/reputation_cache.h"
#include "scamcheck/options.h"
#include "scamcheck/providers.h"
#include "scoring/scorer.h"

namespace scamcheck::internal {

class ReputationStage {
 public:
  // Null when `options` name no reputation source. Keeps a reference to
  // `scorer`, which must outlive the stage.
  static std::unique_ptr<ReputationStage> create(const Options& options, const Texts& texts,
                                                 const Scorer& scorer);

  // Sets report.urls[].reputation (and cached) and adds a
  // known_malicious_url finding for each listed URL whose spelling is found
  // in `texts`.
  void check(const std::vector<EvidenceText>& texts, Findings& findings, Report& report) const;

  // `score`, raised to the rules' score of `findings` if a URL is listed.
  Score with_reputation(Score score, const Findings& findings) const;

  // Fills the reputation_* fields.
  void add_stats(ProviderStats& stats) const;

 private:
  ReputationStage(const Options& options, const Texts& texts, const Scorer& scorer);

  // Answers of the remote source for urls[i] at `asked`, through the memory
  // cache and the store; sets reputation and cached.
  void remote_reputations(const std::vector<std::size_t>& asked, Report& report) const;

  std::shared_ptr<UrlReputation> remote_;   // null: no remote source
  std::unique_ptr<ReputationCache> cache_;  // with remote_
  std::shared_ptr<ReputationStore> store_;  // null: memory cache only
  std::shared_ptr<UrlReputation> local_;    // null: no local lists
  bool has_malicious_key_;                  // a data pack may lack the glossary key
  const Scorer& scorer_;
  mutable std::atomic<std::uint64_t> lookups_{0};
  mutable std::atomic<std::uint64_t> cache_hits_{0};
  mutable std::atomic<std::uint64_t> failures_{0};
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_PROVIDERS_REPUTATION_STAGE_H_
