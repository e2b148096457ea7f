// Runs parse_email over every kind=email record of the corpora and reports
// failures, invalid UTF-8 (must be none), time per email (1 thread and a
// 2-thread batch) and what the messages contain. Not a test (the name does
// not end in _test.cc): a developer tool, built by hand from the objects of
// a build directory B (it needs only the decode stage), e.g.
//
//   O=B/libscamcheck/CMakeFiles/scamcheck_objects.dir/src
//   g++ -std=c++20 -O2 -Ilibscamcheck/include -IB/libscamcheck/include
//       -Ilibscamcheck/src -Ibenchmarks/eval tests/unit/decode/mime_corpus_tool.cc
//       benchmarks/eval/jsonl_corpus.cc $O/decode/mime.cc.o $O/decode/charset.cc.o
//       $O/util/text.cc.o $O/status.cc.o
//       $(pkg-config --cflags --libs gmime-3.0 libutf8proc simdjson) -o mime_corpus_tool
//   ./mime_corpus_tool ../shared/corpus train [rounds]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "decode/mime.h"
#include "jsonl_corpus.h"
#include "util/text.h"

using scamcheck::internal::EmailPart;
using scamcheck::internal::parse_email;
using scamcheck::internal::ParsedEmail;

namespace {

using Clock = std::chrono::steady_clock;

struct Stats {
  std::size_t emails = 0, failures = 0, invalid_utf8 = 0, bytes = 0;
  std::size_t text = 0, html = 0, attachments = 0, nested = 0, headers = 0;
  std::size_t no_headers = 0, no_body = 0, max_parts = 0;
  std::map<std::string, std::size_t> content_types;
  std::vector<std::string> failed_ids, sample_attachments;
};

bool all_utf8(const ParsedEmail& email) {
  using scamcheck::internal::is_valid_utf8;
  for (const auto& h : email.headers) {
    if (!is_valid_utf8(h.name) || !is_valid_utf8(h.value)) return false;
  }
  for (const auto& p : email.parts) {
    if (!is_valid_utf8(p.text) || !is_valid_utf8(p.filename) || !is_valid_utf8(p.location)) {
      return false;
    }
  }
  return true;
}

void count(const scamcheck::bench::Record& record, Stats& stats) {
  ++stats.emails;
  stats.bytes += record.text.size();
  auto result = parse_email(record.text);
  if (!result.ok()) {
    ++stats.failures;
    stats.failed_ids.push_back(record.id + " (" + result.status().to_string() + ")");
    return;
  }
  const ParsedEmail& email = *result;
  if (!all_utf8(email)) ++stats.invalid_utf8;
  stats.headers += email.headers.size();
  if (email.headers.empty()) ++stats.no_headers;
  stats.max_parts = std::max(stats.max_parts, email.parts.size());
  bool body = false;
  for (const auto& p : email.parts) {
    ++stats.content_types[p.content_type];
    if (p.depth > 0) ++stats.nested;
    switch (p.type) {
      case EmailPart::Type::kText:
        ++stats.text;
        body = true;
        break;
      case EmailPart::Type::kHtml:
        ++stats.html;
        body = true;
        break;
      case EmailPart::Type::kAttachment:
        ++stats.attachments;
        if (stats.sample_attachments.size() < 12) stats.sample_attachments.push_back(p.location);
        break;
    }
  }
  if (!body) ++stats.no_body;
}

// Seconds to parse every email `rounds` times on `threads` threads.
double time_parse(const std::vector<const scamcheck::bench::Record*>& emails, int threads,
                  int rounds) {
  const auto start = Clock::now();
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      for (int r = 0; r < rounds; ++r) {
        for (std::size_t i = static_cast<std::size_t>(t); i < emails.size();
             i += static_cast<std::size_t>(threads)) {
          auto result = parse_email(emails[i]->text);
          if (!result.ok() && result.status().message().empty()) std::abort();
        }
      }
    });
  }
  for (auto& w : workers) w.join();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : "../shared/corpus";
  const std::string split = argc > 2 ? argv[2] : "train";
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 3;
  const auto corpora = scamcheck::bench::list_corpora(dir, split);
  std::vector<scamcheck::bench::Record> all;
  for (const auto& corpus : corpora) {
    std::vector<scamcheck::bench::Record> records;
    std::string error;
    if (!scamcheck::bench::load_jsonl(corpus.path, &records, &error)) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 1;
    }
    Stats stats;
    std::vector<const scamcheck::bench::Record*> emails;
    for (const auto& r : records) {
      if (r.kind != "email") continue;
      count(r, stats);
      emails.push_back(&r);
    }
    if (emails.empty()) continue;
    const double seconds = time_parse(emails, 1, rounds);
    std::printf("== %s/%s: %zu emails, %.1f KB mean\n", corpus.name.c_str(), split.c_str(),
                stats.emails, stats.bytes / 1024.0 / static_cast<double>(stats.emails));
    std::printf("  failures %zu, invalid UTF-8 %zu, no headers %zu, no text/html body %zu\n",
                stats.failures, stats.invalid_utf8, stats.no_headers, stats.no_body);
    for (const auto& id : stats.failed_ids) std::printf("    failed: %s\n", id.c_str());
    std::printf("  parse %.1f us/email (1 thread, %d rounds)\n",
                seconds * 1e6 / static_cast<double>(emails.size() * rounds), rounds);
    std::printf(
        "  headers %.1f/email; parts: text %zu, html %zu, attachment %zu, nested %zu, "
        "max per email %zu\n",
        static_cast<double>(stats.headers) / static_cast<double>(stats.emails), stats.text,
        stats.html, stats.attachments, stats.nested, stats.max_parts);
    std::vector<std::pair<std::size_t, std::string>> types;
    for (const auto& [type, n] : stats.content_types) types.emplace_back(n, type);
    std::sort(types.rbegin(), types.rend());
    std::printf("  content types:");
    for (std::size_t i = 0; i < types.size() && i < 12; ++i) {
      std::printf(" %s=%zu", types[i].second.c_str(), types[i].first);
    }
    std::printf("\n  attachment locations (sample):");
    for (const auto& l : stats.sample_attachments) std::printf(" [%s]", l.c_str());
    std::printf("\n");
    all.insert(all.end(), std::make_move_iterator(records.begin()),
               std::make_move_iterator(records.end()));
  }
  std::vector<const scamcheck::bench::Record*> emails;
  for (const auto& r : all) {
    if (r.kind == "email") emails.push_back(&r);
  }
  if (emails.empty()) {
    std::printf("no email records under %s\n", dir.c_str());
    return 0;
  }
  const double one = time_parse(emails, 1, rounds);
  const double two = time_parse(emails, 2, rounds);
  const double n = static_cast<double>(emails.size() * static_cast<std::size_t>(rounds));
  std::printf("== all %zu emails: 1 thread %.0f emails/s (%.1f us each), 2 threads %.0f emails/s\n",
              emails.size(), n / one, one * 1e6 / n, n / two);
  return 0;
}
