// scamcheck-rule-calls: what the text rules cost per text, counted in work
// rather than time (so it does not move with the machine's load). For each
// JSONL file given (corpus or fixture records; text records only), per
// text: the RE2 set passes, the rules run by their own regex (a set woken
// by too few of its rules leaves them to it; the rules whose matches hold
// few words, near their atoms only) and how many of
// those match.
// An own-regex call that finds nothing is work the rules' covers could not
// spare (RuleSet::build); the rules with the most such calls are listed.
//
//   scamcheck-rule-calls [--top N] [--commit TEXT] FILE.jsonl...
#include <re2/re2.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "data/data_source.h"
#include "jsonl_corpus.h"
#include "normalize/normalize.h"
#include "rules/rule_set.h"

namespace {

using scamcheck::internal::NormalizedText;
using scamcheck::internal::RuleSet;

struct Counts {
  std::size_t texts = 0, passes = 0, calls = 0, near = 0, matches = 0;
  std::vector<std::size_t> missed;  // per rule: own-regex calls that found nothing
};

bool count(const RuleSet& rules, const std::string& path, Counts& out) {
  std::vector<scamcheck::bench::Record> records;
  std::string error;
  if (!scamcheck::bench::load_jsonl(path, &records, &error)) {
    std::fprintf(stderr, "scamcheck-rule-calls: %s\n", error.c_str());
    return false;
  }
  out.missed.assign(rules.rules().size(), 0);
  for (const scamcheck::bench::Record& record : records) {
    if (record.kind != "text") continue;
    const NormalizedText normalized(record.text, /*underscores_as_spaces=*/true);
    auto wakes = rules.sets_woken(normalized);
    if (!wakes.ok()) {
      std::fprintf(stderr, "scamcheck-rule-calls: %s: %s\n", record.id.c_str(),
                   wakes.status().to_string().c_str());
      return false;
    }
    ++out.texts;
    out.passes += wakes->run;
    out.near += wakes->near.size();
    std::vector<int> own = wakes->direct;
    own.insert(own.end(), wakes->near.begin(), wakes->near.end());
    for (int r : own) {
      const auto rule = static_cast<std::size_t>(r);
      ++out.calls;
      if (RE2::PartialMatch(normalized.text(), rules.rules()[rule].regex())) {
        ++out.matches;
      } else {
        ++out.missed[rule];
      }
    }
  }
  return true;
}

int usage(const char* message) {
  if (message != nullptr) std::fprintf(stderr, "scamcheck-rule-calls: %s\n", message);
  std::fprintf(message != nullptr ? stderr : stdout,
               "usage: scamcheck-rule-calls [--top N] [--commit TEXT] FILE.jsonl...\n"
               "  --top N        rules listed per file by own-regex calls that found\n"
               "                 nothing (default 10)\n"
               "  --commit TEXT  the commit the build was made from, for the header\n");
  return message != nullptr ? 64 : 0;
}

int run(int argc, char** argv) {
  std::size_t top = 10;
  std::string commit = "unknown";
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") return usage(nullptr);
    if (arg == "--top" || arg == "--commit") {
      if (i + 1 == argc) return usage((arg + " needs a value").c_str());
      const std::string value = argv[++i];
      if (arg == "--commit") {
        commit = value;
      } else if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos) {
        return usage("--top needs a number");
      } else {
        top = std::stoul(value);
      }
    } else if (!arg.empty() && arg[0] == '-') {
      return usage(("unknown option " + arg).c_str());
    } else {
      paths.push_back(arg);
    }
  }
  if (paths.empty()) return usage("no input file");
  auto rules =
      RuleSet::load(scamcheck::internal::DataSource(""), [](std::string_view) { return true; });
  if (!rules.ok()) {
    std::fprintf(stderr, "scamcheck-rule-calls: %s\n", rules.status().to_string().c_str());
    return 1;
  }
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  std::printf("# Text rule work per text\n\n- date: %s\n- commit: %s\n- sets: %zu, rules: %zu\n\n",
              date, commit.c_str(), (*rules)->set_count(), (*rules)->rules().size());
  std::printf(
      "| file | texts | set passes | own-regex calls | of which near atoms | of which match |\n");
  std::printf("|---|---:|---:|---:|---:|---:|\n");
  std::vector<Counts> all(paths.size());
  for (std::size_t i = 0; i < paths.size(); ++i) {
    Counts& c = all[i];
    if (!count(**rules, paths[i], c)) return 1;
    const double n = c.texts > 0 ? static_cast<double>(c.texts) : 1.0;
    std::printf("| %s | %zu | %.3f | %.3f | %.3f | %.3f |\n", paths[i].c_str(), c.texts,
                static_cast<double>(c.passes) / n, static_cast<double>(c.calls) / n,
                static_cast<double>(c.near) / n, static_cast<double>(c.matches) / n);
  }
  for (std::size_t i = 0; i < paths.size() && top > 0; ++i) {
    const std::vector<std::size_t>& missed = all[i].missed;
    std::vector<std::size_t> order(missed.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return missed[a] > missed[b]; });
    std::printf(
        "\n%s: own-regex calls that found nothing, by rule\n\n| calls | rule |\n|---:|---|\n",
        paths[i].c_str());
    for (std::size_t k = 0; k < top && k < order.size() && missed[order[k]] > 0; ++k) {
      std::printf("| %zu | %s |\n", missed[order[k]], (*rules)->rules()[order[k]].id.c_str());
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return run(argc, argv); }
