// Header value readers. Real mail is full of broken syntax (unquoted
// commas in decoded names, a missing '>', comments in odd places), so each
// reader looks for the few landmarks it needs instead of parsing RFC 5322
// strictly.
#include "email/header_parse.h"

#include <array>
#include <cstdlib>
#include <string>

#include "util/ascii.h"

namespace scamcheck::internal {
namespace {

bool is_header_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Trims blanks and the characters in `extra` from both ends of [s, e).
Span trim(std::string_view v, std::size_t s, std::size_t e, std::string_view extra = {}) {
  auto strip = [&](char c) {
    return is_header_space(c) || extra.find(c) != std::string_view::npos;
  };
  while (s < e && strip(v[s])) ++s;
  while (e > s && strip(v[e - 1])) --e;
  return {s, e};
}

// Positions of top-level (outside quotes and comments) '<' and their '>'.
struct Angle {
  std::size_t open;
  std::size_t close;  // == value.size() when missing
};

std::vector<Angle> top_level_angles(std::string_view v) {
  std::vector<Angle> out;
  bool quoted = false;
  int comment = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    char c = v[i];
    if (quoted) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        quoted = false;
      }
      continue;
    }
    if (comment > 0) {
      if (c == '\\') {
        ++i;
      } else if (c == '(') {
        ++comment;
      } else if (c == ')') {
        --comment;
      }
      continue;
    }
    if (c == '"') {
      quoted = true;
    } else if (c == '(') {
      comment = 1;
    } else if (c == '<') {
      std::size_t close = v.find('>', i + 1);
      if (close == std::string_view::npos) close = v.size();
      out.push_back({i, close});
      i = close;
    }
  }
  // An unbalanced quote swallowed the rest: read the angles plainly.
  if (out.empty() && quoted) {
    std::size_t open = v.rfind('<');
    if (open != std::string_view::npos) {
      std::size_t close = v.find('>', open + 1);
      out.push_back({open, close == std::string_view::npos ? v.size() : close});
    }
  }
  return out;
}

// Fills address/domain from the addr-spec candidate [s, e) of `v`.
void set_address(std::string_view v, std::size_t s, std::size_t e, Mailbox& m) {
  Span a = trim(v, s, e, "\"'<>,;");
  // Obsolete source route "@a,@b:user@host".
  if (!a.empty() && v[a.start] == '@') {
    std::size_t colon = v.substr(a.start, a.end - a.start).find(':');
    if (colon != std::string_view::npos) a = trim(v, a.start + colon + 1, a.end, "\"'");
  }
  if (a.empty()) return;
  m.address = a;
  std::string_view addr = a.of(v);
  std::size_t at = addr.rfind('@');
  if (at == std::string_view::npos) return;
  Span d = trim(v, a.start + at + 1, a.end, "\"'.>)];,");
  // A domain ends at the first blank or comment ("x.com (Name)").
  for (std::size_t i = d.start; i < d.end; ++i) {
    if (is_header_space(v[i]) || v[i] == '(' || v[i] == '<') {
      d.end = i;
      break;
    }
  }
  while (d.end > d.start && v[d.end - 1] == '.') --d.end;
  if (!d.empty()) m.domain = d;
}

bool is_word_break(char c) {
  return is_header_space(c) || c == ',' || c == ';' || c == '<' || c == '>' || c == '(' ||
         c == ')' || c == '"';
}

}  // namespace

Mailbox parse_mailbox(std::string_view v) {
  Mailbox m;
  std::vector<Angle> angles = top_level_angles(v);
  if (!angles.empty()) {
    const Angle& a = angles.back();
    set_address(v, a.open + 1, a.close, m);
    Span name = trim(v, 0, a.open);
    // Peel quotes and trailing separators in turn: "\"Nocibé\", " -> Nocibé.
    for (int k = 0; k < 4; ++k) name = trim(v, name.start, name.end, "\"',;");
    m.name = name;
    return m;
  }
  // No angle brackets: the first word with an '@' is the address.
  std::size_t at = v.find('@');
  if (at == std::string_view::npos) {
    Span name = trim(v, 0, v.size());
    for (int k = 0; k < 4; ++k) name = trim(v, name.start, name.end, "\"',;");
    m.name = name;
    return m;
  }
  std::size_t s = at, e = at;
  while (s > 0 && !is_word_break(v[s - 1])) --s;
  while (e < v.size() && !is_word_break(v[e])) ++e;
  set_address(v, s, e, m);
  // "addr (Name)" names the mailbox in a comment; "Name addr" before it.
  std::size_t open = v.find('(', e);
  if (open != std::string_view::npos) {
    std::size_t close = v.find(')', open + 1);
    if (close == std::string_view::npos) close = v.size();
    Span name = trim(v, open + 1, close, "\"'");
    if (!name.empty()) {
      m.name = name;
      return m;
    }
  }
  Span before = trim(v, 0, s, "\"',;");
  if (!before.empty()) m.name = before;
  return m;
}

std::vector<Mailbox> parse_mailbox_list(std::string_view v) {
  std::vector<Mailbox> out;
  bool quoted = false;
  int comment = 0;
  bool angle = false;
  std::size_t seg = 0;
  auto flush = [&](std::size_t end) {
    Span s = trim(v, seg, end);
    if (!s.empty()) {
      Mailbox m = parse_mailbox(v.substr(s.start, s.end - s.start));
      auto shift = [&](Span& sp) {
        if (!sp.empty()) {
          sp.start += s.start;
          sp.end += s.start;
        }
      };
      shift(m.name);
      shift(m.address);
      shift(m.domain);
      out.push_back(m);
    }
  };
  for (std::size_t i = 0; i < v.size(); ++i) {
    char c = v[i];
    if (quoted) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        quoted = false;
      }
      continue;
    }
    if (comment > 0) {
      if (c == '(') ++comment;
      if (c == ')') --comment;
      continue;
    }
    if (angle) {
      if (c == '>') angle = false;
      continue;
    }
    if (c == '"') {
      quoted = true;
    } else if (c == '(') {
      comment = 1;
    } else if (c == '<') {
      angle = true;
    } else if (c == ',' || c == ';') {
      flush(i);
      seg = i + 1;
    }
  }
  flush(v.size());
  return out;
}

std::vector<NameAddress> addresses_in(std::string_view v, Span within) {
  std::vector<NameAddress> out;
  auto local_char = [](char c) {
    return is_alpha(c) || is_digit(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-' ||
           c == '\'';
  };
  auto domain_char = [](char c) {
    return is_alpha(c) || is_digit(c) || c == '.' || c == '-' ||
           static_cast<unsigned char>(c) >= 0x80;
  };
  std::size_t end = std::min(within.end, v.size());
  for (std::size_t at = within.start; at < end; ++at) {
    if (v[at] != '@') continue;
    std::size_t s = at, e = at + 1;
    while (s > within.start && local_char(v[s - 1])) --s;
    while (e < end && domain_char(v[e])) ++e;
    while (e > at + 1 && (v[e - 1] == '.' || v[e - 1] == '-')) --e;
    if (s == at || e == at + 1) continue;
    std::string_view domain = v.substr(at + 1, e - at - 1);
    std::size_t dot = domain.rfind('.');
    if (dot == std::string_view::npos || dot + 2 > domain.size()) continue;
    bool letters = true;
    for (char c : domain.substr(dot + 1))
      letters = letters && (is_alpha(c) || c == '-' || static_cast<unsigned char>(c) >= 0x80);
    if (!letters) continue;
    out.push_back({{s, e}, {at + 1, e}});
    at = e;
  }
  return out;
}

std::vector<Span> domains_in(std::string_view v, Span within) {
  std::vector<Span> out;
  auto label_char = [](char c) { return is_alpha(c) || is_digit(c) || c == '-'; };
  std::size_t end = std::min(within.end, v.size());
  std::size_t i = within.start;
  while (i < end) {
    if (!label_char(v[i])) {
      ++i;
      continue;
    }
    std::size_t s = i;
    while (i < end && (label_char(v[i]) || (v[i] == '.' && i + 1 < end && label_char(v[i + 1])))) {
      ++i;
    }
    // Part of an address ("x@host.com", "host.com@x"): not a shown domain.
    bool address = (s > within.start && v[s - 1] == '@') || (i < end && v[i] == '@');
    std::string_view w = v.substr(s, i - s);
    std::size_t dot = w.rfind('.');
    if (address || dot == std::string_view::npos || dot + 2 >= w.size()) continue;
    bool letters = true;
    for (char c : w.substr(dot + 1)) letters = letters && is_alpha(c);
    if (letters && label_char(w.front()) && w.front() != '-') out.push_back({s, i});
  }
  return out;
}

Span message_id_domain(std::string_view v) {
  std::size_t at = v.rfind('@');
  if (at == std::string_view::npos) return {};
  std::size_t e = at + 1;
  while (e < v.size() && v[e] != '>' && !is_header_space(v[e]) && v[e] != ';' && v[e] != ',') ++e;
  Span d = trim(v, at + 1, e, "\"'[].");
  return d;
}

namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

int month_of(std::string_view w) {
  static constexpr std::array<std::string_view, 12> kMonths = {
      "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};
  if (w.size() < 3 || w.size() > 9) return 0;
  for (std::size_t i = 0; i < kMonths.size(); ++i) {
    if (equals_ci(w.substr(0, 3), kMonths[i])) return static_cast<int>(i) + 1;
  }
  return 0;
}

bool is_weekday(std::string_view w) {
  static constexpr std::array<std::string_view, 7> kDays = {"mon", "tue", "wed", "thu",
                                                            "fri", "sat", "sun"};
  if (w.size() < 3) return false;
  for (std::string_view d : kDays) {
    if (equals_ci(w.substr(0, 3), d)) return true;
  }
  return false;
}

// Offset in minutes of a named zone (RFC 5322 obs-zone plus the common
// European ones); false if unknown.
bool named_zone(std::string_view w, int& minutes) {
  struct Z {
    std::string_view name;
    int minutes;
  };
  static constexpr std::array<Z, 20> kZones = {
      {{"ut", 0},     {"utc", 0},    {"gmt", 0},    {"z", 0},      {"est", -300},
       {"edt", -240}, {"cst", -360}, {"cdt", -300}, {"mst", -420}, {"mdt", -360},
       {"pst", -480}, {"pdt", -420}, {"cet", 60},   {"cest", 120}, {"met", 60},
       {"mest", 120}, {"bst", 60},   {"eet", 120},  {"eest", 180}, {"jst", 540}}};
  for (const Z& z : kZones) {
    if (equals_ci(w, z.name)) {
      minutes = z.minutes;
      return true;
    }
  }
  return false;
}

bool all_digits(std::string_view w) {
  if (w.empty()) return false;
  for (char c : w) {
    if (!is_digit(c)) return false;
  }
  return true;
}

int to_int(std::string_view w) {
  int n = 0;
  for (char c : w) {
    if (n > 100000) break;
    n = n * 10 + (c - '0');
  }
  return n;
}

}  // namespace

DateTime parse_date(std::string_view text) {
  DateTime out;
  // Words separated by blanks and commas; comments "(EDT)" dropped.
  std::vector<std::string_view> words;
  int comment = 0;
  std::size_t i = 0;
  while (i < text.size() && words.size() < 12) {
    char c = text[i];
    if (c == '(') {
      ++comment;
      ++i;
      continue;
    }
    if (c == ')') {
      if (comment > 0) --comment;
      ++i;
      continue;
    }
    if (comment > 0 || is_header_space(c) || c == ',') {
      ++i;
      continue;
    }
    std::size_t s = i;
    while (i < text.size() && !is_header_space(text[i]) && text[i] != ',' && text[i] != '(') ++i;
    words.push_back(text.substr(s, i - s));
  }
  int day = -1, month = 0, year = -1, hour = -1, minute = -1, second = 0;
  int zone = 0;
  bool zone_bad = false;
  std::vector<std::string_view> numbers;
  for (std::string_view w : words) {
    if (w.find(':') != std::string_view::npos && hour < 0) {
      // hh:mm[:ss]
      std::size_t c1 = w.find(':');
      std::size_t c2 = w.find(':', c1 + 1);
      std::string_view h = w.substr(0, c1);
      std::string_view m =
          w.substr(c1 + 1, c2 == std::string_view::npos ? std::string_view::npos : c2 - c1 - 1);
      std::string_view s = c2 == std::string_view::npos ? std::string_view() : w.substr(c2 + 1);
      std::size_t frac = s.find('.');  // "43.042" in some Received lines
      if (frac != std::string_view::npos) s = s.substr(0, frac);
      if (!all_digits(h) || !all_digits(m) || (!s.empty() && !all_digits(s)) || h.size() > 2 ||
          m.size() > 2 || s.size() > 2) {
        return out;  // kMalformed
      }
      hour = to_int(h);
      minute = to_int(m);
      second = s.empty() ? 0 : to_int(s);
    } else if ((w[0] == '+' || w[0] == '-') && w.size() >= 2 && all_digits(w.substr(1))) {
      std::string_view d = w.substr(1);
      if (d.size() != 4) {
        zone_bad = true;
      } else {
        int hh = to_int(d.substr(0, 2)), mm = to_int(d.substr(2));
        if (hh > 14 || mm > 59) zone_bad = true;
        zone = (w[0] == '-' ? -1 : 1) * (hh * 60 + mm);
      }
    } else if (all_digits(w)) {
      numbers.push_back(w);
    } else if (month == 0 && month_of(w) != 0 && !is_weekday(w)) {
      month = month_of(w);
    } else {
      int z = 0;
      if (named_zone(w, z)) zone = z;
      // Other words (weekdays, "GMT+1", unknown zones) are tolerated.
    }
  }
  // Day and year: RFC order is "day month year"; asctime writes
  // "Mon DD hh:mm:ss YYYY". The longer number is the year.
  if (numbers.size() >= 2) {
    std::string_view a = numbers[0], b = numbers[1];
    if (a.size() > 2 && b.size() <= 2) std::swap(a, b);
    day = to_int(a);
    year = to_int(b);
    if (b.size() == 2) {
      year += year < 50 ? 2000 : 1900;
    } else if (b.size() == 3) {
      year += 1900;  // RFC 5322 obs-year
    } else if (b.size() > 4) {
      out.status = DateTime::Status::kImpossible;
      return out;
    }
  }
  if (day < 0 || month == 0 || year < 0 || hour < 0) return out;  // kMalformed
  static constexpr std::array<int, 12> kDaysIn = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (day < 1 || day > kDaysIn[static_cast<std::size_t>(month - 1)] || hour > 23 || minute > 59 ||
      second > 60 || year < 1990 || year > 2200 || zone_bad) {
    out.status = DateTime::Status::kImpossible;
    return out;
  }
  out.status = DateTime::Status::kOk;
  out.epoch =
      days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)) * 86400 +
      hour * 3600 + minute * 60 + second - zone * 60;
  return out;
}

DateTime received_date(std::string_view value) {
  std::size_t semi = value.rfind(';');
  if (semi == std::string_view::npos) return {};
  return parse_date(value.substr(semi + 1));
}

ReceivedFrom parse_received_from(std::string_view v) {
  ReceivedFrom r;
  std::size_t i = 0;
  while (i < v.size() && is_header_space(v[i])) ++i;
  if (v.size() < i + 5 || !equals_ci(v.substr(i, 4), "from") || !is_header_space(v[i + 4]))
    return r;
  i += 4;
  while (i < v.size() && is_header_space(v[i])) ++i;
  std::size_t s = i;
  while (i < v.size() && !is_header_space(v[i]) && v[i] != '(') ++i;
  Span first{s, i};
  r.valid = true;
  std::string_view fw = first.of(v);
  bool first_is_ip = !fw.empty() && fw.front() == '[';
  if (first_is_ip) {
    r.ip = trim(v, first.start, first.end, "[]");
  } else if (!fw.empty() && !equals_ci(fw, "unknown")) {
    r.helo = first;
  }
  while (i < v.size() && is_header_space(v[i])) ++i;
  if (i >= v.size() || v[i] != '(') return r;
  std::size_t close = v.find(')', i);
  if (close == std::string_view::npos) close = v.size();
  std::string_view inner = v.substr(i + 1, close - i - 1);
  std::size_t base = i + 1;
  // "helo=name" (Exim) or "HELO name" (qmail) names the HELO explicitly.
  for (std::size_t k = 0; k + 5 <= inner.size(); ++k) {
    if (!equals_ci(inner.substr(k, 4), "helo")) continue;
    if (k > 0 && !is_header_space(inner[k - 1])) continue;
    std::size_t h = k + 4;
    if (inner[h] != '=' && !is_header_space(inner[h])) continue;
    ++h;
    std::size_t he = h;
    while (he < inner.size() && !is_header_space(inner[he]) && inner[he] != ')') ++he;
    Span hs = trim(v, base + h, base + he, "[]");
    if (!hs.empty() && v[base + h] != '[') r.helo = hs;
    break;
  }
  // "reverse [ip]" / "[ip]" / "ip" (Microsoft writes only the address).
  std::size_t lb = inner.find('[');
  if (lb != std::string_view::npos) {
    std::size_t rb = inner.find(']', lb);
    if (rb == std::string_view::npos) rb = inner.size();
    if (r.ip.empty()) r.ip = trim(v, base + lb + 1, base + rb);
    Span rev = trim(v, base, base + lb);
    std::string_view rw = rev.of(v);
    if (!rw.empty() && rw.find('=') == std::string_view::npos &&
        rw.find(' ') == std::string_view::npos) {
      r.reverse = rev;
    }
  } else if (r.ip.empty()) {
    Span whole = trim(v, base, base + inner.size());
    std::string_view w = whole.of(v);
    if (!w.empty() && classify_ipv4(w).dotted) r.ip = whole;
  }
  return r;
}

Ipv4Info classify_ipv4(std::string_view ip) {
  Ipv4Info info;
  int parts[4] = {0, 0, 0, 0};
  int n = 0;
  std::size_t i = 0;
  while (n < 4) {
    std::size_t s = i;
    while (i < ip.size() && is_digit(ip[i])) ++i;
    if (i == s || i - s > 3) return info;
    parts[n++] = std::atoi(std::string(ip.substr(s, i - s)).c_str());
    if (n < 4) {
      if (i >= ip.size() || ip[i] != '.') return info;
      ++i;
    }
  }
  if (i != ip.size()) return info;
  info.dotted = true;
  info.valid = parts[0] <= 255 && parts[1] <= 255 && parts[2] <= 255 && parts[3] <= 255;
  info.internal = parts[0] == 10 || parts[0] == 127 || parts[0] == 0 ||
                  (parts[0] == 172 && parts[1] >= 16 && parts[1] <= 31) ||
                  (parts[0] == 192 && parts[1] == 168) || (parts[0] == 169 && parts[1] == 254);
  return info;
}

std::vector<AuthResult> parse_auth_results(std::string_view v) {
  std::vector<AuthResult> out;
  int comment = 0;
  bool quoted = false;
  for (std::size_t i = 0; i < v.size(); ++i) {
    char c = v[i];
    if (quoted) {
      if (c == '"') quoted = false;
      continue;
    }
    if (c == '"') {
      quoted = true;
      continue;
    }
    if (c == '(') {
      ++comment;
      continue;
    }
    if (c == ')') {
      if (comment > 0) --comment;
      continue;
    }
    if (comment > 0) continue;
    if (i > 0 && !is_header_space(v[i - 1]) && v[i - 1] != ';') continue;
    AuthResult::Method method;
    std::size_t len;
    if (v.size() - i > 4 && equals_ci(v.substr(i, 4), "spf=")) {
      method = AuthResult::Method::kSpf;
      len = 3;
    } else if (v.size() - i > 5 && equals_ci(v.substr(i, 5), "dkim=")) {
      method = AuthResult::Method::kDkim;
      len = 4;
    } else if (v.size() - i > 6 && equals_ci(v.substr(i, 6), "dmarc=")) {
      method = AuthResult::Method::kDmarc;
      len = 5;
    } else {
      continue;
    }
    std::size_t rs = i + len + 1, re = rs;
    while (re < v.size() && is_alpha(v[re])) ++re;
    if (re == rs) continue;
    out.push_back({method, {i, re}, v.substr(rs, re - rs)});
    i = re - 1;
  }
  return out;
}

std::vector<AuthResult> parse_received_spf(std::string_view v) {
  std::vector<AuthResult> out;
  std::size_t i = 0;
  while (i < v.size() && is_header_space(v[i])) ++i;
  std::size_t e = i;
  while (e < v.size() && is_alpha(v[e])) ++e;
  if (e > i) out.push_back({AuthResult::Method::kSpf, {i, e}, v.substr(i, e - i)});
  return out;
}

}  // namespace scamcheck::internal
