// The data pack's UrlAnalyzer and EmailDetector, loaded once per test
// program and shared by the test files that run whole mails through them.
#ifndef SCAMCHECK_TESTS_UNIT_EMAIL_LOADED_DETECTOR_H_
#define SCAMCHECK_TESTS_UNIT_EMAIL_LOADED_DETECTOR_H_

#include <doctest/doctest.h>

#include <string_view>

#include "data/data_source.h"
#include "email/email_detector.h"
#include "url/url_analyzer.h"

namespace scamcheck::internal::testing {

inline const UrlAnalyzer& loaded_urls() {
  static const auto loaded = UrlAnalyzer::load(DataSource(SCAMCHECK_DATA_DIR));
  REQUIRE(loaded.ok());
  return **loaded;
}

// Every sender domain is taken as registered (no DNS in unit tests).
inline const EmailDetector& loaded_detector() {
  static const auto loaded = EmailDetector::load(DataSource(SCAMCHECK_DATA_DIR), loaded_urls(),
                                                 [](std::string_view) { return true; });
  REQUIRE_MESSAGE(loaded.ok(), loaded.status().message());
  return **loaded;
}

}  // namespace scamcheck::internal::testing

#endif  // SCAMCHECK_TESTS_UNIT_EMAIL_LOADED_DETECTOR_H_
