// Tests of the shipped data pack: every rule compiles, its examples match
// and its counter-examples don't, every key has texts in every locale.
#include <doctest/doctest.h>

#include "data/data_source.h"
#include "explain/glossary.h"
#include "rules/rule_set.h"
#include "scoring/scorer.h"

using namespace scamcheck::internal;

namespace {
const DataSource& pack() {
  static const DataSource source(SCAMCHECK_DATA_DIR);
  return source;
}
}  // namespace

TEST_CASE("glossary and catalogs load and agree") {
  auto texts = Texts::load(pack());
  REQUIRE_MESSAGE(texts.ok(), texts.status().to_string());
  auto locales = (*texts)->locales();
  CHECK(std::find(locales.begin(), locales.end(), "en") != locales.end());
  CHECK(std::find(locales.begin(), locales.end(), "de") != locales.end());
  for (const GlossaryEntry& e : (*texts)->entries()) {
    for (const std::string& locale : locales) {
      INFO(e.key << " " << locale);
      CHECK_FALSE(e.texts.at(locale).title.empty());
      CHECK_FALSE(e.texts.at(locale).explanation.empty());
    }
  }
  CHECK((*texts)->catalog("de-AT").locale == "de");
  CHECK((*texts)->catalog("de_CH").locale == "de");
  for (const char* locale : {"fr", "es", "it", "nl", "pt"}) {
    CHECK(std::find(locales.begin(), locales.end(), locale) != locales.end());
  }
  CHECK((*texts)->catalog("fr-CA").locale == "fr");
  CHECK((*texts)->catalog("pt-BR").locale == "pt");
  CHECK((*texts)->catalog("pl").locale == "en");
  CHECK((*texts)->catalog("").locale == "en");
  CHECK((*texts)->catalog("de").risk_text[2] == "Gefährlich");
  CHECK((*texts)->catalog("en").risk_text[0] == "Looks safe");
}

TEST_CASE("every text rule compiles, uses a glossary key and passes its examples") {
  auto texts = Texts::load(pack());
  REQUIRE(texts.ok());
  // Every rules/*.json at once: ids are unique across the files.
  auto rules =
      RuleSet::load(pack(), [&](std::string_view k) { return (*texts)->find(k) != nullptr; });
  REQUIRE_MESSAGE(rules.ok(), rules.status().to_string());
  for (const Rule& rule : (*rules)->rules()) {
    INFO("rule " << rule.id);
    CHECK_FALSE(rule.match_examples.empty());
    for (const std::string& example : rule.match_examples) {
      INFO("match example: " << example);
      CHECK(RuleSet::matches(rule, example));
    }
    for (const std::string& example : rule.no_match_examples) {
      INFO("no_match example: " << example);
      CHECK_FALSE(RuleSet::matches(rule, example));
    }
  }
}

TEST_CASE("scoring configuration loads") {
  auto texts = Texts::load(pack());
  REQUIRE(texts.ok());
  auto scorer = Scorer::load(pack(), **texts);
  REQUIRE_MESSAGE(scorer.ok(), scorer.status().to_string());
}

TEST_CASE("the embedded pack is the shipped data directory") {
  const DataSource embedded("");
  for (const char* path :
       {"glossary.json", "scoring.json", "rules/text.json", "locales/en.json", "locales/de.json"}) {
    INFO(path);
    auto a = embedded.read(path);
    auto b = pack().read(path);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    CHECK(*a == *b);
  }
  CHECK_FALSE(embedded.read("no/such/file").ok());
  // Every rule file and every catalog is embedded.
  for (const char* dir : {"rules", "locales"}) {
    INFO(dir);
    auto a = embedded.list(dir);
    auto b = pack().list(dir);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    CHECK(*a == *b);
    for (const std::string& path : *b) {
      INFO(path);
      CHECK(*embedded.read(path) == *pack().read(path));
    }
  }
}
