#include "common/status_map.h"

namespace scamcheck::adapters {

int exit_code_for(Verdict verdict) {
  switch (verdict) {
    case Verdict::kSafe:
      return kExitSafe;
    case Verdict::kSuspicious:
      return kExitSuspicious;
    case Verdict::kDanger:
      return kExitDanger;
  }
  return kExitSoftware;
}

int exit_code_for(StatusCode code) {
  switch (code) {
    case StatusCode::kInvalidArgument:
    case StatusCode::kOutOfRange:
      return kExitDataError;
    case StatusCode::kNotFound:
      return kExitNoInput;
    case StatusCode::kUnimplemented:
    case StatusCode::kUnavailable:
      return kExitUnavailable;
    case StatusCode::kOk:
    case StatusCode::kResourceExhausted:
    case StatusCode::kDeadlineExceeded:
    case StatusCode::kInternal:
      break;
  }
  return kExitSoftware;
}

int http_status_for(StatusCode code) {
  switch (code) {
    case StatusCode::kInvalidArgument:
      return 422;
    case StatusCode::kOutOfRange:
      return 413;
    case StatusCode::kNotFound:
      return 404;
    case StatusCode::kResourceExhausted:
      return 429;
    case StatusCode::kDeadlineExceeded:
      return 504;
    case StatusCode::kUnavailable:
    case StatusCode::kUnimplemented:
      return 503;
    case StatusCode::kOk:
    case StatusCode::kInternal:
      break;
  }
  return 500;
}

}  // namespace scamcheck::adapters
