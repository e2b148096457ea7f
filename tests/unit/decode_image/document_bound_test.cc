// A document's text is read only up to kMaxDocumentTextBytes: the checks
// run on what a reader sees first, the report says the rest was left out,
// and a DOCX still gives the targets of all its links.
#include <doctest/doctest.h>
#include <zip.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "decode/document.h"
#include "pdf_builder.h"
#include "scamcheck/scamcheck.h"

using scamcheck::Analyzer;
using scamcheck::Kind;
using scamcheck::kMaxDocumentTextBytes;
using scamcheck::Options;
using scamcheck::Report;
using scamcheck::internal::cut_document_text;

namespace {

const Analyzer& analyzer() {
  static auto created = Analyzer::create(Options{});
  REQUIRE_MESSAGE(created.ok(), created.status().to_string());
  return **created;
}

// A zip archive of `entries` (name, bytes), written by libzip in memory.
std::string zip_of(const std::vector<std::pair<std::string, std::string>>& entries) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* buffer = zip_source_buffer_create(nullptr, 0, 0, &error);
  REQUIRE(buffer != nullptr);
  zip_source_keep(buffer);
  zip_t* zip = zip_open_from_source(buffer, ZIP_TRUNCATE, &error);
  REQUIRE(zip != nullptr);
  for (const auto& [name, bytes] : entries) {
    zip_source_t* s = zip_source_buffer(zip, bytes.data(), bytes.size(), 0);
    REQUIRE(s != nullptr);
    REQUIRE(zip_file_add(zip, name.c_str(), s, ZIP_FL_OVERWRITE) >= 0);
  }
  REQUIRE(zip_close(zip) == 0);
  REQUIRE(zip_source_open(buffer) == 0);
  REQUIRE(zip_source_seek(buffer, 0, SEEK_END) == 0);
  const zip_int64_t size = zip_source_tell(buffer);
  REQUIRE(zip_source_seek(buffer, 0, SEEK_SET) == 0);
  std::string out(static_cast<std::size_t>(size), '\0');
  REQUIRE(zip_source_read(buffer, out.data(), static_cast<zip_uint64_t>(size)) == size);
  zip_source_close(buffer);
  zip_source_free(buffer);
  zip_error_fini(&error);
  return out;
}

// A DOCX with one paragraph per element of `paragraphs`; the last
// paragraph holds a hyperlink to `link_target`.
std::string docx_of(const std::vector<std::string>& paragraphs, const std::string& link_target) {
  std::string body;
  for (std::size_t i = 0; i < paragraphs.size(); ++i) {
    body += "<w:p><w:r><w:t xml:space=\"preserve\">" + paragraphs[i] + "</w:t></w:r>";
    if (i + 1 == paragraphs.size()) {
      body += "<w:hyperlink r:id=\"rId5\"><w:r><w:t>the form</w:t></w:r></w:hyperlink>";
    }
    body += "</w:p>";
  }
  const std::string document =
      "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
      "<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\" "
      "xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\">"
      "<w:body>" +
      body + "</w:body></w:document>";
  const std::string rels =
      "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
      "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
      "<Relationship Id=\"rId5\" "
      "Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink\" "
      "Target=\"" +
      link_target + "\" TargetMode=\"External\"/></Relationships>";
  return zip_of({{"word/document.xml", document}, {"word/_rels/document.xml.rels", rels}});
}

// A PDF of one page per element of `pages`, each page's text in lines of
// at most 1,900 characters (uncompressed content streams, Helvetica).
std::string pdf_of(const std::vector<std::string>& pages) {
  std::vector<std::string> streams;
  for (const std::string& page : pages) {
    std::string stream;
    double y = 780;
    for (std::size_t at = 0; at < page.size(); at += 1900) {
      stream +=
          "BT /F1 0.35 Tf 20 " + std::to_string(y) + " Td (" + page.substr(at, 1900) + ") Tj ET\n";
      y -= 7.5;
    }
    streams.push_back(std::move(stream));
  }
  return scamcheck::testing::pdf_of(streams);
}

bool has_url(const Report& r, std::string_view host) {
  for (const auto& u : r.urls) {
    if (u.host == host) return true;
  }
  return false;
}

const char kScam[] =
    "Your account is locked, verify your password at http://secure-login.example-bank.xyz/login "
    "within 24 hours.";
const char kLateScam[] =
    "Your parcel could not be delivered, confirm your address at "
    "https://parcel-late.example.top/track today.";
const char kHam[] = "The meeting moved to Thursday, the slides are in the shared folder as before.";

}  // namespace

TEST_CASE("a document's text above the cap: the checks read its first part, the report says so") {
  std::vector<std::string> paragraphs{kScam};
  std::size_t size = 0;
  while (size < 2 * kMaxDocumentTextBytes) {
    paragraphs.emplace_back(kHam);
    size += sizeof kHam;
  }
  paragraphs.emplace_back(kLateScam);  // past the cap
  auto r = analyzer().analyze(docx_of(paragraphs, "http://late-form.example.top/f"),
                              Kind::kDocument, "en");
  REQUIRE_MESSAGE(r.ok(), r.status().to_string());
  CHECK(r->truncated);
  REQUIRE(r->extracted_text.has_value());
  const std::string& text = *r->extracted_text;
  CHECK(text.starts_with(kScam));
  CHECK(text.find("parcel-late") == std::string::npos);
  // The text read, then the target of every link of the document (the
  // report's 64 KiB bound shortens extracted_text further).
  CHECK(text.size() <= kMaxDocumentTextBytes + 1 + 30);
  CHECK(r->verdict != scamcheck::Verdict::kSafe);
  CHECK(has_url(*r, "secure-login.example-bank.xyz"));
  CHECK(has_url(*r, "late-form.example.top"));
  CHECK_FALSE(has_url(*r, "parcel-late.example.top"));
  bool signal_in_first_part = false;
  for (const auto& s : r->signals) {
    INFO(s.key << " at " << s.span.start);
    CHECK(s.location == "document");
    CHECK(s.span.end <= kMaxDocumentTextBytes + 1 + 30);
    if (s.span.end <= text.size()) {
      CHECK(text.substr(s.span.start, s.span.end - s.span.start) == s.evidence);
    }
    if (s.span.end <= sizeof kScam) signal_in_first_part = true;
  }
  CHECK(signal_in_first_part);
}

TEST_CASE("a document's text within the cap is read whole, not marked") {
  auto r = analyzer().analyze(docx_of({kScam, kHam, kLateScam}, "http://form.example.top/f"),
                              Kind::kDocument, "en");
  REQUIRE_MESSAGE(r.ok(), r.status().to_string());
  CHECK_FALSE(r->truncated);
  REQUIRE(r->extracted_text.has_value());
  CHECK(r->extracted_text->find("parcel-late") != std::string::npos);
  CHECK(has_url(*r, "parcel-late.example.top"));
  CHECK(has_url(*r, "form.example.top"));
}

TEST_CASE("a PDF's pages after the one that reaches the cap are not read") {
  std::string page = "Verify your password at http://secure-login.example-bank.xyz/login now.";
  while (page.size() < kMaxDocumentTextBytes / 3) page += std::string(" ") + kHam;
  auto r = analyzer().analyze(
      pdf_of({page, page, page, page, "Confirm at https://parcel-late.example.top/track"}),
      Kind::kDocument, "en");
  REQUIRE_MESSAGE(r.ok(), r.status().to_string());
  CHECK(r->truncated);
  REQUIRE(r->extracted_text.has_value());
  CHECK(r->extracted_text->starts_with("Verify your password"));
  CHECK(r->extracted_text->find("parcel-late") == std::string::npos);
  CHECK(has_url(*r, "secure-login.example-bank.xyz"));
  CHECK_FALSE(has_url(*r, "parcel-late.example.top"));

  auto whole = analyzer().analyze(
      pdf_of({kHam, "Confirm at https://parcel-late.example.top/track"}), Kind::kDocument, "en");
  REQUIRE_MESSAGE(whole.ok(), whole.status().to_string());
  CHECK_FALSE(whole->truncated);
  CHECK(has_url(*whole, "parcel-late.example.top"));
}

TEST_CASE("a DOCX over 1 MiB of XML is read from its first MiB, its text whole characters") {
  const std::string greeting =
      "Gr\xC3\xBC\xC3\x9F"
      "e aus M\xC3\xBCnchen, bis Donnerstag.";
  // Each paragraph mostly markup (a run's properties), so that the text
  // of the first MiB is read to its end.
  const std::string paragraph = greeting + "</w:t></w:r><w:r><w:rPr><w:lang w:val=\"" +
                                std::string(900, 'x') +
                                "\"/></w:rPr><w:t xml:space=\"preserve\"> " + greeting;
  std::vector<std::string> paragraphs;
  std::size_t xml = 0;
  while (xml < (std::size_t{3} << 19)) {  // 1.5 MiB
    paragraphs.push_back(paragraph);
    xml += paragraph.size() + 60;
  }
  auto r =
      analyzer().analyze(docx_of(paragraphs, "http://form.example.top/f"), Kind::kDocument, "de");
  REQUIRE_MESSAGE(r.ok(), r.status().to_string());
  CHECK(r->truncated);
  REQUIRE(r->extracted_text.has_value());
  CHECK(r->extracted_text->starts_with(greeting));
  CHECK(r->extracted_text->find('?') == std::string::npos);  // not replaced as invalid UTF-8
}

TEST_CASE("cut_document_text cuts at a blank before the limit, else at a character") {
  std::string s = "alpha beta gamma";
  CHECK_FALSE(cut_document_text(s, 16));
  CHECK(s == "alpha beta gamma");
  CHECK(cut_document_text(s, 13));
  CHECK(s == "alpha beta");
  std::string word(3000, 'x');
  CHECK(cut_document_text(word, 2000));
  CHECK(word.size() == 2000);
  std::string umlauts;
  for (int i = 0; i < 1500; ++i) umlauts += "\xC3\xBC";  // ü, no blank anywhere
  CHECK(cut_document_text(umlauts, 1001));
  CHECK(umlauts.size() == 1000);
}
