// scamcheck-eval: scores the labelled corpora (../shared/corpus/*/<split>.jsonl)
// and the fixture files (tests/fixtures/*.jsonl and the e-mails in
// tests/fixtures/email/{legit,scam}/*.eml) with the library and prints
// precision, recall, F1, MCC and false-positive rate per dataset, the
// verdicts per label, the errors, and the worst false positives and false
// negatives for reading. Report on the dev split; never tune to individual
// dev messages (../shared/corpus/README.md).
//
// Usage: scamcheck-eval [--corpus-dir DIR] [--split dev|train] [--fixtures DIR]
//                       [--threads N] [--worst N] [--only NAME] [--data-dir DIR]
//                       [--rules-only | --model FILE | --compare A B]
//                       [--plots DIR] [--json FILE] [--scores FILE] [--label TEXT]
// --compare scores the same split with two models (each a model file,
// "embedded" for the data pack's model, or "rules" for the rules alone)
// and prints their figures side by side.
// Exit status: 0 done (whatever the figures), 64 usage error, 65 a data file
// could not be read, 70 the analyzer could not be created, 73 the --json,
// --plots or --scores output could not be written.

#include <scamcheck/scamcheck.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "evaluation.h"
#include "families.h"
#include "jsonl_corpus.h"
#include "number_options.h"

namespace {

using scamcheck::bench::Dataset;
using scamcheck::bench::Label;
using scamcheck::bench::Outcome;
using scamcheck::bench::Record;

// How many signals each outcome keeps for the worst-case listings.
constexpr std::size_t kSignalsKept = 3;

// Paths for the "domains_ham_as_urls" pseudo-corpus: every 4th legitimate
// host also gets one of these, so that ordinary deep links (including
// login and account pages, which every real site has) are part of the
// false-positive check, not only bare "https://host/".
constexpr const char* kLegitPaths[] = {
    "/login",         "/account",          "/help/contact", "/search?q=weather",
    "/news/2024/05/", "/account/settings", "/signin",       "/products/index.html",
};

struct Args {
  std::string corpus_dir;
  std::string split = "dev";
  std::string fixtures_dir = SCAMCHECK_SOURCE_DIR "/tests/fixtures";
  unsigned threads = 0;  // 0 = every core
  std::size_t worst = 5;
  std::string only;
  std::string data_dir;
  std::string json_path;
  std::string scores_path;
  std::string label;
  bool rules_only = false;
  std::string model_file;  // "" = the data pack's model
  std::string compare_a, compare_b;
  std::string plots_dir;
};

// A model choice of --compare: "rules", "embedded" or a file.
scamcheck::Options options_for(const Args& args, const std::string& choice) {
  scamcheck::Options o{.data_dir = args.data_dir};
  if (choice == "rules") {
    o.use_model = false;
  } else if (choice != "embedded") {
    o.model_file = choice;
  }
  return o;
}

std::string describe_choice(const std::string& choice) {
  if (choice == "rules") return "rules only";
  if (choice == "embedded") return "embedded model";
  return choice;
}

// Returns -1 when the arguments are fine, otherwise the exit status.
int parse_args(int argc, char** argv, Args* args) {
  using scamcheck::bench::decimal;
  CLI::App app(
      "scamcheck-eval: scores the labelled corpora and the fixtures with the library and prints "
      "precision, recall, F1, MCC and false-positive rate per dataset (benchmarks/README.md).",
      "scamcheck-eval");
  // A repeated option: the last one counts.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  args->corpus_dir = SCAMCHECK_SOURCE_DIR "/../shared/corpus";
  app.add_option("--corpus-dir", args->corpus_dir,
                 "Corpora, one folder each with <split>.jsonl (default: $SCAMCHECK_CORPUS_DIR, "
                 "else ../shared/corpus beside the source tree)")
      ->type_name("DIR")
      ->envname("SCAMCHECK_CORPUS_DIR");
  app.add_option("--split", args->split, "dev (default) or train")
      ->type_name("S")
      ->check(CLI::Validator(
          [](std::string& value) -> std::string {
            if (value == "dev" || value == "train") return {};
            return "must be dev or train (test is held back)";
          },
          ""));
  app.add_option("--fixtures", args->fixtures_dir,
                 "Fixture files *.jsonl (default: tests/fixtures)")
      ->type_name("DIR");
  app.add_option("--threads", args->threads, "Analysis threads (default: every core)")
      ->type_name("N")
      ->transform(decimal())
      ->check(CLI::Range(0u, 1024u));
  app.add_option("--worst", args->worst, "False positives/negatives listed per dataset (default 5)")
      ->type_name("N")
      ->transform(decimal())
      ->check(CLI::Range(std::size_t{0}, std::size_t{100000}));
  app.add_option("--only", args->only,
                 "Evaluate one dataset (corpus name, fixture file stem, or domains_ham_as_urls)")
      ->type_name("NAME");
  app.add_option("--data-dir", args->data_dir, "Data pack directory (default: the embedded pack)")
      ->type_name("DIR");
  app.add_flag("--rules-only", args->rules_only,
               "Score with the rules alone (Options::use_model = false)");
  app.add_option("--model", args->model_file, "Use this model file instead of the data pack's")
      ->type_name("FILE");
  std::pair<std::string, std::string> compare;
  app.add_option("--compare", compare,
                 "Score with two models and print them side by side; each a model file, "
                 "\"embedded\" or \"rules\"")
      ->type_name("A B");
  app.add_option("--plots", args->plots_dir,
                 "Write ROC and precision-recall curves as PNG (gnuplot)")
      ->type_name("DIR");
  app.add_option("--json", args->json_path, "Also write every figure as JSON")->type_name("FILE");
  app.add_option("--scores", args->scores_path,
                 "Also write one line per record (TSV: dataset, id, label, score, verdict, "
                 "signals as key@location)")
      ->type_name("FILE");
  app.add_option("--label", args->label, "Printed at the top, e.g. the commit")->type_name("TEXT");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints the help or the error
    return code == 0 ? 0 : 64;
  }
  std::tie(args->compare_a, args->compare_b) = compare;
  if (args->threads == 0) args->threads = std::max(1u, std::thread::hardware_concurrency());
  return -1;
}

// --scores: one TSV line per analysed record.
bool write_scores(const std::string& path, const std::vector<Dataset>& datasets) {
  std::ofstream out(path);
  out << "dataset\tid\tlabel\tscore\tverdict\tsignals\n";
  for (const Dataset& d : datasets) {
    for (std::size_t i = 0; i < d.records.size(); ++i) {
      const Outcome& o = d.outcomes[i];
      if (!o.ok) continue;
      out << d.name << '\t' << d.records[i].id << '\t'
          << scamcheck::bench::to_string(d.records[i].label) << '\t' << o.score << '\t'
          << scamcheck::to_string(o.verdict) << '\t' << o.all_signals << '\n';
    }
  }
  return static_cast<bool>(out.flush());
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

bool selected(const Args& args, const std::string& name, const std::string& alias = {}) {
  return args.only.empty() || args.only == name || (!alias.empty() && args.only == alias);
}

// Legitimate full URLs built from the ham hosts of the `domains` split (its
// ham side is bare host names, while every scam URL has a scheme; see the
// corpus README's caveat).
Dataset ham_hosts_as_urls(const std::vector<Record>& domains) {
  Dataset d;
  d.name = "domains_ham_as_urls";
  d.origin = "generated";
  std::size_t host_no = 0;
  constexpr std::size_t kPathCount = sizeof kLegitPaths / sizeof kLegitPaths[0];
  for (const Record& r : domains) {
    if (r.label != Label::kHam) continue;
    Record root;
    // "domains-<hash>" -> "domains_ham_as_urls-<hash>-root"
    const std::string hash = r.id.substr(r.id.rfind('-') + 1);
    root.id = d.name + "-" + hash + "-root";
    root.label = Label::kHam;
    root.kind = "url";
    root.lang = "und";
    root.text = "https://" + r.text + "/";
    d.records.push_back(root);
    if (host_no % 4 == 0) {
      Record deep = root;
      deep.id = d.name + "-" + hash + "-path";
      deep.text = "https://" + r.text + kLegitPaths[(host_no / 4) % kPathCount];
      d.records.push_back(std::move(deep));
    }
    ++host_no;
  }
  return d;
}

Outcome analyze_one(const scamcheck::Analyzer& analyzer, const Record& record) {
  Outcome o;
  const auto start = std::chrono::steady_clock::now();
  try {
    auto result = analyzer.analyze(record.text, std::string_view(record.kind), "en");
    if (result.ok()) {
      o.ok = true;
      o.verdict = result->verdict;
      o.score = result->risk_score;
      o.confidence = result->confidence;
      for (const auto& signal : result->signals) {
        if (o.first_signals.size() < kSignalsKept)
          o.first_signals.emplace_back(signal.key, signal.evidence);
        if (!o.all_signals.empty()) o.all_signals += ' ';
        o.all_signals += signal.key + '@' + signal.location;
      }
    } else {
      o.error = result.status().to_string();
    }
  } catch (const std::exception& e) {  // the API promises never to throw
    o.error = std::string("exception escaped analyze(): ") + e.what();
  } catch (...) {
    o.error = "unknown exception escaped analyze()";
  }
  const auto end = std::chrono::steady_clock::now();
  o.micros = std::chrono::duration<double, std::micro>(end - start).count();
  return o;
}

// Analyses every record of every dataset on `threads` threads sharing one
// const Analyzer.
void analyze_all(const scamcheck::Analyzer& analyzer, std::vector<Dataset>& datasets,
                 unsigned threads) {
  std::vector<std::pair<std::size_t, std::size_t>> work;
  for (std::size_t k = 0; k < datasets.size(); ++k) {
    datasets[k].outcomes.resize(datasets[k].records.size());
    for (std::size_t i = 0; i < datasets[k].records.size(); ++i) work.emplace_back(k, i);
  }
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (;;) {
      const std::size_t j = next.fetch_add(1, std::memory_order_relaxed);
      if (j >= work.size()) return;
      const auto [k, i] = work[j];
      datasets[k].outcomes[i] = analyze_one(analyzer, datasets[k].records[i]);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
}

std::string percent(const std::optional<double>& v) {
  if (!v) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f%%", *v * 100);
  return buf;
}
std::string fixed3(const std::optional<double>& v) {
  if (!v) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", *v);
  return buf;
}

// --compare: the same datasets scored by two models, side by side.
int compare(const Args& args, std::vector<Dataset>& datasets) {
  using scamcheck::bench::Summary;
  std::vector<Summary> results[2];
  Summary pooled[2];
  const std::string choices[2] = {args.compare_a, args.compare_b};
  for (int m = 0; m < 2; ++m) {
    auto analyzer = scamcheck::Analyzer::create(options_for(args, choices[m]));
    if (!analyzer.ok()) {
      std::cerr << "scamcheck-eval: cannot create the analyzer for " << choices[m] << ": "
                << analyzer.status().to_string() << "\n";
      return 70;
    }
    analyze_all(**analyzer, datasets, args.threads);
    std::vector<const Dataset*> corpora;
    for (const Dataset& d : datasets) {
      results[m].push_back(scamcheck::bench::summarize(d, 0));
      if (d.origin == "corpus") corpora.push_back(&d);
    }
    pooled[m] = scamcheck::bench::pool("all corpora (pooled)", corpora);
  }
  std::cout << "scamcheck-eval --compare  split: " << args.split
            << "\n  A: " << describe_choice(choices[0]) << "\n  B: " << describe_choice(choices[1])
            << "\nflagged = verdict not safe; recall over scam + spam\n\n";
  char line[320];
  std::snprintf(line, sizeof line, "%-30s %8s %8s  %8s %8s  %6s %6s  %7s %7s\n", "dataset", "FPR A",
                "FPR B", "recall A", "recall B", "MCC A", "MCC B", "AUC A", "AUC B");
  std::cout << line;
  for (std::size_t k = 0; k < datasets.size(); ++k) {
    const auto a = scamcheck::bench::compute_metrics(results[0][k].all);
    const auto b = scamcheck::bench::compute_metrics(results[1][k].all);
    std::snprintf(line, sizeof line, "%-30s %8s %8s  %8s %8s  %6s %6s  %7s %7s\n",
                  datasets[k].name.c_str(), percent(a.fpr).c_str(), percent(b.fpr).c_str(),
                  percent(a.recall).c_str(), percent(b.recall).c_str(), fixed3(a.mcc).c_str(),
                  fixed3(b.mcc).c_str(), fixed3(results[0][k].curves.roc_auc).c_str(),
                  fixed3(results[1][k].curves.roc_auc).c_str());
    std::cout << line;
  }
  for (int m = 0; m < 2; ++m) {
    // The fixture halves and families of each model: `datasets` holds B's
    // outcomes, so A's fixtures are analysed again.
    std::vector<Dataset> fixtures;
    for (const Dataset& d : datasets) {
      if (d.origin == "fixture") fixtures.push_back(d);
    }
    if (m == 0) {
      auto analyzer = scamcheck::Analyzer::create(options_for(args, choices[0]));
      if (!analyzer.ok()) return 70;
      analyze_all(**analyzer, fixtures, args.threads);
    }
    std::cout << "\n" << (m == 0 ? "A: " : "B: ") << describe_choice(choices[m]);
    scamcheck::bench::print_halves(std::cout, scamcheck::bench::fixture_halves(fixtures),
                                   scamcheck::bench::family_rows(fixtures));
  }
  std::cout << "\nPooled over every corpus: ECE A " << fixed3(pooled[0].confidence.ece) << ", B "
            << fixed3(pooled[1].confidence.ece) << "; right among confidence >= 80: A "
            << percent(pooled[0].confidence.confident_right) << ", B "
            << percent(pooled[1].confidence.confident_right) << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (int status = parse_args(argc, argv, &args); status >= 0) return status;

  namespace fs = std::filesystem;
  std::vector<Dataset> datasets;
  std::string error;
  const bool corpus_found = fs::is_directory(args.corpus_dir);
  if (corpus_found) {  // "<repo>/../shared/corpus" -> "/work/shared/corpus"
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(args.corpus_dir, ec);
    if (!ec) args.corpus_dir = canonical.string();
  }
  if (!corpus_found) {
    std::cout << "corpus not found: " << args.corpus_dir << " — skipped\n";
  } else {
    std::vector<Record> domains;
    for (const auto& file : scamcheck::bench::list_corpora(args.corpus_dir, args.split)) {
      const bool want = selected(args, file.name);
      const bool want_urls = file.name == "domains" && selected(args, "domains_ham_as_urls");
      if (!want && !want_urls) continue;
      Dataset d;
      d.name = file.name;
      d.origin = "corpus";
      if (!scamcheck::bench::load_jsonl(file.path, &d.records, &error)) {
        std::cerr << "scamcheck-eval: " << error << "\n";
        return 65;
      }
      if (want_urls) domains = d.records;
      if (want) datasets.push_back(std::move(d));
    }
    if (!domains.empty()) datasets.push_back(ham_hosts_as_urls(domains));
  }
  for (const auto& file : scamcheck::bench::list_jsonl_files(args.fixtures_dir)) {
    const std::string name = "fixtures/" + file.name;
    if (!selected(args, name, file.name)) continue;
    Dataset d;
    d.name = name;
    d.origin = "fixture";
    if (!scamcheck::bench::load_jsonl(file.path, &d.records, &error)) {
      std::cerr << "scamcheck-eval: " << error << "\n";
      return 65;
    }
    scamcheck::bench::mark_trained(d, /*eml_folder=*/false);
    datasets.push_back(std::move(d));
  }
  // The e-mail fixtures: tests/fixtures/email/{legit,scam}/*.eml.
  for (const auto& [folder, label] : {std::pair{"legit", Label::kHam}, {"scam", Label::kScam}}) {
    const std::string file = std::string(folder) + "_email";
    const std::string name = "fixtures/" + file;
    if (!selected(args, name, file)) continue;
    Dataset d;
    d.name = name;
    d.origin = "fixture";
    const std::string dir = args.fixtures_dir + "/email/" + folder;
    if (!scamcheck::bench::load_eml_dir(dir, label, &d.records, &error)) {
      std::cerr << "scamcheck-eval: " << error << "\n";
      return 65;
    }
    scamcheck::bench::mark_trained(d, /*eml_folder=*/true);
    if (!d.records.empty()) datasets.push_back(std::move(d));
  }
  if (!args.only.empty() && datasets.empty()) {
    std::cerr << "scamcheck-eval: no dataset named " << args.only << "\n";
    return 64;
  }

  if (!args.compare_a.empty()) return compare(args, datasets);
  std::string choice = "embedded";
  if (args.rules_only) choice = "rules";
  if (!args.model_file.empty()) choice = args.model_file;
  auto analyzer = scamcheck::Analyzer::create(options_for(args, choice));
  if (!analyzer.ok()) {
    std::cerr << "scamcheck-eval: cannot create the analyzer: " << analyzer.status().to_string()
              << "\n";
    return 70;
  }

  scamcheck::bench::RunInfo info;
  info.date = utc_now();
  info.label = args.label;
  info.split = args.split;
  info.corpus_dir = args.corpus_dir;
  info.corpus_found = corpus_found;
  info.fixtures_dir = args.fixtures_dir;
  info.data_dir = args.data_dir;
  info.model = describe_choice(choice);
  info.threads = args.threads;
  info.worst = args.worst;
  for (const Dataset& d : datasets) info.records += static_cast<std::int64_t>(d.records.size());

  const auto start = std::chrono::steady_clock::now();
  analyze_all(**analyzer, datasets, args.threads);
  info.elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::vector<scamcheck::bench::Summary> summaries;
  summaries.reserve(datasets.size());
  for (const Dataset& d : datasets) summaries.push_back(scamcheck::bench::summarize(d, args.worst));
  scamcheck::bench::print_text(std::cout, info, datasets, summaries);
  scamcheck::bench::print_halves(std::cout, scamcheck::bench::fixture_halves(datasets),
                                 scamcheck::bench::family_rows(datasets));
  std::vector<const Dataset*> corpora;
  for (const Dataset& d : datasets) {
    if (d.origin == "corpus") corpora.push_back(&d);
  }
  if (!corpora.empty()) {
    const auto pooled = scamcheck::bench::pool("all corpora (pooled)", corpora);
    std::cout << "\nPooled over every corpus of the split (ranking and confidence)\n";
    scamcheck::bench::print_pooled(std::cout, pooled);
  }
  if (!args.plots_dir.empty()) {
    if (!scamcheck::bench::write_plots(args.plots_dir, summaries,
                                       "scamcheck-eval " + args.split + ", " + info.model,
                                       &error)) {
      std::cerr << "scamcheck-eval: " << error << "\n";
      return 73;
    }
    std::cout << "\nplots: " << args.plots_dir << "/{roc,roc_low_fpr,pr}.png\n";
  }
  if (!args.json_path.empty() &&
      !scamcheck::bench::write_json(args.json_path, info, datasets, summaries, &error)) {
    std::cerr << "scamcheck-eval: " << error << "\n";
    return 73;
  }
  if (!args.scores_path.empty() && !write_scores(args.scores_path, datasets)) {
    std::cerr << "scamcheck-eval: cannot write " << args.scores_path << "\n";
    return 73;
  }
  return 0;
}
