#include "model/features.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "model/features_core.h"

// The readers are features_link.cc (links and URL inputs), features_text.cc
// (prose) and features_email.cc (mail); here: the feature set itself, the
// rule findings and the kind.

namespace scamcheck::internal::model {
namespace {

// Word features are scaled to this length per input (link features to 1):
// with the rule and header features unscaled, prose needs the extra weight.
constexpr double kWordGain = 1.5;

// Up to this many hits finish() sorts them all (a short input repeats few
// of its features); more are made distinct first (unique_keys).
constexpr std::size_t kFewHits = 1024;

// Sorts `keys` (unique: hash << 32 | index) ascending; `scratch` is a
// buffer. Returns where the sorted keys are: keys.data() or scratch.data().
const std::uint64_t* sort_keys(std::vector<std::uint64_t>& keys,
                               std::vector<std::uint64_t>& scratch) {
  const std::size_t n = keys.size();
  scratch.resize(n);
  if (n <= 1024) {
    // Distributed by the top `bits` bits of the hash (about one key per
    // bucket), then an insertion sort puts each bucket's few keys in order
    // (at most 1024 keys bound its worst case).
    int bits = 1;
    while ((std::size_t{1} << bits) < n) ++bits;
    const int shift = 64 - bits;
    std::uint32_t count[1025];
    std::fill_n(count, (std::size_t{1} << bits) + 1, 0u);
    for (const std::uint64_t k : keys) ++count[(k >> shift) + 1];
    for (std::size_t b = 1; b <= (std::size_t{1} << bits); ++b) count[b] += count[b - 1];
    std::uint64_t* out = scratch.data();
    for (const std::uint64_t k : keys) out[count[k >> shift]++] = k;
    for (std::size_t i = 1; i < n; ++i) {
      const std::uint64_t k = out[i];
      std::size_t j = i;
      for (; j > 0 && out[j - 1] > k; --j) out[j] = out[j - 1];
      out[j] = k;
    }
    return out;
  }
  // Many keys: least significant digit first radix sort of the hash, which
  // keeps the order of equal hashes (the indices ascending). Three digits
  // of 11, 11 and 10 bits: one pass fewer than bytes would take.
  constexpr int kDigits = 3;
  constexpr int kBits = 11;
  constexpr std::size_t kBuckets = std::size_t{1} << kBits;
  std::uint32_t count[kDigits][kBuckets] = {};
  for (const std::uint64_t k : keys) {
    for (int d = 0; d < kDigits; ++d) ++count[d][(k >> (32 + kBits * d)) & (kBuckets - 1)];
  }
  std::uint64_t* src = keys.data();
  std::uint64_t* dst = scratch.data();
  for (int d = 0; d < kDigits; ++d) {
    const int shift = 32 + kBits * d;
    // One bucket: nothing moves.
    if (count[d][(src[0] >> shift) & (kBuckets - 1)] == n) continue;
    std::uint32_t offset[kBuckets];
    std::uint32_t sum = 0;
    for (std::size_t b = 0; b < kBuckets; ++b) {
      offset[b] = sum;
      sum += count[d][b];
    }
    for (std::size_t i = 0; i < n; ++i) dst[offset[(src[i] >> shift) & (kBuckets - 1)]++] = src[i];
    std::swap(src, dst);
  }
  return src;
}

// Slot of hash `h` in an open-addressing table of 2^bits slots.
inline std::size_t slot_of(std::uint32_t h, int bits) {
  return static_cast<std::uint32_t>(h * 0x9E3779B1u) >> (32 - bits);
}

// Appends to `keys` one key (hash << 32 | index) per distinct hash of
// `hits`, with the index of its first hit, in the order of the hits: an
// open-addressing set of the hashes seen, so that a long text's many
// repeated words are dropped before anything is sorted. The set doubles at
// half full: a long text has far fewer distinct features than hits (a
// 20 KB newsletter: 227 of 14,159).
void unique_keys(const std::vector<Hit>& hits, std::vector<std::uint64_t>& keys) {
  thread_local std::vector<std::uint32_t> table;  // index into keys + 1; 0: empty
  const std::size_t n = hits.size();
  // Slots for as many keys as hits, between 2^10 and 2^12 to begin with.
  int bits = 10;
  while (bits < 12 && (std::size_t{1} << bits) < n) ++bits;
  table.assign(std::size_t{1} << bits, 0);
  keys.clear();
  std::size_t mask = (std::size_t{1} << bits) - 1;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t h = hits[i].hash;
    std::size_t pos = slot_of(h, bits);
    for (;;) {
      const std::uint32_t slot = table[pos];
      if (slot != 0) {
        if ((keys[slot - 1] >> 32) == h) break;  // seen before
        pos = (pos + 1) & mask;
        continue;
      }
      keys.push_back((static_cast<std::uint64_t>(h) << 32) | i);
      table[pos] = static_cast<std::uint32_t>(keys.size());
      if (2 * keys.size() > mask) {
        // Half full: twice the slots, every key placed again.
        ++bits;
        mask = (std::size_t{1} << bits) - 1;
        table.assign(mask + 1, 0);
        for (std::size_t k = 0; k < keys.size(); ++k) {
          std::size_t p = slot_of(static_cast<std::uint32_t>(keys[k] >> 32), bits);
          while (table[p] != 0) p = (p + 1) & mask;
          table[p] = static_cast<std::uint32_t>(k + 1);
        }
      }
      break;
    }
  }
}

}  // namespace

std::int32_t FeatureSet::add_location(std::string_view location) {
  locations.emplace_back(location);
  return static_cast<std::int32_t>(locations.size() - 1);
}

void FeatureSet::clear() {
  locations.clear();
  hits.clear();
  word_tokens = 0;
  link_domains = nullptr;
  mail_words = false;
}

void FeatureSet::finish() {
  // One hit per hash, the first, in the order of the hashes: the scorer
  // sums the weights in this order, so it must not change. Few hits: a
  // stable sort of (hash, index) keys, then the first key of each hash.
  // Many (a long text repeats its words): the distinct hashes first, each
  // with its first index, then a sort of those only; the same hits in the
  // same order.
  thread_local std::vector<std::uint64_t> keys;
  thread_local std::vector<std::uint64_t> scratch;
  thread_local std::vector<Hit> kept;
  const std::size_t n = hits.size();
  if (n > kFewHits) {
    unique_keys(hits, keys);
  } else {
    keys.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      keys[i] = (static_cast<std::uint64_t>(hits[i].hash) << 32) | i;
    }
  }
  const std::size_t sorted_n = keys.size();
  const std::uint64_t* sorted = sorted_n == 0 ? keys.data() : sort_keys(keys, scratch);
  kept.resize(sorted_n);
  std::size_t m = 0;
  std::size_t words = 0;
  std::size_t links = 0;
  for (std::size_t k = 0; k < sorted_n; ++k) {
    if (k > 0 && (sorted[k] >> 32) == (sorted[k - 1] >> 32)) continue;
    const Hit& h = hits[static_cast<std::uint32_t>(sorted[k])];
    words += h.group == Group::kWord;
    links += h.group == Group::kUrl;
    kept[m++] = h;
  }
  // The kept hits become the set's (the old buffer is the next call's).
  kept.resize(m);
  hits.swap(kept);
  const auto word_scale = static_cast<float>(
      kWordGain / std::sqrt(static_cast<double>(std::max<std::size_t>(words, 1))));
  const auto link_scale =
      static_cast<float>(1.0 / std::sqrt(static_cast<double>(std::max<std::size_t>(links, 1))));
  for (Hit& h : hits) {
    if (h.group == Group::kWord) h.value *= word_scale;
    if (h.group == Group::kUrl) h.value *= link_scale;
  }
}

void add_rules(const Findings& findings, double rule_total, FeatureSet& out) {
  for (const Finding& f : findings) {
    out.hits.push_back(Hit{hash_of(kRuleNs, f.key, false), 1.0f, Group::kOther, -1, 0, 0});
  }
  const double total = std::max(0.0, rule_total);
  const char bucket = total == 0    ? '0'
                      : total < 10  ? '1'
                      : total < 20  ? '2'
                      : total < 35  ? '3'
                      : total < 60  ? '4'
                      : total < 100 ? '5'
                                    : '6';
  out.hits.push_back(Hit{hash_of(kRuleBucketNs, std::string_view(&bucket, 1), false), 1.0f,
                         Group::kOther, -1, 0, 0});
  out.hits.push_back(Hit{hash_of(kRuleTotalNs, "total"),
                         static_cast<float>(std::min(total / 50.0, 4.0)), Group::kOther, -1, 0, 0});
}

void add_kind(Kind kind, FeatureSet& out) {
  out.hits.push_back(Hit{hash_of(kKindNs, to_string(kind), false), 1.0f, Group::kOther, -1, 0, 0});
}

}  // namespace scamcheck::internal::model
