// Bearer tokens looked up once and then answered from memory (every scan
// authenticates, and a SQLite read transaction per request cost as much as
// a tenth of a scan), without giving up "a revocation counts at once".
//
// AuthEpoch is a change counter shared by every process that opens the same
// database: an 8-byte file beside it (`<database>-auth`), mapped shared.
// Whoever changes users, tokens or plans (the server, `scamcheckd user|token`)
// bumps it after the commit; TokenCache forgets everything when it moves.
// An entry also expires after kMaxAge, a bound on staleness should the
// counter file be removed under a running server. On PostgreSQL the counter
// is the process's own and a notification from the database moves it.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "storage/store.h"

namespace scamcheck::server {

class AuthEpoch {
 public:
  // Maps `path`, creating it when missing; nullptr (and no caching) when the
  // file cannot be opened or mapped for reading and writing.
  static std::unique_ptr<AuthEpoch> open(const std::string& path);
  // A counter of this process only, for a store that learns of other
  // processes' changes itself (PostgreSQL's LISTEN/NOTIFY).
  static std::unique_ptr<AuthEpoch> in_process();
  ~AuthEpoch();
  AuthEpoch(const AuthEpoch&) = delete;
  AuthEpoch& operator=(const AuthEpoch&) = delete;

  std::uint64_t load() const;
  void bump();

 private:
  AuthEpoch(std::uint64_t* counter, bool mapped) : counter_(counter), mapped_(mapped) {}
  std::uint64_t* counter_;  // in the shared mapping, or owned
  bool mapped_;
};

class TokenCache {
 public:
  // `epoch` may be null: then nothing is cached.
  explicit TokenCache(std::unique_ptr<AuthEpoch> epoch) : epoch_(std::move(epoch)) {}

  // The stamp to read before a database lookup and to pass to put(): a
  // change committed after it makes the entry stale.
  std::uint64_t stamp() const;
  std::optional<TokenRecord> get(const Sha256& hash);
  void put(const TokenRecord& token, std::uint64_t stamp);
  // A committed change to users, tokens or plans, by this process.
  void changed();
  // last_used_at was written: keeps the cached copy from asking again.
  void touched(std::int64_t token_id, std::int64_t now);

 private:
  struct HashOfDigest {
    std::size_t operator()(const Sha256& h) const noexcept;
  };
  void sync(std::uint64_t current);  // with mutex_ held

  struct Entry {
    TokenRecord token;
    std::chrono::steady_clock::time_point read_at;
  };
  static constexpr std::size_t kMaxEntries = 4096;
  static constexpr std::chrono::seconds kMaxAge{10};
  std::unique_ptr<AuthEpoch> epoch_;
  std::atomic<std::uint64_t> local_changes_{0};
  std::mutex mutex_;
  std::uint64_t synced_ = 0;  // the stamp `entries_` belongs to; with mutex_ held
  std::unordered_map<Sha256, Entry, HashOfDigest> entries_;
};

}  // namespace scamcheck::server
