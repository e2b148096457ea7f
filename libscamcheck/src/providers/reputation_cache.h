// The analyzer's memory cache of URL reputation answers: each answer is
// reused for a fixed time; when full, the oldest answer goes first.
// Thread-safe.
#ifndef SCAMCHECK_PROVIDERS_REPUTATION_CACHE_H_
#define SCAMCHECK_PROVIDERS_REPUTATION_CACHE_H_

#include <chrono>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "scamcheck/report.h"

namespace scamcheck::internal {

class ReputationCache {
 public:
  using Clock = std::chrono::steady_clock;

  // REQUIRES: max_entries >= 1.
  ReputationCache(std::chrono::seconds ttl, std::size_t max_entries);

  // The answer stored for `url` less than ttl ago, if any.
  std::optional<Reputation> get(const std::string& url, Clock::time_point now = Clock::now()) const;
  void put(const std::string& url, Reputation reputation, Clock::time_point now = Clock::now());
  std::size_t size() const;
  std::chrono::seconds ttl() const { return ttl_; }

 private:
  struct Entry {
    Reputation reputation;
    Clock::time_point stored;
  };

  const std::chrono::seconds ttl_;
  const std::size_t max_entries_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
  std::deque<std::pair<std::string, Clock::time_point>> order_;  // oldest first
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_PROVIDERS_REPUTATION_CACHE_H_
