#include "mcp/mcp_http.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "app.h"
#include "logging.h"
#include "mcp/mcp_context_impl.h"

namespace scamcheck::server {
namespace {

using adapters::McpMessageInfo;
using adapters::McpRevision;

constexpr char kJson[] = "application/json";
constexpr char kProblem[] = "application/problem+json";
constexpr std::string_view kProtocolVersionHeader = "MCP-Protocol-Version";
constexpr std::string_view kMethodHeader = "Mcp-Method";
constexpr std::string_view kNameHeader = "Mcp-Name";
// HeaderMismatch (2026-07-28): the Mcp-* headers are missing, malformed or
// disagree with the body.
constexpr int kMcpHeaderMismatch = -32020;

// What a session-revision request without MCP-Protocol-Version is served
// as (the header exists from 2025-06-18 on).
constexpr McpRevision kRevisionWithoutHeader = McpRevision::k20250326;

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '_' || c == '-';
}

// A JSON-RPC error answer with a null id (the transport rejects the message
// before reading it).
std::string rpc_error(int code, std::string message) {
  return adapters::rpc_error_response({code, std::move(message)});
}

Response json_response(int status, std::string body) {
  Response r;
  r.status = status;
  r.content_type = kJson;
  r.body = std::move(body);
  return r;
}

// Methods whose 2026-07-28 requests name their target in Mcp-Name.
bool has_name_header(std::string_view method) {
  return method == "tools/call" || method == "prompts/get" || method == "resources/read";
}

// The HTTP-level checks of a message before the core sees it. Fills
// *session for session revisions; returns the answer when the request is
// refused.
std::optional<Response> check_headers(const Request& request, const McpMessageInfo& info,
                                      adapters::McpSession* session) {
  const std::string_view header_version = request.header(kProtocolVersionHeader);
  if (info.method == "initialize" && !info.batch) return std::nullopt;  // negotiates itself

  // The revision the request is served as: the body's _meta names it for
  // stateless requests, the header for everything.
  const std::string_view version =
      !info.protocol_version.empty() ? std::string_view(info.protocol_version) : header_version;
  const std::optional<McpRevision> revision =
      version.empty() ? std::optional<McpRevision>(kRevisionWithoutHeader)
                      : adapters::parse_mcp_revision(version);
  if (!revision) {
    return json_response(
        400, adapters::rpc_error_response(adapters::unsupported_version_error(version)));
  }
  if (!info.protocol_version.empty() && header_version != info.protocol_version) {
    return json_response(
        400, rpc_error(kMcpHeaderMismatch,
                       "Header mismatch: MCP-Protocol-Version must equal params._meta[\"" +
                           std::string(adapters::kMetaProtocolVersion) + "\"]"));
  }
  if (*revision != adapters::kMcpStatelessRevision) {
    session->revision = revision;
    session->initialized = true;
    return std::nullopt;
  }

  // 2026-07-28: every request names its revision in the body and mirrors
  // its method (and target) in headers.
  if (info.has_request && info.protocol_version.empty() && info.method != "server/discover") {
    return json_response(
        400, rpc_error(kMcpHeaderMismatch,
                       "Header mismatch: MCP-Protocol-Version is 2026-07-28 but the request "
                       "names no revision in params._meta[\"" +
                           std::string(adapters::kMetaProtocolVersion) + "\"]"));
  }
  if (!request.has_header(kMethodHeader) || request.header(kMethodHeader) != info.method) {
    return json_response(400, rpc_error(kMcpHeaderMismatch,
                                        "Header mismatch: Mcp-Method must be present and equal "
                                        "the request's method"));
  }
  if (has_name_header(info.method) &&
      (!request.has_header(kNameHeader) || request.header(kNameHeader) != info.name)) {
    return json_response(
        400, rpc_error(kMcpHeaderMismatch,
                       "Header mismatch: Mcp-Name must be present and equal params.name (or "
                       "params.uri)"));
  }
  return std::nullopt;
}

// Runs on a worker thread: the header checks, the core, the answer.
void serve(App& app, McpEndpoint& endpoint, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  const std::string& body = ex.request.body;
  const McpMessageInfo info = adapters::McpServer::inspect(body);
  ServerMcpContext context(app, *ex.token, ex.accept_language, ex.request_id);
  adapters::McpSession session;
  if (!info.valid) {  // the core's parse error, as 400
    std::optional<std::string> reply = endpoint.server().handle(body, session, context);
    return ex.respond(
        json_response(400, reply.value_or(rpc_error(adapters::kJsonRpcParseError, "Parse error"))));
  }
  if (std::optional<Response> refused = check_headers(ex.request, info, &session)) {
    LogLine(LogLevel::kInfo, "mcp_refused")
        .field("request_id", ex.request_id)
        .field("method", info.method)
        .field("reason", refused->body);
    return ex.respond(std::move(*refused));
  }
  std::optional<std::string> reply = endpoint.server().handle(body, session, context);
  if (!reply) {  // notifications and responses only
    Response accepted;
    accepted.status = 202;
    return ex.respond(std::move(accepted));
  }
  ex.respond(json_response(200, std::move(*reply)));
}

bool admit_mcp(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  McpEndpoint* endpoint = app.mcp();
  if (endpoint == nullptr || ex.path_params["mcp_name"] != endpoint->name()) {
    ex.respond(problem(ex.problem_context(app.catalog()), 404, "detail.route_not_found"));
    return false;
  }
  if (ex.request.has_header("Origin") && !endpoint->origin_allowed(ex.request.header("Origin"))) {
    LogLine(LogLevel::kInfo, "mcp_origin_refused")
        .field("request_id", ex.request_id)
        .field("origin", ex.request.header("Origin").substr(0, 200));
    ex.respond(problem(ex.problem_context(app.catalog()), 403, "detail.origin_forbidden"));
    return false;
  }
  return true;
}

void handle_mcp(App& app, const std::shared_ptr<Exchange>& exchange) {
  McpEndpoint& endpoint = *app.mcp();  // admit_mcp checked it
  endpoint.post([&app, &endpoint, exchange] {
    try {
      serve(app, endpoint, exchange);
    } catch (const std::exception& e) {
      LogLine(LogLevel::kError, "handler_exception")
          .field("request_id", exchange->request_id)
          .field("error", e.what());
      if (exchange->reply) {
        exchange->respond(
            problem(exchange->problem_context(app.catalog()), 500, "detail.internal"));
      }
    }
  });
}

}  // namespace

struct McpEndpoint::Pool {
  explicit Pool(unsigned threads) : pool(threads) {}
  boost::asio::thread_pool pool;
  std::once_flag joined;
};

std::string normalize_origin(std::string_view url) {
  const std::size_t colon = url.find("://");
  if (colon == std::string_view::npos) return {};
  std::string scheme;
  for (char c : url.substr(0, colon)) scheme.push_back(lower(c));
  if (scheme != "http" && scheme != "https") return {};
  std::string_view authority = url.substr(colon + 3);
  authority = authority.substr(0, authority.find_first_of("/?#"));
  if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos) {
    authority.remove_prefix(at + 1);
  }
  if (authority.empty()) return {};
  std::string host;
  for (char c : authority) host.push_back(lower(c));
  // A port is what follows the last ':' outside an IPv6 literal's brackets.
  const std::size_t bracket = host.rfind(']');
  const std::size_t port_colon = host.rfind(':');
  if (port_colon != std::string::npos && (bracket == std::string::npos || port_colon > bracket)) {
    const std::string port = host.substr(port_colon + 1);
    if ((scheme == "http" && port == "80") || (scheme == "https" && port == "443") ||
        port.empty()) {
      host.resize(port_colon);
    }
  }
  return scheme + "://" + host;
}

Result<std::unique_ptr<McpEndpoint>> McpEndpoint::create(const Analyzer& analyzer,
                                                         McpEndpointOptions options) {
  if (options.name.empty() || options.name.size() > 64 ||
      !std::all_of(options.name.begin(), options.name.end(), is_name_char)) {
    return Status::invalid_argument(
        "--mcp-name must be 1-64 characters of A-Z a-z 0-9 . _ -, not " + options.name);
  }
  std::vector<std::string> origins;
  if (!options.base_url.empty()) {
    std::string origin = normalize_origin(options.base_url);
    if (origin.empty()) {
      return Status::invalid_argument("--base-url must be an http(s) URL, not " + options.base_url);
    }
    origins.push_back(std::move(origin));
  }
  for (const std::string& allowed : options.allowed_origins) {
    std::string origin = normalize_origin(allowed);
    if (origin.empty()) {
      return Status::invalid_argument(
          "--allowed-origins must list http(s) origins such as https://app.example.com, not " +
          allowed);
    }
    origins.push_back(std::move(origin));
  }
  adapters::McpServerOptions server_options;
  server_options.name = options.name;
  Result<std::unique_ptr<adapters::McpServer>> server =
      adapters::McpServer::create(analyzer, server_options);
  if (!server.ok()) return server.status();
  return std::unique_ptr<McpEndpoint>(
      new McpEndpoint(std::move(options), std::move(*server), std::move(origins)));
}

McpEndpoint::McpEndpoint(McpEndpointOptions options, std::unique_ptr<adapters::McpServer> server,
                         std::vector<std::string> origins)
    : options_(std::move(options)), server_(std::move(server)), origins_(std::move(origins)) {
  const unsigned threads =
      options_.threads ? options_.threads : std::max(1u, std::thread::hardware_concurrency());
  pool_ = std::make_unique<Pool>(threads);
}

McpEndpoint::~McpEndpoint() { join(); }

bool McpEndpoint::origin_allowed(std::string_view origin) const {
  const std::string normalized = normalize_origin(origin);
  if (normalized.empty()) return false;  // "null", or not an http(s) origin
  return std::find(origins_.begin(), origins_.end(), normalized) != origins_.end();
}

void McpEndpoint::post(std::function<void()> work) {
  boost::asio::post(pool_->pool, std::move(work));
}

void McpEndpoint::join() {
  std::call_once(pool_->joined, [this] { pool_->pool.join(); });
}

RouteSpec mcp_route() {
  RouteSpec r;
  r.method = "POST";
  r.path = "/mcp/{mcp_name}";
  r.operation_id = "mcp";
  r.tag = "mcp";
  r.summary = "MCP endpoint for AI agents (Streamable HTTP, JSON-RPC 2.0)";
  r.description =
      "The Model Context Protocol server: tools scan_text, scan_url, scan_email, scan_image, "
      "scan_qr, scan_links, list_my_recent_reports; prompt explain_report_to_my_parent; resource "
      "scamcheck://signals/glossary. Protocol revisions 2025-03-26, 2025-06-18 and 2025-11-25 "
      "(negotiated by `initialize`; later requests repeat the revision in "
      "`MCP-Protocol-Version`, absent means 2025-03-26) and the stateless 2026-07-28 (each "
      "request names its revision in `params._meta` and mirrors it in `MCP-Protocol-Version`, "
      "its method in `Mcp-Method` and, for tools/call, prompts/get and resources/read, its "
      "target in `Mcp-Name`; a missing or different header is 400 with JSON-RPC error -32020). "
      "Answers are `application/json`; a body without requests (notifications, responses) is "
      "202 with no body. No `Mcp-Session-Id` is issued; GET and DELETE are 405. A request "
      "whose `Origin` is neither the `--base-url` origin nor one of `--allowed-origins` is "
      "403. Scans are stored as the caller's reports and count against the same daily "
      "allowance as POST /api/v1/scan (repeated URL scans within 24 h excepted); tools need "
      "the abilities `scan:create` (scans) and `reports:read` (list_my_recent_reports, the "
      "prompt) and answer `isError` results without them. Bodies up to 16 MiB.";
  r.ability = "";  // any valid token; the tools check their abilities
  ParamSpec name;
  name.name = "mcp_name";
  name.in = ParamIn::kPath;
  name.required = true;
  name.description =
      "The server's MCP name (`--mcp-name`, default `scamcheck`); any other name is 404.";
  name.pattern = "^[A-Za-z0-9._-]{1,64}$";
  r.params = {name};
  r.body = BodySpec{"One JSON-RPC message, or (2025-03-26 only) a batch of at most 32.",
                    {{kJson, "JsonRpcMessage"}}};
  r.responses = {
      {200,
       "The JSON-RPC answer (a result or a JSON-RPC error).",
       kJson,
       "JsonRpcResponse",
       {"X-Request-ID"}},
      {202, "The body held only notifications or responses.", "", "", {"X-Request-ID"}},
      {400,
       "Not JSON (JSON-RPC parse error), an unsupported protocol revision (-32022), or "
       "MCP headers missing or disagreeing with the body (-32020); malformed HTTP is a problem "
       "document.",
       kJson,
       "JsonRpcResponse",
       {"X-Request-ID"}},
      {403, "The request's Origin is not allowed.", kProblem, "Problem", {"X-Request-ID"}},
      {404, "No MCP server of this name.", kProblem, "Problem", {"X-Request-ID"}},
      {503, "The token store cannot be read.", kProblem, "Problem", {"X-Request-ID"}},
  };
  r.more_content = {{400, {kProblem, "Problem"}}};
  r.handler = &handle_mcp;
  r.admit = &admit_mcp;
  return r;
}

}  // namespace scamcheck::server
