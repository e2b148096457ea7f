#include "common/mcp_schema.h"

namespace scamcheck::adapters {

void write_string_enum(JsonWriter& w, std::initializer_list<std::string_view> values) {
  w.Key("type");
  w.String("string");
  w.Key("enum");
  w.StartArray();
  for (std::string_view value : values) write_json_string(w, value);
  w.EndArray();
}

void write_bounded_integer(JsonWriter& w, int min, int max) {
  w.Key("type");
  w.String("integer");
  w.Key("minimum");
  w.Int(min);
  if (max >= 0) {
    w.Key("maximum");
    w.Int(max);
  }
}

// {"type":"object","additionalProperties":false,"required":[...],"properties":{
// then the caller writes the properties and calls end_object_schema().
void begin_object_schema(JsonWriter& w, std::initializer_list<std::string_view> required) {
  w.StartObject();
  w.Key("type");
  w.String("object");
  w.Key("additionalProperties");
  w.Bool(false);
  w.Key("required");
  w.StartArray();
  for (std::string_view name : required) write_json_string(w, name);
  w.EndArray();
  w.Key("properties");
  w.StartObject();
}

void end_object_schema(JsonWriter& w) {
  w.EndObject();  // properties
  w.EndObject();
}

void write_string_schema(JsonWriter& w, std::string_view name) {
  write_json_key(w, name);
  w.StartObject();
  w.Key("type");
  w.String("string");
  w.EndObject();
}

void write_report_schema(JsonWriter& w) {
  begin_object_schema(
      w, {"id", "kind", "locale", "verdict", "risk_score", "confidence", "summary_plain", "actions",
          "signals", "urls", "model_used", "input_tokens", "output_tokens", "created_at"});
  w.Key("id");
  w.StartObject();
  w.Key("type");
  w.String("string");
  w.Key("pattern");
  w.String("^rpt_[0-9A-HJKMNP-TV-Z]{26}$");
  w.EndObject();
  w.Key("kind");
  w.StartObject();
  write_string_enum(w, {"text", "email", "url", "image", "document"});
  w.EndObject();
  write_string_schema(w, "locale");
  w.Key("verdict");
  w.StartObject();
  write_string_enum(w, {"safe", "suspicious", "danger"});
  w.EndObject();
  for (const char* score : {"risk_score", "confidence"}) {
    w.Key(score);
    w.StartObject();
    write_bounded_integer(w, 0, 100);
    w.EndObject();
  }
  write_string_schema(w, "summary_plain");

  w.Key("actions");
  w.StartObject();
  w.Key("type");
  w.String("array");
  w.Key("minItems");
  w.Int(1);
  w.Key("maxItems");
  w.Int(4);
  w.Key("items");
  begin_object_schema(w, {"icon", "text"});
  write_string_schema(w, "icon");
  write_string_schema(w, "text");
  end_object_schema(w);
  w.EndObject();

  // CONTRACT §10: a Report is bounded.
  w.Key("signals");
  w.StartObject();
  w.Key("type");
  w.String("array");
  w.Key("maxItems");
  w.Uint64(kMaxReportSignals);
  w.Key("items");
  begin_object_schema(w, {"key", "severity", "evidence", "location", "span", "explanation"});
  w.Key("key");
  w.StartObject();
  w.Key("type");
  w.String("string");
  w.Key("pattern");
  w.String("^[a-z][a-z0-9_]*$");
  w.EndObject();
  w.Key("severity");
  w.StartObject();
  write_string_enum(w, {"low", "medium", "high"});
  w.EndObject();
  write_string_schema(w, "evidence");
  write_string_schema(w, "location");
  w.Key("span");
  begin_object_schema(w, {"start", "end"});
  for (const char* bound : {"start", "end"}) {
    w.Key(bound);
    w.StartObject();
    write_bounded_integer(w, 0, -1);
    w.EndObject();
  }
  end_object_schema(w);
  write_string_schema(w, "explanation");
  w.Key("occurrences");  // only when the key and evidence occurred more than once
  w.StartObject();
  write_bounded_integer(w, 2, -1);
  w.EndObject();
  end_object_schema(w);
  w.EndObject();

  w.Key("urls");
  w.StartObject();
  w.Key("type");
  w.String("array");
  w.Key("maxItems");
  w.Uint64(kMaxReportUrls);
  w.Key("items");
  begin_object_schema(w, {"url", "host", "registrable_domain", "reputation", "cached"});
  write_string_schema(w, "url");
  write_string_schema(w, "host");
  write_string_schema(w, "registrable_domain");
  w.Key("reputation");
  w.StartObject();
  write_string_enum(w, {"unknown", "clean", "malicious"});
  w.EndObject();
  w.Key("cached");
  w.StartObject();
  w.Key("type");
  w.String("boolean");
  w.EndObject();
  end_object_schema(w);
  w.EndObject();

  write_string_schema(w, "model_used");
  for (const char* tokens : {"input_tokens", "output_tokens"}) {
    w.Key(tokens);
    w.StartObject();
    write_bounded_integer(w, 0, -1);
    w.EndObject();
  }
  w.Key("created_at");
  w.StartObject();
  w.Key("type");
  w.String("string");
  w.Key("format");
  w.String("date-time");
  w.EndObject();
  write_string_schema(w, "extracted_text");
  w.Key("truncated");  // only when the bound left something out
  w.StartObject();
  w.Key("type");
  w.String("boolean");
  w.Key("const");
  w.Bool(true);
  w.EndObject();
  end_object_schema(w);
}

}  // namespace scamcheck::adapters
