// Confusables: the confusable "key" of a word (ICU's UTS #39 skeleton plus
// the look-alike fold), in a fast table-driven form and in the reference
// ICU form, and the Unicode character classes the keys are built on. Used
// by the confusable-word check of detect/unicode_checks.
#ifndef SCAMCHECK_DETECT_CONFUSABLES_H_
#define SCAMCHECK_DETECT_CONFUSABLES_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "scamcheck/status.h"

struct USpoofChecker;

namespace scamcheck::internal {

// A confusable key is built in a fixed buffer so that checking a word never
// allocates. Words whose key would be longer cannot be brand look-alikes.
class ConfusableKeyBuffer {
 public:
  static constexpr std::size_t kCapacity = 96;

  void clear() {
    size_ = 0;
    overflow_ = false;
  }
  // The container interface append_lookalike_fold() writes through.
  bool empty() const { return size_ == 0; }
  char& back() { return data_[size_ - 1]; }
  void push_back(char c) {
    if (size_ < kCapacity) {
      data_[size_++] = c;
    } else {
      overflow_ = true;
    }
  }
  bool overflow() const { return overflow_; }
  std::string_view view() const { return {data_, size_}; }

 private:
  char data_[kCapacity];
  std::size_t size_ = 0;
  bool overflow_ = false;
};

// Computes confusable keys. key(w) = fold(lower(skeleton(NFKC(w)))) where
// default-ignorable code points are dropped first, skeleton is ICU's UTS #39
// skeleton and fold is the look-alike fold of detect/lookalike_fold.h (the
// one url/brands uses), for look-alikes ICU leaves apart or that only hold
// after lower-casing: digits, i/l, rn->m, vv->w.
//
// key_fast() gets the same result from a table built once in create(): for
// every code point of the scripts that have Latin look-alikes it stores
// lower(skeleton(NFKC(cp))) when that is ASCII. It fails (returns false) for
// a word containing a code point without such an entry: that word's key has
// a non-ASCII part and can only equal a brand key that is non-ASCII too.
// Immutable after create(); const members are safe from many threads (ICU
// documents const USpoofChecker functions as thread-safe).
class ConfusableKeys {
 public:
  static Result<ConfusableKeys> create();
  ConfusableKeys(ConfusableKeys&& other) noexcept;
  ConfusableKeys& operator=(ConfusableKeys&& other) noexcept;
  ConfusableKeys(const ConfusableKeys&) = delete;
  ConfusableKeys& operator=(const ConfusableKeys&) = delete;
  ~ConfusableKeys();

  // Fast key of valid UTF-8 `word`; false if it is not all-ASCII-mappable or
  // too long.
  bool key_fast(std::string_view word, ConfusableKeyBuffer& out) const;
  // Reference key through ICU (allocates; slower). Empty on ICU failure.
  std::string key_icu(std::string_view word) const;

  // Shared spoof checker, configured for the mixed-script (restriction
  // level) check; owned by this object.
  const USpoofChecker* spoof_checker() const { return checker_; }

 private:
  ConfusableKeys() = default;

  USpoofChecker* checker_ = nullptr;
  std::unordered_map<std::uint32_t, std::string> ascii_skeletons_;
};

// Characters a word consists of: letters, marks, digits, letter numbers and
// format characters (so "Pass\u200Bword" stays one word). `c` is a code
// point (UChar32); negative for an ill-formed sequence.
bool is_word_cp(std::int32_t c);

// Whether `c` has the Unicode property Default_Ignorable_Code_Point
// (zero-width characters, variation selectors, tags, Hangul fillers, ...).
bool is_default_ignorable(std::uint32_t c);

// NFKC_Casefold of valid UTF-8 `text` (default-ignorables removed), the
// "written normally" form a word is compared with. Empty on ICU failure.
std::string nfkc_casefold(std::string_view text);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_DETECT_CONFUSABLES_H_
