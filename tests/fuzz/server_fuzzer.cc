// Fuzzes scamcheckd's request handling in-process: the router's chain
// (route match, path shapes, auth, query parameters, media types), the
// handlers with their JSON bodies, multipart uploads, the check API and the
// MCP endpoint's JSON-RPC, on a real SQLite store in a temporary directory.
//
// Input: the first byte picks a request shape, the rest is its body:
//   0 POST /api/v1/scan (JSON)             4 POST /api/questionnaire-responses/{uuid}/answers
//   1 POST /api/v1/scan (multipart form)   5 GET /api/v1/reports?<rest>
//   2 POST /mcp/scamcheck (JSON-RPC)       6 POST /api/webhooks/analysis-result/<rest>
//   3 POST /api/checks (JSON)              7 a raw request: "METHOD TARGET\n"
//                                            "Name: value\n"... "\n" body
// In raw requests $TOKEN, $CHECK and $RESPONSE are replaced by a valid
// token (every ability), a check's UUID and a questionnaire response's UUID.
// Checked: every request is answered, within 20 s, with a status in
// 100-599 that is not 500 (a handler's exception or a store error), and
// nothing crashes. SCAMCHECK_FUZZ_VERBOSE=1 prints each status and the
// start of its body.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <memory>
#include <string>
#include <string_view>

#include "api/check_api.h"
#include "api/file_scans.h"
#include "api/questionnaires.h"
#include "app.h"
#include "auth/crypto.h"
#include "auth/rate_limits.h"
#include "http/catalog.h"
#include "http/multipart.h"
#include "http/router.h"
#include "logging.h"
#include "mcp/mcp_http.h"
#include "operator_commands.h"
#include "scamcheck/scamcheck.h"
#include "storage/store.h"

namespace scamcheck::server {
namespace {

[[noreturn]] void die(const char* what, const std::string& detail) {
  std::fprintf(stderr, "server_fuzzer: %s: %s\n", what, detail.c_str());
  std::abort();
}

std::string g_dir;  // the temporary directory of the database

void remove_dir() {
  if (!g_dir.empty()) std::filesystem::remove_all(g_dir);
}

void replace_all(std::string& text, std::string_view from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

// One server, built once per process like scamcheckd's serve(), without
// the socket layer; stopped and freed at exit.
struct Server {
  std::unique_ptr<Store> store;
  std::unique_ptr<Analyzer> analyzer;
  std::unique_ptr<App> app;
  std::unique_ptr<FileScanPool> file_scans;
  std::unique_ptr<McpEndpoint> mcp;
  std::unique_ptr<CheckApi> check_api;
  std::unique_ptr<Router> router;
  std::string token;
  std::string check_uuid;
  std::string response_uuid;

  Server() {
    if (Status s = init_crypto(); !s.ok()) die("init_crypto", s.to_string());
    (void)init_logging("error");
    char dir[] = "/tmp/scamcheck-server-fuzzer-XXXXXX";
    if (mkdtemp(dir) == nullptr) die("mkdtemp", dir);
    g_dir = dir;
    std::atexit(remove_dir);
    Result<std::unique_ptr<Store>> opened = open_store("sqlite:" + g_dir + "/fuzz.db");
    if (!opened.ok()) die("open_store", opened.status().to_string());
    store = std::move(*opened);
    if (Status s = store->migrate(); !s.ok()) die("migrate", s.to_string());
    Result<User> user =
        create_user(*store, "fuzz@example.com", "Fuzz", "business", "fuzz-password");
    if (!user.ok()) die("create_user", user.status().to_string());
    Result<std::string> created = create_token(*store, "fuzz@example.com", "fuzz", {"*"}, {});
    if (!created.ok()) die("create_token", created.status().to_string());
    token = *created;

    Result<std::unique_ptr<Analyzer>> made = Analyzer::create(Options{.ocr_engines = 1});
    if (!made.ok()) die("Analyzer::create", made.status().to_string());
    analyzer = std::move(*made);
    Result<std::shared_ptr<const Catalog>> catalog = Catalog::load();
    if (!catalog.ok()) die("Catalog::load", catalog.status().to_string());
    app = std::make_unique<App>(*analyzer, *store, *catalog, AppOptions{});
    init_form_parser();
    file_scans = std::make_unique<FileScanPool>(1, 64);
    app->set_file_scans(file_scans.get());
    Result<std::unique_ptr<McpEndpoint>> endpoint =
        McpEndpoint::create(*analyzer, McpEndpointOptions{.name = "scamcheck",
                                                          .base_url = "http://127.0.0.1:8080",
                                                          .allowed_origins = {},
                                                          .threads = 1});
    if (!endpoint.ok()) die("McpEndpoint::create", endpoint.status().to_string());
    mcp = std::move(*endpoint);
    app->set_mcp(mcp.get());

    Result<TrustedProxies> proxies = TrustedProxies::parse({});
    Result<std::shared_ptr<const CheckCatalogues>> catalogues = CheckCatalogues::load();
    if (!proxies.ok() || !catalogues.ok()) die("check API", "catalogues");
    CheckApiOptions options;
    options.base_url = "http://127.0.0.1:8080";
    options.analysis_timeout = std::chrono::milliseconds(2000);
    options.workers = 1;
    // The allowances would answer most requests 429 after a few.
    options.per_minute_authenticated = options.per_minute_anonymous = options.per_minute_polling =
        options.anonymous_checks_per_day = std::int64_t{1} << 40;
    check_api = std::make_unique<CheckApi>(*app, options, std::move(*proxies), *catalogues);
    if (Status s = check_api->start(); !s.ok()) die("CheckApi::start", s.to_string());
    app->set_check_api(check_api.get());
    router = std::make_unique<Router>(*app);

    check_uuid = uuid_from(send(raw("POST /api/checks\nContent-Type: application/json\n\n"
                                    "{\"type\":\"text\",\"content\":\"hello\"}")),
                           "\"uuid\":\"");
    response_uuid =
        uuid_from(send(raw("POST /api/questionnaires/was-i-phished/start\n\n")), "\"uuid\":\"");
  }

  void stop() {
    check_api->stop();
    mcp->join();
    file_scans->join();
    store->flush();
  }

  static std::string uuid_from(const Response& response, std::string_view key) {
    const std::size_t at = response.body.find(key);
    if (at == std::string::npos) die("no UUID in", response.body);
    return response.body.substr(at + key.size(), 36);
  }

  // "METHOD TARGET\nName: value\n...\n\nbody" as a request.
  Request raw(std::string text) const {
    replace_all(text, "$TOKEN", token);
    replace_all(text, "$CHECK", check_uuid.empty() ? "none" : check_uuid);
    replace_all(text, "$RESPONSE", response_uuid.empty() ? "none" : response_uuid);
    Request request;
    std::size_t line_end = text.find('\n');
    const std::string first = text.substr(0, line_end);
    const std::size_t space = first.find(' ');
    request.method = first.substr(0, space);
    request.target = space == std::string::npos ? "/" : first.substr(space + 1);
    std::size_t at = line_end == std::string::npos ? text.size() : line_end + 1;
    while (at < text.size()) {
      line_end = text.find('\n', at);
      if (line_end == std::string::npos) line_end = text.size();
      const std::string line = text.substr(at, line_end - at);
      at = line_end + 1;
      if (line.empty()) break;
      const std::size_t colon = line.find(':');
      if (colon == std::string::npos) continue;
      std::string value = line.substr(colon + 1);
      if (!value.empty() && value.front() == ' ') value.erase(0, 1);
      request.headers.emplace_back(line.substr(0, colon), std::move(value));
    }
    if (at < text.size()) request.body = text.substr(at);
    return request;
  }

  Request shaped(std::uint8_t shape, std::string rest) const {
    Request request;
    request.method = "POST";
    const std::string bearer = "Bearer " + token;
    switch (shape % 8) {
      case 0:
        request.target = "/api/v1/scan";
        request.headers = {{"Authorization", bearer}, {"Content-Type", "application/json"}};
        break;
      case 1:
        request.target = "/api/v1/scan";
        request.headers = {{"Authorization", bearer},
                           {"Content-Type", "multipart/form-data; boundary=XyZ"}};
        break;
      case 2:
        request.target = "/mcp/scamcheck";
        request.headers = {{"Authorization", bearer},
                           {"Content-Type", "application/json"},
                           {"Accept", "application/json, text/event-stream"},
                           {"MCP-Protocol-Version", "2025-06-18"}};
        break;
      case 3:
        request.target = "/api/checks";
        request.headers = {{"Content-Type", "application/json"}};
        break;
      case 4:
        request.target = "/api/questionnaire-responses/" + response_uuid + "/answers";
        request.headers = {{"Content-Type", "application/json"}};
        break;
      case 5:
        request.method = "GET";
        request.target = "/api/v1/reports?" + rest;
        request.headers = {{"Authorization", bearer}};
        rest.clear();
        break;
      case 6:
        request.target = "/api/webhooks/analysis-result/" + rest;
        request.headers = {{"Content-Type", "application/json"}};
        rest = "{\"check_uuid\":\"" + check_uuid + "\",\"risk_level\":\"safe\"}";
        break;
      default:
        return raw(std::move(rest));
    }
    request.body = std::move(rest);
    return request;
  }

  // Hands the request to the router and waits for its response.
  Response send(Request request) const {
    // The connection layer's part: path and query split, remote address.
    const std::size_t question = request.target.find('?');
    request.path = request.target.substr(0, question);
    if (question != std::string::npos) request.query = request.target.substr(question + 1);
    request.remote_address = "127.0.0.1";
    auto answered = std::make_shared<std::promise<Response>>();
    std::future<Response> response = answered->get_future();
    router->handle(std::move(request),
                   [answered](Response r) { answered->set_value(std::move(r)); });
    if (response.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
      die("no response within 20 s", "");
    }
    Response r = response.get();
    if (std::getenv("SCAMCHECK_FUZZ_VERBOSE") != nullptr) {
      std::fprintf(stderr, "%d %s\n", r.status, r.body.substr(0, 160).c_str());
    }
    if (r.status < 100 || r.status > 599 || r.status == 500) {
      die(("status " + std::to_string(r.status)).c_str(), r.body.substr(0, 500));
    }
    return r;
  }
};

}  // namespace
}  // namespace scamcheck::server

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static scamcheck::server::Server* const server = [] {
    static scamcheck::server::Server* made = new scamcheck::server::Server();
    // At exit, before the statics the server made (catalogs, the logger)
    // are destroyed: its threads end as in serve(), then it is freed.
    std::atexit([] {
      made->stop();
      delete made;
    });
    return made;
  }();
  if (size == 0) return 0;
  std::string rest(reinterpret_cast<const char*>(data + 1), size - 1);
  server->send(server->shaped(data[0], std::move(rest)));
  return 0;
}
