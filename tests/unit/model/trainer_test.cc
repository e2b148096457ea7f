#include "model/trainer.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "analyzer_impl.h"
#include "model/linear_model.h"
#include "scamcheck/scamcheck.h"

namespace model = scamcheck::internal::model;

namespace {

struct Sample {
  const char* text;
  float label;
};

constexpr Sample kTiny[] = {
    {"WINNER! You have won a 1000 prize. Call 09061701461 to claim now", 1},
    {"Urgent: your account is suspended, verify at http://secure-bank.example.top/login", 1},
    {"Free entry to win a cash prize, text WIN to 87121 now", 1},
    {"Your parcel is on hold, pay the fee at https://parcel-fee.example.xyz", 1},
    {"Are we still on for lunch tomorrow? I'll bring the cake", 0},
    {"Kannst du mich heute Abend vom Bahnhof abholen? Danke dir", 0},
    {"Running late, the meeting overran. See you at home", 0},
    {"Thanks for dinner yesterday, it was lovely to see you all", 0},
};

std::vector<model::Example> tiny_examples(std::uint32_t bits) {
  auto created = scamcheck::Analyzer::create({.use_model = false});
  REQUIRE(created.ok());
  const auto& a = static_cast<const scamcheck::internal::AnalyzerImpl&>(**created);
  std::vector<model::Example> out;
  for (std::size_t i = 0; i < std::size(kTiny); ++i) {
    auto f = a.model_features(kTiny[i].text, scamcheck::Kind::kText);
    REQUIRE(f.ok());
    out.push_back(model::Example::from(*f, bits, kTiny[i].label));
    out.back().fold = static_cast<std::uint32_t>(i % 2);
  }
  return out;
}

}  // namespace

TEST_CASE("training is deterministic: the same data gives the same model file") {
  model::TrainOptions options;
  options.hash_bits = 12;
  options.epochs = 5;
  options.seed = 7;
  const auto examples = tiny_examples(options.hash_bits);
  const std::array<model::Calibration, 3> cal{};
  const std::string first =
      model::LinearModel(12, model::train_logistic(examples, options), cal).serialize();
  const std::string second =
      model::LinearModel(12, model::train_logistic(examples, options), cal).serialize();
  CHECK(first == second);

  // It learned the labels it saw.
  const auto w = model::train_logistic(examples, options);
  for (const auto& e : examples) {
    CHECK((model::raw_score(w, e) > 0) == (e.label > 0.5f));
  }
  // A held-out fold is left out of training.
  CHECK(model::train_logistic(examples, options, 0) != w);
}

TEST_CASE("Platt scaling fits a monotone calibration") {
  std::vector<double> z;
  std::vector<float> y;
  for (int i = -20; i <= 20; ++i) {
    z.push_back(i * 0.5);
    y.push_back(i > 2 ? 1.0f : 0.0f);
  }
  const model::Platt p = model::fit_platt(z, y);
  CHECK(p.a > 0);
  CHECK(p.a * 3.0 + p.b > 0);
  CHECK(p.a * -3.0 + p.b < 0);
}

TEST_CASE("keyed order: adding examples leaves the others' visiting order alone") {
  // 40 examples with keys 1..40, then the same with 10 more keys placed in
  // front of and among them (so every original example has another index).
  std::vector<model::Example> before(40);
  for (std::size_t i = 0; i < before.size(); ++i) before[i].key = 1000 + i;
  std::vector<model::Example> after;
  for (std::size_t i = 0; i < before.size(); ++i) {
    if (i % 4 == 0) after.emplace_back().key = 5000 + i;  // a new example
    after.push_back(before[i]);
  }
  auto keys_in_order = [](const std::vector<model::Example>& examples, int epoch) {
    std::vector<std::size_t> rows(examples.size());
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = i;
    model::order_by_key(examples, 3, epoch, rows);
    std::vector<std::uint64_t> keys;
    for (std::size_t r : rows) {
      if (examples[r].key < 5000) keys.push_back(examples[r].key);
    }
    return keys;
  };
  for (int epoch = 0; epoch < 3; ++epoch) {
    const auto a = keys_in_order(before, epoch);
    CHECK(a == keys_in_order(after, epoch));
    // Each pass has an order of its own, not the keys' order.
    CHECK(a != keys_in_order(before, epoch + 1));
    CHECK(!std::is_sorted(a.begin(), a.end()));
  }

  // Training with it is deterministic and learns the labels.
  model::TrainOptions options;
  options.hash_bits = 12;
  options.epochs = 5;
  options.keyed_order = true;
  auto examples = tiny_examples(options.hash_bits);
  for (std::size_t i = 0; i < examples.size(); ++i) examples[i].key = 77 * i + 5;
  const auto w = model::train_logistic(examples, options);
  CHECK(w == model::train_logistic(examples, options));
  for (const auto& e : examples) {
    CHECK((model::raw_score(w, e) > 0) == (e.label > 0.5f));
  }
}
