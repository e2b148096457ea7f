#include "auth/quota.h"

#include "ids.h"

namespace scamcheck::server {

Result<DailyQuota::Entry*> DailyQuota::entry(std::int64_t user_id, const std::string& day) {
  auto it = entries_.find(user_id);
  if (it != entries_.end() && it->second.day == day) return &it->second;
  Result<std::int64_t> stored = store_.usage_count(user_id, day);
  if (!stored.ok()) return stored.status();
  Entry& e = entries_[user_id];
  e.day = day;
  e.used = *stored;
  return &e;
}

Result<QuotaDecision> DailyQuota::reserve(const User& user, std::int64_t now) {
  QuotaDecision d;
  d.day = utc_day(now);
  if (SharedCounters* shared = store_.shared_counters()) {
    // Counted in the database, for every process at once (unlimited plans
    // too: the count is the usage statistics).
    Result<std::optional<std::int64_t>> used =
        shared->reserve_daily(user.id, d.day, user.plan.checks_per_day);
    if (!used.ok()) return used.status();
    if (!user.plan.checks_per_day) return d;
    d.limit = *user.plan.checks_per_day;
    if (!used->has_value()) {
      d.allowed = false;
      d.remaining = 0;
      d.retry_after = seconds_until_utc_midnight(now);
      return d;
    }
    d.remaining = std::max<std::int64_t>(0, d.limit - **used);
    return d;
  }
  if (!user.plan.checks_per_day) return d;
  d.limit = *user.plan.checks_per_day;
  std::lock_guard lock(mutex_);
  Result<Entry*> e = entry(user.id, d.day);
  if (!e.ok()) return e.status();
  if ((*e)->used >= d.limit) {
    d.allowed = false;
    d.remaining = 0;
    d.retry_after = seconds_until_utc_midnight(now);
    return d;
  }
  ++(*e)->used;
  d.remaining = d.limit - (*e)->used;
  return d;
}

Result<QuotaDecision> DailyQuota::peek(const User& user, std::int64_t now) {
  QuotaDecision d;
  d.day = utc_day(now);
  if (!user.plan.checks_per_day) return d;
  d.limit = *user.plan.checks_per_day;
  if (store_.shared_counters() != nullptr) {
    Result<std::int64_t> used = store_.usage_count(user.id, d.day);
    if (!used.ok()) return used.status();
    d.remaining = std::max<std::int64_t>(0, d.limit - *used);
    return d;
  }
  std::lock_guard lock(mutex_);
  Result<Entry*> e = entry(user.id, d.day);
  if (!e.ok()) return e.status();
  d.remaining = std::max<std::int64_t>(0, d.limit - (*e)->used);
  return d;
}

void DailyQuota::release(std::int64_t user_id, const std::string& day) {
  if (SharedCounters* shared = store_.shared_counters()) return shared->release_daily(user_id, day);
  std::lock_guard lock(mutex_);
  auto it = entries_.find(user_id);
  if (it != entries_.end() && it->second.day == day && it->second.used > 0) --it->second.used;
}

}  // namespace scamcheck::server
