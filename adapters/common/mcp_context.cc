#include "common/mcp_context.h"

#include <algorithm>
#include <exception>

#include "common/report_json.h"

namespace scamcheck::adapters {

Result<Report> McpContext::scan(const Analyzer& analyzer, const McpScanRequest& request) {
  if (Status charged = charge(request); !charged.ok()) return charged;
  Result<Report> report = analyzer.analyze(request.content, request.kind, request.locale);
  if (!report.ok()) {
    refund(request);
    return report;
  }
  if (Status saved = save(*report, request); !saved.ok()) {
    refund(request);
    return saved;
  }
  return report;
}

Status McpContext::record(const Report& report, const McpScanRequest& request) {
  if (Status charged = charge(request); !charged.ok()) return charged;
  if (Status saved = save(report, request); !saved.ok()) {
    refund(request);
    return saved;
  }
  return Status();
}

Status McpContext::charge(const McpScanRequest&) { return Status(); }

void McpContext::refund(const McpScanRequest&) {}

void McpContext::log_failure(std::string_view, const Status&) {}

Status MemoryMcpContext::save(const Report& report, const McpScanRequest&) {
  try {
    Stored stored{report.id, report_to_json(report)};
    std::lock_guard<std::mutex> lock(mutex_);
    reports_.push_back(std::move(stored));
    while (reports_.size() > kMaxReports) reports_.pop_front();
  } catch (const std::exception& e) {
    return Status::internal(std::string("cannot keep the report: ") + e.what());
  }
  return Status();
}

Result<std::vector<std::string>> MemoryMcpContext::recent_reports(int limit) {
  std::vector<std::string> out;
  std::lock_guard<std::mutex> lock(mutex_);
  const std::size_t n = std::min<std::size_t>(reports_.size(), std::max(limit, 0));
  out.reserve(n);
  for (auto it = reports_.rbegin(); out.size() < n; ++it) out.push_back(it->json);
  return out;
}

Result<std::optional<std::string>> MemoryMcpContext::find_report(std::string_view id) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = reports_.rbegin(); it != reports_.rend(); ++it) {
    if (it->id == id) return std::optional<std::string>(it->json);
  }
  return std::optional<std::string>();
}

std::size_t MemoryMcpContext::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return reports_.size();
}

}  // namespace scamcheck::adapters
