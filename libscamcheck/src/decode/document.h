// What a document (kind document: PDF, DOCX) gives the checks: its text up
// to DecodeLimits::max_text_bytes (kMaxDocumentTextBytes), and whether more
// was left out.
#ifndef SCAMCHECK_DECODE_DOCUMENT_H_
#define SCAMCHECK_DECODE_DOCUMENT_H_

#include <cstddef>
#include <string>

namespace scamcheck::internal {

struct DocumentText {
  std::string text;
  bool cut = false;  // the document has more text than `text` holds
};

// Cuts `text` to at most `max_bytes`: after the last line break or space
// in the final 1 KiB before the limit (a link or word is not cut in two),
// else at the last UTF-8 character boundary. Trailing blanks go too. True
// when it was longer.
bool cut_document_text(std::string& text, std::size_t max_bytes);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_DECODE_DOCUMENT_H_
