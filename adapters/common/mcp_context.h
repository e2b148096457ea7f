// The caller of an MCP request, as the MCP core (mcp_server.h) sees it: the
// one interface a transport implements to plug in who is calling, what they
// may do, how their scans are counted and where their reports are kept.
//
//   scamcheck-mcp (stdio)   MemoryMcpContext below: all abilities, no daily
//                           limit, the process's reports kept in memory.
//   scamcheckd (HTTP)       a context per request, built from the bearer
//                           token: its abilities, the user's daily bucket
//                           (the same one the scan API uses), the store.
//
// A context serves one request at a time: the core calls it only from the
// thread that called McpServer::handle(), and never keeps it after handle()
// returns. Its members may block (a store write); they must not throw.
#ifndef SCAMCHECK_ADAPTERS_COMMON_MCP_CONTEXT_H_
#define SCAMCHECK_ADAPTERS_COMMON_MCP_CONTEXT_H_

#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scamcheck/analyzer.h"
#include "scamcheck/report.h"
#include "scamcheck/status.h"

namespace scamcheck::adapters {

// Abilities (CONTRACT §4) the tools need.
inline constexpr std::string_view kAbilityScanCreate = "scan:create";
inline constexpr std::string_view kAbilityReportsRead = "reports:read";

// One scan a tool asks for. Each scan that returns a report is one report
// the tool returns, so it counts once against the caller's daily bucket and
// is stored as the caller's report (CONTRACT §5).
struct McpScanRequest {
  Kind kind = Kind::kText;
  std::string_view content;  // the bytes to analyze (base64 already decoded)
  std::string_view locale;   // BCP 47 tag as asked for; never empty
  std::string_view tool;     // the tool asking, e.g. "scan_links" (for logs)
};

class McpContext {
 public:
  virtual ~McpContext() = default;

  // True when the caller may do `ability` (kAbilityScanCreate,
  // kAbilityReportsRead). The tools check this before anything else and
  // answer an isError result when it is false.
  virtual bool has_ability(std::string_view ability) const = 0;

  // The locale to answer in when a request names none (e.g. from the HTTP
  // Accept-Language header); "" means "en".
  virtual std::string preferred_locale() const { return {}; }

  // Runs one scan for the caller and returns its report once it is stored.
  // Errors, each becoming an isError tool result with a catalog text:
  //   kResourceExhausted   the daily bucket is empty ("daily limit reached")
  //   kInvalidArgument     bad content (empty, invalid UTF-8, unknown kind)
  //   kOutOfRange          content over the size limit
  //   kUnimplemented       the kind is not in this build (images today)
  //   kUnavailable         the store or a dependency is down
  //   anything else        an internal error
  //
  // The default does charge() -> analyzer.analyze() -> save(), calling
  // refund() when the analysis or the save fails, so only successful scans
  // count. A transport with more to do (a URL cache whose hits are not
  // counted, reputation feeds that annotate the report) overrides scan()
  // as a whole, or just the hooks.
  virtual Result<Report> scan(const Analyzer& analyzer, const McpScanRequest& request);

  // Counts and stores a report made outside scan(): scan_qr's reports come
  // from one decoding of the image (Analyzer::analyze_qr_codes), each one a
  // report the tool returns. The default does charge() -> save(), calling
  // refund() when the save fails. Errors as scan(). A transport that
  // overrides scan() without the hooks overrides this too.
  virtual Status record(const Report& report, const McpScanRequest& request);

  // The caller's most recent reports, newest first, at most `limit`
  // (1..100), each as the Report JSON write_report() produced when it was
  // stored.
  virtual Result<std::vector<std::string>> recent_reports(int limit) = 0;

  // The caller's report with this id as stored Report JSON; nullopt when
  // there is none or it belongs to someone else (the two are not told
  // apart, as with 404 in the scan API).
  virtual Result<std::optional<std::string>> find_report(std::string_view id) = 0;

  // Told about a failure the caller cannot fix (kUnavailable, kInternal,
  // ...) before the tool answers it with a generic isError text; for the
  // transport's log. Default: nothing.
  virtual void log_failure(std::string_view tool, const Status& status);

 protected:
  // Hooks of the default scan() and record().
  // Takes one unit from the daily bucket: OK, kResourceExhausted when it is
  // empty, or another error (kUnavailable) when it cannot be read. Default:
  // unlimited.
  virtual Status charge(const McpScanRequest& request);
  // Gives back the unit charge() took, after a failed scan. Default: none.
  virtual void refund(const McpScanRequest& request);
  // Stores the report as the caller's; the scan succeeds only when this
  // returns OK (the server returns it durable, CONTRACT §8).
  virtual Status save(const Report& report, const McpScanRequest& request) = 0;
};

// The stdio transport's context: a single local user with every ability
// and no daily limit, whose reports live in this process's memory (the
// newest kMaxReports; older ones are dropped). Thread-safe.
class MemoryMcpContext : public McpContext {
 public:
  static constexpr std::size_t kMaxReports = 1000;

  explicit MemoryMcpContext(std::string preferred_locale = {})
      : preferred_locale_(std::move(preferred_locale)) {}

  bool has_ability(std::string_view) const override { return true; }
  std::string preferred_locale() const override { return preferred_locale_; }
  Result<std::vector<std::string>> recent_reports(int limit) override;
  Result<std::optional<std::string>> find_report(std::string_view id) override;

  std::size_t size() const;

 protected:
  Status save(const Report& report, const McpScanRequest& request) override;

 private:
  struct Stored {
    std::string id;
    std::string json;
  };
  std::string preferred_locale_;
  mutable std::mutex mutex_;
  std::deque<Stored> reports_;  // oldest first
};

}  // namespace scamcheck::adapters

#endif  // SCAMCHECK_ADAPTERS_COMMON_MCP_CONTEXT_H_
