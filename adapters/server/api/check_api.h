// The check API (CONTRACT §3): the unversioned /api surface. CheckApi holds
// what its handlers share (options, limits, catalogues, the job pool);
// dispatch_check_api() is the router's chain for its routes, and the
// helpers below build its responses in the specification's shapes:
// {message}, 422 {message, errors}, 429 {message, retry_after}.
//
// Mapping of a library Report to a check (documented in the OpenAPI
// description): risk_level from the verdict (safe -> safe, suspicious ->
// warning, danger -> danger), risk_score = risk_score, ai_explanation =
// summary_plain, ai_indicators = the explanations of the signals in report
// order without repeats; risk_text and risk_color from the level.
#ifndef SCAMCHECK_ADAPTERS_SERVER_API_CHECK_API_H_
#define SCAMCHECK_ADAPTERS_SERVER_API_CHECK_API_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "api/questionnaires.h"
#include "app.h"
#include "auth/rate_limits.h"
#include "http/problems.h"

namespace scamcheck::server {

class CheckJobs;

struct CheckApiOptions {
  // --analysis-timeout: the longest a check stays processing (plus one
  // restart of the server).
  std::chrono::milliseconds analysis_timeout{60000};
  std::string base_url;      // --base-url without a trailing "/"
  std::string workflow_url;  // --workflow-url; empty: local analysis only
  unsigned workers = 1;      // analysis threads
  bool retain_content = false;
  // Allowances (CONTRACT §3 defaults).
  std::int64_t per_minute_authenticated = 60;
  std::int64_t per_minute_anonymous = 10;
  std::int64_t per_minute_polling = 120;
  std::int64_t anonymous_checks_per_day = 3;
};

class CheckApi {
 public:
  CheckApi(App& app, CheckApiOptions options, TrustedProxies proxies,
           std::shared_ptr<const CheckCatalogues> catalogues);
  ~CheckApi();
  CheckApi(const CheckApi&) = delete;
  CheckApi& operator=(const CheckApi&) = delete;

  // Syncs the plan catalogue into the store, makes sure an inbound-webhook
  // secret exists, frees expired job leases and starts the workers.
  Status start();
  // Stops the workers (an interrupted job is claimed again after restart).
  void stop();

  const CheckApiOptions& options() const { return options_; }
  const TrustedProxies& proxies() const { return proxies_; }
  MinuteLimiter& limiter() { return limiter_; }
  const CheckCatalogues& catalogues() const { return *catalogues_; }
  CheckJobs& jobs() { return *jobs_; }

 private:
  App& app_;
  CheckApiOptions options_;
  TrustedProxies proxies_;
  MinuteLimiter limiter_;
  std::shared_ptr<const CheckCatalogues> catalogues_;
  std::unique_ptr<CheckJobs> jobs_;
};

// The router's chain for a matched check-API route: path parameter shape
// (404) -> token, optional or required (401) -> per-minute limit (429;
// X-RateLimit-* on every response from here on) -> query parameters (422)
// -> media type (415) -> handler.
void dispatch_check_api(App& app, const std::shared_ptr<Exchange>& exchange);

// The path to log for a request: redacted_path() (logging.h), the webhook
// secret and the check and questionnaire-response UUIDs replaced.
std::string loggable_path(std::string_view path);

// A problem document turned into the check API's error shape (other
// responses are returned unchanged).
Response to_check_api_error(Response response);

// application/json with `body`.
Response json_response(int status, std::string body);
// {message} with the catalog text of `key` in the exchange's locale.
Response message_response(const Catalog& catalog, const Exchange& ex, int status,
                          std::string_view key, const TextVars& vars = {});
// 422 {message, errors}.
Response validation_response(const Catalog& catalog, const Exchange& ex, const FieldErrors& errors);
// 429 {message, retry_after} with Retry-After.
Response too_many_response(const Catalog& catalog, const Exchange& ex, std::string_view key,
                           std::int64_t retry_after, const TextVars& vars = {});
// 503 {message} after logging `status`.
Response unavailable_response(const Catalog& catalog, const Exchange& ex, const Status& status);

// The client address of the request (socket, or X-Forwarded-For from a
// trusted proxy).
std::string client_of(App& app, const Exchange& ex);

// "safe", "warning", "danger" for a score (CONTRACT §1 thresholds).
std::string_view risk_level_for_score(int score);
// "green", "yellow", "red" for a level.
std::string_view risk_color(std::string_view level);
// The catalog key of the level's risk_text.
std::string risk_text_key(std::string_view level);

// True for a UUID in 8-4-4-4-12 hex form (any case).
bool is_uuid(std::string_view value);
// The UUID in lower case (how the store keeps them).
std::string to_lower_uuid(std::string_view uuid);

// Unix milliseconds, now.
std::int64_t unix_now_ms();

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_API_CHECK_API_H_
