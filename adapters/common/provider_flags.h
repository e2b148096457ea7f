// The command-line flags that name an AI provider and URL reputation
// services, shared by scamcheckd serve, scamcheck and scamcheck-mcp: each
// service is off unless its flag (or environment variable) is given. Keys
// go to the library only: never logged, never part of a message.
#ifndef SCAMCHECK_ADAPTERS_COMMON_PROVIDER_FLAGS_H_
#define SCAMCHECK_ADAPTERS_COMMON_PROVIDER_FLAGS_H_

#include <string>

#include "scamcheck/scamcheck.h"

namespace scamcheck::adapters {

struct ProviderFlags {
  std::string ai_url, ai_key, ai_model;
  std::string safe_browsing_key, safe_browsing_url;
  std::string urlhaus_url, urlhaus_key;
};

// Sets Options::ai_provider and Options::url_reputation from the flags;
// kInvalidArgument (with the flag's name) for an incomplete or bad setting.
Status configure_providers(const ProviderFlags& flags, Options& options);

// Adds --ai-url, --ai-key, --ai-model, --safe-browsing-key,
// --safe-browsing-url, --urlhaus-url and --urlhaus-key (and their
// SCAMCHECK_* environment variables) to `app`, a CLI::App (CLI11; a
// template so that this header does not need CLI11 itself).
template <class CliApp>
void add_provider_flags(CliApp& app, ProviderFlags& flags) {
  const auto opt = [&app](const std::string& name, std::string& target, const std::string& env,
                          const std::string& help) {
    app.add_option(name, target, help)->envname(env)->type_name("TEXT")->group("Providers");
  };
  opt("--ai-url", flags.ai_url, "SCAMCHECK_AI_URL",
      "OpenAI-compatible chat-completions endpoint (base URL, .../v1 or .../chat/completions); "
      "without it reports are heuristic (model_used heuristic-fallback)");
  opt("--ai-key", flags.ai_key, "SCAMCHECK_AI_KEY",
      "AI provider API key, sent as a Bearer token (prefer the environment variable)");
  opt("--ai-model", flags.ai_model, "SCAMCHECK_AI_MODEL",
      "AI provider model (needed with --ai-url)");
  opt("--safe-browsing-key", flags.safe_browsing_key, "SCAMCHECK_SAFE_BROWSING_KEY",
      "Google Safe Browsing v4 API key: report URLs are looked up there (default: off)");
  opt("--safe-browsing-url", flags.safe_browsing_url, "SCAMCHECK_SAFE_BROWSING_URL",
      "Safe Browsing API base URL (default https://safebrowsing.googleapis.com)");
  opt("--urlhaus-url", flags.urlhaus_url, "SCAMCHECK_URLHAUS_URL",
      "URLhaus API base URL, e.g. https://urlhaus-api.abuse.ch: report URLs are looked up there "
      "(default: off)");
  opt("--urlhaus-key", flags.urlhaus_key, "SCAMCHECK_URLHAUS_KEY",
      "URLhaus Auth-Key (prefer the environment variable)");
}

}  // namespace scamcheck::adapters

#endif  // SCAMCHECK_ADAPTERS_COMMON_PROVIDER_FLAGS_H_
