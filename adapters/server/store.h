// Store: everything scamcheckd keeps, behind one interface. SqliteStore
// (sqlite_store.h) implements it for one server process; a PostgreSQL
// implementation fills the same interface for several processes sharing one
// database. Implementations are thread-safe: every member may be called
// from many threads at once.
//
// Durability: insert_report() calls `done` with OK only once the report is
// committed so that it survives a crash of the process (CONTRACT §8); the
// server answers 200 only after that.
#ifndef SCAMCHECK_ADAPTERS_SERVER_STORE_H_
#define SCAMCHECK_ADAPTERS_SERVER_STORE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "crypto.h"
#include "scamcheck/status.h"

namespace scamcheck::server {

struct Plan {
  std::string name;  // "free", "pro", "business"
  std::string display_name;
  std::optional<std::int64_t> checks_per_day;  // nullopt: unlimited_checks
};

struct User {
  std::int64_t id = 0;
  std::string email;
  std::string name;
  Plan plan;
  std::string created_at;
};

struct NewUser {
  std::string email;
  std::string name;
  std::string plan = "free";
  std::optional<std::string> password_hash;  // Argon2id string; none: cannot log in
};

struct NewToken {
  std::int64_t user_id = 0;
  std::string name;
  Sha256 token_hash{};
  std::vector<std::string> abilities;
  std::optional<std::int64_t> expires_at;  // Unix seconds
};

// A token looked up by its hash, with its owner. The caller decides whether
// it is usable (revoked, expired, abilities).
struct TokenRecord {
  std::int64_t id = 0;
  std::string name;
  Sha256 token_hash{};
  std::vector<std::string> abilities;
  std::int64_t created_at = 0;               // Unix seconds
  std::optional<std::int64_t> last_used_at;  // Unix seconds
  std::optional<std::int64_t> expires_at;    // Unix seconds
  std::optional<std::int64_t> revoked_at;    // Unix seconds
  User user;
};

// One report to store. `report_json` is the Report as the API returns it.
struct StoredReport {
  std::string public_id;  // Report::id
  std::int64_t user_id = 0;
  std::string kind;
  std::string verdict;
  std::string created_at;
  std::string report_json;
  std::optional<std::string> content;  // only with --retain-content
  bool counted = true;                 // counts against the daily allowance
  std::string usage_day;               // "YYYY-MM-DD" (UTC) the count goes to
  // When set, the URL cache entry this scan creates.
  struct UrlCacheEntry {
    Sha256 key{};
    std::string reputations_json;
    std::int64_t created_at = 0;
  };
  std::optional<UrlCacheEntry> url_cache;
};

struct ReportPage {
  std::vector<std::string> reports_json;   // newest first
  std::optional<std::int64_t> next_after;  // position to continue from, if more
};

struct ReportQuery {
  std::int64_t user_id = 0;
  int limit = 20;
  std::optional<std::int64_t> before;  // only reports older than this position
  std::optional<std::string> verdict;  // "safe", "suspicious", "danger"
};

class Store {
 public:
  virtual ~Store() = default;

  // Creates or upgrades the schema (versioned migrations, each applied once).
  virtual Status migrate() = 0;
  // OK when the database answers.
  virtual Status ping() = 0;

  // Users. create_user fails with kInvalidArgument when the email exists or
  // the plan is unknown.
  virtual Result<User> create_user(const NewUser& user) = 0;
  virtual Result<std::optional<User>> find_user(const std::string& email) = 0;
  virtual Result<std::int64_t> count_users() = 0;

  // Tokens. create_token fails with kInvalidArgument when the user has an
  // active token of that name. revoke_token revokes every active token of
  // that name and returns how many it revoked.
  virtual Status create_token(const NewToken& token) = 0;
  virtual Result<int> revoke_token(std::int64_t user_id, const std::string& name) = 0;
  virtual Result<std::optional<TokenRecord>> find_token(const Sha256& token_hash) = 0;
  // Records a use of the token (best effort, asynchronous).
  virtual void touch_token(std::int64_t token_id, std::int64_t now) = 0;

  // Successful counted scans of the user on a UTC day ("YYYY-MM-DD").
  virtual Result<std::int64_t> usage_count(std::int64_t user_id, const std::string& day) = 0;

  // Stores the report (and counts it, and writes its URL cache entry) in one
  // transaction; `done` runs on a store thread once it is durable or failed.
  virtual void insert_report(StoredReport report, std::function<void(Status)> done) = 0;
  // The report's JSON when it exists and belongs to the user.
  virtual Result<std::optional<std::string>> get_report(std::int64_t user_id,
                                                        const std::string& public_id) = 0;
  // True when it existed, belonged to the user and is now gone.
  virtual Result<bool> delete_report(std::int64_t user_id, const std::string& public_id) = 0;
  virtual Result<ReportPage> list_reports(const ReportQuery& query) = 0;

  // The cached URL reputations JSON for (user, key) created at or after
  // `not_before` (Unix seconds).
  virtual Result<std::optional<std::string>> url_cache_get(std::int64_t user_id, const Sha256& key,
                                                           std::int64_t not_before) = 0;

  // Blocks until every write queued so far is committed (shutdown).
  virtual void flush() = 0;
};

// Opens the store named by a database URL: "sqlite:PATH" (the file is
// created if missing). "postgresql://..." is not part of this build yet
// (kUnimplemented).
Result<std::unique_ptr<Store>> open_store(const std::string& database_url);

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_STORE_H_
