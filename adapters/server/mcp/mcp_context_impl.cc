#include "mcp/mcp_context_impl.h"

#include <future>
#include <memory>

#include "api/url_cache.h"
#include "auth/auth.h"
#include "common/report_json.h"
#include "ids.h"
#include "logging.h"
#include "server_limits.h"

namespace scamcheck::server {
namespace {

// The bucket's answer as a tool sees it: a refusal is kResourceExhausted
// ("daily limit reached"), a store that does not answer kUnavailable.
Status refusal(const Result<QuotaDecision>& decision) {
  if (!decision.ok()) return Status::unavailable(decision.status().message());
  if (!decision->allowed) return Status::resource_exhausted("the daily allowance is used up");
  return Status();
}

}  // namespace

bool ServerMcpContext::has_ability(std::string_view ability) const {
  return server::has_ability(token_, ability);
}

Result<Report> ServerMcpContext::scan(const Analyzer& analyzer,
                                      const adapters::McpScanRequest& request) {
  const User& user = token_.user;
  const std::int64_t now = unix_now();

  std::optional<std::string> cached;
  Sha256 cache_key{};
  if (request.kind == Kind::kUrl) {
    cache_key = url_cache_key(request.content);
    Result<std::optional<std::string>> hit =
        app_.store().url_cache_get(user.id, cache_key, now - kUrlCacheTtl.count());
    if (!hit.ok()) return Status::unavailable(hit.status().message());
    cached = std::move(*hit);
  }

  Result<QuotaDecision> decision =
      cached ? app_.quota().peek(user, now) : app_.quota().reserve(user, now);
  if (Status refused = refusal(decision); !refused.ok()) return refused;
  const bool counted = !cached;
  const std::string day = decision->day;
  const auto give_back = [&] {
    if (counted) app_.quota().release(user.id, day);
  };

  Result<Report> report = analyzer.analyze(request.content, request.kind, request.locale);
  if (!report.ok()) {
    give_back();
    return report;
  }
  std::optional<StoredReport::UrlCacheEntry> cache_entry;
  set_cached(&*report, cached.has_value());
  if (!cached && request.kind == Kind::kUrl) {
    cache_entry = StoredReport::UrlCacheEntry{cache_key, url_reputations_json(*report), now};
  }
  if (Status stored = store(*report, request, counted, day, std::move(cache_entry)); !stored.ok()) {
    give_back();
    return stored;
  }
  return report;
}

Status ServerMcpContext::record(const Report& report, const adapters::McpScanRequest& request) {
  const User& user = token_.user;
  Result<QuotaDecision> decision = app_.quota().reserve(user, unix_now());
  if (Status refused = refusal(decision); !refused.ok()) return refused;
  Status stored = store(report, request, true, decision->day, std::nullopt);
  if (!stored.ok()) app_.quota().release(user.id, decision->day);
  return stored;
}

Status ServerMcpContext::store(const Report& report, const adapters::McpScanRequest& request,
                               bool counted, const std::string& day,
                               std::optional<StoredReport::UrlCacheEntry> cache_entry) {
  StoredReport stored;
  stored.public_id = report.id;
  stored.user_id = token_.user.id;
  stored.kind = std::string(to_string(report.kind));
  stored.verdict = std::string(to_string(report.verdict));
  stored.created_at = report.created_at;
  stored.report_json = adapters::report_to_json(report);
  if (app_.options().retain_content) stored.content = std::string(request.content);
  stored.counted = counted;
  stored.usage_day = day;
  stored.url_cache = std::move(cache_entry);

  // The store commits on its writer thread and calls back; this worker
  // thread waits for that (never an I/O thread: see mcp_http.cc).
  auto done = std::make_shared<std::promise<Status>>();
  std::future<Status> result = done->get_future();
  app_.store().insert_report(std::move(stored),
                             [done](Status status) { done->set_value(std::move(status)); });
  Status status = result.get();
  if (!status.ok()) return Status::unavailable(status.message());
  return status;
}

Status ServerMcpContext::save(const Report& report, const adapters::McpScanRequest& request) {
  return store(report, request, false, utc_day(unix_now()), std::nullopt);
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
