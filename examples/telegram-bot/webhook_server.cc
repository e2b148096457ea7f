#include "webhook_server.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <optional>

#include "log.h"

namespace scamcheck::telegram_bot {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

constexpr std::uint32_t kMaxHeaderBytes = 8 * 1024;
constexpr std::uint64_t kMaxBodyBytes = 1024 * 1024;
constexpr auto kReadTimeout = std::chrono::seconds(15);
constexpr auto kIdleTimeout = std::chrono::seconds(120);

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, const WebhookHandler& handler)
      : stream_(std::move(socket)), handler_(handler) {}

  void start() { read(); }

 private:
  void read() {
    parser_.emplace();
    parser_->header_limit(kMaxHeaderBytes);
    parser_->body_limit(kMaxBodyBytes);
    stream_.expires_after(buffer_.size() > 0 ? kReadTimeout : kIdleTimeout);
    http::async_read(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
  }

  void on_read(beast::error_code ec) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout ||
        ec == asio::error::connection_reset || ec == asio::error::operation_aborted) {
      close();
      return;
    }
    if (ec == http::error::body_limit) {
      respond(413, R"({"error":"request body over 1 MiB"})", false);
      return;
    }
    if (ec == http::error::header_limit) {
      respond(431, R"({"error":"request header over 8 KiB"})", false);
      return;
    }
    if (ec) {
      respond(400, R"({"error":"malformed HTTP request"})", false);
      return;
    }
    const auto& request = parser_->get();
    WebhookRequest in;
    const auto method = request.method_string();
    const auto target = request.target();
    in.method = std::string_view(method.data(), method.size());
    in.target = std::string_view(target.data(), target.size());
    if (const auto it = request.find("X-Telegram-Bot-Api-Secret-Token"); it != request.end()) {
      in.has_secret = true;
      in.secret = std::string_view(it->value().data(), it->value().size());
    }
    in.body = request.body();
    WebhookResponse out;
    try {
      out = handler_(in);
    } catch (const std::exception& e) {
      log_error(std::string("webhook handler: ") + e.what());
      out = {500, R"({"error":"internal error"})"};
    }
    respond(out.status, std::move(out.body), request.keep_alive());
  }

  void respond(unsigned status, std::string body, bool keep_alive) {
    response_ = {};
    response_.version(11);
    response_.result(static_cast<http::status>(status));
    response_.set(http::field::server, "scamcheck-telegram-bot");
    if (!body.empty()) response_.set(http::field::content_type, "application/json");
    response_.body() = std::move(body);
    response_.keep_alive(keep_alive);
    response_.prepare_payload();
    stream_.expires_after(kReadTimeout);
    http::async_write(stream_, response_,
                      [self = shared_from_this(), keep_alive](beast::error_code ec, std::size_t) {
                        if (ec || !keep_alive) {
                          self->close();
                        } else {
                          self->read();
                        }
                      });
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.socket().close(ignored);
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> response_;
  const WebhookHandler& handler_;
};

}  // namespace

class WebhookServer::Impl {
 public:
  explicit Impl(WebhookHandler handler)
      : handler_(std::move(handler)), acceptor_(io_), signals_(io_, SIGINT, SIGTERM) {}

  Status listen(const std::string& host, std::uint16_t port) {
    beast::error_code ec;
    const auto address = asio::ip::make_address(host, ec);
    if (ec) return Status::invalid_argument("not an IP address: " + host);
    const tcp::endpoint endpoint(address, port);
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) return Status::unavailable("cannot listen on " + host + ": " + ec.message());
    return {};
  }

  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }

  void run() {
    signals_.async_wait([this](beast::error_code ec, int signal) {
      if (ec) return;
      log_info("signal " + std::to_string(signal) + ": stopping");
      beast::error_code ignored;
      acceptor_.close(ignored);
      io_.stop();
    });
    accept();
    io_.run();
  }

 private:
  void accept() {
    acceptor_.async_accept([this](beast::error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted) return;
      if (!ec) std::make_shared<Session>(std::move(socket), handler_)->start();
      if (acceptor_.is_open()) accept();
    });
  }

  WebhookHandler handler_;
  asio::io_context io_{1};
  tcp::acceptor acceptor_;
  asio::signal_set signals_;
};

WebhookServer::WebhookServer(WebhookHandler handler)
    : impl_(std::make_unique<Impl>(std::move(handler))) {}
WebhookServer::~WebhookServer() = default;
Status WebhookServer::listen(const std::string& host, std::uint16_t port) {
  return impl_->listen(host, port);
}
std::uint16_t WebhookServer::port() const { return impl_->port(); }
void WebhookServer::run() { impl_->run(); }

}  // namespace scamcheck::telegram_bot
