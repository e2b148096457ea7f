// The plain request and response types handlers work with, kept apart from
// connection I/O (http_server.h): a handler is a function from Request to
// Response and never sees a socket.
#ifndef SCAMCHECK_ADAPTERS_SERVER_HTTP_HTTP_TYPES_H_
#define SCAMCHECK_ADAPTERS_SERVER_HTTP_HTTP_TYPES_H_

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace scamcheck::server {

// Equal ignoring ASCII case (header names, the "Bearer" scheme).
bool ascii_iequals(std::string_view a, std::string_view b);

using HeaderList = std::vector<std::pair<std::string, std::string>>;

struct Request {
  std::string method;  // "GET", "POST", ...
  std::string target;  // as sent: path plus query
  std::string path;    // target up to '?'
  std::string query;   // after '?', without it; may be empty
  HeaderList headers;
  std::string body;
  std::string remote_address;

  // The first header named `name` (case-insensitive), or "" when absent.
  std::string_view header(std::string_view name) const;
  bool has_header(std::string_view name) const;
};

struct Response {
  int status = 200;
  std::string content_type;  // empty: no body
  std::string body;
  HeaderList headers;

  void set_header(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
  }
};

// Delivers the response of one request; call exactly once, from any thread.
using Reply = std::function<void(Response)>;

// Why the connection layer answered a request itself, before any handler.
enum class EarlyError {
  kBadRequest,      // unparseable HTTP, refused framing or request-target (framing.h)
  kHeaderTooLarge,  // request line and headers over kMaxHeaderBytes
  kBodyTooLarge,    // body over the limit for its media type
  kTimeout,         // head or body not received within its deadline (408)
};

// What the connection layer calls. Implemented by Router.
class RequestHandler {
 public:
  virtual ~RequestHandler() = default;
  // Handles one complete request; `reply` may run on another thread.
  virtual void handle(Request request, Reply reply) = 0;
  // The response for a request the connection layer rejects itself;
  // `request` has the method, target and headers but no body.
  virtual Response early_error(const Request& request, EarlyError error) = 0;
};

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_HTTP_HTTP_TYPES_H_
