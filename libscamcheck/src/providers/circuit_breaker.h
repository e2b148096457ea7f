// A circuit breaker around a remote dependency: after `failure_threshold`
// consecutive failures it opens and refuses calls for `open_for`; then it
// lets exactly one trial call through (half-open). The trial's success
// closes it, its failure opens it for another `open_for`. Thread-safe.
#ifndef SCAMCHECK_PROVIDERS_CIRCUIT_BREAKER_H_
#define SCAMCHECK_PROVIDERS_CIRCUIT_BREAKER_H_

#include <chrono>
#include <mutex>

#include "scamcheck/providers.h"

namespace scamcheck::internal {

class CircuitBreaker {
 public:
  using Clock = std::chrono::steady_clock;

  // REQUIRES: failure_threshold >= 1, open_for >= 0.
  CircuitBreaker(int failure_threshold, std::chrono::milliseconds open_for);

  // Whether a call may be made now. A true from a half-open breaker makes
  // the caller the trial: others get false until it reports back. Every
  // true must be followed by record_success() or record_failure().
  bool allow(Clock::time_point now = Clock::now());
  void record_success();
  void record_failure(Clock::time_point now = Clock::now());

  // kHalfOpen once the open time is over (the next allow() is the trial).
  BreakerState state(Clock::time_point now = Clock::now()) const;

 private:
  const int failure_threshold_;
  const std::chrono::milliseconds open_for_;
  mutable std::mutex mutex_;
  int failures_ = 0;  // consecutive
  bool open_ = false;
  bool trial_in_flight_ = false;
  Clock::time_point open_until_{};
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_PROVIDERS_CIRCUIT_BREAKER_H_
