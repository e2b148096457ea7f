#include "http/route_table.h"

#include <algorithm>

#include "api/handlers.h"
#include "api/handlers_check_api.h"
#include "mcp/mcp_http.h"
#include "server_limits.h"

namespace scamcheck::server {
namespace {

constexpr char kJson[] = "application/json";
constexpr char kProblem[] = "application/problem+json";

bool is_crockford(char c) {
  return (c >= '0' && c <= '9') ||
         (c >= 'A' && c <= 'Z' && c != 'I' && c != 'L' && c != 'O' && c != 'U');
}

ParamSpec report_id_param() {
  ParamSpec p;
  p.name = "public_id";
  p.in = ParamIn::kPath;
  p.required = true;
  p.description = "The report's `id` (\"rpt_\" + ULID).";
  p.pattern = "^rpt_[0-9A-HJKMNP-TV-Z]{26}$";
  p.check = &is_report_id;
  return p;
}

// The reports routes past the plan's `reads_per_minute`.
ResponseSpec reads_rate_limited() {
  return {429,
          "The plan's requests per minute (`reads_per_minute`) are used up.",
          kProblem,
          "RateLimitProblem",
          {"X-Request-ID", "Retry-After"}};
}

std::vector<RouteSpec> build_table() {
  std::vector<RouteSpec> routes;

  {
    RouteSpec r;
    r.method = "POST";
    r.path = "/api/v1/scan";
    r.operation_id = "scan";
    r.tag = "scan";
    r.summary = "Analyse a message, email, URL, image or document and store the report";
    r.description =
        "`application/json`: analyses `content` (decoded at most 65,536 bytes; JSON bodies at "
        "most 512 KiB). `multipart/form-data`: analyses the uploaded `file` (an image: PNG, "
        "JPEG, WebP, GIF, TIFF, BMP; or a document: PDF, DOCX; at most 10 MiB) by OCR, QR "
        "decoding or its text layer; the report's `extracted_text` holds what was read. The "
        "file itself is never stored. Returns the Report, stored as the caller's. Counts one "
        "unit of the caller's daily allowance (shared by all their tokens; renews 00:00 UTC) "
        "unless it fails or is a repeated identical URL scan within 24 h, which is answered "
        "from the cache (`urls[].cached` true). Locale: the body's `locale`, else "
        "`Accept-Language`, else `en`. `X-RateLimit-Remaining` is -1 for unlimited plans.";
    r.ability = "scan:create";
    r.body = BodySpec{"The content to analyse.",
                      {{kJson, "ScanRequest"}, {"multipart/form-data", "ScanUpload"}}};
    r.responses = {
        {200, "The report.", kJson, "Report", {"X-Request-ID", "X-RateLimit-Remaining"}},
        {422,
         "Invalid fields.",
         kProblem,
         "ValidationProblem",
         {"X-Request-ID", "X-RateLimit-Remaining"}},
        {429,
         "The daily allowance is used up, or the plan's scans per minute (`scan_per_minute`; "
         "`X-RateLimit-Remaining` is still the daily allowance).",
         kProblem,
         "RateLimitProblem",
         {"X-Request-ID", "X-RateLimit-Remaining", "Retry-After"}},
        {400,
         "Malformed request: HTTP, JSON, or a multipart body without a boundary or `file` part.",
         kProblem,
         "Problem",
         {"X-Request-ID"}},
        {413,
         "Body, decoded content or file too large, or a file over the limits on pixels, pages "
         "or inflated size.",
         kProblem,
         "Problem",
         {"X-Request-ID"}},
        {503,
         "The report could not be stored, the analysis (OCR, a provider) is not available, "
         "or too many uploads wait (then with `Retry-After`).",
         kProblem,
         "Problem",
         {"X-Request-ID"}},
        {504, "The analysis took too long.", kProblem, "Problem", {"X-Request-ID"}},
    };
    r.handler = &handle_scan;
    routes.push_back(std::move(r));
  }
  {
    RouteSpec r;
    r.method = "GET";
    r.path = "/api/v1/reports";
    r.operation_id = "listReports";
    r.tag = "reports";
    r.summary = "List the caller's reports, newest first";
    r.ability = "reports:read";
    ParamSpec limit;
    limit.name = "limit";
    limit.type = ParamType::kInteger;
    limit.description = "Reports per page.";
    limit.minimum = kListLimitMin;
    limit.maximum = kListLimitMax;
    limit.default_integer = kListLimitDefault;
    ParamSpec cursor;
    cursor.name = "cursor";
    cursor.description = "Opaque: the `next_cursor` of the previous page.";
    ParamSpec verdict;
    verdict.name = "verdict";
    verdict.description = "Only reports with this verdict.";
    verdict.enum_values = {"safe", "suspicious", "danger"};
    r.params = {limit, cursor, verdict};
    r.responses = {
        {200, "A page of reports.", kJson, "ReportList", {"X-Request-ID"}},
        reads_rate_limited(),
    };
    r.handler = &handle_list_reports;
    routes.push_back(std::move(r));
  }
  {
    RouteSpec r;
    r.method = "GET";
    r.path = "/api/v1/reports/{public_id}";
    r.operation_id = "getReport";
    r.tag = "reports";
    r.summary = "One of the caller's reports";
    r.description = "Another user's report is 404, exactly like a missing one.";
    r.ability = "reports:read";
    r.params = {report_id_param()};
    r.responses = {{200, "The report.", kJson, "Report", {"X-Request-ID"}}, reads_rate_limited()};
    r.handler = &handle_get_report;
    routes.push_back(std::move(r));
  }
  {
    RouteSpec r;
    r.method = "DELETE";
    r.path = "/api/v1/reports/{public_id}";
    r.operation_id = "deleteReport";
    r.tag = "reports";
    r.summary = "Delete one of the caller's reports";
    r.description = "Another user's report is 404, exactly like a missing one.";
    r.ability = "reports:delete";
    r.params = {report_id_param()};
    r.responses = {{204, "Deleted.", "", "", {"X-Request-ID"}}, reads_rate_limited()};
    r.handler = &handle_delete_report;
    routes.push_back(std::move(r));
  }
  routes.push_back(mcp_route());
  {
    RouteSpec r;
    r.method = "GET";
    r.path = "/health";
    r.operation_id = "health";
    r.tag = "meta";
    r.summary = "Health of the server and its dependencies";
    r.responses = {
        {200, "Healthy.", kJson, "Health", {"X-Request-ID"}},
        {503,
         "The database is unreachable (`status: degraded`).",
         kJson,
         "Health",
         {"X-Request-ID"}},
    };
    r.handler = &handle_health;
    routes.push_back(std::move(r));
  }
  {
    RouteSpec r;
    r.method = "GET";
    r.path = "/docs/api";
    r.operation_id = "openapi";
    r.tag = "meta";
    r.summary = "This OpenAPI 3.1 document, generated from the route table";
    r.responses = {{200, "The OpenAPI document.", kJson, "OpenApiDocument", {"X-Request-ID"}}};
    r.handler = &handle_openapi;
    routes.push_back(std::move(r));
  }
  add_check_api_routes(routes);
  return routes;
}

bool has_status(const std::vector<ResponseSpec>& list, int status) {
  return std::any_of(list.begin(), list.end(),
                     [status](const ResponseSpec& r) { return r.status == status; });
}

}  // namespace

bool is_report_id(std::string_view value) {
  if (value.size() != 30 || value.substr(0, 4) != "rpt_") return false;
  return std::all_of(value.begin() + 4, value.end(), is_crockford);
}

std::vector<ResponseSpec> implied_responses(const RouteSpec& route) {
  if (route.check_api) return implied_check_api_responses(route);
  std::vector<ResponseSpec> out;
  const auto add = [&](int status, const char* description, const char* schema,
                       std::vector<std::string> headers = {"X-Request-ID"}) {
    if (!has_status(route.responses, status) && !has_status(out, status)) {
      out.push_back({status, description, kProblem, schema, std::move(headers)});
    }
  };
  add(400, "Malformed request (HTTP, JSON).", "Problem");
  if (route.ability) {
    add(401, "Missing, malformed, unknown, revoked or expired token.", "Problem",
        {"X-Request-ID", "WWW-Authenticate"});
    add(403, "The token lacks the ability.", "Problem");
  }
  const bool path_param = std::any_of(route.params.begin(), route.params.end(),
                                      [](const ParamSpec& p) { return p.in == ParamIn::kPath; });
  const bool query_param = std::any_of(route.params.begin(), route.params.end(),
                                       [](const ParamSpec& p) { return p.in == ParamIn::kQuery; });
  if (path_param) add(404, "No such report of the caller.", "Problem");
  if (route.body) {
    add(413, "Body or decoded content too large.", "Problem");
    add(415, "Unsupported request media type.", "Problem");
  }
  if (query_param) add(422, "Invalid query parameters.", "ValidationProblem");
  add(431, "Request line and headers too large.", "Problem");
  add(500, "Internal error (never with internal details).", "Problem");
  return out;
}

const std::vector<RouteSpec>& route_table() {
  static const std::vector<RouteSpec>& kRoutes = *new std::vector<RouteSpec>(build_table());
  return kRoutes;
}

}  // namespace scamcheck::server
