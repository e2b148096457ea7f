#include "providers/openai_provider.h"

#include <doctest/doctest.h>
#include <simdjson.h>

#include "../../support/fake_providers.h"

using namespace scamcheck;
using namespace scamcheck::internal;
using scamcheck::testing::ai_report_json;
using scamcheck::testing::chat_reply;

TEST_CASE("chat completions URL from the configured base") {
  CHECK(chat_completions_url("https://api.example.com") ==
        "https://api.example.com/v1/chat/completions");
  CHECK(chat_completions_url("https://api.example.com/v1/") ==
        "https://api.example.com/v1/chat/completions");
  CHECK(chat_completions_url("http://h:1/openai/v1/chat/completions") ==
        "http://h:1/openai/v1/chat/completions");
}

TEST_CASE("the request is valid JSON with the content, kind, locale, signals and schema") {
  AiRequest request;
  const std::string content = "Say \"hi\"\n\\ to \xC3\xA4 and \x01 bye";
  request.content = content;
  request.kind = Kind::kEmail;
  request.locale = "de";
  request.heuristic_verdict = Verdict::kSuspicious;
  request.heuristic_score = 42;
  request.heuristic_signals.push_back(AiSignal{"urgency", Severity::kMedium, "now \"quick\""});
  request.signal_keys = {"urgency", "credential_request"};
  const std::string body = build_chat_request(request, "m-1");

  std::string echoed;
  REQUIRE(scamcheck::testing::FakeOpenAi::read_user_content(body, echoed));
  CHECK(echoed == content);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  REQUIRE_FALSE(parser.parse(body).get(doc));
  std::string_view user;
  REQUIRE_FALSE(doc["messages"].at(1)["content"].get(user));
  simdjson::dom::parser inner;
  simdjson::dom::element msg;
  REQUIRE_FALSE(inner.parse(std::string(user)).get(msg));
  CHECK(std::string_view(msg["kind"]) == "email");
  CHECK(std::string_view(msg["locale"]) == "de");
  CHECK(int64_t(msg["heuristic"]["score"]) == 42);
  CHECK(std::string_view(msg["heuristic"]["signals"].at(0)["evidence"]) == "now \"quick\"");
  simdjson::dom::array keys;
  REQUIRE_FALSE(doc["response_format"]["json_schema"]["schema"]["properties"]["signals"]["items"]
                   ["properties"]["key"]["enum"]
                       .get(keys));
  CHECK(keys.size() == 2);
}

TEST_CASE("a correct reply is read with its model and usage") {
  auto reply = parse_chat_reply(
      chat_reply(ai_report_json("danger", 88, {{"urgency", "medium", "act now"}}), "gpt-x", 10, 7),
      "configured");
  REQUIRE_MESSAGE(reply.ok(), reply.status().to_string());
  CHECK(reply->verdict == Verdict::kDanger);
  CHECK(reply->risk_score == 88);
  CHECK(reply->model == "gpt-x");
  CHECK(reply->input_tokens == 10);
  CHECK(reply->output_tokens == 7);
  REQUIRE(reply->signals.size() == 1);
  CHECK(reply->signals[0].evidence == "act now");
  CHECK(reply->actions.size() == 1);
}

TEST_CASE("a fenced reply without a model name is read too") {
  std::string body = chat_reply("```json\n" + ai_report_json("safe", 5, {}) + "\n```");
  auto reply = parse_chat_reply(body, "configured");
  REQUIRE_MESSAGE(reply.ok(), reply.status().to_string());
  CHECK(reply->verdict == Verdict::kSafe);
}

TEST_CASE("replies that break the schema are errors") {
  const char* bad[] = {
      "not json",
      R"({"choices":[]})",
      R"({"choices":[{"message":{"content":null,"refusal":"no"}}]})",
  };
  for (const char* body : bad) {
    INFO(body);
    CHECK_FALSE(parse_chat_reply(body, "m").ok());
  }
  const std::string contents[] = {
      ai_report_json("safe", 91, {}),                               // verdict disagrees with score
      ai_report_json("danger", 101, {}),                            // out of range
      ai_report_json("maybe", 50, {}),                              // unknown verdict
      ai_report_json("danger", 90, {{"urgency", "extreme", "x"}}),  // unknown severity
      R"({"verdict":"danger","score":90,"summary":"s","actions":[],"signals":[]})",
      R"({"verdict":"danger","score":90,"summary":"","actions":[{"icon":"i","text":"t"}],"signals":[]})",
      R"({"verdict":"danger","score":90.5,"summary":"s","actions":[{"icon":"i","text":"t"}],"signals":[]})",
      "{\"verdict\":\"danger\"",
  };
  for (const std::string& content : contents) {
    INFO(content);
    auto reply = parse_chat_reply(chat_reply(content), "m");
    CHECK_FALSE(reply.ok());
    CHECK(reply.status().code() == StatusCode::kInternal);
  }
}

TEST_CASE("provider options are checked") {
  CHECK_FALSE(make_openai_provider({.url = "ftp://x", .model = "m"}).ok());
  CHECK_FALSE(make_openai_provider({.url = "http://127.0.0.1:1", .model = ""}).ok());
  CHECK(make_openai_provider({.url = "http://127.0.0.1:1", .model = "m"}).ok());
}
