// The handlers of the check API (CONTRACT §3), its routes and their
// OpenAPI components: handlers_checks.cc (checks and the inbound workflow
// result), handlers_account.cc (user, plans, usage, avatars),
// handlers_questionnaires.cc, check_api_routes.cc (declarations).
#ifndef SCAMCHECK_ADAPTERS_SERVER_API_HANDLERS_CHECK_API_H_
#define SCAMCHECK_ADAPTERS_SERVER_API_HANDLERS_CHECK_API_H_

#include <memory>
#include <string_view>
#include <vector>

#include "common/report_json.h"
#include "http/route_table.h"

namespace scamcheck::server {

class App;
struct Exchange;

void handle_create_check(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_check_status(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_check_details(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_analysis_result(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_user(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_plans(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_user_plan(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_usage(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_can_perform(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_avatar(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_list_questionnaires(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_get_questionnaire(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_start_questionnaire(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_answer_questionnaire(App& app, const std::shared_ptr<Exchange>& exchange);
void handle_complete_questionnaire(App& app, const std::shared_ptr<Exchange>& exchange);

// Path parameter shapes.
bool is_avatar_file(std::string_view file);  // "<initials>.svg"
bool is_slug(std::string_view value);        // a-z, 0-9, "-"

// Appends the check API's routes (and the avatar route) to the table.
void add_check_api_routes(std::vector<RouteSpec>& routes);
// The responses a check-API route may give because of its declaration
// (the counterpart of implied_responses() for the scan API).
std::vector<ResponseSpec> implied_check_api_responses(const RouteSpec& route);

// The operation's `security`: optional tokens are [{}, {bearerAuth: []}].
void write_check_api_security(adapters::JsonWriter& w, const CheckApiRoute& route);

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_API_HANDLERS_CHECK_API_H_
