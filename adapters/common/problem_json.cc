#include "common/problem_json.h"

#include "common/report_json.h"

namespace scamcheck::adapters {

std::string_view problem_type_for_status(int status) {
  switch (status) {
    case 400:
      return "/problems/bad-request";
    case 401:
      return "/problems/unauthorized";
    case 403:
      return "/problems/forbidden";
    case 404:
      return "/problems/not-found";
    case 405:
      return "/problems/method-not-allowed";
    case 413:
      return "/problems/payload-too-large";
    case 415:
      return "/problems/unsupported-media-type";
    case 422:
      return "/problems/validation-error";
    case 429:
      return "/problems/rate-limited";
    case 431:
      return "/problems/request-header-fields-too-large";
    case 503:
    case 504:  // an analysis past its time budget: could not be done now
      return "/problems/unavailable";
    default:
      break;
  }
  return status >= 400 && status < 500 ? "/problems/bad-request" : "/problems/internal-error";
}

std::string problem_to_json(const ProblemDocument& problem) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  writer.StartObject();
  write_json_key(writer, "type");
  write_json_string(writer, problem_type_for_status(problem.status));
  write_json_key(writer, "title");
  write_json_string(writer, problem.title);
  write_json_key(writer, "status");
  writer.Int(problem.status);
  write_json_key(writer, "detail");
  write_json_string(writer, problem.detail);
  write_json_key(writer, "instance");
  write_json_string(writer, problem.instance);
  if (!problem.errors.empty()) {
    write_json_key(writer, "errors");
    writer.StartObject();
    for (const auto& [field, messages] : problem.errors) {
      write_json_key(writer, field);
      writer.StartArray();
      for (const auto& m : messages) write_json_string(writer, m);
      writer.EndArray();
    }
    writer.EndObject();
  }
  if (problem.message) {
    write_json_key(writer, "message");
    write_json_string(writer, *problem.message);
  }
  if (problem.retry_after) {
    write_json_key(writer, "retry_after");
    writer.Int64(*problem.retry_after);
  }
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace scamcheck::adapters
