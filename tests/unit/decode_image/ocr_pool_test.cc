// OcrPool: engines are loaded on first use and ended after an idle period.
#include "decode/ocr_pool.h"

#include <doctest/doctest.h>
#include <leptonica/allheaders.h>

#include <chrono>
#include <thread>

#include "../../support/skip.h"
#include "scamcheck/options.h"

using scamcheck::Options;
using scamcheck::internal::DecodeLimits;
using scamcheck::internal::OcrPool;

TEST_CASE("OCR engines load on first use and are ended after an idle period") {
  const Options defaults;
  OcrPool pool(defaults.tessdata_dir, defaults.ocr_languages, 1, std::chrono::milliseconds(300));
  if (!pool.status().ok()) {
    scamcheck::testing::skip_case(pool.status().to_string());
    return;
  }
  CHECK(pool.engines_alive() == 0);  // nothing loaded before a recognition
  Pix* blank = pixCreate(200, 60, 8);
  REQUIRE(blank != nullptr);
  pixSetAll(blank);  // white
  auto text = pool.recognize(blank, DecodeLimits{});
  REQUIRE_MESSAGE(text.ok(), text.status().to_string());
  CHECK(pool.engines_alive() == 1);
  // Ended within a few idle periods (the machine may be busy).
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (pool.engines_alive() > 0 && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  CHECK(pool.engines_alive() == 0);
  // The next recognition loads an engine again.
  text = pool.recognize(blank, DecodeLimits{});
  CHECK(text.ok());
  CHECK(pool.engines_alive() == 1);
  pixDestroy(&blank);
}
