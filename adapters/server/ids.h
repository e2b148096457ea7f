// Identifiers and times: ULIDs for request ids, UTC timestamps, the UTC day
// of the daily allowance.
#ifndef SCAMCHECK_ADAPTERS_SERVER_IDS_H_
#define SCAMCHECK_ADAPTERS_SERVER_IDS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace scamcheck::server {

// A new ULID: 26 Crockford base32 characters, 48-bit millisecond time plus
// 80 random bits (libsodium's generator). Thread-safe.
std::string new_ulid();

// A random UUID v4 (RFC 9562), lower case: 122 bits of libsodium's
// randombytes_buf(), hex-encoded by sodium_bin2hex().
std::string new_uuid_v4();

// True when `id` may be echoed as X-Request-ID: 1-128 printable ASCII
// characters (0x20-0x7E) (CONTRACT §2).
bool is_echoable_request_id(std::string_view id);

// Seconds since the Unix epoch, now.
std::int64_t unix_now();
// `unix_seconds` as "YYYY-MM-DDTHH:MM:SSZ".
std::string iso8601(std::int64_t unix_seconds);
// iso8601(unix_now()).
std::string iso8601_now();
// The UTC day of `unix_seconds`, "YYYY-MM-DD".
std::string utc_day(std::int64_t unix_seconds);
// Seconds from `unix_seconds` to the next 00:00 UTC (1-86400).
std::int64_t seconds_until_utc_midnight(std::int64_t unix_seconds);

// Unpadded base64url (RFC 4648 §5) of `bytes`, and back (libsodium).
// decode returns nullopt on any character outside the alphabet, padding, or
// a length or trailing bits no encoder produces.
std::string base64url_encode(std::string_view bytes);
std::optional<std::string> base64url_decode(std::string_view text);

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_IDS_H_
