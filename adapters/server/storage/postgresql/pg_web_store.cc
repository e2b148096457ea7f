// The web interface's storage on PostgreSQL (WebStore, store.h): sessions,
// sign-in credentials and failed-attempt counters, token lists, and the
// anonymous daily allowance of web checks, shared by every server process.
// Each call is one statement on the store's pool (pg_db.h).
#include <fmt/format.h>

#include "storage/postgresql/pg_db.h"

namespace scamcheck::server::pg {
namespace {

class PgWebStore final : public WebStore {
 public:
  explicit PgWebStore(Executor& db) : db_(db) {}

  Status create_session(const NewSession& s) override {
    return exec(
        "INSERT INTO web_sessions (id_hash, user_id, csrf_secret, created_at, last_seen_at, "
        "expires_at) VALUES ($1, $2, $3, $4, $4, $5)",
        Params()
            .add(s.id_hash)
            .add(s.user_id)
            .add(s.csrf_secret)
            .add(s.created_at)
            .add(s.expires_at));
  }

  Result<std::optional<SessionRecord>> find_session(const Sha256& id_hash,
                                                    std::int64_t now) override {
    static const std::string& kSql = *new std::string(
        fmt::format("SELECT s.csrf_secret, s.created_at, s.last_seen_at, s.expires_at, {} "
                    "FROM web_sessions s JOIN users u ON u.id = s.user_id "
                    "JOIN plans p ON p.name = u.plan WHERE s.id_hash = $1 AND s.expires_at > $2",
                    kUserColumns));
    std::optional<SessionRecord> session;
    Status status = rows(kSql, Params().add(id_hash).add(now), [&](const Rows& r) {
      if (r.empty()) return;
      SessionRecord s;
      s.id_hash = id_hash;
      s.csrf_secret = r.text(0, 0);
      s.created_at = r.int64(0, 1);
      s.last_seen_at = r.int64(0, 2);
      s.expires_at = r.int64(0, 3);
      s.user = read_user(r, 0, 4);
      session = std::move(s);
    });
    if (!status.ok()) return status;
    return session;
  }

  Status touch_session(const Sha256& id_hash, std::int64_t now, std::int64_t expires_at) override {
    return exec("UPDATE web_sessions SET last_seen_at = $1, expires_at = $2 WHERE id_hash = $3",
                Params().add(now).add(expires_at).add(id_hash));
  }

  Result<bool> delete_session(const Sha256& id_hash) override {
    Result<int> n = changes("DELETE FROM web_sessions WHERE id_hash = $1", Params().add(id_hash));
    if (!n.ok()) return n.status();
    return *n > 0;
  }

  Result<int> delete_user_sessions(std::int64_t user_id) override {
    return changes("DELETE FROM web_sessions WHERE user_id = $1", Params().add(user_id));
  }

  Result<int> purge_sessions(std::int64_t now) override {
    return changes("DELETE FROM web_sessions WHERE expires_at <= $1", Params().add(now));
  }

  Result<std::optional<Credentials>> find_credentials(const std::string& email) override {
    static const std::string& kSql = *new std::string(
        fmt::format("SELECT u.password_hash, {} FROM users u JOIN plans p ON p.name = u.plan "
                    "WHERE lower(u.email) = lower($1)",
                    kUserColumns));
    std::optional<Credentials> found;
    Status status = rows(kSql, Params().add(email), [&](const Rows& r) {
      if (r.empty()) return;
      Credentials c;
      c.password_hash = r.opt_text(0, 0);
      c.user = read_user(r, 0, 1);
      found = std::move(c);
    });
    if (!status.ok()) return status;
    return found;
  }

  Result<std::int64_t> login_failures(const std::string& key, std::int64_t now,
                                      std::int64_t window) override {
    std::int64_t count = 0;
    Status status = rows("SELECT count FROM login_failures WHERE key = $1 AND window_start > $2",
                         Params().add(key).add(now - window), [&](const Rows& r) {
                           if (!r.empty()) count = r.int64(0, 0);
                         });
    if (!status.ok()) return status;
    return count;
  }

  Result<std::int64_t> record_login_failure(const std::string& key, std::int64_t now,
                                            std::int64_t window) override {
    std::int64_t count = 0;
    // One statement: concurrent failures on every process count once each,
    // and a window that ended starts over at 1.
    Status status = rows(
        "INSERT INTO login_failures AS f (key, window_start, count) VALUES ($1, $2, 1) "
        "ON CONFLICT (key) DO UPDATE SET "
        "count = CASE WHEN f.window_start > $2 - $3 THEN f.count + 1 ELSE 1 END, "
        "window_start = CASE WHEN f.window_start > $2 - $3 THEN f.window_start ELSE $2 END "
        "RETURNING count",
        Params().add(key).add(now).add(window), [&](const Rows& r) {
          if (!r.empty()) count = r.int64(0, 0);
        });
    if (!status.ok()) return status;
    return count;
  }

  Status clear_login_failures(const std::string& key) override {
    return exec("DELETE FROM login_failures WHERE key = $1", Params().add(key));
  }

  Result<std::vector<TokenInfo>> list_tokens(std::int64_t user_id) override {
    std::vector<TokenInfo> tokens;
    Status status = rows(
        "SELECT id, name, abilities, created_at, last_used_at, expires_at, revoked_at "
        "FROM tokens WHERE user_id = $1 ORDER BY id DESC",
        Params().add(user_id), [&](const Rows& r) {
          for (int i = 0; i < r.size(); ++i) {
            TokenInfo t;
            t.id = r.int64(i, 0);
            t.name = r.text(i, 1);
            t.abilities = split_abilities(r.text(i, 2));
            t.created_at = r.int64(i, 3);
            t.last_used_at = r.opt_int64(i, 4);
            t.expires_at = r.opt_int64(i, 5);
            t.revoked_at = r.opt_int64(i, 6);
            tokens.push_back(std::move(t));
          }
        });
    if (!status.ok()) return status;
    return tokens;
  }

  // The tokens trigger notifies every other process (their token caches).
  Result<bool> revoke_token_by_id(std::int64_t user_id, std::int64_t token_id,
                                  std::int64_t now) override {
    Result<int> n = changes(
        "UPDATE tokens SET revoked_at = $1 WHERE id = $2 AND user_id = $3 AND "
        "revoked_at IS NULL",
        Params().add(now).add(token_id).add(user_id));
    if (!n.ok()) return n.status();
    if (*n > 0) db_.auth_changed();
    return *n > 0;
  }

  Result<bool> take_client_unit(const std::string& client, const std::string& day,
                                std::int64_t limit) override {
    // Counted only while under the limit: one atomic statement.
    Result<int> n = changes(
        "INSERT INTO client_usage_daily AS d (client, day, count) "
        "SELECT $1, $2, 1 WHERE $3::bigint > 0 "
        "ON CONFLICT (client, day) DO UPDATE SET count = d.count + 1 "
        "WHERE d.count < $3::bigint",
        Params().add(client).add(day).add(limit));
    if (!n.ok()) return n.status();
    return *n > 0;
  }

  Status give_back_client_unit(const std::string& client, const std::string& day) override {
    return exec(
        "UPDATE client_usage_daily SET count = count - 1 WHERE client = $1 AND day = $2 AND "
        "count > 0",
        Params().add(client).add(day));
  }

 private:
  template <typename F>
  Status rows(const std::string& sql, const Params& params, F&& read) {
    return db_.run([&](Connection& c) -> Status {
      Result<Rows> r = c.query(sql, params);
      if (!r.ok()) return r.status();
      read(*r);
      return {};
    });
  }

  Status exec(const std::string& sql, const Params& params) {
    return rows(sql, params, [](const Rows&) {});
  }

  Result<int> changes(const std::string& sql, const Params& params) {
    int changed = 0;
    Status status =
        rows(sql, params, [&](const Rows& r) { changed = static_cast<int>(r.affected()); });
    if (!status.ok()) return status;
    return changed;
  }

  Executor& db_;
};

}  // namespace

std::unique_ptr<WebStore> make_web_store(Executor& executor) {
  return std::make_unique<PgWebStore>(executor);
}

}  // namespace scamcheck::server::pg
