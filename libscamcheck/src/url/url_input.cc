#include "url/url_input.h"

#include <algorithm>

#include "url/refang.h"
#include "url/url_parse.h"
#include "util/ascii.h"
#include "util/base64.h"
#include "util/percent.h"
#include "util/utf8.h"

namespace scamcheck::internal {

LinkMatch link_for_url_input(std::string_view content) {
  LinkMatch m;
  std::size_t s = 0;
  std::size_t e = content.size();
  while (s < e && is_space(content[s])) ++s;
  while (e > s && is_space(content[e - 1])) --e;
  m.start = s;
  m.end = e;
  if (s == e) return m;
  Refanged r = refang(content.substr(s, e - s));
  m.defanged = r.defanged;
  // A scheme is "letters:" followed by "//" or one of the script schemes;
  // "paypal.com:8080/x" has none.
  ParsedUrl p;
  bool scheme =
      parse_url(r.url, p) && (p.has_authority || p.scheme == "javascript" ||
                              p.scheme == "vbscript" || p.scheme == "data" || p.scheme == "mailto");
  m.had_scheme = scheme;
  m.url = scheme ? std::move(r.url) : "http://" + r.url;
  return m;
}

std::optional<LinkMatch> redirect_target(std::string_view content, const LinkMatch& link) {
  if (link.end > content.size() || link.start >= link.end) return std::nullopt;
  const std::string_view written = content.substr(link.start, link.end - link.start);
  const std::size_t query = written.find('?');
  if (query == std::string_view::npos) return std::nullopt;
  const std::size_t fragment = written.find('#', query);
  const std::size_t query_end = fragment == std::string_view::npos ? written.size() : fragment;
  for (std::size_t at = query + 1; at < query_end;) {
    std::size_t end = written.find('&', at);
    if (end == std::string_view::npos || end > query_end) end = query_end;
    const std::string_view param = written.substr(at, end - at);
    const std::size_t eq = param.find('=');
    if (eq != std::string_view::npos) {
      const std::string_view value = param.substr(eq + 1);
      const bool encoded =
          starts_with_ci(value, "http%3a%2f%2f") || starts_with_ci(value, "https%3a%2f%2f");
      // Base64 of "http..." ("aHR0c"), as some click trackers write it;
      // Bing's "/ck/a?...&u=a1aHR0c..." puts "a1" in front.
      const std::string_view b64 = value.substr(value.substr(0, 7) == "a1aHR0c" ? 2 : 0);
      std::optional<std::string> decoded;
      if (b64.substr(0, 5) == "aHR0c") decoded = base64_decode(b64);
      if (decoded || encoded || starts_with_ci(value, "http://") ||
          starts_with_ci(value, "https://")) {
        LinkMatch target;
        target.start = link.start + at + eq + 1;
        target.end = link.start + end;
        target.url = decoded   ? std::move(*decoded)
                     : encoded ? percent_decode(value)
                               : std::string(value);
        target.had_scheme = true;
        // What a decoded value holds must read as a URL (it is reported).
        const bool readable = is_valid_utf8(target.url) &&
                              std::none_of(target.url.begin(), target.url.end(), [](char c) {
                                return static_cast<unsigned char>(c) < 0x20 || c == 0x7F;
                              });
        ParsedUrl p;
        if (readable && parse_url(target.url, p) && p.has_authority && !p.host.empty()) {
          return target;
        }
      }
    }
    at = end + 1;
  }
  return std::nullopt;
}

}  // namespace scamcheck::internal
