// POST /api/v1/scan (CONTRACT §2): validate the JSON body, apply the daily
// allowance and the URL cache, call the library, add feed reputations,
// store the report durably, answer. Multipart uploads (images, documents)
// go to file_scans.cc.
#include <fmt/format.h>
#include <simdjson.h>

#include "api/file_scans.h"
#include "api/handlers.h"
#include "api/url_cache.h"
#include "app.h"
#include "common/base64.h"
#include "common/report_json.h"
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

// The JSON scan after the route's checks: body, allowance and URL cache,
// analysis, store, answer.
void run_scan(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  ScanInput input;
  if (!parse_scan_body(app, ex, &input)) return;
  const ProblemContext pc = ex.problem_context(app.catalog());
  const User& user = ex.token->user;
  const std::int64_t now = unix_now();

  // A repeated identical URL scan within 24 h: answered from the cache, not counted.
  std::optional<std::string> cached;
  Sha256 cache_key{};
  if (input.kind == Kind::kUrl) {
    cache_key = url_cache_key(input.content);
    Result<std::optional<std::string>> hit =
        app.store().url_cache_get(user.id, cache_key, now - kUrlCacheTtl.count());
    if (!hit.ok()) {
      LogLine(LogLevel::kError, "store_error")
          .field("request_id", ex.request_id)
          .field("error", hit.status().to_string());
      return ex.respond(problem(pc, 503, "detail.unavailable"));
    }
    cached = std::move(*hit);
  }

  Result<QuotaDecision> decision =
      cached ? app.quota().peek(user, now) : app.quota().reserve(user, now);
  if (!admitted(app, ex, decision)) return;
  const std::string remaining = std::to_string(decision->remaining);
  const bool counted = !cached;
  const auto give_back = [&app, user_id = user.id, counted, day = decision->day] {
    if (counted) app.quota().release(user_id, day);
  };

  Result<Report> report =
      app.analyzer().analyze(input.content, input.kind,
                             input.locale_tag.empty() ? std::string_view("en") : input.locale_tag);
  if (!report.ok()) {
    give_back();
    Response r;
    FieldErrors errors(app.catalog(), ex.locale);
    switch (report.status().code()) {
      case StatusCode::kInvalidArgument:
        errors.add("content", "field.content_invalid");
        r = validation_problem(pc, errors);
        break;
      case StatusCode::kOutOfRange:
        r = problem(pc, 413, "detail.content_too_large",
                    {{"limit", std::to_string(kMaxContentBytes)}});
        break;
      case StatusCode::kUnimplemented:
        errors.add("kind", "field.kind_upload");
        r = validation_problem(pc, errors);
        break;
      default:
        LogLine(LogLevel::kError, "analysis_error")
            .field("request_id", ex.request_id)
            .field("error", report.status().to_string());
        r = problem(pc, 500, "detail.internal");
        break;
    }
    const std::int64_t left = decision->limit < 0 ? -1
                              : counted           ? decision->remaining + 1
                                                  : decision->remaining;
    r.set_header("X-RateLimit-Remaining", std::to_string(left));
    return ex.respond(std::move(r));
  }

  set_cached(&*report, cached.has_value());

  StoredReport stored = stored_report(*report, user.id);
  if (app.options().retain_content) stored.content = input.content;
  stored.counted = counted;
  stored.usage_day = decision->day;
  if (input.kind == Kind::kUrl && !cached) {
    stored.url_cache = StoredReport::UrlCacheEntry{cache_key, url_reputations_json(*report), now};
  }
  store_and_answer(app, exchange, std::move(stored), remaining, give_back);
}

}  // namespace

bool admitted(const App& app, Exchange& ex, const Result<QuotaDecision>& decision) {
  const ProblemContext pc = ex.problem_context(app.catalog());
  if (!decision.ok()) {
    LogLine(LogLevel::kError, "store_error")
        .field("request_id", ex.request_id)
        .field("error", decision.status().to_string());
    ex.respond(problem(pc, 503, "detail.unavailable"));
    return false;
  }
  if (!decision->allowed) {
    Response r = rate_limited_problem(pc, decision->limit, decision->retry_after);
    r.set_header("X-RateLimit-Remaining", std::to_string(decision->remaining));
    ex.respond(std::move(r));
    return false;
  }
  return true;
}

StoredReport stored_report(const Report& report, std::int64_t user_id) {
  StoredReport stored;
  stored.public_id = report.id;
  stored.user_id = user_id;
  stored.kind = std::string(to_string(report.kind));
  stored.verdict = std::string(to_string(report.verdict));
  stored.created_at = report.created_at;
  stored.report_json = adapters::report_to_json(report);
  return stored;
}

void store_and_answer(App& app, const std::shared_ptr<Exchange>& exchange, StoredReport stored,
                      std::string remaining, std::function<void()> give_back) {
  std::string body = stored.report_json;
  app.store().insert_report(std::move(stored), [exchange, &app, body = std::move(body), remaining,
                                                give_back](Status status) mutable {
    if (!status.ok()) {
      give_back();
      LogLine(LogLevel::kError, "store_error")
          .field("request_id", exchange->request_id)
          .field("error", status.to_string());
      return exchange->respond(
          problem(exchange->problem_context(app.catalog()), 503, "detail.unavailable"));
    }
    Response r;
    r.content_type = "application/json";
    r.body = std::move(body);
    r.set_header("X-RateLimit-Remaining", remaining);
    exchange->respond(std::move(r));
  });
}

}  // namespace scamcheck::server
