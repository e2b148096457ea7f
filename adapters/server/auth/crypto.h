// The server's cryptography, all from libsodium: API token values and
// their SHA-256, constant-time comparison, Argon2id password hashes.
// REQUIRES: init_crypto() succeeded before any other call.
#ifndef SCAMCHECK_ADAPTERS_SERVER_AUTH_CRYPTO_H_
#define SCAMCHECK_ADAPTERS_SERVER_AUTH_CRYPTO_H_

#include <array>
#include <string>
#include <string_view>

#include "scamcheck/status.h"

namespace scamcheck::server {

using Sha256 = std::array<unsigned char, 32>;

// Initializes libsodium. Thread-safe and idempotent.
Status init_crypto();

// A new API token value: "sck_" + 40 random base62 characters (CONTRACT §4).
std::string new_token_value();
// True when `value` has the token shape ("sck_" + 40 base62 characters).
bool is_token_shaped(std::string_view value);
// `chars` uniformly random base62 characters.
std::string new_random_base62(std::size_t chars);

Sha256 sha256(std::string_view data);
// Constant-time equality of two digests.
bool digest_equal(const Sha256& a, const Sha256& b);

// Argon2id hash of `password` in libsodium's string format (salt and
// parameters included). Fails only when memory is exhausted.
Result<std::string> hash_password(std::string_view password);
// True when `password` matches `hash` (constant time in the password).
bool verify_password(std::string_view password, const std::string& hash);

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_AUTH_CRYPTO_H_
