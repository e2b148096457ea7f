#include "providers/request_json.h"

#include <doctest/doctest.h>
#include <simdjson.h>

using scamcheck::internal::json_text;
using scamcheck::internal::JsonWriter;
using scamcheck::internal::write_string;

namespace {

std::string json_quoted(std::string_view s) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  write_string(w, s);
  return json_text(buffer);
}

// What a JSON parser reads back from the literal.
std::string read_back(const std::string& literal) {
  simdjson::dom::parser parser;
  std::string_view value;
  REQUIRE_FALSE(parser.parse(literal).get(value));
  return std::string(value);
}

}  // namespace

TEST_CASE("json strings: quotes, backslashes and control characters are escaped") {
  CHECK(json_quoted("plain") == "\"plain\"");
  CHECK(json_quoted("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(json_quoted("line\nnext\ttab\rret") == "\"line\\nnext\\ttab\\rret\"");
  CHECK(json_quoted(std::string("\x01\x1f\b\f", 4)) == "\"\\u0001\\u001F\\b\\f\"");
  CHECK(json_quoted(std::string("nul\0byte", 8)) == "\"nul\\u0000byte\"");
  CHECK(json_quoted("</script>") == "\"</script>\"");
}

TEST_CASE("json strings: valid UTF-8 is kept, invalid bytes become U+FFFD") {
  CHECK(json_quoted("Gr\xC3\xBC\xC3\x9F\x65 \xE2\x82\xAC \xF0\x9F\x98\x80") ==
        "\"Gr\xC3\xBC\xC3\x9F\x65 \xE2\x82\xAC \xF0\x9F\x98\x80\"");
  CHECK(json_quoted("a\xFFz") == "\"a\xEF\xBF\xBDz\"");
  CHECK(json_quoted("\xC3") == "\"\xEF\xBF\xBD\"");                  // truncated sequence
  CHECK(json_quoted("\xC0\xAF") == "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");  // overlong
  CHECK(json_quoted("\xED\xA0\x80") == "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");  // surrogate
  CHECK(json_quoted("\xF4\x90\x80\x80").find("\xEF\xBF\xBD") != std::string::npos);  // > U+10FFFF
}

TEST_CASE("json strings: every byte string round-trips through a parser") {
  std::string all;
  for (int c = 0; c < 128; ++c) all.push_back(static_cast<char>(c));
  all += "\xC3\xA4\xE2\x82\xAC\xF0\x9F\x98\x80";
  CHECK(read_back(json_quoted(all)) == all);
  CHECK(read_back(json_quoted("x\xFF\xFEy")) == "x\xEF\xBF\xBD\xEF\xBF\xBDy");
  for (int c = 0x80; c < 0x100; ++c) {
    const std::string lone(1, static_cast<char>(c));
    CHECK(read_back(json_quoted("a" + lone + "b")) ==
          "a\xEF\xBF\xBD"
          "b");
  }
}
