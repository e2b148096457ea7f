// The C API (bindings/c/include/scamcheck_c.h): a thin layer over
// scamcheck::Analyzer that speaks JSON. Nothing may escape the boundary:
// every entry point catches what the C++ side could throw (std::bad_alloc)
// and answers with a code.
#include "scamcheck_c.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>

#include "common/provider_flags.h"
#include "common/report_json.h"
#include "scamcheck/scamcheck.h"
#include "scamcheck/version.h"

struct scamcheck_analyzer {
  std::unique_ptr<scamcheck::Analyzer> analyzer;
};

namespace {

using scamcheck::Status;
using scamcheck::StatusCode;

scamcheck_code to_c(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return SCAMCHECK_OK;
    case StatusCode::kInvalidArgument:
      return SCAMCHECK_INVALID_ARGUMENT;
    case StatusCode::kOutOfRange:
      return SCAMCHECK_OUT_OF_RANGE;
    case StatusCode::kNotFound:
      return SCAMCHECK_NOT_FOUND;
    case StatusCode::kResourceExhausted:
      return SCAMCHECK_RESOURCE_EXHAUSTED;
    case StatusCode::kDeadlineExceeded:
      return SCAMCHECK_DEADLINE_EXCEEDED;
    case StatusCode::kUnavailable:
      return SCAMCHECK_UNAVAILABLE;
    case StatusCode::kUnimplemented:
      return SCAMCHECK_UNIMPLEMENTED;
    case StatusCode::kInternal:
      return SCAMCHECK_INTERNAL;
  }
  return SCAMCHECK_INTERNAL;
}

// A malloc'ed copy for the caller (freed by scamcheck_free); null when out
// of memory.
char* give(std::string_view text) {
  char* out = static_cast<char*>(std::malloc(text.size() + 1));
  if (out == nullptr) return nullptr;
  std::memcpy(out, text.data(), text.size());
  out[text.size()] = '\0';
  return out;
}

// {"error": {"code": "invalid_argument", "message": "..."}}: the code's
// name is the library's, which is also the C enumerator's in lower case.
std::string error_json(StatusCode code, std::string_view message) {
  rapidjson::StringBuffer buffer;
  scamcheck::adapters::JsonWriter writer(buffer);
  writer.StartObject();
  scamcheck::adapters::write_json_key(writer, "error");
  writer.StartObject();
  scamcheck::adapters::write_json_key(writer, "code");
  scamcheck::adapters::write_json_string(writer, scamcheck::to_string(code));
  scamcheck::adapters::write_json_key(writer, "message");
  scamcheck::adapters::write_json_string(writer, message);
  writer.EndObject();
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

// Answers `code` with its error JSON in *out (when out is not null).
scamcheck_code fail(char** out, StatusCode code, std::string_view message) {
  if (out != nullptr) *out = give(error_json(code, message));
  return to_c(code);
}

scamcheck_code fail(char** out, const Status& status) {
  return fail(out, status.code(), status.message());
}

// Reads the options JSON into *options; kInvalidArgument naming the member.
Status parse_options(const char* json, scamcheck::Options* options) {
  if (json == nullptr) return {};
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseIterativeFlag>(json);
  if (doc.HasParseError()) {
    return Status::invalid_argument(std::string("options are not valid JSON: ") +
                                    rapidjson::GetParseError_En(doc.GetParseError()));
  }
  if (!doc.IsObject()) return Status::invalid_argument("options must be a JSON object");

  scamcheck::adapters::ProviderFlags providers;
  struct Text {
    const char* name;
    std::string* target;
  };
  const Text texts[] = {
      {"data_dir", &options->data_dir},
      {"model_file", &options->model_file},
      {"tessdata_dir", &options->tessdata_dir},
      {"ocr_languages", &options->ocr_languages},
      {"ai_url", &providers.ai_url},
      {"ai_key", &providers.ai_key},
      {"ai_model", &providers.ai_model},
      {"safe_browsing_key", &providers.safe_browsing_key},
      {"safe_browsing_url", &providers.safe_browsing_url},
      {"urlhaus_url", &providers.urlhaus_url},
      {"urlhaus_key", &providers.urlhaus_key},
  };
  for (const auto& member : doc.GetObject()) {
    const std::string_view name(member.name.GetString(), member.name.GetStringLength());
    if (name == "use_model") {
      if (!member.value.IsBool()) return Status::invalid_argument("use_model must be a boolean");
      options->use_model = member.value.GetBool();
      continue;
    }
    const Text* text = nullptr;
    for (const Text& t : texts) {
      if (name == t.name) text = &t;
    }
    if (text == nullptr) return Status::invalid_argument("unknown option: " + std::string(name));
    if (!member.value.IsString()) {
      return Status::invalid_argument(std::string(name) + " must be a string");
    }
    text->target->assign(member.value.GetString(), member.value.GetStringLength());
  }
  if (options->tessdata_dir.empty()) options->tessdata_dir = scamcheck::kDefaultTessdataDir;
  return scamcheck::adapters::configure_providers(providers, *options);
}

}  // namespace

extern "C" {

const char* scamcheck_version(void) { return SCAMCHECK_VERSION_STRING; }

scamcheck_code scamcheck_analyzer_create(const char* options_json,
                                         scamcheck_analyzer** out_analyzer, char** out_error) {
  if (out_error != nullptr) *out_error = nullptr;
  if (out_analyzer == nullptr) {
    return fail(out_error, StatusCode::kInvalidArgument, "out_analyzer must not be NULL");
  }
  *out_analyzer = nullptr;
  try {
    scamcheck::Options options;
    if (Status s = parse_options(options_json, &options); !s.ok()) return fail(out_error, s);
    scamcheck::Result<std::unique_ptr<scamcheck::Analyzer>> created =
        scamcheck::Analyzer::create(options);
    if (!created.ok()) return fail(out_error, created.status());
    *out_analyzer = new scamcheck_analyzer{std::move(*created)};
    return SCAMCHECK_OK;
  } catch (const std::bad_alloc&) {
    return fail(out_error, StatusCode::kResourceExhausted, "out of memory");
  } catch (...) {
    return fail(out_error, StatusCode::kInternal, "unexpected error while creating the analyzer");
  }
}

void scamcheck_analyzer_free(scamcheck_analyzer* analyzer) { delete analyzer; }

scamcheck_code scamcheck_analyze(const scamcheck_analyzer* analyzer, const char* content,
                                 size_t content_len, const char* kind, const char* locale,
                                 char** out_json) {
  if (out_json == nullptr) return SCAMCHECK_INVALID_ARGUMENT;  // nowhere to say more
  *out_json = nullptr;
  if (analyzer == nullptr) {
    return fail(out_json, StatusCode::kInvalidArgument, "analyzer must not be NULL");
  }
  if (content == nullptr && content_len > 0) {
    return fail(out_json, StatusCode::kInvalidArgument, "content is NULL but content_len is not 0");
  }
  try {
    const std::string_view kind_name = kind != nullptr ? kind : "text";
    const std::string_view locale_tag = locale != nullptr && *locale != '\0' ? locale : "en";
    const std::string_view input =
        content_len > 0 ? std::string_view(content, content_len) : std::string_view();
    scamcheck::Result<scamcheck::Report> report =
        analyzer->analyzer->analyze(input, kind_name, locale_tag);
    if (!report.ok()) return fail(out_json, report.status());
    *out_json = give(scamcheck::adapters::report_to_json(*report));
    return *out_json != nullptr ? SCAMCHECK_OK : SCAMCHECK_RESOURCE_EXHAUSTED;
  } catch (const std::bad_alloc&) {
    return fail(out_json, StatusCode::kResourceExhausted, "out of memory");
  } catch (...) {
    return fail(out_json, StatusCode::kInternal, "unexpected error during the analysis");
  }
}

void scamcheck_free(char* string) { std::free(string); }

}  // extern "C"
