#include "common/provider_flags.h"

#include <memory>
#include <utility>
#include <vector>

namespace scamcheck::adapters {

Status configure_providers(const ProviderFlags& flags, Options& options) {
  if (!flags.ai_url.empty()) {
    if (flags.ai_model.empty()) return Status::invalid_argument("--ai-url needs --ai-model");
    auto ai = make_openai_provider(
        {.url = flags.ai_url, .api_key = flags.ai_key, .model = flags.ai_model});
    if (!ai.ok()) return Status::invalid_argument("--ai-url: " + ai.status().message());
    options.ai_provider = *ai;
  }
  std::vector<std::shared_ptr<UrlReputation>> sources;
  if (!flags.safe_browsing_key.empty()) {
    SafeBrowsingOptions sb;
    sb.api_key = flags.safe_browsing_key;
    if (!flags.safe_browsing_url.empty()) sb.url = flags.safe_browsing_url;
    auto source = make_safe_browsing(std::move(sb));
    if (!source.ok()) return Status::invalid_argument(source.status().message());
    sources.push_back(*source);
  } else if (!flags.safe_browsing_url.empty()) {
    return Status::invalid_argument("--safe-browsing-url needs --safe-browsing-key");
  }
  if (!flags.urlhaus_url.empty()) {
    auto source = make_urlhaus({.url = flags.urlhaus_url, .auth_key = flags.urlhaus_key});
    if (!source.ok()) return Status::invalid_argument(source.status().message());
    sources.push_back(*source);
  }
  if (sources.size() == 1) options.url_reputation = sources.front();
  if (sources.size() > 1) options.url_reputation = make_reputation_aggregate(std::move(sources));
  return {};
}

}  // namespace scamcheck::adapters
