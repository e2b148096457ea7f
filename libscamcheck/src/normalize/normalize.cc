#include "normalize/normalize.h"

#include <utf8proc.h>

#include <array>
#include <cstdlib>
#include <cstring>

namespace scamcheck::internal {
namespace {

constexpr auto kOptions =
    static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT |
                                   UTF8PROC_CASEFOLD | UTF8PROC_IGNORE | UTF8PROC_LUMP);

// Length of the UTF-8 sequence starting at s[i] (input is validated).
std::size_t sequence_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  return 4;
}

bool is_combining(const unsigned char* s, std::size_t len) {
  utf8proc_int32_t cp;
  if (utf8proc_iterate(s, static_cast<utf8proc_ssize_t>(len), &cp) <= 0) return false;
  const utf8proc_property_t* p = utf8proc_get_property(cp);
  return p->combining_class != 0 || p->category == UTF8PROC_CATEGORY_MN ||
         p->category == UTF8PROC_CATEGORY_ME;
}

// Typographic quotes that utf8proc's LUMP leaves alone: “ ” „ ‟ ″ -> '"',
// ‘ ’ ‚ ‛ ′ -> '\''. Returns 0 for anything else.
char ascii_quote(const unsigned char* s, std::size_t len) {
  if (len != 3 || s[0] != 0xE2 || s[1] != 0x80) return 0;
  switch (s[2]) {
    case 0x9C:
    case 0x9D:
    case 0x9E:
    case 0x9F:
    case 0xB3:
      return '"';
    case 0x98:
    case 0x99:
    case 0x9A:
    case 0x9B:
    case 0xB2:
      return '\'';
    default:
      return 0;
  }
}

// Whether the white-space delimited token around original[at] is an
// address or a file name ('/', '.', '@' or ':' in it), whose underscores
// join parts of one name ("registration_fees.html"). Each token is read
// once, however many underscores it holds.
class AddressTokens {
 public:
  explicit AddressTokens(std::string_view original) : s_(original) {}
  bool contains(std::size_t at) {
    if (at >= end_) {
      auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
      std::size_t start = at;
      while (start > 0 && !blank(s_[start - 1])) --start;
      end_ = at;
      while (end_ < s_.size() && !blank(s_[end_])) ++end_;
      address_ = s_.substr(start, end_ - start).find_first_of("/.@:") != std::string_view::npos;
    }
    return address_;
  }

 private:
  std::string_view s_;
  std::size_t end_ = 0;  // the current token ends here
  bool address_ = false;
};

}  // namespace

NormalizedText::NormalizedText(std::string_view original, bool underscores_as_spaces)
    : original_(original) {
  text_.reserve(original.size());
  origin_start_.reserve(original.size());
  origin_end_.reserve(original.size());
  const auto* s = reinterpret_cast<const unsigned char*>(original.data());
  const std::size_t n = original.size();
  AddressTokens addresses(original);
  auto append = [&](const char* bytes, utf8proc_ssize_t len, std::size_t from, std::size_t to) {
    text_.append(bytes, static_cast<std::size_t>(len));
    origin_start_.insert(origin_start_.end(), static_cast<std::size_t>(len),
                         static_cast<std::uint32_t>(from));
    origin_end_.insert(origin_end_.end(), static_cast<std::size_t>(len),
                       static_cast<std::uint32_t>(to));
  };
  std::size_t i = 0;
  while (i < n) {
    // A run of ASCII maps 1:1, case folded, in one go; its last byte takes
    // the slow path when a combining mark follows (u + U+0308 -> ü).
    // Eight bytes at a time while none has its high bit set.
    std::size_t j = i;
    for (std::uint64_t word; j + 8 <= n; j += 8) {
      std::memcpy(&word, s + j, 8);
      if ((word & 0x8080808080808080u) != 0) break;
    }
    while (j < n && s[j] < 0x80) ++j;
    if (j < n && j > i && is_combining(s + j, n - j)) --j;
    if (j > i) {
      const std::size_t at = text_.size();
      text_.resize(at + (j - i));
      origin_start_.resize(at + (j - i));
      origin_end_.resize(at + (j - i));
      // Plain pointers: a char store may alias anything, so through the
      // containers every byte would reload their data pointers.
      char* out = text_.data() + at - i;
      std::uint32_t* starts = origin_start_.data() + at - i;
      std::uint32_t* ends = origin_end_.data() + at - i;
      // Case folded and mapped without a branch (the compiler vectorizes
      // it); then the underscores, found by the library's byte search.
      for (std::size_t k = i; k < j; ++k) {
        const unsigned char c = s[k];
        out[k] = static_cast<char>(c + (static_cast<unsigned char>(c - 'A') < 26 ? 32 : 0));
        starts[k] = static_cast<std::uint32_t>(k);
        ends[k] = static_cast<std::uint32_t>(k + 1);
      }
      if (underscores_as_spaces) {
        for (const void* u = std::memchr(s + i, '_', j - i); u != nullptr;) {
          const auto k = static_cast<std::size_t>(static_cast<const unsigned char*>(u) - s);
          if (!addresses.contains(k)) {
            out[k] = ' ';
            spaced_underscores_ = true;
          }
          u = k + 1 < j ? std::memchr(s + k + 1, '_', j - k - 1) : nullptr;
        }
      }
      i = j;
      continue;
    }
    // A segment: one code point plus the combining marks that follow it,
    // normalized together so composition (e.g. u + U+0308 -> ü) works.
    std::size_t end = i + sequence_length(s[i]);
    if (char q = ascii_quote(s + i, end - i); q != 0) {
      text_.push_back(q);
      origin_start_.push_back(static_cast<std::uint32_t>(i));
      origin_end_.push_back(static_cast<std::uint32_t>(end));
      i = end;
      continue;
    }
    while (end < n && s[end] >= 0x80 && is_combining(s + end, n - end)) {
      end += sequence_length(s[end]);
    }
    if (end > n) end = n;
    // utf8proc_map without its allocation for a short segment: decompose
    // into a buffer here, then compose and re-encode in place.
    std::array<utf8proc_int32_t, 64> buffer;
    const auto seg = static_cast<utf8proc_ssize_t>(end - i);
    utf8proc_ssize_t count = utf8proc_decompose(
        s + i, seg, buffer.data(), static_cast<utf8proc_ssize_t>(buffer.size() - 1), kOptions);
    if (count >= 0 && count < static_cast<utf8proc_ssize_t>(buffer.size())) {
      const utf8proc_ssize_t len = utf8proc_reencode(buffer.data(), count, kOptions);
      if (len >= 0) append(reinterpret_cast<const char*>(buffer.data()), len, i, end);
    } else {
      utf8proc_uint8_t* mapped = nullptr;
      const utf8proc_ssize_t len = utf8proc_map(s + i, seg, &mapped, kOptions);
      if (len >= 0) append(reinterpret_cast<const char*>(mapped), len, i, end);
      std::free(mapped);
    }
    i = end;
  }
}

}  // namespace scamcheck::internal
