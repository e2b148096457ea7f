#include "detect/unicode_checks.h"

#include <doctest/doctest.h>
#include <unicode/uchar.h>

#include <chrono>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "detect/confusables.h"

namespace scamcheck::internal {
namespace {

const std::vector<std::string> kBrands = {
    "paypal",   "amazon",  "apple",     "microsoft", "citibank",      "ikea",
    "t-mobile", "netflix", "müller",    "dhl",       "deutsche bank", "lidl",
    "adac",     "visa",    "office365", "vodafone",  "1und1"};

const UnicodeChecker& checker() {
  static const std::unique_ptr<UnicodeChecker> instance = [] {
    auto created = UnicodeChecker::create(kBrands);
    REQUIRE(created.ok());
    return std::move(created).value();
  }();
  return *instance;
}

struct Hit {
  std::string key;
  std::string evidence;
  bool operator==(const Hit&) const = default;
};

doctest::String toString(const Hit& h) { return (h.key + ":\"" + h.evidence + "\"").c_str(); }

// Runs the checker and turns findings into (key, evidence), asserting that
// every span is a non-empty, in-bounds slice of the text.
std::vector<Hit> run(std::string_view text) {
  Findings findings;
  checker().check(text, findings);
  std::vector<Hit> hits;
  for (const Finding& f : findings) {
    REQUIRE(f.start < f.end);
    REQUIRE(f.end <= text.size());
    CHECK(f.location == "content");
    CHECK(f.strength == 1.0);
    hits.push_back({f.key, std::string(text.substr(f.start, f.end - f.start))});
  }
  return hits;
}

std::vector<Hit> of_key(const std::vector<Hit>& hits, std::string_view key) {
  std::vector<Hit> out;
  for (const Hit& h : hits) {
    if (h.key == key) out.push_back(h);
  }
  return out;
}

TEST_CASE("invisible characters inside a word are reported with the word") {
  auto hits = run("Your Pass\u200Bword expires today");
  REQUIRE(hits.size() == 1);
  CHECK(hits[0] == Hit{"invisible_characters", "Pass\u200Bword"});

  // The exact byte span, not only the evidence.
  std::string_view text = "Hi t\xE2\x81\xA0here";  // U+2060 word joiner
  Findings findings;
  checker().check(text, findings);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].start == 3);
  CHECK(findings[0].end == text.size());

  // One finding per word, even with several invisible characters in it.
  hits = run("Ac\u200Bco\u200Cunt lo\u200Dcked");
  CHECK(hits == std::vector<Hit>{{"invisible_characters", "Ac\u200Bco\u200Cunt"},
                                 {"invisible_characters", "lo\u200Dcked"}});
}

TEST_CASE("invisible characters: at most three findings per text") {
  auto hits = run("a\u200Bb c\u200Bd e\u200Bf g\u200Bh i\u200Bj");
  CHECK(hits.size() == 3);
  CHECK(hits[2] == Hit{"invisible_characters", "e\u200Bf"});
}

TEST_CASE("invisible characters: each kind of the list") {
  const char* flagged[] = {
      "Kon\u200Bto",     "Kon\u200Eto",
      "Kon\u200Fto",     "Kon\u202Ato",
      "Kon\u202Eto",     "file\u202Efdp.exe",
      "Kon\u2066to",     "Kon\u2060to",
      "Kon\u2064to",     "Kon\uFEFFto",
      "Kon\u00ADto",     "Kon\u180Eto",
      "Kon\u3164to",     "\u3164",
      "Kon\u115Fto",     "Kon\u1160to",
      "Kon\U000E0041to", "Kon\U000E0001",
      "Kon\uFE0Fto",     "\U0001F600\uFE0F\uFE0F\uFE0F",
  };
  for (const char* text : flagged) {
    std::string shown = text;
    CAPTURE(shown);
    auto hits = run(text);
    REQUIRE(hits.size() == 1);
    CHECK(hits[0] == Hit{"invisible_characters", text});
  }
}

TEST_CASE("invisible characters: legitimate uses are not flagged") {
  const char* fine[] = {
      "\uFEFFHello there",  // leading byte order mark
      "Family \U0001F468\u200D\U0001F469\u200D\U0001F467 and \u2764\uFE0F",  // ZWJ, VS16
      "\U0001F3F3\uFE0F\u200D\U0001F308 pride",                              // rainbow flag
      "\U0001F469\U0001F3FD\u200D\U0001F680 astronaut",                      // skin tone + ZWJ
      "\U0001F9D1\u200D\U0001F9B0",                                          // hair component
      "\U0001F3F4\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F England",
      "1\uFE0F\u20E3 keycap",
      "\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645",  // Persian ZWNJ
      "\u0915\u094D\u200D\u0937",                          // Devanagari ZWJ
      "\u0E20\u0E32\u0E29\u0E32\u200B\u0E44\u0E17\u0E22",  // Thai ZWSP line-break hint
      "Ruf an: \u202A+49 176 1234567\u202C danke",         // phone number wrapped by Android
      "\u05E9\u05DC\u05D5\u05DD\u200F abc\u200Edef",       // Hebrew text with marks
      "Trenn-\u00AD stelle",                               // soft hyphen not inside a word
      "\u1100\u1160 \u115F\u1161",                         // conjoining jamo with fillers
      "\u5F0E\U000E0100",                                  // ideographic variation sequence
      "Preview text\u00A0\u200C\u00A0\u200C\u00A0\u200C\u00A0\u200C",  // newsletter padding
      "Hi \u200B there \u2060 !",                                      // not inside a word
      "--part\r\n\uFEFF<!DOCTYPE html>",                               // BOM of a part
  };
  for (const char* text : fine) {
    std::string shown = text;
    CAPTURE(shown);
    CHECK(of_key(run(text), "invisible_characters").empty());
  }
}

TEST_CASE("invisible characters: evidence is bounded in scripts without spaces") {
  std::string text;
  for (int i = 0; i < 100; ++i) text += "\u3042";  // あ
  text += "\u2060";                                // word joiner
  for (int i = 0; i < 100; ++i) text += "\u3042";
  auto hits = run(text);
  REQUIRE(hits.size() == 1);
  CHECK(hits[0].evidence.size() == 3 * (2 * 32) + 3);

  // Two hidden characters close together: the spans do not overlap.
  Findings findings;
  std::string two = "\u3042\u3042\u2060\u3042\u3042";
  for (int i = 0; i < 40; ++i) two += "\u3044";
  two += "\u2060\u3042";
  checker().check(two, findings);
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].start == 0);
  CHECK(findings[1].start == findings[0].end);
  CHECK(findings[1].end == two.size());
}

TEST_CASE("mixed scripts in one word are flagged") {
  auto hits = run("Log in to p\u0430ypal now");  // Cyrillic а
  CHECK(of_key(hits, "mixed_script") == std::vector<Hit>{{"mixed_script", "p\u0430ypal"}});
  CHECK(of_key(hits, "confusable_word") == std::vector<Hit>{{"confusable_word", "p\u0430ypal"}});

  hits = run("Your \u13AApple ID is locked.");  // Cherokee A
  CHECK(of_key(hits, "mixed_script") == std::vector<Hit>{{"mixed_script", "\u13AApple"}});
  CHECK(of_key(hits, "confusable_word") == std::vector<Hit>{{"confusable_word", "\u13AApple"}});

  // Greek omicron in a word that is no brand: mixed_script only.
  hits = run("Bitte \u03BFffnen Sie den Anhang");
  CHECK(hits == std::vector<Hit>{{"mixed_script", "\u03BFffnen"}});

  // Evidence stops at punctuation: "pаypal.com" gives "pаypal".
  hits = run("https://p\u0430ypal.com/login");
  CHECK(of_key(hits, "mixed_script") == std::vector<Hit>{{"mixed_script", "p\u0430ypal"}});

  // Cyrillic and Greek together (no Latin) are mixed as well.
  CHECK(of_key(run("\u0430\u03B2\u0432"), "mixed_script").size() == 1);

  // Phonetic letters standing in for Latin ones (IPA "\u0251", "\u0275").
  hits = run("4 lmport\u0251nt p\u0275nding mess\u0251g\u0275s");
  CHECK(of_key(hits, "mixed_script") == std::vector<Hit>{{"mixed_script", "lmport\u0251nt"},
                                                         {"mixed_script", "p\u0275nding"},
                                                         {"mixed_script", "mess\u0251g\u0275s"}});
  // ... but not the phonetic alphabet written on its own.
  CHECK(run("/\u0283\u026A\u014B/ and /\u0259/").empty());
}

TEST_CASE("whole words in styled letters are flagged with their verbatim span") {
  // Mathematical bold "Open Now!" in a subject: one finding for the run of
  // styled words, without the trailing punctuation.
  std::vector<Hit> hits =
      run("Find Anyone - \U0001D40E\U0001D429\U0001D41E\U0001D427 "
          "\U0001D40D\U0001D428\U0001D430!");
  CHECK(of_key(hits, "styled_letters") ==
        std::vector<Hit>{
            {"styled_letters",
             "\U0001D40E\U0001D429\U0001D41E\U0001D427 \U0001D40D\U0001D428\U0001D430"}});

  // A plain letter among styled ones ("Qualit\u00e4ts" in sans-serif) keeps
  // the word styled; digits neither break nor start a run.
  hits =
      run("\U0001D5B0\U0001D5CE\U0001D5BA\U0001D5C5\U0001D5C2\U0001D5CD\u00E4\U0001D5CD\U0001D5CC "
          "12-\U0001D5AF\U0001D5BE\U0001D5CB\U0001D5CC");
  CHECK(of_key(hits, "styled_letters").size() == 1);

  // Circled and fullwidth capitals.
  CHECK(of_key(run("\u24CC\u24BE\u24C3 \u24C3\u24C4\u24CC now"), "styled_letters").size() == 1);
  CHECK(of_key(run("\uFF26\uFF32\uFF25\uFF25 \uFF27\uFF29\uFF26\uFF34 for you"), "styled_letters")
            .size() == 1);

  // Two plain words break the run: two findings.
  hits =
      run("\U0001D400\U0001D401\U0001D402\U0001D403 and \U0001D404\U0001D405\U0001D406\U0001D407");
  CHECK(of_key(hits, "styled_letters").size() == 2);
}

TEST_CASE("single styled symbols and CJK fullwidth abbreviations are not flagged") {
  // One styled letter as a symbol (a math variable), too few letters.
  CHECK(of_key(run("Let \U0001D465 be the unknown"), "styled_letters").empty());
  CHECK(of_key(run("\U0001D400\U0001D401 plus"), "styled_letters").empty());
  // Fullwidth "ID" and "PC" inside Japanese text.
  CHECK(of_key(run("\uFF29\uFF24\u3068\uFF30\uFF23\u3092\u78BA\u8A8D\u3057\u3066\u304F\u3060\u3055"
                   "\u3044"),
               "styled_letters")
            .empty());
  CHECK(
      of_key(run("\u30ED\u30B0\u30A4\u30F3 \uFF29\uFF24 \uFF30\uFF23"), "styled_letters").empty());
  // Plain text and emoji.
  CHECK(of_key(run("Gr\u00FC\u00DFe \U0001F600 aus M\u00FCnchen"), "styled_letters").empty());
}

TEST_CASE("single-script words in any language are not flagged") {
  const char* fine[] = {
      "Gr\u00FC\u00DFe aus M\u00FCnchen",  // German
      "\u041F\u0440\u0438\u0432\u0435\u0442, \u043A\u0430\u043A \u0434\u0435\u043B\u0430",  // Russian
      "\u304A\u8377\u7269\u306E\u304A\u5C4A\u3051",  // Japanese: Hiragana + Han
      "\u30A2\u30DE\u30BE\u30F3\u304B\u3089\u306E\u304A\u77E5\u3089\u305B",              // Katakana
      "\uFF21\uFF4D\uFF41\uFF5A\uFF4F\uFF4E\u304B\u3089\u306E\u304A\u77E5\u3089\u305B",  // fullwidth
      "iPhone\u624B\u673A",                                                          // Latin + Han
      "\u0393\u03B5\u03B9\u03B1 \u03C3\u03BF\u03C5 \u03BA\u03CC\u03C3\u03BC\u03B5",  // Greek
      "Wi-Fi-\u0440\u043E\u0443\u0442\u0435\u0440 \u0438 SMS-\u043A\u043E\u0434",  // hyphens split
      "\uC548\uB155\uD558\uC138\uC694 KakaoTalk\uC5D0\uC11C",                      // Korean + Latin
      "Nimm 10\u03BCg oder 5k\u03A9",                                 // units with Greek letters
      "\u0645\u0631\u062D\u0628\u0627",                               // Arabic
      "Caf\u00E9 na\u00EFve \u00C5ngstr\u00F6m \u0141\u00F3d\u017A",  // Latin with diacritics
  };
  for (const char* text : fine) {
    std::string shown = text;
    CAPTURE(shown);
    CHECK(run(text).empty());
  }
}

TEST_CASE("brand names written normally are not flagged") {
  const char* fine[] = {
      "PayPal",
      "paypal",
      "PAYPAL",
      "Your PayPal account",
      "Amazon.de",
      "Apple's",
      "MICROSOFT",
      "IKEA",
      "T-Mobile",
      "Netflix-Abo",
      "M\u00FCller",
      "M\u00DCLLER",
      "\uFF30\uFF41\uFF59\uFF30\uFF41\uFF4C",  // full-width PayPal: NFKC-equal
      "Pay\u00ADPal",  // soft hyphen: reported as invisible, not as a look-alike
      "DeutscheBank Deutsche Bank",
      "Apples amazonas paypals",
      "1234 5555",
      "Office365",
      "id 11d1 4d4c 4dac v154 1ad1 a1d1",  // codes and hashes, not words
      // Plain words that fold like a brand written with digits ("1und1").
      "Entretien lundi à 10h",
      "LUNDI 3 JUIN",
  };
  for (const char* text : fine) {
    std::string shown = text;
    CAPTURE(shown);
    CHECK(of_key(run(text), "confusable_word").empty());
  }
}

TEST_CASE("look-alikes of brand names are flagged as confusable_word") {
  struct Case {
    const char* text;
    const char* evidence;
  };
  const Case cases[] = {
      {"Your PayPaI account is limited", "PayPaI"},  // capital I for l
      {"Dear Amaz0n customer", "Amaz0n"},
      {"Arnazon: your order", "Arnazon"},  // rn for m
      {"App1e ID: verify now", "App1e"},
      {"M1crosoft support", "M1crosoft"},  // 1 for i
      {"C1tibank alert", "C1tibank"},
      {"Netf1ix: payment failed.", "Netf1ix"},
      {"lKEA gift card", "lKEA"},        // l for capital I
      {"Ihre 1undl Rechnung", "1undl"},  // a brand with digits, one of them changed
      {"PAYPAI", "PAYPAI"},
      {"pаypal", "pаypal"},
      // All Cyrillic, palochka for l: ICU's skeleton is "appie", the fold
      // reads i as l (the 2017 homograph domain xn--80ak6aa92e.com).
      {"\u0430\u0440\u0440\u04CF\u0435", "\u0430\u0440\u0440\u04CF\u0435"},
      {"\U0001D40F\U0001D41A\U0001D432\U0001D40F\U0001D41A\U0001D408",
       "\U0001D40F\U0001D41A\U0001D432\U0001D40F\U0001D41A\U0001D408"},  // math bold PayPaI
      {"T-Mobi1e Rechnung", "T-Mobi1e"},                                 // brand with a hyphen
      {"Ihr \u041C\u00FCller Konto", "\u041C\u00FCller"},  // Cyrillic М, non-ASCII brand
      {"Pay\u200BPaI", "Pay\u200BPaI"},
      {"Y0ur 0ffice365 passw0rd", "0ffice365"},
      {"V0DAF0NE", "V0DAF0NE"},
      {"Microsoft support", nullptr},  // written normally
  };
  for (const Case& c : cases) {
    std::string shown = c.text;
    CAPTURE(shown);
    auto hits = of_key(run(c.text), "confusable_word");
    if (c.evidence == nullptr) {
      CHECK(hits.empty());
    } else {
      CHECK(hits == std::vector<Hit>{{"confusable_word", c.evidence}});
    }
  }
}

// An ASCII word's key is folded in full only when its first and last
// letters may be a brand key's: the two-letter contractions at either end
// ("rn" -> "m", "vv" -> "w") are read before that test.
TEST_CASE("look-alikes contracted at the start or end of a word are flagged") {
  auto created = UnicodeChecker::create({"telegram", "whatsapp", "microsoft", "glow"});
  REQUIRE(created.ok());
  for (const std::string word : {"Telegrarn", "VVhatsApp", "rnicrosoft", "Glovv"}) {
    INFO(word);
    Findings out;
    (*created)->check("Your " + word + " account", out);
    REQUIRE(out.size() == 1);
    CHECK(out[0].key == "confusable_word");
    CHECK(out[0].end - out[0].start == word.size());
  }
  Findings none;
  (*created)->check("Telegram and WhatsApp, Glowv and Glovvv", none);
  CHECK(none.empty());
}

TEST_CASE("an all-ASCII text finds the same look-alikes as the general path") {
  // All-ASCII text takes a path of its own; the same words followed by one
  // non-ASCII word (which finds nothing) take the general one.
  for (const std::string text :
       {"Your Amaz0n order: log in at PayPa1 or M1crosoft now", "T-M0bile and T-Mobile bill",
        "lKEA gift card; 1und1 and lundi; ids 4d4c v154 ADAC", "V0DAF0NE-0ffice365 & c1tibank",
        "a-b&c 0ffice365-x t-m0bile&paypa1 -- 12345 Netfl1x!",
        "ids aDaC4 4D4C FACE0 Ad4c fAcE1 PayPa1 rn1crosoft Z1 vvv 0ffice365X"}) {
    INFO(text);
    const std::vector<Hit> ascii = run(text);
    CHECK_FALSE(ascii.empty());
    CHECK(ascii == run(text + " \u00e9t\u00e9"));
  }
}

TEST_CASE("short and multi-word brand names are ignored") {
  auto created = UnicodeChecker::create({"dhl", "deutsche bank", "o2", "paypal"});
  REQUIRE(created.ok());
  Findings findings;
  (*created)->check("DHI Deutsche Bank 0-2 PayPaI", findings);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].key == "confusable_word");

  auto bad = UnicodeChecker::create({"pay\xFFpal"});
  CHECK(!bad.ok());
  CHECK(bad.status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("without brands only invisible and mixed-script checks run") {
  auto created = UnicodeChecker::create({});
  REQUIRE(created.ok());
  Findings findings;
  (*created)->check("PayPaI p\u0430ypal Pass\u200Bword", findings);
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].key == "invisible_characters");
  CHECK(findings[1].key == "mixed_script");
}

TEST_CASE("empty, whitespace-only and invalid UTF-8 input does not crash") {
  CHECK(run("").empty());
  CHECK(run(" \n\t").empty());
  Findings findings;
  checker().check("Pay\xC3 Pal \xE2\x80 \xF0\x9F", findings);  // truncated sequences
  for (const Finding& f : findings) CHECK(f.start < f.end);
}

TEST_CASE("long runs of invisible characters and marks take linear time") {
  // 64 KiB of zero-width spaces, combining marks and letters: quadratic
  // neighbour scans would take seconds here.
  for (const char* unit : {"\u200B", "\u0301", "a\u0301", "\u00A0\u200C", "\uFE0F"}) {
    std::string text;
    while (text.size() < 65536) text += unit;
    auto start = std::chrono::steady_clock::now();
    Findings findings;
    checker().check(text, findings);
    auto elapsed = std::chrono::steady_clock::now() - start;
    CHECK(findings.size() <= 9);
    CHECK(elapsed < std::chrono::milliseconds(500));
  }
}

TEST_CASE("fast confusable keys agree with the ICU reference") {
  auto keys = ConfusableKeys::create();
  REQUIRE(keys.ok());
  const char* words[] = {
      "paypal",
      "PayPaI",
      "Amaz0n",
      "amazon",
      "Microsoft",
      "M1CROSOFT",
      "vvhatsapp",
      "IKEA",
      "T-Mobile",
      "p\u0430ypal",
      "\u13AApple",
      "\uFF30\uFF41\uFF59",
      "\u0391\u0392\u0395",
      "\U0001D40F\U0001D41A\U0001D432",
      "\u0455\u0440\u0430\u0441\u0435",
      "fi\uFB01",
      "a\u200Bb",
      "\u2160\u2161",
  };
  for (const char* word : words) {
    std::string shown = word;
    CAPTURE(shown);
    ConfusableKeyBuffer fast;
    REQUIRE(keys->key_fast(word, fast));
    CHECK(fast.view() == keys->key_icu(word));
  }
  ConfusableKeyBuffer fast;
  CHECK(keys->key_fast("PayPaI", fast));
  CHECK(fast.view() == "paypal");
  CHECK(keys->key_fast("Amaz0n", fast));
  CHECK(fast.view() == "amazon");
  CHECK(keys->key_fast("rnicrosoft", fast));
  CHECK(fast.view() == "mlcrosoft");
  CHECK(!keys->key_fast("M\u00FCller", fast));  // ü has no ASCII skeleton
  CHECK(!keys->key_icu("M\u00FCller").empty());
}

TEST_CASE("is_default_ignorable matches ICU for every code point") {
  int mismatches = 0;
  for (UChar32 c = 0; c <= 0x10FFFF; ++c) {
    bool icu = u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT) != 0;
    if (icu != is_default_ignorable(static_cast<std::uint32_t>(c))) ++mismatches;
  }
  CHECK(mismatches == 0);
}

TEST_CASE("check() is safe to call from several threads") {
  const std::string texts[] = {
      "Your PayPaI account: open p\u0430ypal.com and enter Pass\u200Bword",
      "Gr\u00FC\u00DFe aus M\u00FCnchen",
      "\u304A\u8377\u7269\u306E\u304A\u5C4A\u3051",
      "Dear Amaz0n customer, \u13AApple ID",
  };
  std::vector<std::vector<Hit>> expected;
  for (const auto& t : texts) expected.push_back(run(t));
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 500; ++round) {
        for (std::size_t k = 0; k < std::size(texts); ++k) {
          Findings findings;
          checker().check(texts[k], findings);
          if (findings.size() != expected[k].size()) ++mismatches[t];
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int m : mismatches) CHECK(m == 0);
  CHECK(expected[0].size() == 4);  // confusable, mixed + confusable, invisible
}

}  // namespace
}  // namespace scamcheck::internal
