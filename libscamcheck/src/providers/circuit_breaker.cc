#include "providers/circuit_breaker.h"

#include <algorithm>

namespace scamcheck::internal {

CircuitBreaker::CircuitBreaker(int failure_threshold, std::chrono::milliseconds open_for)
    : failure_threshold_(std::max(failure_threshold, 1)),
      open_for_(std::max(open_for, std::chrono::milliseconds(0))) {}

bool CircuitBreaker::allow(Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!open_) return true;
  if (trial_in_flight_ || now < open_until_) return false;
  trial_in_flight_ = true;
  return true;
}

void CircuitBreaker::record_success() {
  std::lock_guard<std::mutex> lock(mutex_);
  failures_ = 0;
  open_ = false;
  trial_in_flight_ = false;
}

void CircuitBreaker::record_failure(Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (open_) {
    // The trial failed (or a call begun before the breaker opened): wait
    // another full period.
    trial_in_flight_ = false;
    open_until_ = now + open_for_;
    return;
  }
  if (++failures_ >= failure_threshold_) {
    open_ = true;
    trial_in_flight_ = false;
    open_until_ = now + open_for_;
  }
}

BreakerState CircuitBreaker::state(Clock::time_point now) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!open_) return BreakerState::kClosed;
  if (trial_in_flight_ || now < open_until_) return BreakerState::kOpen;
  return BreakerState::kHalfOpen;
}

}  // namespace scamcheck::internal

namespace scamcheck {

std::string_view to_string(BreakerState state) {
  switch (state) {
    case BreakerState::kClosed:
      return "closed";
    case BreakerState::kOpen:
      return "open";
    case BreakerState::kHalfOpen:
      return "half_open";
  }
  return "closed";
}

}  // namespace scamcheck
