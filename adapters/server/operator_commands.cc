#include "operator_commands.h"

#include <signal.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>

#include "auth/auth.h"
#include "auth/crypto.h"
#include "ids.h"

namespace scamcheck::server {
namespace {

constexpr std::size_t kMinPasswordBytes = 8;

Result<User> user_by_email(Store& store, const std::string& email) {
  Result<std::optional<User>> user = store.find_user(email);
  if (!user.ok()) return user.status();
  if (!user->has_value()) return Status::not_found("no user with the email " + email);
  return std::move(**user);
}

bool plausible_email(const std::string& email) {
  const std::size_t at = email.find('@');
  return at != std::string::npos && at > 0 && at + 1 < email.size() &&
         email.find_first_of(" \t\r\n") == std::string::npos;
}

// The terminal's settings while echo is off, for the signal handler.
struct termios g_saved_termios;
volatile sig_atomic_t g_echo_fd = -1;

void restore_echo_and_reraise(int signal) {
  if (g_echo_fd >= 0) tcsetattr(g_echo_fd, TCSAFLUSH, &g_saved_termios);
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

constexpr int kRestoreSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

}  // namespace

std::string read_password(int fd, const char* prompt) {
  const bool terminal = isatty(fd) == 1 && tcgetattr(fd, &g_saved_termios) == 0;
  struct sigaction previous[std::size(kRestoreSignals)];
  if (terminal) {
    struct sigaction restore {};
    restore.sa_handler = &restore_echo_and_reraise;
    sigemptyset(&restore.sa_mask);
    for (std::size_t i = 0; i < std::size(kRestoreSignals); ++i) {
      sigaction(kRestoreSignals[i], &restore, &previous[i]);
    }
    struct termios quiet = g_saved_termios;
    quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO | ECHOE | ECHOK | ECHONL);
    g_echo_fd = fd;
    tcsetattr(fd, TCSAFLUSH, &quiet);
    // The prompt once echo is off: what is typed after it is never shown.
    if (prompt != nullptr && *prompt != '\0') {
      (void)!::write(STDERR_FILENO, prompt, std::strlen(prompt));
    }
  }
  std::string line;
  char c;
  for (;;) {
    const ssize_t n = ::read(fd, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || c == '\n') break;
    if (line.size() < kMaxPasswordBytes) line.push_back(c);
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (terminal) {
    tcsetattr(fd, TCSANOW, &g_saved_termios);  // keeps what was typed ahead
    g_echo_fd = -1;
    for (std::size_t i = 0; i < std::size(kRestoreSignals); ++i) {
      sigaction(kRestoreSignals[i], &previous[i], nullptr);
    }
    (void)!::write(STDERR_FILENO, "\n", 1);  // the Enter key was not echoed
  }
  return line;
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    std::string item = text.substr(start, comma - start);
    const auto first = item.find_first_not_of(" \t");
    const auto last = item.find_last_not_of(" \t");
    if (first != std::string::npos) out.push_back(item.substr(first, last - first + 1));
    start = comma + 1;
  }
  return out;
}

Result<User> create_user(Store& store, const std::string& email, const std::string& name,
                         const std::string& plan, const std::string& password) {
  if (!plausible_email(email)) return Status::invalid_argument("not an email address: " + email);
  if (name.empty()) return Status::invalid_argument("the name must not be empty");
  if (password.size() < kMinPasswordBytes) {
    return Status::invalid_argument("the password must have at least 8 characters");
  }
  Result<std::string> hash = hash_password(password);
  if (!hash.ok()) return hash.status();
  NewUser user;
  user.email = email;
  user.name = name;
  user.plan = plan;
  user.password_hash = std::move(*hash);
  return store.create_user(user);
}

Result<std::string> create_token(Store& store, const std::string& email, const std::string& name,
                                 const std::vector<std::string>& abilities,
                                 std::optional<double> expires_in_days) {
  if (name.empty()) return Status::invalid_argument("the token name must not be empty");
  if (abilities.empty()) return Status::invalid_argument("give at least one ability");
  for (const auto& a : abilities) {
    if (!is_known_ability(a)) {
      return Status::invalid_argument("unknown ability \"" + a +
                                      "\" (scan:create, reports:read, reports:delete, *)");
    }
  }
  NewToken token;
  if (expires_in_days) {
    if (!std::isfinite(*expires_in_days) || *expires_in_days <= 0 || *expires_in_days > 36500) {
      return Status::invalid_argument("--expires-in must be a number of days > 0");
    }
    token.expires_at =
        unix_now() + static_cast<std::int64_t>(std::llround(*expires_in_days * 86400));
  }
  Result<User> user = user_by_email(store, email);
  if (!user.ok()) return user.status();
  const std::string value = new_token_value();
  token.user_id = user->id;
  token.name = name;
  token.token_hash = sha256(value);
  token.abilities = abilities;
  if (Status s = store.create_token(token); !s.ok()) return s;
  return value;
}

Status set_user_plan(Store& store, const std::string& email, const std::string& plan) {
  Result<User> user = user_by_email(store, email);
  if (!user.ok()) return user.status();
  return store.set_user_plan(user->id, plan);
}

Status revoke_token(Store& store, const std::string& email, const std::string& name) {
  Result<User> user = user_by_email(store, email);
  if (!user.ok()) return user.status();
  Result<int> revoked = store.revoke_token(user->id, name);
  if (!revoked.ok()) return revoked.status();
  if (*revoked == 0) return Status::not_found("the user has no active token named " + name);
  return {};
}

Result<std::optional<std::string>> bootstrap_first_user(Store& store) {
  Result<std::int64_t> users = store.count_users();
  if (!users.ok()) return users.status();
  if (*users > 0) return std::optional<std::string>();
  NewUser user;
  user.email = "admin@localhost";
  user.name = "Administrator";
  user.plan = "pro";
  Result<User> created = store.create_user(user);
  if (!created.ok()) return created.status();
  Result<std::string> token = create_token(store, user.email, "bootstrap", {"*"}, std::nullopt);
  if (!token.ok()) return token.status();
  return std::optional<std::string>(std::move(*token));
}

}  // namespace scamcheck::server
