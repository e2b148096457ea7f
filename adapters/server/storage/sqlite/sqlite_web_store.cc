// The web interface's storage on SQLite (WebStore, store.h): sessions,
// sign-in credentials and failed-attempt counters, token lists, and the
// anonymous daily allowance of web checks. Writes go through the store's
// writer thread, reads through its reader pool (sqlite_db.h).
#include "storage/sqlite/sqlite_db.h"

namespace scamcheck::server::sqlite {
namespace {

class SqliteWebStore final : public WebStore {
 public:
  explicit SqliteWebStore(Executor& db) : db_(db) {}

  Status create_session(const NewSession& s) override {
    return db_.write_sync([&](Connection& c) -> Status {
      Query q(c,
              "INSERT INTO web_sessions (id_hash, user_id, csrf_secret, created_at, "
              "last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)");
      q.bind(1, s.id_hash).bind(2, s.user_id).bind(3, s.csrf_secret).bind(4, s.created_at);
      q.bind(5, s.created_at).bind(6, s.expires_at);
      return q.run();
    });
  }

  Result<std::optional<SessionRecord>> find_session(const Sha256& id_hash,
                                                    std::int64_t now) override {
    std::optional<SessionRecord> session;
    Status status = db_.read([&](Connection& c) -> Status {
      static const std::string& kSql = *new std::string(
          fmt::format("SELECT s.csrf_secret, s.created_at, s.last_seen_at, s.expires_at, {} "
                      "FROM web_sessions s JOIN users u ON u.id = s.user_id "
                      "JOIN plans p ON p.name = u.plan WHERE s.id_hash = ? AND s.expires_at > ?",
                      kUserColumns));
      Query q(c, kSql);
      q.bind(1, id_hash).bind(2, now);
      const int rc = q.step();
      if (rc == SQLITE_DONE) return {};
      if (rc != SQLITE_ROW) return q.status();
      SessionRecord r;
      r.id_hash = id_hash;
      r.csrf_secret = q.text(0);
      r.created_at = q.int64(1);
      r.last_seen_at = q.int64(2);
      r.expires_at = q.int64(3);
      r.user = read_user(q, 4);
      session = std::move(r);
      return {};
    });
    if (!status.ok()) return status;
    return session;
  }

  Status touch_session(const Sha256& id_hash, std::int64_t now, std::int64_t expires_at) override {
    return db_.write_sync([&](Connection& c) -> Status {
      Query q(c, "UPDATE web_sessions SET last_seen_at = ?, expires_at = ? WHERE id_hash = ?");
      q.bind(1, now).bind(2, expires_at).bind(3, id_hash);
      return q.run();
    });
  }

  Result<bool> delete_session(const Sha256& id_hash) override {
    int changed = 0;
    Status status = db_.write_sync([&](Connection& c) -> Status {
      Query q(c, "DELETE FROM web_sessions WHERE id_hash = ?");
      q.bind(1, id_hash);
      if (Status s = q.run(); !s.ok()) return s;
      changed = sqlite3_changes(c.db);
      return {};
    });
    if (!status.ok()) return status;
    return changed > 0;
  }

  Result<int> delete_user_sessions(std::int64_t user_id) override {
    return changes("DELETE FROM web_sessions WHERE user_id = ?", user_id);
  }

  Result<int> purge_sessions(std::int64_t now) override {
    return changes("DELETE FROM web_sessions WHERE expires_at <= ?", now);
  }

  Result<std::optional<Credentials>> find_credentials(const std::string& email) override {
    std::optional<Credentials> found;
    Status status = db_.read([&](Connection& c) -> Status {
      static const std::string& kSql = *new std::string(
          fmt::format("SELECT u.password_hash, {} FROM users u JOIN plans p ON p.name = u.plan "
                      "WHERE u.email = ?",
                      kUserColumns));
      Query q(c, kSql);
      q.bind(1, email);
      const int rc = q.step();
      if (rc == SQLITE_DONE) return {};
      if (rc != SQLITE_ROW) return q.status();
      Credentials cr;
      if (!q.is_null(0)) cr.password_hash = q.text(0);
      cr.user = read_user(q, 1);
      found = std::move(cr);
      return {};
    });
    if (!status.ok()) return status;
    return found;
  }

  Result<std::int64_t> login_failures(const std::string& key, std::int64_t now,
                                      std::int64_t window) override {
    std::int64_t count = 0;
    Status status = db_.read([&](Connection& c) -> Status {
      Query q(c, "SELECT count FROM login_failures WHERE key = ? AND window_start > ?");
      q.bind(1, key).bind(2, now - window);
      const int rc = q.step();
      if (rc == SQLITE_ROW) count = q.int64(0);
      return rc == SQLITE_ROW || rc == SQLITE_DONE ? Status() : q.status();
    });
    if (!status.ok()) return status;
    return count;
  }

  Result<std::int64_t> record_login_failure(const std::string& key, std::int64_t now,
                                            std::int64_t window) override {
    std::int64_t count = 0;
    Status status = db_.write_sync([&](Connection& c) -> Status {
      // One statement: a window that ended starts over at 1.
      Query q(c,
              "INSERT INTO login_failures (key, window_start, count) VALUES (?1, ?2, 1) "
              "ON CONFLICT (key) DO UPDATE SET "
              "count = CASE WHEN window_start > ?2 - ?3 THEN count + 1 ELSE 1 END, "
              "window_start = CASE WHEN window_start > ?2 - ?3 THEN window_start ELSE ?2 END "
              "RETURNING count");
      q.bind(1, key).bind(2, now).bind(3, window);
      if (q.step() != SQLITE_ROW) return q.status();
      count = q.int64(0);
      return {};
    });
    if (!status.ok()) return status;
    return count;
  }

  Status clear_login_failures(const std::string& key) override {
    return db_.write_sync([&](Connection& c) -> Status {
      Query q(c, "DELETE FROM login_failures WHERE key = ?");
      q.bind(1, key);
      return q.run();
    });
  }

  Result<std::vector<TokenInfo>> list_tokens(std::int64_t user_id) override {
    std::vector<TokenInfo> tokens;
    Status status = db_.read([&](Connection& c) -> Status {
      Query q(c,
              "SELECT id, name, abilities, created_at, last_used_at, expires_at, revoked_at "
              "FROM tokens WHERE user_id = ? ORDER BY id DESC");
      q.bind(1, user_id);
      int rc;
      while ((rc = q.step()) == SQLITE_ROW) {
        TokenInfo t;
        t.id = q.int64(0);
        t.name = q.text(1);
        t.abilities = split_abilities(q.text(2));
        t.created_at = q.int64(3);
        t.last_used_at = q.opt_int64(4);
        t.expires_at = q.opt_int64(5);
        t.revoked_at = q.opt_int64(6);
        tokens.push_back(std::move(t));
      }
      return rc == SQLITE_DONE ? Status() : q.status();
    });
    if (!status.ok()) return status;
    return tokens;
  }

  Result<bool> revoke_token_by_id(std::int64_t user_id, std::int64_t token_id,
                                  std::int64_t now) override {
    int changed = 0;
    Status status = db_.write_sync([&](Connection& c) -> Status {
      Query q(c,
              "UPDATE tokens SET revoked_at = ? WHERE id = ? AND user_id = ? AND "
              "revoked_at IS NULL");
      q.bind(1, now).bind(2, token_id).bind(3, user_id);
      if (Status s = q.run(); !s.ok()) return s;
      changed = sqlite3_changes(c.db);
      return {};
    });
    if (!status.ok()) return status;
    if (changed > 0) db_.auth_changed();
    return changed > 0;
  }

  Result<bool> take_client_unit(const std::string& client, const std::string& day,
                                std::int64_t limit) override {
    int changed = 0;
    Status status = db_.write_sync([&](Connection& c) -> Status {
      // Counted only while under the limit: one atomic statement.
      Query q(c,
              "INSERT INTO client_usage_daily (client, day, count) "
              "SELECT ?1, ?2, 1 WHERE ?3 > 0 "
              "ON CONFLICT (client, day) DO UPDATE SET count = count + 1 "
              "WHERE client_usage_daily.count < ?3");
      q.bind(1, client).bind(2, day).bind(3, limit);
      if (Status s = q.run(); !s.ok()) return s;
      changed = sqlite3_changes(c.db);
      return {};
    });
    if (!status.ok()) return status;
    return changed > 0;
  }

  Status give_back_client_unit(const std::string& client, const std::string& day) override {
    return db_.write_sync([&](Connection& c) -> Status {
      Query q(c,
              "UPDATE client_usage_daily SET count = count - 1 "
              "WHERE client = ? AND day = ? AND count > 0");
      q.bind(1, client).bind(2, day);
      return q.run();
    });
  }

 private:
  Result<int> changes(const char* sql, std::int64_t arg) {
    int changed = 0;
    Status status = db_.write_sync([&](Connection& c) -> Status {
      Query q(c, sql);
      q.bind(1, arg);
      if (Status s = q.run(); !s.ok()) return s;
      changed = sqlite3_changes(c.db);
      return {};
    });
    if (!status.ok()) return status;
    return changed;
  }

  Executor& db_;
};

}  // namespace

std::unique_ptr<WebStore> make_web_store(Executor& executor) {
  return std::make_unique<SqliteWebStore>(executor);
}

}  // namespace scamcheck::server::sqlite
