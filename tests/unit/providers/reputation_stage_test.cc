// ReputationStage on its own: which sources it asks, the finding a listed
// URL becomes, the raise to the rules' score and the counters.
#include "providers/reputation_stage.h"

#include <doctest/doctest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace scamcheck;
using namespace scamcheck::internal;

namespace {

// Lists the URLs in `listed`; counts its lookups.
class ListSource final : public UrlReputation {
 public:
  explicit ListSource(std::set<std::string> listed) : listed_(std::move(listed)) {}
  Result<std::vector<Reputation>> lookup(const std::vector<std::string>& urls) const override {
    ++lookups;
    std::vector<Reputation> out;
    for (const std::string& u : urls) {
      out.push_back(listed_.count(u) ? Reputation::kMalicious : Reputation::kClean);
    }
    return out;
  }
  mutable int lookups = 0;

 private:
  std::set<std::string> listed_;
};

struct Pack {
  DataSource data{SCAMCHECK_DATA_DIR};
  std::unique_ptr<Texts> texts = std::move(Texts::load(data).value());
  std::unique_ptr<Scorer> scorer = std::move(Scorer::load(data, *texts).value());
};

const Pack& pack() {
  static const Pack p;
  return p;
}

}  // namespace

TEST_CASE("no reputation source, no stage") {
  CHECK(ReputationStage::create(Options{}, *pack().texts, *pack().scorer) == nullptr);
}

TEST_CASE("a URL on the local list is malicious, located, and raises the score") {
  const std::string text = "pay now at https://evil.example/pay please";
  auto local = std::make_shared<ListSource>(std::set<std::string>{"https://evil.example/pay"});
  Options options;
  options.local_reputation = local;
  auto stage = ReputationStage::create(options, *pack().texts, *pack().scorer);
  REQUIRE(stage != nullptr);

  Report report;
  report.urls.resize(2);
  report.urls[0].url = "https://evil.example/pay";
  report.urls[0].host = "evil.example";
  report.urls[1].url = "https://fine.example/";
  report.urls[1].host = "fine.example";
  Findings findings;
  stage->check({{"content", text}}, findings, report);
  CHECK(local->lookups == 1);
  CHECK(report.urls[0].reputation == Reputation::kMalicious);
  CHECK(report.urls[1].reputation != Reputation::kMalicious);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].key == "known_malicious_url");
  CHECK(text.substr(findings[0].start, findings[0].end - findings[0].start) ==
        "https://evil.example/pay");

  const Score safe;  // what a model might have said
  const Score raised = stage->with_reputation(safe, findings);
  CHECK(raised.risk_score == pack().scorer->score(findings).risk_score);
  CHECK(raised.risk_score > safe.risk_score);
  CHECK(stage->with_reputation(safe, {}).risk_score == safe.risk_score);

  ProviderStats stats;
  stage->add_stats(stats);
  CHECK(stats.reputation_configured);
  CHECK(stats.reputation_lookups == 0);  // the local lists are not the remote source
}

TEST_CASE("the remote source's answers are cached and counted") {
  auto remote = std::make_shared<ListSource>(std::set<std::string>{});
  Options options;
  options.url_reputation = remote;
  auto stage = ReputationStage::create(options, *pack().texts, *pack().scorer);
  REQUIRE(stage != nullptr);
  for (int i = 0; i < 2; ++i) {
    Report report;
    report.urls.resize(1);
    report.urls[0].url = "https://fine.example/";
    Findings findings;
    stage->check({{"content", "https://fine.example/"}}, findings, report);
    CHECK(report.urls[0].reputation == Reputation::kClean);
    CHECK(report.urls[0].cached == (i == 1));
  }
  CHECK(remote->lookups == 1);
  ProviderStats stats;
  stage->add_stats(stats);
  CHECK(stats.reputation_lookups == 1);
  CHECK(stats.reputation_cache_hits == 1);
  CHECK(stats.reputation_failures == 0);
}
