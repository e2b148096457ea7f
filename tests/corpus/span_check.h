// Shared by corpus_spans_test.cc and fixture_spans_test.cc: reading JSONL
// records ({"id", "label", "kind", "text", ...}, one per line), analysing
// them on a few threads with one shared Analyzer, and checking every signal
// against the content it quotes.
#ifndef SCAMCHECK_TESTS_CORPUS_SPAN_CHECK_H_
#define SCAMCHECK_TESTS_CORPUS_SPAN_CHECK_H_

#include <doctest/doctest.h>
#include <scamcheck/scamcheck.h>
#include <simdjson.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "decode/mime.h"

namespace scamcheck::testing {

struct Record {
  std::string id;
  std::string label;  // "ham", "spam", "scam"
  std::string kind;   // "text", "url", "email"
  std::string text;
};

// A "latin-1" record's text maps each original byte to one code point
// U+0000..U+00FF; this gives the bytes back (false if it cannot be).
inline bool latin1_to_bytes(std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x80) {
      out.push_back(static_cast<char>(b));
    } else if ((b == 0xC2 || b == 0xC3) && i + 1 < text.size()) {
      const auto c = static_cast<unsigned char>(text[++i]);
      if ((c & 0xC0) != 0x80) return false;
      out.push_back(static_cast<char>(((b & 0x03) << 6) | (c & 0x3F)));
    } else {
      return false;
    }
  }
  text = std::move(out);
  return true;
}

// Reads a JSONL file; a malformed line fails the current test case.
inline std::vector<Record> load_jsonl(const std::string& path) {
  // Plain ifs with FAIL rather than REQUIRE per line: the assertion count
  // then says how many signals and records were checked.
  std::ifstream in(path, std::ios::binary);
  if (!in.good()) FAIL("cannot open " << path);
  std::vector<Record> records;
  simdjson::ondemand::parser parser;
  std::string line;
  for (int line_no = 1; std::getline(in, line); ++line_no) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    simdjson::padded_string padded(line);
    simdjson::ondemand::document doc;
    simdjson::ondemand::object object;
    const bool parsed = !parser.iterate(padded).get(doc) && !doc.get_object().get(object);
    if (!parsed) FAIL(path << ":" << line_no << ": not a JSON object");
    Record r;
    r.kind = "text";
    bool latin1 = false;
    for (auto field : object) {
      std::string_view key;
      std::string_view value;
      if (field.unescaped_key().get(key) || field.value().get_string().get(value)) continue;
      if (key == "id") r.id = value;
      if (key == "label") r.label = value;
      if (key == "kind") r.kind = value;
      if (key == "text") r.text = value;
      if (key == "raw_encoding") latin1 = value == "latin-1";
    }
    if (latin1 && !latin1_to_bytes(r.text)) {
      FAIL(path << ":" << line_no << ": latin-1 text above U+00FF");
    }
    if (r.label != "ham" && r.label != "spam" && r.label != "scam") {
      FAIL(path << ":" << line_no << ": bad label \"" << r.label << "\"");
    }
    if (r.id.empty()) r.id = path + ":" + std::to_string(line_no);
    records.push_back(std::move(r));
  }
  return records;
}

// The analyzers shared by every test case (built once, used from many
// threads): with the model (the default) or with the rules alone.
inline const Analyzer& analyzer(bool use_model = true) {
  auto make = [](bool model) {
    Options options;
    options.use_model = model;
    auto created = Analyzer::create(options);
    REQUIRE_MESSAGE(created.ok(), "Analyzer::create failed: " << created.status().to_string());
    return std::move(created).value();
  };
  if (use_model) {
    static const std::unique_ptr<Analyzer> with_model = make(true);
    return *with_model;
  }
  static const std::unique_ptr<Analyzer> rules_only = make(false);
  return *rules_only;
}

struct Checked {
  bool ok = false;
  std::string error;  // Status::to_string() when !ok
  Verdict verdict = Verdict::kSafe;
  std::vector<std::string> problems;  // span property violations
  std::size_t signals = 0;            // signals checked
};

inline std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s.substr(0, 80)) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + (s.size() > 80 ? "\"..." : "\"");
}

// The span property of CONTRACT §1: for kinds text and url every location
// is "content" and spans index the content; for email they index the
// decoded text of their location (a header value, a part, a file name).
inline std::vector<std::string> span_problems(std::string_view raw, const Report& report,
                                              bool email = false) {
  std::vector<std::string> problems;
  std::optional<internal::ParsedEmail> parsed;
  if (email) {
    auto p = internal::parse_email(raw);
    if (!p.ok()) return {"the analysed email does not parse: " + p.status().to_string()};
    parsed = std::move(p).value();
  }
  for (const Signal& s : report.signals) {
    const std::string_view content = email ? parsed->text_of(s.location) : raw;
    const std::string where = "signal " + (s.key.empty() ? std::string("(no key)") : s.key) + " [" +
                              std::to_string(s.span.start) + "," + std::to_string(s.span.end) + ")";
    if (s.key.empty()) problems.push_back(where + ": empty key");
    if (s.explanation.empty()) problems.push_back(where + ": empty explanation");
    if (!email && s.location != "content") {
      problems.push_back(where + ": location " + quote(s.location) + ", expected \"content\"");
    }
    if (s.evidence.empty()) problems.push_back(where + ": empty evidence");
    if (s.span.start >= s.span.end || s.span.end > content.size()) {
      problems.push_back(where + ": span outside the text of " + quote(s.location) + " (" +
                         std::to_string(content.size()) + " bytes) or empty");
      continue;
    }
    const std::string_view quoted = content.substr(s.span.start, s.span.end - s.span.start);
    if (quoted != s.evidence) {
      const std::size_t from = s.span.start > 30 ? s.span.start - 30 : 0;
      problems.push_back(where + ": evidence " + quote(s.evidence) + " but the content there is " +
                         quote(quoted) + "; around it: " + quote(content.substr(from, 80)));
    }
  }
  return problems;
}

// Analyses `records` (their own kind, locale "en") on up to 4 threads and
// checks the span property of each.
inline std::vector<Checked> analyze_all(const std::vector<Record>& records, bool use_model = true) {
  std::vector<Checked> out(records.size());
  const Analyzer& a = analyzer(use_model);
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < records.size();) {
      const Record& r = records[i];
      auto result = a.analyze(r.text, std::string_view(r.kind), "en");
      Checked& c = out[i];
      if (!result.ok()) {
        c.error = result.status().to_string();
        continue;
      }
      c.ok = true;
      c.verdict = result->verdict;
      c.problems = span_problems(r.text, *result, r.kind == "email");
      c.signals = result->signals.size();
    }
  };
  const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  return out;
}

// Every *.jsonl in `dir` (with `name` as the file name inside it), sorted.
inline std::vector<std::filesystem::path> jsonl_files(const std::filesystem::path& dir,
                                                      const std::string& name = {}) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (name.empty()) {
      if (entry.is_regular_file() && entry.path().extension() == ".jsonl") {
        files.push_back(entry.path());
      }
    } else if (entry.is_directory() && std::filesystem::is_regular_file(entry.path() / name)) {
      files.push_back(entry.path() / name);
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Checks the span property over one file's records: every
// analysis succeeds and every signal quotes its content. Reports at most
// `max_reported` individual failures, then the totals.
inline void check_spans(const std::string& file, const std::vector<Record>& records,
                        const std::vector<Checked>& checked, int max_reported = 10) {
  std::size_t failures = 0;
  std::size_t analysed = 0;
  std::size_t signals = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const Record& r = records[i];
    ++analysed;
    const Checked& c = checked[i];
    if (!c.ok) {
      if (failures++ < static_cast<std::size_t>(max_reported)) {
        FAIL_CHECK(file << " " << r.id << ": analyze failed: " << c.error);
      }
      continue;
    }
    signals += c.signals;
    for (const std::string& p : c.problems) {
      if (failures++ < static_cast<std::size_t>(max_reported)) {
        FAIL_CHECK(file << " " << r.id << ": " << p);
      }
    }
  }
  MESSAGE(file << ": " << analysed << " records, " << signals << " signals, " << failures
               << " failures");
  CHECK_MESSAGE(failures == 0, file << ": " << failures << " span failures in total");
}

}  // namespace scamcheck::testing

#endif  // SCAMCHECK_TESTS_CORPUS_SPAN_CHECK_H_
