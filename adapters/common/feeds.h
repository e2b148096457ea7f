// URL reputation from local feed files (scamcheckd's `serve --feeds-dir
// DIR`; any adapter may set it as Options::local_reputation): every
// regular file in DIR is a list with one entry per line, in the plain text
// formats of OpenPhish (feed.txt: one URL per line) and URLhaus (text
// export: "#" comment lines, one URL per line). A line without a scheme and
// without "/" is a domain entry. Blank lines and "#" comments are skipped.
//
// A URL is malicious when the URL itself is a URL entry, or its host or a
// parent domain of it (of at least two labels) is a domain entry:
// "bad.example" also covers "www.bad.example". The feeds are the analyzer's
// local reputation source (Options::local_reputation): asked for every
// report, never cached; a listed URL is a known_malicious_url signal.
//
// The directory is read at start and polled for changes (file added,
// removed, resized or touched); a changed set replaces the old one
// atomically, so lookups never see a half-loaded feed. Each load is
// reported to the owner's callback (the server logs it).
#ifndef SCAMCHECK_ADAPTERS_COMMON_FEEDS_H_
#define SCAMCHECK_ADAPTERS_COMMON_FEEDS_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_set>
#include <vector>

#include "scamcheck/providers.h"
#include "scamcheck/report.h"

namespace scamcheck::adapters {

// One loaded set of feeds. Immutable; thread-safe.
class FeedSet {
 public:
  // Adds the entries of one feed file's text.
  void add_text(std::string_view text);
  bool malicious(std::string_view url) const;
  std::size_t url_count() const { return urls_.size(); }
  std::size_t domain_count() const { return domains_.size(); }

  // The form both feed URLs and report URLs are compared in: trimmed,
  // fragment dropped, scheme and host lower-cased, a lone trailing "/"
  // dropped.
  static std::string normalize_url(std::string_view url);
  // The host of a URL (with or without a scheme), as written.
  static std::string_view host_of(std::string_view url);

 private:
  std::unordered_set<std::string> urls_;
  std::unordered_set<std::string> domains_;
};

// What one load of the directory found.
struct FeedsLoad {
  const std::string& dir;
  std::string error;  // the directory could not be listed (fully); else ""
  std::size_t files = 0;
  std::size_t urls = 0;
  std::size_t domains = 0;
};

class Feeds final : public UrlReputation {
 public:
  // `dir` empty: no feeds, every lookup is "unknown". `on_load` (may be
  // empty) is called after every load, on the thread that loaded;
  // `poll_interval`: how often the directory is checked for changes.
  explicit Feeds(std::string dir, std::function<void(const FeedsLoad&)> on_load = {},
                 std::chrono::milliseconds poll_interval = std::chrono::seconds(2));
  ~Feeds() override;
  Feeds(const Feeds&) = delete;
  Feeds& operator=(const Feeds&) = delete;

  // Loads the directory once and starts watching it.
  void start();
  // The current set (never null).
  std::shared_ptr<const FeedSet> current() const;
  // kMalicious for a listed URL, kUnknown for the others.
  Result<std::vector<Reputation>> lookup(const std::vector<std::string>& urls) const override;

 private:
  std::uint64_t fingerprint() const;
  void reload();
  void watch();

  std::string dir_;
  std::function<void(const FeedsLoad&)> on_load_;
  std::chrono::milliseconds poll_interval_;
  mutable std::mutex mutex_;
  std::shared_ptr<const FeedSet> current_;
  std::uint64_t fingerprint_ = 0;
  std::condition_variable stop_cv_;
  bool stopping_ = false;
  std::thread watcher_;
};

}  // namespace scamcheck::adapters

#endif  // SCAMCHECK_ADAPTERS_COMMON_FEEDS_H_
