#include "http/router.h"

#include <charconv>
#include <exception>

#include "api/check_api.h"
#include "auth/auth.h"
#include "ids.h"
#include "logging.h"
#include "server_limits.h"
#include "web/web.h"

namespace scamcheck::server {
namespace {

std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> out;
  std::size_t start = 1;  // paths start with '/'
  while (start <= path.size()) {
    const std::size_t slash = std::min(path.find('/', start), path.size());
    out.emplace_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string join_values(const std::vector<std::string>& values) {
  std::string out;
  for (const auto& v : values) {
    if (!out.empty()) out += ", ";
    out += v;
  }
  return out;
}

}  // namespace

std::string media_type(std::string_view content_type) {
  std::string_view type = content_type.substr(0, content_type.find(';'));
  while (!type.empty() && (type.front() == ' ' || type.front() == '\t')) type.remove_prefix(1);
  while (!type.empty() && (type.back() == ' ' || type.back() == '\t')) type.remove_suffix(1);
  std::string out(type);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::size_t max_body_bytes(std::string_view path, std::string_view content_type) {
  if (path.substr(0, 5) == "/mcp/") return kMaxMcpBodyBytes;
  return media_type(content_type) == "multipart/form-data" ? kMaxMultipartBodyBytes
                                                           : kMaxJsonBodyBytes;
}

std::optional<std::string> percent_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out.push_back(' ');
    } else if (text[i] == '%') {
      const int hi = i + 1 < text.size() ? hex_value(text[i + 1]) : -1;
      const int lo = i + 2 < text.size() ? hex_value(text[i + 2]) : -1;
      if (hi < 0 || lo < 0) return std::nullopt;
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

bool ascii_iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

std::string_view Request::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (ascii_iequals(key, name)) return value;
  }
  return {};
}

bool Request::has_header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (ascii_iequals(key, name)) return true;
  }
  return false;
}

void Exchange::respond(Response response) {
  if (route != nullptr && route->check_api) response = to_check_api_error(std::move(response));
  response.set_header("X-Request-ID", request_id);
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::steady_clock::now() - started)
                          .count();
  {
    LogLine line(response.status >= 500 ? LogLevel::kError : LogLevel::kInfo, "request");
    line.field("request_id", request_id)
        .field("method", request.method)
        .field("path", loggable_path(request.path))
        .field("status", response.status)
        .field("duration_us", static_cast<std::int64_t>(micros));
    if (token) line.field("user_id", token->user.id).field("token_id", token->id);
  }
  Reply send = std::move(reply);
  send(std::move(response));
}

Router::Router(App& app) : app_(app) {
  for (const RouteSpec& spec : route_table()) {
    routes_.push_back({&spec, split_path(spec.path)});
  }
}

int Router::match(Exchange& exchange, std::string* allow) const {
  const std::vector<std::string> segments = split_path(exchange.request.path);
  bool path_matched = false;
  for (const CompiledRoute& route : routes_) {
    if (route.segments.size() != segments.size()) continue;
    std::unordered_map<std::string, std::string> params;
    bool ok = true;
    for (std::size_t i = 0; i < segments.size() && ok; ++i) {
      const std::string& want = route.segments[i];
      if (want.size() > 2 && want.front() == '{' && want.back() == '}') {
        std::optional<std::string> value = percent_decode(segments[i]);
        if (!value || value->empty()) {
          ok = false;
        } else {
          params[want.substr(1, want.size() - 2)] = std::move(*value);
        }
      } else {
        ok = want == segments[i];
      }
    }
    if (!ok) continue;
    if (route.spec->method != exchange.request.method) {
      path_matched = true;
      if (!allow->empty()) *allow += ", ";
      *allow += route.spec->method;
      continue;
    }
    exchange.route = route.spec;
    exchange.path_params = std::move(params);
    return 0;
  }
  return path_matched ? 405 : 404;
}

void Router::handle(Request request, Reply reply) {
  auto exchange = std::make_shared<Exchange>();
  exchange->started = std::chrono::steady_clock::now();
  exchange->request = std::move(request);
  exchange->reply = std::move(reply);
  const std::string_view sent_id = exchange->request.header("X-Request-ID");
  exchange->request_id = is_echoable_request_id(sent_id) ? std::string(sent_id) : new_ulid();
  exchange->accept_language = preferred_language(exchange->request.header("Accept-Language"));
  exchange->locale = app_.catalog().resolve(exchange->accept_language);
  try {
    dispatch(exchange);
  } catch (const std::exception& e) {
    LogLine(LogLevel::kError, "handler_exception")
        .field("request_id", exchange->request_id)
        .field("error", e.what());
    if (exchange->reply) {
      exchange->respond(problem(exchange->problem_context(app_.catalog()), 500, "detail.internal"));
    }
  }
}

void Router::dispatch(const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  const ProblemContext pc = ex.problem_context(app_.catalog());
  // The web interface's pages (web/web.h) are not in the route table.
  if (is_web_path(ex.request.path)) return dispatch_web(app_, exchange);
  std::string allow;
  if (const int status = match(ex, &allow); status != 0) {
    if (status == 405) {
      Response r = problem(pc, 405, "detail.method_not_allowed",
                           {{"method", ex.request.method}, {"allow", allow}});
      r.set_header("Allow", allow);
      return ex.respond(std::move(r));
    }
    return ex.respond(problem(pc, 404, "detail.route_not_found"));
  }
  const RouteSpec& route = *ex.route;
  if (route.check_api) return dispatch_check_api(app_, exchange);

  // Path parameters of the wrong shape name nothing: 404, like a missing one.
  for (const ParamSpec& p : route.params) {
    if (p.in != ParamIn::kPath || p.check == nullptr) continue;
    if (!p.check(ex.path_params[p.name])) {
      return ex.respond(problem(pc, 404, "detail.report_not_found"));
    }
  }

  if (route.admit && !route.admit(app_, exchange)) return;

  if (route.ability) {
    AuthResult auth = authenticate(app_.store(), ex.request.header("Authorization"), unix_now());
    switch (auth.outcome) {
      case AuthOutcome::kOk:
        break;
      case AuthOutcome::kMissing:
        return ex.respond(problem(pc, 401, "detail.token_missing"));
      case AuthOutcome::kInvalid:
        return ex.respond(problem(pc, 401, "detail.token_invalid"));
      case AuthOutcome::kStoreError:
        LogLine(LogLevel::kError, "store_error")
            .field("request_id", ex.request_id)
            .field("error", auth.status.to_string());
        return ex.respond(problem(pc, 503, "detail.unavailable"));
    }
    ex.token = std::move(auth.token);
    if (!route.ability->empty() && !has_ability(*ex.token, *route.ability)) {
      return ex.respond(problem(pc, 403, "detail.ability_missing", {{"ability", *route.ability}}));
    }
    if (!within_minute_allowance(ex, pc)) return;
  }

  // Query parameters, validated against their declaration.
  std::string_view query = ex.request.query;
  FieldErrors errors(app_.catalog(), ex.locale);
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    std::optional<std::string> name = percent_decode(pair.substr(0, eq));
    std::optional<std::string> value =
        percent_decode(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1));
    if (!name || !value) {
      ex.respond(problem(pc, 400, "detail.malformed_http"));
      return;
    }
    ex.query.emplace(std::move(*name), std::move(*value));  // the first of repeated names wins
  }
  for (const ParamSpec& p : route.params) {
    if (p.in != ParamIn::kQuery) continue;
    auto it = ex.query.find(p.name);
    if (it == ex.query.end()) {
      if (p.required) errors.add(p.name, "field.required");
      continue;
    }
    const std::string& value = it->second;
    if (p.type == ParamType::kInteger) {
      std::int64_t n = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      const bool integer = ec == std::errc() && end == value.data() + value.size();
      if (!integer || (p.minimum && n < *p.minimum) || (p.maximum && n > *p.maximum)) {
        if (p.minimum && p.maximum) {
          errors.add(p.name, "field.integer_range",
                     {{"min", std::to_string(*p.minimum)}, {"max", std::to_string(*p.maximum)}});
        } else {
          errors.add(p.name, "field.must_be_integer");
        }
      }
    } else if (!p.enum_values.empty() && std::find(p.enum_values.begin(), p.enum_values.end(),
                                                   value) == p.enum_values.end()) {
      errors.add(p.name, "field.one_of", {{"values", join_values(p.enum_values)}});
    }
  }
  if (!errors.empty()) return ex.respond(validation_problem(pc, errors));

  if (route.body) {
    const std::string type = media_type(ex.request.header("Content-Type"));
    bool accepted = false;
    for (const MediaSpec& m : route.body->media) accepted = accepted || m.content_type == type;
    if (!accepted) return ex.respond(problem(pc, 415, "detail.media_type_json"));
  }
  route.handler(app_, exchange);
}

bool Router::within_minute_allowance(Exchange& ex, const ProblemContext& pc) {
  const RouteSpec& route = *ex.route;
  if (route.path.rfind("/api/v1/", 0) != 0 || !ex.token) return true;
  const ApiMinuteAllowance allowance = app_.options().api_limits.for_plan(ex.token->user.plan.name);
  const bool scan = route.method == "POST" && route.path == "/api/v1/scan";
  const std::int64_t limit = scan ? allowance.scans : allowance.reads;
  if (limit <= 0) return true;
  const std::int64_t now = unix_now();
  const RateDecision d = app_.api_minutes().hit(
      (scan ? "v1scan:u:" : "v1read:u:") + std::to_string(ex.token->user.id), limit, now);
  if (d.allowed) return true;
  Response r = rate_limited_problem(pc, limit, d.retry_after, "detail.rate_limited_minute");
  if (scan) {
    // The scan API's X-RateLimit-Remaining is the daily allowance (CONTRACT §2).
    if (Result<QuotaDecision> daily = app_.quota().peek(ex.token->user, now); daily.ok()) {
      r.set_header("X-RateLimit-Remaining", std::to_string(daily->remaining));
    }
  }
  ex.respond(std::move(r));
  return false;
}

Response Router::early_error(const Request& request, EarlyError error) {
  Exchange ex;
  ex.started = std::chrono::steady_clock::now();
  ex.request.method = request.method;
  ex.request.path = request.path;
  const std::string_view sent_id = request.header("X-Request-ID");
  ex.request_id = is_echoable_request_id(sent_id) ? std::string(sent_id) : new_ulid();
  ex.locale = app_.catalog().resolve(preferred_language(request.header("Accept-Language")));
  std::string allow;
  if (match(ex, &allow) != 0) ex.route = nullptr;  // the route decides the error shape
  const ProblemContext pc = ex.problem_context(app_.catalog());
  Response response;
  switch (error) {
    case EarlyError::kBadRequest:
      response = problem(pc, 400, "detail.malformed_http");
      break;
    case EarlyError::kHeaderTooLarge:
      response = problem(pc, 431, "detail.headers_too_large",
                         {{"limit", std::to_string(kMaxHeaderBytes)}});
      break;
    case EarlyError::kTimeout:
      response = problem(pc, 408, "detail.request_timeout");
      break;
    case EarlyError::kBodyTooLarge:
      response =
          problem(pc, 413, "detail.body_too_large",
                  {{"limit",
                    std::to_string(max_body_bytes(request.path, request.header("Content-Type")))}});
      break;
  }
  Response out;
  ex.reply = [&out](Response r) { out = std::move(r); };
  ex.respond(std::move(response));
  return out;
}

}  // namespace scamcheck::server
