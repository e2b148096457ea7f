#include "http/problems.h"

#include "common/problem_json.h"

namespace scamcheck::server {
namespace {

adapters::ProblemDocument base(const ProblemContext& ctx, int status) {
  adapters::ProblemDocument doc;
  doc.status = status;
  std::string_view type = adapters::problem_type_for_status(status);
  type.remove_prefix(std::string_view("/problems/").size());
  doc.title = ctx.catalog.text(ctx.locale, "problem." + std::string(type) + ".title");
  doc.instance = std::string(ctx.request_id);
  return doc;
}

Response to_response(const adapters::ProblemDocument& doc) {
  Response r;
  r.status = doc.status;
  r.content_type = std::string(adapters::kProblemContentType);
  r.body = adapters::problem_to_json(doc);
  if (doc.status == 401) r.set_header("WWW-Authenticate", "Bearer");
  return r;
}

}  // namespace

Response problem(const ProblemContext& ctx, int status, std::string_view detail_key,
                 const TextVars& vars) {
  adapters::ProblemDocument doc = base(ctx, status);
  doc.detail = ctx.catalog.text(ctx.locale, detail_key, vars);
  return to_response(doc);
}

Response validation_problem(const ProblemContext& ctx, const FieldErrors& errors) {
  adapters::ProblemDocument doc = base(ctx, 422);
  doc.detail = ctx.catalog.text(ctx.locale, "detail.validation");
  doc.errors = errors.errors();
  return to_response(doc);
}

Response rate_limited_problem(const ProblemContext& ctx, std::int64_t limit,
                              std::int64_t retry_after, std::string_view detail_key) {
  adapters::ProblemDocument doc = base(ctx, 429);
  doc.detail = ctx.catalog.text(ctx.locale, detail_key, {{"limit", std::to_string(limit)}});
  doc.message = doc.detail;
  doc.retry_after = retry_after;
  Response r = to_response(doc);
  r.set_header("Retry-After", std::to_string(retry_after));
  return r;
}

}  // namespace scamcheck::server
