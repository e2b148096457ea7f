// Fuzzes the image and document decoders (kinds image and document) with
// small limits: file type sniffing, PDF and DOCX text extraction and QR
// decoding of images (OCR is left out: each call would cost a full
// Tesseract run, and Tesseract is not what is under test). Every outcome
// must be text in valid UTF-8 or a clean error, never a crash, a hang or a
// leak.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "decode/file_reader.h"
#include "scamcheck/scamcheck.h"
#include "util/text.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const scamcheck::internal::FileReader reader([] {
    scamcheck::Options o;
    o.ocr_engines = 1;
    o.max_image_pixels = 4'000'000;
    o.max_document_pages = 5;
    o.max_ocr_pages = 0;
    o.max_decompressed_bytes = std::size_t{2} << 20;
    o.decode_timeout_ms = 2'000;
    return o;
  }());
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::optional<scamcheck::Kind> kind = scamcheck::sniff_kind(bytes);
  if (kind == scamcheck::Kind::kDocument) {
    auto text = reader.read(bytes, scamcheck::Kind::kDocument);
    if (text.ok() && !scamcheck::internal::is_valid_utf8(text->text)) std::abort();
  } else if (kind == scamcheck::Kind::kImage) {
    auto codes = reader.read_qr_codes(bytes);
    if (codes.ok()) {
      for (const auto& payload : *codes) {
        if (!scamcheck::internal::is_valid_utf8(payload)) std::abort();
      }
    }
  }
  return 0;
}
