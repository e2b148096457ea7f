// The Bot API calls the bot makes, over libcurl: a method call
// (POST <api-base>/bot<token>/<method> with a JSON body) and a file
// download (GET <api-base>/file/bot<token>/<file_path>). Thread-safe: each
// call uses its own curl handle. Errors never contain the URL (it holds
// the token).
#ifndef SCAMCHECK_EXAMPLES_TELEGRAM_BOT_TELEGRAM_CLIENT_H_
#define SCAMCHECK_EXAMPLES_TELEGRAM_BOT_TELEGRAM_CLIENT_H_

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "scamcheck/status.h"

namespace scamcheck::telegram_bot {

struct ApiReply {
  long http_status = 0;  // 0: no answer (transport error)
  std::string body;      // the JSON answer {"ok":..., "result"|"description":...}
};

class TelegramClient {
 public:
  // `api_base` without a trailing slash, e.g. "https://api.telegram.org".
  TelegramClient(std::string api_base, std::string token,
                 std::chrono::milliseconds timeout = std::chrono::seconds(30));

  // Calls `method` with `json_body`. An HTTP error status is a reply, not
  // an error; a transport failure (refused, timeout, TLS) is kUnavailable.
  Result<ApiReply> call(std::string_view method, const std::string& json_body) const;

  // Downloads a file by the file_path getFile returned. kOutOfRange when it
  // is larger than `max_bytes` (stopped as soon as that is known),
  // kInvalidArgument for a file_path that is not a plain relative path,
  // kUnavailable for an HTTP error or a transport failure.
  Result<std::string> download(std::string_view file_path, std::size_t max_bytes) const;

 private:
  std::string api_base_;
  std::string token_;
  std::chrono::milliseconds timeout_;
};

// The "result" member of an API reply with "ok": true, as JSON text;
// otherwise an error naming the "description" Telegram gave.
Result<std::string> api_result(const ApiReply& reply);

}  // namespace scamcheck::telegram_bot

#endif  // SCAMCHECK_EXAMPLES_TELEGRAM_BOT_TELEGRAM_CLIENT_H_
