// Problem responses (RFC 7807, CONTRACT §2) with texts from the server's
// catalogs. The one place that turns an error into a Response; handlers
// and the router name a status and a catalog key.
#ifndef SCAMCHECK_ADAPTERS_SERVER_HTTP_PROBLEMS_H_
#define SCAMCHECK_ADAPTERS_SERVER_HTTP_PROBLEMS_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "http/catalog.h"
#include "http/http_types.h"

namespace scamcheck::server {

// Localized messages per request field, for 422 problems.
class FieldErrors {
 public:
  FieldErrors(const Catalog& catalog, std::string_view locale)
      : catalog_(catalog), locale_(locale) {}
  void add(const std::string& field, std::string_view key, const TextVars& vars = {}) {
    errors_[field].push_back(catalog_.text(locale_, key, vars));
  }
  bool empty() const { return errors_.empty(); }
  const std::map<std::string, std::vector<std::string>>& errors() const { return errors_; }

 private:
  const Catalog& catalog_;
  std::string locale_;
  std::map<std::string, std::vector<std::string>> errors_;
};

// Everything a problem needs to know about its request.
struct ProblemContext {
  const Catalog& catalog;
  std::string_view locale;      // resolved catalog locale
  std::string_view request_id;  // becomes `instance`
};

// A problem of `status` (type and title from the status) whose detail is
// the catalog text of `detail_key`. 401 adds WWW-Authenticate: Bearer.
Response problem(const ProblemContext& ctx, int status, std::string_view detail_key,
                 const TextVars& vars = {});
// 422 with `errors`.
Response validation_problem(const ProblemContext& ctx, const FieldErrors& errors);
// 429 with `message`, `retry_after` and Retry-After; the detail is the
// catalog text of `detail_key` with {limit}.
Response rate_limited_problem(const ProblemContext& ctx, std::int64_t limit,
                              std::int64_t retry_after,
                              std::string_view detail_key = "detail.rate_limited");

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_HTTP_PROBLEMS_H_
