// The analyzer's only ways out of the process: an AI provider that gives a
// second opinion on a report, and URL reputation sources. Both are small
// interfaces a caller may implement itself; the library ships libcurl
// implementations (an OpenAI-compatible chat-completions client, Google Safe
// Browsing v4 and URLhaus). Without them (Options::ai_provider and
// Options::url_reputation null, the default) the analysis is offline and
// complete, and reports say model_used == "heuristic-fallback".
//
//   scamcheck::AiProviderOptions ai;
//   ai.url = "https://api.example.com/v1";
//   ai.api_key = std::getenv("MY_KEY");
//   ai.model = "small-model";
//   auto provider = scamcheck::make_openai_provider(ai);
//   if (!provider.ok()) return 1;
//   scamcheck::Options options;
//   options.ai_provider = *provider;
//   auto analyzer = scamcheck::Analyzer::create(options);
//
// A provider failure (timeout, HTTP error, a reply that is not valid JSON or
// breaks the schema) never fails analyze(): that report is the heuristic one.
// After Options::ai_breaker_failures consecutive failures the analyzer stops
// asking for Options::ai_breaker_open_ms, then lets one trial request through.
#ifndef SCAMCHECK_PROVIDERS_H_
#define SCAMCHECK_PROVIDERS_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scamcheck/export.h"
#include "scamcheck/report.h"
#include "scamcheck/status.h"

namespace scamcheck {

// ---- AI provider ----

// A signal as the provider sees it: a glossary key and the verbatim quote
// that supports it. The analyzer keeps a proposed signal only if the quote
// occurs verbatim in the analysed text (it then computes the span itself).
struct AiSignal {
  std::string key;
  Severity severity = Severity::kMedium;
  std::string evidence;
};

// What the analyzer asks. The views stay valid for the duration of the call.
struct AiRequest {
  // The analysed text: the content (kinds text and url), the decoded
  // headers and parts of an email, or the text read from an image or
  // document. Valid UTF-8, at most kMaxContentBytes.
  std::string_view content;
  Kind kind = Kind::kText;
  std::string_view locale;  // catalog locale the summary and actions must use
  // The heuristic's own result, as context for the provider.
  Verdict heuristic_verdict = Verdict::kSafe;
  int heuristic_score = 0;
  std::vector<AiSignal> heuristic_signals;
  // The glossary keys a signal may carry; others are dropped.
  std::vector<std::string_view> signal_keys;
};

// A provider's answer. verdict must agree with risk_score (CONTRACT §1:
// 0-29 safe, 30-69 suspicious, 70-100 danger); the analyzer treats a reply
// that does not, or that has no summary or not 1-4 actions, as a failure.
struct AiReply {
  Verdict verdict = Verdict::kSafe;
  int risk_score = 0;
  std::string summary;          // in the request's locale
  std::vector<Action> actions;  // 1-4, most important first
  std::vector<AiSignal> signals;
  std::string model;  // the model that answered (Report::model_used)
  std::int64_t input_tokens = 0;
  std::int64_t output_tokens = 0;
};

// A second opinion on a report. Implementations must be safe to call from
// many threads at once, and should bound their own time (the analyzer waits
// for the call). Any non-OK Status makes that report the heuristic one.
class SCAMCHECK_EXPORT AiProvider {
 public:
  virtual ~AiProvider();
  virtual Result<AiReply> analyze(const AiRequest& request) const = 0;
};

struct AiProviderOptions {
  // Endpoint of an OpenAI-compatible chat-completions API. A URL ending in
  // "/chat/completions" is used as is; one ending in "/v1" gets
  // "/chat/completions" appended, any other "/v1/chat/completions".
  // REQUIRES: an http or https URL.
  std::string url = "";
  // Sent as "Authorization: Bearer <api_key>" when not empty; never logged
  // and never part of an error message.
  std::string api_key = "";
  // The "model" of the request (REQUIRES: not empty).
  std::string model = "";
  // Whole request, connect included, in milliseconds (default 8,000).
  int timeout_ms = 8'000;
  // Connection set-up alone, in milliseconds (default 3,000).
  int connect_timeout_ms = 3'000;
  // Largest reply body read, in bytes (default 1 MiB); a longer one fails.
  std::size_t max_reply_bytes = std::size_t{1} << 20;
};

// A libcurl client for any OpenAI-compatible chat-completions endpoint. The
// request carries the analysed text, kind, locale and heuristic signals;
// the reply is constrained by response_format json_schema. HTTP 429 and 5xx
// are kUnavailable, a timeout kDeadlineExceeded, a reply that is not the
// expected JSON kInternal. Connections are kept alive and reused.
SCAMCHECK_EXPORT Result<std::shared_ptr<AiProvider>> make_openai_provider(
    AiProviderOptions options);

// ---- URL reputation ----

// A source of URL reputations. Implementations must be thread-safe.
class SCAMCHECK_EXPORT UrlReputation {
 public:
  virtual ~UrlReputation();
  // One answer per URL, in the order given: kMalicious if the source lists
  // it, kClean if the source checked it and does not, kUnknown otherwise.
  // A Status only if the source could not answer at all.
  virtual Result<std::vector<Reputation>> lookup(const std::vector<std::string>& urls) const = 0;
};

struct SafeBrowsingOptions {
  // The API key, sent as the "key" query parameter (REQUIRES: not empty).
  std::string api_key = "";
  // Base URL of the service (default Google's).
  std::string url = "https://safebrowsing.googleapis.com";
  std::string client_id = "scamcheck";
  // Per lookup, in milliseconds (default 3,000).
  int timeout_ms = 3'000;
};

// Google Safe Browsing v4 Lookup API (POST /v4/threatMatches:find): a URL
// with a threat match is kMalicious, every other URL of a successful
// lookup kClean.
SCAMCHECK_EXPORT Result<std::shared_ptr<UrlReputation>> make_safe_browsing(
    SafeBrowsingOptions options);

struct UrlhausOptions {
  // Base URL of the API (default abuse.ch's); "/v1/url/" is appended.
  std::string url = "https://urlhaus-api.abuse.ch";
  // Sent as the "Auth-Key" header when not empty; never logged.
  std::string auth_key = "";
  // Per URL, in milliseconds (default 3,000).
  int timeout_ms = 3'000;
};

// The URLhaus API (POST /v1/url/, one URL per request): query_status "ok"
// (the URL is listed) is kMalicious, "no_results" kClean.
SCAMCHECK_EXPORT Result<std::shared_ptr<UrlReputation>> make_urlhaus(UrlhausOptions options);

// Asks every source (null ones are skipped): kMalicious if any source says
// so, else kClean if any says so, else kUnknown. A failing source counts as
// kUnknown; the lookup fails only if every source fails.
SCAMCHECK_EXPORT std::shared_ptr<UrlReputation> make_reputation_aggregate(
    std::vector<std::shared_ptr<UrlReputation>> sources);

// Keeps answers of Options::url_reputation beyond the analyzer's memory,
// e.g. in a database that outlives the process or that several processes
// share. The analyzer asks it for the URLs its memory cache misses, before
// the source, and hands it every fresh answer of the source. Implementations
// must be thread-safe; a store that cannot answer or keep an answer only
// costs a lookup, never a report.
class SCAMCHECK_EXPORT ReputationStore {
 public:
  struct Entry {
    Reputation reputation = Reputation::kUnknown;
    std::int64_t age_seconds = 0;  // how long ago the source gave it
  };
  virtual ~ReputationStore();
  // One entry per URL, in the order given: the answer stored at most
  // max_age_seconds ago, or nullopt.
  virtual std::vector<std::optional<Entry>> get(const std::vector<std::string>& urls,
                                                std::int64_t max_age_seconds) const = 0;
  // Fresh answers of the source: urls[i] has reputations[i].
  virtual void put(const std::vector<std::string>& urls,
                   const std::vector<Reputation>& reputations) const = 0;
};

// ---- State, for health checks and metrics ----

// The analyzer's circuit breaker around its AI provider.
enum class BreakerState {
  kClosed,    // the provider is asked
  kOpen,      // recent requests failed; the provider is skipped
  kHalfOpen,  // the open time is over: the next request is a trial
};

// "closed", "open", "half_open".
SCAMCHECK_EXPORT std::string_view to_string(BreakerState state);

// Counters since the analyzer was created, and the breaker's state.
struct ProviderStats {
  bool ai_configured = false;  // Options::ai_provider was set
  BreakerState ai_breaker = BreakerState::kClosed;
  std::uint64_t ai_requests = 0;            // calls made to the provider
  std::uint64_t ai_answers = 0;             // replies merged into a report
  std::uint64_t ai_failures = 0;            // calls that failed (report stayed heuristic)
  std::uint64_t ai_skipped = 0;             // reports not sent because the breaker was open
  std::uint64_t ai_signals_dropped = 0;     // proposed signals without locatable evidence
  bool reputation_configured = false;       // Options::url_reputation was set
  std::uint64_t reputation_lookups = 0;     // batches sent to the source
  std::uint64_t reputation_cache_hits = 0;  // URLs answered from the cache
  std::uint64_t reputation_failures = 0;    // batches that failed
};

}  // namespace scamcheck

#endif  // SCAMCHECK_PROVIDERS_H_
