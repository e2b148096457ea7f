// The shared core of the model's features (features.cc and its three
// readers: features_link.cc, features_text.cc, features_email.cc): limits,
// feature namespaces, the hash, spans and what more than one reader uses.
// Private to those files.
#ifndef SCAMCHECK_MODEL_FEATURES_CORE_H_
#define SCAMCHECK_MODEL_FEATURES_CORE_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <utility>
#include <vector>

#include "model/features.h"
#include "normalize/normalize.h"
#include "util/ascii.h"

namespace scamcheck::internal::model {

// Prose tokens read per input at most: a 64 KiB mail body says what it has
// to say long before that, and the cost stays bounded.
inline constexpr std::size_t kMaxWordTokens = 4000;
// Bytes of a token that count; longer runs (base64, hashes) hash their start.
inline constexpr std::size_t kMaxTokenBytes = 40;

// Stand-ins for what the model must see by its kind only.
inline constexpr std::string_view kEmailToken =
    "\x01"
    "email";
inline constexpr std::string_view kUrlToken =
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

inline std::uint32_t hash_of(char ns, std::string_view token, bool mask_digits = true) {
  Fnv f(ns);
  f.add(token, mask_digits);
  return f.h;
}

// hash_of(ns, std::string(prefix) + last) (digits masked), without the
// string; `prefix` is shorter than kMaxTokenBytes.
inline std::uint32_t hash_of_suffixed(char ns, std::string_view prefix, char last) {
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
inline bool is_word_byte(char c) {
  return is_alnum(c) || c == '$' || static_cast<unsigned char>(c) >= 0x80;
}
inline bool is_host_byte(char c) { return is_alnum(c) || c == '-' || c == '.'; }

// Where a feature came from: a byte range of the normalized text, mapped to
// the text the location names.
class Spans {
 public:
  Spans(const NormalizedText& norm, SpanMap map) : norm_(&norm), map_(map) {}
  // Every range maps to [start, end): each feature of an HTML link quotes
  // the whole href attribute.
  static Spans whole(std::uint32_t start, std::uint32_t end) {
    Spans s;
    s.whole_ = {start, end};
    return s;
  }
  std::pair<std::uint32_t, std::uint32_t> operator()(std::size_t start, std::size_t end) const {
    if (norm_ == nullptr) return whole_;
    auto [s, e] = norm_->to_original(start, end);
    if (map_.start != nullptr) {
      const std::size_t first = s;
      s = map_.start[first];
      e = map_.end[e - 1];
    }
    return {static_cast<std::uint32_t>(s), static_cast<std::uint32_t>(e)};
  }

 private:
  Spans() = default;

  const NormalizedText* norm_ = nullptr;
  SpanMap map_;
  std::pair<std::uint32_t, std::uint32_t> whole_{};
};

inline void push(FeatureSet& out, std::uint32_t hash, Group group, std::int32_t field,
                 std::pair<std::uint32_t, std::uint32_t> span) {
  out.hits.push_back(Hit{hash, 1.0f, group, field, span.first, span.second});
}

inline char size_bucket(std::size_t n, std::initializer_list<std::size_t> bounds) {
  char c = 'a';
  for (std::size_t b : bounds) {
    if (n <= b) return c;
    ++c;
  }
  return c;
}

// The registrable domain of a host ("mail.example.co.uk" ->
// "example.co.uk") by a short rule (a two-letter TLD after a label of
// lists/second_level_labels.txt takes one more label); the host itself when
// it has fewer labels.
std::string_view registrable_of(std::string_view h);

// The link features of normalized bytes [begin, end) of `n`; `span` maps a
// range of `n` to the location's text.
void add_link(std::string_view n, std::size_t begin, std::size_t end, std::int32_t field,
              const Spans& span, FeatureSet& out);

}  // namespace scamcheck::internal::model

#endif  // SCAMCHECK_MODEL_FEATURES_CORE_H_
