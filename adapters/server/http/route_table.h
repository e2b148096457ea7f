// The route table: each route of the API declared once, as data — method,
// path, required ability, parameters with their constraints, request body
// media types and schema, responses with their schemas and headers, and
// the handler. The router (router.h) matches, authorizes and validates
// parameters from it; the OpenAPI document (openapi.h) is generated from
// it. Schemas are named components of the OpenAPI document.
#ifndef SCAMCHECK_ADAPTERS_SERVER_HTTP_ROUTE_TABLE_H_
#define SCAMCHECK_ADAPTERS_SERVER_HTTP_ROUTE_TABLE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace scamcheck::server {

class App;
struct Exchange;
// Handles one matched, authorized, validated request; answers through
// exchange->respond(), from any thread.
using Handler = void (*)(App& app, const std::shared_ptr<Exchange>& exchange);

enum class ParamIn { kPath, kQuery };
enum class ParamType { kString, kInteger };

struct ParamSpec {
  std::string name;
  ParamIn in = ParamIn::kQuery;
  ParamType type = ParamType::kString;
  bool required = false;
  std::string description;
  std::optional<std::int64_t> minimum;  // integers
  std::optional<std::int64_t> maximum;
  std::optional<std::int64_t> default_integer;
  std::vector<std::string> enum_values;  // strings: the allowed values
  std::string pattern;                   // strings: ECMA regex (docs); path ids are checked by
  bool (*check)(std::string_view value) = nullptr;  // this function; a mismatch is 404 for path
                                                    // parameters
};

struct MediaSpec {
  std::string content_type;  // "application/json", "multipart/form-data"
  std::string schema;        // component name, e.g. "ScanRequest"
};

struct BodySpec {
  std::string description;
  std::vector<MediaSpec> media;  // accepted types; anything else is 415
};

struct ResponseSpec {
  int status = 200;
  std::string description;
  std::string content_type;          // empty: no body
  std::string schema;                // component name
  std::vector<std::string> headers;  // header component names
};

// How a route of the check API (CONTRACT §3) treats tokens and which
// per-minute allowance it counts against. Its errors use the check API's
// shapes, not problem documents.
struct CheckApiRoute {
  enum class Token { kOptional, kRequired, kIgnored };
  enum class Limit { kGeneral, kPolling, kNone };
  Token token = Token::kOptional;
  Limit limit = Limit::kGeneral;
};

struct RouteSpec {
  std::string method;  // "GET", "POST", "DELETE"
  std::string path;    // "/api/v1/reports/{public_id}"
  std::string operation_id;
  std::string summary;
  std::string description;
  std::string tag;
  std::optional<std::string> ability;  // required token ability; "": any valid token; none: public
  std::vector<ParamSpec> params;
  std::optional<BodySpec> body;
  std::vector<ResponseSpec> responses;  // besides the implied ones (below)
  // Further media types a declared response may come as: {status, media}.
  std::vector<std::pair<int, MediaSpec>> more_content;
  Handler handler = nullptr;
  // Set for check-API routes (check_api.h runs their chain).
  std::optional<CheckApiRoute> check_api;
  // Runs after the route matched and before authentication; returns false
  // when it answered the request itself (e.g. a refused Origin).
  bool (*admit)(App& app, const std::shared_ptr<Exchange>& exchange) = nullptr;
};

// Problem responses every route may give because of its declaration: 401
// and 403 with an ability; 404 with a path parameter; 422 with query
// parameters; 400, 413, 415 with a body; 400, 431 and 500 always. Both the
// OpenAPI document and the tests read this.
std::vector<ResponseSpec> implied_responses(const RouteSpec& route);

// Every route of scamcheckd.
const std::vector<RouteSpec>& route_table();

// A report id: "rpt_" + 26 Crockford base32 characters.
bool is_report_id(std::string_view value);

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_HTTP_ROUTE_TABLE_H_
