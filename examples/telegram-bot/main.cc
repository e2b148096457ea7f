// scamcheck-telegram-bot: a Telegram Bot API webhook backend that checks
// the messages people send or forward to the bot (README.md).
//
//   scamcheck-telegram-bot --token 123:ABC --secret s3cret --webhook-path hook
//
// Telegram posts each Update to POST /telegram/<webhook-path> with the
// secret in X-Telegram-Bot-Api-Secret-Token. A request without the right
// secret gets 401 and nothing else happens; a valid Update is answered 200
// at once and handled by a worker (analysis, then sendMessage).
#include <curl/curl.h>

#include <CLI/CLI.hpp>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <string>
#include <unordered_set>

#include "bot.h"
#include "log.h"
#include "scamcheck/scamcheck.h"
#include "telegram_client.h"
#include "update.h"
#include "webhook_server.h"
#include "work_queue.h"

namespace {

using namespace scamcheck::telegram_bot;

// Compares without an early exit, so the time taken does not tell how much
// of a guessed secret was right.
bool constant_time_equal(std::string_view a, std::string_view b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  const std::size_t n = std::max(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff |= static_cast<unsigned char>(x ^ y);
  }
  return diff == 0;
}

bool only_chars(std::string_view s, std::string_view extra) {
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    extra.find(c) != std::string_view::npos;
    if (!ok) return false;
  }
  return true;
}

// "127.0.0.1:8081", "[::1]:8081" -> host and port.
bool parse_listen(const std::string& value, std::string& host, std::uint16_t& port) {
  const std::size_t colon = value.rfind(':');
  if (colon == std::string::npos || colon == 0) return false;
  host = value.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  const std::string digits = value.substr(colon + 1);
  if (digits.empty() || digits.size() > 5 || !only_chars(digits, "") ||
      digits.find_first_not_of("0123456789") != std::string::npos) {
    return false;
  }
  const unsigned long n = std::stoul(digits);
  if (n > 65535) return false;
  port = static_cast<std::uint16_t>(n);
  return true;
}

// The last update_ids seen: Telegram delivers an Update again when it did
// not get an answer in time, and the user should get one reply.
class RecentUpdates {
 public:
  void erase(std::int64_t id) {
    if (seen_.erase(id) == 0) return;
    for (auto it = order_.begin(); it != order_.end(); ++it) {
      if (*it == id) {
        order_.erase(it);
        break;
      }
    }
  }
  bool insert(std::int64_t id) {
    if (!seen_.insert(id).second) return false;
    order_.push_back(id);
    if (order_.size() > kKeep) {
      seen_.erase(order_.front());
      order_.pop_front();
    }
    return true;
  }

 private:
  static constexpr std::size_t kKeep = 1024;
  std::unordered_set<std::int64_t> seen_;
  std::deque<std::int64_t> order_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "scamcheck-telegram-bot: a Telegram bot that checks forwarded or pasted messages, links, "
      "screenshots and files for scams (a webhook backend for the Telegram Bot API).\n"
      "Telegram posts updates to POST /telegram/<webhook-path>; register that URL with "
      "setWebhook and the same secret_token (README.md)."};
  app.get_formatter()->column_width(34);
  std::string listen = "127.0.0.1:8081";
  std::string token;
  std::string secret;
  std::string webhook_path = "webhook";
  std::string api_base = "https://api.telegram.org";
  std::string locale = "en";
  unsigned workers = 2;
  app.add_option("--listen", listen, "Address the webhook listens on (HOST:PORT, port 0: any)")
      ->capture_default_str();
  app.add_option("--token", token, "Bot token from @BotFather (never logged)")
      ->envname("TELEGRAM_BOT_TOKEN");
  app.add_option("--secret", secret,
                 "Webhook secret: the secret_token given to setWebhook, 16-256 characters "
                 "A-Z a-z 0-9 _ -")
      ->envname("TELEGRAM_WEBHOOK_SECRET");
  app.add_option("--webhook-path", webhook_path,
                 "Path segment of the webhook URL: POST /telegram/<webhook-path>")
      ->envname("TELEGRAM_WEBHOOK_PATH")
      ->capture_default_str();
  app.add_option("--api-base", api_base, "Bot API base URL")
      ->envname("TELEGRAM_API_BASE")
      ->capture_default_str();
  app.add_option("--locale", locale,
                 "Language when an update has no language_code (en or de; de* is German)")
      ->capture_default_str();
  app.add_option("--workers", workers, "Threads that analyze messages and reply (1-64)")
      ->check(CLI::Range(1u, 64u))
      ->capture_default_str();
  std::size_t queue_size = 256;
  app.add_option("--queue-size", queue_size,
                 "Updates waiting for a worker before the webhook answers 503 (1-100000)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}))
      ->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints the help, or the error
    return code == 0 ? 0 : 64;
  }

  const auto usage_error = [](const std::string& message) {
    std::cerr << "scamcheck-telegram-bot: " << message << " (see --help)\n";
    return 64;
  };
  // Tokens look like 123456789:AAF...: digits, ':', then letters, digits,
  // '_' and '-'; any other character could change the URL the token is put
  // in.
  const std::size_t colon = token.find(':');
  if (token.empty()) return usage_error("--token (or TELEGRAM_BOT_TOKEN) is required");
  if (token.size() > 256 || colon == std::string::npos || colon == 0 ||
      token.find_first_not_of("0123456789") != colon || token.size() - colon - 1 < 8 ||
      !only_chars(token.substr(colon + 1), "_-")) {
    return usage_error(
        "--token: not a bot token (digits, ':', then at least 8 letters, digits, "
        "'_' or '-')");
  }
  if (secret.empty()) return usage_error("--secret (or TELEGRAM_WEBHOOK_SECRET) is required");
  // Telegram accepts 1-256 characters; fewer than 16 are too easy to guess.
  if (secret.size() < 16 || secret.size() > 256 || !only_chars(secret, "_-")) {
    return usage_error("--secret: 16-256 characters A-Z a-z 0-9 _ - (setWebhook's secret_token)");
  }
  if (webhook_path.empty() || webhook_path.size() > 128 || !only_chars(webhook_path, "_-")) {
    return usage_error("--webhook-path: 1-128 characters A-Z a-z 0-9 _ -");
  }
  if (api_base.rfind("http://", 0) != 0 && api_base.rfind("https://", 0) != 0) {
    return usage_error("--api-base: an http:// or https:// URL");
  }
  std::string host;
  std::uint16_t port = 0;
  if (!parse_listen(listen, host, port)) return usage_error("--listen: HOST:PORT");
  add_log_secret(token);
  add_log_secret(secret);

  curl_global_init(CURL_GLOBAL_DEFAULT);
  auto analyzer = scamcheck::Analyzer::create();
  if (!analyzer.ok()) {
    log_error("cannot load the data pack: " + analyzer.status().to_string());
    return 70;
  }
  if (const auto ocr = (*analyzer)->ocr_status(); !ocr.ok()) {
    log_warn("OCR unavailable (" + ocr.message() + "): photos get an apology");
  } else {
    log_info("OCR ready");
  }

  TelegramClient client(api_base, token);
  Bot bot(**analyzer, client, BotOptions{locale});
  RecentUpdates recent;
  const std::string route = "/telegram/" + webhook_path;
  // Declared after everything its jobs use, so it is destroyed (and its
  // jobs finished) first.
  WorkQueue queue(workers, queue_size);

  WebhookServer server([&](const WebhookRequest& request) -> WebhookResponse {
    const std::string_view path = request.target.substr(0, request.target.find('?'));
    if (path != route) return {404, R"({"error":"not found"})"};
    if (request.method != "POST") return {405, R"({"error":"use POST"})"};
    if (!request.has_secret || !constant_time_equal(request.secret, secret)) {
      log_warn("webhook request without the right secret token: 401");
      return {401, R"({"error":"wrong or missing X-Telegram-Bot-Api-Secret-Token"})"};
    }
    IncomingMessage message;
    std::string error;
    switch (parse_update(request.body, message, error)) {
      case UpdateKind::kBadRequest:
        log_warn("bad update: " + error);
        return {400, R"({"error":"not a Telegram Update"})"};
      case UpdateKind::kIgnored:
        return {200, {}};
      case UpdateKind::kMessage:
        break;
    }
    const std::int64_t update_id = message.update_id;
    if (!recent.insert(update_id)) return {200, {}};  // delivered twice
    auto job = [&bot, message = std::move(message)] {
      try {
        bot.handle(message);
      } catch (const std::exception& e) {  // out of memory, at worst
        log_error("update " + std::to_string(message.update_id) + ": " + e.what());
      }
    };
    if (!queue.try_push(std::move(job))) {
      recent.erase(update_id);  // so that Telegram's next delivery is handled
      log_warn("busy: update " + std::to_string(update_id) + " refused with 503");
      return {503, R"({"error":"busy, retry later"})"};
    }
    return {200, {}};
  });
  if (const auto status = server.listen(host, port); !status.ok()) {
    log_error(status.message());
    return 69;
  }
  log_info("listening on " + host + ":" + std::to_string(server.port()) + ", POST " + route +
           ", Bot API " + api_base);
  server.run();
  log_info("stopped; finishing the updates in progress");
  return 0;
}
