// How far apart the literals of a match can lie, counted in words: the most
// runs of ASCII word bytes ([0-9A-Za-z_], what RE2's \w and \b read) that
// any text an RE2 pattern matches can hold. "this\W+is\W+my\W+new\W+number"
// holds five, "(?:\w+\W+){0,8}" up to eight; "\S+", ".*" or "[\d\s]{7,}"
// any number.
//
// A text's atoms (RuleSet) that lie more words apart than this cannot all
// be inside one match: "this", "new" and "number" spread over an e-mail do
// not wake "this is my new number".
#ifndef SCAMCHECK_RULES_WORD_RUNS_H_
#define SCAMCHECK_RULES_WORD_RUNS_H_

#include <optional>
#include <string_view>

namespace scamcheck::internal {

// The bound, or nullopt: no bound, or syntax this reading does not know
// (case-insensitive flags among it: (?i) lets 'k' match the Kelvin sign, a
// non-word byte). Never too low for what it returns.
std::optional<int> max_word_runs(std::string_view pattern);

// Whether a byte is an ASCII word byte.
inline bool is_word_byte(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_RULES_WORD_RUNS_H_
