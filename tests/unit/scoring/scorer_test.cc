#include "scoring/scorer.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

using namespace scamcheck::internal;
using scamcheck::Verdict;

namespace {
const Scorer& scorer() {
  static const DataSource pack(SCAMCHECK_DATA_DIR);
  static auto texts = Texts::load(pack);
  REQUIRE(texts.ok());
  static auto s = Scorer::load(pack, **texts);
  REQUIRE(s.ok());
  return **s;
}
Finding finding(std::string key, double weight) {
  Finding f;
  f.key = std::move(key);
  f.start = 0;
  f.end = 1;
  f.weight = weight;
  return f;
}
}  // namespace

TEST_CASE("no findings is safe") {
  Score s = scorer().score({});
  CHECK(s.risk_score == 0);
  CHECK(s.verdict == Verdict::kSafe);
  CHECK(s.confidence > 50);
}

TEST_CASE("the score curve: weights add up, verdict boundaries per contract") {
  CHECK(scorer().score({finding("credential_request", 40)}).verdict == Verdict::kSuspicious);
  Score two = scorer().score({finding("credential_request", 40), finding("threat", 25)});
  CHECK(two.verdict == Verdict::kDanger);
  CHECK(two.ranked.front() == 0);
}

TEST_CASE("findings rank heaviest first, equal weights in finding order") {
  for (const std::size_t n : {5, 32, 33, 200}) {
    INFO(n);
    Findings findings;
    for (std::size_t i = 0; i < n; ++i) {
      findings.push_back(finding(i % 2 ? "threat" : "urgency", static_cast<double>((i * 7) % 5)));
    }
    const Score s = scorer().score(findings);
    REQUIRE(s.ranked.size() == n);
    for (std::size_t k = 1; k < n; ++k) {
      const std::size_t a = s.ranked[k - 1], b = s.ranked[k];
      CHECK(s.weights[a] >= s.weights[b]);
      if (s.weights[a] == s.weights[b]) CHECK(a < b);
    }
  }
}

TEST_CASE("repeating one key is damped and capped") {
  Findings same(10, finding("urgency", 10));
  Findings one{finding("urgency", 10)};
  int repeated = scorer().score(same).risk_score;
  int single = scorer().score(one).risk_score;
  CHECK(repeated > single);
  CHECK(repeated <= scorer().score({finding("urgency", 20)}).risk_score);
}

TEST_CASE("confidence grows with independent strong signals") {
  Score weak = scorer().score({finding("urgency", 10), finding("marketing_spam", 12)});
  Score strong = scorer().score(
      {finding("credential_request", 40), finding("threat", 30), finding("brand_lookalike", 40)});
  CHECK(strong.verdict == Verdict::kDanger);
  CHECK(strong.confidence > weak.confidence);
}

namespace {
// Scorer::load on the pack's scoring.json with `from` replaced by `to`.
scamcheck::Status load_changed(std::string_view from, std::string_view to) {
  std::string json = *DataSource(SCAMCHECK_DATA_DIR).read("scoring.json");
  const std::size_t at = json.find(from);
  REQUIRE(at != std::string::npos);
  json.replace(at, from.size(), to);
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "scamcheck_scorer_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "scoring.json", std::ios::binary) << json;
  static const DataSource pack(SCAMCHECK_DATA_DIR);
  static auto texts = Texts::load(pack);
  REQUIRE(texts.ok());
  auto loaded = Scorer::load(DataSource(dir.string()), **texts);
  std::filesystem::remove_all(dir);
  return loaded.ok() ? scamcheck::Status() : loaded.status();
}
}  // namespace

TEST_CASE("the rules' floors under the model and the weight that gives context") {
  CHECK(scorer().rules_floor(scamcheck::Kind::kText) == 50);
  CHECK(scorer().rules_floor(scamcheck::Kind::kEmail) == 70);
  CHECK_FALSE(scorer().rules_floor(scamcheck::Kind::kUrl).has_value());
  CHECK(scorer().gives_context(finding("credential_request", 10)));
  CHECK_FALSE(scorer().gives_context(finding("credential_request", 9.5)));
  Finding context = finding("phone_number", 40);
  context.requires_context = true;
  CHECK_FALSE(scorer().gives_context(context));
}

TEST_CASE("bad rules_floor and context_min_weight values are refused with a message") {
  CHECK(load_changed("\"text\": 50", "\"text\": 50").ok());
  for (std::string_view bad :
       {"\"text\": 101", "\"text\": -1", "\"text\": 50.5", "\"text\": \"50\"", "\"texts\": 50"}) {
    CAPTURE(bad);
    const scamcheck::Status s = load_changed("\"text\": 50", bad);
    CHECK(s.code() == scamcheck::StatusCode::kInvalidArgument);
    CHECK(s.message().find("rules_floor") != std::string::npos);
  }
  const scamcheck::Status missing = load_changed("\"rules_floor\"", "\"floor\"");
  CHECK(missing.message().find("\"rules_floor\" must be an object") != std::string::npos);
  const scamcheck::Status negative =
      load_changed("\"context_min_weight\": 10", "\"context_min_weight\": -1");
  CHECK(negative.message().find("context_min_weight") != std::string::npos);
}

TEST_CASE("one strong sign is enough: a high-severity rule finding floors the score") {
  Finding strong = finding("credential_request", 5);
  strong.severity = scamcheck::Severity::kHigh;
  Finding weak = finding("urgency", 9);
  Score s = scorer().score({weak, strong});
  REQUIRE(s.verdict == Verdict::kSafe);  // the weights alone say safe
  scorer().apply_floor({weak, strong}, s);
  CHECK(s.verdict == Verdict::kSuspicious);
  CHECK(s.risk_score == 30);
  REQUIRE(s.strong_sign.has_value());
  CHECK(*s.strong_sign == 1);
  CHECK(s.ranked.front() == 1);  // the sign that decided is named first

  // A higher score stays; context-only or context-weakened signs set no floor.
  Score high = scorer().score({finding("credential_request", 80), strong});
  const int before = high.risk_score;
  scorer().apply_floor({finding("credential_request", 80), strong}, high);
  CHECK(high.risk_score == before);
  CHECK(high.strong_sign == std::optional<std::size_t>(1));
  for (bool context : {true, false}) {
    Finding f = strong;
    if (context) {
      f.requires_context = true;
    } else {
      f.strength = 0.5;  // e.g. inside a quoted reply
    }
    Score t = scorer().score({f});
    scorer().apply_floor({f}, t);
    CHECK(t.verdict == Verdict::kSafe);
  }
  // Without a severity of its own a finding sets no floor.
  Score plain = scorer().score({finding("credential_request", 5)});
  scorer().apply_floor({finding("credential_request", 5)}, plain);
  CHECK(plain.verdict == Verdict::kSafe);
}

TEST_CASE("bad severity_floors values are refused with a message") {
  CHECK(load_changed("\"high\": 30", "\"high\": 30").ok());
  for (std::string_view bad : {"\"high\": 101", "\"high\": \"30\"", "\"severe\": 30"}) {
    CAPTURE(bad);
    const scamcheck::Status s = load_changed("\"high\": 30", bad);
    CHECK(s.code() == scamcheck::StatusCode::kInvalidArgument);
    CHECK(s.message().find("severity_floors") != std::string::npos);
  }
}
