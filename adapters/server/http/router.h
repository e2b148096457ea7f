// Router: the ordered chain every request goes through, reading the route
// table: request id -> locale -> route match (404/405) -> path parameter
// shape (404) -> auth and ability (401/403) -> query parameters (422) ->
// request media type (415) -> handler. Every response leaves with
// X-Request-ID and one log line. Handlers never throw past it: an
// exception becomes a 500 problem without details.
#ifndef SCAMCHECK_ADAPTERS_SERVER_HTTP_ROUTER_H_
#define SCAMCHECK_ADAPTERS_SERVER_HTTP_ROUTER_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "app.h"
#include "http/http_types.h"

namespace scamcheck::server {

class Router final : public RequestHandler {
 public:
  explicit Router(App& app);

  void handle(Request request, Reply reply) override;
  Response early_error(const Request& request, EarlyError error) override;

 private:
  struct CompiledRoute {
    const RouteSpec* spec;
    std::vector<std::string> segments;  // "{name}" marks a parameter
  };
  // Fills the exchange's route and path parameters; returns the status to
  // answer when no route fits (404, or 405 with `allow` filled).
  int match(Exchange& exchange, std::string* allow) const;
  void dispatch(const std::shared_ptr<Exchange>& exchange);
  // The scan API's per-minute allowance of the caller's plan (POST
  // /api/v1/scan, or the reports routes); answers 429 and returns false
  // when the window is full.
  bool within_minute_allowance(Exchange& exchange, const ProblemContext& pc);

  App& app_;
  std::vector<CompiledRoute> routes_;
};

// The media type of a Content-Type value, lower-cased, without parameters.
std::string media_type(std::string_view content_type);
// The largest request body accepted for `path` with this Content-Type, in
// bytes: the MCP endpoint's, a multipart upload's or a JSON body's limit.
std::size_t max_body_bytes(std::string_view path, std::string_view content_type);
// Percent-decodes a query component ("+" is a space). nullopt on bad escapes.
std::optional<std::string> percent_decode(std::string_view text);

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_HTTP_ROUTER_H_
