// The generated image and document fixtures (tests/fixtures/images/
// make_images.py), made once per test run in the build directory.
#ifndef SCAMCHECK_TESTS_UNIT_DECODE_IMAGE_IMAGE_FIXTURES_H_
#define SCAMCHECK_TESTS_UNIT_DECODE_IMAGE_IMAGE_FIXTURES_H_

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include "../../support/skip.h"

namespace scamcheck::testing {

// The fixture directory, generated on first use (SCAMCHECK_IMAGE_FIXTURES
// names it; default image_fixtures/ in the working directory). nullopt,
// after skip_case() (support/skip.h: fails when CI is set), if ImageMagick,
// qrencode or python3 is missing.
inline const std::optional<std::string>& image_fixtures() {
  static const std::optional<std::string> dir = []() -> std::optional<std::string> {
    const char* env = std::getenv("SCAMCHECK_IMAGE_FIXTURES");
    const std::string out = env && *env ? env : "image_fixtures";
    if (std::filesystem::exists(out + "/done.stamp")) return out;
    if (std::system("command -v convert >/dev/null && command -v qrencode >/dev/null && "
                    "command -v python3 >/dev/null") != 0) {
      skip_case("ImageMagick, qrencode or python3 missing; image fixtures not generated");
      return std::nullopt;
    }
    const std::string cmd =
        "python3 " SCAMCHECK_FIXTURES_DIR "/images/make_images.py '" + out + "'";
    if (std::system(cmd.c_str()) != 0) {
      skip_case("make_images.py failed");
      return std::nullopt;
    }
    return out;
  }();
  return dir;
}

inline std::string read_fixture(const std::string& dir, const std::string& name) {
  std::ifstream in(dir + "/" + name, std::ios::binary);
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

}  // namespace scamcheck::testing

#endif  // SCAMCHECK_TESTS_UNIT_DECODE_IMAGE_IMAGE_FIXTURES_H_
