// The MCP stdio transport: newline-delimited JSON-RPC messages on standard
// input, one response line per request on standard output, nothing else on
// standard output (logs go to standard error).
#ifndef SCAMCHECK_ADAPTERS_MCP_STDIO_STDIO_TRANSPORT_H_
#define SCAMCHECK_ADAPTERS_MCP_STDIO_STDIO_TRANSPORT_H_

#include <cstddef>

#include "common/mcp_context.h"
#include "common/mcp_server.h"

namespace scamcheck::mcp_stdio {

// Longest message accepted, in bytes (CONTRACT §2: MCP bodies up to 16 MiB,
// for base64 images). A longer line is answered with a parse error and
// skipped without being held in memory.
inline constexpr std::size_t kMaxMessageBytes = std::size_t{16} << 20;

// Serves messages from `in_fd` to `out_fd` until the input ends. Returns the
// process exit code: 0 at the end of input, 74 (EX_IOERR) when reading or
// writing failed.
int serve_stdio(const adapters::McpServer& server, adapters::McpContext& context, int in_fd,
                int out_fd);

}  // namespace scamcheck::mcp_stdio

#endif  // SCAMCHECK_ADAPTERS_MCP_STDIO_STDIO_TRANSPORT_H_
