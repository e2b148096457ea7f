#include "decode/image.h"

#define ZX_USE_UTF8 1
#include <BarcodeFormat.h>
#include <DecodeHints.h>
#include <ImageView.h>
#include <ReadBarcode.h>
#include <leptonica/allheaders.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <mutex>

#include "util/text.h"

namespace scamcheck::internal {
namespace {

// Leptonica reports bad input on stderr; the caller gets a Status instead.
void quiet_leptonica() {
  static std::once_flag once;
  std::call_once(once, [] { setMsgSeverity(L_SEVERITY_NONE); });
}

const l_uint8* bytes_of(std::string_view s) { return reinterpret_cast<const l_uint8*>(s.data()); }

unsigned le16(std::string_view s, std::size_t at) {
  return static_cast<unsigned char>(s[at]) | (static_cast<unsigned char>(s[at + 1]) << 8);
}

// GIF: Leptonica's header reader decodes every frame, so the logical screen
// and each frame's descriptor are read here instead. The decoder allocates
// every frame, so their areas add up.
Result<ImageSize> read_gif_size(std::string_view b) {
  const Status bad = Status::invalid_argument("the GIF image is truncated or damaged");
  if (b.size() < 13) return bad;
  ImageSize size{static_cast<int>(le16(b, 6)), static_cast<int>(le16(b, 8))};
  std::size_t pos = 13;
  const unsigned flags = static_cast<unsigned char>(b[10]);
  if (flags & 0x80) pos += 3u * (2u << (flags & 7));
  double frame_pixels = 0;
  auto skip_sub_blocks = [&]() {
    while (pos < b.size()) {
      const std::size_t n = static_cast<unsigned char>(b[pos]);
      pos += 1 + n;
      if (n == 0) return true;
    }
    return false;
  };
  while (pos < b.size()) {
    const unsigned char tag = static_cast<unsigned char>(b[pos]);
    if (tag == 0x3B) break;  // trailer
    if (tag == 0x21) {       // extension: label, then sub-blocks
      pos += 2;
      if (!skip_sub_blocks()) return bad;
    } else if (tag == 0x2C) {  // image descriptor
      if (pos + 10 > b.size()) return bad;
      const double w = le16(b, pos + 5);
      const double h = le16(b, pos + 7);
      frame_pixels += w * h;
      const unsigned f = static_cast<unsigned char>(b[pos + 9]);
      pos += 10;
      if (f & 0x80) pos += 3u * (2u << (f & 7));
      pos += 1;  // LZW minimum code size
      if (!skip_sub_blocks()) return bad;
    } else {
      return bad;
    }
  }
  // Report the larger of the screen and the frames' total as the area.
  const double screen = static_cast<double>(size.width) * size.height;
  if (frame_pixels > screen && size.width > 0) {
    size.height = static_cast<int>(std::min(frame_pixels / size.width, 2e9));
  }
  if (size.width <= 0 || size.height <= 0) return bad;
  return size;
}

// Leptonica's 8-bit accessors hide its word-wise byte order.
inline unsigned get_byte(const l_uint32* line, int x) { return GET_DATA_BYTE(line, x); }
inline void set_byte(l_uint32* line, int x, unsigned v) { SET_DATA_BYTE(line, x, v); }

// Background estimate: the median of a window about 44 px wide, computed on
// a 1:4 sample (text covers well under half of any such window, so the
// median is the surface the text is written on), scaled back up.
constexpr float kBackgroundSample = 0.25f;
constexpr int kBackgroundWindow = 11;  // in sampled pixels
// How much the difference to the background is stretched.
constexpr int kContrastGain = 2;
// Where the background itself changes by more than kSurfaceEdge within
// kEdgeReach samples (the outline of a chat bubble, a header bar), the
// difference is an edge, not text: left white. Text keeps more distance
// than that (about 8-12 px) from the edge of its bubble.
constexpr int kSurfaceEdge = 16;
constexpr int kEdgeReach = 2;
// Images narrower than this have small text: scale them up...
constexpr int kMinOcrWidth = 900;
constexpr float kMaxUpscale = 3.0f;
constexpr float kTargetUpscaledWidth = 1400.0f;
// ...and larger ones than this many pixels are scaled down to it.
constexpr double kMaxOcrPixels = 12e6;

}  // namespace

void PixDeleter::operator()(Pix* pix) const { pixDestroy(&pix); }

Result<ImageSize> read_image_size(std::string_view bytes) {
  quiet_leptonica();
  const FileType type = sniff_file_type(bytes);
  if (!is_image(type)) {
    return Status::invalid_argument(
        "not a supported image (expected PNG, JPEG, GIF, TIFF, BMP or WebP)");
  }
  if (type == FileType::kGif) return read_gif_size(bytes);
  l_int32 format = 0, w = 0, h = 0, bps = 0, spp = 0, iscmap = 0;
  if (pixReadHeaderMem(bytes_of(bytes), bytes.size(), &format, &w, &h, &bps, &spp, &iscmap) != 0 ||
      w <= 0 || h <= 0) {
    return Status::invalid_argument("the " + std::string(to_string(type)) +
                                    " image header is truncated or damaged");
  }
  return ImageSize{w, h};
}

Result<PixPtr> decode_gray_image(std::string_view bytes, const DecodeLimits& limits) {
  Result<ImageSize> size = read_image_size(bytes);
  if (!size.ok()) return size.status();
  const double pixels = static_cast<double>(size->width) * size->height;
  if (pixels > static_cast<double>(limits.max_pixels)) {
    return Status::out_of_range("the image is " + std::to_string(size->width) + "x" +
                                std::to_string(size->height) + " pixels; at most " +
                                std::to_string(limits.max_pixels) + " pixels are decoded");
  }
  PixPtr pix(pixReadMem(bytes_of(bytes), bytes.size()));
  if (!pix) {
    return Status::invalid_argument("the " + std::string(to_string(sniff_file_type(bytes))) +
                                    " image is truncated or damaged");
  }
  if (pixGetDepth(pix.get()) == 32 && pixGetSpp(pix.get()) == 4) {
    pix.reset(pixRemoveAlpha(pix.get()));
    if (!pix) return Status::internal("cannot flatten the image's transparency");
  }
  PixPtr gray(pixConvertTo8(pix.get(), 0));
  if (!gray) return Status::invalid_argument("the image has an unsupported pixel format");
  return gray;
}

PixPtr gray_from_pixels(const unsigned char* pixels, int width, int height, int stride) {
  PixPtr pix(pixCreate(width, height, 8));
  if (!pix) return pix;
  l_uint32* data = pixGetData(pix.get());
  const int wpl = pixGetWpl(pix.get());
  for (int y = 0; y < height; ++y) {
    l_uint32* line = data + static_cast<std::ptrdiff_t>(y) * wpl;
    const unsigned char* row = pixels + static_cast<std::ptrdiff_t>(y) * stride;
    for (int x = 0; x < width; ++x) set_byte(line, x, row[x]);
  }
  return pix;
}

PixPtr prepare_for_ocr(Pix* gray) {
  l_int32 w = 0, h = 0, d = 0;
  pixGetDimensions(gray, &w, &h, &d);
  PixPtr scaled;
  if (w < kMinOcrWidth) {
    const float f = std::min(kMaxUpscale, kTargetUpscaledWidth / static_cast<float>(w));
    scaled.reset(pixScaleGrayLI(gray, f, f));
  } else if (static_cast<double>(w) * h > kMaxOcrPixels) {
    const float f = static_cast<float>(std::sqrt(kMaxOcrPixels / (static_cast<double>(w) * h)));
    scaled.reset(pixScaleAreaMap(gray, f, f));
  }
  Pix* src = scaled ? scaled.get() : gray;
  pixGetDimensions(src, &w, &h, &d);

  // Per pixel: how far it is from the surface it sits on. Text is far from
  // its surface whichever is lighter, so dark mode and light text on
  // coloured bubbles come out as dark text on white like everything else.
  PixPtr sample(pixScaleBySampling(src, kBackgroundSample, kBackgroundSample));
  PixPtr median(sample ? pixMedianFilter(sample.get(), kBackgroundWindow, kBackgroundWindow)
                       : nullptr);
  PixPtr background(median ? pixScaleToSize(median.get(), w, h) : nullptr);
  PixPtr out(pixCreate(w, h, 8));
  if (!background || !out || pixGetDepth(background.get()) != 8) {
    return PixPtr(pixCopy(nullptr, src));
  }
  // Surface edges, per sample: max - min of the neighbourhood.
  l_int32 mw = 0, mh = 0, md = 0;
  pixGetDimensions(median.get(), &mw, &mh, &md);
  std::vector<std::uint8_t> edge(static_cast<std::size_t>(mw) * mh, 0);
  {
    const l_uint32* m = pixGetData(median.get());
    const int mwpl = pixGetWpl(median.get());
    for (int y = 0; y < mh; ++y) {
      for (int x = 0; x < mw; ++x) {
        unsigned lo = 255, hi = 0;
        for (int dy = -kEdgeReach; dy <= kEdgeReach; ++dy) {
          const int yy = std::clamp(y + dy, 0, mh - 1);
          const l_uint32* line = m + static_cast<std::ptrdiff_t>(yy) * mwpl;
          for (int dx = -kEdgeReach; dx <= kEdgeReach; ++dx) {
            const unsigned v = get_byte(line, std::clamp(x + dx, 0, mw - 1));
            lo = std::min(lo, v);
            hi = std::max(hi, v);
          }
        }
        edge[static_cast<std::size_t>(y) * mw + x] = hi - lo > kSurfaceEdge;
      }
    }
  }
  const l_uint32* s = pixGetData(src);
  const l_uint32* b = pixGetData(background.get());
  l_uint32* o = pixGetData(out.get());
  const int swpl = pixGetWpl(src), bwpl = pixGetWpl(background.get()), owpl = pixGetWpl(out.get());
  for (int y = 0; y < h; ++y) {
    const l_uint32* sl = s + static_cast<std::ptrdiff_t>(y) * swpl;
    const l_uint32* bl = b + static_cast<std::ptrdiff_t>(y) * bwpl;
    l_uint32* ol = o + static_cast<std::ptrdiff_t>(y) * owpl;
    const std::uint8_t* edge_row =
        edge.data() + static_cast<std::size_t>(std::min(mh - 1, y * mh / h)) * mw;
    for (int x = 0; x < w; ++x) {
      if (edge_row[std::min(mw - 1, x * mw / w)]) {
        set_byte(ol, x, 255);
        continue;
      }
      const int diff =
          std::abs(static_cast<int>(get_byte(sl, x)) - static_cast<int>(get_byte(bl, x)));
      set_byte(ol, x, static_cast<unsigned>(255 - std::min(255, diff * kContrastGain)));
    }
  }
  return out;
}

std::vector<std::string> read_qr_codes(Pix* gray) {
  l_int32 w = 0, h = 0, d = 0;
  pixGetDimensions(gray, &w, &h, &d);
  std::vector<std::string> payloads;
  if (d != 8 || w <= 0 || h <= 0) return payloads;
  std::vector<std::uint8_t> lum(static_cast<std::size_t>(w) * h);
  const l_uint32* data = pixGetData(gray);
  const int wpl = pixGetWpl(gray);
  for (int y = 0; y < h; ++y) {
    const l_uint32* line = data + static_cast<std::ptrdiff_t>(y) * wpl;
    for (int x = 0; x < w; ++x) {
      lum[static_cast<std::size_t>(y) * w + x] = static_cast<std::uint8_t>(get_byte(line, x));
    }
  }
  ZXing::DecodeHints hints;
  hints.setFormats(ZXing::BarcodeFormat::QRCode | ZXing::BarcodeFormat::MicroQRCode);
  hints.setTryHarder(true);
  hints.setTryRotate(true);
  auto read = [&]() {
    const ZXing::ImageView view(lum.data(), w, h, ZXing::ImageFormat::Lum);
    for (const ZXing::Result& r : ZXing::ReadBarcodes(view, hints)) {
      if (!r.isValid()) continue;
      std::string text = r.text();
      if (text.empty() || !is_valid_utf8(text)) continue;
      if (std::find(payloads.begin(), payloads.end(), text) == payloads.end()) {
        payloads.push_back(std::move(text));
      }
    }
  };
  read();
  if (payloads.empty()) {  // light modules on a dark ground (dark mode)
    for (std::uint8_t& v : lum) v = static_cast<std::uint8_t>(255 - v);
    read();
  }
  return payloads;
}

std::string tidy_text(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  int newlines = 0;
  std::size_t pos = 0;
  while (pos <= raw.size()) {
    std::size_t end = raw.find('\n', pos);
    if (end == std::string_view::npos) end = raw.size();
    std::string_view line = raw.substr(pos, end - pos);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r' ||
                             line.back() == '\f')) {
      line.remove_suffix(1);
    }
    while (!line.empty() && (line.front() == ' ' || line.front() == '\f')) line.remove_prefix(1);
    if (line.empty()) {
      ++newlines;
    } else {
      if (!out.empty()) out.append(newlines > 0 ? "\n\n" : "\n");
      out.append(line);
      newlines = 0;
    }
    pos = end + 1;
  }
  if (!is_valid_utf8(out)) {  // Tesseract writes UTF-8; keep the guarantee anyway
    std::string ascii;
    for (char c : out) ascii.push_back(static_cast<unsigned char>(c) < 0x80 ? c : '?');
    out = std::move(ascii);
  }
  return out;
}

Result<ImageText> read_image(std::string_view bytes, OcrPool* ocr, const DecodeLimits& limits) {
  Result<PixPtr> gray = decode_gray_image(bytes, limits);
  if (!gray.ok()) return gray.status();
  ImageText result;
  result.qr_payloads = read_qr_codes(gray->get());
  if (ocr != nullptr) {
    PixPtr prepared = prepare_for_ocr(gray->get());
    if (!prepared) return Status::internal("cannot prepare the image for OCR");
    gray->reset();  // the original is no longer needed: free it before OCR
    Result<std::string> text = ocr->recognize(prepared.get(), limits);
    if (!text.ok()) return text.status();
    result.text = tidy_text(*text);
  }
  return result;
}

}  // namespace scamcheck::internal
