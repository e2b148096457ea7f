// URL reputation: local servers speaking Safe Browsing v4 and URLhaus, and
// the analyzer's use of their answers.
#include <doctest/doctest.h>

#include <chrono>

#include "../../support/fake_providers.h"
#include "providers/reputation_cache.h"
#include "scamcheck/scamcheck.h"

using namespace scamcheck;
using scamcheck::testing::Behaviour;
using scamcheck::testing::FakeSafeBrowsing;
using scamcheck::testing::FakeUrlhaus;
using scamcheck::testing::TestHttpServer;
using scamcheck::testing::TestRequest;

namespace {

struct SafeBrowsingFixture {
  FakeSafeBrowsing fake{"sb-key"};
  TestHttpServer server{[this](const TestRequest& r) { return fake(r); }};
  std::shared_ptr<UrlReputation> source(int timeout_ms = 2'000) {
    auto s =
        make_safe_browsing({.api_key = "sb-key", .url = server.url(), .timeout_ms = timeout_ms});
    REQUIRE(s.ok());
    return *s;
  }
};

struct UrlhausFixture {
  FakeUrlhaus fake{"uh-key"};
  TestHttpServer server{[this](const TestRequest& r) { return fake(r); }};
  std::shared_ptr<UrlReputation> source(int timeout_ms = 2'000) {
    auto s = make_urlhaus({.url = server.url(), .auth_key = "uh-key", .timeout_ms = timeout_ms});
    REQUIRE(s.ok());
    return *s;
  }
};

const std::vector<std::string> kUrls = {"https://shop.example.com/",
                                        "http://listed-evil.example.top/login?x=1&y=%20"};

const Behaviour kFailures[] = {Behaviour::kSlow, Behaviour::kError500, Behaviour::kError429,
                               Behaviour::kGarbage, Behaviour::kHang};

std::unique_ptr<Analyzer> analyzer_with(std::shared_ptr<UrlReputation> source) {
  Options options;
  options.url_reputation = std::move(source);
  auto a = Analyzer::create(options);
  REQUIRE_MESSAGE(a.ok(), a.status().to_string());
  return std::move(a).value();
}

}  // namespace

TEST_CASE("Safe Browsing: a match is malicious, the rest clean") {
  SafeBrowsingFixture f;
  auto r = f.source()->lookup(kUrls);
  REQUIRE_MESSAGE(r.ok(), r.status().to_string());
  CHECK((*r)[0] == Reputation::kClean);
  CHECK((*r)[1] == Reputation::kMalicious);
  CHECK(f.server.requests() == 1);  // one batch
}

TEST_CASE("URLhaus: listed is malicious, no_results clean") {
  UrlhausFixture f;
  auto r = f.source()->lookup(kUrls);
  REQUIRE_MESSAGE(r.ok(), r.status().to_string());
  CHECK((*r)[0] == Reputation::kClean);
  CHECK((*r)[1] == Reputation::kMalicious);
}

TEST_CASE("every failure of a source is an error, never a verdict") {
  SafeBrowsingFixture sb;
  UrlhausFixture uh;
  for (Behaviour b : kFailures) {
    CAPTURE(static_cast<int>(b));
    sb.fake.behaviour = b;
    uh.fake.behaviour = b;
    CHECK_FALSE(sb.source(300)->lookup(kUrls).ok());
    CHECK_FALSE(uh.source(300)->lookup(kUrls).ok());
  }
}

TEST_CASE("the aggregate: any malicious wins; one failing source is tolerated") {
  SafeBrowsingFixture sb;
  UrlhausFixture uh;
  auto both = make_reputation_aggregate({sb.source(), nullptr, uh.source()});
  sb.fake.behaviour = Behaviour::kError500;
  auto r = both->lookup(kUrls);
  REQUIRE(r.ok());
  CHECK((*r)[1] == Reputation::kMalicious);
  uh.fake.behaviour = Behaviour::kGarbage;
  CHECK_FALSE(both->lookup(kUrls).ok());
}

TEST_CASE("the analyzer marks a listed URL, adds a located signal, and caches the answer") {
  UrlhausFixture f;
  auto analyzer = analyzer_with(f.source());
  const std::string content =
      "Your parcel is waiting, track it at https://listed-evil.example.top/track now.";
  auto report = analyzer->analyze(content, Kind::kText, "en");
  REQUIRE(report.ok());
  REQUIRE(report->urls.size() == 1);
  CHECK(report->urls[0].reputation == Reputation::kMalicious);
  CHECK_FALSE(report->urls[0].cached);
  CHECK(report->verdict == Verdict::kDanger);
  bool found = false;
  for (const Signal& s : report->signals) {
    CHECK(content.substr(s.span.start, s.span.end - s.span.start) == s.evidence);
    if (s.key == "known_malicious_url") {
      found = true;
      CHECK(s.evidence.find("listed-evil.example.top") != std::string::npos);
    }
  }
  CHECK(found);
  const int asked = f.server.requests();

  auto again = analyzer->analyze(content, Kind::kText, "de");
  REQUIRE(again.ok());
  CHECK(again->urls[0].reputation == Reputation::kMalicious);
  CHECK(again->urls[0].cached);
  CHECK(f.server.requests() == asked);
  CHECK(analyzer->provider_stats().reputation_cache_hits == 1);
}

TEST_CASE("a URL input without a scheme is located too") {
  SafeBrowsingFixture f;
  auto analyzer = analyzer_with(f.source());
  const std::string content = "listed-evil.example.top/login";
  auto report = analyzer->analyze(content, Kind::kUrl, "en");
  REQUIRE(report.ok());
  REQUIRE(report->urls.size() == 1);
  CHECK(report->urls[0].reputation == Reputation::kMalicious);
  bool found = false;
  for (const Signal& s : report->signals) {
    if (s.key == "known_malicious_url") found = true;
    CHECK(content.substr(s.span.start, s.span.end - s.span.start) == s.evidence);
  }
  CHECK(found);
}

TEST_CASE("a failing source leaves URLs unknown and is not cached") {
  SafeBrowsingFixture f;
  f.fake.behaviour = Behaviour::kError500;
  auto analyzer = analyzer_with(f.source());
  const std::string content = "see https://listed-evil.example.top/x";
  auto report = analyzer->analyze(content, Kind::kText, "en");
  REQUIRE(report.ok());
  CHECK(report->urls[0].reputation == Reputation::kUnknown);
  for (const Signal& s : report->signals) CHECK(s.key != "known_malicious_url");
  f.fake.behaviour = Behaviour::kCorrect;
  report = analyzer->analyze(content, Kind::kText, "en");
  REQUIRE(report.ok());
  CHECK(report->urls[0].reputation == Reputation::kMalicious);
  CHECK_FALSE(report->urls[0].cached);
  CHECK(analyzer->provider_stats().reputation_failures == 1);
}

TEST_CASE("the reputation cache expires answers and keeps its size bound") {
  using scamcheck::internal::ReputationCache;
  ReputationCache cache(std::chrono::seconds(60), 2);
  const auto t0 = ReputationCache::Clock::now();
  cache.put("a", Reputation::kClean, t0);
  CHECK(cache.get("a", t0 + std::chrono::seconds(59)) == Reputation::kClean);
  CHECK_FALSE(cache.get("a", t0 + std::chrono::seconds(60)).has_value());
  cache.put("b", Reputation::kMalicious, t0);
  cache.put("c", Reputation::kClean, t0);
  CHECK(cache.size() == 2);
  CHECK_FALSE(cache.get("a", t0).has_value());  // the oldest went first
  CHECK(cache.get("c", t0) == Reputation::kClean);
}
