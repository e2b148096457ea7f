// MCP protocol vocabulary shared by the MCP core's files: the protocol
// revisions this project speaks and JSON-RPC error codes.
#ifndef SCAMCHECK_ADAPTERS_COMMON_MCP_PROTOCOL_H_
#define SCAMCHECK_ADAPTERS_COMMON_MCP_PROTOCOL_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace scamcheck::adapters {

// The MCP revisions accepted (CONTRACT §5), oldest first. The first three
// open a session with `initialize`; 2026-07-28 is stateless: every request
// names its revision in params._meta and no handshake exists.
enum class McpRevision { k20250326, k20250618, k20251125, k20260728 };

inline constexpr std::string_view kMcpRevisionNames[] = {"2025-03-26", "2025-06-18", "2025-11-25",
                                                         "2026-07-28"};
// What an `initialize` asking for an unknown revision is offered.
inline constexpr McpRevision kMcpLatestSessionRevision = McpRevision::k20251125;
inline constexpr McpRevision kMcpStatelessRevision = McpRevision::k20260728;

inline std::string_view to_string(McpRevision revision) {
  return kMcpRevisionNames[static_cast<int>(revision)];
}
inline std::optional<McpRevision> parse_mcp_revision(std::string_view name) {
  for (int i = 0; i < 4; ++i) {
    if (kMcpRevisionNames[i] == name) return static_cast<McpRevision>(i);
  }
  return std::nullopt;
}
// Tool outputSchema/structuredContent, and `title` on tools, prompts and
// resources, exist from 2025-06-18 on.
inline bool has_structured_output(McpRevision revision) {
  return revision >= McpRevision::k20250618;
}
// JSON-RPC batches (arrays of messages) exist only in 2025-03-26.
inline bool allows_batches(McpRevision revision) { return revision == McpRevision::k20250326; }

// The `_meta` keys of a stateless (2026-07-28) request and result.
inline constexpr std::string_view kMetaProtocolVersion = "io.modelcontextprotocol/protocolVersion";
inline constexpr std::string_view kMetaClientCapabilities =
    "io.modelcontextprotocol/clientCapabilities";
inline constexpr std::string_view kMetaClientInfo = "io.modelcontextprotocol/clientInfo";
inline constexpr std::string_view kMetaServerInfo = "io.modelcontextprotocol/serverInfo";

// JSON-RPC 2.0 error codes, and those MCP defines.
inline constexpr int kJsonRpcParseError = -32700;
inline constexpr int kJsonRpcInvalidRequest = -32600;
inline constexpr int kJsonRpcMethodNotFound = -32601;
inline constexpr int kJsonRpcInvalidParams = -32602;
inline constexpr int kJsonRpcInternalError = -32603;
inline constexpr int kMcpResourceNotFound = -32002;            // session revisions only
inline constexpr int kMcpUnsupportedProtocolVersion = -32022;  // 2026-07-28

// A JSON-RPC error answer. Messages are English, for developers.
struct RpcError {
  RpcError(int code, std::string message, std::string data_json = {})
      : code(code), message(std::move(message)), data_json(std::move(data_json)) {}

  int code;
  std::string message;
  std::string data_json;  // the error's `data` as JSON text; empty: none
};

}  // namespace scamcheck::adapters

#endif  // SCAMCHECK_ADAPTERS_COMMON_MCP_PROTOCOL_H_
