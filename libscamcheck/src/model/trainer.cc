#include "model/trainer.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace scamcheck::internal::model {
namespace {

double sigmoid(double z) { return 1.0 / (1.0 + std::exp(-z)); }

// A uniform index in [0, n) from the engine's raw output (the standard
// distributions are not the same across library implementations).
std::size_t draw(std::mt19937_64& rng, std::size_t n) {
  return static_cast<std::size_t>(rng() % static_cast<std::uint64_t>(n));
}

// A 64-bit finalizer (splitmix64's): every input bit moves every output bit.
std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

Example Example::from(const FeatureSet& features, std::uint32_t hash_bits, float label) {
  Example e;
  e.label = label;
  e.index.reserve(features.hits.size());
  e.value.reserve(features.hits.size());
  for (const Hit& h : features.hits) {
    e.index.push_back(bucket(h.hash, hash_bits));
    e.value.push_back(h.value);
  }
  return e;
}

double raw_score(const std::vector<float>& weights, const Example& example) {
  double z = 0;
  for (std::size_t k = 0; k < example.index.size(); ++k) {
    z += static_cast<double>(weights[example.index[k]]) * example.value[k];
  }
  return z;
}

void order_by_key(const std::vector<Example>& examples, std::uint64_t seed, int epoch,
                  std::vector<std::size_t>& rows) {
  const std::uint64_t salt = mix64(seed * 0x100000001b3ull + static_cast<unsigned>(epoch));
  std::vector<std::pair<std::uint64_t, std::size_t>> ranked;
  ranked.reserve(rows.size());
  for (std::size_t row : rows) ranked.emplace_back(mix64(examples[row].key ^ salt), row);
  std::sort(ranked.begin(), ranked.end());
  for (std::size_t k = 0; k < ranked.size(); ++k) rows[k] = ranked[k].second;
}

std::vector<float> train_logistic(const std::vector<Example>& examples, const TrainOptions& options,
                                  int skip_fold) {
  const std::size_t size = std::size_t{1} << options.hash_bits;
  std::vector<float> w(size, 0.0f);
  std::vector<float> g2(size, 0.0f);  // AdaGrad's sum of squared gradients
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < examples.size(); ++i) {
    if (skip_fold < 0 || examples[i].fold != static_cast<std::uint32_t>(skip_fold)) {
      order.push_back(i);
    }
  }
  std::mt19937_64 rng(options.seed);
  constexpr double kInitialAccumulator = 1e-6;
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    if (options.keyed_order) {
      order_by_key(examples, options.seed, epoch, order);
    } else {
      for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[draw(rng, i)]);
    }
    for (std::size_t row : order) {
      const Example& e = examples[row];
      const double p = sigmoid(raw_score(w, e));
      const double g = (p - e.label) * e.weight;
      for (std::size_t k = 0; k < e.index.size(); ++k) {
        const std::uint32_t i = e.index[k];
        const double gi = g * e.value[k] + options.l2 * w[i];
        g2[i] += static_cast<float>(gi * gi);
        w[i] -= static_cast<float>(options.learning_rate * gi /
                                   std::sqrt(static_cast<double>(g2[i]) + kInitialAccumulator));
      }
    }
  }
  return w;
}

Platt fit_platt(const std::vector<double>& z, const std::vector<float>& y) {
  double positives = 0;
  for (float v : y) positives += v > 0.5f;
  const double negatives = static_cast<double>(y.size()) - positives;
  const double hi = (positives + 1) / (positives + 2);
  const double lo = 1 / (negatives + 2);
  auto loss = [&](double a, double b) {
    double l = 0;
    for (std::size_t i = 0; i < z.size(); ++i) {
      const double t = y[i] > 0.5f ? hi : lo;
      const double f = a * z[i] + b;
      // log(1 + exp(f)) - t * f, computed stably.
      l += (f > 0 ? f + std::log1p(std::exp(-f)) : std::log1p(std::exp(f))) - t * f;
    }
    return l;
  };
  Platt p;
  double current = loss(p.a, p.b);
  // Newton's method on (a, b), with step halving whenever a step does not
  // lower the loss.
  for (int iter = 0; iter < 100; ++iter) {
    double ga = 0, gb = 0, haa = 1e-9, hab = 0, hbb = 1e-9;
    for (std::size_t i = 0; i < z.size(); ++i) {
      const double t = y[i] > 0.5f ? hi : lo;
      const double q = sigmoid(p.a * z[i] + p.b);
      const double d = q - t;
      const double s = q * (1 - q);
      ga += d * z[i];
      gb += d;
      haa += s * z[i] * z[i];
      hab += s * z[i];
      hbb += s;
    }
    const double det = haa * hbb - hab * hab;
    if (std::fabs(det) < 1e-12) break;
    const double da = (hbb * ga - hab * gb) / det;
    const double db = (haa * gb - hab * ga) / det;
    double step = 1;
    bool improved = false;
    while (step > 1e-6) {
      const double next = loss(p.a - step * da, p.b - step * db);
      if (next < current) {
        p.a -= step * da;
        p.b -= step * db;
        improved = current - next > 1e-12;
        current = next;
        break;
      }
      step /= 2;
    }
    if (!improved) break;
  }
  return p;
}

}  // namespace scamcheck::internal::model
