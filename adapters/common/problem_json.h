// RFC 7807 problem documents of the scan API (CONTRACT §2): the one mapping
// from an HTTP status to its problem `type`, and the one serialization.
// Texts (title, detail, field messages) are the caller's, already
// localized from a catalog.
//
//   ProblemDocument p{.status = 404, .title = ..., .detail = ..., .instance = request_id};
//   std::string body = problem_to_json(p);  // Content-Type: application/problem+json
#ifndef SCAMCHECK_ADAPTERS_COMMON_PROBLEM_JSON_H_
#define SCAMCHECK_ADAPTERS_COMMON_PROBLEM_JSON_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace scamcheck::adapters {

inline constexpr std::string_view kProblemContentType = "application/problem+json";

struct ProblemDocument {
  int status = 500;
  std::string title;
  std::string detail;
  std::string instance;  // the request id
  // 422 only: messages per request field.
  std::map<std::string, std::vector<std::string>> errors;
  // 429 only: `message` and `retry_after` (seconds).
  std::optional<std::string> message;
  std::optional<std::int64_t> retry_after;
};

// The problem `type` of a status: "/problems/bad-request" for 400, ...,
// "/problems/unavailable" for 503 (the contract's table) and for 504, and
// "/problems/request-header-fields-too-large" for 431. Any other 4xx is
// bad-request, any other 5xx internal-error.
std::string_view problem_type_for_status(int status);

// The problem document as compact JSON: type, title, status, detail,
// instance, then errors / message / retry_after when set.
std::string problem_to_json(const ProblemDocument& problem);

}  // namespace scamcheck::adapters

#endif  // SCAMCHECK_ADAPTERS_COMMON_PROBLEM_JSON_H_
