// Shared by the URL stage's tests: one loaded UrlAnalyzer, and a record of
// the findings of one link (first evidence and strength per key) after the
// span invariants are checked.
#ifndef SCAMCHECK_TESTS_UNIT_URL_URL_TEST_SUPPORT_H_
#define SCAMCHECK_TESTS_UNIT_URL_URL_TEST_SUPPORT_H_

#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "data/data_source.h"
#include "url/url_analyzer.h"

namespace scamcheck::internal::testing {

inline const UrlAnalyzer& url_analyzer() {
  static const std::unique_ptr<UrlAnalyzer> a = [] {
    auto loaded = UrlAnalyzer::load(DataSource(SCAMCHECK_DATA_DIR));
    REQUIRE_MESSAGE(loaded.ok(), loaded.status().to_string());
    return std::move(loaded.value());
  }();
  return *a;
}

struct Outcome {
  std::map<std::string, std::string> evidence;  // key -> text.substr(span)
  std::map<std::string, double> strength;
  std::vector<UrlInfo> infos;
  bool has(const std::string& key) const { return evidence.count(key) > 0; }
};

// Analyzes `link` of `text` into `o`; every finding must lie inside the link,
// be non-empty and have a positive strength.
inline void analyze_link(const std::string& text, const LinkMatch& link, Outcome& o) {
  Findings fs;
  UrlInfo info;
  url_analyzer().analyze(text, link, fs, info);
  o.infos.push_back(info);
  for (const Finding& f : fs) {
    CHECK_MESSAGE(f.start < f.end, f.key);
    CHECK_MESSAGE(f.start >= link.start, f.key);
    CHECK_MESSAGE(f.end <= link.end, f.key);
    CHECK(f.location == "content");
    CHECK(f.strength > 0);
    if (!o.evidence.count(f.key)) {
      o.evidence[f.key] = text.substr(f.start, f.end - f.start);
      o.strength[f.key] = f.strength;
    }
  }
}

}  // namespace scamcheck::internal::testing

#endif  // SCAMCHECK_TESTS_UNIT_URL_URL_TEST_SUPPORT_H_
