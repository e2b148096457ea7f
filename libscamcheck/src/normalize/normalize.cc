#include "normalize/normalize.h"

#include <utf8proc.h>

#include <cstdlib>

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
  std::size_t i = 0;
  while (i < n) {
    // A combining mark after an ASCII letter (u + U+0308) needs the slow path.
    const bool ascii = s[i] < 0x80;
    const bool mark_follows =
        ascii && i + 1 < n && s[i + 1] >= 0x80 && is_combining(s + i + 1, n - i - 1);
    if (ascii && !mark_follows) {  // ASCII fast path: fold case, map 1:1
      unsigned char c = s[i];
      if (c >= 'A' && c <= 'Z') c = static_cast<unsigned char>(c + 32);
      if (c == '_' && underscores_as_spaces && !addresses.contains(i)) c = ' ';
      text_.push_back(static_cast<char>(c));
      origin_start_.push_back(static_cast<std::uint32_t>(i));
      origin_end_.push_back(static_cast<std::uint32_t>(i + 1));
      ++i;
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
    utf8proc_uint8_t* mapped = nullptr;
    utf8proc_ssize_t len =
        utf8proc_map(s + i, static_cast<utf8proc_ssize_t>(end - i), &mapped, kOptions);
    if (len >= 0) {
      text_.append(reinterpret_cast<const char*>(mapped), static_cast<std::size_t>(len));
      origin_start_.insert(origin_start_.end(), static_cast<std::size_t>(len),
                           static_cast<std::uint32_t>(i));
      origin_end_.insert(origin_end_.end(), static_cast<std::size_t>(len),
                         static_cast<std::uint32_t>(end));
    }
    std::free(mapped);
    i = end;
  }
}

}  // namespace scamcheck::internal
