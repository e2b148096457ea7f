// The libpq plumbing PgStore and its parts share: a connection that
// reconnects on its next use after a loss and prepares each statement once,
// statement parameters, results, and the executor through which the check
// store runs its statements (pg_store.h).
#ifndef SCAMCHECK_ADAPTERS_SERVER_STORAGE_POSTGRESQL_PG_DB_H_
#define SCAMCHECK_ADAPTERS_SERVER_STORAGE_POSTGRESQL_PG_DB_H_

#include <libpq-fe.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "storage/shared_columns.h"
#include "storage/store.h"

namespace scamcheck::server::pg {

// Values of one statement, in order ($1, $2, ...): text, or binary for bytea.
class Params {
 public:
  Params& add(std::string_view text);
  Params& add(const char* text) { return add(std::string_view(text)); }
  Params& add(const std::string& text) { return add(std::string_view(text)); }
  Params& add(std::int64_t value);
  Params& add(int value) { return add(static_cast<std::int64_t>(value)); }
  Params& add(bool value) { return add(std::string_view(value ? "t" : "f")); }
  Params& add(const std::optional<std::string>& value);
  Params& add(const std::optional<std::int64_t>& value);
  Params& add(const Sha256& digest) {
    return add_bytes(std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));
  }
  Params& add_bytes(std::string_view bytes);
  Params& add_null();

  int size() const { return static_cast<int>(values_.size()); }
  // Pointers into this object: valid while it lives and is not changed.
  std::vector<const char*> pointers() const;
  const std::vector<int>& lengths() const { return lengths_; }
  const std::vector<int>& formats() const { return formats_; }

 private:
  std::vector<std::string> values_;
  std::vector<bool> null_;
  std::vector<int> lengths_;
  std::vector<int> formats_;
};

// A statement's result rows (text format).
class Rows {
 public:
  explicit Rows(PGresult* result) : result_(result, &PQclear) {}
  int size() const { return PQntuples(result_.get()); }
  bool empty() const { return size() == 0; }
  // Rows changed by an INSERT, UPDATE or DELETE.
  std::int64_t affected() const;
  bool is_null(int row, int col) const { return PQgetisnull(result_.get(), row, col) != 0; }
  std::string text(int row, int col) const;
  std::int64_t int64(int row, int col) const;
  std::optional<std::int64_t> opt_int64(int row, int col) const;
  std::optional<std::string> opt_text(int row, int col) const;
  bool boolean(int row, int col) const { return text(row, col) == "t"; }
  // A bytea column (hex text form).
  std::string bytes(int row, int col) const;

 private:
  std::shared_ptr<PGresult> result_;
};

// One statement of a queued write.
struct Statement {
  std::string sql;
  Params params;
  // When set, a statement that changes no row fails its write with
  // kResourceExhausted and this message (and changes nothing).
  std::optional<std::string> must_change;
};
// A queued write: statements committed together.
using WriteOp = std::vector<Statement>;

// One connection, used by one thread at a time (guarded by `mutex`).
class Connection {
 public:
  explicit Connection(std::string url) : url_(std::move(url)) {}
  ~Connection() { close(); }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  std::mutex mutex;

  // Connects when not connected (first use, or after a loss noticed now:
  // what the server sent while idle, e.g. its shutdown, is read first).
  // A connection lost inside a transaction is not replaced until the
  // transaction's COMMIT or ROLLBACK (which then fails).
  Status ensure();
  // Runs `sql` as a prepared statement with `params`.
  Result<Rows> query(const std::string& sql, const Params& params = {});
  // Runs statements without parameters (BEGIN, migrations).
  Status exec(const std::string& sql);
  // Runs `ops` in one transaction, pipelined: one round trip for all. Sets
  // each op's status; not OK (and nothing committed) when a statement or
  // the commit failed, so the caller can run the ops again one by one.
  Status pipeline(const std::vector<const WriteOp*>& ops, std::vector<Status>* results);
  PGconn* raw() { return conn_; }
  void close();

 private:
  Status failed(PGresult* result, std::string_view what);
  Result<std::string> prepare(const std::string& sql);  // the statement's name
  bool alive();
  std::string url_;
  PGconn* conn_ = nullptr;
  bool in_transaction_ = false;  // between exec("BEGIN") and COMMIT or ROLLBACK
  std::unordered_map<std::string, std::string> prepared_;  // SQL -> statement name
};

// Opens a libpq connection to `url` with the server's settings (connect
// timeout, application name); the caller owns the result.
PGconn* connect(const std::string& url);

// What the check store needs of PgStore.
class Executor {
 public:
  virtual ~Executor() = default;
  // Runs `fn` on a free pool connection.
  virtual Status run(const std::function<Status(Connection&)>& fn) = 0;
  // Runs `fn` in a transaction on a pool connection (committed when it
  // returns OK, rolled back otherwise).
  virtual Status transaction(const std::function<Status(Connection&)>& fn) = 0;
  // Queues `op` for a writer thread; `done` runs there after the commit.
  virtual void write(WriteOp op, std::function<void(Status)> done) = 0;
  // Whether signed-in usage is counted at reservation (SharedCounters).
  virtual bool counts_at_reservation() const = 0;
  // Users, tokens or plans changed here: this process's token cache is
  // emptied at once (other processes learn it through NOTIFY).
  virtual void auth_changed() = 0;
};

std::unique_ptr<CheckStore> make_check_store(Executor& executor);
std::unique_ptr<WebStore> make_web_store(Executor& executor);

// A user with their plan: select kUserColumns from `users u JOIN plans p`
// and read them with read_user from column `first` on.
inline constexpr char kUserColumns[] =
    "u.id, u.email, u.name, u.created_at, p.name, p.display_name, p.checks_per_day";
User read_user(const Rows& rows, int row, int first);

}  // namespace scamcheck::server::pg

#endif  // SCAMCHECK_ADAPTERS_SERVER_STORAGE_POSTGRESQL_PG_DB_H_
