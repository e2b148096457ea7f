#include "decode/pdf_text.h"

#include <Error.h>
#include <ErrorCodes.h>
#include <GfxFont.h>
#include <GfxState.h>
#include <GlobalParams.h>
#include <Object.h>
#include <OutputDev.h>
#include <PDFDoc.h>
#include <Stream.h>
#include <UTF.h>
#include <goo/GooString.h>
#include <goo/gmem.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

namespace scamcheck::internal {
namespace {

// poppler's global parameters, set up once and never torn down (in static
// storage, never destroyed: a scan may still run while the process exits),
// with its error messages (damaged files) discarded: the caller gets a
// Status. The poppler-cpp documents that render pages for OCR share them.
void init_poppler() {
  alignas(GlobalParamsIniter) static unsigned char storage[sizeof(GlobalParamsIniter)];
  static std::once_flag once;
  std::call_once(
      once, [] { new (storage) GlobalParamsIniter(+[](ErrorCategory, Goffset, const char*) {}); });
}

// A glyph further from the end of the previous one than this many font
// sizes (along the line) starts a new word; one whose baseline is more
// than kNewLine font sizes away starts a new line, more than kParagraphGap
// away a new paragraph (after a blank line, as poppler's text blocks). A glyph that goes back
// by more than kBackward font sizes on the same line starts a new word
// too (text drawn out of order, a second column on the same baseline),
// unless it ends where the previous one began (right to left).
// A glyph drawn again within kDuplicate font sizes of the previous one
// with the same character (simulated bold) is dropped.
constexpr double kWordGap = 0.1;
constexpr double kNewLine = 0.5;
constexpr double kParagraphGap = 2.0;  // a blank line: not the next line
constexpr double kBackward = 0.3;
constexpr double kDuplicate = 0.1;

// A vector's length (std::hypot guards against overflow, at many times the
// cost, and every glyph needs one).
double length(double x, double y) { return std::sqrt(x * x + y * y); }

// White space as poppler's text extraction counts it.
bool is_space(Unicode u) {
  return u == 0x20 || (u >= 0x09 && u <= 0x0D) || u == 0x85 || u == 0xA0 || u == 0x1680 ||
         (u >= 0x2000 && u <= 0x200A) || u == 0x2028 || u == 0x2029 || u == 0x202F || u == 0x205F ||
         u == 0x3000;
}

// Collects a page's text as poppler's Gfx draws it (see pdf_text.h).
class TextCollector final : public OutputDev {
 public:
  TextCollector(std::string* out, std::size_t max_bytes) : out_(out), max_bytes_(max_bytes) {}

  bool full() const { return out_->size() > max_bytes_; }

  bool upsideDown() override { return true; }
  bool useDrawChar() override { return true; }
  bool interpretType3Chars() override { return false; }
  bool needNonText() override { return false; }  // images are not decoded

  void startPage(int, GfxState* state, XRef*) override {
    if (state != nullptr) {
      page_width_ = state->getPageWidth();
      page_height_ = state->getPageHeight();
    }
    have_previous_ = false;
    pending_ = kNone;
  }

  void drawChar(GfxState* state, double x, double y, double dx, double dy, double, double,
                CharCode code, int bytes, const Unicode* u, int u_len) override;

  void beginActualText(GfxState*, const GooString* text) override {
    if (actual_depth_++ > 0 || text == nullptr) return;
    Unicode* ucs4 = nullptr;
    const int n = TextStringToUCS4(text->toStr(), &ucs4);
    actual_.assign(ucs4, ucs4 + std::max(n, 0));
    gfree(ucs4);
    actual_pending_ = true;
  }
  void endActualText(GfxState*) override {
    if (actual_depth_ > 0 && --actual_depth_ == 0) {
      actual_pending_ = false;
      actual_.clear();
    }
  }

 private:
  enum Separator { kNone = 0, kSpace = 1, kLine = 2, kParagraph = 3 };

  void separate(Separator s) { pending_ = std::max(pending_, s); }
  void put(Unicode u);

  std::string* out_;
  std::size_t max_bytes_;
  double page_width_ = std::numeric_limits<double>::infinity();
  double page_height_ = std::numeric_limits<double>::infinity();
  Separator pending_ = kNone;
  // The previous glyph: its origin, the end of its advance, its direction
  // (a unit vector) and font size, all in device space; and its character.
  bool have_previous_ = false;
  double x_ = 0, y_ = 0, end_x_ = 0, end_y_ = 0, dir_x_ = 1, dir_y_ = 0, size_ = 1;
  Unicode last_ = 0;
  // /ActualText of marked content: said once, in place of the glyphs it
  // covers.
  int actual_depth_ = 0;
  bool actual_pending_ = false;
  std::vector<Unicode> actual_;
};

void TextCollector::put(Unicode u) {
  if (is_space(u)) {
    separate(kSpace);
    return;
  }
  if (u < 0x20 || (u >= 0x7F && u < 0xA0)) return;  // control characters
  if (u > 0x10FFFF || (u >= 0xD800 && u <= 0xDFFF)) u = 0xFFFD;
  if (pending_ != kNone && !out_->empty()) {
    out_->append(pending_ == kParagraph ? "\n\n" : pending_ == kLine ? "\n" : " ");
  }
  pending_ = kNone;
  char buffer[4];
  std::size_t n = 0;
  U8_APPEND_UNSAFE(buffer, n, u);
  out_->append(buffer, n);
}

void TextCollector::drawChar(GfxState* state, double x, double y, double dx, double dy, double,
                             double, CharCode code, int bytes, const Unicode* u, int u_len) {
  if (full()) return;
  // The glyph's advance without the character (and word) spacing, and its
  // origin, in device space.
  double spacing = state->getCharSpace();
  const bool space_code = code == 0x20 && bytes == 1;
  if (space_code) spacing += state->getWordSpace();
  double sx = 0, sy = 0;
  state->textTransformDelta(spacing * state->getHorizScaling(), 0, &sx, &sy);
  double w = 0, h = 0, x1 = 0, y1 = 0;
  state->transformDelta(dx - sx, dy - sy, &w, &h);
  state->transform(x, y, &x1, &y1);
  if (!std::isfinite(x1) || !std::isfinite(y1) || !std::isfinite(w) || !std::isfinite(h)) return;
  // Off the page: not seen, not read (as poppler's text extraction).
  if (x1 + w < 0 || x1 > page_width_ || y1 + h < 0 || y1 > page_height_) return;

  double size = state->getTransformedFontSize();
  const GfxFont* font = state->getFont().get();
  if (font != nullptr && font->getType() == fontType3) {
    // A Type 3 font's glyph units are its own: scale as if its matrix were
    // the usual 1/1000 of text space.
    const double* m = font->getFontMatrix();
    const double scale = std::abs(m[3]) > 0 ? std::abs(m[3]) : std::abs(m[0]);
    if (scale > 0) size *= scale * 1000;
  }
  if (!(size > 0) || !std::isfinite(size)) size = std::max(length(w, h), 1e-3);

  // Where the glyph is from the end of the previous one.
  const Unicode first = u_len > 0 ? u[0] : (space_code ? 0x20 : 0);
  if (have_previous_) {
    const double ex = x1 - end_x_, ey = y1 - end_y_;
    const double along = ex * dir_x_ + ey * dir_y_;
    const double across = ey * dir_x_ - ex * dir_y_;
    if (std::abs(across) > kNewLine * size_) {
      separate(std::abs(across) > kParagraphGap * size_ ? kParagraph : kLine);
    } else if (first != 0 && first == last_ && length(x1 - x_, y1 - y_) < kDuplicate * size_) {
      return;  // the same glyph drawn again over itself
    } else if (along > kWordGap * size_) {
      separate(kSpace);
    } else if (along < -kBackward * size_) {
      // Back along the line: a new word, unless the glyph ends where the
      // previous one began (right-to-left text drawn glyph by glyph).
      const double back = (x_ - x1 - w) * dir_x_ + (y_ - y1 - h) * dir_y_;
      if (back > kWordGap * size_ || back < -kBackward * size_) separate(kSpace);
    }
  }
  const double advance = length(w, h);
  if (advance > 1e-6 * size) {
    dir_x_ = w / advance;
    dir_y_ = h / advance;
  } else {  // no advance: the direction of the text's x axis
    double m11 = 1, m12 = 0, m21 = 0, m22 = 1;
    state->getFontTransMat(&m11, &m12, &m21, &m22);
    const double norm = length(m11, m12);
    if (norm > 0 && std::isfinite(norm)) {
      dir_x_ = m11 / norm;
      dir_y_ = m12 / norm;
    }
  }
  x_ = x1;
  y_ = y1;
  end_x_ = x1 + w;
  end_y_ = y1 + h;
  size_ = size;
  last_ = first;
  have_previous_ = true;

  if (actual_depth_ > 0) {
    if (actual_pending_) {
      for (Unicode a : actual_) put(a);
      actual_pending_ = false;
    }
    return;
  }
  if (u_len == 0 && space_code) separate(kSpace);
  for (int i = 0; i < u_len; ++i) put(u[i]);
}

struct PageRun {
  const TextCollector* collector;
  const DecodeLimits* limits;
};

bool stop_page(void* data) {
  const auto* run = static_cast<const PageRun*>(data);
  return run->collector->full() || run->limits->expired();
}

}  // namespace

PdfTextReader::PdfTextReader(std::unique_ptr<PDFDoc> doc) : doc_(std::move(doc)) {
  pages_ = doc_->getNumPages();
}

PdfTextReader::~PdfTextReader() = default;

Result<std::unique_ptr<PdfTextReader>> PdfTextReader::open(std::string_view bytes) {
  init_poppler();
  if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    return Status::out_of_range("the PDF is too large");
  }
  // The document reads the caller's bytes where they are.
  auto doc = std::make_unique<PDFDoc>(
      new MemStream(bytes.data(), 0, static_cast<Goffset>(bytes.size()), Object(objNull)));
  if (!doc->isOk()) {
    if (doc->getErrorCode() == errEncrypted) {
      return Status::invalid_argument("the PDF is protected by a password");
    }
    return Status::invalid_argument("the PDF is truncated or damaged and cannot be read");
  }
  return std::unique_ptr<PdfTextReader>(new PdfTextReader(std::move(doc)));
}

bool PdfTextReader::read_page(int index, std::size_t max_bytes, const DecodeLimits& limits,
                              std::string* text) const {
  text->clear();
  TextCollector collector(text, max_bytes);
  PageRun run{&collector, &limits};
  doc_->displayPage(&collector, index + 1, 72, 72, 0, /*useMediaBox=*/false, /*crop=*/true,
                    /*printing=*/false, stop_page, &run);
  return collector.full();
}

}  // namespace scamcheck::internal
