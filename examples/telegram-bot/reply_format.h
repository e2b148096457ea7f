// What the bot writes: its own texts in English and German, and a Report as
// a Telegram message in HTML parse mode. Every string that comes from the
// message or the report is HTML-escaped (&, <, >, "), and a reply stays
// under Telegram's 4096-character limit (long evidence is shortened, and
// signals that no longer fit are counted instead of shown).
#ifndef SCAMCHECK_EXAMPLES_TELEGRAM_BOT_REPLY_FORMAT_H_
#define SCAMCHECK_EXAMPLES_TELEGRAM_BOT_REPLY_FORMAT_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "scamcheck/report.h"

namespace scamcheck::telegram_bot {

// Telegram's limit on a message's text, in UTF-16 code units.
inline constexpr std::size_t kMaxMessageUnits = 4096;

enum class Language { kEnglish, kGerman };

// The bot's language for a user: German for a language_code starting with
// "de" ("de", "de-AT"), English for any other code; with no code (channel
// posts), the same rule applied to `fallback` (the --locale flag).
Language language_for(std::string_view language_code, std::string_view fallback);
// The locale passed to the analyzer: "en" or "de".
std::string_view locale_of(Language language);

enum class Text {
  kStart,           // answer to /start
  kHelp,            // answer to /help
  kUnsupported,     // a message with nothing the bot can check
  kFileTooBig,      // a file over the size limit
  kFileUnreadable,  // download failed, or the file is damaged
  kOcrUnavailable,  // images cannot be read on this server
  kCheckFailed,     // any other analysis error
  kWhy,             // heading of the signals
  kWhatToDo,        // heading of the actions
  kMoreSignals,     // "… and {n} more signs": {n} is replaced
  kRisk,            // "risk" before the score
  kFromPicture,     // the report is about the picture
  kFromCaption,     // the report is about the caption
};

// The text in `language`; kStart and kHelp are HTML (they use <b>).
std::string_view text(Language language, Text which);

// Escapes &, <, > and " for Telegram's HTML parse mode.
std::string html_escape(std::string_view text);

// Length of UTF-8 `text` in UTF-16 code units (how Telegram counts).
std::size_t utf16_units(std::string_view text);

// The emoji shown before the verdict: 🟢 safe, 🟠 suspicious, 🔴 danger.
std::string_view verdict_emoji(Verdict verdict);

// The reply for `report`: verdict (emoji, risk_text, score), summary, each
// signal's explanation with its evidence quoted, and the actions. `source`
// (may be empty) is a line saying what was checked. At most
// kMaxMessageUnits UTF-16 code units.
std::string format_report(const Report& report, Language language, std::string_view source);

}  // namespace scamcheck::telegram_bot

#endif  // SCAMCHECK_EXAMPLES_TELEGRAM_BOT_REPLY_FORMAT_H_
