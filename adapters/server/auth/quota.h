// The daily allowance of the scan API (CONTRACT §2): one bucket per user,
// shared by all their tokens, of their plan's checks_per_day (unlimited
// plans have none). It renews at 00:00 UTC. Only successful scans count:
// a scan reserves one unit before analysis and releases it when it fails;
// a stored scan stays counted (the store counts it in the same transaction
// as the report, so the count survives restarts).
//
// Counting happens in this process: the first reservation of a user on a
// day reads the stored count, later ones are in memory. With a store shared
// by several processes (PostgreSQL) each reservation is counted in the
// database instead (SharedCounters, store.h). Thread-safe.
#ifndef SCAMCHECK_ADAPTERS_SERVER_AUTH_QUOTA_H_
#define SCAMCHECK_ADAPTERS_SERVER_AUTH_QUOTA_H_

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "storage/store.h"

namespace scamcheck::server {

struct QuotaDecision {
  bool allowed = true;
  std::int64_t remaining = -1;   // after this request; -1 when unlimited
  std::int64_t retry_after = 0;  // seconds until allowed again, when refused
  std::int64_t limit = -1;       // the allowance; -1 when unlimited
  std::string day;               // UTC day the reservation belongs to
};

class DailyQuota {
 public:
  explicit DailyQuota(Store& store) : store_(store) {}

  // Reserves one scan for the user now. Refused (allowed false) when the
  // day's allowance is used up.
  Result<QuotaDecision> reserve(const User& user, std::int64_t now);
  // What is left without reserving (for answers that do not count).
  Result<QuotaDecision> peek(const User& user, std::int64_t now);
  // Gives back a reservation of `day` whose scan failed.
  void release(std::int64_t user_id, const std::string& day);

 private:
  struct Entry {
    std::string day;
    std::int64_t used = 0;  // stored count plus reservations in flight
  };
  // The entry of the user for `day`, loaded from the store when new.
  Result<Entry*> entry(std::int64_t user_id, const std::string& day);

  Store& store_;
  std::mutex mutex_;
  std::unordered_map<std::int64_t, Entry> entries_;
};

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_AUTH_QUOTA_H_
