// Checks one message given on the command line with the C++ API and prints
// the verdict and every signal with the words that triggered it.
//
//   example_cpp_check "Your parcel is on hold. Pay 1.99 EUR at https://dhl.example.top"
#include <cstdio>

#include "scamcheck/scamcheck.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s MESSAGE\n", argv[0]);
    return 64;
  }
  // Create the analyzer once (it loads the data pack) and reuse it: it is
  // immutable and may be shared by many threads.
  auto analyzer = scamcheck::Analyzer::create();
  if (!analyzer.ok()) {
    std::fprintf(stderr, "%s\n", analyzer.status().to_string().c_str());
    return 70;
  }
  auto report = (*analyzer)->analyze(argv[1], scamcheck::Kind::kText, "en");
  if (!report.ok()) {  // empty text, invalid UTF-8, over 64 KiB
    std::fprintf(stderr, "%s\n", report.status().to_string().c_str());
    return 65;
  }
  std::printf("%s (risk %d, confidence %d)\n%s\n", to_string(report->verdict).data(),
              report->risk_score, report->confidence, report->summary_plain.c_str());
  for (const scamcheck::Signal& signal : report->signals) {
    std::printf("- %s: \"%s\" at %zu-%zu\n", signal.key.c_str(), signal.evidence.c_str(),
                signal.span.start, signal.span.end);
  }
  return 0;
}
