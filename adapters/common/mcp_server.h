// The MCP core (CONTRACT §5): one JSON-RPC message in, the response out,
// with no transport in sight. The stdio binary (adapters/mcp-stdio) feeds it
// lines; scamcheckd's Streamable HTTP endpoint feeds it POST bodies. The
// transport adds only framing, authentication, and the McpContext (who is
// calling, their bucket and their reports).
//
//   auto server = McpServer::create(*analyzer);            // once
//   McpSession session;                                    // per stdio process
//   MemoryMcpContext context;                              //   or HTTP session
//   std::optional<std::string> reply = (*server)->handle(line, session, context);
//   if (reply) write(*reply);                               // none for notifications
//
// Protocol revisions (negotiated per the MCP specification):
//   2025-03-26, 2025-06-18, 2025-11-25  session revisions: `initialize`
//       negotiates one, stored in McpSession (an unknown or older request
//       gets 2025-11-25); requests then follow it. JSON-RPC batches only in
//       2025-03-26; tool outputSchema/structuredContent from 2025-06-18 (to
//       2025-03-26 the structured result is sent as a second text block).
//   2026-07-28  stateless: no handshake; every request names the revision
//       and client capabilities in params._meta
//       ("io.modelcontextprotocol/protocolVersion", ".../clientCapabilities").
//       Results carry resultType and _meta serverInfo; list and read results
//       ttlMs/cacheScope; server/discover lists every revision. A request
//       naming a revision this server does not speak gets error -32022 with
//       {supported, requested}.
// Both eras are served side by side ("dual-era"): a request carrying the
// stateless _meta is served statelessly whatever the session holds.
//
// Thread safety: McpServer is immutable after create(); handle() may run on
// many threads at once, each call with its own session and context (a
// session must not be used by two calls at once). handle() never throws.
#ifndef SCAMCHECK_ADAPTERS_COMMON_MCP_SERVER_H_
#define SCAMCHECK_ADAPTERS_COMMON_MCP_SERVER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/mcp_catalog.h"
#include "common/mcp_context.h"
#include "common/mcp_protocol.h"
#include "common/report_json.h"
#include "scamcheck/analyzer.h"

namespace scamcheck::adapters {

// What a session revision's `initialize` established. The stdio transport
// keeps one for the process; the HTTP transport one per Mcp-Session-Id (or,
// serving without sessions, one per request with `revision` set from the
// MCP-Protocol-Version header).
struct McpSession {
  std::optional<McpRevision> revision;  // none before `initialize`
  bool initialized = false;             // notifications/initialized arrived
  std::string client_name;              // clientInfo, for logs
  std::string client_version;
};

struct McpServerOptions {
  // serverInfo.name: the MCP server's name (scamcheckd's --mcp-name).
  std::string name = "scamcheck";
  // How long 2026-07-28 clients may cache list results, resources/read and
  // server/discover, in milliseconds (ttlMs). Default: one hour; nothing
  // they return changes while the process runs.
  std::int64_t cache_ttl_ms = 3'600'000;
};

// Facts about a message a transport may need before handing it over (e.g.
// HTTP checks its Mcp-Method, Mcp-Name and MCP-Protocol-Version headers
// against the body, answers 202 when there is no request).
struct McpMessageInfo {
  bool valid = false;            // parsed as JSON: an object or an array
  bool batch = false;            // an array of messages
  bool has_request = false;      // at least one message needs an answer
  std::string method;            // the (first) message's method
  std::string name;              // params.name (tools/call, prompts/get) or params.uri
  std::string protocol_version;  // params._meta[io.modelcontextprotocol/protocolVersion]
};

class McpTools;

// A JSON-RPC error answer with a null id, for a transport that refuses a
// message before the core reads it.
std::string rpc_error_response(const RpcError& error);
// Error -32022 (unsupported protocol version) with data {supported,
// requested}, the revisions newest first.
RpcError unsupported_version_error(std::string_view requested);

// Most messages in one JSON-RPC batch (2025-03-26 sessions): each may be a
// scan, so a larger batch is refused whole (-32600) instead of run.
inline constexpr std::size_t kMaxMcpBatchMessages = 32;

class McpServer {
 public:
  // Loads the catalogs and builds the glossary resource. `analyzer` must
  // outlive the server.
  static Result<std::unique_ptr<McpServer>> create(const Analyzer& analyzer,
                                                   McpServerOptions options = {});

  // Handles one message: a request, a notification, a client's response, or
  // (2025-03-26 sessions only) a batch of at most kMaxMcpBatchMessages of
  // them; later revisions removed batches, so an array is a JSON-RPC error
  // there (-32600), as is a larger batch. Returns the JSON text to
  // send back, or nullopt when nothing is to be sent (notifications and
  // responses). Malformed JSON gets a JSON-RPC parse error, never a crash.
  std::optional<std::string> handle(std::string_view message, McpSession& session,
                                    McpContext& context) const;

  static McpMessageInfo inspect(std::string_view message);

  ~McpServer();
  McpServer(const McpServer&) = delete;
  McpServer& operator=(const McpServer&) = delete;

  const McpCatalog& catalog() const { return *catalog_; }
  // The signals_glossary resource's JSON (CONTRACT §5).
  const std::string& glossary_json() const { return glossary_json_; }

 private:
  struct Request;
  McpServer(const Analyzer& analyzer, McpServerOptions options,
            std::shared_ptr<const McpCatalog> catalog);

  std::optional<std::string> handle_one(Request& request, McpSession& session,
                                        McpContext& context) const;
  std::optional<RpcError> dispatch(const Request& request, McpSession& session, McpContext& context,
                                   JsonWriter& writer, bool* cacheable) const;
  std::optional<RpcError> initialize(const Request& request, McpSession& session,
                                     JsonWriter& writer) const;
  void discover(JsonWriter& writer) const;
  void list_prompts(const Request& request, JsonWriter& writer) const;
  std::optional<RpcError> get_prompt(const Request& request, McpContext& context,
                                     JsonWriter& writer) const;
  void list_resources(const Request& request, JsonWriter& writer) const;
  std::optional<RpcError> read_resource(const Request& request, JsonWriter& writer) const;
  void write_server_info(JsonWriter& writer, bool with_title) const;

  const Analyzer& analyzer_;
  McpServerOptions options_;
  std::shared_ptr<const McpCatalog> catalog_;
  std::unique_ptr<const McpTools> tools_;
  std::string glossary_json_;
};

}  // namespace scamcheck::adapters

#endif  // SCAMCHECK_ADAPTERS_COMMON_MCP_SERVER_H_
