#include "api/check_api.h"

#include <simdjson.h>

#include <charconv>

#include "auth/auth.h"
#include "common/ascii.h"
#include "common/problem_json.h"
#include "common/report_json.h"
#include "http/router.h"
#include "ids.h"
#include "jobs/check_jobs.h"
#include "jobs/workflow.h"
#include "logging.h"

namespace scamcheck::server {
namespace {

std::string message_json(std::string_view message) {
  rapidjson::StringBuffer buffer;
  adapters::JsonWriter w(buffer);
  w.StartObject();
  adapters::write_json_key(w, "message");
  adapters::write_json_string(w, message);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

// The catalog key of the 404 text of a route's path parameter.
std::string_view not_found_key(const RouteSpec& route) {
  if (route.path.rfind("/api/checks/", 0) == 0) return "check.not_found";
  if (route.path.rfind("/api/questionnaires/", 0) == 0) return "questionnaire.not_found";
  if (route.path.rfind("/api/questionnaire-responses/", 0) == 0)
    return "questionnaire.response_not_found";
  return "detail.route_not_found";
}

void add_rate_headers(Response& r, const RateDecision& d) {
  r.set_header("X-RateLimit-Limit", std::to_string(d.limit));
  r.set_header("X-RateLimit-Remaining", std::to_string(d.remaining));
  r.set_header("X-RateLimit-Reset", std::to_string(d.reset));
}

}  // namespace

CheckApi::CheckApi(App& app, CheckApiOptions options, TrustedProxies proxies,
                   std::shared_ptr<const CheckCatalogues> catalogues)
    : app_(app),
      options_(std::move(options)),
      proxies_(std::move(proxies)),
      catalogues_(std::move(catalogues)),
      jobs_(std::make_unique<CheckJobs>(app, options_)) {
  limiter_.set_shared(app.store().shared_counters());
}

CheckApi::~CheckApi() { stop(); }

Status CheckApi::start() {
  CheckStore& store = app_.store().checks();
  if (Status s = store.sync_plans(catalogues_->plan_rows()); !s.ok()) return s;
  if (Status s = store.ensure_webhook_secret(new_webhook_secret()); !s.ok()) return s;
  return jobs_->start();
}

void CheckApi::stop() { jobs_->stop(); }

Response to_check_api_error(Response response) {
  if (response.content_type != adapters::kProblemContentType) return response;
  simdjson::dom::parser parser;
  simdjson::dom::object doc;
  if (parser.parse(response.body).get(doc)) return response;
  rapidjson::StringBuffer buffer;
  adapters::JsonWriter w(buffer);
  w.StartObject();
  std::string_view text;
  adapters::write_json_key(w, "message");
  if (doc["message"].get(text) && doc["detail"].get(text)) text = "";
  adapters::write_json_string(w, text);
  simdjson::dom::object errors;
  if (!doc["errors"].get(errors)) {
    adapters::write_json_key(w, "errors");
    const std::string raw = simdjson::to_string(errors);
    w.RawValue(raw.data(), raw.size(), rapidjson::kObjectType);
  }
  std::int64_t retry_after = 0;
  if (!doc["retry_after"].get(retry_after)) {
    adapters::write_json_key(w, "retry_after");
    w.Int64(retry_after);
  }
  w.EndObject();
  response.content_type = "application/json";
  response.body.assign(buffer.GetString(), buffer.GetSize());
  return response;
}

Response json_response(int status, std::string body) {
  Response r;
  r.status = status;
  r.content_type = "application/json";
  r.body = std::move(body);
  return r;
}

Response message_response(const Catalog& catalog, const Exchange& ex, int status,
                          std::string_view key, const TextVars& vars) {
  Response r = json_response(status, message_json(catalog.text(ex.locale, key, vars)));
  if (status == 401) r.set_header("WWW-Authenticate", "Bearer");
  return r;
}

Response validation_response(const Catalog& catalog, const Exchange& ex,
                             const FieldErrors& errors) {
  rapidjson::StringBuffer buffer;
  adapters::JsonWriter w(buffer);
  w.StartObject();
  adapters::write_json_key(w, "message");
  adapters::write_json_string(w, catalog.text(ex.locale, "detail.validation"));
  adapters::write_json_key(w, "errors");
  w.StartObject();
  for (const auto& [field, messages] : errors.errors()) {
    adapters::write_json_key(w, field);
    w.StartArray();
    for (const auto& m : messages) adapters::write_json_string(w, m);
    w.EndArray();
  }
  w.EndObject();
  w.EndObject();
  return json_response(422, std::string(buffer.GetString(), buffer.GetSize()));
}

Response too_many_response(const Catalog& catalog, const Exchange& ex, std::string_view key,
                           std::int64_t retry_after, const TextVars& vars) {
  rapidjson::StringBuffer buffer;
  adapters::JsonWriter w(buffer);
  w.StartObject();
  adapters::write_json_key(w, "message");
  adapters::write_json_string(w, catalog.text(ex.locale, key, vars));
  adapters::write_json_key(w, "retry_after");
  w.Int64(retry_after);
  w.EndObject();
  Response r = json_response(429, std::string(buffer.GetString(), buffer.GetSize()));
  r.set_header("Retry-After", std::to_string(retry_after));
  return r;
}

Response unavailable_response(const Catalog& catalog, const Exchange& ex, const Status& status) {
  LogLine(LogLevel::kError, "store_error")
      .field("request_id", ex.request_id)
      .field("error", status.to_string());
  return message_response(catalog, ex, 503, "detail.unavailable");
}

std::string client_of(App& app, const Exchange& ex) {
  return app.check_api()->proxies().client_address(ex.request);
}

std::string_view risk_level_for_score(int score) {
  switch (verdict_for_score(score)) {
    case Verdict::kSafe:
      return "safe";
    case Verdict::kSuspicious:
      return "warning";
    case Verdict::kDanger:
      return "danger";
  }
  return "danger";
}

std::string_view risk_color(std::string_view level) {
  if (level == "safe") return "green";
  if (level == "warning") return "yellow";
  return "red";
}

std::string risk_text_key(std::string_view level) { return "risk." + std::string(level); }

bool is_uuid(std::string_view v) {
  if (v.size() != 36) return false;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    const char c = v[i];
    const bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    if (dash ? c != '-' : !hex) return false;
  }
  return true;
}

std::string to_lower_uuid(std::string_view uuid) { return adapters::lower_ascii(uuid); }

std::string loggable_path(std::string_view path) { return redacted_path(path); }

std::int64_t unix_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void dispatch_check_api(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  const RouteSpec& route = *ex.route;
  const CheckApiRoute& spec = *route.check_api;
  const Catalog& catalog = app.catalog();
  CheckApi& api = *app.check_api();

  // The token first (its user keys the limit), answered after the limit,
  // so that every response of the route carries the X-RateLimit-* headers.
  const bool token_sent = ex.request.has_header("Authorization");
  std::optional<AuthResult> auth;
  if (spec.token != CheckApiRoute::Token::kIgnored &&
      (token_sent || spec.token == CheckApiRoute::Token::kRequired)) {
    auth = authenticate(app.store(), ex.request.header("Authorization"), unix_now());
    if (auth->outcome == AuthOutcome::kOk) ex.token = std::move(auth->token);
  }

  if (spec.limit != CheckApiRoute::Limit::kNone) {
    const CheckApiOptions& o = api.options();
    const std::string who =
        ex.token ? "u:" + std::to_string(ex.token->user.id) : "ip:" + client_of(app, ex);
    const bool polling = spec.limit == CheckApiRoute::Limit::kPolling;
    const std::int64_t limit = polling    ? o.per_minute_polling
                               : ex.token ? o.per_minute_authenticated
                                          : o.per_minute_anonymous;
    const RateDecision d = api.limiter().hit((polling ? "poll:" : "api:") + who, limit, unix_now());
    ex.reply = [reply = std::move(ex.reply), d](Response r) {
      add_rate_headers(r, d);
      reply(std::move(r));
    };
    if (!d.allowed) {
      return ex.respond(too_many_response(catalog, ex, "check.rate_limited_minute", d.retry_after,
                                          {{"limit", std::to_string(d.limit)}}));
    }
  }

  if (auth) {
    switch (auth->outcome) {
      case AuthOutcome::kOk:
        break;
      case AuthOutcome::kMissing:
        return ex.respond(message_response(catalog, ex, 401, "detail.token_missing"));
      case AuthOutcome::kInvalid:
        return ex.respond(message_response(catalog, ex, 401, "detail.token_invalid"));
      case AuthOutcome::kStoreError:
        return ex.respond(unavailable_response(catalog, ex, auth->status));
    }
  }

  // Path parameters of the wrong shape name nothing: 404, like a missing one.
  for (const ParamSpec& p : route.params) {
    if (p.in == ParamIn::kPath && p.check != nullptr && !p.check(ex.path_params[p.name])) {
      return ex.respond(message_response(catalog, ex, 404, not_found_key(route)));
    }
  }

  // Query parameters, validated against their declaration.
  FieldErrors errors(catalog, ex.locale);
  std::string_view query = ex.request.query;
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    std::optional<std::string> name = percent_decode(pair.substr(0, eq));
    std::optional<std::string> value =
        percent_decode(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1));
    if (!name || !value)
      return ex.respond(message_response(catalog, ex, 400, "detail.malformed_http"));
    ex.query.emplace(std::move(*name), std::move(*value));
  }
  for (const ParamSpec& p : route.params) {
    if (p.in != ParamIn::kQuery) continue;
    auto it = ex.query.find(p.name);
    if (it == ex.query.end()) {
      if (p.required) errors.add(p.name, "field.required");
      continue;
    }
    if (!p.enum_values.empty() &&
        std::find(p.enum_values.begin(), p.enum_values.end(), it->second) == p.enum_values.end()) {
      std::string values;
      for (const auto& v : p.enum_values) values += (values.empty() ? "" : ", ") + v;
      errors.add(p.name, "field.one_of", {{"values", values}});
    }
  }
  if (!errors.empty()) return ex.respond(validation_response(catalog, ex, errors));

  if (route.body) {
    const std::string type = media_type(ex.request.header("Content-Type"));
    bool accepted = false;
    for (const MediaSpec& m : route.body->media) accepted = accepted || m.content_type == type;
    if (!accepted) return ex.respond(message_response(catalog, ex, 415, "detail.media_type_json"));
  }
  route.handler(app, exchange);
}

}  // namespace scamcheck::server
