// JSON Schema pieces of the MCP tools (tools/list): the Report schema every
// tool's outputSchema uses, and the small builders the input schemas share.
#ifndef SCAMCHECK_ADAPTERS_COMMON_MCP_SCHEMA_H_
#define SCAMCHECK_ADAPTERS_COMMON_MCP_SCHEMA_H_

#include <initializer_list>
#include <string_view>

#include "common/report_json.h"

namespace scamcheck::adapters {

// Writes the JSON Schema of one Report exactly as write_report() emits it:
// every field required except extracted_text, a signal's occurrences and
// truncated (present only when > 1 / true), no others allowed; at most
// kMaxReportSignals signals and kMaxReportUrls urls (CONTRACT §10). The one
// definition every tool's outputSchema uses.
void write_report_schema(JsonWriter& writer);

// {"type": "string", "enum": [...]} members, inside an open object.
void write_string_enum(JsonWriter& writer, std::initializer_list<std::string_view> values);
// {"type": "integer", "minimum": min, "maximum": max} members (no maximum
// when max < 0), inside an open object.
void write_bounded_integer(JsonWriter& writer, int min, int max);
// Opens {"type": "object", "additionalProperties": false, "required": [...],
// "properties": {; the caller writes the properties, then calls
// end_object_schema().
void begin_object_schema(JsonWriter& writer, std::initializer_list<std::string_view> required);
void end_object_schema(JsonWriter& writer);
// The property `name`: {"type": "string"}.
void write_string_schema(JsonWriter& writer, std::string_view name);

}  // namespace scamcheck::adapters

#endif  // SCAMCHECK_ADAPTERS_COMMON_MCP_SCHEMA_H_
