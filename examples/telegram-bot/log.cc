#include "log.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <vector>

namespace scamcheck::telegram_bot {
namespace {

std::mutex& log_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::vector<std::string>& secrets() {
  static std::vector<std::string> list;
  return list;
}

void write(std::string_view level, std::string_view message) {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
  const std::string line = redact(message);
  std::lock_guard<std::mutex> lock(log_mutex());
  std::fprintf(stderr, "%s %.*s: %s\n", stamp, static_cast<int>(level.size()), level.data(),
               line.c_str());
  std::fflush(stderr);
}

}  // namespace

void add_log_secret(std::string secret) {
  if (secret.empty()) return;
  std::lock_guard<std::mutex> lock(log_mutex());
  secrets().push_back(std::move(secret));
}

std::string redact(std::string_view message) {
  std::string out(message);
  // Secrets are registered before any thread logs; reading them is safe.
  for (const std::string& secret : secrets()) {
    for (std::size_t pos = out.find(secret); pos != std::string::npos;
         pos = out.find(secret, pos)) {
      out.replace(pos, secret.size(), "<redacted>");
      pos += 10;
    }
  }
  return out;
}

void log_info(std::string_view message) { write("info", message); }
void log_warn(std::string_view message) { write("warn", message); }
void log_error(std::string_view message) { write("error", message); }

}  // namespace scamcheck::telegram_bot
