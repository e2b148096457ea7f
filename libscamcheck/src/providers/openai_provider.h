// The OpenAI-compatible chat-completions client behind
// make_openai_provider(): how a request is written and a reply read.
#ifndef SCAMCHECK_PROVIDERS_OPENAI_PROVIDER_H_
#define SCAMCHECK_PROVIDERS_OPENAI_PROVIDER_H_

#include <string>
#include <string_view>

#include "scamcheck/providers.h"

namespace scamcheck::internal {

// The chat-completions URL for AiProviderOptions::url.
std::string chat_completions_url(std::string_view url);

// The JSON body of a chat-completions request: a system message with the
// instructions, a user message holding `request` as JSON, and
// response_format json_schema (verdict, score, summary, actions, signals).
std::string build_chat_request(const AiRequest& request, std::string_view model);

// Reads a chat-completions reply: choices[0].message.content must hold JSON
// of the schema, with a verdict that agrees with its score (CONTRACT §1);
// model and usage.prompt_tokens / completion_tokens are taken from the
// reply (`default_model` if it names none). Anything else is kInternal.
Result<AiReply> parse_chat_reply(std::string_view body, std::string_view default_model);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_PROVIDERS_OPENAI_PROVIDER_H_
