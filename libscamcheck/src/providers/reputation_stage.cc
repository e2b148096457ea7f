#include "providers/reputation_stage.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace scamcheck::internal {
namespace {

constexpr std::string_view kMaliciousUrlKey = "known_malicious_url";

// URLs of one report looked up at most (in order of appearance); the rest
// stay "unknown". A message with hundreds of links should not cost hundreds
// of lookups.
constexpr std::size_t kMaxReputationUrls = 50;

// `source`'s answers for `urls`, or nullopt when it cannot answer (a source
// that throws or answers the wrong number of URLs cannot).
std::optional<std::vector<Reputation>> ask_source(const UrlReputation& source,
                                                  const std::vector<std::string>& urls) {
  Result<std::vector<Reputation>> answers = Status::internal("no answer");
  try {
    answers = source.lookup(urls);
  } catch (...) {
    return std::nullopt;
  }
  if (!answers.ok() || answers->size() != urls.size()) return std::nullopt;
  return std::move(answers).value();
}

}  // namespace

std::unique_ptr<ReputationStage> ReputationStage::create(const Options& options, const Texts& texts,
                                                         const Scorer& scorer) {
  if (!options.url_reputation && !options.local_reputation) return nullptr;
  return std::unique_ptr<ReputationStage>(new ReputationStage(options, texts, scorer));
}

ReputationStage::ReputationStage(const Options& options, const Texts& texts, const Scorer& scorer)
    : local_(options.local_reputation),
      has_malicious_key_(texts.find(kMaliciousUrlKey) != nullptr),
      scorer_(scorer) {
  if (options.url_reputation) {
    remote_ = options.url_reputation;
    cache_ = std::make_unique<ReputationCache>(
        std::chrono::seconds(options.reputation_cache_seconds), options.reputation_cache_entries);
    store_ = options.reputation_store;
  }
}

void ReputationStage::check(const std::vector<EvidenceText>& texts, Findings& findings,
                            Report& report) const {
  const std::size_t n = std::min(report.urls.size(), kMaxReputationUrls);
  std::vector<std::size_t> remote;  // URLs the local lists do not name
  if (local_ && n > 0) {
    std::vector<std::string> urls;
    for (std::size_t i = 0; i < n; ++i) urls.push_back(report.urls[i].url);
    const auto listed = ask_source(*local_, urls);
    for (std::size_t i = 0; i < n; ++i) {
      if (listed && (*listed)[i] == Reputation::kMalicious) {
        report.urls[i].reputation = Reputation::kMalicious;
      } else {
        remote.push_back(i);
      }
    }
  } else {
    for (std::size_t i = 0; i < n; ++i) remote.push_back(i);
  }
  if (remote_ && !remote.empty()) remote_reputations(remote, report);

  if (!has_malicious_key_) return;
  for (const UrlInfo& u : report.urls) {
    if (u.reputation != Reputation::kMalicious) continue;
    std::optional<LocatedEvidence> at = locate_url(texts, u);
    if (!at) continue;  // no evidence, no signal; the URL still says malicious
    findings.push_back(
        Finding::at(std::string(kMaliciousUrlKey), at->span.start, at->span.end, at->location));
  }
}

void ReputationStage::remote_reputations(const std::vector<std::size_t>& asked,
                                         Report& report) const {
  const auto answer = [&report](std::size_t i, Reputation reputation, bool cached) {
    report.urls[i].reputation = reputation;
    report.urls[i].cached = cached;
  };
  std::vector<std::size_t> missing;
  for (std::size_t i : asked) {
    if (std::optional<Reputation> r = cache_->get(report.urls[i].url)) {
      answer(i, *r, true);
      cache_hits_.fetch_add(1, std::memory_order_relaxed);
    } else {
      missing.push_back(i);
    }
  }
  const auto urls_of = [&report](const std::vector<std::size_t>& at) {
    std::vector<std::string> urls;
    for (std::size_t i : at) urls.push_back(report.urls[i].url);
    return urls;
  };
  if (store_ && !missing.empty()) {
    const std::vector<std::string> urls = urls_of(missing);
    std::vector<std::optional<ReputationStore::Entry>> stored;
    try {
      stored = store_->get(urls, cache_->ttl().count());
    } catch (...) {
      stored.clear();
    }
    std::vector<std::size_t> still;
    const auto now = ReputationCache::Clock::now();
    for (std::size_t k = 0; k < missing.size(); ++k) {
      if (k < stored.size() && stored[k]) {
        answer(missing[k], stored[k]->reputation, true);
        cache_->put(urls[k], stored[k]->reputation,
                    now - std::chrono::seconds(stored[k]->age_seconds));
        cache_hits_.fetch_add(1, std::memory_order_relaxed);
      } else {
        still.push_back(missing[k]);
      }
    }
    missing = std::move(still);
  }
  if (missing.empty()) return;
  lookups_.fetch_add(1, std::memory_order_relaxed);
  const std::vector<std::string> urls = urls_of(missing);
  const auto answers = ask_source(*remote_, urls);
  if (!answers) {
    // Not cached: the next report asks again.
    failures_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  for (std::size_t k = 0; k < missing.size(); ++k) {
    answer(missing[k], (*answers)[k], false);
    cache_->put(urls[k], (*answers)[k]);
  }
  if (store_) {
    try {
      store_->put(urls, *answers);
    } catch (...) {
      // Only a missed cache entry.
    }
  }
}

Score ReputationStage::with_reputation(Score score, const Findings& findings) const {
  if (std::none_of(findings.begin(), findings.end(),
                   [](const Finding& f) { return f.key == kMaliciousUrlKey; })) {
    return score;
  }
  const Score rules = scorer_.score(findings);
  if (rules.risk_score > score.risk_score) {
    score.risk_score = rules.risk_score;
    score.verdict = rules.verdict;
    score.confidence = std::max(score.confidence, rules.confidence);
  }
  return score;
}

void ReputationStage::add_stats(ProviderStats& stats) const {
  stats.reputation_configured = true;
  stats.reputation_lookups = lookups_.load(std::memory_order_relaxed);
  stats.reputation_cache_hits = cache_hits_.load(std::memory_order_relaxed);
  stats.reputation_failures = failures_.load(std::memory_order_relaxed);
}

}  // namespace scamcheck::internal
