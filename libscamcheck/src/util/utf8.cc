#include "util/utf8.h"

#include <simdjson.h>
#include <unicode/utf8.h>

#include <cstdint>

namespace scamcheck::internal {

bool is_valid_utf8(std::string_view text) { return simdjson::validate_utf8(text); }

Utf8Char decode_utf8(std::string_view text, std::size_t pos) {
  const auto* s = reinterpret_cast<const std::uint8_t*>(text.data());
  const auto length = static_cast<std::int64_t>(text.size());
  auto i = static_cast<std::int64_t>(pos);
  UChar32 c;
  // ICU (since 60) consumes exactly the maximal ill-formed subpart.
  U8_NEXT(s, i, length, c);
  return {c < 0 ? kReplacementChar : static_cast<char32_t>(c), static_cast<std::size_t>(i) - pos};
}

void append_utf8(std::string& out, char32_t cp) {
  std::uint8_t buf[U8_MAX_LENGTH];
  std::size_t n = 0;
  U8_APPEND_UNSAFE(buf, n, static_cast<UChar32>(cp));
  out.append(reinterpret_cast<const char*>(buf), n);
}

std::string make_valid_utf8(std::string_view bytes) {
  if (is_valid_utf8(bytes)) return std::string(bytes);
  std::string out;
  out.reserve(bytes.size() + 16);
  for (std::size_t i = 0; i < bytes.size();) {
    const Utf8Char ch = decode_utf8(bytes, i);
    // A well-formed U+FFFD is the same three bytes as the replacement.
    if (ch.cp == kReplacementChar) {
      append_utf8(out, kReplacementChar);
    } else {
      out.append(bytes.substr(i, ch.len));
    }
    i += ch.len;
  }
  return out;
}

}  // namespace scamcheck::internal
