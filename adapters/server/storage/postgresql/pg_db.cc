#include "storage/postgresql/pg_db.h"

#include <fmt/format.h>
#include <poll.h>

#include <algorithm>
#include <cstdlib>

#include "ids.h"

namespace scamcheck::server::pg {

Params& Params::add(std::string_view text) {
  values_.emplace_back(text);
  null_.push_back(false);
  lengths_.push_back(static_cast<int>(text.size()));
  formats_.push_back(0);
  return *this;
}

Params& Params::add(std::int64_t value) { return add(std::to_string(value)); }

Params& Params::add(const std::optional<std::string>& value) {
  return value ? add(*value) : add_null();
}

Params& Params::add(const std::optional<std::int64_t>& value) {
  return value ? add(*value) : add_null();
}

Params& Params::add_bytes(std::string_view bytes) {
  values_.emplace_back(bytes);
  null_.push_back(false);
  lengths_.push_back(static_cast<int>(bytes.size()));
  formats_.push_back(1);
  return *this;
}

Params& Params::add_null() {
  values_.emplace_back();
  null_.push_back(true);
  lengths_.push_back(0);
  formats_.push_back(0);
  return *this;
}

std::vector<const char*> Params::pointers() const {
  std::vector<const char*> out(values_.size());
  for (std::size_t i = 0; i < values_.size(); ++i) out[i] = null_[i] ? nullptr : values_[i].data();
  return out;
}

std::int64_t Rows::affected() const {
  const char* n = PQcmdTuples(result_.get());
  return n && *n ? std::strtoll(n, nullptr, 10) : 0;
}

std::string Rows::text(int row, int col) const {
  return std::string(PQgetvalue(result_.get(), row, col),
                     static_cast<std::size_t>(PQgetlength(result_.get(), row, col)));
}

std::int64_t Rows::int64(int row, int col) const {
  return std::strtoll(PQgetvalue(result_.get(), row, col), nullptr, 10);
}

std::optional<std::int64_t> Rows::opt_int64(int row, int col) const {
  if (is_null(row, col)) return std::nullopt;
  return int64(row, col);
}

std::optional<std::string> Rows::opt_text(int row, int col) const {
  if (is_null(row, col)) return std::nullopt;
  return text(row, col);
}

std::string Rows::bytes(int row, int col) const {
  std::size_t length = 0;
  unsigned char* raw = PQunescapeBytea(
      reinterpret_cast<const unsigned char*>(PQgetvalue(result_.get(), row, col)), &length);
  if (raw == nullptr) return {};
  std::string out(reinterpret_cast<const char*>(raw), length);
  PQfreemem(raw);
  return out;
}

User read_user(const Rows& r, int row, int first) {
  User user;
  user.id = r.int64(row, first);
  user.email = r.text(row, first + 1);
  user.name = r.text(row, first + 2);
  user.created_at = iso8601(r.int64(row, first + 3));
  user.plan.name = r.text(row, first + 4);
  user.plan.display_name = r.text(row, first + 5);
  user.plan.checks_per_day = r.opt_int64(row, first + 6);
  return user;
}

PGconn* connect(const std::string& url) {
  // Later keywords override what the URI says; a dead host fails in
  // seconds instead of the TCP timeout.
  const char* keywords[] = {"dbname", "connect_timeout", "application_name", nullptr};
  const char* values[] = {url.c_str(), "3", "scamcheckd", nullptr};
  PGconn* conn = PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
  // Notices ("relation ... already exists, skipping") are not for the log.
  if (conn != nullptr)
    PQsetNoticeProcessor(
        conn, [](void*, const char*) {}, nullptr);
  return conn;
}

void Connection::close() {
  if (conn_ != nullptr) PQfinish(conn_);
  conn_ = nullptr;
  prepared_.clear();
}

bool Connection::alive() {
  // An idle connection receives nothing unless the server is going away
  // (its FATAL message, then the end of the stream): read it without
  // blocking. Usually one poll() that finds nothing.
  for (int i = 0; i < 4; ++i) {
    pollfd fd{PQsocket(conn_), POLLIN, 0};
    if (::poll(&fd, 1, 0) <= 0) break;
    if (PQconsumeInput(conn_) == 0) return false;
    if (PQstatus(conn_) != CONNECTION_OK) return false;
  }
  return PQstatus(conn_) == CONNECTION_OK;
}

Status Connection::ensure() {
  if (conn_ != nullptr && alive()) return {};
  if (in_transaction_) {
    close();
    return Status::unavailable("postgresql: the connection was lost in a transaction");
  }
  close();
  conn_ = connect(url_);
  if (conn_ == nullptr || PQstatus(conn_) != CONNECTION_OK) {
    std::string message = conn_ ? PQerrorMessage(conn_) : "out of memory";
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) {
      message.pop_back();
    }
    close();
    return Status::unavailable("postgresql: cannot connect: " + message);
  }
  return {};
}

Status Connection::failed(PGresult* result, std::string_view what) {
  std::string message = result ? PQresultErrorMessage(result) : PQerrorMessage(conn_);
  const char* state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  const std::string sqlstate = state ? state : "";
  if (result) PQclear(result);
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  // A lost connection: forget it, the next use connects again.
  if (PQstatus(conn_) != CONNECTION_OK) close();
  if (sqlstate == "23505") return Status::invalid_argument("postgresql: " + message);
  return Status::unavailable(fmt::format("postgresql: {}: {}", what, message));
}

Result<std::string> Connection::prepare(const std::string& sql) {
  auto it = prepared_.find(sql);
  if (it != prepared_.end()) return it->second;
  std::string name = fmt::format("s{}", prepared_.size());
  PGresult* prepared = PQprepare(conn_, name.c_str(), sql.c_str(), 0, nullptr);
  if (PQresultStatus(prepared) != PGRES_COMMAND_OK) return failed(prepared, "prepare");
  PQclear(prepared);
  prepared_.emplace(sql, name);
  return name;
}

Result<Rows> Connection::query(const std::string& sql, const Params& params) {
  if (Status s = ensure(); !s.ok()) return s;
  Result<std::string> name = prepare(sql);
  if (!name.ok()) return name.status();
  const std::vector<const char*> values = params.pointers();
  PGresult* result =
      PQexecPrepared(conn_, name->c_str(), params.size(), values.data(), params.lengths().data(),
                     params.formats().data(), /*resultFormat=*/0);
  const ExecStatusType rc = PQresultStatus(result);
  if (rc != PGRES_COMMAND_OK && rc != PGRES_TUPLES_OK) return failed(result, "query");
  return Rows(result);
}

Status Connection::exec(const std::string& sql) {
  // Inside a transaction a lost connection is not replaced: its COMMIT
  // must fail, not run on a new session.
  Status ready = ensure();
  if (sql == "COMMIT" || sql == "ROLLBACK") in_transaction_ = false;
  if (!ready.ok()) return ready;
  PGresult* result = PQexec(conn_, sql.c_str());
  const ExecStatusType rc = PQresultStatus(result);
  if (rc != PGRES_COMMAND_OK && rc != PGRES_TUPLES_OK) return failed(result, "exec");
  PQclear(result);
  if (sql == "BEGIN") in_transaction_ = true;
  return {};
}

Status Connection::pipeline(const std::vector<const WriteOp*>& ops, std::vector<Status>* results) {
  results->assign(ops.size(), Status());
  if (Status s = ensure(); !s.ok()) {
    std::fill(results->begin(), results->end(), s);
    return s;
  }
  std::vector<std::string> names;
  for (const WriteOp* op : ops) {
    for (const Statement& st : *op) {
      Result<std::string> name = prepare(st.sql);
      if (!name.ok()) {
        std::fill(results->begin(), results->end(), name.status());
        return name.status();
      }
      names.push_back(std::move(*name));
    }
  }
  const auto lost = [&](std::string_view what) {
    Status s = Status::unavailable(
        fmt::format("postgresql: {}: {}", what, conn_ ? PQerrorMessage(conn_) : "no connection"));
    close();
    std::fill(results->begin(), results->end(), s);
    return s;
  };
  if (PQenterPipelineMode(conn_) != 1) return lost("pipeline");
  bool sent = PQsendQueryParams(conn_, "BEGIN", 0, nullptr, nullptr, nullptr, nullptr, 0) == 1;
  std::size_t k = 0;
  for (const WriteOp* op : ops) {
    for (const Statement& st : *op) {
      const std::vector<const char*> values = st.params.pointers();
      sent = sent &&
             PQsendQueryPrepared(conn_, names[k++].c_str(), st.params.size(), values.data(),
                                 st.params.lengths().data(), st.params.formats().data(), 0) == 1;
    }
  }
  sent = sent && PQsendQueryParams(conn_, "COMMIT", 0, nullptr, nullptr, nullptr, nullptr, 0) == 1;
  sent = sent && PQpipelineSync(conn_) == 1 && PQflush(conn_) == 0;
  if (!sent) return lost("send");

  // One result per query (then a null), in the order sent; the sync last.
  Status first_error;
  const auto next = [&](Status* status, std::int64_t* affected) -> bool {
    PGresult* r = PQgetResult(conn_);
    if (r == nullptr) return false;
    const ExecStatusType rc = PQresultStatus(r);
    if (rc == PGRES_COMMAND_OK || rc == PGRES_TUPLES_OK) {
      const char* n = PQcmdTuples(r);
      if (affected) *affected = n && *n ? std::strtoll(n, nullptr, 10) : 0;
    } else if (rc == PGRES_PIPELINE_ABORTED) {
      *status = Status::unavailable("postgresql: not run: an earlier write of its batch failed");
    } else {
      std::string message = PQresultErrorMessage(r);
      while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) {
        message.pop_back();
      }
      *status = Status::unavailable("postgresql: " + message);
      if (first_error.ok()) first_error = *status;
    }
    PQclear(r);
    while (PGresult* extra = PQgetResult(conn_)) PQclear(extra);  // to the query's end
    return true;
  };
  Status begin;
  if (!next(&begin, nullptr)) return lost("pipeline");
  for (std::size_t i = 0; i < ops.size(); ++i) {
    for (const Statement& st : *ops[i]) {
      Status status;
      std::int64_t affected = -1;
      if (!next(&status, &affected)) return lost("pipeline");
      if (!status.ok() && (*results)[i].ok()) (*results)[i] = status;
      if (status.ok() && st.must_change && affected == 0 && (*results)[i].ok()) {
        (*results)[i] = Status::resource_exhausted(*st.must_change);
      }
    }
  }
  Status commit;
  if (!next(&commit, nullptr)) return lost("pipeline");
  PGresult* sync = PQgetResult(conn_);
  const bool synced = sync != nullptr && PQresultStatus(sync) == PGRES_PIPELINE_SYNC;
  if (sync) PQclear(sync);
  if (!synced || PQexitPipelineMode(conn_) != 1) return lost("pipeline");
  if (first_error.ok() && !commit.ok()) first_error = commit;
  if (!first_error.ok()) {
    // The transaction block is aborted, not ended: end it.
    PGresult* rollback = PQexec(conn_, "ROLLBACK");
    if (rollback) PQclear(rollback);
    for (Status& s : *results) {
      if (s.ok() || s.code() == StatusCode::kResourceExhausted) s = first_error;
    }
    return first_error;
  }
  return {};
}

}  // namespace scamcheck::server::pg
