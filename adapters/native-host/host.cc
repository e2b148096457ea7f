#include "host.h"

#include <optional>
#include <utility>

#include "common/base64.h"
#include "common/report_json.h"

namespace scamcheck::native_host {
namespace {

// Locale used when a request names none: the browser extension always
// sends one (its UI language), other callers may not.
constexpr std::string_view kDefaultLocale = "en";

// Longest request id echoed back, in bytes of JSON: an id is a handle, and a
// huge one must not push the reply over the browsers' limit.
constexpr std::size_t kMaxIdBytes = 4096;

// The Report JSON of the shared mapping, with `risk_text` and, when
// trimmed, `truncated` appended as the object's last members.
std::string report_object(const Report& report, bool truncated) {
  std::string json = adapters::report_to_json(report);
  json.pop_back();  // the object's closing '}'
  rapidjson::StringBuffer extra;
  adapters::JsonWriter writer(extra);
  writer.StartObject();  // only to make the writer accept keys; its braces are dropped
  adapters::write_json_key(writer, "risk_text");
  adapters::write_json_string(writer, report.risk_text);
  if (truncated) {
    adapters::write_json_key(writer, "truncated");
    writer.Bool(true);
  }
  writer.EndObject();
  std::string_view members(extra.GetString(), extra.GetSize());
  members.remove_prefix(1);  // '{'
  json += ',';
  json.append(members);  // ends with the '}' that closes the report
  return json;
}

std::string wrap_report(std::string_view id_json, const Report& report, bool truncated) {
  std::string reply = "{\"id\":";
  reply.append(id_json);
  reply += ",\"report\":";
  reply += report_object(report, truncated);
  reply += '}';
  return reply;
}

// Bytes one element adds to the Report JSON (with its separating comma).
template <typename T>
std::size_t element_cost(std::vector<T> Report::*member, const T& element, std::size_t empty_size) {
  Report probe;
  (probe.*member).push_back(element);
  return adapters::report_to_json(probe).size() - empty_size + 1;
}

std::string minified(const simdjson::dom::element& element) { return simdjson::minify(element); }

}  // namespace

std::string error_reply(std::string_view id_json, StatusCode code, std::string_view message) {
  rapidjson::StringBuffer buffer;
  adapters::JsonWriter writer(buffer);
  writer.StartObject();
  adapters::write_json_key(writer, "id");
  writer.RawValue(id_json.data(), id_json.size(), rapidjson::kNullType);
  adapters::write_json_key(writer, "error");
  writer.StartObject();
  adapters::write_json_key(writer, "code");
  adapters::write_json_string(writer, to_string(code));
  adapters::write_json_key(writer, "message");
  adapters::write_json_string(writer, message);
  writer.EndObject();
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string report_reply(std::string_view id_json, const Report& report, std::size_t max_reply) {
  std::string reply = wrap_report(id_json, report, /*truncated=*/false);
  if (reply.size() <= max_reply) return reply;

  // Keep verdict, score, summary and actions; add back signals, then URLs,
  // in order while they fit. extracted_text goes only when it alone is too
  // big (a long document's text).
  Report trimmed = report;
  trimmed.signals.clear();
  trimmed.urls.clear();
  std::size_t size = wrap_report(id_json, trimmed, /*truncated=*/true).size();
  if (size > max_reply && trimmed.extracted_text) {
    trimmed.extracted_text.reset();
    size = wrap_report(id_json, trimmed, /*truncated=*/true).size();
  }
  const std::size_t empty_size = adapters::report_to_json(Report{}).size();
  for (const Signal& signal : report.signals) {
    const std::size_t cost = element_cost(&Report::signals, signal, empty_size);
    if (size + cost > max_reply) break;
    trimmed.signals.push_back(signal);
    size += cost;
  }
  for (const UrlInfo& url : report.urls) {
    const std::size_t cost = element_cost(&Report::urls, url, empty_size);
    if (size + cost > max_reply) break;
    trimmed.urls.push_back(url);
    size += cost;
  }
  reply = wrap_report(id_json, trimmed, /*truncated=*/true);
  // The costs above are exact; this only guards against a mistake in them.
  while (reply.size() > max_reply && (!trimmed.urls.empty() || !trimmed.signals.empty())) {
    if (!trimmed.urls.empty()) {
      trimmed.urls.pop_back();
    } else {
      trimmed.signals.pop_back();
    }
    reply = wrap_report(id_json, trimmed, /*truncated=*/true);
  }
  if (reply.size() > max_reply) {
    return error_reply(id_json, StatusCode::kResourceExhausted,
                       "the report does not fit in a native message even when trimmed");
  }
  return reply;
}

std::string RequestHandler::handle(std::string_view frame) {
  if (frame.empty()) {
    return error_reply("null", StatusCode::kInvalidArgument, "empty message (a length of 0)");
  }
  simdjson::dom::element request;
  if (auto error = parser_.parse(frame.data(), frame.size()).get(request)) {
    if (error == simdjson::UTF8_ERROR) {
      return error_reply("null", StatusCode::kInvalidArgument, "the message is not valid UTF-8");
    }
    return error_reply(
        "null", StatusCode::kInvalidArgument,
        std::string("the message is not valid JSON: ") + simdjson::error_message(error));
  }
  simdjson::dom::object object;
  if (request.get(object)) {
    return error_reply("null", StatusCode::kInvalidArgument,
                       "the message must be a JSON object {id, content, kind, locale}");
  }
  std::string id_json = "null";
  if (simdjson::dom::element id; !object["id"].get(id)) id_json = minified(id);
  if (id_json.size() > kMaxIdBytes) {
    return error_reply("null", StatusCode::kInvalidArgument,
                       "id is longer than " + std::to_string(kMaxIdBytes) + " bytes of JSON");
  }

  auto string_field = [&](const char* name, std::string_view* out) -> std::optional<std::string> {
    simdjson::dom::element value;
    if (object[name].get(value)) return std::nullopt;  // absent: keep the default
    if (value.is_null()) return std::nullopt;
    if (value.get(*out)) return std::string(name) + " must be a string";
    return std::nullopt;
  };
  std::string_view content;
  std::string_view kind_name = "text";
  std::string_view locale = kDefaultLocale;
  std::string_view encoding;
  bool has_content = false;
  if (simdjson::dom::element value; !object["content"].get(value) && !value.is_null()) {
    has_content = true;
  }
  for (auto [name, out] :
       {std::pair{"content", &content}, std::pair{"kind", &kind_name}, std::pair{"locale", &locale},
        std::pair{"content_encoding", &encoding}}) {
    if (auto problem = string_field(name, out)) {
      return error_reply(id_json, StatusCode::kInvalidArgument, *problem);
    }
  }
  if (!has_content) {
    return error_reply(id_json, StatusCode::kInvalidArgument, "content is missing");
  }
  const std::optional<Kind> kind = parse_kind(kind_name);
  if (!kind) {
    return error_reply(
        id_json, StatusCode::kInvalidArgument,
        "unknown kind \"" + std::string(kind_name) + "\" (text, email, url, image or document)");
  }
  std::string decoded;
  if (encoding == "base64") {
    if (!adapters::decode_base64(content, &decoded)) {
      return error_reply(id_json, StatusCode::kInvalidArgument, "content is not valid base64");
    }
    content = decoded;
  } else if (!encoding.empty() && encoding != "utf-8") {
    return error_reply(id_json, StatusCode::kInvalidArgument,
                       "content_encoding must be \"base64\" or absent");
  }
  Result<Report> report = analyzer_.analyze(content, *kind, locale);
  if (!report.ok()) {
    return error_reply(id_json, report.status().code(), report.status().message());
  }
  return report_reply(id_json, *report, max_reply_);
}

}  // namespace scamcheck::native_host
