#include "http/openapi.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string_view>
#include <vector>

#include "api/handlers_check_api.h"
#include "common/report_json.h"
#include "embedded_files.h"
#include "scamcheck/version.h"
#include "server_limits.h"

namespace scamcheck::server {
namespace {

// The components (JSON Schema 2020-12, which OpenAPI 3.1 uses unchanged,
// and headers) of each API, written in this order. The Report's schema
// mirrors adapters/common/report_json.h, field for field.
constexpr std::string_view kComponentFiles[] = {"data/openapi/scan_api.json",
                                                "data/openapi/check_api.json"};

// An embedded components file. It is part of the build, so a missing or
// malformed one is a bug: the process stops with its name.
rapidjson::Document load_components(std::string_view path) {
  rapidjson::Document doc;
  for (const EmbeddedFile& file : embedded_files()) {
    if (file.path != path) continue;
    doc.Parse(file.content.data(), file.content.size());
    if (!doc.HasParseError() && doc.IsObject() && doc.HasMember("schemas") &&
        doc["schemas"].IsObject() && doc.HasMember("headers") && doc["headers"].IsObject()) {
      return doc;
    }
    break;
  }
  std::fprintf(stderr, "scamcheckd: %.*s is missing or malformed\n", static_cast<int>(path.size()),
               path.data());
  std::abort();
}

using Writer = adapters::JsonWriter;

void key(Writer& w, std::string_view k) { adapters::write_json_key(w, k); }
void str(Writer& w, std::string_view v) { adapters::write_json_string(w, v); }
// Writes the members of `group` ("schemas" or "headers") of every file.
void write_components(Writer& w, const std::vector<rapidjson::Document>& files, const char* group) {
  for (const rapidjson::Document& file : files) {
    for (const auto& member : file[group].GetObject()) {
      key(w, std::string_view(member.name.GetString(), member.name.GetStringLength()));
      member.value.Accept(w);
    }
  }
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

  std::vector<rapidjson::Document> components;
  for (std::string_view path : kComponentFiles) components.push_back(load_components(path));
  key(w, "components");
  w.StartObject();
  key(w, "schemas");
  w.StartObject();
  write_components(w, components, "schemas");
  w.EndObject();
  key(w, "headers");
  w.StartObject();
  write_components(w, components, "headers");
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
