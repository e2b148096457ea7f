#include "rules/rule_set.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <thread>
#include <tuple>

using namespace scamcheck::internal;

namespace {
bool any_key(std::string_view) { return true; }

using Spans = std::vector<std::tuple<std::string, std::size_t, std::size_t>>;

// The findings of `rules` over `text`: key and span in original bytes.
Spans found_in(const RuleSet& rules, const NormalizedText& text) {
  Findings out;
  REQUIRE(rules.match(text, out).ok());
  Spans found;
  for (const Finding& f : out) found.emplace_back(f.key, f.start, f.end);
  return found;
}

// What each rule finds searching the whole text, in rule order: its first
// match not after its not_after, that match's evidence (group 1 where it
// has one).
Spans whole_text(const RuleSet& rules, const NormalizedText& text) {
  Spans expected;
  const std::string& t = text.text();
  re2::StringPiece groups[2];
  for (const Rule& rule : rules.rules()) {
    const int n = std::min(rule.regex().NumberOfCapturingGroups(), 1) + 1;
    if (!rule.find(t, 0, t.size(), groups, n)) continue;
    const re2::StringPiece evidence = n > 1 && !groups[1].empty() ? groups[1] : groups[0];
    if (evidence.empty()) continue;
    const auto start = static_cast<std::size_t>(evidence.data() - t.data());
    const auto [from, to] = text.to_original(start, start + evidence.size());
    expected.emplace_back(rule.key, from, to);
  }
  return expected;
}
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

TEST_CASE("problems come in file order although the patterns compile on several threads") {
  std::string json = R"json({"version": 1, "rules": [)json";
  for (int i = 0; i < 40; ++i) {
    if (i) json += ",";
    json += i % 2 ? R"json({"id": "r)json" + std::to_string(i) +
                        R"json(", "key": "nope", "pattern": "x"})json"
                  : R"json({"id": "r)json" + std::to_string(i) +
                        R"json(", "key": "credential_request", "pattern": "(x"})json";
  }
  json += "]}";
  auto set = RuleSet::compile(json, "many.json", [](std::string_view k) { return k != "nope"; });
  REQUIRE_FALSE(set.ok());
  const std::string& msg = set.status().message();
  std::size_t last = 0;
  for (int i = 0; i < 40; ++i) {
    const std::string what = i % 2 ? "key 'nope' is not in the glossary" : "bad pattern";
    const std::size_t at = msg.find("many.json rule 'r" + std::to_string(i) + "': " + what);
    REQUIRE(at != std::string::npos);
    CHECK(at >= last);
    last = at;
  }
}

TEST_CASE("a match after the rule's not_after is no sign; the search goes on after it") {
  const char* json = R"json({"version": 1,
    "fragments": {"never": "\\bnever\\W+ask\\W+(?:you\\W+)?to"},
    "rules": [
      {"id": "t.ask", "key": "credential_request", "pattern": "confirm\\W+your\\W+(password)",
       "not_after": "{never}"},
      {"id": "t.near", "key": "otp_request", "pattern": "\\bsend\\W+(?:me\\W+)?the\\W+code\\b",
       "not_after": "\\bdo\\W+not"}
    ]})json";
  auto set = RuleSet::compile(json, "test.json", any_key);
  REQUIRE(set.ok());
  auto spans = [&](const std::string& text) { return found_in(**set, NormalizedText(text)); };
  CHECK(spans("We will never ask you to confirm your password.").empty());
  CHECK(spans("We never ask to confirm your password").empty());
  // Another match further on still counts, and so does a negation too far
  // before (over 100 bytes) or not just before.
  const std::string both =
      "We will never ask you to confirm your password. Please confirm your password here.";
  CHECK(spans(both) == Spans{{"credential_request", both.rfind("password"), both.size() - 6}});
  CHECK(spans("Never ask anyone for help. Confirm your password").size() == 1);
  CHECK(spans("Do not reply. " + std::string(110, 'x') + " send me the code").size() == 1);
  CHECK(spans("do not send the code to anyone").empty());
  CHECK(RuleSet::matches((*set)->rules()[0], "Please confirm your password"));
  CHECK_FALSE(RuleSet::matches((*set)->rules()[0], "we'll never ask you to confirm your password"));
}

TEST_CASE("a match before the rule's not_before is no sign either") {
  const char* json = R"json({"version": 1, "rules": [
      {"id": "t.ask", "key": "credential_request", "pattern": "send\\W+me\\W+the\\W+password",
       "not_before": "for\\W+the\\W+wi-?fi"}
    ]})json";
  auto set = RuleSet::compile(json, "test.json", any_key);
  REQUIRE(set.ok());
  auto spans = [&](const std::string& text) { return found_in(**set, NormalizedText(text)); };
  CHECK(spans("Send me the password for the WiFi, please").empty());
  CHECK(spans("Send me the password, for the wifi").empty());
  CHECK(spans("Send me the password now").size() == 1);
  const std::string both =
      "send me the password for the wi-fi and send me the password of your bank";
  CHECK(spans(both) == Spans{{"credential_request", both.rfind("send"), both.rfind(" of")}});
}

TEST_CASE("a bad not_after or not_before is reported with its rule") {
  const char* json = R"json({"version": 1, "rules": [
    {"id": "t.bad", "key": "credential_request", "pattern": "x", "not_after": "(unclosed"},
    {"id": "t.unknown", "key": "credential_request", "pattern": "y", "not_after": "{nope}"},
    {"id": "t.after", "key": "credential_request", "pattern": "z", "not_before": "[z"}
  ]})json";
  auto set = RuleSet::compile(json, "bad.json", any_key);
  REQUIRE_FALSE(set.ok());
  const std::string& msg = set.status().message();
  CHECK(msg.find("bad.json rule 't.bad': bad not_after") != std::string::npos);
  CHECK(msg.find("bad.json rule 't.unknown': unknown fragment 'nope'") != std::string::npos);
  CHECK(msg.find("bad.json rule 't.after': bad not_before") != std::string::npos);
}

TEST_CASE("a rule names its file's fragments as {name}") {
  const char* json = R"json({"version": 1,
    "fragments": {
      "ask": "(?:send|tell)\\W+me\\W+",
      "secret": "pin|password",
      "your_secret": "your\\W+{secret}"
    },
    "rules": [
      {"id": "t.ask", "key": "credential_request", "pattern": "{ask}{your_secret}\\b|(\\b{ask}the\\W+{secret})\\W+now"},
      {"id": "t.count", "key": "money_request", "pattern": "[{a}]\\{b}x{2}"}
    ]})json";
  auto set = RuleSet::compile(json, "f.json", any_key);
  REQUIRE(set.ok());
  const std::vector<Rule>& rules = (*set)->rules();
  CHECK(RuleSet::matches(rules[0], "Please SEND me your PIN"));
  CHECK(RuleSet::matches(rules[0], "tell me your password"));
  CHECK_FALSE(RuleSet::matches(rules[0], "send me the pin"));
  // The fragment is a group of its own: "|" inside it stays inside.
  CHECK_FALSE(RuleSet::matches(rules[0], "password"));
  // Group 1 is still the evidence.
  const std::string text = "ok, send me the password now";
  CHECK(found_in(**set, NormalizedText(text)) == Spans{{"credential_request", 4, 24}});
  // Inside a class, escaped, or a repetition: as written.
  CHECK(RuleSet::matches(rules[1], "a{b}xx"));
  CHECK(RuleSet::matches(rules[1], "}{b}xx"));
}

TEST_CASE("a fragment that is unknown, unused, capturing or bad is reported") {
  const char* json = R"json({"version": 1,
    "fragments": {
      "before": "{after}",
      "after": "x",
      "unused": "y",
      "capturing": "(z)",
      "bad": "(z",
      "number": 3
    },
    "rules": [
      {"id": "r.unknown", "key": "credential_request", "pattern": "a{nothing}b"},
      {"id": "r.uses", "key": "credential_request", "pattern": "{after}{capturing}{bad}"}
    ]})json";
  auto set = RuleSet::compile(json, "frag.json", any_key);
  REQUIRE_FALSE(set.ok());
  const std::string& msg = set.status().message();
  CHECK(msg.find("frag.json fragment 'before': unknown fragment 'after'") != std::string::npos);
  CHECK(msg.find("frag.json fragment 'unused': not used by any rule") != std::string::npos);
  CHECK(msg.find("frag.json fragment 'capturing': has a capturing group") != std::string::npos);
  CHECK(msg.find("frag.json fragment 'bad': bad pattern") != std::string::npos);
  CHECK(msg.find("frag.json fragment 'number': not a string") != std::string::npos);
  CHECK(msg.find("frag.json rule 'r.unknown': unknown fragment 'nothing'") != std::string::npos);
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

TEST_CASE("rule files compile into one set; ids must be unique across files") {
  const RuleFile text{"text.json", R"json({"version": 1, "rules": [
    {"id": "en.a", "key": "credential_request", "pattern": "your password"}]})json"};
  const RuleFile fr{"fr.json", R"json({"version": 1, "rules": [
    {"id": "fr.a", "key": "credential_request", "pattern": "votre mot de passe"}]})json"};
  auto set = RuleSet::compile({text, fr}, any_key);
  REQUIRE(set.ok());
  REQUIRE((*set)->rules().size() == 2);
  CHECK((*set)->rules()[0].id == "en.a");
  CHECK((*set)->rules()[1].id == "fr.a");
  Findings out;
  REQUIRE((*set)->match(NormalizedText("Entrez votre mot de passe ici"), out).ok());
  CHECK(out.size() == 1);

  const RuleFile clash{"nl.json", R"json({"version": 1, "rules": [
    {"id": "en.a", "key": "credential_request", "pattern": "uw wachtwoord"}]})json"};
  auto bad = RuleSet::compile({text, clash}, any_key);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message().find("nl.json rule 'en.a': duplicate id") != std::string::npos);
}

TEST_CASE("load reads every rules/*.json of a data directory, sorted by name") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("rule_set_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "rules");
  auto write = [&](const char* name, const char* json) {
    std::ofstream(dir / "rules" / name) << json;
  };
  write("text.json",
        R"json({"version":1,"rules":[{"id":"en.x","key":"k","pattern":"alpha"}]})json");
  write("es.json", R"json({"version":1,"rules":[{"id":"es.x","key":"k","pattern":"beta"}]})json");
  write("README.txt", "not a rule file");
  auto set = RuleSet::load(DataSource(dir.string()), any_key);
  std::filesystem::remove_all(dir);
  REQUIRE_MESSAGE(set.ok(), set.status().to_string());
  REQUIRE((*set)->rules().size() == 2);
  CHECK((*set)->rules()[0].id == "es.x");
  CHECK((*set)->rules()[1].id == "en.x");
}

TEST_CASE("a set whose rules' literals are absent from the text does not run") {
  // ("\S*": matches of any number of words, so the rules are in sets, not
  // searched near their literals.)
  const RuleFile text{"text.json", R"json({"version": 1, "rules": [
    {"id": "en.a", "key": "credential_request", "pattern": "\\byour\\W+password\\S*"},
    {"id": "en.b", "key": "urgency", "pattern": "\\b\\d+\\W+hours?\\S*"}]})json"};
  const RuleFile fr{"fr.json", R"json({"version": 1, "rules": [
    {"id": "fr.a", "key": "credential_request", "pattern": "votre\\W+(?:mot\\W+de\\W+passe|code)\\S*"}]})json"};
  auto set = RuleSet::compile({text, fr}, any_key);
  REQUIRE(set.ok());
  // Every rule has a literal each of its matches holds ("your" or
  // "password", "hour", "votre"): a set per file, each asleep until a text
  // holds one of its rules' literals.
  REQUIRE((*set)->set_count() == 2);
  auto woken = [&](const char* t) { return (*set)->sets_woken(NormalizedText(t, true))->woken; };
  CHECK(woken("12345 !!!") == 0);
  CHECK(woken("Confirmez votre code") == 1);
  CHECK(woken("Your password expires in 2 hours") == 1);
  CHECK(woken("Your password, votre code") == 2);
  // en.a needs both "your" and "password": one alone wakes nothing.
  CHECK(woken("Reset the password") == 0);
  CHECK(woken("Your parcel") == 0);
  Findings out;
  REQUIRE((*set)->match(NormalizedText("Confirmez VOTRE code", true), out).ok());
  REQUIRE(out.size() == 1);
  CHECK(out[0].key == "credential_request");
}

TEST_CASE("a rule's literal wakes it anywhere in the text, up to its last bytes") {
  // Atoms are read four bytes at a time; the last three places of a text
  // have fewer left.
  // Matches of one word: each rule is searched near its literal, in no set.
  const RuleFile text{"text.json", R"json({"version": 1, "rules": [
    {"id": "en.a", "key": "prize", "pattern": "\\bwon\\b"},
    {"id": "en.b", "key": "urgency", "pattern": "\\burgent\\b"}]})json"};
  auto set = RuleSet::compile({text}, any_key);
  REQUIRE(set.ok());
  REQUIRE((*set)->set_count() == 0);
  auto woken = [&](const char* t) {
    return (*set)->sets_woken(NormalizedText(t, true))->near.size();
  };
  for (const char* t : {"won", "you won", "won now", "urgent", "so urgent", "URGENT!"}) {
    INFO(t);
    CHECK(woken(t) == 1);
  }
  for (const char* t : {"wo", "wo n", "urgen", "you wo"}) {
    INFO(t);
    CHECK(woken(t) == 0);
  }
}

TEST_CASE("a set woken by one or two of its rules leaves them to their own regexes") {
  // Four rules with literals, one file: one set. ("\S*": matches of any
  // number of words, so no search near the atoms instead.)
  const RuleFile text{"text.json", R"json({"version": 1, "rules": [
    {"id": "en.a", "key": "credential_request", "pattern": "\\byour\\W+password\\S*"},
    {"id": "en.b", "key": "urgency", "pattern": "\\b\\d+\\W+hours?\\S*"},
    {"id": "en.c", "key": "urgency", "pattern": "\\bimmediately\\S*"},
    {"id": "en.d", "key": "prize", "pattern": "\\byou\\W+(?:have\\W+)?won\\S*"}]})json"};
  auto set = RuleSet::compile({text}, any_key);
  REQUIRE(set.ok());
  REQUIRE((*set)->set_count() == 1);
  auto wakes = [&](const char* t) { return *(*set)->sets_woken(NormalizedText(t, true)); };
  auto keys = [&](const char* t) {
    Findings out;
    REQUIRE((*set)->match(NormalizedText(t, true), out).ok());
    std::vector<std::string> k;
    for (const Finding& f : out) k.push_back(f.key);
    return k;
  };
  // Two rules woken: the set sleeps, their own regexes decide.
  const char* two = "Your password expires in 2 hours";
  CHECK(wakes(two).woken == 1);
  CHECK(wakes(two).run == 0);
  CHECK(keys(two) == std::vector<std::string>{"credential_request", "urgency"});
  // Woken but not matching: nothing.
  CHECK(keys("The password of your account expires in hours").empty());
  // More than two rules woken: the set runs; findings in rule order.
  const char* three = "You have won! Your password expires in 2 hours, act immediately";
  CHECK(wakes(three).run == 1);
  CHECK(keys(three) ==
        std::vector<std::string>{"credential_request", "urgency", "urgency", "prize"});
}

TEST_CASE("a rule of several alternatives wakes only when one of them can match") {
  // "call new" holds a literal of each alternative, all of neither: the
  // first rule sleeps. The second's flag group reaches across its '|', so
  // it is read whole, and one literal of each alternative wakes it.
  const RuleFile text{"text.json", R"json({"version": 1, "rules": [
    {"id": "en.a", "key": "urgency", "pattern": "\\bcall\\W+now\\b|\\bnew\\W+number\\b"},
    {"id": "en.b", "key": "urgency", "pattern": "(?s)\\bring\\W+now\\b|\\bnew\\W+phone\\b"},
    {"id": "en.c", "key": "urgency", "pattern": "[|]\\W*last\\W+chance|\\|\\W*final\\W+call"}]})json"};
  auto set = RuleSet::compile({text}, any_key);
  REQUIRE(set.ok());
  auto direct = [&](const char* t) {  // the rules run by their own regexes
    std::vector<std::string> ids;
    const auto wakes = (*set)->sets_woken(NormalizedText(t, true));
    REQUIRE(wakes.ok());
    for (const std::vector<int>* list : {&wakes->direct, &wakes->near}) {
      for (int r : *list) ids.push_back((*set)->rules()[static_cast<std::size_t>(r)].id);
    }
    return ids;
  };
  using Ids = std::vector<std::string>;
  CHECK(direct("call new") == Ids{});
  CHECK(direct("call now") == Ids{"en.a"});
  CHECK(direct("a new number") == Ids{"en.a"});
  CHECK(direct("ring new") == Ids{"en.b"});
  CHECK(direct("ring now") == Ids{"en.b"});
  // '|' in a class or escaped is a literal, not an alternative.
  CHECK(direct("last call") == Ids{});
  CHECK(direct("last chance") == Ids{"en.c"});
  CHECK(direct("final call") == Ids{"en.c"});
}

TEST_CASE("over a long text a set woken by two of its rules runs") {
  // "\S*": a match may hold any number of words, so no search near the
  // atoms (below) instead.
  const RuleFile text{"text.json", R"json({"version": 1, "rules": [
    {"id": "en.a", "key": "credential_request", "pattern": "\\byour\\W+password\\S*"},
    {"id": "en.b", "key": "urgency", "pattern": "\\b\\d+\\W+hours?\\S*"},
    {"id": "en.c", "key": "urgency", "pattern": "\\bimmediately\\b"}]})json"};
  auto set = RuleSet::compile({text}, any_key);
  REQUIRE(set.ok());
  REQUIRE((*set)->set_count() == 1);
  const std::string two = "Your password expires in 2 hours. ";
  const std::string long_two = two + std::string(2000, 'x') + " " + two;
  const NormalizedText short_text(two, true), long_text(long_two, true);
  CHECK((*set)->sets_woken(short_text)->run == 0);
  CHECK((*set)->sets_woken(long_text)->run == 1);
  // The same findings either way: the first of each rule's matches.
  Findings out;
  REQUIRE((*set)->match(long_text, out).ok());
  REQUIRE(out.size() == 2);
  CHECK(out[0].key == "credential_request");
  CHECK(out[0].start == 0);
  CHECK(out[1].key == "urgency");
  CHECK(out[1].start == two.find('2'));
}

TEST_CASE("a rule whose matches hold few words is searched near its atoms") {
  const RuleFile text{"text.json", R"json({"version": 1, "rules": [
    {"id": "en.a", "key": "urgency", "pattern": "\\b(?:this\\W+is|it'?s)\\W+my\\W+new\\W+number\\b"},
    {"id": "en.b", "key": "urgency", "pattern": "\\bact\\W+now\\b|\\bnumber\\W+\\d+"},
    {"id": "en.c", "key": "urgency", "pattern": "\\bcall\\W+(?:us\\W+)?\\+?\\d[\\d\\s-]{6,}\\d"}]})json"};
  auto set = RuleSet::compile({text}, any_key);
  REQUIRE(set.ok());
  const RuleSet& rules = **set;
  std::string filler;
  while (filler.size() < 1200) filler += "lorem ipsum dolor sit amet ";
  using Ids = std::vector<std::string>;
  auto ids = [&](const std::vector<int>& list) {
    Ids out;
    for (int r : list) out.push_back(rules.rules()[static_cast<std::size_t>(r)].id);
    return out;
  };
  // Its literals, each far from the others: no match can hold them all.
  const std::string apart = "this is " + filler + " my new " + filler + " number";
  auto wakes = rules.sets_woken(NormalizedText(apart, true));
  REQUIRE(wakes.ok());
  CHECK(ids(wakes->near) == Ids{"en.b"});  // "number": the last words of the text
  CHECK(wakes->direct.empty());
  CHECK(wakes->run == 0);
  // Near each other, after literals far away: the same matches (the first
  // of each rule, the evidence where the whole text's search puts it) as
  // the rules' own regexes over the whole text, up to its last byte.
  for (const std::string& t :
       {apart + " -- it's my new number", "It's my new number " + filler + "act now. number 7",
        filler + "this is my new number" + filler + "act now", apart + " act now",
        "call " + filler + "call us 0800 123 456 78", std::string("it's my new number, act now")}) {
    const NormalizedText normalized(t, true);
    wakes = rules.sets_woken(normalized);
    REQUIRE(wakes.ok());
    CHECK(wakes->direct.empty());  // all bounded, in words or in runs of letters
    CHECK_MESSAGE(found_in(rules, normalized) == whole_text(rules, normalized),
                  t.substr(t.size() - 40));
  }
}

// The sets a text does not wake could not have matched it: over every
// example of every rule of the data pack (each rule's own and the others'),
// the whole set finds exactly the rules whose own regex matches (not after
// their not_after).
TEST_CASE("the data pack's rules: skipping sets never loses a match") {
  auto set = RuleSet::load(DataSource(""), any_key);
  REQUIRE_MESSAGE(set.ok(), set.status().to_string());
  const RuleSet& rules = **set;
  CHECK(rules.set_count() > 1);
  std::size_t texts = 0, skipped = 0;
  for (const Rule& owner : rules.rules()) {
    std::vector<std::string> examples = owner.match_examples;
    examples.insert(examples.end(), owner.no_match_examples.begin(), owner.no_match_examples.end());
    for (const std::string& example : examples) {
      const NormalizedText normalized(example, true);
      std::multiset<std::string> expected, found;
      for (const Rule& rule : rules.rules()) {
        re2::StringPiece match;
        if (rule.find(normalized.text(), 0, normalized.text().size(), &match, 1)) {
          expected.insert(rule.key);
        }
      }
      Findings out;
      REQUIRE(rules.match(normalized, out).ok());
      for (const Finding& f : out) found.insert(f.key);
      CHECK_MESSAGE(found == expected, example);
      ++texts;
      skipped += rules.set_count() - rules.sets_woken(normalized)->run;
    }
  }
  CHECK(texts > 300);
  CHECK(skipped > texts);  // on average more than one set skipped per text
}

// Over long texts (the examples of the data pack's rules, sixteen at a time
// between filler words), the sets, the rules' own regexes and the searches
// near their atoms find what each rule's own regex finds over the whole
// text: the same rules, the same evidence.
TEST_CASE("the data pack's rules: long texts find what each rule's whole-text search finds") {
  auto set = RuleSet::load(DataSource(""), any_key);
  REQUIRE_MESSAGE(set.ok(), set.status().to_string());
  const RuleSet& rules = **set;
  std::vector<std::string> examples;
  for (const Rule& rule : rules.rules()) {
    examples.insert(examples.end(), rule.match_examples.begin(), rule.match_examples.end());
    examples.insert(examples.end(), rule.no_match_examples.begin(), rule.no_match_examples.end());
  }
  const std::string filler = " \n-- thank you for the update, see the notes below. \n";
  std::size_t texts = 0, near = 0;
  for (std::size_t first = 0; first < examples.size(); first += 16) {
    std::string text;
    for (std::size_t i = first; i < std::min(first + 16, examples.size()); ++i) {
      text += examples[i] + filler;
    }
    const NormalizedText normalized(text, true);
    if (normalized.text().size() <= 1024) continue;
    CHECK_MESSAGE(found_in(rules, normalized) == whole_text(rules, normalized), text.substr(0, 80));
    ++texts;
    near += rules.sets_woken(normalized)->near.size();
  }
  CHECK(texts > 50);
  CHECK(near > texts);  // on average more than one rule searched near its atoms
}

// Every rule compiles its own regex on first use: four threads using a
// fresh rule set at once find what one thread finds.
TEST_CASE("the data pack's rules match alike when threads first use them at once") {
  auto serial = RuleSet::load(DataSource(""), any_key);
  auto shared = RuleSet::load(DataSource(""), any_key);
  REQUIRE(serial.ok());
  REQUIRE(shared.ok());
  std::vector<std::string> texts;
  for (const Rule& rule : (*serial)->rules()) {
    texts.insert(texts.end(), rule.match_examples.begin(), rule.match_examples.end());
  }
  auto keys = [](const RuleSet& rules, const std::string& text) {
    Findings out;
    if (!rules.match(NormalizedText(text, true), out).ok()) return std::string("error");
    std::string k;
    for (const Finding& f : out) k += f.key + "@" + std::to_string(f.start) + " ";
    return k;
  };
  std::vector<std::string> expected;
  for (const std::string& text : texts) expected.push_back(keys(**serial, text));
  std::vector<std::vector<std::string>> found(4);
  {
    std::vector<std::jthread> threads;
    for (std::size_t t = 0; t < found.size(); ++t) {
      threads.emplace_back([&, t] {
        for (const std::string& text : texts) found[t].push_back(keys(**shared, text));
      });
    }
  }
  for (const std::vector<std::string>& one : found) CHECK(one == expected);
  CHECK(texts.size() > 300);
}

// Options::compile_threads: the data pack compiled on one thread and on
// three finds the same rules, with the same evidence, in the same order.
TEST_CASE("the data pack's rules compile alike on one thread and on several") {
  auto serial = RuleSet::load(DataSource(""), any_key, 1);
  auto parallel = RuleSet::load(DataSource(""), any_key, 3);
  REQUIRE(serial.ok());
  REQUIRE(parallel.ok());
  REQUIRE((*serial)->set_count() == (*parallel)->set_count());
  std::size_t findings = 0;
  for (const Rule& owner : (*serial)->rules()) {
    for (const std::string& example : owner.match_examples) {
      const NormalizedText normalized(example, true);
      Findings a, b;
      REQUIRE((*serial)->match(normalized, a).ok());
      REQUIRE((*parallel)->match(normalized, b).ok());
      REQUIRE(a.size() == b.size());
      for (std::size_t i = 0; i < a.size(); ++i) {
        CHECK(a[i].key == b[i].key);
        CHECK(a[i].start == b[i].start);
        CHECK(a[i].end == b[i].end);
      }
      findings += a.size();
    }
  }
  CHECK(findings > 300);
}
