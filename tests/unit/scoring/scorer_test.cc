#include "scoring/scorer.h"

#include <doctest/doctest.h>

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
