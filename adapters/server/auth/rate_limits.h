// Per-minute request limits of the check API (CONTRACT §3) and of the scan
// API (CONTRACT §2, per plan), and the client address they are keyed by.
//
// A window is one clock minute (it ends at the next multiple of 60 Unix
// seconds); each key counts the requests it was allowed in the current
// window. Refused requests do not count. Counting happens in this process,
// or, with a store shared by several processes (PostgreSQL), in the
// database (SharedCounters, store.h), so the limit holds across processes.
#ifndef SCAMCHECK_ADAPTERS_SERVER_AUTH_RATE_LIMITS_H_
#define SCAMCHECK_ADAPTERS_SERVER_AUTH_RATE_LIMITS_H_

#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "http/http_types.h"
#include "scamcheck/status.h"
#include "storage/store.h"

namespace scamcheck::server {

// What a limit said about one request; also what the X-RateLimit-* headers
// of its response carry.
struct RateDecision {
  bool allowed = true;
  std::int64_t limit = 0;
  std::int64_t remaining = 0;    // after this request
  std::int64_t reset = 0;        // Unix second at which the window ends
  std::int64_t retry_after = 0;  // seconds, when refused
};

// Thread-safe.
class MinuteLimiter {
 public:
  // Counts one request of `key` (e.g. "general:u:42") against `limit` per
  // minute at `now` (Unix seconds), unless the window is full.
  RateDecision hit(const std::string& key, std::int64_t limit, std::int64_t now);
  // Counts in the database from now on (nullptr: in this process). Set
  // before the first hit.
  void set_shared(SharedCounters* shared) { shared_ = shared; }

 private:
  SharedCounters* shared_ = nullptr;
  struct Window {
    std::int64_t start = 0;
    std::int64_t count = 0;
  };
  std::mutex mutex_;
  std::unordered_map<std::string, Window> windows_;
  std::int64_t last_sweep_ = 0;
};

// The per-minute allowances of the scan API for one plan; 0: no limit.
struct ApiMinuteAllowance {
  std::int64_t scans = 0;  // POST /api/v1/scan
  std::int64_t reads = 0;  // the other /api/v1 routes (list, get and delete reports)
};

// The scan API's per-minute allowances per plan: `scan_per_minute` and
// `reads_per_minute` of each plan of the plans data file (data/plans.json,
// or --plans), a flag overriding either for every plan. Counted per user
// (all their tokens share a window). Immutable once set up; thread-safe.
class ApiMinuteLimits {
 public:
  // Reads the two allowances of every plan of a plans document (null or
  // absent: no limit). Fails on a value that is not an integer >= 1.
  static Result<ApiMinuteLimits> from_plans_json(std::string_view json);

  // --scan-per-minute / --reads-per-minute: the same for every plan (0: none).
  void override_scans(std::int64_t per_minute) { scans_override_ = per_minute; }
  void override_reads(std::int64_t per_minute) { reads_override_ = per_minute; }

  // The allowances of `plan`; a plan the file does not name has none.
  ApiMinuteAllowance for_plan(std::string_view plan) const;

 private:
  std::unordered_map<std::string, ApiMinuteAllowance> plans_;
  std::optional<std::int64_t> scans_override_;
  std::optional<std::int64_t> reads_override_;
};

// The networks of --trusted-proxy. Immutable after parse(); thread-safe.
class TrustedProxies {
 public:
  // Parses CIDRs ("10.0.0.0/8", "::1/128", or a bare address).
  static Result<TrustedProxies> parse(const std::vector<std::string>& cidrs);

  bool contains(std::string_view address) const;
  // The client of a request: the socket's peer address, or, when the peer
  // is a trusted proxy, the rightmost X-Forwarded-For address that is not
  // a trusted proxy (a client cannot forge entries added after its own).
  std::string client_address(const Request& request) const;

 private:
  struct Network {
    std::array<unsigned char, 16> bytes{};  // IPv4 as IPv4-mapped IPv6
    int prefix = 0;                         // bits
  };
  std::vector<Network> networks_;
};

// `address` in canonical text form, IPv4-mapped IPv6 as plain IPv4;
// "" when it is not an IP address.
std::string canonical_address(std::string_view address);

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_AUTH_RATE_LIMITS_H_
