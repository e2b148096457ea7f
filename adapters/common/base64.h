// Base64 decoding for `content_encoding: "base64"` (CONTRACT §1), used by
// the CLI's --jsonl mode and the server.
#ifndef SCAMCHECK_ADAPTERS_COMMON_BASE64_H_
#define SCAMCHECK_ADAPTERS_COMMON_BASE64_H_

#include <string>
#include <string_view>

namespace scamcheck::adapters {

// Decodes standard base64 (RFC 4648 §4, "+/") into *out (replacing its
// contents, reusing its capacity). Also accepts the URL-safe alphabet
// ("-_"), missing "=" padding and ASCII whitespace anywhere (MIME-style line
// breaks). Returns false on any other character, misplaced padding or a
// dangling final character; *out is then unspecified.
bool decode_base64(std::string_view in, std::string* out);

}  // namespace scamcheck::adapters

#endif  // SCAMCHECK_ADAPTERS_COMMON_BASE64_H_
