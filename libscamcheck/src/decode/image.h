// Images (kind image, and rendered PDF pages): decoding with Leptonica
// under a pixel limit, preparation of phone screenshots for OCR, and QR
// decoding with zxing-cpp.
#ifndef SCAMCHECK_DECODE_IMAGE_H_
#define SCAMCHECK_DECODE_IMAGE_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "decode/file_type.h"
#include "decode/ocr_pool.h"
#include "scamcheck/status.h"

struct Pix;

namespace scamcheck::internal {

struct PixDeleter {
  void operator()(Pix* pix) const;
};
// An owned Leptonica image.
using PixPtr = std::unique_ptr<Pix, PixDeleter>;

// The width and height an image file declares, read from its header alone.
struct ImageSize {
  int width = 0;
  int height = 0;
};

// Reads the dimensions of a PNG, JPEG, GIF (every frame), TIFF, BMP or
// WebP without decoding pixels. kInvalidArgument if `bytes` is no such
// image or its header is damaged.
Result<ImageSize> read_image_size(std::string_view bytes);

// Decodes `bytes` to an 8-bit grayscale image (transparency blended onto
// white). Fails with kOutOfRange before decoding anything if the header
// declares more than limits.max_pixels, kInvalidArgument for a file that is
// not a supported image or is corrupt.
Result<PixPtr> decode_gray_image(std::string_view bytes, const DecodeLimits& limits);

// Wraps 8-bit gray pixels (rows of `stride` bytes) in a new image.
PixPtr gray_from_pixels(const unsigned char* pixels, int width, int height, int stride);

// The 8-bit image Tesseract reads best: dark text on white whatever the
// theme (dark mode, coloured chat bubbles with light text), small text
// scaled up, very large images scaled down.
PixPtr prepare_for_ocr(Pix* gray);

// The payload of every QR code in `gray` (8 bits per pixel), in reading
// order, each once. Codes printed light on dark are found too.
std::vector<std::string> read_qr_codes(Pix* gray);

// Tesseract's text tidied: no trailing blanks on a line, at most one empty
// line in a row, none at the ends, and no bytes that are not valid UTF-8.
std::string tidy_text(std::string_view raw);

// What one image says: the recognised text and each QR payload.
struct ImageText {
  std::string text;
  std::vector<std::string> qr_payloads;
};

// Decodes `bytes` and reads its QR codes and, if `ocr` is not null, its
// text. Errors as decode_gray_image(), plus the OCR pool's.
Result<ImageText> read_image(std::string_view bytes, OcrPool* ocr, const DecodeLimits& limits);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_DECODE_IMAGE_H_
