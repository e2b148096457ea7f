// A PDF's text layer read with poppler's core (Gfx) and an output device of
// our own: each glyph's Unicode text in the order the content stream draws
// it, a space where the glyphs leave a gap and a line break where the
// baseline moves. No page layout analysis (poppler's TextOutputDev sorts a
// page's words into blocks and columns, which costs far more than the
// parsing), and a page is left as soon as enough text was read.
#ifndef SCAMCHECK_DECODE_PDF_TEXT_H_
#define SCAMCHECK_DECODE_PDF_TEXT_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "decode/file_type.h"
#include "scamcheck/status.h"

class PDFDoc;

namespace scamcheck::internal {

class PdfTextReader {
 public:
  // Opens the PDF in `bytes`, which are read in place (not copied) and must
  // outlive the reader. kInvalidArgument for a damaged PDF or one protected
  // by a password.
  static Result<std::unique_ptr<PdfTextReader>> open(std::string_view bytes);
  ~PdfTextReader();
  PdfTextReader(const PdfTextReader&) = delete;
  PdfTextReader& operator=(const PdfTextReader&) = delete;

  int pages() const { return pages_; }

  // The text of page `index` (0-based) into *text (replacing it): words
  // separated by one space, lines by one '\n', no blank at either end.
  // Stops reading the page once *text holds more than `max_bytes` (and
  // returns true) or when `limits` expire (the caller checks
  // limits.expired()).
  bool read_page(int index, std::size_t max_bytes, const DecodeLimits& limits,
                 std::string* text) const;

 private:
  explicit PdfTextReader(std::unique_ptr<PDFDoc> doc);

  std::unique_ptr<PDFDoc> doc_;
  int pages_ = 0;
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_DECODE_PDF_TEXT_H_
