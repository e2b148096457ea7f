// The SQLite plumbing SqliteStore and its parts share: a connection with
// its cached prepared statements, a statement wrapper, and the executor
// interface through which parts of the store run reads on the reader pool
// and writes on the single writer thread (sqlite_store.h).
#ifndef SCAMCHECK_ADAPTERS_SERVER_STORAGE_SQLITE_SQLITE_DB_H_
#define SCAMCHECK_ADAPTERS_SERVER_STORAGE_SQLITE_SQLITE_DB_H_

#include <fmt/format.h>
#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ids.h"
#include "storage/shared_columns.h"
#include "storage/store.h"

namespace scamcheck::server::sqlite {

// One SQLite connection with its prepared statements, used by one thread at
// a time (guarded by `mutex`).
struct Connection {
  std::mutex mutex;
  sqlite3* db = nullptr;
  std::unordered_map<std::string, sqlite3_stmt*> statements;

  ~Connection() {
    for (auto& [sql, stmt] : statements) sqlite3_finalize(stmt);
    if (db != nullptr) sqlite3_close_v2(db);
  }
  Status error(std::string_view what) const {
    return Status::unavailable(fmt::format("sqlite: {}: {}", what, sqlite3_errmsg(db)));
  }
  Status exec(const char* sql) {
    char* message = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK) {
      Status status =
          Status::unavailable(fmt::format("sqlite: {}", message ? message : "exec failed"));
      sqlite3_free(message);
      return status;
    }
    return {};
  }
};

// A cached prepared statement, reset and unbound when it goes out of scope.
class Query {
 public:
  Query(Connection& connection, const std::string& sql) : connection_(connection) {
    auto it = connection.statements.find(sql);
    if (it == connection.statements.end()) {
      sqlite3_stmt* stmt = nullptr;
      if (sqlite3_prepare_v3(connection.db, sql.c_str(), static_cast<int>(sql.size()),
                             SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) != SQLITE_OK) {
        status_ = connection.error("prepare");
        return;
      }
      it = connection.statements.emplace(sql, stmt).first;
    }
    stmt_ = it->second;
  }
  ~Query() {
    if (stmt_ != nullptr) {
      sqlite3_reset(stmt_);
      sqlite3_clear_bindings(stmt_);
    }
  }
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;

  const Status& status() const { return status_; }

  // Ready to run again with new bindings.
  void reset() {
    if (stmt_ == nullptr) return;
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }

  Query& bind(int i, std::int64_t v) {
    if (stmt_) sqlite3_bind_int64(stmt_, i, v);
    return *this;
  }
  Query& bind(int i, std::string_view v) {
    if (stmt_) sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Query& bind(int i, const std::string& v) { return bind(i, std::string_view(v)); }
  Query& bind(int i, const Sha256& v) {
    if (stmt_) sqlite3_bind_blob(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  // Text or bytes SQLite reads in place, without a copy: `v` must stay
  // valid until the statement is reset (the Query's end).
  Query& bind_static(int i, std::string_view v) {
    if (stmt_) sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC);
    return *this;
  }
  Query& bind_static_blob(int i, std::string_view v) {
    if (stmt_) sqlite3_bind_blob(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC);
    return *this;
  }
  Query& bind_blob(int i, std::string_view v) {
    if (stmt_) sqlite3_bind_blob(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Query& bind(int i, const std::optional<std::int64_t>& v) {
    if (!stmt_) return *this;
    if (v) {
      sqlite3_bind_int64(stmt_, i, *v);
    } else {
      sqlite3_bind_null(stmt_, i);
    }
    return *this;
  }
  Query& bind(int i, const std::optional<std::string>& v) {
    if (!stmt_) return *this;
    if (v) return bind(i, *v);
    sqlite3_bind_null(stmt_, i);
    return *this;
  }

  // SQLITE_ROW, SQLITE_DONE, or an error code (then status() says why).
  int step() {
    if (stmt_ == nullptr) return SQLITE_ERROR;
    const int rc = sqlite3_step(stmt_);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) status_ = connection_.error("step");
    return rc;
  }
  Status run() {
    const int rc = step();
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? Status() : status_;
  }

  std::int64_t int64(int col) const { return sqlite3_column_int64(stmt_, col); }
  bool is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
  std::optional<std::int64_t> opt_int64(int col) const {
    if (is_null(col)) return std::nullopt;
    return int64(col);
  }
  std::string text(int col) const {
    const auto* p = sqlite3_column_text(stmt_, col);
    return p ? std::string(reinterpret_cast<const char*>(p),
                           static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)))
             : std::string();
  }
  bool is_blob(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_BLOB; }
  // The bytes of a BLOB column, valid until the next step or reset.
  std::string_view blob(int col) const {
    const void* p = sqlite3_column_blob(stmt_, col);
    return p ? std::string_view(static_cast<const char*>(p),
                                static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)))
             : std::string_view();
  }
  Sha256 sha256(int col) const {
    Sha256 out{};
    const void* p = sqlite3_column_blob(stmt_, col);
    if (p && sqlite3_column_bytes(stmt_, col) == static_cast<int>(out.size())) {
      std::memcpy(out.data(), p, out.size());
    }
    return out;
  }

 private:
  Connection& connection_;
  sqlite3_stmt* stmt_ = nullptr;
  Status status_;
};

inline constexpr char kUserColumns[] =
    "u.id, u.email, u.name, u.created_at, p.name, p.display_name, p.checks_per_day";

// Reads kUserColumns starting at column `first`.
inline User read_user(const Query& q, int first) {
  User user;
  user.id = q.int64(first);
  user.email = q.text(first + 1);
  user.name = q.text(first + 2);
  user.created_at = iso8601(q.int64(first + 3));
  user.plan.name = q.text(first + 4);
  user.plan.display_name = q.text(first + 5);
  user.plan.checks_per_day = q.opt_int64(first + 6);
  return user;
}

// Runs store work on the right connection. Thread-safe.
class Executor {
 public:
  using Fn = std::function<Status(Connection&)>;
  virtual ~Executor() = default;
  // Runs `fn` on a free reader connection and returns its status.
  virtual Status read(const Fn& fn) = 0;
  // Queues `fn` for the writer thread (its own savepoint inside a group
  // commit); `done` runs on the writer thread once committed or failed.
  virtual void write(Fn fn, std::function<void(Status)> done) = 0;
  // write() and wait for the commit.
  virtual Status write_sync(Fn fn) = 0;
  // After a committed change to users, tokens or plans: tokens looked up
  // before it are looked up again, in this and every other process.
  virtual void auth_changed() = 0;
};

// The check API's storage on the same database (sqlite_checks_store.cc).
std::unique_ptr<CheckStore> make_check_store(Executor& executor);
// The web interface's storage on the same database (sqlite_web_store.cc).
std::unique_ptr<WebStore> make_web_store(Executor& executor);

}  // namespace scamcheck::server::sqlite

#endif  // SCAMCHECK_ADAPTERS_SERVER_STORAGE_SQLITE_SQLITE_DB_H_
