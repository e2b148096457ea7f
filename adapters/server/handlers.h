// The handlers of the route table, one file per area: handlers_scan.cc
// (POST /api/v1/scan), handlers_reports.cc (list, get, delete),
// handlers_meta.cc (/health, /docs/api).
#ifndef SCAMCHECK_ADAPTERS_SERVER_HANDLERS_H_
#define SCAMCHECK_ADAPTERS_SERVER_HANDLERS_H_

#include <memory>

namespace scamcheck::server {

class App;
struct Exchange;

void handle_scan(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_list_reports(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_get_report(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_delete_report(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_health(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_openapi(App& app, const std::shared_ptr<Exchange>& exchange);

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_HANDLERS_H_
