#include "common/base64.h"

#include <sodium.h>

#include "common/ascii.h"

namespace scamcheck::adapters {

// libsodium decodes one alphabet, whole four-character groups and final
// groups whose unused bits are zero. CONTRACT §1 content is more lenient,
// so the input is first brought to that shape: whitespace dropped, the
// URL-safe alphabet mapped to the standard one, the padding checked and
// replaced by 'A's (zero bits); the bytes those 'A's add are cut off.
bool decode_base64(std::string_view in, std::string* out) {
  std::string b64;
  b64.reserve(in.size() + 3);
  for (const char c : in) {
    if (is_space(c)) continue;
    b64.push_back(c == '-' ? '+' : c == '_' ? '/' : c);
  }
  const std::size_t data = b64.find_last_not_of('=') + 1;  // npos + 1 == 0
  const std::size_t padding = b64.size() - data;
  const std::size_t missing = (4 - data % 4) % 4;
  if (missing == 3 || (padding != 0 && padding != missing)) return false;
  b64.resize(data);
  b64.append(missing, 'A');

  out->resize(b64.size() / 4 * 3);
  std::size_t size = 0;
  if (sodium_base642bin(reinterpret_cast<unsigned char*>(out->data()), out->size(), b64.data(),
                        b64.size(), nullptr, &size, nullptr,
                        sodium_base64_VARIANT_ORIGINAL_NO_PADDING) != 0) {
    return false;
  }
  out->resize(data * 6 / 8);
  return true;
}

}  // namespace scamcheck::adapters
