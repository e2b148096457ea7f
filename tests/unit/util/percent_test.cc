#include "util/percent.h"

#include <doctest/doctest.h>

using scamcheck::internal::percent_decode;

TEST_CASE("percent: %XX becomes its byte, in either case") {
  CHECK(percent_decode("") == "");
  CHECK(percent_decode("plain") == "plain");
  CHECK(percent_decode("a%41%62c") == "aAbc");
  CHECK(percent_decode("https%3A%2f%2Fshop.com") == "https://shop.com");
  CHECK(percent_decode("%C3%A9") == "\xC3\xA9");
  CHECK(percent_decode("x%00y") == std::string("x\0y", 3));
  CHECK(percent_decode("%2541") == "%41");  // one level only
}

TEST_CASE("percent: a '%' without two hex digits stays") {
  CHECK(percent_decode("%") == "%");
  CHECK(percent_decode("100%") == "100%");
  CHECK(percent_decode("%4") == "%4");
  CHECK(percent_decode("%4g") == "%4g");
  CHECK(percent_decode("%%41") == "%A");
  CHECK(percent_decode("a+b") == "a+b");
}
