#include "storage/postgresql/pg_store.h"

#include <fmt/format.h>
#include <poll.h>
#include <sodium.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <future>
#include <thread>

#include "auth/token_cache.h"
#include "embedded_files.h"
#include "ids.h"
#include "logging.h"
#include "server_limits.h"
#include "storage/postgresql/pg_db.h"
#include "storage/shared_columns.h"

namespace scamcheck::server {
namespace {

using pg::Connection;
using pg::kUserColumns;
using pg::Params;
using pg::read_user;
using pg::Rows;

// Taken while migrating, so that processes starting at once migrate one
// after the other ("scamchk" in ASCII).
constexpr std::int64_t kMigrationLock = 0x7363616d63686b;
constexpr std::chrono::seconds kWindowPurgeInterval{60};
constexpr std::chrono::hours kCachePurgeInterval{1};
constexpr char kNotifyChannel[] = "scamcheck_auth";
// Writer threads (each with its connection): while one waits for its
// commit to be flushed, the next takes what queued meanwhile.
constexpr std::size_t kWriters = 2;
// Writes per pipelined transaction at most (bounds what is in flight).
constexpr std::size_t kMaxPipeline = 256;

// The embedded PostgreSQL migrations, by version.
struct Migration {
  std::int64_t version = 0;
  std::string name;
  std::string_view sql;
};

Result<std::vector<Migration>> migrations() {
  std::vector<Migration> out;
  constexpr std::string_view kDir = "migrations/postgresql/";
  for (const EmbeddedFile& file : embedded_files()) {
    if (file.path.substr(0, kDir.size()) != kDir) continue;
    Migration m;
    m.name = std::string(file.path.substr(kDir.size()));
    m.version = std::strtoll(m.name.c_str(), nullptr, 10);
    if (m.version <= 0) return Status::internal("migration without a version: " + m.name);
    m.sql = file.content;
    out.push_back(std::move(m));
  }
  std::sort(out.begin(), out.end(),
            [](const Migration& a, const Migration& b) { return a.version < b.version; });
  return out;
}

class PgStore final : public Store, public SharedCounters, public pg::Executor {
 public:
  PgStore(std::string url, const StoreOptions& options)
      : url_(std::move(url)), tokens_(std::make_unique<TokenCache>(AuthEpoch::in_process())) {
    const int size = std::clamp(options.pool_size, 1, 256);
    for (int i = 0; i < size; ++i) pool_.push_back(std::make_unique<Connection>(url_));
  }

  ~PgStore() override {
    {
      std::lock_guard lock(queue_mutex_);
      stopping_ = true;
    }
    queue_cv_.notify_all();
    for (std::thread& t : writer_threads_) t.join();
    listener_stopping_ = true;
    if (listener_thread_.joinable()) listener_thread_.join();
  }

  Status open() {
    // One connection now: a database that cannot be reached fails the start.
    if (Status s = pool_.front()->ensure(); !s.ok()) return s;
    for (std::size_t i = 0; i < kWriters; ++i) {
      writers_.push_back(std::make_unique<Connection>(url_));
      writer_threads_.emplace_back([this, i] { writer_loop(i); });
    }
    listener_thread_ = std::thread([this] { listener_loop(); });
    checks_ = pg::make_check_store(*this);
    web_ = pg::make_web_store(*this);
    return {};
  }

  Status migrate() override {
    Result<std::vector<Migration>> known = migrations();
    if (!known.ok()) return known.status();
    const std::int64_t newest = known->empty() ? 0 : known->back().version;
    Connection c(url_);
    if (Status s = c.ensure(); !s.ok()) return s;
    if (Result<Rows> r = c.query("SELECT pg_advisory_lock($1)", Params().add(kMigrationLock));
        !r.ok()) {
      return r.status();
    }
    Status status = [&]() -> Status {
      if (Status s = c.exec("CREATE TABLE IF NOT EXISTS schema_migrations ("
                            "version BIGINT PRIMARY KEY, name TEXT NOT NULL, "
                            "applied_at BIGINT NOT NULL)");
          !s.ok()) {
        return s;
      }
      Result<Rows> applied = c.query("SELECT version FROM schema_migrations ORDER BY version");
      if (!applied.ok()) return applied.status();
      std::vector<std::int64_t> versions;
      for (int i = 0; i < applied->size(); ++i) versions.push_back(applied->int64(i, 0));
      if (!versions.empty() && versions.back() > newest) {
        return Status::unavailable(fmt::format(
            "the database schema is at version {}, newer than this scamcheckd knows ({}): "
            "run a scamcheckd at least as new as the one that migrated it",
            versions.back(), newest));
      }
      for (const Migration& m : *known) {
        if (std::find(versions.begin(), versions.end(), m.version) != versions.end()) continue;
        Status s = c.exec("BEGIN");
        if (s.ok()) s = c.exec(std::string(m.sql));
        if (s.ok()) {
          Result<Rows> r = c.query(
              "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
              Params().add(m.version).add(m.name).add(unix_now()));
          if (!r.ok()) s = r.status();
        }
        if (s.ok()) s = c.exec("COMMIT");
        if (!s.ok()) {
          (void)c.exec("ROLLBACK");
          return Status::unavailable(fmt::format("migration {}: {}", m.name, s.message()));
        }
      }
      return {};
    }();
    (void)c.query("SELECT pg_advisory_unlock($1)", Params().add(kMigrationLock));
    return status;
  }

  Status ping() override {
    return run([](Connection& c) -> Status {
      Result<Rows> r = c.query("SELECT 1");
      return r.ok() ? Status() : r.status();
    });
  }

  Result<User> create_user(const NewUser& user) override {
    std::optional<User> created;
    Status status = transaction([&](Connection& c) -> Status {
      Result<Rows> plan = c.query("SELECT 1 FROM plans WHERE name = $1", Params().add(user.plan));
      if (!plan.ok()) return plan.status();
      if (plan->empty()) return Status::invalid_argument("unknown plan: " + user.plan);
      Result<Rows> exists =
          c.query("SELECT 1 FROM users WHERE lower(email) = lower($1)", Params().add(user.email));
      if (!exists.ok()) return exists.status();
      if (!exists->empty()) return Status::invalid_argument("a user with this email exists");
      const std::int64_t now = unix_now();
      static const std::string& kSql = *new std::string(fmt::format(
          "WITH u AS (INSERT INTO users (email, name, password_hash, plan, email_verified_at, "
          "created_at) VALUES ($1, $2, $3, $4, $5, $5) RETURNING *) "
          "SELECT {} FROM u JOIN plans p ON p.name = u.plan",
          kUserColumns));
      Result<Rows> r = c.query(
          kSql,
          Params().add(user.email).add(user.name).add(user.password_hash).add(user.plan).add(now));
      if (!r.ok()) return r.status();
      if (r->empty()) return Status::internal("the new user was not returned");
      created = read_user(*r, 0, 0);
      return {};
    });
    if (!status.ok()) {
      if (status.code() == StatusCode::kInvalidArgument &&
          status.message().rfind("postgresql:", 0) == 0) {
        return Status::invalid_argument("a user with this email exists");
      }
      return status;
    }
    return *created;
  }

  Result<std::optional<User>> find_user(const std::string& email) override {
    std::optional<User> user;
    Status status = run([&](Connection& c) -> Status {
      static const std::string& kSql =
          *new std::string(fmt::format("SELECT {} FROM users u JOIN plans p ON p.name = u.plan "
                                       "WHERE lower(u.email) = lower($1)",
                                       kUserColumns));
      Result<Rows> r = c.query(kSql, Params().add(email));
      if (!r.ok()) return r.status();
      if (!r->empty()) user = read_user(*r, 0, 0);
      return {};
    });
    if (!status.ok()) return status;
    return user;
  }

  Result<std::int64_t> count_users() override {
    std::int64_t count = 0;
    Status status = run([&](Connection& c) -> Status {
      Result<Rows> r = c.query("SELECT count(*) FROM users");
      if (!r.ok()) return r.status();
      count = r->int64(0, 0);
      return {};
    });
    if (!status.ok()) return status;
    return count;
  }

  Status set_user_plan(std::int64_t user_id, const std::string& plan) override {
    Status status = run([&](Connection& c) -> Status {
      Result<Rows> p = c.query("SELECT 1 FROM plans WHERE name = $1", Params().add(plan));
      if (!p.ok()) return p.status();
      if (p->empty()) return Status::invalid_argument("unknown plan: " + plan);
      Result<Rows> r =
          c.query("UPDATE users SET plan = $1 WHERE id = $2", Params().add(plan).add(user_id));
      if (!r.ok()) return r.status();
      return r->affected() > 0 ? Status() : Status::not_found("no such user");
    });
    if (status.ok()) tokens_->changed();
    return status;
  }

  Status create_token(const NewToken& token) override {
    return transaction([&](Connection& c) -> Status {
      const std::int64_t now = unix_now();
      Result<Rows> active = c.query(
          "SELECT 1 FROM tokens WHERE user_id = $1 AND name = $2 AND revoked_at IS NULL "
          "AND (expires_at IS NULL OR expires_at > $3)",
          Params().add(token.user_id).add(token.name).add(now));
      if (!active.ok()) return active.status();
      if (!active->empty()) {
        return Status::invalid_argument("the user has an active token with this name");
      }
      Result<Rows> r = c.query(
          "INSERT INTO tokens (user_id, name, token_hash, abilities, created_at, expires_at) "
          "VALUES ($1, $2, $3, $4, $5, $6)",
          Params()
              .add(token.user_id)
              .add(token.name)
              .add(token.token_hash)
              .add(join_abilities(token.abilities))
              .add(now)
              .add(token.expires_at));
      return r.ok() ? Status() : r.status();
    });
  }

  Result<int> revoke_token(std::int64_t user_id, const std::string& name) override {
    int revoked = 0;
    Status status = run([&](Connection& c) -> Status {
      Result<Rows> r = c.query(
          "UPDATE tokens SET revoked_at = $1 WHERE user_id = $2 AND name = $3 AND "
          "revoked_at IS NULL",
          Params().add(unix_now()).add(user_id).add(name));
      if (!r.ok()) return r.status();
      revoked = static_cast<int>(r->affected());
      return {};
    });
    if (!status.ok()) return status;
    if (revoked > 0) tokens_->changed();
    return revoked;
  }

  Result<std::optional<TokenRecord>> find_token(const Sha256& token_hash) override {
    if (std::optional<TokenRecord> cached = tokens_->get(token_hash)) return cached;
    const std::uint64_t stamp = tokens_->stamp();
    std::optional<TokenRecord> token;
    Status status = run([&](Connection& c) -> Status {
      static const std::string& kSql = *new std::string(fmt::format(
          "SELECT t.id, t.name, t.abilities, t.created_at, t.last_used_at, t.expires_at, "
          "t.revoked_at, {} FROM tokens t JOIN users u ON u.id = t.user_id "
          "JOIN plans p ON p.name = u.plan WHERE t.token_hash = $1",
          kUserColumns));
      Result<Rows> r = c.query(kSql, Params().add(token_hash));
      if (!r.ok()) return r.status();
      if (r->empty()) return {};
      TokenRecord t;
      t.id = r->int64(0, 0);
      t.name = r->text(0, 1);
      t.token_hash = token_hash;
      t.abilities = split_abilities(r->text(0, 2));
      t.created_at = r->int64(0, 3);
      t.last_used_at = r->opt_int64(0, 4);
      t.expires_at = r->opt_int64(0, 5);
      t.revoked_at = r->opt_int64(0, 6);
      t.user = read_user(*r, 0, 7);
      token = std::move(t);
      return {};
    });
    if (!status.ok()) return status;
    if (token && listening_.load(std::memory_order_acquire)) tokens_->put(*token, stamp);
    return token;
  }

  void touch_token(std::int64_t token_id, std::int64_t now) override {
    tokens_->touched(token_id, now);
    write({{"UPDATE tokens SET last_used_at = $1 WHERE id = $2", Params().add(now).add(token_id),
            std::nullopt}},
          nullptr);
  }

  Result<std::int64_t> usage_count(std::int64_t user_id, const std::string& day) override {
    std::int64_t count = 0;
    Status status = run([&](Connection& c) -> Status {
      Result<Rows> r = c.query("SELECT count FROM usage_daily WHERE user_id = $1 AND day = $2",
                               Params().add(user_id).add(day));
      if (!r.ok()) return r.status();
      if (!r->empty()) count = r->int64(0, 0);
      return {};
    });
    if (!status.ok()) return status;
    return count;
  }

  void insert_report(StoredReport report, std::function<void(Status)> done) override {
    pg::WriteOp op;
    Params p;
    p.add(report.public_id).add(report.user_id).add(report.kind).add(report.verdict);
    p.add(report.created_at).add(report.report_json);
    if (report.content) {
      p.add_bytes(*report.content);
    } else {
      p.add_null();
    }
    op.push_back(
        {"INSERT INTO reports (public_id, user_id, kind, verdict, created_at, "
         "report_json, content) VALUES ($1, $2, $3, $4, $5, $6, $7)",
         std::move(p), std::nullopt});
    // The count was taken by the reservation (reserve_daily).
    if (report.url_cache) {
      op.push_back(
          {"INSERT INTO url_cache (user_id, content_key, reputations, created_at) "
           "VALUES ($1, $2, $3, $4) ON CONFLICT (user_id, content_key) DO UPDATE SET "
           "reputations = excluded.reputations, created_at = excluded.created_at",
           Params()
               .add(report.user_id)
               .add(report.url_cache->key)
               .add(report.url_cache->reputations_json)
               .add(report.url_cache->created_at),
           std::nullopt});
    }
    write(std::move(op), std::move(done));
  }

  Result<std::optional<std::string>> get_report(std::int64_t user_id,
                                                const std::string& public_id) override {
    std::optional<std::string> json;
    Status status = run([&](Connection& c) -> Status {
      Result<Rows> r =
          c.query("SELECT report_json FROM reports WHERE public_id = $1 AND user_id = $2",
                  Params().add(public_id).add(user_id));
      if (!r.ok()) return r.status();
      if (!r->empty()) json = r->text(0, 0);
      return {};
    });
    if (!status.ok()) return status;
    return json;
  }

  Result<bool> delete_report(std::int64_t user_id, const std::string& public_id) override {
    bool deleted = false;
    Status status = run([&](Connection& c) -> Status {
      Result<Rows> r = c.query("DELETE FROM reports WHERE public_id = $1 AND user_id = $2",
                               Params().add(public_id).add(user_id));
      if (!r.ok()) return r.status();
      deleted = r->affected() > 0;
      return {};
    });
    if (!status.ok()) return status;
    return deleted;
  }

  Result<ReportPage> list_reports(const ReportQuery& query) override {
    ReportPage page;
    Status status = run([&](Connection& c) -> Status {
      // A NULL verdict parameter means every verdict.
      Result<Rows> r = c.query(
          "SELECT seq, report_json FROM reports WHERE user_id = $1 AND seq < $2 AND "
          "($3::text IS NULL OR verdict = $3) ORDER BY seq DESC LIMIT $4",
          Params()
              .add(query.user_id)
              .add(query.before.value_or(INT64_MAX))
              .add(query.verdict)
              .add(static_cast<std::int64_t>(query.limit) + 1));
      if (!r.ok()) return r.status();
      std::int64_t last_seq = 0;
      for (int i = 0; i < r->size(); ++i) {
        if (page.reports_json.size() == static_cast<std::size_t>(query.limit)) {
          page.next_after = last_seq;
          break;
        }
        last_seq = r->int64(i, 0);
        page.reports_json.push_back(r->text(i, 1));
      }
      return {};
    });
    if (!status.ok()) return status;
    return page;
  }

  Result<std::optional<std::string>> url_cache_get(std::int64_t user_id, const Sha256& key,
                                                   std::int64_t not_before) override {
    std::optional<std::string> json;
    Status status = run([&](Connection& c) -> Status {
      Result<Rows> r = c.query(
          "SELECT reputations FROM url_cache WHERE user_id = $1 AND content_key = $2 AND "
          "created_at >= $3",
          Params().add(user_id).add(key).add(not_before));
      if (!r.ok()) return r.status();
      if (!r->empty()) json = r->text(0, 0);
      return {};
    });
    if (!status.ok()) return status;
    return json;
  }

  Result<std::vector<std::optional<StoredReputation>>> reputations_get(
      const std::vector<Sha256>& keys, std::int64_t not_before) override {
    std::vector<std::optional<StoredReputation>> found(keys.size());
    Status status = run([&](Connection& c) -> Status {
      for (std::size_t i = 0; i < keys.size(); ++i) {
        Result<Rows> r = c.query(
            "SELECT reputation, checked_at FROM url_reputations WHERE url_key = $1 AND "
            "checked_at >= $2",
            Params().add(keys[i]).add(not_before));
        if (!r.ok()) return r.status();
        if (!r->empty()) found[i] = StoredReputation{r->text(0, 0), r->int64(0, 1)};
      }
      return {};
    });
    if (!status.ok()) return status;
    return found;
  }

  void reputations_put(std::vector<std::pair<Sha256, std::string>> answers,
                       std::int64_t now) override {
    pg::WriteOp op;
    for (const auto& [key, reputation] : answers) {
      op.push_back(
          {"INSERT INTO url_reputations (url_key, reputation, checked_at) "
           "VALUES ($1, $2, $3) ON CONFLICT (url_key) DO UPDATE SET "
           "reputation = excluded.reputation, checked_at = excluded.checked_at",
           Params().add(key).add(reputation).add(now), std::nullopt});
    }
    write(std::move(op), [](Status status) {
      if (!status.ok()) {
        LogLine(LogLevel::kWarn, "store_error").field("error", status.to_string());
      }
    });
  }

  Result<std::string> server_key(const std::string& name) override {
    {
      std::lock_guard lock(keys_mutex_);
      if (auto it = keys_.find(name); it != keys_.end()) return it->second;
    }
    unsigned char fresh[crypto_secretbox_KEYBYTES];
    randombytes_buf(fresh, sizeof fresh);
    char text[2 * sizeof fresh + 1];
    sodium_bin2hex(text, sizeof text, fresh, sizeof fresh);
    sodium_memzero(fresh, sizeof fresh);
    std::string hex;
    Status status = run([&](Connection& c) -> Status {
      // Another process may have been first: then its key is the one.
      Result<Rows> r = c.query(
          "WITH ins AS (INSERT INTO settings (key, value) VALUES ($1, $2) "
          "ON CONFLICT (key) DO NOTHING RETURNING value) "
          "SELECT value FROM ins UNION ALL SELECT value FROM settings WHERE key = $1",
          Params().add(name).add(std::string_view(text)));
      if (!r.ok()) return r.status();
      if (r->empty()) return Status::unavailable("postgresql: the " + name + " was not stored");
      hex = r->text(0, 0);
      return {};
    });
    sodium_memzero(text, sizeof text);
    if (!status.ok()) return status;
    std::string key(crypto_secretbox_KEYBYTES, '\0');
    std::size_t length = 0;
    if (sodium_hex2bin(reinterpret_cast<unsigned char*>(key.data()), key.size(), hex.data(),
                       hex.size(), nullptr, &length, nullptr) != 0 ||
        length != key.size()) {
      return Status::internal("the stored " + name + " is not a 32-byte hex key");
    }
    std::lock_guard lock(keys_mutex_);
    return keys_.emplace(name, std::move(key)).first->second;
  }

  CheckStore& checks() override { return *checks_; }
  WebStore& web() override { return *web_; }

  void flush() override {
    auto promise = std::make_shared<std::promise<Status>>();
    std::future<Status> future = promise->get_future();
    write({}, [promise](Status s) { promise->set_value(std::move(s)); });
    (void)future.get();
  }

  SharedCounters* shared_counters() override { return this; }

  // ---- SharedCounters ----
  Result<std::optional<std::int64_t>> reserve_daily(std::int64_t user_id, const std::string& day,
                                                    std::optional<std::int64_t> limit) override {
    if (!limit) {
      // Nothing to refuse: the count (usage statistics) joins the writer's
      // next transaction, with the report it belongs to.
      write({{"INSERT INTO usage_daily AS u (user_id, day, count) VALUES ($1, $2, 1) "
              "ON CONFLICT (user_id, day) DO UPDATE SET count = u.count + 1",
              Params().add(user_id).add(day), std::nullopt}},
            nullptr);
      return std::optional<std::int64_t>(0);
    }
    std::optional<std::int64_t> count;
    Status status = run([&](Connection& c) -> Status {
      // One statement: concurrent reservations of every process are
      // serialized on the row, and none passes the limit.
      Result<Rows> r = c.query(
          "INSERT INTO usage_daily AS u (user_id, day, count) SELECT $1, $2, 1 "
          "WHERE $3::bigint > 0 "
          "ON CONFLICT (user_id, day) DO UPDATE SET count = u.count + 1 "
          "WHERE u.count < $3::bigint RETURNING count",
          Params().add(user_id).add(day).add(limit));
      if (!r.ok()) return r.status();
      if (!r->empty()) count = r->int64(0, 0);
      return {};
    });
    if (!status.ok()) return status;
    return count;
  }

  // Queued like an unlimited user's count. Should the release commit before
  // that count (another writer), it finds nothing to give back: at worst a
  // failed scan stays counted in the statistics.
  void release_daily(std::int64_t user_id, const std::string& day) override {
    write({{"UPDATE usage_daily SET count = count - 1 WHERE user_id = $1 AND day = $2 AND "
            "count > 0",
            Params().add(user_id).add(day), std::nullopt}},
          [](Status status) {
            if (!status.ok()) {
              LogLine(LogLevel::kWarn, "store_error").field("error", status.to_string());
            }
          });
  }

  Result<std::optional<std::int64_t>> hit_window(const std::string& key, std::int64_t window_start,
                                                 std::int64_t limit) override {
    std::optional<std::int64_t> count;
    Status status = run([&](Connection& c) -> Status {
      Result<Rows> r = c.query(
          "INSERT INTO minute_windows AS w (key, window_start, count) SELECT $1, $2, 1 "
          "WHERE $3::bigint > 0 ON CONFLICT (key, window_start) DO UPDATE "
          "SET count = w.count + 1 WHERE w.count < $3::bigint RETURNING count",
          Params().add(key).add(window_start).add(limit));
      if (!r.ok()) return r.status();
      if (!r->empty()) count = r->int64(0, 0);
      return {};
    });
    if (!status.ok()) return status;
    return count;
  }

  // ---- pg::Executor ----
  Status run(const std::function<Status(Connection&)>& fn) override {
    return with_free_connection(pool_, fn);
  }

  Status transaction(const std::function<Status(Connection&)>& fn) override {
    return run([&](Connection& c) -> Status {
      if (Status s = c.exec("BEGIN"); !s.ok()) return s;
      Status s = fn(c);
      if (s.ok()) s = c.exec("COMMIT");
      if (!s.ok()) (void)c.exec("ROLLBACK");
      return s;
    });
  }

  void write(pg::WriteOp op, std::function<void(Status)> done) override {
    {
      std::lock_guard lock(queue_mutex_);
      queue_.push_back(Write{std::move(op), std::move(done)});
    }
    queue_cv_.notify_one();
  }

  bool counts_at_reservation() const override { return true; }
  void auth_changed() override { tokens_->changed(); }

 private:
  struct Write {
    pg::WriteOp op;
    std::function<void(Status)> done;
  };

  void writer_loop(std::size_t index) {
    Connection& conn = *writers_[index];
    std::vector<Write> batch;
    for (;;) {
      {
        std::unique_lock lock(queue_mutex_);
        queue_cv_.wait_for(lock, std::chrono::seconds(1),
                           [this] { return stopping_ || !queue_.empty(); });
        if (queue_.empty() && stopping_) return;
        batch.assign(std::make_move_iterator(queue_.begin()),
                     std::make_move_iterator(queue_.end()));
        queue_.clear();
      }
      if (!batch.empty()) run_batch(conn, batch);
      batch.clear();
      if (index == 0) purge(conn);
    }
  }

  // Everything taken from the queue as one transaction, pipelined (one
  // round trip). When a write fails, the batch is rolled back and each
  // write runs again in a transaction of its own, so one bad write does not
  // fail the others.
  void run_batch(Connection& conn, std::vector<Write>& batch) {
    std::vector<Status> results;
    for (std::size_t first = 0; first < batch.size(); first += kMaxPipeline) {
      const std::size_t last = std::min(batch.size(), first + kMaxPipeline);
      std::vector<const pg::WriteOp*> ops;
      for (std::size_t i = first; i < last; ++i) ops.push_back(&batch[i].op);
      Status status = conn.pipeline(ops, &results);
      if (!status.ok() && ops.size() > 1 && conn.raw() != nullptr) {
        for (std::size_t i = 0; i < ops.size(); ++i) {
          std::vector<Status> one;
          if (conn.raw() == nullptr) {  // lost meanwhile: the rest fail like the batch
            results[i] = status;
            continue;
          }
          (void)conn.pipeline({ops[i]}, &one);
          results[i] = std::move(one.front());
        }
      }
      for (std::size_t i = first; i < last; ++i) {
        if (batch[i].done) batch[i].done(std::move(results[i - first]));
      }
    }
  }

  // Minute windows that ended answer nothing any more; neither do cache
  // rows older than kUrlCacheTtl.
  void purge(Connection& conn) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= next_window_purge_) {
      next_window_purge_ = now + kWindowPurgeInterval;
      Result<Rows> r = conn.query("DELETE FROM minute_windows WHERE window_start < $1",
                                  Params().add(unix_now() - 120));
      if (!r.ok()) LogLine(LogLevel::kWarn, "store_error").field("error", r.status().to_string());
    }
    if (now >= next_cache_purge_) {
      next_cache_purge_ = now + kCachePurgeInterval;
      const std::int64_t before = unix_now() - kUrlCacheTtl.count();
      for (const char* sql : {"DELETE FROM url_cache WHERE created_at < $1",
                              "DELETE FROM url_reputations WHERE checked_at < $1"}) {
        Result<Rows> r = conn.query(sql, Params().add(before));
        if (!r.ok()) {
          LogLine(LogLevel::kWarn, "store_error").field("error", r.status().to_string());
        }
      }
    }
  }

  // LISTEN on its own connection: a notification (a trigger on users,
  // tokens or plans, from any process) empties the token cache. While not
  // listening nothing is cached, since a change could go unnoticed.
  void listener_loop() {
    PGconn* conn = nullptr;
    const auto drop = [&] {
      if (conn != nullptr) PQfinish(conn);
      conn = nullptr;
      listening_.store(false, std::memory_order_release);
      tokens_->changed();
    };
    while (!listener_stopping_) {
      if (conn == nullptr) {
        conn = pg::connect(url_);
        PGresult* r = conn && PQstatus(conn) == CONNECTION_OK
                          ? PQexec(conn, fmt::format("LISTEN {}", kNotifyChannel).c_str())
                          : nullptr;
        const bool ok = r != nullptr && PQresultStatus(r) == PGRES_COMMAND_OK;
        if (r) PQclear(r);
        if (!ok) {
          drop();
          for (int i = 0; i < 10 && !listener_stopping_; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
          }
          continue;
        }
        tokens_->changed();  // changes made while not listening
        listening_.store(true, std::memory_order_release);
      }
      pollfd fd{PQsocket(conn), POLLIN, 0};
      if (::poll(&fd, 1, 200) < 0) continue;
      if (PQconsumeInput(conn) == 0) {
        drop();
        continue;
      }
      bool changed = false;
      while (PGnotify* n = PQnotifies(conn)) {
        changed = true;
        PQfreemem(n);
      }
      if (changed) tokens_->changed();
    }
    if (conn != nullptr) PQfinish(conn);
  }

  std::string url_;
  std::vector<std::unique_ptr<Connection>> pool_;
  std::vector<std::unique_ptr<Connection>> writers_;  // one per writer thread
  std::unique_ptr<TokenCache> tokens_;
  std::atomic<bool> listening_{false};
  std::atomic<bool> listener_stopping_{false};
  std::thread listener_thread_;

  std::mutex queue_mutex_;
  std::condition_variable queue_cv_;
  std::deque<Write> queue_;
  bool stopping_ = false;
  std::vector<std::thread> writer_threads_;
  std::chrono::steady_clock::time_point next_window_purge_{};  // the first writer only
  std::chrono::steady_clock::time_point next_cache_purge_{};   // the first writer only

  std::unique_ptr<CheckStore> checks_;
  std::unique_ptr<WebStore> web_;
  std::mutex keys_mutex_;
  std::unordered_map<std::string, std::string> keys_;
};

}  // namespace

Result<std::unique_ptr<Store>> open_postgresql_store(const std::string& url,
                                                     const StoreOptions& options) {
  auto store = std::make_unique<PgStore>(url, options);
  if (Status s = store->open(); !s.ok()) return s;
  return std::unique_ptr<Store>(std::move(store));
}

}  // namespace scamcheck::server
