// Private pieces of the Unicode checks, exposed for unit tests: the
// confusable "key" of a word (ICU skeleton plus a few ASCII look-alike
// foldings) in a fast table-driven form and in the reference ICU form.
#ifndef SCAMCHECK_DETECT_UNICODE_CHECKS_IMPL_H_
#define SCAMCHECK_DETECT_UNICODE_CHECKS_IMPL_H_

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
  // Appends `c` after the ASCII look-alike folding (see ConfusableKeys).
  void append_folded(char c, bool one_as_i);
  void append_raw(char c) {
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
// skeleton and fold is an extra ASCII step for look-alikes ICU leaves apart
// or that only hold after lower-casing: 0->o, 1->l (or 1->i in the variant),
// I/|->l, 3->e, 4->a, 5->s, m->rn (ICU's prototype), vv->w.
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
  // too long. `one_as_i` reads the digit 1 as "i" instead of "l".
  bool key_fast(std::string_view word, bool one_as_i, ConfusableKeyBuffer& out) const;
  // Reference key through ICU (allocates; slower). Empty on ICU failure.
  std::string key_icu(std::string_view word, bool one_as_i) const;

  // Shared spoof checker, configured for the mixed-script (restriction
  // level) check; owned by this object.
  const USpoofChecker* spoof_checker() const { return checker_; }

 private:
  ConfusableKeys() = default;

  USpoofChecker* checker_ = nullptr;
  std::unordered_map<std::uint32_t, std::string> ascii_skeletons_;
};

// Whether `c` has the Unicode property Default_Ignorable_Code_Point
// (zero-width characters, variation selectors, tags, Hangul fillers, ...).
bool is_default_ignorable(std::uint32_t c);

// NFKC_Casefold of valid UTF-8 `text` (default-ignorables removed), the
// "written normally" form a word is compared with. Empty on ICU failure.
std::string nfkc_casefold(std::string_view text);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_DETECT_UNICODE_CHECKS_IMPL_H_
