#include "url/url_lists.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "util/ascii.h"

namespace scamcheck::internal {

std::vector<ListEntry> parse_weighted_list(std::string_view text, std::string_view name,
                                           std::string& problems) {
  std::vector<ListEntry> out;
  for (const std::string& line : parse_list(text)) {
    ListEntry e;
    std::size_t i = 0;
    int field = 0;
    while (i < line.size()) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      std::size_t s = i;
      while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
      if (s == i) break;
      std::string tok = line.substr(s, i - s);
      if (field == 0) {
        e.entry = lower_ascii(tok);
      } else if (field == 1 && (tok[0] == '.' || (tok[0] >= '0' && tok[0] <= '9'))) {
        char* end = nullptr;
        double v = std::strtod(tok.c_str(), &end);
        if (end == nullptr || *end != '\0' || !(v > 0.0) || v > 3.0) {
          problems +=
              std::string(name) + ": bad strength \"" + tok + "\" for \"" + e.entry + "\"; ";
        } else {
          e.strength = v;
        }
      } else {
        e.tags.push_back(std::move(tok));
      }
      ++field;
    }
    if (!e.entry.empty()) out.push_back(std::move(e));
  }
  return out;
}

Result<UrlLists> UrlLists::load(const DataSource& data) {
  UrlLists lists;
  std::string problems;
  struct Spec {
    const char* path;
    std::unordered_map<std::string, double, StringHash, std::equal_to<>>* target;
  };
  const Spec specs[] = {
      {"lists/risky_tlds.txt", &lists.risky_tlds},
      {"lists/shorteners.txt", &lists.shorteners},
      {"lists/free_hosting.txt", &lists.free_hosting},
      {"lists/brand_mention_sites.txt", &lists.mention_sites},
  };
  for (const Spec& spec : specs) {
    Result<std::string> text = data.read(spec.path);
    if (!text.ok()) {
      problems += text.status().message() + "; ";
      continue;
    }
    for (ListEntry& e : parse_weighted_list(*text, data.describe(spec.path), problems)) {
      bool wildcard = e.entry.size() > 2 && e.entry.compare(e.entry.size() - 2, 2, ".*") == 0;
      if (e.entry.front() == '.' || (e.entry.back() == '.' && !wildcard)) {
        problems += data.describe(spec.path) + ": entry \"" + e.entry +
                    "\" must not start or end with '.'; ";
        continue;
      }
      (*spec.target)[e.entry] = e.strength;
    }
  }
  Result<std::string> kw = data.read("lists/url_keywords.txt");
  if (!kw.ok()) {
    problems += kw.status().message() + "; ";
  } else {
    for (ListEntry& e :
         parse_weighted_list(*kw, data.describe("lists/url_keywords.txt"), problems)) {
      bool ok = e.entry.size() >= 3;
      for (char c : e.entry) {
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) ok = false;
      }
      if (!ok) {
        problems += data.describe("lists/url_keywords.txt") + ": keyword \"" + e.entry +
                    "\" must be >= 3 lower-case letters/digits; ";
        continue;
      }
      UrlKeyword k;
      k.word = e.entry;
      k.strength = std::min(e.strength, 1.0);
      for (const std::string& t : e.tags) {
        if (t == "login") {
          k.login = true;
        } else if (t == "host") {
          k.host_only = true;
        } else {
          problems += data.describe("lists/url_keywords.txt") + ": unknown tag \"" + t + "\"; ";
        }
      }
      lists.keywords.push_back(std::move(k));
    }
  }
  Result<std::string> bigrams = data.read("lists/rare_bigrams.txt");
  if (!bigrams.ok()) {
    problems += bigrams.status().message() + "; ";
  } else {
    for (const std::string& e : parse_list(*bigrams)) {
      if (e.size() != 2 || e[0] < 'a' || e[0] > 'z' || e[1] < 'a' || e[1] > 'z') {
        problems += data.describe("lists/rare_bigrams.txt") + ": \"" + e +
                    "\" is not two lower-case letters; ";
        continue;
      }
      lists.rare_bigrams[static_cast<std::size_t>((e[0] - 'a') * 26 + (e[1] - 'a'))] = true;
    }
  }
  constexpr std::string_view kFolders = "lists/site_asset_folders.txt";
  Result<std::string> folders = data.read(kFolders);
  if (!folders.ok()) {
    problems += folders.status().message() + "; ";
  } else {
    for (std::string& e : parse_list(*folders)) {
      if (e.find('/') != std::string::npos || e != lower_ascii(e)) {
        problems += data.describe(kFolders) + ": \"" + e + "\" is not one lower-case folder name; ";
        continue;
      }
      lists.asset_folders.push_back(std::move(e));
    }
  }
  if (!problems.empty()) {
    problems.resize(problems.size() - 2);
    return Status::invalid_argument(problems);
  }
  return lists;
}

}  // namespace scamcheck::internal
