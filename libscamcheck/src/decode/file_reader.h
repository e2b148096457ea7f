// FileReader: the text of an image or document (kinds image and document,
// CONTRACT §1), read under the limits of Options: OCR and QR codes for
// images, the text layer (or OCR) for PDF, the XML text for DOCX.
#ifndef SCAMCHECK_DECODE_FILE_READER_H_
#define SCAMCHECK_DECODE_FILE_READER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "decode/file_type.h"
#include "decode/ocr_pool.h"
#include "scamcheck/options.h"
#include "scamcheck/report.h"
#include "scamcheck/status.h"

namespace scamcheck::internal {

// What a file says.
struct FileText {
  std::string text;                      // recognised or extracted text
  std::vector<std::string> qr_payloads;  // images: each QR code's payload
  bool cut = false;                      // documents: more text than kMaxDocumentTextBytes
};

// Thread-safe: read() may run on many threads at once; OCR work is bounded
// by the engine pool.
class FileReader {
 public:
  explicit FileReader(const Options& options);
  FileReader(const FileReader&) = delete;
  FileReader& operator=(const FileReader&) = delete;

  // REQUIRES: kind is kImage or kDocument. A file of the other kind's type
  // (a PDF sent as an image) is kInvalidArgument; see image.h, pdf.h and
  // docx.h for the other errors.
  Result<FileText> read(std::string_view bytes, Kind kind) const;

  // Every QR payload of an image, without OCR.
  Result<std::vector<std::string>> read_qr_codes(std::string_view bytes) const;

  // OK when OCR can run; kUnavailable (models missing) otherwise.
  const Status& ocr_status() const { return ocr_->status(); }

 private:
  DecodeLimits limits() const;  // with the deadline starting now

  std::unique_ptr<OcrPool> ocr_;
  DecodeLimits limits_;
  int timeout_ms_;
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_DECODE_FILE_READER_H_
