// Prose features: hashed word uni- and bigrams of the text a person reads
// (links in it read as links), and the shape of a text message.
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>

#include "model/features.h"
#include "model/features_core.h"
#include "url/public_suffix.h"

namespace scamcheck::internal::model {
namespace {

constexpr std::string_view kLeadingPunct = "([{<\"'*";
constexpr std::string_view kTrailingPunct = ".,;:!?)]}>\"'*";

// Byte classes of kLeadingPunct (bit 0), kTrailingPunct (bit 1), is_space
// (bit 2), is_word_byte (bit 3), '@' (bit 4) and '.' or ':' (bit 5): one
// look-up per byte of prose.
constexpr std::array<std::uint8_t, 256> kPunctClass = [] {
  std::array<std::uint8_t, 256> t{};
  for (char c : kLeadingPunct) t[static_cast<unsigned char>(c)] |= 1;
  for (char c : kTrailingPunct) t[static_cast<unsigned char>(c)] |= 2;
  for (char c : std::string_view(" \t\n\r\f\v")) t[static_cast<unsigned char>(c)] |= 4;
  for (std::size_t c = 0; c < 256; ++c) {
    const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (alnum || c == '$' || c >= 0x80) t[c] |= 8;
  }
  t['@'] |= 16;
  t['.'] |= 32;
  t[':'] |= 32;
  return t;
}();
bool is_leading_punct(char c) { return (kPunctClass[static_cast<unsigned char>(c)] & 1) != 0; }
bool is_trailing_punct(char c) { return (kPunctClass[static_cast<unsigned char>(c)] & 2) != 0; }
bool space_byte(char c) { return (kPunctClass[static_cast<unsigned char>(c)] & 4) != 0; }
bool word_byte(char c) { return (kPunctClass[static_cast<unsigned char>(c)] & 8) != 0; }

// The shape of a message read as a whole (text, not mail): its length in
// bytes and the share of its letters written in capitals ("URGENT: YOUR
// ACCOUNT ..."). An SMS is short or long for what it has to say, and
// shouting is a style of its own; neither is a word the n-grams could see.
// Both are read without the URL schemes, which a user may or may not have
// written ("http://" never counts). Digits are not counted: codes and
// amounts are as common in today's notifications as in the corpora's spam.
void add_prose_shape(std::string_view text, FeatureSet& out) {
  // Every byte counted in one branch-free pass, then the schemes' bytes
  // taken out again (a scheme holds no 'h' but its first: they never
  // overlap).
  // (32-bit counts and bitwise operators: the compiler's vector
  // instructions take many bytes at a time; an input is far below 4 GiB.)
  std::uint32_t letter_count = 0, upper_count = 0;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    const auto is_upper = static_cast<std::uint32_t>(static_cast<unsigned char>(c - 'A') < 26);
    const auto is_lower = static_cast<std::uint32_t>(static_cast<unsigned char>(c - 'a') < 26);
    letter_count += is_upper | is_lower;
    upper_count += is_upper;
  }
  std::size_t size = text.size(), letters = letter_count, upper = upper_count;
  // Every scheme ends in "://": found by the library's substring search,
  // then the letters before it read ("http" or "https", in any case).
  for (std::size_t k = text.find("://"); k != std::string_view::npos; k = text.find("://", k + 1)) {
    const std::size_t scheme = k >= 4 && starts_with_ci(text.substr(k - 4), "http://")    ? 7
                               : k >= 5 && starts_with_ci(text.substr(k - 5), "https://") ? 8
                                                                                          : 0;
    if (scheme == 0) continue;
    const std::string_view rest = text.substr(k + 3 - scheme);
    size -= scheme;
    letters -= scheme - 3;  // "http" or "https"
    for (std::size_t b = 0; b < scheme - 3; ++b) upper -= rest[b] >= 'A' && rest[b] <= 'Z';
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

// Whether a link-shaped chunk is a bare name without a top-level domain that
// exists ("oops1.dat", "mkfs.xfs" in a mailing list: file and command
// names). The model reads it as it always did, but it is not a link a
// person would recognise, so it is never quoted as one.
bool bare_name_without_tld(std::string_view c) {
  if (c.find("://") != std::string_view::npos || c.substr(0, 4) == "www.") return false;
  std::size_t host_end = 0;
  while (host_end < c.size() && is_host_byte(c[host_end])) ++host_end;
  const std::string_view host = c.substr(0, host_end);
  const std::size_t dot = host.rfind('.');
  return dot == std::string_view::npos || !is_known_tld(host.substr(dot + 1));
}

// Whether a chunk of the input (as written, between spaces) is something a
// person can read, so that the model's evidence may quote its words:
// letters, digits, marks and currency signs of one script with ASCII
// punctuation, valid UTF-8, no replacement, control, symbol or
// fraction character, and in Latin script at most one accented letter more
// than plain ones (an 8-bit body of garbage bytes read as Latin-1 gives
// "ÿã¾ðÆß"; "été", "Größe" and "Ärger" stay quotable). Words of a chunk that
// is not still count as features; they are only never quoted.
bool readable(std::string_view chunk) {
  // Printable ASCII alone (most chunks) is readable.
  bool printable = true;
  for (const char c : chunk) printable &= c >= 0x20 && c < 0x7F;
  if (printable) return true;
  std::int32_t i = 0;
  const auto n = static_cast<std::int32_t>(chunk.size());
  UScriptCode script = USCRIPT_COMMON;
  std::size_t ascii_letters = 0, other_latin = 0;
  while (i < n) {
    UChar32 c = 0;
    U8_NEXT(chunk.data(), i, n, c);
    if (c < 0 || c == 0xFFFD) return false;
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7F) return false;
      if (is_alpha(static_cast<char>(c))) {
        ++ascii_letters;
        if (script != USCRIPT_COMMON && script != USCRIPT_LATIN) return false;
        script = USCRIPT_LATIN;
      }
      continue;
    }
    if (!u_isalnum(c) && !(U_GET_GC_MASK(c) & (U_GC_M_MASK | U_GC_SC_MASK | U_GC_P_MASK))) {
      return false;
    }
    if (!u_isalpha(c)) continue;
    UErrorCode status = U_ZERO_ERROR;
    const UScriptCode sc = uscript_getScript(c, &status);
    if (U_FAILURE(status)) return false;
    if (sc == USCRIPT_COMMON || sc == USCRIPT_INHERITED) continue;
    if (script != USCRIPT_COMMON && sc != script) return false;
    script = sc;
    other_latin += sc == USCRIPT_LATIN;
  }
  return other_latin <= ascii_letters + 1;
}

bool looks_like_address(std::string_view c) {
  const std::size_t at = c.find('@');
  return at != std::string_view::npos && at > 0 && c.find('.', at) != std::string_view::npos &&
         c.find("://") == std::string_view::npos;
}

class ProseReader {
 public:
  ProseReader(const NormalizedText& norm, SpanMap map, std::int32_t field, FeatureSet& out)
      : norm_(norm), n_(norm.text()), spans_(norm, map), field_(field), out_(out) {
    // A text of printable ASCII and white space (most messages) maps to
    // its normalization byte for byte, so every chunk is printable ASCII
    // (white space ends a chunk): readable, without reading it again.
    // Branch-free, so the compiler reads many bytes per instruction: white
    // space is ' ' (printable) or '\t' ... '\r' (9 to 13).
    unsigned other = 0;
    for (const char ch : norm.original()) {
      const auto c = static_cast<unsigned char>(ch);
      other |= static_cast<unsigned>(static_cast<unsigned char>(c - 0x20) >= 0x5F) &
               static_cast<unsigned>(static_cast<unsigned char>(c - 9) >= 5);
    }
    plain_ = other == 0;
  }

  void read() {
    std::size_t i = 0;
    while (i < n_.size() && out_.word_tokens < kMaxWordTokens) {
      while (i < n_.size() && space_byte(n_[i])) ++i;
      // The chunk's end, and the byte classes of all of it on the way
      // (the punctuation trimmed below included).
      std::size_t j = i;
      std::uint8_t classes = 0;
      for (; j < n_.size(); ++j) {
        const std::uint8_t c = kPunctClass[static_cast<unsigned char>(n_[j])];
        if ((c & 4) != 0) break;
        classes |= c;
      }
      std::size_t s = i;
      std::size_t e = j;
      i = j;
      while (s < e && is_leading_punct(n_[s])) ++s;
      while (e > s && is_trailing_punct(n_[e - 1])) --e;
      if (s == e) continue;
      const std::string_view chunk = n_.substr(s, e - s);
      if (plain_) {
        chunk_readable_ = true;
      } else {
        const auto [os, oe] = norm_.to_original(s, e);
        chunk_readable_ = readable(norm_.original().substr(os, oe - os));
      }
      // An address needs an '@', a link a '.' or a ':' ("://", "www.", a
      // dotted host): most chunks are words with neither. Where the whole
      // chunk has one, the chunk without its punctuation is read again.
      if ((classes & (16 | 32)) != 0) {
        classes = 0;
        for (const char c : chunk) classes |= kPunctClass[static_cast<unsigned char>(c)];
      }
      if ((classes & 16) != 0 && looks_like_address(chunk)) {
        token(kEmailToken, s, e);
      } else if ((classes & 32) != 0 && looks_like_link(chunk)) {
        if (bare_name_without_tld(chunk)) chunk_readable_ = false;
        token(kUrlToken, s, e);
        add_link(n_, s, e, chunk_readable_ ? field_ : -1, spans_, out_);
      } else {
        words(s, e);
      }
    }
  }

 private:
  void words(std::size_t s, std::size_t e) {
    for (std::size_t a = s; a < e;) {
      while (a < e && !word_byte(n_[a])) ++a;
      std::size_t b = a;
      while (b < e && word_byte(n_[b])) ++b;
      if (b > a) {
        token(n_.substr(a, b - a), a, b);
      }
      a = b;
    }
  }

  // Whether `token` holds three letters (ASCII letters, or characters
  // beyond ASCII, counted by their first bytes).
  static bool letters_at_least_3(std::string_view token) {
    int letters = 0;
    for (char ch : token) {
      const auto c = static_cast<unsigned char>(ch);
      letters += is_alpha(ch) || c >= 0xC0 ? 1 : 0;
      if (letters >= 3) return true;
    }
    return false;
  }

  void token(std::string_view text, std::size_t s, std::size_t e) {
    if (out_.word_tokens >= kMaxWordTokens) return;
    ++out_.word_tokens;
    const auto span = spans_(s, e);
    // Three FNV-1a chains over the token's bytes in one loop (independent,
    // so they overlap): the unigram, the bigram with the previous token
    // (its chain already past that token and the separator), and the start
    // of the next bigram. The same hashes as hash_of(kWordNs, text) and
    // hash_of of the bigram's bytes, each byte read once.
    std::uint32_t w = Fnv(kWordNs).h;
    std::uint32_t pair = pair_prefix_;
    std::uint32_t next = Fnv(kBigramNs).h;
    for (char ch : text.substr(0, kMaxTokenBytes)) {
      auto c = static_cast<unsigned char>(ch);
      if (c >= '0' && c <= '9') c = '0';
      w = (w ^ c) * 16777619u;
      pair = (pair ^ c) * 16777619u;
      next = (next ^ c) * 16777619u;
    }
    // A word nobody can read counts, but without a place it is never quoted;
    // nor is a word of fewer than three letters ("9", "a", "en"), alone or
    // beside another such: no reason a person can see.
    const bool readable = chunk_readable_;
    const bool worded = letters_at_least_3(text);
    const std::int32_t field = readable && worded ? field_ : -1;
    push(out_, w, Group::kWord, field, span);
    if (out_.mail_words) push(out_, w * 16777619u ^ 0x6du, Group::kWord, field, span);

    if (has_prev_) {
      const std::int32_t pair_field =
          readable && prev_readable_ && (worded || prev_worded_) ? field_ : -1;
      push(out_, pair, Group::kWord, pair_field, {prev_start_, span.second});
      if (out_.mail_words) {
        push(out_, pair * 16777619u ^ 0x6du, Group::kWord, pair_field, {prev_start_, span.second});
      }
    }
    prev_readable_ = readable;
    prev_worded_ = worded;
    pair_prefix_ = (next ^ 0x01u) * 16777619u;
    prev_start_ = span.first;
    has_prev_ = true;
  }

  const NormalizedText& norm_;
  std::string_view n_;
  Spans spans_;
  std::int32_t field_;
  FeatureSet& out_;
  bool has_prev_ = false;
  bool prev_readable_ = false;
  bool prev_worded_ = false;
  bool chunk_readable_ = true;
  bool plain_ = false;  // the text is printable ASCII and white space
  // FNV-1a of the bigram namespace, the previous token and 0x01.
  std::uint32_t pair_prefix_ = 0;
  std::uint32_t prev_start_ = 0;
};

}  // namespace

void add_prose(std::string_view text, std::int32_t field, FeatureSet& out, SpanMap map,
               const NormalizedText* normalized) {
  // A mail's parts are read one by one, so their shape is not the mail's.
  if (!out.mail_words) add_prose_shape(text, out);
  std::optional<NormalizedText> own;
  if (normalized == nullptr || normalized->original().data() != text.data() ||
      normalized->original().size() != text.size() || normalized->spaced_underscores()) {
    normalized = &own.emplace(text);
  }
  const NormalizedText& norm = *normalized;
  // About one word per 4 bytes, each a unigram and a bigram (twice for
  // mail), plus room for a link and the rule features.
  const std::size_t words =
      std::min(norm.text().size() / 4, kMaxWordTokens - std::min(out.word_tokens, kMaxWordTokens));
  reserve_more(out.hits, words * (out.mail_words ? 4 : 2) + 32);
  ProseReader(norm, map, field, out).read();
}

}  // namespace scamcheck::internal::model
