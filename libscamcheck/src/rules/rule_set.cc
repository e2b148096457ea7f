#include "rules/rule_set.h"

#include <malloc.h>
#include <simdjson.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "rules/alternatives.h"
#include "rules/word_runs.h"
#include "util/json.h"

namespace scamcheck::internal {
namespace {

// RE2 memory budgets: a set's DFA holds all of its rules at once.
constexpr int64_t kSetMaxMemBytes = 32 << 20;
constexpr int64_t kRuleMaxMemBytes = 2 << 20;

RE2::Options rule_options(int64_t max_mem) {
  RE2::Options options;
  options.set_log_errors(false);
  options.set_max_mem(max_mem);
  return options;
}

void read_strings(simdjson::dom::element value, std::vector<std::string>& out) {
  simdjson::dom::array array;
  if (value.get_array().get(array)) return;
  for (simdjson::dom::element item : array) {
    std::string_view s;
    if (!item.get_string().get(s)) out.emplace_back(s);
  }
}

// An atom's first three or four bytes as a key.
std::uint32_t key3(const char* s) {
  return static_cast<std::uint32_t>(static_cast<unsigned char>(s[0])) |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[1])) << 8 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[2])) << 16;
}
std::uint32_t key4(const char* s) {
  return key3(s) | static_cast<std::uint32_t>(static_cast<unsigned char>(s[3])) << 24;
}
std::uint32_t mix(std::uint32_t key) { return key * 2654435761u; }

// Runs fn(i) for every i < n on `threads` threads, this one included (0:
// one per hardware thread, at most four): the rules' regexes, prefilters
// and sets compile independently, and compiling them is nearly all of
// Analyzer::create (~0.22 s on one core of this machine).
template <class Fn>
void for_each_index(std::size_t n, unsigned threads, const Fn& fn) {
  if (n == 0) return;
  if (threads == 0) threads = std::min(4u, std::max(1u, std::thread::hardware_concurrency()));
  const std::size_t helpers = std::min<std::size_t>(threads, n) - 1;
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < n;) fn(i);
  };
  std::vector<std::jthread> pool;
  pool.reserve(helpers);
  for (std::size_t t = 0; t < helpers; ++t) pool.emplace_back(work);
  work();
  pool.clear();  // joined
#ifdef __GLIBC__
  // What the helpers' malloc arenas freed, handed back.
  if (helpers != 0) malloc_trim(0);
#endif
}

// "No match" and "could not check" differ: never report the latter as safe.
Status set_failed(RE2::Set::ErrorKind kind) {
  return Status::internal("rule set match failed (RE2 error " +
                          std::to_string(static_cast<int>(kind)) + ")");
}

using Covers = std::vector<std::vector<std::string>>;

// The covers of a regex (the only one `filter` holds, compiled): literals
// ("atoms", lowercased) one of which every text it matches holds. RE2's
// prefilter gives the regex's atoms and which atoms let it pass (an AND/OR
// tree); the first cover starts as all of them and drops atoms, shortest
// first, while the regex still cannot pass with every dropped atom
// present. Further covers (`max_covers` in all), each of the atoms outside
// the covers so far, the same way with those covers' atoms present too:
// where the regex needs two or more things ("your" and "password"), a text
// must hold one atom of each. None: the regex passes with no atom.
Covers covers_of(re2::FilteredRE2& filter, std::size_t max_covers) {
  Covers covers;
  std::vector<std::string> atoms;
  filter.Compile(&atoms);
  std::vector<int> present, passed, order;
  filter.AllPotentials(present, &passed);
  if (atoms.empty() || !passed.empty()) return covers;  // passes with no atom
  order.resize(atoms.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
    return atoms[static_cast<std::size_t>(x)].size() < atoms[static_cast<std::size_t>(y)].size();
  });
  // Drops atoms of `cover` (true: in it) while the regex cannot pass with
  // every atom outside it present.
  auto shrink = [&](std::vector<bool>& cover) {
    for (int candidate : order) {
      if (!cover[static_cast<std::size_t>(candidate)]) continue;
      cover[static_cast<std::size_t>(candidate)] = false;
      present.clear();
      for (std::size_t i = 0; i < atoms.size(); ++i) {
        if (!cover[i]) present.push_back(static_cast<int>(i));
      }
      filter.AllPotentials(present, &passed);
      if (!passed.empty()) cover[static_cast<std::size_t>(candidate)] = true;
    }
  };
  std::vector<bool> taken(atoms.size(), false);
  for (std::size_t k = 0; k < max_covers; ++k) {
    if (k > 0) {  // a further cover only while the covers so far let it pass
      present.clear();
      for (std::size_t i = 0; i < atoms.size(); ++i) {
        if (taken[i]) present.push_back(static_cast<int>(i));
      }
      filter.AllPotentials(present, &passed);
      if (!passed.empty()) break;
    }
    std::vector<bool> next(atoms.size());
    for (std::size_t i = 0; i < atoms.size(); ++i) next[i] = !taken[i];
    // `shrink` reads "outside the cover" as present: the covers so far are.
    shrink(next);
    std::vector<std::string>& cover = covers.emplace_back();
    for (std::size_t i = 0; i < atoms.size(); ++i) {
      if (next[i]) cover.push_back(atoms[i]);
      taken[i] = taken[i] || next[i];
    }
  }
  return covers;
}

// The covers of a pattern (a rule's, or one of its top-level alternatives),
// or nullopt if it does not compile. Read from it unfactored: RE2 factors
// "card\W+number|cvv" into "c(?:ard\W+number|vv)", whose prefilter needs no
// literal at all ("vv" is too short), though every match holds "card" or
// "cvv". As written only where that does not compile (its memory budget).
std::optional<Covers> read_covers(std::string_view pattern, int min_atom_bytes,
                                  std::size_t max_covers) {
  for (const std::string& text : {unfactored(pattern), std::string(pattern)}) {
    re2::FilteredRE2 filter(min_atom_bytes);
    int id = 0;
    if (filter.Add(text, rule_options(kRuleMaxMemBytes), &id) == RE2::NoError) {
      return covers_of(filter, max_covers);
    }
  }
  return std::nullopt;
}

// A rule file's "fragments" (named parts of patterns), each expanded, as
// they were read: one may name those above it. Problems go to `problem`
// (the fragment's name, what is wrong).
class Fragments {
 public:
  using Problem = std::function<void(std::string_view, const std::string&)>;
  Fragments(simdjson::dom::element doc, Problem problem) : problem_(std::move(problem)) {
    simdjson::dom::object defined;
    if (doc["fragments"].get_object().get(defined)) return;
    for (auto [key, value] : defined) {
      std::string_view text;
      if (value.get_string().get(text)) {
        problem_(key, "not a string");
        continue;
      }
      std::string unknown;
      std::string expanded = expand_fragments(
          text, [&](std::string_view name) { return use(name); }, unknown);
      if (!unknown.empty()) {
        problem_(key, "unknown fragment '" + unknown + "' (a fragment names only those above it)");
        continue;
      }
      // Group 1 of a rule's pattern is its evidence: a fragment has none.
      const RE2 regex(expanded, rule_options(kRuleMaxMemBytes));
      if (!regex.ok()) {
        problem_(key, "bad pattern: " + regex.error());
      } else if (regex.NumberOfCapturingGroups() != 0) {
        problem_(key, "has a capturing group; use (?:...)");
      }
      fragments_.push_back({std::string(key), std::move(expanded)});
    }
  }
  // The text of fragment `name`, marked used; nullptr if there is none.
  const std::string* use(std::string_view name) {
    for (Fragment& f : fragments_) {
      if (f.name == name) {
        f.used = true;
        return &f.text;
      }
    }
    return nullptr;
  }
  void report_unused() const {
    for (const Fragment& f : fragments_) {
      if (!f.used) problem_(f.name, "not used by any rule");
    }
  }

 private:
  struct Fragment {
    std::string name, text;
    bool used = false;
  };
  std::vector<Fragment> fragments_;
  Problem problem_;
};

}  // namespace

Result<std::unique_ptr<RuleSet>> RuleSet::load(
    const DataSource& data, const std::function<bool(std::string_view)>& known_key,
    unsigned threads) {
  auto paths = data.list("rules");
  if (!paths.ok()) return paths.status();
  std::vector<RuleFile> files;
  for (const std::string& path : *paths) {
    if (path.size() < 5 || path.compare(path.size() - 5, 5, ".json") != 0) continue;
    auto json = data.read(path);
    if (!json.ok()) return json.status();
    files.push_back({data.describe(path), std::move(json).value()});
  }
  if (files.empty()) return Status::not_found(data.describe("rules") + ": no rule files");
  return compile(files, known_key, threads);
}

Result<std::unique_ptr<RuleSet>> RuleSet::compile(
    std::string_view json, std::string_view file_name,
    const std::function<bool(std::string_view)>& known_key) {
  return compile({RuleFile{std::string(file_name), std::string(json)}}, known_key);
}

Result<std::unique_ptr<RuleSet>> RuleSet::compile(
    const std::vector<RuleFile>& files, const std::function<bool(std::string_view)>& known_key,
    unsigned threads) {
  auto set = std::make_unique<RuleSet>();
  // In file order; a rule's "bad pattern" is filled in once the patterns
  // have compiled (on several threads), in its place among the others.
  std::vector<std::string> problems;
  std::vector<std::size_t> pattern_problem;  // of set->rules_: its slot in problems
  std::vector<std::string> patterns;         // of set->rules_
  std::vector<std::size_t> file_of;          // of set->rules_
  std::unordered_set<std::string> ids;
  for (const RuleFile& file : files) {
    const std::string& name = file.name;
    auto problem = [&](const std::string& id, const std::string& what) {
      problems.push_back(name + " rule '" + id + "': " + what);
    };
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    if (Status s = parse_data_file(parser, file.json, name, doc); !s.ok()) return s;
    simdjson::dom::array rules;
    if (doc["rules"].get_array().get(rules)) {
      return Status::invalid_argument(name + ": \"rules\" must be an array");
    }
    Fragments fragments(doc, [&](std::string_view fragment_name, const std::string& what) {
      problems.push_back(name + " fragment '" + std::string(fragment_name) + "': " + what);
    });
    auto fragment = [&](std::string_view wanted) { return fragments.use(wanted); };
    for (simdjson::dom::element item : rules) {
      simdjson::dom::object obj;
      if (item.get_object().get(obj)) {
        problem("?", "not an object");
        continue;
      }
      Rule rule;
      rule.id = std::string(string_field(obj, "id"));
      rule.key = std::string(string_field(obj, "key"));
      std::string unknown;
      const std::string pattern = expand_fragments(string_field(obj, "pattern"), fragment, unknown);
      double weight = 0;
      if (!obj["weight"].get_double().get(weight)) rule.weight = weight;
      bool context = false;
      if (!obj["requires_context"].get_bool().get(context)) rule.requires_context = context;
      std::string_view severity;
      if (!obj["severity"].get_string().get(severity)) {
        if (severity == "low") {
          rule.severity = Severity::kLow;
        } else if (severity == "medium") {
          rule.severity = Severity::kMedium;
        } else if (severity == "high") {
          rule.severity = Severity::kHigh;
        } else {
          problem(rule.id.empty() ? "?" : rule.id, "severity must be low, medium or high");
        }
      }
      // "not_after" anchored where the match begins, "not_before" where it
      // ends, whatever non-word bytes lie between.
      // Compiled here, once: few rules have one, and a bad one is reported
      // with the other problems.
      auto beside = [&](const char* field, bool before_match) -> std::unique_ptr<const RE2> {
        const std::string_view v = string_field(obj, field);
        if (v.empty()) return nullptr;
        const std::string expanded = expand_fragments(v, fragment, unknown);
        if (expanded.empty()) return nullptr;
        auto re = std::make_unique<const RE2>(
            before_match ? "(?:" + expanded + ")\\W*$" : "^\\W*(?:" + expanded + ")",
            rule_options(kRuleMaxMemBytes));
        if (!re->ok()) {
          problem(rule.id.empty() ? "?" : rule.id,
                  std::string("bad ") + field + ": " + re->error());
        }
        return re;
      };
      rule.not_after = beside("not_after", true);
      rule.not_before = beside("not_before", false);
      simdjson::dom::object examples;
      if (!obj["examples"].get_object().get(examples)) {
        simdjson::dom::element list;
        if (!examples["match"].get(list)) read_strings(list, rule.match_examples);
        if (!examples["no_match"].get(list)) read_strings(list, rule.no_match_examples);
      }
      if (rule.id.empty()) {
        problem("?", "missing id");
        continue;
      }
      if (!ids.insert(rule.id).second) problem(rule.id, "duplicate id");
      if (!known_key(rule.key)) problem(rule.id, "key '" + rule.key + "' is not in the glossary");
      if (!unknown.empty()) {
        problem(rule.id, "unknown fragment '" + unknown + "'");
      } else if (pattern.empty()) {
        problem(rule.id, "missing pattern");
      }
      if (weight < 0) problem(rule.id, "negative weight");
      pattern_problem.push_back(problems.size());
      problems.emplace_back();
      patterns.push_back(pattern);
      set->rules_.push_back(std::move(rule));
      file_of.push_back(static_cast<std::size_t>(&file - files.data()));
    }
    fragments.report_unused();
  }
  // Each rule's covers, per top-level alternative of its pattern (the
  // whole pattern where one does not compile alone); its own regex compiles
  // on first use.
  std::vector<std::vector<Covers>> alt_covers(set->rules_.size());
  for_each_index(set->rules_.size(), threads, [&](std::size_t r) {
    std::vector<Covers>& alts = alt_covers[r];
    const std::vector<std::string_view> parts = top_alternatives(patterns[r]);
    for (std::size_t i = 0; parts.size() > 1 && i < parts.size(); ++i) {
      std::optional<Covers> covers = read_covers(parts[i], kMinAtomBytes, kMaxCovers);
      if (!covers) {
        alts.clear();
        break;
      }
      alts.push_back(std::move(*covers));
    }
    if (alts.empty()) {
      std::optional<Covers> covers = read_covers(patterns[r], kMinAtomBytes, kMaxCovers);
      if (!covers) {
        const RE2 bad(patterns[r], rule_options(kRuleMaxMemBytes));  // for the message
        problems[pattern_problem[r]] = files[file_of[r]].name + " rule '" + set->rules_[r].id +
                                       "': bad pattern: " + bad.error();
        return;
      }
      alts.push_back(std::move(*covers));
    }
    set->rules_[r].lazy = std::make_unique<LazyRegex>(patterns[r], rule_options(kRuleMaxMemBytes));
  });
  std::string problem_list;
  for (const std::string& problem : problems) {
    if (problem.empty()) continue;
    if (!problem_list.empty()) problem_list += "; ";
    problem_list += problem;
  }
  if (!problem_list.empty()) return Status::invalid_argument(problem_list);
  if (Status s = set->build(patterns, file_of, alt_covers, threads); !s.ok()) {
    return Status(s.code(), files.front().name + " and the other rule files: " + s.message());
  }
  return set;
}

Status RuleSet::build(const std::vector<std::string>& patterns,
                      const std::vector<std::size_t>& file_of,
                      const std::vector<std::vector<Covers>>& alt_covers, unsigned threads) {
  // Each rule's covers, per top-level alternative of its pattern when it
  // has several: a text wakes the rule when every cover of one alternative
  // has an atom in it ("call ... can't talk" or "my temp number": not
  // "call" and "number"). The rule's first cover, by whose atoms a text
  // wakes it at all, is the union of its alternatives' first covers; empty
  // (an alternative passes with no atom): it always runs. How many words
  // (or runs of letters) apart its atoms may lie (max_runs), too.
  std::vector<std::vector<std::pair<int, Runs>>> alt_words(rules_.size());
  std::vector<std::vector<std::string>> covers(rules_.size());
  for_each_index(rules_.size(), threads, [&](std::size_t r) {
    const std::vector<Covers>& alts = alt_covers[r];
    if (std::any_of(alts.begin(), alts.end(), [](const Covers& c) { return c.empty(); })) return;
    const std::vector<std::string_view> parts = alts.size() == 1
                                                    ? std::vector<std::string_view>{patterns[r]}
                                                    : top_alternatives(patterns[r]);
    for (std::string_view part : parts) {
      const std::optional<int> words = max_runs(part, Runs::kWords);
      const std::optional<int> bound = words ? words : max_runs(part, Runs::kLetters);
      alt_words[r].emplace_back(bound.value_or(kAnyWords), words ? Runs::kWords : Runs::kLetters);
    }
    std::unordered_set<std::string> in_first;
    for (const auto& alt : alts) {
      for (const std::string& atom : alt.front()) {
        if (in_first.insert(atom).second) covers[r].push_back(atom);
      }
    }
  });
  // Sets: the rules that always run first, then each file's covered rules
  // (a language's rules together, so that a text in none of a file's
  // languages skips its sets), kRulesPerSet at most per set. Within a
  // file, rules whose cover holds a short atom (a common word: such rules
  // wake often) come first, so that sets of rules with only long atoms stay
  // asleep more often.
  auto shortest_atom = [&](std::size_t r) {
    std::size_t shortest = std::string::npos;
    for (const std::string& atom : covers[r]) shortest = std::min(shortest, atom.size());
    return shortest;
  };
  // A rule whose every alternative's matches hold a bounded number of runs
  // is searched near its atoms whenever a text wakes it (match()): no set
  // holds it.
  std::vector<bool> bounded(rules_.size(), false);
  for (std::size_t r = 0; r < rules_.size(); ++r) {
    bounded[r] = !covers[r].empty() &&
                 std::all_of(alt_words[r].begin(), alt_words[r].end(),
                             [](const auto& bound) { return bound.first != kAnyWords; });
  }
  std::vector<int> order(rules_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
    const auto a = static_cast<std::size_t>(x), b = static_cast<std::size_t>(y);
    if (file_of[a] != file_of[b]) return file_of[a] < file_of[b];
    return shortest_atom(a) < shortest_atom(b);
  });
  auto add_sets = [&](bool covered) {
    std::size_t k = 0;
    while (k < order.size()) {
      const std::size_t file = file_of[static_cast<std::size_t>(order[k])];
      Group group;
      group.always = !covered;
      for (; k < order.size(); ++k) {
        const auto i = static_cast<std::size_t>(order[k]);
        if (covered && file_of[i] != file) break;
        if (covers[i].empty() == covered || bounded[i]) continue;
        if (group.rules.size() == (covered ? kRulesPerSet : kAlwaysRulesPerSet)) break;
        group.rules.push_back(static_cast<int>(i));
      }
      if (!group.rules.empty()) groups_.push_back(std::move(group));
    }
  };
  add_sets(false);
  add_sets(true);
  std::vector<Status> set_status(groups_.size());
  for_each_index(groups_.size(), threads, [&](std::size_t g) {
    Group& group = groups_[g];
    group.set = std::make_unique<RE2::Set>(rule_options(kSetMaxMemBytes), RE2::UNANCHORED);
    for (int r : group.rules) {
      if (group.set->Add(patterns[static_cast<std::size_t>(r)], nullptr) < 0) {
        set_status[g] = Status::invalid_argument("rule '" + rules_[static_cast<std::size_t>(r)].id +
                                                 "': bad pattern for a set");
        return;
      }
    }
    if (!group.set->Compile()) {
      set_status[g] = Status::resource_exhausted("rules exceed the RE2 set memory budget");
    }
  });
  for (const Status& s : set_status) {
    if (!s.ok()) return s;
  }
  // Every cover's atom, found by its first three bytes.
  std::unordered_map<std::string, std::size_t> atom_ids;
  std::vector<std::pair<std::uint32_t, int>> by3, by4;
  auto atom_id = [&](const std::string& atom) {
    auto [it, added] = atom_ids.emplace(atom, atoms_.size());
    if (added) {
      const int id = static_cast<int>(atoms_.size());
      if (atom.size() == kMinAtomBytes) {
        by3.emplace_back(key3(atom.data()), id);
      } else {
        by4.emplace_back(key4(atom.data()), id);
      }
      const std::uint32_t bit = mix(key3(atom.data())) >> 16;
      first3_[bit / 64] |= std::uint64_t{1} << (bit % 64);
      atoms_.push_back(Atom{atom, {}});
    }
    return static_cast<int>(it->second);
  };
  group_of_.assign(rules_.size(), kNoGroup);
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    for (int r : groups_[g].rules) group_of_[static_cast<std::size_t>(r)] = static_cast<int>(g);
  }
  further_.assign(rules_.size(), {});
  for (std::size_t rule = 0; rule < rules_.size(); ++rule) {
    if (covers[rule].empty()) continue;  // always runs
    // Each alternative's bound (how many runs of which kind) and covers,
    // then kEndAlternative; the first cover's atoms point there.
    std::vector<int>& list = further_[rule];
    for (std::size_t a = 0; a < alt_covers[rule].size(); ++a) {
      const auto& alt = alt_covers[rule][a];
      const auto [words, runs] = alt_words[rule][a];
      list.push_back(words);
      list.push_back(static_cast<int>(runs));
      Alternative entry{static_cast<int>(rule), static_cast<std::uint32_t>(list.size()), 0, words,
                        runs};
      for (std::size_t k = 0; k < alt.size(); ++k) {
        for (const std::string& atom : alt[k]) list.push_back(atom_id(atom));
        list.push_back(kEndCover);
        if (k == 0) entry.at = static_cast<std::uint32_t>(list.size());
      }
      list.push_back(kEndAlternative);
      for (const std::string& atom : alt.front()) {
        atoms_[static_cast<std::size_t>(atom_id(atom))].first_of.push_back(entry);
      }
    }
  }
  by3_.build(std::move(by3));
  by4_.build(std::move(by4));
  return {};
}

void RuleSet::PrefixTable::build(std::vector<std::pair<std::uint32_t, int>> entries) {
  std::sort(entries.begin(), entries.end());
  std::size_t size = 16;
  while (size < 2 * entries.size()) size *= 2;
  shift = 32;
  for (std::size_t s = size; s > 1; s /= 2) --shift;
  slots.assign(size, Slot{});
  ids.clear();
  for (std::size_t i = 0; i < entries.size();) {
    const std::uint32_t key = entries[i].first;
    const auto begin = static_cast<std::uint32_t>(ids.size());
    for (; i < entries.size() && entries[i].first == key; ++i) ids.push_back(entries[i].second);
    ids.push_back(-1);
    std::size_t at = mix(key) >> shift;
    while (slots[at].end != slots[at].begin) at = (at + 1) & (size - 1);
    slots[at] = Slot{key, begin, static_cast<std::uint32_t>(ids.size())};
    const std::uint32_t bit = mix(key) >> 16;
    filter[bit / 64] |= std::uint64_t{1} << (bit % 64);
  }
}

namespace {

// What waking the rules found in the last text a thread read (RuleSet::wake):
// the atoms present, where, and (read_runs(), when first needed) in which
// words and runs of letters. All flags and lists are reset per atom found,
// not per atom.
struct Scan {
  std::vector<char> seen;  // of each atom
  std::vector<int> found;  // the atoms present, each once
  // Each atom found (its first byte), in the order found.
  std::vector<std::pair<int, std::uint32_t>> at;
  // Per kind of run (Runs: words, runs of letters), of each atom found: the
  // runs it was found in, as the number of runs begun at or before its
  // first byte; where each run of the text begins (the first `runs`).
  std::array<std::vector<std::vector<std::uint32_t>>, 2> runs_of;
  std::array<std::vector<std::uint32_t>, 2> run_starts;
  std::array<std::size_t, 2> runs{};
  bool runs_read = false;

  void reset(std::size_t atoms) {
    if (seen.size() < atoms) seen.resize(atoms, 0);
    for (int a : found) {
      seen[static_cast<std::size_t>(a)] = 0;
      if (runs_read) {
        for (auto& of : runs_of) of[static_cast<std::size_t>(a)].clear();
      }
    }
    found.clear();
    at.clear();
    runs_read = false;
  }

  void read_runs(const std::string& t, std::size_t atoms) {
    if (runs_read) return;
    for (auto& of : runs_of) {
      if (of.size() < atoms) of.resize(atoms);
    }
    // Where runs begin: a byte of the kind after one not of it (bit 0:
    // words, bit 1: letters), found by a table look-up per byte.
    static constexpr std::array<std::uint8_t, 256> kKind = [] {
      std::array<std::uint8_t, 256> kind{};
      for (int c = 0; c < 256; ++c) {
        const auto byte = static_cast<unsigned char>(c);
        kind[static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(
            (is_word_byte(byte) ? 1 : 0) | (run_byte(byte, Runs::kLetters) ? 2 : 0));
      }
      return kind;
    }();
    // Every position is written, and kept where a run begins: no branch
    // per byte.
    for (auto& starts : run_starts) {
      if (starts.size() < t.size() + 1) starts.resize(t.size() + 1);
    }
    std::uint32_t* words = run_starts[0].data();
    std::uint32_t* letters = run_starts[1].data();
    std::size_t n_words = 0, n_letters = 0;
    unsigned before = 0;
    for (std::size_t p = 0; p < t.size(); ++p) {
      const unsigned kind = kKind[static_cast<unsigned char>(t[p])];
      const unsigned begins = kind & ~before;
      before = kind;
      words[n_words] = static_cast<std::uint32_t>(p);
      letters[n_letters] = static_cast<std::uint32_t>(p);
      n_words += begins & 1;
      n_letters += begins >> 1;
    }
    runs = {n_words, n_letters};
    // Each atom found (in the order of the text): how many runs begin at
    // or before it.
    for (std::size_t k = 0; k < 2; ++k) {
      const std::uint32_t* starts = run_starts[k].data();
      std::size_t begun = 0;
      for (const auto& [a, p] : at) {
        while (begun < runs[k] && starts[begun] <= p) ++begun;
        std::vector<std::uint32_t>& runs = runs_of[k][static_cast<std::size_t>(a)];
        const auto w = static_cast<std::uint32_t>(begun);
        if (runs.empty() || runs.back() != w) runs.push_back(w);
      }
    }
    runs_read = true;
  }
};

thread_local Scan scan;

}  // namespace

Status RuleSet::wake(const NormalizedText& text, std::vector<int>& run,
                     std::vector<int>& woken) const {
  run.assign(groups_.size(), 0);
  woken.clear();
  // The atoms present: a bit test per byte (the filter over the atoms'
  // first three bytes), and only where it passes a look-up and a
  // comparison.
  scan.reset(atoms_.size());
  thread_local std::vector<char> rule_woken;  // all zero between calls
  if (rule_woken.size() < rules_.size()) rule_woken.resize(rules_.size(), 0);
  const std::string& t = text.text();
  auto mark = [&](int a, std::size_t p) {
    scan.at.emplace_back(a, static_cast<std::uint32_t>(p));
    if (scan.seen[static_cast<std::size_t>(a)]) return;
    scan.seen[static_cast<std::size_t>(a)] = 1;
    scan.found.push_back(a);
  };
  const std::size_t n = t.size();
  for (std::size_t p = 0; p + kMinAtomBytes <= n; ++p) {
    // The next four bytes in one load (little-endian: key4's order); where
    // only three are left, those.
    std::uint32_t k4 = 0;
    if (p + 4 <= n) {
      std::memcpy(&k4, t.data() + p, 4);
      if constexpr (std::endian::native != std::endian::little) k4 = key4(t.data() + p);
    }
    // Atoms of three bytes are their key; longer ones compare the rest.
    const std::uint32_t k3 = p + 4 <= n ? k4 & 0xFFFFFFu : key3(t.data() + p);
    if (!may_start_atom(k3)) continue;  // no atom starts so
    if (by3_.may_hold(k3)) {
      for (const int* a = by3_.find(k3); a != nullptr && *a >= 0; ++a) mark(*a, p);
    }
    if (p + 4 > n) continue;
    if (!by4_.may_hold(k4)) continue;
    for (const int* a = by4_.find(k4); a != nullptr && *a >= 0; ++a) {
      const std::string& atom = atoms_[static_cast<std::size_t>(*a)].text;
      if (atom.size() > n - p) continue;
      bool equal = true;
      for (std::size_t k = 4; k < atom.size() && equal; ++k) equal = t[p + k] == atom[k];
      if (equal) mark(*a, p);
    }
  }
  // A rule wakes when an alternative's first cover has an atom present and
  // each of its further covers too (further_[rule] from `at`).
  auto further_present = [&](const std::vector<int>& list, std::uint32_t at) {
    bool present = false;  // in the cover read so far
    for (auto x = list.begin() + at; *x != kEndAlternative; ++x) {
      if (*x == kEndCover) {
        if (!present) return false;
        present = false;
      } else if (!present) {
        present = scan.seen[static_cast<std::size_t>(*x)] != 0;
      }
    }
    return true;
  };
  // Whether an atom of each cover of an alternative lies within alt.words
  // runs of one of the others' (a match holds no more).
  thread_local std::array<std::vector<std::uint32_t>, kMaxCovers> cover_words;
  auto near = [&](const Alternative& alt) {
    scan.read_runs(t, atoms_.size());
    const auto& runs_of = scan.runs_of[static_cast<std::size_t>(alt.runs)];
    const std::vector<int>& list = further_[static_cast<std::size_t>(alt.rule)];
    std::size_t covers = 0, fewest = 0;
    for (auto x = list.begin() + alt.first; *x != kEndAlternative; ++x) {
      std::vector<std::uint32_t>& words = cover_words[covers];
      words.clear();
      for (; *x != kEndCover; ++x) {
        const std::vector<std::uint32_t>& w = runs_of[static_cast<std::size_t>(*x)];
        words.insert(words.end(), w.begin(), w.end());
      }
      std::sort(words.begin(), words.end());
      if (words.size() < cover_words[fewest].size()) fewest = covers;
      ++covers;
    }
    const auto span = static_cast<std::uint32_t>(alt.words);
    for (std::uint32_t w : cover_words[fewest]) {
      bool all = true;
      for (std::size_t c = 0; c < covers && all; ++c) {
        const std::vector<std::uint32_t>& words = cover_words[c];
        auto it = std::lower_bound(words.begin(), words.end(), w > span ? w - span : 0);
        all = it != words.end() && *it <= w + span;
      }
      if (all) return true;
    }
    return false;
  };
  for (int a : scan.found) {
    for (const Alternative& alt : atoms_[static_cast<std::size_t>(a)].first_of) {
      const auto rule = static_cast<std::size_t>(alt.rule);
      if (rule_woken[rule] || !further_present(further_[rule], alt.at)) continue;
      // With further covers, their atoms must lie near enough.
      if (alt.words != kAnyWords && further_[rule][alt.at] != kEndAlternative && !near(alt)) {
        continue;
      }
      rule_woken[rule] = 1;
      woken.push_back(alt.rule);
      if (group_of_[rule] != kNoGroup) ++run[static_cast<std::size_t>(group_of_[rule])];
    }
  }
  for (int r : woken) rule_woken[static_cast<std::size_t>(r)] = 0;
  return {};
}

void RuleSet::take_near(std::vector<int>& woken, std::vector<int>& near) const {
  near.clear();
  std::size_t kept = 0;
  for (int r : woken) {
    const auto rule = static_cast<std::size_t>(r);
    if (group_of_[rule] == kNoGroup) {
      near.push_back(r);
    } else {
      woken[kept++] = r;
    }
  }
  woken.resize(kept);
}

void RuleSet::near_spans(const std::string& t, int r,
                         std::vector<std::pair<std::uint32_t, std::uint32_t>>& spans) const {
  scan.read_runs(t, atoms_.size());
  spans.clear();
  const auto n = static_cast<std::uint32_t>(t.size());
  // Each alternative: its bound (how many runs of which kind), then its
  // covers. Every match of it holds an atom of each cover: spans around the
  // atoms of the cover the text holds least often, none where the text
  // lacks a cover (the alternative cannot match).
  const std::vector<int>& list = further_[static_cast<std::size_t>(r)];
  for (auto x = list.begin(); x != list.end(); ++x) {
    const auto words = static_cast<std::uint32_t>(*x++);
    const auto kind = static_cast<std::size_t>(*x++);
    const auto& runs_of = scan.runs_of[kind];
    auto fewest = x;
    std::size_t fewest_held = std::string::npos;
    for (; *x != kEndAlternative; ++x) {
      const auto cover = x;
      std::size_t held = 0;
      for (; *x != kEndCover; ++x) held += runs_of[static_cast<std::size_t>(*x)].size();
      if (held < fewest_held) {
        fewest_held = held;
        fewest = cover;
      }
    }
    const std::uint32_t* starts = scan.run_starts[kind].data();
    const std::size_t count = scan.runs[kind];
    for (auto atom = fewest; fewest_held != 0 && *atom != kEndCover; ++atom) {
      for (std::uint32_t w : runs_of[static_cast<std::size_t>(*atom)]) {
        // A match holding this atom (in word w, counted from 1) begins at
        // or after word w - words and ends before word w + words + 1.
        const std::uint32_t from = w > words ? starts[w - words - 1] : 0;
        const std::uint32_t to = w + words < count ? starts[w + words] : n;
        spans.emplace_back(from, to);
      }
    }
  }
  std::sort(spans.begin(), spans.end());
  std::size_t merged = 0;
  for (const auto& span : spans) {
    if (merged != 0 && span.first <= spans[merged - 1].second) {
      spans[merged - 1].second = std::max(spans[merged - 1].second, span.second);
    } else {
      spans[merged++] = span;
    }
  }
  spans.resize(merged);
}

bool RuleSet::runs_set(const std::vector<int>& run, std::size_t g, std::size_t bytes) const {
  return groups_[g].always || run[g] > (bytes > kLongTextBytes ? kDirectRulesLong : kDirectRules);
}

Result<RuleSet::Wakes> RuleSet::sets_woken(const NormalizedText& text) const {
  std::vector<int> run, woken;
  Wakes wakes;
  if (Status s = wake(text, run, woken); !s.ok()) return s;
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    wakes.woken += groups_[g].always || run[g] > 0 ? 1 : 0;
  }
  take_near(woken, wakes.near);
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    wakes.run += runs_set(run, g, text.text().size()) ? 1 : 0;
  }
  for (int r : woken) {
    const auto g = static_cast<std::size_t>(group_of_[static_cast<std::size_t>(r)]);
    if (!runs_set(run, g, text.text().size())) wakes.direct.push_back(r);
  }
  return wakes;
}

Status RuleSet::match(const NormalizedText& text, Findings& out) const {
  thread_local std::vector<int> in_set, matched, run, woken, near;
  thread_local std::vector<std::pair<std::uint32_t, std::uint32_t>> spans;
  if (Status s = wake(text, run, woken); !s.ok()) return s;
  take_near(woken, near);
  matched.clear();
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    const Group& group = groups_[g];
    if (!runs_set(run, g, text.text().size())) continue;
    RE2::Set::ErrorInfo error{};
    in_set.clear();
    if (!group.set->Match(text.text(), &in_set, &error)) {
      if (error.kind == RE2::Set::kNoError) continue;
      return set_failed(error.kind);
    }
    for (int i : in_set) matched.push_back(group.rules[static_cast<std::size_t>(i)]);
  }
  // A group the text wakes by a rule or two: those rules' own regexes
  // (below) instead of a pass of its set; and the rules whose matches hold
  // few words: their own regexes near their atoms.
  for (int r : woken) {
    if (!runs_set(run, static_cast<std::size_t>(group_of_[static_cast<std::size_t>(r)]),
                  text.text().size())) {
      matched.push_back(r);
    }
  }
  matched.insert(matched.end(), near.begin(), near.end());
  // Findings in rule order, whichever set found them.
  std::sort(matched.begin(), matched.end());
  const re2::StringPiece input(text.text());
  re2::StringPiece groups[2];
  for (int index : matched) {
    const Rule& rule = rules_[static_cast<std::size_t>(index)];
    const RE2& regex = rule.regex();
    if (!regex.ok()) {  // compiled on first use, beyond its memory budget
      return Status::resource_exhausted("rule '" + rule.id + "': " + regex.error());
    }
    const int ngroups = std::min(regex.NumberOfCapturingGroups(), 1) + 1;
    // Near its atoms: the spans a match can lie in, first to last. A match
    // in an earlier span would be one further left; the regex sees the
    // whole text around a span (\b, ^ and $ read it).
    bool found = false;
    if (group_of_[static_cast<std::size_t>(index)] == kNoGroup) {
      near_spans(text.text(), index, spans);
      for (const auto& [from, to] : spans) {
        found = rule.find(input, from, to, groups, ngroups);
        if (found) break;
      }
    } else {
      found = rule.find(input, 0, input.size(), groups, ngroups);
    }
    if (!found) continue;
    re2::StringPiece evidence = groups[0];
    if (ngroups > 1 && groups[1].data() != nullptr && !groups[1].empty()) evidence = groups[1];
    if (evidence.empty()) continue;  // no evidence, no signal
    const std::size_t start = static_cast<std::size_t>(evidence.data() - input.data());
    auto [orig_start, orig_end] = text.to_original(start, start + evidence.size());
    Finding f = Finding::at(rule.key, orig_start, orig_end);
    f.weight = rule.weight;
    f.requires_context = rule.requires_context;
    f.severity = rule.severity;
    out.push_back(std::move(f));
  }
  return {};
}

bool Rule::find(const re2::StringPiece& input, std::size_t from, std::size_t to,
                re2::StringPiece* groups, int ngroups) const {
  const RE2& re = regex();
  while (from <= to && re.Match(input, from, to, RE2::UNANCHORED, groups, ngroups)) {
    const auto start = static_cast<std::size_t>(groups[0].data() - input.data());
    const std::size_t end = start + groups[0].size();
    // kBesideBytes each side of the match: before it from a character's
    // first byte on; after it a character cut at the end is not read (RE2
    // matches no partial character).
    std::size_t before = start > kBesideBytes ? start - kBesideBytes : 0;
    while (before < start && (static_cast<unsigned char>(input[before]) & 0xC0) == 0x80) ++before;
    const bool negated =
        (not_after && RE2::PartialMatch(input.substr(before, start - before), *not_after)) ||
        (not_before && RE2::PartialMatch(input.substr(end, kBesideBytes), *not_before));
    if (!negated) return true;
    from = start + std::max<std::size_t>(groups[0].size(), 1);
  }
  return false;
}

bool RuleSet::matches(const Rule& rule, std::string_view text) {
  NormalizedText normalized(text, /*underscores_as_spaces=*/true);
  const re2::StringPiece input(normalized.text());
  re2::StringPiece match;
  return rule.find(input, 0, input.size(), &match, 1);
}

}  // namespace scamcheck::internal
