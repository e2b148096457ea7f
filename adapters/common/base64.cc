#include "common/base64.h"

#include <array>
#include <cstdint>

namespace scamcheck::adapters {
namespace {

constexpr std::uint8_t kInvalid = 0xFF;
constexpr std::uint8_t kSpace = 0xFE;
constexpr std::uint8_t kPad = 0xFD;

constexpr std::array<std::uint8_t, 256> make_table() {
  std::array<std::uint8_t, 256> table{};
  for (auto& v : table) v = kInvalid;
  constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (int i = 0; i < 64; ++i) table[static_cast<unsigned char>(kAlphabet[i])] = i;
  table['-'] = 62;  // URL-safe alphabet
  table['_'] = 63;
  for (unsigned char c : {' ', '\t', '\r', '\n', '\f', '\v'}) table[c] = kSpace;
  table['='] = kPad;
  return table;
}

constexpr std::array<std::uint8_t, 256> kTable = make_table();

}  // namespace

bool decode_base64(std::string_view in, std::string* out) {
  out->clear();
  out->reserve(in.size() / 4 * 3 + 3);
  std::uint32_t acc = 0;
  int bits = 0;     // sextets in acc
  int padding = 0;  // '=' seen
  for (unsigned char c : in) {
    const std::uint8_t v = kTable[c];
    if (v == kSpace) continue;
    if (v == kInvalid) return false;
    if (v == kPad) {
      ++padding;
      continue;
    }
    if (padding) return false;  // data after padding
    acc = (acc << 6) | v;
    if (++bits == 4) {
      out->push_back(static_cast<char>(acc >> 16));
      out->push_back(static_cast<char>(acc >> 8));
      out->push_back(static_cast<char>(acc));
      acc = 0;
      bits = 0;
    }
  }
  switch (bits) {
    case 0:
      return padding == 0;
    case 1:
      return false;  // six bits cannot make a byte
    case 2:
      if (padding != 0 && padding != 2) return false;
      out->push_back(static_cast<char>(acc >> 4));
      return true;
    default:  // 3
      if (padding > 1) return false;
      out->push_back(static_cast<char>(acc >> 10));
      out->push_back(static_cast<char>(acc >> 2));
      return true;
  }
}

}  // namespace scamcheck::adapters
