// measure_urls: how often the URL stage flags phishing URLs and legitimate
// URLs of the corpora (TRAIN splits only; never tune on dev). Not a unit
// test (the file name does not end in _test.cc, so CMake does not build it).
//
// Build and run (after building the library in /work/build-url, or use your
// own build directory in its place):
//   g++ -std=c++20 -O2 -I libscamcheck/src -I libscamcheck/include
//       -I /work/build-url/libscamcheck/include tests/unit/url/measure_urls.cc
//       /work/build-url/libscamcheck/libscamcheck.a
//       $(pkg-config --libs libcurl libpsl libidn2 icu-i18n icu-uc libutf8proc re2)
//       -lsimdjson -o /tmp/measure_urls
//   /tmp/measure_urls [corpus_dir] [data_dir] [--split train|dev] [--show KEY|flagged|missed|all]
//                     [--dump DIR]  (writes each set's URLs to DIR/<set>.txt)
// corpus_dir defaults to ../shared/corpus, data_dir to libscamcheck/data.
//
// A URL counts as flagged when its URL findings alone reach the scoring
// doc's "suspicious" line (total >= 18) with the default weights proposed
// below (high 40, medium 20, low 8; times each finding's strength; per key
// the strongest counts, further findings of the key add 25 %).
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "data/data_source.h"
#include "extract/links.h"
#include "url/url_analyzer.h"
#include "url/url_input.h"

using namespace scamcheck;
using namespace scamcheck::internal;

namespace {

const std::map<std::string, double> kWeights = {
    {"brand_lookalike", 40},     {"brand_in_subdomain", 40},
    {"brand_in_path", 20},       {"punycode_domain", 20},
    {"ip_address_host", 40},     {"userinfo_trick", 40},
    {"url_shortener", 8},        {"risky_tld", 20},
    {"many_subdomains", 8},      {"nonstandard_port", 20},
    {"insecure_login_page", 20}, {"script_url", 40},
    {"free_hosting", 20},        {"phishing_keywords_in_url", 20},
    {"random_domain", 8},        {"obfuscated_url", 20},
    {"defanged_link", 8},        {"hijacked_site_path", 20},
    {"random_code_folder", 20},  {"domain_in_path", 20},
    {"hosting_server_name", 20},
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

struct Set {
  std::string name;
  bool scam;
  std::vector<std::string> urls;
};

std::vector<std::pair<std::string, std::string>> read_jsonl(const std::string& path) {
  std::vector<std::pair<std::string, std::string>> out;
  std::ifstream in(path);
  std::string line;
  simdjson::dom::parser parser;
  while (std::getline(in, line)) {
    simdjson::dom::element doc;
    if (parser.parse(line).get(doc)) continue;
    std::string_view label, text;
    if (doc["label"].get_string().get(label) || doc["text"].get_string().get(text)) continue;
    out.emplace_back(std::string(label), std::string(text));
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string corpus = "../shared/corpus";
  std::string data_dir = "libscamcheck/data";
  std::string split = "train";
  std::string show;
  std::string dump;  // directory: write each set's URLs to <dir>/<set>.txt
  std::vector<std::string> pos;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--split" && i + 1 < argc) {
      split = argv[++i];
    } else if (a == "--show" && i + 1 < argc) {
      show = argv[++i];
    } else if (a == "--dump" && i + 1 < argc) {
      dump = argv[++i];
    } else {
      pos.push_back(a);
    }
  }
  if (pos.size() > 0) corpus = pos[0];
  if (pos.size() > 1) data_dir = pos[1];

  auto loaded = UrlAnalyzer::load(DataSource(data_dir));
  if (!loaded.ok()) {
    std::fprintf(stderr, "load: %s\n", loaded.status().to_string().c_str());
    return 1;
  }
  const UrlAnalyzer& analyzer = **loaded;

  std::vector<Set> sets;
  for (const char* c : {"urls_jpcert", "urls_phishing_database"}) {
    Set s{c, true, {}};
    for (auto& [label, text] : read_jsonl(corpus + "/" + c + "/" + split + ".jsonl"))
      s.urls.push_back(text);
    sets.push_back(std::move(s));
  }
  Set dscam{"domains:scam", true, {}}, dham{"domains:ham", false, {}};
  Set legit{"legit_full_urls", false, {}};
  static const char* kPaths[] = {"/",
                                 "/login",
                                 "/account",
                                 "/de/",
                                 "/search?q=winter+jacket",
                                 "/about-us",
                                 "/en/products/item-1234",
                                 "/news/2024/05/how-we-built-our-new-office",
                                 "/account/settings",
                                 "/signin?next=%2Fhome",
                                 "/index.php?id=12&lang=de",
                                 "/cart",
                                 "/user/login?destination=/node/5",
                                 "/my-account/orders",
                                 "/wp-content/uploads/2023/01/brochure.pdf",
                                 "/help/password-reset"};
  std::size_t k = 0;
  for (auto& [label, text] : read_jsonl(corpus + "/domains/" + split + ".jsonl")) {
    if (label == "scam") {
      dscam.urls.push_back(text);
    } else {
      dham.urls.push_back(text);
      std::size_t dots = static_cast<std::size_t>(std::count(text.begin(), text.end(), '.'));
      std::string host = dots == 1 && (k % 2 == 0) ? "www." + text : text;
      legit.urls.push_back("https://" + host + kPaths[k % (sizeof kPaths / sizeof *kPaths)]);
      ++k;
    }
  }
  // Real links from legitimate e-mails (SpamAssassin ham bodies).
  Set sa{"spamassassin_ham_links", false, {}};
  std::set<std::string> seen;
  for (auto& [label, text] : read_jsonl(corpus + "/spamassassin/" + split + ".jsonl")) {
    if (label != "ham") continue;
    for (const LinkMatch& m : extract_links(text)) {
      if (!m.had_scheme) continue;
      if (seen.insert(m.url).second) sa.urls.push_back(text.substr(m.start, m.end - m.start));
    }
  }
  sets.push_back(std::move(dscam));
  sets.push_back(std::move(dham));
  sets.push_back(std::move(legit));
  sets.push_back(std::move(sa));

  if (!dump.empty()) {
    for (const Set& s : sets) {
      std::ofstream f(dump + "/" + s.name + ".txt");
      for (const std::string& u : s.urls) f << u << "\n";
    }
  }
  std::printf("split=%s data=%s\n\n", split.c_str(), data_dir.c_str());
  std::printf("%-24s %6s %8s %8s\n", "set", "n", "flagged", "med/high");
  std::map<std::string, std::map<std::string, int>> key_hits;
  auto t0 = std::chrono::steady_clock::now();
  std::size_t analysed = 0;
  for (const Set& s : sets) {
    int flagged = 0, medhigh = 0;
    for (const std::string& u : s.urls) {
      LinkMatch m = link_for_url_input(u);
      if (m.start >= m.end) continue;
      Findings fs;
      UrlInfo info;
      analyzer.analyze(u, m, fs, info);
      ++analysed;
      double total = total_of(fs);
      bool f = total >= 17.8;
      bool mh = false;
      std::set<std::string> keys;
      for (const Finding& x : fs) {
        keys.insert(x.key);
        auto it = kWeights.find(x.key);
        if (it != kWeights.end() && it->second >= 20 && it->second * x.strength >= 17.8) mh = true;
        if (x.end <= x.start || x.end > u.size())
          std::printf("BAD SPAN %s %s\n", x.key.c_str(), u.c_str());
      }
      for (const std::string& key : keys) key_hits[s.name][key]++;
      flagged += f;
      medhigh += mh;
      bool print = (show == "flagged" && f) || (show == "missed" && !f && s.scam) ||
                   (show == "all" && !fs.empty()) || (!show.empty() && keys.count(show));
      if (print && ((show != "flagged" && show != "all") || !s.scam)) {
        std::printf("  [%s] %.0f %s :", s.name.c_str(), total, u.c_str());
        for (const Finding& x : fs) {
          std::printf(" %s(%.2f)='%s'", x.key.c_str(), x.strength,
                      u.substr(x.start, x.end - x.start).c_str());
        }
        std::printf("\n");
      }
    }
    std::printf("%-24s %6zu %7.1f%% %7.1f%%\n", s.name.c_str(), s.urls.size(),
                100.0 * flagged / std::max<std::size_t>(1, s.urls.size()),
                100.0 * medhigh / std::max<std::size_t>(1, s.urls.size()));
  }
  auto t1 = std::chrono::steady_clock::now();
  double us = std::chrono::duration<double, std::micro>(t1 - t0).count();
  std::printf("\n%.2f us per URL (single thread, including link_for_url_input)\n\n",
              us / static_cast<double>(std::max<std::size_t>(1, analysed)));

  std::printf("per-signal hit rate (%% of URLs in each set)\n%-26s", "key");
  for (const Set& s : sets) std::printf(" %12.12s", s.name.c_str());
  std::printf("\n");
  for (const auto& [key, w] : kWeights) {
    std::printf("%-26s", key.c_str());
    for (const Set& s : sets) {
      int h = key_hits[s.name][key];
      std::printf(" %11.2f%%", 100.0 * h / std::max<std::size_t>(1, s.urls.size()));
    }
    std::printf("\n");
  }
  return 0;
}
