// Kinds image and document through Analyzer::analyze(): extracted text,
// signals located in it, and clear errors for corrupt and hostile files.
#include <doctest/doctest.h>

#include <chrono>
#include <string>

#include "image_fixtures.h"
#include "scamcheck/scamcheck.h"

using scamcheck::Analyzer;
using scamcheck::Kind;
using scamcheck::Options;
using scamcheck::Report;
using scamcheck::StatusCode;
using scamcheck::Verdict;
using scamcheck::testing::image_fixtures;
using scamcheck::testing::read_fixture;

namespace {

const Analyzer& analyzer() {
  static auto created = Analyzer::create(Options{.ocr_engines = 2});
  REQUIRE_MESSAGE(created.ok(), created.status().to_string());
  return **created;
}

bool ocr_ready() {
  if (analyzer().ocr_status().ok()) return true;
  scamcheck::testing::skip_case(analyzer().ocr_status().to_string());
  return false;
}

// Every signal quotes extracted_text at its span, at an image or document
// location.
void check_spans(const Report& r) {
  REQUIRE(r.extracted_text.has_value());
  const std::string& text = *r.extracted_text;
  for (const auto& s : r.signals) {
    INFO(s.key << " at " << s.location << " '" << s.evidence << "'");
    const bool file_location =
        s.location == "ocr" || s.location == "qr" || s.location == "document";
    CHECK(file_location);
    REQUIRE(s.span.end <= text.size());
    CHECK(s.span.start < s.span.end);
    CHECK(text.substr(s.span.start, s.span.end - s.span.start) == s.evidence);
  }
}

bool has_signal_at(const Report& r, std::string_view location) {
  for (const auto& s : r.signals) {
    if (s.location == location) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("input limits of images and documents") {
  const Analyzer& a = analyzer();
  CHECK(a.analyze("", Kind::kImage, "en").status().code() == StatusCode::kInvalidArgument);
  CHECK(a.analyze("just words", Kind::kDocument, "en").status().code() ==
        StatusCode::kInvalidArgument);
  std::string big(scamcheck::kMaxFileContentBytes + 1, '\0');
  big.replace(0, 8, "\x89PNG\r\n\x1a\n");
  CHECK(a.analyze(big, Kind::kImage, "en").status().code() == StatusCode::kOutOfRange);
}

TEST_CASE("a screenshot of a scam SMS is read and flagged") {
  const auto& dir = image_fixtures();
  if (!dir || !ocr_ready()) return;
  auto r =
      analyzer().analyze(read_fixture(*dir, "screenshots/en_parcel_sms.png"), Kind::kImage, "en");
  REQUIRE_MESSAGE(r.ok(), r.status().to_string());
  CHECK(r->kind == Kind::kImage);
  REQUIRE(r->extracted_text.has_value());
  INFO(*r->extracted_text);
  CHECK(r->extracted_text->find("parcel is on hold") != std::string::npos);
  CHECK(r->verdict != Verdict::kSafe);
  CHECK(has_signal_at(*r, "ocr"));
  CHECK(r->input_tokens > 20);
  check_spans(*r);
}

TEST_CASE("a dark-mode German chat is read") {
  const auto& dir = image_fixtures();
  if (!dir || !ocr_ready()) return;
  auto r =
      analyzer().analyze(read_fixture(*dir, "screenshots/de_grillen_chat.png"), Kind::kImage, "de");
  REQUIRE_MESSAGE(r.ok(), r.status().to_string());
  REQUIRE(r->extracted_text.has_value());
  INFO(*r->extracted_text);
  CHECK(r->extracted_text->find("Ich bringe Salat und") != std::string::npos);
  CHECK(r->extracted_text->find("Komm so gegen vier.") != std::string::npos);
  CHECK(r->verdict == Verdict::kSafe);
  check_spans(*r);
}

TEST_CASE("QR payloads follow the text and get the URL analysis") {
  const auto& dir = image_fixtures();
  if (!dir || !ocr_ready()) return;
  auto r = analyzer().analyze(read_fixture(*dir, "qr/qr_parking_fine.png"), Kind::kImage, "en");
  REQUIRE_MESSAGE(r.ok(), r.status().to_string());
  REQUIRE(r->extracted_text.has_value());
  const std::string url = "https://parking-fine-pay.xyz/ticket?id=88231";
  const std::string& text = *r->extracted_text;
  INFO(text);
  REQUIRE(text.size() > url.size());
  CHECK(text.substr(text.size() - url.size()) == url);
  CHECK(text[text.size() - url.size() - 1] == '\n');
  bool found = false;
  for (const auto& u : r->urls) found = found || u.registrable_domain == "parking-fine-pay.xyz";
  CHECK(found);
  CHECK(has_signal_at(*r, "qr"));
  check_spans(*r);
}

TEST_CASE("analyze_qr_codes reports each payload") {
  const auto& dir = image_fixtures();
  if (!dir) return;
  auto reports = analyzer().analyze_qr_codes(read_fixture(*dir, "qr/two.png"), "en");
  REQUIRE_MESSAGE(reports.ok(), reports.status().to_string());
  REQUIRE(reports->size() == 2);
  for (const Report& r : *reports) {
    CHECK(r.kind == Kind::kImage);
    check_spans(r);
  }
  int with_url = 0;
  for (const Report& r : *reports) with_url += r.urls.empty() ? 0 : 1;
  CHECK(with_url >= 1);
  auto none = analyzer().analyze_qr_codes(read_fixture(*dir, "screenshots/en_pickup_chat.png"));
  REQUIRE(none.ok());
  CHECK(none->empty());
  CHECK(analyzer().analyze_qr_codes("not an image").status().code() ==
        StatusCode::kInvalidArgument);
}

TEST_CASE("documents: text layer, scanned pages, DOCX") {
  const auto& dir = image_fixtures();
  if (!dir) return;
  const Analyzer& a = analyzer();
  auto pdf = a.analyze(read_fixture(*dir, "docs/text_layer.pdf"), Kind::kDocument, "en");
  REQUIRE_MESSAGE(pdf.ok(), pdf.status().to_string());
  REQUIRE(pdf->extracted_text.has_value());
  CHECK(pdf->extracted_text->find("your account has been suspended") != std::string::npos);
  CHECK(pdf->verdict != Verdict::kSafe);
  CHECK(has_signal_at(*pdf, "document"));
  check_spans(*pdf);

  auto docx = a.analyze(read_fixture(*dir, "docs/letter.docx"), Kind::kDocument, "en");
  REQUIRE_MESSAGE(docx.ok(), docx.status().to_string());
  REQUIRE(docx->extracted_text.has_value());
  INFO(*docx->extracted_text);
  CHECK(docx->extracted_text->find("Your PayPal account has been limited") != std::string::npos);
  // The hyperlink's real target, which the visible text hides.
  CHECK(docx->extracted_text->find("http://paypal-account-restore.top/verify") !=
        std::string::npos);
  CHECK(docx->verdict != Verdict::kSafe);
  check_spans(*docx);

  if (!ocr_ready()) return;
  auto scanned = a.analyze(read_fixture(*dir, "docs/scanned.pdf"), Kind::kDocument, "en");
  REQUIRE_MESSAGE(scanned.ok(), scanned.status().to_string());
  REQUIRE(scanned->extracted_text.has_value());
  INFO(*scanned->extracted_text);
  CHECK(scanned->extracted_text->find("has been suspended") != std::string::npos);
  CHECK(scanned->verdict != Verdict::kSafe);
  check_spans(*scanned);
}

TEST_CASE("corrupt and hostile files fail clearly within 2 s") {
  const auto& dir = image_fixtures();
  if (!dir) return;
  struct Case {
    const char* file;
    Kind kind;
    StatusCode code;
  };
  const Case cases[] = {
      {"hostile/truncated.png", Kind::kImage, StatusCode::kInvalidArgument},
      {"hostile/bomb_50000.png", Kind::kImage, StatusCode::kOutOfRange},
      {"hostile/pages_20000.pdf", Kind::kDocument, StatusCode::kOutOfRange},
      {"hostile/truncated.pdf", Kind::kDocument, StatusCode::kInvalidArgument},
      {"hostile/zipbomb.docx", Kind::kDocument, StatusCode::kOutOfRange},
      {"hostile/zipbomb_lying.docx", Kind::kDocument, StatusCode::kOutOfRange},
      {"hostile/not_a_docx.zip", Kind::kDocument, StatusCode::kInvalidArgument},
      {"docs/text_layer.pdf", Kind::kImage, StatusCode::kInvalidArgument},
      {"screenshots/en_parcel_sms.png", Kind::kDocument, StatusCode::kInvalidArgument},
  };
  // Created before the clock starts: the bound is on reading a file, not
  // on compiling the rules (seconds under the sanitizers).
  const Analyzer& a = analyzer();
  for (const Case& c : cases) {
    INFO(c.file);
    const std::string bytes = read_fixture(*dir, c.file);
    REQUIRE_FALSE(bytes.empty());
    const auto start = std::chrono::steady_clock::now();
    auto r = a.analyze(bytes, c.kind, "en");
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    REQUIRE_FALSE(r.ok());
    INFO(r.status().to_string());
    CHECK(r.status().code() == c.code);
    CHECK_FALSE(r.status().message().empty());
    CHECK(seconds < 2.0);
  }
}

TEST_CASE("without OCR models, images are unavailable and text still works") {
  auto created = Analyzer::create(Options{.tessdata_dir = "/nonexistent/tessdata"});
  REQUIRE(created.ok());
  const Analyzer& a = **created;
  CHECK(a.ocr_status().code() == StatusCode::kUnavailable);
  CHECK(a.analyze("Hi, see you at 7?", Kind::kText, "en").ok());
  const auto& dir = image_fixtures();
  if (!dir) return;
  auto r = a.analyze(read_fixture(*dir, "screenshots/en_parcel_sms.png"), Kind::kImage, "en");
  CHECK(r.status().code() == StatusCode::kUnavailable);
  // A text-layer PDF needs no OCR.
  CHECK(a.analyze(read_fixture(*dir, "docs/text_layer.pdf"), Kind::kDocument, "en").ok());
}
