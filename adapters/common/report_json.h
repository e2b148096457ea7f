// The one Report -> JSON mapping (CONTRACT §1), shared by every adapter:
// the CLI, the server's scan API, MCP and the C API all call these, so a
// field is added or renamed in exactly one place.
//
//   std::string json = scamcheck::adapters::report_to_json(report);
//
// or, inside a larger document:
//
//   rapidjson::StringBuffer buffer;
//   scamcheck::adapters::JsonWriter writer(buffer);
//   writer.StartObject();
//   writer.Key("report");
//   scamcheck::adapters::write_report(writer, report);
//   writer.EndObject();
//
// Output is always valid UTF-8 JSON: strings go through write_json_string(),
// which escapes with RapidJSON and replaces any invalid UTF-8 sequence by
// U+FFFD (the library only returns valid UTF-8; this is a safety net, so a
// bug can never produce unparseable output).
#ifndef SCAMCHECK_ADAPTERS_COMMON_REPORT_JSON_H_
#define SCAMCHECK_ADAPTERS_COMMON_REPORT_JSON_H_

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <string>
#include <string_view>

#include "scamcheck/report.h"

namespace scamcheck::adapters {

// The writers the functions below are instantiated for (report_json.cc).
using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;
using PrettyJsonWriter = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

// Writes `report` as one JSON object value. Fields, in this order: id, kind,
// locale, verdict, risk_score, confidence, summary_plain, actions[{icon,
// text}], signals[{key, severity, evidence, location, span{start,end},
// explanation, occurrences only when > 1}], urls[{url, host,
// registrable_domain, reputation, cached}], model_used, input_tokens,
// output_tokens, created_at, extracted_text only when the report has one,
// and truncated only when true. risk_text is not part of the Report JSON
// (the check API sends it in its own shape). A Report from the library is
// bounded (CONTRACT §10): its compact JSON is at most kMaxReportJsonBytes.
template <typename Writer>
void write_report(Writer& writer, const Report& report);

// Compact JSON of one Report (no trailing newline).
std::string report_to_json(const Report& report);
// Indented JSON of one Report, for people reading a terminal.
std::string report_to_pretty_json(const Report& report);

// Writes `text` as a JSON string value (or key, for Writer::Key contexts use
// write_json_key). Invalid UTF-8 sequences become U+FFFD.
template <typename Writer>
void write_json_string(Writer& writer, std::string_view text);
template <typename Writer>
void write_json_key(Writer& writer, std::string_view key);

// Writes the error object {"message": "..."} as a value.
template <typename Writer>
void write_error_object(Writer& writer, std::string_view message);
// {"error": {"message": "..."}} as a compact string.
std::string error_to_json(std::string_view message);

// True when `text` is well-formed UTF-8 (no overlongs, no surrogates,
// nothing above U+10FFFF).
bool is_valid_utf8(std::string_view text);
// `text` with every ill-formed sequence replaced by U+FFFD ("maximal
// subpart" replacement, as ICU and WHATWG do).
std::string repair_utf8(std::string_view text);

}  // namespace scamcheck::adapters

#endif  // SCAMCHECK_ADAPTERS_COMMON_REPORT_JSON_H_
