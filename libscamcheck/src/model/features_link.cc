// Link features: host labels, host shape and n-grams, path tokens, query
// names, and the URL input kind.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "data/data_source.h"
#include "model/features.h"
#include "model/features_core.h"

namespace scamcheck::internal::model {
namespace {

// Path tokens and query parameter names read per link at most.
constexpr std::size_t kMaxPathTokens = 24;
constexpr std::size_t kMaxQueryNames = 8;
// Host names longer than this read only their first bytes for n-grams.
constexpr std::size_t kMaxHostGramBytes = 64;

// Second-level labels under which a country-code TLD registers names
// ("example.co.uk", "example.com.br"): the public suffix is then two labels.
// From lists/second_level_labels.txt of the embedded pack, never from
// Options::data_dir: the model was trained with these features.
bool is_generic_second_level(std::string_view label) {
  static const std::vector<std::string>& labels = *new std::vector<std::string>([] {
    Result<std::string> text = DataSource("").read("lists/second_level_labels.txt");
    return text.ok() ? parse_list(*text) : std::vector<std::string>{};
  }());
  return std::find(labels.begin(), labels.end(), label) != labels.end();
}

}  // namespace

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

namespace {

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

}  // namespace

void add_link(std::string_view n, std::size_t begin, std::size_t end, std::int32_t field,
              const Spans& span, FeatureSet& out) {
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

}  // namespace scamcheck::internal::model
