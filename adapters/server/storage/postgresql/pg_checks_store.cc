// The check API's storage on PostgreSQL (CheckStore, store.h): checks and
// their leased jobs, the anonymous daily allowance, webhook secrets, plans
// and questionnaire responses, shared by every server process.
#include <fmt/format.h>
#include <simdjson.h>

#include "common/report_json.h"
#include "ids.h"
#include "storage/postgresql/pg_db.h"
#include "storage/shared_columns.h"

namespace scamcheck::server::pg {
namespace {

// Reads kCheckColumns of `row`.
CheckRecord read_check(const Rows& r, int row) {
  CheckRecord c;
  c.uuid = r.text(row, 0);
  c.user_id = r.opt_int64(row, 1);
  c.type = r.text(row, 2);
  c.content = r.is_null(row, 3) ? std::string() : r.bytes(row, 3);
  c.url = r.opt_text(row, 4);
  c.locale = r.text(row, 5);
  c.status = r.text(row, 6);
  c.webhook_status = r.text(row, 7);
  c.via_workflow = r.boolean(row, 8);
  c.risk_level = r.opt_text(row, 9);
  if (!r.is_null(row, 10)) c.risk_score = static_cast<int>(r.int64(row, 10));
  c.explanation = r.opt_text(row, 11);
  c.indicators =
      r.is_null(row, 12) ? std::vector<std::string>() : indicators_from_json(r.text(row, 12));
  c.source = r.opt_text(row, 13);
  c.created_at = r.int64(row, 14);
  c.completed_at = r.opt_int64(row, 15);
  c.deadline = r.int64(row, 16);
  c.dispatched_at = r.opt_int64(row, 17);
  c.attempts = static_cast<int>(r.int64(row, 18));
  return c;
}

UsageTotals read_totals(const Rows& r) {
  UsageTotals t;
  t.today = r.int64(0, 0);
  t.this_month = r.int64(0, 1);
  t.all_time = r.int64(0, 2);
  return t;
}

// Runs one statement on the pool; `on_rows` reads its result.
template <typename F>
Status query(Executor& db, const std::string& sql, const Params& params, F&& on_rows) {
  return db.run([&](Connection& c) -> Status {
    Result<Rows> r = c.query(sql, params);
    if (!r.ok()) return r.status();
    return on_rows(*r);
  });
}

class PgCheckStore final : public CheckStore {
 public:
  explicit PgCheckStore(Executor& db) : db_(db) {}

  void insert_check(NewCheck check, std::function<void(Status)> done) override {
    const CheckRecord& r = check.check;
    WriteOp op;
    if (r.user_id && !db_.counts_at_reservation()) {
      op.push_back(
          {"INSERT INTO usage_daily AS u (user_id, day, count) VALUES ($1, $2, 1) "
           "ON CONFLICT (user_id, day) DO UPDATE SET count = u.count + 1",
           Params().add(*r.user_id).add(check.usage_day), std::nullopt});
    }
    Params p;
    p.add(r.uuid).add(r.user_id).add(check.client).add(r.type).add_bytes(r.content).add(r.url);
    p.add(r.locale).add(r.via_workflow).add(r.created_at).add(r.deadline);
    if (r.user_id) {
      op.push_back(
          {"INSERT INTO checks (uuid, user_id, client, type, content, url, locale, "
           "status, webhook_status, via_workflow, created_ms, deadline_ms, run_at_ms) "
           "VALUES ($1, $2, $3, $4, $5, $6, $7, 'processing', 'processing', $8, $9, "
           "$10, $9)",
           std::move(p), std::nullopt});
    } else {
      // Counted only while under the allowance, and stored only when
      // counted: one atomic statement, so concurrent creations of every
      // process cannot overshoot.
      p.add(check.usage_day).add(check.anonymous_limit);
      op.push_back(
          {"WITH counted AS (INSERT INTO client_usage_daily AS d (client, day, count) "
           "SELECT $3, $11, 1 WHERE $12::bigint > 0 "
           "ON CONFLICT (client, day) DO UPDATE SET count = d.count + 1 "
           "WHERE d.count < $12::bigint RETURNING 1) "
           "INSERT INTO checks (uuid, user_id, client, type, content, url, locale, "
           "status, webhook_status, via_workflow, created_ms, deadline_ms, run_at_ms) "
           "SELECT $1, $2, $3, $4, $5, $6, $7, 'processing', 'processing', $8, $9, $10, "
           "$9 WHERE EXISTS (SELECT 1 FROM counted)",
           std::move(p), std::string("anonymous daily allowance used up")});
    }
    db_.write(std::move(op), std::move(done));
  }

  Result<std::optional<CheckRecord>> get_check(const std::string& uuid) override {
    static const std::string kSql =
        fmt::format("SELECT {} FROM checks WHERE uuid = $1", kCheckColumns);
    std::optional<CheckRecord> out;
    Status s = query(db_, kSql, Params().add(uuid), [&](const Rows& r) -> Status {
      if (!r.empty()) out = read_check(r, 0);
      return {};
    });
    if (!s.ok()) return s;
    return out;
  }

  Result<std::optional<std::int64_t>> next_job_due() override {
    std::optional<std::int64_t> out;
    Status s = query(db_,
                     "SELECT min(greatest(run_at_ms, coalesce(lease_until_ms, 0))) FROM checks "
                     "WHERE status = 'processing'",
                     Params(), [&](const Rows& r) -> Status {
                       out = r.opt_int64(0, 0);
                       return {};
                     });
    if (!s.ok()) return s;
    return out;
  }

  Result<std::optional<CheckRecord>> claim_job(const std::string& worker, std::int64_t now,
                                               std::int64_t lease) override {
    // SKIP LOCKED: processes claiming at once take different checks instead
    // of waiting on each other's row; the outer condition is checked again
    // on the locked row.
    static const std::string& kSql = *new std::string(fmt::format(
        "UPDATE checks SET claimed_by = $1, lease_until_ms = $2, attempts = attempts + 1 "
        "WHERE uuid = (SELECT uuid FROM checks WHERE status = 'processing' AND "
        "run_at_ms <= $3 AND (lease_until_ms IS NULL OR lease_until_ms <= $3) "
        "ORDER BY run_at_ms LIMIT 1 FOR UPDATE SKIP LOCKED) AND status = 'processing' AND "
        "(lease_until_ms IS NULL OR lease_until_ms <= $3) RETURNING {}",
        kCheckColumns));
    std::optional<CheckRecord> out;
    Status s = query(db_, kSql, Params().add(worker).add(now + lease).add(now),
                     [&](const Rows& r) -> Status {
                       if (!r.empty()) out = read_check(r, 0);
                       return {};
                     });
    if (!s.ok()) return s;
    return out;
  }

  Status mark_dispatched(const std::string& uuid, const std::string& worker,
                         std::int64_t now) override {
    return query(db_,
                 "UPDATE checks SET dispatched_ms = $1, run_at_ms = deadline_ms, "
                 "claimed_by = NULL, lease_until_ms = NULL WHERE uuid = $2 AND claimed_by = $3 "
                 "AND status = 'processing'",
                 Params().add(now).add(uuid).add(worker), [](const Rows&) -> Status { return {}; });
  }

  Result<CompleteOutcome> complete_check(const std::string& uuid, const CheckResult& result,
                                         std::int64_t now, bool retain_content) override {
    CompleteOutcome outcome = CompleteOutcome::kNotFound;
    // One statement: of two results arriving at once (a late workflow
    // result and the local fallback, on any processes) exactly one updates.
    Status s =
        query(db_,
              "WITH done AS (UPDATE checks SET status = 'completed', webhook_status = 'completed', "
              "risk_level = $1, risk_score = $2, explanation = $3, indicators = $4, source = $5, "
              "completed_ms = $6, claimed_by = NULL, lease_until_ms = NULL, client = '', "
              "content = CASE WHEN $7::boolean THEN content ELSE NULL END "
              "WHERE uuid = $8 AND status = 'processing' RETURNING 1) "
              "SELECT (SELECT count(*) FROM done), (SELECT count(*) FROM checks WHERE uuid = $8)",
              Params()
                  .add(result.risk_level)
                  .add(result.risk_score)
                  .add(result.explanation)
                  .add(indicators_to_json(result.indicators))
                  .add(result.source)
                  .add(now)
                  .add(retain_content)
                  .add(uuid),
              [&](const Rows& r) -> Status {
                if (r.int64(0, 0) > 0) {
                  outcome = CompleteOutcome::kCompleted;
                } else if (r.int64(0, 1) > 0) {
                  outcome = CompleteOutcome::kAlreadyFinished;
                }
                return {};
              });
    if (!s.ok()) return s;
    return outcome;
  }

  Status fail_check(const std::string& uuid, std::int64_t now, bool retain_content) override {
    return query(db_,
                 "UPDATE checks SET status = 'failed', webhook_status = 'failed', "
                 "completed_ms = $1, claimed_by = NULL, lease_until_ms = NULL, client = '', "
                 "content = CASE WHEN $2::boolean THEN content ELSE NULL END "
                 "WHERE uuid = $3 AND status = 'processing'",
                 Params().add(now).add(retain_content).add(uuid),
                 [](const Rows&) -> Status { return {}; });
  }

  Result<int> release_expired_leases(std::int64_t now) override {
    int released = 0;
    Status s = query(db_,
                     "UPDATE checks SET claimed_by = NULL, lease_until_ms = NULL "
                     "WHERE status = 'processing' AND lease_until_ms IS NOT NULL AND "
                     "lease_until_ms <= $1",
                     Params().add(now), [&](const Rows& r) -> Status {
                       released = static_cast<int>(r.affected());
                       return {};
                     });
    if (!s.ok()) return s;
    return released;
  }

  Result<UsageTotals> user_usage(std::int64_t user_id, const std::string& day) override {
    return totals(
        "SELECT coalesce(sum(count) FILTER (WHERE day = $2), 0), "
        "coalesce(sum(count) FILTER (WHERE substr(day, 1, 7) = substr($2, 1, 7)), 0), "
        "coalesce(sum(count), 0) FROM usage_daily WHERE user_id = $1",
        Params().add(user_id).add(day));
  }

  Result<UsageTotals> client_usage(const std::string& client, const std::string& day) override {
    return totals(
        "SELECT coalesce(sum(count) FILTER (WHERE day = $2), 0), "
        "coalesce(sum(count) FILTER (WHERE substr(day, 1, 7) = substr($2, 1, 7)), 0), "
        "coalesce(sum(count), 0) FROM client_usage_daily WHERE client = $1",
        Params().add(client).add(day));
  }

  Result<std::optional<UserProfile>> user_profile(std::int64_t user_id) override {
    std::optional<UserProfile> out;
    Status s = query(db_, "SELECT email_verified_at, created_at FROM users WHERE id = $1",
                     Params().add(user_id), [&](const Rows& r) -> Status {
                       if (r.empty()) return {};
                       UserProfile p;
                       p.email_verified_at = r.opt_int64(0, 0);
                       p.created_at = r.int64(0, 1);
                       p.updated_at = p.created_at;
                       out = p;
                       return {};
                     });
    if (!s.ok()) return s;
    return out;
  }

  Status sync_plans(const std::vector<PlanRow>& plans) override {
    return db_.transaction([&](Connection& c) -> Status {
      for (const PlanRow& p : plans) {
        // Only a real change is written (and notifies every process).
        Result<Rows> r = c.query(
            "INSERT INTO plans AS p (name, display_name, checks_per_day) VALUES ($1, $2, $3) "
            "ON CONFLICT (name) DO UPDATE SET display_name = excluded.display_name, "
            "checks_per_day = excluded.checks_per_day WHERE "
            "(p.display_name, p.checks_per_day) IS DISTINCT FROM "
            "(excluded.display_name, excluded.checks_per_day)",
            Params().add(p.name).add(p.display_name).add(p.checks_per_day));
        if (!r.ok()) return r.status();
      }
      return {};
    });
  }

  Result<std::vector<std::string>> webhook_secrets() override {
    std::vector<std::string> secrets;
    Status s = query(db_,
                     "SELECT value FROM settings WHERE key IN ('webhook_secret', "
                     "'webhook_secret_previous') ORDER BY key",
                     Params(), [&](const Rows& r) -> Status {
                       for (int i = 0; i < r.size(); ++i) secrets.push_back(r.text(i, 0));
                       return {};
                     });
    if (!s.ok()) return s;
    return secrets;
  }

  Status rotate_webhook_secret(const std::string& secret) override {
    return db_.transaction([&](Connection& c) -> Status {
      // The row lock orders rotations of several processes.
      Result<Rows> current =
          c.query("SELECT value FROM settings WHERE key = 'webhook_secret' FOR UPDATE");
      if (!current.ok()) return current.status();
      if (!current->empty()) {
        Result<Rows> r = c.query(
            "INSERT INTO settings (key, value) VALUES ('webhook_secret_previous', $1) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            Params().add(current->text(0, 0)));
        if (!r.ok()) return r.status();
      }
      Result<Rows> r = c.query(
          "INSERT INTO settings (key, value) VALUES ('webhook_secret', $1) "
          "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
          Params().add(secret));
      return r.ok() ? Status() : r.status();
    });
  }

  Status ensure_webhook_secret(const std::string& secret) override {
    return query(db_,
                 "INSERT INTO settings (key, value) VALUES ('webhook_secret', $1) "
                 "ON CONFLICT (key) DO NOTHING",
                 Params().add(secret), [](const Rows&) -> Status { return {}; });
  }

  Status insert_response(const QuestionnaireResponse& r) override {
    return query(db_,
                 "INSERT INTO questionnaire_responses (uuid, slug, user_id, locale, started_at) "
                 "VALUES ($1, $2, $3, $4, $5)",
                 Params().add(r.uuid).add(r.slug).add(r.user_id).add(r.locale).add(r.started_at),
                 [](const Rows&) -> Status { return {}; });
  }

  Result<std::optional<QuestionnaireResponse>> get_response(const std::string& uuid) override {
    std::optional<QuestionnaireResponse> out;
    Status s = db_.run([&](Connection& c) -> Status {
      Result<Rows> r = c.query(
          "SELECT uuid, slug, user_id, locale, started_at, completed_at, result "
          "FROM questionnaire_responses WHERE uuid = $1",
          Params().add(uuid));
      if (!r.ok()) return r.status();
      if (r->empty()) return {};
      QuestionnaireResponse q;
      q.uuid = r->text(0, 0);
      q.slug = r->text(0, 1);
      q.user_id = r->opt_int64(0, 2);
      q.locale = r->text(0, 3);
      q.started_at = r->int64(0, 4);
      q.completed_at = r->opt_int64(0, 5);
      q.result_json = r->opt_text(0, 6);
      Result<Rows> a = c.query(
          "SELECT question_id, value FROM questionnaire_answers WHERE response_uuid = $1 "
          "ORDER BY seq",
          Params().add(uuid));
      if (!a.ok()) return a.status();
      for (int i = 0; i < a->size(); ++i) q.answers.emplace_back(a->text(i, 0), a->text(i, 1));
      out = std::move(q);
      return {};
    });
    if (!s.ok()) return s;
    return out;
  }

  Result<bool> save_answers(
      const std::string& uuid,
      const std::vector<std::pair<std::string, std::string>>& answers) override {
    bool saved = false;
    Status s = db_.transaction([&](Connection& c) -> Status {
      // The row lock orders concurrent saves and a completion.
      Result<Rows> open = c.query(
          "SELECT 1 FROM questionnaire_responses WHERE uuid = $1 AND completed_at IS NULL "
          "FOR UPDATE",
          Params().add(uuid));
      if (!open.ok()) return open.status();
      if (open->empty()) return {};
      for (const auto& [question, value] : answers) {
        Result<Rows> r = c.query(
            "INSERT INTO questionnaire_answers (response_uuid, question_id, value, seq) "
            "VALUES ($1, $2, $3, (SELECT coalesce(max(seq), 0) + 1 FROM "
            "questionnaire_answers WHERE response_uuid = $1)) "
            "ON CONFLICT (response_uuid, question_id) DO UPDATE SET value = excluded.value",
            Params().add(uuid).add(question).add(value));
        if (!r.ok()) return r.status();
      }
      saved = true;
      return {};
    });
    if (!s.ok()) return s;
    return saved;
  }

  Result<bool> complete_response(const std::string& uuid, const std::string& result_json,
                                 std::int64_t now) override {
    bool completed = false;
    Status s = query(db_,
                     "UPDATE questionnaire_responses SET completed_at = $1, result = $2 "
                     "WHERE uuid = $3 AND completed_at IS NULL",
                     Params().add(now).add(result_json).add(uuid), [&](const Rows& r) -> Status {
                       completed = r.affected() > 0;
                       return {};
                     });
    if (!s.ok()) return s;
    return completed;
  }

 private:
  Result<UsageTotals> totals(const std::string& sql, const Params& params) {
    UsageTotals out;
    Status s = query(db_, sql, params, [&](const Rows& r) -> Status {
      out = read_totals(r);
      return {};
    });
    if (!s.ok()) return s;
    return out;
  }

  Executor& db_;
};

}  // namespace

std::unique_ptr<CheckStore> make_check_store(Executor& executor) {
  return std::make_unique<PgCheckStore>(executor);
}

}  // namespace scamcheck::server::pg
