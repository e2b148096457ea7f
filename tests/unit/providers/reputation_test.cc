// URL reputation: local servers speaking Safe Browsing v4 and URLhaus, and
// the analyzer's use of their answers.
#include <doctest/doctest.h>

#include <chrono>
#include <map>

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

namespace {

// An in-process ReputationStore: a map of URL -> (answer, age).
class MapStore final : public ReputationStore {
 public:
  mutable std::map<std::string, Entry> entries;
  mutable int gets = 0;
  std::vector<std::optional<Entry>> get(const std::vector<std::string>& urls,
                                        std::int64_t max_age_seconds) const override {
    ++gets;
    std::vector<std::optional<Entry>> out;
    for (const std::string& u : urls) {
      auto it = entries.find(u);
      if (it != entries.end() && it->second.age_seconds <= max_age_seconds) {
        out.push_back(it->second);
      } else {
        out.push_back(std::nullopt);
      }
    }
    return out;
  }
  void put(const std::vector<std::string>& urls,
           const std::vector<Reputation>& reputations) const override {
    for (std::size_t i = 0; i < urls.size(); ++i) entries[urls[i]] = {reputations[i], 0};
  }
};

// A local list: malicious for URLs containing `needle`; counts its calls.
class ListSource final : public UrlReputation {
 public:
  std::string needle = "local-list.example";
  mutable int calls = 0;
  Result<std::vector<Reputation>> lookup(const std::vector<std::string>& urls) const override {
    ++calls;
    std::vector<Reputation> out;
    for (const std::string& u : urls) {
      out.push_back(u.find(needle) != std::string::npos ? Reputation::kMalicious
                                                        : Reputation::kUnknown);
    }
    return out;
  }
};

}  // namespace

TEST_CASE("the reputation store is the second cache level and keeps fresh answers") {
  UrlhausFixture f;
  auto store = std::make_shared<MapStore>();
  Options options;
  options.url_reputation = f.source();
  options.reputation_store = store;
  const std::string content = "Pay the fee at https://listed-evil.example.top/fee today.";
  {
    auto first = Analyzer::create(options);
    REQUIRE(first.ok());
    auto report = (*first)->analyze(content, Kind::kText, "en");
    REQUIRE(report.ok());
    CHECK_FALSE(report->urls[0].cached);
  }
  REQUIRE(store->entries.count("https://listed-evil.example.top/fee") == 1);
  CHECK(store->entries.begin()->second.reputation == Reputation::kMalicious);
  const int asked = f.server.requests();

  // A new analyzer (a restarted process): the store answers, the source is not asked.
  auto second = Analyzer::create(options);
  REQUIRE(second.ok());
  auto report = (*second)->analyze(content, Kind::kText, "en");
  REQUIRE(report.ok());
  CHECK(report->urls[0].reputation == Reputation::kMalicious);
  CHECK(report->urls[0].cached);
  CHECK(f.server.requests() == asked);
  // Then its memory answers: the store is not asked again.
  const int gets = store->gets;
  REQUIRE((*second)->analyze(content, Kind::kText, "en").ok());
  CHECK(store->gets == gets);

  // An answer older than the cache time is asked again.
  store->entries.clear();
  store->entries["https://listed-evil.example.top/old"] = {Reputation::kClean, 90'000};
  auto third = Analyzer::create(options);
  REQUIRE(third.ok());
  auto old = (*third)->analyze("see https://listed-evil.example.top/old", Kind::kText, "en");
  REQUIRE(old.ok());
  CHECK(old->urls[0].reputation == Reputation::kMalicious);
  CHECK(f.server.requests() == asked + 1);
}

TEST_CASE("local lists are asked for every report, never cached, and make a signal") {
  auto list = std::make_shared<ListSource>();
  Options options;
  options.local_reputation = list;
  auto analyzer = Analyzer::create(options);
  REQUIRE(analyzer.ok());
  const std::string content = "Claim your refund at http://refund.local-list.example/claim";
  for (int i = 0; i < 2; ++i) {
    auto report = (*analyzer)->analyze(content, Kind::kText, "en");
    REQUIRE(report.ok());
    CHECK(report->urls[0].reputation == Reputation::kMalicious);
    CHECK_FALSE(report->urls[0].cached);
    bool found = false;
    for (const Signal& s : report->signals) {
      if (s.key == "known_malicious_url") {
        found = true;
        CHECK(s.evidence == "http://refund.local-list.example/claim");
      }
    }
    CHECK(found);
  }
  CHECK(list->calls == 2);
  // A changed list counts at once.
  list->needle = "nothing-matches";
  auto report = (*analyzer)->analyze(content, Kind::kText, "en");
  REQUIRE(report.ok());
  CHECK(report->urls[0].reputation == Reputation::kUnknown);
  CHECK((*analyzer)->provider_stats().reputation_configured);
}
