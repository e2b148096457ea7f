// What an AI provider costs a scan, measured against a local server that
// speaks OpenAI chat completions (tests/support/fake_providers.h):
//   1. the client's overhead per scan when the provider answers at once:
//      analyze() with the provider against analyze() without, interleaved
//      in the same run on the same inputs;
//   2. scan latency while the provider hangs: before the circuit breaker
//      opens (each scan waits for the provider's timeout, default 8 s) and
//      after (the provider is skipped).
// Prints Markdown tables. Usage: provider_benchmark [scans (default 3000)]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <numeric>
#include <thread>
#include <vector>

#include "../tests/support/fake_providers.h"
#include "bench_inputs.h"
#include "scamcheck/scamcheck.h"

namespace {

using Clock = std::chrono::steady_clock;
using scamcheck::testing::Behaviour;
using scamcheck::testing::FakeOpenAi;
using scamcheck::testing::TestHttpServer;
using scamcheck::testing::TestRequest;

double micros(Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); }

struct Summary {
  double median = 0;
  double mean = 0;
  double p99 = 0;
  double max = 0;
  std::size_t n = 0;
};

Summary summarize(std::vector<double> v) {
  Summary s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.n = v.size();
  s.median = v[v.size() / 2];
  s.mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  s.p99 = v[std::min(v.size() - 1, (v.size() * 99) / 100)];
  s.max = v.back();
  return s;
}

std::unique_ptr<scamcheck::Analyzer> make_analyzer(std::shared_ptr<scamcheck::AiProvider> p) {
  scamcheck::Options options;
  options.data_dir = scamcheck::bench::data_dir();
  options.ai_provider = std::move(p);
  auto a = scamcheck::Analyzer::create(options);
  if (!a.ok()) {
    std::fprintf(stderr, "%s\n", a.status().to_string().c_str());
    std::exit(1);
  }
  return std::move(a).value();
}

std::shared_ptr<scamcheck::AiProvider> make_provider(const std::string& url) {
  auto p = scamcheck::make_openai_provider({.url = url, .api_key = "bench", .model = "bench"});
  if (!p.ok()) {
    std::fprintf(stderr, "%s\n", p.status().to_string().c_str());
    std::exit(1);
  }
  return *p;
}

void print_row(const char* name, const Summary& s, double scale) {
  std::printf("| %s | %zu | %.3f | %.3f | %.3f | %.3f |\n", name, s.n, s.median / scale,
              s.mean / scale, s.p99 / scale, s.max / scale);
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t scans = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 3000;
  const std::vector<std::string> inputs = scamcheck::bench::sms_samples(8);

  FakeOpenAi fake;
  TestHttpServer server([&](const TestRequest& r) { return fake(r); });
  auto provider = make_provider(server.url());
  auto offline = make_analyzer(nullptr);
  auto online = make_analyzer(provider);

  // ---- 1. Overhead with a provider that answers at once ----
  for (std::size_t i = 0; i < 200; ++i) {
    (void)offline->analyze(inputs[i % inputs.size()], scamcheck::Kind::kText, "en");
    (void)online->analyze(inputs[i % inputs.size()], scamcheck::Kind::kText, "en");
  }
  std::vector<double> without;
  std::vector<double> with;
  std::vector<double> call_only;
  for (std::size_t i = 0; i < scans; ++i) {
    const std::string& text = inputs[i % inputs.size()];
    auto t0 = Clock::now();
    auto a = offline->analyze(text, scamcheck::Kind::kText, "en");
    auto t1 = Clock::now();
    auto b = online->analyze(text, scamcheck::Kind::kText, "en");
    auto t2 = Clock::now();
    if (!a.ok() || !b.ok() || b->model_used != "fake-gpt-1") {
      std::fprintf(stderr, "scan %zu failed or fell back\n", i);
      return 1;
    }
    without.push_back(micros(t1 - t0));
    with.push_back(micros(t2 - t1));
    scamcheck::AiRequest request;
    request.content = text;
    request.locale = "en";
    auto t3 = Clock::now();
    auto reply = provider->analyze(request);
    auto t4 = Clock::now();
    if (!reply.ok()) return 1;
    call_only.push_back(micros(t4 - t3));
  }
  const Summary s_without = summarize(without);
  const Summary s_with = summarize(with);
  std::printf("## Provider answering at once (local chat-completions server, keep-alive)\n\n");
  std::printf("%zu scans of %zu SMS, interleaved; times in ms.\n\n", scans, inputs.size());
  std::printf("| scan | n | median | mean | p99 | max |\n|---|---|---|---|---|---|\n");
  print_row("analyze() without provider", s_without, 1000);
  print_row("analyze() with provider", s_with, 1000);
  print_row("provider call alone (client + local server)", summarize(call_only), 1000);
  std::printf("\nOverhead per scan: median %.3f ms, mean %.3f ms (target <= 1 ms).\n\n",
              (s_with.median - s_without.median) / 1000, (s_with.mean - s_without.mean) / 1000);

  // ---- 2. A hanging provider, default timeout (8 s) and breaker (5 / 30 s) ----
  fake.behaviour = Behaviour::kHang;
  auto hanging = make_analyzer(make_provider(server.url()));
  constexpr int kThreads = 4;
  std::mutex mutex;
  std::vector<double> before;
  std::vector<double> after;
  const auto start = Clock::now();
  Clock::time_point opened{};
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t i = static_cast<std::size_t>(t); !stop; ++i) {
        const bool open = hanging->provider_stats().ai_breaker != scamcheck::BreakerState::kClosed;
        auto t0 = Clock::now();
        auto r = hanging->analyze(inputs[i % inputs.size()], scamcheck::Kind::kText, "en");
        auto t1 = Clock::now();
        if (!r.ok() || r->model_used != "heuristic-fallback") std::abort();
        std::lock_guard<std::mutex> lock(mutex);
        (open ? after : before).push_back(micros(t1 - t0));
        if (open && opened == Clock::time_point{}) opened = t0;
      }
    });
  }
  // Until the breaker has been open for 3 s.
  while (true) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::lock_guard<std::mutex> lock(mutex);
    if (opened != Clock::time_point{} && Clock::now() - opened > std::chrono::seconds(3)) break;
    if (Clock::now() - start > std::chrono::seconds(60)) break;
  }
  stop = true;
  for (std::thread& t : threads) t.join();
  const scamcheck::ProviderStats stats = hanging->provider_stats();
  std::printf("## Provider hanging (accepts, never answers); %d threads scanning\n\n", kThreads);
  std::printf("| phase | n | median | mean | p99 | max |\n|---|---|---|---|---|---|\n");
  print_row("before the breaker opens (ms)", summarize(before), 1000);
  print_row("after the breaker opened (ms)", summarize(after), 1000);
  std::printf(
      "\nProvider requests %llu, failures %llu, skipped %llu; breaker %s. Targets: p99 "
      "<= 8500 ms before, <= 50 ms after.\n",
      static_cast<unsigned long long>(stats.ai_requests),
      static_cast<unsigned long long>(stats.ai_failures),
      static_cast<unsigned long long>(stats.ai_skipped),
      std::string(scamcheck::to_string(stats.ai_breaker)).c_str());
  return 0;
}
