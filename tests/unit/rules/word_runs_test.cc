#include "rules/word_runs.h"

#include <doctest/doctest.h>
#include <re2/re2.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

using namespace scamcheck::internal;

namespace {

// Runs of word bytes (or letters) in `text`.
int runs_in(std::string_view text, Runs kind) {
  int runs = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    runs += run_byte(static_cast<unsigned char>(text[i]), kind) &&
            (i == 0 || !run_byte(static_cast<unsigned char>(text[i - 1]), kind));
  }
  return runs;
}

}  // namespace

TEST_CASE("words a match can hold: literals, classes, groups and repeats") {
  CHECK(max_word_runs("password") == 1);
  CHECK(max_word_runs("\\byour\\W+password\\b") == 2);
  CHECK(max_word_runs("it'?s") == 2);  // "it's": "it" and "s"
  CHECK(max_word_runs("\\d+") == 1);
  CHECK(max_word_runs("[a-z0-9_]+") == 1);
  CHECK(max_word_runs("(?:\\w+\\W+){0,8}") == 8);
  CHECK(max_word_runs("(?:my|me\\W+on\\W+(?:my|a))\\W+new") == 4);
  CHECK(max_word_runs("\\W*[.,;!?]+\\s*") == 0);
  CHECK(max_word_runs("a{3}b") == 1);
  CHECK(max_word_runs("(?:a b){3}") == 6);
  CHECK(max_word_runs("x{2,}") == 1);
  CHECK(max_word_runs("ungewöhnliche\\W+aktivität") == 4);  // non-ASCII letters part words
  CHECK(max_word_runs("\\x{41}\\x{307}b") == 2);
  CHECK(max_word_runs("\\Qa.b\\E") == 2);
  CHECK(max_word_runs("\\ba{") == 1);  // a literal '{'
  CHECK(max_word_runs("(?P<n>ab) (?m:^cd$)") == 2);
  CHECK(max_word_runs("[]a]") == 1);
}

TEST_CASE("runs of letters bound what runs of words do not: numbers") {
  CHECK_FALSE(max_word_runs("\\bcall\\W+\\+?\\d[\\d\\s-]{6,}\\d").has_value());
  CHECK(max_runs("\\bcall\\W+\\+?\\d[\\d\\s-]{6,}\\d", Runs::kLetters) == 1);
  CHECK(max_runs("\\d[\\d,.]*\\W+(?:btc|eth)", Runs::kLetters) == 1);
  CHECK(max_runs("a1b", Runs::kLetters) == 2);
  CHECK(max_runs("[a-z_]", Runs::kLetters) == 1);
  CHECK_FALSE(max_runs("\\w+", Runs::kLetters).has_value());  // "a1a1a"
  CHECK_FALSE(max_runs("[\\w.]+", Runs::kLetters).has_value());
}

TEST_CASE("no bound where a match can hold any number of words") {
  CHECK_FALSE(max_word_runs(".*").has_value());
  CHECK_FALSE(max_word_runs("\\S+").has_value());
  CHECK_FALSE(max_word_runs("\\+?\\d[\\d\\s.-]{7,}").has_value());
  CHECK_FALSE(max_word_runs("[^x]+").has_value());
  CHECK_FALSE(max_word_runs("(?:a b)+").has_value());
  // Not read: case folding, bad syntax.
  CHECK_FALSE(max_word_runs("(?i)skip").has_value());
  CHECK_FALSE(max_word_runs("(?i:k)").has_value());
  CHECK_FALSE(max_word_runs("(ab").has_value());
  CHECK_FALSE(max_word_runs("ab)").has_value());
  CHECK_FALSE(max_word_runs("*a").has_value());
  CHECK_FALSE(max_word_runs("\\1").has_value());
}

// The bounds hold for what RE2 matches: every match of each pattern over
// texts of words and separators holds no more runs than they say.
TEST_CASE("a match never holds more words, or runs of letters, than the bound") {
  const std::vector<std::string> patterns = {
      "\\b(?:this\\W+is|it'?s)\\W+(?:my|me\\W+on\\W+(?:my|a))\\W+new\\W+(?:number|no)\\b",
      "\\b\\d+\\W*%\\W+(?:de\\W+(?:lucro|retorno)\\W+)?(?:ao|por)\\W+(?:dia|m[eê]s)",
      "(?:\\w+\\W+){0,3}?win",
      "[\\d\\-]{2,4}x",
      "\\bcall\\W+\\+?\\d[\\d\\s-]{6,}\\d",
      "\\d[\\d,.]*\\W+(?:btc|eth)",
  };
  const std::vector<std::string> texts = {
      "hey, this is my new number!",
      "it's me on a  new no",
      "10 % de lucro ao mês",
      "5%% por dia",
      "a b c d e f win",
      "1-2x 1-2-3-4-5x",
      "this is me on my new number",
      "__ it s my new number __",
      "call +44 7700 900 123 now",
      "1,000.50 btc and 2 eth",
  };
  for (const std::string& pattern : patterns) {
    const RE2 regex("(" + pattern + ")");
    REQUIRE(regex.ok());
    const std::optional<int> words = max_word_runs(pattern);
    const std::optional<int> letters = max_runs(pattern, Runs::kLetters);
    REQUIRE_MESSAGE((words || letters), pattern);
    for (const std::string& text : texts) {
      re2::StringPiece input(text), match;
      while (!input.empty() && RE2::FindAndConsume(&input, regex, &match)) {
        if (words) CHECK_MESSAGE(runs_in(match, Runs::kWords) <= *words, pattern, " over ", text);
        if (letters) {
          CHECK_MESSAGE(runs_in(match, Runs::kLetters) <= *letters, pattern, " over ", text);
        }
        if (match.empty()) break;
      }
    }
  }
}

// Patterns come from rule files a deployment may write: any text, cut
// anywhere, is read without reading past its end (the ASan build runs this).
TEST_CASE("any text, cut anywhere, is read safely") {
  const std::string pieces[] = {"\\", "x",    "{",   "}",  "[",   "]",   "^",   "-",
                                "(",  ")",    "?",   "P<", ">",   ":",   "|",   "*",
                                "+",  "a",    "1",   ",",  "\\Q", "\\E", "[:",  ":]",
                                "é",  "\xC3", "\\p", "s",  "i",   "\\b", "\\S", "."};
  std::uint32_t state = 12345;
  auto next = [&] {
    state = state * 1103515245u + 12345u;
    return state >> 16;
  };
  for (int round = 0; round < 20000; ++round) {
    std::string pattern;
    const std::uint32_t length = next() % 12;
    for (std::uint32_t i = 0; i < length; ++i) pattern += pieces[next() % std::size(pieces)];
    for (std::size_t cut = 0; cut <= pattern.size(); ++cut) {
      // On the heap, exactly its bytes: a read past them is ASan's to see.
      const std::unique_ptr<char[]> bytes(new char[cut]);
      std::copy_n(pattern.data(), cut, bytes.get());
      const std::string_view text(bytes.get(), cut);
      const std::optional<int> words = max_runs(text, Runs::kWords);
      const std::optional<int> letters = max_runs(text, Runs::kLetters);
      CHECK((!words || *words >= 0));
      CHECK((!letters || *letters >= 0));
    }
  }
}
