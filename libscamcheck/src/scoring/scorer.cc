#include "scoring/scorer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <numeric>
#include <unordered_map>
#include <utility>

#include "util/json.h"

namespace scamcheck::internal {

Result<std::unique_ptr<Scorer>> Scorer::load(const DataSource& data, const Texts& texts) {
  const std::string name = data.describe("scoring.json");
  auto text = data.read("scoring.json");
  if (!text.ok()) return text.status();
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (Status s = parse_data_file(parser, *text, name, doc); !s.ok()) return s;

  auto scorer = std::make_unique<Scorer>();
  std::string problems;
  auto number = [&](std::string_view field, double& out) {
    if (doc[field].get_double().get(out) || out <= 0) {
      problems += name + ": \"" + std::string(field) + "\" must be a positive number; ";
    }
  };
  number("scale", scorer->scale_);
  number("repeat_factor", scorer->repeat_factor_);
  number("repeat_cap", scorer->repeat_cap_);
  if (doc["context_min_weight"].get_double().get(scorer->context_min_weight_) ||
      scorer->context_min_weight_ < 0) {
    problems += name + ": \"context_min_weight\" must be a number >= 0; ";
  }
  simdjson::dom::object floors;
  if (doc["rules_floor"].get_object().get(floors)) {
    problems += name + ": \"rules_floor\" must be an object {\"text\": 0-100, \"email\": 0-100}; ";
  } else {
    for (auto [kind, floor] :
         {std::pair<std::string_view, int*>{"text", &scorer->text_rules_floor_},
          {"email", &scorer->email_rules_floor_}}) {
      std::int64_t value = 0;
      if (floors[kind].get_int64().get(value) || value < 0 || value > 100) {
        problems +=
            name + ": \"rules_floor\" \"" + std::string(kind) + "\" must be an integer 0-100; ";
      } else {
        *floor = static_cast<int>(value);
      }
    }
    for (auto [kind, value] : floors) {
      if (kind != "text" && kind != "email") {
        problems += name + ": \"rules_floor\" has floors for text and email only, not '" +
                    std::string(kind) + "'; ";
      }
    }
  }

  // Optional: the lowest risk score a sign of a given severity sets.
  simdjson::dom::object severity_floors;
  if (!doc["severity_floors"].get_object().get(severity_floors)) {
    for (auto [severity, value] : severity_floors) {
      std::int64_t floor = 0;
      const std::size_t index = severity == "low"      ? 0
                                : severity == "medium" ? 1
                                : severity == "high"   ? 2
                                                       : 3;
      if (index == 3) {
        problems += name + ": \"severity_floors\" has low, medium and high, not '" +
                    std::string(severity) + "'; ";
      } else if (value.get_int64().get(floor) || floor < 0 || floor > 100) {
        problems += name + ": \"severity_floors\" values must be integers 0-100; ";
      } else {
        scorer->severity_floors_[index] = static_cast<int>(floor);
      }
    }
  } else if (doc["severity_floors"].error() != simdjson::NO_SUCH_FIELD) {
    problems += name + ": \"severity_floors\" must be an object; ";
  }

  // Default weight by severity, then per-key overrides.
  std::map<std::string, double, std::less<>> by_severity;
  simdjson::dom::object defaults, weights;
  if (doc["severity_weights"].get_object().get(defaults) ||
      doc["weights"].get_object().get(weights)) {
    return Status::invalid_argument(name + ": needs objects \"severity_weights\" and \"weights\"");
  }
  for (auto [severity, value] : defaults)
    by_severity[std::string(severity)] = value.get_double().value_unsafe();
  for (const GlossaryEntry& e : texts.entries()) {
    auto it = by_severity.find(to_string(e.default_severity));
    if (it == by_severity.end()) {
      problems += name + ": no severity_weights entry for " +
                  std::string(to_string(e.default_severity)) + "; ";
      continue;
    }
    scorer->key_weights_[e.key] = it->second;
  }
  for (auto [key, value] : weights) {
    double w = 0;
    if (!texts.find(key)) {
      problems += name + ": weight for unknown key '" + std::string(key) + "'; ";
    } else if (value.get_double().get(w) || w < 0) {
      problems += name + ": weight of '" + std::string(key) + "' must be a number >= 0; ";
    } else {
      scorer->key_weights_[std::string(key)] = w;
    }
  }
  if (!problems.empty()) return Status::invalid_argument(problems);
  return scorer;
}

std::optional<int> Scorer::rules_floor(Kind kind) const {
  if (kind == Kind::kText) return text_rules_floor_;
  if (kind == Kind::kEmail) return email_rules_floor_;
  return std::nullopt;
}

void Scorer::apply_floor(const Findings& findings, Score& score) const {
  int floor = 0;
  std::optional<std::size_t> by;
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    if (!f.severity || f.requires_context || f.strength < 1.0) continue;
    const int value = severity_floors_[static_cast<std::size_t>(*f.severity)];
    if (value > floor) {
      floor = value;
      by = i;
    }
  }
  if (!by) return;
  score.strong_sign = by;
  if (score.risk_score < floor) {
    score.risk_score = floor;
    score.verdict = verdict_for_score(floor);
    score.confidence = std::clamp(score.confidence, 50, 80);
  }
  // The sign that decided comes first: the summary names it.
  auto it = std::find(score.ranked.begin(), score.ranked.end(), *by);
  if (it != score.ranked.end()) std::rotate(score.ranked.begin(), it, it + 1);
}

double Scorer::weight_of(const Finding& f) const {
  if (f.weight > 0) return f.weight * f.strength;
  auto it = key_weights_.find(f.key);
  return (it == key_weights_.end() ? 0.0 : it->second) * f.strength;
}

Score Scorer::score(const Findings& findings) const {
  Score result;
  result.weights.resize(findings.size());
  for (std::size_t i = 0; i < findings.size(); ++i) result.weights[i] = weight_of(findings[i]);
  result.ranked.resize(findings.size());
  std::iota(result.ranked.begin(), result.ranked.end(), 0);
  // Heaviest first, equal weights in finding order. A few findings (most
  // inputs) by insertion, without the buffer std::stable_sort allocates.
  const std::vector<double>& w = result.weights;
  if (findings.size() <= 32) {
    std::vector<std::size_t>& r = result.ranked;
    for (std::size_t i = 1; i < r.size(); ++i) {
      const std::size_t key = r[i];
      std::size_t j = i;
      for (; j > 0 && w[r[j - 1]] < w[key]; --j) r[j] = r[j - 1];
      r[j] = key;
    }
  } else {
    std::stable_sort(result.ranked.begin(), result.ranked.end(),
                     [&](std::size_t a, std::size_t b) { return w[a] > w[b]; });
  }

  // Per key: strongest in full, repeats damped and capped. The map's nodes
  // come from a buffer on the stack (malloc only past it): the same map, in
  // the same iteration order (which the total's sum follows), without a
  // malloc per key.
  std::array<std::byte, 2048> arena;
  std::pmr::monotonic_buffer_resource memory(arena.data(), arena.size());
  std::pmr::unordered_map<std::string_view, std::pair<double, double>> per_key(
      &memory);  // strongest, sum
  for (std::size_t i : result.ranked) {
    auto [it, fresh] = per_key.try_emplace(findings[i].key, result.weights[i], result.weights[i]);
    if (!fresh) {
      it->second.second = std::min(it->second.second + repeat_factor_ * result.weights[i],
                                   repeat_cap_ * it->second.first);
    }
  }
  double total = 0;
  std::size_t strong_keys = 0;  // independent keys of real weight
  for (const auto& [key, w] : per_key) {
    total += w.second;
    if (w.first >= 20) ++strong_keys;
  }
  result.total = total;
  const double score = 100.0 * (1.0 - std::exp(-total / scale_));
  result.risk_score = std::clamp(static_cast<int>(std::lround(score)), 0, 100);
  result.verdict = verdict_for_score(result.risk_score);

  // Confidence: how far the score sits from the nearest verdict boundary,
  // and, for a warning, how many independent signs back it.
  double conf;
  switch (result.verdict) {
    case Verdict::kSafe:
      // No signal at all is fairly, not fully, sure: rules see only known tricks.
      conf = 85.0 - 30.0 * result.risk_score / 30.0;
      break;
    case Verdict::kSuspicious: {
      const double margin = std::min(result.risk_score - 30, 69 - result.risk_score);
      conf = 45.0 + margin + 5.0 * std::min<std::size_t>(strong_keys, 3);
      break;
    }
    case Verdict::kDanger:
    default:
      conf = 70.0 + 0.6 * (result.risk_score - 70) + 5.0 * std::min<std::size_t>(strong_keys, 4);
      break;
  }
  result.confidence = std::clamp(static_cast<int>(std::lround(conf)), 0, 99);
  return result;
}

// The log-odds below t_suspicious that span the safe scores 30..0, and
// above t_danger that span 70..100: wide enough that the score still ranks
// inputs inside each verdict.
constexpr double kSafeLogOdds = 8;
constexpr double kDangerLogOdds = 6;

Score Scorer::score_calibrated(Score rules, double probability, double t_suspicious,
                               double t_danger) {
  Score result = std::move(rules);
  const double p = std::clamp(probability, 1e-6, 1 - 1e-6);
  auto logit = [](double x) { return std::log(x / (1 - x)); };
  const double z = logit(p);
  const double z_suspicious = logit(t_suspicious);
  const double z_danger = logit(t_danger);
  double raw;
  if (z < z_suspicious) {
    raw = 30.0 + 30.0 * (z - z_suspicious) / kSafeLogOdds;
  } else if (z < z_danger) {
    raw = 30.0 + 40.0 * (z - z_suspicious) / (z_danger - z_suspicious);
  } else {
    raw = 70.0 + 30.0 * (z - z_danger) / kDangerLogOdds;
  }
  int lo = 0;
  int hi = 29;
  result.verdict = Verdict::kSafe;
  if (p >= t_danger) {
    result.verdict = Verdict::kDanger;
    lo = 70;
    hi = 100;
  } else if (p >= t_suspicious) {
    result.verdict = Verdict::kSuspicious;
    lo = 30;
    hi = 69;
  }
  result.risk_score = std::clamp(static_cast<int>(std::floor(raw)), lo, hi);
  const double right = result.verdict == Verdict::kSafe ? 1 - p : p;
  result.confidence = std::clamp(static_cast<int>(std::lround(100 * right)), 1, 99);
  return result;
}

}  // namespace scamcheck::internal
