// Reading the labelled corpora (../shared/corpus/<name>/<split>.jsonl) and the
// fixture files (tests/fixtures/*.jsonl) for the evaluation tool and the
// benchmarks. One JSON object per line:
//   {"id", "label": "scam"|"spam"|"ham", "text", "kind", "lang",
//    "raw_encoding"?: "utf-8"|"latin-1", "family"?: fixture's scam family, ...}
// A "latin-1" record's text is the original bytes mapped one byte per code
// point (U+0000..U+00FF); the loader maps it back, so Record::text is always
// the bytes the library is meant to see.
#ifndef SCAMCHECK_BENCHMARKS_EVAL_JSONL_CORPUS_H_
#define SCAMCHECK_BENCHMARKS_EVAL_JSONL_CORPUS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace scamcheck::bench {

enum class Label { kHam, kSpam, kScam };

// "ham", "spam", "scam".
std::string_view to_string(Label label);

struct Record {
  std::string id;
  Label label = Label::kHam;
  std::string kind;  // wire name: "text", "url", "email"
  std::string lang;
  std::string text;  // original bytes (Latin-1 records already mapped back)
  // Fixtures only: the scam family a record belongs to ("family", e.g.
  // "road_toll"; empty when none), and whether scamcheck-train learned from
  // it (set by scamcheck-eval: an even id number, an .eml at an even place
  // in file-name order; tools/train/README.md).
  std::string family;
  bool trained = false;
};

// Reads one JSONL file. Returns false and sets *error (file and line) on the
// first unreadable file, malformed line, unknown label or a "latin-1" text
// holding a code point above U+00FF. Blank lines are skipped.
bool load_jsonl(const std::string& path, std::vector<Record>* records, std::string* error);

// Maps a string of code points U+0000..U+00FF (UTF-8 encoded) back to one
// byte per code point. std::nullopt if a code point is above U+00FF or the
// input is not valid UTF-8.
std::optional<std::string> latin1_to_bytes(std::string_view utf8);

// The corpora under `dir`: every subdirectory holding <split>.jsonl, sorted
// by name. Each entry is {name, path}.
struct CorpusFile {
  std::string name;
  std::string path;
};
std::vector<CorpusFile> list_corpora(const std::string& dir, const std::string& split);

// Every *.jsonl directly in `dir`, sorted; name = file stem.
std::vector<CorpusFile> list_jsonl_files(const std::string& dir);

// Every *.eml directly in `dir` (sorted) as a record of kind email with
// `label`, its bytes as they are and its file name as id. A missing
// directory gives no records; false and *error for an unreadable file.
bool load_eml_dir(const std::string& dir, Label label, std::vector<Record>* records,
                  std::string* error);

// For reading: the first `max_chars` characters of `text`, with control
// characters escaped (\n, \t, \xNN) and invalid UTF-8 bytes shown as \xNN.
std::string preview(std::string_view text, std::size_t max_chars);

}  // namespace scamcheck::bench

#endif  // SCAMCHECK_BENCHMARKS_EVAL_JSONL_CORPUS_H_
