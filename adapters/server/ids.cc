#include "ids.h"

#include <sodium.h>

#include <array>
#include <chrono>
#include <ctime>

namespace scamcheck::server {
namespace {

constexpr char kCrockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
constexpr char kBase64Url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::tm utc_tm(std::int64_t unix_seconds) {
  const std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  return tm;
}

// Random bits for ULIDs: ChaCha20 keyed once per thread from the system
// generator, so an id costs no syscall (request ids are made per request).
void ulid_random(unsigned char* out, std::size_t n) {
  struct Stream {
    unsigned char key[crypto_stream_chacha20_KEYBYTES];
    std::uint64_t counter = 0;
    Stream() { randombytes_buf(key, sizeof key); }
  };
  thread_local Stream stream;
  unsigned char nonce[crypto_stream_chacha20_NONCEBYTES] = {};
  for (std::size_t i = 0; i < sizeof stream.counter; ++i) {
    nonce[i] = static_cast<unsigned char>(stream.counter >> (8 * i));
  }
  ++stream.counter;
  crypto_stream_chacha20(out, n, nonce, stream.key);
}

}  // namespace

std::string new_ulid() {
  const auto ms =
      static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                     std::chrono::system_clock::now().time_since_epoch())
                                     .count());
  std::array<unsigned char, 16> bytes{};
  for (int i = 0; i < 6; ++i) bytes[i] = static_cast<unsigned char>(ms >> (8 * (5 - i)));
  ulid_random(bytes.data() + 6, 10);
  // 128 bits as 26 base32 digits: the first digit carries the top 3 bits.
  std::string out(26, '0');
  unsigned __int128 value = 0;
  for (unsigned char b : bytes) value = (value << 8) | b;
  for (int i = 25; i >= 0; --i) {
    out[static_cast<std::size_t>(i)] = kCrockford[static_cast<unsigned>(value & 31u)];
    value >>= 5;
  }
  return out;
}

bool is_echoable_request_id(std::string_view id) {
  if (id.empty() || id.size() > 128) return false;
  for (char c : id) {
    if (c < 0x20 || c > 0x7E) return false;
  }
  return true;
}

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string iso8601(std::int64_t unix_seconds) {
  const std::tm tm = utc_tm(unix_seconds);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

std::string iso8601_now() { return iso8601(unix_now()); }

std::string utc_day(std::int64_t unix_seconds) {
  const std::tm tm = utc_tm(unix_seconds);
  char buffer[16];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d", &tm);
  return buffer;
}

std::int64_t seconds_until_utc_midnight(std::int64_t unix_seconds) {
  constexpr std::int64_t kDay = 86400;
  const std::int64_t into_day = ((unix_seconds % kDay) + kDay) % kDay;
  return kDay - into_day;
}

std::string base64url_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() * 4 + 2) / 3);
  std::uint32_t buffer = 0;
  int bits = 0;
  for (unsigned char c : bytes) {
    buffer = (buffer << 8) | c;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out.push_back(kBase64Url[(buffer >> bits) & 63u]);
    }
  }
  if (bits > 0) out.push_back(kBase64Url[(buffer << (6 - bits)) & 63u]);
  return out;
}

std::optional<std::string> base64url_decode(std::string_view text) {
  std::string out;
  std::uint32_t buffer = 0;
  int bits = 0;
  for (char c : text) {
    int v;
    if (c >= 'A' && c <= 'Z') {
      v = c - 'A';
    } else if (c >= 'a' && c <= 'z') {
      v = c - 'a' + 26;
    } else if (c >= '0' && c <= '9') {
      v = c - '0' + 52;
    } else if (c == '-') {
      v = 62;
    } else if (c == '_') {
      v = 63;
    } else {
      return std::nullopt;
    }
    buffer = (buffer << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xFFu));
    }
  }
  return out;
}

}  // namespace scamcheck::server
