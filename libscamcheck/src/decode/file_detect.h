// Images and documents: the text a FileReader reads from them (OCR, a PDF's
// or DOCX's text) and their QR codes' payloads, through the text stage.
#ifndef SCAMCHECK_DECODE_FILE_DETECT_H_
#define SCAMCHECK_DECODE_FILE_DETECT_H_

#include <string_view>

#include "decode/file_reader.h"
#include "text_stage.h"

namespace scamcheck::internal {

// Reads the file, sets report.extracted_text (CONTRACT §1: the recognised
// text, then each QR payload on its own line) and analyses it: findings get
// location "ocr" or "document", and "qr" for a payload, and index
// extracted_text. A payload that is one URL gets the URL analysis, any other
// the text stages.
Status detect_file(const FileReader& files, std::string_view content, Kind kind,
                   const TextStage& stage, Findings& findings, Report& report);

// A QR payload that is one URL (scheme optional) and nothing else.
bool is_url_payload(std::string_view payload);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_DECODE_FILE_DETECT_H_
