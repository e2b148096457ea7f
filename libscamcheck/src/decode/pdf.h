// PDF documents (kind document): the text layer of each page with
// poppler's core (pdf_text.h), and OCR of pages that have none (rendered
// by poppler-cpp).
#ifndef SCAMCHECK_DECODE_PDF_H_
#define SCAMCHECK_DECODE_PDF_H_

#include <string>
#include <string_view>

#include "decode/document.h"
#include "decode/file_type.h"
#include "decode/ocr_pool.h"
#include "scamcheck/status.h"

namespace scamcheck::internal {

// The text of every page (pdf_text.h: in the order the page draws it),
// pages separated by an empty line, cut to limits.max_text_bytes
// (document.h): a page is read only until the text reaches it, the pages
// after it not at all. Pages without
// a text layer are rendered and recognised with `ocr` (at most
// limits.max_ocr_pages of them; skipped if `ocr` is null).
// kInvalidArgument for a damaged, empty or password-protected PDF,
// kOutOfRange for more than limits.max_pages pages, kDeadlineExceeded past
// limits.deadline, and the OCR pool's errors.
Result<DocumentText> read_pdf_text(std::string_view bytes, OcrPool* ocr,
                                   const DecodeLimits& limits);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_DECODE_PDF_H_
