// POST /api/v1/scan (CONTRACT §2): validate the JSON body, run the scan
// flow (scan_flow.h), answer. Multipart uploads (images, documents) go to
// file_scans.cc.
#include <fmt/format.h>
#include <simdjson.h>

#include "api/file_scans.h"
#include "api/handlers.h"
#include "api/scan_flow.h"
#include "api/url_cache.h"
#include "app.h"
#include "common/base64.h"
#include "common/report_json.h"
#include "common/status_map.h"
#include "http/router.h"
#include "ids.h"
#include "logging.h"
#include "server_limits.h"

namespace scamcheck::server {
namespace {

struct ScanInput {
  Kind kind = Kind::kText;
  std::string content;
  std::string locale_tag;  // as requested (body, then Accept-Language); may be ""
};

// Parses and validates the JSON body into *input. Answers the problem
// itself and returns false when the body is not acceptable.
bool parse_scan_body(App& app, Exchange& ex, ScanInput* input) {
  thread_local simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(ex.request.body).get(root)) {
    ex.respond(problem(ex.problem_context(app.catalog()), 400, "detail.malformed_json"));
    return false;
  }
  simdjson::dom::object body;
  if (root.get(body)) {
    ex.respond(problem(ex.problem_context(app.catalog()), 400, "detail.body_not_object"));
    return false;
  }

  // The body's locale decides the language of the answer, problems included.
  std::string_view locale;
  const bool has_locale = body["locale"].get(locale) == simdjson::SUCCESS;
  if (has_locale && !trim_ascii_space(locale).empty()) {
    input->locale_tag = std::string(trim_ascii_space(locale));
    ex.locale = app.catalog().resolve(input->locale_tag);
  } else {
    input->locale_tag = ex.accept_language;
  }
  FieldErrors errors(app.catalog(), ex.locale);

  simdjson::dom::element value;
  if (body["locale"].get(value) == simdjson::SUCCESS && !value.is_string() && !value.is_null()) {
    errors.add("locale", "field.must_be_string");
  }

  std::string_view kind_name = "text";
  if (body["kind"].get(value) == simdjson::SUCCESS && !value.is_null()) {
    if (value.get(kind_name)) {
      errors.add("kind", "field.must_be_string");
    } else if (kind_name == "image" || kind_name == "document") {
      errors.add("kind", "field.kind_upload");
    } else if (kind_name != "text" && kind_name != "email" && kind_name != "url") {
      errors.add("kind", "field.one_of", {{"values", "text, email, url"}});
    } else {
      input->kind = *parse_kind(kind_name);
    }
  }

  std::string_view encoding = "utf-8";
  if (body["content_encoding"].get(value) == simdjson::SUCCESS && !value.is_null()) {
    if (value.get(encoding)) {
      errors.add("content_encoding", "field.must_be_string");
    } else if (encoding != "utf-8" && encoding != "base64") {
      errors.add("content_encoding", "field.one_of", {{"values", "utf-8, base64"}});
    }
  }

  if (body["hints"].get(value) == simdjson::SUCCESS && !value.is_null()) {
    simdjson::dom::object hints;
    if (value.get(hints)) {
      errors.add("hints", "field.must_be_object");
    } else {
      simdjson::dom::element app_name;
      if (hints["source_app"].get(app_name) == simdjson::SUCCESS && !app_name.is_string() &&
          !app_name.is_null()) {
        errors.add("hints.source_app", "field.must_be_string");
      }
    }
  }

  std::string_view content;
  bool content_ok = false;
  if (body["content"].get(value) != simdjson::SUCCESS || value.is_null()) {
    errors.add("content", "field.required");
  } else if (value.get(content)) {
    errors.add("content", "field.must_be_string");
  } else {
    content_ok = true;
  }
  if (content_ok && encoding == "base64") {
    if (!adapters::decode_base64(content, &input->content)) {
      errors.add("content", "field.base64_invalid");
      content_ok = false;
    }
  } else if (content_ok) {
    input->content.assign(content.data(), content.size());
  }

  if (!errors.empty()) {
    ex.respond(validation_problem(ex.problem_context(app.catalog()), errors));
    return false;
  }
  if (input->content.size() > kMaxContentBytes) {
    ex.respond(problem(ex.problem_context(app.catalog()), 413, "detail.content_too_large",
                       {{"limit", std::to_string(kMaxContentBytes)}}));
    return false;
  }
  if (input->content.empty()) errors.add("content", "field.content_empty");
  if (input->kind != Kind::kEmail && !adapters::is_valid_utf8(input->content)) {
    errors.add("content", "field.content_utf8");
  }
  if (!errors.empty()) {
    ex.respond(validation_problem(ex.problem_context(app.catalog()), errors));
    return false;
  }
  return true;
}

void run_scan(App& app, const std::shared_ptr<Exchange>& exchange);

}  // namespace

void handle_scan(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  // Every answer carries X-RateLimit-Remaining: what is left after it.
  if (Result<QuotaDecision> left = app.quota().peek(ex.token->user, unix_now()); left.ok()) {
    ex.reply = [reply = std::move(ex.reply), remaining = left->remaining](Response r) {
      bool present = false;
      for (const auto& [name, value] : r.headers)
        present = present || name == "X-RateLimit-Remaining";
      if (!present) r.set_header("X-RateLimit-Remaining", std::to_string(remaining));
      reply(std::move(r));
    };
  }
  if (media_type(ex.request.header("Content-Type")) == "multipart/form-data") {
    return handle_scan_upload(app, exchange);  // images and documents: file_scans.h
  }
  FileScanPool* pool = app.provider_scans();
  if (pool == nullptr) return run_scan(app, exchange);
  // The analysis may wait for an AI provider or a reputation service (up
  // to their timeouts): never on an I/O thread.
  post_exchange(pool, app, exchange, run_scan, "detail.unavailable");
}

namespace {

// The answer to a failed analysis of a JSON body: the status from the
// adapters' table (common/status_map.h), the text from this route.
Response analysis_problem(const App& app, const Exchange& ex, const Status& status) {
  const ProblemContext pc = ex.problem_context(app.catalog());
  switch (const int http_status = adapters::http_status_for(status.code())) {
    case 422: {
      FieldErrors errors(app.catalog(), ex.locale);
      errors.add("content", "field.content_invalid");
      return validation_problem(pc, errors);
    }
    case 413:
      return problem(pc, 413, "detail.content_too_large",
                     {{"limit", std::to_string(kMaxContentBytes)}});
    case 503:  // a provider the analysis needs, or a feature not in this build
    case 504:
      LogLine(LogLevel::kWarn, "analysis_unavailable")
          .field("request_id", ex.request_id)
          .field("error", status.to_string());
      return problem(pc, http_status, "detail.unavailable");
    default:
      LogLine(LogLevel::kError, "analysis_error")
          .field("request_id", ex.request_id)
          .field("error", status.to_string());
      return problem(pc, 500, "detail.internal");
  }
}

// The JSON scan after the route's checks: the body, then the scan flow.
void run_scan(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  ScanInput input;
  if (!parse_scan_body(app, ex, &input)) return;
  ScanRequest request;
  request.kind = input.kind;
  request.content = std::move(input.content);
  request.locale = input.locale_tag.empty() ? "en" : std::move(input.locale_tag);
  request.retain_content = app.options().retain_content;
  request.announce = app.provider_scans() == nullptr;  // analysed right here
  run_scan_flow(app, app.analyzer(), ex.token->user, std::move(request),
                [&app, exchange](ScanOutcome outcome) {
                  answer_scan(app, *exchange, std::move(outcome), analysis_problem);
                });
}

}  // namespace

void answer_scan(const App& app, Exchange& ex, ScanOutcome outcome,
                 Response (*analysis_problem)(const App&, const Exchange&, const Status&)) {
  const ProblemContext pc = ex.problem_context(app.catalog());
  const auto unavailable = [&] {
    LogLine(LogLevel::kError, "store_error")
        .field("request_id", ex.request_id)
        .field("error", outcome.status.to_string());
    ex.respond(problem(pc, 503, "detail.unavailable"));
  };
  switch (outcome.step) {
    case ScanStep::kUrlCache:
    case ScanStep::kStore:
      return unavailable();
    case ScanStep::kAllowance: {
      if (!outcome.decision) return unavailable();
      const QuotaDecision& decision = *outcome.decision;
      Response r = rate_limited_problem(pc, decision.limit, decision.retry_after);
      r.set_header("X-RateLimit-Remaining", std::to_string(decision.remaining));
      return ex.respond(std::move(r));
    }
    case ScanStep::kAnalysis: {
      // The unit reserved for this scan was given back.
      const QuotaDecision& decision = *outcome.decision;
      const std::int64_t left = decision.limit < 0 ? -1
                                : outcome.counted  ? decision.remaining + 1
                                                   : decision.remaining;
      Response r = analysis_problem(app, ex, outcome.status);
      r.set_header("X-RateLimit-Remaining", std::to_string(left));
      return ex.respond(std::move(r));
    }
    case ScanStep::kDone: {
      Response r;
      r.content_type = "application/json";
      r.body = std::move(outcome.report_json);
      r.set_header("X-RateLimit-Remaining", std::to_string(outcome.decision->remaining));
      return ex.respond(std::move(r));
    }
  }
}

}  // namespace scamcheck::server
