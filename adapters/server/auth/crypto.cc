#include "auth/crypto.h"

#include <sodium.h>

namespace scamcheck::server {
namespace {

constexpr char kBase62[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
constexpr std::string_view kTokenPrefix = "sck_";
constexpr std::size_t kTokenRandomChars = 40;

bool is_base62(char c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

}  // namespace

Status init_crypto() {
  if (sodium_init() < 0) return Status::internal("libsodium failed to initialize");
  return {};
}

std::string new_random_base62(std::size_t chars) {
  std::string out;
  out.reserve(chars);
  while (out.size() < chars) {
    // 62 * 4 = 248: rejecting bytes >= 248 keeps every character equally likely.
    unsigned char byte;
    randombytes_buf(&byte, 1);
    if (byte < 248) out.push_back(kBase62[byte % 62]);
  }
  return out;
}

std::string new_token_value() {
  return std::string(kTokenPrefix) + new_random_base62(kTokenRandomChars);
}

bool is_token_shaped(std::string_view value) {
  if (value.size() != kTokenPrefix.size() + kTokenRandomChars) return false;
  if (value.substr(0, kTokenPrefix.size()) != kTokenPrefix) return false;
  for (char c : value.substr(kTokenPrefix.size())) {
    if (!is_base62(c)) return false;
  }
  return true;
}

Sha256 sha256(std::string_view data) {
  Sha256 out{};
  crypto_hash_sha256(out.data(), reinterpret_cast<const unsigned char*>(data.data()), data.size());
  return out;
}

bool digest_equal(const Sha256& a, const Sha256& b) {
  return crypto_verify_32(a.data(), b.data()) == 0;
}

Result<std::string> hash_password(std::string_view password) {
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(out, password.data(), password.size(),
                            crypto_pwhash_OPSLIMIT_INTERACTIVE, crypto_pwhash_MEMLIMIT_INTERACTIVE,
                            crypto_pwhash_ALG_ARGON2ID13) != 0) {
    return Status::resource_exhausted("not enough memory to hash the password");
  }
  return std::string(out);
}

bool verify_password(std::string_view password, const std::string& hash) {
  return crypto_pwhash_str_verify(hash.c_str(), password.data(), password.size()) == 0;
}

}  // namespace scamcheck::server
