#include "stdio_transport.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "common/line_reader.h"

namespace scamcheck::mcp_stdio {
namespace {

constexpr int kExitIoError = 74;  // EX_IOERR

bool write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// The JSON-RPC parse error for a message over kMaxMessageBytes.
std::string too_long_error() {
  return adapters::rpc_error_response(
      {adapters::kJsonRpcParseError,
       "Parse error: message longer than " + std::to_string(kMaxMessageBytes) + " bytes"});
}

}  // namespace

int serve_stdio(const adapters::McpServer& server, adapters::McpContext& context, int in_fd,
                int out_fd) {
  adapters::McpSession session;  // one stdio process is one session
  adapters::LineReader reader(in_fd, kMaxMessageBytes);
  std::string_view line;
  bool too_long = false;
  while (reader.next(&line, &too_long)) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::optional<std::string> reply;
    if (too_long) {
      reply = too_long_error();
    } else if (adapters::is_blank_line(line)) {
      continue;
    } else {
      reply = server.handle(line, session, context);
    }
    if (!reply) continue;
    reply->push_back('\n');
    if (!write_all(out_fd, *reply)) {
      std::fprintf(stderr, "scamcheck-mcp: cannot write to standard output: %s\n",
                   std::strerror(errno));
      return kExitIoError;
    }
  }
  if (reader.failed()) {
    std::fprintf(stderr, "scamcheck-mcp: cannot read standard input: %s\n", std::strerror(errno));
    return kExitIoError;
  }
  return 0;
}

}  // namespace scamcheck::mcp_stdio
