#include "http/openapi.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "api/handlers_check_api.h"
#include "common/report_json.h"
#include "scamcheck/version.h"
#include "server_limits.h"

namespace scamcheck::server {
namespace {

// JSON Schema 2020-12 of each component (OpenAPI 3.1 uses it unchanged).
// The Report mirrors adapters/common/report_json.h, field for field.
struct Component {
  const char* name;
  const char* schema;
};

constexpr Component kSchemas[] = {
    {"ScanRequest", R"({
  "type": "object", "required": ["content"],
  "properties": {
    "kind": {"type": "string", "enum": ["text", "email", "url"], "default": "text",
             "description": "text: SMS, chat, any plain text; email: a raw RFC 822 message; url: one URL. Images and documents are uploaded as multipart/form-data."},
    "content": {"type": "string", "description": "The content; at most 65,536 bytes after decoding."},
    "content_encoding": {"type": "string", "enum": ["utf-8", "base64"], "default": "utf-8",
                         "description": "base64 sends raw bytes, e.g. an 8-bit email."},
    "locale": {"type": "string", "description": "BCP 47 tag of the answer's language (de-AT falls back to de, unknown tags to en). Default: Accept-Language, then en."},
    "hints": {"type": "object", "properties": {"source_app": {"type": "string"}}}
  }})"},
    {"ScanUpload", R"({
  "type": "object", "required": ["file"],
  "description": "An image or document upload (multipart/form-data; bodies at most 10 MiB plus 64 KiB). The first field of each name counts; text fields are UTF-8 of at most 256 bytes.",
  "properties": {
    "file": {"type": "string", "format": "binary", "contentMediaType": "application/octet-stream",
             "description": "The file's bytes, at most 10,485,760: an image (PNG, JPEG, WebP, GIF, TIFF, BMP) or a document (PDF, DOCX). Its filename and Content-Type are informative only. Never stored."},
    "kind": {"type": "string", "enum": ["image", "document"],
             "description": "Default: from the file's magic bytes. Text, emails and URLs are sent as application/json."},
    "locale": {"type": "string", "description": "BCP 47 tag of the answer's language. Default: Accept-Language, then en."},
    "source_app": {"type": "string", "description": "The app the file comes from (informative)."}
  }})"},
    {"Report", R"({
  "type": "object",
  "required": ["id", "kind", "locale", "verdict", "risk_score", "confidence", "summary_plain",
               "actions", "signals", "urls", "model_used", "input_tokens", "output_tokens",
               "created_at"],
  "properties": {
    "id": {"type": "string", "pattern": "^rpt_[0-9A-HJKMNP-TV-Z]{26}$"},
    "kind": {"type": "string", "enum": ["text", "email", "url", "image", "document"]},
    "locale": {"type": "string"},
    "verdict": {"type": "string", "enum": ["safe", "suspicious", "danger"]},
    "risk_score": {"type": "integer", "minimum": 0, "maximum": 100},
    "confidence": {"type": "integer", "minimum": 0, "maximum": 100},
    "summary_plain": {"type": "string"},
    "actions": {"type": "array", "minItems": 1, "maxItems": 4,
                "items": {"type": "object", "required": ["icon", "text"],
                          "properties": {"icon": {"type": "string"}, "text": {"type": "string"}}}},
    "signals": {"type": "array", "items": {"$ref": "#/components/schemas/Signal"}},
    "urls": {"type": "array", "items": {"$ref": "#/components/schemas/UrlInfo"}},
    "model_used": {"type": "string"},
    "input_tokens": {"type": "integer", "minimum": 0},
    "output_tokens": {"type": "integer", "minimum": 0},
    "created_at": {"type": "string", "format": "date-time"},
    "extracted_text": {"type": "string"}
  }})"},
    {"Signal", R"({
  "type": "object",
  "required": ["key", "severity", "evidence", "location", "span", "explanation"],
  "properties": {
    "key": {"type": "string", "pattern": "^[a-z0-9_]+$"},
    "severity": {"type": "string", "enum": ["low", "medium", "high"]},
    "evidence": {"type": "string"},
    "location": {"type": "string"},
    "span": {"type": "object", "required": ["start", "end"],
             "properties": {"start": {"type": "integer", "minimum": 0},
                            "end": {"type": "integer", "minimum": 0}}},
    "explanation": {"type": "string"}
  }})"},
    {"UrlInfo", R"({
  "type": "object", "required": ["url", "host", "registrable_domain", "reputation", "cached"],
  "properties": {
    "url": {"type": "string"},
    "host": {"type": "string"},
    "registrable_domain": {"type": "string"},
    "reputation": {"type": "string", "enum": ["unknown", "clean", "malicious"],
                   "description": "malicious when the URL or its host (or a parent domain of it) is in a feed of --feeds-dir, or a configured reputation service (Safe Browsing, URLhaus) lists it; clean when a service checked it and does not. Answers of the services are reused for 24 hours."},
    "cached": {"type": "boolean", "description": "true when this report answers a repeated identical URL scan (kind url, same trimmed content, same user) from the 24-hour cache; such a scan is not counted. false on every counted scan."}
  }})"},
    {"ReportList", R"({
  "type": "object", "required": ["data", "next_cursor"],
  "properties": {
    "data": {"type": "array", "items": {"$ref": "#/components/schemas/Report"}},
    "next_cursor": {"type": ["string", "null"], "description": "Pass as `cursor` for the next page; null on the last page."}
  }})"},
    {"Health", R"({
  "type": "object", "required": ["status", "version", "checks"],
  "properties": {
    "status": {"type": "string", "enum": ["ok", "degraded"]},
    "version": {"type": "string"},
    "checks": {"type": "object", "required": ["database", "ocr", "ai_provider"],
               "properties": {
                 "database": {"type": "string", "enum": ["ok", "unavailable"]},
                 "ocr": {"type": "string", "enum": ["ok", "unavailable"]},
                 "ai_provider": {"type": "string", "enum": ["ok", "unavailable", "disabled"]}}}
  }})"},
    {"Problem", R"({
  "type": "object", "required": ["type", "title", "status", "detail", "instance"],
  "description": "RFC 7807 problem document (application/problem+json).",
  "properties": {
    "type": {"type": "string", "enum": ["/problems/bad-request", "/problems/unauthorized",
             "/problems/forbidden", "/problems/not-found", "/problems/method-not-allowed",
             "/problems/payload-too-large", "/problems/unsupported-media-type",
             "/problems/validation-error", "/problems/rate-limited",
             "/problems/request-header-fields-too-large", "/problems/internal-error",
             "/problems/unavailable"]},
    "title": {"type": "string"},
    "status": {"type": "integer"},
    "detail": {"type": "string"},
    "instance": {"type": "string", "description": "The request id (X-Request-ID)."}
  }})"},
    {"ValidationProblem", R"({
  "allOf": [{"$ref": "#/components/schemas/Problem"}],
  "type": "object", "required": ["errors"],
  "properties": {
    "errors": {"type": "object", "description": "Messages per request field.",
               "additionalProperties": {"type": "array", "items": {"type": "string"}}}
  }})"},
    {"RateLimitProblem", R"({
  "allOf": [{"$ref": "#/components/schemas/Problem"}],
  "type": "object", "required": ["message", "retry_after"],
  "properties": {
    "message": {"type": "string"},
    "retry_after": {"type": "integer", "minimum": 1, "description": "Seconds until the allowance renews (00:00 UTC)."}
  }})"},
    {"JsonRpcMessage", R"({
  "description": "An MCP message (JSON-RPC 2.0): a request, a notification or a response to the server; a JSON array of them only in protocol revision 2025-03-26.",
  "oneOf": [
    {"type": "object", "required": ["jsonrpc"],
     "properties": {"jsonrpc": {"const": "2.0"}, "id": {"type": ["string", "integer"]},
                    "method": {"type": "string"}, "params": {"type": "object"}}},
    {"type": "array", "minItems": 1, "items": {"type": "object"}}
  ]})"},
    {"JsonRpcResponse", R"({
  "description": "The JSON-RPC 2.0 answer: an object with `result` or `error`, or (2025-03-26 batches) an array of them.",
  "oneOf": [
    {"$ref": "#/components/schemas/JsonRpcAnswer"},
    {"type": "array", "minItems": 1, "items": {"$ref": "#/components/schemas/JsonRpcAnswer"}}
  ]})"},
    {"JsonRpcAnswer", R"({
  "type": "object", "required": ["jsonrpc", "id"],
  "properties": {
    "jsonrpc": {"const": "2.0"},
    "id": {"type": ["string", "integer", "null"]},
    "result": {"type": "object"},
    "error": {"type": "object", "required": ["code", "message"],
              "properties": {"code": {"type": "integer"}, "message": {"type": "string"},
                             "data": {}}}
  },
  "oneOf": [{"required": ["result"]}, {"required": ["error"]}]})"},
    {"OpenApiDocument", R"({
  "type": "object", "required": ["openapi", "info", "paths"],
  "properties": {"openapi": {"type": "string"}}})"},
};

constexpr Component kHeaders[] = {
    {"X-Request-ID",
     R"({"description": "The client's X-Request-ID when it is 1-128 printable ASCII characters, otherwise a new ULID.", "schema": {"type": "string"}})"},
    {"X-RateLimit-Remaining",
     R"({"description": "Scan API: scans left today after this request; -1 when the plan is unlimited. Check API: requests left in the per-minute window that applied to this request.", "schema": {"type": "integer"}})"},
    {"Retry-After",
     R"({"description": "Seconds until the request would be allowed again (the daily allowance renews at 00:00 UTC).", "schema": {"type": "integer"}})"},
    {"WWW-Authenticate", R"({"description": "Bearer", "schema": {"type": "string"}})"},
    {"Allow", R"({"description": "The methods this path accepts.", "schema": {"type": "string"}})"},
};

using Writer = adapters::JsonWriter;

void key(Writer& w, std::string_view k) { adapters::write_json_key(w, k); }
void str(Writer& w, std::string_view v) { adapters::write_json_string(w, v); }
void raw(Writer& w, const char* json) {
  w.RawValue(json, std::strlen(json), rapidjson::kObjectType);
}
void ref(Writer& w, std::string_view kind, std::string_view name) {
  w.StartObject();
  key(w, "$ref");
  str(w, "#/components/" + std::string(kind) + "/" + std::string(name));
  w.EndObject();
}

void write_param(Writer& w, const ParamSpec& p) {
  w.StartObject();
  key(w, "name");
  str(w, p.name);
  key(w, "in");
  str(w, p.in == ParamIn::kPath ? "path" : "query");
  key(w, "required");
  w.Bool(p.required || p.in == ParamIn::kPath);
  if (!p.description.empty()) {
    key(w, "description");
    str(w, p.description);
  }
  key(w, "schema");
  w.StartObject();
  key(w, "type");
  str(w, p.type == ParamType::kInteger ? "integer" : "string");
  if (p.minimum) {
    key(w, "minimum");
    w.Int64(*p.minimum);
  }
  if (p.maximum) {
    key(w, "maximum");
    w.Int64(*p.maximum);
  }
  if (p.default_integer) {
    key(w, "default");
    w.Int64(*p.default_integer);
  }
  if (!p.enum_values.empty()) {
    key(w, "enum");
    w.StartArray();
    for (const auto& v : p.enum_values) str(w, v);
    w.EndArray();
  }
  if (!p.pattern.empty()) {
    key(w, "pattern");
    str(w, p.pattern);
  }
  w.EndObject();
  w.EndObject();
}

void write_response(Writer& w, const RouteSpec& route, const ResponseSpec& r) {
  key(w, std::to_string(r.status));
  w.StartObject();
  key(w, "description");
  str(w, r.description);
  if (!r.headers.empty()) {
    key(w, "headers");
    w.StartObject();
    for (const auto& h : r.headers) {
      key(w, h);
      ref(w, "headers", h);
    }
    w.EndObject();
  }
  if (!r.content_type.empty()) {
    key(w, "content");
    w.StartObject();
    key(w, r.content_type);
    w.StartObject();
    key(w, "schema");
    ref(w, "schemas", r.schema);
    w.EndObject();
    for (const auto& [status, m] : route.more_content) {
      if (status != r.status) continue;
      key(w, m.content_type);
      w.StartObject();
      key(w, "schema");
      ref(w, "schemas", m.schema);
      w.EndObject();
    }
    w.EndObject();
  }
  w.EndObject();
}

void write_operation(Writer& w, const RouteSpec& route) {
  w.StartObject();
  key(w, "operationId");
  str(w, route.operation_id);
  key(w, "summary");
  str(w, route.summary);
  std::string description = route.description;
  if (route.ability) {
    if (!description.empty()) description += "\n\n";
    description += route.ability->empty() ? std::string("Requires a bearer token (any ability).")
                                          : "Requires a bearer token with the ability `" +
                                                *route.ability + "` (or `*`).";
  }
  if (!description.empty()) {
    key(w, "description");
    str(w, description);
  }
  key(w, "tags");
  w.StartArray();
  str(w, route.tag);
  w.EndArray();
  if (route.check_api) {
    write_check_api_security(w, *route.check_api);
  } else if (route.ability) {
    if (!route.ability->empty()) {
      key(w, "x-required-ability");
      str(w, *route.ability);
    }
    key(w, "security");
    w.StartArray();
    w.StartObject();
    key(w, "bearerAuth");
    w.StartArray();
    w.EndArray();
    w.EndObject();
    w.EndArray();
  } else {
    key(w, "security");
    w.StartArray();
    w.EndArray();
  }
  if (!route.params.empty()) {
    key(w, "parameters");
    w.StartArray();
    for (const auto& p : route.params) write_param(w, p);
    w.EndArray();
  }
  if (route.body) {
    key(w, "requestBody");
    w.StartObject();
    key(w, "required");
    w.Bool(true);
    key(w, "description");
    str(w, route.body->description);
    key(w, "content");
    w.StartObject();
    for (const auto& m : route.body->media) {
      key(w, m.content_type);
      w.StartObject();
      key(w, "schema");
      ref(w, "schemas", m.schema);
      w.EndObject();
    }
    w.EndObject();
    w.EndObject();
  }
  key(w, "responses");
  w.StartObject();
  std::map<int, const ResponseSpec*> responses;
  const std::vector<ResponseSpec> implied = implied_responses(route);
  for (const auto& r : route.responses) responses[r.status] = &r;
  for (const auto& r : implied) responses.emplace(r.status, &r);
  for (const auto& [status, r] : responses) write_response(w, route, *r);
  w.EndObject();
  w.EndObject();
}

}  // namespace

std::string generate_openapi(const std::vector<RouteSpec>& routes) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  key(w, "openapi");
  str(w, "3.1.0");
  key(w, "info");
  w.StartObject();
  key(w, "title");
  str(w, "ScamCheck API");
  key(w, "version");
  str(w, SCAMCHECK_VERSION_STRING);
  key(w, "description");
  str(w,
      "The APIs of scamcheckd. The scan API (/api/v1) analyses messages, emails and URLs for "
      "scams in one request; every signal quotes its evidence; its errors are RFC 7807 problem "
      "documents. The check API (/api, unversioned) analyses asynchronously (create a check, "
      "poll its status, fetch its details) and offers the user, plans, usage and "
      "self-assessment questionnaires; its errors are {message}, 422 {message, errors} and "
      "429 {message, retry_after}, and its responses carry X-RateLimit-Limit, "
      "X-RateLimit-Remaining and X-RateLimit-Reset. Every response carries X-Request-ID. "
      "Generated from the server's route table.");
  key(w, "license");
  w.StartObject();
  key(w, "name");
  str(w, "MIT");
  key(w, "identifier");
  str(w, "MIT");
  w.EndObject();
  w.EndObject();

  key(w, "paths");
  w.StartObject();
  // Routes of one path are grouped in table order.
  std::vector<std::string> paths;
  for (const auto& r : routes) {
    if (std::find(paths.begin(), paths.end(), r.path) == paths.end()) paths.push_back(r.path);
  }
  for (const auto& path : paths) {
    key(w, path);
    w.StartObject();
    for (const auto& r : routes) {
      if (r.path != path) continue;
      std::string method = r.method;
      for (char& c : method) c = static_cast<char>(c - 'A' + 'a');
      key(w, method);
      write_operation(w, r);
    }
    w.EndObject();
  }
  w.EndObject();

  key(w, "components");
  w.StartObject();
  key(w, "schemas");
  w.StartObject();
  for (const auto& c : kSchemas) {
    key(w, c.name);
    raw(w, c.schema);
  }
  for (const auto& c : check_api_schemas()) {
    key(w, c.name);
    raw(w, c.json);
  }
  w.EndObject();
  key(w, "headers");
  w.StartObject();
  for (const auto& c : kHeaders) {
    key(w, c.name);
    raw(w, c.schema);
  }
  for (const auto& c : check_api_headers()) {
    key(w, c.name);
    raw(w, c.json);
  }
  w.EndObject();
  key(w, "securitySchemes");
  w.StartObject();
  key(w, "bearerAuth");
  w.StartObject();
  key(w, "type");
  str(w, "http");
  key(w, "scheme");
  str(w, "bearer");
  key(w, "description");
  str(w, "An API token: \"sck_\" + 40 base62 characters, created with `scamcheckd token create`.");
  w.EndObject();
  w.EndObject();
  w.EndObject();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace scamcheck::server
