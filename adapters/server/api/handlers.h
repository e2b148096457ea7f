// The handlers of the route table, one file per area: handlers_scan.cc
// (POST /api/v1/scan), handlers_reports.cc (list, get, delete),
// handlers_meta.cc (/health, /docs/api).
#ifndef SCAMCHECK_ADAPTERS_SERVER_API_HANDLERS_H_
#define SCAMCHECK_ADAPTERS_SERVER_API_HANDLERS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "auth/quota.h"
#include "scamcheck/report.h"
#include "storage/store.h"

namespace scamcheck::server {

class App;
struct Exchange;

// The columns every stored scan report has (the caller adds the rest).
StoredReport stored_report(const Report& report, std::int64_t user_id);

// Stores `stored` and answers 200 with its Report JSON and
// X-RateLimit-Remaining: `remaining`; when the store fails, calls
// give_back() and answers 503.
void store_and_answer(App& app, const std::shared_ptr<Exchange>& exchange, StoredReport stored,
                      std::string remaining, std::function<void()> give_back);

// Whether a scan may go on under `decision`. If not, it has answered: 503
// when the allowance could not be read, 429 (with X-RateLimit-Remaining)
// when the day's allowance is used up.
bool admitted(const App& app, Exchange& ex, const Result<QuotaDecision>& decision);

void handle_scan(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_list_reports(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_get_report(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_delete_report(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_health(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_openapi(App& app, const std::shared_ptr<Exchange>& exchange);

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_API_HANDLERS_H_
