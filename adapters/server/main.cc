// scamcheckd: the reference server (CONTRACT §8).
//
//   scamcheckd serve [--listen HOST:PORT] [--database URL] [--feeds-dir DIR] ...
//   scamcheckd user create --email E --name N [--plan P] [--password-stdin]
//                                          (password on stdin, not echoed on a terminal)
//   scamcheckd user set-plan --email E --plan P
//   scamcheckd token create --email E --name N --abilities a,b [--expires-in DAYS]
//   scamcheckd token revoke --email E --name N
//   scamcheckd webhook rotate-secret                           (prints the new secret)
//
// Every serve flag also reads SCAMCHECK_<FLAG> (flags win). Exit status:
// 0 success (serve: after a graceful SIGTERM), 64 usage, 65 bad data (e.g.
// the user exists), 66 no such user or token, 69 the database or the
// listen address is unavailable, 70 internal error.
#include <sys/resource.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "api/check_api.h"
#include "api/file_scans.h"
#include "api/url_cache.h"
#include "app.h"
#include "auth/crypto.h"
#include "common/feeds.h"
#include "common/provider_flags.h"
#include "common/status_map.h"
#include "embedded_files.h"
#include "http/catalog.h"
#include "http/http_server.h"
#include "http/multipart.h"
#include "http/router.h"
#include "jobs/workflow.h"
#include "logging.h"
#include "mcp/mcp_http.h"
#include "operator_commands.h"
#include "scamcheck/scamcheck.h"
#include "server_limits.h"
#include "storage/store.h"
#include "web/web.h"

namespace scamcheck::server {
namespace {

// Exit codes: the adapters' one table (common/status_map.h, CONTRACT §8).
using adapters::kExitSoftware;
using adapters::kExitUsage;
constexpr int kExitOk = 0;

int exit_for(const Status& status) {
  return status.ok() ? kExitOk : adapters::exit_code_for(status.code());
}

// The feeds' log lines: a warning when the directory could not be listed,
// then what was loaded.
void log_feeds_load(const adapters::FeedsLoad& load) {
  if (!load.error.empty()) {
    LogLine(LogLevel::kWarn, "feeds_unreadable").field("dir", load.dir).field("error", load.error);
  }
  LogLine(LogLevel::kNotice, "feeds_loaded")
      .field("dir", load.dir)
      .field("files", load.files)
      .field("urls", load.urls)
      .field("domains", load.domains);
}

int fail(const Status& status) {
  std::fprintf(stderr, "scamcheckd: %s\n", status.message().c_str());
  return exit_for(status);
}

struct ServeFlags {
  std::string listen = "127.0.0.1:8080";
  std::string database = "sqlite:scamcheck.db";
  int database_pool = StoreOptions{}.pool_size;
  std::string base_url;
  unsigned workers = 0;
  double analysis_timeout = 60;
  std::string feeds_dir;
  std::vector<std::string> trusted_proxies;
  std::string allowed_origins;
  std::string mcp_name = "scamcheck";
  bool retain_content = false;
  adapters::ProviderFlags providers;
  std::string workflow_url;
  std::string data_dir;
  std::size_t max_connections = kDefaultMaxConnections;
  std::size_t max_connections_per_address = kDefaultMaxConnectionsPerAddress;
  unsigned header_timeout = static_cast<unsigned>(kDefaultHeaderTimeout.count());
  unsigned idle_timeout = static_cast<unsigned>(kDefaultIdleTimeout.count());
  unsigned read_timeout = static_cast<unsigned>(kDefaultReadTimeout.count());
  std::string log_level = "info";
  bool bootstrap = false;
  // Allowances (CONTRACT §2, §3): the plans file, and flags over it.
  std::string plans_file;
  std::int64_t scan_per_minute = -1;   // -1: each plan's scan_per_minute
  std::int64_t reads_per_minute = -1;  // -1: each plan's reads_per_minute
  std::int64_t check_per_minute = CheckApiOptions{}.per_minute_authenticated;
  std::int64_t check_per_minute_anonymous = CheckApiOptions{}.per_minute_anonymous;
  std::int64_t check_polling_per_minute = CheckApiOptions{}.per_minute_polling;
  std::int64_t anonymous_checks_per_day = CheckApiOptions{}.anonymous_checks_per_day;
};

// The plans document: --plans, else the embedded data/plans.json.
Result<std::string> plans_json(const ServeFlags& flags) {
  if (flags.plans_file.empty()) {
    for (const EmbeddedFile& file : embedded_files()) {
      if (file.path == "data/plans.json") return std::string(file.content);
    }
    return Status::internal("data/plans.json is not embedded");
  }
  std::ifstream in(flags.plans_file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) return Status::invalid_argument("--plans: cannot read " + flags.plans_file);
  return text.str();
}

// "HOST:PORT" or "[V6]:PORT".
bool parse_listen(const std::string& text, std::string* host, std::uint16_t* port) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) return false;
  std::string h = text.substr(0, colon);
  if (h.size() > 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  const std::string p = text.substr(colon + 1);
  if (p.empty() || p.size() > 5 || p.find_first_not_of("0123456789") != std::string::npos) {
    return false;
  }
  const unsigned long value = std::stoul(p);
  if (value > 65535) return false;
  *host = h;
  *port = static_cast<std::uint16_t>(value);
  return true;
}

// Lets the server hold as many sockets as the hard limit allows.
void raise_open_file_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
}

// Logs which providers the serve flags configured (never their keys).
void log_providers(const adapters::ProviderFlags& flags, const Options& options) {
  LogLine(LogLevel::kNotice, "providers")
      .field("ai_model", options.ai_provider ? flags.ai_model : std::string("none"))
      .field("safe_browsing", flags.safe_browsing_key.empty() ? "off" : "on")
      .field("urlhaus", flags.urlhaus_url.empty() ? "off" : "on");
}

Result<std::unique_ptr<Store>> open_migrated(const std::string& database,
                                             const StoreOptions& options = {}) {
  Result<std::unique_ptr<Store>> store = open_store(database, options);
  if (!store.ok()) return store.status();
  if (Status s = (*store)->migrate(); !s.ok()) return s;
  return std::move(*store);
}

// The check API (CONTRACT §3) with its workers, started once the port is
// known (the workflow's callback URL defaults to it).
Result<std::unique_ptr<CheckApi>> start_check_api(const ServeFlags& flags, App& app,
                                                  std::uint16_t port, const std::string& host,
                                                  std::string_view plans) {
  if (!(flags.analysis_timeout > 0) || flags.analysis_timeout > 86400) {
    return Status::invalid_argument("--analysis-timeout must be a number of seconds in (0, 86400]");
  }
  Result<TrustedProxies> proxies = TrustedProxies::parse(flags.trusted_proxies);
  if (!proxies.ok()) return proxies.status();
  Result<std::shared_ptr<const CheckCatalogues>> catalogues = CheckCatalogues::load(plans);
  if (!catalogues.ok()) return catalogues.status();
  CheckApiOptions options;
  options.analysis_timeout =
      std::chrono::milliseconds(static_cast<std::int64_t>(flags.analysis_timeout * 1000));
  options.base_url = flags.base_url;
  while (!options.base_url.empty() && options.base_url.back() == '/') options.base_url.pop_back();
  if (options.base_url.empty()) {
    const std::string h = host == "0.0.0.0" ? "127.0.0.1" : host == "::" ? "::1" : host;
    options.base_url = "http://" + (h.find(':') != std::string::npos ? "[" + h + "]" : h) + ":" +
                       std::to_string(port);
  }
  options.workflow_url = flags.workflow_url;
  options.workers =
      flags.workers ? flags.workers : std::max(1u, std::thread::hardware_concurrency());
  options.retain_content = flags.retain_content;
  options.per_minute_authenticated = flags.check_per_minute;
  options.per_minute_anonymous = flags.check_per_minute_anonymous;
  options.per_minute_polling = flags.check_polling_per_minute;
  options.anonymous_checks_per_day = flags.anonymous_checks_per_day;
  auto api = std::make_unique<CheckApi>(app, options, std::move(*proxies), std::move(*catalogues));
  if (Status s = api->start(); !s.ok()) return s;
  app.set_check_api(api.get());
  return api;
}

int serve(const ServeFlags& flags) {
  if (!init_logging(flags.log_level)) {
    std::fprintf(stderr, "scamcheckd: unknown --log-level %s\n", flags.log_level.c_str());
    return kExitUsage;
  }
  HttpServerOptions http;
  if (!parse_listen(flags.listen, &http.host, &http.port)) {
    std::fprintf(stderr, "scamcheckd: --listen must be HOST:PORT, not %s\n", flags.listen.c_str());
    return kExitUsage;
  }
  http.threads = flags.workers;
  http.max_connections = flags.max_connections;
  http.idle_timeout = std::chrono::seconds(flags.idle_timeout);
  http.read_timeout = std::chrono::seconds(flags.read_timeout);
  http.max_connections_per_address = flags.max_connections_per_address;
  http.header_timeout = std::chrono::seconds(flags.header_timeout);
  raise_open_file_limit();

  StoreOptions store_options;
  store_options.pool_size = flags.database_pool;
  auto store = open_migrated(flags.database, store_options);
  if (!store.ok()) return fail(store.status());
  if (flags.bootstrap) {
    Result<std::optional<std::string>> token = bootstrap_first_user(**store);
    if (!token.ok()) return fail(token.status());
    if (token->has_value()) {
      std::printf(
          "First user admin@localhost (plan pro) created with an API token of every ability.\n"
          "It is shown only this once:\n\n  %s\n\n",
          (*token)->c_str());
      std::fflush(stdout);
    }
  }
  // One OCR engine per worker of the file scan pool (below).
  // Compiled on one thread: starting ~0.1 s faster is worth less to a
  // server than the ~2 MB more resident memory it leaves behind.
  Options options{.data_dir = flags.data_dir, .compile_threads = 1, .ocr_engines = flags.workers};
  if (Status s = adapters::configure_providers(flags.providers, options); !s.ok()) {
    std::fprintf(stderr, "scamcheckd: %s\n", s.message().c_str());
    return kExitUsage;
  }
  log_providers(flags.providers, options);
  // The services' answers outlive the process in the store; the feed files
  // are asked on every report.
  if (options.url_reputation)
    options.reputation_store = std::make_shared<StoredReputations>(**store);
  std::shared_ptr<adapters::Feeds> feeds;
  if (!flags.feeds_dir.empty()) {
    feeds = std::make_shared<adapters::Feeds>(flags.feeds_dir, log_feeds_load, kFeedPollInterval);
    feeds->start();
    options.local_reputation = feeds;
  }
  auto analyzer = Analyzer::create(options);
  if (!analyzer.ok()) {
    std::fprintf(stderr, "scamcheckd: cannot load the data pack: %s\n",
                 analyzer.status().to_string().c_str());
    return kExitSoftware;
  }
  auto catalog = Catalog::load();
  if (!catalog.ok()) return fail(catalog.status());

  Result<std::string> plans = plans_json(flags);
  if (!plans.ok()) return fail(plans.status());
  Result<ApiMinuteLimits> api_limits = ApiMinuteLimits::from_plans_json(*plans);
  if (!api_limits.ok()) return fail(api_limits.status());
  if (flags.scan_per_minute >= 0) api_limits->override_scans(flags.scan_per_minute);
  if (flags.reads_per_minute >= 0) api_limits->override_reads(flags.reads_per_minute);
  App app(**analyzer, **store, *catalog,
          AppOptions{.retain_content = flags.retain_content, .api_limits = *api_limits});
  // Image and document scans run on their own bounded pool (file_scans.h).
  init_form_parser();
  if (!init_web()) return fail(Status::internal("the web interface's templates do not parse"));
  const unsigned scan_workers =
      flags.workers ? flags.workers : std::max(1u, std::thread::hardware_concurrency());
  FileScanPool file_scans(scan_workers, scan_workers * kFileScanQueuePerWorker);
  app.set_file_scans(&file_scans);
  std::optional<FileScanPool> provider_scans;
  if (options.ai_provider || options.url_reputation) {
    const unsigned threads = scan_workers * kProviderScanThreadsPerWorker;
    provider_scans.emplace(threads, threads * kFileScanQueuePerWorker);
    app.set_provider_scans(&*provider_scans);
  }
  auto mcp =
      McpEndpoint::create(**analyzer, McpEndpointOptions{
                                          .name = flags.mcp_name,
                                          .base_url = flags.base_url,
                                          .allowed_origins = split_list(flags.allowed_origins),
                                          .threads = flags.workers,
                                      });
  if (!mcp.ok()) {
    std::fprintf(stderr, "scamcheckd: %s\n", mcp.status().message().c_str());
    return exit_for(mcp.status()) == adapters::kExitDataError ? kExitUsage : exit_for(mcp.status());
  }
  app.set_mcp(mcp->get());
  Router router(app);
  HttpServer server(http, router);
  if (Status s = server.listen(); !s.ok()) return fail(s);
  auto check_api = start_check_api(flags, app, server.port(), http.host, *plans);
  if (!check_api.ok()) return fail(check_api.status());
  LogLine(LogLevel::kNotice, "listening")
      .field("host", http.host)
      .field("port", static_cast<int>(server.port()))
      .field("threads",
             static_cast<int>(flags.workers ? flags.workers : std::thread::hardware_concurrency()))
      .field("database", flags.database.substr(0, flags.database.find("://") == std::string::npos
                                                      ? flags.database.size()
                                                      : flags.database.find("://") + 3))
      .field("version", SCAMCHECK_VERSION_STRING);
  server.run();
  (*check_api)->stop();
  (*mcp)->join();
  file_scans.join();
  if (provider_scans) provider_scans->join();
  (*store)->flush();
  LogLine(LogLevel::kNotice, "stopped");
  return kExitOk;
}

int run(int argc, char** argv) {
  CLI::App app("scamcheckd: the ScamCheck server (scan API, reports, health, OpenAPI).",
               "scamcheckd");
  app.set_version_flag("--version", std::string("scamcheckd ") + SCAMCHECK_VERSION_STRING);
  app.require_subcommand(1);

  ServeFlags flags;
  CLI::App* serve_cmd = app.add_subcommand("serve", "Run the HTTP server");
  const auto opt = [&](const std::string& name, auto& target, const std::string& env,
                       const std::string& help) {
    return serve_cmd->add_option(name, target, help)->envname(env);
  };
  opt("--listen", flags.listen, "SCAMCHECK_LISTEN", "Address to listen on, HOST:PORT (port 0: any)")
      ->capture_default_str();
  opt("--database", flags.database, "SCAMCHECK_DATABASE",
      "sqlite:PATH (created and migrated on first start) or postgresql://USER@HOST:PORT/DB "
      "(a libpq URI; migrated on start; several serve processes may share it)")
      ->capture_default_str();
  opt("--database-pool", flags.database_pool, "SCAMCHECK_DATABASE_POOL",
      "PostgreSQL: connections for requests (besides two writers and one listener)")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  opt("--base-url", flags.base_url, "SCAMCHECK_BASE_URL", "Public base URL of this server");
  opt("--workers", flags.workers, "SCAMCHECK_WORKERS",
      "Threads serving requests and running analyses (default: one per core)")
      ->check(CLI::Range(1u, 1024u));
  opt("--analysis-timeout", flags.analysis_timeout, "SCAMCHECK_ANALYSIS_TIMEOUT",
      "Seconds a check may stay processing (the workflow's time to answer; then the check is "
      "analysed locally)")
      ->capture_default_str();
  opt("--feeds-dir", flags.feeds_dir, "SCAMCHECK_FEEDS_DIR",
      "Directory of URL reputation feeds (OpenPhish/URLhaus text lists), reloaded on change")
      ->check(CLI::ExistingDirectory);
  opt("--trusted-proxy", flags.trusted_proxies, "SCAMCHECK_TRUSTED_PROXY",
      "CIDR of a trusted reverse proxy whose X-Forwarded-For names the client (repeatable)");
  opt("--allowed-origins", flags.allowed_origins, "SCAMCHECK_ALLOWED_ORIGINS",
      "Comma-separated origins (scheme://host[:port]) besides the --base-url origin whose web "
      "pages may call the MCP endpoint; other Origins are refused with 403");
  opt("--mcp-name", flags.mcp_name, "SCAMCHECK_MCP_NAME",
      "MCP server name: the endpoint is /mcp/NAME and serverInfo.name is NAME")
      ->capture_default_str();
  serve_cmd
      ->add_flag("--retain-content", flags.retain_content,
                 "Store the submitted content with each report (default: only the report)")
      ->envname("SCAMCHECK_RETAIN_CONTENT");
  adapters::add_provider_flags(*serve_cmd, flags.providers);
  opt("--workflow-url", flags.workflow_url, "SCAMCHECK_WORKFLOW_URL",
      "Automation workflow URL: new checks are POSTed there and answered through "
      "/api/webhooks/analysis-result/{secret} (default: analyse locally)");
  opt("--data-dir", flags.data_dir, "SCAMCHECK_DATA_DIR",
      "Load the library's data pack from DIR instead of the built-in copy")
      ->check(CLI::ExistingDirectory);
  opt("--max-connections", flags.max_connections, "SCAMCHECK_MAX_CONNECTIONS",
      "Open connections at most; at the limit an idle keep-alive connection is closed")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000000}));
  opt("--max-connections-per-address", flags.max_connections_per_address,
      "SCAMCHECK_MAX_CONNECTIONS_PER_ADDRESS",
      "Open connections at most from one client address (0: no cap; behind a reverse proxy "
      "raise it or use 0); beyond it a new connection is closed at once")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{0}, std::size_t{1000000}));
  opt("--header-timeout", flags.header_timeout, "SCAMCHECK_HEADER_TIMEOUT",
      "Seconds a client may take to send a request's line and header fields (408 after it)")
      ->capture_default_str()
      ->check(CLI::Range(1u, 3600u));
  opt("--idle-timeout", flags.idle_timeout, "SCAMCHECK_IDLE_TIMEOUT",
      "Seconds a keep-alive connection may wait for its next request")
      ->capture_default_str()
      ->check(CLI::Range(1u, 3600u));
  opt("--read-timeout", flags.read_timeout, "SCAMCHECK_READ_TIMEOUT",
      "Seconds a client may take to send a request's body once its header fields arrived (408 "
      "after it)")
      ->capture_default_str()
      ->check(CLI::Range(1u, 3600u));
  opt("--plans", flags.plans_file, "SCAMCHECK_PLANS",
      "Plans file (the format of data/plans.json, schema data/schema/plans.schema.json) instead "
      "of the built-in one: daily allowances (checks_per_day) and per-minute scan API "
      "allowances (scan_per_minute, reads_per_minute) per plan")
      ->check(CLI::ExistingFile);
  const auto per_minute = CLI::Range(std::int64_t{1}, std::int64_t{1000000000});
  opt("--scan-per-minute", flags.scan_per_minute, "SCAMCHECK_SCAN_PER_MINUTE",
      "Scans (POST /api/v1/scan) per minute per user for every plan, over the plans' "
      "scan_per_minute (0: no limit)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1000000000}));
  opt("--reads-per-minute", flags.reads_per_minute, "SCAMCHECK_READS_PER_MINUTE",
      "Other /api/v1 requests (list, get, delete reports) per minute per user for every plan, "
      "over the plans' reads_per_minute (0: no limit)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1000000000}));
  opt("--check-per-minute", flags.check_per_minute, "SCAMCHECK_CHECK_PER_MINUTE",
      "Check API requests per minute per user, with a token")
      ->capture_default_str()
      ->check(per_minute);
  opt("--check-per-minute-anonymous", flags.check_per_minute_anonymous,
      "SCAMCHECK_CHECK_PER_MINUTE_ANONYMOUS",
      "Check API requests per minute per client address, without a token")
      ->capture_default_str()
      ->check(per_minute);
  opt("--check-polling-per-minute", flags.check_polling_per_minute,
      "SCAMCHECK_CHECK_POLLING_PER_MINUTE",
      "Check status and detail reads per minute per client (user or address)")
      ->capture_default_str()
      ->check(per_minute);
  opt("--anonymous-checks-per-day", flags.anonymous_checks_per_day,
      "SCAMCHECK_ANONYMOUS_CHECKS_PER_DAY", "Checks per day per client address without a token")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1000000000}));
  opt("--log-level", flags.log_level, "SCAMCHECK_LOG_LEVEL",
      "debug, info (one line per request), notice (start and stop only), warn or error")
      ->capture_default_str();
  serve_cmd
      ->add_flag("--bootstrap", flags.bootstrap,
                 "When the database has no user: create admin@localhost (plan pro) and print "
                 "its first API token (abilities *) once")
      ->envname("SCAMCHECK_BOOTSTRAP");

  std::string database = "sqlite:scamcheck.db";
  const auto database_option = [&](CLI::App* cmd) {
    cmd->add_option("--database", database, "sqlite:PATH or postgresql://...")
        ->envname("SCAMCHECK_DATABASE")
        ->capture_default_str();
  };

  std::string email, name, plan = "free", abilities;
  std::optional<double> expires_in;
  CLI::App* user_cmd = app.add_subcommand("user", "Manage users");
  user_cmd->require_subcommand(1);
  CLI::App* user_create = user_cmd->add_subcommand(
      "create",
      "Create a user (verified); reads the password (8+ characters) from stdin, without echo "
      "on a terminal");
  user_create->add_option("--email", email, "Email address")->required();
  user_create->add_option("--name", name, "Display name")->required();
  user_create->add_option("--plan", plan, "free (10 scans/day), pro or business (unlimited)")
      ->capture_default_str();
  bool password_stdin = false;
  user_create->add_flag("--password-stdin", password_stdin,
                        "Read the password from stdin without a prompt (scripts); on a terminal "
                        "it is never echoed");
  database_option(user_create);
  CLI::App* user_set_plan = user_cmd->add_subcommand(
      "set-plan", "Move a user to another plan (every running server applies it at once)");
  user_set_plan->add_option("--email", email, "The user's email")->required();
  user_set_plan->add_option("--plan", plan, "free, pro or business")->required();
  database_option(user_set_plan);

  CLI::App* token_cmd = app.add_subcommand("token", "Manage API tokens");
  token_cmd->require_subcommand(1);
  CLI::App* token_create =
      token_cmd->add_subcommand("create", "Create an API token; prints only its value");
  token_create->add_option("--email", email, "The user's email")->required();
  token_create->add_option("--name", name, "Token name")->required();
  token_create
      ->add_option("--abilities", abilities,
                   "Comma-separated: scan:create, reports:read, reports:delete, *")
      ->required();
  token_create->add_option("--expires-in", expires_in, "Days until it expires (decimal, > 0)")
      ->type_name("DAYS");
  database_option(token_create);
  CLI::App* token_revoke = token_cmd->add_subcommand("revoke", "Revoke a user's token by name");
  token_revoke->add_option("--email", email, "The user's email")->required();
  token_revoke->add_option("--name", name, "Token name")->required();
  database_option(token_revoke);

  CLI::App* webhook_cmd = app.add_subcommand("webhook", "Manage the inbound workflow webhook");
  webhook_cmd->require_subcommand(1);
  CLI::App* rotate_secret = webhook_cmd->add_subcommand(
      "rotate-secret",
      "Make a new webhook secret current and print it; the previous one stays "
      "valid until the next rotation");
  database_option(rotate_secret);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : kExitUsage;
  }
  if (Status s = init_crypto(); !s.ok()) return fail(s);

  if (serve_cmd->parsed()) return serve(flags);
  (void)init_logging("warn");
  auto store = open_migrated(database);
  if (!store.ok()) return fail(store.status());
  if (user_create->parsed()) {
    const std::string password =
        read_password(STDIN_FILENO, password_stdin ? nullptr : "Password: ");
    Result<User> user = create_user(**store, email, name, plan, password);
    if (!user.ok()) return fail(user.status());
    std::printf("created user %s (id %lld, plan %s)\n", user->email.c_str(),
                static_cast<long long>(user->id), user->plan.name.c_str());
    return kExitOk;
  }
  if (user_set_plan->parsed()) {
    if (Status s = set_user_plan(**store, email, plan); !s.ok()) return fail(s);
    std::printf("user %s is on plan %s\n", email.c_str(), plan.c_str());
    return kExitOk;
  }
  if (token_create->parsed()) {
    Result<std::string> token =
        create_token(**store, email, name, split_list(abilities), expires_in);
    if (!token.ok()) return fail(token.status());
    std::printf("%s\n", token->c_str());
    return kExitOk;
  }
  if (rotate_secret->parsed()) {
    const std::string secret = new_webhook_secret();
    if (Status s = (*store)->checks().rotate_webhook_secret(secret); !s.ok()) return fail(s);
    std::printf("%s\n", secret.c_str());
    return kExitOk;
  }
  if (token_revoke->parsed()) {
    if (Status s = revoke_token(**store, email, name); !s.ok()) return fail(s);
    std::printf("revoked token %s of %s\n", name.c_str(), email.c_str());
    return kExitOk;
  }
  return kExitUsage;
}

}  // namespace
}  // namespace scamcheck::server

int main(int argc, char** argv) {
  // Tesseract's LSTM runs OpenMP loops with several threads each, and
  // OpenMP's idle threads spin: on busy cores (the I/O threads, the other
  // OCR engines) an image scan took seconds, once 100 s in CI. One thread
  // per OpenMP region is faster alone too (benchmarks/server/ocr_threads.py).
  // libgomp reads OMP_THREAD_LIMIT once, when it is loaded (before main),
  // so the variable is set and the program started again; a value the
  // environment sets is kept. The binary's own path, not /proc/self/exe,
  // so the process keeps its name (ps, pkill). If the exec fails the
  // server runs on with OpenMP's default.
  if (std::getenv("OMP_THREAD_LIMIT") == nullptr && argc > 0) {
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
      self[n] = '\0';
      setenv("OMP_THREAD_LIMIT", "1", 1);
      execv(self, argv);
      unsetenv("OMP_THREAD_LIMIT");
    }
  }
  try {
    return scamcheck::server::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "scamcheckd: internal error: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "scamcheckd: internal error\n");
  }
  return 70;
}
