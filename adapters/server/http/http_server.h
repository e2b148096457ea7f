// HttpServer: HTTP/1.1 on Boost.Beast and Asio, with keep-alive, a fixed
// pool of threads, header and body limits, timeouts against slow clients,
// a connection limit, and graceful shutdown on SIGTERM/SIGINT (stop
// accepting, finish the requests in flight, return). Requests go to a
// RequestHandler (the router); this layer never looks at routes.
//
// Per connection: the request head (request line and header fields) must
// arrive within the header timeout (counted from the accept for the first
// request, from its first byte on a keep-alive connection, which may wait
// the idle timeout for it), then the body within the read timeout; a
// request past either deadline is answered 408 and the connection closed.
// Header limit kMaxHeaderBytes; body limit by media type
// (kMaxJsonBodyBytes, or kMaxMultipartBodyBytes for multipart/form-data),
// checked against Content-Length before reading the body. Framing and
// request-target checks (framing.h): a refused head is answered 400 and
// the connection closed, so nothing after it is read as a request. One
// request at a time per connection; pipelined requests wait in the buffer.
// Connections: at most max_connections at once (an idle keep-alive one is
// closed to make room) and max_connections_per_address from one client
// address (beyond it a new connection is closed at once).
#ifndef SCAMCHECK_ADAPTERS_SERVER_HTTP_HTTP_SERVER_H_
#define SCAMCHECK_ADAPTERS_SERVER_HTTP_HTTP_SERVER_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "http/http_types.h"
#include "scamcheck/status.h"
#include "server_limits.h"

namespace scamcheck::server {

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 8080;  // 0: any free port (see HttpServer::port())
  unsigned threads = 0;       // 0: one per core
  std::size_t max_connections = kDefaultMaxConnections;
  std::chrono::seconds idle_timeout = kDefaultIdleTimeout;
  std::size_t max_connections_per_address = kDefaultMaxConnectionsPerAddress;  // 0: no cap
  std::chrono::seconds header_timeout = kDefaultHeaderTimeout;
  std::chrono::seconds read_timeout = kDefaultReadTimeout;  // the body, after the head
};

// The head of `response` (status line and fields, up to the blank line)
// as Beast's serializer writes it, so a response goes out as this string
// and the body in one send; nullopt when Beast must write it (a field with
// CR, LF or NUL, a framing field set by the handler, an unknown status).
std::optional<std::string> response_head(const Response& response, bool keep_alive);

class HttpServer {
 public:
  HttpServer(HttpServerOptions options, RequestHandler& handler);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds and listens. Fails when the address is invalid or in use.
  Status listen();
  // The bound port (after listen()).
  std::uint16_t port() const;
  // Serves until SIGTERM or SIGINT, then drains and returns.
  void run();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_HTTP_HTTP_SERVER_H_
