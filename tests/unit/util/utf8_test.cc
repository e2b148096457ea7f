#include "util/utf8.h"

#include <doctest/doctest.h>

using scamcheck::internal::append_utf8;
using scamcheck::internal::decode_utf8;
using scamcheck::internal::is_valid_utf8;
using scamcheck::internal::make_valid_utf8;

TEST_CASE("utf8: decoding well-formed characters") {
  const std::string s = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";  // a é € 😀
  CHECK(decode_utf8(s, 0).cp == U'a');
  CHECK(decode_utf8(s, 0).len == 1);
  CHECK(decode_utf8(s, 1).cp == U'\u00E9');
  CHECK(decode_utf8(s, 1).len == 2);
  CHECK(decode_utf8(s, 3).cp == U'\u20AC');
  CHECK(decode_utf8(s, 3).len == 3);
  CHECK(decode_utf8(s, 6).cp == U'\U0001F600');
  CHECK(decode_utf8(s, 6).len == 4);
  CHECK(decode_utf8(std::string_view("\0", 1), 0).cp == 0);
}

TEST_CASE("utf8: an ill-formed sequence reads as U+FFFD over its maximal subpart") {
  auto len = [](std::string_view s) { return decode_utf8(s, 0).len; };
  auto cp = [](std::string_view s) { return decode_utf8(s, 0).cp; };
  CHECK(cp("\x80") == 0xFFFD);  // lone continuation byte
  CHECK(len("\x80") == 1);
  CHECK(cp("\xFF") == 0xFFFD);
  CHECK(len("\xE2\x82z") == 2);  // truncated: both bytes, then 'z'
  CHECK(cp("\xE2\x82z") == 0xFFFD);
  CHECK(len("\xC0\xAF") == 1);          // overlong: each byte on its own
  CHECK(len("\xED\xA0\x80") == 1);      // surrogate
  CHECK(len("\xF4\x90\x80\x80") == 1);  // above U+10FFFF
  CHECK(len("\xF0\x9F\x98") == 3);      // truncated at the end
  CHECK(cp("\xEF\xBF\xBD") == 0xFFFD);  // a real U+FFFD
  CHECK(len("\xEF\xBF\xBD") == 3);
}

TEST_CASE("utf8: validation and repair") {
  CHECK(is_valid_utf8("hello"));
  CHECK(is_valid_utf8("Grüße 😀"));
  CHECK_FALSE(is_valid_utf8("\xFF\xFE"));
  CHECK_FALSE(is_valid_utf8("\xED\xA0\x80"));  // surrogate
  CHECK(is_valid_utf8("Gr\xC3\xBC\xC3\x9F\x65"));
  CHECK_FALSE(is_valid_utf8("\xC3"));
  CHECK(make_valid_utf8("ok \xEF\xBF\xBD") == "ok \xEF\xBF\xBD");
  CHECK(make_valid_utf8("\xE2\x82z\xFF") == "\xEF\xBF\xBDz\xEF\xBF\xBD");
  CHECK(make_valid_utf8("\xF0\x9F\x98") == "\xEF\xBF\xBD");
  for (int b = 0; b < 256; ++b) {
    CHECK(is_valid_utf8(make_valid_utf8(std::string(1, static_cast<char>(b)) + "\x80\xBF")));
  }
}

TEST_CASE("utf8: appending code points") {
  std::string out;
  for (char32_t cp : {U'a', U'\u00E9', U'\u20AC', U'\U0001F600'}) append_utf8(out, cp);
  CHECK(out == "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
}
