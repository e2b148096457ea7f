#include "api/url_cache.h"

#include <algorithm>

#include "common/ascii.h"
#include "common/report_json.h"
#include "ids.h"
#include "logging.h"
#include "server_limits.h"

namespace scamcheck::server {

std::string_view trim_ascii_space(std::string_view s) { return adapters::trim(s); }

Sha256 url_cache_key(std::string_view content) {
  return sha256("url\n" + std::string(trim_ascii_space(content)));
}

std::string url_reputations_json(const Report& report) {
  rapidjson::StringBuffer buffer;
  adapters::JsonWriter writer(buffer);
  writer.StartArray();
  for (const UrlInfo& url : report.urls)
    adapters::write_json_string(writer, to_string(url.reputation));
  writer.EndArray();
  return std::string(buffer.GetString(), buffer.GetSize());
}

void set_cached(Report* report, bool cached) {
  for (UrlInfo& url : report->urls) url.cached = cached;
}

namespace {

Sha256 reputation_key(std::string_view url) { return sha256("reputation\n" + std::string(url)); }

std::optional<Reputation> parse_reputation(std::string_view name) {
  for (Reputation r : {Reputation::kUnknown, Reputation::kClean, Reputation::kMalicious}) {
    if (to_string(r) == name) return r;
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::optional<ReputationStore::Entry>> StoredReputations::get(
    const std::vector<std::string>& urls, std::int64_t max_age_seconds) const {
  std::vector<std::optional<Entry>> entries(urls.size());
  std::vector<Sha256> keys;
  keys.reserve(urls.size());
  for (const std::string& url : urls) keys.push_back(reputation_key(url));
  const std::int64_t now = unix_now();
  auto rows = store_.reputations_get(keys, now - max_age_seconds);
  if (!rows.ok()) {
    LogLine(LogLevel::kWarn, "store_error").field("error", rows.status().to_string());
    return entries;  // only a missed cache entry
  }
  for (std::size_t i = 0; i < urls.size() && i < rows->size(); ++i) {
    const auto& row = (*rows)[i];
    if (!row) continue;
    if (std::optional<Reputation> r = parse_reputation(row->reputation)) {
      entries[i] = Entry{*r, std::max<std::int64_t>(0, now - row->checked_at)};
    }
  }
  return entries;
}

void StoredReputations::put(const std::vector<std::string>& urls,
                            const std::vector<Reputation>& reputations) const {
  std::vector<std::pair<Sha256, std::string>> answers;
  for (std::size_t i = 0; i < urls.size() && i < reputations.size(); ++i) {
    answers.emplace_back(reputation_key(urls[i]), std::string(to_string(reputations[i])));
  }
  store_.reputations_put(std::move(answers), unix_now());
}

}  // namespace scamcheck::server
