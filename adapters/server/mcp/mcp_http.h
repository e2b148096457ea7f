// MCP over Streamable HTTP (CONTRACT §5): POST {base_url}/mcp/<name> carries
// one JSON-RPC message (or a 2025-03-26 batch) and is answered with
// application/json — the MCP core's reply (common/mcp_server.h) — or 202
// with no body when the body held no request. GET and DELETE are 405 (no
// server-initiated streams, no sessions).
//
// Per request, in order:
//   name      the path's <name> is --mcp-name, else 404
//   Origin    absent, or the --base-url origin, or one of --allowed-origins;
//             else 403 (DNS rebinding protection)
//   token     a valid bearer token (any ability; the tools check theirs),
//             else 401 — the router, as for the scan API
//   headers   MCP-Protocol-Version: absent means 2025-03-26; an unknown
//             value is 400. Stateless 2026-07-28 requests must also carry
//             Mcp-Method (and Mcp-Name for tools/call, prompts/get,
//             resources/read) equal to the body's, and the header revision
//             equal to params._meta's; else 400 with JSON-RPC error -32020.
//   core      McpServer::handle() on a worker thread, with a
//             ServerMcpContext (mcp_context_impl.h) for the token's user.
//
// No Mcp-Session-Id is issued: the session revisions' state is the
// negotiated revision, which clients repeat in MCP-Protocol-Version on every
// request, so any process sharing the database can serve any request.
#ifndef SCAMCHECK_ADAPTERS_SERVER_MCP_MCP_HTTP_H_
#define SCAMCHECK_ADAPTERS_SERVER_MCP_MCP_HTTP_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/mcp_server.h"
#include "http/route_table.h"
#include "scamcheck/analyzer.h"
#include "scamcheck/status.h"

namespace scamcheck::server {

struct McpEndpointOptions {
  // The endpoint's name, the last path segment and serverInfo.name
  // (--mcp-name). REQUIRES: 1-64 characters of [A-Za-z0-9._-].
  std::string name = "scamcheck";
  // The public base URL (--base-url); its origin may send requests. Empty:
  // only `allowed_origins` may.
  std::string base_url;
  // Further origins that may send requests (--allowed-origins), e.g.
  // "https://app.example.com".
  std::vector<std::string> allowed_origins;
  // Worker threads running MCP requests (analyses and durable store
  // writes, which block). 0: one per core.
  unsigned threads = 0;
};

class McpEndpoint {
 public:
  // Validates the options and builds the MCP core. `analyzer` must outlive
  // the endpoint.
  static Result<std::unique_ptr<McpEndpoint>> create(const Analyzer& analyzer,
                                                     McpEndpointOptions options);
  ~McpEndpoint();  // waits for the requests in flight (join())
  McpEndpoint(const McpEndpoint&) = delete;
  McpEndpoint& operator=(const McpEndpoint&) = delete;

  const std::string& name() const { return options_.name; }
  const adapters::McpServer& server() const { return *server_; }

  // True when a request with this Origin header value may be served.
  bool origin_allowed(std::string_view origin) const;
  // Runs `work` on a worker thread.
  void post(std::function<void()> work);
  // Waits until every posted request has finished; posts no more after it.
  void join();

 private:
  struct Pool;
  McpEndpoint(McpEndpointOptions options, std::unique_ptr<adapters::McpServer> server,
              std::vector<std::string> origins);

  McpEndpointOptions options_;
  std::unique_ptr<adapters::McpServer> server_;
  std::vector<std::string> origins_;  // normalized: scheme://host[:port]
  std::unique_ptr<Pool> pool_;
};

// "scheme://host[:port]" of a URL or an Origin value, lower-cased, without a
// default port (80 for http, 443 for https), path or user info; "" when it
// is not an http(s) URL.
std::string normalize_origin(std::string_view url);

// The route table's entry for the endpoint: POST /mcp/{mcp_name}.
RouteSpec mcp_route();

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_MCP_MCP_HTTP_H_
