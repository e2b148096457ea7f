// Fitting the linear model (model/linear_model.h): logistic regression by
// AdaGrad over hashed features, and Platt scaling of its raw scores. Used by
// the training tool (tools/train) and its tests; the library itself never
// trains. Deterministic: the same examples and options give the same
// weights, bit for bit (one thread, a fixed seed, a fixed visiting order).
#ifndef SCAMCHECK_MODEL_TRAINER_H_
#define SCAMCHECK_MODEL_TRAINER_H_

#include <cstdint>
#include <vector>

#include "model/features.h"

namespace scamcheck::internal::model {

// One training input: its finished features as (bucket, value) pairs.
struct Example {
  std::vector<std::uint32_t> index;
  std::vector<float> value;
  float label = 0;         // 1 = scam or spam, 0 = ham
  float weight = 1;        // how much its loss counts
  std::uint32_t fold = 0;  // cross-fitting fold, 0..folds-1
  // Who the example is (e.g. a hash of its kind and text), for
  // TrainOptions::keyed_order: its place in each pass then depends on it
  // alone, not on how many examples come before it.
  std::uint64_t key = 0;

  // REQUIRES: `features` is finished.
  static Example from(const FeatureSet& features, std::uint32_t hash_bits, float label);
};

struct TrainOptions {
  std::uint32_t hash_bits = 18;  // 2^bits weights
  int epochs = 15;               // passes over the data
  double learning_rate = 0.2;    // AdaGrad step
  double l2 = 1e-5;              // L2 penalty per update, on the weights touched
  std::uint64_t seed = 1;        // order of the examples in each pass
  // false: each pass shuffles the examples' positions, so adding one
  // example anywhere reorders all the others. true: each pass visits them
  // sorted by a hash of (seed, pass, Example::key), so adding or removing
  // examples leaves the others in the same relative order.
  bool keyed_order = false;
};

// Sorts `rows` (indices into `examples`) into the order pass `epoch` visits
// them with TrainOptions::keyed_order: by a hash of (seed, epoch,
// Example::key), so that two examples' relative order never depends on the
// other examples.
void order_by_key(const std::vector<Example>& examples, std::uint64_t seed, int epoch,
                  std::vector<std::size_t>& rows);

// Trains on every example whose fold is not `skip_fold` (-1: all).
std::vector<float> train_logistic(const std::vector<Example>& examples, const TrainOptions& options,
                                  int skip_fold = -1);

// The raw score (weighted sum) of an example.
double raw_score(const std::vector<float>& weights, const Example& example);

// Platt scaling: a, b minimizing the log loss of sigmoid(a * z + b) against
// labels `y` (with Platt's smoothed targets). REQUIRES: z.size() == y.size().
struct Platt {
  double a = 1;
  double b = 0;
};
Platt fit_platt(const std::vector<double>& z, const std::vector<float>& y);

}  // namespace scamcheck::internal::model

#endif  // SCAMCHECK_MODEL_TRAINER_H_
