#include "common/mcp_server.h"

#include <simdjson.h>

#include <exception>
#include <vector>

#include "common/mcp_tools.h"
#include "scamcheck/version.h"

namespace scamcheck::adapters {
namespace {

constexpr std::string_view kPromptName = "explain_report_to_my_parent";
constexpr std::string_view kGlossaryName = "signals_glossary";
constexpr std::string_view kGlossaryUri = "scamcheck://signals/glossary";
constexpr std::string_view kJsonMime = "application/json";

// Revisions listed where the server names what it speaks, newest first.
constexpr McpRevision kAnnounced[] = {McpRevision::k20260728, McpRevision::k20251125,
                                      McpRevision::k20250618, McpRevision::k20250326};

void write_string(JsonWriter& w, std::string_view text) { write_json_string(w, text); }

void write_id(JsonWriter& w, const std::optional<simdjson::dom::element>& id) {
  if (!id) {
    w.Null();
    return;
  }
  std::string_view text;
  std::int64_t number = 0;
  std::uint64_t unsigned_number = 0;
  if (id->get(text) == simdjson::SUCCESS) {
    write_string(w, text);
  } else if (id->get(number) == simdjson::SUCCESS) {
    w.Int64(number);
  } else if (id->get(unsigned_number) == simdjson::SUCCESS) {
    w.Uint64(unsigned_number);
  } else {
    w.Null();
  }
}

std::string error_response(const std::optional<simdjson::dom::element>& id, const RpcError& error) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("jsonrpc");
  w.String("2.0");
  w.Key("id");
  write_id(w, id);
  w.Key("error");
  w.StartObject();
  w.Key("code");
  w.Int(error.code);
  w.Key("message");
  write_string(w, error.message);
  if (!error.data_json.empty()) {
    w.Key("data");
    w.RawValue(error.data_json.data(), error.data_json.size(), rapidjson::kObjectType);
  }
  w.EndObject();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string revisions_text() {
  std::string out;
  for (McpRevision revision : kAnnounced) {
    if (!out.empty()) out += ", ";
    out += to_string(revision);
  }
  return out;
}

// The glossary resource (CONTRACT §5): {"version": 1, "signals": [{"key",
// "default_severity", "texts": {"<locale>": {"title", "explanation"}}}]}.
std::string build_glossary_json(const Analyzer& analyzer) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("version");
  w.Int(1);
  w.Key("signals");
  w.StartArray();
  for (const GlossarySignal& signal : analyzer.signal_glossary()) {
    w.StartObject();
    w.Key("key");
    write_string(w, signal.key);
    w.Key("default_severity");
    write_string(w, to_string(signal.default_severity));
    w.Key("texts");
    w.StartObject();
    for (const auto& [locale, texts] : signal.texts) {
      write_json_key(w, locale);
      w.StartObject();
      w.Key("title");
      write_string(w, texts.title);
      w.Key("explanation");
      write_string(w, texts.explanation);
      w.EndObject();
    }
    w.EndObject();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

// params[name] as a string, if it is one.
std::optional<std::string_view> string_param(simdjson::dom::object params, std::string_view name) {
  std::string_view value;
  if (params[name].get(value) != simdjson::SUCCESS) return std::nullopt;
  return value;
}

}  // namespace

std::string rpc_error_response(const RpcError& error) {
  return error_response(std::nullopt, error);
}

RpcError unsupported_version_error(std::string_view requested) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("supported");
  w.StartArray();
  for (McpRevision revision : kAnnounced) write_string(w, to_string(revision));
  w.EndArray();
  w.Key("requested");
  write_string(w, requested);
  w.EndObject();
  return RpcError{kMcpUnsupportedProtocolVersion, "Unsupported protocol version",
                  std::string(buffer.GetString(), buffer.GetSize())};
}

// One request being answered.
struct McpServer::Request {
  simdjson::dom::element message;
  std::optional<simdjson::dom::element> id;  // none for notifications
  std::string_view method;
  simdjson::dom::object params;  // an empty object when the request had none
  McpRevision revision = McpRevision::k20251125;
  bool stateless = false;  // served per 2026-07-28
};

McpServer::McpServer(const Analyzer& analyzer, McpServerOptions options,
                     std::shared_ptr<const McpCatalog> catalog)
    : analyzer_(analyzer), options_(std::move(options)), catalog_(std::move(catalog)) {
  tools_ = std::make_unique<McpTools>(analyzer_, *catalog_);
  glossary_json_ = build_glossary_json(analyzer_);
}

McpServer::~McpServer() = default;

Result<std::unique_ptr<McpServer>> McpServer::create(const Analyzer& analyzer,
                                                     McpServerOptions options) {
  Result<std::shared_ptr<const McpCatalog>> catalog = McpCatalog::load();
  if (!catalog.ok()) return catalog.status();
  try {
    return std::unique_ptr<McpServer>(
        new McpServer(analyzer, std::move(options), std::move(catalog).value()));
  } catch (const std::exception& e) {
    return Status::internal(std::string("cannot build the MCP server: ") + e.what());
  }
}

std::optional<std::string> McpServer::handle(std::string_view message, McpSession& session,
                                             McpContext& context) const {
  try {
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (parser.parse(message.data(), message.size()).get(root) != simdjson::SUCCESS) {
      return error_response(std::nullopt, {kJsonRpcParseError, "Parse error: not valid JSON"});
    }
    simdjson::dom::array batch;
    if (root.get(batch) != simdjson::SUCCESS) {
      Request request;
      request.message = root;
      return handle_one(request, session, context);
    }
    if (!session.revision || !allows_batches(*session.revision)) {
      return error_response(std::nullopt,
                            {kJsonRpcInvalidRequest,
                             "Invalid Request: JSON-RPC batches exist only in protocol revision "
                             "2025-03-26"});
    }
    if (batch.size() == 0) {
      return error_response(std::nullopt, {kJsonRpcInvalidRequest, "Invalid Request: empty batch"});
    }
    if (batch.size() > kMaxMcpBatchMessages) {
      return error_response(std::nullopt, {kJsonRpcInvalidRequest,
                                           "Invalid Request: a batch may hold at most " +
                                               std::to_string(kMaxMcpBatchMessages) + " messages"});
    }
    std::string out;
    for (simdjson::dom::element element : batch) {
      Request request;
      request.message = element;
      std::optional<std::string> reply = handle_one(request, session, context);
      if (!reply) continue;
      out += out.empty() ? "[" : ",";
      out += *reply;
    }
    if (out.empty()) return std::nullopt;
    out += "]";
    return out;
  } catch (const std::exception& e) {
    return error_response(std::nullopt,
                          {kJsonRpcInternalError, std::string("Internal error: ") + e.what()});
  }
}

std::optional<std::string> McpServer::handle_one(Request& request, McpSession& session,
                                                 McpContext& context) const {
  simdjson::dom::object message;
  if (request.message.get(message) != simdjson::SUCCESS) {
    return error_response(std::nullopt,
                          {kJsonRpcInvalidRequest, "Invalid Request: not a JSON-RPC object"});
  }
  simdjson::dom::element field;
  const bool has_id = message["id"].get(field) == simdjson::SUCCESS;
  if (has_id) {
    if (field.is_string() || field.is_int64() || field.is_uint64()) {
      request.id = field;
    } else {
      return error_response(std::nullopt, {kJsonRpcInvalidRequest,
                                           "Invalid Request: id must be a string or an integer"});
    }
  }
  std::string_view version;
  if (message["jsonrpc"].get(version) != simdjson::SUCCESS || version != "2.0") {
    return error_response(request.id,
                          {kJsonRpcInvalidRequest, "Invalid Request: jsonrpc must be \"2.0\""});
  }
  if (message["method"].get(field) != simdjson::SUCCESS) {
    // A response to a request of ours; this server sends none, so there is
    // nothing to match it to.
    if (message["result"].error() == simdjson::SUCCESS ||
        message["error"].error() == simdjson::SUCCESS) {
      return std::nullopt;
    }
    return error_response(request.id, {kJsonRpcInvalidRequest, "Invalid Request: no method"});
  }
  if (field.get(request.method) != simdjson::SUCCESS) {
    return error_response(request.id,
                          {kJsonRpcInvalidRequest, "Invalid Request: method must be a string"});
  }

  if (!request.id) {  // a notification: nothing is ever answered
    if (request.method == "notifications/initialized" && session.revision) {
      session.initialized = true;
    }
    return std::nullopt;
  }

  static const simdjson::padded_string kEmptyObject("{}", 2);
  thread_local simdjson::dom::parser empty_parser;
  if (message["params"].get(field) != simdjson::SUCCESS || field.is_null()) {
    if (empty_parser.parse(kEmptyObject).get(request.params) != simdjson::SUCCESS) {
      return error_response(request.id, {kJsonRpcInternalError, "Internal error"});
    }
  } else if (field.get(request.params) != simdjson::SUCCESS) {
    return error_response(request.id,
                          {kJsonRpcInvalidParams, "Invalid params: params must be an object"});
  }

  // Which era serves the request (see the header): the stateless _meta
  // wins; then `initialize`; then the session's revision.
  simdjson::dom::object meta;
  simdjson::dom::element meta_version;
  const bool has_meta = request.params["_meta"].get(meta) == simdjson::SUCCESS &&
                        meta[kMetaProtocolVersion].get(meta_version) == simdjson::SUCCESS;
  if (request.method == "initialize") {
    request.stateless = false;
  } else if (has_meta) {
    std::string_view requested;
    if (meta_version.get(requested) != simdjson::SUCCESS) {
      return error_response(
          request.id,
          {kJsonRpcInvalidParams, "Invalid params: _meta[\"" + std::string(kMetaProtocolVersion) +
                                      "\"] must be a string"});
    }
    if (requested == to_string(kMcpStatelessRevision)) {
      simdjson::dom::object capabilities;
      if (meta[kMetaClientCapabilities].get(capabilities) != simdjson::SUCCESS) {
        return error_response(request.id,
                              {kJsonRpcInvalidParams, "Invalid params: _meta[\"" +
                                                          std::string(kMetaClientCapabilities) +
                                                          "\"] is required and must be an object"});
      }
      request.stateless = true;
      request.revision = kMcpStatelessRevision;
    } else if (session.revision && requested == to_string(*session.revision)) {
      request.revision = *session.revision;
    } else {
      return error_response(request.id, unsupported_version_error(requested));
    }
  } else if (session.revision) {
    request.revision = *session.revision;
  } else if (request.method == "server/discover") {
    request.stateless = true;  // a probe without _meta: answer it all the same
    request.revision = kMcpStatelessRevision;
  } else if (request.method != "ping") {
    return error_response(
        request.id,
        {kJsonRpcInvalidRequest,
         "Invalid Request: no session. Send initialize first, or name the protocol revision in "
         "params._meta[\"" +
             std::string(kMetaProtocolVersion) + "\"]; supported: " + revisions_text()});
  }

  rapidjson::StringBuffer result_buffer;
  JsonWriter w(result_buffer);
  w.StartObject();
  bool cacheable = false;
  if (std::optional<RpcError> error = dispatch(request, session, context, w, &cacheable)) {
    return error_response(request.id, *error);
  }
  if (request.stateless) {
    w.Key("resultType");
    w.String("complete");
    if (cacheable) {
      w.Key("ttlMs");
      w.Int64(options_.cache_ttl_ms);
      w.Key("cacheScope");
      w.String("public");
    }
    w.Key("_meta");
    w.StartObject();
    write_json_key(w, kMetaServerInfo);
    write_server_info(w, true);
    w.EndObject();
  }
  w.EndObject();

  rapidjson::StringBuffer buffer;
  JsonWriter out(buffer);
  out.StartObject();
  out.Key("jsonrpc");
  out.String("2.0");
  out.Key("id");
  write_id(out, request.id);
  out.Key("result");
  out.RawValue(result_buffer.GetString(), result_buffer.GetSize(), rapidjson::kObjectType);
  out.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::optional<RpcError> McpServer::dispatch(const Request& request, McpSession& session,
                                            McpContext& context, JsonWriter& w,
                                            bool* cacheable) const {
  const std::string_view method = request.method;
  if (method == "initialize") return initialize(request, session, w);
  if (method == "ping" && !request.stateless) return std::nullopt;  // {}
  if (method == "server/discover" && request.stateless) {
    *cacheable = true;
    discover(w);
    return std::nullopt;
  }
  if (method == "tools/list" || method == "prompts/list" || method == "resources/list" ||
      method == "resources/templates/list") {
    simdjson::dom::element cursor;
    if (request.params["cursor"].get(cursor) == simdjson::SUCCESS && !cursor.is_null()) {
      return RpcError{kJsonRpcInvalidParams, "Invalid params: unknown cursor"};
    }
    *cacheable = true;
    if (method == "tools/list") {
      tools_->write_list(w, request.revision);
    } else if (method == "prompts/list") {
      list_prompts(request, w);
    } else if (method == "resources/list") {
      list_resources(request, w);
    } else {
      w.Key("resourceTemplates");
      w.StartArray();
      w.EndArray();
    }
    return std::nullopt;
  }
  if (method == "tools/call") {
    const std::optional<std::string_view> name = string_param(request.params, "name");
    if (!name) return RpcError{kJsonRpcInvalidParams, "Invalid params: name must be a string"};
    simdjson::dom::element arguments;
    if (request.params["arguments"].get(arguments) != simdjson::SUCCESS) {
      static const simdjson::padded_string kNull("null", 4);
      thread_local simdjson::dom::parser null_parser;
      if (null_parser.parse(kNull).get(arguments) != simdjson::SUCCESS) {
        return RpcError{kJsonRpcInternalError, "Internal error"};
      }
    }
    return tools_->call(*name, arguments, request.revision, context, w);
  }
  if (method == "prompts/get") return get_prompt(request, context, w);
  if (method == "resources/read") {
    *cacheable = true;
    return read_resource(request, w);
  }
  return RpcError{kJsonRpcMethodNotFound, "Method not found: " + std::string(method)};
}

void McpServer::write_server_info(JsonWriter& w, bool with_title) const {
  w.StartObject();
  w.Key("name");
  write_string(w, options_.name);
  if (with_title) {
    w.Key("title");
    w.String("ScamCheck");
  }
  w.Key("version");
  w.String(SCAMCHECK_VERSION_STRING);
  w.EndObject();
}

std::optional<RpcError> McpServer::initialize(const Request& request, McpSession& session,
                                              JsonWriter& w) const {
  const std::optional<std::string_view> requested = string_param(request.params, "protocolVersion");
  if (!requested) {
    return RpcError{kJsonRpcInvalidParams, "Invalid params: protocolVersion must be a string"};
  }
  // A session revision the client asked for, or the latest one: a client
  // that cannot speak it disconnects (the stateless revision has no
  // handshake, so it is never the answer to one).
  std::optional<McpRevision> revision = parse_mcp_revision(*requested);
  if (!revision || *revision == kMcpStatelessRevision) revision = kMcpLatestSessionRevision;

  session = McpSession{};
  session.revision = revision;
  simdjson::dom::object client;
  if (request.params["clientInfo"].get(client) == simdjson::SUCCESS) {
    session.client_name = string_param(client, "name").value_or("");
    session.client_version = string_param(client, "version").value_or("");
  }

  w.Key("protocolVersion");
  write_string(w, to_string(*revision));
  w.Key("capabilities");
  w.StartObject();
  w.Key("tools");
  w.StartObject();
  w.Key("listChanged");
  w.Bool(false);
  w.EndObject();
  w.Key("prompts");
  w.StartObject();
  w.Key("listChanged");
  w.Bool(false);
  w.EndObject();
  w.Key("resources");
  w.StartObject();
  w.Key("subscribe");
  w.Bool(false);
  w.Key("listChanged");
  w.Bool(false);
  w.EndObject();
  w.EndObject();
  w.Key("serverInfo");
  write_server_info(w, has_structured_output(*revision));
  w.Key("instructions");
  write_string(w, catalog_->text("en", "server.instructions"));
  return std::nullopt;
}

void McpServer::discover(JsonWriter& w) const {
  w.Key("supportedVersions");
  w.StartArray();
  for (McpRevision revision : kAnnounced) write_string(w, to_string(revision));
  w.EndArray();
  w.Key("capabilities");
  w.StartObject();
  for (const char* capability : {"tools", "prompts", "resources"}) {
    w.Key(capability);
    w.StartObject();
    w.EndObject();
  }
  w.EndObject();
  w.Key("serverInfo");
  write_server_info(w, true);
  w.Key("instructions");
  write_string(w, catalog_->text("en", "server.instructions"));
}

void McpServer::list_prompts(const Request& request, JsonWriter& w) const {
  const std::string prefix = "prompt." + std::string(kPromptName);
  w.Key("prompts");
  w.StartArray();
  w.StartObject();
  w.Key("name");
  write_string(w, kPromptName);
  if (has_structured_output(request.revision)) {
    w.Key("title");
    write_string(w, catalog_->text("en", prefix + ".title"));
  }
  w.Key("description");
  write_string(w, catalog_->text("en", prefix + ".description"));
  w.Key("arguments");
  w.StartArray();
  for (const auto& [name, key, required] :
       {std::tuple<const char*, const char*, bool>{"report_id", "arg.report_id", true},
        std::tuple<const char*, const char*, bool>{"locale", "arg.prompt_locale", false}}) {
    w.StartObject();
    w.Key("name");
    w.String(name);
    w.Key("description");
    write_string(w, catalog_->text("en", key));
    w.Key("required");
    w.Bool(required);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  w.EndArray();
}

std::optional<RpcError> McpServer::get_prompt(const Request& request, McpContext& context,
                                              JsonWriter& w) const {
  const std::optional<std::string_view> name = string_param(request.params, "name");
  if (!name || *name != kPromptName) {
    return RpcError{kJsonRpcInvalidParams,
                    "Invalid params: unknown prompt " + std::string(name.value_or(""))};
  }
  simdjson::dom::object arguments;
  std::optional<std::string_view> report_id, locale;
  if (request.params["arguments"].get(arguments) == simdjson::SUCCESS) {
    report_id = string_param(arguments, "report_id");
    locale = string_param(arguments, "locale");
  }
  if (!report_id || report_id->empty()) {
    return RpcError{kJsonRpcInvalidParams, "Invalid params: argument report_id is required"};
  }
  if (!context.has_ability(kAbilityReportsRead)) {
    return RpcError{kJsonRpcInvalidParams,
                    "Invalid params: this token may not read reports (it needs the " +
                        std::string(kAbilityReportsRead) + " ability)"};
  }
  Result<std::optional<std::string>> found = context.find_report(*report_id);
  if (!found.ok()) {
    context.log_failure("prompts/get", found.status());
    return RpcError{kJsonRpcInternalError, "Internal error: the reports cannot be read now"};
  }
  if (!*found) {
    return RpcError{kJsonRpcInvalidParams,
                    "Invalid params: unknown report " + std::string(*report_id)};
  }
  const std::string& report_json = **found;

  // Explained in the asked locale, else the report's own, else the caller's.
  std::string target;
  if (locale && !locale->empty()) {
    target = std::string(*locale);
  } else {
    simdjson::dom::parser parser;
    simdjson::dom::object report;
    std::string_view report_locale;
    if (parser.parse(report_json).get(report) == simdjson::SUCCESS &&
        report["locale"].get(report_locale) == simdjson::SUCCESS) {
      target = std::string(report_locale);
    }
  }
  if (target.empty()) target = context.preferred_locale();
  target = catalog_->resolve(target);

  const std::string prefix = "prompt." + std::string(kPromptName);
  w.Key("description");
  write_string(w, catalog_->text(target, prefix + ".description"));
  w.Key("messages");
  w.StartArray();
  w.StartObject();
  w.Key("role");
  w.String("user");
  w.Key("content");
  w.StartObject();
  w.Key("type");
  w.String("text");
  w.Key("text");
  write_string(w, catalog_->text(target, prefix + ".text",
                                 {{"language", catalog_->text(target, "language_name")},
                                  {"report", report_json}}));
  w.EndObject();
  w.EndObject();
  w.EndArray();
  return std::nullopt;
}

void McpServer::list_resources(const Request& request, JsonWriter& w) const {
  const std::string prefix = "resource." + std::string(kGlossaryName);
  w.Key("resources");
  w.StartArray();
  w.StartObject();
  w.Key("uri");
  write_string(w, kGlossaryUri);
  w.Key("name");
  write_string(w, kGlossaryName);
  if (has_structured_output(request.revision)) {
    w.Key("title");
    write_string(w, catalog_->text("en", prefix + ".title"));
  }
  w.Key("description");
  write_string(w, catalog_->text("en", prefix + ".description"));
  w.Key("mimeType");
  write_string(w, kJsonMime);
  w.Key("size");
  w.Uint64(glossary_json_.size());
  w.EndObject();
  w.EndArray();
}

std::optional<RpcError> McpServer::read_resource(const Request& request, JsonWriter& w) const {
  const std::optional<std::string_view> uri = string_param(request.params, "uri");
  if (!uri) return RpcError{kJsonRpcInvalidParams, "Invalid params: uri must be a string"};
  if (*uri != kGlossaryUri) {
    // Resource not found: -32002 until 2025-11-25, invalid params after.
    rapidjson::StringBuffer buffer;
    JsonWriter data(buffer);
    data.StartObject();
    data.Key("uri");
    write_string(data, *uri);
    data.EndObject();
    return RpcError{request.stateless ? kJsonRpcInvalidParams : kMcpResourceNotFound,
                    "Resource not found", std::string(buffer.GetString(), buffer.GetSize())};
  }
  w.Key("contents");
  w.StartArray();
  w.StartObject();
  w.Key("uri");
  write_string(w, kGlossaryUri);
  w.Key("mimeType");
  write_string(w, kJsonMime);
  w.Key("text");
  write_string(w, glossary_json_);
  w.EndObject();
  w.EndArray();
  return std::nullopt;
}

McpMessageInfo McpServer::inspect(std::string_view message) {
  McpMessageInfo info;
  try {
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (parser.parse(message.data(), message.size()).get(root) != simdjson::SUCCESS) return info;
    std::vector<simdjson::dom::element> messages;
    simdjson::dom::array batch;
    if (root.get(batch) == simdjson::SUCCESS) {
      info.batch = true;
      for (simdjson::dom::element element : batch) messages.push_back(element);
    } else if (root.is_object()) {
      messages.push_back(root);
    } else {
      return info;
    }
    info.valid = true;
    for (std::size_t i = 0; i < messages.size(); ++i) {
      simdjson::dom::object object;
      if (messages[i].get(object) != simdjson::SUCCESS) continue;
      const bool request = object["id"].error() == simdjson::SUCCESS &&
                           object["method"].error() == simdjson::SUCCESS;
      info.has_request = info.has_request || request;
      if (i != 0) continue;
      std::string_view text;
      if (object["method"].get(text) == simdjson::SUCCESS) info.method = std::string(text);
      simdjson::dom::object params;
      if (object["params"].get(params) != simdjson::SUCCESS) continue;
      if (std::optional<std::string_view> name = string_param(params, "name")) {
        info.name = std::string(*name);
      } else if (std::optional<std::string_view> uri = string_param(params, "uri")) {
        info.name = std::string(*uri);
      }
      simdjson::dom::object meta;
      if (params["_meta"].get(meta) == simdjson::SUCCESS &&
          meta[kMetaProtocolVersion].get(text) == simdjson::SUCCESS) {
        info.protocol_version = std::string(text);
      }
    }
  } catch (const std::exception&) {
    return McpMessageInfo{};
  }
  return info;
}

}  // namespace scamcheck::adapters
