#include "decode/charset.h"

#include <unicode/ucnv.h>
#include <unicode/ustring.h>

#include <cstdint>
#include <memory>

namespace scamcheck::internal {
namespace {

using Converter = std::unique_ptr<UConverter, decltype(&ucnv_close)>;

// ICU's "windows-1252" (ibm-5348) reads 0x81, 0x8D, 0x8F, 0x90 and 0x9D as
// the C1 controls of the same value, which is what we promise. A converter
// holds state, so each thread opens its own, once.
UConverter* windows1252() {
  thread_local const Converter converter = [] {
    UErrorCode status = U_ZERO_ERROR;
    return Converter(ucnv_open("windows-1252", &status), &ucnv_close);
  }();
  return converter.get();
}

}  // namespace

std::string windows1252_to_utf8(std::string_view bytes) {
  UConverter* converter = windows1252();
  const auto size = static_cast<std::int32_t>(bytes.size());
  // A single-byte charset: one UTF-16 unit per byte, at most three UTF-8
  // bytes per unit.
  std::u16string utf16(bytes.size() + 1, u'\0');
  UErrorCode status = U_ZERO_ERROR;
  const std::int32_t units =
      ucnv_toUChars(converter, utf16.data(), static_cast<std::int32_t>(utf16.size()), bytes.data(),
                    size, &status);
  std::string out(3 * static_cast<std::size_t>(units) + 1, '\0');
  std::int32_t length = 0;
  u_strToUTF8(out.data(), static_cast<std::int32_t>(out.size()), &length, utf16.data(), units,
              &status);
  // Only a missing ICU data file could fail here; the bytes stay readable.
  if (U_FAILURE(status)) return make_valid_utf8(bytes);
  out.resize(static_cast<std::size_t>(length));
  return out;
}

std::string guess_to_utf8(std::string_view bytes) {
  if (is_valid_utf8(bytes)) return std::string(bytes);
  return windows1252_to_utf8(bytes);
}

std::string_view truncate_utf8(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t end = max_bytes;
  // Back up over continuation bytes to the start of the cut character.
  while (end > 0 && (static_cast<std::uint8_t>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

}  // namespace scamcheck::internal
