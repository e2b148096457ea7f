#include "normalize/normalize.h"

#include <doctest/doctest.h>

#include <string>

using scamcheck::internal::NormalizedText;

namespace {
std::string original_of(const NormalizedText& n, std::string_view needle) {
  auto pos = n.text().find(needle);
  REQUIRE(pos != std::string::npos);
  auto [start, end] = n.to_original(pos, pos + needle.size());
  return std::string(n.original().substr(start, end - start));
}
}  // namespace

TEST_CASE("ASCII is lower-cased byte for byte") {
  NormalizedText n("Confirm Your PASSWORD now");
  CHECK(n.text() == "confirm your password now");
  CHECK(original_of(n, "your password") == "Your PASSWORD");
}

TEST_CASE("case folding maps back to the original bytes") {
  NormalizedText n("GRÜSSE aus München: Straße");
  CHECK(n.text() == "grüsse aus münchen: strasse");
  CHECK(original_of(n, "münchen") == "München");
  // ß folds to "ss": a match on part of it quotes the whole character.
  CHECK(original_of(n, "strasse") == "Straße");
  CHECK(original_of(n, "s") == "S");
}

TEST_CASE("zero-width characters disappear from the matched text but stay in evidence") {
  NormalizedText n("pass\u200Bword");
  CHECK(n.text() == "password");
  CHECK(original_of(n, "password") == "pass\u200Bword");
}

TEST_CASE("compatibility forms and typographic variants are folded") {
  NormalizedText n(
      "\uFF30\uFF21\uFF39 now \u2013 \u201Cfree\u201D");  // fullwidth PAY, en dash, quotes
  CHECK(n.text() == "pay now - \"free\"");
  CHECK(original_of(n, "pay") == "\uFF30\uFF21\uFF39");
}

TEST_CASE("decomposed umlauts are composed") {
  NormalizedText n("Gru\u0308n");  // u + combining diaeresis
  CHECK(n.text() == "grün");
  CHECK(original_of(n, "ü") == "u\u0308");
}

TEST_CASE("empty input") {
  NormalizedText n("");
  CHECK(n.text().empty());
}

TEST_CASE("underscores between words read as spaces, except in addresses and file names") {
  NormalizedText n("Vous_avez_gagné_un_Set see http://x.example/registration_fees.html a_b.pdf",
                   /*underscores_as_spaces=*/true);
  CHECK(n.text() == "vous avez gagné un set see http://x.example/registration_fees.html a_b.pdf");
  CHECK(original_of(n, "vous avez") == "Vous_avez");
  CHECK(NormalizedText("You_have_won").text() == "you_have_won");  // the default keeps them
  // Only A-Z fold; underscores at a token's ends and at the text's.
  CHECK(NormalizedText("@AZ[`az{ _X_ é_É_", true).text() == "@az[`az{  x  é é ");
  const std::string run(100000, '_');  // one long token is read once
  CHECK(NormalizedText(run, true).text() == std::string(100000, ' '));
}

TEST_CASE("the rules' normalization says whether it spaced an underscore") {
  // Without a spaced underscore it equals the model's (default) one, which
  // analyze() then reuses for the model's features.
  for (const char* s : {"Your parcel is held", "mail user_name@example.com now",
                        "see http://x.example/a_b.html", "ＰａｙＰａｌ\u200B＿x"}) {
    const NormalizedText rules(s, /*underscores_as_spaces=*/true);
    CHECK_MESSAGE(!rules.spaced_underscores(), s);
    CHECK(rules.text() == NormalizedText(s).text());
  }
  CHECK(NormalizedText("You_have_won", true).spaced_underscores());
  CHECK(!NormalizedText("You_have_won").spaced_underscores());
}
