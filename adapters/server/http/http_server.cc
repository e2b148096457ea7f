#include "http/http_server.h"

#include <array>
#include <atomic>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <condition_variable>
#include <list>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

#include "http/framing.h"
#include "http/router.h"
#include "logging.h"

namespace scamcheck::server {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

// How long a closing connection may keep sending (unread request bytes)
// after the response, so the client reads the response before the close.
constexpr std::chrono::seconds kLingerTimeout{2};

bool is_parse_error(const beast::error_code& ec) {
  return ec.category() == http::make_error_code(http::error::bad_method).category() &&
         ec != http::error::end_of_stream && ec != http::error::partial_message;
}

// A header name the response head may carry as it is: an RFC 9110 token.
bool header_name_token(std::string_view name) {
  if (name.empty()) return false;
  for (const char c : name) {
    const bool token = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
    if (!token) return false;
  }
  return true;
}

// A header value the response head may carry as it is: no CR, LF or NUL,
// nothing a client could read as another line.
bool safe_header_text(std::string_view text) {
  for (const char c : text) {
    if (c == '\r' || c == '\n' || c == '\0') return false;
  }
  return true;
}

}  // namespace

// The response head (status line and fields) exactly as Beast's serializer
// writes it for http::response<string_body> after keep_alive() and
// prepare_payload(): Server, Content-Type, the handler's fields in order,
// "Connection: close" when the connection ends, Content-Length (this Beast
// writes it for 204 and 304 too: "0"). Empty when Beast must write it: a
// field name that is not a token, a value with CR, LF or NUL, a framing
// field set by the handler, or a status without a reason phrase in Beast.
std::optional<std::string> response_head(const Response& response, bool keep_alive) {
  const auto status = static_cast<http::status>(response.status);
  const std::string_view reason = http::obsolete_reason(status);
  if (reason == "<unknown-status>" || response.status < 200) return std::nullopt;
  if ((response.status == 204 || response.status == 304) && !response.body.empty()) {
    return std::nullopt;  // Beast's rules for a body that must not be there
  }
  std::string head;
  head.reserve(160 + 64 * response.headers.size());
  head += "HTTP/1.1 ";
  head += std::to_string(response.status);
  head += ' ';
  head += reason;
  head += "\r\nServer: scamcheckd\r\n";
  if (!response.content_type.empty()) {
    if (!safe_header_text(response.content_type)) return std::nullopt;
    head += "Content-Type: ";
    head += response.content_type;
    head += "\r\n";
  }
  for (const auto& [name, value] : response.headers) {
    if (!header_name_token(name) || !safe_header_text(value)) return std::nullopt;
    // Fields Beast's keep_alive() and prepare_payload() own.
    if (beast::iequals(name, "Connection") || beast::iequals(name, "Content-Length") ||
        beast::iequals(name, "Transfer-Encoding")) {
      return std::nullopt;
    }
    head += name;
    head += ": ";
    head += value;
    head += "\r\n";
  }
  if (!keep_alive) head += "Connection: close\r\n";
  head += "Content-Length: ";
  head += std::to_string(response.body.size());
  head += "\r\n\r\n";
  return head;
}

class HttpServer::Impl {
 public:
  class Session;

  Impl(HttpServerOptions options, RequestHandler& handler)
      : options_(std::move(options)),
        handler_(handler),
        threads_(options_.threads ? options_.threads
                                  : std::max(1u, std::thread::hardware_concurrency())),
        ioc_(static_cast<int>(threads_)),
        acceptor_(net::make_strand(ioc_)),
        signals_(ioc_, SIGTERM, SIGINT),
        work_(net::make_work_guard(ioc_)) {}

  Status listen() {
    beast::error_code ec;
    const auto address = net::ip::make_address(options_.host, ec);
    if (ec) return Status::invalid_argument("invalid listen address: " + options_.host);
    const tcp::endpoint endpoint(address, options_.port);
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
    if (ec) {
      return Status::unavailable("cannot listen on " + options_.host + ":" +
                                 std::to_string(options_.port) + ": " + ec.message());
    }
    return {};
  }

  std::uint16_t port() const {
    beast::error_code ec;
    return acceptor_.local_endpoint(ec).port();
  }

  void run() {
    signals_.async_wait([this](const beast::error_code& ec, int signal) {
      if (ec) return;
      LogLine(LogLevel::kNotice, "shutdown").field("signal", signal);
      begin_drain();
    });
    net::post(acceptor_.get_executor(), [this] { do_accept(); });
    std::vector<std::thread> threads;
    for (unsigned i = 1; i < threads_; ++i) threads.emplace_back([this] { ioc_.run(); });
    ioc_.run();
    for (auto& t : threads) t.join();
    {
      std::lock_guard lock(mutex_);
      stopped_ = true;
    }
    drained_cv_.notify_all();
    if (grace_thread_.joinable()) grace_thread_.join();
  }

  RequestHandler& handler() { return handler_; }
  const HttpServerOptions& options() const { return options_; }
  bool draining() const { return draining_.load(std::memory_order_relaxed); }

  // Registers a new session of a client `address`; returns its place in
  // the registry.
  std::list<std::weak_ptr<Session>>::iterator add(const std::shared_ptr<Session>& session,
                                                  const std::string& address) {
    std::lock_guard lock(mutex_);
    ++connections_;
    ++per_address_[address];
    return sessions_.insert(sessions_.end(), session);
  }
  void remove(std::list<std::weak_ptr<Session>>::iterator it, const std::string& address) {
    std::lock_guard lock(mutex_);
    sessions_.erase(it);
    --connections_;
    if (auto a = per_address_.find(address); a != per_address_.end() && --a->second == 0) {
      per_address_.erase(a);
    }
    if (draining() && connections_ == 0) finish_locked();
  }

 private:
  void do_accept() {
    acceptor_.async_accept(net::make_strand(ioc_),
                           [this](const beast::error_code& ec, tcp::socket socket) {
                             on_accept(ec, std::move(socket));
                           });
  }

  void on_accept(const beast::error_code& ec, tcp::socket socket);
  void log_refused(const char* reason);
  bool evict_idle();
  void begin_drain();
  void finish_locked() { work_.reset(); }

  HttpServerOptions options_;
  RequestHandler& handler_;
  unsigned threads_;
  net::io_context ioc_;
  tcp::acceptor acceptor_;
  net::signal_set signals_;
  std::optional<net::executor_work_guard<net::io_context::executor_type>> work_;
  std::atomic<bool> draining_{false};

  std::mutex mutex_;  // guards the members below
  std::list<std::weak_ptr<Session>> sessions_;
  std::size_t connections_ = 0;
  std::unordered_map<std::string, std::size_t> per_address_;  // open connections per client
  bool stopped_ = false;
  std::condition_variable drained_cv_;
  std::thread grace_thread_;

  // Refused connections are logged at most once a second (acceptor strand).
  std::chrono::steady_clock::time_point refused_logged_at_{};
  std::uint64_t refused_unlogged_ = 0;
};

class HttpServer::Impl::Session : public std::enable_shared_from_this<Session> {
 public:
  Session(Impl& server, tcp::socket socket, std::string remote)
      : server_(server),
        stream_(std::move(socket)),
        deadline_(stream_.get_executor()),
        remote_(std::move(remote)) {
    beast::error_code ec;
    stream_.socket().set_option(tcp::no_delay(true), ec);
  }
  ~Session() {
    if (registered_) server_.remove(registry_it_, remote_);
  }

  void start() {
    registry_it_ = server_.add(shared_from_this(), remote_);
    registered_ = true;
    // A new connection has the head deadline for its first request from
    // the start: sending nothing holds it no longer than a slow head.
    set_deadline(Deadline::kRequest, server_.options().header_timeout);
    net::dispatch(stream_.get_executor(),
                  [self = shared_from_this()] { self->wait_for_request(); });
  }

  bool idle() const { return idle_.load(std::memory_order_relaxed); }

  // Closes the connection when it is waiting for a new request (eviction,
  // shutdown). Runs on the session's strand.
  void close_if_idle() {
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] {
      if (self->idle()) {
        beast::error_code ec;
        self->stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
        self->stream_.close();
      }
    });
  }

 private:
  // Waits for the first byte of a request: on a new connection within the
  // head deadline armed by start(), on a keep-alive one within the idle
  // timeout. A connection that sent nothing is closed without an answer.
  void wait_for_request() {
    if (buffer_.size() > 0) return read_header();
    if (server_.draining()) return close();
    idle_ = true;
    if (deadline_kind_ != Deadline::kRequest) {
      set_deadline(Deadline::kIdle, server_.options().idle_timeout);
    }
    stream_.async_read_some(buffer_.prepare(4096), [self = shared_from_this()](
                                                       const beast::error_code& ec, std::size_t n) {
      self->idle_ = false;
      if (ec) return self->close();
      self->buffer_.commit(n);
      self->read_header();
    });
  }

  // Reads the request line and header fields within --header-timeout of
  // the first byte (of the accept, for a connection's first request).
  void read_header() {
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(kMaxHeaderBytes));
    parser_->body_limit(kMaxMcpBodyBytes);  // the largest; on_header() sets the request's own
    if (deadline_kind_ != Deadline::kRequest) {
      set_deadline(Deadline::kRequest, server_.options().header_timeout);
    }
    http::async_read_header(stream_, buffer_, *parser_,
                            [self = shared_from_this()](const beast::error_code& ec, std::size_t) {
                              self->on_header(ec);
                            });
  }

  void on_header(const beast::error_code& ec) {
    if (ec && timed_out_) return fail_early(EarlyError::kTimeout);
    if (ec == http::error::header_limit) return fail_early(EarlyError::kHeaderTooLarge);
    if (ec == http::error::body_limit) return fail_early(EarlyError::kBodyTooLarge);
    if (ec) return is_parse_error(ec) ? fail_early(EarlyError::kBadRequest) : close();
    const auto& req = parser_->get();
    Request head = to_request(req.base());
    if (const std::string_view why = framing_problem(head.headers, req.version() % 10);
        !why.empty() || head.path.empty()) {
      LogLine(LogLevel::kDebug, "request_refused")
          .field("reason", why.empty() ? std::string_view("request-target") : why);
      return fail_early(EarlyError::kBadRequest);
    }
    // The body has its own deadline (--read-timeout), from the end of the head.
    set_deadline(Deadline::kRequest, server_.options().read_timeout);
    const std::size_t limit = max_body_bytes(head.path, req[http::field::content_type]);
    if (const auto length = parser_->content_length(); length && *length > limit) {
      return fail_early(EarlyError::kBodyTooLarge);
    }
    parser_->body_limit(limit);
    if (beast::iequals(req[http::field::expect], "100-continue") && !parser_->is_done()) {
      // The client waits for this before it sends the body (curl does for
      // bodies over 1 KiB).
      auto interim = std::make_shared<http::response<http::empty_body>>(http::status::continue_,
                                                                        req.version());
      return http::async_write(
          stream_, *interim,
          [self = shared_from_this(), interim](const beast::error_code& ec2, std::size_t) {
            if (ec2) return self->close();
            self->read_body();
          });
    }
    read_body();
  }

  void read_body() {
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](const beast::error_code& ec, std::size_t) {
                       self->on_read(ec);
                     });
  }

  void on_read(const beast::error_code& ec) {
    if (ec && timed_out_) return fail_early(EarlyError::kTimeout);
    if (ec == http::error::body_limit) return fail_early(EarlyError::kBodyTooLarge);
    if (ec) return is_parse_error(ec) ? fail_early(EarlyError::kBadRequest) : close();
    clear_deadline();
    auto message = parser_->release();
    parser_.reset();
    keep_alive_ = message.keep_alive();
    Request request = to_request(message);
    request.body = std::move(message.body());
    server_.handler().handle(std::move(request), [self = shared_from_this()](Response response) {
      net::dispatch(self->stream_.get_executor(), [self, response = std::move(response)]() mutable {
        self->write(std::move(response));
      });
    });
  }

  // The request of a parsed head; its path stays empty when the target is
  // in no form this server serves (framing.h).
  Request to_request(const http::request_header<>& header) const {
    Request request;
    request.method = std::string(header.method_string());
    request.target = std::string(header.target());
    if (!split_request_target(request.target, &request.path, &request.query)) {
      request.path.clear();
      request.query.clear();
    }
    for (const auto& field : header) {
      request.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    }
    request.remote_address = remote_;
    return request;
  }

  // Answers a request this layer rejects, then closes the connection.
  void fail_early(EarlyError error) {
    clear_deadline();
    Request request;
    if (parser_) request = to_request(parser_->get().base());
    keep_alive_ = false;
    must_linger_ = true;
    write(server_.handler().early_error(request, error));
  }

  // Every deadline of the connection on one timer: the head and body
  // deadlines (when one passes, the pending read is cancelled and the
  // request answered 408; the stream's own timeout would close the socket
  // first), the idle wait for a keep-alive request and the response's
  // write (when one passes, the pending read or write is cancelled and the
  // connection closed). Setting a deadline only moves deadline_at_: a
  // pending wait that ends before it waits again for the rest, so a
  // request does not arm and cancel the timer at each step (a cancelled
  // wait runs its handler too).
  enum class Deadline { kNone, kIdle, kRequest, kWrite };
  void set_deadline(Deadline kind, std::chrono::seconds timeout) {
    deadline_kind_ = kind;
    deadline_at_ = std::chrono::steady_clock::now() + timeout;
    timed_out_ = false;
    if (!wait_pending_ || wait_until_ > deadline_at_) wait_for_deadline();
  }
  void clear_deadline() { deadline_kind_ = Deadline::kNone; }
  void wait_for_deadline() {
    ++wait_generation_;
    wait_pending_ = true;
    wait_until_ = deadline_at_;
    // Cancels a pending wait: its handler sees an old generation.
    deadline_.expires_at(wait_until_);
    deadline_.async_wait(
        [weak = weak_from_this(), generation = wait_generation_](const beast::error_code& ec) {
          const std::shared_ptr<Session> self = weak.lock();
          if (!self || generation != self->wait_generation_) return;
          self->wait_pending_ = false;
          if (ec || self->deadline_kind_ == Deadline::kNone) return;
          if (std::chrono::steady_clock::now() < self->deadline_at_) {
            return self->wait_for_deadline();
          }
          self->timed_out_ = true;
          beast::error_code ignored;
          self->stream_.socket().cancel(ignored);
        });
  }
  void close() {
    clear_deadline();
    deadline_.cancel();
    stream_.close();
  }

  void write(Response response) {
    const bool keep_alive = keep_alive_ && !server_.draining();
    if (auto head = response_head(response, keep_alive)) {
      // The head as Beast would write it, in one string, and the body
      // as it is: one gathered send, no field list, no serializer.
      auto owned = std::make_shared<std::pair<std::string, std::string>>(std::move(*head),
                                                                         std::move(response.body));
      const std::array<net::const_buffer, 2> buffers{net::buffer(owned->first),
                                                     net::buffer(owned->second)};
      set_deadline(Deadline::kWrite, kWriteTimeout);
      net::async_write(
          stream_, buffers,
          [self = shared_from_this(), owned, keep_alive](const beast::error_code& ec, std::size_t) {
            if (ec) return self->close();
            if (!keep_alive) return self->close_gracefully();
            self->wait_for_request();
          });
      return;
    }
    write_with_beast(std::move(response), keep_alive);
  }

  void write_with_beast(Response response, bool keep_alive) {
    auto message = std::make_shared<http::response<http::string_body>>(
        static_cast<http::status>(response.status), 11);
    message->set(http::field::server, "scamcheckd");
    if (!response.content_type.empty()) {
      message->set(http::field::content_type, response.content_type);
    }
    for (auto& [name, value] : response.headers) message->insert(name, value);
    message->body() = std::move(response.body);
    message->keep_alive(keep_alive);
    message->prepare_payload();
    set_deadline(Deadline::kWrite, kWriteTimeout);
    http::async_write(
        stream_, *message,
        [self = shared_from_this(), message, keep_alive](const beast::error_code& ec, std::size_t) {
          if (ec) return self->close();
          if (!keep_alive) return self->close_gracefully();
          self->wait_for_request();
        });
  }

  // Half-closes, then reads and drops what the client still sends (for a
  // short while), so it sees the response instead of a reset.
  void close_gracefully() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    if (!must_linger_) return stream_.close();
    stream_.expires_after(kLingerTimeout);
    drain();
  }
  void drain() {
    buffer_.consume(buffer_.size());
    stream_.async_read_some(buffer_.prepare(16384),
                            [self = shared_from_this()](const beast::error_code& ec, std::size_t) {
                              if (ec) return self->stream_.close();
                              self->drain();
                            });
  }

  Impl& server_;
  beast::tcp_stream stream_;
  net::steady_timer deadline_;  // on the stream's strand
  Deadline deadline_kind_ = Deadline::kNone;
  std::chrono::steady_clock::time_point deadline_at_{};
  bool wait_pending_ = false;  // deadline_ has a wait, ending at wait_until_
  std::chrono::steady_clock::time_point wait_until_{};
  std::uint64_t wait_generation_ = 0;
  bool timed_out_ = false;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::string remote_;
  bool keep_alive_ = false;
  bool must_linger_ = false;
  std::atomic<bool> idle_{false};
  bool registered_ = false;
  std::list<std::weak_ptr<Session>>::iterator registry_it_;
};

void HttpServer::Impl::on_accept(const beast::error_code& ec, tcp::socket socket) {
  if (draining()) return;
  if (ec) {
    if (ec == net::error::operation_aborted) return;
    LogLine(LogLevel::kWarn, "accept_failed").field("error", ec.message());
    return do_accept();
  }
  beast::error_code ignored;
  std::string remote;
  if (const auto endpoint = socket.remote_endpoint(ignored); !ignored) {
    remote = endpoint.address().to_string();
  }
  bool full, address_full;
  {
    std::lock_guard lock(mutex_);
    full = connections_ >= options_.max_connections;
    const auto it = per_address_.find(remote);
    address_full = options_.max_connections_per_address != 0 && it != per_address_.end() &&
                   it->second >= options_.max_connections_per_address;
  }
  if (address_full || (full && !evict_idle())) {
    log_refused(address_full ? "connections per address" : "connection limit");
    socket.close(ignored);
    return do_accept();
  }
  std::make_shared<Session>(*this, std::move(socket), std::move(remote))->start();
  do_accept();
}

void HttpServer::Impl::log_refused(const char* reason) {
  ++refused_unlogged_;
  const auto now = std::chrono::steady_clock::now();
  if (now - refused_logged_at_ < std::chrono::seconds(1)) return;
  LogLine(LogLevel::kWarn, "connection_refused")
      .field("reason", reason)
      .field("refused", static_cast<std::int64_t>(refused_unlogged_));
  refused_logged_at_ = now;
  refused_unlogged_ = 0;
}

bool HttpServer::Impl::evict_idle() {
  // Copies, so no session can be destroyed (which takes mutex_) under the lock.
  std::vector<std::weak_ptr<Session>> sessions;
  {
    std::lock_guard lock(mutex_);
    sessions.assign(sessions_.begin(), sessions_.end());
  }
  for (auto& weak : sessions) {
    if (std::shared_ptr<Session> s = weak.lock(); s && s->idle()) {
      s->close_if_idle();
      return true;
    }
  }
  return false;
}

void HttpServer::Impl::begin_drain() {
  draining_ = true;
  net::post(acceptor_.get_executor(), [this] {
    beast::error_code ec;
    acceptor_.close(ec);
  });
  std::vector<std::weak_ptr<Session>> sessions;
  {
    std::lock_guard lock(mutex_);
    sessions.assign(sessions_.begin(), sessions_.end());
    if (connections_ == 0) finish_locked();
  }
  for (auto& weak : sessions) {
    if (std::shared_ptr<Session> s = weak.lock()) s->close_if_idle();
  }
  // Requests still in flight get kShutdownGrace; then the server stops anyway.
  grace_thread_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    if (!drained_cv_.wait_for(lock, kShutdownGrace, [this] { return stopped_; })) {
      LogLine(LogLevel::kWarn, "shutdown_forced").field("connections", connections_);
      ioc_.stop();
    }
  });
}

HttpServer::HttpServer(HttpServerOptions options, RequestHandler& handler)
    : impl_(std::make_unique<Impl>(std::move(options), handler)) {}
HttpServer::~HttpServer() = default;
Status HttpServer::listen() { return impl_->listen(); }
std::uint16_t HttpServer::port() const { return impl_->port(); }
void HttpServer::run() { impl_->run(); }

}  // namespace scamcheck::server
