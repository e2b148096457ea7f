#include "decode/file_type.h"

#include <doctest/doctest.h>

#include <string>

#include "scamcheck/analyzer.h"

using scamcheck::Kind;
using scamcheck::sniff_kind;
using scamcheck::internal::FileType;
using scamcheck::internal::sniff_file_type;
using namespace std::string_view_literals;

TEST_CASE("magic bytes name the file type") {
  CHECK(sniff_file_type("\x89PNG\r\n\x1a\n...."sv) == FileType::kPng);
  CHECK(sniff_file_type("\xff\xd8\xff\xe0"sv) == FileType::kJpeg);
  CHECK(sniff_file_type("GIF89a.."sv) == FileType::kGif);
  CHECK(sniff_file_type("II*\0...."sv) == FileType::kTiff);
  CHECK(sniff_file_type("MM\0*...."sv) == FileType::kTiff);
  CHECK(sniff_file_type("BM" + std::string(40, '\0')) == FileType::kBmp);
  CHECK(sniff_file_type("RIFF\x10\0\0\0WEBPVP8 "sv) == FileType::kWebp);
  CHECK(sniff_file_type("%PDF-1.7\n"sv) == FileType::kPdf);
  CHECK(sniff_file_type("junk before\n%PDF-1.4\n"sv) == FileType::kPdf);
  CHECK(sniff_file_type("PK\x03\x04"sv) == FileType::kZip);
  CHECK(sniff_file_type("Your parcel is on hold"sv) == FileType::kUnknown);
  CHECK(sniff_file_type(""sv) == FileType::kUnknown);
  CHECK(sniff_file_type("BM"sv) == FileType::kUnknown);  // "BM..." text, too short for a BMP
}

TEST_CASE("sniff_kind tells files from text") {
  CHECK(sniff_kind("\x89PNG\r\n\x1a\n"sv) == Kind::kImage);
  CHECK(sniff_kind("%PDF-1.4"sv) == Kind::kDocument);
  CHECK(sniff_kind("PK\x03\x04"sv) == Kind::kDocument);
  CHECK_FALSE(sniff_kind("From: a@example.com\r\n\r\nhi"sv).has_value());
  CHECK_FALSE(sniff_kind("https://example.com"sv).has_value());
}
