// Reading an RE2 pattern's text: a rule's named fragments put in place
// (RuleSet::compile), and, for the rules' covers (RuleSet::build), which
// top-level alternatives a pattern has and the same pattern with no
// alternatives RE2 could factor together.
#ifndef SCAMCHECK_RULES_ALTERNATIVES_H_
#define SCAMCHECK_RULES_ALTERNATIVES_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace scamcheck::internal {

// `pattern` with each reference "{name}" to a fragment (a name of lower-case
// letters, digits and '_', beginning with a letter; outside escapes and
// classes) replaced by "(?:" + its text + ")". `fragment` gives a name's
// text, or nullptr for a name it does not know; `unknown` is then set to
// that name (the first) and the result is empty. A '{' that begins no such
// name ("{2,3}", "\\{") stays as written.
std::string expand_fragments(std::string_view pattern,
                             const std::function<const std::string*(std::string_view)>& fragment,
                             std::string& unknown);

// The top-level alternatives of `pattern` ("a|b(c|d)|e" → "a", "b(c|d)",
// "e"); the whole pattern alone when it has none, or when a bare flag group
// ("(?i)") at top level would reach across them.
std::vector<std::string_view> top_alternatives(std::string_view pattern);

// `pattern` with each alternative of each group, and of the whole, in a
// capturing group of its own ("card\W+number|cvv" →
// "(card\W+number)|(cvv)"): it matches the same texts, but RE2 no longer
// factors the prefix adjacent alternatives share ("c(?:ard\W+number|vv)"),
// which would leave its prefilter only a literal too short to use ("vv")
// and so none at all. For reading literals only, never for matching:
// capturing groups change which group a match reports. The pattern as it
// is where it holds a bare flag group ("a(?i)b|c": the flag reaches across
// the '|') or where its groups, classes or "\Q" quotes do not close.
std::string unfactored(std::string_view pattern);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_RULES_ALTERNATIVES_H_
