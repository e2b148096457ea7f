// The span property over the fixture files (tests/fixtures/*.jsonl), plus the
// fixtures' quality targets:
// - legit_*.jsonl (legitimate messages, label ham): none is `danger` and at
//   most 5 % are `suspicious`, per file;
// - records labelled scam, in any fixture file: at least 80 % flagged
//   (verdict not safe), per file.
// E-mail records take part in the targets when they analyse (e-mail support
// may still be missing: such errors are reported, not failed); kinds text
// and url must always analyse and quote their content exactly.

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "span_check.h"

namespace {

// Same targets as scamcheck-eval (benchmarks/eval/evaluation.h).
constexpr double kLegitMaxSuspiciousFraction = 0.05;
constexpr double kScamMinFlaggedFraction = 0.80;

TEST_CASE("fixtures: every signal quotes its content, and the targets hold") {
  const auto files = scamcheck::testing::jsonl_files(SCAMCHECK_FIXTURES_DIR);
  REQUIRE_MESSAGE(!files.empty(), "no *.jsonl fixtures in " SCAMCHECK_FIXTURES_DIR);
  for (const auto& path : files) {
    const std::string name = path.filename().string();
    const auto records = scamcheck::testing::load_jsonl(path.string());
    const auto checked = scamcheck::testing::analyze_all(records);
    scamcheck::testing::check_spans(name, records, checked);

    const bool legit_file = name.rfind("legit_", 0) == 0;
    int ham = 0, ham_danger = 0, ham_suspicious = 0;
    int scam = 0, scam_flagged = 0;
    int email_errors = 0;
    std::string suspicious_ids;  // of legitimate messages, for the failure message
    for (std::size_t i = 0; i < records.size(); ++i) {
      const auto& r = records[i];
      const auto& c = checked[i];
      if (!c.ok) {
        if (r.kind == "email") ++email_errors;
        continue;  // text/url errors already failed in check_spans
      }
      if (r.label == "ham") {
        ++ham;
        if (c.verdict == scamcheck::Verdict::kDanger) {
          ++ham_danger;
          if (legit_file) FAIL_CHECK(name << " " << r.id << ": legitimate but danger");
        }
        if (c.verdict == scamcheck::Verdict::kSuspicious && ++ham_suspicious <= 10) {
          suspicious_ids += " " + r.id;
        }
      } else if (r.label == "scam") {
        ++scam;
        if (c.verdict != scamcheck::Verdict::kSafe) ++scam_flagged;
      }
    }
    if (email_errors > 0)
      MESSAGE(name << ": " << email_errors << " e-mail records failed to analyse");
    if (legit_file && ham > 0) {
      CHECK_MESSAGE(ham_danger == 0, name << ": " << ham_danger << " of " << ham << " danger");
      CHECK_MESSAGE(ham_suspicious <= kLegitMaxSuspiciousFraction * ham,
                    name << ": " << ham_suspicious << " of " << ham
                         << " suspicious (at most 5 % allowed):" << suspicious_ids);
    }
    if (scam > 0) {
      CHECK_MESSAGE(scam_flagged >= kScamMinFlaggedFraction * scam,
                    name << ": only " << scam_flagged << " of " << scam
                         << " scam records flagged (at least 80 % required)");
    }
  }
}

}  // namespace
