// A small per-thread memo of recent answers: a direct-mapped table of
// `kSlots` entries, each holding one key and its value. A new key takes its
// slot over, reusing the slot's storage, so a miss allocates nothing once
// the slots have grown, and a flood of distinct keys holds at most kSlots
// answers. For pure functions only: a hit must give what computing again
// would.
#ifndef SCAMCHECK_UTIL_RECENT_H_
#define SCAMCHECK_UTIL_RECENT_H_

#include <array>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace scamcheck::internal {

template <typename Value, std::size_t kSlots>
class RecentAnswers {
 public:
  struct Slot {
    std::string key;
    Value value{};
    bool used = false;
  };

  // The answer for `key`: a remembered one, else `compute(value)` fills the
  // slot's value (left as the previous key's: compute must reset what it
  // reuses) and is remembered.
  template <typename Compute>
  const Value& get(std::string_view key, Compute&& compute) {
    Slot& s = slots_[std::hash<std::string_view>{}(key) % kSlots];
    if (s.used && s.key == key) return s.value;
    s.used = false;
    compute(s.value);
    s.key.assign(key);
    s.used = true;
    return s.value;
  }

 private:
  std::array<Slot, kSlots> slots_{};
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_UTIL_RECENT_H_
