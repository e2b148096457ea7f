// GET /health and GET /docs/api: public, no token.
#include "api/handlers.h"
#include "app.h"
#include "logging.h"
#include "scamcheck/version.h"

namespace scamcheck::server {

void handle_health(App& app, const std::shared_ptr<Exchange>& exchange) {
  Exchange& ex = *exchange;
  const Status db = app.store().ping();
  if (!db.ok()) {
    LogLine(LogLevel::kError, "health_database")
        .field("request_id", ex.request_id)
        .field("error", db.to_string());
  }
  // The AI provider: "disabled" without one, "unavailable" while its
  // circuit breaker keeps it out (reports are heuristic meanwhile).
  const ProviderStats providers = app.analyzer().provider_stats();
  const char* ai = !providers.ai_configured                        ? "disabled"
                   : providers.ai_breaker == BreakerState::kClosed ? "ok"
                                                                   : "unavailable";
  // The health object itself, also with 503 (CONTRACT §8), never a problem.
  Response r;
  r.status = db.ok() ? 200 : 503;
  r.content_type = "application/json";
  r.body = std::string("{\"status\":\"") + (db.ok() ? "ok" : "degraded") +
           "\",\"version\":\"" SCAMCHECK_VERSION_STRING "\",\"checks\":{\"database\":\"" +
           (db.ok() ? "ok" : "unavailable") + "\",\"ocr\":\"" +
           (app.analyzer().ocr_status().ok() ? "ok" : "unavailable") + "\",\"ai_provider\":\"" +
           ai + "\"}}";
  ex.respond(std::move(r));
}

void handle_openapi(App& app, const std::shared_ptr<Exchange>& exchange) {
  Response r;
  r.content_type = "application/json";
  r.body = app.openapi_json();
  exchange->respond(std::move(r));
}

}  // namespace scamcheck::server
