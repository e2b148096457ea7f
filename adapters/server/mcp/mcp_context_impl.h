// The MCP caller as scamcheckd sees it (common/mcp_context.h): the user of
// the bearer token that sent the request. Tool scans run the scan flow of
// POST /api/v1/scan (api/scan_flow.h) — the URL cache, the user's
// DailyQuota bucket and the durable store — so a scan through MCP is one of
// the user's reports, counted once, listed by GET /api/v1/reports
// (CONTRACT §5).
//
// One context serves one HTTP request, on a worker thread: its members
// block until the store has the report durable, so they never run on an
// I/O thread.
#ifndef SCAMCHECK_ADAPTERS_SERVER_MCP_MCP_CONTEXT_IMPL_H_
#define SCAMCHECK_ADAPTERS_SERVER_MCP_MCP_CONTEXT_IMPL_H_

#include <string>
#include <string_view>
#include <vector>

#include "app.h"
#include "common/mcp_context.h"

namespace scamcheck::server {

class ServerMcpContext final : public adapters::McpContext {
 public:
  // `token` is the authenticated caller's; `preferred_locale` the
  // Accept-Language tag ("" when none). All must outlive the context.
  ServerMcpContext(App& app, const TokenRecord& token, std::string preferred_locale,
                   std::string request_id)
      : app_(app),
        token_(token),
        preferred_locale_(std::move(preferred_locale)),
        request_id_(std::move(request_id)) {}

  bool has_ability(std::string_view ability) const override;
  std::string preferred_locale() const override { return preferred_locale_; }

  // Like POST /api/v1/scan: a repeated URL scan within 24 h comes from the
  // cache and is not counted; otherwise one unit of the daily bucket is
  // reserved, given back when the analysis or the store fails.
  Result<Report> scan(const Analyzer& analyzer, const adapters::McpScanRequest& request) override;
  // Counts and stores a report made by the tool itself (scan_qr).
  Status record(const Report& report, const adapters::McpScanRequest& request) override;

  Result<std::vector<std::string>> recent_reports(int limit) override;
  Result<std::optional<std::string>> find_report(std::string_view id) override;
  void log_failure(std::string_view tool, const Status& status) override;

 protected:
  // Unused: scan() and record() are overridden whole.
  Status save(const Report& report, const adapters::McpScanRequest& request) override;

 private:
  // Stores the report as the caller's and waits until it is durable (or
  // failed). `counted`/`day`: how it counts against the bucket.
  Status store(const Report& report, const adapters::McpScanRequest& request, bool counted,
               const std::string& day);

  App& app_;
  const TokenRecord& token_;
  std::string preferred_locale_;
  std::string request_id_;
};

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_MCP_MCP_CONTEXT_IMPL_H_
