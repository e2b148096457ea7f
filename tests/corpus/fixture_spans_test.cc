// The span property over the fixture files (tests/fixtures/*.jsonl), plus the
// fixtures' quality targets:
// - legit_*.jsonl (legitimate messages, label ham): none is `danger` and at
//   most 5 % are `suspicious`, per file;
// - records labelled scam, in any fixture file: at least 80 % flagged
//   (verdict not safe), per file.
// Every record must analyse and quote the text of its location exactly.
// The .eml fixtures (tests/fixtures/email/{legit,scam}) get the span check,
// no legitimate one may be danger and at least 80 % of the scams must be
// flagged; their suspicious rate is reported (its 5 % target belongs to the
// email tuning still to come).

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
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

std::vector<scamcheck::testing::Record> load_emails(const std::filesystem::path& dir,
                                                    const std::string& label) {
  std::vector<scamcheck::testing::Record> records;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() != ".eml") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    records.push_back({entry.path().filename().string(), label, "email", bytes.str()});
  }
  return records;
}

TEST_CASE("email fixtures: every signal quotes its decoded text") {
  const std::filesystem::path dir = std::filesystem::path(SCAMCHECK_FIXTURES_DIR) / "email";
  for (const std::string label : {"legit", "scam"}) {
    const auto records = load_emails(dir / label, label == "legit" ? "ham" : "scam");
    REQUIRE_MESSAGE(!records.empty(), "no .eml fixtures in " << (dir / label).string());
    const auto checked = scamcheck::testing::analyze_all(records);
    scamcheck::testing::check_spans("email/" + label, records, checked);
    int danger = 0, suspicious = 0, flagged = 0;
    for (std::size_t i = 0; i < records.size(); ++i) {
      if (!checked[i].ok) continue;
      const auto v = checked[i].verdict;
      danger += v == scamcheck::Verdict::kDanger;
      suspicious += v == scamcheck::Verdict::kSuspicious;
      flagged += v != scamcheck::Verdict::kSafe;
      if (label == "legit" && v == scamcheck::Verdict::kDanger) {
        FAIL_CHECK("email/legit/" << records[i].id << ": legitimate but danger");
      }
    }
    const auto n = static_cast<double>(records.size());
    MESSAGE("email/" << label << ": " << records.size() << " messages, " << danger << " danger, "
                     << suspicious << " suspicious");
    if (label == "scam") CHECK(flagged >= kScamMinFlaggedFraction * n);
  }
}

}  // namespace
