// DOCX documents (kind document): the text of word/document.xml, read with
// libzip and pugixml under a limit on inflated bytes.
#ifndef SCAMCHECK_DECODE_DOCX_H_
#define SCAMCHECK_DECODE_DOCX_H_

#include <string>
#include <string_view>

#include "decode/document.h"
#include "decode/file_type.h"
#include "scamcheck/status.h"

namespace scamcheck::internal {

// The document's text, one line per paragraph, followed by the target of
// each external hyperlink (what a click opens, which the visible text need
// not show) on a line of its own. Only the first 1 MiB of document.xml are
// inflated and parsed, and the text is cut to limits.max_text_bytes
// (document.h); a document cut so gives the targets of all its hyperlinks
// (at most 200), not only of those in the text kept. kInvalidArgument for
// a damaged archive or one that is not a Word document, kOutOfRange when
// the XML exceeds limits.max_decompressed_bytes (checked against the zip
// directory first, then while inflating) or inflates to more than the
// directory says.
Result<DocumentText> read_docx_text(std::string_view bytes, const DecodeLimits& limits);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_DECODE_DOCX_H_
