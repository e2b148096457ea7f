// Status and Result<T>: how libscamcheck reports errors. No exception ever
// crosses the library boundary; every fallible call returns one of these.
#ifndef SCAMCHECK_STATUS_H_
#define SCAMCHECK_STATUS_H_

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "scamcheck/export.h"

namespace scamcheck {

// Error codes, named after Abseil's canonical set. Each maps to one HTTP
// status in the adapters (see adapters/common).
enum class StatusCode {
  kOk = 0,
  kInvalidArgument,    // bad input: invalid UTF-8, empty content, unknown kind
  kOutOfRange,         // content larger than the allowed size
  kNotFound,           // a file or record that does not exist
  kResourceExhausted,  // a quota or internal memory budget was exhausted
  kDeadlineExceeded,   // work did not finish in time
  kUnavailable,        // a dependency (provider, database) is down
  kUnimplemented,      // a feature not available in this build
  kInternal,           // a bug or a broken invariant; never "safe"
};

// English name of a code, e.g. "invalid_argument".
SCAMCHECK_EXPORT std::string_view to_string(StatusCode code);

// The outcome of an operation: OK, or a code plus an English message written
// for developers (users see texts from the locale catalogs instead).
// Cheap to copy when OK. Thread-compatible.
class [[nodiscard]] SCAMCHECK_EXPORT Status {
 public:
  Status() = default;  // OK
  Status(StatusCode code, std::string message);

  static Status invalid_argument(std::string message) {
    return {StatusCode::kInvalidArgument, std::move(message)};
  }
  static Status out_of_range(std::string message) {
    return {StatusCode::kOutOfRange, std::move(message)};
  }
  static Status not_found(std::string message) {
    return {StatusCode::kNotFound, std::move(message)};
  }
  static Status resource_exhausted(std::string message) {
    return {StatusCode::kResourceExhausted, std::move(message)};
  }
  static Status unimplemented(std::string message) {
    return {StatusCode::kUnimplemented, std::move(message)};
  }
  static Status unavailable(std::string message) {
    return {StatusCode::kUnavailable, std::move(message)};
  }
  static Status deadline_exceeded(std::string message) {
    return {StatusCode::kDeadlineExceeded, std::move(message)};
  }
  static Status internal(std::string message) {
    return {StatusCode::kInternal, std::move(message)};
  }

  [[nodiscard]] bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "ok" or "<code>: <message>".
  std::string to_string() const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// Either a value of type T or a non-OK Status, like absl::StatusOr<T>.
// Accessing value() of an error Result is a programming error (asserts in
// debug builds). A type alias-friendly stand-in for std::expected.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  // REQUIRES: !status.ok()
  Result(Status status) : status_(std::move(status)) {  // NOLINT
    if (status_.ok()) status_ = Status::internal("Result built from an OK status");
  }

  [[nodiscard]] bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }

  T& value() & {
    assert(ok());
    return *value_;
  }
  const T& value() const& {
    assert(ok());
    return *value_;
  }
  T&& value() && {
    assert(ok());
    return std::move(*value_);
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace scamcheck

#endif  // SCAMCHECK_STATUS_H_
