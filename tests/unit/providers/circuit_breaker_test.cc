#include "providers/circuit_breaker.h"

#include <doctest/doctest.h>

using scamcheck::BreakerState;
using scamcheck::internal::CircuitBreaker;
using namespace std::chrono_literals;

TEST_CASE("breaker opens after the threshold of consecutive failures") {
  CircuitBreaker b(5, 30s);
  const auto t0 = CircuitBreaker::Clock::now();
  for (int i = 0; i < 4; ++i) {
    REQUIRE(b.allow(t0));
    b.record_failure(t0);
    CHECK(b.state(t0) == BreakerState::kClosed);
  }
  REQUIRE(b.allow(t0));
  b.record_success();  // a success resets the count
  for (int i = 0; i < 4; ++i) b.record_failure(t0);
  CHECK(b.state(t0) == BreakerState::kClosed);
  b.record_failure(t0);
  CHECK(b.state(t0) == BreakerState::kOpen);
  CHECK_FALSE(b.allow(t0));
  CHECK_FALSE(b.allow(t0 + 29s));
}

TEST_CASE("after the open time exactly one trial goes through") {
  CircuitBreaker b(5, 30s);
  const auto t0 = CircuitBreaker::Clock::now();
  for (int i = 0; i < 5; ++i) b.record_failure(t0);
  const auto later = t0 + 30s;
  CHECK(b.state(later) == BreakerState::kHalfOpen);
  CHECK(b.allow(later));  // the trial
  CHECK_FALSE(b.allow(later));
  CHECK(b.state(later) == BreakerState::kOpen);

  SUBCASE("a failed trial opens it for another period") {
    b.record_failure(later);
    CHECK_FALSE(b.allow(later + 29s));
    CHECK(b.allow(later + 30s));
  }
  SUBCASE("a successful trial closes it") {
    b.record_success();
    CHECK(b.state(later) == BreakerState::kClosed);
    CHECK(b.allow(later));
    CHECK(b.allow(later));
  }
}

TEST_CASE("breaker state names") {
  CHECK(scamcheck::to_string(BreakerState::kClosed) == "closed");
  CHECK(scamcheck::to_string(BreakerState::kOpen) == "open");
  CHECK(scamcheck::to_string(BreakerState::kHalfOpen) == "half_open");
}
