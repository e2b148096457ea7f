#include "decode/file_reader.h"

#include "decode/docx.h"
#include "decode/image.h"
#include "decode/pdf.h"

namespace scamcheck::internal {

FileReader::FileReader(const Options& options)
    : ocr_(std::make_unique<OcrPool>(options.tessdata_dir, options.ocr_languages,
                                     options.ocr_engines)),
      timeout_ms_(options.decode_timeout_ms) {
  limits_.max_pixels = options.max_image_pixels;
  limits_.max_pages = options.max_document_pages;
  limits_.max_ocr_pages = options.max_ocr_pages;
  limits_.max_decompressed_bytes = options.max_decompressed_bytes;
}

DecodeLimits FileReader::limits() const {
  DecodeLimits l = limits_;
  if (timeout_ms_ > 0) l.deadline = Clock::now() + std::chrono::milliseconds(timeout_ms_);
  return l;
}

Result<FileText> FileReader::read(std::string_view bytes, Kind kind) const {
  const FileType type = sniff_file_type(bytes);
  if (kind == Kind::kImage) {
    if (!is_image(type)) {
      return Status::invalid_argument(
          type == FileType::kUnknown
              ? "not a supported image (expected PNG, JPEG, GIF, TIFF, BMP or WebP)"
              : "the content is a " + std::string(to_string(type)) +
                    " file, not an image (use kind document)");
    }
    // Without OCR models an image cannot be read: fail before decoding.
    if (!ocr_->status().ok()) return ocr_->status();
    Result<ImageText> image = read_image(bytes, ocr_.get(), limits());
    if (!image.ok()) return image.status();
    return FileText{std::move(image->text), std::move(image->qr_payloads)};
  }
  if (type == FileType::kPdf) {
    Result<DocumentText> doc = read_pdf_text(bytes, ocr_.get(), limits());
    if (!doc.ok()) return doc.status();
    return FileText{std::move(doc->text), {}, doc->cut};
  }
  if (type == FileType::kZip) {
    Result<DocumentText> doc = read_docx_text(bytes, limits());
    if (!doc.ok()) return doc.status();
    return FileText{std::move(doc->text), {}, doc->cut};
  }
  return Status::invalid_argument(
      is_image(type) ? "the content is a " + std::string(to_string(type)) +
                           " image, not a document (use kind image)"
                     : std::string("not a supported document (expected PDF or DOCX)"));
}

Result<std::vector<std::string>> FileReader::read_qr_codes(std::string_view bytes) const {
  Result<PixPtr> gray = decode_gray_image(bytes, limits());
  if (!gray.ok()) return gray.status();
  return internal::read_qr_codes(gray->get());
}

}  // namespace scamcheck::internal
