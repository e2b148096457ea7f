// The URL caches.
//
// The scan cache (CONTRACT §2): a repeated identical URL scan of a user
// within kUrlCacheTtl is answered from the cache and not counted. The scan
// API (handlers_scan.cc) and the MCP endpoint (mcp_context_impl.cc) share
// these rules, so a URL scanned through one is cached for the other.
//
// The reputation cache: answers of the reputation services kept in the
// store for 24 h (StoredReputations), under the analyzer's memory cache, so
// a restarted server (or another process on the same database) does not
// ask again.
#ifndef SCAMCHECK_ADAPTERS_SERVER_API_URL_CACHE_H_
#define SCAMCHECK_ADAPTERS_SERVER_API_URL_CACHE_H_

#include <string>
#include <string_view>
#include <vector>

#include "auth/crypto.h"
#include "scamcheck/providers.h"
#include "scamcheck/report.h"
#include "storage/store.h"

namespace scamcheck::server {

// `s` without leading and trailing ASCII white space.
std::string_view trim_ascii_space(std::string_view s);

// The cache key of a URL scan's content: the trimmed content decides.
Sha256 url_cache_key(std::string_view content);

// What the cache keeps of a report: the reputations of its URLs, in order,
// as a JSON array of strings.
std::string url_reputations_json(const Report& report);

// Sets urls[].cached: true when the scan was answered from the scan cache
// (and not counted), false otherwise, whatever cache the analyzer's
// reputation answers came from.
void set_cached(Report* report, bool cached);

// The store as the analyzer's second reputation cache level
// (Options::reputation_store). Keys are SHA-256 digests of the URLs.
class StoredReputations final : public ReputationStore {
 public:
  explicit StoredReputations(Store& store) : store_(store) {}
  std::vector<std::optional<Entry>> get(const std::vector<std::string>& urls,
                                        std::int64_t max_age_seconds) const override;
  void put(const std::vector<std::string>& urls,
           const std::vector<Reputation>& reputations) const override;

 private:
  Store& store_;
};

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_API_URL_CACHE_H_
