// Bearer-token authentication (CONTRACT §4): the token's SHA-256 is looked
// up in the store and compared in constant time; revoked and expired tokens
// are refused; abilities are checked per route. Tokens are read from the
// store on every request, so what the operator CLI changes (a new or
// revoked token) takes effect at once.
#ifndef SCAMCHECK_ADAPTERS_SERVER_AUTH_AUTH_H_
#define SCAMCHECK_ADAPTERS_SERVER_AUTH_AUTH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/store.h"

namespace scamcheck::server {

// Every ability a token can carry; "*" grants all.
inline constexpr std::string_view kAbilities[] = {"scan:create", "reports:read", "reports:delete",
                                                  "*"};
bool is_known_ability(std::string_view ability);

enum class AuthOutcome {
  kOk,
  kMissing,     // no Authorization header
  kInvalid,     // malformed, unknown, revoked or expired
  kStoreError,  // the store did not answer
};

struct AuthResult {
  AuthOutcome outcome = AuthOutcome::kMissing;
  std::optional<TokenRecord> token;
  Status status;  // for kStoreError
};

// Authenticates an Authorization header value at `now` (Unix seconds) and
// records the use (last_used_at, at most once per kTokenTouchInterval).
AuthResult authenticate(Store& store, std::string_view authorization, std::int64_t now);

// True when the token may do `ability`.
bool has_ability(const TokenRecord& token, std::string_view ability);

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_AUTH_AUTH_H_
