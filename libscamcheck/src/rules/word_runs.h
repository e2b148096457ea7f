// How far apart the literals of a match can lie, counted in words: the most
// runs of ASCII word bytes ([0-9A-Za-z_], what RE2's \w and \b read) that
// any text an RE2 pattern matches can hold. "this\W+is\W+my\W+new\W+number"
// holds five, "(?:\w+\W+){0,8}" up to eight; "\S+", ".*" or "[\d\s]{7,}"
// any number. Counted in runs of ASCII letters instead, "[\d\s]{7,}" holds
// none and "call\W+\+?\d[\d\s-]{6,}\d" one, but "\w+" any number: a
// pattern may be bounded by either count.
//
// A text's atoms (RuleSet) that lie more words apart than this cannot all
// be inside one match: "this", "new" and "number" spread over an e-mail do
// not wake "this is my new number".
#ifndef SCAMCHECK_RULES_WORD_RUNS_H_
#define SCAMCHECK_RULES_WORD_RUNS_H_

#include <optional>
#include <string_view>

namespace scamcheck::internal {

enum class Runs { kWords, kLetters };

// Whether a byte is an ASCII word byte; one of a run of `runs`.
constexpr bool is_word_byte(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
constexpr bool run_byte(unsigned char c, Runs runs) {
  return runs == Runs::kWords ? is_word_byte(c) : (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

// The bound, or nullopt: no bound, or syntax this reading does not know
// (case-insensitive flags among it: (?i) lets 'k' match the Kelvin sign, a
// non-word byte). Never too low for what it returns.
std::optional<int> max_runs(std::string_view pattern, Runs runs);
inline std::optional<int> max_word_runs(std::string_view pattern) {
  return max_runs(pattern, Runs::kWords);
}

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_RULES_WORD_RUNS_H_
