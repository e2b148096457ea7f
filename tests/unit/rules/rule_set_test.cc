#include "rules/rule_set.h"

#include <doctest/doctest.h>

using namespace scamcheck::internal;

namespace {
bool any_key(std::string_view) { return true; }
}  // namespace

TEST_CASE("rules compile into one set and report spans in original bytes") {
  const char* json = R"json({"version": 1, "rules": [
    {"id": "t.password", "key": "credential_request", "pattern": "confirm\\s+your\\s+password"},
    {"id": "t.won", "key": "prize_lottery", "pattern": "you\\s+(?:have\\s+)?won", "weight": 25},
    {"id": "t.group", "key": "otp_request", "pattern": "send (?:us )?(the code)"}
  ]})json";
  auto set = RuleSet::compile(json, "test.json", any_key);
  REQUIRE(set.ok());
  const std::string text = "Please CONFIRM your Password. You WON! Send us the code.";
  NormalizedText normalized(text);
  Findings out;
  REQUIRE((*set)->match(normalized, out).ok());
  REQUIRE(out.size() == 3);
  for (const Finding& f : out) {
    std::string evidence = text.substr(f.start, f.end - f.start);
    if (f.key == "credential_request") CHECK(evidence == "CONFIRM your Password");
    if (f.key == "prize_lottery") {
      CHECK(evidence == "You WON");
      CHECK(f.weight == 25);
    }
    if (f.key == "otp_request") CHECK(evidence == "the code");  // group 1
  }
}

TEST_CASE("every problem of a bad rule file is reported at once") {
  const char* json = R"json({"version": 1, "rules": [
    {"id": "a", "key": "credential_request", "pattern": "(unclosed"},
    {"id": "a", "key": "nope", "pattern": "x"},
    {"id": "b", "key": "credential_request"}
  ]})json";
  auto set = RuleSet::compile(json, "bad.json", [](std::string_view k) { return k != "nope"; });
  REQUIRE_FALSE(set.ok());
  const std::string& msg = set.status().message();
  CHECK(msg.find("bad.json rule 'a': bad pattern") != std::string::npos);
  CHECK(msg.find("duplicate id") != std::string::npos);
  CHECK(msg.find("'nope' is not in the glossary") != std::string::npos);
  CHECK(msg.find("rule 'b': missing pattern") != std::string::npos);
}

TEST_CASE("a file without version 1 is rejected") {
  CHECK_FALSE(RuleSet::compile(R"json({"rules": []})json", "x.json", any_key).ok());
  CHECK_FALSE(RuleSet::compile("not json", "x.json", any_key).ok());
}

TEST_CASE("no match is not an error") {
  auto set = RuleSet::compile(
      R"json({"version":1,"rules":[{"id":"x","key":"k","pattern":"zzz"}]})json", "x.json", any_key);
  REQUIRE(set.ok());
  Findings out;
  CHECK((*set)->match(NormalizedText("hello"), out).ok());
  CHECK(out.empty());
}
