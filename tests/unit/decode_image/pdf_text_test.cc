// A PDF's text layer (decode/pdf_text.*): words whole and separated, lines
// kept, the text cap respected within a page, and damaged or protected
// files refused as CONTRACT §1 says.
#include "decode/pdf_text.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "decode/pdf.h"
#include "pdf_builder.h"

using scamcheck::StatusCode;
using scamcheck::internal::DecodeLimits;
using scamcheck::internal::PdfTextReader;
using scamcheck::internal::read_pdf_text;
using scamcheck::testing::pdf_of;

namespace {

// The text of a one-page PDF.
std::string text_of(const std::string& content) {
  auto r = read_pdf_text(pdf_of({content}), nullptr, DecodeLimits{});
  REQUIRE_MESSAGE(r.ok(), r.status().to_string());
  return r->text;
}

}  // namespace

TEST_CASE("PDF text: words separated by their gaps, lines by the baseline") {
  // Words placed apart by Td, no space characters; a second line below.
  CHECK(text_of("BT /F1 12 Tf 72 700 Td (Dear) Tj 40 0 Td (customer,) Tj ET\n"
                "BT /F1 12 Tf 72 684 Td (verify your account) Tj ET") ==
        "Dear customer,\nverify your account");
  // A line far below the last one follows after a blank line.
  CHECK(text_of("BT /F1 12 Tf 72 700 Td (Invoice) Tj 0 -100 Td (Total due) Tj ET") ==
        "Invoice\n\nTotal due");
  // Spaces drawn as characters, several in a row: one space.
  CHECK(text_of("BT /F1 12 Tf 72 700 Td (pay   now) Tj ET") == "pay now");
}

TEST_CASE("PDF text: kerning in a TJ array keeps words whole, wide moves separate them") {
  // Small adjustments (kerning) inside words, a quarter em between them.
  CHECK(text_of("BT /F1 12 Tf 72 700 Td [(In) 15 (vo) -20 (ice) -250 (due) -300 (today)] TJ ET") ==
        "Invoice due today");
  // Each letter placed by its own Td (as some generators write text).
  CHECK(text_of("BT /F1 12 Tf 72 700 Td (B) Tj 8 0 Td (a) Tj 6.67 0 Td (n) Tj 6.67 0 Td (k) Tj "
                "30 0 Td (login) Tj ET") == "Bank login");
}

TEST_CASE("PDF text: glyphs drawn right to left stay one word, in the order drawn") {
  // a, b, c each ending where the one before began (Helvetica 10 pt:
  // a and b 5.56 wide, c 5), then d after a gap.
  CHECK(text_of("BT /F1 10 Tf 200 700 Td (a) Tj -5.56 0 Td (b) Tj -5 0 Td (c) Tj -9.44 0 Td (d) Tj "
                "ET") == "abc d");
}

TEST_CASE("PDF text: two columns keep their words and lines apart") {
  // Drawn line by line across both columns (same baselines).
  const std::string across =
      "BT /F1 11 Tf 72 700 Td (Your parcel is) Tj 250 0 Td (Order number) Tj ET\n"
      "BT /F1 11 Tf 72 686 Td (waiting for you) Tj 250 0 Td (A-1234) Tj ET";
  CHECK(text_of(across) == "Your parcel is Order number\nwaiting for you A-1234");
  // Drawn one column after the other.
  const std::string down =
      "BT /F1 11 Tf 72 700 Td (Your parcel is) Tj 0 -14 Td (waiting for you) Tj ET\n"
      "BT /F1 11 Tf 322 700 Td (Order number) Tj 0 -14 Td (A-1234) Tj ET";
  CHECK(text_of(down) == "Your parcel is\nwaiting for you\nOrder number\nA-1234");
}

TEST_CASE("PDF text: text off the page and glyphs drawn twice over themselves are not read") {
  CHECK(text_of("BT /F1 12 Tf -900 700 Td (hidden) Tj ET BT /F1 12 Tf 72 700 Td (shown) Tj ET") ==
        "shown");
  // Simulated bold: each letter drawn again a hair to the right.
  CHECK(text_of("BT /F1 12 Tf 72 700 Td (O) Tj 0.2 0 Td (O) Tj 9.14 0 Td (K) Tj 0.2 0 Td (K) Tj "
                "ET") == "OK");
  // Marked content with /ActualText is read as that text.
  CHECK(text_of("BT /F1 12 Tf 72 700 Td (sign ) Tj /Span << /ActualText (office) >> BDC "
                "(XYZ) Tj EMC ET") == "sign office");
}

TEST_CASE("PDF text: a page is read only until the text passes the cap") {
  // 190 lines of 216 characters (2.5 pt: they fit the page's width).
  std::string line;
  while (line.size() < 200) line += "Confirm the payment today. ";
  std::string page;
  for (int y = 780; y > 20; y -= 4) {
    page += "BT /F1 2.5 Tf 20 " + std::to_string(y) + " Td (" + line + ") Tj ET\n";
  }
  const std::string pdf =
      pdf_of({page, "BT /F1 12 Tf 72 700 Td (second page https://late.example.top) Tj ET"});
  auto reader = PdfTextReader::open(pdf);
  REQUIRE_MESSAGE(reader.ok(), reader.status().to_string());
  std::string whole;
  CHECK_FALSE((*reader)->read_page(0, 1 << 20, DecodeLimits{}, &whole));
  CHECK(whole.size() > 40'000);
  CHECK(whole.find("Confirm the payment today.\nConfirm the payment") != std::string::npos);
  std::string part;
  CHECK((*reader)->read_page(0, 5000, DecodeLimits{}, &part));
  CHECK(part.size() > 5000);
  CHECK(part.size() < 5010);  // stopped at the first glyph past the cap
  CHECK(whole.starts_with(part));

  DecodeLimits limits;
  limits.max_text_bytes = 5000;
  auto r = read_pdf_text(pdf, nullptr, limits);
  REQUIRE_MESSAGE(r.ok(), r.status().to_string());
  CHECK(r->cut);
  CHECK(r->text.size() <= 5000);
  CHECK(r->text.size() > 4000);
  REQUIRE(whole.starts_with(r->text));
  const char after = whole[r->text.size()];
  CHECK((after == ' ' || after == '\n'));  // cut at a blank, not inside a word
  CHECK(r->text.find("late.example") == std::string::npos);
}

TEST_CASE("PDF text: damaged and password-protected PDFs are the contract's errors") {
  const std::string good = pdf_of({"BT /F1 12 Tf 72 700 Td (hello) Tj ET"});
  for (const std::string& bad : {std::string("%PDF-1.4\nnot a pdf at all\n"), good.substr(0, 60)}) {
    auto r = read_pdf_text(bad, nullptr, DecodeLimits{});
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == StatusCode::kInvalidArgument);
  }
  // The standard security handler with a user password that is not empty.
  const std::string hex32 = "<" + std::string(64, 'A') + ">";
  const std::string locked = pdf_of(
      {"BT /F1 12 Tf 72 700 Td (secret) Tj ET"},
      "/Encrypt 6 0 R /ID [<0123456789ABCDEF0123456789ABCDEF> <0123456789ABCDEF0123456789ABCDEF>]",
      {"<< /Filter /Standard /V 1 /R 2 /O " + hex32 + " /U " + hex32 + " /P -4 >>"});
  auto r = read_pdf_text(locked, nullptr, DecodeLimits{});
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kInvalidArgument);
  CHECK(r.status().message().find("password") != std::string::npos);

  DecodeLimits few;
  few.max_pages = 1;
  auto many = read_pdf_text(pdf_of({"BT ET", "BT ET"}), nullptr, few);
  REQUIRE_FALSE(many.ok());
  CHECK(many.status().code() == StatusCode::kOutOfRange);
}
