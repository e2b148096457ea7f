// to_string and helpers for the public value types (status.h, report.h).
#include "scamcheck/status.h"

#include "scamcheck/report.h"

namespace scamcheck {

std::string_view to_string(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "ok";
    case StatusCode::kInvalidArgument:
      return "invalid_argument";
    case StatusCode::kOutOfRange:
      return "out_of_range";
    case StatusCode::kNotFound:
      return "not_found";
    case StatusCode::kResourceExhausted:
      return "resource_exhausted";
    case StatusCode::kDeadlineExceeded:
      return "deadline_exceeded";
    case StatusCode::kUnavailable:
      return "unavailable";
    case StatusCode::kUnimplemented:
      return "unimplemented";
    case StatusCode::kInternal:
      return "internal";
  }
  return "unknown";
}

Status::Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

std::string Status::to_string() const {
  if (ok()) return "ok";
  return std::string(scamcheck::to_string(code_)) + ": " + message_;
}

std::string_view to_string(Kind kind) {
  switch (kind) {
    case Kind::kText:
      return "text";
    case Kind::kEmail:
      return "email";
    case Kind::kUrl:
      return "url";
    case Kind::kImage:
      return "image";
    case Kind::kDocument:
      return "document";
  }
  return "unknown";
}

std::string_view to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::kSafe:
      return "safe";
    case Verdict::kSuspicious:
      return "suspicious";
    case Verdict::kDanger:
      return "danger";
  }
  return "unknown";
}

std::string_view to_string(Severity severity) {
  switch (severity) {
    case Severity::kLow:
      return "low";
    case Severity::kMedium:
      return "medium";
    case Severity::kHigh:
      return "high";
  }
  return "unknown";
}

std::string_view to_string(Reputation reputation) {
  switch (reputation) {
    case Reputation::kUnknown:
      return "unknown";
    case Reputation::kClean:
      return "clean";
    case Reputation::kMalicious:
      return "malicious";
  }
  return "unknown";
}

std::optional<Kind> parse_kind(std::string_view name) {
  for (Kind k : {Kind::kText, Kind::kEmail, Kind::kUrl, Kind::kImage, Kind::kDocument}) {
    if (to_string(k) == name) return k;
  }
  return std::nullopt;
}

Verdict verdict_for_score(int score) {
  if (score >= 70) return Verdict::kDanger;
  if (score >= 30) return Verdict::kSuspicious;
  return Verdict::kSafe;
}

}  // namespace scamcheck
