// A tiny HTTP/1.1 server on 127.0.0.1 (Boost.Beast) for tests and
// benchmarks that talk to a local stand-in of an external provider. One
// thread serves every connection asynchronously; a connection may carry many
// requests (keep-alive). A handler decides each response, and may delay it
// or never answer ("hang") until the server stops.
#ifndef SCAMCHECK_TESTS_SUPPORT_TEST_HTTP_SERVER_H_
#define SCAMCHECK_TESTS_SUPPORT_TEST_HTTP_SERVER_H_

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

namespace scamcheck::testing {

namespace test_http {
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;

inline std::string str(beast::string_view s) { return std::string(s.data(), s.size()); }
}  // namespace test_http

struct TestRequest {
  std::string method;
  std::string target;  // path and query, e.g. "/v4/threatMatches:find?key=k"
  boost::beast::http::fields headers;
  std::string body;

  // The value of header `name` (case-insensitive), or "".
  std::string header(std::string_view name) const {
    return test_http::str(headers[boost::beast::string_view(name.data(), name.size())]);
  }
};

struct TestResponse {
  int status = 200;
  std::string body;
  std::string content_type = "application/json";
  int delay_ms = 0;   // wait this long before answering
  bool hang = false;  // never answer; the connection closes when the server stops
};

class TestHttpServer {
 public:
  using Handler = std::function<TestResponse(const TestRequest&)>;

  explicit TestHttpServer(Handler handler)
      : handler_(std::move(handler)),
        acceptor_(io_, {boost::asio::ip::make_address_v4("127.0.0.1"), 0}) {
    accept();
    thread_ = std::thread([this] { io_.run(); });
  }

  // Stopping drops every pending operation; destroying io_ with them closes
  // the connections, hung ones included.
  ~TestHttpServer() {
    io_.stop();
    thread_.join();
  }

  TestHttpServer(const TestHttpServer&) = delete;
  TestHttpServer& operator=(const TestHttpServer&) = delete;

  int port() const { return acceptor_.local_endpoint().port(); }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port()); }
  int requests() const { return requests_.load(); }

 private:
  // One connection: read a request, answer it (maybe later), read the next.
  class Session : public std::enable_shared_from_this<Session> {
   public:
    Session(TestHttpServer& server, test_http::tcp::socket socket)
        : server_(server), socket_(std::move(socket)), timer_(socket_.get_executor()) {}

    void read() {
      parser_.emplace();
      parser_->body_limit(std::numeric_limits<std::uint64_t>::max());
      test_http::http::async_read(
          socket_, buffer_, *parser_,
          [self = shared_from_this()](test_http::beast::error_code ec, std::size_t) {
            if (!ec) self->answer();
          });
    }

   private:
    void answer() {
      auto message = parser_->release();
      TestRequest request{test_http::str(message.method_string()), test_http::str(message.target()),
                          message, std::move(message.body())};
      ++server_.requests_;
      const TestResponse response = server_.handler_(request);

      response_ = {};
      response_.result(static_cast<unsigned>(response.status));
      response_.set(test_http::http::field::content_type, response.content_type);
      response_.set(test_http::http::field::connection, "keep-alive");
      response_.body() = response.body;
      response_.prepare_payload();
      if (!response.hang && response.delay_ms <= 0) return write();
      if (response.hang) {
        timer_.expires_at(boost::asio::steady_timer::time_point::max());
      } else {
        timer_.expires_after(std::chrono::milliseconds(response.delay_ms));
      }
      timer_.async_wait([self = shared_from_this()](test_http::beast::error_code ec) {
        if (!ec) self->write();
      });
    }

    void write() {
      test_http::http::async_write(
          socket_, response_,
          [self = shared_from_this()](test_http::beast::error_code ec, std::size_t) {
            if (!ec) self->read();
          });
    }

    TestHttpServer& server_;
    test_http::tcp::socket socket_;
    boost::asio::steady_timer timer_;
    test_http::beast::flat_buffer buffer_;
    std::optional<test_http::http::request_parser<test_http::http::string_body>> parser_;
    test_http::http::response<test_http::http::string_body> response_;
  };

  void accept() {
    acceptor_.async_accept([this](test_http::beast::error_code ec, test_http::tcp::socket socket) {
      if (!ec) {
        socket.set_option(test_http::tcp::no_delay(true), ec);
        std::make_shared<Session>(*this, std::move(socket))->read();
      }
      accept();
    });
  }

  Handler handler_;
  std::atomic<int> requests_{0};
  boost::asio::io_context io_;
  test_http::tcp::acceptor acceptor_;
  std::thread thread_;
};

}  // namespace scamcheck::testing

#endif  // SCAMCHECK_TESTS_SUPPORT_TEST_HTTP_SERVER_H_
