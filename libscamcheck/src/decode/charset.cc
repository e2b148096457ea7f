#include "decode/charset.h"

#include <cstdint>

#include "util/text.h"

namespace scamcheck::internal {
namespace {

constexpr char kReplacement[] = "\xEF\xBF\xBD";  // U+FFFD

// Length of the well-formed UTF-8 sequence at s[i], or 0 when the bytes
// there are ill-formed; `*bad` is then the length of the maximal ill-formed
// subpart (Unicode §3.9, "U+FFFD substitution of maximal subparts").
std::size_t utf8_sequence(std::string_view s, std::size_t i, std::size_t* bad) {
  const auto b0 = static_cast<std::uint8_t>(s[i]);
  std::size_t need;
  std::uint8_t lo = 0x80, hi = 0xBF;  // the allowed range of the 2nd byte
  if (b0 < 0x80) return 1;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    need = 1;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    need = 2;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;  // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    need = 3;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    *bad = 1;
    return 0;
  }
  std::size_t k = 1;
  for (; k <= need; ++k) {
    if (i + k >= s.size()) break;
    const auto b = static_cast<std::uint8_t>(s[i + k]);
    const std::uint8_t min = (k == 1) ? lo : 0x80;
    const std::uint8_t max = (k == 1) ? hi : 0xBF;
    if (b < min || b > max) break;
  }
  if (k > need) return need + 1;
  *bad = k;
  return 0;
}

void append_code_point(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// Windows-1252 0x80..0x9F; the undefined five keep their C1 value.
constexpr std::uint16_t kCp1252High[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};

}  // namespace

std::string make_valid_utf8(std::string_view bytes) {
  if (is_valid_utf8(bytes)) return std::string(bytes);
  std::string out;
  out.reserve(bytes.size() + 16);
  std::size_t i = 0;
  while (i < bytes.size()) {
    std::size_t bad = 0;
    const std::size_t len = utf8_sequence(bytes, i, &bad);
    if (len > 0) {
      out.append(bytes.data() + i, len);
      i += len;
    } else {
      out += kReplacement;
      i += bad;
    }
  }
  return out;
}

std::string windows1252_to_utf8(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() + bytes.size() / 8);
  for (char c : bytes) {
    const auto b = static_cast<std::uint8_t>(c);
    if (b < 0x80) {
      out.push_back(c);
    } else if (b < 0xA0) {
      append_code_point(out, kCp1252High[b - 0x80]);
    } else {
      append_code_point(out, b);
    }
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
