// Micro-benchmarks of the URL stage: link extraction from an SMS and the
// analysis of single URLs. Needs the library's private headers
// (libscamcheck/src) on the include path and the data pack (embedded).
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "data/data_source.h"
#include "extract/links.h"
#include "url/url_analyzer.h"
#include "url/url_input.h"

namespace {

using scamcheck::UrlInfo;
using scamcheck::internal::DataSource;
using scamcheck::internal::extract_links;
using scamcheck::internal::Findings;
using scamcheck::internal::LinkMatch;
using scamcheck::internal::UrlAnalyzer;

const UrlAnalyzer& analyzer() {
  static const std::unique_ptr<UrlAnalyzer> a = [] {
    auto r = UrlAnalyzer::load(DataSource(""));  // the embedded data pack
    if (!r.ok()) std::abort();
    return std::move(r.value());
  }();
  return *a;
}

const std::string kSms =
    "Ihr Paket konnte nicht zugestellt werden. Bitte bestaetigen Sie Ihre Adresse unter "
    "https://dhl-paket-zustellung.top/track?id=48213 innerhalb von 24 Stunden.";

void BM_ExtractLinksSms(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(extract_links(kSms));
}
BENCHMARK(BM_ExtractLinksSms);

void BM_ExtractLinksLongText(benchmark::State& state) {
  std::string text;
  while (text.size() < 16384) {
    text += "Hello, this is an ordinary paragraph of text without links, e.g. a note. ";
    text += "See www.example.de or https://example.com/path?q=1 for details. ";
  }
  for (auto _ : state) benchmark::DoNotOptimize(extract_links(text));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(text.size()));
}
BENCHMARK(BM_ExtractLinksLongText);

void analyze_one(benchmark::State& state, const std::string& content) {
  LinkMatch m = scamcheck::internal::link_for_url_input(content);
  const UrlAnalyzer& a = analyzer();
  for (auto _ : state) {
    Findings out;
    UrlInfo info;
    a.analyze(content, m, out, info);
    benchmark::DoNotOptimize(out);
  }
}

void BM_AnalyzePhishingUrl(benchmark::State& state) {
  analyze_one(state, "https://paypal.com.secure-login.xyz/webscr/signin?cmd=_login&email=a@b.de");
}
BENCHMARK(BM_AnalyzePhishingUrl);

void BM_AnalyzeOfficialUrl(benchmark::State& state) {
  analyze_one(state, "https://www.paypal.com/de/signin");
}
BENCHMARK(BM_AnalyzeOfficialUrl);

void BM_AnalyzeRandomDomain(benchmark::State& state) {
  analyze_one(state, "https://yytqmt.com/utzwvnsp");
}
BENCHMARK(BM_AnalyzeRandomDomain);

void BM_AnalyzeIdnLookalike(benchmark::State& state) {
  analyze_one(state, "https://xn--pypal-4ve.com/login");
}
BENCHMARK(BM_AnalyzeIdnLookalike);

// What one SMS with one link costs in this stage: extraction plus analysis.
void BM_SmsEndToEnd(benchmark::State& state) {
  const UrlAnalyzer& a = analyzer();
  for (auto _ : state) {
    Findings out;
    for (const LinkMatch& m : extract_links(kSms)) {
      UrlInfo info;
      a.analyze(kSms, m, out, info);
    }
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_SmsEndToEnd)->ThreadRange(1, 2);

}  // namespace

BENCHMARK_MAIN();
