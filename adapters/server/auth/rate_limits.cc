#include "auth/rate_limits.h"

#include <simdjson.h>

#include <boost/asio/ip/address.hpp>
#include <charconv>

#include "common/ascii.h"

namespace scamcheck::server {
namespace {

constexpr std::int64_t kWindowSeconds = 60;

// The address as 16 bytes (IPv4 mapped into IPv6), or false.
bool to_bytes(std::string_view text, std::array<unsigned char, 16>* out) {
  boost::system::error_code ec;
  const boost::asio::ip::address address = boost::asio::ip::make_address(text, ec);
  if (ec) return false;
  if (address.is_v4()) {
    *out = boost::asio::ip::make_address_v6(boost::asio::ip::v4_mapped, address.to_v4()).to_bytes();
  } else {
    *out = address.to_v6().to_bytes();
  }
  return true;
}

std::string_view trim(std::string_view s) { return adapters::trim(s, adapters::kHttpSpace); }

}  // namespace

RateDecision MinuteLimiter::hit(const std::string& key, std::int64_t limit, std::int64_t now) {
  const std::int64_t start = now - now % kWindowSeconds;
  RateDecision d;
  d.limit = limit;
  d.reset = start + kWindowSeconds;
  if (shared_ != nullptr) {
    Result<std::optional<std::int64_t>> count = shared_->hit_window(key, start, limit);
    if (count.ok()) {
      d.allowed = count->has_value();
      d.remaining = d.allowed ? std::max<std::int64_t>(0, limit - **count) : 0;
      if (!d.allowed) d.retry_after = std::max<std::int64_t>(1, d.reset - now);
      return d;
    }
    // The database did not answer: this process's own window decides (the
    // request itself will most likely fail on the store too).
  }
  std::lock_guard lock(mutex_);
  if (now - last_sweep_ >= kWindowSeconds) {
    // Forget keys of past windows, so idle clients cost no memory.
    std::erase_if(windows_, [start](const auto& entry) { return entry.second.start < start; });
    last_sweep_ = now;
  }
  Window& w = windows_[key];
  if (w.start != start) w = Window{start, 0};
  if (w.count >= limit) {
    d.allowed = false;
    d.remaining = 0;
    d.retry_after = std::max<std::int64_t>(1, d.reset - now);
    return d;
  }
  ++w.count;
  d.remaining = limit - w.count;
  return d;
}

Result<ApiMinuteLimits> ApiMinuteLimits::from_plans_json(std::string_view json) {
  ApiMinuteLimits out;
  simdjson::dom::parser parser;
  simdjson::dom::array plans;
  if (parser.parse(json.data(), json.size())["plans"].get(plans) != simdjson::SUCCESS) {
    return Status::invalid_argument("plans: not an object with a plans array");
  }
  for (simdjson::dom::element plan : plans) {
    std::string_view name;
    if (plan["name"].get(name) != simdjson::SUCCESS) {
      return Status::invalid_argument("plans: a plan without a name");
    }
    ApiMinuteAllowance allowance;
    for (auto [key, target] : {std::pair{"scan_per_minute", &allowance.scans},
                               std::pair{"reads_per_minute", &allowance.reads}}) {
      simdjson::dom::element value;
      if (plan[key].get(value) != simdjson::SUCCESS || value.is_null()) continue;
      std::int64_t n = 0;
      if (value.get(n) != simdjson::SUCCESS || n < 1) {
        return Status::invalid_argument("plans: plan " + std::string(name) + ": " + key +
                                        " must be an integer >= 1 or null");
      }
      *target = n;
    }
    out.plans_[std::string(name)] = allowance;
  }
  return out;
}

ApiMinuteAllowance ApiMinuteLimits::for_plan(std::string_view plan) const {
  ApiMinuteAllowance out;
  if (const auto it = plans_.find(std::string(plan)); it != plans_.end()) out = it->second;
  if (scans_override_) out.scans = *scans_override_;
  if (reads_override_) out.reads = *reads_override_;
  return out;
}

Result<TrustedProxies> TrustedProxies::parse(const std::vector<std::string>& cidrs) {
  TrustedProxies out;
  for (const std::string& cidr : cidrs) {
    const std::size_t slash = cidr.find('/');
    const std::string_view address = std::string_view(cidr).substr(0, slash);
    Network n;
    if (!to_bytes(address, &n.bytes)) {
      return Status::invalid_argument("--trusted-proxy: not an address or CIDR: " + cidr);
    }
    const bool v4 = address.find(':') == std::string_view::npos;
    const int max_prefix = v4 ? 32 : 128;
    int prefix = max_prefix;
    if (slash != std::string::npos) {
      const std::string_view bits = std::string_view(cidr).substr(slash + 1);
      const auto [end, ec] = std::from_chars(bits.data(), bits.data() + bits.size(), prefix);
      if (ec != std::errc() || end != bits.data() + bits.size() || prefix < 0 ||
          prefix > max_prefix) {
        return Status::invalid_argument("--trusted-proxy: bad prefix length: " + cidr);
      }
    }
    n.prefix = v4 ? prefix + 96 : prefix;
    out.networks_.push_back(n);
  }
  return out;
}

bool TrustedProxies::contains(std::string_view address) const {
  std::array<unsigned char, 16> bytes{};
  if (networks_.empty() || !to_bytes(trim(address), &bytes)) return false;
  for (const Network& n : networks_) {
    bool match = true;
    for (int bit = 0; bit < n.prefix && match; bit += 8) {
      const int take = std::min(8, n.prefix - bit);
      const unsigned mask = (0xFFu << (8 - take)) & 0xFFu;
      match = (bytes[bit / 8] & mask) == (n.bytes[bit / 8] & mask);
    }
    if (match) return true;
  }
  return false;
}

std::string TrustedProxies::client_address(const Request& request) const {
  std::string peer = canonical_address(request.remote_address);
  if (peer.empty()) peer = request.remote_address;
  if (!contains(peer)) return peer;
  std::string_view forwarded = request.header("X-Forwarded-For");
  // Walk from the nearest hop outwards, past every trusted proxy.
  while (!forwarded.empty()) {
    const std::size_t comma = forwarded.rfind(',');
    const std::string_view hop =
        trim(comma == std::string_view::npos ? forwarded : forwarded.substr(comma + 1));
    forwarded = comma == std::string_view::npos ? std::string_view() : forwarded.substr(0, comma);
    const std::string address = canonical_address(hop);
    if (address.empty()) return peer;  // garbage: trust nothing further out
    if (!contains(address)) return address;
  }
  return peer;
}

std::string canonical_address(std::string_view address) {
  boost::system::error_code ec;
  boost::asio::ip::address parsed = boost::asio::ip::make_address(trim(address), ec);
  if (ec) return {};
  if (parsed.is_v6() && parsed.to_v6().is_v4_mapped()) {
    parsed = boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, parsed.to_v6());
  }
  return parsed.to_string();
}

}  // namespace scamcheck::server
