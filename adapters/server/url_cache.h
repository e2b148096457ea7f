// The URL scan cache (CONTRACT §2): a repeated identical URL scan of a user
// within kUrlCacheTtl is answered from the cache and not counted. The scan
// API (handlers_scan.cc) and the MCP endpoint (mcp_context_impl.cc) share
// these rules, so a URL scanned through one is cached for the other.
#ifndef SCAMCHECK_ADAPTERS_SERVER_URL_CACHE_H_
#define SCAMCHECK_ADAPTERS_SERVER_URL_CACHE_H_

#include <string>
#include <string_view>

#include "crypto.h"
#include "scamcheck/report.h"

namespace scamcheck::server {

// `s` without leading and trailing ASCII white space.
std::string_view trim_ascii_space(std::string_view s);

// The cache key of a URL scan's content: the trimmed content decides.
Sha256 url_cache_key(std::string_view content);

// What the cache keeps of a report: the reputations of its URLs, in order,
// as a JSON array of strings.
std::string url_reputations_json(const Report& report);

// Applies cached reputations to a fresh report of the same content and
// marks every URL `cached`.
void apply_cached_reputations(std::string_view reputations_json, Report* report);

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_URL_CACHE_H_
