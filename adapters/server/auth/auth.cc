#include "auth/auth.h"

#include <algorithm>

#include "auth/crypto.h"
#include "http/http_types.h"
#include "server_limits.h"

namespace scamcheck::server {
bool is_known_ability(std::string_view ability) {
  return std::find(std::begin(kAbilities), std::end(kAbilities), ability) != std::end(kAbilities);
}

AuthResult authenticate(Store& store, std::string_view authorization, std::int64_t now) {
  AuthResult result;
  if (authorization.empty()) return result;  // kMissing
  result.outcome = AuthOutcome::kInvalid;
  constexpr std::string_view kScheme = "bearer ";
  if (authorization.size() <= kScheme.size() ||
      !ascii_iequals(authorization.substr(0, kScheme.size()), kScheme)) {
    return result;
  }
  std::string_view value = authorization.substr(kScheme.size());
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
  if (!is_token_shaped(value)) return result;

  const Sha256 hash = sha256(value);
  Result<std::optional<TokenRecord>> found = store.find_token(hash);
  if (!found.ok()) {
    result.outcome = AuthOutcome::kStoreError;
    result.status = found.status();
    return result;
  }
  if (!found->has_value()) return result;
  TokenRecord& token = **found;
  if (!digest_equal(token.token_hash, hash)) return result;
  if (token.revoked_at) return result;
  if (token.expires_at && *token.expires_at <= now) return result;

  if (!token.last_used_at || now - *token.last_used_at >= kTokenTouchInterval.count()) {
    store.touch_token(token.id, now);
  }
  result.outcome = AuthOutcome::kOk;
  result.token = std::move(token);
  return result;
}

bool has_ability(const TokenRecord& token, std::string_view ability) {
  for (const std::string& a : token.abilities) {
    if (a == "*" || a == ability) return true;
  }
  return false;
}

}  // namespace scamcheck::server
