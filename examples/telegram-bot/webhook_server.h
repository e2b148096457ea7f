// The HTTP/1.1 listener the webhook posts to, on Boost.Beast: one I/O
// thread, keep-alive, a header limit (8 KiB), a body limit (1 MiB: an
// Update is a few KiB), a read timeout against slow clients, and a stop on
// SIGINT/SIGTERM. Each request goes to a WebhookHandler, which must return
// quickly (it runs on the I/O thread).
#ifndef SCAMCHECK_EXAMPLES_TELEGRAM_BOT_WEBHOOK_SERVER_H_
#define SCAMCHECK_EXAMPLES_TELEGRAM_BOT_WEBHOOK_SERVER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "scamcheck/status.h"

namespace scamcheck::telegram_bot {

struct WebhookRequest {
  std::string_view method;  // "POST", "GET" ...
  std::string_view target;  // "/telegram/<path>"
  bool has_secret = false;  // X-Telegram-Bot-Api-Secret-Token present
  std::string_view secret;  // its value
  std::string_view body;
};

struct WebhookResponse {
  unsigned status = 200;
  std::string body;  // sent as application/json when not empty
};

using WebhookHandler = std::function<WebhookResponse(const WebhookRequest&)>;

class WebhookServer {
 public:
  explicit WebhookServer(WebhookHandler handler);
  ~WebhookServer();
  WebhookServer(const WebhookServer&) = delete;
  WebhookServer& operator=(const WebhookServer&) = delete;

  // Binds `host`:`port` (port 0: any free port). Fails when the address is
  // invalid or in use.
  Status listen(const std::string& host, std::uint16_t port);
  std::uint16_t port() const;
  // Serves until SIGINT or SIGTERM.
  void run();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace scamcheck::telegram_bot

#endif  // SCAMCHECK_EXAMPLES_TELEGRAM_BOT_WEBHOOK_SERVER_H_
