// The learned model: logistic regression over hashed features
// (model/features.h), with a calibration and two verdict thresholds per
// kind. Trained by tools/train; shipped as data/model/model.bin.
//
// File format (little-endian), version 1:
//   offset  size            field
//   0       8               magic "SCMMODEL"
//   8       4   u32         format version (1)
//   12      4   u32         hash bits B (10..24): 2^B weights
//   16      4   f32         weight scale s (> 0): weight = s * q
//   20      3 x 16          per kind (text, email, url): f32 a, f32 b,
//                           f32 t_suspicious, f32 t_danger
//   68      2 * 2^B  i16    quantized weights q
//   end-4   4   u32         FNV-1a of every byte before it
// Probability of a scam or spam: p = 1 / (1 + exp(-(a * z + b))), z = the
// dot product of weights and features. p >= t_suspicious is at least
// suspicious, p >= t_danger is danger.
#ifndef SCAMCHECK_MODEL_LINEAR_MODEL_H_
#define SCAMCHECK_MODEL_LINEAR_MODEL_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/features.h"
#include "scamcheck/report.h"
#include "scamcheck/status.h"

namespace scamcheck::internal::model {

struct Calibration {
  float a = 1;  // Platt scaling of the raw score
  float b = 0;
  float t_suspicious = 0.5f;  // probability thresholds, 0 < t_suspicious < t_danger < 1
  float t_danger = 0.9f;
};

// The calibration slot of a kind (text 0, email 1, url 2).
std::size_t kind_slot(Kind kind);

// Immutable once built; safe to share across threads.
class LinearModel {
 public:
  // REQUIRES: weights.size() == 2^hash_bits.
  LinearModel(std::uint32_t hash_bits, const std::vector<float>& weights,
              const std::array<Calibration, 3>& calibrations);

  // Parses and validates a model file; `name` is used in error messages.
  static Result<std::unique_ptr<LinearModel>> parse(std::string_view bytes,
                                                    const std::string& name);
  // The file bytes (weights quantized to 16 bits). Deterministic.
  std::string serialize() const;

  std::uint32_t hash_bits() const { return bits_; }
  float weight(std::uint32_t hash) const { return scale_ * q_[bucket(hash, bits_)]; }
  const Calibration& calibration(Kind kind) const { return calibrations_[kind_slot(kind)]; }

  // z: the weighted sum of the features.
  double raw_score(const FeatureSet& features) const;
  // The calibrated probability for kind `kind`.
  double probability(double raw_score, Kind kind) const;

 private:
  LinearModel() = default;

  std::uint32_t bits_ = 0;
  float scale_ = 0;
  std::vector<std::int16_t> q_;
  std::array<Calibration, 3> calibrations_{};
};

}  // namespace scamcheck::internal::model

#endif  // SCAMCHECK_MODEL_LINEAR_MODEL_H_
