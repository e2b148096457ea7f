// measure_html: how often the HTML and attachment checks fire on the email
// corpora (TRAIN split by default; never tune on dev), and how long the HTML
// scan takes. Not a unit test (the file name does not end in _test.cc, so
// CMake does not build it).
//
// Build and run (from the repository root, with the library's objects from a
// build directory, here /work/build-html; `ninja -k 0 scamcheck_objects`):
//   O=/work/build-html/libscamcheck/CMakeFiles/scamcheck_objects.dir
//   g++ -std=c++20 -O2 -I libscamcheck/src -I libscamcheck/include
//       -I /work/build-html/libscamcheck/include tests/unit/email/measure_html.cc
//       $O/embedded_data.cc.o $O/src/status.cc.o $O/src/{data,url,extract,util,decode}/*.o
//       $O/src/email/html*.o $O/src/email/attachments.cc.o
//       $(pkg-config --libs libcurl libpsl libidn2 icu-i18n icu-uc libutf8proc re2
//         gmime-3.0 gumbo) -lsimdjson -pthread -o /tmp/measure_html
//   /tmp/measure_html [corpus_dir] [data_dir] [--split train|dev] [--show KEY|all]
//   /tmp/measure_html --eml tests/fixtures/email/legit --eml tests/fixtures/email/scam
// corpus_dir defaults to ../shared/corpus, data_dir to libscamcheck/data.
// Prints, per corpus and label, the share of messages with at least one
// finding of each key, a check of the visible text's map back to the
// source, and the HTML check's time per part; with --eml, the findings of
// each .eml file in the directories.
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "data/data_source.h"
#include "decode/mime.h"
#include "email/email_checks.h"
#include "url/url_analyzer.h"

using namespace scamcheck;
using namespace scamcheck::internal;

namespace {

struct Record {
  std::string id, label, raw;
};

// Reads a corpus file; "latin-1" texts are turned back into their bytes.
std::vector<Record> read_jsonl(const std::string& path) {
  std::vector<Record> out;
  simdjson::dom::parser parser;
  simdjson::padded_string json;
  if (simdjson::padded_string::load(path).get(json)) return out;
  simdjson::dom::document_stream stream;
  if (parser.parse_many(json).get(stream)) return out;
  for (auto doc : stream) {
    simdjson::dom::element e;
    if (doc.get(e)) continue;
    std::string_view id, label, text, enc = "utf-8";
    if (e["id"].get_string().get(id) || e["label"].get_string().get(label) ||
        e["text"].get_string().get(text)) {
      continue;
    }
    if (e["raw_encoding"].get_string().get(enc)) enc = "utf-8";
    Record r{std::string(id), std::string(label), {}};
    if (enc == "latin-1") {
      for (std::size_t i = 0; i < text.size();) {
        unsigned char c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
          r.raw += static_cast<char>(c);
          ++i;
        } else {
          unsigned cp = ((c & 0x1F) << 6) | (static_cast<unsigned char>(text[i + 1]) & 0x3F);
          r.raw += static_cast<char>(cp);
          i += 2;
        }
      }
    } else {
      r.raw.assign(text);
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string corpus = "../shared/corpus";
  std::string data_dir = "libscamcheck/data";
  std::string split = "train";
  std::string show;
  std::vector<std::string> eml_dirs;  // --eml DIR: print the findings of each .eml file
  std::vector<std::string> pos;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--eml" && i + 1 < argc) {
      eml_dirs.push_back(argv[++i]);
    } else if (a == "--split" && i + 1 < argc) {
      split = argv[++i];
    } else if (a == "--show" && i + 1 < argc) {
      show = argv[++i];
    } else {
      pos.push_back(a);
    }
  }
  if (pos.size() > 0) corpus = pos[0];
  if (pos.size() > 1) data_dir = pos[1];

  DataSource data(data_dir);
  auto urls = UrlAnalyzer::load(data);
  if (!urls.ok()) {
    std::fprintf(stderr, "%s\n", urls.status().to_string().c_str());
    return 1;
  }
  auto html = HtmlChecker::load(data, **urls);
  auto att = AttachmentChecker::load(data);
  if (!html.ok() || !att.ok()) {
    std::fprintf(stderr, "load failed\n");
    return 1;
  }

  if (!eml_dirs.empty()) {
    for (const std::string& dir : eml_dirs) {
      std::vector<std::filesystem::path> files;
      for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() == ".eml") files.push_back(entry.path());
      }
      std::sort(files.begin(), files.end());
      for (const auto& path : files) {
        std::ifstream in(path, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        auto parsed = parse_email(ss.str());
        if (!parsed.ok()) continue;
        Findings fs;
        for (const EmailPart& p : parsed->parts) {
          if (p.type != EmailPart::Type::kHtml) continue;
          VisibleText visible;
          (*html)->check(p.text, p.location, fs, visible);
        }
        (*att)->check(*parsed, fs);
        std::printf("%s: %zu findings\n", path.filename().c_str(), fs.size());
        for (const Finding& f : fs) {
          std::string_view text = parsed->text_of(f.location);
          std::printf("    %s %s [%.2f]: %s\n", f.key.c_str(), f.location.c_str(), f.strength,
                      std::string(text.substr(f.start, f.end - f.start)).c_str());
        }
      }
    }
    return 0;
  }

  double total_ms = 0, max_ms = 0;
  std::size_t map_chars = 0, map_mismatches = 0;
  std::size_t parts = 0, bytes = 0;
  for (const char* name : {"spamassassin", "nazario_phishing", "phishing_pot", "phishing_pot_de"}) {
    std::vector<Record> records = read_jsonl(corpus + "/" + name + "/" + split + ".jsonl");
    std::map<std::string, int> messages, with_html;
    std::map<std::string, std::map<std::string, int>> hits;  // label -> key -> messages
    for (const Record& r : records) {
      auto parsed = parse_email(r.raw);
      ++messages[r.label];
      if (!parsed.ok()) continue;
      Findings fs;
      bool any_html = false;
      for (const EmailPart& p : parsed->parts) {
        if (p.type != EmailPart::Type::kHtml) continue;
        any_html = true;
        VisibleText visible;
        auto t0 = std::chrono::steady_clock::now();
        (*html)->check(p.text, p.location, fs, visible);
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                        .count();
        // The map back to the source: each character of the visible text is
        // its source character, a character reference, a line break or a
        // separator standing for what lies between two characters.
        for (std::size_t i = 0; i < visible.text.size();) {
          unsigned char c = static_cast<unsigned char>(visible.text[i]);
          std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
          n = std::min(n, visible.text.size() - i);
          std::string_view ch = std::string_view(visible.text).substr(i, n);
          std::string_view src = std::string_view(p.text).substr(
              visible.source_start[i], visible.source_end[i] - visible.source_start[i]);
          // U+FFFD stands for a control character or a broken byte.
          bool ok = src == ch || (!src.empty() && src[0] == '&') || ch == " " || ch == "\n" ||
                    ch == "\xEF\xBF\xBD";
          if (!ok) {
            ++map_mismatches;
            if (map_mismatches <= 10) {
              std::printf("  map mismatch %s %s: '%s' <- '%s'\n", name, r.id.c_str(),
                          std::string(ch).c_str(), std::string(src.substr(0, 40)).c_str());
            }
          }
          ++map_chars;
          i += n;
        }
        total_ms += ms;
        max_ms = std::max(max_ms, ms);
        ++parts;
        bytes += p.text.size();
      }
      (*att)->check(*parsed, fs);
      if (any_html) ++with_html[r.label];
      std::set<std::string> keys;
      for (const Finding& f : fs) {
        keys.insert(f.key);
        if (!show.empty() && (show == "all" || show == f.key)) {
          std::string_view text = parsed->text_of(f.location);
          std::string ev(text.substr(f.start, std::min<std::size_t>(f.end - f.start, 160)));
          for (char& c : ev) {
            if (c == '\n' || c == '\r') c = ' ';
          }
          std::printf("  %s %s %s %s [%.2f]: %s\n", name, r.label.c_str(), r.id.c_str(),
                      f.key.c_str(), f.strength, ev.c_str());
        }
      }
      for (const std::string& k : keys) ++hits[r.label][k];
    }
    for (auto& [label, n] : messages) {
      std::printf("%s/%s %s: %d messages, %d with HTML\n", name, split.c_str(), label.c_str(), n,
                  with_html[label]);
      for (auto& [key, count] : hits[label]) {
        std::printf("    %-22s %4d  %5.1f%%\n", key.c_str(), count, 100.0 * count / n);
      }
    }
  }
  std::printf("visible text: %zu characters, %zu not mapped to their own source\n", map_chars,
              map_mismatches);
  std::printf("HTML parts: %zu, %.1f KB average; scan %.3f ms average, %.3f ms max, %.1f MB/s\n",
              parts, parts ? bytes / 1024.0 / parts : 0.0, parts ? total_ms / parts : 0.0, max_ms,
              total_ms > 0 ? bytes / 1e3 / total_ms : 0.0);
  return 0;
}
