// Per-minute request limits of the check API (CONTRACT §3) and the client
// address they are keyed by.
//
// A window is one clock minute (it ends at the next multiple of 60 Unix
// seconds); each key counts the requests it was allowed in the current
// window. Refused requests do not count. Counting happens in this process:
// with several processes behind one address each process counts its own
// share.
#ifndef SCAMCHECK_ADAPTERS_SERVER_AUTH_RATE_LIMITS_H_
#define SCAMCHECK_ADAPTERS_SERVER_AUTH_RATE_LIMITS_H_

#include <array>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "http/http_types.h"
#include "scamcheck/status.h"

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

 private:
  struct Window {
    std::int64_t start = 0;
    std::int64_t count = 0;
  };
  std::mutex mutex_;
  std::unordered_map<std::string, Window> windows_;
  std::int64_t last_sweep_ = 0;
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
