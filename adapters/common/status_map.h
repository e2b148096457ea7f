// How library outcomes map onto the adapters' wire conventions: process exit
// codes (the CLI, CONTRACT §8, after sysexits.h) and HTTP status codes (the
// server). One table each, so every adapter agrees.
#ifndef SCAMCHECK_ADAPTERS_COMMON_STATUS_MAP_H_
#define SCAMCHECK_ADAPTERS_COMMON_STATUS_MAP_H_

#include "scamcheck/report.h"
#include "scamcheck/status.h"

namespace scamcheck::adapters {

// Exit codes of the `scamcheck` CLI (CONTRACT §8).
inline constexpr int kExitSafe = 0;
inline constexpr int kExitSuspicious = 1;
inline constexpr int kExitDanger = 2;
inline constexpr int kExitUsage = 64;        // EX_USAGE: bad flag or flag value
inline constexpr int kExitDataError = 65;    // EX_DATAERR: bad input (UTF-8, empty, size)
inline constexpr int kExitNoInput = 66;      // EX_NOINPUT: cannot open/read the input file
inline constexpr int kExitUnavailable = 69;  // EX_UNAVAILABLE: feature not in this build
inline constexpr int kExitSoftware = 70;     // EX_SOFTWARE: internal error

// 0 safe, 1 suspicious, 2 danger.
int exit_code_for(Verdict verdict);
// The exit code for a failed analysis: kInvalidArgument and kOutOfRange ->
// 65, kNotFound -> 66, kUnimplemented and kUnavailable -> 69, everything else
// (including kOk, which is not a failure) -> 70.
int exit_code_for(StatusCode code);

// The HTTP status for a non-OK StatusCode: invalid_argument 422, out_of_range
// 413, not_found 404, resource_exhausted 429, deadline_exceeded 504,
// unavailable and unimplemented 503 (a feature not in this build is
// "/problems/unavailable": the contract's problem table has no 501),
// internal (and kOk) 500.
int http_status_for(StatusCode code);

}  // namespace scamcheck::adapters

#endif  // SCAMCHECK_ADAPTERS_COMMON_STATUS_MAP_H_
