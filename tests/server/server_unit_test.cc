// Unit tests of scamcheckd's pieces that need no network: ids, feeds,
// catalogs, route matching helpers, the OpenAPI generator, the SQLite store
// and the daily allowance.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <libpq-fe.h>
#include <simdjson.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

#include "../support/skip.h"
#include "auth/crypto.h"
#include "auth/quota.h"
#include "auth/rate_limits.h"
#include "common/feeds.h"
#include "common/status_map.h"
#include "http/catalog.h"
#include "http/framing.h"
#include "http/openapi.h"
#include "http/route_table.h"
#include "http/router.h"
#include "ids.h"
#include "logging.h"
#include "operator_commands.h"
#include "storage/report_codec.h"
#include "storage/store.h"

namespace scamcheck::server {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "scamcheckd-unit-XXXXXX").string();
    REQUIRE(mkdtemp(tmpl.data()) != nullptr);
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

}  // namespace

TEST_CASE("ULIDs and request ids") {
  const std::string a = new_ulid();
  const std::string b = new_ulid();
  CHECK(a.size() == 26);
  CHECK(a != b);
  CHECK(a.find_first_not_of("0123456789ABCDEFGHJKMNPQRSTVWXYZ") == std::string::npos);
  CHECK(is_echoable_request_id("abc 123"));
  CHECK_FALSE(is_echoable_request_id(""));
  CHECK_FALSE(is_echoable_request_id(std::string(129, 'a')));
  CHECK(is_echoable_request_id(std::string(128, 'a')));
  CHECK_FALSE(is_echoable_request_id("tab\there"));
  CHECK_FALSE(is_echoable_request_id("caf\xc3\xa9"));
}

TEST_CASE("UUID v4: 8-4-4-4-12 lower-case hex, version 4, RFC variant") {
  const std::string a = new_uuid_v4();
  REQUIRE(a.size() == 36);
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      CHECK(a[i] == '-');
    } else {
      CHECK(std::string_view("0123456789abcdef").find(a[i]) != std::string_view::npos);
    }
  }
  CHECK(a[14] == '4');
  CHECK(std::string_view("89ab").find(a[19]) != std::string_view::npos);
  CHECK(new_uuid_v4() != a);
}

TEST_CASE("times and base64url") {
  CHECK(iso8601(0) == "1970-01-01T00:00:00Z");
  CHECK(utc_day(86400 * 365) == "1971-01-01");
  CHECK(seconds_until_utc_midnight(86400 - 1) == 1);
  CHECK(seconds_until_utc_midnight(86400) == 86400);
  for (std::string s : {"", "a", "ab", "abc", "before:12345"}) {
    CHECK(base64url_decode(base64url_encode(s)) == s);
  }
  CHECK_FALSE(base64url_decode("ab!c"));
  CHECK(base64url_encode("\xfb\xff") == "-_8");  // URL-safe alphabet, no padding
  CHECK(base64url_decode("-_8") == "\xfb\xff");
}

TEST_CASE("request paths are logged without bearer credentials") {
  const std::string uuid = "0f8fad5b-d9cb-469f-a165-70867728950e";
  CHECK(redacted_path("/api/checks/" + uuid) == "/api/checks/{uuid}");
  CHECK(redacted_path("/api/checks/" + uuid + "/status") == "/api/checks/{uuid}/status");
  CHECK(redacted_path("/api/checks/not-a-uuid/status") == "/api/checks/{uuid}/status");
  CHECK(redacted_path("/api/questionnaire-responses/" + uuid + "/answers") ==
        "/api/questionnaire-responses/{uuid}/answers");
  CHECK(redacted_path("/api/webhooks/analysis-result/s3cret/x") ==
        "/api/webhooks/analysis-result/{secret}");
  CHECK(redacted_path("/API/Checks/" + uuid + "/") == "/API/Checks/{uuid}/");
  CHECK(redacted_path("/api/checks") == "/api/checks");
  CHECK(redacted_path("/api/v1/reports/01J0000000000000000000000A") ==
        "/api/v1/reports/01J0000000000000000000000A");
  CHECK(redacted_path("/") == "/");
  CHECK(redacted_path("") == "");
  CHECK(credential_ref(uuid).size() == 12);
  CHECK(credential_ref(uuid) == credential_ref(uuid));
  CHECK(credential_ref(uuid).find(uuid.substr(0, 4)) == std::string::npos);
}

TEST_CASE("library statuses map to one HTTP status each") {
  using adapters::http_status_for;
  CHECK(http_status_for(StatusCode::kInvalidArgument) == 422);
  CHECK(http_status_for(StatusCode::kOutOfRange) == 413);
  CHECK(http_status_for(StatusCode::kDeadlineExceeded) == 504);
  CHECK(http_status_for(StatusCode::kUnavailable) == 503);
  CHECK(http_status_for(StatusCode::kUnimplemented) == 503);  // no 501 in the contract
  CHECK(http_status_for(StatusCode::kInternal) == 500);
}

TEST_CASE("tokens and passwords") {
  REQUIRE(init_crypto().ok());
  const std::string token = new_token_value();
  CHECK(token.size() == 44);
  CHECK(is_token_shaped(token));
  CHECK_FALSE(is_token_shaped("sck_short"));
  CHECK_FALSE(is_token_shaped("xyz_" + token.substr(4)));
  CHECK(digest_equal(sha256(token), sha256(token)));
  CHECK_FALSE(digest_equal(sha256(token), sha256(token + "x")));
  auto hash = hash_password("correct horse");
  REQUIRE(hash.ok());
  CHECK(hash->rfind("$argon2id$", 0) == 0);
  CHECK(verify_password("correct horse", *hash));
  CHECK_FALSE(verify_password("wrong horse", *hash));
}

TEST_CASE("feed lookups: URL entries exact, domain entries cover subdomains") {
  adapters::FeedSet feeds;
  feeds.add_text(
      "# URLhaus\n"
      "http://Evil.Example.net/Path/x.exe\r\n"
      "\n"
      "https://phish.example.org/\n"
      "bad.example.com\n"
      "evil-host.example.info/login\n");
  CHECK(feeds.url_count() == 3);
  CHECK(feeds.domain_count() == 1);
  CHECK(feeds.malicious("http://evil.example.net/Path/x.exe"));
  CHECK_FALSE(feeds.malicious("http://evil.example.net/path/x.exe"));
  CHECK(feeds.malicious("https://phish.example.org"));
  CHECK(feeds.malicious("https://bad.example.com/a"));
  CHECK(feeds.malicious("https://www.bad.example.com/a"));
  CHECK(feeds.malicious("https://user@WWW.Bad.Example.com:8443/a"));
  CHECK(feeds.malicious("bad.example.com"));
  CHECK_FALSE(feeds.malicious("https://example.com/a"));
  CHECK_FALSE(feeds.malicious("https://good.example.com/"));
  CHECK_FALSE(feeds.malicious("https://bad.example.com.evil.test/"));
  CHECK(feeds.malicious("http://evil-host.example.info/login"));
}

TEST_CASE("catalogs: locale fallback and placeholders") {
  auto catalog = Catalog::load();
  REQUIRE(catalog.ok());
  CHECK((*catalog)->resolve("de-AT") == "de");
  CHECK((*catalog)->resolve("DE_de") == "de");
  CHECK((*catalog)->resolve("fr") == "en");
  CHECK((*catalog)->resolve("") == "en");
  CHECK((*catalog)->text("de", "problem.not-found.title") == "Nicht gefunden");
  CHECK((*catalog)->text("en", "detail.content_too_large", {{"limit", "65536"}}) ==
        "The content is larger than 65536 bytes.");
  CHECK(preferred_language("fr;q=0.2, de-AT;q=0.9, en;q=0.5") == "de-AT");
  CHECK(preferred_language("*") == "");
  CHECK(preferred_language("") == "");
}

TEST_CASE("request helpers") {
  CHECK(media_type("Application/JSON; charset=utf-8") == "application/json");
  CHECK(media_type(" multipart/form-data;boundary=x") == "multipart/form-data");
  CHECK(percent_decode("a%20b+c") == "a b c");
  CHECK_FALSE(percent_decode("%zz"));
  CHECK_FALSE(percent_decode("%2"));
  CHECK(is_report_id("rpt_01ARZ3NDEKTSV4RRFFQ69G5FAV"));
  CHECK_FALSE(is_report_id("rpt_01ARZ3NDEKTSV4RRFFQ69G5FAU1"));
  CHECK_FALSE(is_report_id("rpt_01ARZ3NDEKTSV4RRFFQ69G5FAI"));
  CHECK(split_list(" a, b ,,c ") == std::vector<std::string>{"a", "b", "c"});
}

TEST_CASE("request targets: origin-form and absolute-form") {
  std::string path, query;
  CHECK(split_request_target("/api/v1/reports?limit=5", &path, &query));
  CHECK((path == "/api/v1/reports" && query == "limit=5"));
  CHECK(split_request_target("http://other.example/health", &path, &query));
  CHECK((path == "/health" && query.empty()));
  CHECK(split_request_target("HTTPS://[::1]:8443?x=1", &path, &query));
  CHECK((path == "/" && query == "x=1"));
  for (const char* bad : {"*", "other.example:443", "ftp://a/b", "http://user@a/b", "http:///b",
                          "http://a/b#c", "b", ""}) {
    CAPTURE(bad);
    CHECK_FALSE(split_request_target(bad, &path, &query));
  }
}

TEST_CASE("framing: only one plain chunked, never with Content-Length") {
  const auto problem = [](HeaderList headers, unsigned minor = 1) {
    headers.emplace_back("Host", "x");
    return std::string(framing_problem(headers, minor));
  };
  CHECK(problem({}).empty());
  CHECK(problem({{"Transfer-Encoding", " Chunked "}}).empty());
  CHECK(problem({{"Content-Length", "12"}}).empty());
  for (const char* te : {"xchunked", "chunked, identity", "gzip, chunked", "identity", ""}) {
    CAPTURE(te);
    CHECK_FALSE(problem({{"Transfer-Encoding", te}}).empty());
  }
  CHECK_FALSE(
      problem({{"Transfer-Encoding", "chunked"}, {"Transfer-Encoding", "chunked"}}).empty());
  CHECK_FALSE(problem({{"Transfer-Encoding", "chunked"}}, 0).empty());
  CHECK_FALSE(problem({{"Transfer-Encoding", "chunked"}, {"Content-Length", "0"}}).empty());
  for (const char* cl : {"5, 5", "+5", "-1", "0x5", ""}) {
    CAPTURE(cl);
    CHECK_FALSE(problem({{"Content-Length", cl}}).empty());
  }
  CHECK_FALSE(problem({{"Content-Length", "1"}, {"Content-Length", "1"}}).empty());
  CHECK_FALSE(problem({{"Authorization", "Bearer a"}, {"authorization", "Bearer b"}}).empty());
  CHECK_FALSE(problem({{"Host", "y"}}).empty());
  CHECK_FALSE(std::string(framing_problem({}, 1)).empty());  // HTTP/1.1 without Host
  CHECK(std::string(framing_problem({}, 0)).empty());
}

TEST_CASE("scan API per-minute allowances from the plans document") {
  auto limits = ApiMinuteLimits::from_plans_json(
      R"({"plans":[{"name":"free","scan_per_minute":3,"reads_per_minute":null},{"name":"pro"}]})");
  REQUIRE(limits.ok());
  CHECK(limits->for_plan("free").scans == 3);
  CHECK(limits->for_plan("free").reads == 0);
  CHECK(limits->for_plan("pro").scans == 0);
  CHECK(limits->for_plan("unknown").scans == 0);
  limits->override_reads(7);
  CHECK(limits->for_plan("free").reads == 7);
  CHECK_FALSE(
      ApiMinuteLimits::from_plans_json(R"({"plans":[{"name":"a","scan_per_minute":0}]})").ok());
  CHECK_FALSE(
      ApiMinuteLimits::from_plans_json(R"({"plans":[{"name":"a","scan_per_minute":"9"}]})").ok());
  CHECK_FALSE(ApiMinuteLimits::from_plans_json("[]").ok());
}

TEST_CASE("the OpenAPI document covers every route of the table") {
  const std::string json = generate_openapi(route_table());
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(json);
  CHECK(std::string_view(doc["openapi"]) == "3.1.0");
  for (const RouteSpec& route : route_table()) {
    std::string method = route.method;
    for (char& c : method) c = static_cast<char>(c - 'A' + 'a');
    simdjson::dom::element op = doc["paths"][route.path][method];
    CHECK(std::string_view(op["operationId"]) == route.operation_id);
    for (const ResponseSpec& r : route.responses) {
      CHECK(op["responses"][std::to_string(r.status)].error() == simdjson::SUCCESS);
    }
    for (const ResponseSpec& r : implied_responses(route)) {
      CHECK(op["responses"][std::to_string(r.status)].error() == simdjson::SUCCESS);
    }
  }
}

TEST_CASE("SQLite store: users, tokens, reports, paging, quota") {
  REQUIRE(init_crypto().ok());
  TempDir dir;
  auto opened = open_store("sqlite:" + (dir.path() / "t.db").string());
  REQUIRE(opened.ok());
  Store& store = **opened;
  REQUIRE(store.migrate().ok());
  REQUIRE(store.migrate().ok());  // idempotent
  CHECK(store.ping().ok());

  auto user = create_user(store, "a@example.com", "A", "free", "password1");
  REQUIRE(user.ok());
  CHECK(user->plan.checks_per_day == 10);
  CHECK_FALSE(create_user(store, "A@example.com", "A", "free", "password1").ok());
  CHECK_FALSE(create_user(store, "b@example.com", "B", "gold", "password1").ok());
  CHECK_FALSE(create_user(store, "b@example.com", "B", "free", "short").ok());

  auto token = create_token(store, "a@example.com", "t", {"reports:read"}, std::nullopt);
  REQUIRE(token.ok());
  CHECK_FALSE(create_token(store, "a@example.com", "t", {"*"}, std::nullopt).ok());
  auto found = store.find_token(sha256(*token));
  REQUIRE(found.ok());
  REQUIRE(found->has_value());
  CHECK((*found)->abilities == std::vector<std::string>{"reports:read"});
  CHECK((*found)->user.email == "a@example.com");
  CHECK(revoke_token(store, "a@example.com", "t").ok());
  CHECK(revoke_token(store, "a@example.com", "t").code() == StatusCode::kNotFound);

  for (int i = 0; i < 5; ++i) {
    StoredReport r;
    r.public_id = "rpt_" + new_ulid();
    r.user_id = user->id;
    r.kind = "text";
    r.verdict = i % 2 ? "danger" : "safe";
    r.created_at = iso8601_now();
    r.report_json = "{\"n\":" + std::to_string(i) + "}";
    r.usage_day = "2030-01-01";
    std::promise<Status> done;
    store.insert_report(std::move(r), [&done](Status s) { done.set_value(std::move(s)); });
    REQUIRE(done.get_future().get().ok());
  }
  CHECK(*store.usage_count(user->id, "2030-01-01") == 5);
  ReportQuery q;
  q.user_id = user->id;
  q.limit = 2;
  auto page = store.list_reports(q);
  REQUIRE(page.ok());
  CHECK(page->reports_json == std::vector<std::string>{"{\"n\":4}", "{\"n\":3}"});
  REQUIRE(page->next_after);
  q.before = page->next_after;
  q.limit = 10;
  page = store.list_reports(q);
  CHECK(page->reports_json.size() == 3);
  CHECK_FALSE(page->next_after);
  q.before.reset();
  q.verdict = "danger";
  page = store.list_reports(q);
  CHECK(page->reports_json == std::vector<std::string>{"{\"n\":3}", "{\"n\":1}"});

  DailyQuota quota(store);
  User u = *user;
  const std::int64_t now = unix_now();
  for (int i = 0; i < 10; ++i) {
    auto d = quota.reserve(u, now);
    REQUIRE(d.ok());
    CHECK(d->allowed);
    CHECK(d->remaining == 9 - i);
  }
  auto refused = quota.reserve(u, now);
  CHECK_FALSE(refused->allowed);
  CHECK(refused->retry_after == seconds_until_utc_midnight(now));
  quota.release(u.id, refused->day);
  CHECK(quota.reserve(u, now)->allowed);
  u.plan.checks_per_day.reset();
  CHECK(quota.reserve(u, now)->remaining == -1);
}

TEST_CASE("stored reports: the compact form expands to the same bytes, a damaged one fails") {
  // A report as the scan API writes it (an SMS with five signals).
  std::string json = R"({"id":"rpt_01M8DXDQWMHN4DR6WTCADX1TSR","kind":"text","locale":"en",)"
                     R"("verdict":"danger","risk_score":100,"confidence":99,"summary_plain":)"
                     R"("This is very likely a scam. Do not click any links, do not reply and do )"
                     R"(not pay anything.","actions":[{"icon":"x","text":"Do not click any links )"
                     R"(and do not open any attachments."}],"signals":[)";
  for (int i = 0; i < 5; ++i) {
    json += fmt::format(
        R"({{"key":"payment_request","severity":"medium","evidence":"{}.99 EUR","location":)"
        R"("content","span":{{"start":{},"end":{}}},"explanation":"The message asks you to pay )"
        R"(money or settle a bill. Check the bill in your own customer account or directly )"
        R"(with the company before you pay."}},)",
        i, 40 + i, 48 + i);
  }
  json += R"({"key":"risky_tld","severity":"medium","evidence":".top","location":"content",)"
          R"("span":{"start":100,"end":104},"explanation":"The web address ends in something )"
          R"(like .xyz or .top."}],"urls":[],"model_used":"heuristic-fallback",)"
          R"("input_tokens":30,"output_tokens":0,"created_at":"2026-11-27T07:09:56.500Z"})";
  const std::string compact = compact_report(json);
  REQUIRE_FALSE(compact.empty());
  CHECK(compact.size() * 4 < json.size());  // the dictionary knows the texts
  auto back = expand_report(compact);
  REQUIRE(back.ok());
  CHECK(*back == json);
  // Non-ASCII and a large report round-trip too.
  std::string big = json;
  for (int i = 0; i < 2000; ++i) big += "\u00e9 caf\xc3\xa9 " + std::to_string(i);
  back = expand_report(compact_report(big));
  REQUIRE(back.ok());
  CHECK(*back == big);

  std::string damaged = compact;
  damaged[damaged.size() / 2] = static_cast<char>(damaged[damaged.size() / 2] ^ 0x55);
  CHECK_FALSE(expand_report(damaged).ok());  // the frame's checksum
  CHECK_FALSE(expand_report(compact.substr(0, compact.size() - 3)).ok());
  CHECK_FALSE(expand_report("{\"id\":1}").ok());
}

TEST_CASE("a token revoked through another store of the same file fails at once") {
  // The server and the operator CLI are two processes with their own store
  // on one database; the server remembers looked-up tokens.
  REQUIRE(init_crypto().ok());
  TempDir dir;
  const std::string url = "sqlite:" + (dir.path() / "t.db").string();
  auto server = open_store(url);
  REQUIRE(server.ok());
  REQUIRE((*server)->migrate().ok());
  auto cli = open_store(url);
  REQUIRE(cli.ok());
  REQUIRE(create_user(**cli, "a@example.com", "A", "free", "password1").ok());
  auto token = create_token(**cli, "a@example.com", "t", {"*"}, std::nullopt);
  REQUIRE(token.ok());
  const Sha256 hash = sha256(*token);

  for (int i = 0; i < 2; ++i) {  // the second lookup is answered from memory
    auto found = (*server)->find_token(hash);
    REQUIRE(found.ok());
    REQUIRE(found->has_value());
    CHECK_FALSE((*found)->revoked_at);
  }
  REQUIRE(revoke_token(**cli, "a@example.com", "t").ok());
  auto found = (*server)->find_token(hash);
  REQUIRE(found.ok());
  REQUIRE(found->has_value());
  CHECK((*found)->revoked_at);
  CHECK(fs::exists(dir.path() / "t.db-auth"));
}

// The WebStore contract, on a migrated store of either backend.
void check_web_store(Store& store) {
  WebStore& web = store.web();
  auto a = create_user(store, "a@example.com", "A", "free", "password1");
  auto b = create_user(store, "b@example.com", "B", "free", "password2");
  REQUIRE(a.ok());
  REQUIRE(b.ok());

  auto creds = web.find_credentials("A@example.com");
  REQUIRE(creds.ok());
  REQUIRE(creds->has_value());
  CHECK((*creds)->user.id == a->id);
  REQUIRE((*creds)->password_hash);
  CHECK(verify_password("password1", *(*creds)->password_hash));
  CHECK_FALSE(web.find_credentials("nobody@example.com")->has_value());

  const std::int64_t now = 1'900'000'000;
  NewSession s;
  s.id_hash = sha256("session-a");
  s.user_id = a->id;
  s.csrf_secret = "secret-a";
  s.created_at = now;
  s.expires_at = now + 100;
  REQUIRE(web.create_session(s).ok());
  s.id_hash = sha256("session-a2");
  REQUIRE(web.create_session(s).ok());
  s.id_hash = sha256("session-b");
  s.user_id = b->id;
  REQUIRE(web.create_session(s).ok());

  auto found = web.find_session(sha256("session-a"), now + 1);
  REQUIRE(found.ok());
  REQUIRE(found->has_value());
  CHECK((*found)->user.email == "a@example.com");
  CHECK((*found)->csrf_secret == "secret-a");
  CHECK_FALSE(web.find_session(sha256("session-a"), now + 100)->has_value());  // expired
  REQUIRE(web.touch_session(sha256("session-a"), now + 50, now + 500).ok());
  found = web.find_session(sha256("session-a"), now + 200);
  REQUIRE(found->has_value());
  CHECK((*found)->last_seen_at == now + 50);
  CHECK(*web.delete_session(sha256("session-a")));
  CHECK_FALSE(*web.delete_session(sha256("session-a")));
  CHECK_FALSE(web.find_session(sha256("session-a"), now + 1)->has_value());
  CHECK(*web.delete_user_sessions(a->id) == 1);  // session-a2
  CHECK(web.find_session(sha256("session-b"), now + 1)->has_value());
  CHECK(*web.purge_sessions(now + 100) == 1);  // session-b expired
  CHECK_FALSE(web.find_session(sha256("session-b"), now + 1)->has_value());

  CHECK(*web.login_failures("ip:127.0.0.1", now, 60) == 0);
  CHECK(*web.record_login_failure("ip:127.0.0.1", now, 60) == 1);
  CHECK(*web.record_login_failure("ip:127.0.0.1", now + 10, 60) == 2);
  CHECK(*web.login_failures("ip:127.0.0.1", now + 59, 60) == 2);
  CHECK(*web.login_failures("ip:127.0.0.1", now + 60, 60) == 0);        // window over
  CHECK(*web.record_login_failure("ip:127.0.0.1", now + 61, 60) == 1);  // a new window
  CHECK(*web.login_failures("account:a@example.com", now, 60) == 0);
  REQUIRE(web.clear_login_failures("ip:127.0.0.1").ok());
  CHECK(*web.login_failures("ip:127.0.0.1", now + 62, 60) == 0);

  auto ta = create_token(store, "a@example.com", "one", {"scan:create"}, std::nullopt);
  auto tb = create_token(store, "a@example.com", "two", {"*"}, 2.0);
  auto tc = create_token(store, "b@example.com", "theirs", {"*"}, std::nullopt);
  REQUIRE(ta.ok());
  REQUIRE(tb.ok());
  REQUIRE(tc.ok());
  auto list = web.list_tokens(a->id);
  REQUIRE(list.ok());
  REQUIRE(list->size() == 2);
  CHECK((*list)[0].name == "two");
  CHECK((*list)[0].expires_at > (*list)[0].created_at);
  CHECK((*list)[1].abilities == std::vector<std::string>{"scan:create"});
  CHECK_FALSE(*web.revoke_token_by_id(b->id, (*list)[1].id, now));  // not theirs
  REQUIRE(store.find_token(sha256(*ta))->has_value());              // cached now
  CHECK(*web.revoke_token_by_id(a->id, (*list)[1].id, now));
  CHECK_FALSE(*web.revoke_token_by_id(a->id, (*list)[1].id, now));  // already
  auto revoked = store.find_token(sha256(*ta));
  REQUIRE(revoked->has_value());
  CHECK((*revoked)->revoked_at == now);  // the cache saw the change
  CHECK(web.list_tokens(b->id)->size() == 1);

  CHECK(*web.take_client_unit("10.0.0.1", "2030-01-01", 2));
  CHECK(*web.take_client_unit("10.0.0.1", "2030-01-01", 2));
  CHECK_FALSE(*web.take_client_unit("10.0.0.1", "2030-01-01", 2));
  REQUIRE(web.give_back_client_unit("10.0.0.1", "2030-01-01").ok());
  CHECK(*web.take_client_unit("10.0.0.1", "2030-01-01", 2));
  CHECK(store.checks().client_usage("10.0.0.1", "2030-01-01")->today == 2);
  CHECK_FALSE(*web.take_client_unit("10.0.0.2", "2030-01-01", 0));
}

TEST_CASE("SQLite store: web sessions, credentials, sign-in failures, token list") {
  REQUIRE(init_crypto().ok());
  TempDir dir;
  auto opened = open_store("sqlite:" + (dir.path() / "w.db").string());
  REQUIRE(opened.ok());
  REQUIRE((*opened)->migrate().ok());
  check_web_store(**opened);
}

// On the cluster of the CTest fixture (tests/server/pg_cluster.py), named
// by SCAMCHECK_TEST_PG_CLUSTER: a fresh database each run.
TEST_CASE("PostgreSQL store") {
  const char* cluster = std::getenv("SCAMCHECK_TEST_PG_CLUSTER");
  std::ifstream port_file(std::string(cluster ? cluster : "") + "/port");
  int port = 0;
  if (cluster == nullptr || !(port_file >> port)) {
    testing::skip_case("no PostgreSQL cluster (SCAMCHECK_TEST_PG_CLUSTER; postgresql-15)");
    return;
  }
  REQUIRE(init_crypto().ok());
  const std::string server = fmt::format("postgresql://postgres@127.0.0.1:{}/", port);
  const std::string name = fmt::format("unit_{}_{}", ::getpid(), unix_now());
  PGconn* admin = PQconnectdb((server + "postgres").c_str());
  REQUIRE(PQstatus(admin) == CONNECTION_OK);
  // From template0, which nobody connects to: a CREATE DATABASE of another
  // test at the same time cannot find the template busy.
  PGresult* created = PQexec(admin, ("CREATE DATABASE " + name + " TEMPLATE template0").c_str());
  INFO("CREATE DATABASE: " << std::string(PQresultErrorMessage(created)));
  CHECK(PQresultStatus(created) == PGRES_COMMAND_OK);
  PQclear(created);
  PQfinish(admin);
  auto opened = open_store(server + name);
  REQUIRE(opened.ok());
  REQUIRE((*opened)->migrate().ok());
  REQUIRE((*opened)->migrate().ok());  // applied once
  check_web_store(**opened);

  // Writes queued together commit together; one that fails (a duplicate
  // id) fails alone.
  Store& store = **opened;
  auto user = store.find_user("a@example.com");
  REQUIRE(user.ok());
  REQUIRE(user->has_value());
  const auto report = [&](const std::string& id) {
    StoredReport r;
    r.public_id = id;
    r.user_id = (*user)->id;
    r.kind = "text";
    r.verdict = "safe";
    r.created_at = "2030-01-01T00:00:00Z";
    r.report_json = "{}";
    return r;
  };
  std::vector<std::future<Status>> done;
  for (const char* id : {"rpt_1", "rpt_1", "rpt_2"}) {
    auto promise = std::make_shared<std::promise<Status>>();
    done.push_back(promise->get_future());
    store.insert_report(report(id), [promise](Status s) { promise->set_value(s); });
  }
  // Two writers commit side by side, so either copy of the duplicate may
  // win; exactly one does, and the other write is not held back by it.
  const bool first = done[0].get().ok();
  const bool second = done[1].get().ok();
  CHECK(first != second);
  CHECK(done[2].get().ok());
  CHECK(store.get_report((*user)->id, "rpt_2")->has_value());

  // The anonymous allowance: counted and stored only under the limit.
  for (int i = 0; i < 3; ++i) {
    NewCheck n;
    n.check.uuid = fmt::format("00000000-0000-4000-8000-00000000000{}", i);
    n.check.type = "text";
    n.check.content = "hello";
    n.check.locale = "en";
    n.usage_day = "2030-01-02";
    n.client = "192.0.2.1";
    n.anonymous_limit = 2;
    std::promise<Status> promise;
    store.checks().insert_check(n, [&promise](Status s) { promise.set_value(s); });
    const Status s = promise.get_future().get();
    CHECK(s.code() == (i < 2 ? StatusCode::kOk : StatusCode::kResourceExhausted));
    CHECK(store.checks().get_check(n.check.uuid)->has_value() == (i < 2));
  }
}

// A migrated SQLite store in a temporary directory with one user, and
// reports of that user's to write (counted on 2030-01-02).
struct ReportWriter {
  TempDir dir;
  std::unique_ptr<Store> store;
  Result<User> user = Status::internal("no user yet");

  explicit ReportWriter(const StoreOptions& options = {}) {
    REQUIRE(init_crypto().ok());
    auto opened = open_store("sqlite:" + (dir.path() / "t.db").string(), options);
    REQUIRE(opened.ok());
    store = std::move(opened).value();
    REQUIRE(store->migrate().ok());
    user = create_user(*store, "a@example.com", "A", "free", "password1");
    REQUIRE(user.ok());
  }

  StoredReport report(int i) const { return report("{\"n\":" + std::to_string(i) + "}"); }
  StoredReport report(std::string json) const {
    StoredReport r;
    r.public_id = "rpt_" + new_ulid();
    r.user_id = user->id;
    r.kind = "text";
    r.verdict = "safe";
    r.created_at = iso8601_now();
    r.report_json = std::move(json);
    r.usage_day = "2030-01-02";
    return r;
  }
  // Inserts r and waits for its commit.
  Status insert(const StoredReport& r) const {
    std::promise<Status> done;
    store->insert_report(r, [&done](Status s) { done.set_value(std::move(s)); });
    return done.get_future().get();
  }
};

TEST_CASE("SQLite store: a lone write commits at once; concurrent writes share commits") {
  // Group commit without a waiting window: one scan at a time must not pay
  // a sleep per report, and writes queued together are all committed.
  ReportWriter w;
  Store& store = *w.store;
  const auto& user = w.user;
  auto report = [&](int i) { return w.report(i); };
  std::vector<double> millis;
  for (int i = 0; i < 21; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    REQUIRE(w.insert(report(i)).ok());
    millis.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(millis.begin(), millis.end());
  INFO("median ms per lone write: " << millis[millis.size() / 2]);
  CHECK(millis[millis.size() / 2] < 0.9);  // a 1 ms batch window would be >= 1

  std::vector<std::promise<Status>> done(200);
  for (std::size_t i = 0; i < done.size(); ++i) {
    store.insert_report(report(static_cast<int>(i)),
                        [&done, i](Status s) { done[i].set_value(std::move(s)); });
  }
  for (auto& d : done) REQUIRE(d.get_future().get().ok());
  CHECK(*store.usage_count(user->id, "2030-01-02") == 221);

  // A failing write in a shared commit (a duplicate report id) fails alone:
  // the batch is committed without it, the writes around it are kept.
  std::vector<StoredReport> reports;
  for (int i = 0; i < 200; ++i) reports.push_back(report(i));
  for (int i = 7; i < 200; i += 19) reports[i].public_id = reports[i - 3].public_id;
  std::vector<std::promise<Status>> mixed(reports.size());
  for (std::size_t i = 0; i < reports.size(); ++i) {
    store.insert_report(reports[i], [&mixed, i](Status s) { mixed[i].set_value(std::move(s)); });
  }
  int failed = 0;
  for (std::size_t i = 0; i < mixed.size(); ++i) {
    const Status s = mixed[i].get_future().get();
    const bool duplicate = i >= 7 && (i - 7) % 19 == 0;
    CHECK(s.ok() != duplicate);
    failed += s.ok() ? 0 : 1;
  }
  CHECK(failed == 11);
  CHECK(*store.usage_count(user->id, "2030-01-02") == 221 + 200 - 11);
  CHECK(store.get_report(user->id, reports[8].public_id)->has_value());
}

TEST_CASE("SQLite store: under load, writes that keep coming share a commit") {
  // After a commit of several writes (load), a write is not committed
  // alone while more keep coming: one commit, and the pages every commit
  // rewrites (index leaves, daily counts), for many of them.
  ReportWriter w;
  Store& store = *w.store;
  const auto wal = w.dir.path() / "t.db-wal";
  REQUIRE(w.insert(w.report(0)).ok());
  const auto before = std::filesystem::file_size(wal);
  // Two announced reports every 100 µs, as scans finishing on two I/O
  // threads: without gathering, each pair is committed (together) before
  // the next comes.
  std::vector<std::promise<Status>> done(220);
  for (std::size_t i = 0; i < done.size(); i += 2) {
    const auto next = std::chrono::steady_clock::now() + std::chrono::microseconds(100);
    store.expect_reports(+2);
    for (std::size_t j = i; j < i + 2; ++j) {
      StoredReport r = w.report(static_cast<int>(j));
      r.announced = true;
      store.insert_report(std::move(r), [&done, j](Status s) { done[j].set_value(std::move(s)); });
    }
    while (std::chrono::steady_clock::now() < next) {
    }
  }
  for (auto& d : done) REQUIRE(d.get_future().get().ok());
  const auto frames = (std::filesystem::file_size(wal) - before) / (4096 + 24);
  INFO("WAL frames for 220 writes: " << frames);
  CHECK(frames < 120);  // a commit per pair: 3-4 frames each

  // After a pause the load is over: an announced report is committed at
  // once by its own thread again (one connection).
  bool on_this_thread = false;
  for (int i = 0; i < 20 && !on_this_thread; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    store.expect_reports(+1);
    StoredReport r = w.report(1000 + i);
    r.announced = true;
    std::thread::id ran_on;
    std::promise<Status> lone;
    store.insert_report(std::move(r), [&](Status s) {
      ran_on = std::this_thread::get_id();
      lone.set_value(std::move(s));
    });
    REQUIRE(lone.get_future().get().ok());
    on_this_thread = ran_on == std::this_thread::get_id();
  }
  CHECK(on_this_thread);
}

TEST_CASE("SQLite store: a write waits for announced reports, never past the limit") {
  // Scans announce their reports (expect_reports); the writer commits what
  // is queued together with what was announced, so under load one commit
  // carries many reports. An announced report that never comes holds the
  // commit for a bounded time only.
  ReportWriter w;
  Store& store = *w.store;
  const auto& user = w.user;
  auto report = [&](int i) { return w.report(i); };
  using Clock = std::chrono::steady_clock;
  const auto millis = [](Clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
  };

  // Two scans announced; the first report is queued, the second follows
  // 0.1 ms later: the first is committed with it, or, if this thread was
  // held up longer (a busy machine), not before the writer waited a gap
  // (kBusyGap, 0.2 ms) or the limit for it.
  store.expect_reports(+1);
  store.expect_reports(+1);
  std::promise<Clock::time_point> first_done;
  const Clock::time_point first_queued = Clock::now();
  store.insert_report(report(1), [&first_done](Status s) {
    CHECK(s.ok());
    first_done.set_value(Clock::now());
  });
  store.expect_reports(-1);
  std::this_thread::sleep_for(std::chrono::microseconds(100));
  std::promise<Status> second_done;
  const Clock::time_point second_queued = Clock::now();
  store.insert_report(report(2), [&second_done](Status s) { second_done.set_value(s); });
  store.expect_reports(-1);
  REQUIRE(second_done.get_future().get().ok());
  const Clock::time_point first = first_done.get_future().get();
  INFO("first report committed after " << millis(first - first_queued) << " ms");
  CHECK((first >= second_queued || millis(first - first_queued) >= 0.19));

  // An announcement whose report never comes: the queued write is
  // committed after the limit all the same.
  store.expect_reports(+1);
  std::promise<Status> lone;
  const Clock::time_point t0 = Clock::now();
  store.insert_report(report(3), [&lone](Status s) { lone.set_value(s); });
  auto future = lone.get_future();
  REQUIRE(future.wait_for(std::chrono::seconds(2)) == std::future_status::ready);
  CHECK(future.get().ok());
  CHECK(millis(Clock::now() - t0) < 1000);
  store.expect_reports(-1);
  CHECK(*store.usage_count(user->id, "2030-01-02") == 3);
}

TEST_CASE("SQLite store: an announced report on an idle store is committed by its scan's thread") {
  // One connection: no hand-off to the writer thread and back. The report
  // is durable when `done` runs, before insert_report returns.
  ReportWriter w;
  Store& store = *w.store;
  const std::thread::id self = std::this_thread::get_id();
  bool on_this_thread = false;
  for (int i = 0; i < 50 && !on_this_thread; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));  // the writer back at its wait
    store.expect_reports(+1);
    StoredReport r = w.report(i);
    r.announced = true;
    const std::string id = r.public_id;
    std::thread::id ran_on;
    std::promise<Status> done;
    store.insert_report(std::move(r), [&](Status s) {
      ran_on = std::this_thread::get_id();
      done.set_value(std::move(s));
    });
    REQUIRE(done.get_future().get().ok());
    on_this_thread = ran_on == self;
    CHECK(store.get_report(w.user->id, id)->has_value());
  }
  CHECK(on_this_thread);
}

TEST_CASE("SQLite store: the WAL stays bounded while writes never pause") {
  // Background checkpoints never catch up with a writer that commits all
  // the time, and SQLite only writes the WAL from its beginning again once
  // every frame is copied: without the writer's own pass (restart_wal) the
  // WAL file grows by everything written (here over 100 MB in 4 s).
  // Checkpoints from 250 pages, so the writer restarts the WAL past 1,000
  // pages (4 MB). Each thread writes a report, deletes it again (the
  // database file itself stays small) and pauses 2 ms: a pace at which the
  // checkpoints keep up, as they do with a server's scans.
  StoreOptions options;
  options.sqlite_checkpoint_pages = 250;
  const ReportWriter w(options);
  const fs::path wal = w.dir.path() / "t.db-wal";
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(4);
  std::atomic<std::uintmax_t> largest{0};
  std::atomic<int> failures{0};
  std::atomic<int> writes{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      while (std::chrono::steady_clock::now() < until) {
        const StoredReport r =
            w.report(fmt::format("{{\"t\":{},\"pad\":\"{}\"}}", t, std::string(4096, 'x')));
        if (!w.insert(r).ok()) ++failures;
        if (!w.store->delete_report(w.user->id, r.public_id).ok()) ++failures;
        ++writes;
        std::error_code ec;
        const std::uintmax_t size = fs::file_size(wal, ec);
        if (!ec && size > largest.load()) largest.store(size);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(failures.load() == 0);
  INFO("reports written and deleted: " << writes.load());
  INFO("largest WAL: " << largest.load() / 1024 << " KiB");
  CHECK(largest.load() > 0);
  CHECK(largest.load() < std::uintmax_t{40} * 1024 * 1024);

  // Once the burst is over the checkpoints catch up; the writes after it
  // start the WAL again, and journal_size_limit cuts the file back to
  // twice the restart size (2,000 pages) at most.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  for (int i = 0; i < 3; ++i) {
    REQUIRE(w.insert(w.report("{}")).ok());
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  INFO("WAL after the burst: " << fs::file_size(wal) / 1024 << " KiB");
  CHECK(fs::file_size(wal) <= std::uintmax_t{2000} * 4096 + 64 * 1024);
}

TEST_CASE("open_store rejects unknown database URLs and unreachable PostgreSQL servers") {
  CHECK(open_store("mysql://x").status().code() == StatusCode::kInvalidArgument);
  // Nothing listens on port 1: a clear kUnavailable (exit 69), not a hang.
  Result<std::unique_ptr<Store>> pg = open_store("postgresql://nobody@127.0.0.1:1/db");
  REQUIRE_FALSE(pg.ok());
  CHECK(pg.status().code() == StatusCode::kUnavailable);
  CHECK(pg.status().message().find("cannot connect") != std::string::npos);
}

}  // namespace scamcheck::server
