#include "decode/charset.h"

#include <cstdint>

namespace scamcheck::internal {

std::string windows1252_to_utf8(std::string_view bytes) {
  // 0x80..0x9F as Windows-1252 defines them; the five bytes it leaves
  // undefined stay the C1 controls of the same value (as ICU's converter
  // reads them). Every other byte is the code point of its value.
  static constexpr char16_t kHigh[32] = {
      0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
      0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
      0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};
  std::string out;
  out.reserve(bytes.size() + bytes.size() / 8);
  std::size_t i = 0;
  while (i < bytes.size()) {
    std::size_t ascii = i;  // a run of ASCII, copied as it is
    while (ascii < bytes.size() && static_cast<std::uint8_t>(bytes[ascii]) < 0x80) ++ascii;
    out.append(bytes.substr(i, ascii - i));
    if (ascii == bytes.size()) break;
    const auto b = static_cast<std::uint8_t>(bytes[ascii]);
    append_utf8(out, b < 0xA0 ? static_cast<char32_t>(kHigh[b - 0x80]) : static_cast<char32_t>(b));
    i = ascii + 1;
  }
  return out;
}

std::string guess_to_utf8(std::string_view bytes) {
  if (is_valid_utf8(bytes)) return std::string(bytes);
  return windows1252_to_utf8(bytes);
}

std::string_view truncate_utf8(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t end = max_bytes;
  // Back up over continuation bytes to the start of the cut character.
  while (end > 0 && (static_cast<std::uint8_t>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

}  // namespace scamcheck::internal
