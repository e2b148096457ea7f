// Unit tests of the transport-independent MCP core (adapters/common/mcp_*):
// revision negotiation, the stateless revision, tool errors, the daily
// bucket and ability hooks of McpContext, and the catalogs.
#include <doctest/doctest.h>
#include <simdjson.h>

#include <memory>
#include <string>

#include "common/mcp_catalog.h"
#include "common/mcp_context.h"
#include "common/mcp_server.h"
#include "scamcheck/scamcheck.h"

namespace {

using namespace scamcheck;
using namespace scamcheck::adapters;

constexpr char kPhishing[] =
    "Your parcel is on hold. Pay 1.99 EUR at https://dhl-track.example.top to release it.";

const Analyzer& analyzer() {
  static const std::unique_ptr<Analyzer> instance = [] {
    auto created = Analyzer::create();
    REQUIRE(created.ok());
    return std::move(created).value();
  }();
  return *instance;
}

const McpServer& server() {
  static const std::unique_ptr<McpServer> instance = [] {
    auto created = McpServer::create(analyzer());
    REQUIRE(created.ok());
    return std::move(created).value();
  }();
  return *instance;
}

// A caller with a bucket of `allowance` scans and chosen abilities.
class TestContext : public MemoryMcpContext {
 public:
  explicit TestContext(int allowance = 1000, bool can_scan = true, bool can_read = true)
      : allowance_(allowance), can_scan_(can_scan), can_read_(can_read) {}

  bool has_ability(std::string_view ability) const override {
    return ability == kAbilityScanCreate ? can_scan_ : ability == kAbilityReportsRead && can_read_;
  }
  int charged = 0;
  int refunded = 0;

 protected:
  Status charge(const McpScanRequest&) override {
    if (charged - refunded >= allowance_) return Status::resource_exhausted("daily limit");
    ++charged;
    return Status();
  }
  void refund(const McpScanRequest&) override { ++refunded; }

 private:
  int allowance_;
  bool can_scan_;
  bool can_read_;
};

// Sends `message`, expects an answer and parses it.
struct Exchange {
  simdjson::dom::parser parser;
  std::string text;
  simdjson::dom::element answer;

  Exchange(std::string_view message, McpSession& session, McpContext& context) {
    std::optional<std::string> reply = server().handle(message, session, context);
    REQUIRE(reply.has_value());
    text = *reply;
    REQUIRE(parser.parse(text).get(answer) == simdjson::SUCCESS);
  }
  std::int64_t error_code() {
    std::int64_t code = 0;
    REQUIRE(answer["error"]["code"].get(code) == simdjson::SUCCESS);
    return code;
  }
  simdjson::dom::element result() {
    simdjson::dom::element r;
    REQUIRE_MESSAGE(answer["result"].get(r) == simdjson::SUCCESS, text);
    return r;
  }
};

std::string stateless(std::string_view method, std::string_view params_without_meta = "") {
  std::string out = R"({"jsonrpc":"2.0","id":7,"method":")";
  out.append(method).append(R"(","params":{)").append(params_without_meta);
  if (!params_without_meta.empty()) out += ",";
  out += R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
         R"("io.modelcontextprotocol/clientCapabilities":{}}}})";
  return out;
}

std::string call_tool(std::string_view name, std::string_view arguments) {
  std::string params = R"("name":")";
  params.append(name).append(R"(","arguments":)").append(arguments);
  return stateless("tools/call", params);
}

void initialize(McpSession& session, McpContext& context, std::string_view version) {
  Exchange ex(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":")" +
                  std::string(version) +
                  R"(","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})",
              session, context);
  (void)ex.result();
}

}  // namespace

TEST_CASE("initialize negotiates a session revision") {
  TestContext context;
  for (const auto& [asked, given] :
       {std::pair<std::string, std::string>{"2025-03-26", "2025-03-26"},
        {"2025-06-18", "2025-06-18"},
        {"2025-11-25", "2025-11-25"},
        {"2024-11-05", "2025-11-25"},
        {"2026-07-28", "2025-11-25"},
        {"1999-01-01", "2025-11-25"}}) {
    McpSession session;
    Exchange ex(R"({"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":")" +
                    asked + R"(","capabilities":{}}})",
                session, context);
    std::string_view version;
    REQUIRE(ex.result()["protocolVersion"].get(version) == simdjson::SUCCESS);
    CHECK(version == given);
    REQUIRE(session.revision.has_value());
    CHECK(to_string(*session.revision) == given);
    std::string_view id;
    CHECK(ex.answer["id"].get(id) == simdjson::SUCCESS);
    CHECK(id == "a");
  }
}

TEST_CASE("protocol errors are JSON-RPC errors") {
  TestContext context;
  McpSession session;
  CHECK(Exchange("{not json", session, context).error_code() == -32700);
  CHECK(Exchange("42", session, context).error_code() == -32600);
  // No session and no stateless _meta.
  CHECK(Exchange(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})", session, context)
            .error_code() == -32600);
  // A stateless request naming a revision this server does not speak.
  Exchange unsupported(
      R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}})",
      session, context);
  CHECK(unsupported.error_code() == -32022);
  std::string_view requested;
  CHECK(unsupported.answer["error"]["data"]["requested"].get(requested) == simdjson::SUCCESS);
  CHECK(requested == "2099-01-01");
  // clientCapabilities is required in the stateless revision.
  CHECK(
      Exchange(
          R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}})",
          session, context)
          .error_code() == -32602);
  CHECK(Exchange(stateless("ping"), session, context).error_code() == -32601);
  CHECK(Exchange(call_tool("no_such_tool", "{}"), session, context).error_code() == -32602);
  // Notifications and client responses are never answered.
  CHECK_FALSE(
      server()
          .handle(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", session, context)
          .has_value());
  CHECK_FALSE(server().handle(R"({"jsonrpc":"2.0","id":3,"result":{}})", session, context));
}

TEST_CASE("stateless results carry resultType, serverInfo and cache hints") {
  TestContext context;
  McpSession session;
  Exchange discover(stateless("server/discover"), session, context);
  std::string_view text;
  CHECK(discover.result()["resultType"].get(text) == simdjson::SUCCESS);
  CHECK(text == "complete");
  CHECK(discover.result()["supportedVersions"].get_array().size() == 4);
  std::int64_t ttl = 0;
  CHECK(discover.result()["ttlMs"].get(ttl) == simdjson::SUCCESS);
  CHECK(ttl > 0);
  CHECK(discover.result()["_meta"]["io.modelcontextprotocol/serverInfo"]["name"].get(text) ==
        simdjson::SUCCESS);
  CHECK(text == "scamcheck");
  CHECK_FALSE(session.revision.has_value());  // stateless requests leave no session

  Exchange tools(stateless("tools/list"), session, context);
  simdjson::dom::array list;
  REQUIRE(tools.result()["tools"].get(list) == simdjson::SUCCESS);
  CHECK(list.size() == 7);
  for (simdjson::dom::element tool : list) {
    CHECK(tool["inputSchema"]["type"].get(text) == simdjson::SUCCESS);
    CHECK(tool["outputSchema"]["type"].get(text) == simdjson::SUCCESS);
  }
}

TEST_CASE("a scan returns the stored Report as structuredContent and a readable text") {
  TestContext context;
  McpSession session;
  Exchange ex(
      call_tool("scan_text", std::string(R"({"text":")") + kPhishing + R"(","locale":"de"})"),
      session, context);
  simdjson::dom::element result = ex.result();
  bool is_error = false;
  CHECK(result["isError"].get(is_error) == simdjson::NO_SUCH_FIELD);
  std::string_view id, verdict, text, locale;
  REQUIRE(result["structuredContent"]["id"].get(id) == simdjson::SUCCESS);
  CHECK(id.substr(0, 4) == "rpt_");
  CHECK(result["structuredContent"]["verdict"].get(verdict) == simdjson::SUCCESS);
  CHECK(verdict != "safe");
  CHECK(result["structuredContent"]["locale"].get(locale) == simdjson::SUCCESS);
  CHECK(locale == "de");
  REQUIRE(result["content"].at(0)["text"].get(text) == simdjson::SUCCESS);
  CHECK(text.find("Warnzeichen") != std::string_view::npos);
  CHECK(text.find(id) != std::string_view::npos);
  CHECK(context.size() == 1);
  CHECK(context.charged == 1);
  CHECK(context.find_report(id)->has_value());
}

TEST_CASE("tool failures are isError results with catalog texts") {
  McpSession session;
  const auto error_text = [&](McpContext& context, std::string_view tool,
                              std::string_view arguments) {
    Exchange ex(call_tool(tool, arguments), session, context);
    bool is_error = false;
    REQUIRE_MESSAGE(ex.result()["isError"].get(is_error) == simdjson::SUCCESS, ex.text);
    CHECK(is_error);
    CHECK(ex.result()["structuredContent"].error() == simdjson::NO_SUCH_FIELD);
    std::string_view text;
    REQUIRE(ex.result()["content"].at(0)["text"].get(text) == simdjson::SUCCESS);
    return std::string(text);
  };
  TestContext context;
  CHECK(error_text(context, "scan_text", "{}").find("\"text\" is missing") != std::string::npos);
  CHECK(error_text(context, "scan_text", R"({"text":5})").find("must be a string") !=
        std::string::npos);
  CHECK(error_text(context, "scan_email", R"({"raw_email":"%%%","content_encoding":"base64"})")
            .find("base64") != std::string::npos);
  CHECK(error_text(context, "scan_text", R"({"text":"   "})").find("empty or not valid") !=
        std::string::npos);
  // A damaged image: unreadable, or images are not in this build at all.
  for (const char* tool : {"scan_image", "scan_qr"}) {
    const std::string text =
        error_text(context, tool, R"({"image_base64":"iVBORw0KGgo=","mime_type":"image/png"})");
    CHECK_MESSAGE((text.find("image") != std::string::npos ||
                   text.find("not available") != std::string::npos),
                  text);
  }
  CHECK(error_text(context, "scan_qr", R"({"image_base64":"iVBORw0KGgo=","mime_type":"text/html"})")
            .find("mime_type") != std::string::npos);
  CHECK(error_text(context, "list_my_recent_reports", R"({"limit":0})").find("1 to 100") !=
        std::string::npos);
  CHECK(error_text(context, "scan_text", R"({"text":"","locale":"de"})").find("ist leer") !=
        std::string::npos);
  // Failed scans are given back: nothing stays charged.
  CHECK(context.charged == context.refunded);
  CHECK(context.size() == 0);

  TestContext no_scan(1000, /*can_scan=*/false, /*can_read=*/true);
  CHECK(error_text(no_scan, "scan_url", R"({"url":"example.com"})").find("scan:create") !=
        std::string::npos);
  TestContext no_read(1000, /*can_scan=*/true, /*can_read=*/false);
  CHECK(error_text(no_read, "list_my_recent_reports", "{}").find("reports:read") !=
        std::string::npos);

  TestContext one_scan(1);
  Exchange first(call_tool("scan_url", R"({"url":"https://example.com/"})"), session, one_scan);
  CHECK(first.result()["structuredContent"].error() == simdjson::SUCCESS);
  CHECK(error_text(one_scan, "scan_url", R"({"url":"https://example.com/"})").find("daily limit") !=
        std::string::npos);
}

TEST_CASE("scan_links counts and stores one report per link") {
  TestContext context;
  McpSession session;
  Exchange ex(
      call_tool(
          "scan_links",
          R"({"text":"See https://example.com/a and http://paypa1-login.example.top/x or https://example.com/a again"})"),
      session, context);
  simdjson::dom::array reports;
  REQUIRE(ex.result()["structuredContent"]["reports"].get(reports) == simdjson::SUCCESS);
  CHECK(reports.size() == 2);
  CHECK(context.charged == 2);
  CHECK(context.size() == 2);

  // With one scan left, the second link is not checked and the text says so.
  TestContext one_left(1);
  Exchange partial(
      call_tool("scan_links", R"({"text":"https://example.com/a and https://example.org/b"})"),
      session, one_left);
  REQUIRE(partial.result()["structuredContent"]["reports"].get(reports) == simdjson::SUCCESS);
  CHECK(reports.size() == 1);
  std::string_view text;
  REQUIRE(partial.result()["content"].at(0)["text"].get(text) == simdjson::SUCCESS);
  CHECK(text.find("1 further links were not checked") != std::string_view::npos);

  Exchange none(call_tool("scan_links", R"({"text":"no links here"})"), session, context);
  REQUIRE(none.result()["structuredContent"]["reports"].get(reports) == simdjson::SUCCESS);
  CHECK(reports.size() == 0);

  Exchange recent(call_tool("list_my_recent_reports", R"({"limit":1})"), session, context);
  REQUIRE(recent.result()["structuredContent"]["reports"].get(reports) == simdjson::SUCCESS);
  CHECK(reports.size() == 1);
}

TEST_CASE("session revisions shape the tool results") {
  TestContext context;
  McpSession old_session;
  initialize(old_session, context, "2025-03-26");
  const std::string call =
      R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"scan_url","arguments":{"url":"example.com"}}})";
  Exchange ex(call, old_session, context);
  CHECK(ex.result()["structuredContent"].error() == simdjson::NO_SUCH_FIELD);
  CHECK(ex.result()["content"].get_array().size() == 2);  // text, then the Report as JSON
  CHECK(ex.result()["resultType"].error() == simdjson::NO_SUCH_FIELD);
  // 2025-03-26 has batches.
  Exchange batch("[" + call + R"(,{"jsonrpc":"2.0","method":"notifications/initialized"},)" +
                     R"({"jsonrpc":"2.0","id":3,"method":"ping"}])",
                 old_session, context);
  CHECK(batch.answer.get_array().size() == 2);
  CHECK(old_session.initialized);
  // At most kMaxMcpBatchMessages messages: one more is refused whole, none run.
  const auto pings = [](std::size_t n) {
    std::string out = "[";
    for (std::size_t i = 0; i < n; ++i) {
      out += (i ? "," : "") + std::string(R"({"jsonrpc":"2.0","id":)") + std::to_string(i + 10) +
             R"(,"method":"ping"})";
    }
    return out + "]";
  };
  CHECK(Exchange(pings(kMaxMcpBatchMessages + 1), old_session, context).error_code() == -32600);
  Exchange full(pings(kMaxMcpBatchMessages), old_session, context);
  CHECK(full.answer.get_array().size() == kMaxMcpBatchMessages);

  McpSession session;
  initialize(session, context, "2025-06-18");
  CHECK(Exchange("[" + call + "]", session, context).error_code() == -32600);
  McpSession newest;
  initialize(newest, context, "2025-11-25");
  CHECK(Exchange("[" + call + "]", newest, context).error_code() == -32600);
  McpSession none;  // stateless (2026-07-28) requests have no session revision
  CHECK(Exchange("[" + call + "]", none, context).error_code() == -32600);
  Exchange structured(call, session, context);
  CHECK(structured.result()["structuredContent"].error() == simdjson::SUCCESS);
}

TEST_CASE("the prompt explains a stored report in the asked language") {
  TestContext context;
  McpSession session;
  Exchange scan(call_tool("scan_text", std::string(R"({"text":")") + kPhishing + R"("})"), session,
                context);
  std::string_view id_view;
  REQUIRE(scan.result()["structuredContent"]["id"].get(id_view) == simdjson::SUCCESS);
  const std::string id(id_view);
  Exchange prompt(stateless("prompts/get",
                            R"("name":"explain_report_to_my_parent","arguments":{"report_id":")" +
                                id + R"(","locale":"de-AT"})"),
                  session, context);
  std::string_view text;
  REQUIRE(prompt.result()["messages"].at(0)["content"]["text"].get(text) == simdjson::SUCCESS);
  CHECK(text.find("Deutsch") != std::string_view::npos);
  CHECK(text.find(id) != std::string_view::npos);
  CHECK(
      Exchange(
          stateless("prompts/get",
                    R"("name":"explain_report_to_my_parent","arguments":{"report_id":"rpt_nope"})"),
          session, context)
          .error_code() == -32602);
}

TEST_CASE("the glossary resource has every signal with texts per locale") {
  TestContext context;
  McpSession session;
  Exchange read(stateless("resources/read", R"("uri":"scamcheck://signals/glossary")"), session,
                context);
  std::string_view text;
  REQUIRE(read.result()["contents"].at(0)["text"].get(text) == simdjson::SUCCESS);
  simdjson::dom::parser parser;
  simdjson::dom::element glossary;
  REQUIRE(parser.parse(text).get(glossary) == simdjson::SUCCESS);
  std::int64_t version = 0;
  CHECK(glossary["version"].get(version) == simdjson::SUCCESS);
  CHECK(version == 1);
  simdjson::dom::array signals;
  REQUIRE(glossary["signals"].get(signals) == simdjson::SUCCESS);
  CHECK(signals.size() == analyzer().signal_glossary().size());
  CHECK(signals.size() > 10);
  for (simdjson::dom::element signal : signals) {
    std::string_view explanation;
    CHECK(signal["texts"]["en"]["explanation"].get(explanation) == simdjson::SUCCESS);
    CHECK(signal["texts"]["de"]["title"].get(explanation) == simdjson::SUCCESS);
  }
  CHECK(Exchange(stateless("resources/read", R"("uri":"scamcheck://nothing")"), session, context)
            .error_code() == -32602);
  McpSession legacy;
  initialize(legacy, context, "2025-11-25");
  CHECK(Exchange(R"({"jsonrpc":"2.0","id":9,"method":"resources/read","params":{"uri":"x:y"}})",
                 legacy, context)
            .error_code() == -32002);
}

TEST_CASE("catalogs fall back by language, then to en") {
  auto catalog = McpCatalog::load();
  REQUIRE(catalog.ok());
  CHECK((*catalog)->resolve("de-AT") == "de");
  CHECK((*catalog)->resolve("DE") == "de");
  CHECK((*catalog)->resolve("fr") == "en");
  CHECK((*catalog)->text("de", "verdict.danger") == "Gefährlich");
  // Not translated: the English text.
  CHECK((*catalog)->text("de", "tool.scan_text.description") ==
        (*catalog)->text("en", "tool.scan_text.description"));
  CHECK((*catalog)->text("en", "links.count", {{"count", "3"}}) == "Links checked: 3.");
  CHECK((*catalog)->text("en", "no.such.key") == "no.such.key");

  const std::vector<McpCatalogFile> bad = {
      {"mcp_en.json", R"({"locale":"en","messages":{"a":"x"}})"},
      {"mcp_de.json", R"({"locale":"de","messages":{"b":"y"}})"}};
  CHECK_FALSE(McpCatalog::load(bad).ok());
}

TEST_CASE("inspect tells a transport what a message is") {
  const McpMessageInfo call = McpServer::inspect(call_tool("scan_text", R"({"text":"hi"})"));
  CHECK(call.valid);
  CHECK_FALSE(call.batch);
  CHECK(call.has_request);
  CHECK(call.method == "tools/call");
  CHECK(call.name == "scan_text");
  CHECK(call.protocol_version == "2026-07-28");
  const McpMessageInfo notification =
      McpServer::inspect(R"([{"jsonrpc":"2.0","method":"notifications/initialized"}])");
  CHECK(notification.valid);
  CHECK(notification.batch);
  CHECK_FALSE(notification.has_request);
  CHECK_FALSE(McpServer::inspect("{oops").valid);
}
