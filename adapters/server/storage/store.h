// Store: everything scamcheckd keeps, behind one interface. SqliteStore
// (sqlite_store.h) implements it for one server process; PgStore
// (postgresql/pg_store.h) fills the same interface for several processes
// sharing one database. Implementations are thread-safe: every member may be called
// from many threads at once.
//
// Durability: insert_report() calls `done` with OK only once the report is
// committed so that it survives a crash of the process (CONTRACT §8); the
// server answers 200 only after that.
#ifndef SCAMCHECK_ADAPTERS_SERVER_STORAGE_STORE_H_
#define SCAMCHECK_ADAPTERS_SERVER_STORAGE_STORE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "auth/crypto.h"
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
  // The scan announced this report (Store::expect_reports(+1)): queuing it
  // ends the announcement, as expect_reports(-1) would.
  bool announced = false;
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

// ---- Check API (CONTRACT §3) --------------------------------------------
// Times of the check API's storage are Unix milliseconds.

// One check and its analysis job. A check is `processing` until a result is
// stored (`completed`) or it is given up (`failed`); `webhook_status`
// tracks the leg that analyses it (the workflow or the local analyzer).
struct CheckRecord {
  std::string uuid;                     // UUID v4
  std::optional<std::int64_t> user_id;  // nullopt: anonymous
  std::string type;                     // "text", "email", "link"
  std::string content;                  // "" once analysed, unless retained
  std::optional<std::string> url;       // link checks
  std::string locale;                   // catalog locale of the texts
  std::string status = "processing";    // processing, completed, failed
  std::string webhook_status = "processing";
  bool via_workflow = false;              // dispatched to --workflow-url first
  std::optional<std::string> risk_level;  // safe, warning, danger
  std::optional<int> risk_score;
  std::optional<std::string> explanation;
  std::vector<std::string> indicators;
  std::optional<std::string> source;  // "local" or "workflow", once completed
  std::int64_t created_at = 0;
  std::optional<std::int64_t> completed_at;
  std::int64_t deadline = 0;  // created_at + analysis timeout
  std::optional<std::int64_t> dispatched_at;
  int attempts = 0;  // claims so far
};

struct NewCheck {
  CheckRecord check;
  std::string usage_day;  // "YYYY-MM-DD" (UTC) the creation counts on
  // Signed-in callers: counted on usage_daily (the scan API's bucket).
  // Anonymous callers: counted per `client` (IP) and refused with
  // kResourceExhausted, storing nothing, when the count of the day has
  // reached `anonymous_limit`.
  std::string client;
  std::int64_t anonymous_limit = 0;
};

// A result for a processing check.
struct CheckResult {
  std::string risk_level;
  int risk_score = 0;
  std::string explanation;
  std::vector<std::string> indicators;
  std::string source;  // "local" or "workflow"
};

enum class CompleteOutcome {
  kCompleted,        // stored; the check is completed now
  kAlreadyFinished,  // completed or failed before: nothing changed
  kNotFound,
};

struct UsageTotals {
  std::int64_t today = 0;
  std::int64_t this_month = 0;
  std::int64_t all_time = 0;
};

// What the check API shows of a user besides User.
struct UserProfile {
  std::optional<std::int64_t> email_verified_at;  // Unix seconds
  std::int64_t created_at = 0;                    // Unix seconds
  std::int64_t updated_at = 0;                    // Unix seconds
};

// One row of the plan catalogue (data/plans.json) as the store keeps it.
struct PlanRow {
  std::string name;
  std::string display_name;                    // English
  std::optional<std::int64_t> checks_per_day;  // nullopt: unlimited
};

struct QuestionnaireResponse {
  std::string uuid;
  std::string slug;
  std::optional<std::int64_t> user_id;  // nullopt: anonymous
  std::string locale;
  std::vector<std::pair<std::string, std::string>> answers;  // question id, value
  std::int64_t started_at = 0;                               // Unix seconds
  std::optional<std::int64_t> completed_at;                  // Unix seconds
  std::optional<std::string> result_json;                    // the completion answer
};

// The check API's part of the store. Jobs are claimed with an atomic
// UPDATE ... WHERE on the checks table (a lease per claim), so several
// server processes sharing one database never analyse a check twice at
// the same time, and a check whose process died is claimed again once its
// lease ran out. Thread-safe.
class CheckStore {
 public:
  virtual ~CheckStore() = default;

  // Stores a new check (and counts it) in one transaction; `done` runs once
  // it is durable (OK), refused (kResourceExhausted) or failed.
  virtual void insert_check(NewCheck check, std::function<void(Status)> done) = 0;
  virtual Result<std::optional<CheckRecord>> get_check(const std::string& uuid) = 0;

  // The earliest time a processing check can be claimed (maybe already
  // past), or nullopt when none is waiting.
  virtual Result<std::optional<std::int64_t>> next_job_due() = 0;
  // Claims one due check for `worker` until now + lease: a processing check
  // whose run time has come and whose lease is free or expired.
  virtual Result<std::optional<CheckRecord>> claim_job(const std::string& worker, std::int64_t now,
                                                       std::int64_t lease) = 0;
  // The workflow has the check: free the lease, run again at the deadline.
  virtual Status mark_dispatched(const std::string& uuid, const std::string& worker,
                                 std::int64_t now) = 0;
  // Stores a result if the check is still processing. The content is
  // cleared unless `retain_content`; the client address always (failing
  // too): it only counts the anonymous allowance at creation.
  virtual Result<CompleteOutcome> complete_check(const std::string& uuid, const CheckResult& result,
                                                 std::int64_t now, bool retain_content) = 0;
  virtual Status fail_check(const std::string& uuid, std::int64_t now, bool retain_content) = 0;
  // Frees leases that ran out (their checks become claimable); how many.
  virtual Result<int> release_expired_leases(std::int64_t now) = 0;

  // Counted scans and check creations of a user, or of an anonymous
  // client, on `day` ("YYYY-MM-DD"), its month and ever.
  virtual Result<UsageTotals> user_usage(std::int64_t user_id, const std::string& day) = 0;
  virtual Result<UsageTotals> client_usage(const std::string& client, const std::string& day) = 0;

  virtual Result<std::optional<UserProfile>> user_profile(std::int64_t user_id) = 0;
  // Makes the plans table match the catalogue (insert or update by name).
  virtual Status sync_plans(const std::vector<PlanRow>& plans) = 0;

  // The active inbound-webhook secrets, current first (at most two).
  virtual Result<std::vector<std::string>> webhook_secrets() = 0;
  // Makes `secret` current; the current one becomes the previous one.
  virtual Status rotate_webhook_secret(const std::string& secret) = 0;
  // Makes `secret` current only when there is none yet.
  virtual Status ensure_webhook_secret(const std::string& secret) = 0;

  virtual Status insert_response(const QuestionnaireResponse& response) = 0;
  // With its answers, in question order of first answer.
  virtual Result<std::optional<QuestionnaireResponse>> get_response(const std::string& uuid) = 0;
  // Adds or replaces answers of an open response; false when it was
  // completed meanwhile.
  virtual Result<bool> save_answers(
      const std::string& uuid, const std::vector<std::pair<std::string, std::string>>& answers) = 0;
  // Completes an open response with its result; false when it was
  // completed before.
  virtual Result<bool> complete_response(const std::string& uuid, const std::string& result_json,
                                         std::int64_t now) = 0;
};

// Counters shared by every server process on one database (PostgreSQL):
// the daily allowance of signed-in users and the per-minute windows. A store
// for one process (SQLite) has none and the server counts in memory
// (quota.h, rate_limits.h). Thread-safe.
class SharedCounters {
 public:
  virtual ~SharedCounters() = default;
  // Counts one use of the user's daily allowance on `day` unless `limit`
  // uses are counted already. The count after this use, or nullopt when
  // refused. Without a limit (nullopt) nothing is refused and the count may
  // be written later (0 is returned). With shared counters the store does
  // not count stored reports and checks of signed-in users again: the
  // reservation is the count.
  virtual Result<std::optional<std::int64_t>> reserve_daily(std::int64_t user_id,
                                                            const std::string& day,
                                                            std::optional<std::int64_t> limit) = 0;
  // Gives back one reservation (the scan failed).
  virtual void release_daily(std::int64_t user_id, const std::string& day) = 0;
  // Counts one request of `key` in the minute window starting at
  // `window_start` (Unix seconds) unless `limit` are counted; the count
  // after it, or nullopt when refused.
  virtual Result<std::optional<std::int64_t>> hit_window(const std::string& key,
                                                         std::int64_t window_start,
                                                         std::int64_t limit) = 0;
};

// ---- Web interface (CONTRACT §9) ------------------------------------------
// Times of the web's storage are Unix seconds.

// A browser session. The cookie carries a random value; only its SHA-256
// is stored, like API tokens.
struct NewSession {
  Sha256 id_hash{};
  std::int64_t user_id = 0;
  std::string csrf_secret;  // random; the forms of this session carry it
  std::int64_t created_at = 0;
  std::int64_t expires_at = 0;
};

struct SessionRecord {
  Sha256 id_hash{};
  std::string csrf_secret;
  std::int64_t created_at = 0;
  std::int64_t last_seen_at = 0;
  std::int64_t expires_at = 0;
  User user;
};

// A user with the password hash, for signing in.
struct Credentials {
  User user;
  std::optional<std::string> password_hash;  // none: cannot sign in
};

// A token as its owner's token list shows it (never the value or hash).
struct TokenInfo {
  std::int64_t id = 0;
  std::string name;
  std::vector<std::string> abilities;
  std::int64_t created_at = 0;
  std::optional<std::int64_t> last_used_at;
  std::optional<std::int64_t> expires_at;
  std::optional<std::int64_t> revoked_at;
};

// The web interface's part of the store: sessions, sign-in credentials and
// failed-attempt counters, the token list of a user, and the anonymous
// daily allowance of web checks (the check API's per-client bucket,
// client_usage_daily). Thread-safe; every call works across processes
// sharing the database.
class WebStore {
 public:
  virtual ~WebStore() = default;

  virtual Status create_session(const NewSession& session) = 0;
  // The session and its user when it exists and expires after `now`.
  virtual Result<std::optional<SessionRecord>> find_session(const Sha256& id_hash,
                                                            std::int64_t now) = 0;
  // Records a use at `now` and moves its expiry to `expires_at`.
  virtual Status touch_session(const Sha256& id_hash, std::int64_t now,
                               std::int64_t expires_at) = 0;
  // True when it existed.
  virtual Result<bool> delete_session(const Sha256& id_hash) = 0;
  // Ends every session of the user; how many.
  virtual Result<int> delete_user_sessions(std::int64_t user_id) = 0;
  // Drops sessions expired at `now`; how many.
  virtual Result<int> purge_sessions(std::int64_t now) = 0;

  virtual Result<std::optional<Credentials>> find_credentials(const std::string& email) = 0;

  // Failed sign-in attempts counted per key (e.g. "ip:<address>",
  // "account:<email>") in a fixed window of `window` seconds that starts
  // with the first failure. login_failures: the count of the window open at
  // `now` (0 when none). record_login_failure: counts one more (opening a
  // new window when the last one ended) and returns the count.
  virtual Result<std::int64_t> login_failures(const std::string& key, std::int64_t now,
                                              std::int64_t window) = 0;
  virtual Result<std::int64_t> record_login_failure(const std::string& key, std::int64_t now,
                                                    std::int64_t window) = 0;
  virtual Status clear_login_failures(const std::string& key) = 0;

  // Every token of the user (revoked and expired ones too), newest first.
  virtual Result<std::vector<TokenInfo>> list_tokens(std::int64_t user_id) = 0;
  // Revokes the user's token `token_id` at `now`; false when it is not
  // theirs or was revoked already.
  virtual Result<bool> revoke_token_by_id(std::int64_t user_id, std::int64_t token_id,
                                          std::int64_t now) = 0;

  // The anonymous daily allowance (client_usage_daily, shared with the
  // check API): takes one unit of `client` on `day` when fewer than `limit`
  // are used (false: used up), or gives one back.
  virtual Result<bool> take_client_unit(const std::string& client, const std::string& day,
                                        std::int64_t limit) = 0;
  virtual Status give_back_client_unit(const std::string& client, const std::string& day) = 0;
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
  // Moves the user to `plan`; kInvalidArgument when the plan is unknown,
  // kNotFound when the user is. Takes effect on every server process.
  virtual Status set_user_plan(std::int64_t user_id, const std::string& plan) = 0;

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
  // transaction; `done` runs once it is durable or failed, on a store
  // thread or, before insert_report returns, on the calling one.
  virtual void insert_report(StoredReport report, std::function<void(Status)> done) = 0;
  // A scan whose report is likely to follow within microseconds started
  // (+1) or ended (-1: its insert_report() is queued, or it failed). A store
  // that commits writes in groups may wait for announced reports to commit
  // them together (SqliteStore); the default ignores it.
  virtual void expect_reports(int delta) { (void)delta; }
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

  // Answers of the URL reputation services, shared by every user and keyed
  // by the SHA-256 of the URL: for each key, the answer given at or after
  // `not_before` (Unix seconds), or nullopt.
  struct StoredReputation {
    std::string reputation;  // "malicious", "clean", "unknown"
    std::int64_t checked_at = 0;
  };
  virtual Result<std::vector<std::optional<StoredReputation>>> reputations_get(
      const std::vector<Sha256>& keys, std::int64_t not_before) = 0;
  // Keeps fresh answers, checked at `now`. Best effort and asynchronous: a
  // failed write is only a missed cache entry. Entries of both URL caches
  // older than kUrlCacheTtl are dropped by the store itself (hourly).
  virtual void reputations_put(std::vector<std::pair<Sha256, std::string>> answers,
                               std::int64_t now) = 0;

  // The server's 32-byte key named `name` (e.g. "cursor_key"), random and
  // created on first use, kept in the database so that every process and
  // restart shares it.
  virtual Result<std::string> server_key(const std::string& name) = 0;

  // The check API's storage (checks, jobs, usage, webhook secrets,
  // questionnaire responses).
  virtual CheckStore& checks() = 0;

  // The web interface's storage (sessions, credentials, sign-in attempts,
  // token lists).
  virtual WebStore& web() = 0;

  // Blocks until every write queued so far is committed (shutdown).
  virtual void flush() = 0;

  // The counters shared across processes, or nullptr when the server counts
  // in memory (one process per database).
  virtual SharedCounters* shared_counters() { return nullptr; }
};

struct StoreOptions {
  int pool_size = 4;  // PostgreSQL: connections for requests (--database-pool)
  // SQLite: WAL pages from which a background checkpoint starts; past four
  // times as many the writer restarts the WAL (sqlite_store.cc). Tests set
  // it small.
  int sqlite_checkpoint_pages = 4000;
};

// Opens the store named by a database URL: "sqlite:PATH" (the file is
// created if missing) or "postgresql://..." (a libpq connection URI; the
// database must exist). kUnavailable when the database cannot be reached.
Result<std::unique_ptr<Store>> open_store(const std::string& database_url,
                                          const StoreOptions& options = {});

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_STORAGE_STORE_H_
