// The caller's reports (CONTRACT §2): list (newest first, cursor paging,
// verdict filter), get, delete. Another user's report is 404, exactly like
// a missing one: every query is scoped by the caller's user id.
#include <sodium.h>

#include <cstdint>

#include "api/handlers.h"
#include "app.h"
#include "ids.h"
#include "logging.h"
#include "server_limits.h"

namespace scamcheck::server {
namespace {

// The list cursor is opaque and reveals nothing: the caller's user id and
// the position (a global sequence number) sealed with the server's
// cursor_key (XSalsa20-Poly1305, libsodium crypto_secretbox, random nonce),
// base64url. A tampered cursor, one sealed with another key or one of
// another user does not open (422).
constexpr std::size_t kCursorPlainBytes = 16;  // user id, position (little-endian)
constexpr std::size_t kCursorBytes =
    crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES + kCursorPlainBytes;

void put_le64(unsigned char* out, std::int64_t value) {
  const auto v = static_cast<std::uint64_t>(value);
  for (int i = 0; i < 8; ++i) out[i] = static_cast<unsigned char>(v >> (8 * i));
}

std::int64_t get_le64(const unsigned char* in) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(in[i]) << (8 * i);
  return static_cast<std::int64_t>(v);
}

const unsigned char* key_bytes(const std::string& key) {
  return reinterpret_cast<const unsigned char*>(key.data());
}

std::string encode_cursor(const std::string& key, std::int64_t user_id, std::int64_t position) {
  unsigned char plain[kCursorPlainBytes];
  put_le64(plain, user_id);
  put_le64(plain + 8, position);
  unsigned char sealed[kCursorBytes];
  randombytes_buf(sealed, crypto_secretbox_NONCEBYTES);
  crypto_secretbox_easy(sealed + crypto_secretbox_NONCEBYTES, plain, sizeof plain, sealed,
                        key_bytes(key));
  return base64url_encode(std::string_view(reinterpret_cast<const char*>(sealed), sizeof sealed));
}

std::optional<std::int64_t> decode_cursor(const std::string& key, std::int64_t user_id,
                                          std::string_view cursor) {
  if (cursor.size() > 2 * kCursorBytes) return std::nullopt;
  std::optional<std::string> bytes = base64url_decode(cursor);
  if (!bytes || bytes->size() != kCursorBytes) return std::nullopt;
  const auto* sealed = reinterpret_cast<const unsigned char*>(bytes->data());
  unsigned char plain[kCursorPlainBytes];
  if (crypto_secretbox_open_easy(plain, sealed + crypto_secretbox_NONCEBYTES,
                                 kCursorBytes - crypto_secretbox_NONCEBYTES, sealed,
                                 key_bytes(key)) != 0) {
    return std::nullopt;
  }
  const std::int64_t position = get_le64(plain + 8);
  if (get_le64(plain) != user_id || position <= 0) return std::nullopt;
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
  Result<std::string> key = app.store().server_key("cursor_key");
  if (!key.ok()) return ex.respond(store_unavailable(app, ex, key.status()));
  if (auto it = ex.query.find("cursor"); it != ex.query.end()) {
    query.before = decode_cursor(*key, query.user_id, it->second);
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
    body += encode_cursor(*key, query.user_id, *page->next_after);
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
