#include "rules/alternatives.h"

#include <doctest/doctest.h>
#include <re2/re2.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "data/data_source.h"
#include "rules/rule_set.h"

using namespace scamcheck::internal;

namespace {

// The first match of `pattern` in `text` (its bytes), or "no match"; for a
// pattern that does not compile, "bad".
std::string first_match(const RE2& regex, const std::string& text) {
  if (!regex.ok()) return "bad";
  re2::StringPiece match;
  if (!regex.Match(text, 0, text.size(), RE2::UNANCHORED, &match, 1)) return "no match";
  return std::to_string(match.data() - text.data()) + ":" + std::string(match);
}

// A small generator of random numbers, the same on every run.
struct Random {
  std::uint32_t state = 12345;
  std::uint32_t operator()() {
    state = state * 1103515245u + 12345u;
    return state >> 16;
  }
};

}  // namespace

TEST_CASE("top-level alternatives") {
  using V = std::vector<std::string_view>;
  CHECK(top_alternatives("a|b(c|d)|e") == V{"a", "b(c|d)", "e"});
  CHECK(top_alternatives("abc") == V{"abc"});
  CHECK(top_alternatives("[|]x|\\|y|\\Q|\\E|z") == V{"[|]x", "\\|y", "\\Q|\\E", "z"});
  CHECK(top_alternatives("[]|]x|y") == V{"[]|]x", "y"});
  CHECK(top_alternatives("(?P<n>a|b)|c") == V{"(?P<n>a|b)", "c"});
  CHECK(top_alternatives("(?i:a|b)|c") == V{"(?i:a|b)", "c"});
  // A bare flag group reaches across the '|': the whole pattern.
  CHECK(top_alternatives("(?i)a|b") == V{"(?i)a|b"});
  CHECK(top_alternatives("[a|b") == V{"[a|b"});
}

TEST_CASE("unfactored: each alternative in a group of its own") {
  CHECK(unfactored("card\\W+number|cvv") == "(card\\W+number)|(cvv)");
  CHECK(unfactored("x(?:ab|ac)+y") == "(x(?:(ab)|(ac))+y)");
  CHECK(unfactored("(a|b){2}") == "(((a)|(b)){2})");
  CHECK(unfactored("(?P<n>a|b)") == "((?P<n>(a)|(b)))");
  CHECK(unfactored("(?s:a|b)") == "((?s:(a)|(b)))");
  CHECK(unfactored("[(|)]a|\\(|\\Q)|\\E") == "([(|)]a)|(\\()|(\\Q)|\\E)");
  CHECK(unfactored("a(?:|b)") == "(a(?:()|(b)))");
  CHECK(unfactored("\\(?x|y") == "(\\(?x)|(y)");
  // As written: a bare flag group; a group, class or quote that does not
  // close; a repeat of nothing ("(?" would read as flags).
  for (const char* same : {"a(?i)b|c", "(a|b", "a)|b", "[a|b", "(?P<n", "a|\\Qb|c", "?a|b"}) {
    CHECK(unfactored(same) == same);
  }
}

// RE2 factors "card\W+number|cvv" into "c(?:ard\W+number|vv)", whose
// prefilter would need "vv", too short: no literal at all, and the rule
// would run over every text.
TEST_CASE("a rule whose alternatives share a first letter still has literals") {
  auto set = RuleSet::compile(R"json({"version": 1, "rules": [
    {"id": "en.a", "key": "credential_request", "pattern": "\\b(?:card\\W+number|cvv)\\b"}]})json",
                              "text.json", [](std::string_view) { return true; });
  REQUIRE(set.ok());
  CHECK((*set)->set_count() == 0);  // searched near "card" or "cvv", in no set
  auto near = [&](const char* t) {
    return (*set)->sets_woken(NormalizedText(t, true))->near.size();
  };
  CHECK(near("hello there") == 0);
  CHECK(near("the CVV on the back") == 1);
  Findings out;
  REQUIRE((*set)->match(NormalizedText("Send the card number now", true), out).ok());
  CHECK(out.size() == 1);
}

// Unfactored, a pattern matches what it matched: the same first match over
// every text. Random patterns and texts of a few pieces; the patterns on
// the heap, exactly their bytes, cut anywhere (ASan sees a read past them).
TEST_CASE("unfactored patterns match what the patterns match") {
  const std::string pieces[] = {"a",   "b",     "ab",  "|",    "(", ")",  "(?:", "?",  "*",
                                "+",   "{1,2}", "[",   "]",    "^", "$",  ".",   "\\", "\\b",
                                "\\W", "\\Q",   "\\E", "(?i)", "-", "x|", " ",   "é"};
  const std::string letters[] = {"a", "b", " ", "ab", "-", "x", "é", "\n"};
  Random next;
  RE2::Options quiet;
  quiet.set_log_errors(false);
  std::size_t compared = 0;
  for (int round = 0; round < 4000; ++round) {
    std::string pattern;
    for (std::uint32_t i = 0, n = next() % 10; i < n; ++i) {
      pattern += pieces[next() % std::size(pieces)];
    }
    for (std::size_t cut = 0; cut <= pattern.size(); ++cut) {
      const std::unique_ptr<char[]> bytes(new char[cut]);
      std::copy_n(pattern.data(), cut, bytes.get());
      const std::string_view text(bytes.get(), cut);
      const std::string wrapped = unfactored(text);
      if (cut < pattern.size()) continue;  // read safely; compared whole only
      const RE2 as_written(text, quiet), regex(wrapped, quiet);
      REQUIRE_MESSAGE(as_written.ok() == regex.ok(), text, " -> ", wrapped);
      if (!regex.ok()) continue;
      for (int t = 0; t < 8; ++t) {
        std::string sample;
        for (std::uint32_t i = 0, n = next() % 8; i < n; ++i) {
          sample += letters[next() % std::size(letters)];
        }
        CHECK_MESSAGE(first_match(as_written, sample) == first_match(regex, sample), text, " -> ",
                      wrapped, " over '", sample, "'");
        ++compared;
      }
    }
  }
  CHECK(compared > 5000);
}

TEST_CASE("the data pack's patterns, unfactored, match their examples alike") {
  auto set = RuleSet::load(DataSource(""), [](std::string_view) { return true; });
  REQUIRE_MESSAGE(set.ok(), set.status().to_string());
  std::vector<std::string> examples;
  for (const Rule& rule : (*set)->rules()) {
    examples.insert(examples.end(), rule.match_examples.begin(), rule.match_examples.end());
  }
  RE2::Options options;
  options.set_max_mem(8 << 20);
  for (const Rule& rule : (*set)->rules()) {
    const RE2 regex(unfactored(rule.regex().pattern()), options);
    REQUIRE_MESSAGE(regex.ok(), rule.id);
    for (const std::string& example : examples) {
      const std::string text = NormalizedText(example, true).text();
      CHECK_MESSAGE(first_match(rule.regex(), text) == first_match(regex, text), rule.id, " over ",
                    example);
    }
  }
}
