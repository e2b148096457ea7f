// Reading a Telegram Update (https://core.telegram.org/bots/api#update):
// the message it carries (message, edited_message, channel_post or
// edited_channel_post), its chat, the sender's language and what there is
// to check: text or caption, the largest photo size, or a document.
#ifndef SCAMCHECK_EXAMPLES_TELEGRAM_BOT_UPDATE_H_
#define SCAMCHECK_EXAMPLES_TELEGRAM_BOT_UPDATE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "scamcheck/report.h"

namespace scamcheck::telegram_bot {

// A photo, or a document of a type the library reads.
struct FileRef {
  std::string file_id;
  std::uint64_t file_size = 0;  // 0: not given
  Kind kind = Kind::kImage;     // kImage or kDocument
};

struct IncomingMessage {
  std::int64_t update_id = 0;
  std::int64_t chat_id = 0;
  std::int64_t message_id = 0;
  std::string chat_type;      // "private", "group", "supergroup", "channel"
  std::string language_code;  // from.language_code; empty for channel posts
  std::string text;           // text, or the caption of a media message, and the
                              // URLs of its text_link entities (links behind words)
  std::optional<FileRef> file;
  // A document of a type the library does not read (a video, a ZIP ...).
  bool unsupported_media = false;
};

enum class UpdateKind {
  kMessage,     // `out` is filled in
  kIgnored,     // valid, but nothing to answer (a poll, a member change ...)
  kBadRequest,  // not JSON, or not an Update
};

// Reads `body` (the webhook request body). `error` says why for kBadRequest.
UpdateKind parse_update(std::string_view body, IncomingMessage& out, std::string& error);

// The kind a document's MIME type is analyzed as (image/png -> kImage,
// application/pdf -> kDocument ...), or nullopt for other types.
std::optional<Kind> kind_for_mime_type(std::string_view mime_type);

// Whether `text` is one URL and nothing else (surrounding spaces aside):
// it is then analyzed as kind url.
bool is_single_url(std::string_view text);

// "/start", "/help" (also "/start@SomeBot args"): the command's name
// without "/" and the bot name; empty when `text` is no command.
std::string command_of(std::string_view text);

}  // namespace scamcheck::telegram_bot

#endif  // SCAMCHECK_EXAMPLES_TELEGRAM_BOT_UPDATE_H_
