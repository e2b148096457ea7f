// The check API's storage on SQLite (CheckStore, store.h): checks and their
// leased jobs, the anonymous daily allowance, webhook secrets, plans and
// questionnaire responses. Writes go through the store's writer thread,
// reads through its reader pool (sqlite_db.h).
#include <simdjson.h>

#include "common/report_json.h"
#include "ids.h"
#include "storage/shared_columns.h"
#include "storage/sqlite/sqlite_db.h"

namespace scamcheck::server::sqlite {
namespace {

std::optional<std::string> opt_text(const Query& q, int col) {
  if (q.is_null(col)) return std::nullopt;
  return q.text(col);
}

// Reads kCheckColumns.
CheckRecord read_check(const Query& q) {
  CheckRecord c;
  c.uuid = q.text(0);
  c.user_id = q.opt_int64(1);
  c.type = q.text(2);
  c.content = q.text(3);
  c.url = opt_text(q, 4);
  c.locale = q.text(5);
  c.status = q.text(6);
  c.webhook_status = q.text(7);
  c.via_workflow = q.int64(8) != 0;
  c.risk_level = opt_text(q, 9);
  if (!q.is_null(10)) c.risk_score = static_cast<int>(q.int64(10));
  c.explanation = opt_text(q, 11);
  c.indicators = indicators_from_json(q.text(12));
  c.source = opt_text(q, 13);
  c.created_at = q.int64(14);
  c.completed_at = q.opt_int64(15);
  c.deadline = q.int64(16);
  c.dispatched_at = q.opt_int64(17);
  c.attempts = static_cast<int>(q.int64(18));
  return c;
}

// A Status-returning read of one optional row.
template <typename T, typename F>
Result<std::optional<T>> read_one(Executor& db, const std::string& sql, F&& bind_and_read) {
  std::optional<T> out;
  Status status = db.read([&](Connection& c) -> Status {
    Query q(c, sql);
    return bind_and_read(q, &out);
  });
  if (!status.ok()) return status;
  return out;
}

UsageTotals read_totals(Query& q) {
  UsageTotals t;
  t.today = q.int64(0);
  t.this_month = q.int64(1);
  t.all_time = q.int64(2);
  return t;
}

class SqliteCheckStore final : public CheckStore {
 public:
  explicit SqliteCheckStore(Executor& db) : db_(db) {}

  void insert_check(NewCheck check, std::function<void(Status)> done) override {
    auto shared = std::make_shared<NewCheck>(std::move(check));
    db_.write(
        [shared](Connection& c) -> Status {
          const NewCheck& n = *shared;
          const CheckRecord& r = n.check;
          if (r.user_id) {
            Query q(c,
                    "INSERT INTO usage_daily (user_id, day, count) VALUES (?, ?, 1) "
                    "ON CONFLICT (user_id, day) DO UPDATE SET count = count + 1");
            q.bind(1, *r.user_id).bind(2, n.usage_day);
            if (Status s = q.run(); !s.ok()) return s;
          } else {
            // Counted only while under the allowance: one atomic statement,
            // so concurrent creations (and other processes) cannot overshoot.
            Query q(c,
                    "INSERT INTO client_usage_daily (client, day, count) "
                    "SELECT ?1, ?2, 1 WHERE ?3 > 0 "
                    "ON CONFLICT (client, day) DO UPDATE SET count = count + 1 "
                    "WHERE client_usage_daily.count < ?3");
            q.bind(1, n.client).bind(2, n.usage_day).bind(3, n.anonymous_limit);
            if (Status s = q.run(); !s.ok()) return s;
            if (sqlite3_changes(c.db) == 0) {
              return Status::resource_exhausted("anonymous daily allowance used up");
            }
          }
          Query q(c,
                  "INSERT INTO checks (uuid, user_id, client, type, content, url, locale, "
                  "status, webhook_status, via_workflow, created_ms, deadline_ms, run_at_ms) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?, 'processing', 'processing', ?, ?, ?, ?)");
          q.bind(1, r.uuid).bind(2, r.user_id).bind(3, n.client).bind(4, r.type);
          q.bind_blob(5, r.content).bind(6, r.url).bind(7, r.locale);
          q.bind(8, std::int64_t{r.via_workflow ? 1 : 0}).bind(9, r.created_at);
          q.bind(10, r.deadline).bind(11, r.created_at);
          return q.run();
        },
        std::move(done));
  }

  Result<std::optional<CheckRecord>> get_check(const std::string& uuid) override {
    static const std::string kSql =
        fmt::format("SELECT {} FROM checks WHERE uuid = ?", kCheckColumns);
    return read_one<CheckRecord>(db_, kSql, [&](Query& q, std::optional<CheckRecord>* out) {
      q.bind(1, uuid);
      const int rc = q.step();
      if (rc == SQLITE_ROW) *out = read_check(q);
      return rc == SQLITE_ROW || rc == SQLITE_DONE ? Status() : q.status();
    });
  }

  Result<std::optional<std::int64_t>> next_job_due() override {
    return read_one<std::int64_t>(
        db_,
        "SELECT min(max(run_at_ms, coalesce(lease_until_ms, 0))) FROM checks "
        "WHERE status = 'processing'",
        [](Query& q, std::optional<std::int64_t>* out) {
          if (q.step() != SQLITE_ROW) return q.status();
          *out = q.opt_int64(0);
          return Status();
        });
  }

  Result<std::optional<CheckRecord>> claim_job(const std::string& worker, std::int64_t now,
                                               std::int64_t lease) override {
    std::optional<CheckRecord> claimed;
    Status status = db_.write_sync([&](Connection& c) -> Status {
      // The condition is repeated outside the subquery so that, on a
      // database that runs statements concurrently (PostgreSQL, READ
      // COMMITTED), a row another process claimed first is not taken.
      static const std::string& kSql = *new std::string(fmt::format(
          "UPDATE checks SET claimed_by = ?1, lease_until_ms = ?2, attempts = attempts + 1 "
          "WHERE uuid = (SELECT uuid FROM checks WHERE status = 'processing' AND "
          "run_at_ms <= ?3 AND (lease_until_ms IS NULL OR lease_until_ms <= ?3) "
          "ORDER BY run_at_ms LIMIT 1) AND status = 'processing' AND "
          "(lease_until_ms IS NULL OR lease_until_ms <= ?3) RETURNING {}",
          kCheckColumns));
      Query q(c, kSql);
      q.bind(1, worker).bind(2, now + lease).bind(3, now);
      const int rc = q.step();
      if (rc == SQLITE_ROW) claimed = read_check(q);
      return rc == SQLITE_ROW || rc == SQLITE_DONE ? Status() : q.status();
    });
    if (!status.ok()) return status;
    return claimed;
  }

  Status mark_dispatched(const std::string& uuid, const std::string& worker,
                         std::int64_t now) override {
    return db_.write_sync([&](Connection& c) -> Status {
      Query q(c,
              "UPDATE checks SET dispatched_ms = ?1, run_at_ms = deadline_ms, claimed_by = NULL, "
              "lease_until_ms = NULL WHERE uuid = ?2 AND claimed_by = ?3 AND "
              "status = 'processing'");
      q.bind(1, now).bind(2, uuid).bind(3, worker);
      return q.run();
    });
  }

  Result<CompleteOutcome> complete_check(const std::string& uuid, const CheckResult& result,
                                         std::int64_t now, bool retain_content) override {
    CompleteOutcome outcome = CompleteOutcome::kNotFound;
    Status status = db_.write_sync([&](Connection& c) -> Status {
      Query q(c,
              "UPDATE checks SET status = 'completed', webhook_status = 'completed', "
              "risk_level = ?1, risk_score = ?2, explanation = ?3, indicators = ?4, source = ?5, "
              "completed_ms = ?6, claimed_by = NULL, lease_until_ms = NULL, client = '', "
              "content = CASE WHEN ?7 THEN content ELSE NULL END "
              "WHERE uuid = ?8 AND status = 'processing'");
      q.bind(1, result.risk_level).bind(2, std::int64_t{result.risk_score});
      q.bind(3, result.explanation).bind(4, indicators_to_json(result.indicators));
      q.bind(5, result.source).bind(6, now).bind(7, std::int64_t{retain_content ? 1 : 0});
      q.bind(8, uuid);
      if (Status s = q.run(); !s.ok()) return s;
      if (sqlite3_changes(c.db) > 0) {
        outcome = CompleteOutcome::kCompleted;
        return {};
      }
      Query exists(c, "SELECT 1 FROM checks WHERE uuid = ?");
      exists.bind(1, uuid);
      const int rc = exists.step();
      if (rc == SQLITE_ROW) outcome = CompleteOutcome::kAlreadyFinished;
      return rc == SQLITE_ROW || rc == SQLITE_DONE ? Status() : exists.status();
    });
    if (!status.ok()) return status;
    return outcome;
  }

  Status fail_check(const std::string& uuid, std::int64_t now, bool retain_content) override {
    return db_.write_sync([&](Connection& c) -> Status {
      Query q(c,
              "UPDATE checks SET status = 'failed', webhook_status = 'failed', completed_ms = ?1, "
              "claimed_by = NULL, lease_until_ms = NULL, client = '', "
              "content = CASE WHEN ?2 THEN content ELSE NULL END "
              "WHERE uuid = ?3 AND status = 'processing'");
      q.bind(1, now).bind(2, std::int64_t{retain_content ? 1 : 0}).bind(3, uuid);
      return q.run();
    });
  }

  Result<int> release_expired_leases(std::int64_t now) override {
    int released = 0;
    Status status = db_.write_sync([&](Connection& c) -> Status {
      Query q(c,
              "UPDATE checks SET claimed_by = NULL, lease_until_ms = NULL "
              "WHERE status = 'processing' AND lease_until_ms IS NOT NULL AND "
              "lease_until_ms <= ?");
      q.bind(1, now);
      if (Status s = q.run(); !s.ok()) return s;
      released = sqlite3_changes(c.db);
      return {};
    });
    if (!status.ok()) return status;
    return released;
  }

  Result<UsageTotals> user_usage(std::int64_t user_id, const std::string& day) override {
    UsageTotals totals;
    Status status = db_.read([&](Connection& c) -> Status {
      Query q(c,
              "SELECT coalesce(sum(CASE WHEN day = ?2 THEN count END), 0), "
              "coalesce(sum(CASE WHEN substr(day, 1, 7) = substr(?2, 1, 7) THEN count END), 0), "
              "coalesce(sum(count), 0) FROM usage_daily WHERE user_id = ?1");
      q.bind(1, user_id).bind(2, day);
      if (q.step() != SQLITE_ROW) return q.status();
      totals = read_totals(q);
      return {};
    });
    if (!status.ok()) return status;
    return totals;
  }

  Result<UsageTotals> client_usage(const std::string& client, const std::string& day) override {
    UsageTotals totals;
    Status status = db_.read([&](Connection& c) -> Status {
      Query q(c,
              "SELECT coalesce(sum(CASE WHEN day = ?2 THEN count END), 0), "
              "coalesce(sum(CASE WHEN substr(day, 1, 7) = substr(?2, 1, 7) THEN count END), 0), "
              "coalesce(sum(count), 0) FROM client_usage_daily WHERE client = ?1");
      q.bind(1, client).bind(2, day);
      if (q.step() != SQLITE_ROW) return q.status();
      totals = read_totals(q);
      return {};
    });
    if (!status.ok()) return status;
    return totals;
  }

  Result<std::optional<UserProfile>> user_profile(std::int64_t user_id) override {
    return read_one<UserProfile>(
        db_, "SELECT email_verified_at, created_at FROM users WHERE id = ?",
        [&](Query& q, std::optional<UserProfile>* out) {
          q.bind(1, user_id);
          const int rc = q.step();
          if (rc == SQLITE_ROW) {
            UserProfile p;
            p.email_verified_at = q.opt_int64(0);
            p.created_at = q.int64(1);
            p.updated_at = p.created_at;
            *out = p;
          }
          return rc == SQLITE_ROW || rc == SQLITE_DONE ? Status() : q.status();
        });
  }

  Status sync_plans(const std::vector<PlanRow>& plans) override {
    Status status = db_.write_sync([&](Connection& c) -> Status {
      for (const PlanRow& p : plans) {
        Query q(c,
                "INSERT INTO plans (name, display_name, checks_per_day) VALUES (?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET display_name = excluded.display_name, "
                "checks_per_day = excluded.checks_per_day");
        q.bind(1, p.name).bind(2, p.display_name).bind(3, p.checks_per_day);
        if (Status s = q.run(); !s.ok()) return s;
      }
      return {};
    });
    if (status.ok()) db_.auth_changed();
    return status;
  }

  Result<std::vector<std::string>> webhook_secrets() override {
    std::vector<std::string> secrets;
    Status status = db_.read([&](Connection& c) -> Status {
      Query q(c,
              "SELECT value FROM settings WHERE key IN ('webhook_secret', "
              "'webhook_secret_previous') ORDER BY key");
      for (;;) {
        const int rc = q.step();
        if (rc == SQLITE_DONE) return {};
        if (rc != SQLITE_ROW) return q.status();
        secrets.push_back(q.text(0));
      }
    });
    if (!status.ok()) return status;
    return secrets;
  }

  Status rotate_webhook_secret(const std::string& secret) override {
    return db_.write_sync([&](Connection& c) -> Status {
      {
        Query q(c,
                "INSERT OR REPLACE INTO settings (key, value) SELECT 'webhook_secret_previous', "
                "value FROM settings WHERE key = 'webhook_secret'");
        if (Status s = q.run(); !s.ok()) return s;
      }
      Query q(c, "INSERT OR REPLACE INTO settings (key, value) VALUES ('webhook_secret', ?)");
      q.bind(1, secret);
      return q.run();
    });
  }

  Status ensure_webhook_secret(const std::string& secret) override {
    return db_.write_sync([&](Connection& c) -> Status {
      Query q(c,
              "INSERT INTO settings (key, value) VALUES ('webhook_secret', ?) "
              "ON CONFLICT (key) DO NOTHING");
      q.bind(1, secret);
      return q.run();
    });
  }

  Status insert_response(const QuestionnaireResponse& r) override {
    return db_.write_sync([&](Connection& c) -> Status {
      Query q(c,
              "INSERT INTO questionnaire_responses (uuid, slug, user_id, locale, started_at) "
              "VALUES (?, ?, ?, ?, ?)");
      q.bind(1, r.uuid).bind(2, r.slug).bind(3, r.user_id).bind(4, r.locale);
      q.bind(5, r.started_at);
      return q.run();
    });
  }

  Result<std::optional<QuestionnaireResponse>> get_response(const std::string& uuid) override {
    std::optional<QuestionnaireResponse> out;
    Status status = db_.read([&](Connection& c) -> Status {
      Query q(c,
              "SELECT uuid, slug, user_id, locale, started_at, completed_at, result "
              "FROM questionnaire_responses WHERE uuid = ?");
      q.bind(1, uuid);
      const int rc = q.step();
      if (rc == SQLITE_DONE) return {};
      if (rc != SQLITE_ROW) return q.status();
      QuestionnaireResponse r;
      r.uuid = q.text(0);
      r.slug = q.text(1);
      r.user_id = q.opt_int64(2);
      r.locale = q.text(3);
      r.started_at = q.int64(4);
      r.completed_at = q.opt_int64(5);
      r.result_json = opt_text(q, 6);
      Query a(c,
              "SELECT question_id, value FROM questionnaire_answers WHERE response_uuid = ? "
              "ORDER BY seq");
      a.bind(1, uuid);
      for (;;) {
        const int arc = a.step();
        if (arc == SQLITE_DONE) break;
        if (arc != SQLITE_ROW) return a.status();
        r.answers.emplace_back(a.text(0), a.text(1));
      }
      out = std::move(r);
      return {};
    });
    if (!status.ok()) return status;
    return out;
  }

  Result<bool> save_answers(
      const std::string& uuid,
      const std::vector<std::pair<std::string, std::string>>& answers) override {
    bool saved = false;
    Status status = db_.write_sync([&](Connection& c) -> Status {
      {
        Query q(c, "SELECT 1 FROM questionnaire_responses WHERE uuid = ? AND completed_at IS NULL");
        q.bind(1, uuid);
        const int rc = q.step();
        if (rc == SQLITE_DONE) return {};
        if (rc != SQLITE_ROW) return q.status();
      }
      for (const auto& [question, value] : answers) {
        Query q(c,
                "INSERT INTO questionnaire_answers (response_uuid, question_id, value, seq) "
                "VALUES (?1, ?2, ?3, (SELECT coalesce(max(seq), 0) + 1 FROM "
                "questionnaire_answers WHERE response_uuid = ?1)) "
                "ON CONFLICT (response_uuid, question_id) DO UPDATE SET value = excluded.value");
        q.bind(1, uuid).bind(2, question).bind(3, value);
        if (Status s = q.run(); !s.ok()) return s;
      }
      saved = true;
      return {};
    });
    if (!status.ok()) return status;
    return saved;
  }

  Result<bool> complete_response(const std::string& uuid, const std::string& result_json,
                                 std::int64_t now) override {
    bool completed = false;
    Status status = db_.write_sync([&](Connection& c) -> Status {
      Query q(c,
              "UPDATE questionnaire_responses SET completed_at = ?, result = ? "
              "WHERE uuid = ? AND completed_at IS NULL");
      q.bind(1, now).bind(2, result_json).bind(3, uuid);
      if (Status s = q.run(); !s.ok()) return s;
      completed = sqlite3_changes(c.db) > 0;
      return {};
    });
    if (!status.ok()) return status;
    return completed;
  }

 private:
  Executor& db_;
};

}  // namespace

std::unique_ptr<CheckStore> make_check_store(Executor& executor) {
  return std::make_unique<SqliteCheckStore>(executor);
}

}  // namespace scamcheck::server::sqlite
