#include "web/web_support.h"

#include <fmt/format.h>
#include <simdjson.h>
#include <sodium.h>

#include <mutex>

#include "api/check_api.h"
#include "auth/crypto.h"
#include "embedded_files.h"
#include "http/router.h"
#include "ids.h"
#include "logging.h"

namespace scamcheck::server::web {
namespace {

// The web.* catalog keys and their template names ("web.check.title" ->
// "T_CHECK_TITLE"), read once from the English catalog.
const std::vector<std::pair<std::string, std::string>>& text_keys() {
  static const auto* keys = [] {
    auto* out = new std::vector<std::pair<std::string, std::string>>();
    for (const EmbeddedFile& file : embedded_files()) {
      if (file.path != "data/locales/en.json") continue;
      simdjson::dom::parser parser;
      simdjson::dom::object messages;
      if (parser.parse(file.content.data(), file.content.size())["messages"].get(messages)) break;
      for (auto field : messages) {
        const std::string key(field.key);
        if (key.rfind("web.", 0) != 0) continue;
        std::string name = "T_" + key.substr(4);
        for (char& c : name) {
          if (c == '.') c = '_';
          if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
        }
        out->emplace_back(key, std::move(name));
      }
    }
    return out;
  }();
  return *keys;
}

std::string hmac_token(std::string_view key, std::string_view message) {
  unsigned char mac[crypto_auth_hmacsha256_BYTES];
  crypto_auth_hmacsha256_state state;
  crypto_auth_hmacsha256_init(&state, reinterpret_cast<const unsigned char*>(key.data()),
                              key.size());
  crypto_auth_hmacsha256_update(&state, reinterpret_cast<const unsigned char*>(message.data()),
                                message.size());
  crypto_auth_hmacsha256_final(&state, mac);
  return base64url_encode(std::string_view(reinterpret_cast<const char*>(mac), sizeof(mac)));
}

bool is_base62(std::string_view value, std::size_t size) {
  if (value.size() != size) return false;
  for (char c : value) {
    const bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!ok) return false;
  }
  return true;
}

std::map<std::string, std::string, std::less<>> parse_cookies(std::string_view header) {
  std::map<std::string, std::string, std::less<>> out;
  while (!header.empty()) {
    const std::size_t semi = header.find(';');
    std::string_view pair = header.substr(0, semi);
    header = semi == std::string_view::npos ? std::string_view() : header.substr(semi + 1);
    while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
    while (!pair.empty() && pair.back() == ' ') pair.remove_suffix(1);
    const std::size_t eq = pair.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    out.emplace(std::string(pair.substr(0, eq)), std::string(pair.substr(eq + 1)));
  }
  return out;
}

std::string lang_switch_url(const Page& page, std::string_view other) {
  // Only the path of this page (never the query: it may hold anything).
  const bool get = page.exchange->request.method == "GET";
  const std::string_view path = get ? std::string_view(page.exchange->request.path) : "/";
  std::string encoded;
  for (unsigned char c : path) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '/' || c == '-' || c == '_' || c == '.';
    encoded += plain ? std::string(1, static_cast<char>(c)) : fmt::format("%{:02X}", c);
  }
  return fmt::format("/lang?to={}&next={}", other, encoded);
}

}  // namespace

std::string Page::text(std::string_view key, const adapters::TextVars& vars) const {
  return app.catalog().text(locale, key, vars);
}

std::string Page::client() const {
  if (CheckApi* api = app.check_api()) return api->proxies().client_address(exchange->request);
  return exchange->request.remote_address;
}

bool load_page(Page& page) {
  Exchange& ex = *page.exchange;
  page.cookies = parse_cookies(ex.request.header("Cookie"));
  if (CheckApi* api = page.app.check_api()) {
    page.secure = api->options().base_url.rfind("https://", 0) == 0;
  }
  auto lang = page.cookies.find(kLangCookie);
  if (lang != page.cookies.end() && (lang->second == "en" || lang->second == "de")) {
    page.locale = lang->second;
  } else {
    page.locale = page.app.catalog().resolve(ex.accept_language);
  }
  ex.locale = page.locale;
  const std::int64_t now = unix_now();
  if (auto it = page.cookies.find(kSessionCookie);
      it != page.cookies.end() && is_base62(it->second, 43)) {
    const Sha256 id_hash = sha256(it->second);
    Result<std::optional<SessionRecord>> found = page.app.store().web().find_session(id_hash, now);
    if (!found.ok()) {
      LogLine(LogLevel::kError, "store_error")
          .field("request_id", ex.request_id)
          .field("error", found.status().to_string());
      return false;
    }
    page.session = std::move(*found);
    if (page.session && now - page.session->last_seen_at >= kSessionTouchSeconds) {
      // Best effort: a failed touch only shortens the session.
      (void)page.app.store().web().touch_session(id_hash, now, now + kSessionSeconds);
    }
  }
  if (page.session) {
    page.csrf = page.session->csrf_secret;
    return true;
  }
  // Signed out: the forms carry an HMAC of a random visitor cookie, so a
  // page of another site can neither read nor forge it (sign-in CSRF).
  std::string visitor;
  if (auto it = page.cookies.find(kAnonymousCookie);
      it != page.cookies.end() && is_base62(it->second, 32)) {
    visitor = it->second;
  } else {
    visitor = new_random_base62(32);
    page.set_cookies.push_back(cookie(page, kAnonymousCookie, visitor, -1));
  }
  Result<std::string> key = page.app.store().server_key("web_csrf_key");
  if (!key.ok()) return false;
  page.csrf = hmac_token(*key, visitor);
  return true;
}

bool csrf_ok(const Page& page, std::string_view sent) {
  if (page.csrf.empty() || sent.size() != page.csrf.size()) return false;
  return sodium_memcmp(sent.data(), page.csrf.data(), sent.size()) == 0;
}

std::optional<Form> parse_urlencoded(std::string_view body) {
  Form form;
  while (!body.empty()) {
    const std::size_t amp = body.find('&');
    std::string_view pair = body.substr(0, amp);
    body = amp == std::string_view::npos ? std::string_view() : body.substr(amp + 1);
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    std::optional<std::string> name = percent_decode(pair.substr(0, eq));
    std::optional<std::string> value =
        percent_decode(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1));
    if (!name || !value) return std::nullopt;
    form.emplace(std::move(*name), std::move(*value));
  }
  return form;
}

std::string form_value(const Form& form, std::string_view name) {
  auto it = form.find(name);
  return it == form.end() ? std::string() : it->second;
}

std::string cookie(const Page& page, std::string_view name, std::string_view value,
                   std::int64_t max_age, std::string_view path) {
  std::string out = fmt::format("{}={}; Path={}; HttpOnly; SameSite=Lax", name, value, path);
  if (max_age >= 0) out += fmt::format("; Max-Age={}", max_age);
  if (page.secure) out += "; Secure";
  return out;
}

Status start_session(Page& page, const User& user) {
  const std::string value = new_random_base62(43);
  NewSession s;
  s.id_hash = sha256(value);
  s.user_id = user.id;
  s.csrf_secret = new_random_base62(43);
  s.created_at = unix_now();
  s.expires_at = s.created_at + kSessionSeconds;
  if (Status st = page.app.store().web().create_session(s); !st.ok()) return st;
  // Expired sessions go when someone signs in (an indexed delete).
  (void)page.app.store().web().purge_sessions(s.created_at);
  page.set_cookies.push_back(cookie(page, kSessionCookie, value, -1));
  return {};
}

std::unique_ptr<ctemplate::TemplateDictionary> page_dictionary(const Page& page) {
  auto dict = std::make_unique<ctemplate::TemplateDictionary>("page");
  for (const auto& [key, name] : text_keys()) dict->SetValue(name, page.text(key));
  dict->SetValue("LANG", page.locale);
  dict->SetValue("CSRF", page.csrf);
  dict->SetValue("LANG_SWITCH_URL", lang_switch_url(page, page.text("web.lang.other")));
  if (const User* user = page.user()) {
    dict->ShowSection("SIGNED_IN");
    dict->SetValue("SIGNED_IN_AS", page.text("web.signed_in_as", {{"email", user->email}}));
  } else {
    dict->ShowSection("SIGNED_OUT");
  }
  return dict;
}

std::string render_part(std::string_view name, ctemplate::TemplateDictionary& dict) {
  std::string out;
  if (!ctemplate::ExpandTemplate(std::string(name), ctemplate::STRIP_BLANK_LINES, &dict, &out)) {
    LogLine(LogLevel::kError, "template_error").field("template", name);
  }
  return out;
}

std::string render(const Page& page, std::string_view body_template,
                   ctemplate::TemplateDictionary& body, std::string_view title) {
  auto layout = page_dictionary(page);
  layout->SetValue("PAGE_TITLE", std::string(title));
  layout->SetValue("ASSET_VERSION", asset_version());
  layout->SetValue("BODY", render_part(body_template, body));
  return render_part("layout.tpl", *layout);
}

void add_security_headers(Response& response) {
  response.set_header("Content-Security-Policy",
                      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                      "connect-src 'self'; form-action 'self'; base-uri 'none'; "
                      "frame-ancestors 'none'");
  response.set_header("X-Content-Type-Options", "nosniff");
  response.set_header("Referrer-Policy", "same-origin");
  response.set_header("X-Frame-Options", "DENY");
}

void send_html(Page& page, int status, std::string html) {
  Response r;
  r.status = status;
  r.content_type = "text/html; charset=utf-8";
  r.body = std::move(html);
  add_security_headers(r);
  r.set_header("Cache-Control", "no-store");
  r.set_header("Vary", "Cookie, Accept-Language");
  for (std::string& c : page.set_cookies) r.set_header("Set-Cookie", std::move(c));
  page.set_cookies.clear();
  for (auto& [name, value] : page.extra_headers) r.set_header(name, value);
  page.exchange->respond(std::move(r));
}

void redirect(Page& page, std::string location) {
  Response r;
  r.status = 303;
  add_security_headers(r);
  r.set_header("Location", std::move(location));
  r.set_header("Cache-Control", "no-store");
  for (std::string& c : page.set_cookies) r.set_header("Set-Cookie", std::move(c));
  page.set_cookies.clear();
  page.exchange->respond(std::move(r));
}

void send_error(Page& page, int status, std::string_view title_key, std::string_view text_key) {
  auto dict = page_dictionary(page);
  const std::string title = page.text(title_key);
  dict->SetValue("ERROR_TITLE", title);
  dict->SetValue("ERROR_TEXT", page.text(text_key));
  send_html(page, status, render(page, "error.tpl", *dict, title));
}

std::string display_time(std::int64_t unix_seconds) {
  std::string iso = iso8601(unix_seconds);  // YYYY-MM-DDTHH:MM:SSZ
  return display_time(std::string_view(iso));
}

std::string display_time(std::string_view iso) {
  if (iso.size() < 16) return std::string(iso);
  return fmt::format("{} {} UTC", iso.substr(0, 10), iso.substr(11, 5));
}

}  // namespace scamcheck::server::web
