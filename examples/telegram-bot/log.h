// One-line log messages on stderr ("2026-01-02T03:04:05Z info: ..."), with
// every registered secret (the bot token, the webhook secret) replaced by
// "<redacted>" before the line is written, so no code path can leak them.
#ifndef SCAMCHECK_EXAMPLES_TELEGRAM_BOT_LOG_H_
#define SCAMCHECK_EXAMPLES_TELEGRAM_BOT_LOG_H_

#include <string>
#include <string_view>

namespace scamcheck::telegram_bot {

// Registers a string that must never appear in a log line. Call before the
// first log line from another thread (main() does, at start-up).
void add_log_secret(std::string secret);

// `message` with every registered secret replaced by "<redacted>".
std::string redact(std::string_view message);

void log_info(std::string_view message);
void log_warn(std::string_view message);
void log_error(std::string_view message);

}  // namespace scamcheck::telegram_bot

#endif  // SCAMCHECK_EXAMPLES_TELEGRAM_BOT_LOG_H_
