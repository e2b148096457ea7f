#include "common/mcp_tools.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/ascii.h"
#include "common/base64.h"
#include "common/mcp_schema.h"
#include "scamcheck/options.h"

namespace scamcheck::adapters {
namespace {

enum class ToolId { kScanText, kScanUrl, kScanEmail, kScanImage, kScanQr, kScanLinks, kListRecent };

struct ToolDef {
  ToolId id;
  std::string_view name;
  bool list_output;  // structuredContent is {reports: [...]}, not one Report
  bool read_only;
};

// tools/list order (deterministic, as the 2026-07-28 revision asks).
constexpr ToolDef kTools[] = {
    {ToolId::kScanText, "scan_text", false, false},
    {ToolId::kScanUrl, "scan_url", false, false},
    {ToolId::kScanEmail, "scan_email", false, false},
    {ToolId::kScanImage, "scan_image", false, false},
    {ToolId::kScanQr, "scan_qr", true, false},
    {ToolId::kScanLinks, "scan_links", true, false},
    {ToolId::kListRecent, "list_my_recent_reports", true, true},
};

// Media types scan_image and scan_qr accept (CONTRACT §1 "Kinds").
constexpr std::string_view kImageTypes[] = {"image/png", "image/jpeg", "image/webp",
                                            "image/gif", "image/tiff", "image/bmp"};

const ToolDef* find_tool(std::string_view name) {
  for (const ToolDef& tool : kTools) {
    if (tool.name == name) return &tool;
  }
  return nullptr;
}

void write_string(JsonWriter& w, std::string_view text) { write_json_string(w, text); }

std::string join(std::initializer_list<std::string_view> values) {
  std::string out;
  for (std::string_view value : values) {
    if (!out.empty()) out += ", ";
    out += value;
  }
  return out;
}

}  // namespace

// What a tool call produced, before it is written.
struct McpTools::Outcome {
  bool is_error = false;
  std::string text;                 // the readable text block
  bool list = false;                // structuredContent is {reports: [...]}
  std::vector<Report> reports;      // fresh reports
  std::vector<std::string> stored;  // stored Report JSON (list_my_recent_reports)
};

McpTools::Outcome McpTools::error_outcome() {
  McpTools::Outcome outcome;
  outcome.is_error = true;
  return outcome;
}

// A tool's arguments, checked one by one; the first problem is kept as the
// localized error text.
class McpTools::Args {
 public:
  Args(simdjson::dom::object object, const McpCatalog& catalog, const McpContext& context)
      : object_(object), catalog_(catalog) {
    simdjson::dom::element value;
    std::string_view locale;
    if (object_["locale"].get(value) == simdjson::SUCCESS && !value.is_null()) {
      if (value.get(locale) == simdjson::SUCCESS) {
        locale_ = std::string(locale);
      } else {
        fail("error.not_string", {{"name", "locale"}});
      }
    }
    while (!locale_.empty() && (locale_.back() == ' ' || locale_.front() == ' ')) {
      locale_.erase(locale_.back() == ' ' ? locale_.size() - 1 : 0, 1);
    }
    if (locale_.empty()) locale_ = context.preferred_locale();
    if (locale_.empty()) locale_ = "en";
  }

  const std::string& locale() const { return locale_; }
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  // A string argument; nullopt (and an error when `required`) when it is
  // missing, and an error when it is not a string or is empty.
  std::optional<std::string_view> string(std::string_view name, bool required) {
    simdjson::dom::element value;
    if (object_[name].get(value) != simdjson::SUCCESS || value.is_null()) {
      if (required) fail("error.missing_argument", {{"name", std::string(name)}});
      return std::nullopt;
    }
    std::string_view text;
    if (value.get(text) != simdjson::SUCCESS) {
      fail("error.not_string", {{"name", std::string(name)}});
      return std::nullopt;
    }
    if (text.empty()) {
      fail("error.empty_argument", {{"name", std::string(name)}});
      return std::nullopt;
    }
    return text;
  }

  // An integer argument in [min, max], or `fallback` when it is missing.
  std::optional<int> integer(std::string_view name, int min, int max, int fallback) {
    simdjson::dom::element value;
    if (object_[name].get(value) != simdjson::SUCCESS || value.is_null()) return fallback;
    double number = 0;
    if (std::int64_t i; value.get(i) == simdjson::SUCCESS) {
      number = static_cast<double>(i);
    } else if (double d; value.get(d) == simdjson::SUCCESS && std::floor(d) == d) {
      number = d;
    } else {
      number = min - 1.0;
    }
    if (number < min || number > max) {
      fail("error.not_integer", {{"name", std::string(name)},
                                 {"min", std::to_string(min)},
                                 {"max", std::to_string(max)}});
      return std::nullopt;
    }
    return static_cast<int>(number);
  }

  void fail(std::string_view key, const McpTextVars& vars = {}) {
    if (error_.empty()) error_ = catalog_.text(locale_, key, vars);
  }

 private:
  simdjson::dom::object object_;
  const McpCatalog& catalog_;
  std::string locale_;
  std::string error_;
};

void McpTools::write_list(JsonWriter& w, McpRevision revision) const {
  const bool structured = has_structured_output(revision);
  const auto locale_property = [&] {
    w.Key("locale");
    w.StartObject();
    w.Key("type");
    w.String("string");
    w.Key("description");
    write_string(w, catalog_.text("en", "arg.locale"));
    w.EndObject();
  };
  const auto string_property = [&](std::string_view name, std::string_view description_key) {
    write_json_key(w, name);
    w.StartObject();
    w.Key("type");
    w.String("string");
    w.Key("minLength");
    w.Int(1);
    w.Key("description");
    write_string(w, catalog_.text("en", description_key));
    w.EndObject();
  };

  w.Key("tools");
  w.StartArray();
  for (const ToolDef& tool : kTools) {
    const std::string prefix = "tool." + std::string(tool.name);
    const std::string title = catalog_.text("en", prefix + ".title");
    w.StartObject();
    w.Key("name");
    write_string(w, tool.name);
    if (structured) {
      w.Key("title");
      write_string(w, title);
    }
    w.Key("description");
    write_string(w, catalog_.text("en", prefix + ".description"));

    w.Key("inputSchema");
    switch (tool.id) {
      case ToolId::kScanText:
        begin_object_schema(w, {"text"});
        string_property("text", "arg.text");
        break;
      case ToolId::kScanUrl:
        begin_object_schema(w, {"url"});
        string_property("url", "arg.url");
        break;
      case ToolId::kScanEmail:
        begin_object_schema(w, {"raw_email"});
        string_property("raw_email", "arg.raw_email");
        w.Key("content_encoding");
        w.StartObject();
        write_string_enum(w, {"utf-8", "base64"});
        w.Key("default");
        w.String("utf-8");
        w.Key("description");
        write_string(w, catalog_.text("en", "arg.content_encoding"));
        w.EndObject();
        break;
      case ToolId::kScanImage:
      case ToolId::kScanQr:
        begin_object_schema(w, {"image_base64", "mime_type"});
        string_property("image_base64", "arg.image_base64");
        w.Key("mime_type");
        w.StartObject();
        write_string_enum(w, {kImageTypes[0], kImageTypes[1], kImageTypes[2], kImageTypes[3],
                              kImageTypes[4], kImageTypes[5]});
        w.Key("description");
        write_string(w, catalog_.text("en", "arg.mime_type"));
        w.EndObject();
        break;
      case ToolId::kScanLinks:
        begin_object_schema(w, {"text"});
        string_property("text", "arg.links_text");
        break;
      case ToolId::kListRecent:
        begin_object_schema(w, {});
        w.Key("limit");
        w.StartObject();
        write_bounded_integer(w, 1, kMaxRecentReports);
        w.Key("default");
        w.Int(kDefaultRecentReports);
        w.Key("description");
        write_string(w, catalog_.text("en", "arg.limit"));
        w.EndObject();
        break;
    }
    if (tool.id != ToolId::kListRecent) locale_property();
    end_object_schema(w);

    if (structured) {
      w.Key("outputSchema");
      if (tool.list_output) {
        begin_object_schema(w, {"reports"});
        w.Key("reports");
        w.StartObject();
        w.Key("type");
        w.String("array");
        w.Key("items");
        write_report_schema(w);
        w.EndObject();
        end_object_schema(w);
      } else {
        write_report_schema(w);
      }
    }

    w.Key("annotations");
    w.StartObject();
    w.Key("title");
    write_string(w, title);
    w.Key("readOnlyHint");
    w.Bool(tool.read_only);
    if (!tool.read_only) {
      // A scan adds a report; it changes nothing else and reaches no one.
      w.Key("destructiveHint");
      w.Bool(false);
      w.Key("idempotentHint");
      w.Bool(false);
    }
    w.Key("openWorldHint");
    w.Bool(false);
    w.EndObject();
    w.EndObject();
  }
  w.EndArray();
}

std::optional<RpcError> McpTools::call(std::string_view name, simdjson::dom::element arguments,
                                       McpRevision revision, McpContext& context,
                                       JsonWriter& writer) const {
  const ToolDef* tool = find_tool(name);
  if (tool == nullptr) {
    return RpcError{kJsonRpcInvalidParams, "Unknown tool: " + std::string(name)};
  }
  simdjson::dom::object object;
  if (arguments.is_null()) {
    static const simdjson::padded_string kEmpty("{}", 2);
    thread_local simdjson::dom::parser empty_parser;
    if (empty_parser.parse(kEmpty).get(object) != simdjson::SUCCESS) {
      return RpcError{kJsonRpcInternalError, "Internal error"};
    }
  } else if (arguments.get(object) != simdjson::SUCCESS) {
    return RpcError{kJsonRpcInvalidParams, "tools/call arguments must be an object"};
  }

  Args args(object, catalog_, context);
  Outcome outcome;
  if (!args.ok()) {
    outcome.is_error = true;
  } else {
    switch (tool->id) {
      case ToolId::kScanText:
      case ToolId::kScanUrl:
      case ToolId::kScanEmail:
        outcome = scan_one(args, tool->name, context);
        break;
      case ToolId::kScanImage:
      case ToolId::kScanQr:
        outcome = scan_image(args, tool->name, context);
        break;
      case ToolId::kScanLinks:
        outcome = scan_links(args, context);
        break;
      case ToolId::kListRecent:
        outcome = list_recent(args, context);
        break;
    }
  }
  if (outcome.is_error && outcome.text.empty()) outcome.text = args.error();
  write_outcome(outcome, revision, writer);
  return std::nullopt;
}

McpTools::Outcome McpTools::failed(const Status& status, const Args& args, std::string_view tool,
                                   McpContext& context) const {
  Outcome outcome;
  outcome.is_error = true;
  const bool image = tool == "scan_image" || tool == "scan_qr";
  std::string_view key = "error.internal";
  McpTextVars vars;
  switch (status.code()) {
    case StatusCode::kResourceExhausted:
      key = "error.daily_limit";
      break;
    case StatusCode::kInvalidArgument:
      key = image ? "error.invalid_image" : "error.invalid_input";
      break;
    case StatusCode::kOutOfRange:
      key = "error.too_large";
      vars = {{"limit", std::to_string(image ? kMaxFileContentBytes : kMaxContentBytes)}};
      break;
    case StatusCode::kUnimplemented:
      key = "error.not_available";
      break;
    case StatusCode::kDeadlineExceeded:
      key = image ? "error.timeout" : "error.unavailable";
      context.log_failure(tool, status);
      break;
    case StatusCode::kUnavailable:
      key = "error.unavailable";
      context.log_failure(tool, status);
      break;
    default:
      context.log_failure(tool, status);
      break;
  }
  outcome.text = catalog_.text(args.locale(), key, vars);
  return outcome;
}

McpTools::Outcome McpTools::scan_one(Args& args, std::string_view tool, McpContext& context) const {
  if (!context.has_ability(kAbilityScanCreate)) {
    args.fail("error.forbidden", {{"ability", std::string(kAbilityScanCreate)}});
    return error_outcome();
  }
  Kind kind = Kind::kText;
  std::string_view field = "text";
  if (tool == "scan_url") {
    kind = Kind::kUrl;
    field = "url";
  } else if (tool == "scan_email") {
    kind = Kind::kEmail;
    field = "raw_email";
  }
  const std::optional<std::string_view> content = args.string(field, true);
  std::string decoded;
  std::string_view bytes = content.value_or(std::string_view());
  if (kind == Kind::kEmail) {
    const std::optional<std::string_view> encoding = args.string("content_encoding", false);
    if (encoding && *encoding != "utf-8" && *encoding != "base64") {
      args.fail("error.one_of", {{"name", "content_encoding"}, {"values", "utf-8, base64"}});
    } else if (content && encoding == std::string_view("base64")) {
      if (!decode_base64(*content, &decoded)) {
        args.fail("error.bad_base64", {{"name", std::string(field)}});
      }
      bytes = decoded;
    }
  }
  if (!args.ok()) return error_outcome();
  if (bytes.size() > kMaxContentBytes) {
    args.fail("error.too_large", {{"limit", std::to_string(kMaxContentBytes)}});
    return error_outcome();
  }

  Result<Report> report = context.scan(analyzer_, {kind, bytes, args.locale(), tool});
  if (!report.ok()) return failed(report.status(), args, tool, context);
  Outcome outcome;
  outcome.text = render_report(*report);
  outcome.reports.push_back(std::move(report).value());
  return outcome;
}

McpTools::Outcome McpTools::scan_image(Args& args, std::string_view tool,
                                       McpContext& context) const {
  if (!context.has_ability(kAbilityScanCreate)) {
    args.fail("error.forbidden", {{"ability", std::string(kAbilityScanCreate)}});
    return error_outcome();
  }
  const std::optional<std::string_view> image = args.string("image_base64", true);
  const std::optional<std::string_view> mime_type = args.string("mime_type", true);
  if (mime_type && std::find(std::begin(kImageTypes), std::end(kImageTypes),
                             lower_ascii(*mime_type)) == std::end(kImageTypes)) {
    args.fail("error.one_of", {{"name", "mime_type"},
                               {"values", join({kImageTypes[0], kImageTypes[1], kImageTypes[2],
                                                kImageTypes[3], kImageTypes[4], kImageTypes[5]})}});
  }
  if (!args.ok()) return error_outcome();
  // Base64 is 4 characters per 3 bytes: a longer text cannot fit the limit.
  std::string bytes;
  if (image->size() / 4 * 3 > kMaxFileContentBytes + 3) {
    args.fail("error.too_large", {{"limit", std::to_string(kMaxFileContentBytes)}});
  } else if (!decode_base64(*image, &bytes)) {
    args.fail("error.bad_base64", {{"name", "image_base64"}});
  } else if (bytes.size() > kMaxFileContentBytes) {
    args.fail("error.too_large", {{"limit", std::to_string(kMaxFileContentBytes)}});
  }
  if (!args.ok()) return error_outcome();

  if (tool == "scan_image") {
    // Without OCR models an image cannot be read (QR decoding needs none).
    if (Status ocr = analyzer_.ocr_status(); !ocr.ok()) {
      args.fail(ocr.code() == StatusCode::kUnavailable ? "error.ocr_unavailable"
                                                       : "error.not_available");
      return error_outcome();
    }
    Result<Report> report = context.scan(analyzer_, {Kind::kImage, bytes, args.locale(), tool});
    if (!report.ok()) return failed(report.status(), args, tool, context);
    Outcome outcome;
    outcome.text = render_report(*report);
    outcome.reports.push_back(std::move(report).value());
    return outcome;
  }

  // scan_qr: one decoding of the image gives a report per QR code; each one
  // returned counts once and is stored.
  Result<std::vector<Report>> decoded = analyzer_.analyze_qr_codes(bytes, args.locale());
  if (!decoded.ok()) return failed(decoded.status(), args, tool, context);
  Outcome outcome;
  outcome.list = true;
  const std::string locale = catalog_.resolve(args.locale());
  if (decoded->empty()) {
    outcome.text = catalog_.text(locale, "qr.none");
    return outcome;
  }
  std::string body;
  std::string stop_reason;
  for (std::size_t i = 0; i < decoded->size(); ++i) {
    Report& report = (*decoded)[i];
    if (Status kept = context.record(report, {Kind::kImage, bytes, args.locale(), tool});
        !kept.ok()) {
      Outcome error = failed(kept, args, tool, context);
      if (outcome.reports.empty()) return error;
      stop_reason = error.text;
      break;
    }
    body += "\n\n" +
            catalog_.text(locale, "qr.item",
                          {{"index", std::to_string(i + 1)},
                           {"payload", report.extracted_text.value_or(std::string())}}) +
            "\n" + render_report(report);
    outcome.reports.push_back(std::move(report));
  }
  outcome.text =
      catalog_.text(locale, "qr.count", {{"count", std::to_string(outcome.reports.size())}});
  if (!stop_reason.empty()) outcome.text += " " + stop_reason;
  outcome.text += body;
  return outcome;
}

McpTools::Outcome McpTools::scan_links(Args& args, McpContext& context) const {
  if (!context.has_ability(kAbilityScanCreate)) {
    args.fail("error.forbidden", {{"ability", std::string(kAbilityScanCreate)}});
    return error_outcome();
  }
  const std::optional<std::string_view> text = args.string("text", true);
  if (!args.ok()) return error_outcome();
  if (text->size() > kMaxContentBytes) {
    args.fail("error.too_large", {{"limit", std::to_string(kMaxContentBytes)}});
    return error_outcome();
  }
  // Finding the links is not one of the reports returned: not stored, not
  // counted.
  Result<Report> found = analyzer_.analyze(*text, Kind::kText, args.locale());
  if (!found.ok()) return failed(found.status(), args, "scan_links", context);
  std::vector<std::string> links;
  for (const UrlInfo& url : found->urls) {
    if (std::find(links.begin(), links.end(), url.url) == links.end()) links.push_back(url.url);
  }

  Outcome outcome;
  outcome.list = true;
  const std::string& locale = found->locale;
  if (links.empty()) {
    outcome.text = catalog_.text(locale, "links.none");
    return outcome;
  }
  const std::size_t wanted = std::min(links.size(), kMaxLinksPerCall);
  std::string body;
  std::string stop_reason;
  for (std::size_t i = 0; i < wanted; ++i) {
    Result<Report> report =
        context.scan(analyzer_, {Kind::kUrl, links[i], args.locale(), "scan_links"});
    if (!report.ok()) {
      Outcome error = failed(report.status(), args, "scan_links", context);
      if (outcome.reports.empty()) return error;
      stop_reason =
          error.text + " " +
          catalog_.text(locale, "links.not_checked", {{"count", std::to_string(wanted - i)}});
      break;
    }
    body +=
        "\n\n" +
        catalog_.text(locale, "links.item", {{"index", std::to_string(i + 1)}, {"url", links[i]}}) +
        "\n" + render_report(*report);
    outcome.reports.push_back(std::move(report).value());
  }
  outcome.text =
      catalog_.text(locale, "links.count", {{"count", std::to_string(outcome.reports.size())}});
  if (links.size() > kMaxLinksPerCall) {
    outcome.text +=
        " " + catalog_.text(locale, "links.capped", {{"count", std::to_string(wanted)}});
  }
  if (!stop_reason.empty()) outcome.text += " " + stop_reason;
  outcome.text += body;
  return outcome;
}

McpTools::Outcome McpTools::list_recent(Args& args, McpContext& context) const {
  if (!context.has_ability(kAbilityReportsRead)) {
    args.fail("error.forbidden", {{"ability", std::string(kAbilityReportsRead)}});
    return error_outcome();
  }
  const std::optional<int> limit =
      args.integer("limit", 1, kMaxRecentReports, kDefaultRecentReports);
  if (!args.ok()) return error_outcome();
  Result<std::vector<std::string>> stored = context.recent_reports(*limit);
  if (!stored.ok()) return failed(stored.status(), args, "list_my_recent_reports", context);

  Outcome outcome;
  outcome.list = true;
  const std::string& locale = args.locale();
  if (stored->empty()) {
    outcome.text = catalog_.text(locale, "recent.none");
    return outcome;
  }
  outcome.text = catalog_.text(locale, "recent.count", {{"count", std::to_string(stored->size())}});
  simdjson::dom::parser parser;
  for (std::string& json : *stored) {
    simdjson::dom::object report;
    if (parser.parse(json).get(report) != simdjson::SUCCESS) {
      context.log_failure("list_my_recent_reports",
                          Status::internal("a stored report is not JSON"));
      continue;
    }
    const auto field = [&](const char* name) {
      std::string_view value;
      return report[name].get(value) == simdjson::SUCCESS ? std::string(value) : std::string();
    };
    std::int64_t score = 0;
    if (report["risk_score"].get(score) != simdjson::SUCCESS) score = 0;
    outcome.text +=
        "\n" + catalog_.text(locale, "recent.item",
                             {{"created_at", field("created_at")},
                              {"verdict", catalog_.text(locale, "verdict." + field("verdict"))},
                              {"risk_score", std::to_string(score)},
                              {"kind", field("kind")},
                              {"summary", field("summary_plain")},
                              {"id", field("id")}});
    outcome.stored.push_back(std::move(json));
  }
  return outcome;
}

std::string McpTools::render_report(const Report& report) const {
  const std::string& locale = report.locale;
  std::string out = catalog_.text(
      locale, "report.headline",
      {{"verdict", catalog_.text(locale, "verdict." + std::string(to_string(report.verdict)))},
       {"risk_score", std::to_string(report.risk_score)},
       {"confidence", std::to_string(report.confidence)}});
  out += "\n" + report.summary_plain + "\n\n";
  if (report.signals.empty()) {
    out += catalog_.text(locale, "report.no_signals");
  } else {
    out += catalog_.text(locale, "report.signals");
    for (const Signal& signal : report.signals) {
      out += "\n" + catalog_.text(locale, "report.signal",
                                  {{"explanation", signal.explanation},
                                   {"evidence", signal.evidence},
                                   {"location", signal.location}});
    }
  }
  out += "\n\n" + catalog_.text(locale, "report.actions");
  for (const Action& action : report.actions) {
    out += "\n" +
           catalog_.text(locale, "report.action", {{"icon", action.icon}, {"text", action.text}});
  }
  out += "\n\n" +
         catalog_.text(locale, "report.id", {{"id", report.id}, {"created_at", report.created_at}});
  return out;
}

void McpTools::write_outcome(const Outcome& outcome, McpRevision revision, JsonWriter& w) const {
  // The structured result, also sent as JSON text to revisions that predate
  // structuredContent.
  const auto write_structured = [&](JsonWriter& out) {
    if (!outcome.list) {
      write_report(out, outcome.reports.front());
      return;
    }
    out.StartObject();
    out.Key("reports");
    out.StartArray();
    for (const Report& report : outcome.reports) write_report(out, report);
    for (const std::string& json : outcome.stored) {
      out.RawValue(json.data(), json.size(), rapidjson::kObjectType);
    }
    out.EndArray();
    out.EndObject();
  };

  w.Key("content");
  w.StartArray();
  w.StartObject();
  w.Key("type");
  w.String("text");
  w.Key("text");
  write_string(w, outcome.text);
  w.EndObject();
  if (!outcome.is_error && !has_structured_output(revision)) {
    rapidjson::StringBuffer buffer;
    JsonWriter json(buffer);
    write_structured(json);
    w.StartObject();
    w.Key("type");
    w.String("text");
    w.Key("text");
    w.String(buffer.GetString(), static_cast<rapidjson::SizeType>(buffer.GetSize()), true);
    w.EndObject();
  }
  w.EndArray();
  if (outcome.is_error) {
    w.Key("isError");
    w.Bool(true);
  } else if (has_structured_output(revision)) {
    w.Key("structuredContent");
    write_structured(w);
  }
}

}  // namespace scamcheck::adapters
