// The caller's reports (CONTRACT §2): list (newest first, cursor paging,
// verdict filter), get, delete. Another user's report is 404, exactly like
// a missing one: every query is scoped by the caller's user id.
#include <charconv>

#include "api/handlers.h"
#include "app.h"
#include "ids.h"
#include "logging.h"
#include "server_limits.h"

namespace scamcheck::server {
namespace {

constexpr std::string_view kCursorPrefix = "before:";

std::string encode_cursor(std::int64_t position) {
  return base64url_encode(std::string(kCursorPrefix) + std::to_string(position));
}

std::optional<std::int64_t> decode_cursor(std::string_view cursor) {
  std::optional<std::string> text = base64url_decode(cursor);
  if (!text || text->rfind(kCursorPrefix, 0) != 0) return std::nullopt;
  std::int64_t position = 0;
  const char* begin = text->data() + kCursorPrefix.size();
  const char* end = text->data() + text->size();
  const auto [ptr, ec] = std::from_chars(begin, end, position);
  if (ec != std::errc() || ptr != end || position <= 0) return std::nullopt;
  return position;
}

Response store_unavailable(App& app, const Exchange& ex, const Status& status) {
  LogLine(LogLevel::kError, "store_error")
      .field("request_id", ex.request_id)
      .field("error", status.to_string());
  return problem(ex.problem_context(app.catalog()), 503, "detail.unavailable");
}

Response json_response(std::string body) {
  Response r;
  r.content_type = "application/json";
  r.body = std::move(body);
  return r;
}

}  // namespace

void handle_list_reports(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  ReportQuery query;
  query.user_id = ex.token->user.id;
  query.limit = kListLimitDefault;
  if (auto it = ex.query.find("limit"); it != ex.query.end()) query.limit = std::stoi(it->second);
  if (auto it = ex.query.find("cursor"); it != ex.query.end()) {
    query.before = decode_cursor(it->second);
    if (!query.before) {
      FieldErrors errors(app.catalog(), ex.locale);
      errors.add("cursor", "field.cursor_invalid");
      return ex.respond(validation_problem(ex.problem_context(app.catalog()), errors));
    }
  }
  if (auto it = ex.query.find("verdict"); it != ex.query.end()) query.verdict = it->second;

  Result<ReportPage> page = app.store().list_reports(query);
  if (!page.ok()) return ex.respond(store_unavailable(app, ex, page.status()));
  std::string body = "{\"data\":[";
  for (std::size_t i = 0; i < page->reports_json.size(); ++i) {
    if (i) body.push_back(',');
    body += page->reports_json[i];
  }
  body += "],\"next_cursor\":";
  if (page->next_after) {
    body.push_back('"');
    body += encode_cursor(*page->next_after);
    body.push_back('"');
  } else {
    body += "null";
  }
  body.push_back('}');
  ex.respond(json_response(std::move(body)));
}

void handle_get_report(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  Result<std::optional<std::string>> report =
      app.store().get_report(ex.token->user.id, ex.path_params["public_id"]);
  if (!report.ok()) return ex.respond(store_unavailable(app, ex, report.status()));
  if (!report->has_value()) {
    return ex.respond(problem(ex.problem_context(app.catalog()), 404, "detail.report_not_found"));
  }
  ex.respond(json_response(std::move(**report)));
}

void handle_delete_report(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  Result<bool> deleted = app.store().delete_report(ex.token->user.id, ex.path_params["public_id"]);
  if (!deleted.ok()) return ex.respond(store_unavailable(app, ex, deleted.status()));
  if (!*deleted) {
    return ex.respond(problem(ex.problem_context(app.catalog()), 404, "detail.report_not_found"));
  }
  Response r;
  r.status = 204;
  ex.respond(std::move(r));
}

}  // namespace scamcheck::server
