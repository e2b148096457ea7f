#include "decode/pdf.h"

#include <poppler-document.h>
#include <poppler-global.h>
#include <poppler-image.h>
#include <poppler-page-renderer.h>
#include <poppler-page.h>

#include <cmath>
#include <limits>
#include <memory>
#include <mutex>

#include "decode/image.h"
#include "decode/pdf_text.h"

namespace scamcheck::internal {
namespace {

// Poppler reports damaged files on stderr; the caller gets a Status instead
// (pages rendered for OCR; pdf_text.cc quiets poppler's core).
void quiet_poppler() {
  static std::once_flag once;
  std::call_once(
      once, [] { poppler::set_debug_error_function([](const std::string&, void*) {}, nullptr); });
}

// Pages without a text layer are rendered at this resolution (enough for
// body text of a scanned letter), less if the page would exceed
// kMaxPagePixels or the caller's pixel limit.
constexpr double kRenderDpi = 200;
constexpr double kMaxPagePixels = 12e6;

bool blank(std::string_view s) {
  for (char c : s) {
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t' && c != '\f') return false;
  }
  return true;
}

Result<std::string> ocr_page(const poppler::page& page, OcrPool& ocr, const DecodeLimits& limits) {
  const poppler::rectf box = page.page_rect();
  const double w_in = std::abs(box.width()) / 72.0;
  const double h_in = std::abs(box.height()) / 72.0;
  if (!(w_in > 0) || !(h_in > 0)) return std::string();
  const double max_pixels = std::min(kMaxPagePixels, static_cast<double>(limits.max_pixels));
  const double dpi = std::min(kRenderDpi, std::sqrt(max_pixels / (w_in * h_in)));
  if (!(dpi >= 1)) return std::string();  // a page too large to render legibly

  poppler::page_renderer renderer;
  renderer.set_image_format(poppler::image::format_gray8);
  renderer.set_render_hint(poppler::page_renderer::antialiasing);
  renderer.set_render_hint(poppler::page_renderer::text_antialiasing);
  const poppler::image image = renderer.render_page(&page, dpi, dpi);
  if (!image.is_valid() || image.format() != poppler::image::format_gray8) {
    return Status::invalid_argument("a page of the PDF cannot be rendered");
  }
  PixPtr gray = gray_from_pixels(reinterpret_cast<const unsigned char*>(image.const_data()),
                                 image.width(), image.height(), image.bytes_per_row());
  if (!gray) return Status::internal("cannot allocate the rendered page");
  PixPtr prepared = prepare_for_ocr(gray.get());
  gray.reset();
  if (!prepared) return Status::internal("cannot prepare the rendered page for OCR");
  return ocr.recognize(prepared.get(), limits);
}

}  // namespace

Result<DocumentText> read_pdf_text(std::string_view bytes, OcrPool* ocr,
                                   const DecodeLimits& limits) {
  Result<std::unique_ptr<PdfTextReader>> opened = PdfTextReader::open(bytes);
  if (!opened.ok()) return opened.status();
  const PdfTextReader& reader = **opened;
  const int pages = reader.pages();
  if (pages > limits.max_pages) {
    return Status::out_of_range("the PDF has " + std::to_string(pages) + " pages; at most " +
                                std::to_string(limits.max_pages) + " are read");
  }
  if (pages <= 0) {
    return Status::invalid_argument("the PDF has no readable pages (its page tree is damaged)");
  }
  DocumentText out;
  std::string& text = out.text;
  std::string page_text;
  // Pages without text are rendered by poppler-cpp, which opens its own
  // copy of the document: only when the first such page comes.
  std::unique_ptr<poppler::document> rendering;
  int ocr_pages = 0;
  for (int i = 0; i < pages; ++i) {
    if (text.size() >= limits.max_text_bytes) {
      out.cut = true;  // the later pages are not read
      break;
    }
    // Enough of the page to pass the limit, which the cut below then finds;
    // a page is left (or not begun) once the time is up.
    reader.read_page(i, limits.max_text_bytes - text.size(), limits, &page_text);
    if (limits.expired()) {
      return Status::deadline_exceeded("reading the PDF took longer than allowed");
    }
    if (blank(page_text) && ocr != nullptr && ocr_pages < limits.max_ocr_pages) {
      if (!rendering) {
        quiet_poppler();
        rendering.reset(
            poppler::document::load_from_raw_data(bytes.data(), static_cast<int>(bytes.size())));
        if (!rendering || rendering->is_locked()) {
          return Status::invalid_argument("a page of the PDF cannot be rendered");
        }
      }
      std::unique_ptr<poppler::page> page(rendering->create_page(i));
      if (page) {
        ++ocr_pages;
        Result<std::string> recognised = ocr_page(*page, *ocr, limits);
        if (!recognised.ok()) return recognised.status();
        page_text = std::move(recognised).value();
      }
    }
    page_text = tidy_text(page_text);
    if (page_text.empty()) continue;
    if (!text.empty()) text += "\n\n";
    text += page_text;
  }
  out.cut = cut_document_text(text, limits.max_text_bytes) || out.cut;
  return out;
}

}  // namespace scamcheck::internal
