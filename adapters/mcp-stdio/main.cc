// scamcheck-mcp: the MCP server over stdio (CONTRACT §5, §8). It embeds the
// library, so a desktop agent runs it as a local command: no server, no
// token, no network. Reports made in this process are kept in memory, so
// list_my_recent_reports and the explain_report_to_my_parent prompt work.
//
//   scamcheck-mcp [--locale L] [--data-dir DIR]
//
// Standard input carries newline-delimited JSON-RPC messages, standard
// output the responses (and nothing else), standard error the logs. It
// exits 0 when standard input ends.
#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>

#include "common/mcp_context.h"
#include "common/mcp_server.h"
#include "common/provider_flags.h"
#include "common/status_map.h"
#include "scamcheck/scamcheck.h"
#include "stdio_transport.h"

namespace scamcheck::mcp_stdio {
namespace {

constexpr char kFooter[] = R"(Add it to an MCP client's configuration, for example:
  {"mcpServers": {"scamcheck": {"command": "scamcheck-mcp", "args": ["--locale", "en"]}}}

Tools: scan_text, scan_url, scan_email, scan_image, scan_qr, scan_links,
list_my_recent_reports. Prompt: explain_report_to_my_parent. Resource:
scamcheck://signals/glossary. Protocol revisions 2025-03-26, 2025-06-18,
2025-11-25 (initialize) and 2026-07-28 (stateless).
)";

// The local user: every ability, no daily limit, reports in memory; the
// failures a user cannot fix are logged to standard error.
class StdioContext final : public adapters::MemoryMcpContext {
 public:
  using MemoryMcpContext::MemoryMcpContext;

  void log_failure(std::string_view tool, const Status& status) override {
    std::fprintf(stderr, "scamcheck-mcp: %.*s failed: %s\n", static_cast<int>(tool.size()),
                 tool.data(), status.to_string().c_str());
  }
};

int run(int argc, char** argv) {
  CLI::App app(
      "scamcheck-mcp: the ScamCheck MCP server over stdio. AI agents call its tools to check "
      "messages, links and emails for scams; every verdict quotes its evidence.",
      "scamcheck-mcp");
  app.footer(kFooter);
  app.set_version_flag("--version", std::string("scamcheck-mcp ") + SCAMCHECK_VERSION_STRING);
  std::string locale;
  std::string data_dir;
  app.add_option("--locale,-l", locale,
                 "Language of answers when a request names none, a BCP 47 tag (default en)")
      ->type_name("L");
  app.add_option("--data-dir", data_dir,
                 "Load the data pack (rules, lists, locales) from DIR instead of the copy built "
                 "into the program")
      ->type_name("DIR")
      ->check(CLI::Validator(CLI::ExistingDirectory).description(""));
  adapters::ProviderFlags providers;
  adapters::add_provider_flags(app, providers);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints help, the version, or the error
    return code == 0 ? 0 : adapters::kExitUsage;
  }

  // A client that goes away must not kill us mid-write; the write fails instead.
  ::signal(SIGPIPE, SIG_IGN);

  Options options{.data_dir = data_dir};
  if (Status s = adapters::configure_providers(providers, options); !s.ok()) {
    std::fprintf(stderr, "scamcheck-mcp: %s\n", s.message().c_str());
    return adapters::kExitUsage;
  }
  auto analyzer = Analyzer::create(options);
  if (!analyzer.ok()) {
    std::fprintf(stderr, "scamcheck-mcp: cannot load the data pack: %s\n",
                 analyzer.status().to_string().c_str());
    return adapters::kExitSoftware;
  }
  auto server = adapters::McpServer::create(**analyzer);
  if (!server.ok()) {
    std::fprintf(stderr, "scamcheck-mcp: %s\n", server.status().to_string().c_str());
    return adapters::kExitSoftware;
  }
  StdioContext context(locale);
  if (isatty(STDIN_FILENO)) {
    std::fprintf(stderr,
                 "scamcheck-mcp: an MCP server; it reads JSON-RPC messages, one per line, from "
                 "standard input (an MCP client starts it). Ctrl-D ends it.\n");
  }
  return serve_stdio(**server, context, STDIN_FILENO, STDOUT_FILENO);
}

}  // namespace
}  // namespace scamcheck::mcp_stdio

int main(int argc, char** argv) {
  try {
    return scamcheck::mcp_stdio::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "scamcheck-mcp: internal error: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "scamcheck-mcp: internal error\n");
  }
  return scamcheck::adapters::kExitSoftware;
}
