// The span property over the public corpora: for every text and url record
// of ../shared/corpus/*/dev.jsonl, analyze() succeeds and every signal's
// evidence is exactly the content at its span (CONTRACT §1). E-mail records
// are left out here: their signals point into decoded parts, not `content`.
// Reported skipped (SCAMCHECK_SKIP) when the corpus is absent, failed when
// CI is set (support/skip.h).

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#include "../support/skip.h"
#include "span_check.h"

namespace {

std::string corpus_dir() {
  if (const char* env = std::getenv("SCAMCHECK_CORPUS_DIR"); env != nullptr && *env != '\0') {
    return env;
  }
  return SCAMCHECK_CORPUS_DIR;
}

TEST_CASE("every signal in the dev corpora quotes its content") {
  const std::string dir = corpus_dir();
  if (!std::filesystem::is_directory(dir)) {
    scamcheck::testing::skip_case("corpus not found: " + dir);
    return;
  }
  const auto files = scamcheck::testing::jsonl_files(dir, "dev.jsonl");
  REQUIRE_MESSAGE(!files.empty(), "no <corpus>/dev.jsonl under " << dir);
  for (const auto& path : files) {
    const std::string name = path.parent_path().filename().string();
    auto records = scamcheck::testing::load_jsonl(path.string());
    if (records.empty()) continue;
    const auto checked = scamcheck::testing::analyze_all(records);
    scamcheck::testing::check_spans(name, records, checked);
  }
}

}  // namespace
