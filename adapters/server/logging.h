// Structured logs: one JSON object per line on stderr, e.g.
//   {"ts":"2026-11-21T12:00:00Z","level":"info","event":"request","request_id":"01J...",
//    "method":"POST","path":"/api/v1/scan","status":200,"duration_us":84,"user_id":3}
// Every line about a request carries its request_id. Never log a secret:
// no token values, passwords, Authorization headers or submitted content,
// and no bearer credential in a path (redacted_path, credential_ref).
#ifndef SCAMCHECK_ADAPTERS_SERVER_LOGGING_H_
#define SCAMCHECK_ADAPTERS_SERVER_LOGGING_H_

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace scamcheck::server {

// kInfo: one line per request; kNotice: start, stop, feed reloads.
enum class LogLevel { kDebug = 0, kInfo = 1, kNotice = 2, kWarn = 3, kError = 4 };

// Sets up the stderr logger; `level` is "debug", "info", "notice", "warn" or
// "error".
// Returns false for an unknown level.
bool init_logging(std::string_view level);
bool log_enabled(LogLevel level);

// The request path to log: the segments that are bearer credentials are
// replaced by a placeholder: the inbound webhook's secret
// (/api/webhooks/analysis-result/{secret}), a check's UUID
// (/api/checks/{uuid}...) and a questionnaire response's UUID
// (/api/questionnaire-responses/{uuid}/...), the UUID of an anonymous
// caller being all that lets them read it; any other segment shaped like a
// UUID is replaced too.
std::string redacted_path(std::string_view path);

// A short reference to a credential (a check's UUID) for log lines: the
// first 12 hex digits of its SHA-256, the same on every line about it and
// useless for reading the check.
std::string credential_ref(std::string_view credential);

// Builds one log line with RapidJSON (strings escaped, invalid UTF-8
// replaced); emitted when it goes out of scope.
//   LogLine(LogLevel::kInfo, "request").field("request_id", id).field("status", 200);
class LogLine {
 public:
  LogLine(LogLevel level, std::string_view event);
  ~LogLine();
  LogLine(const LogLine&) = delete;
  LogLine& operator=(const LogLine&) = delete;

  LogLine& field(std::string_view key, std::string_view value);
  LogLine& field(std::string_view key, const char* value) {
    return field(key, std::string_view(value));
  }
  LogLine& field(std::string_view key, const std::string& value) {
    return field(key, std::string_view(value));
  }
  LogLine& field(std::string_view key, std::int64_t value);
  LogLine& field(std::string_view key, int value) {
    return field(key, static_cast<std::int64_t>(value));
  }
  LogLine& field(std::string_view key, std::uint64_t value) {
    return field(key, static_cast<std::int64_t>(value));
  }

 private:
  bool enabled_;
  rapidjson::StringBuffer buffer_;
  rapidjson::Writer<rapidjson::StringBuffer> json_{buffer_};
};

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_LOGGING_H_
