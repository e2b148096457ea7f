#include "decode/file_type.h"

#include <algorithm>

#include "scamcheck/analyzer.h"

namespace scamcheck {

std::optional<Kind> sniff_kind(std::string_view content) {
  const internal::FileType t = internal::sniff_file_type(content);
  if (internal::is_image(t)) return Kind::kImage;
  if (t == internal::FileType::kPdf || t == internal::FileType::kZip) return Kind::kDocument;
  return std::nullopt;
}

namespace internal {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

// How far into the file a reader still finds "%PDF-".
constexpr std::size_t kPdfHeaderWindow = 1024;

}  // namespace

FileType sniff_file_type(std::string_view b) {
  using namespace std::string_view_literals;
  if (starts_with(b, "\x89PNG\r\n\x1a\n"sv)) return FileType::kPng;
  if (starts_with(b, "\xff\xd8\xff"sv)) return FileType::kJpeg;
  if (starts_with(b, "GIF87a"sv) || starts_with(b, "GIF89a"sv)) return FileType::kGif;
  if (starts_with(b, "II*\0"sv) || starts_with(b, "MM\0*"sv)) return FileType::kTiff;
  if (starts_with(b, "BM"sv) && b.size() >= 26) return FileType::kBmp;
  if (starts_with(b, "RIFF"sv) && b.size() >= 12 && b.substr(8, 4) == "WEBP"sv) {
    return FileType::kWebp;
  }
  if (starts_with(b, "PK\x03\x04"sv)) return FileType::kZip;
  if (b.substr(0, kPdfHeaderWindow).find("%PDF-"sv) != std::string_view::npos) {
    return FileType::kPdf;
  }
  return FileType::kUnknown;
}

std::string_view to_string(FileType type) {
  switch (type) {
    case FileType::kPng:
      return "PNG";
    case FileType::kJpeg:
      return "JPEG";
    case FileType::kGif:
      return "GIF";
    case FileType::kTiff:
      return "TIFF";
    case FileType::kBmp:
      return "BMP";
    case FileType::kWebp:
      return "WebP";
    case FileType::kPdf:
      return "PDF";
    case FileType::kZip:
      return "ZIP";
    case FileType::kUnknown:
      break;
  }
  return "unknown";
}

long long DecodeLimits::remaining_ms() const {
  const auto now = Clock::now();
  if (now >= deadline) return 0;
  if (deadline == Clock::time_point::max()) return 1LL << 40;
  return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
}

}  // namespace internal
}  // namespace scamcheck
