// The account pages of the web interface: sign-in, registration, sign-out,
// API tokens (CONTRACT §4) and the signed-in user's reports.
#include <simdjson.h>
#include <sodium.h>

#include <charconv>

#include "auth/auth.h"
#include "auth/crypto.h"
#include "ids.h"
#include "logging.h"
#include "operator_commands.h"
#include "web/web_support.h"

namespace scamcheck::server::web {
namespace {

constexpr std::size_t kMaxNameBytes = 100;
constexpr std::size_t kMaxEmailBytes = 254;
constexpr std::size_t kMinPasswordChars = 8;
constexpr std::size_t kMaxPasswordBytes = 1024;
constexpr std::int64_t kFlashSeconds = 120;

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return std::string(s);
}

std::string lower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

bool has_control(std::string_view s) {
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f) return true;
  }
  return false;
}

bool plausible_email(std::string_view email) {
  const std::size_t at = email.find('@');
  if (email.empty() || email.size() > kMaxEmailBytes || at == 0 || at == std::string_view::npos ||
      email.find('@', at + 1) != std::string_view::npos || has_control(email) ||
      email.find(' ') != std::string_view::npos) {
    return false;
  }
  const std::string_view domain = email.substr(at + 1);
  const std::size_t dot = domain.find('.');
  return dot != std::string_view::npos && dot > 0 && dot + 1 < domain.size();
}

// The form of a POST, checked for its CSRF token: answers 400 or 403 and
// returns nullopt when it is not acceptable.
std::optional<Form> posted_form(Page& page) {
  std::optional<Form> form = parse_urlencoded(page.exchange->request.body);
  if (!form) {
    send_error(page, 400, "web.error.bad_request.title", "web.error.bad_request");
    return std::nullopt;
  }
  if (!csrf_ok(page, form_value(*form, "csrf"))) {
    send_error(page, 403, "web.error.forbidden.title", "web.error.csrf");
    return std::nullopt;
  }
  return form;
}

bool require_user(Page& page) {
  if (page.user()) return true;
  redirect(page, "/login");
  return false;
}

void store_failed(Page& page, const Status& status) {
  LogLine(LogLevel::kError, "store_error")
      .field("request_id", page.exchange->request_id)
      .field("error", status.to_string());
  send_error(page, 503, "web.error.unavailable.title", "web.error.unavailable");
}

// A password hash for unknown accounts, so that their sign-in takes as long.
const std::string& dummy_hash() {
  static const std::string& hash = *new std::string([] {
    Result<std::string> h = hash_password(new_random_base62(20));
    return h.ok() ? *h : std::string();
  }());
  return hash;
}

void show_login(Page& page, int status, const std::string& email, const std::string& error) {
  auto dict = page_dictionary(page);
  dict->SetValue("EMAIL", email);
  if (!error.empty()) {
    dict->ShowSection("ERROR");
    dict->SetValue("ERROR_TEXT", error);
  }
  send_html(page, status, render(page, "login.tpl", *dict, page.text("web.login.title")));
}

void show_register(Page& page, int status, const std::string& name, const std::string& email,
                   const std::string& error) {
  auto dict = page_dictionary(page);
  dict->SetValue("NAME", name);
  dict->SetValue("EMAIL", email);
  if (!error.empty()) {
    dict->ShowSection("ERROR");
    dict->SetValue("ERROR_TEXT", error);
  }
  send_html(page, status, render(page, "register.tpl", *dict, page.text("web.register.title")));
}

// The new token's value travels to the next GET in a short-lived cookie,
// encrypted and authenticated with the server's key (never stored): the
// page shows it once and deletes the cookie.
std::string seal_flash(const std::string& key, const std::string& plain) {
  std::string out(crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES + plain.size(), '\0');
  auto* nonce = reinterpret_cast<unsigned char*>(out.data());
  randombytes_buf(nonce, crypto_secretbox_NONCEBYTES);
  crypto_secretbox_easy(nonce + crypto_secretbox_NONCEBYTES,
                        reinterpret_cast<const unsigned char*>(plain.data()), plain.size(), nonce,
                        reinterpret_cast<const unsigned char*>(key.data()));
  return base64url_encode(out);
}

std::optional<std::string> open_flash(const std::string& key, std::string_view sealed) {
  std::optional<std::string> raw = base64url_decode(sealed);
  if (!raw || raw->size() < crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES) {
    return std::nullopt;
  }
  const auto* nonce = reinterpret_cast<const unsigned char*>(raw->data());
  const std::size_t cipher = raw->size() - crypto_secretbox_NONCEBYTES;
  std::string plain(cipher - crypto_secretbox_MACBYTES, '\0');
  if (crypto_secretbox_open_easy(reinterpret_cast<unsigned char*>(plain.data()),
                                 nonce + crypto_secretbox_NONCEBYTES, cipher, nonce,
                                 reinterpret_cast<const unsigned char*>(key.data())) != 0) {
    return std::nullopt;
  }
  return plain;
}

std::string token_status(const TokenInfo& t, std::int64_t now) {
  if (t.revoked_at) return "revoked";
  if (t.expires_at && *t.expires_at <= now) return "expired";
  return "active";
}

void show_tokens(Page& page, int status, const std::string& notice, bool notice_ok) {
  const User& user = *page.user();
  Result<std::vector<TokenInfo>> tokens = page.app.store().web().list_tokens(user.id);
  if (!tokens.ok()) return store_failed(page, tokens.status());
  Result<std::string> key = page.app.store().server_key("web_flash_key");
  if (!key.ok()) return store_failed(page, key.status());
  auto dict = page_dictionary(page);
  if (auto it = page.cookies.find(kFlashCookie); it != page.cookies.end()) {
    page.set_cookies.push_back(cookie(page, kFlashCookie, "", 0, "/developer/tokens"));
    if (std::optional<std::string> plain = open_flash(*key, it->second)) {
      // "<user id>\n<expires>\n<name>\n<value>"
      const std::size_t a = plain->find('\n');
      const std::size_t b = plain->find('\n', a + 1);
      const std::size_t c = plain->find('\n', b + 1);
      if (c != std::string::npos && plain->substr(0, a) == std::to_string(user.id) &&
          std::strtoll(plain->c_str() + a + 1, nullptr, 10) > unix_now()) {
        auto* section = dict->AddSectionDictionary("NEW_TOKEN");
        section->SetValue("NEW_TOKEN_TEXT",
                          page.text("web.tokens.new", {{"name", plain->substr(b + 1, c - b - 1)}}));
        section->SetValue("VALUE", plain->substr(c + 1));
      }
    }
  }
  if (!notice.empty()) {
    auto* section = dict->AddSectionDictionary("NOTICE");
    section->SetValue("NOTICE_TEXT", notice);
    section->SetValue("NOTICE_CLASS", notice_ok ? "ok" : "warn");
  }
  const std::int64_t now = unix_now();
  if (tokens->empty())
    dict->ShowSection("EMPTY");
  else
    dict->ShowSection("TABLE");
  for (const TokenInfo& t : *tokens) {
    auto* row = dict->AddSectionDictionary("ROW");
    row->SetIntValue("ID", static_cast<long>(t.id));
    row->SetValue("NAME", t.name);
    std::string abilities;
    for (const auto& a : t.abilities) abilities += (abilities.empty() ? "" : ", ") + a;
    row->SetValue("ABILITIES", abilities);
    row->SetValue("CREATED", display_time(t.created_at));
    row->SetValue("LAST_USED",
                  t.last_used_at ? display_time(*t.last_used_at) : page.text("web.tokens.never"));
    row->SetValue("EXPIRES",
                  t.expires_at ? display_time(*t.expires_at) : page.text("web.tokens.never"));
    const std::string st = token_status(t, now);
    row->SetValue("STATUS", st);
    row->SetValue("STATUS_TEXT", page.text("web.tokens." + st));
    if (st == "active") row->ShowSection("REVOCABLE");
  }
  send_html(page, status, render(page, "tokens.tpl", *dict, page.text("web.tokens.title")));
}

void create_token(Page& page) {
  std::optional<Form> form = posted_form(page);
  if (!form) return;
  const User& user = *page.user();
  const std::string name = trim(form_value(*form, "name"));
  if (name.empty() || name.size() > kMaxNameBytes || has_control(name)) {
    return show_tokens(page, 422, page.text("web.tokens.name_missing"), false);
  }
  std::vector<std::string> abilities;
  auto [from, to] = form->equal_range("ability");
  for (auto it = from; it != to; ++it) {
    if (!is_known_ability(it->second)) {
      return show_tokens(page, 422, page.text("web.tokens.no_ability"), false);
    }
    if (std::find(abilities.begin(), abilities.end(), it->second) == abilities.end()) {
      abilities.push_back(it->second);
    }
  }
  if (abilities.empty()) return show_tokens(page, 422, page.text("web.tokens.no_ability"), false);
  NewToken token;
  token.user_id = user.id;
  token.name = name;
  token.abilities = abilities;
  if (const std::string days = trim(form_value(*form, "expires_in_days")); !days.empty()) {
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(days.data(), days.data() + days.size(), n);
    if (ec != std::errc() || end != days.data() + days.size() || n < 1 || n > 3650) {
      return show_tokens(page, 422, page.text("web.tokens.bad_expiry"), false);
    }
    token.expires_at = unix_now() + n * 86400;
  }
  const std::string value = new_token_value();
  token.token_hash = sha256(value);
  if (Status s = page.app.store().create_token(token); !s.ok()) {
    if (s.code() == StatusCode::kInvalidArgument) {
      return show_tokens(page, 422, page.text("web.tokens.name_taken"), false);
    }
    return store_failed(page, s);
  }
  Result<std::string> key = page.app.store().server_key("web_flash_key");
  if (!key.ok()) return store_failed(page, key.status());
  const std::string plain = std::to_string(user.id) + "\n" +
                            std::to_string(unix_now() + kFlashSeconds) + "\n" + name + "\n" + value;
  page.set_cookies.push_back(
      cookie(page, kFlashCookie, seal_flash(*key, plain), kFlashSeconds, "/developer/tokens"));
  LogLine(LogLevel::kInfo, "token_created")
      .field("request_id", page.exchange->request_id)
      .field("user_id", user.id);
  redirect(page, "/developer/tokens");
}

struct ReportRow {
  std::string id, created_at, kind, verdict, summary;
  std::int64_t score = 0;
};

std::optional<ReportRow> row_from_json(const std::string& json) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(json).get(doc)) return std::nullopt;
  ReportRow row;
  std::string_view v;
  if (doc["id"].get(v)) return std::nullopt;
  row.id = std::string(v);
  if (!doc["created_at"].get(v)) row.created_at = std::string(v);
  if (!doc["kind"].get(v)) row.kind = std::string(v);
  if (!doc["verdict"].get(v)) row.verdict = std::string(v);
  if (!doc["summary_plain"].get(v)) row.summary = std::string(v);
  std::int64_t score = 0;
  if (!doc["risk_score"].get(score)) row.score = score;
  return row;
}

}  // namespace

void login_page(const std::shared_ptr<Page>& page_ptr) {
  Page& page = *page_ptr;
  if (page.exchange->request.method != "POST") {
    if (page.user()) return redirect(page, "/");
    return show_login(page, 200, "", "");
  }
  std::optional<Form> form = posted_form(page);
  if (!form) return;
  const std::string email = trim(form_value(*form, "email"));
  const std::string password = form_value(*form, "password");
  WebStore& web = page.app.store().web();
  const std::int64_t now = unix_now();
  const std::string address_key = "ip:" + page.client();
  const std::string account_key = "account:" + lower(email.substr(0, kMaxEmailBytes));
  Result<std::int64_t> by_address = web.login_failures(address_key, now, kLoginWindowSeconds);
  Result<std::int64_t> by_account = web.login_failures(account_key, now, kLoginWindowSeconds);
  if (!by_address.ok()) return store_failed(page, by_address.status());
  if (!by_account.ok()) return store_failed(page, by_account.status());
  const std::string throttled =
      page.text("web.login.throttled", {{"minutes", std::to_string(kLoginWindowSeconds / 60)}});
  if (*by_address >= kMaxFailuresPerAddress || *by_account >= kMaxFailuresPerAccount) {
    LogLine(LogLevel::kWarn, "login_throttled").field("request_id", page.exchange->request_id);
    return show_login(page, 429, email, throttled);
  }
  std::optional<Credentials> creds;
  if (plausible_email(email) && password.size() <= kMaxPasswordBytes) {
    Result<std::optional<Credentials>> found = web.find_credentials(email);
    if (!found.ok()) return store_failed(page, found.status());
    creds = std::move(*found);
  }
  bool ok = false;
  if (creds && creds->password_hash) {
    ok = verify_password(password, *creds->password_hash);
  } else {
    (void)verify_password(password, dummy_hash());  // the same time for unknown accounts
  }
  if (!ok) {
    (void)web.record_login_failure(address_key, now, kLoginWindowSeconds);
    Result<std::int64_t> count = web.record_login_failure(account_key, now, kLoginWindowSeconds);
    LogLine(LogLevel::kInfo, "login_failed").field("request_id", page.exchange->request_id);
    const bool now_throttled = count.ok() && *count >= kMaxFailuresPerAccount;
    return show_login(page, now_throttled ? 429 : 200, email,
                      now_throttled ? throttled : page.text("web.login.failed"));
  }
  (void)web.clear_login_failures(account_key);
  if (Status s = start_session(page, creds->user); !s.ok()) return store_failed(page, s);
  LogLine(LogLevel::kInfo, "login")
      .field("request_id", page.exchange->request_id)
      .field("user_id", creds->user.id);
  redirect(page, "/");
}

void register_page(const std::shared_ptr<Page>& page_ptr) {
  Page& page = *page_ptr;
  if (page.exchange->request.method != "POST") {
    if (page.user()) return redirect(page, "/");
    return show_register(page, 200, "", "", "");
  }
  std::optional<Form> form = posted_form(page);
  if (!form) return;
  const std::string name = trim(form_value(*form, "name"));
  const std::string email = trim(form_value(*form, "email"));
  const std::string password = form_value(*form, "password");
  if (name.empty() || name.size() > kMaxNameBytes || has_control(name)) {
    return show_register(page, 422, name, email, page.text("web.register.missing_name"));
  }
  if (!plausible_email(email)) {
    return show_register(page, 422, name, email, page.text("web.register.invalid_email"));
  }
  // Characters, not bytes: UTF-8 continuation bytes do not count.
  std::size_t chars = 0;
  for (unsigned char c : password) chars += (c & 0xC0) != 0x80;
  if (chars < kMinPasswordChars || password.size() > kMaxPasswordBytes) {
    return show_register(page, 422, name, email, page.text("web.register.short_password"));
  }
  Result<User> user = create_user(page.app.store(), email, name, "free", password);
  if (!user.ok()) {
    if (user.status().code() != StatusCode::kInvalidArgument) {
      return store_failed(page, user.status());
    }
    return show_register(page, 422, name, email, page.text("web.register.failed"));
  }
  if (Status s = start_session(page, *user); !s.ok()) return store_failed(page, s);
  LogLine(LogLevel::kInfo, "registered")
      .field("request_id", page.exchange->request_id)
      .field("user_id", user->id);
  redirect(page, "/");
}

void logout(const std::shared_ptr<Page>& page_ptr) {
  Page& page = *page_ptr;
  std::optional<Form> form = posted_form(page);
  if (!form) return;
  if (auto it = page.cookies.find(kSessionCookie); it != page.cookies.end()) {
    if (Result<bool> r = page.app.store().web().delete_session(sha256(it->second)); !r.ok()) {
      return store_failed(page, r.status());
    }
  }
  page.set_cookies.push_back(cookie(page, kSessionCookie, "", 0));
  redirect(page, "/");
}

void tokens_page(const std::shared_ptr<Page>& page_ptr) {
  Page& page = *page_ptr;
  if (!require_user(page)) return;
  if (page.exchange->request.method == "POST") return create_token(page);
  const bool revoked = page.exchange->request.query == "revoked=1";
  show_tokens(page, 200, revoked ? page.text("web.tokens.revoked_done") : "", true);
}

void revoke_token(const std::shared_ptr<Page>& page_ptr, const std::string& id) {
  Page& page = *page_ptr;
  if (!require_user(page)) return;
  std::optional<Form> form = posted_form(page);
  if (!form) return;
  std::int64_t token_id = 0;
  const auto [end, ec] = std::from_chars(id.data(), id.data() + id.size(), token_id);
  if (ec != std::errc() || end != id.data() + id.size()) {
    return send_error(page, 404, "web.error.not_found.title", "web.error.not_found");
  }
  Result<bool> done =
      page.app.store().web().revoke_token_by_id(page.user()->id, token_id, unix_now());
  if (!done.ok()) return store_failed(page, done.status());
  redirect(page, *done ? "/developer/tokens?revoked=1" : "/developer/tokens");
}

void reports_page(const std::shared_ptr<Page>& page_ptr) {
  Page& page = *page_ptr;
  if (!require_user(page)) return;
  ReportQuery query;
  query.user_id = page.user()->id;
  query.limit = 50;
  Result<ReportPage> reports = page.app.store().list_reports(query);
  if (!reports.ok()) return store_failed(page, reports.status());
  auto dict = page_dictionary(page);
  if (page.exchange->request.query == "deleted=1") {
    dict->AddSectionDictionary("NOTICE")->SetValue("NOTICE_TEXT", page.text("web.reports.deleted"));
  }
  if (reports->reports_json.empty())
    dict->ShowSection("EMPTY");
  else
    dict->ShowSection("TABLE");
  for (const std::string& json : reports->reports_json) {
    std::optional<ReportRow> r = row_from_json(json);
    if (!r) continue;
    auto* row = dict->AddSectionDictionary("ROW");
    row->SetValue("ID", r->id);
    row->SetValue("DATE", display_time(std::string_view(r->created_at)));
    row->SetValue("KIND", page.text("web.kind." + r->kind));
    row->SetValue("VERDICT", r->verdict);
    row->SetValue("RISK_TEXT", page.text("web.verdict." + r->verdict));
    row->SetIntValue("SCORE", static_cast<long>(r->score));
    row->SetValue("SUMMARY", r->summary);
  }
  send_html(page, 200, render(page, "reports.tpl", *dict, page.text("web.reports.title")));
}

void report_page(const std::shared_ptr<Page>& page_ptr, const std::string& id) {
  Page& page = *page_ptr;
  if (!require_user(page)) return;
  Result<std::optional<std::string>> json = page.app.store().get_report(page.user()->id, id);
  if (!json.ok()) return store_failed(page, json.status());
  std::optional<Report> report = *json ? report_from_json(**json) : std::nullopt;
  if (!report) {
    return send_error(page, 404, "web.error.not_found.title", "web.reports.not_found");
  }
  auto dict = page_dictionary(page);
  dict->SetValue("ID", report->id);
  dict->SetValue("REPORT", render_report(page, *report, nullptr));
  send_html(page, 200, render(page, "report_page.tpl", *dict, page.text("web.report.title")));
}

void delete_report(const std::shared_ptr<Page>& page_ptr, const std::string& id) {
  Page& page = *page_ptr;
  if (!require_user(page)) return;
  std::optional<Form> form = posted_form(page);
  if (!form) return;
  Result<bool> deleted = page.app.store().delete_report(page.user()->id, id);
  if (!deleted.ok()) return store_failed(page, deleted.status());
  if (!*deleted) {
    return send_error(page, 404, "web.error.not_found.title", "web.reports.not_found");
  }
  redirect(page, "/reports?deleted=1");
}

}  // namespace scamcheck::server::web
