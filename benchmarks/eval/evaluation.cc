#include "evaluation.h"

#include <rapidjson/ostreamwrapper.h>
#include <rapidjson/prettywriter.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "common/ascii.h"

namespace scamcheck::bench {
namespace {

std::size_t label_index(Label label) { return static_cast<std::size_t>(label); }

bool is_positive(Label label) { return label != Label::kHam; }

std::string format(const char* fmt, double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, fmt, value);
  return buf;
}

// A metric cell: the value, or "-" when it is undefined for the data.
std::string cell(const std::optional<double>& value, bool percent = false) {
  if (!value) return "-";
  return percent ? format("%.2f%%", *value * 100) : format("%.3f", *value);
}

std::string fraction(std::int64_t part, std::int64_t whole) {
  if (whole == 0) return "-";
  return format("%.2f%%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

std::string signals_text(const Outcome& o) {
  std::string out;
  for (const auto& [key, evidence] : o.first_signals) {
    if (!out.empty()) out += ", ";
    out += key + " \"" + preview(evidence, 40) + "\"";
  }
  return out.empty() ? "no signals" : out;
}

void print_metrics_row(std::ostream& out, const std::string& name, const Summary& s,
                       const Confusion& c, bool main_row) {
  const Metrics m = compute_metrics(c);
  char line[256];
  const std::int64_t n = main_row ? s.n : c.positives() + c.negatives();
  const std::string err = main_row ? std::to_string(s.errors) : "";
  std::snprintf(line, sizeof line, "%-34s %6lld %5s %6lld %6lld %5lld %7s %6s %6s %6s %6s",
                name.c_str(), static_cast<long long>(n), err.c_str(),
                static_cast<long long>(c.negatives()), static_cast<long long>(c.positives()),
                static_cast<long long>(c.fp), cell(m.fpr, true).c_str(), cell(m.precision).c_str(),
                cell(m.recall).c_str(), cell(m.f1).c_str(), cell(m.mcc).c_str());
  out << line;
  if (main_row) {
    std::snprintf(line, sizeof line, " %7.1f", s.p50_micros);
    out << line;
  }
  out << "\n";
}

void write_optional(rapidjson::PrettyWriter<rapidjson::OStreamWrapper>& w, const char* key,
                    const std::optional<double>& value) {
  w.Key(key);
  if (value) {
    w.Double(*value);
  } else {
    w.Null();
  }
}

void write_confusion(rapidjson::PrettyWriter<rapidjson::OStreamWrapper>& w, const Confusion& c) {
  const Metrics m = compute_metrics(c);
  w.StartObject();
  w.Key("tp");
  w.Int64(c.tp);
  w.Key("fn");
  w.Int64(c.fn);
  w.Key("fp");
  w.Int64(c.fp);
  w.Key("tn");
  w.Int64(c.tn);
  write_optional(w, "fpr", m.fpr);
  write_optional(w, "precision", m.precision);
  write_optional(w, "recall", m.recall);
  write_optional(w, "f1", m.f1);
  write_optional(w, "mcc", m.mcc);
  w.EndObject();
}

void write_string(rapidjson::PrettyWriter<rapidjson::OStreamWrapper>& w, std::string_view s) {
  // Record texts may hold Latin-1 bytes; preview() keeps the output UTF-8.
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

void write_cases(rapidjson::PrettyWriter<rapidjson::OStreamWrapper>& w, const Dataset& d,
                 const std::vector<std::size_t>& indices) {
  w.StartArray();
  for (std::size_t i : indices) {
    const Record& r = d.records[i];
    const Outcome& o = d.outcomes[i];
    w.StartObject();
    w.Key("id");
    write_string(w, preview(r.id, 200));
    w.Key("label");
    write_string(w, to_string(r.label));
    w.Key("score");
    w.Int(o.score);
    w.Key("verdict");
    write_string(w, to_string(o.verdict));
    w.Key("signals");
    w.StartArray();
    for (const auto& [key, evidence] : o.first_signals) {
      w.StartObject();
      w.Key("key");
      write_string(w, key);
      w.Key("evidence");
      write_string(w, preview(evidence, 80));
      w.EndObject();
    }
    w.EndArray();
    w.Key("preview");
    write_string(w, record_preview(r, 160));
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace

Summary summarize(const Dataset& d, std::size_t worst) {
  Summary s;
  s.name = d.name;
  s.origin = d.origin;
  std::map<std::string, Summary::ErrorGroup> groups;
  std::vector<std::size_t> fps;
  std::vector<std::size_t> fns;
  std::vector<double> micros;
  micros.reserve(d.records.size());
  std::vector<std::pair<int, bool>> scored;
  std::vector<std::pair<int, bool>> judged;
  for (std::size_t i = 0; i < d.records.size(); ++i) {
    const Record& r = d.records[i];
    const Outcome& o = d.outcomes[i];
    LabelCounts& lc = s.by_label[label_index(r.label)];
    ++s.n;
    ++lc.n;
    micros.push_back(o.micros);
    if (!o.ok) {
      ++s.errors;
      ++lc.errors;
      auto& g = groups[o.error];
      if (g.count++ == 0) {
        g.message = o.error;
        g.example_id = r.id;
      }
      continue;
    }
    const bool flagged = o.verdict != Verdict::kSafe;
    scored.emplace_back(o.score, is_positive(r.label));
    judged.emplace_back(o.confidence, flagged == is_positive(r.label));
    switch (o.verdict) {
      case Verdict::kSafe:
        ++lc.safe;
        break;
      case Verdict::kSuspicious:
        ++lc.suspicious;
        break;
      case Verdict::kDanger:
        ++lc.danger;
        break;
    }
    if (is_positive(r.label)) {
      ++(flagged ? s.all.tp : s.all.fn);
      if (r.label == Label::kScam) ++(flagged ? s.scam_only.tp : s.scam_only.fn);
      if (!flagged) fns.push_back(i);
    } else {
      ++(flagged ? s.all.fp : s.all.tn);
      ++(flagged ? s.scam_only.fp : s.scam_only.tn);
      if (flagged) fps.push_back(i);
    }
  }
  if (!micros.empty()) {
    double sum = 0;
    for (double m : micros) sum += m;
    s.mean_micros = sum / static_cast<double>(micros.size());
    std::sort(micros.begin(), micros.end());
    s.p50_micros = micros[micros.size() / 2];
    s.p99_micros = micros[std::min(micros.size() - 1, micros.size() * 99 / 100)];
  }
  for (auto& [message, group] : groups) s.error_groups.push_back(group);
  std::stable_sort(s.error_groups.begin(), s.error_groups.end(),
                   [](const auto& a, const auto& b) { return a.count > b.count; });
  // Ties broken by id so that the listing is the same on every run.
  std::sort(fps.begin(), fps.end(), [&](std::size_t a, std::size_t b) {
    if (d.outcomes[a].score != d.outcomes[b].score) {
      return d.outcomes[a].score > d.outcomes[b].score;
    }
    return d.records[a].id < d.records[b].id;
  });
  std::sort(fns.begin(), fns.end(), [&](std::size_t a, std::size_t b) {
    if (d.outcomes[a].score != d.outcomes[b].score) {
      return d.outcomes[a].score < d.outcomes[b].score;
    }
    return d.records[a].id < d.records[b].id;
  });
  s.curves = compute_curves(scored);
  s.confidence = compute_confidence(judged);
  fps.resize(std::min(fps.size(), worst));
  fns.resize(std::min(fns.size(), worst));
  s.worst_fp = std::move(fps);
  s.worst_fn = std::move(fns);
  return s;
}

Summary pool(const std::string& name, const std::vector<const Dataset*>& datasets) {
  Dataset all;
  all.name = name;
  all.origin = "pooled";
  for (const Dataset* d : datasets) {
    all.records.insert(all.records.end(), d->records.begin(), d->records.end());
    all.outcomes.insert(all.outcomes.end(), d->outcomes.begin(), d->outcomes.end());
  }
  return summarize(all, 0);
}

const LabelCounts& counts(const Summary& s, Label label) { return s.by_label[label_index(label)]; }

bool has_label(const Summary& s, Label label) { return counts(s, label).n > 0; }

bool is_legit_fixture(const Dataset& d) {
  return d.origin == "fixture" && d.name.rfind("fixtures/legit_", 0) == 0;
}

std::string record_preview(const Record& r, std::size_t max_chars) {
  if (r.kind != "email") return preview(r.text, max_chars);
  std::string_view text = r.text;
  std::string subject;
  std::size_t body = text.size();
  // Headers end at the first empty line (CRLF or LF).
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = text.substr(pos, eol - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) {
      body = std::min(eol + 1, text.size());
      break;
    }
    if (subject.empty() && adapters::starts_with_ci(line, "subject:")) {
      subject = std::string(line.substr(8));
    }
    pos = eol + 1;
  }
  std::string_view body_text = text.substr(body);
  const std::size_t start = body_text.find_first_not_of(" \t\r\n");
  body_text = start == std::string_view::npos ? std::string_view() : body_text.substr(start);
  return "[Subject:" + preview(subject, 100) + "] " + preview(body_text, max_chars);
}

std::vector<FixtureCheck> fixture_checks(const std::vector<Dataset>& datasets,
                                         const std::vector<Summary>& summaries) {
  std::vector<FixtureCheck> checks;
  for (std::size_t k = 0; k < datasets.size(); ++k) {
    if (datasets[k].origin != "fixture") continue;
    for (Label label : {Label::kHam, Label::kScam}) {
      const bool legit = label == Label::kHam;
      if (legit && !is_legit_fixture(datasets[k])) continue;
      const LabelCounts& c = counts(summaries[k], label);
      if (c.n == 0) continue;
      FixtureCheck check;
      check.name = datasets[k].name;
      check.kind = legit ? "legit" : "scam";
      check.judged = c.n - c.errors;
      if (check.judged > 0) {
        const auto judged = static_cast<double>(check.judged);
        check.danger = static_cast<double>(c.danger) / judged;
        check.suspicious = static_cast<double>(c.suspicious) / judged;
        check.flagged = check.danger + check.suspicious;
        check.pass = legit ? c.danger == 0 && check.suspicious <= kLegitMaxSuspiciousFraction
                           : check.flagged >= kScamFixtureMinFlaggedFraction;
      }
      checks.push_back(check);
    }
  }
  return checks;
}

void print_pooled(std::ostream& out, const Summary& s) {
  char line[256];
  std::snprintf(line, sizeof line, "%-34s %7s %7s %7s %8lld %7s %8s\n", s.name.c_str(),
                cell(s.curves.roc_auc).c_str(), cell(s.curves.pr_auc).c_str(),
                cell(s.confidence.ece).c_str(), static_cast<long long>(s.confidence.confident),
                cell(s.confidence.confident_right, true).c_str(),
                cell(s.confidence.accuracy, true).c_str());
  out << line;
}

bool write_plots(const std::string& dir, const std::vector<Summary>& summaries,
                 const std::string& title, std::string* error) {
  if (dir.find('\'') != std::string::npos) {
    *error = "--plots: the directory name must not contain a single quote";
    return false;
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string data_path = dir + "/curves.dat";
  const std::string script_path = dir + "/curves.gp";
  std::ofstream data(data_path, std::ios::binary);
  std::vector<std::string> names;
  for (const Summary& s : summaries) {
    if (s.curves.points.empty()) continue;
    data << "# " << s.name << "\n# fpr tpr precision\n";
    for (const auto& p : s.curves.points) data << p[0] << " " << p[1] << " " << p[2] << "\n";
    data << "\n\n";
    names.push_back(s.name + " (AUC " + format("%.3f", *s.curves.roc_auc) + ")");
  }
  data.close();
  if (!data) {
    *error = data_path + ": cannot write";
    return false;
  }
  if (names.empty()) {
    *error = "no dataset with both ham and positives to plot";
    return false;
  }
  std::ofstream gp(script_path, std::ios::binary);
  auto plot = [&](const char* file, const char* x_label, const char* y_label, const char* using_,
                  const char* range, bool roc) {
    gp << "set output '" << dir << "/" << file << "'\n"
       << "set title '" << title << "' noenhanced\n"
       << "set xlabel '" << x_label << "'\nset ylabel '" << y_label << "'\n"
       << range << "\nplot ";
    for (std::size_t i = 0; i < names.size(); ++i) {
      std::string label = names[i];
      if (!roc) label = label.substr(0, label.find(" (AUC"));
      gp << (i ? ", \\\n     " : "") << "'" << data_path << "' index " << i << " using " << using_
         << " with steps lw 2 title '" << label << "'";
    }
    gp << "\n";
  };
  gp << "set terminal pngcairo size 1100,800\nset key outside right noenhanced\nset grid\n";
  plot("roc.png", "false-positive rate (ham flagged)", "true-positive rate (recall)", "1:2",
       "set xrange [0:1]\nset yrange [0:1]", true);
  plot("roc_low_fpr.png", "false-positive rate (ham flagged)", "true-positive rate (recall)", "1:2",
       "set xrange [0:0.05]\nset yrange [0:1]", true);
  plot("pr.png", "recall", "precision", "2:3", "set xrange [0:1]\nset yrange [0:1.02]", false);
  gp.close();
  if (!gp) {
    *error = script_path + ": cannot write";
    return false;
  }
  const std::string command = "gnuplot '" + script_path + "'";
  if (std::system(command.c_str()) != 0) {
    *error =
        "gnuplot failed (is gnuplot installed? scripts/install-deps.sh installs gnuplot-nox): " +
        command;
    return false;
  }
  return true;
}

void print_text(std::ostream& out, const RunInfo& info, const std::vector<Dataset>& datasets,
                const std::vector<Summary>& summaries) {
  out << "scamcheck-eval  " << info.date;
  if (!info.label.empty()) out << "  " << info.label;
  out << "\n";
  out << "split: " << info.split << "  corpus: " << info.corpus_dir
      << (info.corpus_found ? "" : " (not found)") << "\nfixtures: " << info.fixtures_dir
      << "  data: " << (info.data_dir.empty() ? "embedded pack" : info.data_dir)
      << "  model: " << info.model << "  threads: " << info.threads << "\n";
  char line[256];
  std::snprintf(
      line, sizeof line, "analysed %lld records in %.2f s (%.0f records/s)\n\n",
      static_cast<long long>(info.records), info.elapsed_seconds,
      info.elapsed_seconds > 0 ? static_cast<double>(info.records) / info.elapsed_seconds : 0.0);
  out << line;

  out << "Quality: flagged = verdict not safe; positives = scam + spam; records that\n"
         "failed to analyse are left out of the figures (column err). p50 us: median\n"
         "wall time of one analyze() call (the JSON has the mean and p99 too).\n";
  std::snprintf(line, sizeof line, "%-34s %6s %5s %6s %6s %5s %7s %6s %6s %6s %6s %7s\n", "dataset",
                "n", "err", "ham", "pos", "FP", "FPR", "prec", "recall", "F1", "MCC", "p50 us");
  out << line;
  for (const Summary& s : summaries) {
    print_metrics_row(out, s.name, s, s.all, true);
    const bool has_ham = has_label(s, Label::kHam);
    if (has_ham && has_label(s, Label::kScam) && has_label(s, Label::kSpam)) {
      print_metrics_row(out, "  scam vs ham (spam left out)", s, s.scam_only, false);
    }
  }

  out << "\nRanking and confidence: ROC/PR AUC of risk_score (datasets with ham and\n"
         "positives); ECE = expected calibration error of confidence (10 bins);\n"
         "conf>=80: records with confidence >= 80 and the share whose verdict is right.\n";
  std::snprintf(line, sizeof line, "%-34s %7s %7s %7s %8s %7s %8s\n", "dataset", "ROC AUC",
                "PR AUC", "ECE", "conf>=80", "right", "accuracy");
  out << line;
  for (const Summary& s : summaries) print_pooled(out, s);

  out << "\nVerdicts per label\n";
  std::snprintf(line, sizeof line, "%-34s %-5s %6s %6s %6s %6s %5s  %s\n", "dataset", "label", "n",
                "safe", "susp", "danger", "err", "flagged");
  out << line;
  for (const Summary& s : summaries) {
    for (Label label : {Label::kHam, Label::kSpam, Label::kScam}) {
      const LabelCounts& c = counts(s, label);
      if (c.n == 0) continue;
      std::snprintf(line, sizeof line, "%-34s %-5s %6lld %6lld %6lld %6lld %5lld  %s\n",
                    s.name.c_str(), std::string(to_string(label)).c_str(),
                    static_cast<long long>(c.n), static_cast<long long>(c.safe),
                    static_cast<long long>(c.suspicious), static_cast<long long>(c.danger),
                    static_cast<long long>(c.errors),
                    fraction(c.suspicious + c.danger, c.n - c.errors).c_str());
      out << line;
    }
  }

  bool any_errors = false;
  for (const Summary& s : summaries) any_errors |= s.errors > 0;
  if (any_errors) {
    out << "\nErrors (by message; at most 5 messages per dataset)\n";
    for (const Summary& s : summaries) {
      for (std::size_t i = 0; i < s.error_groups.size() && i < 5; ++i) {
        const auto& g = s.error_groups[i];
        out << "  " << s.name << ": " << g.count << " x " << preview(g.message, 160) << "  (e.g. "
            << g.example_id << ")\n";
      }
    }
  }

  out << "\nFixture targets: legit_* files no danger and at most "
      << kLegitMaxSuspiciousFraction * 100 << "% suspicious; scam records at least "
      << kScamFixtureMinFlaggedFraction * 100 << "% flagged\n";
  const std::vector<FixtureCheck> checks = fixture_checks(datasets, summaries);
  for (const FixtureCheck& c : checks) {
    std::snprintf(line, sizeof line,
                  "  %-32s %-5s n %5lld  danger %7.2f%%  suspicious %7.2f%%  flagged %7.2f%%  %s\n",
                  c.name.c_str(), c.kind.c_str(), static_cast<long long>(c.judged), c.danger * 100,
                  c.suspicious * 100, c.flagged * 100, c.pass ? "ok" : "FAIL");
    out << line;
  }
  if (checks.empty()) out << "  (no legit_*.jsonl fixtures and no scam fixtures)\n";

  for (std::size_t k = 0; k < datasets.size(); ++k) {
    const Dataset& d = datasets[k];
    const Summary& s = summaries[k];
    if (s.worst_fp.empty() && s.worst_fn.empty()) continue;
    out << "\n== " << d.name << ": worst cases\n";
    for (int pass = 0; pass < 2; ++pass) {
      const auto& list = pass == 0 ? s.worst_fp : s.worst_fn;
      if (list.empty()) continue;
      out << (pass == 0 ? "false positives (ham, highest score first)\n"
                        : "false negatives (scam/spam, lowest score first)\n");
      for (std::size_t i : list) {
        const Record& r = d.records[i];
        const Outcome& o = d.outcomes[i];
        out << "  " << o.score << "  " << r.id << " [" << to_string(r.label) << ", " << r.kind
            << "]  " << signals_text(o) << "\n      " << record_preview(r, 160) << "\n";
      }
    }
  }
}

bool write_json(const std::string& path, const RunInfo& info, const std::vector<Dataset>& datasets,
                const std::vector<Summary>& summaries, std::string* error) {
  std::ofstream file(path, std::ios::binary);
  if (!file) {
    *error = path + ": cannot open for writing";
    return false;
  }
  rapidjson::OStreamWrapper stream(file);
  rapidjson::PrettyWriter<rapidjson::OStreamWrapper> w(stream);
  w.StartObject();
  w.Key("date");
  write_string(w, info.date);
  w.Key("label");
  write_string(w, info.label);
  w.Key("split");
  write_string(w, info.split);
  w.Key("corpus_dir");
  write_string(w, info.corpus_dir);
  w.Key("corpus_found");
  w.Bool(info.corpus_found);
  w.Key("fixtures_dir");
  write_string(w, info.fixtures_dir);
  w.Key("data_dir");
  write_string(w, info.data_dir);
  w.Key("model");
  write_string(w, info.model);
  w.Key("threads");
  w.Uint(info.threads);
  w.Key("records");
  w.Int64(info.records);
  w.Key("elapsed_seconds");
  w.Double(info.elapsed_seconds);
  w.Key("datasets");
  w.StartArray();
  for (std::size_t k = 0; k < datasets.size(); ++k) {
    const Dataset& d = datasets[k];
    const Summary& s = summaries[k];
    w.StartObject();
    w.Key("name");
    write_string(w, d.name);
    w.Key("origin");
    write_string(w, d.origin);
    w.Key("n");
    w.Int64(s.n);
    w.Key("errors");
    w.Int64(s.errors);
    w.Key("micros_per_record");
    w.StartObject();
    w.Key("mean");
    w.Double(s.mean_micros);
    w.Key("p50");
    w.Double(s.p50_micros);
    w.Key("p99");
    w.Double(s.p99_micros);
    w.EndObject();
    w.Key("labels");
    w.StartObject();
    for (Label label : {Label::kHam, Label::kSpam, Label::kScam}) {
      const LabelCounts& c = counts(s, label);
      if (c.n == 0) continue;
      w.Key(std::string(to_string(label)).c_str());
      w.StartObject();
      w.Key("n");
      w.Int64(c.n);
      w.Key("safe");
      w.Int64(c.safe);
      w.Key("suspicious");
      w.Int64(c.suspicious);
      w.Key("danger");
      w.Int64(c.danger);
      w.Key("errors");
      w.Int64(c.errors);
      w.EndObject();
    }
    w.EndObject();
    w.Key("all");
    write_confusion(w, s.all);
    write_optional(w, "roc_auc", s.curves.roc_auc);
    write_optional(w, "pr_auc", s.curves.pr_auc);
    w.Key("confidence");
    w.StartObject();
    write_optional(w, "ece", s.confidence.ece);
    w.Key("confident");
    w.Int64(s.confidence.confident);
    write_optional(w, "confident_right", s.confidence.confident_right);
    write_optional(w, "accuracy", s.confidence.accuracy);
    w.EndObject();
    w.Key("scam_vs_ham");
    if (has_label(s, Label::kScam) && has_label(s, Label::kHam)) {
      write_confusion(w, s.scam_only);
    } else {
      w.Null();
    }
    w.Key("error_messages");
    w.StartArray();
    for (const auto& g : s.error_groups) {
      w.StartObject();
      w.Key("message");
      write_string(w, preview(g.message, 400));
      w.Key("count");
      w.Int64(g.count);
      w.Key("example_id");
      write_string(w, g.example_id);
      w.EndObject();
    }
    w.EndArray();
    w.Key("worst_false_positives");
    write_cases(w, d, s.worst_fp);
    w.Key("worst_false_negatives");
    write_cases(w, d, s.worst_fn);
    w.EndObject();
  }
  w.EndArray();
  w.Key("fixture_checks");
  w.StartArray();
  for (const FixtureCheck& c : fixture_checks(datasets, summaries)) {
    w.StartObject();
    w.Key("name");
    write_string(w, c.name);
    w.Key("kind");
    write_string(w, c.kind);
    w.Key("judged");
    w.Int64(c.judged);
    w.Key("danger");
    w.Double(c.danger);
    w.Key("suspicious");
    w.Double(c.suspicious);
    w.Key("flagged");
    w.Double(c.flagged);
    w.Key("pass");
    w.Bool(c.pass);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  file << "\n";
  if (!file) {
    *error = path + ": write failed";
    return false;
  }
  return true;
}

}  // namespace scamcheck::bench
