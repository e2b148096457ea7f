#include "model/linear_model.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "scamcheck/scamcheck.h"

namespace model = scamcheck::internal::model;

namespace {

model::LinearModel small_model() {
  std::vector<float> w(1u << 10);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>((i % 7) - 3) * 0.5f;
  std::array<model::Calibration, 3> cal{};
  cal[1] = {0.8f, -0.2f, 0.3f, 0.8f};
  return model::LinearModel(10, w, cal);
}

std::string write_temp(const std::string& name, const std::string& bytes) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path.string();
}

}  // namespace

TEST_CASE("a model file round-trips") {
  const std::string bytes = small_model().serialize();
  CHECK(bytes.size() == 68 + 2 * 1024 + 4);
  auto parsed = model::LinearModel::parse(bytes, "test");
  REQUIRE_MESSAGE(parsed.ok(), parsed.status().to_string());
  CHECK((*parsed)->hash_bits() == 10);
  CHECK((*parsed)->serialize() == bytes);
  CHECK((*parsed)->calibration(scamcheck::Kind::kEmail).t_danger == doctest::Approx(0.8));
}

TEST_CASE("a damaged model file is a clear error") {
  const std::string good = small_model().serialize();
  auto error_of = [](const std::string& bytes) {
    auto parsed = model::LinearModel::parse(bytes, "m.bin");
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.status().code() == scamcheck::StatusCode::kInvalidArgument);
    return parsed.status().message();
  };
  CHECK(error_of("").find("SCMMODEL") != std::string::npos);
  CHECK(error_of(good.substr(0, good.size() - 10)).find("size") != std::string::npos);
  std::string flipped = good;
  flipped[100] ^= 0x01;
  CHECK(error_of(flipped).find("checksum") != std::string::npos);
  std::string version = good;
  version[8] = 9;
  CHECK(error_of(version).find("version") != std::string::npos);
}

TEST_CASE("Analyzer::create reports a bad model file and works without the model") {
  const std::string path = write_temp("scamcheck_bad_model.bin", "not a model");
  auto bad = scamcheck::Analyzer::create({.model_file = path});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message().find(path) != std::string::npos);
  CHECK(bad.status().message().find("not a valid model file") != std::string::npos);

  auto missing = scamcheck::Analyzer::create({.model_file = path + ".absent"});
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().code() == scamcheck::StatusCode::kNotFound);

  auto rules_only = scamcheck::Analyzer::create({.use_model = false, .model_file = path});
  CHECK(rules_only.ok());
  std::remove(path.c_str());

  auto embedded = scamcheck::Analyzer::create();
  REQUIRE_MESSAGE(embedded.ok(), embedded.status().to_string());
}

TEST_CASE("the shipped model is small and documented") {
  const std::filesystem::path dir = SCAMCHECK_DATA_DIR "/model";
  REQUIRE(std::filesystem::is_regular_file(dir / "model.bin"));
  CHECK(std::filesystem::file_size(dir / "model.bin") <= 5u * 1024 * 1024);
  REQUIRE(std::filesystem::is_regular_file(dir / "NOTICE"));
  std::ifstream in(dir / "NOTICE");
  const std::string notice((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const char* source :
       {"sms_spam_collection", "sms_smishing_mishra_soni", "spamassassin", "nazario_phishing",
        "urls_jpcert", "urls_phishing_database", "domains", "Almeida", "Mishra", "Majestic"}) {
    CHECK_MESSAGE(notice.find(source) != std::string::npos, source);
  }
}
