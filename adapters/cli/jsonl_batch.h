// `scamcheck --jsonl`: batch analysis of JSON Lines (CONTRACT §8).
//
// Input, one object per line:
//   {"id": <any JSON>, "kind": "text", "content": "...", "locale": "de",
//    "content_encoding": "utf-8" | "base64"}        (all but content optional)
// Output, one line per non-blank input line, in input order:
//   {"id": <the same JSON text, verbatim>, "report": {...}}
//   {"id": <same, or null when the line is not valid JSON>, "error": {"message": "..."}}
//
// Threads: one reader (splits input into chunks of lines), `threads`
// workers sharing the one const Analyzer (each with its own simdjson
// parsers and output buffers), and the calling thread as the writer, which
// emits finished chunks in order with one fwrite each. At most
// kChunksPerThread * threads chunks exist at once, so memory stays bounded
// however long the input is.
#ifndef SCAMCHECK_ADAPTERS_CLI_JSONL_BATCH_H_
#define SCAMCHECK_ADAPTERS_CLI_JSONL_BATCH_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "scamcheck/analyzer.h"

namespace scamcheck::cli {

struct JsonlOptions {
  unsigned threads = 1;               // worker threads (>= 1)
  Kind default_kind = Kind::kText;    // for lines without "kind"
  std::string default_locale = "en";  // for lines without "locale"
  bool progress = false;              // "\r12,345 messages, 20,118/s" on stderr
  std::size_t chunk_lines = 512;      // lines per chunk (the unit of work)
};

// Longest input line accepted, in bytes (a 10 MiB image as base64 plus
// JSON). A longer line is answered with an error line and skipped.
inline constexpr std::size_t kMaxLineBytes = 16u << 20;

struct JsonlStats {
  std::uint64_t lines = 0;   // non-blank lines answered
  std::uint64_t errors = 0;  // of which answered with "error"
};

// Reads all of `in`, writes to `out`. Returns the process exit code: 0 when
// all input was read and answered; 74 (EX_IOERR) when reading or writing
// failed. `stats` (optional) receives counts.
int run_jsonl(const Analyzer& analyzer, std::FILE* in, std::FILE* out, const JsonlOptions& options,
              JsonlStats* stats = nullptr);

}  // namespace scamcheck::cli

#endif  // SCAMCHECK_ADAPTERS_CLI_JSONL_BATCH_H_
