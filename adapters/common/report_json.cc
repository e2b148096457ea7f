#include "common/report_json.h"

#include <simdjson.h>
#include <unicode/utf8.h>

#include <cstdint>
#include <cstring>

namespace scamcheck::adapters {
namespace {

// What a string holds, in one pass without early exit (the compiler
// vectorizes it).
struct StringBytes {
  bool escaped = false;  // a control character, '"' or '\\': JSON escapes it
  bool non_ascii = false;
};
StringBytes scan_bytes(std::string_view text) {
  unsigned char escaped = 0, high = 0;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    escaped |= static_cast<unsigned char>((c < 0x20) | (c == '"') | (c == '\\'));
    high |= static_cast<unsigned char>(c >= 0x80);
  }
  return {escaped != 0, high != 0};
}

// The output stream of a RapidJSON writer (a protected member; reached
// through a pointer to member named in a derived class, which is allowed).
template <typename Writer>
struct StreamOf : Writer {
  static auto* of(Writer& writer) { return writer.*(&StreamOf::os_); }
};

template <typename Writer>
void write_string_impl(Writer& writer, std::string_view text, bool key) {
  const StringBytes bytes = scan_bytes(text);
  if (!bytes.escaped && (!bytes.non_ascii || is_valid_utf8(text))) {
    // Nothing to escape: the bytes RapidJSON's String() would write are
    // the quotes around the text. The writer writes the separator (an
    // empty raw value in a string's place: Key() is String() in
    // RapidJSON's writers, so the separators are the same), then the
    // string is copied at once instead of one byte at a time.
    writer.RawValue("", 0, rapidjson::kStringType);
    auto* stream = StreamOf<Writer>::of(writer);
    char* out = stream->Push(text.size() + 2);
    out[0] = '"';
    if (!text.empty()) std::memcpy(out + 1, text.data(), text.size());
    out[text.size() + 1] = '"';
    return;
  }
  if (is_valid_utf8(text)) {
    const auto size = static_cast<rapidjson::SizeType>(text.size());
    if (key) {
      writer.Key(text.data(), size);
    } else {
      writer.String(text.data(), size);
    }
    return;
  }
  const std::string repaired = repair_utf8(text);
  const auto size = static_cast<rapidjson::SizeType>(repaired.size());
  if (key) {
    writer.Key(repaired.data(), size, true);
  } else {
    writer.String(repaired.data(), size, true);
  }
}

template <typename Writer>
void write_key(Writer& writer, const char* literal) {
  writer.Key(literal, static_cast<rapidjson::SizeType>(std::strlen(literal)));
}

template <typename Writer>
void write_field(Writer& writer, const char* key, std::string_view value) {
  write_key(writer, key);
  write_json_string(writer, value);
}

template <typename Writer>
void write_signal(Writer& writer, const Signal& signal) {
  writer.StartObject();
  write_field(writer, "key", signal.key);
  write_field(writer, "severity", to_string(signal.severity));
  write_field(writer, "evidence", signal.evidence);
  write_field(writer, "location", signal.location);
  write_key(writer, "span");
  writer.StartObject();
  write_key(writer, "start");
  writer.Uint64(signal.span.start);
  write_key(writer, "end");
  writer.Uint64(signal.span.end);
  writer.EndObject();
  write_field(writer, "explanation", signal.explanation);
  if (signal.occurrences > 1) {
    write_key(writer, "occurrences");
    writer.Int(signal.occurrences);
  }
  writer.EndObject();
}

template <typename Writer>
void write_url(Writer& writer, const UrlInfo& url) {
  writer.StartObject();
  write_field(writer, "url", url.url);
  write_field(writer, "host", url.host);
  write_field(writer, "registrable_domain", url.registrable_domain);
  write_field(writer, "reputation", to_string(url.reputation));
  write_key(writer, "cached");
  writer.Bool(url.cached);
  writer.EndObject();
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
  return simdjson::validate_utf8(text.data(), text.size());
}

std::string repair_utf8(std::string_view text) {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
  std::string out;
  out.reserve(text.size() + 8);
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t start = i;
    UChar32 c;
    U8_NEXT(bytes, i, text.size(), c);  // an ill-formed sequence: c < 0, i past its maximal subpart
    if (c < 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
    } else {
      out.append(text, start, i - start);
    }
  }
  return out;
}

template <typename Writer>
void write_json_string(Writer& writer, std::string_view text) {
  write_string_impl(writer, text, /*key=*/false);
}

template <typename Writer>
void write_json_key(Writer& writer, std::string_view key) {
  write_string_impl(writer, key, /*key=*/true);
}

template <typename Writer>
void write_error_object(Writer& writer, std::string_view message) {
  writer.StartObject();
  write_field(writer, "message", message);
  writer.EndObject();
}

template <typename Writer>
void write_report(Writer& writer, const Report& report) {
  writer.StartObject();
  write_field(writer, "id", report.id);
  write_field(writer, "kind", to_string(report.kind));
  write_field(writer, "locale", report.locale);
  write_field(writer, "verdict", to_string(report.verdict));
  write_key(writer, "risk_score");
  writer.Int(report.risk_score);
  write_key(writer, "confidence");
  writer.Int(report.confidence);
  write_field(writer, "summary_plain", report.summary_plain);

  write_key(writer, "actions");
  writer.StartArray();
  for (const Action& action : report.actions) {
    writer.StartObject();
    write_field(writer, "icon", action.icon);
    write_field(writer, "text", action.text);
    writer.EndObject();
  }
  writer.EndArray();

  write_key(writer, "signals");
  writer.StartArray();
  for (const Signal& signal : report.signals) write_signal(writer, signal);
  writer.EndArray();

  write_key(writer, "urls");
  writer.StartArray();
  for (const UrlInfo& url : report.urls) write_url(writer, url);
  writer.EndArray();

  write_field(writer, "model_used", report.model_used);
  write_key(writer, "input_tokens");
  writer.Int64(report.input_tokens);
  write_key(writer, "output_tokens");
  writer.Int64(report.output_tokens);
  write_field(writer, "created_at", report.created_at);
  if (report.extracted_text) write_field(writer, "extracted_text", *report.extracted_text);
  if (report.truncated) {
    write_key(writer, "truncated");
    writer.Bool(true);
  }
  writer.EndObject();
}

std::string report_to_json(const Report& report) {
  // A report is a few KiB: one allocation instead of growing from 256 bytes.
  rapidjson::StringBuffer buffer(nullptr, 4096);
  JsonWriter writer(buffer);
  write_report(writer, report);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string report_to_pretty_json(const Report& report) {
  rapidjson::StringBuffer buffer;
  PrettyJsonWriter writer(buffer);
  writer.SetIndent(' ', 2);
  write_report(writer, report);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string error_to_json(std::string_view message) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  writer.StartObject();
  write_key(writer, "error");
  write_error_object(writer, message);
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

// The writers adapters use; another writer type needs a line here.
#define SCAMCHECK_INSTANTIATE_JSON_WRITERS(W)               \
  template void write_report<W>(W&, const Report&);         \
  template void write_json_string<W>(W&, std::string_view); \
  template void write_json_key<W>(W&, std::string_view);    \
  template void write_error_object<W>(W&, std::string_view);
SCAMCHECK_INSTANTIATE_JSON_WRITERS(JsonWriter)
SCAMCHECK_INSTANTIATE_JSON_WRITERS(PrettyJsonWriter)
#undef SCAMCHECK_INSTANTIATE_JSON_WRITERS

}  // namespace scamcheck::adapters
