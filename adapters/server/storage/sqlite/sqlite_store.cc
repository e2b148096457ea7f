#include "storage/sqlite/sqlite_store.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sodium.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <future>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "auth/token_cache.h"
#include "embedded_files.h"
#include "ids.h"
#include "logging.h"
#include "server_limits.h"
#include "storage/postgresql/pg_store.h"
#include "storage/report_codec.h"
#include "storage/shared_columns.h"
#include "storage/sqlite/sqlite_db.h"

namespace scamcheck::server {
namespace {

constexpr int kBusyTimeoutMs = 5000;
// Checkpoints (README-dev.md, "Threads"): background PASSIVE passes from
// StoreOptions::sqlite_checkpoint_pages (4,000 pages) of WAL; when a pass
// ends past kRestartFactor times that, kTailPasses shorter passes, then the
// writer's own RESTART pass (restart_wal()), so that the next commit
// writes the WAL from its beginning: otherwise, under writes that never
// pause, the WAL file grows for as long as they last. journal_size_limit
// (twice the restart size) cuts back a file that grew past it.
constexpr int kRestartFactor = 4;
constexpr int kRestartBusyMs = 50;
constexpr int kTailPasses = 3;
constexpr std::int64_t kPageBytes = 4096;  // SQLite's default page size
// Group commit: the writer commits at once whatever has queued up, one
// write or many, unless scans announced their reports (expect_reports()):
// then it waits for them, up to kGatherLimit after it woke and up to
// kGatherWrites writes. A lone write (one connection) is committed without
// delay, an announced report by the scan's own thread when the writer is
// idle (enqueue); under load a commit carries many reports, and the pages
// every commit rewrites (the indexes' last leaves, the daily counts, the
// header) are written once for all of them.
constexpr std::chrono::microseconds kGatherLimit{1000};
constexpr std::size_t kGatherWrites = 64;
// Under load (less than kBusyWindow ago a write came while another was
// queued, announced or being committed, or a commit of several ended) a
// write is not committed alone: the writer keeps gathering while writes
// keep coming, until none arrived for kBusyGap (or kGatherLimit,
// kGatherWrites). Each commit rewrites the same few pages (the indexes'
// last leaves, the daily counts, the header), so many small commits cost
// several WAL frames per scan where one larger one costs a fraction of
// one. One connection's scans (each comes after the previous one's
// commit) are never held.
constexpr std::chrono::microseconds kBusyGap{200};
constexpr std::chrono::microseconds kBusyWindow{5000};
constexpr std::chrono::hours kCachePurgeInterval{1};

using sqlite::Connection;
using sqlite::kUserColumns;
using sqlite::Query;
using sqlite::read_user;

// A report as stored: the compact form (a BLOB, report_codec.h) or, in
// rows written before it, the JSON as text.
Result<std::string> read_report_json(const Query& q, int col) {
  if (q.is_blob(col)) return expand_report(q.blob(col));
  return q.text(col);
}

class SqliteStore final : public Store, public sqlite::Executor {
 public:
  SqliteStore(std::string path, int checkpoint_pages)
      : path_(std::move(path)),
        checkpoint_pages_(std::max(1, checkpoint_pages)),
        restart_pages_(kRestartFactor * checkpoint_pages_) {}
  ~SqliteStore() override {
    {
      std::lock_guard lock(queue_mutex_);
      stopping_ = true;
    }
    queue_cv_.notify_all();
    if (writer_thread_.joinable()) writer_thread_.join();
    {
      std::lock_guard lock(checkpoint_mutex_);
      checkpoint_stopping_ = true;
    }
    checkpoint_cv_.notify_all();
    if (checkpoint_thread_.joinable()) checkpoint_thread_.join();
  }

  Status open() {
    // No memory statistics (nothing reads them): with them every SQLite
    // allocation takes a process-wide mutex. Only possible before SQLite
    // initializes; afterwards the call fails and changes nothing.
    static const int memstatus_off = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    (void)memstatus_off;
    if (Status s = create_private(); !s.ok()) return s;
    if (Status s = open_connection(writer_, /*writer=*/true); !s.ok()) return s;
    if (path_ != ":memory:")
      tokens_ = std::make_unique<TokenCache>(AuthEpoch::open(path_ + "-auth"));
    const unsigned readers = std::max(4u, std::thread::hardware_concurrency() + 2);
    for (unsigned i = 0; i < readers; ++i) {
      readers_.push_back(std::make_unique<Connection>());
      if (Status s = open_connection(*readers_.back(), /*writer=*/false); !s.ok()) return s;
    }
    if (Status s = open_connection(checkpointer_, /*writer=*/false); !s.ok()) return s;
    if (Status s = writer_.exec("PRAGMA wal_autocheckpoint = 0"); !s.ok()) return s;
    if (Status s = writer_.exec(
            fmt::format("PRAGMA journal_size_limit = {}", 2 * restart_pages_ * kPageBytes).c_str());
        !s.ok()) {
      return s;
    }
    sqlite3_wal_hook(writer_.db, &SqliteStore::on_wal_commit, this);
    writer_thread_ = std::thread([this] { writer_loop(); });
    checkpoint_thread_ = std::thread([this] { checkpoint_loop(); });
    checks_ = sqlite::make_check_store(*this);
    web_ = sqlite::make_web_store(*this);
    return {};
  }

  Status migrate() override {
    return write_sync([](Connection& c) -> Status {
      if (Status s = c.exec("CREATE TABLE IF NOT EXISTS schema_migrations ("
                            "version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                            "applied_at INTEGER NOT NULL)");
          !s.ok()) {
        return s;
      }
      for (const EmbeddedFile& file : embedded_files()) {
        constexpr std::string_view kDir = "migrations/sqlite/";
        if (file.path.substr(0, kDir.size()) != kDir) continue;
        const std::string name(file.path.substr(kDir.size()));
        const std::int64_t version = std::strtoll(name.c_str(), nullptr, 10);
        if (version <= 0) return Status::internal("migration without a version: " + name);
        {
          Query q(c, "SELECT 1 FROM schema_migrations WHERE version = ?");
          q.bind(1, version);
          const int rc = q.step();
          if (rc == SQLITE_ROW) continue;
          if (rc != SQLITE_DONE) return q.status();
        }
        if (Status s = c.exec(std::string(file.content).c_str()); !s.ok()) {
          return Status::unavailable(fmt::format("migration {}: {}", name, s.message()));
        }
        Query q(c, "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)");
        q.bind(1, version).bind(2, name).bind(3, unix_now());
        if (Status s = q.run(); !s.ok()) return s;
      }
      return {};
    });
  }

  Status ping() override {
    if (Status s = read([](Connection& c) -> Status {
          Query q(c, "SELECT count(*) FROM schema_migrations");
          return q.step() == SQLITE_ROW ? Status() : q.status();
        });
        !s.ok()) {
      return s;
    }
    if (!write_failing_.load(std::memory_order_relaxed)) return {};
    // The last commit failed on the disk (full, or an I/O error): reads
    // still work but nothing can be stored. A write that leaves no trace
    // but a WAL frame (a row inserted and deleted again) tells whether
    // space has come back; the writer thread clears the flag when a commit
    // reaches the WAL.
    if (Status s = write_sync([](Connection& c) -> Status {
          return c.exec(
              "INSERT INTO schema_migrations (version, name, applied_at) "
              "VALUES (-1, 'write probe', 0); "
              "DELETE FROM schema_migrations WHERE version = -1");
        });
        !s.ok()) {
      return s;
    }
    return write_failing_.load(std::memory_order_relaxed)
               ? Status::unavailable("sqlite: the database cannot be written")
               : Status();
  }

  Result<User> create_user(const NewUser& user) override {
    std::optional<User> created;
    Status status = write_sync([&](Connection& c) -> Status {
      {
        Query q(c, "SELECT 1 FROM plans WHERE name = ?");
        q.bind(1, user.plan);
        const int rc = q.step();
        if (rc == SQLITE_DONE) return Status::invalid_argument("unknown plan: " + user.plan);
        if (rc != SQLITE_ROW) return q.status();
      }
      {
        Query q(c, "SELECT 1 FROM users WHERE email = ?");
        q.bind(1, user.email);
        const int rc = q.step();
        if (rc == SQLITE_ROW) return Status::invalid_argument("a user with this email exists");
        if (rc != SQLITE_DONE) return q.status();
      }
      const std::int64_t now = unix_now();
      Query q(c,
              "INSERT INTO users (email, name, password_hash, plan, email_verified_at, "
              "created_at) VALUES (?, ?, ?, ?, ?, ?)");
      q.bind(1, user.email).bind(2, user.name).bind(3, user.password_hash).bind(4, user.plan);
      q.bind(5, now).bind(6, now);
      if (Status s = q.run(); !s.ok()) return s;
      const std::int64_t id = sqlite3_last_insert_rowid(c.db);
      Query u(c, fmt::format("SELECT {} FROM users u JOIN plans p ON p.name = u.plan "
                             "WHERE u.id = ?",
                             kUserColumns));
      u.bind(1, id);
      if (u.step() != SQLITE_ROW) return u.status();
      created = read_user(u, 0);
      return {};
    });
    if (!status.ok()) return status;
    return *created;
  }

  Result<std::optional<User>> find_user(const std::string& email) override {
    std::optional<User> user;
    Status status = read([&](Connection& c) -> Status {
      Query q(c, fmt::format("SELECT {} FROM users u JOIN plans p ON p.name = u.plan "
                             "WHERE u.email = ?",
                             kUserColumns));
      q.bind(1, email);
      const int rc = q.step();
      if (rc == SQLITE_ROW) user = read_user(q, 0);
      return rc == SQLITE_ROW || rc == SQLITE_DONE ? Status() : q.status();
    });
    if (!status.ok()) return status;
    return user;
  }

  Result<std::int64_t> count_users() override {
    std::int64_t count = 0;
    Status status = read([&](Connection& c) -> Status {
      Query q(c, "SELECT count(*) FROM users");
      if (q.step() != SQLITE_ROW) return q.status();
      count = q.int64(0);
      return {};
    });
    if (!status.ok()) return status;
    return count;
  }

  Status set_user_plan(std::int64_t user_id, const std::string& plan) override {
    Status status = write_sync([&](Connection& c) -> Status {
      {
        Query q(c, "SELECT 1 FROM plans WHERE name = ?");
        q.bind(1, plan);
        const int rc = q.step();
        if (rc == SQLITE_DONE) return Status::invalid_argument("unknown plan: " + plan);
        if (rc != SQLITE_ROW) return q.status();
      }
      Query q(c, "UPDATE users SET plan = ? WHERE id = ?");
      q.bind(1, plan).bind(2, user_id);
      if (Status s = q.run(); !s.ok()) return s;
      return sqlite3_changes(c.db) > 0 ? Status() : Status::not_found("no such user");
    });
    if (status.ok()) auth_changed();
    return status;
  }

  Status create_token(const NewToken& token) override {
    return write_sync([&](Connection& c) -> Status {
      const std::int64_t now = unix_now();
      {
        Query q(c,
                "SELECT 1 FROM tokens WHERE user_id = ? AND name = ? AND revoked_at IS NULL "
                "AND (expires_at IS NULL OR expires_at > ?)");
        q.bind(1, token.user_id).bind(2, token.name).bind(3, now);
        const int rc = q.step();
        if (rc == SQLITE_ROW) {
          return Status::invalid_argument("the user has an active token with this name");
        }
        if (rc != SQLITE_DONE) return q.status();
      }
      Query q(c,
              "INSERT INTO tokens (user_id, name, token_hash, abilities, created_at, expires_at) "
              "VALUES (?, ?, ?, ?, ?, ?)");
      q.bind(1, token.user_id).bind(2, token.name).bind(3, token.token_hash);
      q.bind(4, join_abilities(token.abilities)).bind(5, now).bind(6, token.expires_at);
      return q.run();
    });
  }

  Result<int> revoke_token(std::int64_t user_id, const std::string& name) override {
    int revoked = 0;
    Status status = write_sync([&](Connection& c) -> Status {
      Query q(c,
              "UPDATE tokens SET revoked_at = ? WHERE user_id = ? AND name = ? AND "
              "revoked_at IS NULL");
      q.bind(1, unix_now()).bind(2, user_id).bind(3, name);
      if (Status s = q.run(); !s.ok()) return s;
      revoked = sqlite3_changes(c.db);
      return {};
    });
    if (!status.ok()) return status;
    if (revoked > 0) auth_changed();
    return revoked;
  }

  Result<std::optional<TokenRecord>> find_token(const Sha256& token_hash) override {
    if (std::optional<TokenRecord> cached = tokens_->get(token_hash)) return cached;
    const std::uint64_t stamp = tokens_->stamp();
    std::optional<TokenRecord> token;
    Status status = read([&](Connection& c) -> Status {
      static const std::string& kSql = *new std::string(
          fmt::format("SELECT t.id, t.name, t.token_hash, t.abilities, t.created_at, "
                      "t.last_used_at, t.expires_at, t.revoked_at, {} FROM tokens t "
                      "JOIN users u ON u.id = t.user_id JOIN plans p ON p.name = u.plan "
                      "WHERE t.token_hash = ?",
                      kUserColumns));
      Query q(c, kSql);
      q.bind(1, token_hash);
      const int rc = q.step();
      if (rc == SQLITE_DONE) return {};
      if (rc != SQLITE_ROW) return q.status();
      TokenRecord t;
      t.id = q.int64(0);
      t.name = q.text(1);
      t.token_hash = q.sha256(2);
      t.abilities = split_abilities(q.text(3));
      t.created_at = q.int64(4);
      t.last_used_at = q.opt_int64(5);
      t.expires_at = q.opt_int64(6);
      t.revoked_at = q.opt_int64(7);
      t.user = read_user(q, 8);
      token = std::move(t);
      return {};
    });
    if (!status.ok()) return status;
    if (token) tokens_->put(*token, stamp);
    return token;
  }

  void touch_token(std::int64_t token_id, std::int64_t now) override {
    tokens_->touched(token_id, now);
    enqueue(
        [token_id, now](Connection& c) -> Status {
          Query q(c, "UPDATE tokens SET last_used_at = ? WHERE id = ?");
          q.bind(1, now).bind(2, token_id);
          return q.run();
        },
        nullptr);
  }

  Result<std::int64_t> usage_count(std::int64_t user_id, const std::string& day) override {
    std::int64_t count = 0;
    Status status = read([&](Connection& c) -> Status {
      Query q(c, "SELECT count FROM usage_daily WHERE user_id = ? AND day = ?");
      q.bind(1, user_id).bind(2, day);
      const int rc = q.step();
      if (rc == SQLITE_ROW) count = q.int64(0);
      return rc == SQLITE_ROW || rc == SQLITE_DONE ? Status() : q.status();
    });
    if (!status.ok()) return status;
    return count;
  }

  void insert_report(StoredReport report, std::function<void(Status)> done) override {
    // Compacted (report_codec.h) where the batch runs, one report after
    // another: the dictionary's tables stay in the cache from one to the
    // next (alone, on the I/O thread between requests, each took about
    // three times as long). Once: a batch run again after a failed write
    // binds the same bytes.
    struct Pending {
      StoredReport report;
      std::string compact;
      bool compacted = false;
    };
    auto shared = std::make_shared<Pending>();
    shared->report = std::move(report);
    const bool announced = shared->report.announced;
    enqueue(
        [shared](Connection& c) -> Status {
          if (!shared->compacted) {
            shared->compact = compact_report(shared->report.report_json);
            shared->compacted = true;
          }
          const StoredReport& r = shared->report;
          {
            Query q(c,
                    "INSERT INTO reports (public_id, user_id, kind, verdict, created_at, "
                    "report_json, content) VALUES (?, ?, ?, ?, ?, ?, ?)");
            q.bind(1, r.public_id).bind(2, r.user_id).bind(3, r.kind).bind(4, r.verdict);
            // The report outlives the statement's run: bound without a copy,
            // the compact form as a BLOB (read_report_json() tells them apart).
            q.bind(5, r.created_at);
            if (shared->compact.empty()) {
              q.bind_static(6, r.report_json);
            } else {
              q.bind_static_blob(6, shared->compact);
            }
            if (r.content) q.bind_static_blob(7, *r.content);
            if (Status s = q.run(); !s.ok()) return s;
          }
          if (r.counted) {
            Query q(c,
                    "INSERT INTO usage_daily (user_id, day, count) VALUES (?, ?, 1) "
                    "ON CONFLICT (user_id, day) DO UPDATE SET count = count + 1");
            q.bind(1, r.user_id).bind(2, r.usage_day);
            if (Status s = q.run(); !s.ok()) return s;
          }
          if (r.url_cache) {
            Query q(c,
                    "INSERT INTO url_cache (user_id, content_key, reputations, created_at) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT (user_id, content_key) DO UPDATE SET "
                    "reputations = excluded.reputations, created_at = excluded.created_at");
            q.bind(1, r.user_id).bind(2, r.url_cache->key).bind(3, r.url_cache->reputations_json);
            q.bind(4, r.url_cache->created_at);
            if (Status s = q.run(); !s.ok()) return s;
          }
          return {};
        },
        std::move(done), announced ? 1 : 0);
  }

  Result<std::optional<std::string>> get_report(std::int64_t user_id,
                                                const std::string& public_id) override {
    std::optional<std::string> json;
    Status status = read([&](Connection& c) -> Status {
      Query q(c, "SELECT report_json FROM reports WHERE public_id = ? AND user_id = ?");
      q.bind(1, public_id).bind(2, user_id);
      const int rc = q.step();
      if (rc == SQLITE_ROW) {
        Result<std::string> stored = read_report_json(q, 0);
        if (!stored.ok()) return stored.status();
        json = std::move(*stored);
      }
      return rc == SQLITE_ROW || rc == SQLITE_DONE ? Status() : q.status();
    });
    if (!status.ok()) return status;
    return json;
  }

  Result<bool> delete_report(std::int64_t user_id, const std::string& public_id) override {
    bool deleted = false;
    Status status = write_sync([&](Connection& c) -> Status {
      Query q(c, "DELETE FROM reports WHERE public_id = ? AND user_id = ?");
      q.bind(1, public_id).bind(2, user_id);
      if (Status s = q.run(); !s.ok()) return s;
      deleted = sqlite3_changes(c.db) > 0;
      return {};
    });
    if (!status.ok()) return status;
    return deleted;
  }

  Result<ReportPage> list_reports(const ReportQuery& query) override {
    ReportPage page;
    Status status = read([&](Connection& c) -> Status {
      const std::string sql = query.verdict
                                  ? "SELECT seq, report_json FROM reports WHERE user_id = ? AND "
                                    "seq < ? AND verdict = ? ORDER BY seq DESC LIMIT ?"
                                  : "SELECT seq, report_json FROM reports WHERE user_id = ? AND "
                                    "seq < ? ORDER BY seq DESC LIMIT ?";
      Query q(c, sql);
      q.bind(1, query.user_id);
      q.bind(2, query.before.value_or(INT64_MAX));
      int next = 3;
      if (query.verdict) q.bind(next++, *query.verdict);
      q.bind(next, static_cast<std::int64_t>(query.limit) + 1);
      std::int64_t last_seq = 0;
      for (;;) {
        const int rc = q.step();
        if (rc == SQLITE_DONE) break;
        if (rc != SQLITE_ROW) return q.status();
        if (page.reports_json.size() == static_cast<std::size_t>(query.limit)) {
          page.next_after = last_seq;
          break;
        }
        last_seq = q.int64(0);
        Result<std::string> stored = read_report_json(q, 1);
        if (!stored.ok()) return stored.status();
        page.reports_json.push_back(std::move(*stored));
      }
      return {};
    });
    if (!status.ok()) return status;
    return page;
  }

  Result<std::optional<std::string>> url_cache_get(std::int64_t user_id, const Sha256& key,
                                                   std::int64_t not_before) override {
    std::optional<std::string> json;
    Status status = read([&](Connection& c) -> Status {
      Query q(c,
              "SELECT reputations FROM url_cache WHERE user_id = ? AND content_key = ? AND "
              "created_at >= ?");
      q.bind(1, user_id).bind(2, key).bind(3, not_before);
      const int rc = q.step();
      if (rc == SQLITE_ROW) json = q.text(0);
      return rc == SQLITE_ROW || rc == SQLITE_DONE ? Status() : q.status();
    });
    if (!status.ok()) return status;
    return json;
  }

  Result<std::vector<std::optional<StoredReputation>>> reputations_get(
      const std::vector<Sha256>& keys, std::int64_t not_before) override {
    std::vector<std::optional<StoredReputation>> found(keys.size());
    Status status = read([&](Connection& c) -> Status {
      Query q(c,
              "SELECT reputation, checked_at FROM url_reputations WHERE url_key = ? AND "
              "checked_at >= ?");
      for (std::size_t i = 0; i < keys.size(); ++i) {
        q.reset();
        q.bind(1, keys[i]).bind(2, not_before);
        const int rc = q.step();
        if (rc == SQLITE_ROW) found[i] = StoredReputation{q.text(0), q.int64(1)};
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) return q.status();
      }
      return {};
    });
    if (!status.ok()) return status;
    return found;
  }

  void reputations_put(std::vector<std::pair<Sha256, std::string>> answers,
                       std::int64_t now) override {
    auto shared = std::make_shared<decltype(answers)>(std::move(answers));
    enqueue(
        [shared, now](Connection& c) -> Status {
          Query q(c,
                  "INSERT INTO url_reputations (url_key, reputation, checked_at) VALUES (?, ?, ?) "
                  "ON CONFLICT (url_key) DO UPDATE SET reputation = excluded.reputation, "
                  "checked_at = excluded.checked_at");
          for (const auto& [key, reputation] : *shared) {
            q.reset();
            q.bind(1, key).bind(2, reputation).bind(3, now);
            if (Status s = q.run(); !s.ok()) return s;
          }
          return {};
        },
        [](Status status) {
          if (!status.ok()) {
            LogLine(LogLevel::kWarn, "store_error").field("error", status.to_string());
          }
        });
  }

  void flush() override {
    (void)write_sync([](Connection&) -> Status { return {}; });
  }

  CheckStore& checks() override { return *checks_; }
  WebStore& web() override { return *web_; }

  Result<std::string> server_key(const std::string& name) override {
    {
      std::lock_guard lock(keys_mutex_);
      if (auto it = keys_.find(name); it != keys_.end()) return it->second;
    }
    std::string hex;
    const auto select = [&](Connection& c) -> Status {
      Query q(c, "SELECT value FROM settings WHERE key = ?");
      q.bind(1, name);
      const int rc = q.step();
      if (rc == SQLITE_ROW) hex = q.text(0);
      return rc == SQLITE_ROW || rc == SQLITE_DONE ? Status() : q.status();
    };
    if (Status s = read(select); !s.ok()) return s;
    if (hex.empty()) {
      unsigned char fresh[crypto_secretbox_KEYBYTES];
      randombytes_buf(fresh, sizeof fresh);
      char text[2 * sizeof fresh + 1];
      sodium_bin2hex(text, sizeof text, fresh, sizeof fresh);
      sodium_memzero(fresh, sizeof fresh);
      Status s = write_sync([&](Connection& c) -> Status {
        Query q(c, "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING");
        q.bind(1, name).bind(2, std::string_view(text));
        if (Status inserted = q.run(); !inserted.ok()) return inserted;
        return select(c);  // another process may have been first
      });
      sodium_memzero(text, sizeof text);
      if (!s.ok()) return s;
    }
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

 private:
  using WriteFn = std::function<Status(Connection&)>;
  struct Write {
    WriteFn run;
    std::function<void(Status)> done;
  };

  // Creates a missing database file readable by its owner only (0600):
  // SQLite's unix VFS creates the -wal and -shm files with the mode of the
  // database file, and the -auth counter file is created 0600 too. An
  // existing file keeps its mode.
  Status create_private() const {
    if (path_ == ":memory:" || path_.rfind("file:", 0) == 0) return {};
    const int fd = ::open(path_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
      ::close(fd);
    } else if (errno != EEXIST) {
      return Status::unavailable(
          fmt::format("cannot create the SQLite database {}: {}", path_, std::strerror(errno)));
    }
    return {};
  }

  Status open_connection(Connection& c, bool writer) {
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path_.c_str(), &c.db, flags, nullptr) != SQLITE_OK) {
      return Status::unavailable(fmt::format("cannot open the SQLite database {}: {}", path_,
                                             c.db ? sqlite3_errmsg(c.db) : "out of memory"));
    }
    sqlite3_busy_timeout(c.db, kBusyTimeoutMs);
    if (writer) {
      // Switching a new database to WAL needs an exclusive lock and does not
      // wait on its own when another process (the operator CLI) holds one.
      Status wal = c.exec("PRAGMA journal_mode = WAL");
      for (int i = 0;
           !wal.ok() && i < kBusyTimeoutMs / 50 && (sqlite3_errcode(c.db) & 0xff) == SQLITE_BUSY;
           ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        wal = c.exec("PRAGMA journal_mode = WAL");
      }
      if (!wal.ok()) return wal;
    }
    // Memory-mapped reads: a page is read without a syscall once mapped.
    return c.exec(
        "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA mmap_size = 268435456");
  }

  // Runs `fn` on a free reader connection.
  Status read(const WriteFn& fn) override { return with_free_connection(readers_, fn); }

  void write(WriteFn fn, std::function<void(Status)> done) override {
    enqueue(std::move(fn), std::move(done));
  }

  // `arrived`: announcements (expect_reports) this write ends, counted in
  // the same step so that the write is never waited for as still coming.
  void enqueue(WriteFn fn, std::function<void(Status)> done, int arrived = 0) {
    std::unique_lock lock(queue_mutex_);
    expected_reports_ -= arrived;
    // An announced report (a JSON scan analysed on its I/O thread, whose
    // `done` answers from any thread), an idle writer and nothing else
    // queued or on its way: the calling thread commits the report itself,
    // which spares two hand-offs between threads (to the writer, and the
    // answer back to the connection's I/O thread). Not while a WAL restart
    // is due: that runs on the writer thread, between its batches.
    const auto now = std::chrono::steady_clock::now();
    if (arrived > 0 && writer_waiting_ && !caller_writing_ && !stopping_ && queue_.empty() &&
        expected_reports_ <= 0 && !busy(now) && !restart_due_.load(std::memory_order_acquire)) {
      caller_writing_ = true;
      lock.unlock();
      std::vector<Write> batch;
      batch.push_back(Write{std::move(fn), std::move(done)});
      run_batch(batch);
      purge_expired_caches();
      lock.lock();
      caller_writing_ = false;
      const bool wake = !queue_.empty() || stopping_;
      lock.unlock();
      if (wake) queue_cv_.notify_one();
      return;
    }
    if (!queue_.empty() || committing_ || caller_writing_ || expected_reports_ > 0) {
      last_overlap_ = now;
    }
    queue_.push_back(Write{std::move(fn), std::move(done)});
    last_enqueue_ = now;
    const bool wake = !caller_writing_ && (writer_waiting_ || (writer_gathering_ && gathered()));
    lock.unlock();
    if (wake) queue_cv_.notify_one();
  }

  void expect_reports(int delta) override {
    bool wake;
    {
      std::lock_guard lock(queue_mutex_);
      expected_reports_ += delta;
      wake = writer_gathering_ && gathered();
    }
    if (wake) queue_cv_.notify_one();
  }

  // With queue_mutex_ held: nothing announced is still on its way, or the
  // batch is full.
  // (When the writer gathers under load, it wakes itself by its timer.)
  bool gathered() const {
    return queue_.size() >= kGatherWrites || (expected_reports_ <= 0 && !gathering_busy_);
  }

  // With queue_mutex_ held: under load, judged by the last write that
  // came while another was on its way.
  bool busy(std::chrono::steady_clock::time_point now) const {
    return now - last_overlap_ < kBusyWindow;
  }

  void auth_changed() override { tokens_->changed(); }

  Status write_sync(WriteFn fn) override {
    auto promise = std::make_shared<std::promise<Status>>();
    std::future<Status> future = promise->get_future();
    enqueue(std::move(fn), [promise](Status s) { promise->set_value(std::move(s)); });
    return future.get();
  }

  void writer_loop() {
    std::vector<Write> batch;
    for (;;) {
      {
        std::unique_lock lock(queue_mutex_);
        writer_waiting_ = true;
        // A caller committing its own write (enqueue) has the connection.
        queue_cv_.wait(lock, [this] { return !caller_writing_ && (stopping_ || !queue_.empty()); });
        writer_waiting_ = false;
        if (queue_.empty()) return;  // stopping, everything written
        if (!stopping_) gather(lock);
        batch.assign(std::make_move_iterator(queue_.begin()),
                     std::make_move_iterator(queue_.end()));
        queue_.clear();
        committing_ = true;
      }
      run_batch(batch);
      {
        std::lock_guard lock(queue_mutex_);
        committing_ = false;
        // A commit of several writes: load, from its end on.
        if (batch.size() >= 2) last_overlap_ = std::chrono::steady_clock::now();
      }
      batch.clear();
      purge_expired_caches();
      if (restart_due_.load(std::memory_order_acquire)) restart_wal();
    }
  }

  // With queue_mutex_ held, on the writer thread, before a batch: waits
  // (at most kGatherLimit, until kGatherWrites) for reports announced by
  // scans still being analysed and, under load, for writes that keep
  // coming (none for kBusyGap ends it).
  void gather(std::unique_lock<std::mutex>& lock) {
    const auto woke = std::chrono::steady_clock::now();
    const auto limit = woke + kGatherLimit;
    const bool under_load = busy(woke);
    writer_gathering_ = true;
    gathering_busy_ = under_load;
    for (;;) {
      if (stopping_ || queue_.size() >= kGatherWrites) break;
      const auto now = std::chrono::steady_clock::now();
      auto until = limit;
      if (under_load) {
        // A gap since the last write, or since this gathering began.
        until = std::min(until, std::max(woke, last_enqueue_) + kBusyGap);
      } else if (expected_reports_ <= 0) {
        break;
      }
      if (now >= until) break;
      queue_cv_.wait_until(lock, until);
    }
    writer_gathering_ = false;
    gathering_busy_ = false;
  }

  // Called by SQLite on the writer thread after each commit with the WAL
  // size in pages.
  static int on_wal_commit(void* self, sqlite3*, const char*, int wal_pages) {
    auto* store = static_cast<SqliteStore*>(self);
    store->wal_written_ = true;
    if (wal_pages >= store->checkpoint_pages_) {
      {
        std::lock_guard lock(store->checkpoint_mutex_);
        store->checkpoint_due_ = true;
      }
      store->checkpoint_cv_.notify_one();
    }
    return SQLITE_OK;
  }

  // Background passes (PASSIVE: they never wait for the writer or readers);
  // no pass starts while the writer's restart_wal() is due.
  void checkpoint_loop() {
    std::unique_lock lock(checkpoint_mutex_);
    for (;;) {
      checkpoint_cv_.wait(lock, [this] {
        return (checkpoint_due_ && !restart_due_.load(std::memory_order_relaxed)) ||
               checkpoint_stopping_;
      });
      if (checkpoint_stopping_) return;
      checkpoint_due_ = false;
      lock.unlock();
      int wal_pages = 0;
      sqlite3_wal_checkpoint_v2(checkpointer_.db, nullptr, SQLITE_CHECKPOINT_PASSIVE, &wal_pages,
                                nullptr);
      // Each copies what was committed during the one before: the
      // writer's pass is left little to copy and to sync.
      for (int i = 0; i < kTailPasses && wal_pages >= restart_pages_; ++i) {
        sqlite3_wal_checkpoint_v2(checkpointer_.db, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr,
                                  nullptr);
      }
      lock.lock();
      if (wal_pages >= restart_pages_) restart_due_.store(true, std::memory_order_release);
    }
  }

  // On the writer thread between two batches: copies what the last pass
  // left, syncs, and waits (at most kRestartBusyMs) for readers of older
  // snapshots; writes queued meanwhile wait for it.
  void restart_wal() {
    sqlite3_busy_timeout(writer_.db, kRestartBusyMs);
    const auto start = std::chrono::steady_clock::now();
    int wal_pages = 0;
    const int rc = sqlite3_wal_checkpoint_v2(writer_.db, nullptr, SQLITE_CHECKPOINT_RESTART,
                                             &wal_pages, nullptr);
    sqlite3_busy_timeout(writer_.db, kBusyTimeoutMs);
    const std::chrono::duration<double, std::micro> took = std::chrono::steady_clock::now() - start;
    LogLine(LogLevel::kInfo, "wal_restart")
        .field("result", sqlite3_errstr(rc))
        .field("wal_pages", wal_pages)
        .field("duration_us", static_cast<std::int64_t>(took.count()));
    if (rc != SQLITE_OK && rc != SQLITE_BUSY) {
      LogLine(LogLevel::kWarn, "store_error").field("error", sqlite3_errmsg(writer_.db));
    }
    {
      std::lock_guard lock(checkpoint_mutex_);
      checkpoint_due_ = false;  // done; a pass now would see the old WAL
      restart_due_.store(false, std::memory_order_release);
    }
  }

  // Rows of the two URL caches older than kUrlCacheTtl answer nothing any
  // more: the writer drops them at most once per kCachePurgeInterval.
  void purge_expired_caches() {
    const auto now = std::chrono::steady_clock::now();
    if (now < next_purge_) return;
    next_purge_ = now + kCachePurgeInterval;
    const std::int64_t before = unix_now() - kUrlCacheTtl.count();
    for (const std::string& sql :
         {std::string("DELETE FROM url_cache WHERE created_at < ?"),
          std::string("DELETE FROM url_reputations WHERE checked_at < ?")}) {
      Query q(writer_, sql);
      q.bind(1, before);
      if (Status s = q.run(); !s.ok()) {
        LogLine(LogLevel::kWarn, "store_error").field("error", s.to_string());
      }
    }
  }

  // The last error on `db` says the disk refused a write: SQLITE_FULL (no
  // space, or past RLIMIT_FSIZE) or an I/O error.
  static bool is_disk_error(sqlite3* db) {
    const int rc = sqlite3_errcode(db) & 0xff;
    return rc == SQLITE_FULL || rc == SQLITE_IOERR;
  }

  // Runs `sql` with a statement prepared once and reused (sqlite3_exec
  // would parse it again each time).
  Status run_sql(const std::string& sql) { return Query(writer_, sql).run(); }

  // One transaction for the whole batch. First the writes one after
  // another without savepoints (two statements per write fewer); when one
  // fails in a batch of several, that transaction is rolled back and the
  // batch runs again with a savepoint per write, so the others still
  // commit. Writes are statements on the database (and results copied
  // out), so running one again after a rollback gives the same result.
  void run_batch(std::vector<Write>& batch) {
    std::vector<Status> results(batch.size());
    bool disk_error = false;
    if (!run_without_savepoints(batch, results, disk_error)) {
      run_with_savepoints(batch, results, disk_error);
    }
    if (disk_error) write_failing_.store(true, std::memory_order_relaxed);
    for (std::size_t i = 0; i < batch.size(); ++i) {
      if (batch[i].done) batch[i].done(std::move(results[i]));
    }
  }

  static const std::string& sql_text(int which) {
    // Never destroyed, like every function-local static the store's threads
    // use: the writer may still run while a program's statics are destroyed.
    static const auto& kTexts = *new std::array<std::string, 6>{
        "BEGIN IMMEDIATE", "COMMIT", "ROLLBACK", "SAVEPOINT w", "RELEASE w", "ROLLBACK TO w"};
    return kTexts[which];
  }
  enum Sql { kBegin, kCommit, kRollback, kSavepoint, kRelease, kRollbackTo };

  // Fills `results` and returns true, or returns false (nothing committed)
  // when the batch must run again with savepoints.
  bool run_without_savepoints(std::vector<Write>& batch, std::vector<Status>& results,
                              bool& disk_error) {
    wal_written_ = false;
    if (Status begin = run_sql(sql_text(kBegin)); !begin.ok()) {
      disk_error = is_disk_error(writer_.db);
      std::fill(results.begin(), results.end(), begin);
      return true;
    }
    for (std::size_t i = 0; i < batch.size(); ++i) {
      Status status = batch[i].run(writer_);
      if (status.ok()) continue;
      disk_error = disk_error || is_disk_error(writer_.db);
      if (sqlite3_get_autocommit(writer_.db) != 0) {
        // SQLite rolled the whole transaction back (a full disk, an I/O
        // error): every write of the batch failed with it.
        std::fill(results.begin(), results.end(), status);
        return true;
      }
      (void)run_sql(sql_text(kRollback));
      if (batch.size() == 1) {
        results[0] = std::move(status);
        return true;
      }
      return false;
    }
    if (Status commit = run_sql(sql_text(kCommit)); !commit.ok()) {
      disk_error = disk_error || is_disk_error(writer_.db);
      (void)run_sql(sql_text(kRollback));
      std::fill(results.begin(), results.end(), commit);
    } else if (wal_written_) {
      // Pages reached the WAL: the disk takes writes (again).
      write_failing_.store(false, std::memory_order_relaxed);
    }
    return true;
  }

  // A savepoint per write: a failing write is undone alone.
  void run_with_savepoints(std::vector<Write>& batch, std::vector<Status>& results,
                           bool& disk_error) {
    wal_written_ = false;
    Status begin = run_sql(sql_text(kBegin));
    if (begin.ok()) {
      bool rolled_back = false;
      for (std::size_t i = 0; i < batch.size(); ++i) {
        (void)run_sql(sql_text(kSavepoint));
        results[i] = batch[i].run(writer_);
        if (!results[i].ok()) {
          disk_error = disk_error || is_disk_error(writer_.db);
          if (sqlite3_get_autocommit(writer_.db) != 0) {
            // SQLite rolled the whole transaction back (a full disk, an
            // I/O error): the writes before this one are gone too, and a
            // SAVEPOINT now would start a transaction of its own.
            const Status failed = results[i];
            std::fill(results.begin(), results.end(), failed);
            rolled_back = true;
            break;
          }
          (void)run_sql(sql_text(kRollbackTo));
        }
        (void)run_sql(sql_text(kRelease));
      }
      if (!rolled_back) {
        Status commit = run_sql(sql_text(kCommit));
        if (!commit.ok()) {
          disk_error = disk_error || is_disk_error(writer_.db);
          (void)run_sql(sql_text(kRollback));
          std::fill(results.begin(), results.end(), commit);
        } else if (wal_written_) {
          write_failing_.store(false, std::memory_order_relaxed);
        }
      }
    } else {
      disk_error = disk_error || is_disk_error(writer_.db);
      std::fill(results.begin(), results.end(), begin);
    }
  }

  std::string path_;
  const int checkpoint_pages_;  // a background checkpoint from this WAL size
  const int restart_pages_;     // the writer restarts the WAL past this size
  // Looked-up tokens; without a shared change counter (<database>-auth) it keeps nothing.
  std::unique_ptr<TokenCache> tokens_ = std::make_unique<TokenCache>(nullptr);
  Connection writer_;
  std::vector<std::unique_ptr<Connection>> readers_;
  std::mutex queue_mutex_;
  std::condition_variable queue_cv_;
  std::deque<Write> queue_;
  bool writer_waiting_ = false;
  bool writer_gathering_ = false;  // waiting for announced reports
  bool caller_writing_ = false;    // a caller runs its write itself (enqueue)
  int expected_reports_ = 0;       // announced by expect_reports(), not yet queued
  bool gathering_busy_ = false;    // gather() under load: it wakes itself
  bool committing_ = false;        // the writer thread runs a batch
  std::chrono::steady_clock::time_point last_overlap_{};  // see busy()
  std::chrono::steady_clock::time_point last_enqueue_{};
  std::chrono::steady_clock::time_point next_purge_{};  // writer thread only
  bool stopping_ = false;
  std::thread writer_thread_;
  // The last commit failed on the disk and none has succeeded since (ping()).
  std::atomic<bool> write_failing_{false};
  bool wal_written_ = false;  // writer thread only: the last commit wrote WAL frames

  // Checkpoints run on their own connection and thread, so the writer (and
  // the scans waiting for its commit) never waits for a checkpoint's fsync.
  Connection checkpointer_;
  std::mutex checkpoint_mutex_;
  std::condition_variable checkpoint_cv_;
  bool checkpoint_due_ = false;
  std::atomic<bool> restart_due_{false};  // restart_wal() after the next batch
  bool checkpoint_stopping_ = false;
  std::thread checkpoint_thread_;

  std::unique_ptr<CheckStore> checks_;
  std::unique_ptr<WebStore> web_;

  std::mutex keys_mutex_;
  std::unordered_map<std::string, std::string> keys_;  // server_key() by name
};

}  // namespace

Result<std::unique_ptr<Store>> open_sqlite_store(const std::string& path,
                                                 const StoreOptions& options) {
  auto store = std::make_unique<SqliteStore>(path, options.sqlite_checkpoint_pages);
  if (Status s = store->open(); !s.ok()) return s;
  return std::unique_ptr<Store>(std::move(store));
}

Result<std::unique_ptr<Store>> open_store(const std::string& database_url,
                                          const StoreOptions& options) {
  constexpr std::string_view kSqlite = "sqlite:";
  if (database_url.rfind(kSqlite, 0) == 0) {
    std::string path = database_url.substr(kSqlite.size());
    // sqlite:///abs/path and sqlite://rel are accepted as well as sqlite:path.
    if (path.rfind("//", 0) == 0) path = path.substr(2);
    if (path.empty()) return Status::invalid_argument("sqlite: database URL without a path");
    return open_sqlite_store(path, options);
  }
  if (database_url.rfind("postgresql://", 0) == 0 || database_url.rfind("postgres://", 0) == 0) {
    return open_postgresql_store(database_url, options);
  }
  return Status::invalid_argument("database URL must be sqlite:PATH or postgresql://...");
}

}  // namespace scamcheck::server
