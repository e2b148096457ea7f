// Skipping a doctest case that cannot run here (a corpus, a tool or the OCR
// models missing): it prints the marker CTest reads (SCAMCHECK_SKIP:, the
// test's SKIP_REGULAR_EXPRESSION), unless the environment variable CI is
// set: then the case fails, since CI has every tool and the corpora.
// Only cases registered with scamcheck_skippable_cases() (tests/CMakeLists.txt)
// may skip: each is its own CTest test, so a skip means exactly "this case
// could not run", and a marker from a case that failed is void.
#ifndef SCAMCHECK_TESTS_SUPPORT_SKIP_H_
#define SCAMCHECK_TESTS_SUPPORT_SKIP_H_

#include <doctest/doctest.h>

#include <cstdlib>
#include <iostream>
#include <string>

namespace scamcheck::testing {

inline bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && *ci != '\0';
}

// Reports the running case skipped for `reason`, or fails it in CI. The
// caller returns from the case afterwards.
inline void skip_case(const std::string& reason) {
  if (in_ci()) FAIL("CI is set, so this is a failure, not a skip: " << reason);
  std::cout << "SCAMCHECK_SKIP: " << reason << "\n";
}

}  // namespace scamcheck::testing

#endif  // SCAMCHECK_TESTS_SUPPORT_SKIP_H_
