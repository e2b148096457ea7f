// measure_headers: how often each header signal fires on the email corpora
// (TRAIN splits only; never tune on dev). Not a unit test (the file name
// does not end in _test.cc, so CMake does not build it).
//
// Build and run from the source root (after building the library in
// /work/build-headers, or use your own build directory in its place):
//   g++ -std=c++20 -O2 -I libscamcheck/src -I libscamcheck/include
//       -I /work/build-headers/libscamcheck/include tests/unit/email/measure_headers.cc
//       /work/build-headers/libscamcheck/libscamcheck.a
//       $(pkg-config --libs gmime-3.0 gumbo libcurl libpsl libidn2 icu-i18n icu-uc
//         libutf8proc re2) -lsimdjson -o /tmp/measure_headers
//   /tmp/measure_headers [corpus_dir] [data_dir] [--split train|dev]
//                        [--show KEY|any|none] [--set NAME] [--dir DIR] [--mask]
// corpus_dir defaults to ../shared/corpus, data_dir to libscamcheck/data.
// --show prints each hit of KEY (evidence and message id); "none" lists
// the scam messages without any header finding. --set limits --show to one
// set (sa_ham, sa_spam, nazario, pot, pot_de). --dir instead prints every
// header finding of each .eml file in DIR (e.g. tests/fixtures/email/legit).
// --mask replaces the corpora's recipient addresses (jose@monkey.org,
// phishing@pot) everywhere in the raw messages by user@example.org, and
// the remaining "monkey.org" by "example.org": the figures must not move.
//
// Sets: spamassassin ham and spam, nazario_phishing, phishing_pot,
// phishing_pot_de. A message counts as "flagged" when its header findings
// alone reach the "suspicious" line (total >= 18) with the weights proposed
// below (per key the strongest finding times its strength; further findings
// of the key add 25 %). auth_failure is proposed below its severity's 40:
// no ham corpus here carries Authentication-Results, so its false-positive
// rate on real mail is unmeasured.
#include <simdjson.h>

#include <cstdio>
#include <cstring>
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

const std::map<std::string, double> kWeights = {
    {"display_name_impersonation", 40},
    {"sender_lookalike_domain", 40},
    {"reply_to_mismatch", 20},
    {"return_path_mismatch", 8},
    {"auth_failure", 30},
    {"message_id_mismatch", 8},
    {"received_chain_anomaly", 8},
    {"unusual_date", 8},
    {"malformed_from", 20},
};

double total_of(const Findings& fs) {
  std::map<std::string, std::vector<double>> by_key;
  for (const Finding& f : fs) {
    auto it = kWeights.find(f.key);
    double w = it == kWeights.end() ? 0 : it->second;
    by_key[f.key].push_back(w * f.strength);
  }
  double total = 0;
  for (auto& [k, v] : by_key) {
    std::sort(v.rbegin(), v.rend());
    double extra = 0;
    for (std::size_t i = 1; i < v.size(); ++i) extra += 0.25 * v[i];
    total += v[0] + std::min(extra, v[0]);
  }
  return total;
}

struct Record {
  std::string id, label, raw;
};

// The original bytes: "latin-1" records map each code point U+0000..U+00FF
// back to one byte.
std::string raw_bytes(std::string_view text, bool latin1) {
  if (!latin1) return std::string(text);
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      out.push_back(static_cast<char>(c));
      ++i;
    } else if ((c & 0xE0) == 0xC0 && i + 1 < text.size()) {
      unsigned cp = ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(text[i + 1]) & 0x3Fu);
      out.push_back(static_cast<char>(cp & 0xFF));
      i += 2;
    } else {
      out.push_back('?');
      ++i;
    }
  }
  return out;
}

std::vector<Record> read_jsonl(const std::string& path) {
  std::vector<Record> out;
  std::ifstream in(path);
  std::string line;
  simdjson::dom::parser parser;
  while (std::getline(in, line)) {
    simdjson::dom::element doc;
    if (parser.parse(line).get(doc)) continue;
    std::string_view id, label, text, enc;
    if (doc["id"].get_string().get(id) || doc["label"].get_string().get(label) ||
        doc["text"].get_string().get(text)) {
      continue;
    }
    bool latin1 = !doc["raw_encoding"].get_string().get(enc) && enc == "latin-1";
    out.push_back({std::string(id), std::string(label), raw_bytes(text, latin1)});
  }
  return out;
}

struct Set {
  std::string name;
  std::vector<Record> records;
};

}  // namespace

int main(int argc, char** argv) {
  std::string corpus = "../shared/corpus";
  std::string data_dir = "libscamcheck/data";
  std::string split = "train";
  std::string show, only_set, dir;
  bool mask = false;
  std::vector<std::string> pos;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--split" && i + 1 < argc) {
      split = argv[++i];
    } else if (a == "--show" && i + 1 < argc) {
      show = argv[++i];
    } else if (a == "--set" && i + 1 < argc) {
      only_set = argv[++i];
    } else if (a == "--mask") {
      mask = true;
    } else if (a == "--dir" && i + 1 < argc) {
      dir = argv[++i];
    } else {
      pos.push_back(a);
    }
  }
  if (pos.size() > 0) corpus = pos[0];
  if (pos.size() > 1) data_dir = pos[1];

  DataSource data(data_dir);
  auto urls = UrlAnalyzer::load(data);
  if (!urls.ok()) {
    std::fprintf(stderr, "url load: %s\n", urls.status().to_string().c_str());
    return 1;
  }
  auto checker = HeaderChecker::load(data, **urls);
  if (!checker.ok()) {
    std::fprintf(stderr, "header load: %s\n", checker.status().to_string().c_str());
    return 1;
  }

  if (!dir.empty()) {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      if (e.path().extension() == ".eml") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    int with = 0;
    for (const auto& path : files) {
      std::ifstream in(path, std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      auto parsed = parse_email(ss.str());
      if (!parsed.ok()) {
        std::printf("%s: parse error\n", path.filename().c_str());
        continue;
      }
      Findings fs;
      (*checker)->check(*parsed, fs);
      if (!fs.empty()) ++with;
      for (const Finding& f : fs) {
        std::string_view text = parsed->text_of(f.location);
        std::printf("%-44s %-26s %.2f %s | %s\n", path.filename().c_str(), f.key.c_str(),
                    f.strength, f.location.c_str(),
                    std::string(text.substr(f.start, f.end - f.start)).c_str());
      }
    }
    std::printf("%d of %zu files with header findings\n", with, files.size());
    return 0;
  }

  std::vector<Set> sets = {
      {"sa_ham", {}}, {"sa_spam", {}}, {"nazario", {}}, {"pot", {}}, {"pot_de", {}}};
  for (Record& r : read_jsonl(corpus + "/spamassassin/" + split + ".jsonl")) {
    (r.label == "ham" ? sets[0] : sets[1]).records.push_back(std::move(r));
  }
  sets[2].records = read_jsonl(corpus + "/nazario_phishing/" + split + ".jsonl");
  sets[3].records = read_jsonl(corpus + "/phishing_pot/" + split + ".jsonl");
  sets[4].records = read_jsonl(corpus + "/phishing_pot_de/" + split + ".jsonl");

  std::vector<std::string> keys;
  for (const auto& [k, w] : kWeights) keys.push_back(k);
  std::map<std::string, std::map<std::string, int>> hits;  // set -> key -> messages
  std::map<std::string, int> any, flagged, failed;
  for (const Set& set : sets) {
    bool show_here = !show.empty() && (only_set.empty() || only_set == set.name);
    for (const Record& r : set.records) {
      std::string raw = r.raw;
      if (mask) {
        for (auto [from, to] :
             {std::pair<const char*, const char*>{"jose@monkey.org", "user@example.org"},
              {"phishing@pot", "user@example.org"},
              {"monkey.org", "example.org"}}) {
          std::size_t at = 0;
          while ((at = raw.find(from, at)) != std::string::npos) {
            raw.replace(at, std::strlen(from), to);
            at += std::strlen(to);
          }
        }
      }
      auto parsed = parse_email(raw);
      if (!parsed.ok()) {
        ++failed[set.name];
        continue;
      }
      Findings fs;
      (*checker)->check(*parsed, fs);
      std::set<std::string> seen;
      for (const Finding& f : fs) {
        std::string_view text = parsed->text_of(f.location);
        if (f.end > text.size() || f.start >= f.end) {
          std::printf("BAD SPAN %s %s %s\n", r.id.c_str(), f.key.c_str(), f.location.c_str());
          continue;
        }
        seen.insert(f.key);
        if (show_here && (show == f.key || show == "any")) {
          std::printf("%-8s %-28s %-26s %.2f | %s\n", set.name.c_str(), r.id.c_str(), f.key.c_str(),
                      f.strength, std::string(text.substr(f.start, f.end - f.start)).c_str());
          std::string_view ctx = text.substr(0, std::min<std::size_t>(text.size(), 160));
          std::printf("         %s: %s\n", f.location.c_str(), std::string(ctx).c_str());
        }
      }
      if (show_here && show == "none" && fs.empty() && set.name != "sa_ham") {
        std::printf("%-8s %s\n", set.name.c_str(), r.id.c_str());
        for (const char* h : {"From", "Reply-To", "Return-Path", "Message-ID"}) {
          for (const EmailHeader* e : parsed->find(h)) {
            std::printf("    %s: %s\n", h, e->value.substr(0, 150).c_str());
          }
        }
      }
      for (const std::string& k : seen) ++hits[set.name][k];
      if (!seen.empty()) ++any[set.name];
      if (total_of(fs) >= 18) ++flagged[set.name];
    }
  }

  std::printf("\n%-28s", "key (% of messages)");
  for (const Set& s : sets) std::printf(" %8s", s.name.c_str());
  std::printf("\n%-28s", "messages");
  for (const Set& s : sets) std::printf(" %8zu", s.records.size());
  std::printf("\n");
  auto pct = [&](int n, const Set& s) {
    return s.records.empty() ? 0.0 : 100.0 * n / static_cast<double>(s.records.size());
  };
  for (const std::string& k : keys) {
    std::printf("%-28s", k.c_str());
    for (const Set& s : sets) std::printf(" %8.2f", pct(hits[s.name][k], s));
    std::printf("\n");
  }
  std::printf("%-28s", "any header finding");
  for (const Set& s : sets) std::printf(" %8.2f", pct(any[s.name], s));
  std::printf("\n%-28s", "headers alone >= suspicious");
  for (const Set& s : sets) std::printf(" %8.2f", pct(flagged[s.name], s));
  std::printf("\n%-28s", "parse failures");
  for (const Set& s : sets) std::printf(" %8d", failed[s.name]);
  std::printf("\n");
  return 0;
}
