// What both storage backends share: the check columns they read, the stored
// forms of a check's indicators and a token's abilities, and how a pool
// hands out a connection.
#ifndef SCAMCHECK_ADAPTERS_SERVER_STORAGE_SHARED_COLUMNS_H_
#define SCAMCHECK_ADAPTERS_SERVER_STORAGE_SHARED_COLUMNS_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace scamcheck::server {

// The columns of the checks table, in the order both backends read them.
inline constexpr char kCheckColumns[] =
    "uuid, user_id, type, content, url, locale, status, webhook_status, via_workflow, "
    "risk_level, risk_score, explanation, indicators, source, created_ms, completed_ms, "
    "deadline_ms, dispatched_ms, attempts";

// A check's indicators as stored: a JSON array of strings. Reading is
// lenient: what is not such an array reads as none.
std::string indicators_to_json(const std::vector<std::string>& indicators);
std::vector<std::string> indicators_from_json(const std::string& json);

// A token's abilities as stored: comma-separated.
std::vector<std::string> split_abilities(const std::string& text);
std::string join_abilities(const std::vector<std::string>& abilities);

// Runs `fn` on a connection of `pool` (each with a `mutex`) that no other
// thread holds, starting from the one this thread used last; waits for one
// when all are busy.
template <typename Connection, typename Fn>
auto with_free_connection(const std::vector<std::unique_ptr<Connection>>& pool, const Fn& fn) {
  thread_local std::size_t hint = std::hash<std::thread::id>()(std::this_thread::get_id()) % 1024;
  const std::size_t n = pool.size();
  for (std::size_t k = 0; k < n; ++k) {
    Connection& c = *pool[(hint + k) % n];
    std::unique_lock lock(c.mutex, std::try_to_lock);
    if (lock.owns_lock()) {
      hint = (hint + k) % n;
      return fn(c);
    }
  }
  Connection& c = *pool[hint % n];
  std::lock_guard lock(c.mutex);
  return fn(c);
}

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_STORAGE_SHARED_COLUMNS_H_
