// The analyzer with an AI provider: a local server speaking OpenAI chat
// completions in each behaviour the real one can show.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "../../support/fake_providers.h"
#include "scamcheck/scamcheck.h"

using namespace scamcheck;
using scamcheck::testing::Behaviour;
using scamcheck::testing::FakeOpenAi;
using scamcheck::testing::TestHttpServer;
using scamcheck::testing::TestRequest;

namespace {

constexpr std::string_view kScam =
    "URGENT: confirm your password at https://paypa1-login.example.top/verify today or your "
    "account will be closed.";

struct ProviderFixture {
  FakeOpenAi fake;
  TestHttpServer server{[this](const TestRequest& r) { return fake(r); }};

  // Timeouts: generous for answers that should arrive, short where the
  // test waits for one to pass.
  std::shared_ptr<AiProvider> provider(int timeout_ms = 2'000) {
    auto p = make_openai_provider({.url = server.url(),
                                   .api_key = "sk-test-secret",
                                   .model = "configured-model",
                                   .timeout_ms = timeout_ms,
                                   .connect_timeout_ms = 200});
    REQUIRE(p.ok());
    return *p;
  }
};

std::unique_ptr<Analyzer> analyzer_with(std::shared_ptr<AiProvider> provider, int failures = 5,
                                        int open_ms = 30'000) {
  Options options;
  options.ai_provider = std::move(provider);
  options.ai_breaker_failures = failures;
  options.ai_breaker_open_ms = open_ms;
  auto a = Analyzer::create(options);
  REQUIRE_MESSAGE(a.ok(), a.status().to_string());
  return std::move(a).value();
}

// Every signal's evidence is the text at its span (CONTRACT §1).
void check_spans(std::string_view content, const Report& report) {
  for (const Signal& s : report.signals) {
    INFO(s.key);
    REQUIRE(s.location == "content");
    REQUIRE(s.span.end <= content.size());
    CHECK(content.substr(s.span.start, s.span.end - s.span.start) == s.evidence);
  }
}

bool has_signal(const Report& r, std::string_view key, std::string_view evidence) {
  for (const Signal& s : r.signals) {
    if (s.key == key && s.evidence == evidence) return true;
  }
  return false;
}

Report heuristic_report(std::string_view content) {
  auto a = Analyzer::create();
  REQUIRE(a.ok());
  auto r = (*a)->analyze(content, Kind::kText, "en");
  REQUIRE(r.ok());
  return std::move(r).value();
}

}  // namespace

TEST_CASE("a correct answer: the provider's verdict, wording, model and usage") {
  ProviderFixture f;
  auto analyzer = analyzer_with(f.provider());
  auto report = analyzer->analyze(kScam, Kind::kText, "en");
  REQUIRE(report.ok());
  CHECK(report->model_used == "fake-gpt-1");
  CHECK(report->input_tokens == 321);
  CHECK(report->output_tokens == 54);
  CHECK(report->verdict == Verdict::kDanger);
  CHECK(report->risk_score == 93);
  CHECK(report->summary_plain == "The provider thinks this is a phishing attempt.");
  REQUIRE(report->actions.size() == 1);
  CHECK(report->actions[0].text == "Do not click.");
  CHECK(has_signal(*report, "credential_request", "confirm your password"));
  CHECK_FALSE(report->signals.front().explanation.empty());
  check_spans(kScam, *report);
  CHECK(f.fake.last_authorization() == "Bearer sk-test-secret");
  const ProviderStats stats = analyzer->provider_stats();
  CHECK(stats.ai_configured);
  CHECK(stats.ai_answers == 1);
  CHECK(stats.ai_breaker == BreakerState::kClosed);
}

TEST_CASE("hallucinated evidence and unknown keys are dropped and counted") {
  ProviderFixture f;
  f.fake.behaviour = Behaviour::kHallucinated;
  auto analyzer = analyzer_with(f.provider());
  auto report = analyzer->analyze(kScam, Kind::kText, "en");
  REQUIRE(report.ok());
  CHECK(report->model_used == "fake-gpt-1");
  CHECK_FALSE(has_signal(*report, "credential_request", "enter your PIN now"));
  for (const Signal& s : report->signals) CHECK(s.key != "made_up_key");
  CHECK(has_signal(*report, "urgency", "confirm your password"));
  check_spans(kScam, *report);
  CHECK(analyzer->provider_stats().ai_signals_dropped == 2);
}

TEST_CASE("evidence in an email is located in the decoded part it occurs in") {
  ProviderFixture f;
  f.fake.evidence = "Please confirm your password";
  auto analyzer = analyzer_with(f.provider());
  const std::string mail =
      "From: Bank <info@bank-secure.example>\r\nTo: you@example.org\r\nSubject: Account\r\n"
      "Content-Type: text/plain; charset=utf-8\r\n\r\nHello,\r\nPlease confirm your password "
      "today.\r\n";
  auto report = analyzer->analyze(mail, Kind::kEmail, "de");
  REQUIRE(report.ok());
  CHECK(report->model_used == "fake-gpt-1");
  bool found = false;
  for (const Signal& s : report->signals) {
    if (s.key == "credential_request" && s.evidence == "Please confirm your password") {
      found = true;
      CHECK(s.location == "body");
      CHECK(s.span.end - s.span.start == s.evidence.size());
    }
  }
  CHECK(found);
}

TEST_CASE("every provider failure leaves the heuristic report") {
  const Report expected = heuristic_report(kScam);
  ProviderFixture f;
  auto analyzer = analyzer_with(f.provider(/*timeout_ms=*/300), /*failures=*/100);
  f.fake.slow_ms = 1'000;  // beyond the 300 ms timeout
  const Behaviour failures[] = {Behaviour::kSlow, Behaviour::kError500, Behaviour::kError429,
                                Behaviour::kGarbage, Behaviour::kMismatch};
  std::uint64_t n = 0;
  for (Behaviour b : failures) {
    CAPTURE(static_cast<int>(b));
    f.fake.behaviour = b;
    auto report = analyzer->analyze(kScam, Kind::kText, "en");
    REQUIRE(report.ok());
    CHECK(report->model_used == "heuristic-fallback");
    CHECK(report->output_tokens == 0);
    CHECK(report->verdict == expected.verdict);
    CHECK(report->risk_score == expected.risk_score);
    CHECK(report->summary_plain == expected.summary_plain);
    CHECK(report->signals.size() == expected.signals.size());
    CHECK(analyzer->provider_stats().ai_failures == ++n);
  }
}

TEST_CASE("a hanging provider times out; the breaker opens after 5 and later tries once") {
  ProviderFixture f;
  f.fake.behaviour = Behaviour::kHang;
  auto analyzer = analyzer_with(f.provider(/*timeout_ms=*/400), 5, /*open_ms=*/500);
  using Clock = std::chrono::steady_clock;
  for (int i = 0; i < 5; ++i) {
    const auto t0 = Clock::now();
    auto report = analyzer->analyze(kScam, Kind::kText, "en");
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0);
    REQUIRE(report.ok());
    CHECK(report->model_used == "heuristic-fallback");
    CHECK(ms.count() >= 350);
    CHECK(ms.count() < 3'000);
  }
  CHECK(analyzer->provider_stats().ai_breaker == BreakerState::kOpen);
  CHECK(f.server.requests() == 5);

  // Open: not asked at all, so no wait.
  const auto t0 = Clock::now();
  auto skipped = analyzer->analyze(kScam, Kind::kText, "en");
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0);
  REQUIRE(skipped.ok());
  CHECK(skipped->model_used == "heuristic-fallback");
  CHECK(ms.count() < 150);
  CHECK(f.server.requests() == 5);
  CHECK(analyzer->provider_stats().ai_skipped == 1);

  // Half-open after the open time: one trial, which now succeeds.
  f.fake.behaviour = Behaviour::kCorrect;
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  CHECK(analyzer->provider_stats().ai_breaker == BreakerState::kHalfOpen);
  auto trial = analyzer->analyze(kScam, Kind::kText, "en");
  REQUIRE(trial.ok());
  CHECK(trial->model_used == "fake-gpt-1");
  CHECK(analyzer->provider_stats().ai_breaker == BreakerState::kClosed);
}

TEST_CASE("a failed trial keeps the breaker open") {
  ProviderFixture f;
  f.fake.behaviour = Behaviour::kError500;
  auto analyzer = analyzer_with(f.provider(), 2, /*open_ms=*/200);
  for (int i = 0; i < 2; ++i) (void)analyzer->analyze(kScam, Kind::kText, "en");
  CHECK(analyzer->provider_stats().ai_breaker == BreakerState::kOpen);
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  (void)analyzer->analyze(kScam, Kind::kText, "en");  // the trial fails
  CHECK(f.server.requests() == 3);
  CHECK(analyzer->provider_stats().ai_breaker == BreakerState::kOpen);
  (void)analyzer->analyze(kScam, Kind::kText, "en");
  CHECK(f.server.requests() == 3);
}

namespace {

class ThrowingProvider final : public AiProvider {
 public:
  Result<AiReply> analyze(const AiRequest&) const override { throw std::runtime_error("boom"); }
};

}  // namespace

TEST_CASE("a provider that throws is a failure, not a crash") {
  auto analyzer = analyzer_with(std::make_shared<ThrowingProvider>());
  auto report = analyzer->analyze(kScam, Kind::kText, "en");
  REQUIRE(report.ok());
  CHECK(report->model_used == "heuristic-fallback");
  CHECK(analyzer->provider_stats().ai_failures == 1);
}

TEST_CASE("without a provider nothing is asked and the stats say so") {
  auto a = Analyzer::create();
  REQUIRE(a.ok());
  const ProviderStats stats = (*a)->provider_stats();
  CHECK_FALSE(stats.ai_configured);
  CHECK_FALSE(stats.reputation_configured);
}

TEST_CASE("many threads share one analyzer and one provider") {
  ProviderFixture f;
  auto analyzer = analyzer_with(f.provider());
  constexpr int kThreads = 8;
  constexpr int kScans = 20;
  std::atomic<int> answered{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kScans; ++i) {
        auto report = analyzer->analyze(kScam, Kind::kText, "en");
        if (report.ok() && report->model_used == "fake-gpt-1") ++answered;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  CHECK(answered == kThreads * kScans);
  CHECK(analyzer->provider_stats().ai_answers == kThreads * kScans);
}
