#include "families.h"

#include <cstdio>
#include <map>
#include <tuple>

namespace scamcheck::bench {
namespace {

// The number at the end of a fixture id ("families_en-14" -> 14), -1 if none
// (the rule of tools/train/train_main.cc).
long id_number(const std::string& id) {
  const std::size_t dash = id.rfind('-');
  if (dash == std::string::npos || dash + 1 == id.size()) return -1;
  long n = 0;
  for (std::size_t i = dash + 1; i < id.size(); ++i) {
    if (id[i] < '0' || id[i] > '9') return -1;
    n = n * 10 + (id[i] - '0');
  }
  return n;
}

void count(HalfRow& row, const Record& r, const Outcome& o) {
  if (!o.ok) {
    ++row.errors;
    return;
  }
  const bool flagged = o.verdict != Verdict::kSafe;
  if (r.label == Label::kHam) {
    ++row.ham;
    row.ham_flagged += flagged;
  } else {
    ++row.scams;
    row.scams_flagged += flagged;
  }
}

std::string percent(std::int64_t part, std::int64_t whole) {
  if (whole == 0) return "-";
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * static_cast<double>(part) / whole);
  return buf;
}

}  // namespace

void mark_trained(Dataset& fixture, bool eml_folder) {
  for (std::size_t i = 0; i < fixture.records.size(); ++i) {
    Record& r = fixture.records[i];
    r.trained = eml_folder ? i % 2 == 0 : id_number(r.id) >= 0 && id_number(r.id) % 2 == 0;
  }
}

std::vector<HalfRow> fixture_halves(const std::vector<Dataset>& datasets) {
  std::vector<HalfRow> rows;
  for (const Dataset& d : datasets) {
    if (d.origin != "fixture") continue;
    HalfRow half[2];
    for (int t = 0; t < 2; ++t) {
      half[t].name = d.name;
      half[t].trained = t == 1;
    }
    for (std::size_t i = 0; i < d.records.size() && i < d.outcomes.size(); ++i) {
      count(half[d.records[i].trained ? 1 : 0], d.records[i], d.outcomes[i]);
    }
    rows.push_back(half[0]);
    rows.push_back(half[1]);
  }
  return rows;
}

std::vector<HalfRow> family_rows(const std::vector<Dataset>& datasets) {
  std::map<std::tuple<std::string, std::string, bool>, HalfRow> by;
  std::map<std::string, HalfRow> total;
  for (const Dataset& d : datasets) {
    if (d.origin != "fixture") continue;
    for (std::size_t i = 0; i < d.records.size() && i < d.outcomes.size(); ++i) {
      const Record& r = d.records[i];
      if (r.family.empty()) continue;
      HalfRow& row = by[{r.family, r.lang, r.trained}];
      row.name = r.family + "/" + r.lang;
      row.trained = r.trained;
      count(row, r, d.outcomes[i]);
      HalfRow& all = total[r.family];
      all.name = r.family + "/all";
      count(all, r, d.outcomes[i]);
    }
  }
  std::vector<HalfRow> rows;
  for (const auto& [family, all] : total) {
    for (const auto& [key, row] : by) {
      if (std::get<0>(key) == family) rows.push_back(row);
    }
    rows.push_back(all);
  }
  return rows;
}

void print_halves(std::ostream& out, const std::vector<HalfRow>& halves,
                  const std::vector<HalfRow>& families) {
  char line[256];
  out << "\nFixtures by what the model saw: \"unseen\" = records scamcheck-train never\n"
         "learned from (odd ids; .eml at odd places): the held-out check. \"TRAINED\" =\n"
         "the even half, which the model was fitted on: not a quality figure.\n";
  std::snprintf(line, sizeof line, "%-32s %-8s %6s %8s %8s %6s %8s %8s\n", "fixture file", "half",
                "scams", "flagged", "recall", "ham", "flagged", "ham FPR");
  out << line;
  for (const HalfRow& r : halves) {
    if (r.scams + r.ham + r.errors == 0) continue;
    std::snprintf(line, sizeof line, "%-32s %-8s %6lld %8lld %8s %6lld %8lld %8s\n", r.name.c_str(),
                  r.trained ? "TRAINED" : "unseen", static_cast<long long>(r.scams),
                  static_cast<long long>(r.scams_flagged),
                  percent(r.scams_flagged, r.scams).c_str(), static_cast<long long>(r.ham),
                  static_cast<long long>(r.ham_flagged), percent(r.ham_flagged, r.ham).c_str());
    out << line;
  }
  if (families.empty()) return;
  out << "\nScam families (fixture records with a \"family\"): recall over the family's\n"
         "scams and the share of its legitimate look-alikes flagged; targets recall >= "
      << kFamilyMinRecall * 100 << "%, look-alikes <= " << kFamilyMaxFlaggedLookalikes * 100
      << "% (judged on the\n<family>/all row, both halves; the unseen rows are the held-out "
         "check).\n";
  std::snprintf(line, sizeof line, "%-28s %-8s %6s %8s %8s %6s %8s %8s  %s\n", "family/lang",
                "half", "scams", "flagged", "recall", "alikes", "flagged", "FPR", "target");
  out << line;
  for (const HalfRow& r : families) {
    const bool all = r.name.size() > 4 && r.name.compare(r.name.size() - 4, 4, "/all") == 0;
    std::string verdict;
    if (all) {
      const bool ok =
          r.scams > 0 && r.ham > 0 &&
          static_cast<double>(r.scams_flagged) >= kFamilyMinRecall * static_cast<double>(r.scams) &&
          static_cast<double>(r.ham_flagged) <=
              kFamilyMaxFlaggedLookalikes * static_cast<double>(r.ham);
      verdict = ok ? "ok" : "MISSED";
    }
    std::snprintf(line, sizeof line, "%-28s %-8s %6lld %8lld %8s %6lld %8lld %8s  %s\n",
                  r.name.c_str(), all ? "both" : (r.trained ? "TRAINED" : "unseen"),
                  static_cast<long long>(r.scams), static_cast<long long>(r.scams_flagged),
                  percent(r.scams_flagged, r.scams).c_str(), static_cast<long long>(r.ham),
                  static_cast<long long>(r.ham_flagged), percent(r.ham_flagged, r.ham).c_str(),
                  verdict.c_str());
    out << line;
  }
}

}  // namespace scamcheck::bench
