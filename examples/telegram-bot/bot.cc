#include "bot.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>

#include "log.h"
#include "reply_format.h"

namespace scamcheck::telegram_bot {
namespace {

// The text the user reads for an error of check_file() or analyze():
// kOutOfRange is a file over a limit, kUnavailable no OCR models,
// kNotFound a file that could not be fetched, kInvalidArgument a damaged
// file.
Text text_for(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOutOfRange:
      return Text::kFileTooBig;
    case StatusCode::kUnavailable:
      return Text::kOcrUnavailable;
    case StatusCode::kNotFound:
    case StatusCode::kInvalidArgument:
      return Text::kFileUnreadable;
    default:
      return Text::kCheckFailed;
  }
}

// parameters.retry_after of a 429 answer, between 1 and 10 seconds.
int retry_after_seconds(const std::string& body) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  std::int64_t seconds = 1;
  if (parser.parse(body).get(root) != simdjson::SUCCESS ||
      root["parameters"]["retry_after"].get(seconds) != simdjson::SUCCESS) {
    seconds = 1;
  }
  return static_cast<int>(std::clamp<std::int64_t>(seconds, 1, 10));
}

std::string context(const IncomingMessage& message) {
  return "update " + std::to_string(message.update_id) + " chat " + std::to_string(message.chat_id);
}

}  // namespace

std::string send_message_body(std::int64_t chat_id, std::int64_t reply_to, std::string_view html) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.StartObject();
  writer.Key("chat_id");
  writer.Int64(chat_id);
  writer.Key("text");
  writer.String(html.data(), static_cast<rapidjson::SizeType>(html.size()));
  writer.Key("parse_mode");
  writer.String("HTML");
  if (reply_to != 0) {
    writer.Key("reply_parameters");
    writer.StartObject();
    writer.Key("message_id");
    writer.Int64(reply_to);
    writer.Key("allow_sending_without_reply");
    writer.Bool(true);
    writer.EndObject();
  }
  writer.Key("link_preview_options");
  writer.StartObject();
  writer.Key("is_disabled");
  writer.Bool(true);
  writer.EndObject();
  writer.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

Bot::Bot(const Analyzer& analyzer, const TelegramClient& client, BotOptions options)
    : analyzer_(analyzer), client_(client), options_(std::move(options)) {}

void Bot::reply(const IncomingMessage& message, const std::string& html) const {
  const std::string body = send_message_body(message.chat_id, message.message_id, html);
  auto sent = client_.call("sendMessage", body);
  // Over Telegram's rate limit (429): wait as long as it asks (up to 10 s)
  // and try once more.
  if (sent.ok() && sent->http_status == 429) {
    const int seconds = retry_after_seconds(sent->body);
    log_warn(context(message) + ": sendMessage rate-limited, retrying in " +
             std::to_string(seconds) + " s");
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
    sent = client_.call("sendMessage", body);
  }
  if (!sent.ok()) {
    log_warn(context(message) + ": sendMessage failed: " + sent.status().message());
    return;
  }
  const auto result = api_result(*sent);
  if (!result.ok()) {
    log_warn(context(message) + ": sendMessage refused: " + result.status().message());
    return;
  }
  log_info(context(message) + ": replied");
}

Result<Report> Bot::check_file(const FileRef& file, std::string_view locale) const {
  if (file.file_size > options_.max_file_bytes) {
    return Status::out_of_range("file of " + std::to_string(file.file_size) + " bytes");
  }
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.StartObject();
  writer.Key("file_id");
  writer.String(file.file_id.data(), static_cast<rapidjson::SizeType>(file.file_id.size()));
  writer.EndObject();
  const auto answer = client_.call("getFile", {buffer.GetString(), buffer.GetSize()});
  if (!answer.ok()) return Status::not_found(answer.status().message());
  const auto result = api_result(*answer);
  if (!result.ok()) return Status::not_found("getFile: " + result.status().message());

  simdjson::dom::parser parser;
  simdjson::dom::element info;
  std::string_view file_path;
  if (parser.parse(*result).get(info) != simdjson::SUCCESS ||
      info["file_path"].get(file_path) != simdjson::SUCCESS) {
    return Status::not_found("getFile: no file_path in the answer");
  }
  std::uint64_t size = 0;
  if (info["file_size"].get(size) == simdjson::SUCCESS && size > options_.max_file_bytes) {
    return Status::out_of_range("file of " + std::to_string(size) + " bytes");
  }
  auto bytes = client_.download(file_path, options_.max_file_bytes);
  if (!bytes.ok()) {
    if (bytes.status().code() == StatusCode::kOutOfRange) return bytes.status();
    return Status::not_found(bytes.status().message());
  }
  // What the bytes are decides the kind (a "PDF" that is a PNG is read as
  // an image); anything else is left to the kind the MIME type gave.
  const Kind kind = sniff_kind(*bytes).value_or(file.kind);
  return analyzer_.analyze(*bytes, kind, locale);
}

void Bot::handle(const IncomingMessage& message) const {
  const Language language = language_for(message.language_code, options_.default_locale);
  const std::string_view locale = locale_of(language);

  const std::string command = command_of(message.text);
  if (!message.file && !command.empty()) {
    if (command == "start") {
      reply(message, std::string(text(language, Text::kStart)));
    } else {
      // /help, and any command this bot does not have.
      reply(message, std::string(text(language, Text::kHelp)));
    }
    return;
  }

  std::optional<Report> best;
  std::string source;
  Status failure;
  if (message.file) {
    auto report = check_file(*message.file, locale);
    if (report.ok()) {
      best = std::move(*report);
      if (!message.text.empty()) source = std::string(text(language, Text::kFromPicture));
    } else {
      failure = report.status();
      log_warn(context(message) + ": file not checked: " + failure.message());
    }
  }
  if (!message.text.empty()) {
    const Kind kind = is_single_url(message.text) ? Kind::kUrl : Kind::kText;
    auto report = analyzer_.analyze(message.text, kind, locale);
    if (report.ok()) {
      // A photo with a caption: the riskier of the two reports is shown.
      if (!best || report->risk_score > best->risk_score) {
        if (message.file) source = std::string(text(language, Text::kFromCaption));
        best = std::move(*report);
      }
    } else if (!best) {
      failure = report.status();
      log_warn(context(message) + ": text not checked: " + failure.message());
    }
  }

  if (best) {
    log_info(context(message) + ": " + std::string(to_string(best->verdict)) + " " +
             std::to_string(best->risk_score));
    reply(message, format_report(*best, language, source));
  } else if (!failure.ok()) {
    reply(message, html_escape(text(language, text_for(failure))));
  } else if (message.chat_type == "private") {
    // Nothing to check (a sticker, a video ...). In groups and channels
    // such messages are not meant for the bot and get no answer.
    reply(message, html_escape(text(language, Text::kUnsupported)));
  }
}

}  // namespace scamcheck::telegram_bot
