// Unicode tricks in text: invisible / zero-width characters, words mixing
// scripts, and words that are confusable with a known brand name (ICU
// uspoof skeletons), e.g. "PаyPal" with a Cyrillic "а".
#ifndef SCAMCHECK_DETECT_UNICODE_CHECKS_H_
#define SCAMCHECK_DETECT_UNICODE_CHECKS_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "detect/finding.h"
#include "scamcheck/status.h"

namespace scamcheck::internal {

class UnicodeChecker {
 public:
  // `brand_names`: lower-case brand names whose look-alikes are flagged.
  static Result<std::unique_ptr<UnicodeChecker>> create(
      const std::vector<std::string>& brand_names);
  virtual ~UnicodeChecker() = default;

  // Appends findings with keys "invisible_characters", "mixed_script",
  // "styled_letters" and "confusable_word" for `text` (valid UTF-8; spans into it). Thread-safe.
  virtual void check(std::string_view text, Findings& out) const = 0;
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_DETECT_UNICODE_CHECKS_H_
