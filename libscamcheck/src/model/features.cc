#include "model/features.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <iterator>
#include <utility>

#include "email/email_checks.h"
#include "normalize/normalize.h"
#include "util/ascii.h"

namespace scamcheck::internal::model {
namespace {

// Prose tokens read per input at most: a 64 KiB mail body says what it has
// to say long before that, and the cost stays bounded.
constexpr std::size_t kMaxWordTokens = 4000;
// Bytes of a token that count; longer runs (base64, hashes) hash their start.
constexpr std::size_t kMaxTokenBytes = 40;
// Links of one HTML part read for link features at most.
constexpr std::size_t kMaxHtmlLinks = 30;
// Path tokens and query parameter names read per link at most.
constexpr std::size_t kMaxPathTokens = 24;
constexpr std::size_t kMaxQueryNames = 8;
// Host names longer than this read only their first bytes for n-grams.
constexpr std::size_t kMaxHostGramBytes = 64;
// Word features are scaled to this length per input (link features to 1):
// with the rule and header features unscaled, prose needs the extra weight.
constexpr double kWordGain = 1.5;
// The value of a sender-side header feature: they describe the software
// and the era of a mail as much as its intent, so they count for less.
constexpr float kHeaderValue = 0.3f;

// Stand-ins for what the model must see by its kind only.
constexpr std::string_view kEmailToken =
    "\x01"
    "email";
constexpr std::string_view kUrlToken =
    "\x01"
    "url";

// Namespaces: the first byte hashed, so equal strings of different kinds
// (a word "login", a path token "login") are different features.
enum Ns : char {
  kWordNs = 'w',
  kBigramNs = 'b',
  kHostLabelNs = 'h',
  kDomainNs = 'd',
  kTldNs = 't',
  kHostGramNs = 'c',
  kPathNs = 'p',
  kFirstSegmentNs = 'f',
  kQueryNs = 'q',
  kExtensionNs = 'x',
  kShapeNs = 's',
  kRuleNs = 'r',
  kRuleBucketNs = 'R',
  kRuleTotalNs = 'T',
  kKindNs = 'k',
  kHeaderNameNs = 'H',
  kHeaderValueNs = 'V',
  kHostShapeNs = 'g',
  kRegistrableNs = 'e',
  kHostWordNs = 'o',
  kMailNs = 'm',
  kProseShapeNs = 'z',
};

// 32-bit FNV-1a. Digits hash as '0' when `mask_digits`.
struct Fnv {
  std::uint32_t h = 2166136261u;
  explicit Fnv(char ns) { add(static_cast<unsigned char>(ns)); }
  void add(unsigned char c) {
    h ^= c;
    h *= 16777619u;
  }
  void add(std::string_view s, bool mask_digits) {
    for (char ch : s.substr(0, kMaxTokenBytes)) {
      const auto c = static_cast<unsigned char>(ch);
      add(mask_digits && c >= '0' && c <= '9' ? static_cast<unsigned char>('0') : c);
    }
  }
};

std::uint32_t hash_of(char ns, std::string_view token, bool mask_digits = true) {
  Fnv f(ns);
  f.add(token, mask_digits);
  return f.h;
}

// hash_of(ns, std::string(prefix) + last) (digits masked), without the
// string; `prefix` is shorter than kMaxTokenBytes.
std::uint32_t hash_of_suffixed(char ns, std::string_view prefix, char last) {
  Fnv f(ns);
  f.add(prefix, true);
  f.add(std::string_view(&last, 1), true);
  return f.h;
}

// Grows `v` to hold `n` more elements without reallocating, keeping the
// amortized doubling of push_back.
template <typename T>
void reserve_more(std::vector<T>& v, std::size_t n) {
  const std::size_t need = v.size() + n;
  if (need > v.capacity()) v.reserve(std::max(need, 2 * v.capacity()));
}

// Word characters: ASCII letters and digits, '$' (amounts), and every
// non-ASCII byte (letters of other scripts, currency signs).
bool is_word_byte(char c) {
  return is_alnum(c) || c == '$' || static_cast<unsigned char>(c) >= 0x80;
}
bool is_host_byte(char c) { return is_alnum(c) || c == '-' || c == '.'; }

constexpr std::string_view kLeadingPunct = "([{<\"'*";
constexpr std::string_view kTrailingPunct = ".,;:!?)]}>\"'*";

// Byte classes of kLeadingPunct (bit 0) and kTrailingPunct (bit 1).
constexpr std::array<std::uint8_t, 256> kPunctClass = [] {
  std::array<std::uint8_t, 256> t{};
  for (char c : kLeadingPunct) t[static_cast<unsigned char>(c)] |= 1;
  for (char c : kTrailingPunct) t[static_cast<unsigned char>(c)] |= 2;
  return t;
}();
bool is_leading_punct(char c) { return (kPunctClass[static_cast<unsigned char>(c)] & 1) != 0; }
bool is_trailing_punct(char c) { return (kPunctClass[static_cast<unsigned char>(c)] & 2) != 0; }

// Where a feature came from: a byte range of the normalized text, mapped to
// the text the location names.
class Spans {
 public:
  Spans(const NormalizedText& norm, SpanMap map) : norm_(norm), map_(map) {}
  std::pair<std::uint32_t, std::uint32_t> operator()(std::size_t start, std::size_t end) const {
    auto [s, e] = norm_.to_original(start, end);
    if (map_.start != nullptr) {
      const std::size_t first = s;
      s = map_.start[first];
      e = map_.end[e - 1];
    }
    return {static_cast<std::uint32_t>(s), static_cast<std::uint32_t>(e)};
  }

 private:
  const NormalizedText& norm_;
  SpanMap map_;
};

void push(FeatureSet& out, std::uint32_t hash, Group group, std::int32_t field,
          std::pair<std::uint32_t, std::uint32_t> span) {
  out.hits.push_back(Hit{hash, 1.0f, group, field, span.first, span.second});
}

// Second-level labels under which a country-code TLD registers names
// ("example.co.uk", "example.com.br"): the public suffix is then two labels.
bool is_generic_second_level(std::string_view label) {
  constexpr std::string_view kSecond[] = {"co",  "com", "net", "org",  "gov", "edu", "ac",
                                          "or",  "ne",  "go",  "gob",  "mil", "nic", "sch",
                                          "ltd", "plc", "biz", "info", "web", "nom", "gen"};
  return std::find(std::begin(kSecond), std::end(kSecond), label) != std::end(kSecond);
}

char size_bucket(std::size_t n, std::initializer_list<std::size_t> bounds) {
  char c = 'a';
  for (std::size_t b : bounds) {
    if (n <= b) return c;
    ++c;
  }
  return c;
}

// The registrable domain of a host ("mail.example.co.uk" ->
// "example.co.uk") by the short rule of is_generic_second_level; the host
// itself when it has fewer labels.
std::string_view registrable_of(std::string_view h) {
  const std::size_t last = h.rfind('.');
  if (last == std::string_view::npos || last == 0) return h;
  std::size_t second = h.rfind('.', last - 1);
  if (second == std::string_view::npos) return h;
  if (h.size() - last - 1 == 2 &&
      is_generic_second_level(h.substr(second + 1, last - second - 1))) {
    if (second == 0) return h;
    const std::size_t third = h.rfind('.', second - 1);
    return third == std::string_view::npos ? h : h.substr(third + 1);
  }
  return h.substr(second + 1);
}

// The shape of a host name around its registrable label (the label before
// the public suffix): its length, digits, hyphens, letter mix and the
// number of labels in front of it, alone and with the suffix. Host names
// have no words to read; these say whether one looks like a name people
// chose to remember or like one made up for a campaign.
template <typename LabelSpan>
void add_host_shape(std::string_view h,
                    const std::vector<std::pair<std::size_t, std::size_t>>& labels,
                    std::int32_t field, const LabelSpan& label_span, FeatureSet& out) {
  const std::size_t nl = labels.size();
  if (nl < 2) return;
  std::size_t suffix_labels = 1;
  if (nl >= 3 && labels[nl - 1].second - labels[nl - 1].first == 2 &&
      is_generic_second_level(
          h.substr(labels[nl - 2].first, labels[nl - 2].second - labels[nl - 2].first))) {
    suffix_labels = 2;
  }
  if (nl <= suffix_labels) return;
  const auto [ra, rb] = labels[nl - 1 - suffix_labels];
  const std::string_view rd = h.substr(ra, rb - ra);
  const std::string_view suffix = h.substr(labels[nl - suffix_labels].first);
  const std::size_t subdomains = nl - 1 - suffix_labels;
  const auto rd_span = label_span(ra, rb);
  const auto whole = label_span(0, h.size());
  auto emit = [&](std::string_view what, std::pair<std::uint32_t, std::uint32_t> span) {
    out.hits.push_back(
        Hit{hash_of(kHostShapeNs, what, false), 1.0f, Group::kUrl, field, span.first, span.second});
  };
  if (suffix_labels == 2) {
    push(out, hash_of(kRegistrableNs, h.substr(ra), false), Group::kUrl, field,
         label_span(ra, h.size()));
  }
  std::size_t digits = 0, hyphens = 0, vowels = 0, letters = 0, run = 0, max_run = 0;
  for (char c : rd) {
    if (is_digit(c)) {
      ++digits;
      run = 0;
    } else if (c == '-') {
      ++hyphens;
      run = 0;
    } else if (is_alpha(c)) {
      ++letters;
      const bool vowel = c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || c == 'y';
      vowels += vowel;
      run = vowel ? 0 : run + 1;
      max_run = std::max(max_run, run);
    } else {
      run = 0;
    }
  }
  const char len = size_bucket(rd.size(), {3, 5, 7, 9, 11, 14, 18, 24});
  const char sub = static_cast<char>('0' + std::min<std::size_t>(subdomains, 4));
  const char dig = digits == 0 ? '0' : digits <= 2 ? '1' : '2';
  const char hyp = static_cast<char>('0' + std::min<std::size_t>(hyphens, 3));
  const char vow = letters == 0 ? 'n' : size_bucket(vowels * 10 / letters, {1, 2, 3, 4, 5});
  const char cons = static_cast<char>('0' + std::min<std::size_t>(max_run, 5));
  // The key as hashed: only its first kMaxTokenBytes bytes count.
  char key[kMaxTokenBytes];
  std::size_t key_size = 0;
  auto put = [&](std::string_view part) {
    const std::size_t n = std::min(part.size(), kMaxTokenBytes - key_size);
    std::copy_n(part.data(), n, key + key_size);
    key_size += n;
  };
  auto with = [&](std::string_view name, std::initializer_list<char> values,
                  std::string_view tail = {}) {
    key_size = 0;
    put(name);
    put("=");
    for (char v : values) put(std::string_view(&v, 1));
    if (!tail.empty()) {
      put("|");
      put(tail);
    }
    return std::string_view(key, key_size);
  };
  emit(with("len", {len}), rd_span);
  emit(with("len", {len}, suffix), rd_span);
  emit(with("sub", {sub}), whole);
  emit(with("sub", {sub}, suffix), whole);
  emit(with("lensub", {len, sub}), whole);
  emit(with("dig", {dig, hyp}), rd_span);
  emit(with("dig", {dig, hyp}, suffix), rd_span);
  emit(with("vow", {vow}), rd_span);
  emit(with("vowlen", {vow, len}), rd_span);
  emit(with("cons", {cons}), rd_span);
  emit(with("conslen", {cons, len}), rd_span);
  // The words of a hyphenated registrable label ("secure-paypal-login").
  if (hyphens > 0) {
    for (std::size_t i = 0; i < rd.size();) {
      std::size_t j = rd.find('-', i);
      if (j == std::string_view::npos) j = rd.size();
      if (j > i) {
        push(out, hash_of(kHostWordNs, rd.substr(i, j - i), false), Group::kUrl, field,
             label_span(ra + i, ra + j));
      }
      i = j + 1;
    }
  }
}

// The link features of normalized bytes [begin, end) of `n`; `span` maps a
// range of `n` to the location's text.
template <typename SpanFn>
void add_link(std::string_view n, std::size_t begin, std::size_t end, std::int32_t field,
              const SpanFn& span, FeatureSet& out) {
  std::size_t p = begin;
  // The scheme (http, https, hxxp, ...) and a leading "www." never count.
  std::size_t k = p;
  while (k < end && (is_alnum(n[k]) || n[k] == '+' || n[k] == '.' || n[k] == '-')) ++k;
  if (k > p && k + 3 <= end && n.substr(k, 3) == "://") p = k + 3;
  if (p + 4 <= end && n.substr(p, 3) == "www") {
    std::size_t q = p + 3;
    while (q < end && is_digit(n[q])) ++q;
    if (q < end && n[q] == '.') p = q + 1;
  }
  std::size_t authority_end = p;
  while (authority_end < end && n[authority_end] != '/' && n[authority_end] != '?' &&
         n[authority_end] != '#' && n[authority_end] != '\\') {
    ++authority_end;
  }
  if (authority_end == p) return;
  std::size_t host_start = p;
  const auto whole = span(begin, end);
  if (auto at = n.substr(p, authority_end - p).rfind('@'); at != std::string_view::npos) {
    push(out, hash_of(kShapeNs, "userinfo"), Group::kUrl, field, whole);
    host_start = p + at + 1;
  }
  std::size_t host_end = host_start;
  while (host_end < authority_end && n[host_end] != ':') ++host_end;
  if (host_end < authority_end) push(out, hash_of(kShapeNs, "port"), Group::kUrl, field, whole);
  while (host_end > host_start && n[host_end - 1] == '.') --host_end;
  if (host_end == host_start) return;
  const std::string_view host = n.substr(host_start, host_end - host_start);
  const auto host_span = span(host_start, host_end);
  if (out.link_domains != nullptr) out.link_domains->emplace_back(registrable_of(host));

  const std::string_view h = host;
  // Offsets in h; one buffer per thread (add_link does not nest).
  thread_local std::vector<std::pair<std::size_t, std::size_t>> labels;
  labels.clear();
  for (std::size_t i = 0; i < h.size();) {
    std::size_t j = h.find('.', i);
    if (j == std::string_view::npos) j = h.size();
    if (j > i) labels.emplace_back(i, j);
    i = j + 1;
  }
  auto label_span = [&](std::size_t a, std::size_t b) {
    return span(host_start + a, host_start + b);
  };
  const bool ip = labels.size() == 4 &&
                  std::all_of(h.begin(), h.end(), [](char c) { return is_digit(c) || c == '.'; });
  if (ip) {
    push(out, hash_of(kShapeNs, "ip"), Group::kUrl, field, host_span);
  } else if (!labels.empty()) {
    push(out,
         hash_of_suffixed(kShapeNs, "labels",
                          static_cast<char>('0' + std::min<std::size_t>(labels.size(), 6))),
         Group::kUrl, field, host_span);
    const auto [ts, te] = labels.back();
    push(out, hash_of(kTldNs, h.substr(ts, te - ts), false), Group::kUrl, field,
         label_span(ts, te));
    if (labels.size() >= 2) {
      const std::size_t ds = labels[labels.size() - 2].first;
      push(out, hash_of(kDomainNs, h.substr(ds, te - ds), false), Group::kUrl, field,
           label_span(ds, te));
    }
    add_host_shape(h, labels, field, label_span, out);
    for (std::size_t i = 0; i + 1 < labels.size(); ++i) {
      const auto [a, b] = labels[i];
      push(out, hash_of(kHostLabelNs, h.substr(a, b - a), false), Group::kUrl, field,
           label_span(a, b));
    }
    // Character 3- to 5-grams of the host with its dots, framed by '.';
    // each quoted as the label it starts in.
    const std::string_view g = h.substr(0, std::min(h.size(), kMaxHostGramBytes));
    char framed_bytes[kMaxHostGramBytes + 2];
    framed_bytes[0] = '.';
    std::copy(g.begin(), g.end(), framed_bytes + 1);
    framed_bytes[g.size() + 1] = '.';
    const std::string_view framed(framed_bytes, g.size() + 2);
    // The label around each byte of g: [label_a[at], label_b[at]).
    std::uint8_t label_a[kMaxHostGramBytes];
    std::uint8_t label_b[kMaxHostGramBytes];
    for (std::size_t at = 0, a = 0; at < g.size(); ++at) {
      label_a[at] = static_cast<std::uint8_t>(a);
      if (g[at] == '.') a = at + 1;
    }
    for (std::size_t at = g.size(), b = g.size(); at-- > 0;) {
      if (g[at] == '.') b = at;
      label_b[at] = static_cast<std::uint8_t>(b);
    }
    std::size_t last_a = 0;
    std::size_t last_b = 0;
    std::pair<std::uint32_t, std::uint32_t> last_span{};
    bool have_span = false;
    std::size_t grams = 0;
    for (std::size_t len = 3; len <= 5; ++len) {
      if (framed.size() >= len) grams += framed.size() - len + 1;
    }
    std::size_t next = out.hits.size();
    reserve_more(out.hits, grams);
    out.hits.resize(next + grams);
    for (std::size_t len = 3; len <= 5; ++len) {
      for (std::size_t i = 0; i + len <= framed.size(); ++i) {
        const std::size_t at = i == 0 ? 0 : std::min(i - 1, g.size() - 1);
        const std::size_t a = label_a[at];
        std::size_t b = label_b[at];
        if (b == a) b = std::min(a + 1, g.size());
        if (!have_span || a != last_a || b != last_b) {
          last_span = label_span(a, b);
          last_a = a;
          last_b = b;
          have_span = true;
        }
        out.hits[next++] = Hit{hash_of(kHostGramNs, framed.substr(i, len), false),
                               1.0f,
                               Group::kUrl,
                               field,
                               last_span.first,
                               last_span.second};
      }
    }
  }
  std::size_t hyphens = std::count(h.begin(), h.end(), '-');
  if (hyphens > 0) {
    push(out,
         hash_of_suffixed(kShapeNs, "hyphens",
                          static_cast<char>('0' + std::min<std::size_t>(hyphens, 4))),
         Group::kUrl, field, host_span);
  }
  const std::size_t digits = std::count_if(h.begin(), h.end(), is_digit);
  if (digits > 0 && !ip) {
    const char bucket = digits <= 2 ? '1' : digits <= 5 ? '2' : '3';
    push(out, hash_of_suffixed(kShapeNs, "hostdigits", bucket), Group::kUrl, field, host_span);
  }
  push(out,
       hash_of_suffixed(kShapeNs, "hostlen",
                        static_cast<char>('a' + std::min<std::size_t>(h.size() / 6, 8))),
       Group::kUrl, field, host_span);

  // Path and query. "host", "host/" and "https://host/" read the same.
  std::size_t path_end = authority_end;
  while (path_end < end && n[path_end] != '?' && n[path_end] != '#') ++path_end;
  const std::string_view path = n.substr(authority_end, path_end - authority_end);
  if (path.empty() || path == "/") {
    if (path_end >= end || n[path_end] == '#') {
      push(out, hash_of(kShapeNs, "root"), Group::kUrl, field, host_span);
    }
  } else {
    std::size_t depth = 0;
    std::size_t last_segment = authority_end;
    bool first = true;
    for (std::size_t i = authority_end; i < path_end;) {
      while (i < path_end && n[i] == '/') ++i;
      if (i >= path_end) break;
      std::size_t j = i;
      while (j < path_end && n[j] != '/') ++j;
      ++depth;
      last_segment = i;
      if (first) {
        push(out, hash_of(kFirstSegmentNs, n.substr(i, std::min<std::size_t>(j - i, 24))),
             Group::kUrl, field, span(i, j));
        first = false;
      }
      i = j;
    }
    push(out,
         hash_of_suffixed(kShapeNs, "depth",
                          static_cast<char>('0' + std::min<std::size_t>(depth, 6))),
         Group::kUrl, field, whole);
    push(out,
         hash_of_suffixed(kShapeNs, "pathlen",
                          static_cast<char>('a' + std::min<std::size_t>(path.size() / 12, 8))),
         Group::kUrl, field, whole);
    std::size_t tokens = 0;
    for (std::size_t i = authority_end; i < path_end && tokens < kMaxPathTokens;) {
      while (i < path_end && !is_word_byte(n[i])) ++i;
      // An e-mail address in a path (a personalised link) is one token.
      std::size_t k = i;
      while (k < path_end && (is_word_byte(n[k]) || n[k] == '.' || n[k] == '_' || n[k] == '-' ||
                              n[k] == '+' || n[k] == '%')) {
        ++k;
      }
      if (k < path_end && n[k] == '@') {
        std::size_t e = k + 1;
        while (e < path_end && (is_alnum(n[e]) || n[e] == '.' || n[e] == '-')) ++e;
        push(out, hash_of(kPathNs, kEmailToken), Group::kUrl, field, span(i, e));
        ++tokens;
        i = e;
        continue;
      }
      std::size_t j = i;
      while (j < path_end && is_word_byte(n[j])) ++j;
      if (j > i) {
        push(out, hash_of(kPathNs, n.substr(i, j - i)), Group::kUrl, field, span(i, j));
        ++tokens;
      }
      i = j;
    }
    const std::string_view last = n.substr(last_segment, path_end - last_segment);
    if (auto dot = last.rfind('.');
        dot != std::string_view::npos && last.size() - dot <= 6 && dot + 1 < last.size()) {
      push(out, hash_of(kExtensionNs, last.substr(dot + 1)), Group::kUrl, field,
           span(last_segment + dot, path_end));
    }
  }
  if (path_end < end && n[path_end] == '?') {
    push(out, hash_of(kShapeNs, "query"), Group::kUrl, field, whole);
    std::size_t names = 0;
    std::size_t query_end = path_end + 1;
    while (query_end < end && n[query_end] != '#') ++query_end;
    for (std::size_t i = path_end + 1; i < query_end && names < kMaxQueryNames;) {
      std::size_t j = i;
      while (j < query_end && n[j] != '&' && n[j] != '=' && n[j] != ';') ++j;
      if (j > i) {
        push(out, hash_of(kQueryNs, n.substr(i, std::min<std::size_t>(j - i, 20))), Group::kUrl,
             field, span(i, j));
        ++names;
      }
      while (j < query_end && n[j] != '&' && n[j] != ';') ++j;
      i = j + 1;
    }
  }
}

// The shape of a message read as a whole (text, not mail): its length in
// bytes and the share of its letters written in capitals ("URGENT: YOUR
// ACCOUNT ..."). An SMS is short or long for what it has to say, and
// shouting is a style of its own; neither is a word the n-grams could see.
// Both are read without the URL schemes, which a user may or may not have
// written ("http://" never counts). Digits are not counted: codes and
// amounts are as common in today's notifications as in the corpora's spam.
void add_prose_shape(std::string_view text, FeatureSet& out) {
  std::size_t size = 0, letters = 0, upper = 0;
  for (std::size_t i = 0; i < text.size();) {
    if ((text[i] == 'h' || text[i] == 'H') &&
        (starts_with_ci(text.substr(i), "http://") || starts_with_ci(text.substr(i), "https://"))) {
      i += text[i + 4] == ':' ? 7 : 8;
      continue;
    }
    const char c = text[i++];
    ++size;
    if (is_alpha(c)) {
      ++letters;
      upper += c >= 'A' && c <= 'Z';
    }
  }
  const char length = size_bucket(size, {30, 60, 100, 140, 170, 320});
  const char caps = letters < 8 ? 'n' : size_bucket(upper * 10 / letters, {0, 1, 2, 4, 7});
  out.hits.push_back(
      Hit{hash_of_suffixed(kProseShapeNs, "len=", length), 1.0f, Group::kOther, -1, 0, 0});
  out.hits.push_back(
      Hit{hash_of_suffixed(kProseShapeNs, "caps=", caps), 1.0f, Group::kOther, -1, 0, 0});
}

// Whether a whitespace-delimited chunk of prose is a link: a scheme, a
// "www." start, or host-name shape ending in an alphabetic label of 2 to 12
// letters ("example.com/x", not "e.g." or "3.50").
bool looks_like_link(std::string_view c) {
  if (auto s = c.find("://"); s != std::string_view::npos && s > 0 && is_alpha(c[0])) return true;
  if (c.size() > 4 && c.substr(0, 4) == "www.") return true;
  std::size_t host_end = 0;
  while (host_end < c.size() && is_host_byte(c[host_end])) ++host_end;
  if (host_end < c.size() && c[host_end] != '/' && c[host_end] != '?' && c[host_end] != ':') {
    return false;
  }
  const std::string_view host = c.substr(0, host_end);
  const std::size_t dot = host.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return false;
  const std::string_view tld = host.substr(dot + 1);
  return tld.size() >= 2 && tld.size() <= 12 && std::all_of(tld.begin(), tld.end(), is_alpha) &&
         is_alnum(host[0]);
}

bool looks_like_address(std::string_view c) {
  const std::size_t at = c.find('@');
  return at != std::string_view::npos && at > 0 && c.find('.', at) != std::string_view::npos &&
         c.find("://") == std::string_view::npos;
}

class ProseReader {
 public:
  ProseReader(const NormalizedText& norm, SpanMap map, std::int32_t field, FeatureSet& out)
      : n_(norm.text()), spans_(norm, map), field_(field), out_(out) {}

  void read() {
    std::size_t i = 0;
    while (i < n_.size() && out_.word_tokens < kMaxWordTokens) {
      while (i < n_.size() && is_space(n_[i])) ++i;
      std::size_t j = i;
      while (j < n_.size() && !is_space(n_[j])) ++j;
      std::size_t s = i;
      std::size_t e = j;
      i = j;
      while (s < e && is_leading_punct(n_[s])) ++s;
      while (e > s && is_trailing_punct(n_[e - 1])) --e;
      if (s == e) continue;
      const std::string_view chunk = n_.substr(s, e - s);
      if (looks_like_address(chunk)) {
        token(kEmailToken, s, e);
      } else if (looks_like_link(chunk)) {
        token(kUrlToken, s, e);
        add_link(n_, s, e, field_, spans_, out_);
      } else {
        words(s, e);
      }
    }
  }

 private:
  void words(std::size_t s, std::size_t e) {
    for (std::size_t a = s; a < e;) {
      while (a < e && !is_word_byte(n_[a])) ++a;
      std::size_t b = a;
      while (b < e && is_word_byte(n_[b])) ++b;
      if (b > a) {
        token(n_.substr(a, b - a), a, b);
      }
      a = b;
    }
  }

  void token(std::string_view text, std::size_t s, std::size_t e) {
    if (out_.word_tokens >= kMaxWordTokens) return;
    ++out_.word_tokens;
    const auto span = spans_(s, e);
    const std::uint32_t w = hash_of(kWordNs, text);
    push(out_, w, Group::kWord, field_, span);
    if (out_.mail_words) push(out_, w * 16777619u ^ 0x6du, Group::kWord, field_, span);

    if (has_prev_) {
      Fnv f(kBigramNs);
      f.add(prev_, true);
      f.add(0x01);
      f.add(text, true);
      push(out_, f.h, Group::kWord, field_, {prev_start_, span.second});
      if (out_.mail_words) {
        push(out_, f.h * 16777619u ^ 0x6du, Group::kWord, field_, {prev_start_, span.second});
      }
    }
    prev_ = text;
    prev_start_ = span.first;
    has_prev_ = true;
  }

  std::string_view n_;
  Spans spans_;
  std::int32_t field_;
  FeatureSet& out_;
  bool has_prev_ = false;
  std::string_view prev_;
  std::uint32_t prev_start_ = 0;
};

// Header names whose addresses are the recipient's.
constexpr std::string_view kRecipientHeaders[] = {"To",
                                                  "Cc",
                                                  "Bcc",
                                                  "Delivered-To",
                                                  "X-Original-To",
                                                  "Envelope-To",
                                                  "X-Envelope-To",
                                                  "Apparently-To",
                                                  "Resent-To",
                                                  "X-Rcpt-To"};

bool is_recipient_header(std::string_view name) {
  for (std::string_view h : kRecipientHeaders) {
    if (equals_ci(h, name)) return true;
  }
  return false;
}

// Which of a few telling headers the sender's software wrote, and the first
// word of some (the mailer, the body's structure, bulk or list precedence).
// Recipient headers and the relays' Received lines are never read.
void add_headers(const ParsedEmail& email, FeatureSet& out) {
  // Headers whose presence means something in any era: replies, mailing
  // lists, bulk mail, the sender's software. (Others, e.g. the trace
  // headers a mailbox or relay adds, describe how a corpus was collected.)
  constexpr std::string_view kNamed[] = {"in-reply-to",
                                         "references",
                                         "list-id",
                                         "list-unsubscribe",
                                         "list-post",
                                         "list-help",
                                         "list-archive",
                                         "precedence",
                                         "sender",
                                         "errors-to",
                                         "reply-to",
                                         "x-priority",
                                         "x-msmail-priority",
                                         "x-mailer",
                                         "user-agent",
                                         "organization",
                                         "mailing-list",
                                         "x-mailing-list",
                                         "x-beenthere",
                                         "x-mailman-version",
                                         "importance",
                                         "thread-index",
                                         "auto-submitted",
                                         "feedback-id",
                                         "list-unsubscribe-post"};
  constexpr std::string_view kValued[] = {"X-Mailer",   "User-Agent", "Content-Type",
                                          "Precedence", "X-Priority", "Content-Transfer-Encoding"};
  for (const EmailHeader& h : email.headers) {
    if (h.occurrence > 1 || is_recipient_header(h.name) || equals_ci(h.name, "Received") ||
        equals_ci(h.name, "X-Received")) {
      continue;
    }
    std::string name = h.name;
    for (char& c : name) c = ascii_lower(c);
    if (std::find(std::begin(kNamed), std::end(kNamed), name) != std::end(kNamed)) {
      out.hits.push_back(
          Hit{hash_of(kHeaderNameNs, name, false), kHeaderValue, Group::kOther, -1, 0, 0});
    }
    for (std::string_view v : kValued) {
      if (!equals_ci(v, h.name)) continue;
      std::size_t a = 0;
      while (a < h.value.size() && is_space(h.value[a])) ++a;
      std::size_t b = a;
      while (b < h.value.size() && !is_space(h.value[b]) && h.value[b] != ';' &&
             h.value[b] != '(' && h.value[b] != '/' && b - a < 24) {
        ++b;
      }
      if (v == "Content-Type" && b < h.value.size() && h.value[b] == '/') {
        ++b;
        while (b < h.value.size() && !is_space(h.value[b]) && h.value[b] != ';') ++b;
      }
      std::string value = name + "=" + h.value.substr(a, b - a);
      for (char& c : value) c = ascii_lower(c);
      out.hits.push_back(
          Hit{hash_of(kHeaderValueNs, value), kHeaderValue, Group::kOther, -1, 0, 0});
    }
  }
}

// The domain of the first address in a header value ("Bank <a@b.example>"
// -> "b.example"), lower case; empty if none.
std::string address_domain(std::string_view value) {
  const std::size_t at = value.rfind('@');
  if (at == std::string_view::npos) return {};
  std::size_t e = at + 1;
  while (e < value.size() && is_host_byte(value[e])) ++e;
  std::string d(value.substr(at + 1, e - at - 1));
  while (!d.empty() && d.back() == '.') d.pop_back();
  for (char& c : d) c = ascii_lower(c);
  return d;
}

bool is_address_byte(char c) {
  return is_alnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-';
}

// Every address in a header value, lower case.
void addresses_in(std::string_view value, std::vector<std::string>& out) {
  for (std::size_t at = value.find('@'); at != std::string_view::npos;
       at = value.find('@', at + 1)) {
    std::size_t a = at;
    while (a > 0 && is_address_byte(value[a - 1])) --a;
    std::size_t b = at + 1;
    while (b < value.size() && is_address_byte(value[b])) ++b;
    while (b > at + 1 && value[b - 1] == '.') --b;
    if (a == at || b == at + 1) continue;
    std::string address(value.substr(a, b - a));
    for (char& c : address) c = ascii_lower(c);
    out.push_back(std::move(address));
  }
}

// Whether the mail claims to come from an address it was delivered to
// (recipient headers, "for <...>" of Received lines). Which address that is
// is never a feature: it is how a corpus was collected.
bool sent_to_itself(const ParsedEmail& email, std::string_view from) {
  std::vector<std::string> sender;
  addresses_in(from, sender);
  if (sender.empty()) return false;
  std::vector<std::string> recipients;
  for (const EmailHeader& h : email.headers) {
    if (is_recipient_header(h.name)) {
      addresses_in(h.value, recipients);
    } else if (equals_ci(h.name, "Received")) {
      if (const std::size_t f = h.value.find("for <"); f != std::string::npos) {
        addresses_in(std::string_view(h.value).substr(f + 5, h.value.find('>', f) - f - 5),
                     recipients);
      }
    }
  }
  return std::find(recipients.begin(), recipients.end(), sender.back()) != recipients.end();
}

// Who the sender says it is: digits in the mailbox name, and whether the
// display name shares a word with the address ("Jane Roe <jane.roe@...>")
// or not ("Your Bank <x7731@...>").
// (Not whether it is a free mail service: in the corpora's era that was
// mostly spam, today it is how most people write.)
template <typename Emit>
void add_sender(const ParsedEmail& email, const std::string& sender, const Emit& emit) {
  auto from = email.find("From");
  if (from.empty() || sender.empty()) {
    emit("from=none");
    return;
  }
  const std::string_view value = from.front()->value;
  const std::size_t at = value.rfind('@');
  std::size_t local_start = at;
  while (local_start > 0 && !is_space(value[local_start - 1]) && value[local_start - 1] != '<' &&
         value[local_start - 1] != '"' && value[local_start - 1] != ':') {
    --local_start;
  }
  const std::string_view local = value.substr(local_start, at - local_start);
  const std::size_t digits = std::count_if(local.begin(), local.end(), is_digit);
  emit(digits == 0 ? "fromdigits=0" : digits <= 2 ? "fromdigits=1" : "fromdigits=3");
  // Words of the display name (before the address) against the address.
  std::string_view name = value.substr(0, std::min(local_start, value.size()));
  std::string address(
      value.substr(local_start, std::min(value.size(), at + 1 + sender.size()) - local_start));
  for (char& c : address) c = ascii_lower(c);
  bool any_word = false;
  bool shared = false;
  for (std::size_t i = 0; i < name.size();) {
    while (i < name.size() && !is_alpha(name[i])) ++i;
    std::size_t j = i;
    while (j < name.size() && is_alpha(name[j])) ++j;
    if (j - i >= 3) {
      any_word = true;
      std::string w(name.substr(i, j - i));
      for (char& c : w) c = ascii_lower(c);
      if (address.find(w) != std::string::npos) shared = true;
    }
    i = j;
  }
  emit(!any_word ? "fromname=none" : shared ? "fromname=shared" : "fromname=other");
}

// How the links of a mail relate to its sender: how many there are, whether
// they lead to the sender's own domain, to how many others, and whether
// replies go to another domain than the sender's.
void add_mail_structure(const ParsedEmail& email, const std::vector<std::string>& domains,
                        FeatureSet& out) {
  auto emit = [&](std::string_view what) {
    out.hits.push_back(Hit{hash_of(kMailNs, what, false), 1.0f, Group::kOther, -1, 0, 0});
  };
  std::string sender;
  bool to_itself = false;
  if (auto from = email.find("From"); !from.empty()) {
    // A sender forged as the recipient says nothing about who sent it, and
    // its address is the recipient's: none of the sender's features then.
    to_itself = sent_to_itself(email, from.front()->value);
    if (!to_itself) sender = address_domain(from.front()->value);
  }
  const std::string_view sender_rd = registrable_of(sender);
  std::vector<std::string_view> distinct;
  std::size_t own = 0;
  for (const std::string& d : domains) {
    const std::string_view rd = d;
    if (!sender_rd.empty() && rd == sender_rd) ++own;
    if (std::find(distinct.begin(), distinct.end(), rd) == distinct.end()) distinct.push_back(rd);
  }
  const std::size_t n = domains.size();
  emit(n == 0   ? "links=0"
       : n == 1 ? "links=1"
       : n <= 3 ? "links=2"
       : n <= 9 ? "links=4"
                : "links=10");
  const std::size_t foreign = distinct.size() - (own > 0 ? 1 : 0);
  if (n > 0) {
    emit(sender_rd.empty() ? "sender=unknown"
         : own == n        ? "sender=all"
         : own > 0         ? "sender=some"
                           : "sender=none");
    emit(foreign == 0   ? "foreign=0"
         : foreign == 1 ? "foreign=1"
         : foreign == 2 ? "foreign=2"
         : foreign <= 5 ? "foreign=3"
                        : "foreign=6");
  }
  if (to_itself) {
    emit("from=recipient");
    return;
  }
  add_sender(email, sender, emit);
  if (auto reply = email.find("Reply-To"); !reply.empty() && !sender_rd.empty()) {
    const std::string r = address_domain(reply.front()->value);
    if (!r.empty()) emit(registrable_of(r) == sender_rd ? "replyto=same" : "replyto=other");
  }
}

// Every feature of a mail but how its links relate to its sender.
void add_email_parts(const ParsedEmail& email, const HtmlChecker& html, FeatureSet& out) {
  add_headers(email, out);
  for (const EmailHeader* subject : email.find("Subject")) {
    add_prose(subject->value, out.add_location(subject->location()), out);
  }
  if (auto from = email.find("From"); !from.empty()) {
    add_prose(from.front()->value, out.add_location(from.front()->location()), out);
  }
  for (const EmailPart& part : email.parts) {
    if (part.type == EmailPart::Type::kText) {
      add_prose(part.text, out.add_location(part.location), out);
    } else if (part.type == EmailPart::Type::kHtml) {
      VisibleText visible;
      Findings ignored;
      html.check(part.text, part.location, ignored, visible);
      const std::int32_t field = out.add_location(part.location);
      if (!visible.text.empty()) {
        add_prose(visible.text, field, out,
                  SpanMap{visible.source_start.data(), visible.source_end.data()});
      }
      std::size_t links = 0;
      for (const VisibleText::Link& l : visible.links) {
        if (++links > kMaxHtmlLinks) break;
        if (l.href_end <= l.href_start || l.href.empty()) continue;
        // The decoded href need not match the source byte for byte: every
        // feature of the link quotes the whole href attribute.
        const NormalizedText norm(l.href);
        const auto whole = std::make_pair(static_cast<std::uint32_t>(l.href_start),
                                          static_cast<std::uint32_t>(l.href_end));
        add_link(
            norm.text(), 0, norm.text().size(), field,
            [&](std::size_t, std::size_t) { return whole; }, out);
      }
    }
  }
}

// Sorts `keys` (unique: hash << 32 | index) ascending; `scratch` is a
// buffer. Returns where the sorted keys are: keys.data() or scratch.data().
const std::uint64_t* sort_keys(std::vector<std::uint64_t>& keys,
                               std::vector<std::uint64_t>& scratch) {
  const std::size_t n = keys.size();
  scratch.resize(n);
  if (n <= 1024) {
    // Distributed by the top `bits` bits of the hash (about one key per
    // bucket), then an insertion sort puts each bucket's few keys in order
    // (at most 1024 keys bound its worst case).
    int bits = 1;
    while ((std::size_t{1} << bits) < n) ++bits;
    const int shift = 64 - bits;
    std::uint32_t count[1025];
    std::fill_n(count, (std::size_t{1} << bits) + 1, 0u);
    for (const std::uint64_t k : keys) ++count[(k >> shift) + 1];
    for (std::size_t b = 1; b <= (std::size_t{1} << bits); ++b) count[b] += count[b - 1];
    std::uint64_t* out = scratch.data();
    for (const std::uint64_t k : keys) out[count[k >> shift]++] = k;
    for (std::size_t i = 1; i < n; ++i) {
      const std::uint64_t k = out[i];
      std::size_t j = i;
      for (; j > 0 && out[j - 1] > k; --j) out[j] = out[j - 1];
      out[j] = k;
    }
    return out;
  }
  // Many keys: least significant digit first radix sort of the hash, which
  // keeps the order of equal hashes (the indices ascending).
  std::uint32_t count[4][256] = {};
  for (const std::uint64_t k : keys) {
    for (int d = 0; d < 4; ++d) ++count[d][(k >> (32 + 8 * d)) & 0xFF];
  }
  std::uint64_t* src = keys.data();
  std::uint64_t* dst = scratch.data();
  for (int d = 0; d < 4; ++d) {
    const int shift = 32 + 8 * d;
    if (count[d][(src[0] >> shift) & 0xFF] == n) continue;  // one bucket: nothing moves
    std::uint32_t offset[256];
    std::uint32_t sum = 0;
    for (int b = 0; b < 256; ++b) {
      offset[b] = sum;
      sum += count[d][b];
    }
    for (std::size_t i = 0; i < n; ++i) dst[offset[(src[i] >> shift) & 0xFF]++] = src[i];
    std::swap(src, dst);
  }
  return src;
}

}  // namespace

std::int32_t FeatureSet::add_location(std::string_view location) {
  locations.emplace_back(location);
  return static_cast<std::int32_t>(locations.size() - 1);
}

void FeatureSet::finish() {
  // A stable sort by hash, then the first hit of each hash: sorting
  // (hash, index) keys instead of the hits gives the same order.
  thread_local std::vector<std::uint64_t> keys;
  thread_local std::vector<std::uint64_t> scratch;
  thread_local std::vector<Hit> kept;
  const std::size_t n = hits.size();
  keys.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    keys[i] = (static_cast<std::uint64_t>(hits[i].hash) << 32) | i;
  }
  const std::uint64_t* sorted = sort_keys(keys, scratch);
  kept.resize(n);
  std::size_t m = 0;
  std::size_t words = 0;
  std::size_t links = 0;
  for (std::size_t k = 0; k < n; ++k) {
    if (k > 0 && (sorted[k] >> 32) == (sorted[k - 1] >> 32)) continue;
    const Hit& h = hits[static_cast<std::uint32_t>(sorted[k])];
    words += h.group == Group::kWord;
    links += h.group == Group::kUrl;
    kept[m++] = h;
  }
  hits.assign(kept.begin(), kept.begin() + static_cast<std::ptrdiff_t>(m));
  const auto word_scale = static_cast<float>(
      kWordGain / std::sqrt(static_cast<double>(std::max<std::size_t>(words, 1))));
  const auto link_scale =
      static_cast<float>(1.0 / std::sqrt(static_cast<double>(std::max<std::size_t>(links, 1))));
  for (Hit& h : hits) {
    if (h.group == Group::kWord) h.value *= word_scale;
    if (h.group == Group::kUrl) h.value *= link_scale;
  }
}

void add_prose(std::string_view text, std::int32_t field, FeatureSet& out, SpanMap map) {
  // A mail's parts are read one by one, so their shape is not the mail's.
  if (!out.mail_words) add_prose_shape(text, out);
  const NormalizedText norm(text);
  // About one word per 4 bytes, each a unigram and a bigram (twice for
  // mail), plus room for a link and the rule features.
  const std::size_t words =
      std::min(norm.text().size() / 4, kMaxWordTokens - std::min(out.word_tokens, kMaxWordTokens));
  reserve_more(out.hits, words * (out.mail_words ? 4 : 2) + 32);
  ProseReader(norm, map, field, out).read();
}

void add_url_input(std::string_view text, std::int32_t field, FeatureSet& out) {
  const NormalizedText norm(text);
  const std::string& n = norm.text();
  std::size_t s = 0;
  std::size_t e = n.size();
  while (s < e && is_space(n[s])) ++s;
  while (e > s && is_space(n[e - 1])) --e;
  if (s == e) return;
  const Spans spans(norm, {});
  add_link(n, s, e, field, spans, out);
}

void add_email(const ParsedEmail& email, const HtmlChecker& html, FeatureSet& out) {
  std::vector<std::string> domains;
  out.link_domains = &domains;
  out.mail_words = true;
  add_email_parts(email, html, out);
  out.mail_words = false;
  out.link_domains = nullptr;
  add_mail_structure(email, domains, out);
}

void add_rules(const Findings& findings, double rule_total, FeatureSet& out) {
  for (const Finding& f : findings) {
    out.hits.push_back(Hit{hash_of(kRuleNs, f.key, false), 1.0f, Group::kOther, -1, 0, 0});
  }
  const double total = std::max(0.0, rule_total);
  const char bucket = total == 0    ? '0'
                      : total < 10  ? '1'
                      : total < 20  ? '2'
                      : total < 35  ? '3'
                      : total < 60  ? '4'
                      : total < 100 ? '5'
                                    : '6';
  out.hits.push_back(Hit{hash_of(kRuleBucketNs, std::string_view(&bucket, 1), false), 1.0f,
                         Group::kOther, -1, 0, 0});
  out.hits.push_back(Hit{hash_of(kRuleTotalNs, "total"),
                         static_cast<float>(std::min(total / 50.0, 4.0)), Group::kOther, -1, 0, 0});
}

void add_kind(Kind kind, FeatureSet& out) {
  out.hits.push_back(Hit{hash_of(kKindNs, to_string(kind), false), 1.0f, Group::kOther, -1, 0, 0});
}

}  // namespace scamcheck::internal::model
