#include "jobs/check_jobs.h"

#include <unistd.h>

#include <algorithm>

#include "ids.h"
#include "logging.h"

namespace scamcheck::server {
namespace {

std::string make_worker_id() {
  char host[256] = {0};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return std::string(host) + ":" + std::to_string(getpid()) + ":" + new_ulid();
}

// What the library analyses for a check.
struct AnalysisInput {
  std::string content;
  Kind kind = Kind::kText;
};

AnalysisInput analysis_input(const CheckRecord& check) {
  if (check.type == "email") return {check.content, Kind::kEmail};
  if (check.type == "link") {
    const std::string url = check.url.value_or("");
    // With context the message and its link are analysed together.
    if (check.content.empty()) return {url, Kind::kUrl};
    return {check.content + "\n" + url, Kind::kText};
  }
  return {check.content, Kind::kText};
}

}  // namespace

CheckResult check_result_from_report(const Report& report) {
  CheckResult r;
  r.risk_score = report.risk_score;
  r.risk_level = std::string(risk_level_for_score(report.risk_score));
  r.explanation = report.summary_plain;
  for (const Signal& s : report.signals) {
    if (std::find(r.indicators.begin(), r.indicators.end(), s.explanation) == r.indicators.end()) {
      r.indicators.push_back(s.explanation);
    }
  }
  r.source = "local";
  return r;
}

CheckJobs::CheckJobs(App& app, const CheckApiOptions& options)
    : app_(app),
      options_(options),
      lease_(std::clamp(options.analysis_timeout / 2, std::chrono::milliseconds(2000),
                        std::chrono::milliseconds(30000))),
      worker_id_(make_worker_id()) {
  if (!options.workflow_url.empty())
    workflow_ = std::make_unique<WorkflowClient>(options.workflow_url);
}

CheckJobs::~CheckJobs() { stop(); }

Status CheckJobs::start() {
  Result<int> released = app_.store().checks().release_expired_leases(unix_now_ms());
  if (!released.ok()) return released.status();
  if (*released > 0) {
    LogLine(LogLevel::kNotice, "check_leases_reclaimed").field("count", *released);
  }
  const unsigned n = std::max(1u, options_.workers);
  for (unsigned i = 0; i < n; ++i) threads_.emplace_back([this] { worker_loop(); });
  return {};
}

void CheckJobs::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  cv_.notify_all();
  for (std::thread& t : threads_) t.join();
  threads_.clear();
}

void CheckJobs::notify() {
  {
    std::lock_guard lock(mutex_);
    ++pending_;
  }
  cv_.notify_one();
}

void CheckJobs::worker_loop() {
  CheckStore& store = app_.store().checks();
  while (!stopping_) {
    std::chrono::milliseconds wait = kJobPollInterval;
    const std::int64_t now = unix_now_ms();
    Result<std::optional<std::int64_t>> due = store.next_job_due();
    if (!due.ok()) {
      LogLine(LogLevel::kError, "check_jobs_store_error").field("error", due.status().to_string());
    } else if (*due && **due <= now) {
      Result<std::optional<CheckRecord>> claimed = store.claim_job(worker_id_, now, lease_.count());
      if (!claimed.ok()) {
        LogLine(LogLevel::kError, "check_jobs_store_error")
            .field("error", claimed.status().to_string());
      } else if (*claimed) {
        run(**claimed);
        continue;
      }
    } else if (*due) {
      wait = std::min(wait, std::chrono::milliseconds(**due - now));
    }
    std::unique_lock lock(mutex_);
    cv_.wait_for(lock, wait, [this] { return stopping_ || pending_ > 0; });
    if (pending_ > 0) --pending_;
  }
}

void CheckJobs::run(const CheckRecord& check) {
  CheckStore& store = app_.store().checks();
  if (check.attempts > kMaxCheckAttempts) {
    LogLine(LogLevel::kError, "check_failed")
        .field("check_ref", credential_ref(check.uuid))
        .field("reason", "too many attempts")
        .field("attempts", check.attempts);
    if (Status s = store.fail_check(check.uuid, unix_now_ms(), options_.retain_content); !s.ok()) {
      LogLine(LogLevel::kError, "check_jobs_store_error").field("error", s.to_string());
    }
    return;
  }
  const std::int64_t now = unix_now_ms();
  if (check.via_workflow && !check.dispatched_at && now < check.deadline && workflow_) {
    Result<std::vector<std::string>> secrets = store.webhook_secrets();
    if (secrets.ok() && !secrets->empty()) {
      const std::string callback =
          options_.base_url + "/api/webhooks/analysis-result/" + secrets->front();
      const auto timeout = std::chrono::milliseconds(
          std::min({kMaxDispatchTimeout.count(), lease_.count() - 500, check.deadline - now}));
      const Status sent = workflow_->dispatch(check, callback, timeout, &stopping_);
      if (sent.ok()) {
        if (Status s = store.mark_dispatched(check.uuid, worker_id_, unix_now_ms()); !s.ok()) {
          LogLine(LogLevel::kError, "check_jobs_store_error").field("error", s.to_string());
        }
        LogLine(LogLevel::kInfo, "check_dispatched").field("check_ref", credential_ref(check.uuid));
        return;
      }
      if (stopping_) return;  // claimed again after the restart
      LogLine(LogLevel::kWarn, "workflow_dispatch_failed")
          .field("check_ref", credential_ref(check.uuid))
          .field("error", sent.message());
    } else {
      LogLine(LogLevel::kError, "check_jobs_store_error")
          .field("error", secrets.ok() ? "no webhook secret" : secrets.status().to_string());
    }
  }
  analyse_locally(check);
}

void CheckJobs::analyse_locally(const CheckRecord& check) {
  CheckStore& store = app_.store().checks();
  const AnalysisInput input = analysis_input(check);
  Result<Report> report = app_.analyzer().analyze(input.content, input.kind, check.locale);
  if (!report.ok()) {
    LogLine(LogLevel::kWarn, "check_failed")
        .field("check_ref", credential_ref(check.uuid))
        .field("error", report.status().to_string());
    if (Status s = store.fail_check(check.uuid, unix_now_ms(), options_.retain_content); !s.ok()) {
      LogLine(LogLevel::kError, "check_jobs_store_error").field("error", s.to_string());
    }
    return;
  }
  Result<CompleteOutcome> done = store.complete_check(check.uuid, check_result_from_report(*report),
                                                      unix_now_ms(), options_.retain_content);
  if (!done.ok()) {
    LogLine(LogLevel::kError, "check_jobs_store_error").field("error", done.status().to_string());
    return;
  }
  LogLine(LogLevel::kInfo, "check_completed")
      .field("check_ref", credential_ref(check.uuid))
      .field("source", "local")
      .field("risk_score", report->risk_score)
      .field("stored", static_cast<int>(*done == CompleteOutcome::kCompleted));
}

}  // namespace scamcheck::server
