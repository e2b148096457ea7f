#include "url/refang.h"

#include "util/ascii.h"

namespace scamcheck::internal {
namespace {

bool starts_with_ci(std::string_view s, std::size_t pos, std::string_view prefix) {
  if (pos > s.size() || s.size() - pos < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (ascii_lower(s[pos + i]) != prefix[i]) return false;
  }
  return true;
}

struct Marker {
  std::string_view written;  // lower case
  std::string_view replacement;
};

// Longest first where one is a prefix of another.
constexpr Marker kMarkers[] = {
    {"[.]", "."},   {"(.)", "."},     {"{.}", "."}, {"[dot]", "."}, {"(dot)", "."},
    {"{dot}", "."}, {"[://]", "://"}, {"[:]", ":"}, {"[/]", "/"},
};

}  // namespace

std::size_t defang_marker_at(std::string_view written, std::size_t pos,
                             std::string_view& replacement) {
  if (pos >= written.size()) return 0;
  char c = written[pos];
  if (c != '[' && c != '(' && c != '{') return 0;
  for (const Marker& m : kMarkers) {
    if (starts_with_ci(written, pos, m.written)) {
      replacement = m.replacement;
      return m.written.size();
    }
  }
  return 0;
}

Refanged refang(std::string_view written) {
  Refanged r;
  // Fast path: nothing to do for the usual, undefanged link.
  bool scheme_defanged = starts_with_ci(written, 0, "hxxp");
  bool any_marker = scheme_defanged;
  if (!any_marker) {
    for (std::size_t i = 0; i < written.size(); ++i) {
      std::string_view rep;
      if (defang_marker_at(written, i, rep) != 0) {
        any_marker = true;
        break;
      }
    }
  }
  if (!any_marker) {
    r.url.assign(written);
    return r;
  }
  r.defanged = true;
  r.url.reserve(written.size());
  r.origin_start.reserve(written.size());
  r.origin_end.reserve(written.size());
  bool first = true;
  auto note_marker = [&](std::size_t s, std::size_t e) {
    if (first) {
      r.marker_start = s;
      r.marker_end = e;
      first = false;
    }
  };
  std::size_t i = 0;
  if (scheme_defanged) {
    // "hxxp" -> "http": the two x map to themselves one by one.
    r.url.append("http");
    for (std::uint32_t k = 0; k < 4; ++k) {
      r.origin_start.push_back(k);
      r.origin_end.push_back(k + 1);
    }
    // The marker is the scheme word as written: "hxxp" or "hxxps".
    note_marker(0, written.size() > 4 && (written[4] == 's' || written[4] == 'S') ? 5 : 4);
    i = 4;
  }
  while (i < written.size()) {
    std::string_view rep;
    std::size_t len = defang_marker_at(written, i, rep);
    if (len != 0) {
      note_marker(i, i + len);
      for (char c : rep) {
        r.url.push_back(c);
        r.origin_start.push_back(static_cast<std::uint32_t>(i));
        r.origin_end.push_back(static_cast<std::uint32_t>(i + len));
      }
      i += len;
      continue;
    }
    r.url.push_back(written[i]);
    r.origin_start.push_back(static_cast<std::uint32_t>(i));
    r.origin_end.push_back(static_cast<std::uint32_t>(i + 1));
    ++i;
  }
  return r;
}

}  // namespace scamcheck::internal
