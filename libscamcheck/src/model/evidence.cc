#include "model/evidence.h"

#include <algorithm>
#include <tuple>
#include <vector>

namespace scamcheck::internal::model {
namespace {

struct Place {
  std::int32_t field;
  std::uint32_t start;
  std::uint32_t end;
  Group group;
  double contribution;
};

bool overlaps(const Place& a, const Place& b) {
  return a.field == b.field && a.start < b.end && b.start < a.end;
}

}  // namespace

void add_model_evidence(const FeatureSet& features, const LinearModel& model, Findings& out,
                        std::size_t max_spans, double min_share) {
  std::vector<Place> places;
  for (const Hit& h : features.hits) {
    if (h.group == Group::kOther || h.field < 0 || h.end <= h.start) continue;
    const double c = static_cast<double>(model.weight(h.hash)) * h.value;
    if (c <= 0) continue;
    places.push_back(Place{h.field, h.start, h.end, h.group, c});
  }
  if (places.empty()) return;
  std::sort(places.begin(), places.end(), [](const Place& a, const Place& b) {
    return std::tie(a.field, a.group, a.start, a.end) < std::tie(b.field, b.group, b.start, b.end);
  });
  // Overlapping places of one kind join into one phrase ("your" and "your
  // account" and "account" -> "your account"), the features read there add up.
  std::vector<Place> merged;
  for (const Place& p : places) {
    if (!merged.empty() && merged.back().field == p.field && merged.back().group == p.group &&
        p.start < merged.back().end) {
      merged.back().end = std::max(merged.back().end, p.end);
      merged.back().contribution += p.contribution;
    } else {
      merged.push_back(p);
    }
  }
  // Strongest first; ties by position, so the choice is the same every run.
  std::sort(merged.begin(), merged.end(), [](const Place& a, const Place& b) {
    if (a.contribution != b.contribution) return a.contribution > b.contribution;
    return std::tie(a.field, a.start, a.end) < std::tie(b.field, b.start, b.end);
  });
  const double strongest = merged.front().contribution;
  std::vector<Place> chosen;
  for (const Place& p : merged) {
    if (chosen.size() == max_spans || p.contribution < min_share * strongest) break;
    if (std::any_of(chosen.begin(), chosen.end(), [&](const Place& c) { return overlaps(c, p); })) {
      continue;
    }
    chosen.push_back(p);
  }
  for (const Place& p : chosen) {
    Finding f;
    f.key = std::string(p.group == Group::kUrl ? kUrlPatternKey : kWordingKey);
    f.start = p.start;
    f.end = p.end;
    f.location = features.locations[static_cast<std::size_t>(p.field)];
    f.weight = 10 + 30 * p.contribution / strongest;
    out.push_back(std::move(f));
  }
}

}  // namespace scamcheck::internal::model
