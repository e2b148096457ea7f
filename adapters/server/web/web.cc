#include "web/web.h"

#include <fmt/format.h>

#include "api/file_scans.h"
#include "auth/crypto.h"
#include "embedded_files.h"
#include "logging.h"
#include "web/web_support.h"

namespace scamcheck::server {
namespace {

struct StaticFile {
  std::string_view content;
  std::string_view type;
  std::string etag;
};

std::map<std::string, StaticFile, std::less<>>& static_files() {
  static std::map<std::string, StaticFile, std::less<>> files;
  return files;
}

std::string& asset_version_storage() {
  static std::string version;
  return version;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// "/reports/{id}/delete" -> {"reports", id, "delete"}.
std::vector<std::string_view> segments(std::string_view path) {
  std::vector<std::string_view> out;
  std::size_t start = 1;
  while (start <= path.size()) {
    const std::size_t slash = std::min(path.find('/', start), path.size());
    out.push_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

void serve_static(web::Page& page) {
  Exchange& ex = *page.exchange;
  auto it = static_files().find(ex.request.path.substr(std::string_view("/static/").size()));
  if (it == static_files().end()) {
    return web::send_error(page, 404, "web.error.not_found.title", "web.error.not_found");
  }
  Response r;
  web::add_security_headers(r);
  r.set_header("ETag", it->second.etag);
  // The pages link them with ?v=<hash of their content>.
  r.set_header("Cache-Control", "public, max-age=31536000, immutable");
  if (ex.request.header("If-None-Match") == it->second.etag) {
    r.status = 304;
    return ex.respond(std::move(r));
  }
  r.content_type = std::string(it->second.type);
  r.body = std::string(it->second.content);
  ex.respond(std::move(r));
}

// /lang?to=de&next=/path: remembers the choice in a cookie (a year).
void switch_language(web::Page& page) {
  Exchange& ex = *page.exchange;
  std::optional<web::Form> query = web::parse_urlencoded(ex.request.query);
  const std::string to = query ? web::form_value(*query, "to") : std::string();
  const std::string sent = query ? web::form_value(*query, "next") : std::string();
  // Only a local path: never another site ("//host" or "/\host").
  const bool local = !sent.empty() && sent.front() == '/' &&
                     sent.find_first_of("\r\n\\") == std::string::npos && sent.rfind("//", 0) != 0;
  std::string next = local ? sent : std::string("/");
  if (to == "en" || to == "de") {
    page.set_cookies.push_back(web::cookie(page, web::kLangCookie, to, 365 * 24 * 3600));
  }
  web::redirect(page, next);
}

void method_not_allowed(web::Page& page, std::string_view allow) {
  page.extra_headers.emplace_back("Allow", std::string(allow));
  web::send_error(page, 405, "web.error.bad_request.title", "web.error.bad_request");
}

// Runs `fn(page)` on the pool (password hashing, uploads, analysis): never
// on an I/O thread.
void on_pool(App& app, const std::shared_ptr<Exchange>& exchange,
             void (*run)(App&, const std::shared_ptr<Exchange>&)) {
  post_exchange(app.file_scans(), app, exchange, run, "detail.uploads_busy");
}

std::shared_ptr<web::Page> load(App& app, const std::shared_ptr<Exchange>& exchange) {
  auto page = std::make_shared<web::Page>(app, exchange);
  if (!web::load_page(*page)) {
    web::send_error(*page, 503, "web.error.unavailable.title", "web.error.unavailable");
    return nullptr;
  }
  return page;
}

void run_on_pool(App& app, const std::shared_ptr<Exchange>& exchange) {
  auto page = load(app, exchange);
  if (!page) return;
  const std::string& path = exchange->request.path;
  if (path == "/") return web::check_page(page);
  if (path == "/login") return web::login_page(page);
  if (path == "/register") return web::register_page(page);
}

}  // namespace

namespace web {
const std::string& asset_version() { return asset_version_storage(); }
}  // namespace web

bool init_web() {
  constexpr std::string_view kTemplates = "web/templates/";
  constexpr std::string_view kStatic = "web/static/";
  std::string all_static;
  for (const EmbeddedFile& file : embedded_files()) {
    if (starts_with(file.path, kTemplates)) {
      const std::string name(file.path.substr(kTemplates.size()));
      if (!ctemplate::StringToTemplateCache(name, std::string(file.content),
                                            ctemplate::STRIP_BLANK_LINES)) {
        LogLine(LogLevel::kError, "template_error").field("template", name);
        return false;
      }
    } else if (starts_with(file.path, kStatic)) {
      const std::string name(file.path.substr(kStatic.size()));
      const std::string_view type = name.size() > 4 && name.substr(name.size() - 4) == ".css"
                                        ? "text/css; charset=utf-8"
                                        : "text/javascript; charset=utf-8";
      const Sha256 digest = sha256(file.content);
      std::string hex;
      for (int i = 0; i < 8; ++i) hex += fmt::format("{:02x}", digest[i]);
      const std::string etag = fmt::format("\"{}\"", hex);
      static_files()[name] = StaticFile{file.content, type, etag};
      all_static += etag;
    }
  }
  const Sha256 digest = sha256(all_static);
  for (int i = 0; i < 6; ++i) asset_version_storage() += fmt::format("{:02x}", digest[i]);
  return true;
}

bool is_web_path(std::string_view path) {
  return path == "/" || path == "/login" || path == "/register" || path == "/logout" ||
         path == "/lang" || path == "/reports" || starts_with(path, "/reports/") ||
         starts_with(path, "/developer/") || starts_with(path, "/static/");
}

void dispatch_web(App& app, const std::shared_ptr<Exchange>& exchange) {
  const std::string& method = exchange->request.method;
  const std::string& path = exchange->request.path;
  const bool get = method == "GET" || method == "HEAD";
  // Forms that hash passwords or analyse run on the pool.
  if (method == "POST" && (path == "/" || path == "/login" || path == "/register")) {
    return on_pool(app, exchange, run_on_pool);
  }
  auto page = load(app, exchange);
  if (!page) return;
  if (starts_with(path, "/static/")) {
    if (!get) return method_not_allowed(*page, "GET");
    return serve_static(*page);
  }
  if (path == "/" || path == "/login" || path == "/register") {
    if (!get) return method_not_allowed(*page, "GET, POST");
    if (path == "/") return web::check_page(page);
    if (path == "/login") return web::login_page(page);
    return web::register_page(page);
  }
  if (path == "/lang") {
    if (!get) return method_not_allowed(*page, "GET");
    return switch_language(*page);
  }
  if (path == "/logout") {
    if (method != "POST") return method_not_allowed(*page, "POST");
    return web::logout(page);
  }
  const std::vector<std::string_view> parts = segments(path);
  if (path == "/developer/tokens") {
    if (!get && method != "POST") return method_not_allowed(*page, "GET, POST");
    return web::tokens_page(page);
  }
  if (parts.size() == 4 && parts[0] == "developer" && parts[1] == "tokens" &&
      parts[3] == "revoke") {
    if (method != "POST") return method_not_allowed(*page, "POST");
    return web::revoke_token(page, std::string(parts[2]));
  }
  if (path == "/reports") {
    if (!get) return method_not_allowed(*page, "GET");
    return web::reports_page(page);
  }
  if (parts.size() == 2 && parts[0] == "reports" && !parts[1].empty()) {
    if (!get) return method_not_allowed(*page, "GET");
    return web::report_page(page, std::string(parts[1]));
  }
  if (parts.size() == 3 && parts[0] == "reports" && parts[2] == "delete") {
    if (method != "POST") return method_not_allowed(*page, "POST");
    return web::delete_report(page, std::string(parts[1]));
  }
  web::send_error(*page, 404, "web.error.not_found.title", "web.error.not_found");
}

}  // namespace scamcheck::server
