#include "logging.h"

#include <sodium.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>

#include "common/report_json.h"

namespace scamcheck::server {
namespace {

std::atomic<int> g_level{static_cast<int>(LogLevel::kInfo)};
std::shared_ptr<spdlog::logger> g_logger;

std::string_view level_name(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
      return "debug";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kNotice:
      return "notice";
    case LogLevel::kWarn:
      return "warn";
    case LogLevel::kError:
      return "error";
  }
  return "info";
}

std::string timestamp() {
  const auto now = std::chrono::system_clock::now();
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  const std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[40];
  const std::size_t n = std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S", &tm);
  std::snprintf(buffer + n, sizeof buffer - n, ".%03dZ", static_cast<int>(ms % 1000));
  return buffer;
}

bool uuid_shaped(std::string_view v) {
  if (v.size() != 36) return false;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const char c = v[i];
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (c != '-') return false;
    } else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string redacted_path(std::string_view path) {
  // Prefixes whose next segment is a credential, and its placeholder.
  static constexpr std::pair<std::string_view, std::string_view> kSecretAfter[] = {
      {"/api/webhooks/analysis-result/", "{secret}"},
      {"/api/checks/", "{uuid}"},
      {"/api/questionnaire-responses/", "{uuid}"},
  };
  std::string out;
  out.reserve(path.size());
  std::size_t start = 0;
  for (const auto& [prefix, placeholder] : kSecretAfter) {
    if (path.substr(0, prefix.size()) != prefix) continue;
    out.append(prefix);
    out.append(placeholder);
    start = std::min(path.find('/', prefix.size()), path.size());
    if (prefix == kSecretAfter[0].first) start = path.size();  // nothing after the secret
    break;
  }
  while (start < path.size()) {
    const std::size_t end = std::min(path.find('/', start + 1), path.size());
    const std::string_view segment = path.substr(start, end - start);  // with its leading '/'
    if (segment.size() > 1 && uuid_shaped(segment.substr(1))) {
      out.append("/{uuid}");
    } else {
      out.append(segment);
    }
    start = end;
  }
  return out;
}

std::string credential_ref(std::string_view credential) {
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(credential.data()),
                     credential.size());
  char hex[2 * 6 + 1];
  sodium_bin2hex(hex, sizeof hex, digest, 6);
  return hex;
}

bool init_logging(std::string_view level) {
  LogLevel parsed;
  if (level == "debug") {
    parsed = LogLevel::kDebug;
  } else if (level == "info") {
    parsed = LogLevel::kInfo;
  } else if (level == "notice") {
    parsed = LogLevel::kNotice;
  } else if (level == "warn") {
    parsed = LogLevel::kWarn;
  } else if (level == "error") {
    parsed = LogLevel::kError;
  } else {
    return false;
  }
  g_level = static_cast<int>(parsed);
  if (!g_logger) {
    g_logger = spdlog::stderr_logger_mt("scamcheckd");
    g_logger->set_pattern("%v");
    g_logger->set_level(spdlog::level::trace);
    g_logger->flush_on(spdlog::level::trace);
  }
  return true;
}

bool log_enabled(LogLevel level) { return static_cast<int>(level) >= g_level.load(); }

LogLine::LogLine(LogLevel level, std::string_view event) : enabled_(log_enabled(level)) {
  if (!enabled_) return;
  json_.StartObject();
  field("ts", timestamp());
  field("level", level_name(level));
  field("event", event);
}

LogLine::~LogLine() {
  if (!enabled_) return;
  json_.EndObject();
  const std::string_view line(buffer_.GetString(), buffer_.GetSize());
  if (g_logger) {
    g_logger->info("{}", line);
  } else {
    std::fprintf(stderr, "%.*s\n", static_cast<int>(line.size()), line.data());
  }
}

LogLine& LogLine::field(std::string_view key, std::string_view value) {
  if (!enabled_) return *this;
  adapters::write_json_key(json_, key);
  adapters::write_json_string(json_, value);
  return *this;
}

LogLine& LogLine::field(std::string_view key, std::int64_t value) {
  if (!enabled_) return *this;
  adapters::write_json_key(json_, key);
  json_.Int64(value);
  return *this;
}

}  // namespace scamcheck::server
