// Local stand-ins for the external providers, speaking their real
// protocols over TestHttpServer: OpenAI chat completions, Google Safe
// Browsing v4 threatMatches:find and the URLhaus url/ endpoint. Each has a
// switchable behaviour: correct, hallucinated evidence, slow, HTTP 500,
// HTTP 429, garbage, hang.
#ifndef SCAMCHECK_TESTS_SUPPORT_FAKE_PROVIDERS_H_
#define SCAMCHECK_TESTS_SUPPORT_FAKE_PROVIDERS_H_

#include <simdjson.h>

#include <array>
#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "providers/request_json.h"
#include "test_http_server.h"

namespace scamcheck::testing {

enum class Behaviour {
  kCorrect,       // a valid answer whose evidence is in the input
  kHallucinated,  // valid JSON, but evidence that is not in the input
  kMismatch,      // verdict disagrees with the score
  kSlow,          // a correct answer after slow_ms
  kError500,
  kError429,
  kGarbage,  // not JSON
  kHang,     // never answers
};

// The content of a chat reply: the report JSON the schema asks for.
inline std::string ai_report_json(std::string_view verdict, int score,
                                  const std::vector<std::array<std::string, 3>>& signals) {
  rapidjson::StringBuffer buffer;
  internal::JsonWriter w(buffer);
  auto field = [&](const char* key, std::string_view value) {
    w.Key(key);
    internal::write_string(w, value);
  };
  w.StartObject();
  field("verdict", verdict);
  w.Key("score");
  w.Int(score);
  field("summary", "The provider thinks this is a phishing attempt.");
  w.Key("actions");
  w.StartArray();
  w.StartObject();
  field("icon", "\xF0\x9F\x9A\xAB");
  field("text", "Do not click.");
  w.EndObject();
  w.EndArray();
  w.Key("signals");
  w.StartArray();
  for (const auto& s : signals) {
    w.StartObject();
    field("key", s[0]);
    field("severity", s[1]);
    field("evidence", s[2]);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return internal::json_text(buffer);
}

// A chat-completions reply carrying `content` as the assistant message.
inline std::string chat_reply(std::string_view content, std::string_view model = "fake-gpt-1",
                              int prompt_tokens = 321, int completion_tokens = 54) {
  rapidjson::StringBuffer buffer;
  internal::JsonWriter w(buffer);
  auto field = [&](const char* key, std::string_view value) {
    w.Key(key);
    internal::write_string(w, value);
  };
  auto number = [&](const char* key, int value) {
    w.Key(key);
    w.Int(value);
  };
  w.StartObject();
  field("id", "chatcmpl-1");
  field("object", "chat.completion");
  field("model", model);
  w.Key("choices");
  w.StartArray();
  w.StartObject();
  number("index", 0);
  w.Key("message");
  w.StartObject();
  field("role", "assistant");
  field("content", content);
  w.EndObject();
  field("finish_reason", "stop");
  w.EndObject();
  w.EndArray();
  w.Key("usage");
  w.StartObject();
  number("prompt_tokens", prompt_tokens);
  number("completion_tokens", completion_tokens);
  number("total_tokens", prompt_tokens + completion_tokens);
  w.EndObject();
  w.EndObject();
  return internal::json_text(buffer);
}

// POST /v1/chat/completions with response_format json_schema.
class FakeOpenAi {
 public:
  std::atomic<Behaviour> behaviour{Behaviour::kCorrect};
  std::atomic<int> slow_ms{500};
  // Evidence the correct answer quotes (it must occur in the content).
  std::string evidence = "confirm your password";

  TestResponse operator()(const TestRequest& request) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      last_authorization_ = request.header("Authorization");
    }
    switch (behaviour.load()) {
      case Behaviour::kError500:
        return {500, R"({"error":{"message":"internal"}})"};
      case Behaviour::kError429:
        return {429, R"({"error":{"message":"rate limited"}})"};
      case Behaviour::kGarbage:
        return {200, "<html>gateway says hello</html>", "text/html"};
      case Behaviour::kHang: {
        TestResponse r;
        r.hang = true;
        return r;
      }
      default:
        break;
    }
    std::string content;
    if (request.method != "POST" || request.target != "/v1/chat/completions" ||
        !read_user_content(request.body, content)) {
      return {400, R"({"error":{"message":"bad request"}})"};
    }
    TestResponse r;
    switch (behaviour.load()) {
      case Behaviour::kHallucinated:
        r.body = chat_reply(ai_report_json("danger", 91,
                                           {{"credential_request", "high", "enter your PIN now"},
                                            {"made_up_key", "high", evidence},
                                            {"urgency", "medium", evidence}}));
        break;
      case Behaviour::kMismatch:
        r.body = chat_reply(ai_report_json("safe", 91, {}));
        break;
      default:
        r.body =
            chat_reply(ai_report_json("danger", 93, {{"credential_request", "high", evidence}}));
    }
    if (behaviour.load() == Behaviour::kSlow) r.delay_ms = slow_ms.load();
    return r;
  }

  std::string last_authorization() {
    std::lock_guard<std::mutex> lock(mutex_);
    return last_authorization_;
  }

  // Checks the request's shape; `content` receives the analysed text.
  static bool read_user_content(const std::string& body, std::string& content) {
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    if (parser.parse(body).get(doc)) return false;
    std::string_view type;
    std::string_view model;
    if (doc["response_format"]["type"].get(type) || type != "json_schema") return false;
    if (doc["model"].get(model) || model.empty()) return false;
    simdjson::dom::object schema;
    if (doc["response_format"]["json_schema"]["schema"].get(schema)) return false;
    simdjson::dom::array messages;
    if (doc["messages"].get(messages) || messages.size() != 2) return false;
    std::string_view user;
    if (messages.at(1)["content"].get(user)) return false;
    simdjson::dom::parser inner;
    simdjson::dom::element request;
    if (inner.parse(std::string(user)).get(request)) return false;
    std::string_view text;
    if (request["content"].get(text)) return false;
    content = std::string(text);
    return true;
  }

 private:
  std::mutex mutex_;
  std::string last_authorization_;
};

// URLs containing this marker are listed by the fake reputation services.
inline constexpr std::string_view kListedMarker = "listed-evil";

// POST /v4/threatMatches:find?key=<key>
class FakeSafeBrowsing {
 public:
  explicit FakeSafeBrowsing(std::string key) : key_(std::move(key)) {}
  std::atomic<Behaviour> behaviour{Behaviour::kCorrect};

  TestResponse operator()(const TestRequest& request) {
    if (auto r = failure(behaviour.load())) return *r;
    if (request.method != "POST" || request.target != "/v4/threatMatches:find?key=" + key_) {
      return {400, R"({"error":{"code":400}})"};
    }
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    simdjson::dom::array entries;
    if (parser.parse(request.body).get(doc) || doc["threatInfo"]["threatEntries"].get(entries)) {
      return {400, R"({"error":{"code":400}})"};
    }
    std::vector<std::string> listed;
    for (simdjson::dom::element e : entries) {
      std::string_view url;
      if (!e["url"].get(url) && url.find(kListedMarker) != std::string_view::npos) {
        listed.emplace_back(url);
      }
    }
    if (listed.empty()) return {200, "{}\n"};
    rapidjson::StringBuffer buffer;
    internal::JsonWriter w(buffer);
    auto field = [&](const char* key, std::string_view value) {
      w.Key(key);
      internal::write_string(w, value);
    };
    w.StartObject();
    w.Key("matches");
    w.StartArray();
    for (const std::string& url : listed) {
      w.StartObject();
      field("threatType", "SOCIAL_ENGINEERING");
      field("platformType", "ANY_PLATFORM");
      field("threatEntryType", "URL");
      w.Key("threat");
      w.StartObject();
      field("url", url);
      w.EndObject();
      field("cacheDuration", "300s");
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
    return {200, internal::json_text(buffer)};
  }

  static std::optional<TestResponse> failure(Behaviour b) {
    switch (b) {
      case Behaviour::kError500:
        return TestResponse{500, "{}"};
      case Behaviour::kError429:
        return TestResponse{429, "{}"};
      case Behaviour::kGarbage:
        return TestResponse{200, "{\"matches\": [ {\"threat\": "};
      case Behaviour::kHang: {
        TestResponse r;
        r.hang = true;
        return r;
      }
      case Behaviour::kSlow: {
        TestResponse r{200, "{}"};
        r.delay_ms = 2000;
        return r;
      }
      default:
        return std::nullopt;
    }
  }

 private:
  std::string key_;
};

// POST /v1/url/ with the form field url.
class FakeUrlhaus {
 public:
  explicit FakeUrlhaus(std::string auth_key = "") : auth_key_(std::move(auth_key)) {}
  std::atomic<Behaviour> behaviour{Behaviour::kCorrect};

  TestResponse operator()(const TestRequest& request) {
    if (auto r = FakeSafeBrowsing::failure(behaviour.load())) return *r;
    if (!auth_key_.empty() && request.header("Auth-Key") != auth_key_) {
      return {401, R"({"query_status":"unknown_auth_key"})"};
    }
    if (request.method != "POST" || request.target != "/v1/url/" ||
        request.body.rfind("url=", 0) != 0) {
      return {200, R"({"query_status":"invalid_url"})"};
    }
    const std::string url = request.body.substr(4);
    if (url.find(kListedMarker) != std::string::npos) {
      return {
          200,
          R"({"query_status":"ok","id":"1","url_status":"online","threat":"malware_download"})"};
    }
    return {200, R"({"query_status":"no_results"})"};
  }

 private:
  std::string auth_key_;
};

}  // namespace scamcheck::testing

#endif  // SCAMCHECK_TESTS_SUPPORT_FAKE_PROVIDERS_H_
