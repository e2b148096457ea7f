#include "common/report_json.h"

#include <cstdint>
#include <cstring>

namespace scamcheck::adapters {
namespace {

// Length of the well-formed UTF-8 sequence at s[i] (Unicode Table 3-7), or
// 0 when it is ill-formed; then *skip is the length of its maximal subpart
// (at least 1), the bytes one U+FFFD replaces.
std::size_t utf8_sequence_length(std::string_view s, std::size_t i, std::size_t* skip) {
  const auto byte = [&](std::size_t k) -> unsigned {
    return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0x100u;
  };
  const unsigned b0 = byte(0);
  *skip = 1;
  if (b0 < 0x80) return 1;
  std::size_t need;
  unsigned lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    need = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    need = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;  // no UTF-16 surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    need = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  for (std::size_t k = 1; k < need; ++k) {
    const unsigned b = byte(k);
    const bool ok = k == 1 ? (b >= lo && b <= hi) : (b >= 0x80 && b <= 0xBF);
    if (!ok) {
      *skip = k;
      return 0;
    }
  }
  return need;
}

template <typename Writer>
void write_string_impl(Writer& writer, std::string_view text, bool key) {
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
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    // Fast path: eight ASCII bytes at a time (SMS and most email bodies).
    if (i + 8 <= n) {
      std::uint64_t block;
      std::memcpy(&block, text.data() + i, 8);
      if ((block & 0x8080808080808080ull) == 0) {
        i += 8;
        continue;
      }
    }
    std::size_t skip;
    const std::size_t len = utf8_sequence_length(text, i, &skip);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

std::string repair_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 8);
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t skip;
    const std::size_t len = utf8_sequence_length(text, i, &skip);
    if (len == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      i += skip;
    } else {
      out.append(text, i, len);
      i += len;
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
  writer.EndObject();
}

std::string report_to_json(const Report& report) {
  rapidjson::StringBuffer buffer;
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
