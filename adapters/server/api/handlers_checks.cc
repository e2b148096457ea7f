// The checks of the check API (CONTRACT §3): POST /api/checks, the status
// and details of a check, and the automation workflow's inbound result
// (POST /api/webhooks/analysis-result/{secret}).
#include <simdjson.h>

#include "api/check_api.h"
#include "api/handlers_check_api.h"
#include "common/ascii.h"
#include "common/base64.h"
#include "common/report_json.h"
#include "ids.h"
#include "jobs/check_jobs.h"
#include "logging.h"
#include "server_limits.h"

namespace scamcheck::server {
namespace {

// Longest `url` of a link check, in bytes.
constexpr std::size_t kMaxUrlBytes = 2048;
// Inbound results: longest explanation (bytes) and most indicators.
constexpr std::size_t kMaxExplanationBytes = 16 * 1024;
constexpr std::size_t kMaxIndicators = 50;

std::string_view trim(std::string_view s) { return adapters::trim(s); }

// An absolute http(s) URL with a host and no spaces or control characters.
bool is_http_url(std::string_view url) {
  const std::string lower = adapters::lower_ascii(url.substr(0, 8));
  std::size_t rest;
  if (lower.rfind("http://", 0) == 0) {
    rest = 7;
  } else if (lower.rfind("https://", 0) == 0) {
    rest = 8;
  } else {
    return false;
  }
  for (char c : url) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7F) return false;
  }
  const std::string_view authority = url.substr(rest, url.find_first_of("/?#", rest) - rest);
  const std::string_view host = authority.substr(authority.rfind('@') + 1);
  return !host.empty() && host.front() != ':' && host.front() != '.';
}

// Parses the body as a JSON object; answers 400 itself when it is not one.
bool parse_object(App& app, Exchange& ex, simdjson::dom::parser& parser,
                  simdjson::dom::object* out) {
  simdjson::dom::element root;
  if (parser.parse(ex.request.body).get(root)) {
    ex.respond(message_response(app.catalog(), ex, 400, "detail.malformed_json"));
    return false;
  }
  if (root.get(*out)) {
    ex.respond(message_response(app.catalog(), ex, 400, "detail.body_not_object"));
    return false;
  }
  return true;
}

// The check if it exists and the caller may see it: a check created with a
// token belongs to its user; an anonymous one to whoever has its UUID.
// Answers 404 or 503 itself otherwise.
std::optional<CheckRecord> visible_check(App& app, Exchange& ex) {
  const std::string& uuid = ex.path_params["uuid"];
  Result<std::optional<CheckRecord>> found = app.store().checks().get_check(to_lower_uuid(uuid));
  if (!found.ok()) {
    ex.respond(unavailable_response(app.catalog(), ex, found.status()));
    return std::nullopt;
  }
  const std::optional<CheckRecord>& check = *found;
  if (!check || (check->user_id && (!ex.token || ex.token->user.id != *check->user_id))) {
    ex.respond(message_response(app.catalog(), ex, 404, "check.not_found"));
    return std::nullopt;
  }
  return check;
}

template <typename Writer>
void write_nullable_string(Writer& w, const std::optional<std::string>& value) {
  if (value) {
    adapters::write_json_string(w, *value);
  } else {
    w.Null();
  }
}

template <typename Writer>
void write_state(Writer& w, const CheckRecord& c) {
  adapters::write_json_key(w, "status");
  adapters::write_json_string(w, c.status);
  adapters::write_json_key(w, "webhook_status");
  adapters::write_json_string(w, c.webhook_status);
  adapters::write_json_key(w, "is_pending");
  w.Bool(c.status == "processing");
  adapters::write_json_key(w, "is_complete");
  w.Bool(c.status == "completed");
  adapters::write_json_key(w, "has_failed");
  w.Bool(c.status == "failed");
  adapters::write_json_key(w, "risk_level");
  write_nullable_string(w, c.status == "completed" ? c.risk_level : std::nullopt);
}

}  // namespace

void handle_create_check(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  const Catalog& catalog = app.catalog();
  CheckApi& api = *app.check_api();
  thread_local simdjson::dom::parser parser;
  simdjson::dom::object body;
  if (!parse_object(app, ex, parser, &body)) return;

  std::string locale_tag = ex.accept_language;
  std::string_view text;
  if (!body["locale"].get(text) && !trim(text).empty()) {
    locale_tag = std::string(trim(text));
    ex.locale = catalog.resolve(locale_tag);
  }
  FieldErrors errors(catalog, ex.locale);
  simdjson::dom::element value;
  if (!body["locale"].get(value) && !value.is_string() && !value.is_null()) {
    errors.add("locale", "field.must_be_string");
  }

  std::string type;
  if (body["type"].get(value) || value.is_null()) {
    errors.add("type", "field.required");
  } else if (value.get(text)) {
    errors.add("type", "field.must_be_string");
  } else if (text != "text" && text != "email" && text != "link") {
    errors.add("type", "field.one_of", {{"values", "text, email, link"}});
  } else {
    type = std::string(text);
  }

  std::string_view encoding = "utf-8";
  if (!body["content_encoding"].get(value) && !value.is_null()) {
    if (value.get(encoding)) {
      errors.add("content_encoding", "field.must_be_string");
    } else if (encoding != "utf-8" && encoding != "base64") {
      errors.add("content_encoding", "field.one_of", {{"values", "utf-8, base64"}});
    }
  }

  std::string content;
  const bool content_required = type != "link";
  if (body["content"].get(value) || value.is_null()) {
    if (content_required && !type.empty()) errors.add("content", "field.required");
  } else if (value.get(text)) {
    errors.add("content", "field.must_be_string");
  } else if (encoding == "base64") {
    if (!adapters::decode_base64(text, &content)) errors.add("content", "field.base64_invalid");
  } else {
    content.assign(text);
  }
  if (content.size() > kMaxContentBytes) {
    errors.add("content", "field.too_large_bytes", {{"max", std::to_string(kMaxContentBytes)}});
  } else if (content_required && !type.empty() && !errors.errors().count("content") &&
             trim(content).empty()) {
    errors.add("content", "field.content_empty");
  } else if (type != "email" && !adapters::is_valid_utf8(content)) {
    errors.add("content", "field.content_utf8");
  }

  std::optional<std::string> url;
  if (type == "link") {
    if (body["url"].get(value) || value.is_null()) {
      errors.add("url", "field.required");
    } else if (value.get(text)) {
      errors.add("url", "field.must_be_string");
    } else if (trim(text).size() > kMaxUrlBytes || !is_http_url(trim(text))) {
      errors.add("url", "field.url_invalid");
    } else {
      url = std::string(trim(text));
    }
  }
  if (!errors.empty()) return ex.respond(validation_response(catalog, ex, errors));

  const std::int64_t now = unix_now();
  const std::int64_t now_ms = unix_now_ms();
  NewCheck n;
  CheckRecord& check = n.check;
  check.uuid = new_uuid_v4();
  check.type = type;
  check.content = std::move(content);
  check.url = std::move(url);
  check.locale = catalog.resolve(locale_tag);
  check.via_workflow = !api.options().workflow_url.empty();
  check.created_at = now_ms;
  check.deadline = now_ms + api.options().analysis_timeout.count();
  n.usage_day = utc_day(now);
  n.client = client_of(app, ex);
  n.anonymous_limit = api.options().anonymous_checks_per_day;

  // The daily allowance: a signed-in user's is the scan API's bucket.
  std::optional<QuotaDecision> reserved;
  if (ex.token) {
    const User& user = ex.token->user;
    check.user_id = user.id;
    Result<QuotaDecision> decision = app.quota().reserve(user, now);
    if (!decision.ok()) return ex.respond(unavailable_response(catalog, ex, decision.status()));
    if (!decision->allowed) {
      return ex.respond(too_many_response(catalog, ex, "check.daily_limit", decision->retry_after,
                                          {{"limit", std::to_string(decision->limit)}}));
    }
    reserved = *decision;
  }

  const std::string uuid = check.uuid;
  app.store().checks().insert_check(
      std::move(n), [exchange, &app, uuid, type, reserved, now](Status status) {
        Exchange& ex = *exchange;
        const Catalog& catalog = app.catalog();
        if (!status.ok() && reserved) app.quota().release(ex.token->user.id, reserved->day);
        if (status.code() == StatusCode::kResourceExhausted) {
          return ex.respond(too_many_response(
              catalog, ex, "check.daily_limit", seconds_until_utc_midnight(now),
              {{"limit", std::to_string(app.check_api()->options().anonymous_checks_per_day)}}));
        }
        if (!status.ok()) return ex.respond(unavailable_response(catalog, ex, status));
        app.check_api()->jobs().notify();
        rapidjson::StringBuffer buffer;
        adapters::JsonWriter w(buffer);
        w.StartObject();
        adapters::write_json_key(w, "message");
        adapters::write_json_string(w, catalog.text(ex.locale, "check.created"));
        adapters::write_json_key(w, "check");
        w.StartObject();
        adapters::write_json_key(w, "uuid");
        adapters::write_json_string(w, uuid);
        adapters::write_json_key(w, "type");
        adapters::write_json_string(w, type);
        adapters::write_json_key(w, "status");
        adapters::write_json_string(w, "processing");
        adapters::write_json_key(w, "webhook_status");
        adapters::write_json_string(w, "processing");
        adapters::write_json_key(w, "created_at");
        adapters::write_json_string(w, iso8601(now));
        w.EndObject();
        adapters::write_json_key(w, "status");
        adapters::write_json_string(w, "processing");
        w.EndObject();
        ex.respond(json_response(201, std::string(buffer.GetString(), buffer.GetSize())));
      });
}

void handle_check_status(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  std::optional<CheckRecord> check = visible_check(app, ex);
  if (!check) return;
  rapidjson::StringBuffer buffer;
  adapters::JsonWriter w(buffer);
  w.StartObject();
  adapters::write_json_key(w, "uuid");
  adapters::write_json_string(w, check->uuid);
  write_state(w, *check);
  w.EndObject();
  ex.respond(json_response(200, std::string(buffer.GetString(), buffer.GetSize())));
}

void handle_check_details(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  std::optional<CheckRecord> check = visible_check(app, ex);
  if (!check) return;
  const bool done = check->status == "completed" && check->risk_level;
  rapidjson::StringBuffer buffer;
  adapters::JsonWriter w(buffer);
  w.StartObject();
  adapters::write_json_key(w, "uuid");
  adapters::write_json_string(w, check->uuid);
  adapters::write_json_key(w, "type");
  adapters::write_json_string(w, check->type);
  adapters::write_json_key(w, "url");
  write_nullable_string(w, check->url);
  write_state(w, *check);
  adapters::write_json_key(w, "risk_score");
  if (done && check->risk_score) {
    w.Int(*check->risk_score);
  } else {
    w.Null();
  }
  adapters::write_json_key(w, "ai_explanation");
  write_nullable_string(w, done ? check->explanation : std::nullopt);
  adapters::write_json_key(w, "ai_indicators");
  if (done) {
    w.StartArray();
    for (const auto& i : check->indicators) adapters::write_json_string(w, i);
    w.EndArray();
  } else {
    w.Null();
  }
  adapters::write_json_key(w, "risk_text");
  write_nullable_string(w, done ? std::optional<std::string>(app.catalog().text(
                                      check->locale, risk_text_key(*check->risk_level)))
                                : std::nullopt);
  adapters::write_json_key(w, "risk_color");
  write_nullable_string(
      w, done ? std::optional<std::string>(risk_color(*check->risk_level)) : std::nullopt);
  adapters::write_json_key(w, "locale");
  adapters::write_json_string(w, check->locale);
  adapters::write_json_key(w, "created_at");
  adapters::write_json_string(w, iso8601(check->created_at / 1000));
  adapters::write_json_key(w, "completed_at");
  write_nullable_string(w, check->completed_at
                               ? std::optional<std::string>(iso8601(*check->completed_at / 1000))
                               : std::nullopt);
  w.EndObject();
  ex.respond(json_response(200, std::string(buffer.GetString(), buffer.GetSize())));
}

void handle_analysis_result(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  const Catalog& catalog = app.catalog();
  // The secret: compared in constant time with each active one (their
  // digests, so neither the length nor a prefix leaks).
  Result<std::vector<std::string>> secrets = app.store().checks().webhook_secrets();
  if (!secrets.ok()) return ex.respond(unavailable_response(catalog, ex, secrets.status()));
  const Sha256 sent = sha256(ex.path_params["secret"]);
  bool known = false;
  for (const std::string& secret : *secrets) known = digest_equal(sha256(secret), sent) || known;
  if (!known) return ex.respond(message_response(catalog, ex, 404, "detail.route_not_found"));

  thread_local simdjson::dom::parser parser;
  simdjson::dom::object body;
  if (!parse_object(app, ex, parser, &body)) return;
  FieldErrors errors(catalog, ex.locale);
  simdjson::dom::element value;
  std::string_view text;

  std::string uuid;
  if (body["check_uuid"].get(value) || value.is_null()) {
    errors.add("check_uuid", "field.required");
  } else if (value.get(text) || !is_uuid(text)) {
    errors.add("check_uuid", "field.uuid_invalid");
  } else {
    uuid = to_lower_uuid(text);
  }
  CheckResult result;
  result.source = "workflow";
  if (body["risk_level"].get(value) || value.is_null()) {
    errors.add("risk_level", "field.required");
  } else if (value.get(text) || (text != "safe" && text != "warning" && text != "danger")) {
    errors.add("risk_level", "field.one_of", {{"values", "safe, warning, danger"}});
  } else {
    result.risk_level = std::string(text);
  }
  std::int64_t score = -1;
  if (body["risk_score"].get(value) || value.is_null()) {
    errors.add("risk_score", "field.required");
  } else if (value.get(score) || score < 0 || score > 100) {
    errors.add("risk_score", "field.integer_range", {{"min", "0"}, {"max", "100"}});
    score = -1;
  } else {
    result.risk_score = static_cast<int>(score);
  }
  if (score >= 0 && !result.risk_level.empty() &&
      risk_level_for_score(result.risk_score) != result.risk_level) {
    errors.add("risk_level", "field.risk_level_mismatch",
               {{"level", std::string(risk_level_for_score(result.risk_score))}});
  }
  if (body["explanation"].get(value) || value.is_null()) {
    errors.add("explanation", "field.required");
  } else if (value.get(text)) {
    errors.add("explanation", "field.must_be_string");
  } else if (text.size() > kMaxExplanationBytes) {
    errors.add("explanation", "field.too_large_bytes",
               {{"max", std::to_string(kMaxExplanationBytes)}});
  } else {
    result.explanation = std::string(text);
  }
  simdjson::dom::array indicators;
  if (body["indicators"].get(value) || value.is_null()) {
    errors.add("indicators", "field.required");
  } else if (value.get(indicators) || indicators.size() > kMaxIndicators) {
    errors.add("indicators", "field.string_list", {{"max", std::to_string(kMaxIndicators)}});
  } else {
    for (simdjson::dom::element item : indicators) {
      if (item.get(text) || text.size() > kMaxExplanationBytes) {
        errors.add("indicators", "field.string_list", {{"max", std::to_string(kMaxIndicators)}});
        break;
      }
      result.indicators.emplace_back(text);
    }
  }
  if (!errors.empty()) return ex.respond(validation_response(catalog, ex, errors));

  Result<CompleteOutcome> outcome = app.store().checks().complete_check(
      uuid, result, unix_now_ms(), app.check_api()->options().retain_content);
  if (!outcome.ok()) return ex.respond(unavailable_response(catalog, ex, outcome.status()));
  switch (*outcome) {
    case CompleteOutcome::kNotFound:
      return ex.respond(message_response(catalog, ex, 404, "check.not_found"));
    case CompleteOutcome::kAlreadyFinished:
      return ex.respond(message_response(catalog, ex, 409, "webhook.already_complete"));
    case CompleteOutcome::kCompleted:
      break;
  }
  LogLine(LogLevel::kInfo, "check_completed")
      .field("check_ref", credential_ref(uuid))
      .field("source", "workflow")
      .field("risk_score", result.risk_score);
  ex.respond(message_response(catalog, ex, 200, "webhook.accepted"));
}

}  // namespace scamcheck::server
