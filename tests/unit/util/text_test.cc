#include "util/text.h"

#include <doctest/doctest.h>

#include <cctype>
#include <ctime>
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

TEST_CASE("a ULID after a prefix is the prefix and 26 Crockford base32 characters") {
  const std::string id = new_ulid("rpt_");
  REQUIRE(id.size() == 30);
  CHECK(id.substr(0, 4) == "rpt_");
  CHECK(id.find_first_not_of("0123456789ABCDEFGHJKMNPQRSTVWXYZ", 4) == std::string::npos);
  CHECK(new_ulid("rpt_").substr(4, 10) >= id.substr(4, 10));  // the time comes first
}

TEST_CASE("timestamps are ISO 8601 UTC") {
  std::string t = utc_now_iso8601();
  CHECK(t.size() == 24);
  CHECK(t[10] == 'T');
  CHECK(t.back() == 'Z');
}

TEST_CASE("timestamps name the current second, also when asked again within it") {
  for (int i = 0; i < 3; ++i) {
    const std::time_t before = std::time(nullptr);
    const std::string t = utc_now_iso8601();
    const std::time_t after = std::time(nullptr);
    char expect_before[32], expect_after[32];
    std::tm tm{};
    gmtime_r(&before, &tm);
    std::strftime(expect_before, sizeof expect_before, "%Y-%m-%dT%H:%M:%S", &tm);
    gmtime_r(&after, &tm);
    std::strftime(expect_after, sizeof expect_after, "%Y-%m-%dT%H:%M:%S", &tm);
    const std::string second = t.substr(0, 19);
    CHECK((second == expect_before || second == expect_after));
    CHECK(t[19] == '.');
    CHECK(std::isdigit(static_cast<unsigned char>(t[20])));
    CHECK(std::isdigit(static_cast<unsigned char>(t[22])));
  }
}
