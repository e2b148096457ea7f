// The check API's routes (CONTRACT §3) and their OpenAPI components.
#include <algorithm>

#include "api/check_api.h"
#include "api/handlers_check_api.h"

namespace scamcheck::server {
namespace {

constexpr char kJson[] = "application/json";
using Token = CheckApiRoute::Token;
using Limit = CheckApiRoute::Limit;

const std::vector<std::string> kPlainHeaders = {"X-Request-ID"};
const std::vector<std::string> kRateHeaders = {"X-Request-ID", "X-RateLimit-Limit",
                                               "X-RateLimit-Remaining", "X-RateLimit-Reset"};

ResponseSpec response(int status, std::string description, std::string schema,
                      std::vector<std::string> headers, std::string content_type = kJson) {
  ResponseSpec r;
  r.status = status;
  r.description = std::move(description);
  r.content_type = std::move(content_type);
  r.schema = std::move(schema);
  r.headers = std::move(headers);
  return r;
}

RouteSpec route(std::string method, std::string path, std::string operation_id, std::string tag,
                std::string summary, Token token, Limit limit, Handler handler) {
  RouteSpec r;
  r.method = std::move(method);
  r.path = std::move(path);
  r.operation_id = std::move(operation_id);
  r.tag = std::move(tag);
  r.summary = std::move(summary);
  r.check_api = CheckApiRoute{token, limit};
  r.handler = handler;
  return r;
}

ParamSpec path_param(std::string name, std::string description, std::string pattern,
                     bool (*check)(std::string_view)) {
  ParamSpec p;
  p.name = std::move(name);
  p.in = ParamIn::kPath;
  p.required = true;
  p.description = std::move(description);
  p.pattern = std::move(pattern);
  p.check = check;
  return p;
}

constexpr char kUuidPattern[] =
    "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

bool uuid_param(std::string_view v) { return is_uuid(v); }
bool secret_param(std::string_view v) { return !v.empty() && v.size() <= 256; }

const std::vector<std::string>& headers_for(const RouteSpec& r) {
  return r.check_api->limit == Limit::kNone ? kPlainHeaders : kRateHeaders;
}

}  // namespace

void add_check_api_routes(std::vector<RouteSpec>& routes) {
  const auto ok = [](const RouteSpec& r, int status, const char* description, const char* schema) {
    return response(status, description, schema, headers_for(r));
  };
  {
    RouteSpec r = route("GET", "/api/user", "getUser", "account", "The signed-in user",
                        Token::kRequired, Limit::kGeneral, &handle_user);
    r.description =
        "`email_verified_at` is null until the address is verified (users created with the "
        "operator CLI are verified). `profile_photo_url` is an SVG avatar with the user's "
        "initials on this server. `updated_at` is the creation time (users are not edited "
        "through the API).";
    r.responses = {ok(r, 200, "The user.", "User")};
    routes.push_back(std::move(r));
  }
  {
    RouteSpec r = route("POST", "/api/checks", "createCheck", "checks",
                        "Create a check; it is analysed in the background", Token::kOptional,
                        Limit::kGeneral, &handle_create_check);
    r.description =
        "Stores the check durably before answering 201 and analyses it in the background: "
        "with the library, or, when the server has an automation workflow, by the workflow "
        "(local analysis when it sends no result within the analysis timeout). Poll "
        "`/api/checks/{uuid}/status` until `is_complete` (or `has_failed`), then fetch the "
        "details. A check never stays `processing` longer than the analysis timeout (default "
        "60 s) plus one restart of the server.\n\n"
        "`type` `link` needs `url` (http or https) and takes `content` as optional context "
        "(analysed together with the link); `text` and `email` need `content` (at most 65,536 "
        "bytes after decoding; `content_encoding` `base64` sends raw bytes). Locale: `locale`, "
        "else `Accept-Language`, else `en`.\n\n"
        "Without a token the check is anonymous: readable by anyone holding its UUID, counted "
        "against the client address's 3 checks per day. With a token it belongs to the user "
        "and counts against the plan's daily allowance (shared with the scan API). Only "
        "created checks count. Refused with 429 when an allowance is used up (`retry_after`: "
        "seconds until it renews, 00:00 UTC for daily ones).\n\n"
        "Result mapping: `risk_level` from the library's verdict (safe -> safe, suspicious -> "
        "warning, danger -> danger), `risk_score` the score, `ai_explanation` the report's "
        "`summary_plain`, `ai_indicators` the explanations of its signals without repeats.";
    r.body = BodySpec{"The content to check.", {{kJson, "CheckCreateRequest"}}};
    r.responses = {ok(r, 201, "Created; analysis runs in the background.", "CheckCreated"),
                   ok(r, 422, "Invalid fields.", "CheckValidationError")};
    routes.push_back(std::move(r));
  }
  {
    RouteSpec r = route("GET", "/api/checks/{uuid}/status", "getCheckStatus", "checks",
                        "The state of a check (for polling)", Token::kOptional, Limit::kPolling,
                        &handle_check_status);
    r.description =
        "Polling has its own allowance (120 requests per minute per client), so a client "
        "polling every 2 seconds is never refused. A check created with a token is 404 for "
        "everyone else.";
    r.params = {path_param("uuid", "The check's UUID.", kUuidPattern, &uuid_param)};
    r.responses = {ok(r, 200, "The state.", "CheckStatus")};
    routes.push_back(std::move(r));
  }
  {
    RouteSpec r = route("GET", "/api/checks/{uuid}", "getCheck", "checks", "The details of a check",
                        Token::kOptional, Limit::kPolling, &handle_check_details);
    r.description =
        "Until the check is completed the result fields are null and `status` says why. "
        "Counts against the polling allowance.";
    r.params = {path_param("uuid", "The check's UUID.", kUuidPattern, &uuid_param)};
    r.responses = {ok(r, 200, "The check.", "CheckDetails")};
    routes.push_back(std::move(r));
  }
  {
    RouteSpec r = route("GET", "/api/plans", "listPlans", "account", "The active plans",
                        Token::kOptional, Limit::kGeneral, &handle_plans);
    r.description =
        "Prices in EUR as decimal strings. `checks_per_day` is -1 when `unlimited_checks`; the "
        "business plan is metered (`metered_price_per_1000`).";
    r.responses = {ok(r, 200, "The plans.", "PlanList")};
    routes.push_back(std::move(r));
  }
  {
    RouteSpec r = route("GET", "/api/user/plan", "getUserPlan", "account",
                        "The signed-in user's plan and usage", Token::kRequired, Limit::kGeneral,
                        &handle_user_plan);
    r.description = "`remaining` (checks left today) is null when checks are unlimited.";
    r.responses = {ok(r, 200, "Plan and usage.", "CurrentPlan")};
    routes.push_back(std::move(r));
  }
  {
    RouteSpec r = route("GET", "/api/usage", "getUsage", "account", "Usage statistics",
                        Token::kOptional, Limit::kGeneral, &handle_usage);
    r.description =
        "Counted scans and check creations today, this month (UTC) and ever: of the user with "
        "a token, of the client address without one (plan `anonymous`). `remaining` and "
        "`limit` are -1 when `is_unlimited`.";
    r.responses = {ok(r, 200, "Usage.", "UsageStatistics")};
    routes.push_back(std::move(r));
  }
  {
    RouteSpec r = route("GET", "/api/usage/can-perform", "canPerform", "account",
                        "Whether an action is allowed now", Token::kOptional, Limit::kGeneral,
                        &handle_can_perform);
    r.description =
        "`check`: whether a check can be created under the daily allowance. `questionnaire`: "
        "starting one is not limited per day (always true, unlimited).";
    ParamSpec action;
    action.name = "action";
    action.required = true;
    action.description = "The action.";
    action.enum_values = {"check", "questionnaire"};
    r.params = {action};
    r.responses = {ok(r, 200, "The permission.", "ActionPermission")};
    routes.push_back(std::move(r));
  }
  {
    RouteSpec r = route("GET", "/api/questionnaires", "listQuestionnaires", "questionnaires",
                        "The active questionnaires", Token::kOptional, Limit::kGeneral,
                        &handle_list_questionnaires);
    r.description = "`estimated_duration` is in minutes. Texts in the request's locale.";
    r.responses = {ok(r, 200, "The questionnaires.", "QuestionnaireList")};
    routes.push_back(std::move(r));
  }
  const auto slug = path_param("slug", "The questionnaire's slug.", "^[a-z0-9-]{1,64}$", &is_slug);
  {
    RouteSpec r = route("GET", "/api/questionnaires/{slug}", "getQuestionnaire", "questionnaires",
                        "A questionnaire with its questions", Token::kOptional, Limit::kGeneral,
                        &handle_get_questionnaire);
    r.params = {slug};
    r.responses = {ok(r, 200, "The questionnaire.", "QuestionnaireDetail")};
    routes.push_back(std::move(r));
  }
  {
    RouteSpec r = route("POST", "/api/questionnaires/{slug}/start", "startQuestionnaire",
                        "questionnaires", "Start a questionnaire session", Token::kOptional,
                        Limit::kGeneral, &handle_start_questionnaire);
    r.description =
        "No body is needed; an optional JSON body `{locale}` sets the language of the result "
        "(else `Accept-Language`). A session started with a token belongs to that user.";
    r.params = {slug};
    r.responses = {ok(r, 201, "Started.", "QuestionnaireStarted")};
    routes.push_back(std::move(r));
  }
  const auto response_uuid =
      path_param("uuid", "The session's `response.uuid`.", kUuidPattern, &uuid_param);
  {
    RouteSpec r = route("POST", "/api/questionnaire-responses/{uuid}/answers",
                        "answerQuestionnaire", "questionnaires", "Answer questions",
                        Token::kOptional, Limit::kGeneral, &handle_answer_questionnaire);
    r.description =
        "Answers may come in several calls; a later answer to the same question replaces the "
        "earlier one. `value` is `yes`/`no` (or a boolean) for yes_no questions and an "
        "option's `value` for single_choice ones. 409 once the session is completed.";
    r.params = {response_uuid};
    r.body = BodySpec{"The answers.", {{kJson, "AnswersRequest"}}};
    r.responses = {ok(r, 200, "Progress.", "AnswersProgress"),
                   ok(r, 409, "The session is completed.", "Message"),
                   ok(r, 422, "Invalid answers.", "CheckValidationError")};
    routes.push_back(std::move(r));
  }
  {
    RouteSpec r =
        route("POST", "/api/questionnaire-responses/{uuid}/complete", "completeQuestionnaire",
              "questionnaires", "Complete a session and get the assessment", Token::kOptional,
              Limit::kGeneral, &handle_complete_questionnaire);
    r.description =
        "422 while questions are unanswered. The score is the sum of the answers' risk "
        "points (at most 100) with the levels of the analysis (0-29 safe, 30-69 warning, "
        "70-100 danger); the advice is localized. Completing again returns the same result.";
    r.params = {response_uuid};
    r.responses = {ok(r, 200, "The assessment.", "QuestionnaireResult"),
                   ok(r, 422, "Unanswered questions.", "CheckValidationError")};
    routes.push_back(std::move(r));
  }
  {
    RouteSpec r = route("POST", "/api/webhooks/analysis-result/{secret}", "analysisResult",
                        "webhooks", "Inbound result of the automation workflow", Token::kIgnored,
                        Limit::kNone, &handle_analysis_result);
    r.description =
        "The workflow (`--workflow-url`) receives `{check_uuid, type, content, url, locale, "
        "callback_url}` for each new check and POSTs its result to `callback_url`. The "
        "secret in the path authenticates it (compared in constant time; the current and the "
        "previous secret are valid, `scamcheckd webhook rotate-secret` rotates). Wrong secret "
        "or unknown check: 404. A check that is complete already: 409, nothing changes. A "
        "`risk_level` that disagrees with `risk_score` (0-29 safe, 30-69 warning, 70-100 "
        "danger): 422. Not rate limited.";
    r.params = {path_param("secret", "The inbound-webhook secret.", "", &secret_param)};
    r.body = BodySpec{"The analysis result.", {{kJson, "AnalysisResult"}}};
    r.responses = {ok(r, 200, "Stored; the check is completed.", "Message"),
                   ok(r, 409, "The check is complete already.", "Message"),
                   ok(r, 422, "Invalid result.", "CheckValidationError")};
    routes.push_back(std::move(r));
  }
  {
    RouteSpec r;
    r.method = "GET";
    r.path = "/avatars/{file}";
    r.operation_id = "avatar";
    r.tag = "account";
    r.summary = "An initials avatar (SVG), the target of `profile_photo_url`";
    ParamSpec file;
    file.name = "file";
    file.in = ParamIn::kPath;
    file.required = true;
    file.description = "Up to two initials (percent-encoded UTF-8) followed by `.svg`.";
    file.pattern = "^.+\\.svg$";
    file.check = &is_avatar_file;
    r.params = {file};
    r.responses = {response(200, "The avatar.", "SvgImage", kPlainHeaders, "image/svg+xml")};
    r.handler = &handle_avatar;
    routes.push_back(std::move(r));
  }
}

std::vector<ResponseSpec> implied_check_api_responses(const RouteSpec& r) {
  std::vector<ResponseSpec> out;
  const auto add = [&](int status, const char* description, const char* schema,
                       const std::vector<std::string>& headers) {
    const auto has = [status](const std::vector<ResponseSpec>& list) {
      return std::any_of(list.begin(), list.end(),
                         [status](const ResponseSpec& x) { return x.status == status; });
    };
    if (!has(r.responses) && !has(out))
      out.push_back(response(status, description, schema, headers));
  };
  const CheckApiRoute& api = *r.check_api;
  add(400, "Malformed request (HTTP, JSON).", "Message", kPlainHeaders);
  if (api.token != Token::kIgnored) {
    std::vector<std::string> h = headers_for(r);
    h.push_back("WWW-Authenticate");
    add(401,
        api.token == Token::kRequired ? "Missing, unknown, revoked or expired token."
                                      : "A token was sent but is unknown, revoked or expired.",
        "Message", h);
  }
  const bool path_param = std::any_of(r.params.begin(), r.params.end(),
                                      [](const ParamSpec& p) { return p.in == ParamIn::kPath; });
  const bool query_param = std::any_of(r.params.begin(), r.params.end(),
                                       [](const ParamSpec& p) { return p.in == ParamIn::kQuery; });
  if (path_param) add(404, "Nothing of that id for the caller.", "Message", headers_for(r));
  if (r.body) {
    add(413, "Body too large.", "Message", kPlainHeaders);
    add(415, "The body must be application/json.", "Message", headers_for(r));
  }
  if (query_param) add(422, "Invalid query parameters.", "CheckValidationError", headers_for(r));
  if (api.limit != Limit::kNone) {
    std::vector<std::string> h = headers_for(r);
    h.push_back("Retry-After");
    add(429, "An allowance is used up (per minute, or per day for check creation).",
        "CheckRateLimited", h);
  }
  add(431, "Request line and headers too large.", "Message", kPlainHeaders);
  add(500, "Internal error (never with internal details).", "Message", kPlainHeaders);
  add(503, "The store cannot answer.", "Message", kPlainHeaders);
  return out;
}

void write_check_api_security(adapters::JsonWriter& w, const CheckApiRoute& route) {
  adapters::write_json_key(w, "security");
  w.StartArray();
  if (route.token == Token::kOptional) {
    w.StartObject();
    w.EndObject();
  }
  if (route.token != Token::kIgnored) {
    w.StartObject();
    adapters::write_json_key(w, "bearerAuth");
    w.StartArray();
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace scamcheck::server
