#include "model/evidence.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace scamcheck::internal::model {
namespace {

// `where` orders places as (field, group, start, end) would: field and
// group in the high word, start and end in the low one.
struct Place {
  std::uint64_t where_high;  // field << 32 | group
  std::uint64_t where_low;   // start << 32 | end
  double contribution;

  std::uint32_t field() const { return static_cast<std::uint32_t>(where_high >> 32); }
  Group group() const { return static_cast<Group>(where_high & 0xFF); }
  std::uint32_t start() const { return static_cast<std::uint32_t>(where_low >> 32); }
  std::uint32_t end() const { return static_cast<std::uint32_t>(where_low); }
  void set_end(std::uint32_t e) { where_low = (where_low & ~std::uint64_t{0xFFFFFFFF}) | e; }
};

bool overlaps(const Place& a, const Place& b) {
  return a.field() == b.field() && a.start() < b.end() && b.start() < a.end();
}

}  // namespace

void add_model_evidence(const FeatureSet& features, const LinearModel& model, Findings& out,
                        const LinkFilter& not_quoted, std::size_t max_spans, double min_share) {
  // One buffer per thread: evidence is read for most flagged inputs.
  thread_local std::vector<Place> places;
  places.resize(features.hits.size());
  std::size_t n = 0;
  for (const Hit& h : features.hits) {
    if (h.group == Group::kOther || h.field < 0 || h.end <= h.start) continue;
    const double c = static_cast<double>(model.weight(h.hash)) * h.value;
    // Written always, kept unless c <= 0 (no branch to mispredict).
    places[n] =
        Place{(static_cast<std::uint64_t>(h.field) << 32) | static_cast<std::uint8_t>(h.group),
              (static_cast<std::uint64_t>(h.start) << 32) | h.end, c};
    n += !(c <= 0);
  }
  places.resize(n);
  if (places.empty()) return;
  std::sort(places.begin(), places.end(), [](const Place& a, const Place& b) {
    return a.where_high != b.where_high ? a.where_high < b.where_high : a.where_low < b.where_low;
  });
  // Overlapping places of one kind join into one phrase ("your" and "your
  // account" and "account" -> "your account"), the features read there add
  // up. Merged in place: places[0, merged) are the phrases.
  std::size_t merged = 0;
  for (std::size_t i = 0; i < places.size(); ++i) {
    const Place& p = places[i];
    if (merged > 0) {
      Place& last = places[merged - 1];
      if (last.where_high == p.where_high && p.start() < last.end()) {
        last.set_end(std::max(last.end(), p.end()));
        last.contribution += p.contribution;
        continue;
      }
    }
    places[merged++] = p;
  }
  places.resize(merged);
  // Strongest first; ties by position, so the choice is the same every run.
  std::sort(places.begin(), places.end(), [](const Place& a, const Place& b) {
    if (a.contribution != b.contribution) return a.contribution > b.contribution;
    if (a.field() != b.field()) return a.field() < b.field();
    return a.where_low < b.where_low;
  });
  const double strongest = places.front().contribution;
  thread_local std::vector<Place> chosen;
  chosen.clear();
  for (const Place& p : places) {
    if (chosen.size() == max_spans || p.contribution < min_share * strongest) break;
    if (std::any_of(chosen.begin(), chosen.end(), [&](const Place& c) { return overlaps(c, p); })) {
      continue;
    }
    if (not_quoted && not_quoted(features.locations[p.field()], p.start(), p.end())) {
      continue;
    }
    chosen.push_back(p);
  }
  for (const Place& p : chosen) {
    Finding f = Finding::at(std::string(p.group() == Group::kUrl ? kUrlPatternKey : kWordingKey),
                            p.start(), p.end(), features.locations[p.field()]);
    f.weight = 10 + 30 * p.contribution / strongest;
    out.push_back(std::move(f));
  }
}

}  // namespace scamcheck::internal::model
