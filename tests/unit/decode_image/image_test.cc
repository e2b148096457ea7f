#include "decode/image.h"

#include <doctest/doctest.h>
#include <leptonica/allheaders.h>

#include <algorithm>
#include <string>
#include <vector>

#include "image_fixtures.h"

using scamcheck::StatusCode;
using scamcheck::internal::decode_gray_image;
using scamcheck::internal::DecodeLimits;
using scamcheck::internal::PixPtr;
using scamcheck::internal::read_image_size;
using scamcheck::internal::read_qr_codes;
using scamcheck::internal::tidy_text;
using scamcheck::testing::image_fixtures;
using scamcheck::testing::read_fixture;

TEST_CASE("tidy_text trims lines and keeps at most one empty line") {
  CHECK(tidy_text("  \n\nHello  \n\n\n\nworld\t\n\n") == "Hello\n\nworld");
  CHECK(tidy_text("a\nb") == "a\nb");
  CHECK(tidy_text("") == "");
  CHECK(tidy_text("bad \xff byte") == "bad ? byte");
}

TEST_CASE("header sizes are read without decoding") {
  const auto& dir = image_fixtures();
  if (!dir) return;
  auto bomb = read_image_size(read_fixture(*dir, "hostile/bomb_50000.png"));
  REQUIRE(bomb.ok());
  CHECK(bomb->width == 50000);
  CHECK(bomb->height == 50000);
  auto shot = read_image_size(read_fixture(*dir, "screenshots/en_parcel_sms.png"));
  REQUIRE(shot.ok());
  CHECK(shot->width == 1080);
  CHECK(shot->height == 2340);

  DecodeLimits limits;
  auto decoded = decode_gray_image(read_fixture(*dir, "hostile/bomb_50000.png"), limits);
  CHECK(decoded.status().code() == StatusCode::kOutOfRange);
  auto truncated = decode_gray_image(read_fixture(*dir, "hostile/truncated.png"), limits);
  CHECK(truncated.status().code() == StatusCode::kInvalidArgument);
  CHECK(read_image_size("GIF89a").status().code() == StatusCode::kInvalidArgument);
  CHECK(read_image_size("plain text").status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("a GIF's frames count against the pixel limit") {
  // A 1x1 screen whose one frame claims 60000x60000.
  std::string gif = "GIF89a";
  gif += std::string("\x01\x00\x01\x00\x00\x00\x00", 7);
  gif += std::string("\x2c\x00\x00\x00\x00\x60\xea\x60\xea\x00\x02\x02\x44\x01\x00\x3b", 16);
  auto size = read_image_size(gif);
  REQUIRE(size.ok());
  CHECK(static_cast<double>(size->width) * size->height > 1e9);
  CHECK(decode_gray_image(gif, DecodeLimits{}).status().code() == StatusCode::kOutOfRange);
}

TEST_CASE("every QR code is decoded, dark ones too") {
  const auto& dir = image_fixtures();
  if (!dir) return;
  DecodeLimits limits;
  auto url = decode_gray_image(read_fixture(*dir, "qr/url.png"), limits);
  REQUIRE(url.ok());
  CHECK(read_qr_codes(url->get()) ==
        std::vector<std::string>{"https://paypal-login-verify.top/account"});
  auto dark = decode_gray_image(read_fixture(*dir, "qr/dark.png"), limits);
  REQUIRE(dark.ok());
  CHECK(read_qr_codes(dark->get()) ==
        std::vector<std::string>{"https://paypal-login-verify.top/account"});
  auto two = decode_gray_image(read_fixture(*dir, "qr/two.png"), limits);
  REQUIRE(two.ok());
  std::vector<std::string> payloads = read_qr_codes(two->get());
  std::sort(payloads.begin(), payloads.end());
  CHECK(payloads == std::vector<std::string>{"WIFI:S:CafeGuest;T:WPA;P:coffee2024;;",
                                             "https://parking-fine-pay.xyz/ticket?id=88231"});
}

TEST_CASE("preparation turns light text on dark into dark text on light") {
  // A dark ground (20) with a row of light strokes (230) standing in for text.
  std::vector<unsigned char> pixels(1000 * 400, 20);
  for (int y = 180; y < 220; ++y) {
    for (int x = 100; x < 900; ++x) {
      if (x % 16 < 4) pixels[y * 1000 + x] = 230;
    }
  }
  PixPtr gray = scamcheck::internal::gray_from_pixels(pixels.data(), 1000, 400, 1000);
  REQUIRE(gray);
  PixPtr prepared = scamcheck::internal::prepare_for_ocr(gray.get());
  REQUIRE(prepared);
  l_uint32 ground = 0, gap = 0, stroke = 0;
  pixGetPixel(prepared.get(), 20, 20, &ground);
  pixGetPixel(prepared.get(), 509, 200, &gap);
  pixGetPixel(prepared.get(), 513, 200, &stroke);
  CHECK(ground > 200);
  CHECK(gap > 200);
  CHECK(stroke < 60);
}
