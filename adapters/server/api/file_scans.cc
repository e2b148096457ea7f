#include "api/file_scans.h"

#include <exception>
#include <optional>
#include <string>
#include <utility>

#include "api/handlers.h"
#include "api/scan_flow.h"
#include "api/url_cache.h"
#include "app.h"
#include "common/report_json.h"
#include "common/status_map.h"
#include "http/multipart.h"
#include "ids.h"
#include "logging.h"
#include "server_limits.h"

namespace scamcheck::server {

FileScanPool::FileScanPool(unsigned threads, std::size_t queue_limit) : queue_limit_(queue_limit) {
  workers_.reserve(threads);
  for (unsigned i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
}

FileScanPool::~FileScanPool() { join(); }

bool FileScanPool::try_post(std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ || queue_.size() >= queue_limit_) return false;
    queue_.push_back(std::move(job));
  }
  wake_.notify_one();
  return true;
}

void FileScanPool::join() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) {
    if (t.joinable() && t.get_id() != std::this_thread::get_id()) t.join();
  }
}

void FileScanPool::work() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and nothing left to run
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    job();
  }
}

namespace {

// A form field that is text: valid UTF-8 of at most kMaxFormTextBytes.
bool is_text_field(const std::string& value) {
  return value.size() <= kMaxFormTextBytes && adapters::is_valid_utf8(value);
}

// The answer to a failed analysis of an upload: the status from the
// adapters' table (common/status_map.h), the text from this route.
Response analysis_problem(const App& app, const Exchange& ex, const Status& status) {
  const ProblemContext pc = ex.problem_context(app.catalog());
  switch (const int http_status = adapters::http_status_for(status.code())) {
    case 422: {
      FieldErrors errors(app.catalog(), ex.locale);
      errors.add("file", "field.file_invalid");
      return validation_problem(pc, errors);
    }
    case 413:
      return problem(pc, 413, "detail.file_limits");
    case 504:
      return problem(pc, 504, "detail.analysis_timeout");
    case 503:
      LogLine(LogLevel::kWarn, "ocr_unavailable")
          .field("request_id", ex.request_id)
          .field("error", status.to_string());
      return problem(pc, http_status, "detail.ocr_unavailable");
    default:
      LogLine(LogLevel::kError, "analysis_error")
          .field("request_id", ex.request_id)
          .field("error", status.to_string());
      return problem(pc, 500, "detail.internal");
  }
}

struct UploadInput {
  std::string file;
  Kind kind = Kind::kImage;
  std::string locale_tag;  // as requested (form field, then Accept-Language); may be ""
};

// Parses and validates the form into *input. Answers the problem itself
// and returns false when the request is not acceptable.
bool parse_upload(App& app, Exchange& ex, UploadInput* input) {
  Result<FormData> form =
      parse_form_data(ex.request.header("Content-Type"), std::move(ex.request.body));
  if (!form.ok()) {
    LogLine(LogLevel::kInfo, "bad_multipart")
        .field("request_id", ex.request_id)
        .field("error", form.status().message());
    ex.respond(problem(ex.problem_context(app.catalog()), 400, "detail.malformed_multipart"));
    return false;
  }

  // The form's locale decides the language of the answer, problems included.
  const FormPart* locale = form->find("locale");
  const bool locale_ok = locale == nullptr || is_text_field(locale->body);
  const std::string_view tag =
      locale_ok && locale != nullptr ? trim_ascii_space(locale->body) : std::string_view();
  if (!tag.empty()) {
    input->locale_tag = std::string(tag);
    ex.locale = app.catalog().resolve(input->locale_tag);
  } else {
    input->locale_tag = ex.accept_language;
  }
  const ProblemContext pc = ex.problem_context(app.catalog());

  FormPart* file = nullptr;
  for (FormPart& part : form->parts) {
    if (part.name == "file") {
      file = &part;
      break;
    }
  }
  if (file == nullptr) {
    ex.respond(problem(pc, 400, "detail.multipart_no_file"));
    return false;
  }
  if (file->body.size() > kMaxFileContentBytes) {
    ex.respond(problem(pc, 413, "detail.file_too_large",
                       {{"limit", std::to_string(kMaxFileContentBytes)}}));
    return false;
  }

  FieldErrors errors(app.catalog(), ex.locale);
  const TextVars text_limit = {{"max", std::to_string(kMaxFormTextBytes)}};
  if (!locale_ok) errors.add("locale", "field.text_part", text_limit);
  if (const FormPart* app_name = form->find("source_app");
      app_name != nullptr && !is_text_field(app_name->body)) {
    errors.add("source_app", "field.text_part", text_limit);
  }
  std::optional<Kind> kind;
  if (const FormPart* kind_field = form->find("kind")) {
    const std::string_view name = trim_ascii_space(kind_field->body);
    if (name == "image") {
      kind = Kind::kImage;
    } else if (name == "document") {
      kind = Kind::kDocument;
    } else if (name == "text" || name == "email" || name == "url") {
      errors.add("kind", "field.kind_json");
    } else {
      errors.add("kind", "field.one_of", {{"values", "image, document"}});
    }
  }
  if (file->body.empty()) {
    errors.add("file", "field.content_empty");
  } else if (!kind && errors.errors().count("kind") == 0) {
    kind = sniff_kind(file->body);
    if (!kind) errors.add("file", "field.file_type");
  }
  if (!errors.empty()) {
    ex.respond(validation_problem(pc, errors));
    return false;
  }
  input->kind = *kind;
  input->file = std::move(file->body);
  return true;
}

// Runs on a worker of the pool. Only the report (with its extracted_text)
// is stored, never the file, whatever --retain-content says.
void run_upload(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  UploadInput input;
  if (!parse_upload(app, ex, &input)) return;
  ScanRequest request;
  request.kind = input.kind;
  request.content = std::move(input.file);
  request.locale = input.locale_tag.empty() ? "en" : std::move(input.locale_tag);
  run_scan_flow(app, app.analyzer(), ex.token->user, std::move(request),
                [&app, exchange](ScanOutcome outcome) {
                  answer_scan(app, *exchange, std::move(outcome), analysis_problem);
                });
}

}  // namespace

void post_exchange(FileScanPool* pool, App& app, const std::shared_ptr<Exchange>& exchange,
                   void (*run)(App&, const std::shared_ptr<Exchange>&),
                   std::string_view busy_detail) {
  const bool queued = pool != nullptr && pool->try_post([&app, exchange, run] {
    try {
      run(app, exchange);
    } catch (const std::exception& e) {
      // The router's guard covers the I/O thread only.
      LogLine(LogLevel::kError, "handler_exception")
          .field("request_id", exchange->request_id)
          .field("error", e.what());
      if (exchange->reply) {
        exchange->respond(
            problem(exchange->problem_context(app.catalog()), 500, "detail.internal"));
      }
    }
  });
  if (queued) return;
  Response r = problem(exchange->problem_context(app.catalog()), 503, busy_detail);
  r.set_header("Retry-After", std::to_string(kFileScanRetryAfter.count()));
  exchange->respond(std::move(r));
}

void handle_scan_upload(App& app, const std::shared_ptr<Exchange>& exchange) {
  post_exchange(app.file_scans(), app, exchange, run_upload, "detail.uploads_busy");
}

}  // namespace scamcheck::server
