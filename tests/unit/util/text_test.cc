#include "util/text.h"

#include <doctest/doctest.h>

#include <set>

using namespace scamcheck::internal;

TEST_CASE("input tokens are maximal runs of letters and digits") {
  CHECK(count_word_runs("") == 0);
  CHECK(count_word_runs("Hello, world!") == 2);
  CHECK(count_word_runs("call 0800-123 now") == 4);
  CHECK(count_word_runs("Grüße aus München") == 3);
  CHECK(count_word_runs("   ...  ") == 0);
}

TEST_CASE("ULIDs are 26 Crockford base32 characters and unique") {
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    std::string id = new_ulid();
    REQUIRE(id.size() == 26);
    CHECK(id.find_first_not_of("0123456789ABCDEFGHJKMNPQRSTVWXYZ") == std::string::npos);
    seen.insert(id);
  }
  CHECK(seen.size() == 1000);
}

TEST_CASE("timestamps are ISO 8601 UTC") {
  std::string t = utc_now_iso8601();
  CHECK(t.size() == 24);
  CHECK(t[10] == 'T');
  CHECK(t.back() == 'Z');
}
