#include "mcp/mcp_context_impl.h"

#include <future>
#include <memory>

#include "api/scan_flow.h"
#include "auth/auth.h"
#include "ids.h"
#include "logging.h"
#include "server_limits.h"

namespace scamcheck::server {
namespace {

// The allowance's answer as a tool sees it: a refusal is kResourceExhausted
// ("daily limit reached"), a store that does not answer kUnavailable.
Status refusal(const Result<QuotaDecision>& decision) {
  if (!decision.ok()) return Status::unavailable(decision.status().message());
  if (!decision->allowed) return Status::resource_exhausted(std::string(kAllowanceUsedUp));
  return Status();
}

}  // namespace

bool ServerMcpContext::has_ability(std::string_view ability) const {
  return server::has_ability(token_, ability);
}

Result<Report> ServerMcpContext::scan(const Analyzer& analyzer,
                                      const adapters::McpScanRequest& request) {
  ScanRequest scan;
  scan.kind = request.kind;
  scan.content = std::string(request.content);
  scan.locale = std::string(request.locale);
  scan.retain_content = app_.options().retain_content;
  // The store commits on its writer thread and calls back; this worker
  // thread waits for that (never an I/O thread: see mcp_http.cc).
  auto done = std::make_shared<std::promise<ScanOutcome>>();
  std::future<ScanOutcome> finished = done->get_future();
  run_scan_flow(app_, analyzer, token_.user, std::move(scan),
                [done](ScanOutcome outcome) { done->set_value(std::move(outcome)); });
  ScanOutcome outcome = finished.get();
  switch (outcome.step) {
    case ScanStep::kAllowance:
      if (outcome.decision) return outcome.status;  // used up
      [[fallthrough]];
    case ScanStep::kUrlCache:
    case ScanStep::kStore:
      return Status::unavailable(outcome.status.message());
    case ScanStep::kAnalysis:
      return outcome.status;
    case ScanStep::kDone:
      break;
  }
  return std::move(*outcome.report);
}

Status ServerMcpContext::record(const Report& report, const adapters::McpScanRequest& request) {
  const User& user = token_.user;
  Result<QuotaDecision> decision = app_.quota().reserve(user, unix_now());
  if (Status refused = refusal(decision); !refused.ok()) return refused;
  Status stored = store(report, request, true, decision->day);
  if (!stored.ok()) app_.quota().release(user.id, decision->day);
  return stored;
}

Status ServerMcpContext::store(const Report& report, const adapters::McpScanRequest& request,
                               bool counted, const std::string& day) {
  StoredReport stored = stored_report(report, token_.user.id);
  if (app_.options().retain_content) stored.content = std::string(request.content);
  stored.counted = counted;
  stored.usage_day = day;

  // As in scan(): wait here for the store's writer thread.
  auto done = std::make_shared<std::promise<Status>>();
  std::future<Status> result = done->get_future();
  app_.store().insert_report(std::move(stored),
                             [done](Status status) { done->set_value(std::move(status)); });
  Status status = result.get();
  if (!status.ok()) return Status::unavailable(status.message());
  return status;
}

Status ServerMcpContext::save(const Report& report, const adapters::McpScanRequest& request) {
  return store(report, request, false, utc_day(unix_now()));
}

Result<std::vector<std::string>> ServerMcpContext::recent_reports(int limit) {
  ReportQuery query;
  query.user_id = token_.user.id;
  query.limit = limit;
  Result<ReportPage> page = app_.store().list_reports(query);
  if (!page.ok()) return Status::unavailable(page.status().message());
  return std::move(page->reports_json);
}

Result<std::optional<std::string>> ServerMcpContext::find_report(std::string_view id) {
  if (!is_report_id(id)) return std::optional<std::string>();
  Result<std::optional<std::string>> found =
      app_.store().get_report(token_.user.id, std::string(id));
  if (!found.ok()) return Status::unavailable(found.status().message());
  return found;
}

void ServerMcpContext::log_failure(std::string_view tool, const Status& status) {
  LogLine(LogLevel::kError, "mcp_tool_failed")
      .field("request_id", request_id_)
      .field("tool", tool)
      .field("error", status.to_string());
}

}  // namespace scamcheck::server
