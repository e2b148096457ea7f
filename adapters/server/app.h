// App: what every handler shares (the analyzer, the store, catalogs,
// the daily allowance), and Exchange: one request in flight.
#ifndef SCAMCHECK_ADAPTERS_SERVER_APP_H_
#define SCAMCHECK_ADAPTERS_SERVER_APP_H_

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "auth/quota.h"
#include "auth/rate_limits.h"
#include "http/catalog.h"
#include "http/http_types.h"
#include "http/problems.h"
#include "http/route_table.h"
#include "scamcheck/scamcheck.h"
#include "storage/store.h"

namespace scamcheck::server {

class CheckApi;
class McpEndpoint;
class FileScanPool;

struct AppOptions {
  bool retain_content = false;  // --retain-content: store submitted content too
  ApiMinuteLimits api_limits;   // the scan API's per-minute allowances per plan
};

class App {
 public:
  App(const Analyzer& analyzer, Store& store, std::shared_ptr<const Catalog> catalog,
      AppOptions options);

  const Analyzer& analyzer() const { return analyzer_; }
  Store& store() { return store_; }
  const Catalog& catalog() const { return *catalog_; }
  DailyQuota& quota() { return quota_; }
  // The per-minute windows of the scan API (keys "v1scan:u:ID", "v1read:u:ID").
  MinuteLimiter& api_minutes() { return api_minutes_; }
  const AppOptions& options() const { return options_; }
  // The OpenAPI document, generated once from the route table.
  const std::string& openapi_json() const { return openapi_json_; }
  // The MCP endpoint (mcp_http.h); null when it is not served.
  McpEndpoint* mcp() const { return mcp_; }
  void set_mcp(McpEndpoint* endpoint) { mcp_ = endpoint; }
  // The check API (check_api.h); null when it is not served.
  CheckApi* check_api() const { return check_api_; }
  void set_check_api(CheckApi* api) { check_api_ = api; }
  // The pool image and document scans run on (file_scans.h); null when
  // uploads are not served.
  FileScanPool* file_scans() const { return file_scans_; }
  void set_file_scans(FileScanPool* pool) { file_scans_ = pool; }
  // The pool JSON scans run on when the analyzer calls out to an AI
  // provider or a reputation service; null: on the I/O thread.
  FileScanPool* provider_scans() const { return provider_scans_; }
  void set_provider_scans(FileScanPool* pool) { provider_scans_ = pool; }

 private:
  const Analyzer& analyzer_;
  Store& store_;
  std::shared_ptr<const Catalog> catalog_;
  DailyQuota quota_;
  MinuteLimiter api_minutes_;
  AppOptions options_;
  std::string openapi_json_;
  McpEndpoint* mcp_ = nullptr;
  CheckApi* check_api_ = nullptr;
  FileScanPool* file_scans_ = nullptr;
  FileScanPool* provider_scans_ = nullptr;
};

// One request in flight, shared by the router and its handler until the
// response is sent.
struct Exchange {
  Request request;
  const RouteSpec* route = nullptr;
  std::string request_id;
  std::string accept_language;  // the preferred tag of Accept-Language, may be ""
  std::string locale;           // catalog locale for problem texts
  std::unordered_map<std::string, std::string> path_params;
  std::unordered_map<std::string, std::string> query;  // percent-decoded
  std::optional<TokenRecord> token;                    // set when the route needs one
  std::chrono::steady_clock::time_point started;
  Reply reply;

  ProblemContext problem_context(const Catalog& catalog) const {
    return {catalog, locale, request_id};
  }
  // Sends `response` with X-Request-ID added, and logs the request. Once.
  void respond(Response response);
};

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_APP_H_
