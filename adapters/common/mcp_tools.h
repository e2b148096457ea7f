// The MCP tools (CONTRACT §5): their definitions for tools/list and their
// execution for tools/call. Each tool makes the same library call as the
// scan API route does; what the caller may do, how scans are counted and
// where reports go is the McpContext's business. Used by mcp_server.cc.
#ifndef SCAMCHECK_ADAPTERS_COMMON_MCP_TOOLS_H_
#define SCAMCHECK_ADAPTERS_COMMON_MCP_TOOLS_H_

#include <simdjson.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "common/mcp_catalog.h"
#include "common/mcp_context.h"
#include "common/mcp_protocol.h"
#include "common/report_json.h"
#include "scamcheck/analyzer.h"

namespace scamcheck::adapters {

// Most links scan_links analyzes in one call (the rest are named in the
// text result as not checked).
inline constexpr std::size_t kMaxLinksPerCall = 20;
// list_my_recent_reports' `limit`: default and range.
inline constexpr int kDefaultRecentReports = 10;
inline constexpr int kMaxRecentReports = 100;

// Immutable; thread-safe. Holds references: `analyzer` and `catalog` must
// outlive it.
class McpTools {
 public:
  McpTools(const Analyzer& analyzer, const McpCatalog& catalog)
      : analyzer_(analyzer), catalog_(catalog) {}

  // Writes the member "tools": [...] of a tools/list result (inside an open
  // object), in a fixed order. outputSchema and title only for revisions
  // that have them.
  void write_list(JsonWriter& writer, McpRevision revision) const;

  // Runs tools/call for tool `name` with `arguments` (an object, or null
  // when the request had none) and writes the members of its CallToolResult
  // (content, structuredContent, isError) inside an open object. Tool
  // failures (bad arguments, a missing ability, the daily limit, content the
  // library rejects) are isError results; only an unknown tool or arguments
  // that are not an object come back as an RpcError, with nothing written.
  std::optional<RpcError> call(std::string_view name, simdjson::dom::element arguments,
                               McpRevision revision, McpContext& context, JsonWriter& writer) const;

 private:
  struct Outcome;
  class Args;

  static Outcome error_outcome();
  Outcome scan_one(Args& args, std::string_view tool, McpContext& context) const;
  Outcome scan_image(Args& args, std::string_view tool, McpContext& context) const;
  Outcome scan_links(Args& args, McpContext& context) const;
  Outcome list_recent(Args& args, McpContext& context) const;
  Outcome failed(const Status& status, const Args& args, std::string_view tool,
                 McpContext& context) const;

  std::string render_report(const Report& report) const;
  void write_outcome(const Outcome& outcome, McpRevision revision, JsonWriter& writer) const;

  const Analyzer& analyzer_;
  const McpCatalog& catalog_;
};

}  // namespace scamcheck::adapters

#endif  // SCAMCHECK_ADAPTERS_COMMON_MCP_TOOLS_H_
