// The one scan flow of scamcheckd (CONTRACT §2): URL cache → daily
// allowance → analysis → durable store. POST /api/v1/scan (JSON bodies,
// handlers_scan.cc), its uploads (file_scans.cc) and the MCP tools
// (mcp/mcp_context_impl.cc) all run it; each turns the outcome into its own
// answer (a response or a tool result).
//
// The rules, once:
//   - a URL scan repeated by the same user within kUrlCacheTtl is answered
//     from the cache (urls[].cached true) and not counted, so the allowance
//     is only peeked at; any other scan reserves one unit first;
//   - a reserved unit is given back when the analysis or the store fails;
//   - the report is stored as the user's, with the content only when asked
//     (--retain-content; never for files), and a fresh URL scan fills the
//     cache in the same transaction.
#ifndef SCAMCHECK_ADAPTERS_SERVER_API_SCAN_FLOW_H_
#define SCAMCHECK_ADAPTERS_SERVER_API_SCAN_FLOW_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "auth/quota.h"
#include "scamcheck/analyzer.h"
#include "scamcheck/report.h"
#include "scamcheck/status.h"
#include "storage/store.h"

namespace scamcheck::server {

class App;

// The status message of a scan refused because the allowance is used up.
inline constexpr std::string_view kAllowanceUsedUp = "the daily allowance is used up";

struct ScanRequest {
  Kind kind = Kind::kText;
  std::string content;  // released once analysed unless retain_content
  std::string locale;   // the tag the analysis is asked for; never empty
  bool retain_content = false;
  // The analysis runs at once on this thread and waits on nothing (a JSON
  // scan without providers): the store is told a report is coming
  // (Store::expect_reports), so it can commit it with the reports queued
  // before it.
  bool announce = false;
};

// Where a scan stopped.
enum class ScanStep {
  kUrlCache,   // the cache could not be read (status: the store's error)
  kAllowance,  // the allowance could not be read (status: its error), or is
               // used up (status kResourceExhausted, decision set)
  kAnalysis,   // the library failed (status: its error)
  kStore,      // the report could not be stored (status: the store's error)
  kDone,       // stored: report and report_json are set
};

struct ScanOutcome {
  ScanStep step = ScanStep::kDone;
  Status status;
  std::optional<QuotaDecision> decision;  // from the allowance on
  bool counted = false;                   // whether the scan took a unit
  std::optional<Report> report;           // once analysed (kStore, kDone)
  std::string report_json;                // its JSON, the answer's body
};

// Runs `request` as `user`'s scan with `analyzer` on the calling thread and
// calls `done` exactly once: on this thread when the scan stops before the
// store, else from the store's writer thread. `user` must outlive the call
// (not the completion).
void run_scan_flow(App& app, const Analyzer& analyzer, const User& user, ScanRequest request,
                   std::function<void(ScanOutcome)> done);

// The columns every stored scan report has (the flow adds the rest).
StoredReport stored_report(const Report& report, std::int64_t user_id);

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_API_SCAN_FLOW_H_
