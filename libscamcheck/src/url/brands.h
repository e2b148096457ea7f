// The brand table (data/lists/brands.json): which registrable domains belong
// to which brand, which names to look for in host names and paths, and the
// look-alike (typosquat) search. Everything is indexed once at load time;
// lookups are const and allocation-free on the common path.
#ifndef SCAMCHECK_URL_BRANDS_H_
#define SCAMCHECK_URL_BRANDS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "data/data_source.h"
#include "detect/lookalike_fold.h"  // ascii_skeleton(), used with this table
#include "scamcheck/status.h"

namespace scamcheck::internal {

// Transparent hashing so that string_view lookups do not allocate.
struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

// Finds registered strings (lower-case ASCII letters/digits, >= 3 bytes) as
// substrings of a text in one pass: candidates come from a direct table
// indexed by the first two bytes, so a position costs one array read.
// Used for brand tokens and URL keywords.
class SubstringIndex {
 public:
  struct Hit {
    std::size_t pos;  // in the searched text
    std::size_t len;
    int id;  // the id given to add()
  };
  SubstringIndex() : by_prefix_(kSlots * kSlots) {}
  void add(std::string needle, int id);
  // Appends every occurrence, left to right, to `out`.
  void find_all(std::string_view text, std::vector<Hit>& out) const;
  bool empty() const { return entries_.empty(); }

 private:
  static constexpr int kSlots = 37;  // a-z, 0-9, anything else
  static int slot(char c) {
    if (c >= 'a' && c <= 'z') return c - 'a';
    if (c >= '0' && c <= '9') return 26 + (c - '0');
    return 36;
  }
  struct Entry {
    std::string needle;
    int id;
  };
  std::vector<Entry> entries_;
  std::vector<std::vector<int>> by_prefix_;  // slot pair -> entries_ index
};

struct Brand {
  std::string id;                            // stable slug, e.g. "paypal"
  std::string name;                          // display name, e.g. "PayPal"
  std::string category;                      // "bank", "parcel", "tech", ... (may be empty)
  std::vector<std::string> domains;          // official registrable domains
  std::vector<std::string> domain_patterns;  // e.g. "sparkasse-*.de"
  bool any_cctld = false;                    // <label>.<ccTLD> is official for its domain labels
  std::vector<std::string> tokens;           // inside words; <= 5 letters at a word start
  std::vector<std::string> words;            // matched as whole words only
  std::vector<std::string> host_words;       // whole words, host names only
  // Of a category in "open_platform_categories" ("tech", "social"): a
  // platform anyone can publish on, so a page there says nothing of the brand.
  bool open_platform = false;
};

// How a label resembles a brand.
enum class LookalikeKind {
  kNone,
  kContainsBrand,  // "paypal-secure", "amazonjp-login": the brand as a word
  kHomoglyph,      // same skeleton: "paypa1", "rnicrosoft", "xn--pypal-4ve"
  kTypo,           // one or two edits: "paypall", "amazom", "netfilx"
};

struct LookalikeMatch {
  LookalikeKind kind = LookalikeKind::kNone;
  int brand = -1;
  std::size_t pos = 0;  // part of the label that matched (kContainsBrand)
  std::size_t len = 0;
  bool word = false;  // the brand is a separate word (between keywords)
};

class BrandTable {
 public:
  // Loads lists/brands.json and lists/phishing_wildcard_words.txt.
  static Result<std::unique_ptr<BrandTable>> load(const DataSource& data);
  // Parses and validates brands.json alone; `name` is used in error
  // messages. Without the phishing words, every wildcard part of a domain
  // pattern makes an official domain.
  static Result<std::unique_ptr<BrandTable>> load(std::string_view json, std::string_view name);

  const std::vector<Brand>& brands() const { return brands_; }

  // True if `registrable` (lower case) is an official domain of some brand
  // (of `brand` for is_official_for): listed, matching a domain pattern, or
  // "<label>.<ccTLD>" for an any_cctld brand when `cctld_ok` (the caller
  // decides which country suffixes qualify; never abused ones).
  bool is_official(std::string_view registrable, bool cctld_ok) const;
  bool is_official_for(int brand, std::string_view registrable, bool cctld_ok) const;
  // The brand `registrable` is an official domain of (the first listed when
  // several share it), or -1.
  int official_brand(std::string_view registrable, bool cctld_ok) const;

  // Brand names and tokens found in `text` (lower-case ASCII). `in_host`
  // selects host_words too. Whole words are delimited by anything that is
  // not a letter (digits end a word: "dhl24" contains "dhl").
  struct Mention {
    int brand;
    std::size_t pos;
    std::size_t len;
  };
  void find_mentions(std::string_view text, bool in_host, std::vector<Mention>& out) const;

  // True if `text` contains one of `brand`'s official domains whose first
  // label is a name of the brand ("apple.com" in "D=http://www.apple.com/").
  bool mentions_official_domain(int brand, std::string_view text) const;

  // Look-alike test for one label (lower case; U-label for IDNs, in which
  // case `unicode_skeleton` is its confusable skeleton). Official labels are
  // the caller's business.
  // Labels repeat across the links of one input ("example" in every
  // "<word>-<n>.example.top", "secure" in "secure-<n>"): each thread keeps
  // the answers for its recent labels (lookalike_uncached() is a pure
  // function of the table, the label and the skeleton).
  LookalikeMatch lookalike(std::string_view label, std::string_view skeleton) const;

  // Lower-case brand names for the confusable-word check on text: distinctive
  // tokens and words of at least 4 letters.
  const std::vector<std::string>& names() const { return names_; }

 private:
  int official_brand_among(int only, std::string_view registrable, bool cctld_ok) const;
  bool has_phishing_word(std::string_view wildcard_part) const;
  struct Target {
    std::string skeleton;  // skeleton of the brand string
    std::string original;
    int brand;
    std::uint64_t chars = 0;  // char_set() of the skeleton
  };
  // The bytes of `s` as a set of 64 bits (byte & 63). Each edit changes the
  // set of a string by at most two bytes, so two strings whose sets differ
  // in more than 2 * k bits are more than k edits apart: a test that spares
  // the edit distance of most brand names.
  static std::uint64_t char_set(std::string_view s);
  void index();
  int find_edit_target(std::string_view skel) const;
  LookalikeMatch lookalike_uncached(std::string_view label, std::string_view skeleton) const;

  // Tells this table's entries in the per-thread lookalike() cache from
  // those of a table freed before (whose address this one may reuse).
  std::uint64_t serial_ = next_serial();
  static std::uint64_t next_serial();

  std::vector<Brand> brands_;
  std::unordered_map<std::string, std::vector<int>, StringHash, std::equal_to<>> official_;
  struct Pattern {
    int brand;
    std::string prefix;  // before '*'
    std::string suffix;  // after '*', e.g. ".de"
  };
  std::vector<Pattern> patterns_;
  // lists/phishing_wildcard_words.txt: a wildcard part containing one makes
  // a phishing domain, not an official one ("sparkasse-hannover.de" is a
  // real Sparkasse, "sparkasse-kundenservice.de" is not).
  std::vector<std::string> phishing_words_;
  std::unordered_map<std::string, int, StringHash, std::equal_to<>> cctld_labels_;
  SubstringIndex tokens_;           // id = brand
  SubstringIndex token_skeletons_;  // skeletons of tokens >= 5 bytes
  struct WordEntry {
    int brand;
    bool host_only;
  };
  std::unordered_map<std::string, std::vector<WordEntry>, StringHash, std::equal_to<>> words_;
  std::vector<Target> targets_;
  std::unordered_map<std::string, int, StringHash, std::equal_to<>> skeleton_exact_;
  // Typo targets by first letter (typosquats keep it), for a bounded
  // edit-distance scan of the few targets of about the right length.
  std::vector<int> typo_targets_[26];
  // The same by first letter and skeleton length (< kTypoLengths), each
  // list in target order.
  static constexpr std::size_t kTypoLengths = 64;
  std::vector<int> typo_by_length_[26][kTypoLengths];
  // (first byte, length) of every whole word, to skip hopeless lookups.
  std::vector<bool> word_shapes_ = std::vector<bool>(128 * 41, false);
  std::vector<std::string> names_;
};

// Optimal string alignment distance (Levenshtein plus adjacent swaps),
// stopping early above `limit`.
int edit_distance(std::string_view a, std::string_view b, int limit);

}  // namespace scamcheck::internal

#endif  // SCAMCHECK_URL_BRANDS_H_
