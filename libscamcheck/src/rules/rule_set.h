// Text rules (data/rules/*.json: text.json, one <lang>.json per further
// language) compiled into RE2::Sets: one pass per set over the normalized
// text finds every matching rule; then only the matched rules run their
// own RE2 to locate the evidence. Findings come in rule order (files sorted
// by name, rules in file order), whichever set found them.
//
// Why a few sets, not one: a set's DFA state is the combination of every
// rule's progress, so with all rules in one DFA the states multiply and text
// never seen before pays for building them. Measured over 1,000 new SMS (131
// rules, p50 of the whole analysis in a fresh process / rule stage warm):
// one set 35 µs / 2.0 µs, sets of 64 22 µs / 3.0 µs, sets of 32 17 µs /
// 4.9 µs. Sets of 32 kept a new message well inside the 20 µs budget.
// With ~380 rules, sets of 16 did better still (callgrind, counts per
// message): a long e-mail wakes most sets, and each set woken by more than
// kDirectRules rules walks the whole text building states for all its
// rules, most of which the text holds no literal of. Dev e-mail read twice
// 5.17 M -> 4.85 M instructions (sets of 8: 4.93 M), dev SMS 113 K -> 101 K,
// every report the same (which rules match does not depend on the sets);
// with kDirectRulesLong below, 4.82 M per e-mail.
//
// Why most sets never run: every pass costs a fixed ~0.1 µs and a DFA walk
// over the text, and with ~380 rules (12 sets) the passes were most of an
// SMS's analysis, an English SMS paying for the Spanish, French, ... sets.
// Each rule has a cover: literals ("atoms") of 3+ bytes, from RE2's
// prefilter (FilteredRE2), one of which every text it matches holds
// ("votre", "password"), and where it needs more things further covers
// ("your" and "password": a text must hold one atom of each; up to
// kMaxCovers, as a rule woken by its first cover alone but rejected by the
// rest of its prefilter costs a pass of its regex for nothing). A pattern
// of several top-level alternatives has covers per alternative, and a text
// wakes the rule when it holds an atom of every cover of one of them
// ("call now|new number": not "call" and "number"). Rules without
// one (every literal shorter, a bare \d pattern) share the sets that always
// run (kAlwaysRulesPerSet each); the others are grouped by file (a
// language's rules together), rules with a short, common atom first. One
// scan of the text finds the atoms present (a bit test per byte against a
// filter of the atoms' first bytes, a table look-up where it passes), and
// only the sets they wake run: an English SMS wakes the sets that always
// run and a few of text.json's, seldom a language file's (figures:
// benchmarks/README.md, "Text rules: sets that sleep"). A set woken by
// only one or two of its rules does not run either: those rules' own
// regexes do, which they need for the evidence anyway.
//
// Words apart: most rules' matches hold a bounded number of words (runs of word
// bytes: "this\W+is\W+my\W+new\W+number" five; max_runs reads the bound from
// the pattern, none for "\S+" or ".*"), or else of runs of letters
// ("call\W+\d[\d\s-]{6,}\d": one, though its digits can make any number of
// words). A rule woken by atoms of several covers wakes only when one atom of
// each lies within that many runs of one of the others'; and a rule whose every
// alternative is bounded is in no set: woken, it runs its own regex only over
// the spans where a match can lie: so many runs either side of each atom of the
// cover the text holds least often (every match holds an atom of each cover),
// leftmost first; none for an alternative whose covers the text does not all
// hold. The sets hold only the other rules: smaller DFAs, asleep more often
// (the e-mails of profile_analyze.sh read twice: 4.37 M -> 4.35 M instructions
// per mail). Over a long e-mail "this", "new" and "number" far apart wake
// nothing, and "new number" is searched a few words around, not the whole mail.
// Which rules match, and where, cannot change: the leftmost match lies in one
// of the spans, and a match in an earlier span would have been further left.
// Over short texts too: fewer sets run over a text never seen, whose DFA states
// they would build (dev SMS read three times: 112,580 -> 104,909 instructions
// per SMS), though the same SMS again costs a little more (92,273 -> 93,803).
//
// The cost: the covers are computed when the rules load, in
// Analyzer::create, which compiles each top-level alternative of each rule
// (RE2 gives a prefilter only for a compiled regex) and the sets on up to
// four threads; a rule's own regex compiles on its first use.
#ifndef SCAMCHECK_RULES_RULE_SET_H_
#define SCAMCHECK_RULES_RULE_SET_H_

#include <re2/filtered_re2.h>
#include <re2/re2.h>
#include <re2/set.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "data/data_source.h"
#include "detect/finding.h"
#include "normalize/normalize.h"
#include "rules/word_runs.h"
#include "scamcheck/status.h"

namespace scamcheck::internal {

// A regex compiled on its first use (from any thread).
class LazyRegex {
 public:
  LazyRegex(std::string pattern, const RE2::Options& options)
      : pattern_(std::move(pattern)), options_(options) {}
  const RE2& get() const {
    if (const RE2* compiled = compiled_.load(std::memory_order_acquire)) return *compiled;
    std::lock_guard<std::mutex> lock(mutex_);
    if (!regex_) {
      regex_ = std::make_unique<RE2>(pattern_, options_);
      compiled_.store(regex_.get(), std::memory_order_release);
    }
    return *regex_;
  }

 private:
  std::string pattern_;
  RE2::Options options_;
  mutable std::mutex mutex_;
  mutable std::unique_ptr<RE2> regex_;
  mutable std::atomic<const RE2*> compiled_{nullptr};
};

struct Rule {
  std::string id;     // stable, unique
  std::string key;    // glossary key
  double weight = 0;  // 0: the key's default weight
  bool requires_context = false;
  std::optional<Severity> severity;  // "severity": the key's default when absent
  std::vector<std::string> match_examples;
  std::vector<std::string> no_match_examples;

  // The rule's own regex, compiled on its first use (from any thread): only
  // the rules a text wakes pay for it. Not ok() only if it outgrew its
  // memory budget then.
  const RE2& regex() const { return lazy->get(); }
  std::unique_ptr<LazyRegex> lazy;
  // "not_after": what, written just before a match, makes it no sign ("we
  // will never ask you to" before "confirm your password"); the search goes
  // on after such a match. Null when the rule has none.
  std::unique_ptr<const RE2> not_after;
  // "not_before": likewise what, written just after a match, makes it no
  // sign ("the password" before "for the Wi-Fi").
  std::unique_ptr<const RE2> not_before;
  static constexpr std::size_t kBesideBytes = 100;  // read each side of a match
  // The rule's leftmost match in input[from, to) not preceded by its
  // not_after nor followed by its not_before (the regex reads the text
  // around the range: \b, ^, $), its groups in groups[0, ngroups).
  bool find(const re2::StringPiece& input, std::size_t from, std::size_t to,
            re2::StringPiece* groups, int ngroups) const;
};

// One rule file: its name (for messages) and its JSON text.
struct RuleFile {
  std::string name;
  std::string json;
};

class RuleSet {
 public:
  // Every rule file of the data pack (rules/*.json, sorted by name: text.json
  // for every language, <lang>.json for one language each) compiled into one
  // set. Ids must be unique across the files.
  // `threads`: how many compile the rules (Options::compile_threads).
  static Result<std::unique_ptr<RuleSet>> load(
      const DataSource& data, const std::function<bool(std::string_view)>& known_key,
      unsigned threads = 0);

  // Rule files compiled into one set, rules in file order. Every problem of
  // every file is reported at once.
  static Result<std::unique_ptr<RuleSet>> compile(
      const std::vector<RuleFile>& files, const std::function<bool(std::string_view)>& known_key,
      unsigned threads = 0);

  // Parses and compiles one rule file. `known_key` says whether a glossary key
  // exists. Every problem (bad JSON, bad pattern, unknown key, duplicate id,
  // a fragment unknown, unused or capturing) is reported at once, each with
  // the file and rule id. A file's "fragments" (named parts of patterns: a
  // list several rules share) are put in place where a pattern names them,
  // "{name}" (expand_fragments).
  static Result<std::unique_ptr<RuleSet>> compile(
      std::string_view json, std::string_view file_name,
      const std::function<bool(std::string_view)>& known_key);

  // Appends one finding per matching rule, spans in original bytes. Fails
  // only if RE2 runs out of memory (never silently "no match").
  Status match(const NormalizedText& text, Findings& out) const;

  // How many of the RE2 sets `text` wakes (the rest cannot match it), and
  // how many of those run a pass over it (a set woken by kDirectRules of
  // its rules or fewer, kDirectRulesLong over a long text, leaves them to
  // their own regexes), and those rules (indices into rules()); the rules
  // searched near their atoms are in no set.
  struct Wakes {
    std::size_t woken = 0, run = 0;
    std::vector<int> direct;
    std::vector<int> near;  // searched near their atoms only
  };
  Result<Wakes> sets_woken(const NormalizedText& text) const;
  std::size_t set_count() const { return groups_.size(); }

  const std::vector<Rule>& rules() const { return rules_; }
  // True if `rule`'s own regex matches `text` after normalization.
  static bool matches(const Rule& rule, std::string_view text);

 private:
  static constexpr std::size_t kRulesPerSet = 16;
  // The sets that run over every text are smaller: their rules (numbers,
  // amounts, word-window patterns) make many DFA states together, which a
  // new text pays for. Over the dev SMS read 3 times (callgrind), 10
  // instead of 32 took fewer instructions at the same warm speed; smaller
  // sets of the other rules cost warm speed (more passes). With 13 such
  // rules left (the others now have literals), 7 (sets of 7 and 6) instead
  // of 10 (10 and 3): dev SMS read 3 times 75,637 -> 73,327 instructions
  // per SMS without compiling, dev e-mails read twice 3.858 M -> 3.825 M,
  // warm SMS the same; 5 or 3 cost warm speed, 13 in one set new texts.
  static constexpr std::size_t kAlwaysRulesPerSet = 7;
  // Covers per rule, or per alternative of its pattern, at most (the first
  // and further ones): each is one more atom a text must hold before the
  // rule's regex runs.
  static constexpr std::size_t kMaxCovers = 4;
  // Shorter literals are no use as a prefilter: nearly every text has them.
  static constexpr int kMinAtomBytes = 3;
  // One RE2::Set and the rules it holds (indices into rules_, ascending).
  struct Group {
    std::unique_ptr<RE2::Set> set;
    std::vector<int> rules;
    bool always = false;  // runs whatever atoms the text holds
  };
  // A rule's covers, or one alternative's: lists of atoms, an atom of each
  // in every match.
  using Covers = std::vector<std::vector<std::string>>;
  // Compiles the sets of `patterns` (one per rule of rules_; `file_of` says
  // which file each came from) and the tables that wake them; a rule's
  // covers per top-level alternative of its pattern (one: the whole).
  Status build(const std::vector<std::string>& patterns, const std::vector<std::size_t>& file_of,
               const std::vector<std::vector<Covers>>& alt_covers, unsigned threads);
  // A set woken by this many of its rules or fewer does not run: those
  // rules' own regexes do (one DFA pass each, over fewer states than the
  // set's), which they need for their evidence anyway.
  static constexpr int kDirectRules = 2;
  // Over a text longer than this, only a set woken by one rule leaves it to
  // its regex: a pass of the set over a long text costs about what one
  // regex's pass does, and most woken rules do not match. Over the ~20 KB
  // newsletter (sets of 16) two rules' regexes instead of their set took
  // 10.0 M instructions per mail against 9.5 M.
  static constexpr std::size_t kLongTextBytes = 1024;
  static constexpr int kDirectRulesLong = 1;
  // Which rules `text` wakes (`woken`, each once) and how many of each
  // group's (run[g]); groups that always run count none.
  Status wake(const NormalizedText& text, std::vector<int>& run, std::vector<int>& woken) const;
  // Moves the woken rules whose every alternative's matches hold a bounded
  // number of runs (in no group: kNoGroup) from `woken` to `near`: their own
  // regexes search only the spans around their atoms (near_spans), not the
  // whole text.
  void take_near(std::vector<int>& woken, std::vector<int>& near) const;
  // Rule r's spans of the last text this thread woke the rules over (`t`):
  // where a match can lie, given the words the atoms of each alternative's
  // least held cover were found in; in order, merged where they meet.
  void near_spans(const std::string& t, int r,
                  std::vector<std::pair<std::uint32_t, std::uint32_t>>& spans) const;
  // Whether group g runs its set for a text of `bytes` that wakes run[g]
  // of its rules.
  bool runs_set(const std::vector<int>& run, std::size_t g, std::size_t bytes) const;

  std::vector<Rule> rules_;  // in file order
  std::vector<Group> groups_;
  // Every atom of the rules' covers and the alternatives (of rules) whose
  // first cover holds it; groups that are not `always` run only when a
  // rule wakes them.
  struct Alternative {
    int rule;
    std::uint32_t first;  // its covers in further_[rule]: the first one
    std::uint32_t at;     // its further ones (kEndAlternative: none)
    int words;            // the most runs a match holds (kAnyWords: no bound)
    Runs runs;            // of words, or else of letters
  };
  static constexpr int kAnyWords = -1;
  struct Atom {
    std::string text;
    std::vector<Alternative> first_of;
  };
  std::vector<Atom> atoms_;
  // Of each rule; kNoGroup: every alternative's runs bounded (and it has
  // covers), so it is searched near its atoms, never by a set.
  std::vector<int> group_of_;
  static constexpr int kNoGroup = -1;
  // Of each rule, per alternative of its pattern (build()): the most runs
  // its matches hold and of which kind (Alternative::words and runs), the
  // atoms of each of its covers, each cover ended by kEndCover, then
  // kEndAlternative.
  static constexpr int kEndCover = -1, kEndAlternative = -2;
  std::vector<std::vector<int>> further_;
  // Atom ids by a key of an atom's first bytes: an open-addressed table,
  // and a bit per 16-bit hash of the key that says whether any atom has it
  // (a test per byte of the text that nearly always ends the look-up).
  struct PrefixTable {
    struct Slot {
      std::uint32_t key = 0;
      std::uint32_t begin = 0, end = 0;  // in ids; empty slot: begin == end
    };
    std::vector<Slot> slots;  // a power of two
    std::vector<int> ids;     // each key's atoms, then -1
    int shift = 32;           // slot of a key: its hash >> shift
    std::array<std::uint64_t, 1024> filter{};

    void build(std::vector<std::pair<std::uint32_t, int>> entries);
    bool may_hold(std::uint32_t key) const {
      const std::uint32_t bit = key * 2654435761u >> 16;
      return (filter[bit / 64] >> (bit % 64) & 1) != 0;
    }
    // The key's atom ids, ended by -1; nullptr if none.
    const int* find(std::uint32_t key) const {
      const std::size_t mask = slots.size() - 1;
      for (std::size_t at = (key * 2654435761u) >> shift; slots[at].end != slots[at].begin;
           at = (at + 1) & mask) {
        if (slots[at].key == key) return ids.data() + slots[at].begin;
      }
      return nullptr;
    }
  };
  PrefixTable by3_;  // atoms of three bytes, by all of them
  PrefixTable by4_;  // longer atoms, by their first four
  // A bit per 16-bit hash of every atom's first three bytes: one test per
  // byte of the text, where most positions end (before both tables').
  std::array<std::uint64_t, 1024> first3_{};
  bool may_start_atom(std::uint32_t key3) const {
    const std::uint32_t bit = key3 * 2654435761u >> 16;
    return (first3_[bit / 64] >> (bit % 64) & 1) != 0;
  }
};

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_RULES_RULE_SET_H_
