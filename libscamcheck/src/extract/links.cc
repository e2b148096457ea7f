#include "extract/links.h"

#include <utf8proc.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "url/public_suffix.h"
#include "url/refang.h"
#include "util/ascii.h"

namespace scamcheck::internal {
namespace {

// Longest host name we accept (RFC 1035: 253) and longest link (anything
// beyond is cut: a 64 KiB "URL" is not a link a person clicks).
constexpr std::size_t kMaxHostBytes = 253;
constexpr std::size_t kMaxLinkBytes = 8192;

bool starts_with_ci(std::string_view s, std::size_t pos, std::string_view prefix) {
  if (pos > s.size() || s.size() - pos < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (ascii_lower(s[pos + i]) != prefix[i]) return false;
  }
  return true;
}

// Decodes the code point at text[pos] (valid UTF-8 assumed; invalid bytes
// decode as U+FFFD of length 1). Returns its length.
std::size_t decode_at(std::string_view text, std::size_t pos, utf8proc_int32_t& cp) {
  auto n = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(text.data() + pos),
                            static_cast<utf8proc_ssize_t>(text.size() - pos), &cp);
  if (n <= 0) {
    cp = 0xFFFD;
    return 1;
  }
  return static_cast<std::size_t>(n);
}

// Start of the code point that ends just before `pos`.
std::size_t previous_start(std::string_view text, std::size_t pos) {
  std::size_t p = pos - 1;
  while (p > 0 && (static_cast<unsigned char>(text[p]) & 0xC0) == 0x80 && pos - p < 4) --p;
  return p;
}

bool is_word_code_point(utf8proc_int32_t cp) {
  switch (utf8proc_category(cp)) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
    case UTF8PROC_CATEGORY_MN:
    case UTF8PROC_CATEGORY_MC:
    case UTF8PROC_CATEGORY_ME:
    case UTF8PROC_CATEGORY_ND:
    case UTF8PROC_CATEGORY_NL:
    case UTF8PROC_CATEGORY_NO:
      return true;
    default:
      return false;
  }
}

// Non-ASCII characters we accept inside host labels and paths: letters,
// marks and digits below U+0800 (Latin, Greek, Cyrillic, ... — the scripts
// of homoglyph tricks). CJK text usually follows a link without a space, so
// CJK characters end a link.
bool is_link_code_point(utf8proc_int32_t cp) { return cp < 0x800 && is_word_code_point(cp); }

// A link may start at `pos` only if the character before it does not glue it
// to a longer token (a word, a path, an e-mail address, a number).
bool at_boundary(std::string_view text, std::size_t pos) {
  if (pos == 0) return true;
  char c = text[pos - 1];
  auto uc = static_cast<unsigned char>(c);
  if (uc >= 0x80) {
    utf8proc_int32_t cp;
    decode_at(text, previous_start(text, pos), cp);
    // CJK text runs into links without spaces; only letters of the link
    // scripts glue.
    return !is_link_code_point(cp);
  }
  if (is_alnum(c)) return false;
  switch (c) {
    case '.':
    case '-':
    case '_':
    case '@':
    case '/':
    case '\\':
    case '%':
    case '+':
    case '=':
    case '&':
    case '#':
    case '$':
    case '~':
      return false;
    default:
      return true;
  }
}

// Characters that end a URL outright.
bool is_terminator_ascii(char c) {
  auto uc = static_cast<unsigned char>(c);
  if (uc <= 0x20 || uc == 0x7F) return true;
  switch (c) {
    case '<':
    case '>':
    case '"':
    case '`':
    case '|':
    case '\\':
    case '^':
      return true;
    default:
      return false;
  }
}

// Consumes URL characters from `pos`; returns the end (before trimming).
// Braces are only accepted as part of a defang marker.
std::size_t consume_url_chars(std::string_view text, std::size_t pos, std::size_t limit) {
  std::size_t i = pos;
  while (i < limit) {
    char c = text[i];
    auto uc = static_cast<unsigned char>(c);
    if (uc >= 0x80) {
      utf8proc_int32_t cp;
      std::size_t n = decode_at(text, i, cp);
      if (!is_link_code_point(cp)) break;
      i += n;
      continue;
    }
    if (c == '{' || c == '}') {
      std::string_view rep;
      std::size_t m = defang_marker_at(text, i, rep);
      if (m == 0) break;
      i += m;
      continue;
    }
    if (is_terminator_ascii(c)) break;
    ++i;
  }
  return i;
}

// Drops trailing punctuation that belongs to the sentence, and closing
// brackets without an opening one inside the link.
std::size_t trim_trailing(std::string_view text, std::size_t start, std::size_t end,
                          std::size_t min_end) {
  while (end > min_end) {
    char c = text[end - 1];
    if (c == '.' || c == ',' || c == ';' || c == ':' || c == '!' || c == '?' || c == '\'' ||
        c == '"' || c == '*') {
      // Keep a defang marker's own characters ("(.)" ends in ')', not '.').
      --end;
      continue;
    }
    if (c == ')' || c == ']' || c == '}') {
      char open = c == ')' ? '(' : (c == ']' ? '[' : '{');
      int depth = 0;
      for (std::size_t k = start; k < end; ++k) {
        if (text[k] == open) ++depth;
        if (text[k] == c) --depth;
      }
      if (depth < 0) {
        --end;
        continue;
      }
    }
    break;
  }
  return end;
}

bool is_host_char_ascii(char c) { return is_alnum(c) || c == '-' || c == '_'; }

struct HostScan {
  std::size_t end = 0;  // end of the host as written
  int labels = 0;
  // Written ranges of the first `labels` labels (enough for any real host).
  // Left uninitialized: every word of a text is scanned, and zeroing 640
  // bytes per word cost more than the scan.
  struct Range {
    std::size_t first, second;
  };
  std::array<Range, 40> label_range;
  bool overflow = false;
};

// Scans a dotted host name (dots may be defanged) from `pos`. Stops at the
// first character that cannot continue it.
HostScan scan_host(std::string_view text, std::size_t pos, std::size_t limit) {
  HostScan h;
  std::size_t i = pos;
  std::size_t label_start = i;
  while (i < limit && i - pos <= kMaxHostBytes) {
    char c = text[i];
    auto uc = static_cast<unsigned char>(c);
    if (uc >= 0x80) {
      utf8proc_int32_t cp;
      std::size_t n = decode_at(text, i, cp);
      if (!is_link_code_point(cp)) break;
      i += n;
      continue;
    }
    if (is_host_char_ascii(c)) {
      ++i;
      continue;
    }
    std::size_t sep = 0;
    if (c == '.') {
      sep = 1;
    } else if (c == '[' || c == '(' || c == '{') {  // the only starts of a defang marker
      std::string_view rep;
      std::size_t m = defang_marker_at(text, i, rep);
      if (m != 0 && rep == ".") sep = m;
    }
    if (sep == 0 || i == label_start) break;
    // A separator must be followed by another label character.
    std::size_t next = i + sep;
    if (next >= limit) break;
    char nc = text[next];
    bool continues = is_host_char_ascii(nc) || static_cast<unsigned char>(nc) >= 0x80;
    if (static_cast<unsigned char>(nc) >= 0x80) {
      utf8proc_int32_t cp;
      decode_at(text, next, cp);
      continues = is_link_code_point(cp);
    }
    if (!continues) break;
    if (h.labels < static_cast<int>(h.label_range.size())) {
      h.label_range[static_cast<std::size_t>(h.labels)] = {label_start, i};
    } else {
      h.overflow = true;
    }
    ++h.labels;
    i = next;
    label_start = i;
  }
  if (i > label_start) {
    if (h.labels < static_cast<int>(h.label_range.size())) {
      h.label_range[static_cast<std::size_t>(h.labels)] = {label_start, i};
    } else {
      h.overflow = true;
    }
    ++h.labels;
    h.end = i;
  } else {
    h.end = label_start;  // cannot happen with the checks above, kept safe
  }
  return h;
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!is_digit(c)) return false;
  }
  return true;
}

bool has_upper(std::string_view s) {
  for (char c : s) {
    if (c >= 'A' && c <= 'Z') return true;
  }
  return false;
}

bool has_lower(std::string_view s) {
  for (char c : s) {
    if (c >= 'a' && c <= 'z') return true;
  }
  return false;
}

bool is_tld_label(std::string_view label) {
  char buf[64];
  if (label.empty() || label.size() >= sizeof buf) return false;
  for (std::size_t i = 0; i < label.size(); ++i) buf[i] = ascii_lower(label[i]);
  return is_known_tld(std::string_view(buf, label.size()));
}

// Whether `tld` (any case) is one of `list` (lower case).
bool listed(const std::vector<std::string>& list, std::string_view tld) {
  for (const std::string& e : list) {
    if (tld.size() == e.size() && starts_with_ci(tld, 0, e)) return true;
  }
  return false;
}

bool is_ipv4_dotted(const HostScan& h, std::string_view text) {
  if (h.labels != 4 || h.overflow) return false;
  for (int k = 0; k < 4; ++k) {
    auto [s, e] = h.label_range[static_cast<std::size_t>(k)];
    std::string_view l = text.substr(s, e - s);
    if (!all_digits(l) || l.size() > 3) return false;
    int v = 0;
    for (char c : l) v = v * 10 + (c - '0');
    if (v > 255) return false;
  }
  return true;
}

LinkMatch make_match(std::string_view text, std::size_t start, std::size_t end, bool had_scheme) {
  LinkMatch m;
  m.start = start;
  m.end = end;
  m.had_scheme = had_scheme;
  Refanged r = refang(text.substr(start, end - start));
  m.defanged = r.defanged;
  m.url = had_scheme ? std::move(r.url) : "http://" + r.url;
  return m;
}

// A scheme the extractor knows at `pos`; returns the end of "scheme://" or
// "scheme:" (script URLs), or 0.
std::size_t match_scheme(std::string_view text, std::size_t pos, bool& script) {
  script = false;
  // Every scheme below starts with one of these letters; most words do not.
  char first = ascii_lower(text[pos]);
  if (first != 'h' && first != 'j' && first != 'v' && first != 'd') return 0;
  static constexpr std::string_view kWeb[] = {"https", "http", "hxxps", "hxxp"};
  for (std::string_view s : kWeb) {
    if (!starts_with_ci(text, pos, s)) continue;
    std::size_t p = pos + s.size();
    for (std::string_view sep :
         {std::string_view("://"), std::string_view("[:]//"), std::string_view("[://]")}) {
      if (starts_with_ci(text, p, sep)) return p + sep.size();
    }
    return 0;
  }
  for (std::string_view s : {std::string_view("javascript:"), std::string_view("vbscript:")}) {
    if (starts_with_ci(text, pos, s)) {
      std::size_t p = pos + s.size();
      if (p < text.size() && !is_terminator_ascii(text[p])) {
        script = true;
        return p;
      }
      return 0;
    }
  }
  if (starts_with_ci(text, pos, "data:")) {
    // data:<type>/<subtype>[;...],... — require a media type so that
    // "data: 5 GB" in prose is not a link.
    std::size_t p = pos + 5;
    std::size_t q = p;
    while (q < text.size() && is_alpha(text[q])) ++q;
    if (q == p || q >= text.size() || text[q] != '/') return 0;
    ++q;
    std::size_t r = q;
    while (r < text.size() &&
           (is_alnum(text[r]) || text[r] == '.' || text[r] == '+' || text[r] == '-'))
      ++r;
    if (r == q || r >= text.size() || (text[r] != ';' && text[r] != ',')) return 0;
    script = true;
    return p;
  }
  return 0;
}

// Skips an e-mail address's domain after '@', so its parts are not links.
std::size_t skip_email_domain(std::string_view text, std::size_t at) {
  HostScan h = scan_host(text, at + 1, text.size());
  return h.labels > 0 ? h.end : at + 1;
}

// Whether `text` may hold a link at all: every link extract_links() finds
// has a scheme, whose ':' follows "http", "hxxp", "https", "hxxps",
// "javascript", "vbscript" or "data" (the defanged "[:]//" and "[://]" are
// markers), or a host of two labels or more, whose separator is a '.'
// followed by a label character or a defang marker ("[.]", "(dot)", ...).
// A text with none of these (most SMS) needs no scan: one table look-up
// per byte instead of the scan's work per word.
bool may_hold_link(std::string_view text) {
  static constexpr std::array<bool, 256> kTrigger = [] {
    std::array<bool, 256> t{};
    for (char c : std::string_view(".:[({")) t[static_cast<unsigned char>(c)] = true;
    return t;
  }();
  const std::size_t n = text.size();
  auto starts_link_sign = [&](std::size_t i) {
    const char c = text[i];
    if (!kTrigger[static_cast<unsigned char>(c)]) return false;
    if (c == '.') {
      return i + 1 < n &&
             (is_host_char_ascii(text[i + 1]) || static_cast<unsigned char>(text[i + 1]) >= 0x80);
    }
    if (c == ':') {
      if (i < 4) return false;
      for (std::string_view end : {"http", "hxxp", "ttps", "xxps", "ript", "data"}) {
        if (starts_with_ci(text, i - 4, end)) return true;
      }
      return false;
    }
    std::string_view rep;
    return defang_marker_at(text, i, rep) != 0;
  };
  // Eight bytes at a time; only a word holding one of the five bytes (a
  // zero byte in the word XOR that byte repeated) is read byte by byte.
  constexpr std::uint64_t kOnes = 0x0101010101010101u;
  auto has_byte = [](std::uint64_t word, char c) {
    const std::uint64_t x = word ^ (kOnes * static_cast<unsigned char>(c));
    return ((x - kOnes) & ~x & (kOnes << 7)) != 0;
  };
  std::size_t i = 0;
  for (std::uint64_t word; i + 8 <= n; i += 8) {
    std::memcpy(&word, text.data() + i, 8);
    if (!has_byte(word, '.') && !has_byte(word, ':') && !has_byte(word, '[') &&
        !has_byte(word, '(') && !has_byte(word, '{')) {
      continue;
    }
    for (std::size_t k = i; k < i + 8; ++k) {
      if (starts_link_sign(k)) return true;
    }
  }
  for (; i < n; ++i) {
    if (starts_link_sign(i)) return true;
  }
  return false;
}

}  // namespace

Result<LinkLists> LinkLists::load(const DataSource& data) {
  LinkLists lists;
  std::string problems;
  auto read = [&](const char* path, std::vector<std::string>& out) {
    Result<std::string> text = data.read(path);
    if (!text.ok()) {
      problems += text.status().message() + "; ";
      return;
    }
    for (std::string& e : parse_list(*text)) {
      if (!std::all_of(e.begin(), e.end(), [](char c) { return c >= 'a' && c <= 'z'; })) {
        problems += data.describe(path) + ": \"" + e + "\" is not a lower-case TLD; ";
        continue;
      }
      out.push_back(std::move(e));
    }
  };
  read("lists/word_tlds.txt", lists.word_tlds);
  read("lists/file_extension_tlds.txt", lists.file_extension_tlds);
  if (!problems.empty()) {
    problems.resize(problems.size() - 2);
    return Status::invalid_argument(problems);
  }
  return lists;
}

const LinkLists& LinkLists::embedded() {
  // The unit tests load the embedded lists too: they cannot fail here.
  static const LinkLists& lists = *new LinkLists([] {
    Result<LinkLists> loaded = load(DataSource(""));
    return loaded.ok() ? std::move(loaded).value() : LinkLists{};
  }());
  return lists;
}

std::vector<LinkMatch> extract_links(std::string_view text) {
  return extract_links(text, LinkLists::embedded());
}

std::vector<LinkMatch> extract_links(std::string_view text, const LinkLists& lists) {
  std::vector<LinkMatch> out;
  if (!may_hold_link(text)) return out;
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    char c = text[i];
    auto uc = static_cast<unsigned char>(c);
    bool candidate = is_alnum(c);
    std::size_t cp_len = 1;
    if (uc >= 0x80) {
      utf8proc_int32_t cp;
      cp_len = decode_at(text, i, cp);
      candidate = is_link_code_point(cp);
    }
    if (!candidate || !at_boundary(text, i)) {
      i += cp_len;
      continue;
    }

    // 1. Links with a scheme.
    bool script = false;
    if (std::size_t after = match_scheme(text, i, script); after != 0) {
      std::size_t limit = std::min(n, i + kMaxLinkBytes);
      std::size_t end = consume_url_chars(text, after, limit);
      end = trim_trailing(text, i, end, after);
      if (end > after) {
        if (script) {
          LinkMatch m;
          m.start = i;
          m.end = end;
          m.url.assign(text.substr(i, end - i));
          m.had_scheme = true;
          out.push_back(std::move(m));
        } else {
          out.push_back(make_match(text, i, end, true));
        }
        i = end;
        continue;
      }
    }

    // 2. Bare host names and "www." forms; not the domain of an e-mail
    // address whose local part is no host name ("*@lists.example.org").
    if (i > 0 && text[i - 1] == '@') {
      i = skip_email_domain(text, i - 1);
      continue;
    }
    std::size_t limit = std::min(n, i + kMaxLinkBytes);
    // Most words are one label: ASCII host characters up to the text's end
    // or a character that neither separates labels ('.', the start of a
    // defang marker), nor starts an address ('@'), nor may continue a host
    // (non-ASCII). scan_host would find one label there; skip the word.
    {
      const std::size_t bound = std::min(limit, i + kMaxHostBytes + 1);
      std::size_t k = i;
      while (k < bound && is_host_char_ascii(text[k])) ++k;
      const char next = k < n ? text[k] : '\0';
      const bool one_label =
          k > i &&
          (k == n || (k < bound && static_cast<unsigned char>(next) < 0x80 && next != '.' &&
                      next != '[' && next != '(' && next != '{' && next != '@'));
      if (one_label) {
        i = std::max(k, i + cp_len);
        continue;
      }
    }
    HostScan h = scan_host(text, i, limit);
    std::size_t run_end = h.end;
    if (h.end < n && text[h.end] == '@') {
      // The local part of an e-mail address: skip the whole address.
      i = skip_email_domain(text, h.end);
      continue;
    }
    if (h.labels < 2 || h.overflow) {
      i = std::max(run_end, i + cp_len);
      continue;
    }
    bool www = starts_with_ci(text, i, "www.") || starts_with_ci(text, i, "www[.]") ||
               starts_with_ci(text, i, "www(.)");
    bool ipv4 = is_ipv4_dotted(h, text);
    int labels = h.labels;
    if (!ipv4) {
      // Drop trailing labels that are not a TLD ("paypal.com.Thanks").
      while (labels >= 2) {
        auto [s, e] = h.label_range[static_cast<std::size_t>(labels - 1)];
        std::string_view tld = text.substr(s, e - s);
        bool mixed_case = has_upper(tld) && has_lower(tld);
        if (!all_digits(tld) && !mixed_case && is_tld_label(tld)) break;
        --labels;
      }
      if (labels < 2) {
        i = std::max(run_end, i + cp_len);
        continue;
      }
    }
    std::size_t host_end = h.label_range[static_cast<std::size_t>(labels - 1)].second;
    // Port and path only follow a complete host.
    std::size_t end = host_end;
    bool has_path = false;
    if (labels == h.labels) {
      std::size_t p = host_end;
      if (p < n && text[p] == ':') {
        std::size_t q = p + 1;
        while (q < n && q - p <= 5 && is_digit(text[q])) ++q;
        if (q > p + 1 && (q >= n || !is_alnum(text[q]))) p = q;
      }
      if (p < n && (text[p] == '/' || text[p] == '?' || text[p] == '#')) {
        std::size_t e = consume_url_chars(text, p, limit);
        e = trim_trailing(text, i, e, p);
        end = e;
        has_path = e > p + 1 || (e > p && text[p] == '/');
      } else {
        end = p;
      }
    }
    if (ipv4 && !has_path && end == host_end) {
      // A bare dotted quad without a path is more often a version number or
      // an address in a log line than a link.
      i = run_end;
      continue;
    }
    if (!www && !has_path && end > host_end) {
      // "host:2703" or "10.1.2.3:8080" with no scheme and no path is a
      // server address in a log line or a config, which no mail program
      // turns into a link.
      i = end;
      continue;
    }
    if (!ipv4 && !www && !has_path) {
      auto [fs, fe] = h.label_range[0];
      auto [ts, te] = h.label_range[static_cast<std::size_t>(labels - 1)];
      std::string_view first = text.substr(fs, fe - fs);
      std::string_view tld = text.substr(ts, te - ts);
      std::string_view written = text.substr(i, host_end - i);
      // "Co.KG", "Dr.med": abbreviations, not hosts.
      bool abbreviation = labels == 2 && first.size() <= 2 && has_upper(written);
      bool file_name = labels == 2 && listed(lists.file_extension_tlds, tld);
      // "unsold.now", "LIKING.BE": words glued by a dot. A real bare host
      // on such a TLD shows itself by a hyphen or a long lower-case name
      // ("paypal-secure.live", "securebanking.online"); with a path it
      // was taken above.
      bool word_join = false;
      if (listed(lists.word_tlds, tld)) {
        bool hyphen = written.find('-') != std::string_view::npos;
        bool long_lower = !has_upper(written) && host_end - i - tld.size() - 1 >= 10;
        word_join = !hyphen && !long_lower;
      }
      // "GOV.UK", "co.uk": a public suffix names a kind of site, not one
      // site a person could be sent to (asked last: a look-up).
      auto suffix_only = [&] {
        std::string host;
        for (int l = 0; l < labels; ++l) {
          auto [s, e] = h.label_range[static_cast<std::size_t>(l)];
          if (l > 0) host.push_back('.');
          for (std::size_t k = s; k < e; ++k) host.push_back(ascii_lower(text[k]));
        }
        return registrable_domain(host).empty();
      };
      if (abbreviation || file_name || word_join || suffix_only()) {
        i = run_end;
        continue;
      }
    }
    out.push_back(make_match(text, i, end, false));
    i = end;
  }
  return out;
}

}  // namespace scamcheck::internal
