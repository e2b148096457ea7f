// The web interface of scamcheckd (CONTRACT §9): server-rendered HTML pages
// in en and de. The router hands every request whose path is a web path
// to dispatch_web() before matching the API's route table; the pages are
// not part of the OpenAPI document.
//
//   /                  check a message, URL, email source or uploaded file
//   /login, /register, /logout
//   /reports, /reports/{id}, /reports/{id}/delete   (signed in)
//   /developer/tokens, /developer/tokens/{id}/revoke (signed in)
//   /static/app.css, /static/app.js                 (compiled in)
//   /lang?to=de&next=/path                          (the language switch)
#ifndef SCAMCHECK_ADAPTERS_SERVER_WEB_WEB_H_
#define SCAMCHECK_ADAPTERS_SERVER_WEB_WEB_H_

#include <memory>
#include <string_view>

namespace scamcheck::server {

class App;
struct Exchange;

// Loads the templates and static files. Call once before serving; fails
// only when a compiled-in template does not parse.
bool init_web();

// True when `path` belongs to the web interface.
bool is_web_path(std::string_view path);

// Answers a request for a web path (through the exchange, exactly once).
void dispatch_web(App& app, const std::shared_ptr<Exchange>& exchange);

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_WEB_WEB_H_
