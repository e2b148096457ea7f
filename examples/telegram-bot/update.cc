#include "update.h"

#include <simdjson.h>

#include <array>

namespace scamcheck::telegram_bot {
namespace {

using simdjson::dom::element;

std::string_view string_or_empty(element object, std::string_view key) {
  std::string_view value;
  if (object[key].get(value) != simdjson::SUCCESS) return {};
  return value;
}

std::uint64_t size_or_zero(element object) {
  std::uint64_t value = 0;
  if (object["file_size"].get(value) != simdjson::SUCCESS) return 0;
  return value;
}

// The photo size with the most pixels (Telegram lists them smallest first,
// but the order is not promised).
std::optional<FileRef> largest_photo(simdjson::dom::array sizes) {
  std::optional<FileRef> best;
  std::uint64_t best_pixels = 0;
  for (element size : sizes) {
    if (!size.is_object()) continue;
    const std::string_view file_id = string_or_empty(size, "file_id");
    if (file_id.empty()) continue;
    std::uint64_t width = 0;
    std::uint64_t height = 0;
    if (size["width"].get(width) != simdjson::SUCCESS) width = 0;
    if (size["height"].get(height) != simdjson::SUCCESS) height = 0;
    const std::uint64_t pixels = width * height;
    if (!best || pixels >= best_pixels) {
      best = FileRef{std::string(file_id), size_or_zero(size), Kind::kImage};
      best_pixels = pixels;
    }
  }
  return best;
}

// Links hidden behind words ("Click here" with a text_link entity) are not
// in the text itself: each one not already there is appended on a line of
// its own, so that it is analyzed (and quoted) like a link in the text.
void append_hidden_links(element message, std::string_view key, std::string& text) {
  simdjson::dom::array entities;
  if (text.empty() || message[key].get(entities) != simdjson::SUCCESS) return;
  std::size_t added = 0;
  for (element entity : entities) {
    std::string_view type;
    std::string_view url;
    if (entity["type"].get(type) != simdjson::SUCCESS || type != "text_link" ||
        entity["url"].get(url) != simdjson::SUCCESS || url.empty() || url.size() > 2048) {
      continue;
    }
    if (text.find(url) != std::string::npos) continue;
    if (++added > 20) break;
    text += '\n';
    text += url;
  }
}

}  // namespace

std::optional<Kind> kind_for_mime_type(std::string_view mime_type) {
  static constexpr std::array<std::string_view, 7> kImages = {
      "image/png",  "image/jpeg", "image/webp",    "image/gif",
      "image/tiff", "image/bmp",  "image/x-ms-bmp"};
  for (std::string_view m : kImages) {
    if (mime_type == m) return Kind::kImage;
  }
  if (mime_type == "application/pdf" ||
      mime_type == "application/vnd.openxmlformats-officedocument.wordprocessingml.document") {
    return Kind::kDocument;
  }
  return std::nullopt;
}

bool is_single_url(std::string_view text) {
  const auto space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  if (text.empty() || text.size() > 2048) return false;
  for (char c : text) {
    if (space(c)) return false;
  }
  const auto starts = [&](std::string_view prefix) {
    if (text.size() <= prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i) {
      const char c = text[i] >= 'A' && text[i] <= 'Z' ? static_cast<char>(text[i] + 32) : text[i];
      if (c != prefix[i]) return false;
    }
    return true;
  };
  return starts("http://") || starts("https://") || starts("www.");
}

std::string command_of(std::string_view text) {
  if (text.empty() || text.front() != '/') return {};
  std::size_t end = 1;
  while (end < text.size() && text[end] != ' ' && text[end] != '@' && text[end] != '\n') ++end;
  std::string name(text.substr(1, end - 1));
  for (char& c : name) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  return name;
}

UpdateKind parse_update(std::string_view body, IncomingMessage& out, std::string& error) {
  simdjson::dom::parser parser;
  element root;
  if (const auto rc = parser.parse(body.data(), body.size()).get(root); rc != simdjson::SUCCESS) {
    error = std::string("invalid JSON: ") + simdjson::error_message(rc);
    return UpdateKind::kBadRequest;
  }
  if (!root.is_object()) {
    error = "an Update is a JSON object";
    return UpdateKind::kBadRequest;
  }
  std::int64_t update_id = 0;
  if (root["update_id"].get(update_id) != simdjson::SUCCESS) {
    error = "no integer update_id";
    return UpdateKind::kBadRequest;
  }
  out = IncomingMessage{};
  out.update_id = update_id;

  element message;
  bool found = false;
  for (std::string_view key :
       {"message", "edited_message", "channel_post", "edited_channel_post"}) {
    if (root[key].get(message) == simdjson::SUCCESS && message.is_object()) {
      found = true;
      break;
    }
  }
  if (!found) return UpdateKind::kIgnored;

  element chat;
  if (message["chat"].get(chat) != simdjson::SUCCESS ||
      chat["id"].get(out.chat_id) != simdjson::SUCCESS ||
      message["message_id"].get(out.message_id) != simdjson::SUCCESS) {
    error = "message without chat.id or message_id";
    return UpdateKind::kBadRequest;
  }
  out.chat_type = std::string(string_or_empty(chat, "type"));
  element from;
  if (message["from"].get(from) == simdjson::SUCCESS && from.is_object()) {
    out.language_code = std::string(string_or_empty(from, "language_code"));
  }
  // Forwarded messages carry their text and caption like any other.
  out.text = std::string(string_or_empty(message, "text"));
  const char* entities_key = "entities";
  if (out.text.empty()) {
    out.text = std::string(string_or_empty(message, "caption"));
    entities_key = "caption_entities";
  }
  append_hidden_links(message, entities_key, out.text);

  simdjson::dom::array photo;
  element document;
  if (message["photo"].get(photo) == simdjson::SUCCESS) {
    out.file = largest_photo(photo);
  } else if (message["document"].get(document) == simdjson::SUCCESS && document.is_object()) {
    const std::string_view file_id = string_or_empty(document, "file_id");
    const std::optional<Kind> kind = kind_for_mime_type(string_or_empty(document, "mime_type"));
    if (!file_id.empty() && kind) {
      out.file = FileRef{std::string(file_id), size_or_zero(document), *kind};
    } else {
      out.unsupported_media = true;
    }
  } else {
    for (std::string_view key : {"video", "audio", "voice", "video_note", "sticker", "animation"}) {
      if (message[key].error() == simdjson::SUCCESS) out.unsupported_media = true;
    }
  }
  return UpdateKind::kMessage;
}

}  // namespace scamcheck::telegram_bot
