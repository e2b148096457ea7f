// The response head scamcheckd writes itself (http/http_server.h,
// response_head()) is byte for byte what Beast's serializer writes for the
// same response, and the cases Beast must handle are handed back to it.
#include <doctest/doctest.h>

#include <boost/beast/http.hpp>
#include <sstream>
#include <string>

#include "http/http_server.h"

namespace {

namespace http = boost::beast::http;
using scamcheck::server::Response;
using scamcheck::server::response_head;

// What Session::write_with_beast() sends for `response`.
std::string beast_bytes(const Response& response, bool keep_alive) {
  http::response<http::string_body> message(static_cast<http::status>(response.status), 11);
  message.set(http::field::server, "scamcheckd");
  if (!response.content_type.empty()) message.set(http::field::content_type, response.content_type);
  for (const auto& [name, value] : response.headers) message.insert(name, value);
  message.body() = response.body;
  message.keep_alive(keep_alive);
  message.prepare_payload();
  std::ostringstream out;
  out << message;
  return out.str();
}

Response sample(int status, std::string body) {
  Response r;
  r.status = status;
  if (!body.empty()) r.content_type = "application/json";
  r.body = std::move(body);
  r.set_header("X-RateLimit-Remaining", "41");
  r.set_header("X-Request-ID", "01J0000000000000000000000Z");
  return r;
}

}  // namespace

TEST_CASE("response_head: the bytes Beast writes, for every status and connection state") {
  Response no_type;
  no_type.status = 200;
  no_type.body = "x";
  Response problem = sample(413, R"({"type":"about:blank","status":413})");
  problem.content_type = "application/problem+json; charset=utf-8";
  problem.set_header("Retry-After", "30");
  Response empty_ok = sample(200, "");
  const Response cases[] = {sample(200, R"({"id":"rpt_1"})"),
                            sample(201, "{}"),
                            sample(204, ""),
                            sample(304, ""),
                            sample(404, "{}"),
                            sample(429, "{}"),
                            sample(503, "{}"),
                            problem,
                            no_type,
                            empty_ok};
  for (const Response& response : cases) {
    for (const bool keep_alive : {true, false}) {
      CAPTURE(response.status);
      CAPTURE(keep_alive);
      const auto head = response_head(response, keep_alive);
      REQUIRE(head.has_value());
      CHECK(*head + response.body == beast_bytes(response, keep_alive));
    }
  }
}

TEST_CASE("response_head: what only Beast may write is left to it") {
  Response split = sample(200, "{}");
  split.set_header("X-Note", "a\r\nSet-Cookie: x=1");
  CHECK_FALSE(response_head(split, true).has_value());
  Response framing = sample(200, "{}");
  framing.set_header("Connection", "close");
  CHECK_FALSE(response_head(framing, true).has_value());
  Response length = sample(200, "{}");
  length.set_header("content-length", "2");
  CHECK_FALSE(response_head(length, true).has_value());
  Response bodied_204 = sample(204, "{}");
  CHECK_FALSE(response_head(bodied_204, true).has_value());
  Response bad_name = sample(200, "{}");
  bad_name.set_header("X Note", "1");
  CHECK_FALSE(response_head(bad_name, true).has_value());
  Response no_name = sample(200, "{}");
  no_name.set_header("", "1");
  CHECK_FALSE(response_head(no_name, true).has_value());
  Response unknown = sample(299, "{}");
  CHECK_FALSE(response_head(unknown, true).has_value());
}
