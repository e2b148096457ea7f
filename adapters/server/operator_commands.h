// The operator subcommands of scamcheckd (CONTRACT §4, §8): create users and
// API tokens, revoke tokens. They write to the store, so a running server
// sees the change on its next request.
#ifndef SCAMCHECK_ADAPTERS_SERVER_OPERATOR_COMMANDS_H_
#define SCAMCHECK_ADAPTERS_SERVER_OPERATOR_COMMANDS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "storage/store.h"

namespace scamcheck::server {

// Creates a verified user on `plan` with an Argon2id hash of `password`.
Result<User> create_user(Store& store, const std::string& email, const std::string& name,
                         const std::string& plan, const std::string& password);

// Creates a token for the user with `email` and returns its value (the only
// time it exists outside the client). `abilities` must be known ones;
// `expires_in_days` > 0 when given.
Result<std::string> create_token(Store& store, const std::string& email, const std::string& name,
                                 const std::vector<std::string>& abilities,
                                 std::optional<double> expires_in_days);

// Moves the user with `email` to `plan`; kNotFound without such a user,
// kInvalidArgument for an unknown plan.
Status set_user_plan(Store& store, const std::string& email, const std::string& plan);

// Revokes the user's active tokens named `name`; kNotFound when none.
Status revoke_token(Store& store, const std::string& email, const std::string& name);

// When the store has no user yet: creates admin@localhost on plan "pro"
// (unlimited) with a token "bootstrap" of every ability, and returns the
// token value. nullopt when a user exists already.
Result<std::optional<std::string>> bootstrap_first_user(Store& store);

// Reads one line (the password, without its line end, at most
// kMaxPasswordBytes) from `fd`. On a terminal, echo is off while it is read
// (and restored, also on SIGINT, SIGTERM, SIGHUP or SIGQUIT) and `prompt`,
// when not empty, is written to stderr first; other input (a pipe, a file)
// is read as it is.
inline constexpr std::size_t kMaxPasswordBytes = 4096;
std::string read_password(int fd, const char* prompt);

// "a,b , c" -> {"a", "b", "c"}.
std::vector<std::string> split_list(const std::string& text);

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_OPERATOR_COMMANDS_H_
