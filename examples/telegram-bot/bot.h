// What the bot does with one message, on a worker thread: answers /start
// and /help, or fetches what there is to check (getFile and the download
// for a photo or document), analyzes it with the library and replies with
// sendMessage. Thread-safe: the Analyzer and the client are.
#ifndef SCAMCHECK_EXAMPLES_TELEGRAM_BOT_BOT_H_
#define SCAMCHECK_EXAMPLES_TELEGRAM_BOT_BOT_H_

#include <cstddef>
#include <string>

#include "scamcheck/analyzer.h"
#include "telegram_client.h"
#include "update.h"

namespace scamcheck::telegram_bot {

struct BotOptions {
  std::string default_locale = "en";                  // when the sender has no language_code
  std::size_t max_file_bytes = kMaxFileContentBytes;  // photos and documents (10 MiB)
};

class Bot {
 public:
  Bot(const Analyzer& analyzer, const TelegramClient& client, BotOptions options);

  // Handles one message and sends the reply. Failures are logged (without
  // the message text); nothing is thrown.
  void handle(const IncomingMessage& message) const;

 private:
  // Downloads and analyzes a photo or document: a report, or a Text that
  // says what went wrong.
  Result<Report> check_file(const FileRef& file, std::string_view locale) const;
  void reply(const IncomingMessage& message, const std::string& html) const;

  const Analyzer& analyzer_;
  const TelegramClient& client_;
  BotOptions options_;
};

// The JSON body of sendMessage: chat_id, text, parse_mode "HTML",
// reply_parameters (message_id, allow_sending_without_reply) and
// link_preview_options (is_disabled: no preview of a scam link).
std::string send_message_body(std::int64_t chat_id, std::int64_t reply_to, std::string_view html);

}  // namespace scamcheck::telegram_bot

#endif  // SCAMCHECK_EXAMPLES_TELEGRAM_BOT_BOT_H_
