// ASCII helpers for protocol text in the adapters (media types, locale tags,
// header names, option values), where case folding is ASCII by definition
// and must not depend on the C locale. The library has its own copy in
// util/ascii.h, which is private to it.
#ifndef SCAMCHECK_ADAPTERS_COMMON_ASCII_H_
#define SCAMCHECK_ADAPTERS_COMMON_ASCII_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace scamcheck::adapters {

// Space, tab, line feed, carriage return, form feed, vertical tab (C's isspace).
inline bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

inline char ascii_lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

inline std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

// `s` without leading and trailing is_space() characters.
inline std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// HTTP's optional white space (RFC 9110 §5.6.3).
inline constexpr std::string_view kHttpSpace = " \t";

// `s` without leading and trailing characters of `space`.
inline std::string_view trim(std::string_view s, std::string_view space) {
  const std::size_t begin = s.find_first_not_of(space);
  if (begin == std::string_view::npos) return {};
  return s.substr(begin, s.find_last_not_of(space) - begin + 1);
}

inline bool equals_ci(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  }
  return true;
}

inline bool starts_with_ci(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && equals_ci(s.substr(0, prefix.size()), prefix);
}

}  // namespace scamcheck::adapters

#endif  // SCAMCHECK_ADAPTERS_COMMON_ASCII_H_
