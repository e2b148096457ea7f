// ASCII helpers for protocol text (header values, tags, feed lines, UUIDs),
// the server's one copy. adapters/common/ascii.h takes their place once it
// is merged.
#ifndef SCAMCHECK_ADAPTERS_SERVER_ASCII_H_
#define SCAMCHECK_ADAPTERS_SERVER_ASCII_H_

#include <string>
#include <string_view>

namespace scamcheck::server {

// C's isspace: space, tab, line feed, carriage return, form feed, vertical tab.
inline constexpr std::string_view kAsciiSpace = " \t\n\r\f\v";
// HTTP's optional white space (RFC 9110 §5.6.3).
inline constexpr std::string_view kHttpSpace = " \t";

// `s` without leading and trailing characters of `space`.
inline std::string_view trim_ascii(std::string_view s, std::string_view space = kAsciiSpace) {
  const std::size_t begin = s.find_first_not_of(space);
  if (begin == std::string_view::npos) return {};
  return s.substr(begin, s.find_last_not_of(space) - begin + 1);
}

// `s` with A-Z lowered.
inline std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_ASCII_H_
