#include "detect/confusables.h"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/uspoof.h>
#include <unicode/utf8.h>

#include <array>
#include <string>
#include <utility>

#include "detect/lookalike_fold.h"
#include "util/ascii.h"

namespace scamcheck::internal {
namespace {

// Scripts with Latin look-alikes; their skeletons are tabulated at create()
// (about 19k code points, a few milliseconds). A code point outside these
// ranges makes a word's fast key fail, i.e. the word is not compared with
// ASCII brand keys.
constexpr std::pair<UChar32, UChar32> kTabulatedRanges[] = {
    {0x0080, 0x2FFF},    // Latin-1 .. Cyrillic, Armenian, Cherokee, letterlike, ...
    {0xA000, 0xABFF},    // Lisu, Vai, Cyrillic Ext-B, Latin Ext-D/E, Cherokee Sup.
    {0xFB00, 0xFFEF},    // ligatures, fullwidth forms
    {0x10000, 0x107FF},  // Old Italic, Gothic, Deseret, Osage, ...
    {0x1D400, 0x1D7FF},  // mathematical alphanumerics
};

const icu::Normalizer2* nfkc() {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* n = icu::Normalizer2::getNFKCInstance(status);
  return U_SUCCESS(status) ? n : nullptr;
}

}  // namespace

bool is_word_cp(UChar32 c) {
  if (c < 0) return false;
  if (c < 0x80) return is_alnum(static_cast<char>(c));
  return (U_GET_GC_MASK(c) &
          (U_GC_L_MASK | U_GC_M_MASK | U_GC_ND_MASK | U_GC_NL_MASK | U_GC_CF_MASK)) != 0;
}

bool is_default_ignorable(std::uint32_t c) {
  // Default_Ignorable_Code_Point of Unicode 15 (DerivedCoreProperties.txt),
  // spelled out because u_hasBinaryProperty() is a slow generic look-up on
  // the per-code-point path; a unit test compares it with ICU.
  static constexpr std::pair<std::uint32_t, std::uint32_t> kRanges[] = {
      {0x00AD, 0x00AD},   {0x034F, 0x034F}, {0x061C, 0x061C},   {0x115F, 0x1160},
      {0x17B4, 0x17B5},   {0x180B, 0x180F}, {0x200B, 0x200F},   {0x202A, 0x202E},
      {0x2060, 0x206F},   {0x3164, 0x3164}, {0xFE00, 0xFE0F},   {0xFEFF, 0xFEFF},
      {0xFFA0, 0xFFA0},   {0xFFF0, 0xFFF8}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A},
      {0xE0000, 0xE0FFF},
  };
  if (c < 0xAD) return false;
  for (const auto& [first, last] : kRanges) {
    if (c < first) return false;
    if (c <= last) return true;
  }
  return false;
}

std::string nfkc_casefold(std::string_view text) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* n = icu::Normalizer2::getNFKCCasefoldInstance(status);
  if (U_FAILURE(status)) return {};
  icu::UnicodeString folded = n->normalize(icu::UnicodeString::fromUTF8(icu::StringPiece(
                                               text.data(), static_cast<int32_t>(text.size()))),
                                           status);
  if (U_FAILURE(status)) return {};
  std::string result;
  folded.toUTF8String(result);
  return result;
}

Result<ConfusableKeys> ConfusableKeys::create() {
  ConfusableKeys keys;
  UErrorCode status = U_ZERO_ERROR;
  keys.checker_ = uspoof_open(&status);
  uspoof_setChecks(keys.checker_, USPOOF_RESTRICTION_LEVEL, &status);
  uspoof_setRestrictionLevel(keys.checker_, USPOOF_MODERATELY_RESTRICTIVE);
  const icu::Normalizer2* normalizer = nfkc();
  if (U_FAILURE(status) || normalizer == nullptr) {
    return Status::internal(std::string("cannot set up the ICU spoof checker: ") +
                            u_errorName(status));
  }
  for (const auto& [first, last] : kTabulatedRanges) {
    for (UChar32 c = first; c <= last; ++c) {
      if (!is_word_cp(c) || is_default_ignorable(c)) continue;
      UErrorCode err = U_ZERO_ERROR;
      icu::UnicodeString normalized = normalizer->normalize(icu::UnicodeString(c), err);
      icu::UnicodeString skeleton;
      uspoof_getSkeletonUnicodeString(keys.checker_, 0, normalized, skeleton, &err);
      if (U_FAILURE(err)) continue;
      skeleton.foldCase();
      std::string utf8;
      skeleton.toUTF8String(utf8);
      bool usable = !utf8.empty();
      for (char ch : utf8) {
        auto b = static_cast<std::uint8_t>(ch);
        if (b >= 0x80 || b <= ' ') usable = false;
      }
      if (usable) keys.ascii_skeletons_.emplace(static_cast<std::uint32_t>(c), std::move(utf8));
    }
  }
  return keys;
}

ConfusableKeys::ConfusableKeys(ConfusableKeys&& other) noexcept
    : checker_(std::exchange(other.checker_, nullptr)),
      ascii_skeletons_(std::move(other.ascii_skeletons_)) {}

ConfusableKeys& ConfusableKeys::operator=(ConfusableKeys&& other) noexcept {
  if (this != &other) {
    if (checker_ != nullptr) uspoof_close(checker_);
    checker_ = std::exchange(other.checker_, nullptr);
    ascii_skeletons_ = std::move(other.ascii_skeletons_);
  }
  return *this;
}

ConfusableKeys::~ConfusableKeys() {
  if (checker_ != nullptr) uspoof_close(checker_);
}

namespace {
// lookalike_letter of every ASCII byte.
constexpr std::array<char, 128> kLookalikeLetter = [] {
  std::array<char, 128> t{};
  for (std::size_t c = 0; c < t.size(); ++c) t[c] = lookalike_letter(static_cast<char>(c));
  return t;
}();
}  // namespace

bool ConfusableKeys::key_fast(std::string_view word, ConfusableKeyBuffer& out) const {
  out.clear();
  const auto* s = reinterpret_cast<const std::uint8_t*>(word.data());
  const auto n = static_cast<std::int32_t>(word.size());
  for (std::int32_t i = 0; i < n;) {
    if (s[i] < 0x80) {
      // A run of ASCII (most words are all of it): the fold by table, its
      // two-letter contractions inline.
      for (; i < n && s[i] < 0x80; ++i) {
        const char c = kLookalikeLetter[s[i]];
        if (!out.empty() && ((c == 'n' && out.back() == 'r') || (c == 'v' && out.back() == 'v'))) {
          out.back() = c == 'n' ? 'm' : 'w';
        } else {
          out.push_back(c);
        }
      }
      continue;
    }
    UChar32 c;
    U8_NEXT(s, i, n, c);
    if (c < 0) return false;
    auto it = ascii_skeletons_.find(static_cast<std::uint32_t>(c));
    if (it != ascii_skeletons_.end()) {
      for (char ch : it->second) append_lookalike_fold(out, ch);
    } else if (!is_default_ignorable(c)) {
      return false;
    }
  }
  return !out.overflow();
}

std::string ConfusableKeys::key_icu(std::string_view word) const {
  const icu::Normalizer2* normalizer = nfkc();
  if (normalizer == nullptr) return {};
  icu::UnicodeString input;
  const auto* s = reinterpret_cast<const std::uint8_t*>(word.data());
  const auto n = static_cast<std::int32_t>(word.size());
  for (std::int32_t i = 0; i < n;) {
    UChar32 c;
    U8_NEXT(s, i, n, c);
    if (c < 0) return {};
    if (is_default_ignorable(c)) continue;
    input.append(c);
  }
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString normalized = normalizer->normalize(input, status);
  icu::UnicodeString skeleton;
  uspoof_getSkeletonUnicodeString(checker_, 0, normalized, skeleton, &status);
  if (U_FAILURE(status)) return {};
  skeleton.foldCase();
  std::string utf8;
  skeleton.toUTF8String(utf8);
  ConfusableKeyBuffer key;
  for (char ch : utf8) append_lookalike_fold(key, ch);  // keeps non-ASCII bytes
  if (key.overflow()) return {};
  return std::string(key.view());
}

}  // namespace scamcheck::internal
