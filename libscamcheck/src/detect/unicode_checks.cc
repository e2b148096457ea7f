#include "detect/unicode_checks.h"

#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/uspoof.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <array>
#include <bitset>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>

#include "detect/confusables.h"
#include "detect/lookalike_fold.h"
#include "util/ascii.h"
#include "util/utf8.h"

// Thread safety: one USpoofChecker is configured in create() and then only
// used through functions taking `const USpoofChecker*` (uspoof_check2UTF8,
// uspoof_getSkeletonUnicodeString). ICU 72's uspoof.h ("Thread Safety")
// guarantees that these may be called concurrently on the same instance, so
// check() shares it without locks or thread-local clones. The Normalizer2
// instances are ICU-owned immutable singletons, safe from any thread.
//
// Cost: pure-ASCII text (most SMS) never reaches ICU: it can only hold
// digit/capital-I look-alikes, found with the look-alike fold and one hash
// look-up per word of 4+ characters. Non-ASCII words use a per-code-point
// skeleton table built in create(); ICU runs per word only for the
// restriction-level check of words that mix two scripts, for the "written
// normally" comparison after a key hit, and for brands with non-ASCII keys.

namespace scamcheck::internal {
namespace {

constexpr std::size_t kMaxFindingsPerKey = 3;  // evidence enough; caps noise
constexpr int kMinBrandCodePoints = 4;         // shorter names match too much
constexpr int kMaxInvisibleContext = 32;       // code points either side

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
using StringSet = std::unordered_set<std::string, StringHash, std::equal_to<>>;

bool is_letter(UChar32 c) {
  if (c < 0) return false;
  if (c < 0x80) return is_alpha(static_cast<char>(c));
  return (U_GET_GC_MASK(c) & U_GC_L_MASK) != 0;
}

bool is_mark(UChar32 c) { return c >= 0x80 && (U_GET_GC_MASK(c) & U_GC_M_MASK) != 0; }

bool is_unicode_space(UChar32 c) {
  if (c < 0) return false;
  if (c < 0x80) return c == ' ' || (c >= '\t' && c <= '\r');
  return u_isUWhiteSpace(c) != 0;
}

bool is_emoji_part(UChar32 c) {
  return c >= 0x80 && (u_hasBinaryProperty(c, UCHAR_EXTENDED_PICTOGRAPHIC) ||
                       (c >= 0x1F3FB && c <= 0x1F3FF));  // skin-tone modifiers
}

bool is_variation_selector(UChar32 c) {
  return (c >= 0xFE00 && c <= 0xFE0F) || (c >= 0xE0100 && c <= 0xE01EF);
}

UScriptCode script_of(UChar32 c) {
  if (c < 0) return USCRIPT_INVALID_CODE;
  if (c < 0x80) return is_alpha(static_cast<char>(c)) ? USCRIPT_LATIN : USCRIPT_COMMON;
  UErrorCode status = U_ZERO_ERROR;
  UScriptCode script = uscript_getScript(c, &status);
  return U_SUCCESS(status) ? script : USCRIPT_INVALID_CODE;
}

bool is_real_script(UScriptCode s) {
  return s != USCRIPT_COMMON && s != USCRIPT_INHERITED && s != USCRIPT_UNKNOWN &&
         s != USCRIPT_INVALID_CODE;
}

// A letter of a script in which zero-width (non-)joiners and zero-width
// spaces are ordinary spelling or line-breaking aids (Arabic, Persian, Indic,
// Thai, ...). Alphabets that look like Latin are excluded: there such a
// character only serves to break up or hide a word.
bool is_joining_script_letter(UChar32 c) {
  if (c < 0x80 || !(is_letter(c) || is_mark(c))) return false;
  UScriptCode s = script_of(c);
  return is_real_script(s) && s != USCRIPT_LATIN && s != USCRIPT_GREEK && s != USCRIPT_CYRILLIC &&
         s != USCRIPT_ARMENIAN && s != USCRIPT_CHEROKEE;
}

// What prev_cp()/next_cp() step over to reach the character of interest.
enum class Skip {
  kNothing,
  kMarks,      // combining marks, variation selectors, skin-tone modifiers
  kInvisible,  // the above and default-ignorable code points
};

bool skipped(UChar32 c, Skip skip) {
  if (skip == Skip::kNothing || c < 0x80) return false;
  if (is_mark(c) || (c >= 0x1F3FB && c <= 0x1F3FF)) return true;
  return skip == Skip::kInvisible && is_default_ignorable(c);
}

// At most this many code points are skipped, so that long runs of marks or
// invisible characters cost linear, not quadratic, time.
constexpr int kMaxSkipped = 8;

// Code point before byte offset `pos` (U_SENTINEL if none).
UChar32 prev_cp(std::string_view t, std::size_t pos, Skip skip) {
  const auto* s = reinterpret_cast<const std::uint8_t*>(t.data());
  auto i = static_cast<std::int32_t>(pos);
  for (int k = 0; i > 0 && k <= kMaxSkipped; ++k) {
    UChar32 c;
    U8_PREV(s, 0, i, c);
    if (!skipped(c, skip)) return c;
  }
  return U_SENTINEL;
}

// Code point at byte offset `pos` (U_SENTINEL at the end).
UChar32 next_cp(std::string_view t, std::size_t pos, Skip skip = Skip::kNothing) {
  const auto* s = reinterpret_cast<const std::uint8_t*>(t.data());
  const auto n = static_cast<std::int32_t>(t.size());
  auto i = static_cast<std::int32_t>(pos);
  for (int k = 0; i < n && k <= kMaxSkipped; ++k) {
    UChar32 c;
    U8_NEXT(s, i, n, c);
    if (!skipped(c, skip)) return c;
  }
  return U_SENTINEL;
}

bool is_letter_or_digit(UChar32 c) {
  if (c < 0) return false;
  if (c < 0x80) return is_alnum(static_cast<char>(c));
  return (U_GET_GC_MASK(c) & (U_GC_L_MASK | U_GC_ND_MASK)) != 0;
}

// Whether the invisible character at [pos, end) splits a word ("Pass|word",
// "12|0"), as opposed to padding between spaces, which newsletters use to
// shape their preview line.
bool splits_word(std::string_view t, std::size_t pos, std::size_t end) {
  return is_letter_or_digit(prev_cp(t, pos, Skip::kInvisible)) &&
         is_letter_or_digit(next_cp(t, end, Skip::kInvisible));
}

bool has_rtl_letters(std::string_view t) {
  const auto* s = reinterpret_cast<const std::uint8_t*>(t.data());
  const auto n = static_cast<std::int32_t>(t.size());
  for (std::int32_t i = 0; i < n;) {
    if (s[i] < 0x80) {
      ++i;
      continue;
    }
    UChar32 c;
    U8_NEXT(s, i, n, c);
    if (!is_letter(c)) continue;  // RLM itself has direction R
    UCharDirection d = u_charDirection(c);
    if (d == U_RIGHT_TO_LEFT || d == U_RIGHT_TO_LEFT_ARABIC) return true;
  }
  return false;
}

bool is_invisible_candidate(UChar32 c) {
  return c == 0x00AD || c == 0x115F || c == 0x1160 || c == 0x180E || (c >= 0x200B && c <= 0x200F) ||
         (c >= 0x202A && c <= 0x202E) || (c >= 0x2060 && c <= 0x2064) ||
         (c >= 0x2066 && c <= 0x2069) || c == 0x3164 || c == 0xFEFF || c == 0xFFA0 ||
         (c >= 0xE0000 && c <= 0xE007F) || is_variation_selector(c);
}

// Letters drawn in a decorative style: the mathematical alphanumerics
// ("𝐎𝐩𝐞𝐧 𝐍𝐨𝐰"), fullwidth Latin ("ＦＲＥＥ") and circled or squared
// Latin capitals ("ⓌⒾⓃ", "🅾🅵🅵"). NFKC turns them back into plain letters;
// written out they dodge word filters.
bool is_styled_letter(UChar32 c) {
  return (c >= 0x1D400 && c <= 0x1D7FF) ||  // incl. the styled digits
         (c >= 0xFF21 && c <= 0xFF3A) || (c >= 0xFF41 && c <= 0xFF5A) ||
         (c >= 0x24B6 && c <= 0x24E9) || (c >= 0x1F130 && c <= 0x1F189);
}

bool is_fullwidth_letter(UChar32 c) {
  return (c >= 0xFF21 && c <= 0xFF3A) || (c >= 0xFF41 && c <= 0xFF5A);
}

// What one pass over a word learned about it.
struct WordInfo {
  std::size_t start = 0;
  std::size_t end = 0;
  int code_points = 0;  // not counting default-ignorables
  int letters = 0;
  int digits = 0;  // ASCII digits, the usual letter stand-ins
  bool non_ascii = false;
  bool hex_only = true;  // only [0-9a-fA-F]: ids and hashes, not words
  UScriptCode first_script = USCRIPT_INVALID_CODE;
  bool several_scripts = false;

  // Extends a compound ("T-Mobile") by the next word after its joiner.
  void absorb(const WordInfo& w) {
    end = w.end;
    code_points += w.code_points + 1;
    letters += w.letters;
    digits += w.digits;
    non_ascii = non_ascii || w.non_ascii;
    hex_only = false;
  }
};

constexpr bool is_hex_letter(std::uint8_t b) {
  return (b >= 'a' && b <= 'f') || (b >= 'A' && b <= 'F');
}

// Byte classes of an ASCII word, one look-up per byte: a letter or digit
// (bit 0), a letter (bit 1), a letter other than a-f and A-F (bit 2).
constexpr std::array<std::uint8_t, 256> kAsciiWordClass = [] {
  std::array<std::uint8_t, 256> t{};
  for (std::size_t c = 0; c < 128; ++c) {
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (alpha || (c >= '0' && c <= '9')) t[c] |= 1;
    if (alpha) t[c] |= 2;
    if (alpha && !is_hex_letter(static_cast<std::uint8_t>(c))) t[c] |= 4;
  }
  return t;
}();
bool is_ascii_word_byte(char c) { return (kAsciiWordClass[static_cast<std::uint8_t>(c)] & 1) != 0; }

// lookalike_letter() of every byte, by table.
constexpr std::array<char, 256> kLookalikeByte = [] {
  std::array<char, 256> t{};
  for (std::size_t c = 0; c < t.size(); ++c) t[c] = lookalike_letter(static_cast<char>(c));
  return t;
}();
char lookalike_byte(char c) { return kLookalikeByte[static_cast<std::uint8_t>(c)]; }

// scan_word() of an all-ASCII text: a run of letters and digits, one
// script, one byte per code point.
WordInfo scan_ascii_word(std::string_view t, std::size_t pos) {
  WordInfo w;
  w.start = pos;
  std::size_t i = pos;
  int letters = 0;
  unsigned not_hex = 0;
  for (; i < t.size(); ++i) {
    const std::uint8_t c = kAsciiWordClass[static_cast<std::uint8_t>(t[i])];
    if ((c & 1) == 0) break;
    letters += (c >> 1) & 1;
    not_hex |= c;
  }
  w.end = i;
  w.code_points = static_cast<int>(i - pos);
  w.letters = letters;
  w.digits = w.code_points - letters;
  w.hex_only = (not_hex & 4) == 0;
  if (letters > 0) w.first_script = USCRIPT_LATIN;
  return w;
}

// Scans the word starting at `pos` (which must start a word character).
WordInfo scan_word(std::string_view t, std::size_t pos) {
  const auto* s = reinterpret_cast<const std::uint8_t*>(t.data());
  const auto n = static_cast<std::int32_t>(t.size());
  WordInfo w;
  w.start = pos;
  auto note_script = [&w](UScriptCode script) {
    if (!is_real_script(script)) return;
    if (w.first_script == USCRIPT_INVALID_CODE) {
      w.first_script = script;
    } else if (w.first_script != script) {
      w.several_scripts = true;
    }
  };
  auto i = static_cast<std::int32_t>(pos);
  while (i < n) {
    if (s[i] < 0x80) {
      if (!is_alnum(static_cast<char>(s[i]))) break;
      if (is_alpha(static_cast<char>(s[i]))) {
        ++w.letters;
        if (!is_hex_letter(s[i])) w.hex_only = false;
        note_script(USCRIPT_LATIN);
      } else {
        ++w.digits;
      }
      ++w.code_points;
      ++i;
      continue;
    }
    std::int32_t j = i;
    UChar32 c;
    U8_NEXT(s, j, n, c);
    if (!is_word_cp(c)) break;
    w.non_ascii = true;
    w.hex_only = false;
    if (!is_default_ignorable(c)) {
      ++w.code_points;
      if (is_letter(c)) {
        ++w.letters;
        note_script(script_of(c));
      }
    }
    i = j;
  }
  w.end = static_cast<std::size_t>(i);
  return w;
}

class UnicodeCheckerImpl final : public UnicodeChecker {
 public:
  explicit UnicodeCheckerImpl(ConfusableKeys keys) : keys_(std::move(keys)) {}

  // Registers one brand; false if it is not usable (too short, several words).
  bool add_brand(std::string_view brand);

  void check(std::string_view text, Findings& out) const override;

 private:
  struct Counts {
    std::size_t mixed = 0;
    std::size_t confusable = 0;
  };

  void check_invisible(std::string_view text, Findings& out) const;
  bool invisible_is_suspicious(std::string_view text, std::size_t pos, std::size_t end, UChar32 c,
                               std::optional<bool>& rtl, std::size_t& ok_tag_end) const;
  // `ascii`: the text is all ASCII (words are runs of letters and digits).
  void check_words(std::string_view text, bool ascii, Findings& out) const;
  static void check_styled(std::string_view text, Findings& out);
  void check_mixed_script(std::string_view text, const WordInfo& w, Counts& counts,
                          Findings& out) const;
  void check_phonetic_letters(std::string_view text, const WordInfo& w, Counts& counts,
                              Findings& out) const;
  void check_confusable(std::string_view text, const WordInfo& w, Counts& counts,
                        Findings& out) const;
  // `plain_letters`: the word has no ASCII digit and no other character than
  // ASCII, so only a brand written without digits can be its original.
  bool matches_brand_key(std::string_view word, bool non_ascii, bool plain_letters) const;
  bool is_brand_written_normally(std::string_view word, bool non_ascii) const;

  static constexpr std::size_t kFilterBits = 4096;
  // Cheap pre-check before hashing a word's key: most words of a message
  // are rejected by one bit test.
  static std::size_t filter_slot(std::string_view key) {
    const auto first = static_cast<std::uint8_t>(key.front());
    const auto second = static_cast<std::uint8_t>(key.size() > 1 ? key[1] : 0);
    const auto last = static_cast<std::uint8_t>(key.back());
    return (key.size() * 7 + first * 131 + second * 31 + last) % kFilterBits;
  }
  bool may_be_brand_key(std::string_view key) const {
    return !key.empty() && key_filter_.test(filter_slot(key)) &&
           brand_keys_.find(key) != brand_keys_.end();
  }
  // Whether the key of an ASCII word (its look-alike fold, ConfusableKeys::
  // key_fast) may begin and end as a brand's key does, read from the
  // word's first two and last two bytes, without folding the rest: most
  // words of a message end here.
  bool may_be_brand_word(std::string_view word) const {
    const char f0 = lookalike_byte(word.front());
    const char last = lookalike_byte(word.back());
    if (word.size() < 2) return key_ends_.test(key_end_slot(f0, last));
    const char f1 = lookalike_byte(word[1]);
    // The contractions rn -> m and vv -> w, left to right: the key's first
    // letter is one at the word's start; at its end, rn always is (no
    // contraction ends in 'r'), vv is or is not ("vvv" -> "wv").
    const char first = f0 == 'r' && f1 == 'n' ? 'm' : f0 == 'v' && f1 == 'v' ? 'w' : f0;
    const char before_last = lookalike_byte(word[word.size() - 2]);
    if (before_last == 'r' && last == 'n') return key_ends_.test(key_end_slot(first, 'm'));
    if (before_last == 'v' && last == 'v') {
      return key_ends_.test(key_end_slot(first, 'w')) || key_ends_.test(key_end_slot(first, 'v'));
    }
    return key_ends_.test(key_end_slot(first, last));
  }
  static std::size_t key_end_slot(char first, char last) {
    return static_cast<std::size_t>(static_cast<std::uint8_t>(first)) << 8 |
           static_cast<std::uint8_t>(last);
  }
  void add_brand_key(std::string_view key, bool has_digits) {
    if (key.empty()) return;
    key_ends_.set(key_end_slot(key.front(), key.back()));
    key_filter_.set(filter_slot(key));
    brand_keys_.emplace(key);
    if (!has_digits) letter_brand_keys_.emplace(key);
  }

  ConfusableKeys keys_;
  std::bitset<kFilterBits> key_filter_;
  std::bitset<1 << 16> key_ends_;  // each brand key's first and last byte
  StringSet brand_keys_;           // confusable keys of the brands
  // Keys of the brands written without ASCII digits: a word of plain
  // letters only imitates these. The trick puts digits in ("Amaz0n"); it
  // does not take a brand's digits out, and the other way round ordinary
  // words match ("lundi", French for Monday, folds like "1und1").
  StringSet letter_brand_keys_;
  StringSet normal_names_;  // NFKC_Casefold forms of the brands
  bool has_non_ascii_brand_keys_ = false;
  bool has_joined_brands_ = false;  // a brand like "t-mobile" or "at&t"
  int max_brand_code_points_ = 0;
};

bool UnicodeCheckerImpl::add_brand(std::string_view brand) {
  std::string normal = nfkc_casefold(brand);
  if (normal.empty()) return false;
  // Single words only: word characters, optionally joined by '-' or '&'.
  const auto* s = reinterpret_cast<const std::uint8_t*>(normal.data());
  const auto n = static_cast<std::int32_t>(normal.size());
  int code_points = 0;
  bool joined = false;
  for (std::int32_t i = 0; i < n;) {
    UChar32 c;
    U8_NEXT(s, i, n, c);
    if (c == '-' || c == '&') {
      if (i == 1 || i == n) return false;
      joined = true;
    } else if (!is_word_cp(c)) {
      return false;
    }
    ++code_points;
  }
  if (code_points < kMinBrandCodePoints) return false;

  const bool has_digits =
      std::any_of(normal.begin(), normal.end(), [](char c) { return c >= '0' && c <= '9'; });
  ConfusableKeyBuffer key;
  if (keys_.key_fast(normal, key)) {
    add_brand_key(key.view(), has_digits);
  } else if (std::string slow = keys_.key_icu(normal); !slow.empty()) {
    has_non_ascii_brand_keys_ = true;
    add_brand_key(slow, has_digits);
  }
  has_joined_brands_ = has_joined_brands_ || joined;
  if (code_points > max_brand_code_points_) max_brand_code_points_ = code_points;
  normal_names_.insert(std::move(normal));
  return true;
}

void UnicodeCheckerImpl::check(std::string_view text, Findings& out) const {
  // Branch-free, so the compiler reads many bytes per instruction.
  unsigned high = 0;
  for (const char ch : text) high |= static_cast<std::uint8_t>(ch);
  const bool ascii = high < 0x80;
  // Every invisible character and every other script is non-ASCII.
  if (!ascii) {
    check_invisible(text, out);
    check_styled(text, out);
  }
  if (ascii && brand_keys_.empty()) return;
  check_words(text, ascii, out);
}

bool UnicodeCheckerImpl::invisible_is_suspicious(std::string_view text, std::size_t pos,
                                                 std::size_t end, UChar32 c,
                                                 std::optional<bool>& rtl,
                                                 std::size_t& ok_tag_end) const {
  switch (c) {
    case 0xFEFF:  // zero-width no-break space; a byte order mark at the start
      return pos != 0 && splits_word(text, pos, end);
    case 0x2060:  // word joiner and invisible math operators
    case 0x2061:
    case 0x2062:
    case 0x2063:
    case 0x2064:
      return splits_word(text, pos, end);
    case 0x00AD:  // soft hyphen: suspicious inside a word
      return is_letter(prev_cp(text, pos, Skip::kInvisible)) &&
             is_letter(next_cp(text, end, Skip::kInvisible));
    case 0x200B:  // zero-width space: a line-break hint in Thai, Khmer, ...
      return splits_word(text, pos, end) &&
             !(is_joining_script_letter(prev_cp(text, pos, Skip::kMarks)) &&
               is_joining_script_letter(next_cp(text, end)));
    case 0x200C:
    case 0x200D: {  // (non-)joiners: emoji sequences, Persian and Indic spelling
      UChar32 prev = prev_cp(text, pos, Skip::kMarks);
      UChar32 next = next_cp(text, end);
      if (c == 0x200D && is_emoji_part(prev) && is_emoji_part(next)) return false;
      return splits_word(text, pos, end) &&
             !(is_joining_script_letter(prev) && is_joining_script_letter(next));
    }
    case 0x202E:  // right-to-left override: reverses text, e.g. "exe.pdf"
      return true;
    case 0x200E:
    case 0x200F:
    case 0x202A:
    case 0x202B:
    case 0x202C:
    case 0x202D:
    case 0x2066:
    case 0x2067:
    case 0x2068:
    case 0x2069:
      // Ordinary in right-to-left text, and phones wrap phone numbers in
      // them; suspicious when they split a word of a left-to-right text.
      if (!is_letter(prev_cp(text, pos, Skip::kInvisible)) ||
          !is_letter(next_cp(text, end, Skip::kInvisible))) {
        return false;
      }
      if (!rtl.has_value()) rtl = has_rtl_letters(text);
      return !*rtl;
    case 0x180E:  // Mongolian vowel separator
      return script_of(prev_cp(text, pos, Skip::kMarks)) != USCRIPT_MONGOLIAN;
    case 0x115F: {  // Hangul choseong filler: fine before a jungseong
      UChar32 next = next_cp(text, end);
      return !((next >= 0x1160 && next <= 0x11A7) || (next >= 0xD7B0 && next <= 0xD7C6));
    }
    case 0x1160: {  // Hangul jungseong filler: fine after a choseong
      UChar32 prev = prev_cp(text, pos, Skip::kNothing);
      return !((prev >= 0x1100 && prev <= 0x115F) || (prev >= 0xA960 && prev <= 0xA97C));
    }
    default:
      break;
  }
  if (c >= 0xE0000 && c <= 0xE007F) {
    // Tags spell subdivision flags after an emoji (England: U+1F3F4 + tags).
    if (c < 0xE0020) return true;
    UChar32 prev = prev_cp(text, pos, Skip::kNothing);
    bool ok = (prev >= 0xE0020 && prev <= 0xE007E && ok_tag_end == pos) || is_emoji_part(prev);
    if (ok) ok_tag_end = end;
    return !ok;
  }
  if (is_variation_selector(c)) {
    // One selector after an emoji or CJK character is normal; after a Latin,
    // Greek or Cyrillic letter, or in a row, it only hides data.
    UChar32 prev = prev_cp(text, pos, Skip::kNothing);
    if (is_variation_selector(prev)) return true;
    UScriptCode s = script_of(prev);
    return is_letter(prev) && (s == USCRIPT_LATIN || s == USCRIPT_GREEK || s == USCRIPT_CYRILLIC);
  }
  return true;  // U+3164, U+FFA0: Hangul fillers, blank look-alike letters
}

void UnicodeCheckerImpl::check_invisible(std::string_view text, Findings& out) const {
  const auto* s = reinterpret_cast<const std::uint8_t*>(text.data());
  const auto n = static_cast<std::int32_t>(text.size());
  std::optional<bool> rtl;  // computed only if a bidi control needs it
  std::size_t ok_tag_end = static_cast<std::size_t>(-1);
  std::size_t found = 0;
  std::int32_t last_end = 0;  // evidence spans do not overlap
  for (std::int32_t i = 0; i < n;) {
    if (s[i] < 0x80) {
      ++i;
      continue;
    }
    const std::int32_t pos = i;
    UChar32 c;
    U8_NEXT(s, i, n, c);
    if (!is_invisible_candidate(c)) continue;
    if (!invisible_is_suspicious(text, static_cast<std::size_t>(pos), static_cast<std::size_t>(i),
                                 c, rtl, ok_tag_end)) {
      continue;
    }
    // Evidence: the word around it, so the user sees e.g. "Pass\u200Bword";
    // bounded for scripts written without spaces.
    std::int32_t start = pos;
    for (int k = 0; start > last_end && k < kMaxInvisibleContext; ++k) {
      std::int32_t j = start;
      UChar32 p;
      U8_PREV(s, 0, j, p);
      if (is_unicode_space(p)) break;
      start = j;
    }
    std::int32_t end = i;
    for (int k = 0; end < n && k < kMaxInvisibleContext; ++k) {
      std::int32_t j = end;
      UChar32 q;
      U8_NEXT(s, j, n, q);
      if (is_unicode_space(q)) break;
      end = j;
    }
    out.push_back(Finding::at("invisible_characters", static_cast<std::size_t>(start),
                              static_cast<std::size_t>(end)));
    if (++found == kMaxFindingsPerKey) return;
    i = last_end = end;  // one finding per word
  }
}

void UnicodeCheckerImpl::check_words(std::string_view text, bool ascii, Findings& out) const {
  const auto* s = reinterpret_cast<const std::uint8_t*>(text.data());
  const std::size_t n = text.size();
  Counts counts;
  // A compound is a run of words joined by single '-' or '&' ("T-Mobile");
  // checked as a whole only if some brand name is written that way.
  WordInfo compound;
  int compound_words = 0;
  std::size_t i = 0;
  while (i < n) {
    if (ascii) {
      if (!is_ascii_word_byte(text[i])) {
        ++i;
        continue;
      }
    } else {
      UChar32 c;
      std::size_t next = i;
      if (s[i] < 0x80) {
        c = s[i];
        ++next;
      } else {
        auto j = static_cast<std::int32_t>(i);
        U8_NEXT(s, j, static_cast<std::int32_t>(n), c);
        next = static_cast<std::size_t>(j);
      }
      if (!is_word_cp(c)) {
        i = next;
        continue;
      }
    }
    const WordInfo w = ascii ? scan_ascii_word(text, i) : scan_word(text, i);
    if (w.letters > 0) {
      if (w.non_ascii && w.several_scripts) {
        check_mixed_script(text, w, counts, out);
      } else if (w.non_ascii) {
        check_phonetic_letters(text, w, counts, out);
      }
      check_confusable(text, w, counts, out);
    }
    if (has_joined_brands_) {
      if (compound_words++ == 0) {
        compound = w;
      } else {
        compound.absorb(w);
      }
      bool continues = w.end + 1 < n && (s[w.end] == '-' || s[w.end] == '&') &&
                       is_word_cp(next_cp(text, w.end + 1));
      if (!continues) {
        if (compound_words > 1) check_confusable(text, compound, counts, out);
        compound_words = 0;
      }
    }
    i = w.end;
  }
}

// Whole words in styled letters (see is_styled_letter). A word (a run
// between white space) counts when at least two of its letters are styled
// and they outnumber its plain letters ("𝖰𝗎𝖺𝗅𝗂𝗍ä𝗍𝗌"); neighbouring styled
// words form one finding, from the first styled letter to the last letter.
// Fullwidth letters inside CJK text ("ＩＤ", "ＰＣ") are how those scripts
// write Latin abbreviations: they need a run of at least eight letters.
void UnicodeCheckerImpl::check_styled(std::string_view text, Findings& out) {
  constexpr int kMinStyledLetters = 4;
  constexpr int kMinFullwidthLetters = 8;
  const auto* s = reinterpret_cast<const std::uint8_t*>(text.data());
  const auto n = static_cast<std::int32_t>(text.size());
  std::size_t found = 0;
  // The open run of styled words.
  bool open = false;
  std::size_t run_start = 0;
  std::size_t run_end = 0;
  int run_styled = 0;
  int run_fullwidth = 0;
  auto close_run = [&]() {
    if (open && found < kMaxFindingsPerKey && run_styled >= kMinStyledLetters &&
        (run_fullwidth < run_styled || run_styled >= kMinFullwidthLetters)) {
      out.push_back(Finding::at("styled_letters", run_start, run_end));
      ++found;
    }
    open = false;
    run_styled = 0;
    run_fullwidth = 0;
  };
  std::int32_t i = 0;
  while (i < n && found < kMaxFindingsPerKey) {
    // One word: up to the next white space.
    int styled = 0;
    int fullwidth = 0;
    int plain = 0;
    std::size_t first_styled = 0;
    std::size_t last_letter_end = 0;
    std::int32_t j = i;
    while (j < n) {
      const std::int32_t at = j;
      UChar32 c;
      U8_NEXT(s, j, n, c);
      if (is_unicode_space(c)) {
        j = at;
        break;
      }
      if (is_styled_letter(c)) {
        if (styled++ == 0) first_styled = static_cast<std::size_t>(at);
        if (is_fullwidth_letter(c)) ++fullwidth;
        last_letter_end = static_cast<std::size_t>(j);
      } else if (is_letter(c)) {  // digits are neutral: "𝐖𝐌𝐅 12-𝐏𝐞𝐫𝐬𝐨𝐧𝐞𝐧"
        ++plain;
        last_letter_end = static_cast<std::size_t>(j);
      }
    }
    if (styled >= 2 && styled > plain) {
      if (!open) {
        open = true;
        run_start = first_styled;
      }
      run_end = last_letter_end;
      run_styled += styled;
      run_fullwidth += fullwidth;
    } else if (plain > 0 || styled > 0) {
      close_run();  // a plain word ends the run; bare punctuation does not
    }
    // Skip the white space after the word.
    while (j < n) {
      const std::int32_t at = j;
      UChar32 c;
      U8_NEXT(s, j, n, c);
      if (!is_unicode_space(c)) {
        j = at;
        break;
      }
    }
    if (j == i) ++j;  // never stall on a malformed byte
    i = j;
  }
  close_run();
}

void UnicodeCheckerImpl::check_mixed_script(std::string_view text, const WordInfo& w,
                                            Counts& counts, Findings& out) const {
  if (counts.mixed >= kMaxFindingsPerKey) return;
  std::string_view word = text.substr(w.start, w.end - w.start);
  // ICU's restriction levels (UTS #39): moderately restrictive accepts one
  // script plus Latin, except Cyrillic, Greek and Cherokee, and the usual
  // Han/Hiragana/Katakana, Han/Hangul and Han/Bopomofo mixtures.
  UErrorCode status = U_ZERO_ERROR;
  int32_t result = uspoof_check2UTF8(keys_.spoof_checker(), word.data(),
                                     static_cast<int32_t>(word.size()), nullptr, &status);
  if (U_FAILURE(status) || (result & USPOOF_RESTRICTION_LEVEL) == 0) return;
  // Units such as "10μg" or "5kΩ": one Greek letter next to at most three
  // Latin ones.
  const auto* s = reinterpret_cast<const std::uint8_t*>(word.data());
  const auto n = static_cast<std::int32_t>(word.size());
  int latin = 0;
  int other = 0;
  bool unit_letter = false;
  for (std::int32_t i = 0; i < n;) {
    UChar32 c;
    U8_NEXT(s, i, n, c);
    if (!is_letter(c)) continue;
    if (script_of(c) == USCRIPT_LATIN) {
      ++latin;
    } else {
      ++other;
      unit_letter = c == 0x03BC || c == 0x03A9 || c == 0x2126;
    }
  }
  if (other == 1 && unit_letter && latin <= 3) return;
  out.push_back(Finding::at("mixed_script", w.start, w.end));
  ++counts.mixed;
}

// Letters of the phonetic alphabets (IPA "ɑ", "ɵ", small capitals "ᴏ")
// inside an otherwise plain Latin word: no language writes words that way;
// they stand in for "a" and "o" to slip past filters ("messɑgɵ").
void UnicodeCheckerImpl::check_phonetic_letters(std::string_view text, const WordInfo& w,
                                                Counts& counts, Findings& out) const {
  if (counts.mixed >= kMaxFindingsPerKey) return;
  const auto* s = reinterpret_cast<const std::uint8_t*>(text.data());
  const auto end = static_cast<std::int32_t>(w.end);
  int ascii = 0;
  bool phonetic = false;
  for (auto i = static_cast<std::int32_t>(w.start); i < end;) {
    UChar32 c;
    U8_NEXT(s, i, end, c);
    if (c < 0x80 && is_alpha(static_cast<char>(c))) ++ascii;
    if ((c >= 0x0250 && c <= 0x02AF) || (c >= 0x1D00 && c <= 0x1DBF)) phonetic = true;
  }
  if (!phonetic || ascii < 2) return;
  out.push_back(Finding::at("mixed_script", w.start, w.end));
  ++counts.mixed;
}

bool UnicodeCheckerImpl::matches_brand_key(std::string_view word, bool non_ascii,
                                           bool plain_letters) const {
  if (!non_ascii && !may_be_brand_word(word)) return false;
  ConfusableKeyBuffer key;
  if (keys_.key_fast(word, key)) {
    if (!may_be_brand_key(key.view())) return false;
    return !plain_letters || letter_brand_keys_.find(key.view()) != letter_brand_keys_.end();
  }
  if (!non_ascii || !has_non_ascii_brand_keys_) return false;
  return may_be_brand_key(keys_.key_icu(word));
}

bool UnicodeCheckerImpl::is_brand_written_normally(std::string_view word, bool non_ascii) const {
  if (non_ascii) {
    // NFKC_Casefold also accepts full-width and styled forms ("ＰａｙＰａｌ")
    // and drops invisible characters (reported as such).
    return normal_names_.find(std::string_view(nfkc_casefold(word))) != normal_names_.end();
  }
  char lower[ConfusableKeyBuffer::kCapacity];
  if (word.size() > sizeof lower) return false;
  for (std::size_t i = 0; i < word.size(); ++i) {
    char ch = word[i];
    lower[i] = ascii_lower(ch);
  }
  return normal_names_.find(std::string_view(lower, word.size())) != normal_names_.end();
}

void UnicodeCheckerImpl::check_confusable(std::string_view text, const WordInfo& w, Counts& counts,
                                          Findings& out) const {
  if (counts.confusable >= kMaxFindingsPerKey || brand_keys_.empty()) return;
  // Look-alike tricks rarely change the length by more than a few characters
  // ("rn" for "m", "vv" for "w").
  if (w.code_points < kMinBrandCodePoints || w.code_points > 2 * max_brand_code_points_) return;
  // Digits stand in for a letter or two of a word ("Amaz0n", "V0DAF0NE");
  // codes, hashes and ids ("4d4c" -> "adac", "v154" -> "visa") are not words.
  if (w.digits > 0 && (w.digits >= w.letters || w.hex_only)) return;
  std::string_view word = text.substr(w.start, w.end - w.start);
  // The fold reads "1" and "i" as "l" too: "M1crosoft", "lKEA".
  const bool plain_letters = w.digits == 0 && !w.non_ascii;
  if (!matches_brand_key(word, w.non_ascii, plain_letters) ||
      is_brand_written_normally(word, w.non_ascii)) {
    return;
  }
  out.push_back(Finding::at("confusable_word", w.start, w.end));
  ++counts.confusable;
}

}  // namespace

Result<std::unique_ptr<UnicodeChecker>> UnicodeChecker::create(
    const std::vector<std::string>& brand_names) {
  Result<ConfusableKeys> keys = ConfusableKeys::create();
  if (!keys.ok()) return keys.status();
  auto checker = std::make_unique<UnicodeCheckerImpl>(std::move(keys).value());
  for (const std::string& brand : brand_names) {
    if (!is_valid_utf8(brand)) {
      return Status::invalid_argument("brand name is not valid UTF-8: " + brand);
    }
    // Names of fewer than 4 characters or of several words are skipped on
    // purpose (see add_brand); they are not errors in the brand list.
    (void)checker->add_brand(brand);
  }
  return std::unique_ptr<UnicodeChecker>(std::move(checker));
}

}  // namespace scamcheck::internal
