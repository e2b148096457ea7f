// Unit tests of adapters/common (the Report -> JSON mapping, base64, the
// status tables) and the CLI's terminal-safe text. No Analyzer needed.
#include <doctest/doctest.h>
#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "cli/text_report.h"
#include "common/base64.h"
#include "common/report_json.h"
#include "common/status_map.h"

namespace {

using namespace scamcheck;
using namespace scamcheck::adapters;

Report sample_report() {
  Report r;
  r.id = "rpt_01J0000000000000000000000";
  r.kind = Kind::kEmail;
  r.locale = "de";
  r.verdict = Verdict::kDanger;
  r.risk_score = 91;
  r.confidence = 87;
  r.risk_text = "Gefährlich";
  r.summary_plain = "Sehr wahrscheinlich Betrug. \"Zitat\" \\ und\nZeilenumbruch\t\x01.";
  r.actions = {{"\xF0\x9F\x94\x92", "Keine Passwörter eingeben."}};
  Signal s;
  s.key = "credential_request";
  s.severity = Severity::kHigh;
  s.evidence = "confirm your password";
  s.location = "header:Subject";
  s.span = {112, 133};
  s.explanation = "Fragt nach dem Passwort.";
  r.signals = {s};
  r.urls = {{"http://xn--pypal-4ve.example/", "xn--pypal-4ve.example", "xn--pypal-4ve.example",
             Reputation::kMalicious, true}};
  r.input_tokens = 42;
  r.output_tokens = 0;
  r.created_at = "2026-01-02T03:04:05.678Z";
  return r;
}

}  // namespace

TEST_CASE("report_to_json writes every contract field, in order, and no risk_text") {
  const Report report = sample_report();
  const std::string json = report_to_json(report);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  REQUIRE(parser.parse(json).get(doc) == simdjson::SUCCESS);

  std::vector<std::string> keys;
  for (auto field : doc.get_object()) keys.emplace_back(field.key);
  const std::vector<std::string> expected = {
      "id",         "kind",          "locale",        "verdict",   "risk_score",
      "confidence", "summary_plain", "actions",       "signals",   "urls",
      "model_used", "input_tokens",  "output_tokens", "created_at"};
  CHECK(keys == expected);

  CHECK(std::string_view(doc["kind"]) == "email");
  CHECK(std::string_view(doc["verdict"]) == "danger");
  CHECK(int64_t(doc["risk_score"]) == 91);
  CHECK(int64_t(doc["confidence"]) == 87);
  CHECK(std::string_view(doc["summary_plain"]) == report.summary_plain);
  CHECK(std::string_view(doc["actions"].at(0)["icon"]) == "\xF0\x9F\x94\x92");
  const auto signal = doc["signals"].at(0);
  CHECK(std::string_view(signal["key"]) == "credential_request");
  CHECK(std::string_view(signal["severity"]) == "high");
  CHECK(std::string_view(signal["evidence"]) == "confirm your password");
  CHECK(std::string_view(signal["location"]) == "header:Subject");
  CHECK(uint64_t(signal["span"]["start"]) == 112);
  CHECK(uint64_t(signal["span"]["end"]) == 133);
  CHECK(std::string_view(signal["explanation"]) == "Fragt nach dem Passwort.");
  const auto url = doc["urls"].at(0);
  CHECK(std::string_view(url["host"]) == "xn--pypal-4ve.example");
  CHECK(std::string_view(url["registrable_domain"]) == "xn--pypal-4ve.example");
  CHECK(std::string_view(url["reputation"]) == "malicious");
  CHECK(bool(url["cached"]));
  CHECK(std::string_view(doc["model_used"]) == "heuristic-fallback");
  CHECK(int64_t(doc["input_tokens"]) == 42);
  CHECK(std::string_view(doc["created_at"]) == "2026-01-02T03:04:05.678Z");
  CHECK(doc["risk_text"].error() == simdjson::NO_SUCH_FIELD);
  CHECK(doc["extracted_text"].error() == simdjson::NO_SUCH_FIELD);
}

TEST_CASE("extracted_text is written only when present; pretty JSON parses the same") {
  Report report = sample_report();
  report.extracted_text = "Scan mich\nhttps://example.top";
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  const std::string pretty = report_to_pretty_json(report);
  CHECK(pretty.find("\n  \"id\"") != std::string::npos);
  REQUIRE(parser.parse(pretty).get(doc) == simdjson::SUCCESS);
  CHECK(std::string_view(doc["extracted_text"]) == *report.extracted_text);
  CHECK(simdjson::minify(doc) == report_to_json(report));
}

TEST_CASE("strings with invalid UTF-8 still give valid JSON (U+FFFD)") {
  Report report = sample_report();
  report.signals[0].evidence = "ab\xFF\xC3(\xED\xA0\x80z\xF0\x9F\x94";
  const std::string json = report_to_json(report);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  REQUIRE(parser.parse(json).get(doc) == simdjson::SUCCESS);
  // One U+FFFD per maximal subpart: FF; C3 (cut short by "("); ED, A0 and
  // 80 (ED A0 would start a surrogate, so A0 ends the subpart); the
  // truncated F0 9F 94.
  CHECK(std::string_view(doc["signals"].at(0)["evidence"]) ==
        "ab\uFFFD\uFFFD(\uFFFD\uFFFD\uFFFDz\uFFFD");
  CHECK(is_valid_utf8("plain ascii, Grüße, \xF0\x9F\x98\x80"));
  CHECK_FALSE(is_valid_utf8("\xC0\xAF"));          // overlong
  CHECK_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));  // above U+10FFFF
  CHECK_FALSE(is_valid_utf8("12345678\x80"));      // after the ASCII fast path
}

TEST_CASE("every string is written byte for byte as RapidJSON's String() writes it") {
  // Plain ASCII strings take a fast path (a raw value); the rest RapidJSON's
  // escaping. Both must give the same bytes, as keys and as values, in
  // compact and pretty output.
  std::string all_bytes;
  for (int c = 1; c < 0x80; ++c) all_bytes.push_back(static_cast<char>(c));
  const std::string samples[] = {"",
                                 "plain text, 100% ASCII: ok/fine",
                                 all_bytes,
                                 "tab\tin",
                                 "quote \" and \\",
                                 "Grüße \xF0\x9F\x98\x80",
                                 "\x7F"};
  for (const std::string& text : samples) {
    rapidjson::StringBuffer expected_buffer, actual_buffer;
    JsonWriter expected(expected_buffer), actual(actual_buffer);
    expected.StartObject();
    expected.Key(text.data(), static_cast<rapidjson::SizeType>(text.size()));
    expected.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
    expected.EndObject();
    actual.StartObject();
    write_json_key(actual, text);
    write_json_string(actual, text);
    actual.EndObject();
    CHECK(std::string(actual_buffer.GetString()) == expected_buffer.GetString());

    rapidjson::StringBuffer pretty_expected_buffer, pretty_actual_buffer;
    PrettyJsonWriter pretty_expected(pretty_expected_buffer), pretty_actual(pretty_actual_buffer);
    pretty_expected.StartArray();
    pretty_expected.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
    pretty_expected.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
    pretty_expected.EndArray();
    pretty_actual.StartArray();
    write_json_string(pretty_actual, text);
    write_json_string(pretty_actual, text);
    pretty_actual.EndArray();
    CHECK(std::string(pretty_actual_buffer.GetString()) == pretty_expected_buffer.GetString());
  }
}

TEST_CASE("error_to_json") {
  CHECK(error_to_json("bad \"input\"\n") == R"({"error":{"message":"bad \"input\"\n"}})");
}

TEST_CASE("decode_base64") {
  std::string out;
  CHECK(decode_base64("aGVsbG8gd29ybGQ=", &out));
  CHECK(out == "hello world");
  CHECK(decode_base64("aGVsbG8gd29ybGQ", &out));  // padding optional
  CHECK(out == "hello world");
  CHECK(decode_base64("aGVs\r\nbG8=", &out));  // MIME line breaks
  CHECK(out == "hello");
  CHECK(decode_base64("-_8=", &out));  // URL-safe alphabet
  CHECK(out == "\xFB\xFF");
  CHECK(decode_base64("", &out));
  CHECK(out.empty());
  CHECK_FALSE(decode_base64("a", &out));
  CHECK_FALSE(decode_base64("ab=c", &out));
  CHECK_FALSE(decode_base64("ab!c", &out));
  CHECK_FALSE(decode_base64("abc==", &out));
  CHECK_FALSE(decode_base64("QUJD=", &out));  // padding after a whole group
  CHECK_FALSE(decode_base64("=", &out));
  CHECK_FALSE(decode_base64("QQ=A", &out));  // data after padding
  CHECK(decode_base64(" QQ = = \n", &out));
  CHECK(out == "A");
}

TEST_CASE("decode_base64 reads back every length and byte, with line breaks anywhere") {
  constexpr std::string_view kDigits =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::uint32_t seed = 7;
  auto next = [&seed] { return seed = seed * 1664525u + 1013904223u; };
  std::string bytes, encoded, out;
  for (std::size_t n = 0; n < 300; ++n) {
    bytes.clear();
    for (std::size_t i = 0; i < n; ++i) bytes.push_back(static_cast<char>(next() >> 24));
    encoded.clear();
    for (std::size_t i = 0; i < n; i += 3) {
      std::uint32_t group = static_cast<unsigned char>(bytes[i]) << 16;
      if (i + 1 < n) group |= static_cast<unsigned char>(bytes[i + 1]) << 8;
      if (i + 2 < n) group |= static_cast<unsigned char>(bytes[i + 2]);
      const std::size_t chars = std::min<std::size_t>(n - i, 3) + 1;
      for (std::size_t k = 0; k < 4; ++k) {
        encoded.push_back(k < chars ? kDigits[group >> (18 - 6 * k) & 63] : '=');
        if (next() % 16 == 0) encoded += "\r\n";
      }
    }
    REQUIRE(decode_base64(encoded, &out));
    CHECK(out == bytes);
  }
}

TEST_CASE("exit codes and HTTP statuses") {
  CHECK(exit_code_for(Verdict::kSafe) == 0);
  CHECK(exit_code_for(Verdict::kSuspicious) == 1);
  CHECK(exit_code_for(Verdict::kDanger) == 2);
  CHECK(exit_code_for(StatusCode::kInvalidArgument) == 65);
  CHECK(exit_code_for(StatusCode::kOutOfRange) == 65);
  CHECK(exit_code_for(StatusCode::kNotFound) == 66);
  CHECK(exit_code_for(StatusCode::kInternal) == 70);
  CHECK(http_status_for(StatusCode::kInvalidArgument) == 422);
  CHECK(http_status_for(StatusCode::kOutOfRange) == 413);
  CHECK(http_status_for(StatusCode::kResourceExhausted) == 429);
  CHECK(http_status_for(StatusCode::kInternal) == 500);
}

TEST_CASE("terminal_safe neutralises control and bidi characters") {
  using scamcheck::cli::terminal_safe;
  CHECK(terminal_safe("plain Grüße") == "plain Grüße");
  CHECK(terminal_safe("a\nb\tc\x1b[31m") == "a\\nb\\tc\\x1b[31m");
  CHECK(terminal_safe("pay\xE2\x80\xAEmoc.evil") == "pay<U+202E>moc.evil");
  CHECK(terminal_safe("\xC2\x9B"
                      "2J") == "<U+009B>2J");
  CHECK(terminal_safe("bad\xFF") == "bad\uFFFD");
}

TEST_CASE("render_text_report: verdict line, signals, actions; colour only on request") {
  const Report report = sample_report();
  const std::string plain = scamcheck::cli::render_text_report(report, false);
  CHECK(plain.rfind("DANGER  Gefährlich\n", 0) == 0);
  CHECK(plain.find("[high] credential_request") != std::string::npos);
  CHECK(plain.find("\"confirm your password\"") != std::string::npos);
  CHECK(plain.find("Zeilenumbruch") != std::string::npos);
  CHECK(plain.find('\x1b') == std::string::npos);
  const std::string colored = scamcheck::cli::render_text_report(report, true);
  CHECK(colored.find("\x1b[31m") != std::string::npos);
}
