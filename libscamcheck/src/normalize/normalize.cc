#include "normalize/normalize.h"

#include <utf8proc.h>

#include <cstdlib>

namespace scamcheck::internal {
namespace {

constexpr auto kOptions = static_cast<utf8proc_option_t>(
    UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT | UTF8PROC_CASEFOLD | UTF8PROC_IGNORE |
    UTF8PROC_LUMP);

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

}  // namespace

NormalizedText::NormalizedText(std::string_view original) : original_(original) {
  text_.reserve(original.size());
  origin_start_.reserve(original.size());
  origin_end_.reserve(original.size());
  const auto* s = reinterpret_cast<const unsigned char*>(original.data());
  const std::size_t n = original.size();
  std::size_t i = 0;
  while (i < n) {
    if (s[i] < 0x80) {  // ASCII fast path: fold case, map 1:1
      unsigned char c = s[i];
      if (c >= 'A' && c <= 'Z') c = static_cast<unsigned char>(c + 32);
      text_.push_back(static_cast<char>(c));
      origin_start_.push_back(static_cast<std::uint32_t>(i));
      origin_end_.push_back(static_cast<std::uint32_t>(i + 1));
      ++i;
      continue;
    }
    // A segment: one code point plus the combining marks that follow it,
    // normalized together so composition (e.g. u + U+0308 -> ü) works.
    std::size_t end = i + sequence_length(s[i]);
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
