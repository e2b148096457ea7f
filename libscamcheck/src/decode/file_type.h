// File types of kinds image and document, told by their magic bytes, and the
// limits that keep a hostile file from exhausting memory or time.
#ifndef SCAMCHECK_DECODE_FILE_TYPE_H_
#define SCAMCHECK_DECODE_FILE_TYPE_H_

#include <chrono>
#include <cstddef>
#include <string_view>

#include "scamcheck/options.h"

namespace scamcheck::internal {

enum class FileType { kUnknown, kPng, kJpeg, kGif, kTiff, kBmp, kWebp, kPdf, kZip };

// The type named by the first bytes of `bytes` (a PDF's "%PDF-" may follow
// up to 1 KiB of junk, as readers accept). kZip covers DOCX.
FileType sniff_file_type(std::string_view bytes);

// "PNG", "PDF", ... for messages.
std::string_view to_string(FileType type);

constexpr bool is_image(FileType t) {
  return t == FileType::kPng || t == FileType::kJpeg || t == FileType::kGif ||
         t == FileType::kTiff || t == FileType::kBmp || t == FileType::kWebp;
}

using Clock = std::chrono::steady_clock;

// Bounds of one decode (from Options; see options.h for their meaning).
struct DecodeLimits {
  std::size_t max_pixels = 40'000'000;
  int max_pages = 50;
  int max_ocr_pages = 10;
  std::size_t max_decompressed_bytes = std::size_t{20} << 20;
  std::size_t max_text_bytes = kMaxDocumentTextBytes;  // of a document (document.h)
  Clock::time_point deadline = Clock::time_point::max();

  // Milliseconds left before `deadline` (0 when it has passed).
  long long remaining_ms() const;
  bool expired() const { return Clock::now() >= deadline; }
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_DECODE_FILE_TYPE_H_
