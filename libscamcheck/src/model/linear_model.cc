#include "model/linear_model.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace scamcheck::internal::model {
namespace {

constexpr std::string_view kMagic = "SCMMODEL";
constexpr std::uint32_t kVersion = 1;
constexpr std::uint32_t kMinBits = 10;
constexpr std::uint32_t kMaxBits = 24;
constexpr std::size_t kHeaderBytes = 8 + 4 + 4 + 4 + 3 * 16;

std::uint32_t fnv1a(std::string_view bytes) {
  std::uint32_t h = 2166136261u;
  for (char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 16777619u;
  }
  return h;
}

void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
void put_f32(std::string& out, float f) {
  std::uint32_t v;
  std::memcpy(&v, &f, 4);
  put_u32(out, v);
}
std::uint32_t get_u32(std::string_view in, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i)
    v |= static_cast<std::uint32_t>(static_cast<unsigned char>(in[at + i])) << (8 * i);
  return v;
}
float get_f32(std::string_view in, std::size_t at) {
  const std::uint32_t v = get_u32(in, at);
  float f;
  std::memcpy(&f, &v, 4);
  return f;
}

}  // namespace

std::size_t kind_slot(Kind kind) {
  switch (kind) {
    case Kind::kEmail:
      return 1;
    case Kind::kUrl:
      return 2;
    default:
      return 0;
  }
}

LinearModel::LinearModel(std::uint32_t hash_bits, const std::vector<float>& weights,
                         const std::array<Calibration, 3>& calibrations)
    : bits_(hash_bits), calibrations_(calibrations) {
  float max_abs = 0;
  for (float w : weights) max_abs = std::max(max_abs, std::fabs(w));
  scale_ = max_abs > 0 ? max_abs / 32767.0f : 1.0f;
  q_.resize(weights.size());
  for (std::size_t i = 0; i < weights.size(); ++i) {
    q_[i] = static_cast<std::int16_t>(std::lround(weights[i] / scale_));
  }
}

Result<std::unique_ptr<LinearModel>> LinearModel::parse(std::string_view bytes,
                                                        const std::string& name) {
  auto bad = [&](const std::string& why) {
    return Status::invalid_argument(name + ": not a valid model file: " + why);
  };
  if (bytes.size() < kHeaderBytes + 4 || bytes.substr(0, kMagic.size()) != kMagic) {
    return bad("no \"SCMMODEL\" header");
  }
  if (const std::uint32_t v = get_u32(bytes, 8); v != kVersion) {
    return bad("format version " + std::to_string(v) + ", this library reads version " +
               std::to_string(kVersion));
  }
  const std::uint32_t bits = get_u32(bytes, 12);
  if (bits < kMinBits || bits > kMaxBits) {
    return bad("hash bits " + std::to_string(bits) + " outside " + std::to_string(kMinBits) + ".." +
               std::to_string(kMaxBits));
  }
  const std::size_t count = std::size_t{1} << bits;
  if (bytes.size() != kHeaderBytes + 2 * count + 4) {
    return bad("size " + std::to_string(bytes.size()) + " bytes, expected " +
               std::to_string(kHeaderBytes + 2 * count + 4) + " for 2^" + std::to_string(bits) +
               " weights");
  }
  if (get_u32(bytes, bytes.size() - 4) != fnv1a(bytes.substr(0, bytes.size() - 4))) {
    return bad("checksum mismatch (damaged or truncated)");
  }
  std::unique_ptr<LinearModel> m(new LinearModel());
  m->bits_ = bits;
  m->scale_ = get_f32(bytes, 16);
  if (!std::isfinite(m->scale_) || m->scale_ <= 0) return bad("weight scale must be > 0");
  for (std::size_t k = 0; k < 3; ++k) {
    Calibration& c = m->calibrations_[k];
    const std::size_t at = 20 + 16 * k;
    c.a = get_f32(bytes, at);
    c.b = get_f32(bytes, at + 4);
    c.t_suspicious = get_f32(bytes, at + 8);
    c.t_danger = get_f32(bytes, at + 12);
    if (!std::isfinite(c.a) || !std::isfinite(c.b) || c.a <= 0 || !(c.t_suspicious > 0) ||
        !(c.t_suspicious < c.t_danger) || !(c.t_danger < 1)) {
      return bad("calibration " + std::to_string(k) +
                 " needs a > 0 and 0 < t_suspicious < t_danger < 1");
    }
  }
  m->q_.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t at = kHeaderBytes + 2 * i;
    m->q_[i] = static_cast<std::int16_t>(static_cast<std::uint16_t>(
        static_cast<unsigned char>(bytes[at]) | (static_cast<unsigned char>(bytes[at + 1]) << 8)));
  }
  return m;
}

std::string LinearModel::serialize() const {
  std::string out(kMagic);
  put_u32(out, kVersion);
  put_u32(out, bits_);
  put_f32(out, scale_);
  for (const Calibration& c : calibrations_) {
    put_f32(out, c.a);
    put_f32(out, c.b);
    put_f32(out, c.t_suspicious);
    put_f32(out, c.t_danger);
  }
  out.reserve(out.size() + 2 * q_.size() + 4);
  for (std::int16_t q : q_) {
    const auto u = static_cast<std::uint16_t>(q);
    out.push_back(static_cast<char>(u & 0xFF));
    out.push_back(static_cast<char>(u >> 8));
  }
  put_u32(out, fnv1a(out));
  return out;
}

double LinearModel::raw_score(const FeatureSet& features) const {
  double z = 0;
  for (const Hit& h : features.hits) z += static_cast<double>(weight(h.hash)) * h.value;
  return z;
}

double LinearModel::probability(double raw_score, Kind kind) const {
  const Calibration& c = calibration(kind);
  return 1.0 / (1.0 + std::exp(-(c.a * raw_score + c.b)));
}

}  // namespace scamcheck::internal::model
