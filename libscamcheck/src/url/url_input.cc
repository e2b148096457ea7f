#include "url/url_input.h"

#include "url/refang.h"
#include "url/url_parse.h"
#include "util/ascii.h"

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

}  // namespace scamcheck::internal
