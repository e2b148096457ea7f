#include "common/base64.h"

#include <array>
#include <cstdint>

namespace scamcheck::adapters {
namespace {

// What each byte is in CONTRACT §1 base64: a sextet (0-63; both the
// standard "+/" and the URL-safe "-_" alphabet), padding, skipped
// whitespace, or not base64.
constexpr std::uint8_t kSpace = 64, kPadding = 65, kInvalid = 66;
constexpr std::array<std::uint8_t, 256> kSextets = [] {
  std::array<std::uint8_t, 256> table{};
  table.fill(kInvalid);
  constexpr std::string_view kDigits =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  for (std::size_t i = 0; i < kDigits.size(); ++i) {
    table[static_cast<unsigned char>(kDigits[i])] = static_cast<std::uint8_t>(i);
  }
  table['+'] = table['-'] = 62;
  table['/'] = table['_'] = 63;
  table['='] = kPadding;
  for (const char c : {' ', '\t', '\n', '\r', '\f', '\v'}) {
    table[static_cast<unsigned char>(c)] = kSpace;
  }
  return table;
}();

// The same table with each sextet shifted to its place in a group of four
// (the first digit is the group's top six bits): a group is the OR of four
// look-ups, and kNotDigit in it says one of the four was not a digit.
constexpr std::uint32_t kNotDigit = std::uint32_t{1} << 24;
template <int Shift>
constexpr std::array<std::uint32_t, 256> kShifted = [] {
  std::array<std::uint32_t, 256> table{};
  for (std::size_t c = 0; c < table.size(); ++c) {
    table[c] = kSextets[c] < 64 ? std::uint32_t{kSextets[c]} << Shift : kNotDigit;
  }
  return table;
}();

}  // namespace

// One pass, four sextets to three bytes, a whole group at a time where it
// can (a 10 MiB document arrives as ~14 MB of base64: nothing in it is
// secret, so no constant-time decoder).
bool decode_base64(std::string_view in, std::string* out) {
  out->resize(in.size() / 4 * 3 + 2);  // at most this many bytes
  auto* const begin = reinterpret_cast<unsigned char*>(out->data());
  unsigned char* o = begin;
  std::uint32_t group = 0;  // the sextets read of the current group
  int count = 0;            // how many: 0-3
  std::size_t padding = 0;
  const auto* const data = reinterpret_cast<const unsigned char*>(in.data());
  const std::size_t size = in.size();
  for (std::size_t i = 0; i < size;) {
    // Four digits at a group boundary at once: the whole input but for line
    // breaks and the end.
    if (count == 0 && i + 4 <= size) {
      const std::uint32_t four = kShifted<18>[data[i]] | kShifted<12>[data[i + 1]] |
                                 kShifted<6>[data[i + 2]] | kShifted<0>[data[i + 3]];
      if (four < kNotDigit) {
        if (padding != 0) return false;  // data after "="
        o[0] = static_cast<unsigned char>(four >> 16);
        o[1] = static_cast<unsigned char>(four >> 8);
        o[2] = static_cast<unsigned char>(four);
        o += 3;
        i += 4;
        continue;
      }
    }
    const std::uint8_t v = kSextets[data[i++]];
    if (v < 64) {
      if (padding != 0) return false;  // data after "="
      group = group << 6 | v;
      if (++count == 4) {
        o[0] = static_cast<unsigned char>(group >> 16);
        o[1] = static_cast<unsigned char>(group >> 8);
        o[2] = static_cast<unsigned char>(group);
        o += 3;
        group = 0;
        count = 0;
      }
    } else if (v == kPadding) {
      ++padding;
    } else if (v != kSpace) {
      return false;
    }
  }
  // A final group of two or three sextets holds one or two bytes (its
  // unused low bits are ignored); "=" fills it to four or is left out.
  if (count == 1 || (padding != 0 && padding != static_cast<std::size_t>((4 - count) % 4))) {
    return false;
  }
  if (count == 2) {
    *o++ = static_cast<unsigned char>(group >> 4);
  } else if (count == 3) {
    *o++ = static_cast<unsigned char>(group >> 10);
    *o++ = static_cast<unsigned char>(group >> 2);
  }
  out->resize(static_cast<std::size_t>(o - begin));
  return true;
}

}  // namespace scamcheck::adapters
