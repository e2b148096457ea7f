#include "api/scan_flow.h"

#include <utility>

#include "api/url_cache.h"
#include "app.h"
#include "common/report_json.h"
#include "ids.h"
#include "server_limits.h"

namespace scamcheck::server {

StoredReport stored_report(const Report& report, std::int64_t user_id) {
  StoredReport stored;
  stored.public_id = report.id;
  stored.user_id = user_id;
  stored.kind = std::string(to_string(report.kind));
  stored.verdict = std::string(to_string(report.verdict));
  stored.created_at = report.created_at;
  stored.report_json = adapters::report_to_json(report);
  return stored;
}

void run_scan_flow(App& app, const Analyzer& analyzer, const User& user, ScanRequest request,
                   std::function<void(ScanOutcome)> done) {
  // Announced until the report is queued (or the scan failed): the guard
  // ends the announcement when this function returns.
  struct Announcement {
    Store* store;
    ~Announcement() {
      if (store != nullptr) store->expect_reports(-1);
    }
  } announcement{request.announce ? &app.store() : nullptr};
  if (request.announce) app.store().expect_reports(+1);

  ScanOutcome out;
  const std::int64_t now = unix_now();

  std::optional<std::string> cached;
  Sha256 cache_key{};
  if (request.kind == Kind::kUrl) {
    cache_key = url_cache_key(request.content);
    Result<std::optional<std::string>> hit =
        app.store().url_cache_get(user.id, cache_key, now - kUrlCacheTtl.count());
    if (!hit.ok()) {
      out.step = ScanStep::kUrlCache;
      out.status = hit.status();
      return done(std::move(out));
    }
    cached = std::move(*hit);
  }

  Result<QuotaDecision> decision =
      cached ? app.quota().peek(user, now) : app.quota().reserve(user, now);
  if (!decision.ok()) {
    out.step = ScanStep::kAllowance;
    out.status = decision.status();
    return done(std::move(out));
  }
  out.decision = *decision;
  if (!decision->allowed) {
    out.step = ScanStep::kAllowance;
    out.status = Status::resource_exhausted(std::string(kAllowanceUsedUp));
    return done(std::move(out));
  }
  out.counted = !cached;
  const auto give_back = [&app, user_id = user.id, counted = out.counted, day = decision->day] {
    if (counted) app.quota().release(user_id, day);
  };

  Result<Report> report = analyzer.analyze(request.content, request.kind, request.locale);
  if (!request.retain_content) std::string().swap(request.content);  // not kept longer than needed
  if (!report.ok()) {
    give_back();
    out.step = ScanStep::kAnalysis;
    out.status = report.status();
    return done(std::move(out));
  }
  set_cached(&*report, cached.has_value());

  StoredReport stored = stored_report(*report, user.id);
  if (request.retain_content) stored.content = std::move(request.content);
  stored.counted = out.counted;
  stored.usage_day = decision->day;
  if (request.kind == Kind::kUrl && !cached) {
    stored.url_cache = StoredReport::UrlCacheEntry{cache_key, url_reputations_json(*report), now};
  }
  out.report_json = stored.report_json;
  out.report = std::move(*report);
  // Queuing the report ends its announcement, in one step with it.
  stored.announced = announcement.store != nullptr;
  announcement.store = nullptr;
  app.store().insert_report(std::move(stored), [out = std::move(out), give_back,
                                                done = std::move(done)](Status status) mutable {
    if (!status.ok()) {
      give_back();
      out.step = ScanStep::kStore;
      out.status = std::move(status);
    }
    done(std::move(out));
  });
}

}  // namespace scamcheck::server
