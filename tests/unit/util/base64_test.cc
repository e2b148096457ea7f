#include "util/base64.h"

#include <doctest/doctest.h>

using scamcheck::internal::base64_decode;

TEST_CASE("base64: both alphabets, with or without padding") {
  CHECK(base64_decode("") == "");
  CHECK(base64_decode("aHR0cHM6Ly9leGFtcGxlLm9yZy8=") == "https://example.org/");
  CHECK(base64_decode("aHR0cHM6Ly9leGFtcGxlLm9yZy8") == "https://example.org/");
  CHECK(base64_decode("-_8") == "\xFB\xFF");
  CHECK(base64_decode("+/8=") == "\xFB\xFF");
  CHECK(base64_decode("QQ") == "A");
}

TEST_CASE("base64: other characters or a stray last character are no encoding") {
  CHECK_FALSE(base64_decode("aGk*").has_value());
  CHECK_FALSE(base64_decode("aGk gaGk").has_value());
  CHECK_FALSE(base64_decode("aGkaG").has_value());
}
