// ASCII helpers for protocol text (host names, header names, HTML tags,
// file extensions), where case folding is ASCII by definition.
#ifndef SCAMCHECK_UTIL_ASCII_H_
#define SCAMCHECK_UTIL_ASCII_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace scamcheck::internal {

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool is_alnum(char c) { return is_alpha(c) || is_digit(c); }
// Space, tab, line feed, carriage return, form feed, vertical tab (C's isspace).
inline bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// The value of hexadecimal digit `c` (either case), or -1.
inline int hex_value(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
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

inline bool ends_with_ci(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && equals_ci(s.substr(s.size() - suffix.size()), suffix);
}

// Position of the first case-insensitive occurrence of `needle`, or npos.
inline std::size_t find_ci(std::string_view hay, std::string_view needle) {
  if (needle.empty() || needle.size() > hay.size()) return std::string_view::npos;
  for (std::size_t i = 0; i + needle.size() <= hay.size(); ++i) {
    if (equals_ci(hay.substr(i, needle.size()), needle)) return i;
  }
  return std::string_view::npos;
}

// Whether `hay` contains `needle`, ignoring ASCII case; an empty needle is
// contained in everything.
inline bool contains_ci(std::string_view hay, std::string_view needle) {
  return needle.empty() || find_ci(hay, needle) != std::string_view::npos;
}

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_UTIL_ASCII_H_
