#include "util/text.h"

#include <doctest/doctest.h>

#include <cctype>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <set>
#include <string>
#include <vector>

using namespace scamcheck::internal;

TEST_CASE("input tokens are maximal runs of letters and digits") {
  CHECK(count_word_runs("") == 0);
  CHECK(count_word_runs("Hello, world!") == 2);
  CHECK(count_word_runs("call 0800-123 now") == 4);
  CHECK(count_word_runs("Grüße aus München") == 3);
  CHECK(count_word_runs("   ...  ") == 0);
}

TEST_CASE("word runs are counted alike however the ASCII falls into 8-byte chunks") {
  // Runs crossing chunk boundaries, every ASCII byte class, and UTF-8 words
  // and separators between ASCII stretches, against a count byte by byte.
  auto by_byte = [](const std::string& t) {
    std::int64_t runs = 0;
    bool in_run = false;
    for (std::size_t i = 0; i < t.size();) {
      const auto c = static_cast<unsigned char>(t[i]);
      bool word = std::isalnum(c) != 0;
      std::size_t len = 1;
      if (c >= 0x80) {
        len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        // The pieces below: "ü" and "é" are letters, the rest are not.
        const std::string cp = t.substr(i, len);
        word = cp == "\xC3\xBC" || cp == "\xC3\xA9";
      }
      runs += word && !in_run;
      in_run = word;
      i += len;
    }
    return runs;
  };
  const std::vector<std::string> pieces = {
      "a",       "Z",  "0",  "9",  " ",        "@",        "[",
      "`",       "{",  "_",  "/",  ":",        "\x7F",     "\t",
      "\n",      "ab", "x1", "Q ", "\xC3\xBC", "\xC3\xA9", "\xE2\x80\x94",
      "\xC2\xA0"};
  std::uint32_t seed = 12345;
  for (int round = 0; round < 2000; ++round) {
    std::string t;
    const int n = static_cast<int>(seed % 40);
    for (int i = 0; i < n; ++i) {
      seed = seed * 1664525u + 1013904223u;
      t += pieces[(seed >> 16) % pieces.size()];
    }
    seed = seed * 1664525u + 1013904223u;
    INFO(t);
    CHECK(count_word_runs(t) == by_byte(t));
  }
  CHECK(count_word_runs("abcdefgh ijklmnop") == 2);  // a run ending on a chunk's last byte
  CHECK(count_word_runs("abcdefghijklmnopq") == 1);  // one run over three chunks
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

TEST_CASE("a ULID's first ten characters are the time in milliseconds") {
  auto now_ms = [] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  };
  const std::string alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  const auto before = now_ms();
  const std::string id = new_ulid();
  const auto after = now_ms();
  std::int64_t ms = 0;
  for (char c : id.substr(0, 10)) ms = ms * 32 + static_cast<std::int64_t>(alphabet.find(c));
  CHECK(ms >= before);
  CHECK(ms <= after);
  // The random 80 bits fill the other 16 characters: over many ULIDs every
  // place takes more than one value.
  std::set<char> at[16];
  for (int i = 0; i < 200; ++i) {
    const std::string other = new_ulid();
    for (std::size_t k = 0; k < 16; ++k) at[k].insert(other[10 + k]);
  }
  for (const auto& values : at) CHECK(values.size() > 1);
}

TEST_CASE("timestamps are ISO 8601 UTC") {
  std::string t = utc_now_iso8601();
  CHECK(t.size() == 24);
  CHECK(t[10] == 'T');
  CHECK(t.back() == 'Z');
}

TEST_CASE("timestamps name the current second, also when asked again within it") {
  // The clock utc_now_iso8601 reads (std::time() reads a coarser one on
  // Linux, which can still name the last second after the other turned).
  auto now = [] { return std::chrono::system_clock::to_time_t(std::chrono::system_clock::now()); };
  for (int i = 0; i < 3; ++i) {
    const std::time_t before = now();
    const std::string t = utc_now_iso8601();
    const std::time_t after = now();
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
