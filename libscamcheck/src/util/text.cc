#include "util/text.h"

#include <utf8proc.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <random>

namespace scamcheck::internal {

namespace {

// ASCII letters and digits: the word characters of most mail.
constexpr std::array<bool, 128> kAsciiWord = [] {
  std::array<bool, 128> t{};
  for (int c = '0'; c <= '9'; ++c) t[static_cast<std::size_t>(c)] = true;
  for (int c = 'a'; c <= 'z'; ++c) {
    t[static_cast<std::size_t>(c)] = true;
    t[static_cast<std::size_t>(c - 'a' + 'A')] = true;
  }
  return t;
}();

constexpr std::uint64_t kBytes = 0x0101010101010101ULL;
constexpr std::uint64_t kHigh = kBytes * 0x80;

// The high bit of each byte of `x` (all bytes below 0x80) that lies in
// [lo, hi]; other bits are noise. No byte carries into the next.
constexpr std::uint64_t in_range(std::uint64_t x, unsigned char lo, unsigned char hi) {
  return (x + kBytes * (0x80 - lo)) & ~(x + kBytes * (0x7f - hi));
}

}  // namespace

std::int64_t count_word_runs(std::string_view text) {
  const auto* s = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  const auto* const end = s + text.size();
  std::int64_t runs = 0;
  bool in_run = false;
  while (s < end) {
    // Eight ASCII bytes at a time: a bit per byte that says "letter or
    // digit", and a run starts where a byte has it and the one before not.
    if (std::endian::native == std::endian::little && end - s >= 8) {
      std::uint64_t chunk;
      std::memcpy(&chunk, s, 8);
      if ((chunk & kHigh) == 0) {
        const std::uint64_t lower = chunk | kBytes * 0x20;  // letters to lower case
        const std::uint64_t word = (in_range(chunk, '0', '9') | in_range(lower, 'a', 'z')) & kHigh;
        const std::uint64_t before = word << 8 | (in_run ? 0x80 : 0);  // little-endian
        // The starts are high bits of bytes: summed into the top byte by one
        // multiplication (std::popcount is a library call without -mpopcnt).
        runs += static_cast<std::int64_t>((((word & ~before) >> 7) * kBytes) >> 56);
        in_run = (word >> 63) != 0;
        s += 8;
        continue;
      }
    }
    if (*s < 0x80) {  // ASCII without the decoder: a table lookup per byte
      const bool word = kAsciiWord[*s];
      runs += word && !in_run;
      in_run = word;
      ++s;
      continue;
    }
    utf8proc_int32_t cp;
    const utf8proc_ssize_t len = utf8proc_iterate(s, end - s, &cp);
    if (len <= 0) break;
    const utf8proc_category_t cat = utf8proc_category(cp);
    const bool word = (cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_LO) ||
                      (cat >= UTF8PROC_CATEGORY_ND && cat <= UTF8PROC_CATEGORY_NO);
    runs += word && !in_run;
    in_run = word;
    s += len;
  }
  return runs;
}

std::string new_ulid(std::string_view prefix) {
  static constexpr char kCrockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  thread_local std::mt19937_64 rng{std::random_device{}()};
  const auto ms =
      static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                     std::chrono::system_clock::now().time_since_epoch())
                                     .count());
  // 128 bits: 48 of time, 80 of randomness; written as 26 base32 digits
  // (the first digit carries the top 3 bits).
  // In two 64-bit halves: digit k from the right holds bits 5k to 5k + 4.
  const std::uint64_t high = (ms & 0xFFFFFFFFFFFFULL) << 16 | (rng() & 0xFFFF);
  const std::uint64_t low = rng();
  std::string out;
  out.resize(prefix.size() + 26);
  prefix.copy(out.data(), prefix.size());
  char* digits = out.data() + prefix.size() + 25;  // the rightmost digit
  for (unsigned k = 0; k < 12; ++k) digits[-static_cast<int>(k)] = kCrockford[low >> (5 * k) & 31];
  digits[-12] = kCrockford[(low >> 60 | (high & 1) << 4) & 31];
  for (unsigned k = 13; k < 26; ++k) {
    digits[-static_cast<int>(k)] = kCrockford[high >> (5 * k - 64) & 31];
  }
  return out;
}

std::string utc_now_iso8601() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t secs = std::chrono::system_clock::to_time_t(now);
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  // The calendar of the last second asked for, per thread: every report
  // asks, and gmtime_r plus formatting cost more than the analysis of a
  // short text's links.
  thread_local std::time_t cached_secs = -1;
  thread_local std::array<char, 20> cached{};  // "YYYY-MM-DDTHH:MM:SS"
  if (secs != cached_secs) {
    std::tm tm{};
    gmtime_r(&secs, &tm);
    auto put = [&](std::size_t at, int value, int digits) {
      for (int d = digits - 1; d >= 0; --d, value /= 10) {
        cached[at + static_cast<std::size_t>(d)] = static_cast<char>('0' + value % 10);
      }
    };
    put(0, tm.tm_year + 1900, 4);
    cached[4] = '-';
    put(5, tm.tm_mon + 1, 2);
    cached[7] = '-';
    put(8, tm.tm_mday, 2);
    cached[10] = 'T';
    put(11, tm.tm_hour, 2);
    cached[13] = ':';
    put(14, tm.tm_min, 2);
    cached[16] = ':';
    put(17, tm.tm_sec, 2);
    cached_secs = secs;
  }
  // Written into one buffer: the string is allocated once.
  std::array<char, 24> buf{};
  std::copy_n(cached.data(), 19, buf.data());
  const int m = static_cast<int>(ms);
  buf[19] = '.';
  buf[20] = static_cast<char>('0' + m / 100);
  buf[21] = static_cast<char>('0' + m / 10 % 10);
  buf[22] = static_cast<char>('0' + m % 10);
  buf[23] = 'Z';
  return std::string(buf.data(), buf.size());
}

}  // namespace scamcheck::internal
