#include "providers/reputation_cache.h"

#include <algorithm>

namespace scamcheck::internal {

ReputationCache::ReputationCache(std::chrono::seconds ttl, std::size_t max_entries)
    : ttl_(ttl), max_entries_(std::max<std::size_t>(max_entries, 1)) {}

std::optional<Reputation> ReputationCache::get(const std::string& url,
                                               Clock::time_point now) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(url);
  if (it == entries_.end() || now - it->second.stored >= ttl_) return std::nullopt;
  return it->second.reputation;
}

void ReputationCache::put(const std::string& url, Reputation reputation, Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex_);
  entries_[url] = Entry{reputation, now};
  order_.emplace_back(url, now);
  // Drops queue records that are stale (the URL was stored again later),
  // expired, or beyond the size bound.
  while (!order_.empty()) {
    const auto& [oldest, stored] = order_.front();
    auto it = entries_.find(oldest);
    const bool superseded = it == entries_.end() || it->second.stored != stored;
    const bool expired = !superseded && now - stored >= ttl_;
    const bool over = !superseded && entries_.size() > max_entries_;
    if (!superseded && !expired && !over) break;
    if (!superseded) entries_.erase(it);
    order_.pop_front();
  }
}

std::size_t ReputationCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

}  // namespace scamcheck::internal
