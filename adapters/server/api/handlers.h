// The handlers of the route table, one file per area: handlers_scan.cc
// (POST /api/v1/scan), handlers_reports.cc (list, get, delete),
// handlers_meta.cc (/health, /docs/api).
#ifndef SCAMCHECK_ADAPTERS_SERVER_API_HANDLERS_H_
#define SCAMCHECK_ADAPTERS_SERVER_API_HANDLERS_H_

#include <memory>

#include "api/scan_flow.h"
#include "http/http_types.h"
#include "scamcheck/status.h"

namespace scamcheck::server {

class App;
struct Exchange;

// Answers a scan by its outcome: 200 with the report, 503 when the store
// failed, 429 when the allowance is used up, `analysis_problem` when the
// library failed; X-RateLimit-Remaining on all but 503.
void answer_scan(const App& app, Exchange& ex, ScanOutcome outcome,
                 Response (*analysis_problem)(const App&, const Exchange&, const Status&));

void handle_scan(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_list_reports(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_get_report(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_delete_report(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_health(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_openapi(App& app, const std::shared_ptr<Exchange>& exchange);

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_API_HANDLERS_H_
