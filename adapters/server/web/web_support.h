// What every page of the web interface shares (web_support.cc): the page's
// locale, the session cookie and its session in the store, the CSRF token
// of the forms, form bodies, rendering with ctemplate (auto-escaping on in
// every template), and the security headers of every page.
#ifndef SCAMCHECK_ADAPTERS_SERVER_WEB_WEB_SUPPORT_H_
#define SCAMCHECK_ADAPTERS_SERVER_WEB_WEB_SUPPORT_H_

#include <ctemplate/template.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app.h"
#include "scamcheck/report.h"
#include "storage/store.h"

namespace scamcheck::server::web {

inline constexpr std::string_view kSessionCookie = "sc_session";
inline constexpr std::string_view kAnonymousCookie = "sc_visitor";
inline constexpr std::string_view kLangCookie = "sc_lang";
inline constexpr std::string_view kFlashCookie = "sc_flash";
// A session lasts this long after its last use.
inline constexpr std::int64_t kSessionSeconds = 7 * 24 * 3600;
// A session's expiry is moved forward at most this often (a store write).
inline constexpr std::int64_t kSessionTouchSeconds = 600;
// Failed sign-ins: at most kMaxFailuresPerAccount per e-mail address and
// kMaxFailuresPerAddress per client address within kLoginWindowSeconds.
inline constexpr std::int64_t kLoginWindowSeconds = 15 * 60;
inline constexpr std::int64_t kMaxFailuresPerAccount = 5;
inline constexpr std::int64_t kMaxFailuresPerAddress = 20;

// One web request: the exchange plus what the pages need of it.
struct Page {
  Page(App& a, std::shared_ptr<Exchange> e) : app(a), exchange(std::move(e)) {}

  App& app;
  std::shared_ptr<Exchange> exchange;
  std::string locale;  // "en" or "de": cookie, then Accept-Language
  std::map<std::string, std::string, std::less<>> cookies;
  std::optional<SessionRecord> session;  // signed in
  std::string csrf;                      // the token every form of this page carries
  std::vector<std::string> set_cookies;  // Set-Cookie values of the response
  bool secure = false;                   // --base-url is https: cookies get Secure
  HeaderList extra_headers;              // added to the response (e.g. Allow)

  const User* user() const { return session ? &session->user : nullptr; }
  // A catalog text of this page's locale.
  std::string text(std::string_view key, const adapters::TextVars& vars = {}) const;
  // The client address (trusted proxies honoured).
  std::string client() const;
};

// Reads cookies, locale and session; sets `csrf`. False when the store
// failed (the caller answers 503).
bool load_page(Page& page);

// True when the form's csrf field matches the page's token (constant time).
bool csrf_ok(const Page& page, std::string_view sent);

// application/x-www-form-urlencoded fields (repeated names kept in order).
using Form = std::multimap<std::string, std::string, std::less<>>;
std::optional<Form> parse_urlencoded(std::string_view body);
std::string form_value(const Form& form, std::string_view name);

// A Set-Cookie value with this page's flags (Path=/, HttpOnly,
// SameSite=Lax, Secure behind https). max_age < 0: a session cookie;
// 0: deletes it.
std::string cookie(const Page& page, std::string_view name, std::string_view value,
                   std::int64_t max_age, std::string_view path = "/");

// A new session for `user`: stored, its cookie set on the page.
Status start_session(Page& page, const User& user);

// A dictionary with every web.* text of the page's locale (T_* names),
// the language switch, and the signed-in state.
std::unique_ptr<ctemplate::TemplateDictionary> page_dictionary(const Page& page);
// Renders `body_template` with `body` inside the layout.
std::string render(const Page& page, std::string_view body_template,
                   ctemplate::TemplateDictionary& body, std::string_view title);
// Renders one template on its own (a part of a page).
std::string render_part(std::string_view name, ctemplate::TemplateDictionary& dict);

// Sends an HTML page with the security headers and the page's cookies.
void send_html(Page& page, int status, std::string html);
// Sends 303 See Other to `location` (a local path).
void redirect(Page& page, std::string location);
// An error page (403, 404, 503, 400) with a title and text key.
void send_error(Page& page, int status, std::string_view title_key, std::string_view text_key);

// A short hash of the static files, for their URLs (?v=...).
const std::string& asset_version();

// The headers every web response carries (CSP, nosniff, Referrer-Policy...).
void add_security_headers(Response& response);

// "2026-11-26 13:05 UTC" for Unix seconds or an ISO 8601 time.
std::string display_time(std::int64_t unix_seconds);
std::string display_time(std::string_view iso8601);

// The pages (web_account.cc, web_check.cc). Each is called on the I/O
// thread or a worker with a loaded page and answers through it.
void login_page(const std::shared_ptr<Page>& page);
void register_page(const std::shared_ptr<Page>& page);
void logout(const std::shared_ptr<Page>& page);
void tokens_page(const std::shared_ptr<Page>& page);
void reports_page(const std::shared_ptr<Page>& page);
void report_page(const std::shared_ptr<Page>& page, const std::string& id);
void delete_report(const std::shared_ptr<Page>& page, const std::string& id);
void revoke_token(const std::shared_ptr<Page>& page, const std::string& id);
void check_page(const std::shared_ptr<Page>& page);

// The report section of a page: verdict, score, confidence, summary,
// actions, the signals by location, and, when `content` is the analysed
// text (kind text or url) or the report has extracted text, that text with
// every signal's evidence in a <mark> at its span.
std::string render_report(const Page& page, const Report& report, const std::string* content);
// A stored report's JSON back as a Report (the fields the page shows).
std::optional<Report> report_from_json(std::string_view json);

}  // namespace scamcheck::server::web

#endif  // SCAMCHECK_ADAPTERS_SERVER_WEB_WEB_SUPPORT_H_
