// Uses the installed libscamcheck: analyzes a message with the embedded data
// pack and, when given one, with a data directory. Exits 0 when every signal's
// evidence is the exact text at its span.
#include <scamcheck/scamcheck.h>

#include <cstdio>
#include <string>
#include <string_view>

namespace {

int check(const scamcheck::Options& options, const char* what) {
  auto analyzer = scamcheck::Analyzer::create(options);
  if (!analyzer.ok()) {
    std::fprintf(stderr, "consumer (%s): create: %s\n", what,
                 analyzer.status().to_string().c_str());
    return 1;
  }
  constexpr std::string_view kMessage =
      "URGENT: your account is suspended. Confirm your password now at "
      "http://secure-login.example.top/verify";
  auto report = (*analyzer)->analyze(kMessage, scamcheck::Kind::kText, "en");
  if (!report.ok()) {
    std::fprintf(stderr, "consumer (%s): analyze: %s\n", what, report.status().to_string().c_str());
    return 1;
  }
  for (const scamcheck::Signal& s : report->signals) {
    if (s.span.end > kMessage.size() || s.span.start >= s.span.end ||
        kMessage.substr(s.span.start, s.span.end - s.span.start) != s.evidence) {
      std::fprintf(stderr, "consumer (%s): signal %s has a bad span\n", what, s.key.c_str());
      return 1;
    }
  }
  std::printf("consumer (%s): scamcheck %s: %s %d, %zu signals\n", what, SCAMCHECK_VERSION_STRING,
              std::string(scamcheck::to_string(report->verdict)).c_str(), report->risk_score,
              report->signals.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int failures = check(scamcheck::Options{}, "embedded data");
  const char* data_dir = argc > 1 ? argv[1] : nullptr;
#ifdef CONSUMER_DATA_DIR
  if (data_dir == nullptr) data_dir = CONSUMER_DATA_DIR;
#endif
  if (data_dir != nullptr) {
    scamcheck::Options options;
    options.data_dir = data_dir;
    failures += check(options, "installed data");
  }
  return failures == 0 ? 0 : 1;
}
