#include "ids.h"

#include <sodium.h>

#include <array>
#include <chrono>
#include <ctime>

namespace scamcheck::server {
namespace {

constexpr char kCrockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
constexpr int kBase64Url = sodium_base64_VARIANT_URLSAFE_NO_PADDING;

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

std::string new_uuid_v4() {
  unsigned char bytes[16];
  randombytes_buf(bytes, sizeof bytes);
  bytes[6] = static_cast<unsigned char>((bytes[6] & 0x0F) | 0x40);  // version 4
  bytes[8] = static_cast<unsigned char>((bytes[8] & 0x3F) | 0x80);  // RFC variant
  char hex[2 * sizeof bytes + 1];
  sodium_bin2hex(hex, sizeof hex, bytes, sizeof bytes);
  std::string out;
  for (std::size_t i = 0; i < 2 * sizeof bytes; ++i) {
    if (i == 8 || i == 12 || i == 16 || i == 20) out.push_back('-');  // 8-4-4-4-12
    out.push_back(hex[i]);
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
  std::string out(sodium_base64_ENCODED_LEN(bytes.size(), kBase64Url), '\0');
  sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(bytes.data()),
                    bytes.size(), kBase64Url);
  out.pop_back();  // the terminating NUL
  return out;
}

std::optional<std::string> base64url_decode(std::string_view text) {
  std::string out(text.size() / 4 * 3 + 3, '\0');
  std::size_t size = 0;
  if (sodium_base642bin(reinterpret_cast<unsigned char*>(out.data()), out.size(), text.data(),
                        text.size(), nullptr, &size, nullptr, kBase64Url) != 0) {
    return std::nullopt;
  }
  out.resize(size);
  return out;
}

}  // namespace scamcheck::server
