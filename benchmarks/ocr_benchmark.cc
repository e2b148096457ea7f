// Kind image end to end on one thread: Analyzer::analyze() of a 1080x2340
// phone screenshot (OCR with one warm Tesseract engine, QR decoding, text
// analysis), and QR decoding alone (Analyzer::analyze_qr_codes). The images
// come from tests/fixtures/images/make_images.py; SCAMCHECK_IMAGE_FIXTURES
// names its output directory. For a one-core figure run it pinned:
//   OMP_THREAD_LIMIT=1 taskset -c 0 ocr_benchmark --benchmark_repetitions=5
// (benchmarks/ocr_eval.sh does, and adds recall, accuracy and memory).

#include <benchmark/benchmark.h>
#include <scamcheck/scamcheck.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

namespace {

std::string fixture(const std::string& name) {
  const char* dir = std::getenv("SCAMCHECK_IMAGE_FIXTURES");
  std::ifstream in(std::string(dir && *dir ? dir : "image_fixtures") + "/" + name,
                   std::ios::binary);
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

const scamcheck::Analyzer* analyzer() {
  static const std::unique_ptr<scamcheck::Analyzer> instance = [] {
    auto created = scamcheck::Analyzer::create(scamcheck::Options{.ocr_engines = 1});
    return created.ok() ? std::move(created).value() : nullptr;
  }();
  return instance.get();
}

void run_image(benchmark::State& state, const std::string& name) {
  const std::string bytes = fixture(name);
  const scamcheck::Analyzer* a = analyzer();
  if (bytes.empty() || a == nullptr || !a->ocr_status().ok()) {
    state.SkipWithError("no fixture image or no OCR (set SCAMCHECK_IMAGE_FIXTURES)");
    return;
  }
  (void)a->analyze(bytes, scamcheck::Kind::kImage, "en");  // loads the engine once
  for (auto _ : state) {
    auto report = a->analyze(bytes, scamcheck::Kind::kImage, "en");
    if (!report.ok()) {
      state.SkipWithError(report.status().to_string().c_str());
      return;
    }
    benchmark::DoNotOptimize(report->risk_score);
  }
}

void BM_AnalyzeScreenshotChat(benchmark::State& state) {
  run_image(state, "screenshots/en_giftcards_chat.png");
}
void BM_AnalyzeScreenshotDarkPlain(benchmark::State& state) {
  run_image(state, "screenshots/de_sparkasse_pushtan.png");
}
void BM_AnalyzeScreenshotWithQr(benchmark::State& state) {
  run_image(state, "qr/qr_parking_fine.png");
}

void BM_QrCodesOnly(benchmark::State& state) {
  const std::string bytes = fixture("qr/qr_parking_fine.png");
  const scamcheck::Analyzer* a = analyzer();
  if (bytes.empty() || a == nullptr) {
    state.SkipWithError("no fixture image (set SCAMCHECK_IMAGE_FIXTURES)");
    return;
  }
  for (auto _ : state) {
    auto reports = a->analyze_qr_codes(bytes, "en");
    benchmark::DoNotOptimize(reports.ok());
  }
}

BENCHMARK(BM_AnalyzeScreenshotChat)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AnalyzeScreenshotDarkPlain)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AnalyzeScreenshotWithQr)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_QrCodesOnly)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
